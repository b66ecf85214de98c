//! `gpn solve`: game-theoretic values by proof-number search, one position or a batch file.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;

use super::batch_summary::{write_summary, BatchTotals};
use super::position::PositionArgs;
use super::{count, interrupt, parse_threads, positive, CliError};
use crate::arena::shard::{run_id, Shard};
use crate::game::registry::{self, GameVisitor};
use crate::game::{Game, GameError, MoveList};
use crate::nn::NetworkFile;
use crate::solve::{Algo, Pcn, Progress, SolveConfig, SolveResult, Value};

pub const AFTER_HELP: &str = "\
Algorithms: pns (Allis' proof-number search), dfpn (depth-first PN with a transposition table
and the 1+epsilon trick), ppns (probability-based PN search: playouts at leaves, --theta, --pr),
mcpns (Monte-Carlo PN search), sb-gpn (gpn's own search run until the root is solved).

Batch files: one position per line, `<game> <position string|start> [| win|draw|loss]`, `#`
starts a comment; a given value is checked (ok / MISMATCH) and a summary per algorithm follows.
--shard K/N solves the positions i (0-based) with i % N == K; with --json each line carries the
run id and the index, and `gpn merge` puts the shards' lines together.

Examples:
    gpn solve cfour --moves d,d,d,d,c,c,e,e --algo dfpn,pns
    gpn solve --batch tests/data/cfour-12ply.txt --algo pns,dfpn --max-nodes 1000000
    gpn solve cfour --generate 10 --plies 12";

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The game (a name or alias of `gpn games`)
    #[arg(value_name = "game")]
    game: Option<String>,
    #[command(flatten)]
    position: PositionArgs,
    /// The solvers to run, side by side: pns, dfpn, ppns, mcpns, sb-gpn (comma-separated)
    #[arg(long = "algo", value_name = "algo", value_delimiter = ',', value_parser = parse_algo)]
    algos: Vec<Algo>,
    /// Stop after this many nodes over both proofs (the answer is then `unknown`)
    #[arg(long, value_name = "n", value_parser = count::<u64>)]
    max_nodes: Option<u64>,
    /// Stop after this many seconds (the answer is then `unknown`)
    #[arg(long, value_name = "seconds", value_parser = parse_seconds)]
    max_time: Option<Duration>,
    /// Memory for the tree or the transposition table, in MB; at the limit the answer is
    /// `unknown`, never a crash
    #[arg(long, value_name = "MB", default_value_t = SolveConfig::default().memory_mb, value_parser = parse_memory)]
    memory: usize,
    /// Workers that share out the solve (each with --memory/n MB, at least 16)
    #[arg(long, value_name = "n", default_value_t = SolveConfig::default().threads, value_parser = parse_threads)]
    threads: usize,
    /// Random playouts per new leaf (ppns, mcpns)
    #[arg(long, value_name = "k", default_value_t = SolveConfig::default().playouts, value_parser = positive::<u32>)]
    playouts: u32,
    /// ppns: how far a playout rate of exactly 0 or 1 is moved inward; mcpns: the smallest leaf
    /// proof or disproof number; in [0, 0.5)
    #[arg(long, value_name = "x", default_value_t = SolveConfig::default().theta, value_parser = parse_half)]
    theta: f64,
    /// ppns precision rate: conclude when the root is within x of 0 or 1 (a conclusion, not a
    /// proof); in [0, 0.5) [default: only proofs end the search]
    #[arg(long, value_name = "x", value_parser = parse_half)]
    pr: Option<f64>,
    /// dfpn's 1+epsilon trick (0 = plain thresholds)
    #[arg(long, value_name = "x", default_value_t = SolveConfig::default().epsilon, value_parser = parse_epsilon)]
    epsilon: f64,
    /// dfpn: initial proof and disproof numbers of new leaves from the game's evaluation v,
    /// 1 + round(k (1 - v)) and 1 + round(k (1 + v)) (df-pn+); 0: 1 and 1
    #[arg(long, value_name = "k", default_value_t = 0, value_parser = count::<u32>)]
    eval_init: u32,
    /// dfpn: multiply a new leaf's number that needs every move answered (dn where the root
    /// player moves, pn where the opponent does) by its number of legal moves
    #[arg(long)]
    mobility: bool,
    /// A network for the solvers (a .gpnn file of `gpn train`, or builtin): dfpn orders and
    /// focuses each node's moves by its policy and initialises new positions from it (--pcn);
    /// pns orders and initialises likewise; sb-gpn searches with it
    #[arg(long = "net", value_name = "file")]
    net: Option<String>,
    /// With --net: new positions' numbers from the proof-cost heads, divided by the branching
    /// factor of the network's labels (b_max: the action space, b_heur: the node's moves), or
    /// off: from the value head with --eval-init's formula
    #[arg(long, value_name = "b", default_value = "off", value_parser = parse_pcn, requires = "net")]
    pcn: Pcn,
    /// With --net: dfpn's progressive widening, the share of a node's unsolved moves searched
    /// at once (after the first); 0: all moves
    #[arg(long, value_name = "mu", default_value_t = SolveConfig::default().focus, value_parser = parse_epsilon, requires = "net")]
    focus: f64,
    /// The game's forcing rule (Gomoku's four-threat rule: complete one's own five, else only
    /// block the opponent's): a pruning that never changes a value (dfpn, sb-gpn, pns, ppns,
    /// mcpns)
    #[arg(long = "4t", alias = "forcing")]
    forcing: bool,
    /// Prove for player N (1 = the first player) instead of the side to move: its win, with
    /// every other player against it (paranoid with more than two players); every algorithm,
    /// with any number of threads
    #[arg(long, value_name = "N", value_parser = positive::<u8>)]
    player: Option<u8>,
    /// Random seed (playouts, sb-gpn, --generate)
    #[arg(long, value_name = "s", default_value_t = SolveConfig::default().seed, value_parser = count::<u64>)]
    seed: u64,
    /// Solve every position of this file instead (no <game>, --position or --moves)
    #[arg(long, value_name = "file")]
    batch: Option<PathBuf>,
    /// With --batch: CSV rows on stdout, the summary on stderr
    #[arg(long, requires = "batch")]
    csv: bool,
    /// One JSON object per line on stdout for each solve (position and algorithm) instead of
    /// the text report; with --batch the summary goes to stderr
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// With --batch: solve only shard K of N (0 <= K < N), the positions i (0-based, in file
    /// order) with i % N == K; with --json each line carries the run id and the index, which
    /// `gpn merge` puts together
    #[arg(long, value_name = "K/N", value_parser = Shard::parse, requires = "batch")]
    shard: Option<Shard>,
    /// No progress lines on stderr (by default a long solve reports its nodes, rate and root
    /// proof/disproof numbers every few seconds)
    #[arg(long)]
    quiet: bool,
    /// Print n distinct seeded random positions of <game> (not over) as batch lines
    #[arg(long, value_name = "n", value_parser = positive::<usize>, conflicts_with_all = ["batch", "algos"])]
    generate: Option<usize>,
    /// With --generate: plies from the start position
    #[arg(long, value_name = "p", default_value_t = 12, value_parser = count::<u32>, requires = "generate")]
    plies: u32,
}

