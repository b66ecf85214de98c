//! `gpn merge`: one report from the shards of a run (`gpn match --shard` games files or `gpn
//! solve --batch --shard --json` lines), refusing lines of different runs.
//!
//! The kind is read from the lines: game records (`result_a`) are a match, solve lines (`algo`)
//! a solve batch. A match merge prints the report `gpn match` prints (the same code,
//! `arena::output`) and writes the same `--json`; a solve merge prints the batch summary of
//! `gpn solve --batch` and writes the merged lines, in batch order, to `--json`.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

use clap::Args;

use super::CliError;
use crate::arena::merge::{self, Source};
use crate::arena::output;
use crate::solve::merge::{is_solve, merge_solves};

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

fn create(path: &PathBuf) -> Result<BufWriter<File>, CliError> {
    File::create(path)
        .map(BufWriter::new)
        .map_err(|e| CliError::Io(format!("cannot write '{}': {e}", path.display())))
}

pub fn run(args: MergeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let sources = read_sources(&args.files)?;
    if is_solve(sources.iter().map(|s| s.text.as_str())) {
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

fn run_solve(sources: &[Source], args: &MergeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    if args.pairs {
        return Err(CliError::Usage("--pairs is for match results".into()));
    }
    let texts: Vec<(&str, &str)> = sources
        .iter()
        .map(|s| (s.name.as_str(), s.text.as_str()))
        .collect();
    let merged = merge_solves(&texts).map_err(CliError::Usage)?;
    if let Some(path) = &args.json {
        let mut w = create(path)?;
        merged
            .lines()
            .try_for_each(|line| writeln!(w, "{line}"))
            .and_then(|_| w.flush())
            .map_err(|e| CliError::Io(format!("cannot write '{}': {e}", path.display())))?;
    }
    merged.write_report(out, sources.len())?;
    Ok(())
}
