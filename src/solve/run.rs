//! One solve as a command runs it: prover checked, network fitted, progress to a callback.

use std::fmt;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::report::SolvedPosition;
use super::{solve, Algo, Pcn, Progress, SolveConfig, SolveResult};
use crate::game::{Game, GameError};

/// Why a position could not be solved as asked.
#[derive(Debug)]
pub enum SetupError {
    /// The prover is not a player of the game (0-based).
    NoSuchPlayer {
        player: usize,
        game: &'static str,
        players: usize,
    },
    /// The network file does not fit the game (its path and why).
    Network { path: String, error: String },
    /// The initialisation asks for proof-cost heads that the network lacks.
    NoCostHeads { path: String, pcn: Pcn },
    /// The position did not set up.
    Game(GameError),
}

impl From<GameError> for SetupError {
    fn from(e: GameError) -> Self {
        SetupError::Game(e)
    }
}

/// A running solve's progress as a watcher sees it.
#[derive(Clone, Copy, Debug)]
pub struct ProgressReport {
    pub algo: Algo,
    /// Since the watch began.
    pub elapsed: Duration,
    pub nodes: u64,
    /// The root's proof and disproof numbers (0 and 0 until the solver publishes them).
    pub pn: f64,
    pub dn: f64,
}

/// The progress line: `solve dfpn: 4 s, 123456 nodes (30864/s), root pn 3 dn 12`.
impl fmt::Display for ProgressReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.elapsed.as_secs_f64();
        let root = if self.pn == 0.0 && self.dn == 0.0 {
            String::new()
        } else {
            format!(", root pn {} dn {}", number(self.pn), number(self.dn))
        };
        write!(
            f,
            "solve {}: {secs:.0} s, {} nodes ({:.0}/s){root}",
            self.algo.name(),
            self.nodes,
            self.nodes as f64 / secs.max(1e-9)
        )
    }
}

/// A proof number as the progress line shows it: an integer, `inf`, or a probability (PPNS).
fn number(x: f64) -> String {
    if x.is_infinite() {
        "inf".to_string()
    } else if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.4}")
    }
}

/// Called from the watcher thread with the progress, every `every` until the solve ends.
pub struct Watch<'a> {
    pub every: Duration,
    pub report: &'a (dyn Fn(&ProgressReport) + Sync),
}

/// [`solve`] with a watcher thread that calls `watch.report` every `watch.every` until the
/// solve ends.
pub fn solve_watched<G: Game>(game: &G, mut cfg: SolveConfig, watch: &Watch<'_>) -> SolveResult {
    let progress = Arc::new(Progress::default());
    cfg.progress = Some(Arc::clone(&progress));
    let (done, finished) = crossbeam_channel::bounded::<()>(1);
    let algo = cfg.algo;
    let every = watch.every;
    let report = watch.report;
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let start = Instant::now();
            // Dropping `done` ends the wait with `Disconnected`; a timeout is the next report.
            while let Err(crossbeam_channel::RecvTimeoutError::Timeout) =
                finished.recv_timeout(every)
            {
                let (pn, dn) = progress.root();
                report(&ProgressReport {
                    algo,
                    elapsed: start.elapsed(),
                    nodes: progress.nodes.load(Ordering::Relaxed),
                    pn,
                    dn,
                });
            }
        });
        let result = solve(game, &cfg);
        drop(done);
        result
    })
}

/// Solves the position `setup` builds, after checking that the prover plays `G` and fitting
/// the network to it (the game's own for `builtin`); watched when `watch` is given.
pub fn solve_position<G: Game>(
    setup: impl FnOnce() -> Result<G, GameError>,
    mut cfg: SolveConfig,
    watch: Option<&Watch<'_>>,
) -> Result<SolvedPosition, SetupError> {
    if let Some(p) = cfg.prover {
        if p.index() >= G::NUM_PLAYERS {
            return Err(SetupError::NoSuchPlayer {
                player: p.index(),
                game: G::INFO.name,
                players: G::NUM_PLAYERS,
            });
        }
    }
    let game = setup()?;
    if let Some(file) = &cfg.network {
        // A file's network must fit the game's encoding.
        let fitted = file
            .for_game(G::INFO.name)
            .and_then(|f| {
                f.net()
                    .check_fits(G::INFO.name, G::INPUTS, G::POLICY)
                    .map(|_| f)
            })
            .map_err(|error| SetupError::Network {
                path: file.path().to_string(),
                error,
            })?;
        if cfg.pcn != Pcn::Off && !fitted.net().has_costs() {
            return Err(SetupError::NoCostHeads {
                path: fitted.path().to_string(),
                pcn: cfg.pcn,
            });
        }
        cfg.network = Some(fitted);
    }
    let result = match watch {
        Some(w) => solve_watched(&game, cfg, w),
        None => solve(&game, &cfg),
    };
    let best_move = result
        .best_move
        .map_or("-".to_string(), |m| game.format_move(m));
    Ok(SolvedPosition {
        position: game.to_position(),
        result,
        best_move,
    })
}
