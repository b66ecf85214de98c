//! Solvers: proof-number search (PNS, DFPN, PPNS, MCPNS) and sb-gpn run to a proof, with one result type.
//!
//! Every proof-number solver answers a binary question about the root player (the side to move):
//! "can they force a win?" or "can they force at least a draw?". [`solve`] asks the first and, when
//! it is disproved, the second, and turns the answers into win / draw / loss (or unknown when a
//! limit stops it). Node and time limits are shared by both proofs.
//!
//! The solvers see the game through [`Game`] only and ignore repetition rules (a path longer than
//! [`depth_cap`] plies counts as a draw), so their values are exact for acyclic games (Connect
//! Four, Breakthrough, Othello); for games with repetition draws they are not guaranteed.

pub mod batch;
pub mod bestfirst;
pub mod checks;
pub mod dfpn;
mod guide;
pub mod mate;
pub mod mcpns;
pub mod merge;
pub mod parallel;
pub mod paranoid;
pub mod pns;
pub mod ppns;
pub mod report;
pub mod run;
pub mod sbgpn;

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::game::{Game, Move, MoveList, Outcome, Player};
use crate::nn::NetworkFile;
use crate::rng::Rng;

/// The game-theoretic value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Win,
    Draw,
    Loss,
    Unknown,
}

impl Value {
    pub fn name(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Draw => "draw",
            Value::Loss => "loss",
            Value::Unknown => "unknown",
        }
    }

    pub fn parse(text: &str) -> Option<Value> {
        match text.trim().to_ascii_lowercase().as_str() {
            "win" => Some(Value::Win),
            "draw" => Some(Value::Draw),
            "loss" => Some(Value::Loss),
            "unknown" => Some(Value::Unknown),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The solving algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algo {
    Pns,
    Dfpn,
    Ppns,
    Mcpns,
    SbGpn,
}

impl Algo {
    pub const ALL: [Algo; 5] = [Algo::Pns, Algo::Dfpn, Algo::Ppns, Algo::Mcpns, Algo::SbGpn];

    pub fn name(self) -> &'static str {
        match self {
            Algo::Pns => "pns",
            Algo::Dfpn => "dfpn",
            Algo::Ppns => "ppns",
            Algo::Mcpns => "mcpns",
            Algo::SbGpn => "sb-gpn",
        }
    }

    pub fn parse(text: &str) -> Option<Algo> {
        Algo::ALL
            .into_iter()
            .find(|a| a.name() == text.trim().to_ascii_lowercase())
    }
}

/// How a solver's network initialises the proof and disproof numbers of new positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pcn {
    /// From the value head (AlphaZero's value), with [`SolveConfig::eval_init`]'s formula, or
    /// not at all when that is 0; the policy still orders and focuses.
    Off,
    /// From the proof-cost heads (the PCN paper §3.4): at a node where the prover moves, each
    /// new child gets pn = v_n, dn = v_m / b; where the other side moves, pn = v_n / b,
    /// dn = v_m; v_n and v_m are the node's costs for the prover and the other side, b its
    /// children's count (`Heur`) or the game's action space (`Max`), matching the branching
    /// factor of the network's labels.
    Max,
    Heur,
}

impl Pcn {
    pub fn name(self) -> &'static str {
        match self {
            Pcn::Off => "off",
            Pcn::Max => "b_max",
            Pcn::Heur => "b_heur",
        }
    }

    pub fn parse(text: &str) -> Option<Pcn> {
        match text.trim().to_ascii_lowercase().as_str() {
            "off" | "none" => Some(Pcn::Off),
            t => crate::nn::pcn::Branching::parse(t).map(|b| match b {
                crate::nn::pcn::Branching::Max => Pcn::Max,
                crate::nn::pcn::Branching::Heur => Pcn::Heur,
            }),
        }
    }
}

/// The binary question of one proof, about the root player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
///
/// With more than two players the proofs are paranoid (Sturtevant & Korf; Saito & Winands'
/// paranoid proof-number search): the root player moves at OR nodes, every other player at AND
/// nodes, as one coalition against it. "Win" is then a sole first place, "not loss" a first
/// place, possibly shared; for two players these are the usual win and win-or-draw.
pub enum Goal {
    /// The root player wins (ranks first alone).
    Win,
    /// The root player does not lose (wins or draws: ranks first, possibly shared).
    NotLoss,
}