fn parse_algo(text: &str) -> Result<Algo, String> {
    Algo::parse(text).ok_or_else(|| "expected pns, dfpn, ppns, mcpns or sb-gpn".to_string())
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 => Duration::try_from_secs_f64(s)
            .map_err(|_| format!("{s} seconds is more than a duration can hold")),
        _ => Err("not a positive number of seconds".to_string()),
    }
}

/// `--memory`: at least 1 MB, and at most what this machine can give one table (half of it;
/// a solver's table is allocated when the solve starts, so more would be an abort, not an
/// answer).
fn parse_memory(text: &str) -> Result<usize, String> {
    let mb: usize = positive(text)?;
    let limit = crate::machine::table_limit_mb();
    if mb > limit {
        return Err(format!(
            "{mb} MB is more than this machine can give one table ({limit} MB, half of its memory)"
        ));
    }
    Ok(mb)
}

fn parse_pcn(text: &str) -> Result<Pcn, String> {
    Pcn::parse(text).ok_or_else(|| "expected b_max, b_heur or off".to_string())
}

fn parse_half(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if (0.0..0.5).contains(&x) => Ok(x),
        _ => Err("not a number in [0, 0.5)".to_string()),
    }
}

fn parse_epsilon(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x >= 0.0 && x.is_finite() => Ok(x),
        _ => Err("not a number >= 0".to_string()),
    }
}

