//! `gpn selfplay`: games of the search against itself, written as training positions.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use super::{note, CliError};
use crate::arena::spec::{parse_agent_spec, AgentSpec};
use crate::game::registry::{self, GameVisitor};
use crate::game::{Game, GameError, MoveList, Player};
use crate::nn::data::{GameRecord, SampleWriter};
use crate::nn::sample::{Episode, Sample};
use crate::rng::{mix64, Rng};
use crate::search::{Limits, Search, SearchParams};
use crate::solve::{self, Algo, SolveConfig, Value};

/// The transposition table of each labelling solve, in MB: small, since most proofs are short
/// and a larger table costs its clearing at every position.
const SOLVE_MEMORY_MB: usize = 8;

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
    gpn selfplay cfour --games 10 --engine \"sb-uct\" --iterations 100 --temperature-plies 6 --out t.gpns";

#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// The game (one with a network encoding; any other is refused with the list)
    #[arg(value_name = "game")]
    game: String,
    /// Games the file holds when the run ends
    #[arg(long, value_name = "n", default_value_t = 100, value_parser = super::count::<u32>)]
    games: u32,
    /// Search iterations per move
    #[arg(long, value_name = "n", default_value_t = 400, value_parser = super::positive::<u64>)]
    iterations: u64,
    /// The engine, an agent spec of `gpn match` other than random
    #[arg(long, value_name = "agent", default_value = "default")]
    engine: String,
    /// Random plies from the start before the search plays (not recorded)
    #[arg(long, value_name = "n", default_value_t = 2, value_parser = super::count::<u32>)]
    random_plies: u32,
    /// Recorded plies whose move is drawn in proportion to the root visits (then the best)
    #[arg(long, value_name = "n", default_value_t = 8, value_parser = super::count::<u32>)]
    temperature_plies: u32,
    /// With a network: the share of Dirichlet noise mixed into the root's priors before every
    /// move (AlphaZero's 0.25; 0: none)
    #[arg(long, value_name = "x", default_value_t = 0.25, value_parser = super::share)]
    noise: f64,
    /// The Dirichlet noise's concentration (AlphaZero: 0.3 in chess, 0.03 in Go; smaller for
    /// more moves)
    #[arg(long, value_name = "a", default_value_t = 0.3, value_parser = parse_alpha)]
    noise_alpha: f64,
    /// Seed of the run
    #[arg(long, value_name = "s", default_value_t = 1, value_parser = super::count::<u64>)]
    seed: u64,
    /// Label positions with their exact value where DFPN proves it within this many nodes
    /// (from the game's end backwards, until a position fails); 0: the game's result only
    #[arg(long, value_name = "n", default_value_t = 0, value_parser = super::count::<u64>)]
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

struct SelfplayVisitor<'a> {
    args: SelfplayArgs,
    params: SearchParams,
    out: &'a mut dyn Write,
}

impl GameVisitor for SelfplayVisitor<'_> {
    type Output = Result<Added, CliError>;
    fn visit<G: Game>(self) -> Result<Added, CliError> {
        let a = &self.args;
        super::train::require_encoding::<G>()?;
        self.params
            .check_network_for::<G>()
            .map_err(|e| CliError::Usage(e.to_string()))?;
        let mut writer = SampleWriter::append(&a.out, G::INFO.name)
            .map_err(|e| CliError::Io(format!("cannot use {}: {e}", a.out.display())))?;
        let have: std::collections::HashSet<u32> = writer.numbers().iter().copied().collect();
        let started = Instant::now();
        let (mut positions, mut played, mut labelled) = (0usize, 0u32, 0usize);
        for number in 0..a.games {
            if have.contains(&number) {
                continue;
            }
            let Some((record, result, exact)) = self_play_game::<G>(a, &self.params, number) else {
                note(format_args!(
                    "interrupted: game {number} dropped, the file holds every finished game"
                ));
                break;
            };
            writer
                .write(&record)
                .map_err(|e| CliError::Io(format!("cannot write {}: {e}", a.out.display())))?;
            positions += record.samples.len();
            labelled += exact;
            played += 1;
            if !a.quiet {
                note(format_args!(
                    "game {number}: {} plies recorded ({exact} with exact values), {result} ({:.1} s)",
                    record.samples.len(),
                    started.elapsed().as_secs_f64()
                ));
            }
        }
        writeln!(
            self.out,
            "selfplay {}: {played} games ({positions} positions, {labelled} with exact values) added, {} in {}",
            G::INFO.name,
            writer.numbers().len(),
            a.out.display()
        )?;
        Ok(Added {
            positions,
            labelled,
        })
    }
}

