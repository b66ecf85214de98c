//! `gpn learn`: generations of self-play, training and a gating match, with a log and a chart.

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, FromArgMatches};

use super::{note, CliError};
use crate::arena::spec::{agent_factory, parse_agent_spec};
use crate::arena::stats::{elo_from_score, score_interval};
use crate::arena::{self, Budget, MatchConfig, StopFlag, Wdl};
use crate::game::registry::{self, GameVisitor};
use crate::game::Game;
use crate::json::Json;

pub const AFTER_HELP: &str = "\
Each generation: (1) `gpn selfplay` with the best network so far (none in generation 1: the
engine's own playouts), --games games into DIR/gen-K.gpns; (2) `gpn train` on the last --window
generations' samples, starting from the best network, into DIR/gen-K.gpnn; (3) a gating match,
the new network against the best (or against the engine without a network), --gate-games games;
a score of at least --gate promotes it to DIR/best.gpnn; (4) the best network against the engine
without a network, --gate-games games, for the chart. One JSON line per generation goes to
DIR/learn.jsonl and the chart of Elo against the engine without a network per generation to
DIR/learn.svg. A rerun with the same DIR goes on after the last finished generation (a
generation cut short by Ctrl-C is redone, its self-play resumed). Every match and the self-play
use --iterations per move, so a run does not depend on the machine's speed.

Example:
    gpn learn cfour --dir runs/c4 --generations 4 --games 2000 --iterations 400 --solve-nodes 1000000";

#[derive(Args, Debug)]
pub struct LearnArgs {
    /// The game (one with a network encoding; any other is refused with the list)
    #[arg(value_name = "game")]
    game: String,
    /// The run's directory: samples, networks, the log and the chart
    #[arg(long, value_name = "dir")]
    dir: PathBuf,
    /// Generations the run holds when it ends
    #[arg(long, value_name = "n", default_value_t = 4, value_parser = super::positive::<u32>)]
    generations: u32,
    /// Self-play games per generation
    #[arg(long, value_name = "n", default_value_t = 500, value_parser = super::positive::<u32>)]
    games: u32,
    /// Search iterations per move, in self-play and in the matches
    #[arg(long, value_name = "n", default_value_t = 400, value_parser = super::positive::<u64>)]
    iterations: u64,
    /// Exact value targets where DFPN proves a position within this many nodes (0: results only)
    #[arg(long, value_name = "n", default_value_t = 0, value_parser = super::count::<u64>)]
    solve_nodes: u64,
    /// Generations of samples each training reads (the latest ones)
    #[arg(long, value_name = "n", default_value_t = 3, value_parser = super::positive::<u32>)]
    window: u32,
    /// Hidden layer widths of the first network
    #[arg(long, value_name = "w[,w...]", default_value = "128")]
    hidden: String,
    /// Training epochs per generation
    #[arg(long, value_name = "n", default_value_t = 10, value_parser = super::positive::<u32>)]
    epochs: u32,
    /// Games of each match (gating, and against the engine without a network)
    #[arg(long, value_name = "n", default_value_t = 100, value_parser = super::positive::<u32>)]
    gate_games: u32,
    /// Score the new network needs against the best to be promoted
    #[arg(long, value_name = "x", default_value_t = 0.55)]
    gate: f64,
    /// The search the networks play in, an agent spec of `gpn match` (`net=` is added)
    #[arg(long, value_name = "agent", default_value = "default")]
    engine: String,
    /// Seed of the run
    #[arg(long, value_name = "s", default_value_t = 1, value_parser = super::count::<u64>)]
    seed: u64,
    /// Match concurrency (games at once, 1 to 256)
    #[arg(long, value_name = "n", default_value_t = 1, value_parser = super::parse_threads)]
    concurrency: usize,
}

/// One finished generation, as logged.
#[derive(Clone, Debug)]
struct Generation {
    number: u32,
    positions: usize,
    /// Of those, the positions with exact values (`--solve-nodes`).
    labelled: usize,
    gate_score: f64,
    promoted: bool,
    /// The best network against the engine without one: score and Elo.
    score_vs_plain: f64,
    elo_vs_plain: f64,
    seconds: f64,
}

