//! The learning loop: generations of self-play, training and a gating match, logged and charted.

use std::fmt::{self, Write as _};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize, Serializer};

use super::selfplay::{self, SelfplayConfig};
use super::train::{self, TrainConfig};
use super::{require_encoding, Error, OnProgress, Progress, StopFlag};
use crate::arena::spec::{agent_factory, parse_agent_spec};
use crate::arena::stats::{elo_from_score, score_interval};
use crate::arena::{self, Budget, MatchConfig, Wdl};
use crate::game::registry::{self, GameVisitor};
use crate::game::Game;

/// What the loop runs (`gpn learn`'s options). Everything it writes goes to `dir`:
/// `gen-K.gpns` (samples), `gen-K.gpnn` (networks), `gen-K.log` (self-play's and training's
/// reports), `best.gpnn`, `learn.jsonl` (one line per generation) and `learn.svg` (the chart).
#[derive(Clone, Debug)]
pub struct LearnConfig {
    /// The game's name or alias (one with a network encoding).
    pub game: String,
    /// The run's directory; a rerun with the same one goes on after its last generation.
    pub dir: PathBuf,
    /// Generations the run holds when it ends.
    pub generations: u32,
    /// Self-play games per generation.
    pub games: u32,
    /// Search iterations per move, in self-play and in the matches (so that a run does not
    /// depend on the machine's speed).
    pub iterations: u64,
    /// Exact value targets where DFPN proves a position within this many nodes (0: results only).
    pub solve_nodes: u64,
    /// Generations of samples each training reads (the latest ones); at least 1.
    pub window: u32,
    /// Hidden layer widths of the first network (later ones start from the best).
    pub hidden: Vec<usize>,
    /// Training epochs per generation; at least 1.
    pub epochs: u32,
    /// Games of each match (gating, and against the engine without a network).
    pub gate_games: u32,
    /// Score the new network needs against the best to be promoted.
    pub gate: f64,
    /// The search the networks play in, an agent spec of `gpn match` (`net=` is added).
    pub engine: String,
    /// Seed of the run.
    pub seed: u64,
    /// Match concurrency (games at once).
    pub concurrency: usize,
}

impl LearnConfig {
    /// `gpn learn`'s defaults for `game` in `dir`.
    pub fn new(game: &str, dir: PathBuf) -> LearnConfig {
        LearnConfig {
            game: game.to_string(),
            dir,
            generations: 4,
            games: 500,
            iterations: 400,
            solve_nodes: 0,
            window: 3,
            hidden: vec![128],
            epochs: 10,
            gate_games: 100,
            gate: 0.55,
            engine: "default".to_string(),
            seed: 1,
            concurrency: 1,
        }
    }
}

/// One finished generation, as logged (a line of `learn.jsonl`, the field names being the file
/// format); `Display` is `gpn learn`'s line for it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Generation {
    /// The generation's number, from 1.
    #[serde(rename = "generation")]
    pub number: u32,
    /// Positions its self-play added.
    pub positions: usize,
    /// Of those, the positions with exact values (logs written before the field existed have
    /// none).
    #[serde(default)]
    pub labelled: usize,
    /// The new network's score against the best.
    #[serde(serialize_with = "four_places")]
    pub gate_score: f64,
    /// The new network became the best.
    pub promoted: bool,
    /// The best network against the engine without one: score and Elo (0 with no best yet;
    /// an infinite Elo is logged as ±1000, since JSON has no infinity).
    #[serde(serialize_with = "four_places")]
    pub score_vs_plain: f64,
    #[serde(serialize_with = "finite_elo")]
    pub elo_vs_plain: f64,
    #[serde(serialize_with = "one_place")]
    pub seconds: f64,
}

/// Scores to four decimals: the log stays readable, and a score of a few hundred games has no
/// more digits worth keeping.
fn four_places<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((x * 1e4).round() / 1e4)
}

/// Seconds to one decimal.
fn one_place<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((x * 10.0).round() / 10.0)
}

/// An Elo difference to one decimal, clamped to ±1000 (a perfect score's Elo is infinite).
fn finite_elo<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    one_place(&finite(*x), s)
}

