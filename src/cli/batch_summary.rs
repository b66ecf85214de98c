//! The per-algorithm tally of a solve batch and its summary lines, shared by `gpn solve --batch`
//! and `gpn merge` of solve shards, so that both print the same summary.

use std::io::{self, Write};

use crate::solve::Value;

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