impl Generation {
    fn json(&self) -> String {
        format!(
            "{{\"generation\":{},\"positions\":{},\"labelled\":{},\"gate_score\":{:.4},\"promoted\":{},\"score_vs_plain\":{:.4},\"elo_vs_plain\":{:.1},\"seconds\":{:.1}}}",
            self.number,
            self.positions,
            self.labelled,
            self.gate_score,
            self.promoted,
            self.score_vs_plain,
            finite(self.elo_vs_plain),
            self.seconds
        )
    }

    fn parse(line: &str) -> Option<Generation> {
        let j = Json::parse(line).ok()?;
        Some(Generation {
            number: j.get("generation")?.as_u64()? as u32,
            positions: j.get("positions")?.as_u64()? as usize,
            // Logs written before the field existed have none.
            labelled: j.get("labelled").and_then(Json::as_u64).unwrap_or(0) as usize,
            gate_score: j.get("gate_score")?.as_f64()?,
            promoted: j.get("promoted")?.as_bool()?,
            score_vs_plain: j.get("score_vs_plain")?.as_f64()?,
            elo_vs_plain: j.get("elo_vs_plain")?.as_f64()?,
            seconds: j.get("seconds")?.as_f64()?,
        })
    }
}

/// Elo clamped to what a chart and JSON can hold (a match won or lost outright is +-inf).
fn finite(elo: f64) -> f64 {
    elo.clamp(-1000.0, 1000.0)
}

struct LearnVisitor<'a> {
    args: LearnArgs,
    out: &'a mut dyn Write,
}

/// Runs a subcommand's arguments through its own parser, so that its defaults apply.
fn sub_args<A: Args + FromArgMatches>(name: &'static str, argv: &[String]) -> Result<A, CliError> {
    let command = A::augment_args(clap::Command::new(name).no_binary_name(true));
    let matches = command
        .try_get_matches_from(argv)
        .map_err(|e| CliError::Usage(format!("{name}: {e}")))?;
    A::from_arg_matches(&matches).map_err(|e| CliError::Usage(format!("{name}: {e}")))
}

fn path_text(p: &Path) -> Result<String, CliError> {
    p.to_str()
        .map(str::to_string)
        .ok_or_else(|| CliError::Usage(format!("{} is not UTF-8", p.display())))
}

