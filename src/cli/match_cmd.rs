//! `gpn match`: games between two agents on threads, with statistics, SPRT and output files.

use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use std::io::IsTerminal as _;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::{count, interrupt, positive, CliError};
use crate::arena::multi::{self, MultiRecord};
use crate::arena::records::{self, RecordFormat};
use crate::arena::spec::{agent_factory, check_agent, parse_agent_spec, AgentSpec};
use crate::arena::{self, output, shard, Budget, MatchConfig, Shard, SprtConfig, StopFlag};
use crate::game::registry::{self, GameVisitor, PlayersVisitor};
use crate::game::Game;

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
    #[arg(long, value_name = "agent", value_parser = parse_agent)]
    engine1: Option<Agent>,
    /// Agent B (see below)
    #[arg(long, value_name = "agent", value_parser = parse_agent)]
    engine2: Option<Agent>,
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

/// An agent as given (whitespace normalised, for the report) and as read.
#[derive(Clone, Debug)]
struct Agent {
    name: String,
    spec: AgentSpec,
}

fn parse_agent(text: &str) -> Result<Agent, String> {
    Ok(Agent {
        name: text.split_whitespace().collect::<Vec<_>>().join(" "),
        spec: parse_agent_spec(text)?,
    })
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

/// Creates an output file before the match starts, so a bad path fails at once.
fn create(path: &Option<PathBuf>) -> Result<Option<BufWriter<File>>, CliError> {
    path.as_ref()
        .map(|p| {
            File::create(p)
                .map(BufWriter::new)
                .map_err(|e| CliError::Io(format!("cannot write '{}': {e}", p.display())))
        })
        .transpose()
}

/// A games file's text to resume from (empty when it does not exist yet).
fn read_games_file(path: &Path) -> Result<String, CliError> {
    crate::files::read_text_or_empty(path, crate::files::RECORDS_LIMIT)
        .map_err(|e| CliError::Io(format!("cannot read '{}': {e}", path.display())))
}

/// Opens a games file of `len` bytes to append after its first `keep` (the finished games; a
/// half-written last line after them is cut off).
fn append_after(path: &Path, keep: u64, len: u64) -> Result<File, CliError> {
    let cannot =
        |e: std::io::Error| CliError::Io(format!("cannot write '{}': {e}", path.display()));
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(cannot)?;
    if keep < len {
        file.set_len(keep).map_err(cannot)?;
    }
    Ok(file)
}

/// Opens a shard's games file to append to it, after the finished games it already holds (of
/// run `run`; a half-written last line is cut off): returns the writer and those games' indexes.
fn resume(path: &Path, run: &str) -> Result<(BufWriter<File>, BTreeSet<u32>), CliError> {
    let name = path.display().to_string();
    let text = read_games_file(path)?;
    let (done, keep) = arena::merge::finished_games(&name, &text, run).map_err(CliError::Usage)?;
    let file = append_after(path, keep, text.len() as u64)?;
    Ok((BufWriter::new(file), done))
}

struct MatchVisitor<'a> {
    args: MatchArgs,
    engines: [Agent; 2],
    out: &'a mut dyn Write,
}

