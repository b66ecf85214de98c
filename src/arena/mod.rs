//! The match arena: plays N games between two agents in one process, in parallel, and reports,
//! for a table of any number of seats.
//!
//! Games come in groups that share a random opening (derived from the seed and the group), one
//! game per seating of the two agents ([`seatings`]): with two players a group is a pair, the
//! seats swapped — agent A is player 0 (moves first) in even games and player 1 in odd ones; with
//! `P` players there are `2^P - 2` seatings (A in a non-empty proper subset of the seats). Each
//! seat's agent is built afresh for every game by its agent's factory, with a seed derived from
//! the match seed, the game index and the seat, so a match with iteration budgets and
//! deterministic agents is reproducible whatever the concurrency. The arena knows players only
//! through [`Agent`]; it does not depend on the search.
//!
//! Progress goes to stderr, one line per finished game (or to the caller's [`run_match_with`]
//! callback, which also gets each game as it ends); [`MatchConfig::stop`] stops a match early,
//! keeping the finished games. [`output`] formats the final report (for stdout) and the CSV, JSON
//! and game-list files of a two-player match, [`seats`] the report of a larger table; both read
//! the same [`GameRecord`]s.

pub mod agents;
pub mod games_file;
pub mod lines;
pub mod merge;
pub mod output;
mod play;
pub mod records;
pub mod report_json;
pub mod run;
pub mod search_agent;
pub mod seats;
mod serial;
pub mod shard;
pub mod spec;
pub mod stats;

use std::collections::BTreeSet;
use std::fmt;
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::game::record::Record;
use crate::game::{Game, Move, Player};

pub use play::{derive_seed, play_game, random_opening, seating_text, seatings};
pub use shard::Shard;
pub use stats::{GameResult, Pentanomial, SprtConfig, SprtDecision, SprtStatus, Wdl};

/// A stop request shared with the caller (the command line raises it on Ctrl-C). A parameter
/// rather than a global read here, so that the arena stays testable. Equal when it is the same
/// flag.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(pub Arc<AtomicBool>);

impl StopFlag {
    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

impl PartialEq for StopFlag {
    fn eq(&self, other: &StopFlag) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// A player in the arena: the search (later) or a test agent.
pub trait Agent<G: Game>: Send {
    /// A new game starts from `start`; forget everything about the previous one.
    fn new_game(&mut self, start: &G);
    /// Choose a legal move for the side to move in `record.position()` within `budget`.
    fn choose(&mut self, record: &Record<G>, budget: &Budget) -> Move;
    /// A move was played (by either side), so agents can reuse their trees.
    fn observe(&mut self, m: Move);
    /// The match's stop request: an agent that thinks for long polls it, so that a Ctrl-C does
    /// not wait for the move in progress (that move is discarded with its game anyway).
    fn set_stop(&mut self, _stop: &StopFlag) {}
}

/// Per-move budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    Iterations(u64),
    Time(std::time::Duration),
}

impl Budget {
    /// This budget `k` times over.
    pub fn times(self, k: u32) -> Budget {
        match self {
            Budget::Iterations(n) => Budget::Iterations(n.saturating_mul(k as u64)),
            Budget::Time(d) => Budget::Time(d.saturating_mul(k)),
        }
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Iterations(n) => write!(f, "{n} iterations/move"),
            Budget::Time(d) => write!(f, "{} ms/move", d.as_millis()),
        }
    }
}

/// Builds one side's agent for one game from a seed. Called on the worker threads, hence `Sync`.
pub type AgentFactory<G> = dyn Fn(u64) -> Box<dyn Agent<G>> + Sync;

/// What to play.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    /// Number of games (pairs share an opening; an odd count leaves the last pair half played).
    pub games: u32,
    /// Per-move budget handed to both agents.
    pub budget: Budget,
    /// Engine A's budget is this many times `budget` (time odds; 1 = even).
    pub odds: u32,
    /// Uniformly random plies played from the start before the agents take over; the same for
    /// both games of a pair. An opening that would end the game is redrawn (or cut short).
    pub opening_plies: u32,
    /// Games played at the same time (worker threads); at least 1.
    pub concurrency: usize,
    /// Seed of the openings and of the agents' per-game seeds.
    pub seed: u64,
    /// Game-length cap in plies (a game reaching it is a draw); default `G::MAX_PLIES`.
    pub max_plies: u32,
    /// Stop early, after completing the pairs in flight, when this test decides.
    pub sprt: Option<SprtConfig>,
    /// Print one progress line per finished game on stderr.
    pub progress: bool,
    /// Once raised, no game starts and the games in progress are abandoned (not counted).
    pub stop: Option<StopFlag>,
    /// Play only this shard's pairs of the `games` (each game as the whole match would play
    /// it); `None` plays them all.
    pub shard: Option<Shard>,
    /// Games already played (a shard resumed from its games file): not played again.
    pub done: BTreeSet<u32>,
}

