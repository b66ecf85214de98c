//! The command line: subcommands `games`, `perft`, `bench`, `show`, `match`, `solve` and the help text.

use std::fmt;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::str::FromStr;
use std::time::{Duration, Instant};

use crate::arena::agents::RandomAgent;
use crate::arena::search_agent::SearchAgent;
use crate::arena::{self, output, AgentFactory, Budget, MatchConfig, SprtConfig};
use crate::bench::{
    default_search_engines, EvalBench, EvalReport, PlayoutBench, PlayoutReport, SearchBench,
    DEFAULT_EVAL_POSITIONS, DEFAULT_PLAYOUTS, DEFAULT_SEARCH_ITERATIONS, DEFAULT_SEED,
};
use crate::game::perft::{divide, perft};
use crate::game::registry::{self, GameVisitor, GAMES};
use crate::game::{Game, GameError};
use crate::search::params::MAX_THREADS;
use crate::search::{Algorithm, SearchParams};

/// Usage text printed by `gpn help` and on bad arguments.
pub const USAGE: &str = "\
gpn - a game-playing engine (GPN-MCTS, score-bounded MCTS, proof-number search)

USAGE:
    gpn [--protocol uci|usi|uai|gtp] [--game <game>] [--option <name>=<value> ...]
                                            the engine: speaks UCI, USI, UAI or GTP on stdin/stdout
                                            (detected from the first command when not given)
    gpn games                               list the games, their aliases and notations
    gpn perft <game> <depth> [--position <string>] [--moves <m1> <m2> ...]
                                            count move sequences (one line per root move)
    gpn bench [--game <game>] [--playouts <n>] [--iterations <n>] [--seed <s>] [--rounds <k>]
              [--engine <spec> ...] [--threads <n>[,<n>...]] [--eval]
                                            random-playout and search speed, and a signature;
                                            --eval adds the evaluation's ns per call; --threads
                                            runs each engine at each thread count (ratios =
                                            scaling; signatures vary with threads > 1)
    gpn show <game> [--position <string>] [--moves <m1> ...]
                                            print a position: diagram, string, legal moves
    gpn match <game> --engine1 <agent> --engine2 <agent> [--games <n>]
              [--iterations <n> | --movetime <ms>] [--odds <k>] [--concurrency <n>] [--openings <plies>]
              [--seed <s>] [--max-plies <n>] [--sprt <elo0>,<elo1>[,<alpha>,<beta>]]
              [--csv <file>] [--json <file>] [--games-file <file>] [--quiet]
                                            play games between two agents (random, default =
                                            the game's defaults row, or a search spec)
    gpn solve <game> [--position <string>] [--moves <m1,m2 ...>] --algo <algo>[,<algo>...]
              [--max-nodes <n>] [--max-time <seconds>] [--memory <MB>] [--playouts <k>]
              [--theta <x>] [--pr <x>] [--epsilon <x>] [--seed <s>] [--threads <n>]
                                            the value for the side to move (win/draw/loss, or
                                            unknown at a limit), a best move, nodes, time,
                                            nodes/s and proof size; algos: pns, dfpn, ppns,
                                            mcpns, sb-gpn. Draws need two proofs (win?, then
                                            not-loss?): the proofs line says which were run.
                                            Defaults: memory 256 MB (tree or table), threads 1
                                            (sb-gpn only), playouts 10
                                            per leaf (ppns, mcpns), theta 0.01, no pr, epsilon
                                            0.25 (dfpn's 1+epsilon; 0 = off), seed 1
    gpn solve --batch <file> --algo <algo>[,...] [limits as above] [--csv]
                                            one line per position and algorithm, then a summary
                                            per algorithm; file lines are
                                            <game> <position string|start> [| win|draw|loss]
                                            ('#' starts a comment); a given value is checked
    gpn solve <game> --generate <n> [--plies <p>] [--seed <s>]
                                            n distinct seeded random positions after p plies
                                            (not over), as batch lines
    gpn help                                this text

Position strings contain spaces: quote them. Logs go to stderr (RUST_LOG=debug).";

/// A command-line error: bad arguments or bad game input.
#[derive(Debug)]
pub enum CliError {
    Usage(String),
    Game(GameError),
    /// A file could not be written.
    Io(String),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) => write!(f, "{m}\n\n{USAGE}"),
            CliError::Game(e) => write!(f, "{e}"),
            CliError::Io(m) => write!(f, "{m}"),
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
        crate::protocol::run(crate::protocol::Settings::default());
        return Ok(());
    };
    if command.starts_with("--") && !matches!(command.as_str(), "--help") {
        return run_engine(args);
    }
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
        "match" => run_match_command(rest),
        "solve" => run_solve(rest),
        other => Err(CliError::Usage(format!("unknown command '{other}'"))),
    }
}

