//! The command line: subcommands `games`, `perft`, `bench`, `show` and the help text.

use std::fmt;
use std::time::Instant;

use crate::bench::{
    PlayoutBench, PlayoutReport, SearchBench, DEFAULT_PLAYOUTS, DEFAULT_SEARCH_ITERATIONS,
    DEFAULT_SEED,
};
use crate::game::perft::{divide, perft};
use crate::game::registry::{self, GameVisitor, GAMES};
use crate::game::{Game, GameError};
use crate::search::Algorithm;

/// Usage text printed by `gpn help` and on bad arguments.
pub const USAGE: &str = "\
gpn - a game-playing engine (GPN-MCTS, score-bounded MCTS, proof-number search)

USAGE:
    gpn games                               list the games, their aliases and notations
    gpn perft <game> <depth> [--position <string>] [--moves <m1> <m2> ...]
                                            count move sequences (one line per root move)
    gpn bench [--game <game>] [--playouts <n>] [--iterations <n>] [--seed <s>]
                                            random-playout and search speed, and a signature
    gpn show <game> [--position <string>] [--moves <m1> ...]
                                            print a position: diagram, string, legal moves
    gpn help                                this text

Position strings contain spaces: quote them. Logs go to stderr (RUST_LOG=debug).";

/// A command-line error: bad arguments or bad game input.
#[derive(Debug)]
pub enum CliError {
    Usage(String),
    Game(GameError),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) => write!(f, "{m}\n\n{USAGE}"),
            CliError::Game(e) => write!(f, "{e}"),
        }
    }
}

impl From<GameError> for CliError {
    fn from(e: GameError) -> Self {
        CliError::Game(e)
    }
}

/// Runs the subcommand in `args` (without the program name), writing results to stdout.
pub fn run(args: &[String]) -> Result<(), CliError> {
    let Some((command, rest)) = args.split_first() else {
        println!("{USAGE}");
        return Ok(());
    };
    match command.as_str() {
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(())
        }
        "games" => {
            print!("{}", games_table());
            Ok(())
        }
        "perft" => run_perft(rest),
        "bench" => run_bench(rest),
        "show" => run_show(rest),
        other => Err(CliError::Usage(format!("unknown command '{other}'"))),
    }
}

/// The `gpn games` listing.
pub fn games_table() -> String {
    let mut out = format!("{:<16} {:<34} {:<6} notation\n", "game", "aliases", "board");
    for info in GAMES {
        let aliases = if info.aliases.is_empty() {
            "-".to_string()
        } else {
            info.aliases.join(",")
        };
        out += &format!(
            "{:<16} {:<34} {:<6} {}\n",
            info.name, aliases, info.board, info.notation
        );
    }
    out
}

/// Options shared by the commands that take a position: `--position` and `--moves`.
#[derive(Default)]
struct PositionArgs {
    position: Option<String>,
    moves: Vec<String>,
}

/// Splits `args` into positional arguments and the position options.
fn parse_position_args(args: &[String]) -> Result<(Vec<String>, PositionArgs), CliError> {
    let mut positional = Vec::new();
    let mut pos = PositionArgs::default();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--position" | "--fen" => {
                let value = args
                    .get(i + 1)
                    .ok_or_else(|| CliError::Usage("--position needs a value".into()))?;
                pos.position = Some(value.clone());
                i += 2;
            }
            "--moves" => {
                i += 1;
                while i < args.len() && !args[i].starts_with("--") {
                    // One argument may also hold several space-separated moves.
                    pos.moves
                        .extend(args[i].split_whitespace().map(str::to_string));
                    i += 1;
                }
            }
            flag if flag.starts_with("--") => {
                return Err(CliError::Usage(format!("unknown option '{flag}'")))
            }
            _ => {
                positional.push(args[i].clone());
                i += 1;
            }
        }
    }
    Ok((positional, pos))
}

/// Builds the position: the start or `--position`, then each of `--moves`.
fn setup<G: Game>(args: &PositionArgs) -> Result<G, GameError> {
    let mut game = match &args.position {
        Some(text) => G::parse_position(text)?,
        None => G::start(),
    };
    for m in &args.moves {
        game.play_text(m)?;
    }
    Ok(game)
}

struct PerftVisitor {
    depth: u32,
    args: PositionArgs,
}

impl GameVisitor for PerftVisitor {
    type Output = Result<(), GameError>;
    fn visit<G: Game>(self) -> Result<(), GameError> {
        let game: G = setup(&self.args)?;
        let t0 = Instant::now();
        let (lines, total) = if self.depth == 0 {
            (Vec::new(), perft(&game, 0))
        } else {
            let lines = divide(&game, self.depth);
            let total = lines.iter().map(|(_, n)| n).sum();
            (lines, total)
        };
        let secs = t0.elapsed().as_secs_f64();
        for (m, n) in &lines {
            println!("{m}: {n}");
        }
        println!("nodes {total}");
        eprintln!(
            "perft {} depth {}: {total} leaves in {:.3} s ({:.0} leaves/s)",
            G::INFO.name,
            self.depth,
            secs,
            total as f64 / secs.max(1e-9)
        );
        Ok(())
    }
}

