//! `gpn merge`: one report from the shards of a run (`gpn match --shard` games files or `gpn
//! solve --batch --shard --json` lines), refusing lines of different runs.
//!
//! The kind is read from the lines: game records (`result_a`) are a match, solve lines (`algo`)
//! a solve batch. A match merge prints the report `gpn match` prints (the same code,
//! `arena::output`) and writes the same `--json`; a solve merge prints the batch summary of
//! `gpn solve --batch` and writes the merged lines, in batch order, to `--json`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

use clap::Args;

use super::batch_summary::{write_summary, BatchTotals};
use super::CliError;
use crate::arena::merge::{self, Source};
use crate::arena::output;
use crate::json::Json;
use crate::solve::Value;

pub const AFTER_HELP: &str = "\
Match shards: the --games-file of `gpn match --shard K/N` (JSON Lines); the output is the report
of `gpn match` over the distinct games, then the run id, the shards seen, missing and incomplete
pairs and duplicated games. Solve shards: the --json lines of `gpn solve --batch --shard K/N
--json`; the output is the batch summary, then missing positions and duplicates. The kind is
read from the lines. Lines of different runs, and a game or solve found twice with different
results, are errors (exit status 2); missing pairs or positions are reported (exit status 0).

Examples:
    gpn merge shard-0.jsonl shard-1.jsonl shard-2.jsonl shard-3.jsonl --json merged.json
    gpn merge solve-*.jsonl --json solve-merged.jsonl";

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shards' output files (any order; several runs' files are refused)
    #[arg(value_name = "file", required = true)]
    files: Vec<PathBuf>,
    /// Match: write the merged report as `gpn match --json` does; solve: write the merged lines
    /// in batch order
    #[arg(long, value_name = "file")]
    json: Option<PathBuf>,
    /// Match: also print one line per pair (its opening, both results for A, its score)
    #[arg(long)]
    pairs: bool,
}

fn read_sources(files: &[PathBuf]) -> Result<Vec<Source>, CliError> {
    files
        .iter()
        .map(|p| {
            crate::files::read_text(p, crate::files::RECORDS_LIMIT)
                .map(|text| Source {
                    name: p.display().to_string(),
                    text,
                })
                .map_err(|e| CliError::Io(format!("cannot read '{}': {e}", p.display())))
        })
        .collect()
}

/// Whether the first record of the input is a solve line (else a game record).
fn is_solve(sources: &[Source]) -> bool {
    let first = sources
        .iter()
        .flat_map(|s| s.text.lines())
        .find(|l| !l.trim().is_empty());
    first
        .and_then(|l| Json::parse(l).ok())
        .is_some_and(|v| v.get("algo").is_some() && v.get("result_a").is_none())
}

fn create(path: &PathBuf) -> Result<BufWriter<File>, CliError> {
    File::create(path)
        .map(BufWriter::new)
        .map_err(|e| CliError::Io(format!("cannot write '{}': {e}", path.display())))
}

pub fn run(args: MergeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let sources = read_sources(&args.files)?;
    if is_solve(&sources) {
        return run_solve(&sources, &args, out);
    }
    let merged = merge::merge_match(&sources).map_err(CliError::Usage)?;
    if let Some(path) = &args.json {
        let mut w = create(path)?;
        output::write_json(&merged.report, &mut w)
            .and_then(|_| w.flush())
            .map_err(|e| CliError::Io(format!("cannot write '{}': {e}", path.display())))?;
    }
    if !merged.missing_pairs.is_empty() || !merged.incomplete_pairs.is_empty() {
        log::warn!(
            "merge: {} pairs missing, {} incomplete",
            merged.missing_pairs.len(),
            merged.incomplete_pairs.len()
        );
    }
    out.write_all(output::format_report(&merged.report).as_bytes())?;
    out.write_all(merge::format_merge_lines(&merged, sources.len()).as_bytes())?;
    if args.pairs {
        out.write_all(merge::format_pairs(&merged.report).as_bytes())?;
    }
    Ok(())
}

/// One solve line as the merge needs it.
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

