//! The JSON forms of one game as serde types: the fields of a two-player game (its JSON Lines
//! record, which also carries its run for `gpn merge` and `--resume`, and its entry in the
//! report's `games`), and a larger table's line.
//!
//! Field names and order are those the hand-written writers used, so files keep their shape and
//! files of earlier builds read back.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::serial::{budget, sprt, Num};
use super::{Budget, GameRecord, GameResult, MatchConfig, SprtConfig, Termination};

/// Agent labels by agent index (0 = A, 1 = B).
pub const LABELS: [&str; 2] = ["A", "B"];

/// The result from player 0's point of view, PGN style: `1-0`, `0-1` or `1/2-1/2`, from the
/// seats' ranks.
pub fn result_for_first(ranks: &[u8]) -> &'static str {
    match ranks[0].cmp(&ranks[1]) {
        std::cmp::Ordering::Less => "1-0",
        std::cmp::Ordering::Equal => "1/2-1/2",
        std::cmp::Ordering::Greater => "0-1",
    }
}

/// One two-player game's own fields, shared by the JSON Lines records and the JSON report.
/// Think times are each agent's mean per move, as the CSV has them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameFields {
    pub index: u32,
    pub pair: u32,
    /// The agent in player 0's seat: `A` or `B`.
    pub player0: String,
    pub result_a: GameResult,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    pub plies: u32,
    pub reason: Termination,
    pub think_ms_a: Num,
    pub think_ms_b: Num,
    /// Moves each agent chose; absent (0) in the files of builds before they were counted.
    #[serde(default)]
    pub choices_a: u64,
    #[serde(default)]
    pub choices_b: u64,
    pub opening: Vec<String>,
    pub moves: Vec<String>,
}

impl GameFields {
    pub fn of(g: &GameRecord) -> GameFields {
        GameFields {
            index: g.index,
            pair: g.pair(),
            player0: LABELS[g.first_agent()].to_string(),
            result_a: g.result,
            result: result_for_first(&g.ranks).to_string(),
            plies: g.plies,
            reason: g.termination,
            think_ms_a: Num(g.mean_think_ms(0)),
            think_ms_b: Num(g.mean_think_ms(1)),
            choices_a: g.think_moves[0].into(),
            choices_b: g.think_moves[1].into(),
            opening: g.opening.clone(),
            moves: g.moves.clone(),
        }
    }

    /// The game these fields describe. Think totals come back as each agent's mean times its
    /// moves, which keeps the report's means (the files hold means, not every move's time).
    pub fn record(&self) -> Result<GameRecord, String> {
        let seating = match self.player0.as_str() {
            "A" => 0b01,
            "B" => 0b10,
            other => return Err(format!("\"player0\" '{other}' is not A or B")),
        };
        // The seats' ranks (an illegal move is a loss of the side that played it: the same ranks).
        let ranks = match self.result.as_str() {
            "1/2-1/2" => vec![0, 0],
            "1-0" => vec![0, 1],
            "0-1" => vec![1, 0],
            other => return Err(format!("\"result\" '{other}' is not 1-0, 0-1 or 1/2-1/2")),
        };
        let plies = self.plies;
        // The counts and times come from a file: an agent chose at most once per ply (plus an
        // illegal move), and a time must be one a Duration holds (1e300 ms is not).
        let think = |agent: &str, Num(ms): Num, n: u64| -> Result<(f64, u32), String> {
            let key = format!("think_ms_{agent}");
            let mean = Duration::try_from_secs_f64(ms.max(0.0) / 1e3)
                .map_err(|_| format!("\"{key}\" {ms} is not a time"))?;
            if n > u64::from(plies) + 1 {
                return Err(format!(
                    "\"choices_{agent}\" {n} is more than the game's {plies} plies"
                ));
            }
            Ok((mean.as_secs_f64() * 1e3 * n as f64, n as u32))
        };
        let a = think("a", self.think_ms_a, self.choices_a)?;
        let b = think("b", self.think_ms_b, self.choices_b)?;
        Ok(GameRecord {
            index: self.index,
            seating,
            opening: self.opening.clone(),
            moves: self.moves.clone(),
            ranks,
            scores: None,
            result: self.result_a,
            plies,
            termination: self.reason,
            think_ms: [a.0, b.0],
            think_moves: [a.1, b.1],
        })
    }
}

