//! A loaded network shared by searches and threads, named by the file it came from.

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use super::{Network, NetworkError};

/// A network loaded from a file: cheap to clone (the weights are shared, read-only, by every
/// search and thread that uses them). Two handles are equal when they name the same file, so
/// search parameters compare and round-trip through their spec.
#[derive(Clone)]
pub struct NetworkFile {
    /// One pointer, so that search parameters (and the command lines that hold them) stay small.
    loaded: Arc<Loaded>,
}

struct Loaded {
    path: String,
    net: Network,
}

impl NetworkFile {
    /// Loads `path` (a `.gpnn` file of `gpn train`).
    pub fn load(path: &str) -> Result<NetworkFile, NetworkError> {
        let net = Network::load(Path::new(path))?;
        Ok(NetworkFile::new(path, net))
    }

    /// A handle on a network already in memory, named `path`.
    pub fn new(path: &str, net: Network) -> NetworkFile {
        NetworkFile {
            loaded: Arc::new(Loaded {
                path: path.to_string(),
                net,
            }),
        }
    }

    pub fn path(&self) -> &str {
        &self.loaded.path
    }

    pub fn net(&self) -> &Network {
        &self.loaded.net
    }
}

impl PartialEq for NetworkFile {
    fn eq(&self, other: &NetworkFile) -> bool {
        self.path() == other.path()
    }
}

impl fmt::Debug for NetworkFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "NetworkFile({}, {})", self.path(), self.net().game())
    }
}
