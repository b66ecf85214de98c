//! Reports of solves: JSON lines, text and CSV rows, batch tallies and summary, stop reasons.

use std::io::{self, Write};

use super::{SolveConfig, SolveResult, Value};
use crate::json::{json_number, json_string};

/// One solved position, with its position string and best move in the game's notation (`-`
/// without a move).
#[derive(Clone, Debug)]
pub struct SolvedPosition {
    pub position: String,
    pub result: SolveResult,
    pub best_move: String,
}

/// Why an unknown value is unknown, for the reports: empty when known, else ` (stopped: ...)`.
pub fn stop_text(why: Option<&str>) -> String {
    match why {
        None => String::new(),
        Some("stop") => " (stopped: interrupted)".to_string(),
        Some(why) => format!(" (stopped by the {why} limit)"),
    }
}

/// One solve as a JSON object (a line of `gpn solve --json`); `extra` is put first verbatim
/// (the batch's fields, each followed by a comma).
pub fn json_line(line: &SolvedPosition, cfg: &SolveConfig, extra: &str) -> String {
    let r = &line.result;
    let opt = |x: Option<u64>| x.map_or("null".to_string(), |v| v.to_string());
    format!(
        "{{{extra}\"position\":{},\"algo\":{},\"value\":{},\"stopped_by\":{},\"best_move\":{},\"nodes\":{},\"time_s\":{},\"nodes_per_s\":{},\"proof_size\":{},\"proofs\":{},\"by_pr\":{}}}",
        json_string(&line.position),
        json_string(cfg.algo.name()),
        json_string(r.value.name()),
        r.stopped_by(cfg).map_or("null".to_string(), json_string),
        json_string(&line.best_move),
        r.nodes,
        json_number(r.elapsed.as_secs_f64()),
        json_number(r.nodes_per_second().round()),
        opt(r.proof_size),
        json_string(&r.proofs_text()),
        r.by_pr
    )
}

/// The text report of one solve (`gpn solve` without `--json`), one `key value` line each.
pub fn solve_text(line: &SolvedPosition, cfg: &SolveConfig) -> String {
    let r = &line.result;
    let mut text = format!("position {}\nalgo {}\n", line.position, cfg.algo.name());
    if let Some(p) = cfg.prover {
        // The value below is this player's, not the side to move's.
        text += &format!("player {}\n", p.index() + 1);
    }
    text += &format!("proofs {}\n", r.proofs_text());
    let mut value = r.value.name().to_string();
    if r.by_pr {
        value += " (precision-rate conclusion, not a proof)";
    }
    if let Some(note) = r.note {
        value += &format!(" ({note})");
    }
    value += &stop_text(r.stopped_by(cfg));
    let size = r.proof_size.map_or("-".to_string(), |s| s.to_string());
    text + &format!(
        "value {value}\nbestmove {}\nnodes {}\ntime {:.3} s\nnodes/s {:.0}\nproof size {size}\n",
        line.best_move,
        r.nodes,
        r.elapsed.as_secs_f64(),
        r.nodes_per_second()
    )
}

/// Where a solve of a batch belongs, for its JSON line: what `gpn merge` reads back.
#[derive(Clone, Copy, Debug)]
pub struct BatchTag<'a> {
    /// The run id of the whole batch.
    pub run: &'a str,
    /// The position's index in the whole batch (0-based), whichever shard solves it.
    pub index: usize,
    /// Positions in the whole batch.
    pub positions: usize,
    /// The shard (`K/N`), if the batch is sharded.
    pub shard: Option<&'a str>,
    /// The position's line in the batch file (1-based).
    pub line: usize,
    pub game: &'a str,
    pub expected: Option<Value>,
    /// `ok`, `MISMATCH`, or empty when there was nothing to check.
    pub verdict: &'a str,
}

/// The batch's fields of a JSON line, for [`json_line`]'s `extra`.
pub fn batch_json_fields(tag: &BatchTag<'_>) -> String {
    format!(
        "\"run\":{},\"index\":{},\"positions\":{},\"shard\":{},\"line\":{},\"game\":{},\"expected\":{},\"match\":{},",
        json_string(tag.run),
        tag.index,
        tag.positions,
        tag.shard.map_or("null".to_string(), json_string),
        tag.line,
        json_string(tag.game),
        tag.expected
            .map_or("null".to_string(), |w| json_string(w.name())),
        match tag.verdict {
            "" => "null",
            "ok" => "true",
            _ => "false",
        }
    )
}

/// Per-algorithm totals of a batch.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BatchTotals {
    pub positions: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub unknown: u64,
    pub proved: u64,
    pub disproved: u64,
    pub by_pr: u64,
    pub checked: u64,
    pub mismatches: u64,
    pub nodes: u64,
    pub secs: f64,
}

impl BatchTotals {
    /// Counts one solve: its value, the result of its first proof (`None`: unknown), whether it
    /// was a precision-rate conclusion, its nodes and seconds, and its check against the
    /// expected value (`ok`, `MISMATCH`, or empty when there was nothing to check).
    pub fn add(
        &mut self,
        value: Value,
        first_proof: Option<bool>,
        by_pr: bool,
        nodes: u64,
        secs: f64,
        verdict: &str,
    ) {
        self.positions += 1;
        match value {
            Value::Win => self.wins += 1,
            Value::Draw => self.draws += 1,
            Value::Loss => self.losses += 1,
            Value::Unknown => self.unknown += 1,
        }
        match first_proof {
            Some(true) => self.proved += 1,
            Some(false) => self.disproved += 1,
            None => {}
        }
        self.by_pr += by_pr as u64;
        self.nodes += nodes;
        self.secs += secs;
        if !verdict.is_empty() {
            self.checked += 1;
            self.mismatches += (verdict == "MISMATCH") as u64;
        }
    }
}

/// The summary: a blank line, `summary (N positions[; interrupted after M])`, then one line per
/// algorithm (`algos[k]` with `totals[k]`).
pub fn write_summary(
    out: &mut dyn Write,
    positions: usize,
    interrupted: &str,
    algos: &[&str],
    totals: &[BatchTotals],
) -> io::Result<()> {
    writeln!(out)?;
    writeln!(out, "summary ({positions} positions{interrupted})")?;
    for (name, t) in algos.iter().zip(totals) {
        writeln!(
            out,
            "{:<6} concluded {:>4}/{:<4} (win {} draw {} loss {}; unknown {}) first proof: proved {} disproved {}{} checked {} mismatches {} nodes {} time {:.2} s nodes/s {:.0}",
            name,
            t.wins + t.draws + t.losses,
            t.positions,
            t.wins,
            t.draws,
            t.losses,
            t.unknown,
            t.proved,
            t.disproved,
            if t.by_pr > 0 { format!(" (by pr: {})", t.by_pr) } else { String::new() },
            t.checked,
            t.mismatches,
            t.nodes,
            t.secs,
            t.nodes as f64 / t.secs.max(1e-9)
        )?;
    }
    Ok(())
}
