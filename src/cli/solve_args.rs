//! `gpn solve`'s arguments, the solver settings they make, and its progress and warning lines.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::parse::{parse_algo, parse_epsilon, parse_half, parse_memory, parse_pcn, parse_seconds};
use super::position::PositionArgs;
use super::{count, interrupt, parse_threads, positive, CliError};
use crate::arena::shard::Shard;
use crate::nn::NetworkFile;
use crate::solve::run::{ProgressReport, Watch};
use crate::solve::{Algo, Pcn, SolveConfig};

pub const AFTER_HELP: &str = "\
Algorithms: pns (Allis' proof-number search), dfpn (depth-first PN with a transposition table
and the 1+epsilon trick), ppns (probability-based PN search: playouts at leaves, --theta, --pr),
mcpns (Monte-Carlo PN search), sb-gpn (gpn's own search run until the root is solved).

Batch files: one position per line, `<game> <position string|start> [| win|draw|loss]`, `#`
starts a comment; a given value is checked (ok / MISMATCH) and a summary per algorithm follows.
--shard K/N solves the positions i (0-based) with i % N == K; with --json each line carries the
run id and the index, and `gpn merge` puts the shards' lines together.

Examples:
    gpn solve cfour --moves d,d,d,d,c,c,e,e --algo dfpn,pns
    gpn solve --batch tests/data/cfour-12ply.txt --algo pns,dfpn --max-nodes 1000000
    gpn solve cfour --generate 10 --plies 12";

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The game (a name or alias of `gpn games`)
    #[arg(value_name = "game")]
    pub(super) game: Option<String>,
    #[command(flatten)]
    pub(super) position: PositionArgs,
    /// The solvers to run, side by side: pns, dfpn, ppns, mcpns, sb-gpn (comma-separated)
    #[arg(long = "algo", value_name = "algo", value_delimiter = ',', value_parser = parse_algo)]
    pub(super) algos: Vec<Algo>,
    /// Stop after this many nodes over both proofs (the answer is then `unknown`)
    #[arg(long, value_name = "n", value_parser = count::<u64>)]
    pub(super) max_nodes: Option<u64>,
    /// Stop after this many seconds (the answer is then `unknown`)
    #[arg(long, value_name = "seconds", value_parser = parse_seconds)]
    pub(super) max_time: Option<Duration>,
    /// Memory for the tree or the transposition table, in MB; at the limit the answer is
    /// `unknown`, never a crash
    #[arg(long, value_name = "MB", default_value_t = SolveConfig::default().memory_mb, value_parser = parse_memory)]
    pub(super) memory: usize,
    /// Workers that share out the solve (each with --memory/n MB, at least 16)
    #[arg(long, value_name = "n", default_value_t = SolveConfig::default().threads, value_parser = parse_threads)]
    pub(super) threads: usize,
    /// Random playouts per new leaf (ppns, mcpns)
    #[arg(long, value_name = "k", default_value_t = SolveConfig::default().playouts, value_parser = positive::<u32>)]
    pub(super) playouts: u32,
    /// ppns: how far a playout rate of exactly 0 or 1 is moved inward; mcpns: the smallest leaf
    /// proof or disproof number; in [0, 0.5)
    #[arg(long, value_name = "x", default_value_t = SolveConfig::default().theta, value_parser = parse_half)]
    pub(super) theta: f64,
    /// ppns precision rate: conclude when the root is within x of 0 or 1 (a conclusion, not a
    /// proof); in [0, 0.5) [default: only proofs end the search]
    #[arg(long, value_name = "x", value_parser = parse_half)]
    pub(super) pr: Option<f64>,
    /// dfpn's 1+epsilon trick (0 = plain thresholds)
    #[arg(long, value_name = "x", default_value_t = SolveConfig::default().epsilon, value_parser = parse_epsilon)]
    pub(super) epsilon: f64,
    /// dfpn: initial proof and disproof numbers of new leaves from the game's evaluation v,
    /// 1 + round(k (1 - v)) and 1 + round(k (1 + v)) (df-pn+); 0: 1 and 1
    #[arg(long, value_name = "k", default_value_t = 0, value_parser = count::<u32>)]
    pub(super) eval_init: u32,
    /// dfpn: multiply a new leaf's number that needs every move answered (dn where the root
    /// player moves, pn where the opponent does) by its number of legal moves
    #[arg(long)]
    pub(super) mobility: bool,
    /// dfpn without --net: order each node's moves by the game's knowledge priors p (Go's) and
    /// see a child's number that its parent minimises multiplied by 1 + k (1 - p); 0: off
    #[arg(long, value_name = "k", default_value_t = 0, value_parser = count::<u32>)]
    pub(super) prior_init: u32,
    /// A network for the solvers (a .gpnn file of `gpn train`, or builtin): dfpn orders and
    /// focuses each node's moves by its policy and initialises new positions from it (--pcn);
    /// pns orders and initialises likewise; sb-gpn searches with it
    #[arg(long = "net", value_name = "file")]
    pub(super) net: Option<String>,
    /// With --net: new positions' numbers from the proof-cost heads, divided by the branching
    /// factor of the network's labels (b_max: the action space, b_heur: the node's moves), or
    /// off: from the value head with --eval-init's formula
    #[arg(long, value_name = "b", default_value = "off", value_parser = parse_pcn, requires = "net")]
    pub(super) pcn: Pcn,
    /// With --net: dfpn's progressive widening, the share of a node's unsolved moves searched
    /// at once (after the first); 0: all moves
    #[arg(long, value_name = "mu", default_value_t = SolveConfig::default().focus, value_parser = parse_epsilon, requires = "net")]
    pub(super) focus: f64,
    /// The game's forcing rule (Gomoku's four-threat rule: complete one's own five, else only
    /// block the opponent's): a pruning that never changes a value (dfpn, sb-gpn, pns, ppns,
    /// mcpns)
    #[arg(long = "4t", alias = "forcing")]
    pub(super) forcing: bool,
    /// Prove for player N (1 = the first player) instead of the side to move: its win, with
    /// every other player against it (paranoid with more than two players); every algorithm,
    /// with any number of threads
    #[arg(long, value_name = "N", value_parser = positive::<u8>)]
    pub(super) player: Option<u8>,
    /// Random seed (playouts, sb-gpn, --generate)
    #[arg(long, value_name = "s", default_value_t = SolveConfig::default().seed, value_parser = count::<u64>)]
    pub(super) seed: u64,
    /// Solve every position of this file instead (no <game>, --position or --moves)
    #[arg(long, value_name = "file")]
    pub(super) batch: Option<PathBuf>,
    /// With --batch: CSV rows on stdout, the summary on stderr
    #[arg(long, requires = "batch")]
    pub(super) csv: bool,
    /// One JSON object per line on stdout for each solve (position and algorithm) instead of
    /// the text report; with --batch the summary goes to stderr
    #[arg(long, conflicts_with = "csv")]
    pub(super) json: bool,
    /// With --batch: solve only shard K of N (0 <= K < N), the positions i (0-based, in file
    /// order) with i % N == K; with --json each line carries the run id and the index, which
    /// `gpn merge` puts together
    #[arg(long, value_name = "K/N", value_parser = Shard::parse, requires = "batch")]
    pub(super) shard: Option<Shard>,
    /// No progress lines on stderr (by default a long solve reports its nodes, rate and root
    /// proof/disproof numbers every few seconds)
    #[arg(long)]
    pub(super) quiet: bool,
    /// Print n distinct seeded random positions of <game> (not over) as batch lines
    #[arg(long, value_name = "n", value_parser = positive::<usize>, conflicts_with_all = ["batch", "algos"])]
    pub(super) generate: Option<usize>,
    /// With --generate: plies from the start position
    #[arg(long, value_name = "p", default_value_t = 12, value_parser = count::<u32>, requires = "generate")]
    pub(super) plies: u32,
}