/// `gpn [--protocol uci|usi|uai|gtp] [--game <game>] [--option <name>=<value> ...]`: the engine.
fn run_engine(args: &[String]) -> Result<(), CliError> {
    let mut settings = crate::protocol::Settings::default();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| CliError::Usage(format!("{name} needs a value")))
        };
        match flag.as_str() {
            "--protocol" => {
                let v = value("--protocol")?;
                settings.protocol =
                    Some(crate::protocol::Protocol::parse(&v).ok_or_else(|| {
                        CliError::Usage(format!("--protocol '{v}': expected uci, usi, uai or gtp"))
                    })?);
            }
            "--uci" | "--usi" | "--uai" | "--gtp" => {
                settings.protocol = crate::protocol::Protocol::parse(&flag[2..]);
            }
            "--game" => {
                let v = value("--game")?;
                let name = registry::canonical_name(&v).ok_or(GameError::UnknownGame(v))?;
                settings.game = Some(name.to_string());
            }
            "--option" => {
                let v = value("--option")?;
                let (name, val) = v.split_once('=').ok_or_else(|| {
                    CliError::Usage(format!("--option '{v}': expected name=value"))
                })?;
                settings
                    .options
                    .push((name.trim().to_string(), val.trim().to_string()));
            }
            other => return Err(CliError::Usage(format!("unknown engine option '{other}'"))),
        }
    }
    crate::protocol::run(settings);
    Ok(())
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
    let mut rounds = 1u32;
    let mut engines: Vec<(String, SearchParams)> = Vec::new();
    let mut threads: Vec<usize> = Vec::new();
    let mut eval = false;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| CliError::Usage(format!("{name} needs a value")))
        };
        match flag.as_str() {
            "--game" => game = Some(value("--game")?),
            "--eval" => eval = true,
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
            "--rounds" => {
                let v = value("--rounds")?;
                rounds = v
                    .parse()
                    .ok()
                    .filter(|&r| r > 0)
                    .ok_or_else(|| CliError::Usage(format!("--rounds '{v}' is not a count")))?;
            }
            "--engine" => {
                let v = value("--engine")?;
                let params = SearchParams::parse(&v)
                    .map_err(|e| CliError::Usage(format!("--engine '{v}': {e}")))?;
                engines.push((v, params));
            }
            "--threads" => {
                let v = value("--threads")?;
                threads = v
                    .split(',')
                    .map(|t| {
                        t.trim()
                            .parse::<usize>()
                            .ok()
                            .filter(|n| (1..=MAX_THREADS).contains(n))
                    })
                    .collect::<Option<Vec<_>>>()
                    .filter(|list| !list.is_empty())
                    .ok_or_else(|| {
                        CliError::Usage(format!(
                            "--threads '{v}' is not a list of counts in 1..{MAX_THREADS}"
                        ))
                    })?;
            }
            other => return Err(CliError::Usage(format!("unknown bench option '{other}'"))),
        }
    }
    if !threads.is_empty() {
        // Every engine once per thread count, side by side: the ratios are the scaling.
        if engines.is_empty() {
            engines = default_search_engines()
                .into_iter()
                .map(|p| (p.algorithm.name().to_string(), p))
                .collect();
        }
        engines = engines
            .iter()
            .flat_map(|(spec, params)| {
                threads.iter().map(move |&n| {
                    let params = SearchParams {
                        threads: n,
                        ..params.clone()
                    };
                    (format!("{spec} threads={n}"), params)
                })
            })
            .collect();
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
    if eval {
        for &name in &names {
            let report: EvalReport = registry::visit(
                name,
                EvalBench {
                    positions: DEFAULT_EVAL_POSITIONS,
                    seed,
                },
            )?;
            println!(
                "{:<16} evaluate: {:.1} ns/call{}",
                report.game,
                report.nanos_per_call(),
                if report.has_evaluation {
                    ""
                } else {
                    " (no evaluation)"
                }
            );
        }
    }
    if iterations > 0 {
        signature += search_bench(&names, &engines, iterations, seed, rounds)?;
    }
    println!("bench {signature}");
    Ok(())
}