/// A run's settings as a line carries them (`"match"`): what its run id hashes, and how this
/// process scheduled it (`concurrency`, not part of the id).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchFields {
    pub games: u32,
    #[serde(with = "budget")]
    pub budget: Budget,
    pub odds: u32,
    pub opening_plies: u32,
    pub max_plies: u32,
    #[serde(with = "sprt")]
    pub sprt: Option<SprtConfig>,
    pub concurrency: usize,
}

impl MatchFields {
    pub fn of(cfg: &MatchConfig) -> MatchFields {
        MatchFields {
            games: cfg.games,
            budget: cfg.budget,
            odds: cfg.odds,
            opening_plies: cfg.opening_plies,
            max_plies: cfg.max_plies,
            sprt: cfg.sprt,
            concurrency: cfg.concurrency,
        }
    }
}

/// One two-player game as a JSON Lines record: the match's facts, its run (when it has one),
/// the seated names, then the game's fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    pub game: String,
    pub engine_a: String,
    pub engine_b: String,
    pub seed: u64,
    /// The budget in words (`30 iterations/move`); the run's settings have it as numbers.
    pub budget: String,
    pub date: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
    /// `K/N`, or null for an unsharded run; absent without a run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Option<String>>,
    #[serde(rename = "match", default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<MatchFields>,
    /// The seated names, player 0's first.
    pub players: [String; 2],
    #[serde(flatten)]
    pub fields: GameFields,
}

/// One game of a larger table as a line of its games file; `run` ties it to its match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatLine {
    pub run: String,
    /// The game's index.
    pub game: u32,
    /// A seat by seat, as letters (`ABB`).
    pub seating: String,
    pub moves: Vec<String>,
    pub opening_plies: u32,
    pub ranks: Vec<u8>,
    pub scores: Option<Vec<i32>>,
    pub result: GameResult,
    pub plies: u32,
    pub termination: Termination,
    /// Total think time (ms) and moves chosen, per agent: `[A, B]`.
    pub think_ms: [Num; 2],
    pub think_moves: [u32; 2],
}

impl SeatLine {
    pub fn of(g: &GameRecord, run: &str) -> SeatLine {
        SeatLine {
            run: run.to_string(),
            game: g.index,
            seating: super::seating_text(g.seating, g.seats()),
            moves: g.moves.clone(),
            opening_plies: g.opening.len() as u32,
            ranks: g.ranks.clone(),
            scores: g.scores.clone(),
            result: g.result,
            plies: g.plies,
            termination: g.termination,
            think_ms: [Num(g.think_ms[0]), Num(g.think_ms[1])],
            think_moves: g.think_moves,
        }
    }

    /// The game of this line.
    pub fn record(self) -> Result<GameRecord, String> {
        let seating = self
            .seating
            .chars()
            .enumerate()
            .try_fold(0u8, |bits, (i, c)| match c {
                'A' if i < 8 => Ok(bits | 1 << i),
                'B' if i < 8 => Ok(bits),
                _ => Err("bad 'seating'".to_string()),
            })?;
        let opening = self
            .moves
            .get(..self.opening_plies as usize)
            .ok_or("'opening_plies' is longer than 'moves'")?
            .to_vec();
        Ok(GameRecord {
            index: self.game,
            seating,
            opening,
            moves: self.moves,
            ranks: self.ranks,
            scores: self.scores,
            result: self.result,
            plies: self.plies,
            termination: self.termination,
            think_ms: [self.think_ms[0].0, self.think_ms[1].0],
            think_moves: self.think_moves,
        })
    }
}
