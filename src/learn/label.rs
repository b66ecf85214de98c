//! Labelling: positions of games of gpn's own search, each valued by a stronger UCI engine (the
//! teacher), written as training positions with soft value targets.
//!
//! The positions come from whole games of gpn's default search against itself at a small
//! budget (`iterations` per move), after a few uniformly random plies, with the first
//! `temperature_plies` moves drawn in proportion to the root visits: the random plies and the
//! drawn moves make every game different, and the search keeps the rest of the game sensible,
//! so the positions are the kind a network meets inside gpn's search (mistakes included), not
//! only the narrow lines a strong engine plays against itself. Whole games also give every
//! position the game's result, which `mix` blends into the teacher's value (KataGo and Leela
//! Chess Zero mix a search's value with the result the same way).
//!
//! Each position of a finished game is sent to the teacher as `position fen <start> moves
//! ...` (so it knows the game's history, repetitions included) and `go depth D` (or `nodes`);
//! its last exact score becomes win, draw and loss probabilities ([`WdlModel`]), its
//! `bestmove` the policy target (one-hot over the legal moves).

use std::collections::HashSet;
use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::selfplay::{draw_by_visits, GameStart};
use super::uci::{UciEngine, WdlModel};
use super::{require_encoding, Error, OnProgress, Progress, StopFlag};
use crate::game::record::Record;
use crate::game::registry::{self, GameVisitor};
use crate::game::{Game, Move, MoveList};
use crate::nn::data::{GameRecord, SampleWriter};
use crate::nn::sample::{Episode, Sample};
use crate::search::SearchParams;

/// How long the teacher searches each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TeacherLimit {
    /// `go depth D`.
    Depth(u32),
    /// `go nodes N`.
    Nodes(u64),
}

impl TeacherLimit {
    fn go(self) -> String {
        match self {
            TeacherLimit::Depth(d) => format!("go depth {d}"),
            TeacherLimit::Nodes(n) => format!("go nodes {n}"),
        }
    }
}

impl fmt::Display for TeacherLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TeacherLimit::Depth(d) => write!(f, "depth {d}"),
            TeacherLimit::Nodes(n) => write!(f, "{n} nodes"),
        }
    }
}

/// What a labelling run does (`gpn label`'s options).
#[derive(Clone, Debug)]
pub struct LabelConfig {
    /// The game's name or alias (one with a network encoding).
    pub game: String,
    /// The teacher: a UCI engine's executable, its arguments and `setoption`s.
    pub engine: PathBuf,
    pub engine_args: Vec<String>,
    pub options: Vec<(String, String)>,
    /// The teacher's search per position.
    pub limit: TeacherLimit,
    /// Positions the file holds when the run ends (whole games: a little more).
    pub positions: usize,
    /// The sample file to append to; the games it holds already are not played again.
    pub out: PathBuf,
    /// Seed of the run: game `i` uses seed (`seed`, `i`).
    pub seed: u64,
    /// The share of the game's result in the value target: (1 - mix) teacher + mix result.
    pub mix: f64,
    /// gpn's search iterations per move of the games.
    pub iterations: u64,
    /// Uniformly random plies from the start (not labelled).
    pub random_plies: u32,
    /// Labelled plies whose move is drawn in proportion to the root visits.
    pub temperature_plies: u32,
    /// The conversion of centipawns to probabilities; `None`: the game's default.
    pub model: Option<WdlModel>,
    /// The longest wait for any answer of the teacher.
    pub timeout: Duration,
}

impl LabelConfig {
    /// `gpn label`'s defaults for `game`, taught by `engine` at `limit`, written to `out`.
    pub fn new(game: &str, engine: PathBuf, limit: TeacherLimit, out: PathBuf) -> LabelConfig {
        LabelConfig {
            game: game.to_string(),
            engine,
            engine_args: Vec::new(),
            options: Vec::new(),
            limit,
            positions: 1000,
            out,
            seed: 1,
            mix: 0.0,
            iterations: 200,
            random_plies: 4,
            temperature_plies: 12,
            model: None,
            timeout: Duration::from_secs(60),
        }
    }
}

/// One game labelled and written.
#[derive(Clone, Debug)]
pub struct LabelledGame {
    pub number: u32,
    /// Positions labelled.
    pub positions: usize,
    /// Positions in the file now.
    pub in_file: usize,
    /// The game's end in words.
    pub result: &'static str,
    /// Seconds since the run started, and positions labelled per second of it.
    pub seconds: f64,
    pub rate: f64,
}

impl fmt::Display for LabelledGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}: {} positions labelled, {}; {} in the file ({:.1} s, {:.1} positions/s)",
            self.number, self.positions, self.result, self.in_file, self.seconds, self.rate
        )
    }
}