/// The search part of `gpn bench`: iterations/s of each engine from each start position, and
/// the summed node-count signature. Without `--engine` options the engines are every algorithm
/// with its defaults, and the GPN overhead ratios follow; with them, each rate's ratio to the
/// first engine's.
fn search_bench(
    names: &[&str],
    engines: &[(String, SearchParams)],
    iterations: u64,
    seed: u64,
    rounds: u32,
) -> Result<u64, CliError> {
    let custom = !engines.is_empty();
    let params: Vec<SearchParams> = if custom {
        engines.iter().map(|(_, p)| p.clone()).collect()
    } else {
        default_search_engines()
    };
    println!();
    println!(
        "search: {iterations} iterations from the start position, seed {seed}, iterations/s{}",
        if rounds > 1 {
            format!(" (median of {rounds} interleaved rounds)")
        } else {
            String::new()
        }
    );
    if custom {
        for (k, (spec, _)) in engines.iter().enumerate() {
            println!("  e{}: {spec}", k + 1);
        }
        print!("{:<16}", "game");
        for k in 0..engines.len() {
            print!(" {:>10}", format!("e{}", k + 1));
        }
        for k in 1..engines.len() {
            print!(" {:>8}", format!("e{}/e1", k + 1));
        }
        println!(" {:>12}", "signature");
    } else {
        print!("{:<16}", "game");
        for p in &params {
            print!(" {:>10}", p.algorithm.name());
        }
        println!(
            " {:>8} {:>13} {:>12}",
            "gpn/uct", "sb-gpn/sb-uct", "signature"
        );
    }
    let mut total = 0u64;
    for &name in names {
        let reports = registry::visit(
            name,
            SearchBench {
                engines: params.clone(),
                iterations,
                seed,
                rounds,
            },
        )?;
        let rates: Vec<f64> = reports.iter().map(|r| r.iterations_per_second()).collect();
        let signature: u64 = reports.iter().map(|r| r.signature).sum();
        print!("{name:<16}");
        for rate in &rates {
            print!(" {rate:>10.0}");
        }
        if custom {
            for rate in &rates[1..] {
                print!(" {:>8.3}", rate / rates[0].max(1e-9));
            }
            println!(" {signature:>12}");
        } else {
            let rate = |a: Algorithm| {
                reports
                    .iter()
                    .zip(&rates)
                    .find(|(r, _)| r.params.algorithm == a)
                    .map_or(0.0, |(_, &x)| x)
            };
            println!(
                " {:>8.3} {:>13.3} {:>12}",
                rate(Algorithm::Gpn) / rate(Algorithm::Uct).max(1e-9),
                rate(Algorithm::SbGpn) / rate(Algorithm::SbUct).max(1e-9),
                signature
            );
        }
        total += signature;
    }
    Ok(total)
}

/// An agent named on the command line (`--engine1`, `--engine2`).
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSpec {
    /// Uniformly random legal moves ([`RandomAgent`]).
    Random,
    /// The search with these parameters ([`SearchAgent`]).
    Search(SearchParams),
    /// The search with the game's row of the defaults table, then these options
    /// (`default [key=value ...]`).
    Defaults(String),
}

/// Reads an agent spec: a kind followed by optional space-separated `key=value` options (one
/// quoted argument, e.g. `"sb-gpn c_pn=1 bias=rank"`). This and [`agent_factory`] are the one
/// place where agent kinds are added.
pub fn parse_agent_spec(text: &str) -> Result<AgentSpec, String> {
    let mut tokens = text.split_whitespace();
    let kind = tokens.next().ok_or("empty agent spec")?;
    let mut options: Vec<(&str, &str)> = Vec::new();
    for token in tokens {
        match token.split_once('=') {
            Some((key, value)) if !key.is_empty() && !value.is_empty() => {
                options.push((key, value))
            }
            _ => return Err(format!("agent option '{token}' is not key=value")),
        }
    }
    match kind.to_ascii_lowercase().as_str() {
        "random" => match options.first() {
            Some((key, _)) => Err(format!("agent 'random' has no option '{key}'")),
            None => Ok(AgentSpec::Random),
        },
        "default" => {
            let extra = text.trim_start()[kind.len()..].trim().to_string();
            let mut check = SearchParams::default();
            check
                .apply_spec(&extra)
                .map_err(|e| format!("agent '{text}': {e}"))?;
            Ok(AgentSpec::Defaults(extra))
        }
        _ => SearchParams::parse(text).map(AgentSpec::Search).map_err(|e| {
            format!("agent '{text}': {e} (agents: random, default, or uct / sb-uct / gpn / sb-gpn / pn-mcts with key=value options)")
        }),
    }
}

