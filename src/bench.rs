//! `gpn bench`: fixed-seed random playouts from each game's start, for speed and a signature.
//!
//! The signature (sum of playout lengths) depends only on the rules and the PRNG stream, so it
//! changes exactly when a game's rules or move order change; the rates are what we compare.

use std::io::Write;
use std::time::Instant;

use crate::arena::spec::{parse_agent_spec, AgentSpec};
use crate::game::record::Record;
use crate::game::registry::GameVisitor;
use crate::game::{Game, GameError, MoveList, Player};
use crate::rng::Rng;
use crate::search::scaling::{LockProfile, PROJECTED_THREADS};
use crate::search::{Algorithm, Limits, Search, SearchParams};

/// Default number of playouts per game.
pub const DEFAULT_PLAYOUTS: u32 = 10_000;
/// Default seed of the playouts.
pub const DEFAULT_SEED: u64 = 20_240_501;

/// One game's random-playout figures.
#[derive(Clone, Debug)]
pub struct PlayoutReport {
    pub game: &'static str,
    pub playouts: u32,
    pub seconds: f64,
    /// Sum of playout lengths in plies: the signature.
    pub plies: u64,
}

impl PlayoutReport {
    pub fn playouts_per_second(&self) -> f64 {
        self.playouts as f64 / self.seconds.max(1e-9)
    }

    pub fn mean_length(&self) -> f64 {
        self.plies as f64 / self.playouts.max(1) as f64
    }
}

/// Plays `playouts` uniformly random games of `G` from the start (or, with `knowledge`, games
/// of the game's own playout policy, [`crate::game::Heuristics::playout_move`]), rules, repetition
/// and the game-length cap all applied, and times them.
pub fn random_playouts<G: Game>(playouts: u32, seed: u64, knowledge: bool) -> PlayoutReport {
    let mut rng = Rng::new(seed);
    let mut buf = MoveList::new();
    let start = G::start();
    let mut record = Record::new(start.clone(), G::MAX_PLIES);
    let mut plies = 0u64;
    let t0 = Instant::now();
    for _ in 0..playouts {
        record.reset(start.clone());
        while !record.ended_by_history() {
            let position = record.position();
            let next = if knowledge {
                position.playout_move(&mut rng, &mut buf)
            } else {
                position.random_move(&mut rng, &mut buf)
            };
            match next {
                Some(m) => record.play(m),
                None => break,
            }
        }
        plies += record.plies() as u64;
    }
    PlayoutReport {
        game: G::INFO.name,
        playouts,
        seconds: t0.elapsed().as_secs_f64(),
        plies,
    }
}

/// [`random_playouts`] as a registry visitor.
pub struct PlayoutBench {
    pub playouts: u32,
    pub seed: u64,
    /// The game's playout policy instead of uniform moves.
    pub knowledge: bool,
}

impl GameVisitor for PlayoutBench {
    type Output = PlayoutReport;
    fn visit<G: Game>(self) -> PlayoutReport {
        random_playouts::<G>(self.playouts, self.seed, self.knowledge)
    }
}

/// Default number of positions the evaluation bench collects per game.
pub const DEFAULT_EVAL_POSITIONS: usize = 20_000;

/// One game's [`crate::game::Heuristics::evaluate`] timing.
#[derive(Clone, Debug)]
pub struct EvalReport {
    pub game: &'static str,
    /// Whether the game has an evaluation at all ([`crate::game::Heuristics::HAS_EVALUATION`]).
    pub has_evaluation: bool,
    pub calls: u64,
    pub seconds: f64,
    /// Nanoseconds per evaluation by the game's builtin network, if it has one: the features,
    /// the value and the policy over the legal moves, as the search asks for them at a new node.
    pub network_nanos: Option<f64>,
}

impl EvalReport {
    pub fn nanos_per_call(&self) -> f64 {
        self.seconds * 1e9 / self.calls.max(1) as f64
    }
}