impl MatchConfig {
    /// Defaults for game `G`: 100 games, 1000 iterations per move, no opening, one thread, seed 1,
    /// `G::MAX_PLIES`, no SPRT, progress on.
    pub fn for_game<G: Game>() -> MatchConfig {
        MatchConfig {
            games: 100,
            budget: Budget::Iterations(1000),
            odds: 1,
            opening_plies: 0,
            concurrency: 1,
            seed: 1,
            max_plies: G::MAX_PLIES,
            sprt: None,
            progress: true,
            stop: None,
            shard: None,
            done: BTreeSet::new(),
        }
    }

    /// The indexes of the games this process plays, in the order they are handed out: every
    /// game, or the shard's pairs, less the games already `done`.
    pub fn game_indexes(&self) -> Vec<u32> {
        let all = match self.shard {
            Some(shard) => shard.games(self.games),
            None => (0..self.games).collect(),
        };
        all.into_iter().filter(|g| !self.done.contains(g)).collect()
    }

    /// How many games this process plays (`games`, or the shard's share, less those `done`).
    pub fn planned_games(&self) -> u32 {
        self.game_indexes().len() as u32
    }
}

/// Why a game ended; in the files as [`Termination::as_str`] writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// The position's own rules (`Rules::outcome`).
    Rules,
    /// The game's repetition rule (`Rules::repetition_outcome`).
    Repetition,
    /// The game-length cap: a draw.
    LengthCap,
    /// The side to move chose an illegal move and lost.
    IllegalMove,
}

impl Termination {
    pub const ALL: [Termination; 4] = [
        Termination::Rules,
        Termination::Repetition,
        Termination::LengthCap,
        Termination::IllegalMove,
    ];

    /// "rules", "repetition", "length-cap" or "illegal-move".
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Rules => "rules",
            Termination::Repetition => "repetition",
            Termination::LengthCap => "length-cap",
            Termination::IllegalMove => "illegal-move",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One game as played, at a table of any size: the one record of the arena, from which the
/// two-seat report (W/D/L, Elo, pentanomial pairs) and the N-seat one ([`seats`]) are both made.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// 0-based game index: seating `index % S` of opening group `index / S` ([`seatings`]); for
    /// two players the group is the pair.
    pub index: u32,
    /// Bit `i` set: agent A sat in seat `i` (for two players `0b01` = A first, `0b10` = A second).
    pub seating: u8,
    /// The random opening in the game's notation (part of `moves` too).
    pub opening: Vec<String>,
    /// Every move from the start position in the game's notation, the opening included. An
    /// illegal move ends the list as `illegal:0x<code>` (its notation is undefined).
    pub moves: Vec<String>,
    /// Each seat's rank (0 = first; equal ranks share a place).
    pub ranks: Vec<u8>,
    /// Each seat's points at the end, for games that count them ([`crate::game::Territory::player_scores`]).
    pub scores: Option<Vec<i32>>,
    /// The result from agent A's point of view (`play::result_for_a`).
    pub result: GameResult,
    /// Legal plies played (the opening included, an illegal move not).
    pub plies: u32,
    pub termination: Termination,
    /// Total wall-clock time of the `choose` calls (ms) and their number, per agent: `[A, B]`.
    /// Totals rather than every move's time, because that is what the files keep.
    pub think_ms: [f64; 2],
    pub think_moves: [u32; 2],
}

impl GameRecord {
    /// The number of seats at the table.
    pub fn seats(&self) -> usize {
        self.ranks.len()
    }

    /// The two-player pair (both colours of one opening): `index / 2`.
    pub fn pair(&self) -> u32 {
        self.index / 2
    }

    /// The agent (0 = A, 1 = B) in `seat`.
    pub fn agent_in(&self, seat: usize) -> usize {
        usize::from(self.seating >> seat & 1 == 0)
    }

    /// The agent (0 = A, 1 = B) sitting in player 0's seat.
    pub fn first_agent(&self) -> usize {
        self.agent_in(0)
    }

    /// Agent A's seat in a two-player game (its first seat at a larger table).
    pub fn a_seat(&self) -> Player {
        Player(self.seating.trailing_zeros() as u8)
    }

    /// How many seats agent A held.
    pub fn a_seats(&self) -> u32 {
        self.seating.count_ones()
    }

