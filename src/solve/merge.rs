//! Merging the `--json` lines of sharded solve batches into one batch, refusing mixed runs.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Write};

use super::report::{write_summary, BatchTotals, SolveLine};
use super::Value;

/// Whether the first record of the texts is a solve line (else a game record).
pub fn is_solve<'a>(texts: impl IntoIterator<Item = &'a str>) -> bool {
    let first = texts
        .into_iter()
        .flat_map(str::lines)
        .find(|l| !l.trim().is_empty());
    first
        .and_then(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .is_some_and(|v| v.get("algo").is_some() && v.get("result_a").is_none())
}

/// One solve line as the merge needs it.
#[derive(Clone, Debug)]
struct SolveRecord {
    index: u64,
    algo: String,
    value: Value,
    first_proof: Option<bool>,
    by_pr: bool,
    nodes: u64,
    secs: f64,
    verdict: &'static str,
    text: String,
}

/// Reads a solve line: its run id, the batch's positions, its shard and the record.
fn read_solve(text: &str) -> Result<(String, u64, String, SolveRecord), String> {
    let line: SolveLine = serde_json::from_str(text)
        .map_err(|e| format!("{e}: not a line of `gpn solve --batch --json`"))?;
    let batch = line
        .batch
        .ok_or("no run id: not a line of `gpn solve --batch --json`")?;
    let value = Value::parse(&line.value).ok_or_else(|| {
        format!(
            "\"value\" '{}' is not win, draw, loss or unknown",
            line.value
        )
    })?;
    // The first proof's answer: `win?=yes ...` proved, `=no` disproved, else unknown.
    let first_proof = line
        .proofs
        .split_whitespace()
        .next()
        .and_then(|p| p.split_once('='))
        .and_then(|(_, r)| {
            if r.starts_with("yes") {
                Some(true)
            } else if r.starts_with("no") {
                Some(false)
            } else {
                None
            }
        });
    let verdict = match batch.matches {
        Some(true) => "ok",
        Some(false) => "MISMATCH",
        None => "",
    };
    let record = SolveRecord {
        index: batch.index,
        algo: line.algo,
        value,
        first_proof,
        by_pr: line.by_pr,
        nodes: line.nodes,
        secs: line.time_s,
        verdict,
        text: text.to_string(),
    };
    let shard = batch.shard.unwrap_or_else(|| "all".to_string());
    Ok((batch.run, batch.positions, shard, record))
}

/// The shards of one batch, put together.
#[derive(Clone, Debug)]
pub struct SolveMerge {
    pub run: String,
    /// Positions in the whole batch.
    pub positions: u64,
    /// The algorithms in the order first seen, with their totals.
    pub algos: Vec<String>,
    pub totals: Vec<BatchTotals>,
    /// The shards seen (`K/N`, or `all` for an unsharded batch).
    pub shards: Vec<String>,
    /// Lines read, duplicates included.
    pub lines: usize,
    /// The distinct solves, by position and algorithm.
    solves: BTreeMap<(u64, usize), SolveRecord>,
    /// Positions some algorithm did not solve.
    pub missing: Vec<String>,
    /// Solves found more than once (`<index> <algo> x<n>`).
    pub duplicates: Vec<String>,
}

impl SolveMerge {
    /// The merged lines in batch order (position, then algorithm), one per distinct solve.
    pub fn lines(&self) -> impl Iterator<Item = &str> {
        self.solves.values().map(|r| r.text.as_str())
    }

    /// The report: the batch summary of `gpn solve --batch`, then the run, the `files` read,
    /// the shards, missing positions and duplicates.
    pub fn write_report(&self, out: &mut dyn Write, files: usize) -> io::Result<()> {
        let names: Vec<&str> = self.algos.iter().map(String::as_str).collect();
        write_summary(
            out,
            self.positions as usize,
            ", merged",
            &names,
            &self.totals,
        )?;
        writeln!(
            out,
            "merged: run {}, {files} files, shards {}, {} lines, {} distinct solves",
            self.run,
            self.shards.join(" "),
            self.lines,
            self.solves.len()
        )?;
        let listed = |items: &[String]| {
            if items.is_empty() {
                "none".to_string()
            } else {
                format!("{} ({})", items.len(), items.join(", "))
            }
        };
        writeln!(out, "missing positions: {}", listed(&self.missing))?;
        writeln!(
            out,
            "duplicate solves (same value, counted once): {}",
            listed(&self.duplicates)
        )
    }
}

/// Merges the solve lines of `sources` (name, text): lines of different runs, a bad line and a
/// solve found twice with different values are errors (the message says where).
pub fn merge_solves(sources: &[(&str, &str)]) -> Result<SolveMerge, String> {
    let mut first: Option<(String, u64, String)> = None;
    let mut algos: Vec<String> = Vec::new();
    let mut solves: BTreeMap<(u64, usize), SolveRecord> = BTreeMap::new();
    let mut seen: BTreeMap<(u64, usize), usize> = BTreeMap::new();
    let mut shards = BTreeSet::new();
    let mut lines = 0;
    for (name, text) in sources {
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let place = format!("{name}:{}", n + 1);
            let bad = |e: String| format!("{place}: {e}");
            let (run, positions, shard, record) = read_solve(line).map_err(bad)?;
            match &first {
                None => first = Some((run, positions, place.clone())),
                Some((first_run, first_positions, first_place)) => {
                    if *first_run != run || *first_positions != positions {
                        return Err(format!(
                            "{place} is from run {run}, {first_place} from run {first_run}: \
                             lines of different runs are not merged"
                        ));
                    }
                }
            }
            if record.index >= positions {
                return Err(bad(format!(
                    "position {} is outside the batch's {positions}",
                    record.index
                )));
            }
            shards.insert(shard);
            lines += 1;
            let algo = match algos.iter().position(|a| *a == record.algo) {
                Some(k) => k,
                None => {
                    algos.push(record.algo.clone());
                    algos.len() - 1
                }
            };
            let key = (record.index, algo);
            *seen.entry(key).or_default() += 1;
            match solves.get(&key) {
                Some(kept) if kept.value != record.value => {
                    return Err(format!(
                        "position {} ({}) conflicts: {} and {} ({place})",
                        record.index,
                        record.algo,
                        kept.value.name(),
                        record.value.name()
                    ))
                }
                Some(_) => {}
                None => {
                    solves.insert(key, record);
                }
            }
        }
    }
    let Some((run, positions, _)) = first else {
        return Err("no solve lines in the input".into());
    };
    let mut totals = vec![BatchTotals::default(); algos.len()];
    for ((_, k), r) in &solves {
        totals[*k].add(r.value, r.first_proof, r.by_pr, r.nodes, r.secs, r.verdict);
    }
    let missing: Vec<String> = (0..positions)
        .filter(|&i| (0..algos.len()).any(|k| !solves.contains_key(&(i, k))))
        .map(|i| i.to_string())
        .collect();
    let duplicates: Vec<String> = seen
        .iter()
        .filter(|&(_, &n)| n > 1)
        .map(|(&(i, k), n)| format!("{i} {} x{n}", algos[k]))
        .collect();
    Ok(SolveMerge {
        run,
        positions,
        algos,
        totals,
        shards: shards.into_iter().collect(),
        lines,
        solves,
        missing,
        duplicates,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(index: u64, algo: &str, value: &str, shard: &str) -> String {
        format!(
            "{{\"run\":\"r1\",\"index\":{index},\"positions\":3,\"shard\":\"{shard}\",\"algo\":\"{algo}\",\"value\":\"{value}\",\"nodes\":10,\"time_s\":0.5,\"proofs\":\"win?=yes\",\"by_pr\":false,\"match\":null}}"
        )
    }

    #[test]
    fn shards_merge_into_one_batch() {
        let a = [line(0, "pns", "win", "0/2"), line(2, "pns", "loss", "0/2")].join("\n");
        let b = [line(0, "pns", "win", "1/2")].join("\n");
        assert!(is_solve([a.as_str()]));
        let m = merge_solves(&[("a", &a), ("b", &b)]).unwrap();
        assert_eq!((m.run.as_str(), m.positions, m.lines), ("r1", 3, 3));
        assert_eq!(m.missing, vec!["1".to_string()]);
        assert_eq!(m.duplicates, vec!["0 pns x2".to_string()]);
        assert_eq!(m.totals[0].wins, 1);
        assert_eq!(m.lines().count(), 2);
    }

    #[test]
    fn conflicts_and_other_runs_are_refused() {
        let a = line(0, "pns", "win", "0/2");
        let b = line(0, "pns", "loss", "1/2");
        assert!(merge_solves(&[("a", &a), ("b", &b)])
            .unwrap_err()
            .contains("conflicts"));
        let c = a.replace("r1", "r2");
        assert!(merge_solves(&[("a", &a), ("c", &c)])
            .unwrap_err()
            .contains("different runs"));
        assert_eq!(
            merge_solves(&[]).unwrap_err(),
            "no solve lines in the input"
        );
    }
}