/// Nanoseconds per builtin-network evaluation of `G` over `pool` (features, value, and the
/// policy's priors over the legal moves), in passes until at least 200,000 calls.
fn network_speed<G: Game>(pool: &[G]) -> Option<f64> {
    let file = crate::nn::builtin::network(G::INFO.name)?;
    let net = file.net();
    let mut leaf = crate::search::NetLeaf::default();
    let mut moves = MoveList::new();
    let live: Vec<&G> = pool.iter().filter(|p| p.outcome().is_none()).collect();
    let passes = (200_000 / live.len().max(1)).max(1);
    let mut sum = 0.0f32;
    let t0 = Instant::now();
    for _ in 0..passes {
        for pos in &live {
            // The search's own call at a new node.
            pos.legal_moves(&mut moves);
            sum += leaf.value_and_priors(net, *pos, moves.as_slice());
        }
    }
    let seconds = t0.elapsed().as_secs_f64();
    std::hint::black_box(sum);
    Some(seconds * 1e9 / (passes * live.len()).max(1) as f64)
}

/// Times [`crate::game::Heuristics::evaluate`] over `positions` positions of seeded random games of
/// `G` (every position of each game, finished ones excluded), for each player in turn, in passes
/// until at least a million calls, and the game's builtin network over the same positions; the
/// positions are collected before the clock starts.
pub fn evaluation_speed<G: Game>(positions: usize, seed: u64) -> EvalReport {
    let mut rng = Rng::new(seed);
    let mut buf = MoveList::new();
    let mut pool: Vec<G> = Vec::with_capacity(positions);
    while pool.len() < positions.max(1) {
        let mut pos = G::start();
        let mut plies = 0;
        while pool.len() < positions.max(1) && plies < G::MAX_PLIES {
            let Some(m) = pos.random_move(&mut rng, &mut buf) else {
                break;
            };
            pool.push(pos.clone());
            pos.play(m);
            plies += 1;
        }
    }
    let passes = (1_000_000 / pool.len()).max(1);
    let mut sum = 0.0f32;
    let t0 = Instant::now();
    for pass in 0..passes {
        for (i, pos) in pool.iter().enumerate() {
            let player = Player(((i + pass) % G::NUM_PLAYERS) as u8);
            sum += std::hint::black_box(pos).evaluate(player);
        }
    }
    let seconds = t0.elapsed().as_secs_f64();
    std::hint::black_box(sum);
    EvalReport {
        game: G::INFO.name,
        has_evaluation: G::HAS_EVALUATION,
        calls: (passes * pool.len()) as u64,
        seconds,
        network_nanos: network_speed(&pool),
    }
}

/// [`evaluation_speed`] as a registry visitor.
pub struct EvalBench {
    pub positions: usize,
    pub seed: u64,
}

impl GameVisitor for EvalBench {
    type Output = EvalReport;
    fn visit<G: Game>(self) -> EvalReport {
        evaluation_speed::<G>(self.positions, self.seed)
    }
}

/// Default iterations per game and algorithm of the search bench.
pub const DEFAULT_SEARCH_ITERATIONS: u64 = 20_000;

/// One game's search figures for one engine configuration.
#[derive(Clone, Debug)]
pub struct SearchBenchReport {
    pub game: &'static str,
    pub params: SearchParams,
    pub iterations: u64,
    pub seconds: f64,
    /// Nodes created plus the sum of selection depths: changes exactly when search behaviour does.
    pub signature: u64,
    /// With more than one thread, where the threads' time went.
    pub lock: Option<LockProfile>,
    /// With more than one thread, flights that evaluated a node another thread was creating.
    pub collisions: u64,
}

impl SearchBenchReport {
    pub fn iterations_per_second(&self) -> f64 {
        self.iterations as f64 / self.seconds.max(1e-9)
    }
}

