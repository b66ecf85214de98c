//! Self-play: games of the search against itself, written as training positions.

use std::collections::HashSet;
use std::fmt;
use std::path::PathBuf;
use std::time::Instant;

use super::{require_encoding, Error, OnProgress, Progress, StopFlag};
use crate::arena::spec::{parse_agent_spec, AgentSpec};
use crate::game::registry::{self, GameVisitor};
use crate::game::{Game, GameError, Move, MoveList, Player};
use crate::nn::data::{GameRecord, SampleWriter};
use crate::nn::sample::{Episode, Sample};
use crate::rng::{mix64, Rng};
use crate::search::{Limits, RootLine, Search, SearchParams};
use crate::solve::{self, Algo, SolveConfig, Value};

/// The transposition table of each labelling solve, in MB: small, since most proofs are short
/// and a larger table costs its clearing at every position.
const SOLVE_MEMORY_MB: usize = 8;

/// What a self-play run plays and where it writes (`gpn selfplay`'s options).
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    /// The game's name or alias (one with a network encoding).
    pub game: String,
    /// The sample file to append to; the games it holds already are not played again.
    pub out: PathBuf,
    /// Games the file holds when the run ends (numbers 0 to `games - 1`).
    pub games: u32,
    /// Search iterations per move.
    pub iterations: u64,
    /// The engine, an agent spec of `gpn match` other than `random`.
    pub engine: String,
    /// Positions the games start from (game `i` from entry `i` modulo their number), each as
    /// the game writes it or `start`; none: the game's start.
    pub starts: Vec<String>,
    /// Random plies from the start before the search plays (not recorded).
    pub random_plies: u32,
    /// Recorded plies whose move is drawn in proportion to the root visits (then the best).
    pub temperature_plies: u32,
    /// With a network: the share of Dirichlet noise mixed into the root's priors before every
    /// move (0: none).
    pub noise: f64,
    /// The Dirichlet noise's concentration.
    pub noise_alpha: f64,
    /// Seed of the run: game `i` uses seed (`seed`, `i`), so a rerun writes the same games.
    pub seed: u64,
    /// Label positions with their exact value where DFPN proves it within this many nodes,
    /// from the game's end backwards until a position fails (0: the game's result only).
    pub solve_nodes: u64,
    /// With `solve_nodes`: a proven win's policy target is the proof's winning move, and the
    /// proof's size is kept as an exact proof cost.
    pub proof_targets: bool,
}

impl SelfplayConfig {
    /// `gpn selfplay`'s defaults for `game`, written to `out`.
    pub fn new(game: &str, out: PathBuf) -> SelfplayConfig {
        SelfplayConfig {
            game: game.to_string(),
            out,
            games: 100,
            iterations: 400,
            engine: "default".to_string(),
            starts: Vec::new(),
            random_plies: 2,
            temperature_plies: 8,
            noise: 0.25,
            noise_alpha: 0.3,
            seed: 1,
            solve_nodes: 0,
            proof_targets: false,
        }
    }
}

/// One game self-play wrote.
#[derive(Clone, Debug)]
pub struct GameSummary {
    pub number: u32,
    /// Positions recorded (the plies after the random opening).
    pub plies: usize,
    /// Of those, the positions with exact values.
    pub labelled: usize,
    /// The game's end in words ("draw", "first player wins", ...).
    pub result: &'static str,
    /// Seconds since the run started.
    pub seconds: f64,
}

impl fmt::Display for GameSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}: {} plies recorded ({} with exact values), {} ({:.1} s)",
            self.number, self.plies, self.labelled, self.result, self.seconds
        )
    }
}

/// What a run of [`play`] added to its file; `Display` is `gpn selfplay`'s report line.
#[derive(Clone, Debug)]
pub struct SelfplayReport {
    /// The game's canonical name.
    pub game: &'static str,
    /// Games this run played and wrote.
    pub played: u32,
    /// Positions of those games.
    pub positions: usize,
    /// Of those, the positions with exact values.
    pub labelled: usize,
    /// Games the file holds now.
    pub games_in_file: usize,
    /// The sample file.
    pub out: PathBuf,
    /// The stop flag ended the run before it played every game.
    pub stopped: bool,
}