/// What a run of [`label`] added; `Display` is `gpn label`'s report line.
#[derive(Clone, Debug)]
pub struct LabelReport {
    pub game: &'static str,
    /// The teacher's `id name`.
    pub teacher: String,
    pub limit: TeacherLimit,
    /// Games and positions this run added.
    pub games: u32,
    pub positions: usize,
    /// Positions the file holds now.
    pub in_file: usize,
    pub out: PathBuf,
    pub seconds: f64,
    /// The stop flag ended the run early.
    pub stopped: bool,
}

impl fmt::Display for LabelReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rate = if self.seconds > 0.0 {
            self.positions as f64 / self.seconds
        } else {
            0.0
        };
        write!(
            f,
            "label {}: {} games ({} positions) added, labelled by {} at {}, {} positions in {} ({:.1} s, {:.1} positions/s)",
            self.game,
            self.games,
            self.positions,
            self.teacher,
            self.limit,
            self.in_file,
            self.out.display(),
            self.seconds,
            rate
        )
    }
}

/// Plays and labels games until `config.out` holds `config.positions` positions, appending each
/// game as it is labelled. A raised `stop` ends the run after the games already written.
pub fn label(
    config: &LabelConfig,
    stop: &StopFlag,
    progress: &mut OnProgress<'_>,
) -> Result<LabelReport, Error> {
    if !(0.0..=1.0).contains(&config.mix) {
        return Err(Error::Invalid(format!(
            "--mix {}: a share in [0, 1]",
            config.mix
        )));
    }
    registry::visit(
        &config.game,
        LabelVisitor {
            config,
            stop,
            progress,
        },
    )?
}

struct LabelVisitor<'a, 'p> {
    config: &'a LabelConfig,
    stop: &'a StopFlag,
    progress: &'a mut OnProgress<'p>,
}

impl GameVisitor for LabelVisitor<'_, '_> {
    type Output = Result<LabelReport, Error>;
    fn visit<G: Game>(self) -> Result<LabelReport, Error> {
        let c = self.config;
        require_encoding::<G>()?;
        let params = SearchParams::for_game(G::INFO.name);
        params
            .check_network_for::<G>()
            .map_err(|e| Error::Invalid(e.to_string()))?;
        let model = c.model.unwrap_or_else(|| WdlModel::for_game(G::INFO.name));
        let mut writer = SampleWriter::append(&c.out, G::INFO.name)
            .map_err(|e| Error::Io(format!("cannot use {}: {e}", c.out.display())))?;
        let started = Instant::now();
        let mut report = LabelReport {
            game: G::INFO.name,
            teacher: c.engine.display().to_string(),
            limit: c.limit,
            games: 0,
            positions: 0,
            in_file: writer.positions(),
            out: c.out.clone(),
            seconds: 0.0,
            stopped: false,
        };
        if writer.positions() >= c.positions {
            return Ok(report);
        }
        let mut teacher = UciEngine::start(
            &c.engine,
            &c.engine_args,
            G::INFO.name,
            &c.options,
            c.timeout,
        )
        .map_err(|e| Error::Io(e.to_string()))?;
        report.teacher = teacher.name.clone();
        let have: HashSet<u32> = writer.numbers().iter().copied().collect();
        let mut number = 0u32;
        // Games that end within the random plies give no positions: a run of them would never
        // reach the count.
        let mut empty = 0;
        while writer.positions() < c.positions {
            while have.contains(&number) {
                number += 1;
            }
            let Some((record, result)) =
                label_game::<G>(c, &params, &model, &mut teacher, number, self.stop)?
            else {
                (self.progress)(Progress::GameDropped { number }).map_err(Error::Output)?;
                report.stopped = true;
                break;
            };
            writer
                .write(&record)
                .map_err(|e| Error::Io(format!("cannot write {}: {e}", c.out.display())))?;
            report.games += 1;
            report.positions += record.samples.len();
            empty = if record.samples.is_empty() {
                empty + 1
            } else {
                0
            };
            if empty >= 100 {
                return Err(Error::Invalid(format!(
                    "100 games in a row ended within --random-plies {}: no positions to label",
                    c.random_plies
                )));
            }
            let seconds = started.elapsed().as_secs_f64();
            (self.progress)(Progress::Labelled(LabelledGame {
                number,
                positions: record.samples.len(),
                in_file: writer.positions(),
                result,
                seconds,
                rate: report.positions as f64 / seconds.max(1e-9),
            }))
            .map_err(Error::Output)?;
            number += 1;
        }
        teacher.quit();
        report.in_file = writer.positions();
        report.seconds = started.elapsed().as_secs_f64();
        Ok(report)
    }
}

/// The one-hot (or, for a length cap, draw) result for a player: utility 1, 0 or -1.
fn result_wdl(utility: f32) -> [f32; 3] {
    if utility > 0.0 {
        [1.0, 0.0, 0.0]
    } else if utility < 0.0 {
        [0.0, 0.0, 1.0]
    } else {
        [0.0, 1.0, 0.0]
    }
}

