//! The engine behind every protocol: a game-erased [`Session`] (position, history and search
//! tree of one game), the [`SearchJob`] a protocol hands it, the [`SearchControl`] block through
//! which `stop` and `ponderhit` reach a running search, and the structured [`SearchInfo`] it
//! reports. Protocol code formats these; it never touches the tree.

pub mod session;
pub mod time;
pub mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::game::{Dialect, GameError, GameInfo, GoGuiBoard, Outcome};
use crate::search::{PriorSource, Proven, SearchParams};
use crate::solve::Algo;
pub use session::new_session;

/// A session of `game` with default parameters after `moves` (GTP notation): for tests.
#[cfg(test)]
pub fn session_after(game: &str, moves: &[&str]) -> Box<dyn Session> {
    let mut s = new_session(game, SearchParams::default()).expect("a registered game");
    for m in moves {
        s.play(m, Dialect::Gtp).expect("a legal move");
    }
    s
}
use time::Budget;

/// One game being played: everything a protocol needs, without knowing the game's type.
/// Moves and positions are text in the protocol's [`Dialect`]. Every method that takes input
/// leaves the session unchanged when it returns an error.
pub trait Session: Send {
    /// The game's registry facts.
    fn game(&self) -> &'static GameInfo;
    fn params(&self) -> &SearchParams;
    /// Replaces the search parameters (and drops the tree when they differ).
    fn set_params(&mut self, params: SearchParams);
    /// Whether `params` suit this game: a network must be one of this game's encoding.
    fn check_params(&self, params: &SearchParams) -> Result<(), crate::search::params::ParamError>;
    /// Back to the start position with an empty tree.
    fn new_game(&mut self);
    /// Sets the position to `start` (`None`: the game's start) followed by `moves`. When the new
    /// position extends the current one by a few moves, the search tree is kept.
    fn set_position(
        &mut self,
        start: Option<&str>,
        moves: &[&str],
        dialect: Dialect,
    ) -> Result<(), GameError>;
    /// Plays one move; returns it in the dialect's notation.
    fn play(&mut self, text: &str, dialect: Dialect) -> Result<String, GameError>;
    /// Takes back the last move; false when there is none.
    fn undo(&mut self) -> bool;
    /// Index of the player to move (0 = first player).
    fn side_to_move(&self) -> usize;
    /// The number of players (2, or more: Rolit for 3 and 4).
    fn num_players(&self) -> usize;
    /// The name of player `p` (0 = first), [`crate::game::Rules::player_name`]: the colours of
    /// games of more than two players (Rolit: red, yellow, green, blue); two-player games say
    /// "first" and "second" (their protocols name the sides themselves).
    fn player_name(&self, p: usize) -> &'static str;
    /// The game's bound on the moves the side to move still plays
    /// ([`crate::game::Heuristics::moves_left_bound`]).
    fn moves_left_bound(&self) -> Option<u32>;
    /// The legal moves, in the dialect's notation.
    fn legal_moves(&self, dialect: Dialect) -> Vec<String>;
    /// The result, counting history rules (repetition) and the length cap.
    fn outcome(&self) -> Option<Outcome>;
    /// The current position as the dialect writes it.
    fn position_text(&self, dialect: Dialect) -> String;
    fn diagram(&self) -> String;
    /// Moves played since the start position.
    fn plies(&self) -> usize;
    /// The moves played since the start position, in the dialect's notation (GTP `printsgf`).
    fn history(&self, dialect: Dialect) -> Vec<String>;
    /// Reads legal moves of the current position in any notation `play` accepts; returns them as
    /// the dialect writes them (so `searchmoves` can be compared with the legal moves).
    fn parse_moves(&self, moves: &[&str], dialect: Dialect) -> Result<Vec<String>, GameError>;
    /// Perft from the current position: each legal move (in the dialect's notation) with the
    /// number of move sequences of `depth` plies starting with it, until `stop` is set (then
    /// the moves counted so far).
    fn perft(&self, depth: u32, dialect: Dialect, stop: &AtomicBool) -> PerftCounts;
    /// The session's [`SessionTerritory`] (Go's komi, superko, scoring and ownership, GoGui's
    /// board, players' points), where the game has any of it ([`crate::game::Rules::territory`]);
    /// `None` otherwise. One accessor keeps the Go-only commands out of every session's surface.
    fn territory(&self) -> Option<&dyn SessionTerritory>;
    /// [`Session::territory`] for the setters (komi, superko).
    fn territory_mut(&mut self) -> Option<&mut dyn SessionTerritory>;
    /// Searches the current position (see [`SearchJob`]); `emit` receives periodic snapshots.
    /// Returns the final snapshot, whose `best` is the move to play.
    fn search(
        &mut self,
        job: &SearchJob,
        control: &SearchControl,
        emit: &mut dyn FnMut(SearchInfo),
    ) -> SearchInfo;
}