impl fmt::Display for SelfplayReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "selfplay {}: {} games ({} positions, {} with exact values) added, {} in {}",
            self.game,
            self.played,
            self.positions,
            self.labelled,
            self.games_in_file,
            self.out.display()
        )
    }
}

/// Plays the games `config.out` lacks and appends each as it ends. A raised `stop` ends the
/// run after the games already written (the game in progress is dropped, and a rerun plays it).
pub fn play(
    config: &SelfplayConfig,
    stop: &StopFlag,
    progress: &mut OnProgress<'_>,
) -> Result<SelfplayReport, Error> {
    let params = match parse_agent_spec(&config.engine).map_err(Error::Invalid)? {
        AgentSpec::Random => {
            return Err(Error::Invalid(
                "selfplay needs a search engine, not 'random'".into(),
            ))
        }
        AgentSpec::Search(p) => p,
        AgentSpec::Defaults(extra) => {
            let game = registry::canonical_name(&config.game)
                .ok_or_else(|| GameError::UnknownGame(config.game.clone()))?;
            let mut p = SearchParams::for_game(game);
            p.apply_spec(&extra)
                .map_err(|e| Error::Invalid(format!("engine '{}': {e}", config.engine)))?;
            p
        }
    };
    let visitor = SelfplayVisitor {
        config,
        params,
        stop,
        progress,
    };
    registry::visit(&config.game, visitor)?
}

struct SelfplayVisitor<'a, 'p> {
    config: &'a SelfplayConfig,
    params: SearchParams,
    stop: &'a StopFlag,
    progress: &'a mut OnProgress<'p>,
}

impl GameVisitor for SelfplayVisitor<'_, '_> {
    type Output = Result<SelfplayReport, Error>;
    fn visit<G: Game>(self) -> Result<SelfplayReport, Error> {
        let c = self.config;
        require_encoding::<G>()?;
        self.params
            .check_network_for::<G>()
            .map_err(|e| Error::Invalid(e.to_string()))?;
        // Checked before the file is opened, so that a bad position leaves no file behind.
        let starts = c
            .starts
            .iter()
            .enumerate()
            .map(|(i, text)| match text.as_str() {
                "start" => Ok(G::start()),
                text => G::parse_position(text)
                    .map_err(|e| Error::Invalid(format!("start position {}: {e}", i + 1))),
            })
            .collect::<Result<Vec<G>, Error>>()?;
        let mut writer = SampleWriter::append(&c.out, G::INFO.name)
            .map_err(|e| Error::Io(format!("cannot use {}: {e}", c.out.display())))?;
        let have: HashSet<u32> = writer.numbers().iter().copied().collect();
        let started = Instant::now();
        let mut report = SelfplayReport {
            game: G::INFO.name,
            played: 0,
            positions: 0,
            labelled: 0,
            games_in_file: 0,
            out: c.out.clone(),
            stopped: false,
        };
        for number in (0..c.games).filter(|n| !have.contains(n)) {
            let start = match starts.len() {
                0 => G::start(),
                n => starts[number as usize % n].clone(),
            };
            let Some((record, result, labelled)) =
                self_play_game(c, &self.params, &start, number, self.stop)
            else {
                (self.progress)(Progress::GameDropped { number }).map_err(Error::Output)?;
                report.stopped = true;
                break;
            };
            writer
                .write(&record)
                .map_err(|e| Error::Io(format!("cannot write {}: {e}", c.out.display())))?;
            report.positions += record.samples.len();
            report.labelled += labelled;
            report.played += 1;
            (self.progress)(Progress::GameWritten(GameSummary {
                number,
                plies: record.samples.len(),
                labelled,
                result,
                seconds: started.elapsed().as_secs_f64(),
            }))
            .map_err(Error::Output)?;
        }
        report.games_in_file = writer.numbers().len();
        Ok(report)
    }
}

