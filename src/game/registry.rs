//! The one place where games are registered by name; everything else finds them here.
//!
//! Code that must run monomorphised over a game (perft, bench, later the search session)
//! implements [`GameVisitor`] and is handed the concrete type by [`visit`].

use super::{GameError, GameInfo, Rules};
pub use super::{GameVisitor, PlayersVisitor};

fn matches(info: &GameInfo, key: &str) -> bool {
    info.name == key || info.aliases.contains(&key)
}

macro_rules! registry {
    ($($game:ty),* $(,)?) => {
        /// Every registered game, in listing order.
        pub const GAMES: &[GameInfo] = &[$(<$game as Rules>::INFO),*];

        /// Each registered game's player count, in listing order (parallel to [`GAMES`]).
        const PLAYERS: &[usize] = &[$(<$game as Rules>::NUM_PLAYERS),*];

        /// Each registered game's name and its network input count (0: no encoding).
        const NETWORK_INPUTS: &[(&str, usize)] =
            &[$((<$game as Rules>::INFO.name, <$game as crate::game::Features>::INPUTS)),*];

        /// Calls `visitor` with the game registered under `name` or one of its aliases
        /// (case-insensitive).
        pub fn visit<V: GameVisitor>(name: &str, visitor: V) -> Result<V::Output, GameError> {
            let key = name.trim().to_ascii_lowercase();
            $(
                if matches(&<$game as Rules>::INFO, &key) {
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
use super::chess::losalamos::{LosAlamos, LosAlamosLudii};
use super::chess::{reachchess::ReachChess, skirmish::Skirmish};
use super::chinesecheckers::ChineseCheckers;
use super::connect4::ConnectFour;
use super::go::{Go13, Go19, Go5, Go7, Go9, KillallGo, KillallGo7};
use super::gomoku::Gomoku;
use super::kalah::Kalah;
use super::knightthrough::Knightthrough;
use super::loa::Loa;
use super::minishogi::Minishogi;
use super::reversi::Reversi;
use super::rolit::Rolit;
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
    LosAlamosLudii,
    ReachChess,
    Skirmish,
    Ataxx,
    Go9,
    Go13,
    Go19,
    Go7,
    Go5,
    KillallGo,
    KillallGo7,
    Rolit<8, 4>,
    Rolit<8, 3>,
    Rolit<8, 2>,
    Rolit<6, 4>,
    Rolit<6, 3>,
    Rolit<4, 4>,
    Rolit<4, 3>,
    ChineseCheckers<3>,
    ChineseCheckers<4>,
}

/// The number of players of the game registered under `name` or an alias.
pub fn num_players(name: &str) -> Option<usize> {
    let key = name.trim().to_ascii_lowercase();
    GAMES
        .iter()
        .position(|info| matches(info, &key))
        .map(|i| PLAYERS[i])
}

/// The two-player games, in listing order: what the UCI family plays (two-player by design:
/// `UCI_Variant`'s choices) and what GTP's `boardsize` moves between; GTP plays every game, those
/// of more players in its multi-player dialect (protocol/gtp-multiplayer.md).
pub fn two_player_games() -> impl Iterator<Item = &'static GameInfo> {
    GAMES
        .iter()
        .zip(PLAYERS)
        .filter(|&(_, &n)| n == 2)
        .map(|(info, _)| info)
}

/// The games with a network encoding ([`crate::game::Features`]), in listing order.
pub fn network_games() -> impl Iterator<Item = &'static str> {
    NETWORK_INPUTS
        .iter()
        .filter(|&&(_, n)| n > 0)
        .map(|&(name, _)| name)
}

/// The registered name for `name` (resolving aliases), if any.
pub fn canonical_name(name: &str) -> Option<&'static str> {
    let key = name.trim().to_ascii_lowercase();
    GAMES
        .iter()
        .find(|info| matches(info, &key))
        .map(|info| info.name)
}

/// The registered name or alias closest to a misspelt `name` ("breaktrough" -> "breakthrough"),
/// for "did you mean" hints; `None` when nothing is close. Close means at most one edit per
/// three letters (an edit: a letter inserted, deleted, changed, or two swapped), so that a
/// different game ("chess") gets no suggestion.
pub fn suggest(name: &str) -> Option<&'static str> {
    closest(
        name,
        GAMES
            .iter()
            .flat_map(|info| std::iter::once(info.name).chain(info.aliases.iter().copied())),
    )
}

