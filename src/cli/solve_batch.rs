//! `gpn solve --batch`: every position of a file, as text, CSV or JSON lines, and a summary.

use std::io::Write;

use super::solve_args::{warn_unlimited, SolveArgs, WATCH};
use super::CliError;
use crate::arena::shard::run_id;
use crate::solve::batch::{self, BatchSolve};
use crate::solve::report::write_summary;

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
        let text = if a.json {
            s.json_line(&run, jobs.len(), shard.as_deref()).to_json()
        } else if a.csv {
            s.csv_row()
        } else {
            s.text_row()
        };
        writeln!(out, "{text}")?;
        Ok(())
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
