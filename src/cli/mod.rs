//! The command line: the top-level parser, the dispatch to the subcommands and error reporting.
//!
//! Parsing is clap's (derive); each subcommand lives in its own module with its arguments and
//! its help text. Results go to stdout through `&mut dyn Write`, never `println!`: Rust ignores
//! SIGPIPE, so `println!` panics when a reader such as `head` closes the pipe. A write error is
//! returned instead, and a broken pipe ends the process quietly with status 0.

mod bench;
mod engine;
mod error;
mod games;
pub mod interrupt;
mod label;
mod learn;
mod match_cmd;
mod merge;
mod parse;
mod perft;
mod position;
mod selfplay;
mod show;
mod solve;
mod solve_args;
mod solve_batch;
mod train;
mod tune;

use std::io::{self, Write};

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use error::{hint, report, report_clap};
// The subcommands reach these as `super::...`.
use error::note;
use parse::{count, parse_threads, positive, share};

pub use error::{CliError, EXIT_USAGE};
pub use games::games_table;
pub use match_cmd::parse_sprt;

/// The top-level help: the engine form first, since `gpn` with no command is the engine.
const TEMPLATE: &str = "\
{name} {version} - {about}

USAGE:
    {usage}

{all-args}{after-help}";

const AFTER_HELP: &str = "\
Position strings contain spaces: quote them. Logs go to stderr (RUST_LOG=debug).
Exit status: 0 on success (also when stdout is closed early, as by `| head`), 2 on a usage
error or bad input, 130 (143, 129) for a long job stopped by SIGINT or Ctrl-C (SIGTERM, SIGHUP).";

#[derive(Parser, Debug)]
#[command(
    name = "gpn",
    version,
    about = "a game-playing engine (GPN-MCTS, score-bounded MCTS, proof-number search)",
    long_about = None,
    help_template = TEMPLATE,
    override_usage = "gpn [--protocol uci|usi|uai|gtp] [--game <game>] [--option <name>=<value> ...]\n    \
                      gpn <command> [args]    ('gpn help <command>' for its options)",
    after_help = AFTER_HELP,
    subcommand_help_heading = "COMMANDS",
    subcommand_value_name = "command",
    next_help_heading = "ENGINE OPTIONS (no command: speaks UCI, USI, UAI or GTP on stdin/stdout)",
    // `gpn --game cfour perft ...` mixes the engine's options with a command: refuse it.
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(flatten)]
    engine: engine::EngineArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