/// The factory that builds `spec`'s agent for each game of `G`.
pub fn agent_factory<G: Game>(spec: &AgentSpec) -> Box<AgentFactory<G>> {
    match spec {
        AgentSpec::Random => Box::new(|seed| Box::new(RandomAgent::new(seed))),
        AgentSpec::Search(params) => {
            let params = params.clone();
            Box::new(move |seed| Box::new(SearchAgent::<G>::new(&params, seed)))
        }
        AgentSpec::Defaults(extra) => {
            let mut params = SearchParams::for_game(G::INFO.name);
            // Checked by `parse_agent_spec`.
            if let Err(e) = params.apply_spec(extra) {
                log::warn!("agent 'default {extra}': {e}");
            }
            Box::new(move |seed| Box::new(SearchAgent::<G>::new(&params, seed)))
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

/// The options of `gpn match`.
struct MatchArgs {
    game: String,
    engines: [(String, AgentSpec); 2],
    games: u32,
    budget: Budget,
    /// Engine 1's budget multiplier.
    odds: u32,
    concurrency: usize,
    openings: u32,
    seed: u64,
    max_plies: Option<u32>,
    sprt: Option<SprtConfig>,
    csv: Option<String>,
    json: Option<String>,
    games_file: Option<String>,
    quiet: bool,
}

/// A positive number given to `flag`.
fn positive<T: FromStr + PartialOrd + Default>(flag: &str, text: &str) -> Result<T, CliError> {
    match text.parse::<T>() {
        Ok(v) if v > T::default() => Ok(v),
        _ => Err(CliError::Usage(format!(
            "{flag} '{text}' is not a positive integer"
        ))),
    }
}

fn parse_match_args(args: &[String]) -> Result<MatchArgs, CliError> {
    let usage = |m: String| CliError::Usage(m);
    let mut game = None;
    let mut engines: [Option<(String, AgentSpec)>; 2] = [None, None];
    let mut games = 100;
    let mut budget = Budget::Iterations(1000);
    let mut odds = 1;
    let mut concurrency = 1;
    let mut openings = 0;
    let mut seed = 1;
    let mut max_plies = None;
    let mut sprt = None;
    let (mut csv, mut json, mut games_file) = (None, None, None);
    let mut quiet = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let flag = arg.as_str();
        if flag == "--quiet" {
            quiet = true;
            continue;
        }
        if !flag.starts_with("--") {
            if game.is_some() {
                return Err(usage(format!("unexpected argument '{flag}'")));
            }
            game = Some(arg.clone());
            continue;
        }
        let value = it
            .next()
            .ok_or_else(|| usage(format!("{flag} needs a value")))?
            .as_str();
        match flag {
            "--engine1" | "--engine2" => {
                let spec = parse_agent_spec(value).map_err(usage)?;
                let slot = usize::from(flag == "--engine2");
                engines[slot] =
                    Some((value.split_whitespace().collect::<Vec<_>>().join(" "), spec));
            }
            "--games" => games = positive("--games", value)?,
            "--iterations" => budget = Budget::Iterations(positive("--iterations", value)?),
            "--movetime" => {
                budget = Budget::Time(Duration::from_millis(positive("--movetime", value)?))
            }
            "--concurrency" => concurrency = positive("--concurrency", value)?,
            "--odds" => odds = positive("--odds", value)?,
            "--openings" => {
                openings = value
                    .parse()
                    .map_err(|_| usage(format!("--openings '{value}' is not a number of plies")))?
            }
            "--seed" => {
                seed = value
                    .parse()
                    .map_err(|_| usage(format!("--seed '{value}' is not a u64")))?
            }
            "--max-plies" => max_plies = Some(positive("--max-plies", value)?),
            "--sprt" => sprt = Some(parse_sprt(value).map_err(usage)?),
            "--csv" => csv = Some(value.to_string()),
            "--json" => json = Some(value.to_string()),
            "--games-file" => games_file = Some(value.to_string()),
            other => return Err(usage(format!("unknown match option '{other}'"))),
        }
    }
    let game = game.ok_or_else(|| usage("match needs <game>".into()))?;
    let [Some(e1), Some(e2)] = engines else {
        return Err(usage("match needs --engine1 and --engine2".into()));
    };
    Ok(MatchArgs {
        game,
        engines: [e1, e2],
        games,
        budget,
        odds,
        concurrency,
        openings,
        seed,
        max_plies,
        sprt,
        csv,
        json,
        games_file,
        quiet,
    })
}

/// Creates an output file before the match starts, so a bad path fails at once.
fn create(path: &Option<String>) -> Result<Option<BufWriter<File>>, CliError> {
    path.as_ref()
        .map(|p| {
            File::create(p)
                .map(BufWriter::new)
                .map_err(|e| CliError::Io(format!("cannot write '{p}': {e}")))
        })
        .transpose()
}

struct MatchVisitor {
    args: MatchArgs,
}

impl GameVisitor for MatchVisitor {
    type Output = Result<(), CliError>;
    fn visit<G: Game>(self) -> Result<(), CliError> {
        let args = self.args;
        if G::NUM_PLAYERS != 2 {
            return Err(CliError::Usage(format!(
                "match plays two-player games; {} has {} players",
                G::INFO.name,
                G::NUM_PLAYERS
            )));
        }
        let config = MatchConfig {
            games: args.games,
            budget: args.budget,
            odds: args.odds,
            opening_plies: args.openings,
            concurrency: args.concurrency,
            seed: args.seed,
            max_plies: args.max_plies.unwrap_or(G::MAX_PLIES),
            sprt: args.sprt,
            progress: !args.quiet,
        };
        let mut csv = create(&args.csv)?;
        let mut json = create(&args.json)?;
        let mut games = create(&args.games_file)?;
        let [(name_a, spec_a), (name_b, spec_b)] = &args.engines;
        // A `default` agent is labelled with the game's row, so that a report says what played.
        let label = |name: &String, spec: &AgentSpec| match spec {
            AgentSpec::Defaults(_) => format!(
                "{name} [{}]",
                crate::search::defaults::defaults_spec(G::INFO.name)
            ),
            _ => name.clone(),
        };
        let (label_a, label_b) = (label(name_a, spec_a), label(name_b, spec_b));
        let report = arena::run_match::<G>(
            &config,
            &*agent_factory::<G>(spec_a),
            &*agent_factory::<G>(spec_b),
            (&label_a, &label_b),
        );
        print!("{}", output::format_report(&report));
        let io = |e: std::io::Error| CliError::Io(format!("cannot write output: {e}"));
        if let Some(w) = csv.as_mut() {
            output::write_csv(&report, w)
                .and_then(|_| w.flush())
                .map_err(io)?;
        }
        if let Some(w) = json.as_mut() {
            output::write_json(&report, w)
                .and_then(|_| w.flush())
                .map_err(io)?;
        }
        if let Some(w) = games.as_mut() {
            output::write_games(&report, w)
                .and_then(|_| w.flush())
                .map_err(io)?;
        }
        Ok(())
    }
}

fn run_match_command(args: &[String]) -> Result<(), CliError> {
    let args = parse_match_args(args)?;
    let game = args.game.clone();
    registry::visit(&game, MatchVisitor { args })??;
    Ok(())
}

/// Options of `gpn solve`.
struct SolveArgs {
    game: Option<String>,
    pos: PositionArgs,
    algos: Vec<crate::solve::Algo>,
    cfg: crate::solve::SolveConfig,
    batch: Option<String>,
    csv: bool,
    generate: Option<usize>,
    plies: u32,
}

fn parse_solve_args(args: &[String]) -> Result<SolveArgs, CliError> {
    use crate::solve::{Algo, SolveConfig};
    let mut out = SolveArgs {
        game: None,
        pos: PositionArgs::default(),
        algos: Vec::new(),
        cfg: SolveConfig::default(),
        batch: None,
        csv: false,
        generate: None,
        plies: 12,
    };
    fn num<T: FromStr>(flag: &str, v: Option<&String>) -> Result<T, CliError> {
        let v = v.ok_or_else(|| CliError::Usage(format!("{flag} needs a value")))?;
        v.parse()
            .map_err(|_| CliError::Usage(format!("{flag} '{v}' is not a valid number")))
    }
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let next = args.get(i + 1);
        let mut used = 2;
        match flag {
            "--position" | "--fen" => {
                let v = next.ok_or_else(|| CliError::Usage("--position needs a value".into()))?;
                out.pos.position = Some(v.clone());
            }
            "--moves" => {
                used = 1;
                while i + used < args.len() && !args[i + used].starts_with("--") {
                    out.pos.moves.extend(
                        args[i + used]
                            .split(|c: char| c == ',' || c.is_whitespace())
                            .filter(|s| !s.is_empty())
                            .map(str::to_string),
                    );
                    used += 1;
                }
            }
            "--algo" => {
                let v = next.ok_or_else(|| CliError::Usage("--algo needs a value".into()))?;
                for name in v.split(',') {
                    out.algos.push(Algo::parse(name).ok_or_else(|| {
                        CliError::Usage(format!(
                            "--algo '{name}': expected pns, dfpn, ppns, mcpns or sb-gpn"
                        ))
                    })?);
                }
            }
            "--max-nodes" => out.cfg.max_nodes = Some(num(flag, next)?),
            "--max-time" => {
                let s: f64 = num(flag, next)?;
                if !(s > 0.0 && s.is_finite()) {
                    return Err(CliError::Usage("--max-time must be positive".into()));
                }
                out.cfg.max_time = Some(Duration::from_secs_f64(s));
            }
            "--memory" => out.cfg.memory_mb = num(flag, next)?,
            "--threads" => {
                let n: usize = num(flag, next)?;
                if !(1..=MAX_THREADS).contains(&n) {
                    return Err(CliError::Usage(format!(
                        "--threads must be in 1..{MAX_THREADS}"
                    )));
                }
                out.cfg.threads = n;
            }
            "--playouts" => out.cfg.playouts = num(flag, next)?,
            "--theta" => out.cfg.theta = num(flag, next)?,
            "--pr" => out.cfg.pr = Some(num(flag, next)?),
            "--epsilon" => out.cfg.epsilon = num(flag, next)?,
            "--seed" => out.cfg.seed = num(flag, next)?,
            "--batch" => {
                let v = next.ok_or_else(|| CliError::Usage("--batch needs a file".into()))?;
                out.batch = Some(v.clone());
            }
            "--csv" => {
                out.csv = true;
                used = 1;
            }
            "--generate" => out.generate = Some(num(flag, next)?),
            "--plies" => out.plies = num(flag, next)?,
            other if other.starts_with("--") => {
                return Err(CliError::Usage(format!("unknown solve option '{other}'")))
            }
            other => {
                if out.game.is_some() {
                    return Err(CliError::Usage(format!("unexpected argument '{other}'")));
                }
                out.game = Some(other.to_string());
                used = 1;
            }
        }
        i += used;
    }
    if !(out.cfg.theta >= 0.0 && out.cfg.theta < 0.5) {
        return Err(CliError::Usage("--theta must be in [0, 0.5)".into()));
    }
    if out.cfg.pr.is_some_and(|p| !(0.0..0.5).contains(&p)) {
        return Err(CliError::Usage("--pr must be in [0, 0.5)".into()));
    }
    if out.cfg.epsilon < 0.0 || out.cfg.epsilon.is_nan() {
        return Err(CliError::Usage("--epsilon must be >= 0".into()));
    }
    if out.algos.is_empty() && out.generate.is_none() {
        return Err(CliError::Usage("solve needs --algo".into()));
    }
    Ok(out)
}

/// One solved position, as text for the reports.
struct SolveLine {
    position: String,
    result: crate::solve::SolveResult,
    best_move: String,
}

struct SolveVisitor<'a> {
    pos: &'a PositionArgs,
    cfg: crate::solve::SolveConfig,
}