impl GameVisitor for MatchVisitor<'_> {
    type Output = Result<(), CliError>;
    fn visit<G: Game>(self) -> Result<(), CliError> {
        if G::NUM_PLAYERS != 2 {
            return G::with_players(MultiMatch {
                args: self.args,
                engines: self.engines,
                out: self.out,
            });
        }
        let args = self.args;
        for engine in &self.engines {
            check_agent::<G>(&engine.spec).map_err(CliError::Usage)?;
        }
        let bar_wanted = !args.quiet && std::io::stderr().is_terminal();
        let mut config = MatchConfig {
            // On a terminal the bar below replaces the per-game lines.
            progress: !args.quiet && !bar_wanted,
            ..match_config::<G>(&args)
        };
        // `gpn merge` reads JSON Lines, so a shard's games file is JSON Lines.
        let record_format = match (args.games_format, args.shard) {
            (GamesFormat::Pgn, Some(_)) => return Err(CliError::Usage(
                "--shard writes its games as JSON Lines (for gpn merge); drop --games-format pgn"
                    .into(),
            )),
            (GamesFormat::Auto, Some(_)) | (GamesFormat::Jsonl, _) => RecordFormat::JsonLines,
            (GamesFormat::Auto, None) => RecordFormat::for_game(G::INFO.name),
            (GamesFormat::Pgn, None) => RecordFormat::Pgn,
        };
        let mut csv = create(&args.csv)?;
        let mut json = create(&args.json)?;
        if args.resume && record_format != RecordFormat::JsonLines {
            return Err(CliError::Usage(
                "--resume reads the games file back: JSON Lines only (--games-format jsonl)".into(),
            ));
        }
        // A resumed file is opened below, once the run id is known.
        let mut games = if args.resume {
            None
        } else {
            create(&args.games_file)?
        };
        let [a, b] = &self.engines;
        let (label_a, label_b) = (label::<G>(a), label::<G>(b));
        let names = (label_a.clone(), label_b.clone());
        let run_id = shard::match_run_id(G::INFO.name, (&names.0, &names.1), &config);
        if let (true, Some(path)) = (args.resume, &args.games_file) {
            let (writer, done) = resume(path, &run_id)?;
            if !done.is_empty() && !args.quiet {
                eprintln!(
                    "resuming: {} finished games of this run in {}, not played again",
                    done.len(),
                    path.display()
                );
            }
            config.done = done;
            games = Some(writer);
        }
        let io = |e: std::io::Error| CliError::Io(format!("cannot write output: {e}"));
        // The headers now and every game as it ends, flushed, so that a crash or a Ctrl-C keeps
        // every finished game; rows come in the order games finish (sort by `game`).
        let record_header = records::MatchHeader {
            game: G::INFO.name,
            names: (&names.0, &names.1),
            seed: config.seed,
            budget: config.budget,
            date: records::pgn_date_today(),
            run: Some(records::RunTag {
                id: run_id,
                config: &config,
            }),
        };
        if let Some(w) = csv.as_mut() {
            output::write_csv_header(w)
                .and_then(|_| w.flush())
                .map_err(io)?;
        }
        let bar = bar_wanted.then(|| progress_bar(config.planned_games()));
        let mut write_error: Option<std::io::Error> = None;
        let mut on_game = |g: &arena::GameRecord, wdl: &arena::Wdl| {
            if let Some(bar) = &bar {
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
            if write_error.is_some() {
                return;
            }
            let written = games
                .as_mut()
                .map_or(Ok(()), |w| {
                    records::write_record(record_format, &record_header, g, w)
                        .and_then(|_| w.flush())
                })
                .and_then(|_| {
                    csv.as_mut().map_or(Ok(()), |w| {
                        output::write_csv_row(g, w).and_then(|_| w.flush())
                    })
                });
            // The match goes on (its report still reaches stdout); the error is reported after.
            write_error = written.err();
        };
        let report = arena::run_match_with::<G>(
            &config,
            &*agent_factory::<G, 2>(&a.spec),
            &*agent_factory::<G, 2>(&b.spec),
            (&label_a, &label_b),
            &mut on_game,
        );
        if let Some(bar) = &bar {
            bar.finish_and_clear();
        }
        // JSON at the end (also after a Ctrl-C): it holds the summary of the games played.
        if let Some(w) = json.as_mut() {
            output::write_json(&report, w)
                .and_then(|_| w.flush())
                .map_err(io)?;
        }
        if let Some(e) = write_error {
            return Err(io(e));
        }
        self.out
            .write_all(output::format_report(&report).as_bytes())?;
        Ok(())
    }
}

/// `gpn match` for a game of more than two players ([`arena::multi`]): every seating of the two
/// agents per opening, a JSON Lines games file that `--resume` continues.
struct MultiMatch<'a> {
    args: MatchArgs,
    engines: [Agent; 2],
    out: &'a mut dyn Write,
}

