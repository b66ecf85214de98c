//! Reports of solves: JSON lines, text and CSV rows, batch tallies and summary, stop reasons.

use std::io::{self, Write};

use super::{SolveConfig, SolveResult, Value};
use serde::{Deserialize, Serialize};

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

/// A line of `gpn solve --json`: one solve, after its batch's fields when it is one of a batch.
/// The field names are the file format (`gpn merge` and experiment scripts read them).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolveLine {
    /// Where the solve belongs in its batch; absent for a single `gpn solve --json`.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub batch: Option<BatchFields>,
    #[serde(default)]
    pub position: String,
    pub algo: String,
    /// `win`, `draw`, `loss` or `unknown`, for the player to move (or `--player`).
    pub value: String,
    /// The limit that stopped an unknown solve (`time`, `nodes`, `stop`), else null.
    #[serde(default)]
    pub stopped_by: Option<String>,
    #[serde(default)]
    pub best_move: String,
    pub nodes: u64,
    pub time_s: f64,
    #[serde(default)]
    pub nodes_per_s: u64,
    #[serde(default)]
    pub proof_size: Option<u64>,
    /// Each proof's question and answer (`win?=yes draw?=no`), the first one first.
    pub proofs: String,
    /// A precision-rate conclusion rather than a proof.
    #[serde(default)]
    pub by_pr: bool,
}

impl SolveLine {
    /// The line of one solve; `batch`: its batch's fields, if it is one of a batch.
    pub fn new(line: &SolvedPosition, cfg: &SolveConfig, batch: Option<BatchFields>) -> Self {
        let r = &line.result;
        SolveLine {
            batch,
            position: line.position.clone(),
            algo: cfg.algo.name().to_string(),
            value: r.value.name().to_string(),
            stopped_by: r.stopped_by(cfg).map(str::to_string),
            best_move: line.best_move.clone(),
            nodes: r.nodes,
            time_s: r.elapsed.as_secs_f64(),
            nodes_per_s: r.nodes_per_second().round() as u64,
            proof_size: r.proof_size,
            proofs: r.proofs_text(),
            by_pr: r.by_pr,
        }
    }

    /// The line as JSON text (one line, no newline).
    pub fn to_json(&self) -> String {
        // Plain strings, numbers and options only: serialising cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BatchFields {
    /// The run id of the whole batch.
    pub run: String,
    /// The position's index in the whole batch (0-based), whichever shard solves it.
    pub index: u64,
    /// Positions in the whole batch.
    pub positions: u64,
    /// The shard (`K/N`), null if the batch is not sharded.
    #[serde(default)]
    pub shard: Option<String>,
    /// The position's line in the batch file (1-based).
    #[serde(default)]
    pub line: u64,
    #[serde(default)]
    pub game: String,
    /// The value the batch file expects, if it gives one.
    #[serde(default)]
    pub expected: Option<String>,
    /// Whether the value is the expected one; null when there was nothing to check.
    #[serde(default, rename = "match")]
    pub matches: Option<bool>,
}

impl BatchFields {
    /// The `match` field of a solve whose check against the expected value said `verdict`
    /// (`ok`, `MISMATCH`, or empty when there was nothing to check).
    pub fn matches(verdict: &str) -> Option<bool> {
        match verdict {
            "" => None,
            v => Some(v == "ok"),
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The solve lines of experiments/data, written by earlier builds (with a hand-written JSON
    /// writer and extra fields added by the experiment scripts), still read.
    #[test]
    fn solve_lines_written_by_earlier_builds_still_read() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/experiments/data/pcn");
        let mut lines = 0;
        for entry in std::fs::read_dir(dir).expect("experiments/data/pcn") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "jsonl") {
                let text = std::fs::read_to_string(&path).expect("readable");
                for (n, line) in text.lines().enumerate() {
                    let read: SolveLine = serde_json::from_str(line)
                        .unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), n + 1));
                    assert!(Value::parse(&read.value).is_some(), "{}", read.value);
                    assert!(!read.algo.is_empty() && !read.proofs.is_empty());
                    lines += 1;
                }
            }
        }
        assert!(lines > 1000, "{lines} lines");
    }

    #[test]
    fn a_batch_line_round_trips_and_a_single_solve_has_no_batch_fields() {
        let batch = BatchFields {
            run: "r1".into(),
            index: 3,
            positions: 10,
            shard: None,
            line: 4,
            game: "cfour".into(),
            expected: Some("win".into()),
            matches: BatchFields::matches("MISMATCH"),
        };
        let line = SolveLine {
            batch: Some(batch),
            position: "7/7/7/7/7/7 x".into(),
            algo: "pns".into(),
            value: "loss".into(),
            stopped_by: None,
            best_move: "d".into(),
            nodes: 12,
            time_s: 0.25,
            nodes_per_s: 48,
            proof_size: Some(7),
            proofs: "win?=no".into(),
            by_pr: false,
        };
        let text = line.to_json();
        assert!(text.starts_with(r#"{"run":"r1","index":3,"positions":10,"shard":null,"#));
        assert!(text.contains(r#""match":false,"position":"#));
        assert_eq!(serde_json::from_str::<SolveLine>(&text).unwrap(), line);
        let single = SolveLine {
            batch: None,
            ..line
        };
        assert!(single.to_json().starts_with(r#"{"position":"#));
        assert_eq!(
            serde_json::from_str::<SolveLine>(&single.to_json()).unwrap(),
            single
        );
    }
}