/// What a run of [`play`] added to its file.
#[derive(Clone, Copy, Debug, Default)]
pub struct Added {
    /// Positions of the games this run played.
    pub positions: usize,
    /// Of those, the positions with exact values.
    pub labelled: usize,
}

/// A position's proven value, with a move that achieves it and the proof's size where known.
#[derive(Clone, Copy)]
struct Exact {
    value: Value,
    best: Option<crate::game::Move>,
    proof_size: Option<u64>,
}

/// The exact value of each position (for its side to move) where DFPN proves it within `nodes`
/// nodes, trying them from the last backwards and stopping at the first it cannot prove (the
/// positions of a game: earlier ones are harder). 0 nodes: none. The game's forcing rule
/// prunes the proofs (it never changes a value).
fn exact_values<G: Game>(positions: &[&G], nodes: u64) -> Vec<Option<Exact>> {
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
        stop: super::interrupt::installed(),
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
/// exact values, or `None` when Ctrl-C stopped it.
fn self_play_game<G: Game>(
    a: &SelfplayArgs,
    params: &SearchParams,
    number: u32,
) -> Option<(GameRecord, &'static str, usize)> {
    let seed = mix64(a.seed ^ mix64(number as u64 + 1));
    let mut rng = Rng::new(seed);
    let mut moves = MoveList::new();
    let mut position = G::start();
    for _ in 0..a.random_plies {
        match position.random_move(&mut rng, &mut moves) {
            Some(m) if position.outcome().is_none() => position.play(m),
            _ => break,
        }
    }
    let params = SearchParams {
        seed,
        ..params.clone()
    };
    let mut search: Search<G, 2> = Search::new(params, position.clone());
    // Ctrl-C stops the move in progress too, not only the game between moves.
    let limits = Limits {
        iterations: Some(a.iterations),
        stop: super::interrupt::installed(),
        ..Limits::default()
    };
    let mut pending: Vec<(Sample, G)> = Vec::new();
    let mut features = Vec::new();
    let mut plies = 0u32;
    while position.outcome().is_none() && plies < G::MAX_PLIES {
        if super::interrupt::interrupted() {
            return None;
        }
        search.add_root_noise(a.noise_alpha, a.noise, &mut rng);
        let report = search.run(&limits);
        if super::interrupt::interrupted() {
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
        let chosen = if plies < a.temperature_plies && total > 0 && report.proven.is_none() {
            // Drawn in proportion to the visits.
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
    let exact = exact_values(&positions, a.solve_nodes);
    if super::interrupt::interrupted() {
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
            if let (true, Some(e)) = (a.proof_targets, exact) {
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

pub fn run(args: SelfplayArgs, out: &mut dyn Write) -> Result<(), CliError> {
    play(args, out).map(|_| ())
}

/// `gpn selfplay`: plays the games the file lacks and says what it added.
pub fn play(args: SelfplayArgs, out: &mut dyn Write) -> Result<Added, CliError> {
    let params = match parse_agent_spec(&args.engine).map_err(CliError::Usage)? {
        AgentSpec::Random => {
            return Err(CliError::Usage(
                "selfplay needs a search engine, not 'random'".into(),
            ))
        }
        AgentSpec::Search(p) => p,
        AgentSpec::Defaults(extra) => {
            let game = registry::canonical_name(&args.game)
                .ok_or_else(|| GameError::UnknownGame(args.game.clone()))?;
            let mut p = SearchParams::for_game(game);
            p.apply_spec(&extra)
                .map_err(|e| CliError::Usage(format!("engine '{}': {e}", args.engine)))?;
            p
        }
    };
    // Ctrl-C ends the run after the games already written.
    super::interrupt::flag();
    let game = args.game.clone();
    let visitor = SelfplayVisitor { args, params, out };
    registry::visit(&game, visitor)?
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect4::ConnectFour;

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
        let exact = exact_values(&positions, 1_000_000);
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
        let values: Vec<Option<Value>> = exact_values(&mixed, 100_000)
            .iter()
            .map(|e| e.map(|e| e.value))
            .collect();
        assert_eq!(values, [None, None, Some(late[0].1)]);
        assert!(exact_values(&positions, 0).iter().all(|e| e.is_none()));
    }
}
