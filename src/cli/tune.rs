//! `gpn tune`: SPSA tuning of search options by game pairs, and the OpenBench SPSA list.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::{count, interrupt, positive, CliError};
use crate::arena::{Budget, Shard, StopFlag};
use crate::tune::{self, TuneError, TuneSettings};

pub const AFTER_HELP: &str = "\
Each step plays --pairs-per-step game pairs (the same random opening, colours swapped) between
the base engine with theta + c_k delta and with theta - c_k delta, delta a random sign per
parameter, and moves theta by r_k c_k (W - L) delta (OpenBench's SPSA: c_k and r_k fall to each
parameter's c_end and r_end at the last pair, A = pairs / 10, alpha 0.602, gamma 0.101). The
parameters, ranges and steps are the registry's (docs/tuning.md); the start is the base
engine's value. --out DIR gets state.json (rewritten atomically after every step), path.csv and
path.svg; a rerun with the same settings and --out continues. Ctrl-C stops after saving (the
step in progress is played again). --shard K/N: N processes share each step's pairs through
steps-K-of-N.jsonl files in the one --out directory.

--list prints the OpenBench SPSA list (`name, int|float, value, min, max, c_end, r_end`) with
the game's values and plays nothing; --spin gives the real options in their spin form
(Tune_<name>, in 1/1000).

Examples:
    gpn tune cfour --list
    gpn tune breakthrough --params c,c_pn,pn_decay --pairs 2000 --iterations 1000 --openings 4 --out tune-bt";

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The game (a name or alias of `gpn games`)
    #[arg(value_name = "game")]
    game: String,
    /// Print the OpenBench SPSA list and exit
    #[arg(long)]
    list: bool,
    /// With --list: real options in their spin form (Tune_<name>, 1/1000)
    #[arg(long, requires = "list")]
    spin: bool,
    /// The options to tune, by any of their names [default: all tunable options with --list,
    /// c,c_pn,pn_decay otherwise]
    #[arg(long, value_name = "name,...", value_delimiter = ',')]
    params: Vec<String>,
    /// The engine both sides start from (an agent spec of `gpn match`)
    #[arg(long, value_name = "agent", default_value = "default")]
    base: String,
    /// Game pairs in all (the schedules' iterations)
    #[arg(long, value_name = "n", default_value_t = 1000, value_parser = positive::<u32>)]
    pairs: u32,
    /// Game pairs per step (one perturbation, one update)
    #[arg(long, value_name = "n", default_value_t = 1, value_parser = positive::<u32>)]
    pairs_per_step: u32,
    /// Search iterations per move [default: 1000]
    #[arg(long, value_name = "n", value_parser = positive::<u64>, conflicts_with = "movetime")]
    iterations: Option<u64>,
    /// Milliseconds per move instead of an iteration budget
    #[arg(long, value_name = "ms", value_parser = positive::<u64>)]
    movetime: Option<u64>,
    /// Uniformly random plies from the start, shared by the two games of a pair
    #[arg(long, value_name = "plies", default_value_t = 4, value_parser = count::<u32>)]
    openings: u32,
    /// Seed of the perturbations, openings and engines
    #[arg(long, value_name = "s", default_value_t = 1, value_parser = count::<u64>)]
    seed: u64,
    /// Games played at once, one thread each
    #[arg(long, value_name = "n", default_value_t = 1, value_parser = super::parse_threads)]
    concurrency: usize,
    /// A game that reaches this many plies is a draw [default: the game's own length cap]
    #[arg(long, value_name = "n", value_parser = positive::<u32>)]
    max_plies: Option<u32>,
    /// Every parameter's r_end instead of the registry's (short runs need larger rates)
    #[arg(long, value_name = "r")]
    r_end: Option<f64>,
    /// The output directory (state, path, chart)
    #[arg(long, value_name = "dir")]
    out: Option<PathBuf>,
    /// Play shard K of N of every step's pairs (N processes, one --out directory)
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// No line per step on stderr
    #[arg(long)]
    quiet: bool,
}

impl From<TuneError> for CliError {
    fn from(e: TuneError) -> Self {
        match e {
            TuneError::Usage(m) => CliError::Usage(m),
            TuneError::Io(m) => CliError::Io(m),
        }
    }
}

pub fn run(args: TuneArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let game = crate::game::registry::canonical_name(&args.game)
        .ok_or_else(|| CliError::Game(crate::game::GameError::UnknownGame(args.game.clone())))?;
    let keys = if args.params.is_empty() && !args.list {
        vec!["c".into(), "c_pn".into(), "pn_decay".into()]
    } else {
        args.params.clone()
    };
    let mut params = tune::tunable_params(&keys).map_err(CliError::Usage)?;
    if let Some(r) = args.r_end {
        if !(r.is_finite() && r > 0.0) {
            return Err(CliError::Usage(format!(
                "--r-end {r} is not a positive number"
            )));
        }
        for p in &mut params {
            p.r_end = r;
        }
    }
    if args.list {
        let list =
            tune::openbench_list(game, &args.base, &params, args.spin).map_err(CliError::Usage)?;
        out.write_all(list.as_bytes())?;
        return Ok(());
    }
    let Some(dir) = args.out else {
        return Err(CliError::Usage("tune needs --out <dir> (or --list)".into()));
    };
    let settings = TuneSettings {
        game: game.to_string(),
        base: args.base,
        params,
        pairs: args.pairs,
        pairs_per_step: args.pairs_per_step,
        budget: match args.movetime {
            Some(ms) => Budget::Time(Duration::from_millis(ms)),
            None => Budget::Iterations(args.iterations.unwrap_or(1000)),
        },
        openings: args.openings,
        seed: args.seed,
        concurrency: args.concurrency,
        max_plies: args.max_plies,
        out: dir,
        shard: args.shard,
        stop: Some(StopFlag(interrupt::flag())),
    };
    let quiet = args.quiet;
    let outcome = tune::run(&settings, &mut |line| {
        if !quiet {
            eprintln!("{line}");
        }
    })?;
    let state = &outcome.state;
    let mut text = format!(
        "tune {} {}: {} of {} pairs in {} steps{}\n",
        state.spec.game,
        state.spec.budget,
        state.pairs_done,
        state.spec.pairs,
        state.steps,
        if outcome.interrupted {
            " (interrupted; rerun to continue)"
        } else {
            ""
        }
    );
    text.push_str(&format!(
        "plus side: W {} D {} L {}\n",
        state.total.wins, state.total.draws, state.total.losses
    ));
    let mut spec = state.spec.base.clone();
    for (i, p) in state.spec.params.iter().enumerate() {
        // Four decimals: finer than any c_end of the registry, short enough to read.
        let rounded = (p.engine_value(state.theta[i]) * 1e4).round() / 1e4;
        let value = crate::options::format_real(rounded);
        text.push_str(&format!(
            "{}: start {} theta {:.6} -> {value}\n",
            p.key, state.start[i], state.theta[i]
        ));
        spec.push_str(&format!(" {}={value}", p.key));
    }
    text.push_str(&format!("tuned: \"{spec}\"\n"));
    text.push_str(&format!(
        "files: {} (state), {} and {}\n",
        settings.state_path().display(),
        settings.out.join("path.csv").display(),
        settings.out.join("path.svg").display()
    ));
    text.push_str(&format!("time {:.1} s\n", outcome.seconds));
    out.write_all(text.as_bytes())?;
    if outcome.interrupted {
        return Err(CliError::Interrupted);
    }
    Ok(())
}
