//! `gpn selfplay`: games of the search against itself, written as training positions.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::learn::print_progress;
use super::{interrupt, CliError};
use crate::arena::StopFlag;
use crate::game::registry;
use crate::learn::selfplay::{self, SelfplayConfig};
use crate::learn::Progress;
use crate::solve::batch;

/// The library's defaults are `gpn selfplay`'s: one place to change them.
fn defaults() -> SelfplayConfig {
    SelfplayConfig::new("", PathBuf::new())
}

pub const AFTER_HELP: &str = "\
Every position of a game is written with the search's root visit shares as its policy target
and the game's result as its value target, in gpn's sample format (docs/learned.md). Games are
appended as they end: a rerun with the same --out plays only the games the file lacks, so an
interrupted run resumes. Game i uses seed (--seed, i): the same command writes the same games.

With --solve-nodes N, DFPN tries each position from the game's end backwards with N nodes; a
proven position gets its exact value (win, draw or loss for the side to move) as its value
target instead of the game's result, and the first position it cannot prove ends the labelling
of that game (earlier positions are harder).

Examples:
    gpn selfplay cfour --games 200 --iterations 400 --out cfour.gpns
    gpn selfplay cfour --games 2000 --iterations 800 --solve-nodes 100000 --out labelled.gpns
    gpn selfplay cfour --games 10 --engine \"sb-uct\" --iterations 100 --temperature-plies 6 --out t.gpns
    gpn selfplay killallgo --starts problems.txt --random-plies 0 --solve-nodes 20000 --proof-targets --out kg.gpns";

#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// The game (one with a network encoding; any other is refused with the list)
    #[arg(value_name = "game")]
    game: String,
    /// Games the file holds when the run ends
    #[arg(long, value_name = "n", default_value_t = defaults().games, value_parser = super::count::<u32>)]
    games: u32,
    /// Search iterations per move
    #[arg(long, value_name = "n", default_value_t = defaults().iterations, value_parser = super::positive::<u64>)]
    iterations: u64,
    /// The engine, an agent spec of `gpn match` other than random
    #[arg(long, value_name = "agent", default_value_t = defaults().engine)]
    engine: String,
    /// Start the games from the positions of this file, written as `gpn solve --batch` reads
    /// them (`<game> <position|start>`, `# comment`s; game i from line i modulo their number),
    /// then play --random-plies
    #[arg(long, value_name = "file")]
    starts: Option<PathBuf>,
    /// Random plies from the start before the search plays (not recorded)
    #[arg(long, value_name = "n", default_value_t = defaults().random_plies, value_parser = super::count::<u32>)]
    random_plies: u32,
    /// Recorded plies whose move is drawn in proportion to the root visits (then the best)
    #[arg(long, value_name = "n", default_value_t = defaults().temperature_plies, value_parser = super::count::<u32>)]
    temperature_plies: u32,
    /// With a network: the share of Dirichlet noise mixed into the root's priors before every
    /// move (AlphaZero's 0.25; 0: none)
    #[arg(long, value_name = "x", default_value_t = defaults().noise, value_parser = super::share)]
    noise: f64,
    /// The Dirichlet noise's concentration (AlphaZero: 0.3 in chess, 0.03 in Go; smaller for
    /// more moves)
    #[arg(long, value_name = "a", default_value_t = defaults().noise_alpha, value_parser = parse_alpha)]
    noise_alpha: f64,
    /// Seed of the run
    #[arg(long, value_name = "s", default_value_t = defaults().seed, value_parser = super::count::<u64>)]
    seed: u64,
    /// Label positions with their exact value where DFPN proves it within this many nodes
    /// (from the game's end backwards, until a position fails); 0: the game's result only
    #[arg(long, value_name = "n", default_value_t = defaults().solve_nodes, value_parser = super::count::<u64>)]
    solve_nodes: u64,
    /// With --solve-nodes: a proven win's policy target becomes the winning move the proof
    /// found, and the size of the proof (the Gomoku four-threat rule applied where the game has
    /// one) is kept as an exact proof cost for `gpn train --pcn b_heur`
    #[arg(long, requires = "solve_nodes")]
    proof_targets: bool,
    /// The sample file to append to
    #[arg(long, value_name = "file")]
    out: PathBuf,
    /// No line per game on stderr
    #[arg(long)]
    quiet: bool,
}

fn parse_alpha(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 100.0 => Ok(x),
        _ => Err(format!("'{text}': a concentration above 0 (at most 100)")),
    }
}

/// The positions of a `--starts` file, read as a `gpn solve --batch` file (`<game>
/// <position|start> [| value] [# comment]`); every line must be of `game`.
fn read_starts(file: &Path, game: &str) -> Result<Vec<String>, CliError> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| CliError::Io(format!("cannot read {}: {e}", file.display())))?;
    let jobs = batch::read_batch(&text, &file.display().to_string())?;
    // An unknown game is reported by the run itself, with the list of games.
    if let Some(want) = registry::canonical_name(game) {
        if let Some(job) = jobs
            .iter()
            .find(|j| registry::canonical_name(&j.game) != Some(want))
        {
            return Err(CliError::Usage(format!(
                "{}:{}: a position of {}, not of {want}",
                file.display(),
                job.line,
                job.game
            )));
        }
    }
    if jobs.is_empty() {
        return Err(CliError::Usage(format!(
            "{} holds no position",
            file.display()
        )));
    }
    Ok(jobs.into_iter().map(|j| j.position).collect())
}

/// `gpn selfplay`: plays the games the file lacks and says what it added.
pub fn run(args: SelfplayArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let starts = match &args.starts {
        Some(file) => read_starts(file, &args.game)?,
        None => Vec::new(),
    };
    let config = SelfplayConfig {
        game: args.game,
        out: args.out,
        games: args.games,
        iterations: args.iterations,
        engine: args.engine,
        starts,
        random_plies: args.random_plies,
        temperature_plies: args.temperature_plies,
        noise: args.noise,
        noise_alpha: args.noise_alpha,
        seed: args.seed,
        solve_nodes: args.solve_nodes,
        proof_targets: args.proof_targets,
    };
    let quiet = args.quiet;
    // Ctrl-C ends the run after the games already written.
    let added = selfplay::play(
        &config,
        &StopFlag(interrupt::flag()),
        &mut |event| match event {
            Progress::GameWritten(_) if quiet => Ok(()),
            event => print_progress(event, out),
        },
    )?;
    writeln!(out, "{added}")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_starts_file_is_a_batch_file_of_the_game() {
        let file = std::env::temp_dir().join(format!("gpn-starts-{}.txt", std::process::id()));
        let read = |text: &str| {
            std::fs::write(&file, text).unwrap();
            read_starts(&file, "kag")
        };
        assert_eq!(
            read("killallgo 9/9/9/9/9/9/9/9/9 w # problem 1\n\n# a note\n  kag start\n").unwrap(),
            ["9/9/9/9/9/9/9/9/9 w", "start"]
        );
        let err = read("killallgo start\ncfour start\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(":2: a position of cfour, not of killallgo"),
            "{err}"
        );
        let err = read("nosuchgame start\n").unwrap_err().to_string();
        assert!(err.contains("nosuchgame"), "{err}");
        let err = read("# nothing\n").unwrap_err().to_string();
        assert!(err.contains("holds no position"), "{err}");
        std::fs::remove_file(&file).unwrap();
        let err = read_starts(&file, "kag").unwrap_err().to_string();
        assert!(err.contains("cannot read"), "{err}");
    }
}