/// A position's proven value, with a move that achieves it and the proof's size where known.
#[derive(Clone, Copy)]
struct Exact {
    value: Value,
    best: Option<Move>,
    proof_size: Option<u64>,
}

/// The exact value of each position (for its side to move) where DFPN proves it within `nodes`
/// nodes, trying them from the last backwards and stopping at the first it cannot prove (the
/// positions of a game: earlier ones are harder). 0 nodes: none. The game's forcing rule
/// prunes the proofs (it never changes a value).
fn exact_values<G: Game>(positions: &[&G], nodes: u64, stop: &StopFlag) -> Vec<Option<Exact>> {
    let mut exact = vec![None; positions.len()];
    if nodes == 0 {
        return exact;
    }
    let cfg = SolveConfig {
        algo: Algo::Dfpn,
        max_nodes: Some(nodes),
        memory_mb: SOLVE_MEMORY_MB,
        forcing: true,
        // A stopped proof leaves its position without a label; the caller drops the game.
        stop: Some(stop.0.clone()),
        ..SolveConfig::default()
    };
    for (i, pos) in positions.iter().enumerate().rev() {
        let r = solve::solve(*pos, &cfg);
        if r.value == Value::Unknown {
            break;
        }
        exact[i] = Some(Exact {
            value: r.value,
            best: r.best_move,
            proof_size: r.proof_size,
        });
    }
    exact
}

/// Plays game `number`; returns its record, a word on its result and how many positions got
/// exact values, or `None` when `stop` was raised.
/// How one game of gpn's search against itself begins (self-play and labelling alike): its
/// random stream, the position after up to `random_plies` uniformly random plies from `start` (each move
/// handed to `played` before it is made), and the search that plays on from there at
/// `iterations` a move, which `stop` ends within a move too.
pub(super) struct GameStart<G: Game> {
    pub rng: Rng,
    pub position: G,
    pub search: Search<G, 2>,
    pub limits: Limits,
}

impl<G: Game> GameStart<G> {
    /// Game `number` of a run seeded `run_seed`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        start: &G,
        run_seed: u64,
        number: u32,
        random_plies: u32,
        iterations: u64,
        params: &SearchParams,
        stop: &StopFlag,
        mut played: impl FnMut(&G, Move),
    ) -> GameStart<G> {
        let seed = mix64(run_seed ^ mix64(number as u64 + 1));
        let mut rng = Rng::new(seed);
        let mut moves = MoveList::new();
        let mut position = start.clone();
        for _ in 0..random_plies {
            match position.random_move(&mut rng, &mut moves) {
                Some(m) if position.outcome().is_none() => {
                    played(&position, m);
                    position.play(m);
                }
                _ => break,
            }
        }
        let params = SearchParams {
            seed,
            ..params.clone()
        };
        let search = Search::new(params, position.clone());
        let limits = Limits {
            iterations: Some(iterations),
            stop: Some(stop.0.clone()),
            ..Limits::default()
        };
        GameStart {
            rng,
            position,
            search,
            limits,
        }
    }
}

/// A root move drawn in proportion to its visits (`total`, their sum, above 0).
pub(super) fn draw_by_visits(lines: &[RootLine], total: u64, rng: &mut Rng) -> Option<Move> {
    let mut pick = (rng.unit_f64() * total as f64) as u64;
    lines
        .iter()
        .find(|l| {
            if pick < l.visits as u64 {
                true
            } else {
                pick -= l.visits as u64;
                false
            }
        })
        .map(|l| l.mv)
}

