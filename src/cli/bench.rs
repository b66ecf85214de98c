//! `gpn bench`: random-playout and search speed per game, and a reproducible signature.

use std::io::Write;

use clap::Args;

use super::{count, parse_threads, positive, CliError};
use crate::arena::spec::AgentSpec;
use crate::bench::{
    default_search_engines, parse_bench_engine, search_bench, BenchError, EvalBench, EvalReport,
    PlayoutBench, PlayoutReport, DEFAULT_EVAL_POSITIONS, DEFAULT_PLAYOUTS,
    DEFAULT_SEARCH_ITERATIONS, DEFAULT_SEED,
};
use crate::game::registry::{self, GAMES};
use crate::game::GameError;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Only this game (default: every game)
    #[arg(long, value_name = "game")]
    game: Option<String>,
    /// Random playouts per game [default: 1000; 10000 with --full]
    #[arg(long, value_name = "n", value_parser = count::<u32>)]
    playouts: Option<u32>,
    /// Search iterations from each start position per engine, 0 skips the search part
    /// [default: 2000; 20000 with --full]
    #[arg(long, value_name = "n", value_parser = count::<u64>)]
    iterations: Option<u64>,
    /// The long form (10,000 playouts and 20,000 iterations per game and engine, about 20 s):
    /// the figures of docs/performance.md and its signature
    #[arg(long)]
    full: bool,
    /// Seed of the playouts and the searches
    #[arg(long, value_name = "s", default_value_t = DEFAULT_SEED, value_parser = count::<u64>)]
    seed: u64,
    /// Interleaved rounds of the search part; the median rate of each is reported
    #[arg(long, value_name = "k", default_value_t = 1, value_parser = positive::<u32>)]
    rounds: u32,
    /// A search spec to time instead of every algorithm (repeatable), e.g. --engine sb-uct
    /// --engine "sb-uct policy=ipp im=0.4", or --engine default (each game's own defaults, as
    /// `gpn match` and the protocols play them); the ratios are then to the first one
    #[arg(long = "engine", value_name = "spec", value_parser = parse_engine)]
    engines: Vec<Engine>,
    /// Run every engine once per thread count, side by side, so the ratio columns are the
    /// thread scaling (signatures vary from run to run with more than one thread)
    #[arg(long, value_name = "n[,n...]", value_delimiter = ',', value_parser = parse_threads)]
    threads: Vec<usize>,
    /// Playouts of each game's own playout knowledge (the search's `policy=game`; uniform in
    /// games without any) instead of uniformly random moves
    #[arg(long)]
    knowledge: bool,
    /// Also time the evaluation (`Heuristics::evaluate`), and the builtin network where the game
    /// has one: one `<game> evaluate: N ns/call` line per game
    #[arg(long)]
    eval: bool,
}

/// A search spec as given and as read.
#[derive(Clone, Debug)]
struct Engine {
    spec: String,
    engine: AgentSpec,
}

fn parse_engine(text: &str) -> Result<Engine, String> {
    Ok(Engine {
        spec: text.to_string(),
        engine: parse_bench_engine(text)?,
    })
}

/// The quick default's playouts per game and iterations per game and engine (a few seconds).
const QUICK_PLAYOUTS: u32 = 1_000;
const QUICK_ITERATIONS: u64 = 2_000;

pub fn run(args: BenchArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let started = std::time::Instant::now();
    let playouts = args.playouts.unwrap_or(if args.full {
        DEFAULT_PLAYOUTS
    } else {
        QUICK_PLAYOUTS
    });
    let iterations = args.iterations.unwrap_or(if args.full {
        DEFAULT_SEARCH_ITERATIONS
    } else {
        QUICK_ITERATIONS
    });
    let mut engines: Vec<(String, AgentSpec)> = args
        .engines
        .into_iter()
        .map(|e| (e.spec, e.engine))
        .collect();
    if !args.threads.is_empty() {
        // Every engine once per thread count, side by side: the ratios are the scaling.
        if engines.is_empty() {
            engines = default_search_engines()
                .into_iter()
                .map(|p| (p.algorithm.name().to_string(), AgentSpec::Search(p)))
                .collect();
        }
        engines = engines
            .iter()
            .flat_map(|(spec, engine)| {
                args.threads
                    .iter()
                    .map(move |&n| (format!("{spec} threads={n}"), engine.with_threads(n)))
            })
            .collect();
    }
    let names: Vec<&str> = match &args.game {
        Some(g) => {
            vec![registry::canonical_name(g).ok_or_else(|| GameError::UnknownGame(g.clone()))?]
        }
        None => GAMES.iter().map(|info| info.name).collect(),
    };
    let seed = args.seed;
    writeln!(
        out,
        "{:<16} {:>9} {:>12} {:>11} {:>12}",
        "game", "playouts", "playouts/s", "mean plies", "signature"
    )?;
    let mut signature = 0u64;
    for &name in &names {
        let report: PlayoutReport = registry::visit(
            name,
            PlayoutBench {
                playouts,
                seed,
                knowledge: args.knowledge,
            },
        )?;
        writeln!(
            out,
            "{:<16} {:>9} {:>12.0} {:>11.1} {:>12}",
            report.game,
            report.playouts,
            report.playouts_per_second(),
            report.mean_length(),
            report.plies
        )?;
        signature += report.plies;
    }
    if args.eval {
        for &name in &names {
            let report: EvalReport = registry::visit(
                name,
                EvalBench {
                    positions: DEFAULT_EVAL_POSITIONS,
                    seed,
                },
            )?;
            writeln!(
                out,
                "{:<16} evaluate: {:.1} ns/call{}{}",
                report.game,
                report.nanos_per_call(),
                if report.has_evaluation {
                    ""
                } else {
                    " (no evaluation)"
                },
                report.network_nanos.map_or(String::new(), |ns| format!(
                    "; builtin network: {ns:.1} ns/call (value and priors)"
                ))
            )?;
        }
    }
    let mut searched = (0, 0.0);
    if iterations > 0 {
        let totals = search_bench(out, &names, &engines, iterations, seed, args.rounds).map_err(
            |e| match e {
                BenchError::Io(e) => CliError::from(e),
                BenchError::Game(e) => CliError::Game(e),
                BenchError::Spec(e) => CliError::Usage(e),
            },
        )?;
        signature += totals.signature;
        searched = (totals.iterations, totals.seconds);
    }
    writeln!(out, "bench {signature}")?;
    // Stockfish's closing lines, which scripts and people grep for: the search iterations and
    // their rate over the search part.
    let (nodes, seconds) = searched;
    writeln!(out)?;
    writeln!(out, "===========================")?;
    writeln!(out, "Total time (ms) : {}", started.elapsed().as_millis())?;
    writeln!(out, "Nodes searched  : {nodes}")?;
    writeln!(
        out,
        "Nodes/second    : {:.0}",
        nodes as f64 / seconds.max(1e-9)
    )?;
    Ok(())
}