impl LearnVisitor<'_> {
    /// The engine's agent spec with `net`, or without any network.
    fn spec(&self, net: Option<&Path>) -> Result<String, CliError> {
        Ok(match net {
            Some(p) => format!("{} net={}", self.args.engine, path_text(p)?),
            // Explicitly none: the game's defaults row may hold its builtin network.
            None => format!("{} network=none", self.args.engine),
        })
    }

    /// A match at --iterations a move: engine `a` against engine `b`, from `a`'s view.
    fn play<G: Game>(&self, a: &str, b: &str, seed: u64) -> Result<Wdl, CliError> {
        let fa = agent_factory::<G, 2>(&parse_agent_spec(a).map_err(CliError::Usage)?);
        let fb = agent_factory::<G, 2>(&parse_agent_spec(b).map_err(CliError::Usage)?);
        let config = MatchConfig {
            games: self.args.gate_games,
            budget: Budget::Iterations(self.args.iterations),
            opening_plies: 2,
            concurrency: self.args.concurrency,
            seed,
            progress: false,
            stop: Some(StopFlag(super::interrupt::flag())),
            ..MatchConfig::for_game::<G>()
        };
        let mut on_game = |_: &arena::GameRecord, _: &Wdl| {};
        let report = arena::run_match_with::<G>(&config, &*fa, &*fb, ("a", "b"), &mut on_game);
        if report.interrupted {
            return Err(CliError::Interrupted);
        }
        Ok(report.wdl())
    }

    fn generation<G: Game>(&mut self, k: u32, best: Option<&Path>) -> Result<Generation, CliError> {
        let a = &self.args;
        let started = Instant::now();
        let dir = &a.dir;
        let samples = dir.join(format!("gen-{k}.gpns"));
        let net = dir.join(format!("gen-{k}.gpnn"));
        // 1. Self-play with the best network.
        let argv: Vec<String> = [
            a.game.clone(),
            "--out".into(),
            path_text(&samples)?,
            "--games".into(),
            a.games.to_string(),
            "--iterations".into(),
            a.iterations.to_string(),
            "--solve-nodes".into(),
            a.solve_nodes.to_string(),
            "--engine".into(),
            self.spec(best)?,
            "--seed".into(),
            (a.seed.wrapping_mul(1000) + k as u64).to_string(),
            "--quiet".into(),
        ]
        .into();
        let mut log = Vec::new();
        let added = super::selfplay::play(sub_args("selfplay", &argv)?, &mut log)?;
        if super::interrupt::interrupted() {
            return Err(CliError::Interrupted);
        }
        // 2. Training on the window, from the best network.
        let mut argv: Vec<String> = vec![a.game.clone(), "--out".into(), path_text(&net)?];
        argv.push("--data".into());
        for j in k.saturating_sub(a.window - 1).max(1)..=k {
            argv.push(path_text(&dir.join(format!("gen-{j}.gpns")))?);
        }
        argv.extend([
            "--epochs".into(),
            a.epochs.to_string(),
            "--augment".into(),
            "--seed".into(),
            (a.seed + k as u64).to_string(),
        ]);
        match best {
            Some(p) => argv.extend(["--init".into(), path_text(p)?]),
            None => argv.extend(["--hidden".into(), a.hidden.clone()]),
        }
        super::train::run(sub_args("train", &argv)?, &mut log)?;
        if super::interrupt::interrupted() {
            return Err(CliError::Interrupted);
        }
        // Self-play's and training's reports (every epoch's losses: the training curve).
        std::fs::write(dir.join(format!("gen-{k}.log")), &log)
            .map_err(|e| CliError::Io(format!("cannot write gen-{k}.log: {e}")))?;
        let text = String::from_utf8_lossy(&log);
        if let Some(last) = text.lines().last() {
            note(format_args!("generation {k}: {last}"));
        }
        // 3. Gating: the new network against the best.
        let new = self.spec(Some(&net))?;
        let gate = self.play::<G>(&new, &self.spec(best)?, a.seed ^ ((k as u64) << 8))?;
        let promoted = gate.score() >= a.gate;
        let best_path = dir.join("best.gpnn");
        if promoted {
            std::fs::copy(&net, &best_path)
                .map_err(|e| CliError::Io(format!("cannot write {}: {e}", best_path.display())))?;
        }
        // 4. The best network against the engine without one.
        let best_now = if promoted {
            Some(best_path.as_path())
        } else {
            best
        };
        let plain = match best_now {
            Some(p) => {
                self.play::<G>(&self.spec(Some(p))?, &a.engine, a.seed ^ ((k as u64) << 16))?
            }
            None => Wdl::default(),
        };
        let s = score_interval(&plain).value;
        Ok(Generation {
            number: k,
            positions: added.positions,
            labelled: added.labelled,
            gate_score: gate.score(),
            promoted,
            score_vs_plain: s,
            elo_vs_plain: if best_now.is_some() {
                elo_from_score(s)
            } else {
                0.0
            },
            seconds: started.elapsed().as_secs_f64(),
        })
    }
}