impl SolveArgs {
    /// The solver settings of the command line, without the network (the algorithm is set per
    /// run): what a batch's run id hashes.
    pub(super) fn settings(&self) -> SolveConfig {
        SolveConfig {
            max_nodes: self.max_nodes,
            max_time: self.max_time,
            memory_mb: self.memory,
            threads: self.threads,
            playouts: self.playouts,
            theta: self.theta,
            pr: self.pr,
            epsilon: self.epsilon,
            eval_init: self.eval_init,
            mobility: self.mobility,
            prior_init: self.prior_init,
            pcn: self.pcn,
            focus: self.focus,
            forcing: self.forcing,
            prover: self
                .player
                .map(|n| crate::game::Player(n.saturating_sub(1))),
            seed: self.seed,
            // Ctrl-C ends the solve with what it has (a second one quits at once).
            stop: Some(interrupt::flag()),
            ..SolveConfig::default()
        }
    }

    /// [`SolveArgs::settings`] with the network loaded.
    pub(super) fn config(&self, mut cfg: SolveConfig) -> Result<SolveConfig, CliError> {
        if let Some(path) = &self.net {
            cfg.network = Some(
                NetworkFile::load(path).map_err(|e| CliError::Io(format!("--net {path}: {e}")))?,
            );
        }
        Ok(cfg)
    }
}

/// Progress lines on stderr every 2 s while a solve runs.
pub(super) const WATCH: Watch<'static> = Watch {
    every: Duration::from_secs(2),
    report: &|p: &ProgressReport| eprintln!("{p}"),
};

/// Says on stderr that a solve without limits runs until it is solved (or Ctrl-C).
pub(super) fn warn_unlimited(a: &SolveArgs) {
    if a.max_nodes.is_none() && a.max_time.is_none() && !a.quiet {
        eprintln!(
            "solve: no --max-nodes or --max-time: running until solved (within --memory {} MB) \
             or Ctrl-C",
            a.memory
        );
    }
}
