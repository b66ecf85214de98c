//! The option registry: every engine option declared once, with its names, type, default, range
//! and help. The UCI/USI/UAI `option` lines, `setoption`, GTP `gpn-setoption`, `gpn match`
//! specs, `--option`, the validation of every value and the option tables of docs/search.md and
//! protocol/ are all read from [`OPTIONS`] (a test fails when the documents drift from it).

pub mod tables;

use std::fmt::Write as _;

/// The type and range of an option's values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// `true` or `false` (also `on/off`, `yes/no`, `1/0`).
    Check,
    /// An integer in `min..=max`.
    Int { min: i64, max: i64 },
    /// A finite real number in `min..=max` (UCI `type string`, as lc0 writes real options).
    Real { min: f64, max: f64 },
    /// One of the choices; each choice is its canonical name followed by accepted aliases.
    Choice(&'static [&'static [&'static str]]),
    /// A game of the registry (any of its names).
    Game,
    /// Free text checked by the option's owner (PN-MCTS's `pn_flags`).
    Text,
    /// A file name; empty (also `<empty>` or `none`, as GUIs send it) for no file.
    File,
}

/// The most root lines `MultiPV` asks for (and analysis shows).
pub const MAX_MULTIPV: usize = 256;
/// The most search threads an option accepts.
pub const MAX_THREADS: usize = 256;
/// The most plies the threat search looks ahead (`threats`; declared here with its option).
pub const MAX_THREAT_PLIES: u32 = 5;
/// The most plies of the quiescence step (`quiescence`).
pub const MAX_QUIESCENCE_PLIES: u32 = 8;

/// Who the option configures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// A search parameter ([`crate::search::SearchParams`]): in `gpn match` specs, in the
    /// per-game defaults rows, and in every protocol.
    Search,
    /// The protocol session (time, reporting, the solver of `go mate`, the game).
    Protocol,
    /// GTP's controller only (GTP has no `movetime` of its own).
    Gtp,
}

/// One option.
#[derive(Clone, Copy, Debug)]
pub struct EngineOption {
    /// The name in specs, `gpn-setoption` and `--option`: lower case, `_` between words.
    pub key: &'static str,
    /// Other accepted keys (the papers' or earlier names).
    pub aliases: &'static [&'static str],
    /// The UCI (and UAI) name; empty when the handshake does not offer it.
    pub uci: &'static str,
    /// The USI name: no spaces, USI's standard name where it has one.
    pub usi: &'static str,
    pub kind: Kind,
    /// The generic default (the per-game rows of `search/defaults.rs` start from these).
    pub default: &'static str,
    pub scope: Scope,
    pub help: &'static str,
    /// Tunable by SPSA (`gpn tune`, the OpenBench list of `gpn tune --list`): its tuning
    /// range and steps. `None`: not a parameter to tune (a switch, a size, a file).
    pub tune: Option<Tune>,
}

/// How SPSA tunes an option, in the option's own units (docs/tuning.md).
///
/// The names are OpenBench's: `c_end` is the perturbation at the last iteration, `r_end` the
/// learning rate there (`a_end / c_end^2`). The range is narrower than the values the option
/// accepts: it is where tuning makes sense, and SPSA clamps its points into it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tune {
    pub min: f64,
    pub max: f64,
    pub c_end: f64,
    pub r_end: f64,
}

/// The scale of the integer (`spin`) form of a real option: `Tune_C` = 1414 is `C` = 1.414.
/// For tuners that only speak UCI `spin` (docs/tuning.md); 1/1000 is finer than any tuning
/// step of the registry.
pub const SPIN_SCALE: f64 = 1000.0;

/// The prefix of the spin forms' names (`Tune_C`, `Tune_C_pn`, ...).
pub const SPIN_PREFIX: &str = "Tune_";