    /// The share of first place that `seat` took: 1/k when k seats share it, else 0.
    pub fn first_share(&self, seat: usize) -> f64 {
        if self.ranks[seat] != 0 {
            return 0.0;
        }
        1.0 / self.ranks.iter().filter(|&&r| r == 0).count() as f64
    }

    /// Mean think time per move of agent `agent` (0 = A, 1 = B) in milliseconds; 0 without moves.
    pub fn mean_think_ms(&self, agent: usize) -> f64 {
        match self.think_moves[agent] {
            0 => 0.0,
            n => self.think_ms[agent] / n as f64,
        }
    }
}

/// The SPRT part of a report.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtReport {
    pub config: SprtConfig,
    /// The state over every finished game.
    pub status: SprtStatus,
    /// The first bound crossed, if any, and after how many finished games; the match stopped
    /// handing out pairs then, so `status` may differ a little.
    pub decided: Option<(SprtDecision, u32)>,
}

/// A finished match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// The game's registered name.
    pub game: &'static str,
    /// Each seat's colour, seat by seat (its length is the number of players).
    pub seat_names: Vec<&'static str>,
    /// Names of agent A and agent B.
    pub names: (String, String),
    pub config: MatchConfig,
    /// Every finished game, by index.
    pub games: Vec<GameRecord>,
    pub sprt: Option<SprtReport>,
    /// Wall-clock duration of the match in seconds.
    pub seconds: f64,
    /// Whether `config.stop` ended the match (Ctrl-C): `games` holds the games finished before.
    pub interrupted: bool,
}

impl MatchReport {
    /// The number of seats at the table.
    pub fn players(&self) -> usize {
        self.seat_names.len()
    }

    /// Adds the games of an earlier run of this match (a resumed games file), keeping the games
    /// in index order.
    pub fn include(&mut self, previous: Vec<GameRecord>) {
        self.games.extend(previous);
        sort_by_index(&mut self.games);
    }

    /// Results from A's point of view.
    pub fn wdl(&self) -> Wdl {
        Wdl::from_results(self.games.iter().map(|g| g.result))
    }

    /// Results from A's point of view in the games where A sat in `seat`.
    pub fn wdl_in_seat(&self, seat: Player) -> Wdl {
        Wdl::from_results(
            self.games
                .iter()
                .filter(|g| g.a_seat() == seat)
                .map(|g| g.result),
        )
    }

    /// Results from player 0's point of view (the first-move advantage).
    pub fn wdl_first_player(&self) -> Wdl {
        Wdl::from_results(self.games.iter().map(|g| {
            if g.a_seat() == Player(0) {
                g.result
            } else {
                g.result.flip()
            }
        }))
    }

    /// How many games ended for `reason`.
    pub fn count(&self, reason: Termination) -> usize {
        self.games
            .iter()
            .filter(|g| g.termination == reason)
            .count()
    }

    /// Mean think time per move of agent `agent` (0 = A, 1 = B) over the match, in ms, and the
    /// number of moves it chose.
    pub fn mean_think_ms(&self, agent: usize) -> (f64, u32) {
        let ms: f64 = self.games.iter().map(|g| g.think_ms[agent]).sum();
        let n: u32 = self.games.iter().map(|g| g.think_moves[agent]).sum();
        (if n == 0 { 0.0 } else { ms / n as f64 }, n)
    }

    /// Pentanomial counts over the complete pairs (both games of an opening, seats swapped).
    pub fn pentanomial(&self) -> Pentanomial {
        Pentanomial::from_games(self.games.iter().map(|g| (g.index, g.result)))
    }

    /// Whether the SPRT stopped the match before its planned games.
    pub fn stopped_early(&self) -> bool {
        self.sprt.is_some_and(|s| s.decided.is_some())
            && self.games.len() < self.config.planned_games() as usize
    }
}

/// Called with each finished game and the running results, under the arena's lock, before the
/// next game is claimed (the command line appends it to the files and moves its progress bar).
pub type OnGame<'a> = dyn FnMut(&GameRecord, &Wdl) + Send + 'a;

/// What the workers share: the finished games and the running statistics.
struct Progress<'a> {
    games: Vec<GameRecord>,
    wdl: Wdl,
    sprt: Option<SprtReport>,
    on_game: &'a mut OnGame<'a>,
}