impl GameVisitor for SolveVisitor<'_> {
    type Output = Result<SolveLine, CliError>;
    fn visit<G: Game>(self) -> Result<SolveLine, CliError> {
        if G::NUM_PLAYERS != 2 {
            return Err(CliError::Usage(format!(
                "solve handles two-player games only ({} has {})",
                G::INFO.name,
                G::NUM_PLAYERS
            )));
        }
        let game: G = match self.pos.position.as_deref() {
            Some("start") => {
                let mut g = G::start();
                for m in &self.pos.moves {
                    g.play_text(m)?;
                }
                g
            }
            _ => setup(self.pos)?,
        };
        let result = crate::solve::solve(&game, &self.cfg);
        let best_move = result
            .best_move
            .map_or("-".to_string(), |m| game.format_move(m));
        Ok(SolveLine {
            position: game.to_position(),
            result,
            best_move,
        })
    }
}

struct GenerateVisitor {
    count: usize,
    plies: u32,
    seed: u64,
}

impl GameVisitor for GenerateVisitor {
    type Output = Vec<String>;
    /// Seeded random games of `plies` moves that are not over, as batch lines.
    fn visit<G: Game>(self) -> Vec<String> {
        let mut rng = crate::rng::Rng::new(self.seed);
        let mut buf = crate::game::MoveList::new();
        let mut lines = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut tries = 0;
        while lines.len() < self.count && tries < 1000 * self.count.max(1) {
            tries += 1;
            let mut g = G::start();
            let mut moves = Vec::new();
            for _ in 0..self.plies {
                match g.random_move(&mut rng, &mut buf) {
                    Some(m) => {
                        moves.push(g.format_move(m));
                        g.play(m);
                    }
                    None => break,
                }
            }
            if moves.len() as u32 == self.plies && g.outcome().is_none() && seen.insert(g.hash()) {
                lines.push(format!(
                    "{} {} # moves {}",
                    G::INFO.name,
                    g.to_position(),
                    moves.join(",")
                ));
            }
        }
        lines
    }
}

