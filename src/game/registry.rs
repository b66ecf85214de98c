//! The one place where games are registered by name; everything else finds them here.
//!
//! Code that must run monomorphised over a game (perft, bench, later the search session)
//! implements [`GameVisitor`] and is handed the concrete type by [`visit`].

use super::{Game, GameError, GameInfo};

/// Something to do with a concrete game type.
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self) -> Self::Output;
}

fn matches(info: &GameInfo, key: &str) -> bool {
    info.name == key || info.aliases.contains(&key)
}

macro_rules! registry {
    ($($game:ty),* $(,)?) => {
        /// Every registered game, in listing order.
        pub const GAMES: &[GameInfo] = &[$(<$game as Game>::INFO),*];

        /// Calls `visitor` with the game registered under `name` or one of its aliases
        /// (case-insensitive).
        pub fn visit<V: GameVisitor>(name: &str, visitor: V) -> Result<V::Output, GameError> {
            let key = name.trim().to_ascii_lowercase();
            $(
                if matches(&<$game as Game>::INFO, &key) {
                    return Ok(visitor.visit::<$game>());
                }
            )*
            Err(GameError::UnknownGame(name.to_string()))
        }
    };
}

// GAMES-LIST: each game adds `use super::<file>::<Type>;` and its type to the list below.
use super::ataxx::Ataxx;
use super::awari::Awari;
use super::breakthrough::Breakthrough;
use super::chess::{losalamos::LosAlamos, reachchess::ReachChess, skirmish::Skirmish};
use super::connect4::ConnectFour;
use super::gomoku::Gomoku;
use super::kalah::Kalah;
use super::knightthrough::Knightthrough;
use super::loa::Loa;
use super::minishogi::Minishogi;
use super::reversi::Reversi;
use super::surakarta::Surakarta;

registry! {
    Breakthrough<8>,
    Breakthrough<7>,
    Breakthrough<6>,
    Knightthrough,
    ConnectFour,
    Reversi,
    Loa<8>,
    Loa<7>,
    Awari,
    Kalah,
    Minishogi,
    Gomoku<true>,
    Gomoku<false>,
    Surakarta,
    LosAlamos,
    ReachChess,
    Skirmish,
    Ataxx,
}

/// The registered name for `name` (resolving aliases), if any.
pub fn canonical_name(name: &str) -> Option<&'static str> {
    let key = name.trim().to_ascii_lowercase();
    GAMES
        .iter()
        .find(|info| matches(info, &key))
        .map(|info| info.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_are_unique() {
        let mut all: Vec<&str> = Vec::new();
        for info in GAMES {
            all.push(info.name);
            all.extend(info.aliases.iter().copied());
        }
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n, "a name or alias is registered twice");
    }

    #[test]
    fn aliases_resolve() {
        assert_eq!(canonical_name("connect4"), Some("cfour"));
        assert_eq!(canonical_name("Othello"), Some("reversi"));
        assert_eq!(canonical_name("oware"), Some("awari"));
        assert_eq!(canonical_name("chess"), None);
    }
}