impl SolveArgs {
    /// The solver settings of the command line (the algorithm is set per run), with its
    /// network loaded.
    fn config(&self) -> Result<SolveConfig, CliError> {
        let network = match &self.net {
            Some(path) => Some(
                NetworkFile::load(path).map_err(|e| CliError::Io(format!("--net {path}: {e}")))?,
            ),
            None => None,
        };
        Ok(SolveConfig {
            network,
            max_nodes: self.max_nodes,
            max_time: self.max_time,
            memory_mb: self.memory,
            threads: self.threads,
            playouts: self.playouts,
            theta: self.theta,
            pr: self.pr,
            epsilon: self.epsilon,
            eval_init: self.eval_init,
            mobility: self.mobility,
            pcn: self.pcn,
            focus: self.focus,
            forcing: self.forcing,
            prover: self
                .player
                .map(|n| crate::game::Player(n.saturating_sub(1))),
            seed: self.seed,
            // Ctrl-C ends the solve with what it has (a second one quits at once).
            stop: Some(super::interrupt::flag()),
            ..SolveConfig::default()
        })
    }
}

/// How often a running solve reports on stderr.
const PROGRESS_EVERY: Duration = Duration::from_secs(2);

/// [`crate::solve::solve`] with a watcher thread that prints its progress to stderr every
/// [`PROGRESS_EVERY`] until it ends.
fn solve_watched<G: Game>(game: &G, mut cfg: SolveConfig) -> SolveResult {
    let progress = Arc::new(Progress::default());
    cfg.progress = Some(Arc::clone(&progress));
    let (done, finished) = crossbeam_channel::bounded::<()>(1);
    let algo = cfg.algo;
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let start = Instant::now();
            while let Err(crossbeam_channel::RecvTimeoutError::Timeout) =
                finished.recv_timeout(PROGRESS_EVERY)
            {
                let secs = start.elapsed().as_secs_f64();
                let nodes = progress.nodes.load(Ordering::Relaxed);
                let (pn, dn) = progress.root();
                let root = if pn == 0.0 && dn == 0.0 {
                    String::new()
                } else {
                    format!(", root pn {} dn {}", number(pn), number(dn))
                };
                eprintln!(
                    "solve {}: {secs:.0} s, {nodes} nodes ({:.0}/s){root}",
                    algo.name(),
                    nodes as f64 / secs.max(1e-9)
                );
            }
        });
        let result = crate::solve::solve(game, &cfg);
        drop(done);
        result
    })
}

/// A proof number as the progress line shows it: an integer, `inf`, or a probability (PPNS).
fn number(x: f64) -> String {
    if x.is_infinite() {
        "inf".to_string()
    } else if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.4}")
    }
}

/// Why an unknown value is unknown, for the reports.
fn stop_text(why: Option<&str>) -> String {
    match why {
        None => String::new(),
        Some("stop") => " (stopped: interrupted)".to_string(),
        Some(why) => format!(" (stopped by the {why} limit)"),
    }
}