impl Generation {
    /// The generation's line of `learn.jsonl`.
    pub fn json(&self) -> String {
        // Numbers and a bool only: serialising cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a line of `learn.jsonl`; `None` for anything else.
    pub fn parse(line: &str) -> Option<Generation> {
        serde_json::from_str(line).ok()
    }
}

impl fmt::Display for Generation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "generation {}: {} positions, gate {:.3} ({}), best vs no network {:.3} ({:+.0} Elo), {:.0} s",
            self.number,
            self.positions,
            self.gate_score,
            if self.promoted {
                "promoted"
            } else {
                "kept the best"
            },
            self.score_vs_plain,
            finite(self.elo_vs_plain),
            self.seconds
        )
    }
}

/// What the loop holds when it ends; `Display` is `gpn learn`'s last line.
#[derive(Clone, Debug)]
pub struct LearnReport {
    /// The game's canonical name.
    pub game: &'static str,
    /// Every generation of the log, the earlier runs' included.
    pub generations: Vec<Generation>,
    pub dir: PathBuf,
    /// `best.gpnn`, if a network was ever promoted.
    pub best: Option<PathBuf>,
}

impl fmt::Display for LearnReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "learn {}: {} generations in {}, best network: {}",
            self.game,
            self.generations.len(),
            self.dir.display(),
            match &self.best {
                Some(best) => best.display().to_string(),
                None => "none promoted".to_string(),
            }
        )
    }
}

/// Runs the generations `config.dir`'s log lacks. A raised `stop` ends the run with
/// [`Error::Stopped`]; the generation in progress is redone by a rerun (its self-play resumed).
pub fn run(
    config: &LearnConfig,
    stop: &StopFlag,
    progress: &mut OnProgress<'_>,
) -> Result<LearnReport, Error> {
    let visitor = LearnVisitor {
        config,
        stop,
        progress,
    };
    registry::visit(&config.game, visitor)?
}

struct LearnVisitor<'a, 'p> {
    config: &'a LearnConfig,
    stop: &'a StopFlag,
    progress: &'a mut OnProgress<'p>,
}

impl GameVisitor for LearnVisitor<'_, '_> {
    type Output = Result<LearnReport, Error>;
    fn visit<G: Game>(mut self) -> Result<LearnReport, Error> {
        // Before anything is written: a game without an encoding leaves no directory behind.
        require_encoding::<G>()?;
        let dir = &self.config.dir;
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::Io(format!("cannot create {}: {e}", dir.display())))?;
        let log_path = dir.join("learn.jsonl");
        let mut done: Vec<Generation> =
            crate::files::read_text_or_empty(&log_path, crate::files::RECORDS_LIMIT)
                .map_err(|e| Error::Io(format!("cannot read {}: {e}", log_path.display())))?
                .lines()
                .filter_map(Generation::parse)
                .collect();
        if !done.is_empty() {
            let resuming = Progress::Resuming {
                log: log_path.clone(),
                done: done.len(),
            };
            (self.progress)(resuming).map_err(Error::Output)?;
        }
        let best_path = dir.join("best.gpnn");
        for k in done.len() as u32 + 1..=self.config.generations {
            let best = best_path.exists().then_some(best_path.as_path());
            let generation = match self.generation::<G>(k, best) {
                Err(Error::Stopped) => {
                    let stopped = Progress::GenerationStopped {
                        generation: k,
                        dir: dir.clone(),
                    };
                    (self.progress)(stopped).map_err(Error::Output)?;
                    return Err(Error::Stopped);
                }
                other => other?,
            };
            append_line(&log_path, &generation.json())?;
            (self.progress)(Progress::GenerationDone(generation.clone())).map_err(Error::Output)?;
            done.push(generation);
            let svg = dir.join("learn.svg");
            std::fs::write(&svg, chart(G::INFO.name, &done))
                .map_err(|e| Error::Io(format!("cannot write {}: {e}", svg.display())))?;
        }
        Ok(LearnReport {
            game: G::INFO.name,
            generations: done,
            dir: dir.clone(),
            best: best_path.exists().then_some(best_path),
        })
    }
}

impl LearnVisitor<'_, '_> {
    /// The engine's agent spec with the network `net`, or without any network.
    fn spec(&self, net: Option<&Path>) -> Result<String, Error> {
        let engine = &self.config.engine;
        Ok(match net {
            Some(p) => {
                // A spec is text: a network's path must be too.
                let path = p
                    .to_str()
                    .ok_or_else(|| Error::Invalid(format!("{} is not UTF-8", p.display())))?;
                format!("{engine} net={path}")
            }
            // Explicitly none: the game's defaults row may hold its builtin network.
            None => format!("{engine} network=none"),
        })
    }