/// Every option, in the order the handshake lists them.
pub static OPTIONS: &[EngineOption] = &[
    EngineOption {
        key: "variant",
        aliases: &["game"],
        uci: "UCI_Variant",
        usi: "USI_Variant",
        kind: Kind::Game,
        default: "breakthrough",
        scope: Scope::Protocol,
        tune: None,
        help: "the game, any name of docs/games.md (`breakthrough`, `cfour`, `reversi`, `minishogi`, ...); aliases accepted (`connect4`, `othello`, `linesofaction`, `oware`, ...); USI starts with `minishogi`, UAI plays `ataxx` only",
    },
    EngineOption {
        key: "hash",
        aliases: &[],
        uci: "Hash",
        usi: "USI_Hash",
        kind: Kind::Int { min: 1, max: 1 << 20 },
        default: "256",
        scope: Scope::Search,
        tune: None,
        help: "memory cap of the search tree in MiB: the tree's arenas never hold more (resident memory stays under Hash plus the program's own few MiB); a full tree is recycled (the most visited part and every solved node kept, the rest rebuilt as the search needs it, `docs/recycling.md`)",
    },
    EngineOption {
        key: "threads",
        aliases: &[],
        uci: "Threads",
        usi: "Threads",
        kind: Kind::Int { min: 1, max: MAX_THREADS as i64 },
        default: "1",
        scope: Scope::Search,
        tune: None,
        help: "search threads on one shared tree (tree parallelism with virtual loss, `docs/threads.md`); 1 is the deterministic search (same seed, same result); proofs, bounds and the Hash cap are the same with any number",
    },
    EngineOption {
        key: "shared_stats",
        aliases: &[],
        uci: "Shared Stats Threads",
        usi: "SharedStatsThreads",
        kind: Kind::Int { min: 2, max: MAX_THREADS as i64 + 1 },
        default: "2",
        scope: Scope::Search,
        tune: None,
        help: "from this many threads on, threads land their iterations beside the other threads' selections instead of under the exclusive lock: visits and utilities with atomic additions, new nodes created through atomic claims, proof numbers, bounds and minimax values merged so that no proof or bound is lost, and RAVE statistics likewise (not with PN-MCTS): almost no serial time, more atomic operations; on two cores, with each game's defaults, 10-20 % more iterations in the fast games and up to 9 % fewer in the slow ones, and 58.8 % of 120 equal-time games against the exclusive backup (`docs/threads.md`); above `threads`: never (the exclusive backup)",
    },
    EngineOption {
        key: "ponder",
        aliases: &[],
        uci: "Ponder",
        usi: "USI_Ponder",
        kind: Kind::Check,
        default: "false",
        scope: Scope::Protocol,
        tune: None,
        help: "the GUI may send `go ponder` (gpn always names a `ponder` move when it has one)",
    },
    EngineOption {
        key: "move_overhead",
        aliases: &["overhead"],
        uci: "Move Overhead",
        usi: "MoveOverhead",
        kind: Kind::Int { min: 0, max: 10_000 },
        default: "50",
        scope: Scope::Protocol,
        tune: None,
        help: "ms kept out of every time budget for transport and GUI lag",
    },
    EngineOption {
        key: "slow_mover",
        aliases: &[],
        uci: "Slow Mover",
        usi: "SlowMover",
        kind: Kind::Int { min: 10, max: 1000 },
        default: "100",
        scope: Scope::Protocol,
        tune: None,
        help: "the optimum time of a move from a clock, in per cent of the usual \
               (protocol/README.md, Time management); a fixed `movetime` is not affected",
    },
    EngineOption {
        key: "multipv",
        aliases: &[],
        uci: "MultiPV",
        usi: "MultiPV",
        kind: Kind::Int { min: 1, max: MAX_MULTIPV as i64 },
        default: "1",
        scope: Scope::Protocol,
        tune: None,
        help: "root lines reported in `info`",
    },
    EngineOption {
        key: "show_wdl",
        aliases: &[],
        uci: "UCI_ShowWDL",
        usi: "USI_ShowWDL",
        kind: Kind::Check,
        default: "false",
        scope: Scope::Protocol,
        tune: None,
        help: "add `wdl W D L` (per mille, from the side to move) to `info`",
    },
    EngineOption {
        key: "analyse_mode",
        aliases: &["analysis_mode"],
        uci: "UCI_AnalyseMode",
        usi: "USI_AnalyseMode",
        kind: Kind::Check,
        default: "false",
        scope: Scope::Protocol,
        tune: None,
        help: "analysis, not play (set by GUIs in their analysis window): a timed search runs to its time target, without stopping once the leader cannot be overtaken and without the short search of a forced move",
    },
    EngineOption {
        key: "log_file",
        aliases: &["logfile"],
        uci: "LogFile",
        usi: "LogFile",
        kind: Kind::File,
        default: "",
        scope: Scope::Protocol,
        tune: None,
        help: "append every protocol line in (`<<`) and out (`>>`) and the engine's own log (`##`, what stderr gets at the `RUST_LOG` level) to this file, each line with its UTC time to the microsecond; empty: no log (`docs/protocols.md`, Log file)",
    },
    EngineOption {
        key: "verbose_move_stats",
        aliases: &[],
        uci: "VerboseMoveStats",
        usi: "VerboseMoveStats",
        kind: Kind::Check,
        default: "false",
        scope: Scope::Protocol,
        tune: None,
        help: "before `bestmove`, one `info string` per root move, least visited first, as lc0 writes them: visits `N`, prior `P` (the network's policy, or the move's share of visits without one: `P-source`), value `Q`, its lower confidence bound `LCB`, and a proof where there is one",
    },
    EngineOption {
        key: "solver",
        aliases: &[],
        uci: "Solver",
        usi: "Solver",
        kind: Kind::Choice(&[&["dfpn"], &["pns"], &["ppns"], &["mcpns"], &["sb-gpn"]]),
        default: "dfpn",
        scope: Scope::Protocol,
        tune: None,
        help: "the solver of `go mate` and `gpn-solve` (docs/commands.md, `gpn solve`)",
    },
    EngineOption {
        key: "algorithm",
        aliases: &["algo"],
        uci: "Algorithm",
        usi: "Algorithm",
        kind: Kind::Choice(&[&["sb-gpn"], &["gpn"], &["sb-uct"], &["uct"], &["pn-mcts"]]),
        default: "sb-gpn",
        scope: Scope::Search,
        tune: None,
        help: "the search algorithm (docs/search.md)",
    },
    EngineOption {
        key: "bias",
        aliases: &[],
        uci: "Bias",
        usi: "Bias",
        kind: Kind::Choice(&[&["rank", "pnrank"], &["max", "pnmax"], &["sum", "pnsum"]]),
        default: "rank",
        scope: Scope::Search,
        tune: None,
        help: "proof-number bonus: `rank` (the paper's PNRank, 1 - rank/n), `max` (min-max normalised), `sum`",
    },
    EngineOption {
        key: "c",
        aliases: &[],
        uci: "C",
        usi: "C",
        kind: Kind::Real { min: 0.0, max: 100.0 },
        default: "1.4142135",
        scope: Scope::Search,
        tune: Some(Tune { min: 0.1, max: 3.0, c_end: 0.1, r_end: 0.002 }),
        help: "UCB exploration constant",
    },
    EngineOption {
        key: "network",
        aliases: &["net", "weightsfile"],
        uci: "EvalFile",
        usi: "EvalFile",
        kind: Kind::File,
        default: "",
        scope: Scope::Search,
        tune: None,
        help: "a network file of `gpn train` (`.gpnn`, docs/learned.md) for the game: its value replaces the playouts, its policy gives every edge a prior for PUCT selection (`cpuct`); proof numbers and score bounds work as without it; `builtin`: the game's embedded network (the default where the game ships one, docs/learned.md); empty: none",
    },
    EngineOption {
        key: "cpuct",
        aliases: &["c_puct"],
        uci: "CPuct",
        usi: "CPuct",
        kind: Kind::Real { min: 0.0, max: 100.0 },
        default: "1.25",
        scope: Scope::Search,
        tune: Some(Tune { min: 0.1, max: 5.0, c_end: 0.15, r_end: 0.002 }),
        help: "with a network: the PUCT exploration constant, `cpuct * prior * sqrt(N) / (1 + n)` in place of the UCB term",
    },
    EngineOption {
        key: "c_pn",
        aliases: &["cpn"],
        uci: "C_pn",
        usi: "C_pn",
        kind: Kind::Real { min: 0.0, max: 1000.0 },
        default: "1",
        scope: Scope::Search,
        tune: Some(Tune { min: 0.0, max: 5.0, c_end: 0.1, r_end: 0.002 }),
        help: "weight of the proof-number bonus",
    },
    EngineOption {
        key: "pn_decay",
        aliases: &["decay"],
        uci: "PN Decay",
        usi: "PnDecay",
        kind: Kind::Int { min: 0, max: 100_000_000 },
        default: "0",
        scope: Scope::Search,
        tune: Some(Tune { min: 0.0, max: 200.0, c_end: 4.0, r_end: 0.002 }),
        help: "the bonus of a child is weighted by `pn_decay / (pn_decay + its visits)`, so it halves at `pn_decay` visits and hands well-visited children over to their values (0 = constant, as in the papers; also the `U` term of `pn-mcts`)",
    },
    EngineOption {
        key: "pn_explore",
        aliases: &[],
        uci: "PN Explore",
        usi: "PnExplore",
        kind: Kind::Check,
        default: "false",
        scope: Scope::Search,
        tune: None,
        help: "the bonus scales the exploration term instead of being added: `(c + c_pn * bonus) * sqrt(ln N / n)`, so it orders exploration and fades as exploration does",
    },
    EngineOption {
        key: "playout_cap",
        aliases: &[],
        uci: "Playout Cap",
        usi: "PlayoutCap",
        kind: Kind::Int { min: 1, max: 100_000 },
        default: "200",
        scope: Scope::Search,
        tune: None,
        help: "playout length cap in plies; a capped playout counts as a draw",
    },
    EngineOption {
        key: "mobility",
        aliases: &["mobility_init"],
        uci: "Mobility Init",
        usi: "MobilityInit",
        kind: Kind::Check,
        default: "true",
        scope: Scope::Search,
        tune: None,
        help: "initialise a new node's non-mover proof numbers with its number of moves",
    },
    EngineOption {
        key: "clip",
        aliases: &[],
        uci: "Clip To Bounds",
        usi: "ClipToBounds",
        kind: Kind::Check,
        default: "true",
        scope: Scope::Search,
        tune: None,
        help: "score-bounded algorithms: selection reads an unsolved child's mean clipped into its score bounds (false: the raw mean, as Ludii's Score Bounded MCTS)",
    },
    EngineOption {
        key: "im",
        aliases: &["alpha"],
        uci: "Implicit Minimax",
        usi: "ImplicitMinimax",
        kind: Kind::Real { min: 0.0, max: 1.0 },
        default: "0",
        scope: Scope::Search,
        tune: Some(Tune { min: 0.0, max: 1.0, c_end: 0.05, r_end: 0.002 }),
        help: "implicit minimax backups (Lanctot et al.): each node keeps the minimax of its children's evaluations; selection uses `(1 - im) * mean + im * minimax value`, proven values first (0 = off)",
    },
    EngineOption {
        key: "policy",
        aliases: &["playout"],
        uci: "Playout Policy",
        usi: "PlayoutPolicy",
        kind: Kind::Choice(&[&["random", "uniform"], &["ipp", "informed"], &["game", "knowledge"]]),
        default: "random",
        scope: Scope::Search,
        tune: None,
        help: "playouts: `random`, `ipp` (a winning move is always played, a move that lets the opponent win at once is redrawn, captures are 4x as likely), or `game`, the game's own playout knowledge (Go: captures, atari escapes, Mogo's 3x3 shapes, no self-atari; uniform in games without any)",
    },
    EngineOption {
        key: "ege",
        aliases: &[],
        uci: "Playout Epsilon Greedy",
        usi: "PlayoutEpsilonGreedy",
        kind: Kind::Real { min: 0.0, max: 1.0 },
        default: "0",
        scope: Scope::Search,
        tune: Some(Tune { min: 0.0, max: 1.0, c_end: 0.05, r_end: 0.002 }),
        help: "epsilon-greedy playouts: a random move with probability `ege`, else the move whose position evaluates best for the mover (0 = off)",
    },
    EngineOption {
        key: "fet",
        aliases: &[],
        uci: "Playout Fixed Termination",
        usi: "PlayoutFixedTermination",
        kind: Kind::Int { min: 0, max: 100_000 },
        default: "0",
        scope: Scope::Search,
        tune: Some(Tune { min: 0.0, max: 50.0, c_end: 2.0, r_end: 0.002 }),
        help: "fixed early termination: a playout stops after `fet` plies and scores the evaluation (each player's own with more than two players; 0 = off)",
    },
    EngineOption {
        key: "det",
        aliases: &[],
        uci: "Playout Dynamic Termination",
        usi: "PlayoutDynamicTermination",
        kind: Kind::Real { min: 0.0, max: 1.0 },
        default: "0",
        scope: Scope::Search,
        tune: Some(Tune { min: 0.0, max: 1.0, c_end: 0.05, r_end: 0.002 }),
        help: "dynamic early termination: a playout stops as a win or loss once the evaluation passes `±det` (two-player games; 0 = off)",
    },
    EngineOption {
        key: "pb",
        aliases: &[],
        uci: "Progressive Bias",
        usi: "ProgressiveBias",
        kind: Kind::Real { min: 0.0, max: 100.0 },
        default: "0",
        scope: Scope::Search,
        tune: Some(Tune { min: 0.0, max: 10.0, c_end: 0.5, r_end: 0.002 }),
        help: "progressive bias: `pb * minimax value / (visits + 1)` added in selection (0 = off)",
    },
    EngineOption {
        key: "np",
        aliases: &["priors"],
        uci: "Node Priors",
        usi: "NodePriors",
        kind: Kind::Int { min: 0, max: 100_000 },
        default: "0",
        scope: Scope::Search,
        tune: Some(Tune { min: 0.0, max: 100.0, c_end: 4.0, r_end: 0.002 }),
        help: "node priors: a new node starts with `np` virtual visits whose mean is its evaluation (0 = off; not in `pn-mcts`)",
    },
    EngineOption {
        key: "threats",
        aliases: &[],
        uci: "Threat Plies",
        usi: "ThreatPlies",
        kind: Kind::Int { min: 0, max: MAX_THREAT_PLIES as i64 },
        default: "0",
        scope: Scope::Search,
        tune: None,
        help: "threat search at every new node (two players; score-bounded or proof-number algorithms): a win of the side to move in 1, a loss in 2 and a win in 3 (up to this many plies, through checks in games with checks) is proven there and the node solved, so the tree never walks into a short mate (0 = off)",
    },
    EngineOption {
        key: "threat_nodes",
        aliases: &[],
        uci: "Threat Nodes",
        usi: "ThreatNodes",
        kind: Kind::Int { min: 1, max: 100_000 },
        default: "200",
        scope: Scope::Search,
        tune: None,
        help: "the most positions one threat search visits",
    },
    EngineOption {
        key: "quiescence",
        aliases: &[],
        uci: "Quiescence Plies",
        usi: "QuiescencePlies",
        kind: Kind::Int { min: 0, max: MAX_QUIESCENCE_PLIES as i64 },
        default: "0",
        scope: Scope::Search,
        tune: None,
        help: "with a network: a new node's value is the network's after up to this many plies of captures and promotions, an alpha-beta in which either side may stop, as a chess engine's quiescence search (at most 32 extra evaluations a node; 0 = off)",
    },
    EngineOption {
        key: "prior",
        aliases: &[],
        uci: "Knowledge Priors",
        usi: "KnowledgePriors",
        kind: Kind::Int { min: 0, max: 100_000 },
        default: "0",
        scope: Scope::Search,
        tune: Some(Tune { min: 0.0, max: 100.0, c_end: 4.0, r_end: 0.002 }),
        help: "knowledge priors (games with move knowledge, Go; without a network, or with one at `net_prior` > 0): each move starts with the game's prior win rate, worth this many playouts; a move whose prior is 0 (filling one's own eye) is played only when proved or when nothing else is left (0 = off)",
    },
    EngineOption {
        key: "rave",
        aliases: &[],
        uci: "RAVE Equivalence",
        usi: "RAVEEquivalence",
        kind: Kind::Int { min: 0, max: 1_000_000 },
        default: "0",
        scope: Scope::Search,
        tune: Some(Tune { min: 0.0, max: 10000.0, c_end: 300.0, r_end: 0.002 }),
        help: "RAVE (games whose moves are points, Go): all-moves-as-first statistics mixed into each move's value with weight n'/(n' + n + n n'/rave), n' its AMAF visits, n its visits; every search thread keeps them (0 = off)",
    },
    EngineOption {
        key: "net_prior",
        aliases: &[],
        uci: "Network Prior Share",
        usi: "NetworkPriorShare",
        kind: Kind::Int { min: 0, max: 100 },
        default: "0",
        scope: Scope::Search,
        tune: None,
        help: "with a network and knowledge priors (`prior` > 0, Go): the network gives only move priors, this percentage of each move's prior win rate (the game's knowledge the rest; its own-eye fills stay 0), while playouts, RAVE and UCT selection stay; 0 = the network replaces the playouts and gives PUCT's priors",
    },
    EngineOption {
        key: "book",
        aliases: &[],
        uci: "Book",
        usi: "Book",
        kind: Kind::Check,
        default: "true",
        scope: Scope::Search,
        tune: None,
        help: "before a timed search, play the game's own perfect move where it has one: Connect Four's embedded opening book, else its exact solver when a solve finishes within half the move's time (`docs/games.md`); off: always search",
    },
    EngineOption {
        key: "paranoid",
        aliases: &[],
        uci: "Paranoid",
        usi: "Paranoid",
        kind: Kind::Check,
        default: "false",
        scope: Scope::Search,
        tune: None,
        help: "with more than two players, every other player selects the child worst for the player to move at the root (paranoid UCT) instead of its own best (max^n), and that player's score bounds are paranoid (a root of another player starts a new tree); values and proof numbers unchanged; no effect with two players",
    },
    EngineOption {
        key: "seed",
        aliases: &[],
        uci: "Seed",
        usi: "Seed",
        kind: Kind::Int { min: 0, max: i32::MAX as i64 },
        default: "1",
        scope: Scope::Search,
        tune: None,
        help: "random seed: one thread and a fixed seed give identical searches (for a `nodes` limit)",
    },
    EngineOption {
        key: "pn_flags",
        aliases: &["flags"],
        uci: "",
        usi: "",
        kind: Kind::Text,
        default: "FSU",
        scope: Scope::Search,
        tune: None,
        help: "PN-MCTS: `F` plays a proven win at once, `S` skips solved children with more than `solver_visits` visits, `U` adds the proof-number rank term; `x` switches one off (`xSU`)",
    },
    EngineOption {
        key: "solver_visits",
        aliases: &["t"],
        uci: "",
        usi: "",
        kind: Kind::Int { min: 0, max: u32::MAX as i64 },
        default: "5",
        scope: Scope::Search,
        tune: None,
        help: "PN-MCTS solver threshold T",
    },
    EngineOption {
        key: "draw_layer",
        aliases: &["l2"],
        uci: "",
        usi: "",
        kind: Kind::Check,
        default: "false",
        scope: Scope::Search,
        tune: None,
        help: "PN-MCTS: a second layer that proves \"not a loss\" (the paper's double layer for draws; its proofs are the exact score bounds)",
    },
    EngineOption {
        key: "contempt",
        aliases: &[],
        uci: "",
        usi: "",
        kind: Kind::Real { min: -100.0, max: 100.0 },
        default: "-100",
        scope: Scope::Search,
        tune: None,
        help: "PN-MCTS with `draw_layer`: play a proven draw when the root's mean value is at most this (the paper used 0.2; -100 never)",
    },
    EngineOption {
        key: "movetime",
        aliases: &[],
        uci: "",
        usi: "",
        kind: Kind::Int { min: 1, max: 86_400_000 },
        default: "1000",
        scope: Scope::Gtp,
        tune: None,
        help: "GTP: ms per move when no time system is set",
    },
    EngineOption {
        key: "maxmovetime",
        aliases: &[],
        uci: "",
        usi: "",
        kind: Kind::Int { min: 0, max: 86_400_000 },
        default: "0",
        scope: Scope::Gtp,
        tune: None,
        help: "GTP: a cap on every move's time in ms (0 = none)",
    },
    EngineOption {
        key: "resign_threshold",
        aliases: &["resign"],
        uci: "",
        usi: "",
        kind: Kind::Real { min: 0.0, max: 1.0 },
        default: "0.05",
        scope: Scope::Gtp,
        tune: None,
        help: "GTP: `genmove` answers `resign` when the best move is a proven loss, or when its winrate (0..1) is below this after at least 100 visits of it, as Go GUIs and referees expect of a lost game; two-player games only (0 = never resign)",
    },
];

