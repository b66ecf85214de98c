//! `gpn match`: games between two agents on threads, with statistics, SPRT and output files.

use std::io::IsTerminal as _;
use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::{count, interrupt, positive, CliError};
use crate::arena::run::{self, MatchSettings, MatchWatch, NamedAgent};
use crate::arena::{Shard, SprtConfig, StopFlag, Wdl};

pub const AFTER_HELP: &str = "\
Agents: `random` (uniformly random legal moves), `default` (the engine's search with the game's
row of the per-game defaults), or a search named by its algorithm (uct, sb-uct, gpn, sb-gpn,
pn-mcts) with key=value search options; one quoted argument each, e.g. \"sb-gpn c_pn=2 bias=max\",
\"default c_pn=0.5\". `threads=2` in a spec gives that agent two search threads.

The report: W/D/L, the score with its 95% interval, the Elo difference with its interval,
results per seat, the pentanomial counts of the game pairs, how games ended and the mean think
time per move. Progress: a bar on a terminal, else one line per game (`--quiet`: none).
--csv and --games-file get each game as it ends (the games file: PGN with cutechess-cli's
tags for the games cutechess knows, JSON Lines otherwise). Ctrl-C: the moves being searched stop,
no new game starts, games in progress are abandoned (--resume plays them again), the report and
files keep every finished game (exit status 130; 143 for SIGTERM).
--shard K/N plays the pairs p with p % N == K, each game as the whole match plays it, into a JSON
Lines --games-file whose lines carry the run id; `gpn merge` puts the shards together.

Games of more than two players (rolit, rolit-3p, ...): every seating of the two agents in which
both play (6 for three players, 14 for four) from each random opening, so --games is best a
multiple of that; a game counts for A as a win when A alone holds first place, a draw when A and
B share it. The report adds results by seats held and per seat (share of first place, mean
points, 95% intervals). The games file is JSON Lines; --resume continues it; --sprt, --shard and
--csv are for two-player games.

Example:
    gpn match cfour --engine1 random --engine2 random --games 100 --iterations 1 --concurrency 2";

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The game (a name or alias of `gpn games`)
    #[arg(value_name = "game")]
    game: String,
    /// Agent A (see below)
    #[arg(long, value_name = "agent", value_parser = NamedAgent::parse)]
    engine1: Option<NamedAgent>,
    /// Agent B (see below)
    #[arg(long, value_name = "agent", value_parser = NamedAgent::parse)]
    engine2: Option<NamedAgent>,
    /// Games to play (in pairs with the seats swapped)
    #[arg(long, value_name = "n", default_value_t = 100, value_parser = positive::<u32>)]
    games: u32,
    /// Search iterations per move [default: 1000]
    #[arg(long, value_name = "n", value_parser = positive::<u64>, conflicts_with = "movetime")]
    iterations: Option<u64>,
    /// Milliseconds per move instead of an iteration budget
    #[arg(long, value_name = "ms", value_parser = positive::<u64>)]
    movetime: Option<u64>,
    /// Give engine 1 k times the budget (time odds: does more time help?)
    #[arg(long, value_name = "k", default_value_t = 1, value_parser = positive::<u32>)]
    odds: u32,
    /// Games played at once, one thread each (1 to 256)
    #[arg(long, value_name = "n", default_value_t = 1, value_parser = super::parse_threads)]
    concurrency: usize,
    /// Uniformly random plies from the start position, shared by the two games of a pair
    #[arg(long, value_name = "plies", default_value_t = 0, value_parser = count::<u32>)]
    openings: u32,
    /// Seed of the openings and of every agent's per-game seed
    #[arg(long, value_name = "s", default_value_t = 1, value_parser = count::<u64>)]
    seed: u64,
    /// A game that reaches this many plies is a draw [default: the game's own length cap]
    #[arg(long, value_name = "n", value_parser = positive::<u32>)]
    max_plies: Option<u32>,
    /// A sequential probability ratio test of H0 "Elo = elo0" against H1 "Elo = elo1" (logistic
    /// Elo, alpha = beta = 0.05 unless given); no new pairs start once a bound is crossed
    #[arg(long, value_name = "elo0,elo1[,alpha,beta]", value_parser = parse_sprt_arg)]
    sprt: Option<SprtConfig>,
    /// Write one CSV row per game to this file
    #[arg(long, value_name = "file")]
    csv: Option<PathBuf>,
    /// Write the summary and every game as JSON to this file
    #[arg(long, value_name = "file")]
    json: Option<PathBuf>,
    /// Append every game to this file as it ends (PGN or JSON Lines, see --games-format)
    #[arg(long, value_name = "file")]
    games_file: Option<PathBuf>,
    /// The games file's format: auto (PGN for the games cutechess-cli knows: cfour, gomoku,
    /// gomokufreestyle, losalamos, minishogi; JSON Lines for the others), pgn or jsonl
    #[arg(long, value_name = "format", value_enum, default_value_t = GamesFormat::Auto)]
    games_format: GamesFormat,
    /// No progress on stderr (a bar on a terminal, else one line per game)
    #[arg(long)]
    quiet: bool,
    /// Play only shard K of N (0 <= K < N): the game pairs p with p % N == K, each game as the
    /// whole match plays it; needs --games-file (JSON Lines), which `gpn merge` puts together
    #[arg(long, value_name = "K/N", value_parser = Shard::parse, requires = "games_file")]
    shard: Option<Shard>,
    /// Continue the JSON Lines --games-file instead of overwriting it: the games of this run it
    /// holds are kept and not played again (a rerun of an interrupted shard)
    #[arg(long, requires = "games_file")]
    resume: bool,
}