impl PlayersVisitor for MultiMatch<'_> {
    type Output = Result<(), CliError>;
    fn visit<G: Game, const P: usize>(self) -> Result<(), CliError> {
        let args = self.args;
        let refuse = |what: &str| {
            Err(CliError::Usage(format!(
                "{what} is for two-player games; {} has {} players",
                G::INFO.name,
                P
            )))
        };
        if args.sprt.is_some() {
            return refuse("--sprt");
        }
        if args.shard.is_some() {
            return refuse("--shard");
        }
        if args.csv.is_some() {
            return refuse("--csv (use --games-file or --json)");
        }
        if matches!(args.games_format, GamesFormat::Pgn) {
            return refuse("--games-format pgn (the games file is JSON Lines)");
        }
        for engine in &self.engines {
            check_agent::<G>(&engine.spec).map_err(CliError::Usage)?;
        }
        // --sprt and --shard were refused above.
        let mut config = match_config::<G>(&args);
        let [a, b] = &self.engines;
        let (label_a, label_b) = (label::<G>(a), label::<G>(b));
        let run_id = shard::match_run_id(G::INFO.name, (&label_a, &label_b), &config);
        let mut json = create(&args.json)?;
        let (mut games, previous) = match (&args.games_file, args.resume) {
            (Some(path), true) => {
                let (writer, previous) = resume_multi(path, &run_id)?;
                if !previous.is_empty() && !args.quiet {
                    eprintln!(
                        "resuming: {} finished games of this run in {}, not played again",
                        previous.len(),
                        path.display()
                    );
                }
                (Some(writer), previous)
            }
            _ => (create(&args.games_file)?, Vec::new()),
        };
        // Games past `--games` (a file of a longer run cannot share its id) are ignored.
        let previous: Vec<_> = previous
            .into_iter()
            .filter(|g| g.index < config.games)
            .collect();
        config.done = previous.iter().map(|g| g.index).collect();
        let mut write_error: Option<std::io::Error> = None;
        let mut on_game = |g: &MultiRecord| {
            if write_error.is_some() {
                return;
            }
            if let Some(w) = games.as_mut() {
                let line = g.to_json_line(&run_id, P);
                write_error = writeln!(w, "{line}").and_then(|_| w.flush()).err();
            }
        };
        let report = multi::run_multi_match::<G>(
            &config,
            &*agent_factory::<G, P>(&a.spec),
            &*agent_factory::<G, P>(&b.spec),
            (&label_a, &label_b),
            previous,
            &mut on_game,
        );
        let io = |e: std::io::Error| CliError::Io(format!("cannot write output: {e}"));
        if let Some(w) = json.as_mut() {
            w.write_all(report.to_json().as_bytes())
                .and_then(|_| w.flush())
                .map_err(io)?;
        }
        if let Some(e) = write_error {
            return Err(io(e));
        }
        self.out.write_all(report.format().as_bytes())?;
        Ok(())
    }
}

/// The match of game `G` as the arguments describe it: progress lines unless `--quiet`, stopped
/// by Ctrl-C, nothing done yet.
fn match_config<G: Game>(args: &MatchArgs) -> MatchConfig {
    let budget = match (args.iterations, args.movetime) {
        (_, Some(ms)) => Budget::Time(Duration::from_millis(ms)),
        (Some(n), None) => Budget::Iterations(n),
        (None, None) => Budget::Iterations(1000),
    };
    MatchConfig {
        games: args.games,
        budget,
        odds: args.odds,
        opening_plies: args.openings,
        concurrency: args.concurrency,
        seed: args.seed,
        max_plies: args.max_plies.unwrap_or(G::MAX_PLIES),
        sprt: args.sprt,
        progress: !args.quiet,
        stop: Some(StopFlag(interrupt::flag())),
        shard: args.shard,
        done: Default::default(),
    }
}

/// An agent's name in reports: a `default` agent is labelled with the game's row, so that a
/// report says what played.
fn label<G: Game>(agent: &Agent) -> String {
    match agent.spec {
        AgentSpec::Defaults(_) => format!(
            "{} [{}]",
            agent.name,
            crate::search::defaults::defaults_spec(G::INFO.name)
        ),
        _ => agent.name.clone(),
    }
}

/// Opens a multi-player games file to append to it: the finished games of run `run` it holds
/// (a half-written last line is cut off; other runs' lines are kept and ignored).
fn resume_multi(path: &Path, run: &str) -> Result<(BufWriter<File>, Vec<MultiRecord>), CliError> {
    let name = path.display().to_string();
    let text = read_games_file(path)?;
    let mut previous = Vec::new();
    let mut keep = 0u64;
    let mut offset = 0usize;
    for (number, line) in text.split_inclusive('\n').enumerate() {
        offset += line.len();
        // A last line cut short by a kill is dropped, and its game played again.
        if !line.ends_with('\n') {
            break;
        }
        match MultiRecord::from_json_line(line.trim_end(), run) {
            Ok(record) => {
                previous.extend(record);
                keep = offset as u64;
            }
            Err(e) => {
                return Err(CliError::Usage(format!(
                    "'{name}' line {}: {e} (not a games file of gpn match)",
                    number + 1
                )))
            }
        }
    }
    let file = append_after(path, keep, text.len() as u64)?;
    Ok((BufWriter::new(file), previous))
}

/// The terminal progress bar: games done/total, the running result (set per game) and the ETA.
fn progress_bar(games: u32) -> ProgressBar {
    let bar = ProgressBar::new(games as u64);
    // The template is a constant; should it ever fail to parse, the default style still works.
    if let Ok(style) = ProgressStyle::with_template("{bar:20} {pos}/{len} {msg} ETA {eta}") {
        bar.set_style(style);
    }
    bar
}

pub fn run(mut args: MatchArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let (Some(e1), Some(e2)) = (args.engine1.take(), args.engine2.take()) else {
        return Err(CliError::Usage(
            "match needs --engine1 and --engine2".into(),
        ));
    };
    let game = args.game.clone();
    let visitor = MatchVisitor {
        args,
        engines: [e1, e2],
        out,
    };
    registry::visit(&game, visitor)?
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