/// The candidate closest to `name` by edit distance (an edit: a letter inserted, deleted,
/// changed, or two swapped; case, spaces, `-` and `_` ignored), if it is within one edit per
/// three letters of `name`: the "did you mean" of game and option names.
pub fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let normalise = |s: &str| -> String {
        s.chars()
            .filter(|c| !matches!(c, ' ' | '_' | '-'))
            .flat_map(char::to_lowercase)
            .collect()
    };
    let key = normalise(name.trim());
    let limit = (key.chars().count() / 3).max(1);
    candidates
        .map(|candidate| (strsim::osa_distance(&key, &normalise(candidate)), candidate))
        .filter(|&(distance, _)| distance <= limit)
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, candidate)| candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn network_games_are_those_with_an_encoding() {
        let games: Vec<&str> = network_games().collect();
        let expected = [
            "breakthrough",
            "breakthrough7x7",
            "breakthrough6x6",
            "cfour",
            "reversi",
        ];
        let later = [
            "minishogi",
            "gomoku",
            "gomokufreestyle",
            "losalamos",
            "go",
            "go13",
            "go19",
            "go7",
            "go5",
            "killallgo",
            "killallgo7",
        ];
        assert_eq!(games, [&expected[..], &later[..]].concat());
    }

    /// `n` (1..=99) in English words, capitalised, as README writes its count of games.
    fn number_word(n: usize) -> String {
        const UNITS: [&str; 20] = [
            "",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
        ];
        const TENS: [&str; 10] = [
            "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
        ];
        let word = match n {
            1..=19 => UNITS[n].to_string(),
            20..=99 if n % 10 == 0 => TENS[n / 10].to_string(),
            20..=99 => format!("{}-{}", TENS[n / 10], UNITS[n % 10]),
            _ => "many".to_string(),
        };
        let mut chars = word.chars();
        chars.next().map_or(String::new(), |c| {
            c.to_ascii_uppercase().to_string() + chars.as_str()
        })
    }

    #[test]
    fn number_words_are_english() {
        assert_eq!(number_word(7), "Seven");
        assert_eq!(number_word(17), "Seventeen");
        assert_eq!(number_word(30), "Thirty");
        assert_eq!(number_word(35), "Thirty-five");
        assert_eq!(number_word(100), "Many");
    }

    /// docs/games.md has a row for every registered game, and README's count is right.
    #[test]
    fn the_documents_list_every_game() {
        let table = include_str!("../../docs/games.md");
        let readme = include_str!("../../README.md");
        for info in GAMES {
            assert!(
                table.contains(&format!("\n| `{}` |", info.name)),
                "docs/games.md has no row for {}",
                info.name
            );
        }
        let count = number_word(GAMES.len());
        assert!(
            readme.contains(&format!("{count} games are registered")),
            "README should say '{count} games are registered'"
        );
    }

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

    #[test]
    fn misspelt_names_get_a_suggestion() {
        assert_eq!(suggest("breaktrough"), Some("breakthrough"));
        assert_eq!(suggest("Othelo"), Some("othello"));
        assert_eq!(suggest("conect4"), Some("connect4"));
        assert_eq!(suggest("minishgoi"), Some("minishogi"));
        assert_eq!(suggest("chess"), None);
        assert_eq!(suggest("xiangqi"), None);
        assert_eq!(suggest("go"), Some("go"));
        assert_eq!(suggest("baduc"), Some("baduk"));
    }
}