impl GameVisitor for LearnVisitor<'_> {
    type Output = Result<(), CliError>;
    fn visit<G: Game>(mut self) -> Result<(), CliError> {
        super::train::require_encoding::<G>()?;
        let dir = self.args.dir.clone();
        std::fs::create_dir_all(&dir)
            .map_err(|e| CliError::Io(format!("cannot create {}: {e}", dir.display())))?;
        let log_path = dir.join("learn.jsonl");
        let mut done: Vec<Generation> =
            crate::files::read_text_or_empty(&log_path, crate::files::RECORDS_LIMIT)
                .map_err(|e| CliError::Io(format!("cannot read {}: {e}", log_path.display())))?
                .lines()
                .filter_map(Generation::parse)
                .collect();
        if !done.is_empty() {
            note(format_args!(
                "{}: generations 1 to {} done, going on",
                log_path.display(),
                done.len()
            ));
        }
        let best_path = dir.join("best.gpnn");
        for k in done.len() as u32 + 1..=self.args.generations {
            let best = best_path.exists().then_some(best_path.as_path());
            let generation = match self.generation::<G>(k, best) {
                Err(CliError::Interrupted) => {
                    note(format_args!(
                        "interrupted: generation {k} is redone by a rerun with --dir {} (its self-play resumed)",
                        dir.display()
                    ));
                    return Err(CliError::Interrupted);
                }
                other => other?,
            };
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&log_path)
                .map_err(|e| CliError::Io(format!("cannot write {}: {e}", log_path.display())))?;
            writeln!(file, "{}", generation.json())?;
            writeln!(
                self.out,
                "generation {k}: {} positions, gate {:.3} ({}), best vs no network {:.3} ({:+.0} Elo), {:.0} s",
                generation.positions,
                generation.gate_score,
                if generation.promoted { "promoted" } else { "kept the best" },
                generation.score_vs_plain,
                finite(generation.elo_vs_plain),
                generation.seconds
            )?;
            self.out.flush()?;
            done.push(generation);
            std::fs::write(dir.join("learn.svg"), chart(G::INFO.name, &done))?;
        }
        writeln!(
            self.out,
            "learn {}: {} generations in {}, best network: {}",
            G::INFO.name,
            done.len(),
            dir.display(),
            if best_path.exists() {
                best_path.display().to_string()
            } else {
                "none promoted".to_string()
            }
        )?;
        Ok(())
    }
}

/// An SVG line chart of the best network's Elo against the engine without a network, per
/// generation.
fn chart(game: &str, generations: &[Generation]) -> String {
    let (w, h, m) = (640.0, 360.0, 50.0);
    let elos: Vec<f64> = generations.iter().map(|g| finite(g.elo_vs_plain)).collect();
    let top = elos.iter().fold(100.0f64, |a, &b| a.max(b.abs())).ceil();
    let n = generations.len().max(2) as f64;
    let x = |i: f64| m + (w - 2.0 * m) * (i - 1.0) / (n - 1.0);
    let y = |e: f64| h / 2.0 - (h / 2.0 - m) * e / top;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{}\" y=\"20\" text-anchor=\"middle\">gpn learn {game}: best network vs the engine without one (Elo)</text>\n\
         <line x1=\"{m}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#888\"/>\n\
         <text x=\"{}\" y=\"{}\" text-anchor=\"end\">+{top}</text><text x=\"{}\" y=\"{}\" text-anchor=\"end\">0</text><text x=\"{}\" y=\"{}\" text-anchor=\"end\">-{top}</text>\n",
        w / 2.0,
        y(0.0),
        w - m,
        y(0.0),
        m - 4.0,
        y(top) + 4.0,
        m - 4.0,
        y(0.0) + 4.0,
        m - 4.0,
        y(-top) + 4.0
    );
    let mut points = String::new();
    for (i, e) in elos.iter().enumerate() {
        let (px, py) = (x(i as f64 + 1.0), y(*e));
        let _ = write!(points, "{px:.1},{py:.1} ");
        let _ = writeln!(
            svg,
            "<circle cx=\"{px:.1}\" cy=\"{py:.1}\" r=\"3\"/><text x=\"{px:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            h - m + 20.0,
            i + 1
        );
    }
    let _ = writeln!(
        svg,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\"/>\n<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">generation</text>\n</svg>",
        points.trim_end(),
        w / 2.0,
        h - 8.0
    );
    svg
}

pub fn run(args: LearnArgs, out: &mut dyn Write) -> Result<(), CliError> {
    super::interrupt::flag();
    let game = args.game.clone();
    registry::visit(&game, LearnVisitor { args, out })?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_line_round_trips_and_the_chart_has_a_point_per_generation() {
        let g = Generation {
            number: 2,
            positions: 1234,
            labelled: 56,
            gate_score: 0.61,
            promoted: true,
            score_vs_plain: 1.0,
            elo_vs_plain: f64::INFINITY,
            seconds: 12.5,
        };
        let back = Generation::parse(&g.json()).expect("parses");
        assert_eq!(
            (back.number, back.positions, back.promoted),
            (2, 1234, true)
        );
        assert_eq!(back.elo_vs_plain, 1000.0);
        let svg = chart("cfour", &[g.clone(), back]);
        assert_eq!(svg.matches("<circle").count(), 2);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    }
}