/// Searches the start position of `G` for a fixed number of iterations with `params` (whose
/// seed is replaced by `seed`).
pub fn search_from_start<G: Game>(
    params: &SearchParams,
    iterations: u64,
    seed: u64,
) -> SearchBenchReport {
    let params = SearchParams {
        seed,
        ..params.clone()
    };
    /// The search of `G` with its own player count.
    struct Run<'a>(&'a SearchParams, u64);
    impl crate::game::registry::PlayersVisitor for Run<'_> {
        type Output = crate::search::SearchReport;
        fn visit<G: Game, const P: usize>(self) -> crate::search::SearchReport {
            let mut search: Search<G, P> = Search::new(self.0.clone(), G::start());
            search.run(&Limits {
                iterations: Some(self.1),
                ..Limits::default()
            })
        }
    }
    let report = G::with_players(Run(&params, iterations));
    SearchBenchReport {
        game: G::INFO.name,
        params,
        iterations: report.iterations,
        seconds: report.elapsed.as_secs_f64(),
        signature: report.nodes as u64 + report.depth_total,
        lock: report.lock,
        collisions: report.collisions,
    }
}

/// The engines the search bench compares by default: every algorithm with its default options.
pub fn default_search_engines() -> Vec<SearchParams> {
    Algorithm::ALL
        .iter()
        .map(|&algorithm| SearchParams {
            algorithm,
            ..SearchParams::default()
        })
        .collect()
}

/// Reads an engine for the search bench: an agent spec (`default [key=value ...]`, the game's
/// row of the defaults table that `gpn match` and the protocols play, or an algorithm with
/// options) that searches; `random` has nothing to time.
pub fn parse_bench_engine(text: &str) -> Result<AgentSpec, String> {
    match parse_agent_spec(text)? {
        AgentSpec::Random => Err(format!("engine '{}' does not search", text.trim())),
        spec => Ok(spec),
    }
}

/// The parameters `engine` searches `game` with.
fn bench_params(engine: &AgentSpec, game: &str) -> Result<SearchParams, String> {
    engine
        .params_for(game)?
        .ok_or_else(|| "the random agent does not search".to_string())
}

/// The run of median time among an engine's rounds (at least one). Not generic: one sort for
/// every game.
fn median_run(mut runs: Vec<SearchBenchReport>) -> SearchBenchReport {
    runs.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
    runs.swap_remove(runs.len() / 2)
}

/// [`search_from_start`] for several engines, as a registry visitor. With several rounds the
/// engines take turns (so that machine noise hits them alike) and each reports its median time.
pub struct SearchBench {
    pub engines: Vec<SearchParams>,
    pub iterations: u64,
    pub seed: u64,
    pub rounds: u32,
}

impl GameVisitor for SearchBench {
    type Output = Vec<SearchBenchReport>;
    fn visit<G: Game>(self) -> Vec<SearchBenchReport> {
        let mut runs: Vec<Vec<SearchBenchReport>> = vec![Vec::new(); self.engines.len()];
        for _ in 0..self.rounds.max(1) {
            for (k, params) in self.engines.iter().enumerate() {
                runs[k].push(search_from_start::<G>(params, self.iterations, self.seed));
            }
        }
        runs.into_iter().map(median_run).collect()
    }
}

/// Why a bench table could not be made.
#[derive(Debug)]
pub enum BenchError {
    /// The table could not be written.
    Io(std::io::Error),
    /// A game that is not registered.
    Game(GameError),
    /// An engine's options do not apply to a game.
    Spec(String),
}

impl From<std::io::Error> for BenchError {
    fn from(e: std::io::Error) -> Self {
        BenchError::Io(e)
    }
}

impl From<GameError> for BenchError {
    fn from(e: GameError) -> Self {
        BenchError::Game(e)
    }
}

/// The search part's totals: the signature (summed over games and engines), and the iterations
/// and seconds over every search.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchTotals {
    pub signature: u64,
    pub iterations: u64,
    pub seconds: f64,
}