fn run_perft(args: &[String]) -> Result<(), CliError> {
    let (positional, pos) = parse_position_args(args)?;
    let [game, depth] = positional.as_slice() else {
        return Err(CliError::Usage("perft needs <game> <depth>".into()));
    };
    let depth: u32 = depth
        .parse()
        .map_err(|_| CliError::Usage(format!("depth '{depth}' is not a non-negative integer")))?;
    registry::visit(game, PerftVisitor { depth, args: pos })??;
    Ok(())
}

struct ShowVisitor {
    args: PositionArgs,
}

impl GameVisitor for ShowVisitor {
    type Output = Result<(), GameError>;
    fn visit<G: Game>(self) -> Result<(), GameError> {
        let game: G = setup(&self.args)?;
        println!("{}", game.diagram());
        println!("position {}", game.to_position());
        println!("hash {:016x}", game.hash());
        match game.outcome() {
            Some(outcome) => println!("outcome {outcome}"),
            None => {
                let mut list = crate::game::MoveList::new();
                game.legal_moves(&mut list);
                let moves: Vec<String> = list.iter().map(|&m| game.format_move(m)).collect();
                println!("to move: player {}", game.to_move().0 + 1);
                println!("moves ({}): {}", moves.len(), moves.join(" "));
            }
        }
        Ok(())
    }
}

fn run_show(args: &[String]) -> Result<(), CliError> {
    let (positional, pos) = parse_position_args(args)?;
    let [game] = positional.as_slice() else {
        return Err(CliError::Usage("show needs <game>".into()));
    };
    registry::visit(game, ShowVisitor { args: pos })??;
    Ok(())
}

fn run_bench(args: &[String]) -> Result<(), CliError> {
    let mut game = None;
    let mut playouts = DEFAULT_PLAYOUTS;
    let mut seed = DEFAULT_SEED;
    let mut iterations = DEFAULT_SEARCH_ITERATIONS;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| CliError::Usage(format!("{name} needs a value")))
        };
        match flag.as_str() {
            "--game" => game = Some(value("--game")?),
            "--playouts" => {
                let v = value("--playouts")?;
                playouts = v
                    .parse()
                    .map_err(|_| CliError::Usage(format!("--playouts '{v}' is not a count")))?;
            }
            "--seed" => {
                let v = value("--seed")?;
                seed = v
                    .parse()
                    .map_err(|_| CliError::Usage(format!("--seed '{v}' is not a u64")))?;
            }
            "--iterations" => {
                let v = value("--iterations")?;
                iterations = v
                    .parse()
                    .map_err(|_| CliError::Usage(format!("--iterations '{v}' is not a count")))?;
            }
            other => return Err(CliError::Usage(format!("unknown bench option '{other}'"))),
        }
    }
    let names: Vec<&str> = match &game {
        Some(g) => {
            vec![registry::canonical_name(g).ok_or_else(|| GameError::UnknownGame(g.clone()))?]
        }
        None => GAMES.iter().map(|info| info.name).collect(),
    };
    println!(
        "{:<16} {:>9} {:>12} {:>11} {:>12}",
        "game", "playouts", "playouts/s", "mean plies", "signature"
    );
    let mut signature = 0u64;
    for &name in &names {
        let report: PlayoutReport = registry::visit(name, PlayoutBench { playouts, seed })?;
        println!(
            "{:<16} {:>9} {:>12.0} {:>11.1} {:>12}",
            report.game,
            report.playouts,
            report.playouts_per_second(),
            report.mean_length(),
            report.plies
        );
        signature += report.plies;
    }
    if iterations > 0 {
        signature += search_bench(&names, iterations, seed)?;
    }
    println!("bench {signature}");
    Ok(())
}

/// The search part of `gpn bench`: iterations/s of every algorithm from each start position,
/// the GPN overhead ratios, and the summed node-count signature.
fn search_bench(names: &[&str], iterations: u64, seed: u64) -> Result<u64, CliError> {
    println!();
    println!("search: {iterations} iterations from the start position, seed {seed}, iterations/s");
    print!("{:<16}", "game");
    for a in Algorithm::ALL {
        print!(" {:>10}", a.name());
    }
    println!(
        " {:>8} {:>13} {:>12}",
        "gpn/uct", "sb-gpn/sb-uct", "signature"
    );
    let mut total = 0u64;
    for &name in names {
        let algorithms = Algorithm::ALL.to_vec();
        let reports = registry::visit(
            name,
            SearchBench {
                algorithms,
                iterations,
                seed,
            },
        )?;
        let rate = |a: Algorithm| {
            reports
                .iter()
                .find(|r| r.algorithm == a)
                .map_or(0.0, |r| r.iterations_per_second())
        };
        let signature: u64 = reports.iter().map(|r| r.signature).sum();
        print!("{name:<16}");
        for r in &reports {
            print!(" {:>10.0}", r.iterations_per_second());
        }
        println!(
            " {:>8.3} {:>13.3} {:>12}",
            rate(Algorithm::Gpn) / rate(Algorithm::Uct).max(1e-9),
            rate(Algorithm::SbGpn) / rate(Algorithm::SbUct).max(1e-9),
            signature
        );
        total += signature;
    }
    Ok(total)
}