// Parsed once per run and moved straight into its command: the variants' sizes cost nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
enum Command {
    /// List the games, their aliases, boards and move notations
    Games,
    /// Count move sequences: one line per root move, then the total
    ///
    /// Counts the move sequences of exactly <depth> plies (forced passes are plies, a finished
    /// game has no children, repetition and n-move rules are not applied: the conventions of the
    /// peer programs). Prints one `<move>: <count>` line per root move, as each is counted, and a
    /// last line `nodes <total>`; the time and leaf rate go to stderr.
    #[command(after_help = "Example:\n    gpn perft cfour 2 --moves d1,d2")]
    Perft(perft::PerftArgs),
    /// Print a position: diagram, position string, hash, side to move, legal moves
    #[command(after_help = "Example:\n    gpn show reversi --moves d3 c5")]
    Show(show::ShowArgs),
    /// Random-playout and search speed of every game, and a signature
    ///
    /// First plays uniformly random games from the start of every game (or one, --game) with a
    /// fixed seed and a fixed-algorithm PRNG, applying every rule, and prints playouts/s, the mean game
    /// length and a signature. Then searches each start position for --iterations iterations with
    /// every algorithm (or the --engine specs) and prints iterations/s, the GPN overhead ratios and
    /// a signature. The last line is `bench <signature>`: the same seed gives the same signature
    /// on every machine (with one search thread); a changed signature means the rules, the move
    /// order or the search changed.
    #[command(
        after_help = "Examples:\n    gpn bench --game breakthrough --playouts 20000\n    \
                            gpn bench --game loa --threads 1,2 --engine sb-gpn --rounds 3"
    )]
    Bench(bench::BenchArgs),
    /// Play games between two agents and report W/D/L, score and Elo from engine 1's view
    ///
    /// Games come in pairs with the same opening (--openings random plies) and the seats swapped;
    /// engine 1 ("A") moves first in even-numbered games. Each agent gets its own seed per game,
    /// derived from --seed, so with an --iterations budget a match is reproducible at any
    /// concurrency (one search thread per agent). An agent that plays an illegal move loses the
    /// game. One progress line per finished game goes to stderr; the report goes to stdout.
    #[command(
        override_usage = "gpn match <game> --engine1 <agent> --engine2 <agent> [OPTIONS]",
        after_help = match_cmd::AFTER_HELP
    )]
    Match(match_cmd::MatchArgs),
    /// Solve a position: win, draw or loss for the side to move, with proof-number solvers
    ///
    /// Gives the game-theoretic value for the side to move (or `unknown` at a limit), a best move
    /// when proven, nodes, time, nodes/s and the proof size, for each --algo side by side. Games
    /// with draws take two binary proofs ("win?", then "not a loss?"): the `proofs` line says
    /// which were run. A `ppns --pr` conclusion is labelled as not being a proof.
    #[command(
        override_usage = "gpn solve <game> [--position <string>] [--moves <move>...] --algo <algo>[,<algo>...] [OPTIONS]\n       \
                          gpn solve --batch <file> --algo <algo>[,<algo>...] [OPTIONS] [--csv]\n       \
                          gpn solve <game> --generate <n> [--plies <p>] [--seed <s>]",
        after_help = solve::AFTER_HELP
    )]
    Solve(solve::SolveArgs),
    /// Merge the shards of a match or solve batch into one report (`--shard K/N` outputs)
    ///
    /// Reads the games files of `gpn match --shard K/N` (JSON Lines) or the `--json` lines of
    /// `gpn solve --batch --shard K/N` and prints one report: for a match the report `gpn match`
    /// prints (W/D/L, score and Elo with 95% intervals, pentanomial counts of complete pairs, the
    /// SPRT on the merged totals), for a batch its summary. Lines of different runs are refused;
    /// missing pairs or positions and duplicates are reported.
    #[command(
        override_usage = "gpn merge <file>... [--json <file>] [--pairs]",
        after_help = merge::AFTER_HELP
    )]
    Merge(merge::MergeArgs),
    /// Play the search against itself and write every position as a training sample
    ///
    /// Each position gets the root visit shares as its policy target and the game's result as
    /// its value target, in gpn's sample format (docs/learned.md); a rerun resumes.
    #[command(
        override_usage = "gpn selfplay <game> --out <file> [--games <n>] [--iterations <n>] [OPTIONS]",
        after_help = selfplay::AFTER_HELP
    )]
    Selfplay(selfplay::SelfplayArgs),
    /// Value and policy targets from a stronger UCI engine for positions of gpn's games
    ///
    /// Plays games of gpn's search, asks the engine (e.g. Fairy-Stockfish) to search each
    /// position, and writes its score as soft win/draw/loss targets and its best move as the
    /// policy target, in gpn's sample format (docs/learned.md); a rerun resumes.
    #[command(
        override_usage = "gpn label <game> --engine <path> (--depth <d> | --nodes <n>) --out <file> [--positions <n>] [OPTIONS]",
        after_help = label::AFTER_HELP
    )]
    Label(label::LabelArgs),
    /// Train a network (value and policy heads) on sample files, with a validation split
    ///
    /// Adam on mini-batches; each epoch prints the training and validation losses and the
    /// validation value accuracy, and rewrites the network file.
    #[command(
        override_usage = "gpn train <game> --data <file>... --out <file> [OPTIONS]",
        after_help = train::AFTER_HELP
    )]
    Train(train::TrainArgs),
    /// Generations of self-play, training and a gating match, with a log and an Elo chart
    ///
    /// Each generation plays self-play games with the best network so far, trains a new network
    /// on the latest generations' samples, promotes it if it beats the best in a match, and
    /// measures the best against the engine without a network; a rerun goes on.
    #[command(
        override_usage = "gpn learn <game> --dir <dir> [--generations <n>] [--games <n>] [OPTIONS]",
        after_help = learn::AFTER_HELP
    )]
    Learn(learn::LearnArgs),
    /// Tune search options by SPSA over game pairs; print the OpenBench SPSA list
    ///
    /// OpenBench's SPSA over the registry's tunable options (docs/tuning.md): game pairs between
    /// the base engine perturbed up and down, theta saved after every step, resumable and
    /// shardable; or, with --list, the parameters as OpenBench reads them.
    #[command(
        override_usage = "gpn tune <game> --list [--spin] [--params <name,...>] [--base <agent>]\n       \
                          gpn tune <game> --out <dir> [--params <name,...>] [--pairs <n>] [--iterations <n> | --movetime <ms>] [OPTIONS]",
        after_help = tune::AFTER_HELP
    )]
    Tune(tune::TuneArgs),
}