    /// A match at `iterations` a move: engine `a` against engine `b`, from `a`'s view.
    fn play<G: Game>(&self, a: &str, b: &str, seed: u64) -> Result<Wdl, Error> {
        let fa = agent_factory::<G, 2>(&parse_agent_spec(a).map_err(Error::Invalid)?);
        let fb = agent_factory::<G, 2>(&parse_agent_spec(b).map_err(Error::Invalid)?);
        let config = MatchConfig {
            games: self.config.gate_games,
            budget: Budget::Iterations(self.config.iterations),
            opening_plies: 2,
            concurrency: self.config.concurrency,
            seed,
            progress: false,
            stop: Some(self.stop.clone()),
            ..MatchConfig::for_game::<G>()
        };
        let mut on_game = |_: &arena::GameRecord, _: &Wdl| {};
        let report = arena::run_match_with::<G>(&config, &*fa, &*fb, ("a", "b"), &mut on_game);
        if report.interrupted {
            return Err(Error::Stopped);
        }
        Ok(report.wdl())
    }

    /// Plays, trains and gates generation `k`, whose self-play uses the network `best`.
    fn generation<G: Game>(&mut self, k: u32, best: Option<&Path>) -> Result<Generation, Error> {
        let c = self.config;
        let started = Instant::now();
        let net = c.dir.join(format!("gen-{k}.gpnn"));
        // Self-play's and training's reports (every epoch's losses: the training curve).
        let mut log = String::new();
        // 1. Self-play with the best network.
        let selfplay = SelfplayConfig {
            games: c.games,
            iterations: c.iterations,
            solve_nodes: c.solve_nodes,
            engine: self.spec(best)?,
            seed: c.seed.wrapping_mul(1000).wrapping_add(k as u64),
            ..SelfplayConfig::new(&c.game, c.dir.join(format!("gen-{k}.gpns")))
        };
        let added = selfplay::play(&selfplay, self.stop, &mut |p| {
            route(p, &mut log, self.progress)
        })?;
        log_line(&mut log, &added);
        if self.stop.is_raised() {
            return Err(Error::Stopped);
        }
        // 2. Training on the window, from the best network.
        let window = k.saturating_sub(c.window.saturating_sub(1)).max(1)..=k;
        let data = window
            .map(|j| c.dir.join(format!("gen-{j}.gpns")))
            .collect();
        let training = TrainConfig {
            epochs: c.epochs,
            augment: true,
            seed: c.seed.wrapping_add(k as u64),
            init: best.map(Path::to_path_buf),
            hidden: c.hidden.clone(),
            ..TrainConfig::new(&c.game, data, net.clone())
        };
        let trained = train::train(&training, self.stop, &mut |p| {
            route(p, &mut log, self.progress)
        })?;
        if self.stop.is_raised() {
            return Err(Error::Stopped);
        }
        let log_file = c.dir.join(format!("gen-{k}.log"));
        std::fs::write(&log_file, &log)
            .map_err(|e| Error::Io(format!("cannot write gen-{k}.log: {e}")))?;
        if let Some(last) = trained.last {
            (self.progress)(Progress::Trained {
                generation: k,
                last,
            })
            .map_err(Error::Output)?;
        }
        // 3. Gating: the new network against the best.
        let new = self.spec(Some(&net))?;
        let gate = self.play::<G>(&new, &self.spec(best)?, c.seed ^ ((k as u64) << 8))?;
        let promoted = gate.score() >= c.gate;
        let best_path = c.dir.join("best.gpnn");
        if promoted {
            std::fs::copy(&net, &best_path)
                .map_err(|e| Error::Io(format!("cannot write {}: {e}", best_path.display())))?;
        }
        // 4. The best network against the engine without one.
        let best_now = if promoted {
            Some(best_path.as_path())
        } else {
            best
        };
        let plain = match best_now {
            Some(p) => {
                self.play::<G>(&self.spec(Some(p))?, &c.engine, c.seed ^ ((k as u64) << 16))?
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

/// Where an event of a generation's self-play or training goes: its report lines into the
/// generation's log, its notes on to the caller. The self-play's line per game is dropped, as
/// `gpn selfplay --quiet` drops it: the log keeps the totals.
fn route(event: Progress, log: &mut String, progress: &mut OnProgress<'_>) -> io::Result<()> {
    match event {
        Progress::GameWritten(_) => Ok(()),
        event if event.is_note() => progress(event),
        event => {
            log_line(log, &event);
            Ok(())
        }
    }
}

fn log_line(log: &mut String, line: &dyn fmt::Display) {
    // Writing to a String cannot fail.
    let _ = writeln!(log, "{line}");
}

/// Appends `line` to the file `path`, creating it.
fn append_line(path: &Path, line: &str) -> Result<(), Error> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut file| writeln!(file, "{line}"))
        .map_err(|e| Error::Io(format!("cannot write {}: {e}", path.display())))
}

/// Elo clamped to what a chart and JSON can hold (a match won or lost outright is +-inf).
fn finite(elo: f64) -> f64 {
    elo.clamp(-1000.0, 1000.0)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The learning logs of experiments/data, written by an earlier build's hand-written JSON
    /// writer (and some before the `labelled` field existed), still read.
    #[test]
    fn learning_logs_written_by_earlier_builds_still_read() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/experiments/data/learned");
        let mut read = 0;
        for entry in std::fs::read_dir(dir).expect("experiments/data/learned") {
            let path = entry.expect("entry").path().join("learn.jsonl");
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            for (n, line) in text.lines().enumerate() {
                let g = Generation::parse(line)
                    .unwrap_or_else(|| panic!("{}:{}", path.display(), n + 1));
                assert_eq!(g.number as usize, n + 1);
                read += 1;
            }
        }
        assert!(read >= 10, "{read} generations");
    }

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
        let line = g.json();
        assert_eq!(
            line,
            r#"{"generation":2,"positions":1234,"labelled":56,"gate_score":0.61,"promoted":true,"score_vs_plain":1.0,"elo_vs_plain":1000.0,"seconds":12.5}"#
        );
        let back = Generation::parse(&line).expect("parses");
        assert_eq!(
            (back.number, back.positions, back.promoted),
            (2, 1234, true)
        );
        assert_eq!(back.elo_vs_plain, 1000.0);
        let svg = chart("cfour", &[g.clone(), back]);
        assert_eq!(svg.matches("<circle").count(), 2);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    }