/// Plays game `number` with gpn's search and labels its positions with `teacher`; `None` when
/// `stop` was raised (the game is dropped).
fn label_game<G: Game>(
    c: &LabelConfig,
    params: &SearchParams,
    model: &WdlModel,
    teacher: &mut UciEngine,
    number: u32,
    stop: &StopFlag,
) -> Result<Option<(GameRecord, &'static str)>, Error> {
    let start = G::start();
    let mut history: Vec<String> = Vec::new();
    let GameStart {
        mut rng,
        position,
        mut search,
        limits,
    } = GameStart::<G>::new(
        &start,
        c.seed,
        number,
        c.random_plies,
        c.iterations,
        params,
        stop,
        |p: &G, m| history.push(p.format_move(m)),
    );
    let mut moves = MoveList::new();
    // The positions to label, each with the moves that lead to it; the record applies the
    // game's repetition rule and length cap, as the teacher knows them from the moves.
    let mut pending: Vec<(G, usize)> = Vec::new();
    let mut record = Record::new(position, G::MAX_PLIES);
    while record.outcome().is_none() {
        if stop.is_raised() {
            return Ok(None);
        }
        search.add_root_noise(0.3, 0.25, &mut rng);
        let report = search.run(&limits);
        if stop.is_raised() {
            return Ok(None);
        }
        let lines = search.root_lines(usize::MAX);
        let total: u64 = lines.iter().map(|l| l.visits as u64).sum();
        let drawn = if record.plies() < c.temperature_plies && total > 0 && report.proven.is_none()
        {
            draw_by_visits(&lines, total, &mut rng)
        } else {
            None
        };
        let Some(m) = drawn.or(report.best_move) else {
            break;
        };
        let position = record.position().clone();
        history.push(position.format_move(m));
        pending.push((position, history.len() - 1));
        record.play(m);
        if !search.advance(m) {
            search.set_position(record.position().clone());
        }
    }
    let outcome = record.outcome();
    let result = match outcome {
        _ if record.ended_by_repetition() => "repetition",
        _ if record.position().outcome().is_none() => "length cap (draw)",
        Some(o) if o.is_draw() => "draw",
        Some(o) if o.winner() == Some(crate::game::Player(0)) => "first player wins",
        Some(_) => "second player wins",
        None => "unfinished (draw)",
    };
    let fail = |e: super::uci::EngineError| Error::Io(e.to_string());
    teacher.new_game().map_err(fail)?;
    let fen = start.to_position();
    let go = c.limit.go();
    let mut features = Vec::new();
    let mut samples = Vec::with_capacity(pending.len());
    for (pos, before) in &pending {
        if stop.is_raised() {
            return Ok(None);
        }
        let command = if *before == 0 {
            format!("position fen {fen}")
        } else {
            format!("position fen {fen} moves {}", history[..*before].join(" "))
        };
        let reply = teacher.search(&command, &go).map_err(fail)?;
        let engine = reply.score.as_ref().map(|s| model.wdl(s));
        let best: Option<Move> = match &reply.best {
            Some(text) => Some(pos.parse_move(text).map_err(|e| {
                Error::Io(format!(
                    "engine {}: bestmove '{text}' in {}: {e}",
                    c.engine.display(),
                    pos.to_position()
                ))
            })?),
            None => None,
        };
        let (Some(engine), Some(best)) = (engine, best) else {
            return Err(Error::Io(format!(
                "engine {}: no score or no best move for {} (after '{command}')",
                c.engine.display(),
                pos.to_position()
            )));
        };
        let u = outcome.map_or(0.0, |o| o.utility(pos.to_move()));
        let won = result_wdl(u);
        let mix = c.mix as f32;
        let mut wdl = [0f32; 3];
        for k in 0..3 {
            wdl[k] = (1.0 - mix) * engine[k] + mix * won[k];
        }
        pos.legal_moves(&mut moves);
        // The best move's entry only, even where moves share a policy index.
        let policy = moves
            .iter()
            .map(|&m| {
                (
                    pos.policy_index(m) as u16,
                    if m == best { 1.0 } else { 0.0 },
                )
            })
            .collect();
        let legal = moves.len().min(u16::MAX as usize) as u16;
        let forced = if pos.forcing_moves(&mut moves) {
            moves.len() as u16
        } else {
            legal
        };
        pos.features(&mut features);
        samples.push(Sample {
            features: features.clone(),
            wdl,
            policy,
            episode: Some(Episode {
                outcome: match outcome {
                    Some(o) if o.is_draw() => 1,
                    Some(o) if o.winner() == Some(pos.to_move()) => 0,
                    Some(_) => 2,
                    None => 3,
                },
                legal,
                forced,
                proof: 0,
            }),
            cost: None,
        });
    }
    Ok(Some((GameRecord { number, samples }, result)))
}
