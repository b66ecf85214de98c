//! The networks gpn ships, embedded in the binary (`nets/<game>.gpnn`; docs/learned.md says
//! how each was trained).

use std::sync::OnceLock;

use super::{Network, NetworkFile, BUILTIN};

/// (game, file bytes) of every embedded network. Each is at most 2 MB (a test holds them to it).
const EMBEDDED: &[(&str, &[u8])] = &[
    (
        "breakthrough",
        include_bytes!("../../nets/breakthrough.gpnn"),
    ),
    ("cfour", include_bytes!("../../nets/cfour.gpnn")),
    ("reversi", include_bytes!("../../nets/reversi.gpnn")),
    ("minishogi", include_bytes!("../../nets/minishogi.gpnn")),
    ("losalamos", include_bytes!("../../nets/losalamos.gpnn")),
    // Proof-cost networks for the solvers (experiments/pcn.md); the play defaults of
    // these games do not use them.
    (
        "gomokufreestyle",
        include_bytes!("../../nets/gomokufreestyle.gpnn"),
    ),
    ("killallgo", include_bytes!("../../nets/killallgo.gpnn")),
];

/// The games with an embedded network.
pub fn games() -> impl Iterator<Item = &'static str> {
    EMBEDDED.iter().map(|&(game, _)| game)
}

/// The embedded network of `game` (a registered name), read once per process and shared.
pub fn network(game: &str) -> Option<NetworkFile> {
    static LOADED: OnceLock<Vec<Option<NetworkFile>>> = OnceLock::new();
    let loaded = LOADED.get_or_init(|| {
        EMBEDDED
            .iter()
            .map(|&(name, mut bytes)| match Network::read(&mut bytes) {
                // A file that does not read is a build error the tests catch; the engine then
                // plays without it rather than abort.
                Ok(net) if net.game() == name => Some(NetworkFile::new(BUILTIN, net)),
                Ok(net) => {
                    log::error!("builtin network of {name} is for {}", net.game());
                    None
                }
                Err(e) => {
                    log::error!("builtin network of {name}: {e}");
                    None
                }
            })
            .collect()
    });
    let k = EMBEDDED.iter().position(|&(name, _)| name == game)?;
    loaded[k].clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::registry::{network_games, visit, GameVisitor};
    use crate::game::Game;

    /// Every embedded network reads, is for its game, fits the game's encoding and is small.
    #[test]
    fn every_builtin_network_reads_and_fits_its_game() {
        struct Fits;
        impl GameVisitor for Fits {
            type Output = (usize, usize);
            fn visit<G: Game>(self) -> (usize, usize) {
                (G::INPUTS, G::POLICY)
            }
        }
        for &(game, bytes) in EMBEDDED {
            assert!(bytes.len() <= 2 << 20, "{game}: {} bytes", bytes.len());
            assert!(network_games().any(|g| g == game), "{game}");
            let net = network(game).unwrap_or_else(|| panic!("{game} does not read"));
            let (inputs, policy) = visit(game, Fits).unwrap();
            net.net().check_fits(game, inputs, policy).unwrap();
        }
        assert!(network("go9").is_none());
    }
}