impl Goal {
    pub fn name(self) -> &'static str {
        match self {
            Goal::Win => "win?",
            Goal::NotLoss => "not-loss?",
        }
    }

    /// Whether a finished game satisfies the goal for `root`.
    #[inline]
    pub fn reached(self, outcome: &Outcome, root: Player) -> bool {
        match self {
            Goal::Win => outcome.winner() == Some(root),
            Goal::NotLoss => outcome.rank(root) == 0,
        }
    }
}

/// Settings of a solve; `None` limits are unlimited.
#[derive(Clone, Debug)]
pub struct SolveConfig {
    pub algo: Algo,
    /// Nodes over both proofs (tree nodes for the best-first solvers, MID calls for DFPN,
    /// nodes created for sb-gpn, whose tree is recycled when full).
    pub max_nodes: Option<u64>,
    pub max_time: Option<Duration>,
    /// Memory for the tree or the transposition table, in MB.
    pub memory_mb: usize,
    /// Workers that share out the solve ([`parallel`]); 1: the one-thread solvers.
    pub threads: usize,
    /// Random playouts per new leaf (PPNS, MCPNS).
    pub playouts: u32,
    /// PPNS: how far a playout rate of exactly 0 or 1 is moved inward; MCPNS: the smallest leaf
    /// proof or disproof number.
    pub theta: f64,
    /// PPNS precision rate: conclude when the root's PPN is within `pr` of 0 or 1 (a conclusion
    /// that is not a proof). `None`: only exact proofs end the search.
    pub pr: Option<f64>,
    /// DFPN's 1+epsilon trick (0: plain Nagai thresholds).
    pub epsilon: f64,
    /// DFPN's initial numbers of a new leaf from the game's evaluation `v` for the root player
    /// (df-pn+): pn = 1 + round(k (1 - v)), dn = 1 + round(k (1 + v)); 0 (or a game without an
    /// evaluation): 1 and 1. A heuristic changes the search order, never a value.
    pub eval_init: u32,
    /// DFPN: a new leaf's number that needs every move answered (dn where the root player
    /// moves, pn where the opponent does) is multiplied by its number of legal moves (the
    /// mobility initialisation of PN search and GPN-MCTS; the PCN paper's b_heur).
    pub mobility: bool,
    /// DFPN without a network: the game's knowledge priors ([`crate::game::Heuristics::move_priors`],
    /// p in [0, 1]) order each node's moves, best first, and weigh them: a child's number that
    /// its parent minimises (pn where the root player moves, dn where the opponent does) is seen
    /// multiplied by 1 + k (1 - p), its thresholds divided by as much (df-pn+'s edge costs, as
    /// factors); 0: off. A heuristic changes the search order, never a value.
    pub prior_init: u32,
    pub seed: u64,
    /// A network (`gpn solve --net`): DFPN orders each node's moves by its policy, searches
    /// the likeliest first ([`SolveConfig::focus`]) and initialises new positions from its
    /// heads ([`SolveConfig::pcn`]); PNS orders and initialises likewise, without focus;
    /// sb-gpn searches with it (value and priors, or with `pcn` its proof-cost heads as the
    /// new nodes' values and proof numbers).
    pub network: Option<NetworkFile>,
    /// How the network initialises new positions' numbers (see [`Pcn`]).
    pub pcn: Pcn,
    /// DFPN with a network: Henderson's progressive widening. Of a node's unsolved children
    /// only the 1 + ceil(focus n) of highest prior (n: the unsolved ones) take part in its
    /// numbers until some are solved (the PCN paper's mu = 0.1); 0: all children.
    pub focus: f64,
    /// Search only the moves the game's forcing rule leaves where it applies
    /// ([`crate::game::Heuristics::forcing_moves`]: Gomoku's four-threat rule, the PCN paper's 4T);
    /// DFPN, sb-gpn and the best-first solvers (PNS, PPNS, MCPNS).
    pub forcing: bool,
    /// The player whose win the proofs are about; `None`: the side to move. Another player is
    /// asked with the root as an AND node (with more than two players, its paranoid value:
    /// `gpn solve --player`). The one-thread proof-number solvers ask it themselves; sb-gpn and
    /// the parallel solver answer for the side to move, turned round by [`solve`].
    pub prover: Option<crate::game::Player>,
    /// Paths of this many plies end as draws (a mate-in-N search asks "win within N plies?").
    /// `None`: only the game's own length cap.
    pub max_plies: Option<u32>,
    /// Set from outside (a protocol's `stop`, Ctrl-C in `gpn solve`): the solve ends with what
    /// it has, stopped by "stop".
    pub stop: Option<Arc<AtomicBool>>,
    /// Where a running solve publishes its progress for a watcher (`gpn solve`'s progress
    /// lines).
    pub progress: Option<Arc<Progress>>,
}