    fn quick(dir: PathBuf) -> LearnConfig {
        LearnConfig {
            generations: 1,
            games: 2,
            iterations: 20,
            hidden: vec![8],
            epochs: 1,
            gate_games: 2,
            gate: 0.0,
            engine: "sb-uct".into(),
            ..LearnConfig::new("cfour", dir)
        }
    }

    #[test]
    fn a_generation_is_logged_reported_and_not_redone_and_a_stop_redoes_it() {
        let dir = std::env::temp_dir().join(format!("gpn-learn-loop-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // Raised before anything is played: the generation is cut and nothing is logged.
        let stop = StopFlag(std::sync::Arc::new(true.into()));
        let mut notes = Vec::new();
        let err = run(&quick(dir.clone()), &stop, &mut |p| {
            notes.push(p.to_string());
            Ok(())
        })
        .unwrap_err();
        assert!(matches!(err, Error::Stopped), "{err:?}");
        assert!(
            notes.last().unwrap().contains("generation 1 is redone"),
            "{notes:?}"
        );
        assert!(!dir.join("learn.jsonl").exists());
        let mut events = Vec::new();
        let report = run(&quick(dir.clone()), &StopFlag::default(), &mut |p| {
            events.push(p);
            Ok(())
        })
        .expect("runs");
        let done: Vec<&Generation> = events
            .iter()
            .filter_map(|p| match p {
                Progress::GenerationDone(g) => Some(g),
                _ => None,
            })
            .collect();
        assert_eq!(done.len(), 1);
        assert!(done[0].promoted, "--gate 0 promotes");
        assert!(events
            .iter()
            .any(|p| matches!(p, Progress::Trained { generation: 1, .. })));
        assert_eq!(report.generations, [done[0].clone()]);
        assert_eq!(report.best, Some(dir.join("best.gpnn")));
        let log = std::fs::read_to_string(dir.join("gen-1.log")).unwrap();
        assert!(log.starts_with("selfplay cfour: 2 games ("), "{log}");
        assert!(log.contains("\nepoch 1: "), "{log}");
        // The log holds the generation: a rerun only says so.
        let mut again = Vec::new();
        let report = run(&quick(dir.clone()), &StopFlag::default(), &mut |p| {
            again.push(p.to_string());
            Ok(())
        })
        .expect("runs");
        assert_eq!(report.generations.len(), 1);
        assert_eq!(again.len(), 1, "{again:?}");
        assert!(
            again[0].ends_with("generations 1 to 1 done, going on"),
            "{again:?}"
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