/// One solve as a JSON object (a line of `--json`).
fn json_line(line: &SolveLine, cfg: &SolveConfig, extra: &str) -> String {
    use crate::json::{json_number, json_string};
    let r = &line.result;
    let opt = |x: Option<u64>| x.map_or("null".to_string(), |v| v.to_string());
    format!(
        "{{{extra}\"position\":{},\"algo\":{},\"value\":{},\"stopped_by\":{},\"best_move\":{},\"nodes\":{},\"time_s\":{},\"nodes_per_s\":{},\"proof_size\":{},\"proofs\":{},\"by_pr\":{}}}",
        json_string(&line.position),
        json_string(cfg.algo.name()),
        json_string(r.value.name()),
        r.stopped_by(cfg).map_or("null".to_string(), json_string),
        json_string(&line.best_move),
        r.nodes,
        json_number(r.elapsed.as_secs_f64()),
        json_number(r.nodes_per_second().round()),
        opt(r.proof_size),
        json_string(&r.proofs_text()),
        r.by_pr
    )
}

/// One solved position, as text for the reports.
struct SolveLine {
    position: String,
    result: SolveResult,
    best_move: String,
}

struct SolveVisitor<'a> {
    position: &'a PositionArgs,
    cfg: SolveConfig,
    /// Report progress on stderr.
    watch: bool,
}