fn read_solve(v: &Json, text: &str) -> Result<(String, u64, String, SolveRecord), String> {
    let s = |k: &str| {
        v.get(k)
            .and_then(Json::as_str)
            .ok_or_else(|| format!("no string \"{k}\""))
    };
    let n = |k: &str| {
        v.get(k)
            .and_then(Json::as_u64)
            .ok_or_else(|| format!("no count \"{k}\""))
    };
    let run = v
        .get("run")
        .and_then(Json::as_str)
        .ok_or("no run id: not a line of `gpn solve --batch --json`")?;
    let shard = match v.get("shard") {
        Some(Json::String(s)) => s.clone(),
        _ => "all".to_string(),
    };
    let value_text = s("value")?;
    let value = Value::parse(value_text)
        .ok_or_else(|| format!("\"value\" '{value_text}' is not win, draw, loss or unknown"))?;
    // The first proof's answer: `win?=yes ...` proved, `=no` disproved, else unknown.
    let first_proof = s("proofs")?
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
    let verdict = match v.get("match").and_then(Json::as_bool) {
        Some(true) => "ok",
        Some(false) => "MISMATCH",
        None => "",
    };
    let record = SolveRecord {
        index: n("index")?,
        algo: s("algo")?.to_string(),
        value,
        first_proof,
        by_pr: v.get("by_pr").and_then(Json::as_bool).unwrap_or(false),
        nodes: n("nodes")?,
        secs: v
            .get("time_s")
            .and_then(Json::as_f64)
            .ok_or("no number \"time_s\"")?,
        verdict,
        text: text.to_string(),
    };
    Ok((run.to_string(), n("positions")?, shard, record))
}

fn run_solve(sources: &[Source], args: &MergeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    if args.pairs {
        return Err(CliError::Usage("--pairs is for match results".into()));
    }
    let mut first: Option<(String, u64, String)> = None;
    let mut algos: Vec<String> = Vec::new();
    let mut solves: BTreeMap<(u64, usize), SolveRecord> = BTreeMap::new();
    let mut seen: BTreeMap<(u64, usize), usize> = BTreeMap::new();
    let mut shards = BTreeSet::new();
    let mut lines = 0;
    for source in sources {
        for (n, line) in source.text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let place = format!("{}:{}", source.name, n + 1);
            let bad = |e: String| CliError::Usage(format!("{place}: {e}"));
            let v = Json::parse(line).map_err(bad)?;
            let (run, positions, shard, record) = read_solve(&v, line).map_err(bad)?;
            match &first {
                None => first = Some((run, positions, place.clone())),
                Some((first_run, first_positions, first_place)) => {
                    if *first_run != run || *first_positions != positions {
                        return Err(CliError::Usage(format!(
                            "{place} is from run {run}, {first_place} from run {first_run}: \
                             lines of different runs are not merged"
                        )));
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
                    return Err(CliError::Usage(format!(
                        "position {} ({}) conflicts: {} and {} ({place})",
                        record.index,
                        record.algo,
                        kept.value.name(),
                        record.value.name()
                    )))
                }
                Some(_) => {}
                None => {
                    solves.insert(key, record);
                }
            }
        }
    }
    let Some((run, positions, _)) = first else {
        return Err(CliError::Usage("no solve lines in the input".into()));
    };
    let mut totals = vec![BatchTotals::default(); algos.len()];
    for ((_, k), r) in &solves {
        totals[*k].add(r.value, r.first_proof, r.by_pr, r.nodes, r.secs, r.verdict);
    }
    if let Some(path) = &args.json {
        let mut w = create(path)?;
        solves
            .values()
            .try_for_each(|r| writeln!(w, "{}", r.text))
            .and_then(|_| w.flush())
            .map_err(|e| CliError::Io(format!("cannot write '{}': {e}", path.display())))?;
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
    let names: Vec<&str> = algos.iter().map(String::as_str).collect();
    write_summary(out, positions as usize, ", merged", &names, &totals)?;
    let shards: Vec<String> = shards.into_iter().collect();
    writeln!(
        out,
        "merged: run {run}, {} files, shards {}, {lines} lines, {} distinct solves",
        sources.len(),
        shards.join(" "),
        solves.len()
    )?;
    let listed = |items: &[String]| {
        if items.is_empty() {
            "none".to_string()
        } else {
            format!("{} ({})", items.len(), items.join(", "))
        }
    };
    writeln!(out, "missing positions: {}", listed(&missing))?;
    writeln!(
        out,
        "duplicate solves (same value, counted once): {}",
        listed(&duplicates)
    )?;
    Ok(())
}