/// A running solve's progress, published every [`TIME_CHECK`] nodes: relaxed atomics, read by
/// another thread for display only.
#[derive(Debug, Default)]
pub struct Progress {
    /// Nodes so far, all proofs together.
    pub nodes: AtomicU64,
    /// The root's proof and disproof numbers in the current proof (PPNS: its probabilities),
    /// as `f64` bits; 0 until the solver publishes them (sb-gpn does not).
    pub pn: AtomicU64,
    pub dn: AtomicU64,
}

impl Progress {
    /// The root's (proof, disproof) numbers last published.
    pub fn root(&self) -> (f64, f64) {
        let read = |x: &AtomicU64| f64::from_bits(x.load(Ordering::Relaxed));
        (read(&self.pn), read(&self.dn))
    }
}

impl SolveConfig {
    /// The path length at which the solvers stop and score a draw.
    pub fn cap<G: Game>(&self) -> u32 {
        self.max_plies
            .map_or(depth_cap::<G>(), |m| m.min(depth_cap::<G>()))
    }
}

impl Default for SolveConfig {
    fn default() -> Self {
        SolveConfig {
            algo: Algo::Dfpn,
            max_nodes: None,
            max_time: None,
            memory_mb: 256,
            threads: 1,
            playouts: 10,
            theta: 0.01,
            pr: None,
            epsilon: 0.25,
            eval_init: 0,
            mobility: false,
            prior_init: 0,
            network: None,
            pcn: Pcn::Off,
            focus: 0.1,
            forcing: false,
            prover: None,
            seed: 1,
            max_plies: None,
            stop: None,
            progress: None,
        }
    }
}

/// The answer of one binary proof.
#[derive(Clone, Debug)]
pub struct ProofRun {
    pub goal: Goal,
    /// `Some(true)`: proven, `Some(false)`: disproved, `None`: stopped by a limit.
    pub result: Option<bool>,
    /// PPNS with a precision rate: the result is a `pr` conclusion, not a proof.
    pub by_pr: bool,
    /// A move of the root that achieves the goal, when proven.
    pub best_move: Option<Move>,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Nodes of the proof (or disproof) tree, where the algorithm can tell.
    pub proof_size: Option<u64>,
    /// Why it stopped without an answer ("nodes", "time", "memory").
    pub stopped_by: Option<&'static str>,
}

/// The result of [`solve`].
#[derive(Clone, Debug)]
pub struct SolveResult {
    pub algo: Algo,
    pub value: Value,
    /// A move that achieves the value (a win or a draw); `None` at a loss or unknown.
    pub best_move: Option<Move>,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Size of the proof that decided the value, where known.
    pub proof_size: Option<u64>,
    /// The binary proofs run, in order (empty for sb-gpn and finished games).
    pub proofs: Vec<ProofRun>,
    /// True when the value rests on a PPNS precision-rate conclusion rather than a proof.
    pub by_pr: bool,
    /// When unknown: what was learnt ("not a win" after a disproved first proof), if anything.
    pub note: Option<&'static str>,
    /// sb-gpn: the proven line and its length in plies (the proof-number solvers prove values
    /// without distances; see [`mate`] for shortest wins).
    pub pv: Vec<Move>,
    pub plies: Option<u32>,
}

impl SolveResult {
    /// Why an unknown value is unknown: the limit that stopped the solve ("nodes", "time",
    /// "memory", "stop" when asked from outside), read from its proofs or, for sb-gpn, from
    /// the limits it ran under. `None` when the value is known.
    pub fn stopped_by(&self, cfg: &SolveConfig) -> Option<&'static str> {
        if self.value != Value::Unknown {
            return None;
        }
        if let Some(why) = self.proofs.iter().find_map(|p| p.stopped_by) {
            return Some(why);
        }
        if cfg.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed)) {
            Some("stop")
        } else if cfg.max_time.is_some_and(|t| self.elapsed >= t) {
            Some("time")
        } else if cfg.max_nodes.is_some_and(|n| self.nodes >= n) {
            Some("nodes")
        } else {
            Some("memory")
        }
    }

    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The proofs run, as text: `win?=no not-loss?=yes`.
    pub fn proofs_text(&self) -> String {
        if self.proofs.is_empty() {
            return match self.algo {
                Algo::SbGpn => "score-bounds".to_string(),
                _ => "none".to_string(),
            };
        }
        let parts: Vec<String> = self
            .proofs
            .iter()
            .map(|p| {
                let r = match p.result {
                    Some(true) => "yes",
                    Some(false) => "no",
                    None => "unknown",
                };
                format!(
                    "{}={}{}",
                    p.goal.name(),
                    r,
                    if p.by_pr { "(pr)" } else { "" }
                )
            })
            .collect();
        parts.join(" ")
    }
}

