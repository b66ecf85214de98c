//! A loaded network shared by searches and threads, named by the file it came from, or the
//! networks embedded in the binary (`builtin`).

use std::fmt;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use super::{Network, NetworkError, QuantNetwork};

/// A network loaded from a file, or [`BUILTIN`]: cheap to clone (the weights are shared,
/// read-only, by every search and thread that uses them). Two handles are equal when they have
/// the same name, so search parameters compare and round-trip through their spec.
///
/// A `builtin` handle holds no network until [`NetworkFile::for_game`] picks the game's embedded
/// one; a search resolves it when it starts.
#[derive(Clone)]
pub struct NetworkFile {
    /// One pointer, so that search parameters (and the command lines that hold them) stay small.
    loaded: Arc<Loaded>,
}

struct Loaded {
    path: String,
    /// `None` only for an unresolved [`BUILTIN`].
    net: Option<Network>,
    /// The int16 value path, made on first use ([`NetworkFile::quantised`]).
    quant: OnceLock<QuantNetwork>,
}

/// The name that selects the game's embedded network (`network=builtin`).
pub const BUILTIN: &str = "builtin";

impl NetworkFile {
    /// Loads `path` (a `.gpnn` file of `gpn train`); [`BUILTIN`] names the embedded networks,
    /// resolved per game by [`NetworkFile::for_game`].
    pub fn load(path: &str) -> Result<NetworkFile, NetworkError> {
        if path == BUILTIN {
            return Ok(NetworkFile {
                loaded: Arc::new(Loaded {
                    path: BUILTIN.to_string(),
                    net: None,
                    quant: OnceLock::new(),
                }),
            });
        }
        let net = Network::load(Path::new(path))?;
        Ok(NetworkFile::new(path, net))
    }

    /// A handle on a network already in memory, named `path`.
    pub fn new(path: &str, net: Network) -> NetworkFile {
        NetworkFile {
            loaded: Arc::new(Loaded {
                path: path.to_string(),
                net: Some(net),
                quant: OnceLock::new(),
            }),
        }
    }

    pub fn path(&self) -> &str {
        &self.loaded.path
    }

    /// Whether this is the unresolved `builtin` handle.
    pub fn is_builtin(&self) -> bool {
        self.loaded.net.is_none()
    }

    /// The handle a search of `game` uses: a file's network as it is (its fit is checked
    /// apart), for `builtin` the game's embedded network (an error if it has none).
    pub fn for_game(&self, game: &str) -> Result<NetworkFile, String> {
        if !self.is_builtin() {
            return Ok(self.clone());
        }
        super::builtin::network(game).ok_or_else(|| {
            let names: Vec<&str> = super::builtin::games().collect();
            format!(
                "{game} has no builtin network (games with one: {})",
                names.join(", ")
            )
        })
    }

    /// The network. Panics on an unresolved `builtin` handle: searches resolve theirs with
    /// [`NetworkFile::for_game`] before they evaluate anything.
    pub fn net(&self) -> &Network {
        self.loaded
            .net
            .as_ref()
            .expect("the builtin network is resolved for the game before use")
    }

    /// The network's int16 value path for positions of at most `max_active` features (the
    /// game's [`super::Features::MAX_ACTIVE`]), made once and shared by every search and thread
    /// of this handle (a handle serves one game, so one bound). Panics as [`NetworkFile::net`].
    pub fn quantised(&self, max_active: usize) -> &QuantNetwork {
        self.loaded
            .quant
            .get_or_init(|| QuantNetwork::with_max_active(self.net(), max_active))
    }
}

impl PartialEq for NetworkFile {
    fn eq(&self, other: &NetworkFile) -> bool {
        self.path() == other.path()
    }
}

impl fmt::Debug for NetworkFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let game = self.loaded.net.as_ref().map_or("any game", |n| n.game());
        write!(f, "NetworkFile({}, {game})", self.path())
    }
}