fn run_solve(args: &[String]) -> Result<(), CliError> {
    let a = parse_solve_args(args)?;
    if let Some(count) = a.generate {
        let game = a
            .game
            .as_deref()
            .ok_or_else(|| CliError::Usage("--generate needs <game>".into()))?;
        let visitor = GenerateVisitor {
            count,
            plies: a.plies,
            seed: a.cfg.seed,
        };
        for line in registry::visit(game, visitor)? {
            println!("{line}");
        }
        return Ok(());
    }
    if let Some(file) = &a.batch {
        if a.game.is_some() || a.pos.position.is_some() || !a.pos.moves.is_empty() {
            return Err(CliError::Usage(
                "--batch takes its positions from the file (no <game>, --position or --moves)"
                    .into(),
            ));
        }
        return run_solve_batch(file, &a);
    }
    let game = a
        .game
        .as_deref()
        .ok_or_else(|| CliError::Usage("solve needs <game> (or --batch <file>)".into()))?;
    for (k, &algo) in a.algos.iter().enumerate() {
        let cfg = crate::solve::SolveConfig {
            algo,
            ..a.cfg.clone()
        };
        let line = registry::visit(game, SolveVisitor { pos: &a.pos, cfg })??;
        let r = &line.result;
        if k > 0 {
            println!();
        }
        println!("position {}", line.position);
        println!("algo {}", algo.name());
        println!("proofs {}", r.proofs_text());
        let mut value = r.value.name().to_string();
        if r.by_pr {
            value += " (precision-rate conclusion, not a proof)";
        }
        if let Some(note) = r.note {
            value += &format!(" ({note})");
        }
        if let Some(why) = r.proofs.iter().find_map(|p| p.stopped_by) {
            value += &format!(" (stopped by the {why} limit)");
        }
        println!("value {value}");
        println!("bestmove {}", line.best_move);
        println!("nodes {}", r.nodes);
        println!("time {:.3} s", r.elapsed.as_secs_f64());
        println!("nodes/s {:.0}", r.nodes_per_second());
        println!(
            "proof size {}",
            r.proof_size.map_or("-".to_string(), |s| s.to_string())
        );
    }
    Ok(())
}