/// `--games-format`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum GamesFormat {
    /// PGN where cutechess-cli knows the game, else JSON Lines
    Auto,
    Pgn,
    Jsonl,
}

impl From<GamesFormat> for run::GamesFormat {
    fn from(f: GamesFormat) -> Self {
        match f {
            GamesFormat::Auto => run::GamesFormat::Auto,
            GamesFormat::Pgn => run::GamesFormat::Pgn,
            GamesFormat::Jsonl => run::GamesFormat::Jsonl,
        }
    }
}

/// Reads `--sprt elo0,elo1[,alpha,beta]` (alpha and beta default to 0.05).
pub fn parse_sprt(text: &str) -> Result<SprtConfig, String> {
    let values: Vec<f64> = text
        .split(',')
        .map(|v| v.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("--sprt '{text}' is not elo0,elo1[,alpha,beta]"))?;
    match *values.as_slice() {
        [elo0, elo1] => SprtConfig::new(elo0, elo1, 0.05, 0.05),
        [elo0, elo1, alpha, beta] => SprtConfig::new(elo0, elo1, alpha, beta),
        _ => Err(format!("--sprt '{text}' is not elo0,elo1[,alpha,beta]")),
    }
}

/// [`parse_sprt`] for clap, which names the flag and the value itself.
fn parse_sprt_arg(text: &str) -> Result<SprtConfig, String> {
    let prefix = format!("--sprt '{text}' is ");
    parse_sprt(text).map_err(|e| e.strip_prefix(&prefix).map_or(e.clone(), str::to_string))
}

/// The terminal progress bar: games done/total, the running result (set per game) and the ETA.
struct Bar(Option<ProgressBar>);

impl MatchWatch for Bar {
    fn start(&mut self, games: u32) {
        let bar = ProgressBar::new(games as u64);
        // The template is a constant; should it ever fail to parse, the default style still works.
        if let Ok(style) = ProgressStyle::with_template("{bar:20} {pos}/{len} {msg} ETA {eta}") {
            bar.set_style(style);
        }
        self.0 = Some(bar);
    }

    fn game(&mut self, wdl: &Wdl) {
        if let Some(bar) = &self.0 {
            // Position first, so that a redraw never shows the results one game ahead.
            bar.inc(1);
            bar.set_message(format!(
                "W {} D {} L {} score {:.3}",
                wdl.wins,
                wdl.draws,
                wdl.losses,
                wdl.score()
            ));
        }
    }

    fn finish(&mut self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

pub fn run(mut args: MatchArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let (Some(e1), Some(e2)) = (args.engine1.take(), args.engine2.take()) else {
        return Err(CliError::Usage(
            "match needs --engine1 and --engine2".into(),
        ));
    };
    // On a terminal a bar replaces the per-game lines (of a two-player match).
    let bar = !args.quiet && std::io::stderr().is_terminal();
    let settings = MatchSettings {
        games: args.games,
        iterations: args.iterations,
        movetime: args.movetime,
        odds: args.odds,
        openings: args.openings,
        concurrency: args.concurrency,
        seed: args.seed,
        max_plies: args.max_plies,
        sprt: args.sprt,
        quiet: args.quiet,
        bar,
        // Ctrl-C: no new game starts and the moves being searched stop.
        stop: Some(StopFlag(interrupt::flag())),
        shard: args.shard,
        csv: args.csv,
        json: args.json,
        games_file: args.games_file,
        games_format: args.games_format.into(),
        resume: args.resume,
    };
    let mut watch = Bar(None);
    let watch: &mut dyn MatchWatch = if bar { &mut watch } else { &mut () };
    let report = run::play_match(&args.game, [e1, e2], &settings, watch, &mut |n| {
        eprintln!("{n}")
    })?;
    out.write_all(report.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sprt_specs() {
        let s = parse_sprt("0,5").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 5.0, 0.05, 0.05));
        let s = parse_sprt("-3, 1, 0.1, 0.2").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-3.0, 1.0, 0.1, 0.2));
        assert!(parse_sprt("5").is_err());
        assert!(parse_sprt("0,5,0.05").is_err());
        assert!(parse_sprt("a,b").is_err());
        assert!(parse_sprt("5,0").is_err());
    }
}
