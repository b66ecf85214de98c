//! `gpn learn`: generations of self-play, training and a gating match, with a log and a chart.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::Args;

use super::{interrupt, note, CliError};
use crate::arena::StopFlag;
use crate::learn::generations::{self, LearnConfig};
use crate::learn::{Error, Progress};

/// The library's defaults are `gpn learn`'s: one place to change them.
fn defaults() -> LearnConfig {
    LearnConfig::new("", PathBuf::new())
}

pub const AFTER_HELP: &str = "\
Each generation: (1) `gpn selfplay` with the best network so far (none in generation 1: the
engine's own playouts), --games games into DIR/gen-K.gpns; (2) `gpn train` on the last --window
generations' samples, starting from the best network, into DIR/gen-K.gpnn; (3) a gating match,
the new network against the best (or against the engine without a network), --gate-games games;
a score of at least --gate promotes it to DIR/best.gpnn; (4) the best network against the engine
without a network, --gate-games games, for the chart. One JSON line per generation goes to
DIR/learn.jsonl and the chart of Elo against the engine without a network per generation to
DIR/learn.svg. A rerun with the same DIR goes on after the last finished generation (a
generation cut short by Ctrl-C is redone, its self-play resumed). Every match and the self-play
use --iterations per move, so a run does not depend on the machine's speed.

Example:
    gpn learn cfour --dir runs/c4 --generations 4 --games 2000 --iterations 400 --solve-nodes 1000000";

#[derive(Args, Debug)]
pub struct LearnArgs {
    /// The game (one with a network encoding; any other is refused with the list)
    #[arg(value_name = "game")]
    game: String,
    /// The run's directory: samples, networks, the log and the chart
    #[arg(long, value_name = "dir")]
    dir: PathBuf,
    /// Generations the run holds when it ends
    #[arg(long, value_name = "n", default_value_t = defaults().generations, value_parser = super::positive::<u32>)]
    generations: u32,
    /// Self-play games per generation
    #[arg(long, value_name = "n", default_value_t = defaults().games, value_parser = super::positive::<u32>)]
    games: u32,
    /// Search iterations per move, in self-play and in the matches
    #[arg(long, value_name = "n", default_value_t = defaults().iterations, value_parser = super::positive::<u64>)]
    iterations: u64,
    /// Exact value targets where DFPN proves a position within this many nodes (0: results only)
    #[arg(long, value_name = "n", default_value_t = defaults().solve_nodes, value_parser = super::count::<u64>)]
    solve_nodes: u64,
    /// Generations of samples each training reads (the latest ones)
    #[arg(long, value_name = "n", default_value_t = defaults().window, value_parser = super::positive::<u32>)]
    window: u32,
    /// Hidden layer widths of the first network
    #[arg(long, value_name = "w[,w...]", default_value = "128", value_parser = parse_widths)]
    hidden: Widths,
    /// Training epochs per generation
    #[arg(long, value_name = "n", default_value_t = defaults().epochs, value_parser = super::positive::<u32>)]
    epochs: u32,
    /// Games of each match (gating, and against the engine without a network)
    #[arg(long, value_name = "n", default_value_t = defaults().gate_games, value_parser = super::positive::<u32>)]
    gate_games: u32,
    /// Score the new network needs against the best to be promoted
    #[arg(long, value_name = "x", default_value_t = defaults().gate)]
    gate: f64,
    /// The search the networks play in, an agent spec of `gpn match` (`net=` is added)
    #[arg(long, value_name = "agent", default_value_t = defaults().engine)]
    engine: String,
    /// Seed of the run
    #[arg(long, value_name = "s", default_value_t = defaults().seed, value_parser = super::count::<u64>)]
    seed: u64,
    /// Match concurrency (games at once, 1 to 256)
    #[arg(long, value_name = "n", default_value_t = defaults().concurrency, value_parser = super::parse_threads)]
    concurrency: usize,
}

// What the three learning commands share lives here, with the one that uses the other two.

/// Hidden layer widths (a newtype, so that clap takes the comma list as one value).
#[derive(Clone, Debug)]
pub(super) struct Widths(pub Vec<usize>);

/// `--hidden` of `gpn train` and `gpn learn`: what a new network's shape accepts.
pub(super) fn parse_widths(text: &str) -> Result<Widths, String> {
    let widths: Result<Vec<usize>, _> = text.split(',').map(|w| w.trim().parse()).collect();
    match widths {
        Ok(w) if !w.is_empty() && w.len() <= 8 && w.iter().all(|&x| (1..=4096).contains(&x)) => {
            Ok(Widths(w))
        }
        _ => Err("expected 1 to 8 widths in 1..=4096, comma-separated".to_string()),
    }
}

/// Shows a library event: a note on stderr, a report line on stdout (flushed, so that a long
/// run's lines appear as they come).
pub(super) fn print_progress(event: Progress, out: &mut dyn Write) -> io::Result<()> {
    if event.is_note() {
        note(format_args!("{event}"));
        return Ok(());
    }
    writeln!(out, "{event}")?;
    out.flush()
}

impl From<Error> for CliError {
    fn from(e: Error) -> Self {
        match e {
            Error::Invalid(m) => CliError::Usage(m),
            Error::Game(e) => CliError::Game(e),
            Error::Io(m) => CliError::Io(m),
            Error::Output(e) => CliError::from(e),
            Error::Stopped => CliError::Interrupted,
        }
    }
}

/// `gpn learn`: runs the generations the directory lacks, one line each, then a summary.
pub fn run(args: LearnArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let config = LearnConfig {
        game: args.game,
        dir: args.dir,
        generations: args.generations,
        games: args.games,
        iterations: args.iterations,
        solve_nodes: args.solve_nodes,
        window: args.window,
        hidden: args.hidden.0,
        epochs: args.epochs,
        gate_games: args.gate_games,
        gate: args.gate,
        engine: args.engine,
        seed: args.seed,
        concurrency: args.concurrency,
    };
    let report = generations::run(&config, &StopFlag(interrupt::flag()), &mut |event| {
        print_progress(event, out)
    })?;
    writeln!(out, "{report}")?;
    Ok(())
}