/// Reads a config file (`gpn --config FILE`): one `name = value` per line, `name` any name of an
/// option (its key, UCI or USI name or an alias: `Hash = 64`, `threads = 2`, `Move Overhead =
/// 100`), the value as `setoption` takes it (empty for an empty file name); blank lines and
/// lines starting with `#` are skipped. Every line is checked against the registry; the first
/// bad one is the error, with its line number. Returns `(key, value)` pairs in file order.
pub fn read_config(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut settings = Vec::new();
    for (k, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |message: String| format!("line {}: {message}", k + 1);
        let (name, value) = line
            .split_once('=')
            .ok_or_else(|| at(format!("expected 'name = value', got '{line}'")))?;
        let option = lookup(name.trim()).map_err(at)?;
        let value = option.check(value.trim()).map_err(at)?;
        settings.push((option.key.to_string(), value));
    }
    Ok(settings)
}

/// A name as compared: case, spaces, `-` and `_` do not matter.
fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The option called `name`: its key, an alias, its UCI or its USI name (case, spaces, `-` and
/// `_` do not matter).
pub fn find(name: &str) -> Option<&'static EngineOption> {
    let k = normalise(name.trim());
    if k.is_empty() {
        return None;
    }
    OPTIONS.iter().find(|o| {
        normalise(o.key) == k
            || o.aliases.iter().any(|a| normalise(a) == k)
            || (!o.uci.is_empty() && normalise(o.uci) == k)
            || (!o.usi.is_empty() && normalise(o.usi) == k)
    })
}