impl GameVisitor for SolveVisitor<'_> {
    type Output = Result<SolveLine, CliError>;
    fn visit<G: Game>(self) -> Result<SolveLine, CliError> {
        if let Some(p) = self.cfg.prover {
            if p.index() >= G::NUM_PLAYERS {
                return Err(CliError::Usage(format!(
                    "--player {}: {} has {} players",
                    p.index() + 1,
                    G::INFO.name,
                    G::NUM_PLAYERS
                )));
            }
        }
        let game: G = self.position.setup()?;
        let mut cfg = self.cfg;
        if let Some(file) = &cfg.network {
            // The game's own network for `builtin`; a file's must fit the game's encoding.
            let file = file
                .for_game(G::INFO.name)
                .and_then(|f| {
                    f.net()
                        .check_fits(G::INFO.name, G::INPUTS, G::POLICY)
                        .map(|_| f)
                })
                .map_err(|e| CliError::Usage(format!("--net {}: {e}", file.path())))?;
            if cfg.pcn != Pcn::Off && !file.net().has_costs() {
                return Err(CliError::Usage(format!(
                    "--net {}: --pcn {} needs a network with proof-cost heads (gpn train --pcn)",
                    file.path(),
                    cfg.pcn.name()
                )));
            }
            cfg.network = Some(file);
        }
        let result = if self.watch {
            solve_watched(&game, cfg)
        } else {
            crate::solve::solve(&game, &cfg)
        };
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
        let mut buf = MoveList::new();
        let mut lines = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut tries = 0;
        while lines.len() < self.count && tries < self.count.saturating_mul(1000) {
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

/// Says on stderr that a solve without limits runs until it is solved (or Ctrl-C).
fn warn_unlimited(a: &SolveArgs) {
    if a.max_nodes.is_none() && a.max_time.is_none() && !a.quiet {
        eprintln!(
            "solve: no --max-nodes or --max-time: running until solved (within --memory {} MB) \
             or Ctrl-C",
            a.memory
        );
    }
}

pub fn run(a: SolveArgs, out: &mut dyn Write) -> Result<(), CliError> {
    if let Some(count) = a.generate {
        let game = a
            .game
            .as_deref()
            .ok_or_else(|| CliError::Usage("--generate needs <game>".into()))?;
        let visitor = GenerateVisitor {
            count,
            plies: a.plies,
            seed: a.seed,
        };
        let lines = registry::visit(game, visitor)?;
        for line in &lines {
            writeln!(out, "{line}")?;
        }
        // Games that end before `--plies`, or too few distinct positions at that depth: the
        // lines found are printed, and the shortfall is an error a script cannot miss.
        if lines.len() < count {
            return Err(CliError::Usage(format!(
                "--generate {count}: only {} distinct positions of {game} that are not over \
                 after {} plies turned up in {} random games",
                lines.len(),
                a.plies,
                count.saturating_mul(1000)
            )));
        }
        return Ok(());
    }
    if a.algos.is_empty() {
        return Err(CliError::Usage(
            "solve needs --algo (pns, dfpn, ppns, mcpns or sb-gpn)".into(),
        ));
    }
    if let Some(file) = &a.batch {
        if a.game.is_some() || a.position.is_set() {
            return Err(CliError::Usage(
                "--batch takes its positions from the file (no <game>, --position or --moves)"
                    .into(),
            ));
        }
        return run_batch(file, &a, out);
    }
    let game = a
        .game
        .as_deref()
        .ok_or_else(|| CliError::Usage("solve needs <game> (or --batch <file>)".into()))?;
    warn_unlimited(&a);
    let config = a.config()?;
    for (k, &algo) in a.algos.iter().enumerate() {
        if interrupt::interrupted() {
            break;
        }
        let cfg = SolveConfig {
            algo,
            ..config.clone()
        };
        let line = registry::visit(
            game,
            SolveVisitor {
                position: &a.position,
                cfg: cfg.clone(),
                watch: !a.quiet,
            },
        )??;
        if a.json {
            writeln!(out, "{}", json_line(&line, &cfg, ""))?;
            continue;
        }
        let r = &line.result;
        if k > 0 {
            writeln!(out)?;
        }
        writeln!(out, "position {}", line.position)?;
        writeln!(out, "algo {}", algo.name())?;
        if let Some(p) = cfg.prover {
            // The value below is this player's, not the side to move's.
            writeln!(out, "player {}", p.index() + 1)?;
        }
        writeln!(out, "proofs {}", r.proofs_text())?;
        let mut value = r.value.name().to_string();
        if r.by_pr {
            value += " (precision-rate conclusion, not a proof)";
        }
        if let Some(note) = r.note {
            value += &format!(" ({note})");
        }
        value += &stop_text(r.stopped_by(&cfg));
        writeln!(out, "value {value}")?;
        writeln!(out, "bestmove {}", line.best_move)?;
        writeln!(out, "nodes {}", r.nodes)?;
        writeln!(out, "time {:.3} s", r.elapsed.as_secs_f64())?;
        writeln!(out, "nodes/s {:.0}", r.nodes_per_second())?;
        writeln!(
            out,
            "proof size {}",
            r.proof_size.map_or("-".to_string(), |s| s.to_string())
        )?;
    }
    Ok(())
}

/// A batch line: `<game> <position string|start> [| <expected value>] [# comment]`.
pub(super) fn parse_batch_line(text: &str) -> Option<(String, String, Option<Value>, bool)> {
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
    let want = expected.map(Value::parse);
    let bad_expected = matches!(want, Some(None));
    Some((
        game.to_string(),
        position.trim().to_string(),
        want.flatten(),
        bad_expected,
    ))
}

/// A batch position: its line number, game, position string and expected value.
type Job = (usize, String, String, Option<Value>);

/// What defines a batch run, as the text its run id hashes: every position with its expected
/// value, the algorithms and every solver setting (not the shard).
fn batch_description(jobs: &[Job], a: &SolveArgs) -> String {
    let positions: Vec<String> = jobs
        .iter()
        .map(|(_, game, position, want)| {
            format!("{game} {position} | {}", want.map_or("-", |w| w.name()))
        })
        .collect();
    let algos: Vec<&str> = a.algos.iter().map(|x| x.name()).collect();
    format!(
        "gpn solve v1|algos={}|max_nodes={:?}|max_time={:?}|memory={}|threads={}|playouts={}|\
         theta={}|pr={:?}|epsilon={}|eval_init={}|mobility={}|net={:?}|pcn={}|focus={}|4t={}|\
         seed={}|positions={}",
        algos.join(","),
        a.max_nodes,
        a.max_time.map(|d| d.as_nanos()),
        a.memory,
        a.threads,
        a.playouts,
        a.theta,
        a.pr,
        a.epsilon,
        a.eval_init,
        a.mobility,
        a.net,
        a.pcn.name(),
        a.focus,
        a.forcing,
        a.seed,
        positions.join("\n")
    ) + &a.player.map_or(String::new(), |n| format!("|player={n}"))
}

fn run_batch(path: &std::path::Path, a: &SolveArgs, out: &mut dyn Write) -> Result<(), CliError> {
    warn_unlimited(a);
    let file = path.display();
    let text = crate::files::read_text(path, crate::files::TEXT_LIMIT)
        .map_err(|e| CliError::Io(format!("cannot read {file}: {e}")))?;
    // Parse every line first: a bad file fails before any solving.
    let mut jobs: Vec<Job> = Vec::new();
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
    let run = run_id(&batch_description(&jobs, a));
    let batch_size = jobs.len();
    // Every position keeps its index in the whole batch, whichever shard solves it.
    let jobs: Vec<(usize, Job)> = jobs
        .into_iter()
        .enumerate()
        .filter(|(i, _)| a.shard.map_or(true, |s| s.owns(*i as u64)))
        .collect();
    let mut totals: Vec<BatchTotals> = a.algos.iter().map(|_| BatchTotals::default()).collect();
    if a.csv {
        writeln!(out, "line,game,position,algo,value,expected,match,best_move,nodes,time_s,nodes_per_s,proof_size,proofs,by_pr")?;
    }
    let mut done = 0;
    let config = a.config()?;
    'positions: for (index, (line_no, game, position, want)) in &jobs {
        let pos = PositionArgs::at(position);
        for (k, &algo) in a.algos.iter().enumerate() {
            if interrupt::interrupted() {
                break 'positions;
            }
            let cfg = SolveConfig {
                algo,
                ..config.clone()
            };
            let line = registry::visit(
                game,
                SolveVisitor {
                    position: &pos,
                    cfg: cfg.clone(),
                    watch: !a.quiet,
                },
            )?
            .map_err(|e| match e {
                CliError::Game(g) => CliError::Io(format!("{file}:{line_no}: {g}")),
                other => other,
            })?;
            let r = &line.result;
            let verdict = match (want, r.value) {
                (None, _) | (Some(_), Value::Unknown) => "",
                (Some(w), v) if *w == v => "ok",
                (Some(_), _) => "MISMATCH",
            };
            totals[k].add(
                r.value,
                r.proofs.first().and_then(|p| p.result),
                r.by_pr,
                r.nodes,
                r.elapsed.as_secs_f64(),
                verdict,
            );
            let expected = want.map_or("", |w| w.name());
            let proof = r.proof_size.map_or(String::new(), |s| s.to_string());
            if a.json {
                let extra = format!(
                    "\"run\":{},\"index\":{index},\"positions\":{batch_size},\"shard\":{},\"line\":{line_no},\"game\":{},\"expected\":{},\"match\":{},",
                    crate::json::json_string(&run),
                    a.shard.map_or("null".to_string(), |s| crate::json::json_string(
                        &s.to_string()
                    )),
                    crate::json::json_string(game),
                    want.map_or("null".to_string(), |w| crate::json::json_string(
                        w.name()
                    )),
                    match verdict {
                        "" => "null",
                        "ok" => "true",
                        _ => "false",
                    }
                );
                writeln!(out, "{}", json_line(&line, &cfg, &extra))?;
            } else if a.csv {
                writeln!(
                    out,
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
                )?;
            } else {
                writeln!(
                    out,
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
                )?;
                if let Some(why) = r.stopped_by(&cfg) {
                    writeln!(out, "     {}", stop_text(Some(why)).trim())?;
                }
            }
        }
        done += 1;
    }
    let mut interrupted = match a.shard {
        Some(shard) => format!(", shard {shard} of {batch_size}"),
        None => String::new(),
    };
    if done < jobs.len() {
        interrupted += &format!("; interrupted after {done}");
    }
    let names: Vec<&str> = a.algos.iter().map(|x| x.name()).collect();
    let summary = |out: &mut dyn Write| -> std::io::Result<()> {
        write_summary(out, jobs.len(), &interrupted, &names, &totals)
    };
    if a.csv || a.json {
        // CSV and JSON stay machine-readable: the summary goes to stderr, where a closed stream
        // is not worth failing a finished batch for.
        let _ = summary(&mut std::io::stderr());
    } else {
        summary(out)?;
    }
    Ok(())
}