/// The part of a [`Session`] that only games with a [`crate::game::Territory`] have, reached
/// through [`Session::territory`]: GTP's Go commands, GoGui's rules commands, KataGo's analysis
/// fields and the points of multi-player games. Each answers `None` (or false) where the game's
/// territory lacks that part.
pub trait SessionTerritory {
    /// Sets the komi of the start position and replays the moves since (games with komi: Go);
    /// false, and nothing changes, for the others.
    fn set_komi(&mut self, komi: f32) -> bool;
    /// Chooses situational (true) or positional superko for the start position and replays the
    /// moves since (games with superko: Go); false, and nothing changes, for the others.
    fn set_superko(&mut self, situational: bool) -> bool;
    /// The score of the current position as GTP writes it (`B+3.5`), for games scored by
    /// points; `None` for the others.
    fn score_text(&self) -> Option<String>;
    /// The current position's ownership estimate ([`crate::game::Territory::ownership`]).
    fn ownership(&self) -> Option<Vec<f32>>;
    /// GTP's `final_status_list`: the stones of a status in the current position (Go).
    fn status_list(&self, status: &str) -> Option<Vec<String>>;
    /// The board as GoGui's game-ruler commands show it ([`crate::game::Territory::gogui_board`]);
    /// `None` for games that do not map onto GoGui's grid.
    fn gogui_board(&self) -> Option<GoGuiBoard>;
    /// For games scored by points (Go), a scorer that keeps working while the session searches
    /// (it owns a copy of the position): the estimated lead in points of the side to move after
    /// a line of moves in `dialect` (read up to the first that is not legal); `None` otherwise.
    fn line_scorer(&self, dialect: Dialect) -> Option<LineScorer>;
    /// Each player's points in the current position, in seat order, for games that count them
    /// ([`crate::game::Territory::player_scores`]: Rolit's pieces per colour); `None` otherwise.
    fn player_scores(&self) -> Option<Vec<i32>>;
}

/// See [`SessionTerritory::line_scorer`].
pub type LineScorer = Box<dyn Fn(&[String]) -> f32>;

/// What a protocol asks of one search. Time limits are not here: they live in the
/// [`SearchControl`], where `ponderhit` can change them during the search.
#[derive(Clone, Debug)]
pub struct SearchJob {
    pub dialect: Dialect,
    /// Iterations (playouts) of this search.
    pub iterations: Option<u64>,
    /// Nodes in the tree.
    pub nodes: Option<u64>,
    /// Mean selection depth.
    pub depth: Option<u32>,
    /// Root lines to report (MultiPV), at least 1.
    pub multipv: usize,
    /// Root moves to consider (`searchmoves`); empty: all.
    pub searchmoves: Vec<String>,
    /// Time between periodic snapshots when nothing changes.
    pub info_interval: Duration,
    /// Run a solver instead of the game search (UCI/USI `go mate`, GTP `gpn-solve`).
    pub solve: Option<SolveJob>,
    /// Count move sequences of this many plies instead of searching (`go perft`); it runs on
    /// the worker like a search, so that `stop` and `isready` are heard meanwhile.
    pub perft: Option<u32>,
    /// Analysis (UCI_AnalyseMode): a timed search runs to its time target, without the
    /// game-playing shortcuts (a stop once the leader cannot be overtaken, a short search of a
    /// forced move).
    pub analyse: bool,
}

/// The answer of a perft job ([`SearchJob::perft`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerftCounts {
    /// Each root move counted, in move-generation order, with its count.
    pub divide: Vec<(String, u64)>,
    /// The number of legal moves at the root.
    pub moves: usize,
    /// False when `stop` came first: `divide` then holds only the moves counted before it.
    pub complete: bool,
}

impl PerftCounts {
    pub fn total(&self) -> u64 {
        self.divide.iter().map(|d| d.1).sum()
    }
}

/// A solve asked through a protocol. Time limits and `stop` come from the [`SearchControl`].
#[derive(Clone, Debug)]
pub struct SolveJob {
    pub algo: Algo,
    pub mode: SolveMode,
    pub max_nodes: Option<u64>,
    /// Table or tree memory, in MB.
    pub memory_mb: usize,
    /// Threads: sb-gpn's search threads, or the proof-number solvers' workers.
    pub threads: usize,
}

impl SolveJob {
    /// Why this solve cannot run in a game of `players` players; `None` when it can. Games of
    /// more than two players get paranoid proofs (the side to move against the others
    /// together: a win is a sole first place, a draw a shared one) from every solver, with any
    /// number of threads; the mate searches are two-player.
    pub fn refusal(&self, players: usize) -> Option<String> {
        (players > 2 && matches!(self.mode, SolveMode::Mate(_))).then(|| {
            format!("mate searches are for two-player games (this one has {players} players)")
        })
    }
}

