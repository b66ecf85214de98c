//! `gpn label`: positions of gpn's games valued by a stronger UCI engine, as training samples.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::learn::print_progress;
use super::{interrupt, CliError};
use crate::arena::StopFlag;
use crate::learn::label::{self, LabelConfig, TeacherLimit};
use crate::learn::uci::WdlModel;

/// The library's defaults are `gpn label`'s: one place to change them.
fn defaults() -> LabelConfig {
    LabelConfig::new("", PathBuf::new(), TeacherLimit::Depth(1), PathBuf::new())
}

pub const AFTER_HELP: &str = "\
Games of gpn's own search (--iterations per move, after --random-plies random plies, the first
--temperature-plies moves drawn in proportion to the root visits) are played to their end; then
the teacher, a UCI engine, searches every position of the game (`position fen <start> moves
...`, `go depth D` or `go nodes N`). Its last exact score becomes the value target, win, draw and
loss probabilities for the side to move: win - loss = tanh(cp / K), draw = D x (1 - |win - loss|)
(K and D by game family: losalamos 350 and 0.25, minishogi 700 and 0.05, breakthrough 400 and
0, others 400 and 0.2; or --scale and --draw). A mate is a sure win or loss; an engine that
reports `wdl` itself (with --option UCI_ShowWDL=true, say) is taken at its word. --mix F blends
in the game's result: (1 - F) x teacher + F x result. Its bestmove is the policy target. The
engine's UCI_Variant is set to the game where it has that option.

Games are appended whole, in gpn's sample format version 3 (docs/learned.md), until the file
holds --positions positions: a rerun resumes, and Ctrl-C stops after the last finished game.
Game i uses seed (--seed, i). `gpn train` reads the soft targets as it reads results.

Examples:
    gpn label losalamos --engine /usr/games/fairy-stockfish --depth 6 --positions 2000 --out la.gpns
    gpn label minishogi --engine fairy-stockfish --nodes 20000 --mix 0.25 --positions 5000 --out ms.gpns
    gpn label breakthrough --engine gpn --engine-arg=--protocol --engine-arg=uci --nodes 2000 --out bt.gpns";

#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("limit").required(true).args(["depth", "nodes"])))]
pub struct LabelArgs {
    /// The game (one with a network encoding; any other is refused with the list)
    #[arg(value_name = "game")]
    game: String,
    /// The teacher: a UCI engine's executable
    #[arg(long, value_name = "path")]
    engine: PathBuf,
    /// An argument to start the engine with (repeatable)
    #[arg(long = "engine-arg", value_name = "arg", allow_hyphen_values = true)]
    engine_args: Vec<String>,
    /// An engine option, set by `setoption` after the handshake (repeatable), e.g.
    /// --option Hash=64
    #[arg(long = "option", value_name = "name>=<value", value_parser = parse_option)]
    options: Vec<(String, String)>,
    /// The teacher searches each position to this depth (`go depth D`)
    #[arg(long, value_name = "d", value_parser = super::positive::<u32>)]
    depth: Option<u32>,
    /// The teacher searches each position this many nodes (`go nodes N`)
    #[arg(long, value_name = "n", value_parser = super::positive::<u64>)]
    nodes: Option<u64>,
    /// Positions the file holds when the run ends (whole games: a few more)
    #[arg(long, value_name = "n", default_value_t = defaults().positions, value_parser = super::positive::<usize>)]
    positions: usize,
    /// The sample file to append to
    #[arg(long, value_name = "file")]
    out: PathBuf,
    /// Seed of the run
    #[arg(long, value_name = "s", default_value_t = defaults().seed, value_parser = super::count::<u64>)]
    seed: u64,
    /// The game's result's share of the value target, in [0, 1]
    #[arg(long, value_name = "f", default_value_t = defaults().mix, value_parser = parse_mix)]
    mix: f64,
    /// gpn's search iterations per move of the games
    #[arg(long, value_name = "n", default_value_t = defaults().iterations, value_parser = super::positive::<u64>)]
    iterations: u64,
    /// Random plies from the start before the search plays (not labelled)
    #[arg(long, value_name = "n", default_value_t = defaults().random_plies, value_parser = super::count::<u32>)]
    random_plies: u32,
    /// Labelled plies whose move is drawn in proportion to the root visits (then the best)
    #[arg(long, value_name = "n", default_value_t = defaults().temperature_plies, value_parser = super::count::<u32>)]
    temperature_plies: u32,
    /// Centipawns K of the conversion win - loss = tanh(cp / K) (default: by game family)
    #[arg(long, value_name = "k", value_parser = parse_scale)]
    scale: Option<f64>,
    /// Draw share D at an equal score, draw = D x (1 - |win - loss|) (default: by game family)
    #[arg(long, value_name = "d", value_parser = parse_mix)]
    draw: Option<f64>,
    /// Seconds to wait for any answer of the engine before giving up
    #[arg(long, value_name = "s", default_value_t = defaults().timeout.as_secs_f64(), value_parser = parse_scale)]
    timeout: f64,
    /// No line per game on stderr
    #[arg(long)]
    quiet: bool,
}

fn parse_option(text: &str) -> Result<(String, String), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| "expected name=value".to_string())?;
    Ok((name.trim().to_string(), value.trim().to_string()))
}

fn parse_mix(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err("a share in [0, 1]".to_string()),
    }
}

fn parse_scale(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 1e6 => Ok(x),
        _ => Err("a number above 0 (at most 1000000)".to_string()),
    }
}

/// `gpn label`: labels the games the file lacks and says what it added.
pub fn run(args: LabelArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let limit = match (args.depth, args.nodes) {
        (Some(d), _) => TeacherLimit::Depth(d),
        (None, Some(n)) => TeacherLimit::Nodes(n),
        (None, None) => return Err(CliError::Usage("--depth or --nodes is needed".into())),
    };
    let model = match (args.scale, args.draw) {
        (None, None) => None,
        (scale, draw) => {
            let base = crate::game::registry::canonical_name(&args.game)
                .map_or(WdlModel::for_game(""), WdlModel::for_game);
            Some(WdlModel {
                scale: scale.unwrap_or(base.scale),
                draw: draw.unwrap_or(base.draw),
            })
        }
    };
    let config = LabelConfig {
        game: args.game,
        engine: args.engine,
        engine_args: args.engine_args,
        options: args.options,
        limit,
        positions: args.positions,
        out: args.out,
        seed: args.seed,
        mix: args.mix,
        iterations: args.iterations,
        random_plies: args.random_plies,
        temperature_plies: args.temperature_plies,
        model,
        timeout: Duration::from_secs_f64(args.timeout),
    };
    let quiet = args.quiet;
    // Ctrl-C ends the run after the games already written.
    let report = label::label(
        &config,
        &StopFlag(interrupt::flag()),
        &mut |event| match event {
            crate::learn::Progress::Labelled(_) if quiet => Ok(()),
            event => print_progress(event, out),
        },
    )?;
    writeln!(out, "{report}")?;
    Ok(())
}