impl Progress<'_> {
    /// Counts a finished game, updates the SPRT (raising `stop` at its first decision) and prints
    /// the progress line.
    fn record(&mut self, record: GameRecord, config: &MatchConfig, stop: &AtomicBool) {
        self.wdl.add(record.result);
        if let Some(s) = self.sprt.as_mut() {
            s.status = s.config.status(&self.wdl);
            // A shard sees only its share of the games: the test is decided on the merged
            // totals (`gpn merge`), so a shard plays all its pairs.
            if s.decided.is_none()
                && s.status.decision != SprtDecision::Continue
                && config.shard.is_none()
            {
                s.decided = Some((s.status.decision, self.wdl.games()));
                stop.store(true, Ordering::SeqCst);
            }
        }
        if config.progress {
            // A closed stderr must not end a match whose results still go to stdout and files.
            let line = if record.seats() == 2 {
                output::progress_line(
                    &record,
                    config.planned_games(),
                    &self.wdl,
                    self.sprt.as_ref(),
                )
            } else {
                seats::progress_line(&record, &self.wdl)
            };
            let _ = writeln!(std::io::stderr(), "{line}");
        }
        (self.on_game)(&record, &self.wdl);
        self.games.push(record);
    }
}

/// Games in index order. Not generic: one sort for every game, not one copy per game.
fn sort_by_index(games: &mut [GameRecord]) {
    games.sort_by_key(|g| g.index);
}

/// Plays the games of `config` (all `config.games`, or its shard's, less those `done`) of `G`
/// between the agents built by `a` and `b`, over every seating of `G`'s players, on
/// `config.concurrency` threads, printing progress on stderr, and returns every game played.
///
/// Blocks until the last game in flight finishes. With an SPRT, once a bound is crossed no new
/// group of seatings (pair) is started (the rest of a started one still is) and the games in
/// flight finish. When `config.stop` is raised, no game starts and the games in progress are
/// abandoned. Panics if an agent or factory panics.
pub fn run_match<G: Game>(
    config: &MatchConfig,
    a: &AgentFactory<G>,
    b: &AgentFactory<G>,
    names: (&str, &str),
) -> MatchReport {
    run_match_with(config, a, b, names, &mut |_, _| {})
}

/// [`run_match`], calling `on_game` with each game as it finishes.
pub fn run_match_with<'a, G: Game>(
    config: &MatchConfig,
    a: &AgentFactory<G>,
    b: &AgentFactory<G>,
    names: (&str, &str),
    on_game: &'a mut OnGame<'a>,
) -> MatchReport {
    let t0 = Instant::now();
    // Workers claim positions in this list; a game starts a new group when its index is a
    // multiple of the seatings per opening (a shard holds whole pairs), which the SPRT's "no new
    // pair" rule below relies on.
    let group = seatings(G::NUM_PLAYERS).len() as u32;
    let indexes = config.game_indexes();
    let planned = indexes.len() as u32;
    let next = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let workers = config.concurrency.clamp(1, planned.max(1) as usize);
    let state = Mutex::new(Progress {
        games: Vec::with_capacity(planned as usize),
        wdl: Wdl::default(),
        sprt: config.sprt.map(|cfg| SprtReport {
            config: cfg,
            status: cfg.status(&Wdl::default()),
            decided: None,
        }),
        on_game,
    });
    let user_stop = || config.stop.as_ref().is_some_and(StopFlag::is_raised);

    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                // Games after a group's first complete a group already started, so they are
                // handed out even after the SPRT has decided. A worker records its game (and the SPRT decides) before
                // it claims the next one, so only games in flight finish after a decision.
                let claimed = next.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |i| {
                    let new_pair = indexes.get(i as usize).is_some_and(|g| g % group == 0);
                    let stopped = (stop.load(Ordering::SeqCst) && new_pair) || user_stop();
                    (i < planned && !stopped).then_some(i + 1)
                });
                let Ok(position) = claimed else { break };
                let index = indexes[position as usize];
                let Some(record) = play_game(config, index, a, b) else {
                    break;
                };
                // A poisoned lock means another worker panicked; the scope re-raises that panic.
                let Ok(mut st) = state.lock() else { break };
                st.record(record, config, &stop);
            });
        }
    });

    let Progress {
        mut games, sprt, ..
    } = state.into_inner().unwrap_or_else(|e| e.into_inner());
    sort_by_index(&mut games);
    let games_len = games.len();
    MatchReport {
        game: G::INFO.name,
        seat_names: (0..G::NUM_PLAYERS)
            .map(|s| G::player_name(Player(s as u8)))
            .collect(),
        names: (names.0.to_string(), names.1.to_string()),
        config: config.clone(),
        games,
        sprt,
        seconds: t0.elapsed().as_secs_f64(),
        interrupted: user_stop() && (games_len as u32) < planned,
    }
}

#[cfg(test)]
mod tests;