/// The real option whose spin form is called `name` (`Tune_C`: `C`), if `name` is one: a tunable
/// real option with a protocol name.
pub fn spin_form_of(name: &str) -> Option<&'static EngineOption> {
    let k = normalise(name.trim());
    let rest = k.strip_prefix(&normalise(SPIN_PREFIX))?;
    let option = find(rest)?;
    option.spin_scaled().then_some(option)
}

/// The option called `name` and `value` in that option's units: the spin form of a real option
/// (`Tune_C` = 1414) is read as the real option (`C` = 1.414); any other name as [`lookup`]
/// finds it, its value as given. The value is not checked yet ([`EngineOption::check`]).
pub fn lookup_value(name: &str, value: &str) -> Result<(&'static EngineOption, String), String> {
    if let Some(option) = spin_form_of(name) {
        let v = value.trim();
        let n: i64 = v
            .parse()
            .map_err(|_| format!("{name}: '{v}' is not an integer"))?;
        return Ok((option, format_real(n as f64 / SPIN_SCALE)));
    }
    Ok((lookup(name)?, value.to_string()))
}

/// A real number as options write it: the shortest text that reads back to it.
pub fn format_real(x: f64) -> String {
    // `{}` of an f64 is the shortest round-trip text; -0 is 0 to a user.
    if x == 0.0 {
        "0".into()
    } else {
        format!("{x}")
    }
}