/// Per-algorithm totals of a batch.
#[derive(Default)]
struct BatchTotals {
    positions: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    unknown: u64,
    proved: u64,
    disproved: u64,
    by_pr: u64,
    checked: u64,
    mismatches: u64,
    nodes: u64,
    secs: f64,
}

/// A batch line: `<game> <position string|start> [| <expected value>] [# comment]`.
fn parse_batch_line(text: &str) -> Option<(String, String, Option<crate::solve::Value>, bool)> {
    let body = text.split('#').next().unwrap_or("").trim();
    if body.is_empty() {
        return None;
    }
    let (main, expected) = match body.split_once('|') {
        Some((m, e)) => (m.trim(), Some(e.trim())),
        None => (body, None),
    };
    let (game, position) = main
        .split_once(char::is_whitespace)
        .unwrap_or((main, "start"));
    let want = expected.map(crate::solve::Value::parse);
    let bad_expected = matches!(want, Some(None));
    Some((
        game.to_string(),
        position.trim().to_string(),
        want.flatten(),
        bad_expected,
    ))
}

fn run_solve_batch(file: &str, a: &SolveArgs) -> Result<(), CliError> {
    use crate::solve::Value;
    let text = std::fs::read_to_string(file)
        .map_err(|e| CliError::Io(format!("cannot read {file}: {e}")))?;
    // Parse every line first: a bad file fails before any solving.
    let mut jobs = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let Some((game, position, want, bad)) = parse_batch_line(line) else {
            continue;
        };
        if bad {
            return Err(CliError::Usage(format!(
                "{file}:{}: the expected value must be win, draw or loss",
                n + 1
            )));
        }
        registry::canonical_name(&game).ok_or_else(|| {
            CliError::Game(GameError::UnknownGame(format!("{game} ({file}:{})", n + 1)))
        })?;
        jobs.push((n + 1, game, position, want));
    }
    let mut totals: Vec<BatchTotals> = a.algos.iter().map(|_| BatchTotals::default()).collect();
    if a.csv {
        println!("line,game,position,algo,value,expected,match,best_move,nodes,time_s,nodes_per_s,proof_size,proofs,by_pr");
    }
    for (line_no, game, position, want) in &jobs {
        let pos = PositionArgs {
            position: Some(position.clone()),
            moves: Vec::new(),
        };
        for (k, &algo) in a.algos.iter().enumerate() {
            let cfg = crate::solve::SolveConfig {
                algo,
                ..a.cfg.clone()
            };
            let line =
                registry::visit(game, SolveVisitor { pos: &pos, cfg })?.map_err(|e| match e {
                    CliError::Game(g) => CliError::Io(format!("{file}:{line_no}: {g}")),
                    other => other,
                })?;
            let r = &line.result;
            let t = &mut totals[k];
            t.positions += 1;
            match r.value {
                Value::Win => t.wins += 1,
                Value::Draw => t.draws += 1,
                Value::Loss => t.losses += 1,
                Value::Unknown => t.unknown += 1,
            }
            match r.proofs.first().and_then(|p| p.result) {
                Some(true) => t.proved += 1,
                Some(false) => t.disproved += 1,
                None => {}
            }
            t.by_pr += r.by_pr as u64;
            t.nodes += r.nodes;
            t.secs += r.elapsed.as_secs_f64();
            let verdict = match (want, r.value) {
                (None, _) => "",
                (Some(_), Value::Unknown) => "",
                (Some(w), v) => {
                    t.checked += 1;
                    if *w == v {
                        "ok"
                    } else {
                        t.mismatches += 1;
                        "MISMATCH"
                    }
                }
            };
            let expected = want.map_or("", |w| w.name());
            let proof = r.proof_size.map_or(String::new(), |s| s.to_string());
            if a.csv {
                println!(
                    "{line_no},{game},\"{}\",{},{},{expected},{verdict},{},{},{:.4},{:.0},{proof},{},{}",
                    line.position,
                    algo.name(),
                    r.value.name(),
                    line.best_move,
                    r.nodes,
                    r.elapsed.as_secs_f64(),
                    r.nodes_per_second(),
                    r.proofs_text(),
                    r.by_pr
                );
            } else {
                println!(
                    "{line_no:>4} {:<6} {:<7} {:<8} {:<9} best {:<7} nodes {:>10} time {:>8.3} s nodes/s {:>9.0} proof {:<8} [{}] {}",
                    algo.name(),
                    r.value.name(),
                    if expected.is_empty() { "-" } else { expected },
                    if verdict.is_empty() { "-" } else { verdict },
                    line.best_move,
                    r.nodes,
                    r.elapsed.as_secs_f64(),
                    r.nodes_per_second(),
                    if proof.is_empty() { "-" } else { &proof },
                    r.proofs_text(),
                    line.position
                );
            }
        }
    }
    let out: &mut dyn Write = &mut std::io::stdout();
    let summary = |out: &mut dyn Write| -> std::io::Result<()> {
        writeln!(out)?;
        writeln!(out, "summary ({} positions)", jobs.len())?;
        for (k, t) in totals.iter().enumerate() {
            writeln!(
                out,
                "{:<6} concluded {:>4}/{:<4} (win {} draw {} loss {}; unknown {}) first proof: proved {} disproved {}{} checked {} mismatches {} nodes {} time {:.2} s nodes/s {:.0}",
                a.algos[k].name(),
                t.wins + t.draws + t.losses,
                t.positions,
                t.wins,
                t.draws,
                t.losses,
                t.unknown,
                t.proved,
                t.disproved,
                if t.by_pr > 0 { format!(" (by pr: {})", t.by_pr) } else { String::new() },
                t.checked,
                t.mismatches,
                t.nodes,
                t.secs,
                t.nodes as f64 / t.secs.max(1e-9)
            )?;
        }
        Ok(())
    };
    if a.csv {
        summary(&mut std::io::stderr()).map_err(|e| CliError::Io(e.to_string()))?;
    } else {
        summary(out).map_err(|e| CliError::Io(e.to_string()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_specs() {
        assert_eq!(parse_agent_spec("random"), Ok(AgentSpec::Random));
        assert_eq!(parse_agent_spec("  Random "), Ok(AgentSpec::Random));
        assert!(parse_agent_spec("").unwrap_err().contains("empty"));
        assert_eq!(
            parse_agent_spec(" default  c_pn=0.5"),
            Ok(AgentSpec::Defaults("c_pn=0.5".into()))
        );
        assert_eq!(
            parse_agent_spec("default"),
            Ok(AgentSpec::Defaults("".into()))
        );
        assert!(parse_agent_spec("default frob=1")
            .unwrap_err()
            .contains("unknown search option"));
        let err = parse_agent_spec("alphazero").unwrap_err();
        assert!(
            err.contains("agent 'alphazero'") && err.contains("algorithm"),
            "{err}"
        );
        assert_eq!(
            parse_agent_spec("sb-gpn c_pn=2 bias=max"),
            Ok(AgentSpec::Search(
                SearchParams::parse("sb-gpn c_pn=2 bias=max").unwrap()
            ))
        );
        assert!(parse_agent_spec("gpn c_pn=x").unwrap_err().contains("c_pn"));
        assert!(parse_agent_spec("random seed=3")
            .unwrap_err()
            .contains("no option 'seed'"));
        assert!(parse_agent_spec("random c_pn")
            .unwrap_err()
            .contains("not key=value"));
    }

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