/// Node and time limits shared by the proofs of one solve.
#[derive(Clone, Debug)]
pub struct Budget {
    start: Instant,
    deadline: Option<Instant>,
    pub max_nodes: Option<u64>,
    /// Nodes used so far, all proofs together.
    pub nodes: u64,
    stop: Option<Arc<AtomicBool>>,
    progress: Option<Arc<Progress>>,
}

impl Budget {
    pub fn new(max_nodes: Option<u64>, max_time: Option<Duration>) -> Budget {
        let start = Instant::now();
        Budget {
            start,
            // A time past what an `Instant` can hold is no deadline at all.
            deadline: max_time.and_then(|t| start.checked_add(t)),
            max_nodes,
            nodes: 0,
            stop: None,
            progress: None,
        }
    }

    /// The limits of `cfg`, starting now.
    pub fn of(cfg: &SolveConfig) -> Budget {
        Budget {
            stop: cfg.stop.clone(),
            progress: cfg.progress.clone(),
            ..Budget::new(cfg.max_nodes, cfg.max_time)
        }
    }

    /// Whether the node limit is reached.
    #[inline]
    pub fn nodes_out(&self) -> bool {
        self.max_nodes.is_some_and(|m| self.nodes >= m)
    }

    /// The limit that ends the solve now, if any: "stop" (asked from outside) or "time". It
    /// reads the clock and publishes the progress: call it every [`TIME_CHECK`] nodes.
    pub fn time_out(&self) -> Option<&'static str> {
        if let Some(p) = &self.progress {
            p.nodes.store(self.nodes, Ordering::Relaxed);
        }
        if self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            Some("stop")
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some("time")
        } else {
            None
        }
    }

    /// Publishes the root's proof and disproof numbers (solvers that keep them as integers).
    pub fn publish_root(&self, pn: f64, dn: f64) {
        if let Some(p) = &self.progress {
            p.pn.store(pn.to_bits(), Ordering::Relaxed);
            p.dn.store(dn.to_bits(), Ordering::Relaxed);
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// Stack for a thread that solves: DFPN recurses once per ply, up to [`depth_cap`] (2000)
/// plies, which overflows the 2 MB a spawned thread gets by default. Only touched pages cost
/// memory.
pub const STACK_BYTES: usize = 256 << 20;

/// How often (in nodes) the solvers read the clock.
pub const TIME_CHECK: u64 = 1024;

/// The longest path the solvers follow: deeper positions count as draws (the game-length cap).
pub fn depth_cap<G: Game>() -> u32 {
    G::MAX_PLIES.min(2000)
}

/// A finished position's goal status from the root player's view, or `None` when play goes on.
/// `depth` is the distance from the root; at `cap` plies (see [`SolveConfig::cap`]) a position
/// is a draw.
#[inline]
pub fn terminal<G: Game>(pos: &G, goal: Goal, root: Player, depth: u32, cap: u32) -> Option<bool> {
    match pos.outcome() {
        Some(o) => Some(goal.reached(&o, root)),
        None if depth >= cap => Some(goal.reached(&Outcome::draw(G::NUM_PLAYERS), root)),
        None => None,
    }
}

/// A random playout from `pos` to the end; true when the goal is reached for `root`.
pub fn playout<G: Game>(
    pos: &G,
    goal: Goal,
    root: Player,
    depth: u32,
    cap: u32,
    rng: &mut Rng,
    buf: &mut MoveList,
) -> bool {
    let mut p = pos.clone();
    let mut d = depth;
    loop {
        if let Some(r) = terminal(&p, goal, root, d, cap) {
            return r;
        }
        match p.random_move(rng, buf) {
            Some(m) => p.play(m),
            None => return terminal(&p, goal, root, 0, 0).unwrap_or(false),
        }
        d += 1;
    }
}

/// Solves `root` with `cfg`: the value for the side to move (or `cfg.prover`), with two proofs
/// where needed. With more than two players, sb-gpn and the parallel solver search the
/// paranoid two-player game ([`paranoid`]); the one-thread proof-number solvers prove paranoid
/// values directly.
pub fn solve<G: Game>(root: &G, cfg: &SolveConfig) -> SolveResult {
    if paranoid::needed(cfg) && root.outcome().is_none() {
        // A constant per game: two-player games never build the adapter.
        if paranoid::Route::<G>::MANY_PLAYERS {
            return paranoid::solve(root, cfg);
        }
        if cfg.prover.is_some_and(|p| p != root.to_move()) {
            let r = solve_direct(root, &paranoid::for_side_to_move(cfg));
            return paranoid::turned_round(r);
        }
    }
    solve_direct(root, cfg)
}

/// [`solve`] without the paranoid adapter: the solvers on `G` as it is.
fn solve_direct<G: Game>(root: &G, cfg: &SolveConfig) -> SolveResult {
    let mut budget = Budget::of(cfg);
    let mut result = SolveResult {
        algo: cfg.algo,
        value: Value::Unknown,
        best_move: None,
        nodes: 0,
        elapsed: Duration::ZERO,
        proof_size: None,
        proofs: Vec::new(),
        by_pr: false,
        note: None,
        pv: Vec::new(),
        plies: None,
    };
    if let Some(o) = root.outcome() {
        let me = cfg.prover.unwrap_or(root.to_move());
        result.value = if o.winner() == Some(me) {
            Value::Win
        } else if o.rank(me) == 0 {
            Value::Draw
        } else {
            Value::Loss
        };
        result.elapsed = budget.elapsed();
        return result;
    }
    if cfg.threads > 1 {
        return parallel::solve(root, cfg);
    }
    if cfg.algo == Algo::SbGpn {
        let r = sbgpn::solve(root, cfg, &mut budget);
        result.value = r.value;
        result.best_move = r.best;
        result.pv = r.pv;
        result.plies = r.plies;
        result.nodes = budget.nodes;
        result.elapsed = budget.elapsed();
        return result;
    }
    // The second proof reuses the first one's table.
    let mut scratch = Scratch::default();
    let first = prove_in(root, Goal::Win, cfg, &mut budget, &mut scratch);
    let first_result = first.result;
    result.proofs.push(first);
    match first_result {
        Some(true) => {
            let p = &result.proofs[0];
            result.value = Value::Win;
            result.best_move = p.best_move;
            result.proof_size = p.proof_size;
            result.by_pr = p.by_pr;
        }
        None => {}
        Some(false) => {
            let second = prove_in(root, Goal::NotLoss, cfg, &mut budget, &mut scratch);
            let by_pr = result.proofs[0].by_pr || second.by_pr;
            match second.result {
                Some(true) => {
                    result.value = Value::Draw;
                    result.best_move = second.best_move;
                    result.proof_size = second.proof_size;
                    result.by_pr = by_pr;
                }
                Some(false) => {
                    result.value = Value::Loss;
                    result.proof_size = second.proof_size;
                    result.by_pr = by_pr;
                }
                None => result.note = Some("not a win"),
            }
            result.proofs.push(second);
        }
    }
    result.nodes = budget.nodes;
    result.elapsed = budget.elapsed();
    result
}

/// What one proof leaves for the next one in the same thread to reuse: DFPN's table (the tree
/// solvers' trees grow with the proof, so there is nothing to keep).
#[derive(Default)]
pub struct Scratch {
    dfpn: Option<dfpn::Table>,
}

/// One binary proof with the configured proof-number algorithm.
pub fn prove<G: Game>(root: &G, goal: Goal, cfg: &SolveConfig, budget: &mut Budget) -> ProofRun {
    prove_in(root, goal, cfg, budget, &mut Scratch::default())
}

/// [`prove`], reusing what an earlier proof left in `scratch`.
pub fn prove_in<G: Game>(
    root: &G,
    goal: Goal,
    cfg: &SolveConfig,
    budget: &mut Budget,
    scratch: &mut Scratch,
) -> ProofRun {
    let nodes0 = budget.nodes;
    let t0 = Instant::now();
    let mut run = match cfg.algo {
        Algo::Pns => pns::prove(root, goal, cfg, budget),
        Algo::Dfpn => dfpn::prove_in(root, goal, cfg, budget, &mut scratch.dfpn),
        Algo::Ppns => ppns::prove(root, goal, cfg, budget),
        Algo::Mcpns => mcpns::prove(root, goal, cfg, budget),
        Algo::SbGpn => unreachable!("sb-gpn answers without binary proofs"),
    };
    run.nodes = budget.nodes - nodes0;
    run.elapsed = t0.elapsed();
    run
}

impl ProofRun {
    pub(crate) fn new(goal: Goal) -> ProofRun {
        ProofRun {
            goal,
            result: None,
            by_pr: false,
            best_move: None,
            nodes: 0,
            elapsed: Duration::ZERO,
            proof_size: None,
            stopped_by: None,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