/// The option called `name`, or an error that suggests the closest name.
pub fn lookup(name: &str) -> Result<&'static EngineOption, String> {
    find(name).ok_or_else(|| {
        let names = OPTIONS
            .iter()
            .flat_map(|o| [o.key, o.uci])
            .filter(|n| !n.is_empty());
        match crate::game::registry::closest(name, names) {
            Some(n) => format!("unknown option '{name}'; did you mean '{n}'?"),
            None => format!("unknown option '{name}'"),
        }
    })
}

impl EngineOption {
    /// The name users see first: the UCI name when the handshake offers one, else the key.
    pub fn name(&self) -> &'static str {
        if self.uci.is_empty() {
            self.key
        } else {
            self.uci
        }
    }

    /// Whether the option has a spin form ([`SPIN_SCALE`]): a tunable real option that the
    /// protocols offer.
    pub fn spin_scaled(&self) -> bool {
        matches!(self.kind, Kind::Real { .. }) && self.tune.is_some() && !self.uci.is_empty()
    }

    /// The spin form's handshake line (`usi`: USI names), for a tunable real option: `Tune_`
    /// and the option's name, its range and default times [`SPIN_SCALE`], rounded.
    pub fn spin_line(&self, usi: bool, default: &str) -> Option<String> {
        let Kind::Real { min, max } = self.kind else {
            return None;
        };
        if !self.spin_scaled() {
            return None;
        }
        let name = if usi { self.usi } else { self.uci };
        let scaled = |x: f64| (x * SPIN_SCALE).round() as i64;
        let default = scaled(default.trim().parse().unwrap_or(0.0));
        Some(format!(
            "option name {SPIN_PREFIX}{name} type spin default {default} min {} max {}",
            scaled(min),
            scaled(max)
        ))
    }

    /// Checks `value` against the type and range; returns it in canonical form (the choice's
    /// canonical name, `true`/`false`, the number as written). NaN and infinities are refused.
    pub fn check(&self, value: &str) -> Result<String, String> {
        self.check_as(value, self.name())
    }

    /// [`EngineOption::check`], with errors naming the option `name` (the name the user wrote
    /// it under: the key in a spec, the UCI name in `setoption`).
    pub fn check_as(&self, value: &str, name: &str) -> Result<String, String> {
        let v = value.trim();
        match self.kind {
            Kind::Check => match v.to_ascii_lowercase().as_str() {
                "true" | "1" | "on" | "yes" => Ok("true".into()),
                "false" | "0" | "off" | "no" => Ok("false".into()),
                _ => Err(format!("{name}: '{v}' is not true or false")),
            },
            Kind::Int { min, max } => match v.parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n.to_string()),
                Ok(_) => Err(format!("{name}: '{v}' is outside {min}..{max}")),
                Err(_) => Err(format!("{name}: '{v}' is not an integer")),
            },
            Kind::Real { min, max } => match v.parse::<f64>() {
                Ok(x) if x.is_finite() && (min..=max).contains(&x) => Ok(v.to_string()),
                Ok(x) if !x.is_finite() => Err(format!("{name}: '{v}' is not a finite number")),
                Ok(_) => Err(format!("{name}: '{v}' is outside {min}..{max}")),
                Err(_) => Err(format!("{name}: '{v}' is not a number")),
            },
            Kind::Choice(choices) => choices
                .iter()
                .find(|names| names.iter().any(|n| n.eq_ignore_ascii_case(v)))
                .map(|names| names[0].to_string())
                .ok_or_else(|| {
                    let all: Vec<&str> = choices.iter().map(|c| c[0]).collect();
                    format!("{name}: '{v}' is not one of {}", all.join(", "))
                }),
            Kind::Game => crate::game::registry::canonical_name(v)
                .map(str::to_string)
                .ok_or_else(|| match crate::game::registry::suggest(v) {
                    Some(g) => format!("{name}: unknown game '{v}'; did you mean '{g}'?"),
                    None => format!("{name}: unknown game '{v}'"),
                }),
            Kind::Text if v.is_empty() => Err(format!("{name}: a value is needed")),
            Kind::Text => Ok(v.to_string()),
            Kind::File if v.is_empty() || v == "<empty>" || v.eq_ignore_ascii_case("none") => {
                Ok(String::new())
            }
            Kind::File => Ok(v.to_string()),
        }
    }

    /// The handshake's `option` line (`usi`: USI names); `None` for options it does not offer.
    pub fn option_line(&self, usi: bool, default: &str) -> Option<String> {
        let name = if usi { self.usi } else { self.uci };
        if name.is_empty() {
            return None;
        }
        let head = format!("option name {name} type");
        Some(match self.kind {
            Kind::Check => format!("{head} check default {default}"),
            Kind::Int { min, max } => format!("{head} spin default {default} min {min} max {max}"),
            Kind::Real { .. } | Kind::Text => format!("{head} string default {default}"),
            Kind::File if default.is_empty() => format!("{head} string default <empty>"),
            Kind::File => format!("{head} string default {default}"),
            Kind::Choice(choices) => {
                let mut line = format!("{head} combo default {default}");
                for c in choices {
                    let _ = write!(line, " var {}", c[0]);
                }
                line
            }
            Kind::Game => {
                let mut line = format!("{head} combo default {default}");
                for g in crate::game::registry::two_player_games() {
                    let _ = write!(line, " var {}", g.name);
                }
                line
            }
        })
    }

    /// The type column of the documentation tables.
    fn type_text(&self) -> String {
        match self.kind {
            Kind::Check => "check".into(),
            Kind::Int { min, max } => format!("spin {min}..{max}"),
            Kind::Real { min, max } => format!("string (real {min}..{max})"),
            Kind::Choice(choices) => {
                let all: Vec<&str> = choices.iter().map(|c| c[0]).collect();
                format!("combo: {}", all.join(" "))
            }
            Kind::Game => "combo (the games)".into(),
            Kind::Text => "string".into(),
            Kind::File => "string (a file)".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_found_every_way() {
        for o in OPTIONS {
            for name in [o.key, o.uci, o.usi]
                .into_iter()
                .chain(o.aliases.iter().copied())
            {
                if !name.is_empty() {
                    assert!(std::ptr::eq(find(name).unwrap(), o), "{name}");
                    let upper = name.to_ascii_uppercase();
                    assert!(std::ptr::eq(find(&upper).unwrap(), o), "{upper}");
                }
            }
            assert!(!o.usi.contains(' '), "USI names have no spaces: {}", o.usi);
            assert_eq!(o.uci.is_empty(), o.usi.is_empty(), "{}", o.key);
            o.check(o.default)
                .unwrap_or_else(|e| panic!("default of {}: {e}", o.key));
        }
        assert!(find("move overhead").is_some() && find("MOVEOVERHEAD").is_some());
        assert!(find("").is_none() && find("frobnicate").is_none());
    }

    #[test]
    fn values_are_checked_by_type_and_range() {
        let c = find("C").unwrap();
        for bad in [
            "nan", "NaN", "inf", "-inf", "infinity", "1e999", "x", "", "101", "-1",
        ] {
            assert!(c.check(bad).is_err(), "C = {bad}");
        }
        assert_eq!(c.check(" 0.5 ").unwrap(), "0.5");
        let hash = find("hash").unwrap();
        assert!(hash.check("0").is_err() && hash.check("1.5").is_err());
        assert_eq!(hash.check("64").unwrap(), "64");
        let bias = find("bias").unwrap();
        assert_eq!(bias.check("PNRank").unwrap(), "rank");
        assert!(bias.check("median").is_err());
        assert_eq!(find("ponder").unwrap().check("on").unwrap(), "true");
        assert_eq!(find("variant").unwrap().check("connect4").unwrap(), "cfour");
        let solver = find("Solver").unwrap();
        for algo in crate::solve::Algo::ALL {
            assert!(solver.check(algo.name()).is_ok(), "{}", algo.name());
        }
    }

    #[test]
    fn config_files_name_options_every_way_and_report_bad_lines_by_number() {
        let text =
            "# engine settings\n\nHash = 64\nthreads=2\n  Move Overhead = 100  \nLogFile =\n";
        assert_eq!(
            read_config(text),
            Ok(vec![
                ("hash".to_string(), "64".to_string()),
                ("threads".to_string(), "2".to_string()),
                ("move_overhead".to_string(), "100".to_string()),
                ("log_file".to_string(), String::new()),
            ])
        );
        let err = |text: &str| read_config(text).unwrap_err();
        assert!(
            err("Hash = 64\nHsah = 3\n").starts_with("line 2: "),
            "{}",
            err("Hsah = 3")
        );
        assert!(err("Hsah = 3").contains("hash"), "suggests the name");
        assert!(err("\n\nThreads = 0").starts_with("line 3: "));
        assert!(err("threads 2").starts_with("line 1: expected 'name = value'"));
        assert_eq!(read_config(""), Ok(Vec::new()));
    }

    #[test]
    fn real_tunable_options_have_a_spin_form_in_thousandths() {
        let c = find("c").unwrap();
        assert!(c.spin_scaled() && c.tune.is_some());
        assert!(std::ptr::eq(spin_form_of("Tune_C").unwrap(), c));
        assert!(std::ptr::eq(spin_form_of("tune_c").unwrap(), c));
        let im = spin_form_of("Tune_ImplicitMinimax").unwrap();
        assert!(std::ptr::eq(
            spin_form_of("Tune_Implicit Minimax").unwrap(),
            im
        ));
        // Integer options are spins already; options that are not tuned have no spin form.
        assert!(spin_form_of("Tune_PN Decay").is_none());
        assert!(spin_form_of("Tune_Contempt").is_none() && spin_form_of("Tune_Hash").is_none());
        assert!(spin_form_of("C").is_none() && find("Tune_C").is_none());
        let (o, v) = lookup_value("Tune_C", " 1414 ").unwrap();
        assert_eq!((o.key, v.as_str()), ("c", "1.414"));
        assert_eq!(lookup_value("Tune_C_pn", "0").unwrap().1, "0");
        assert!(lookup_value("Tune_C", "1.5")
            .unwrap_err()
            .contains("not an integer"));
        let (o, v) = lookup_value("C", "1.5").unwrap();
        assert_eq!((o.key, v.as_str()), ("c", "1.5"));
        assert!(lookup_value("Tune_Frob", "1").is_err());
        assert_eq!(
            c.spin_line(false, c.default).unwrap(),
            "option name Tune_C type spin default 1414 min 0 max 100000"
        );
        assert!(find("hash").unwrap().spin_line(false, "256").is_none());
        // Every tuning range lies within the values its option accepts.
        for o in OPTIONS {
            let Some(t) = o.tune else { continue };
            assert!(t.min < t.max && t.c_end > 0.0 && t.r_end > 0.0, "{}", o.key);
            let ok = match o.kind {
                Kind::Int { min, max } => t.min >= min as f64 && t.max <= max as f64,
                Kind::Real { min, max } => t.min >= min && t.max <= max,
                _ => false,
            };
            assert!(ok, "{}: tuning range outside the option's", o.key);
            assert_eq!(o.scope, Scope::Search, "{}", o.key);
        }
    }

    #[test]
    fn a_misspelt_name_gets_a_suggestion() {
        let e = lookup("Trheads").unwrap_err().to_ascii_lowercase();
        assert!(e.contains("did you mean 'threads'"), "{e}");
        let e = lookup("pn_decy").unwrap_err();
        assert!(e.contains("did you mean 'pn_decay'"), "{e}");
        assert!(!lookup("zzzzzzzzzz").unwrap_err().contains("did you mean"));
    }

    #[test]
    fn option_lines_follow_the_types() {
        let line = |k: &str| {
            find(k)
                .unwrap()
                .option_line(false, find(k).unwrap().default)
        };
        assert_eq!(
            line("hash").unwrap(),
            "option name Hash type spin default 256 min 1 max 1048576"
        );
        assert_eq!(
            line("c").unwrap(),
            "option name C type string default 1.4142135"
        );
        assert!(line("variant").unwrap().contains(" var cfour"));
        assert!(line("pn_flags").is_none() && line("movetime").is_none());
    }
}