fn self_play_game<G: Game>(
    c: &SelfplayConfig,
    params: &SearchParams,
    start: &G,
    number: u32,
    stop: &StopFlag,
) -> Option<(GameRecord, &'static str, usize)> {
    let GameStart {
        mut rng,
        mut position,
        mut search,
        limits,
    } = GameStart::<G>::new(
        start,
        c.seed,
        number,
        c.random_plies,
        c.iterations,
        params,
        stop,
        |_, _| {},
    );
    let mut moves = MoveList::new();
    let mut pending: Vec<(Sample, G)> = Vec::new();
    let mut features = Vec::new();
    let mut plies = 0u32;
    while position.outcome().is_none() && plies < G::MAX_PLIES {
        if stop.is_raised() {
            return None;
        }
        search.add_root_noise(c.noise_alpha, c.noise, &mut rng);
        let report = search.run(&limits);
        if stop.is_raised() {
            // A move of a cut search would make the game differ from the same game resumed.
            return None;
        }
        let lines = search.root_lines(usize::MAX);
        let total: u64 = lines.iter().map(|l| l.visits as u64).sum();
        position.features(&mut features);
        let policy: Vec<(u16, f32)> = lines
            .iter()
            .map(|l| {
                let share = if total == 0 {
                    1.0 / lines.len() as f32
                } else {
                    l.visits as f32 / total as f32
                };
                (position.policy_index(l.mv) as u16, share)
            })
            .collect();
        let chosen = if plies < c.temperature_plies && total > 0 && report.proven.is_none() {
            draw_by_visits(&lines, total, &mut rng)
        } else {
            report.best_move
        };
        let Some(m) = chosen.or(report.best_move) else {
            break;
        };
        let legal = position.count_moves().min(u16::MAX as usize) as u16;
        let forced = if position.forcing_moves(&mut moves) {
            moves.len() as u16
        } else {
            legal
        };
        pending.push((
            Sample {
                features: features.clone(),
                policy,
                episode: Some(Episode {
                    outcome: 3,
                    legal,
                    forced,
                    proof: 0,
                }),
                ..Sample::default()
            },
            position.clone(),
        ));
        position.play(m);
        if !search.advance(m) {
            search.set_position(position.clone());
        }
        plies += 1;
    }
    let outcome = position.outcome();
    let result = match outcome {
        Some(o) if o.is_draw() => "draw",
        Some(o) if o.winner() == Some(Player(0)) => "first player wins",
        Some(_) => "second player wins",
        None => "length cap (draw)",
    };
    let positions: Vec<&G> = pending.iter().map(|(_, pos)| pos).collect();
    let exact = exact_values(&positions, c.solve_nodes, stop);
    if stop.is_raised() {
        // Its labels may be cut short: the game is played again by a rerun.
        return None;
    }
    let labelled = exact.iter().filter(|v| v.is_some()).count();
    let samples = pending
        .into_iter()
        .zip(exact)
        .map(|((mut s, pos), exact)| {
            let u = match exact.map(|e| e.value) {
                Some(Value::Win) => 1.0,
                Some(Value::Loss) => -1.0,
                Some(_) => 0.0,
                None => outcome.map_or(0.0, |o| o.utility(pos.to_move())),
            };
            if let (true, Some(e)) = (c.proof_targets, exact) {
                if let (Value::Win, Some(best)) = (e.value, e.best) {
                    let want = pos.policy_index(best) as u16;
                    for (p, q) in &mut s.policy {
                        *q = if *p == want { 1.0 } else { 0.0 };
                    }
                }
                if let (Value::Win | Value::Loss, Some(size), Some(ep)) =
                    (e.value, e.proof_size, &mut s.episode)
                {
                    ep.proof = size.min(u32::MAX as u64) as u32;
                }
            }
            if let Some(e) = &mut s.episode {
                // The game's own end, whatever an exact label says (the labels of the
                // proof costs follow this game's moves).
                e.outcome = match outcome {
                    Some(o) if o.is_draw() => 1,
                    Some(o) if o.winner() == Some(pos.to_move()) => 0,
                    Some(_) => 2,
                    None => 3,
                };
            }
            s.wdl = if u > 0.0 {
                [1.0, 0.0, 0.0]
            } else if u < 0.0 {
                [0.0, 0.0, 1.0]
            } else {
                [0.0, 1.0, 0.0]
            };
            s
        })
        .collect();
    Some((GameRecord { number, samples }, result, labelled))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect4::ConnectFour;
    use crate::game::features::Features;
    use crate::game::Rules;
    use crate::nn::data::read_samples;
    use std::sync::atomic::Ordering;

    /// The perfect solver's values of `tests/data/cfour-solved.txt` positions with `plies`.
    fn solved(plies: u32) -> Vec<(ConnectFour, Value)> {
        include_str!("../../tests/data/cfour-solved.txt")
            .lines()
            .filter(|l| !l.starts_with('#') && l.contains(&format!("# plies {plies} ")))
            .map(|l| {
                let (pos, rest) = l.split_once('|').unwrap();
                let value = Value::parse(rest.split('#').next().unwrap()).unwrap();
                let pos = pos.trim().strip_prefix("cfour ").unwrap();
                (ConnectFour::parse_position(pos).unwrap(), value)
            })
            .collect()
    }

    #[test]
    fn exact_labels_are_the_perfect_solvers_values_and_stop_at_the_first_unproved() {
        let late = solved(22);
        assert!(late.len() >= 3);
        let positions: Vec<&ConnectFour> = late.iter().map(|(p, _)| p).collect();
        let never = StopFlag::default();
        let exact = exact_values(&positions, 1_000_000, &never);
        for ((pos, truth), got) in late.iter().zip(&exact) {
            let got = got.expect("proved");
            assert_eq!(got.value, *truth, "{}", pos.to_position());
            // A win comes with a move that keeps it (and a proof size where the table kept it).
            if got.value == Value::Win {
                let mut next = pos.clone();
                next.play(got.best.expect("a winning move"));
                let after = solve::solve(&next, &SolveConfig::default()).value;
                assert_eq!(after, Value::Loss, "{}", pos.to_position());
                assert_ne!(got.proof_size, Some(0));
            }
        }
        // The start position is far beyond 100,000 nodes: it and everything before it stays
        // unlabelled, the positions after it are labelled.
        let start = ConnectFour::start();
        let mixed = [&start, &start, positions[0]];
        let values: Vec<Option<Value>> = exact_values(&mixed, 100_000, &never)
            .iter()
            .map(|e| e.map(|e| e.value))
            .collect();
        assert_eq!(values, [None, None, Some(late[0].1)]);
        assert!(exact_values(&positions, 0, &never)
            .iter()
            .all(|e| e.is_none()));
    }

    /// A scratch file path of this test process (removed first).
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gpn-learn-selfplay-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join(name);
        let _ = std::fs::remove_file(&path);
        path
    }

    /// Quick Connect Four self-play into `out`.
    fn quick(out: PathBuf, games: u32) -> SelfplayConfig {
        SelfplayConfig {
            games,
            iterations: 20,
            engine: "sb-uct".into(),
            ..SelfplayConfig::new("cfour", out)
        }
    }

    #[test]
    fn games_start_from_the_given_positions_in_turn_and_a_bad_one_is_refused() {
        let starts = ["7/7/7/7/7/3P3 b", "7/7/7/7/7/Pp1P1p1 w"];
        let out = scratch("starts.gpns");
        let config = SelfplayConfig {
            starts: starts.iter().map(|s| s.to_string()).collect(),
            random_plies: 0,
            ..quick(out.clone(), 4)
        };
        play(&config, &StopFlag::default(), &mut |_| Ok(())).expect("plays");
        let file = read_samples(&out).expect("readable");
        let mut features = Vec::new();
        for game in &file.games {
            let start = ConnectFour::parse_position(starts[game.number as usize % 2]).unwrap();
            start.features(&mut features);
            assert_eq!(game.samples[0].features, features, "game {}", game.number);
        }
        assert_eq!(file.games.len(), 4);
        let bad = SelfplayConfig {
            starts: vec![starts[0].into(), "7/7/9 w".into()],
            ..quick(scratch("bad.gpns"), 1)
        };
        let refused = play(&bad, &StopFlag::default(), &mut |_| Ok(())).unwrap_err();
        assert!(
            refused.to_string().contains("start position 2"),
            "{refused}"
        );
        assert!(!bad.out.exists(), "a refused run leaves no file");
    }

    #[test]
    fn games_are_reported_as_written_resumed_by_a_rerun_and_the_same_for_the_same_seed() {
        let (a, b) = (scratch("a.gpns"), scratch("b.gpns"));
        let mut written = Vec::new();
        let report = play(&quick(a.clone(), 3), &StopFlag::default(), &mut |p| {
            match p {
                Progress::GameWritten(g) => written.push(g.number),
                other => panic!("unexpected {other}"),
            }
            Ok(())
        })
        .expect("plays");
        assert_eq!(written, [0, 1, 2]);
        assert_eq!(
            (report.played, report.games_in_file, report.stopped),
            (3, 3, false)
        );
        let file = read_samples(&a).expect("readable");
        let positions: usize = file.games.iter().map(|g| g.samples.len()).sum();
        assert_eq!(report.positions, positions);
        assert!(
            report.to_string().starts_with("selfplay cfour: 3 games ("),
            "{report}"
        );
        // Nothing is missing: the rerun plays nothing. A longer run plays only the new games.
        let again = play(&quick(a.clone(), 3), &StopFlag::default(), &mut |_| Ok(())).unwrap();
        assert_eq!((again.played, again.positions), (0, 0));
        // Played in two runs or in one, the games are the same.
        play(&quick(b.clone(), 1), &StopFlag::default(), &mut |_| Ok(())).unwrap();
        play(&quick(b.clone(), 3), &StopFlag::default(), &mut |_| Ok(())).unwrap();
        assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    }

    #[test]
    fn a_stop_raised_mid_run_drops_the_game_in_progress_and_keeps_the_finished_ones() {
        let out = scratch("stopped.gpns");
        let stop = StopFlag::default();
        let mut events = Vec::new();
        let report = play(&quick(out.clone(), 5), &stop, &mut |p| {
            // Raised as the first game is written: the second one is cut.
            stop.0.store(true, Ordering::SeqCst);
            events.push(p.to_string());
            Ok(())
        })
        .expect("a stop is no error");
        assert!(report.stopped);
        assert_eq!((report.played, report.games_in_file), (1, 1));
        assert_eq!(events.len(), 2, "{events:?}");
        assert!(events[0].starts_with("game 0: "), "{events:?}");
        assert_eq!(
            events[1],
            "interrupted: game 1 dropped, the file holds every finished game"
        );
        assert_eq!(read_samples(&out).unwrap().games.len(), 1);
    }

    #[test]
    fn a_failing_callback_ends_the_run_and_bad_settings_are_refused() {
        let out = scratch("failing.gpns");
        let closed = || std::io::Error::from(std::io::ErrorKind::BrokenPipe);
        let err = play(&quick(out.clone(), 3), &StopFlag::default(), &mut |_| {
            Err(closed())
        });
        assert!(matches!(err, Err(Error::Output(_))), "{err:?}");
        // The game whose report failed was written before its report.
        assert_eq!(read_samples(&out).unwrap().games.len(), 1);
        let random = SelfplayConfig {
            engine: "random".into(),
            ..quick(out.clone(), 1)
        };
        let err = play(&random, &StopFlag::default(), &mut |_| Ok(())).unwrap_err();
        assert!(err.to_string().contains("not 'random'"), "{err}");
        let kalah = SelfplayConfig::new("kalah", out);
        let err = play(&kalah, &StopFlag::default(), &mut |_| Ok(())).unwrap_err();
        assert!(err.to_string().contains("no network encoding"), "{err}");
    }
}