/// What a solve looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveMode {
    /// The shortest forced win of the side to move, within this many of its moves (`None`:
    /// any distance).
    Mate(Option<u32>),
    /// The game-theoretic value (win, draw or loss).
    Value,
}

/// The answer of a solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Win,
    Draw,
    Loss,
    /// A mate search proved there is no forced win (within the asked moves).
    NoWin,
    /// A limit or `stop` came first.
    Unknown,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Win => "win",
            Verdict::Draw => "draw",
            Verdict::Loss => "loss",
            Verdict::NoWin => "nowin",
            Verdict::Unknown => "unknown",
        }
    }
}

/// A finished solve, as [`SearchInfo::solved`] reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct Solved {
    pub algo: Algo,
    pub verdict: Verdict,
    /// Plies to the end of the game with best play, where proven.
    pub plies: Option<u32>,
    /// The binary proofs run (`win?=no not-loss?=yes`) or the mate search's bound.
    pub detail: String,
}

impl Default for SearchJob {
    fn default() -> SearchJob {
        SearchJob {
            dialect: Dialect::Native,
            iterations: None,
            nodes: None,
            depth: None,
            multipv: 1,
            searchmoves: Vec::new(),
            info_interval: Duration::from_secs(1),
            solve: None,
            perft: None,
            analyse: false,
        }
    }
}

/// Shared between the protocol controller and a running search: the stop flag, whether the
/// search is unlimited (pondering or infinite: it never ends by a limit), and the deadlines.
/// Plain atomics with relaxed ordering: they are flags, the results travel through channels.
#[derive(Debug)]
pub struct SearchControl {
    stop: Arc<AtomicBool>,
    unlimited: AtomicBool,
    epoch: Instant,
    /// Deadlines in microseconds since `epoch`; `u64::MAX` for none.
    soft_us: AtomicU64,
    hard_us: AtomicU64,
    /// When the budget was set, in microseconds since `epoch`.
    set_us: AtomicU64,
}

impl Default for SearchControl {
    fn default() -> SearchControl {
        SearchControl::new()
    }
}

impl SearchControl {
    pub fn new() -> SearchControl {
        SearchControl {
            stop: Arc::new(AtomicBool::new(false)),
            unlimited: AtomicBool::new(false),
            epoch: Instant::now(),
            soft_us: AtomicU64::new(u64::MAX),
            hard_us: AtomicU64::new(u64::MAX),
            set_us: AtomicU64::new(0),
        }
    }

    /// Asks the search to finish as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The flag itself, for [`crate::search::Limits::stop`].
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Pondering or infinite: no limit ends the search, only [`SearchControl::stop`].
    pub fn set_unlimited(&self, unlimited: bool) {
        self.unlimited.store(unlimited, Ordering::Relaxed);
    }

    pub fn unlimited(&self) -> bool {
        self.unlimited.load(Ordering::Relaxed)
    }

    /// Starts the clock of `budget` now (`None`: no time limit).
    pub fn set_budget(&self, budget: Option<Budget>) {
        let now = self.epoch.elapsed();
        let at = |d: Duration| {
            now.checked_add(d).map_or(u64::MAX - 1, |t| {
                t.as_micros().min(u64::MAX as u128 - 1) as u64
            })
        };
        let (soft, hard) = budget.map_or((u64::MAX, u64::MAX), |b| (at(b.soft), at(b.hard)));
        self.set_us.store(now.as_micros() as u64, Ordering::Relaxed);
        self.soft_us.store(soft, Ordering::Relaxed);
        self.hard_us.store(hard, Ordering::Relaxed);
    }

    /// The budget in force and the time since it was set; `None` without a time limit.
    pub fn budget(&self) -> Option<(Budget, Duration)> {
        let hard = self.hard_us.load(Ordering::Relaxed);
        if hard == u64::MAX {
            return None;
        }
        let set = self.set_us.load(Ordering::Relaxed);
        let soft = self.soft_us.load(Ordering::Relaxed);
        let now = self.epoch.elapsed().as_micros() as u64;
        let length = |us: u64| Duration::from_micros(us.saturating_sub(set));
        Some((
            Budget {
                soft: length(soft),
                hard: length(hard),
            },
            length(now),
        ))
    }

    /// Time until the soft and the hard deadline (`None` where there is none); zero once passed.
    pub fn time_left(&self) -> (Option<Duration>, Option<Duration>) {
        let now = self.epoch.elapsed().as_micros() as u64;
        let left =
            |us: u64| (us != u64::MAX).then(|| Duration::from_micros(us.saturating_sub(now)));
        (
            left(self.soft_us.load(Ordering::Relaxed)),
            left(self.hard_us.load(Ordering::Relaxed)),
        )
    }
}