/// A threaded run's lock profile in one line: the serial fraction, the waits, and the speed-ups
/// it projects (Amdahl / queue model, `search::scaling`); then the share of its `iterations`
/// that were `collisions` (a node evaluated twice).
pub fn lock_line(lock: &LockProfile, collisions: u64, iterations: u64) -> String {
    let mut line = format!(
        "serial {:.2} %, waiting {:.1} %, selecting {:.1} %; projected speed-up",
        100.0 * lock.serial_fraction(),
        100.0 * lock.wait_fraction(),
        100.0 * lock.shared_hold as f64 / lock.total().max(1) as f64,
    );
    for n in PROJECTED_THREADS {
        line.push_str(&format!(" {n}:{:.1}/{:.1}", lock.amdahl(n), lock.queue(n)));
    }
    line.push_str(&format!(
        " (Amdahl/queue); collisions {:.2} %",
        100.0 * collisions as f64 / iterations.max(1) as f64
    ));
    line
}

/// The search part of `gpn bench`: iterations/s of each engine from each start position, and
/// the summed node-count signature. Without `--engine` options the engines are every algorithm
/// with its defaults, and the GPN overhead ratios follow; with them, each rate's ratio to the
/// first engine's. The table goes to `out` row by row, as each game is done.
pub fn search_bench(
    out: &mut dyn Write,
    names: &[&str],
    engines: &[(String, AgentSpec)],
    iterations: u64,
    seed: u64,
    rounds: u32,
) -> Result<SearchTotals, BenchError> {
    let custom = !engines.is_empty();
    let defaults: Vec<(String, AgentSpec)> = default_search_engines()
        .into_iter()
        .map(|p| (p.algorithm.name().to_string(), AgentSpec::Search(p)))
        .collect();
    let engines = if custom { engines } else { &defaults[..] };
    writeln!(out)?;
    writeln!(
        out,
        "search: {iterations} iterations from the start position, seed {seed}, iterations/s{}",
        if rounds > 1 {
            format!(" (median of {rounds} interleaved rounds)")
        } else {
            String::new()
        }
    )?;
    if custom {
        for (k, (spec, _)) in engines.iter().enumerate() {
            writeln!(out, "  e{}: {spec}", k + 1)?;
        }
        write!(out, "{:<16}", "game")?;
        for k in 0..engines.len() {
            write!(out, " {:>10}", format!("e{}", k + 1))?;
        }
        for k in 1..engines.len() {
            write!(out, " {:>8}", format!("e{}/e1", k + 1))?;
        }
        writeln!(out, " {:>12}", "signature")?;
    } else {
        write!(out, "{:<16}", "game")?;
        for (name, _) in engines {
            write!(out, " {name:>10}")?;
        }
        writeln!(
            out,
            " {:>8} {:>13} {:>12}",
            "gpn/uct", "sb-gpn/sb-uct", "signature"
        )?;
    }
    let mut total = 0u64;
    let (mut nodes, mut seconds) = (0u64, 0.0f64);
    for &name in names {
        let params = engines
            .iter()
            .map(|(_, e)| bench_params(e, name))
            .collect::<Result<Vec<_>, _>>()
            .map_err(BenchError::Spec)?;
        let reports = crate::game::registry::visit(
            name,
            SearchBench {
                engines: params,
                iterations,
                seed,
                rounds,
            },
        )?;
        let rates: Vec<f64> = reports.iter().map(|r| r.iterations_per_second()).collect();
        for r in &reports {
            nodes += r.iterations;
            seconds += r.seconds;
        }
        let signature: u64 = reports.iter().map(|r| r.signature).sum();
        write!(out, "{name:<16}")?;
        for rate in &rates {
            write!(out, " {rate:>10.0}")?;
        }
        if custom {
            for rate in &rates[1..] {
                write!(out, " {:>8.3}", rate / rates[0].max(1e-9))?;
            }
            writeln!(out, " {signature:>12}")?;
            for (k, r) in reports.iter().enumerate() {
                if let Some(lock) = &r.lock {
                    let line = lock_line(lock, r.collisions, r.iterations);
                    writeln!(out, "  e{}: {line}", k + 1)?;
                }
            }
        } else {
            let rate = |a: Algorithm| {
                reports
                    .iter()
                    .zip(&rates)
                    .find(|(r, _)| r.params.algorithm == a)
                    .map_or(0.0, |(_, &x)| x)
            };
            writeln!(
                out,
                " {:>8.3} {:>13.3} {:>12}",
                rate(Algorithm::Gpn) / rate(Algorithm::Uct).max(1e-9),
                rate(Algorithm::SbGpn) / rate(Algorithm::SbUct).max(1e-9),
                signature
            )?;
        }
        total += signature;
    }
    Ok(SearchTotals {
        signature: total,
        iterations: nodes,
        seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::registry::{visit, GAMES};

    #[test]
    fn a_default_engine_takes_each_games_row_then_its_options() {
        let engine = parse_bench_engine("default c=2").unwrap();
        for game in ["cfour", "breakthrough", "reversi"] {
            let mut expected = SearchParams::for_game(game);
            expected.apply_spec("c=2").unwrap();
            assert_eq!(bench_params(&engine, game).unwrap(), expected, "{game}");
        }
        // The rows differ, so the engine does too.
        assert_ne!(
            bench_params(&engine, "cfour").unwrap(),
            bench_params(&engine, "reversi").unwrap()
        );
        let two = bench_params(&engine.with_threads(2), "cfour").unwrap();
        assert_eq!((two.threads, two.c), (2, 2.0));
        let plain = parse_bench_engine("DEFAULT").unwrap().with_threads(3);
        assert_eq!(plain, AgentSpec::Defaults("threads=3".to_string()));
        let uct = parse_bench_engine("uct threads=2").unwrap();
        assert_eq!(
            bench_params(&uct, "cfour").unwrap().algorithm,
            Algorithm::Uct
        );
        for bad in [
            "",
            "   ",
            "default c=oops",
            "default nonsense",
            "uct c=oops",
            "random",
        ] {
            assert!(parse_bench_engine(bad).is_err(), "{bad:?}");
        }
        for empty in ["", "   "] {
            let err = parse_bench_engine(empty).unwrap_err();
            assert!(
                err.contains("empty spec") && err.contains("default"),
                "{err}"
            );
        }
    }

    #[test]
    fn same_seed_same_signature() {
        for info in GAMES {
            let a = visit(
                info.name,
                PlayoutBench {
                    playouts: 5,
                    seed: 1,
                    knowledge: false,
                },
            )
            .unwrap();
            let b = visit(
                info.name,
                PlayoutBench {
                    playouts: 5,
                    seed: 1,
                    knowledge: false,
                },
            )
            .unwrap();
            assert_eq!(a.plies, b.plies, "{}", info.name);
            assert!(a.plies > 0, "{}", info.name);
        }
    }

    #[test]
    fn search_signature_is_reproducible() {
        let a = visit(
            "cfour",
            SearchBench {
                engines: vec![SearchParams::default()],
                iterations: 500,
                rounds: 1,
                seed: 3,
            },
        )
        .unwrap();
        let b = visit(
            "cfour",
            SearchBench {
                engines: vec![SearchParams::default()],
                iterations: 500,
                rounds: 1,
                seed: 3,
            },
        )
        .unwrap();
        assert_eq!(a[0].signature, b[0].signature);
        assert_eq!(a[0].iterations, 500);
    }

    #[test]
    fn evaluation_bench_times_every_game() {
        for info in GAMES {
            let r = visit(
                info.name,
                EvalBench {
                    positions: 50,
                    seed: 1,
                },
            )
            .unwrap();
            assert!(r.has_evaluation, "{} has no evaluation", info.name);
            assert!(r.calls >= 1_000_000 && r.seconds > 0.0, "{}", info.name);
        }
    }
}