impl Command {
    /// The command's name, for the hint after an error.
    fn name(&self) -> &'static str {
        match self {
            Command::Games => "games",
            Command::Perft(_) => "perft",
            Command::Show(_) => "show",
            Command::Bench(_) => "bench",
            Command::Match(_) => "match",
            Command::Solve(_) => "solve",
            Command::Merge(_) => "merge",
            Command::Selfplay(_) => "selfplay",
            Command::Label(_) => "label",
            Command::Train(_) => "train",
            Command::Learn(_) => "learn",
            Command::Tune(_) => "tune",
        }
    }
}

/// [`main`] on the arguments as the operating system gives them: one that is not UTF-8 is a
/// usage error (every name, number and position gpn reads is text; a path that is not UTF-8
/// is refused rather than guessed at).
pub fn main_os(args: Vec<std::ffi::OsString>) -> u8 {
    let mut text = Vec::with_capacity(args.len());
    for (n, arg) in args.into_iter().enumerate() {
        match arg.into_string() {
            Ok(s) => text.push(s),
            Err(raw) => {
                let mut err = io::stderr().lock();
                let _ = writeln!(
                    err,
                    "error: argument {} ('{}') is not valid UTF-8",
                    n + 1,
                    raw.to_string_lossy()
                );
                let _ = writeln!(err, "{}", hint(""));
                return EXIT_USAGE;
            }
        }
    }
    main(&text)
}

/// Runs the command line `args` (without the program name) and reports any error on stderr;
/// returns the process's exit status.
pub fn main(args: &[String]) -> u8 {
    let cli = match parse(args) {
        Ok(cli) => cli,
        Err(e) => return report_clap(&e, args),
    };
    let command = cli.command.as_ref().map_or("", Command::name);
    let mut out = io::stdout().lock();
    let result = dispatch(cli, &mut out).and_then(|()| out.flush().map_err(CliError::from));
    match result {
        // A job stopped by a signal has kept and printed what it had; its status says it was
        // cut short (128 + the signal's number, as a shell reports a job killed by it).
        Ok(()) | Err(CliError::BrokenPipe) => interrupt::exit_status().unwrap_or(0),
        Err(CliError::Interrupted) => {
            interrupt::exit_status().unwrap_or(interrupt::EXIT_INTERRUPTED)
        }
        Err(e) => {
            report(&e, command);
            EXIT_USAGE
        }
    }
}

fn parse(args: &[String]) -> Result<Cli, clap::Error> {
    let matches = Cli::command()
        .try_get_matches_from(std::iter::once("gpn").chain(args.iter().map(String::as_str)))?;
    Cli::from_arg_matches(&matches)
}

fn dispatch(cli: Cli, out: &mut dyn Write) -> Result<(), CliError> {
    match cli.command {
        None => engine::run(cli.engine),
        Some(Command::Games) => {
            out.write_all(games_table().as_bytes())?;
            Ok(())
        }
        Some(Command::Perft(a)) => perft::run(a, out),
        Some(Command::Show(a)) => show::run(a, out),
        Some(Command::Bench(a)) => bench::run(a, out),
        Some(Command::Match(a)) => match_cmd::run(a, out),
        Some(Command::Solve(a)) => solve::run(a, out),
        Some(Command::Merge(a)) => merge::run(a, out),
        Some(Command::Selfplay(a)) => selfplay::run(a, out),
        Some(Command::Label(a)) => label::run(a, out),
        Some(Command::Train(a)) => train::run(a, out),
        Some(Command::Learn(a)) => learn::run(a, out),
        Some(Command::Tune(a)) => tune::run(a, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parser_is_consistent() {
        // clap's own checks: conflicting names, bad defaults, missing value names.
        Cli::command().debug_assert();
    }
}