/// A snapshot of a search, with moves already written in the job's dialect.
#[derive(Clone, Debug, Default)]
pub struct SearchInfo {
    /// Root lines, best first (MultiPV); empty when there is no legal move.
    pub lines: Vec<InfoLine>,
    /// Mean and maximum selection depth.
    pub depth: u32,
    pub seldepth: u32,
    /// Iterations of this search (each one a node visit plus a playout).
    pub iterations: u64,
    /// Nodes in the tree.
    pub tree_nodes: u64,
    pub time: Duration,
    /// Tree memory used, per mille of the cap.
    pub hashfull: u32,
    /// The move to play and the expected reply.
    pub best: Option<String>,
    pub ponder: Option<String>,
    /// Set when the job was a solve.
    pub solved: Option<Solved>,
    /// Set when the job was a perft.
    pub perft: Option<PerftCounts>,
}

impl SearchInfo {
    pub fn nps(&self) -> u64 {
        (self.iterations as f64 / self.time.as_secs_f64().max(1e-3)) as u64
    }
}

/// One root move's line.
#[derive(Clone, Debug, PartialEq)]
pub struct InfoLine {
    /// The line, starting with the root move.
    pub pv: Vec<String>,
    /// Expected utility for the side to move, in [-1, 1].
    pub value: f32,
    /// The lower confidence bound of `value`, in [-1, 1] (`value` itself when proven).
    pub lcb: f32,
    /// The root move's prior probability, of the kind `prior_source` says.
    pub prior: f32,
    pub prior_source: PriorSource,
    /// Win/draw/loss per mille for the side to move.
    pub wdl: [u32; 3],
    pub proven: Option<Proven>,
    pub visits: u32,
    /// The root move's number in the position's move order, from 1 (UCI `currmovenumber`).
    pub move_number: u32,
}

impl InfoLine {
    /// The one line of an answer found without a search (the only legal move, a solver's or a
    /// table's move): it has all the weight there is, and a bound only where it is proven.
    pub fn sole(pv: Vec<String>, value: f32, wdl: [u32; 3], proven: Option<Proven>) -> InfoLine {
        InfoLine {
            pv,
            value,
            lcb: if proven.is_some() { value } else { -1.0 },
            prior: 1.0,
            prior_source: PriorSource::Visits,
            wdl,
            proven,
            visits: 0,
            move_number: 1,
        }
    }
}

/// The documented centipawn-like scale of a value in [-1, 1] (lc0's mapping): 0 stays 0, a
/// value of 0.5 is about +90, values near 1 grow steeply.
pub fn centipawns(value: f32) -> i32 {
    let q = value.clamp(-0.999, 0.999) as f64;
    (90.0 * (1.563_754_189_7 * q).tan()).round() as i32
}

/// UCI's `mate` distance in moves of a proven win (positive) or loss (negative) in `plies`.
pub fn mate_moves(proven: Proven) -> Option<i32> {
    match proven {
        Proven::Win { plies } => Some(plies.div_ceil(2) as i32),
        Proven::Loss { plies } => Some(-(plies.div_ceil(2) as i32)),
        Proven::Draw { .. } => None,
    }
}

/// An error of a protocol command, with the message the protocol prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError(pub String);

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_mapping_is_odd_and_monotone() {
        assert_eq!(centipawns(0.0), 0);
        assert_eq!(centipawns(-0.5), -centipawns(0.5));
        assert!((85..=95).contains(&centipawns(0.5)), "{}", centipawns(0.5));
        let mut last = i32::MIN;
        for k in -100..=100 {
            let cp = centipawns(k as f32 / 100.0);
            assert!(cp >= last);
            last = cp;
        }
    }

    #[test]
    fn mate_counts_moves_of_the_winner() {
        assert_eq!(mate_moves(Proven::Win { plies: 1 }), Some(1));
        assert_eq!(mate_moves(Proven::Win { plies: 3 }), Some(2));
        assert_eq!(mate_moves(Proven::Loss { plies: 2 }), Some(-1));
        assert_eq!(mate_moves(Proven::Draw { plies: 4 }), None);
    }

    #[test]
    fn deadlines_start_when_set_and_none_means_unlimited() {
        let c = SearchControl::new();
        assert_eq!(c.time_left(), (None, None));
        c.set_budget(Some(Budget {
            soft: Duration::from_secs(10),
            hard: Duration::from_secs(20),
        }));
        let (soft, hard) = c.time_left();
        assert!(soft.unwrap() <= Duration::from_secs(10) && soft.unwrap() > Duration::from_secs(9));
        assert!(hard.unwrap() > soft.unwrap());
        c.set_budget(None);
        assert_eq!(c.time_left(), (None, None));
    }
}
