//! `gpn solve --batch`: every position of a file, as text, CSV or JSON lines, and a summary.

use std::io::Write;

use super::solve_args::{warn_unlimited, SolveArgs, WATCH};
use super::CliError;
use crate::arena::shard::run_id;
use crate::solve::batch::{self, BatchSolve};
use crate::solve::report::{self, write_summary, BatchTag};

/// Solves the batch file at `path` as the arguments say and prints each solve and the summary.
pub fn run(path: &std::path::Path, a: &SolveArgs, out: &mut dyn Write) -> Result<(), CliError> {
    warn_unlimited(a);
    let file = path.display().to_string();
    let text = crate::files::read_text(path, crate::files::TEXT_LIMIT)
        .map_err(|e| CliError::Io(format!("cannot read {file}: {e}")))?;
    let jobs = batch::read_batch(&text, &file)?;
    let settings = a.settings();
    let run = run_id(&batch::batch_description(
        &jobs,
        &a.algos,
        &settings,
        a.net.as_deref(),
    ));
    let shard = a.shard.map(|s| s.to_string());
    let mine: Vec<_> = jobs
        .iter()
        .filter(|j| a.shard.map_or(true, |s| s.owns(j.index as u64)))
        .collect();
    if a.csv {
        writeln!(out, "{}", batch::BATCH_CSV_HEADER)?;
    }
    let config = a.config(settings)?;
    let mut on_solve = |s: &BatchSolve<'_>| -> Result<(), CliError> {
        let tag = BatchTag {
            run: &run,
            index: s.job.index,
            positions: jobs.len(),
            shard: shard.as_deref(),
            line: s.job.line,
            game: &s.job.game,
            expected: s.job.expected,
            verdict: s.verdict,
        };
        write_batch_line(out, a, s, &tag)
    };
    let watch = (!a.quiet).then_some(&WATCH);
    let outcome = batch::solve_batch(&mine, &a.algos, &config, &file, watch, &mut on_solve)?;
    let mut interrupted = match a.shard {
        Some(shard) => format!(", shard {shard} of {}", jobs.len()),
        None => String::new(),
    };
    if outcome.done < mine.len() {
        interrupted += &format!("; interrupted after {}", outcome.done);
    }
    let names: Vec<&str> = a.algos.iter().map(|x| x.name()).collect();
    let summary = |out: &mut dyn Write| -> std::io::Result<()> {
        write_summary(out, mine.len(), &interrupted, &names, &outcome.totals)
    };
    if a.csv || a.json {
        // CSV and JSON stay machine-readable: the summary goes to stderr, where a closed stream
        // is not worth failing a finished batch for.
        let _ = summary(&mut std::io::stderr());
    } else {
        summary(out)?;
    }
    Ok(())
}

/// One solve of a batch: a JSON line, a CSV row or a text line.
fn write_batch_line(
    out: &mut dyn Write,
    a: &SolveArgs,
    s: &BatchSolve<'_>,
    tag: &BatchTag<'_>,
) -> Result<(), CliError> {
    let text = if a.json {
        report::json_line(s.solved, s.cfg, &report::batch_json_fields(tag))
    } else if a.csv {
        s.csv_row()
    } else {
        s.text_row()
    };
    writeln!(out, "{text}")?;
    Ok(())
}
