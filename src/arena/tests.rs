//! Arena tests: pairing and seats, reproducibility, illegal moves, endings, SPRT early stop.

use super::agents::{FirstMoveAgent, RandomAgent};
use super::*;
use crate::game::breakthrough::Breakthrough;
use crate::game::connect4::ConnectFour;
use crate::game::minishogi::Minishogi;
use crate::game::registry::{self, GameVisitor};
use crate::game::MoveList;
use crate::game::Rules;

fn random_factory<G: Game>() -> Box<AgentFactory<G>> {
    Box::new(|seed| Box::new(RandomAgent::new(seed)) as Box<dyn Agent<G>>)
}

fn quiet<G: Game>(games: u32) -> MatchConfig {
    MatchConfig {
        games,
        budget: Budget::Iterations(1),
        progress: false,
        ..MatchConfig::for_game::<G>()
    }
}

/// The games file of a report, as `gpn match --games-file --games-format pgn` writes it (PGN has
/// no think times, which differ from run to run).
fn games_file(report: &MatchReport) -> String {
    let header = records::MatchHeader {
        game: report.game,
        names: (&report.names.0, &report.names.1),
        seed: report.config.seed,
        budget: report.config.budget,
        date: "2026.11.25".to_string(),
        run: None,
    };
    let mut out = Vec::new();
    for g in &report.games {
        records::write_record(records::RecordFormat::Pgn, &header, g, &mut out).unwrap();
    }
    String::from_utf8(out).unwrap()
}

/// Plays uniformly random moves while checking that `new_game` + `observe` reproduce the
/// arena's position at every `choose`.
struct TrackingAgent<G: Game> {
    inner: RandomAgent,
    position: Option<G>,
}

impl<G: Game> Agent<G> for TrackingAgent<G> {
    fn new_game(&mut self, start: &G) {
        self.position = Some(start.clone());
    }
    fn choose(&mut self, record: &Record<G>, budget: &Budget) -> Move {
        assert_eq!(self.position.as_ref(), Some(record.position()));
        assert_eq!(*budget, Budget::Iterations(1));
        self.inner.choose(record, budget)
    }
    fn observe(&mut self, m: Move) {
        if let Some(p) = self.position.as_mut() {
            p.play(m);
        }
    }
}

/// Always answers a move code no game uses.
struct IllegalAgent;

impl<G: Game> Agent<G> for IllegalAgent {
    fn new_game(&mut self, _start: &G) {}
    fn choose(&mut self, _record: &Record<G>, _budget: &Budget) -> Move {
        Move(u16::MAX)
    }
    fn observe(&mut self, _m: Move) {}
}

/// Plays a fixed cycle of moves, by ply number.
struct ScriptAgent(&'static [&'static str]);

impl<G: Game> Agent<G> for ScriptAgent {
    fn new_game(&mut self, _start: &G) {}
    fn choose(&mut self, record: &Record<G>, _budget: &Budget) -> Move {
        let text = self.0[record.plies() as usize % self.0.len()];
        record.position().parse_move(text).unwrap_or_default()
    }
    fn observe(&mut self, _m: Move) {}
}

#[test]
fn pairs_share_openings_and_swap_seats() {
    let config = MatchConfig {
        opening_plies: 6,
        concurrency: 2,
        ..quiet::<ConnectFour>(8)
    };
    let tracking: Box<AgentFactory<ConnectFour>> = Box::new(|seed| {
        Box::new(TrackingAgent {
            inner: RandomAgent::new(seed),
            position: None,
        })
    });
    let report = run_match(&config, &*tracking, &*tracking, ("t1", "t2"));
    assert_eq!(report.games.len(), 8);
    for (i, g) in report.games.iter().enumerate() {
        assert_eq!(g.index as usize, i);
        assert_eq!(g.pair(), g.index / 2);
        assert_eq!(
            g.a_seat(),
            Player((i % 2) as u8),
            "A moves first in even games"
        );
        assert_eq!(g.opening.len(), 6);
        assert_eq!(g.moves[..6], g.opening[..]);
        assert_eq!(g.moves.len() as u32, g.plies);
        assert_eq!(
            (g.think_moves[0] + g.think_moves[1] + 6) as usize,
            g.moves.len()
        );
    }
    for pair in report.games.chunks(2) {
        assert_eq!(pair[0].opening, pair[1].opening);
    }
    let distinct: std::collections::HashSet<_> =
        report.games.iter().map(|g| g.opening.clone()).collect();
    assert_eq!(distinct.len(), 4, "each pair draws its own opening");
    // Per-game agent seeds differ by game and by side.
    let seeds: std::collections::HashSet<u64> = (0..8)
        .flat_map(|i| [derive_seed(1, 2, i), derive_seed(1, 3, i)])
        .collect();
    assert_eq!(seeds.len(), 16);
}

#[test]
fn results_are_from_a_point_of_view() {
    let report = run_match(
        &quiet::<ConnectFour>(10),
        &*random_factory::<ConnectFour>(),
        &*random_factory::<ConnectFour>(),
        ("a", "b"),
    );
    for g in &report.games {
        let (a, b) = (g.a_seat().index(), 1 - g.a_seat().index());
        let expected = match g.ranks[a].cmp(&g.ranks[b]) {
            std::cmp::Ordering::Equal => GameResult::Draw,
            std::cmp::Ordering::Less => GameResult::Win,
            std::cmp::Ordering::Greater => GameResult::Loss,
        };
        assert_eq!(g.result, expected);
    }
    let wdl = report.wdl();
    assert_eq!(wdl.games(), 10);
    let (first, second) = (report.wdl_in_seat(Player(0)), report.wdl_in_seat(Player(1)));
    assert_eq!(first.games() + second.games(), 10);
    let p0 = report.wdl_first_player();
    assert_eq!(p0.wins, first.wins + second.losses);
}

#[test]
fn same_config_same_games_whatever_the_concurrency() {
    let a = random_factory::<Breakthrough<6>>();
    let b = random_factory::<Breakthrough<6>>();
    let config = MatchConfig {
        opening_plies: 2,
        ..quiet::<Breakthrough<6>>(12)
    };
    let one = run_match(&config, &*a, &*b, ("a", "b"));
    let parallel = MatchConfig {
        concurrency: 3,
        ..config.clone()
    };
    let three = run_match(&parallel, &*a, &*b, ("a", "b"));
    let again = run_match(&parallel, &*a, &*b, ("a", "b"));
    assert_eq!(games_file(&one), games_file(&three));
    assert_eq!(games_file(&three), games_file(&again));
    assert_eq!(one.wdl(), three.wdl());
    let other_seed = MatchConfig { seed: 2, ..config };
    let other = run_match(&other_seed, &*a, &*b, ("a", "b"));
    assert_ne!(games_file(&one), games_file(&other));
}

#[test]
fn an_illegal_move_loses_and_is_logged() {
    let illegal: Box<AgentFactory<ConnectFour>> = Box::new(|_| Box::new(IllegalAgent));
    let config = MatchConfig {
        opening_plies: 3,
        ..quiet::<ConnectFour>(4)
    };
    let report = run_match(&config, &*illegal, &*random_factory(), ("bad", "random"));
    for g in &report.games {
        assert_eq!(g.result, GameResult::Loss);
        assert_eq!(g.termination, Termination::IllegalMove);
        assert_eq!(g.moves.last().map(String::as_str), Some("illegal:0xffff"));
        assert_eq!(g.plies as usize, g.moves.len() - 1);
        assert_eq!(g.think_moves[0], 1);
    }
    // A moves first in even games: the opening's 3 plies leave B to move, who plays once.
    assert_eq!(report.games[0].plies, 4);
    assert_eq!(report.games[1].plies, 3);
    let text = output::format_report(&report);
    assert!(text.contains("illegal-move 4 (by A 4, by B 0)"), "{text}");
    assert!(text.contains("elo -inf"), "{text}");
}

#[test]
fn length_cap_and_repetition_are_reported() {
    // No Breakthrough game can be won in 6 plies.
    let config = MatchConfig {
        max_plies: 6,
        ..quiet::<Breakthrough<8>>(4)
    };
    let report = run_match(
        &config,
        &*random_factory::<Breakthrough<8>>(),
        &*random_factory::<Breakthrough<8>>(),
        ("a", "b"),
    );
    assert_eq!(report.count(Termination::LengthCap), 4);
    assert!(report
        .games
        .iter()
        .all(|g| g.plies == 6 && g.result == GameResult::Draw));

    // Kings step out and back: the start position recurs until the repetition rule ends it.
    let script: Box<AgentFactory<Minishogi>> =
        Box::new(|_| Box::new(ScriptAgent(&["a1b2", "e5d4", "b2a1", "d4e5"])));
    let report = run_match(&quiet::<Minishogi>(2), &*script, &*script, ("s", "s"));
    for g in &report.games {
        assert_eq!(g.termination, Termination::Repetition, "{:?}", g.moves);
        assert!(g.plies < 40, "{}", g.plies);
    }
}

#[test]
fn sprt_stops_after_completing_pairs() {
    let illegal: Box<AgentFactory<ConnectFour>> = Box::new(|_| Box::new(IllegalAgent));
    for concurrency in [1, 3] {
        let config = MatchConfig {
            concurrency,
            sprt: Some(SprtConfig::new(0.0, 50.0, 0.05, 0.05).unwrap()),
            ..quiet::<ConnectFour>(400)
        };
        let report = run_match(&config, &*illegal, &*random_factory(), ("bad", "random"));
        let sprt = report.sprt.unwrap();
        let (decision, after) = sprt.decided.unwrap();
        assert_eq!(decision, SprtDecision::AcceptH0);
        assert!(after < 40, "{after}");
        assert!(report.stopped_early());
        assert_eq!(report.games.len() % 2, 0, "pairs are completed");
        if concurrency == 1 {
            // One worker records each game before claiming the next: no game is wasted.
            assert_eq!(report.games.len() as u32, after + after % 2);
        }
        assert!(report.games.len() < 60, "{}", report.games.len());
        assert!(sprt.status.llr <= sprt.status.lower);
        let text = output::format_report(&report);
        assert!(text.contains("H0 accepted after"), "{text}");
    }
}

#[test]
fn a_shard_plays_its_pairs_and_leaves_the_sprt_to_the_merge() {
    let illegal: Box<AgentFactory<ConnectFour>> = Box::new(|_| Box::new(IllegalAgent));
    let config = MatchConfig {
        concurrency: 2,
        sprt: Some(SprtConfig::new(0.0, 50.0, 0.05, 0.05).unwrap()),
        shard: Some(Shard { index: 2, count: 3 }),
        ..quiet::<ConnectFour>(101)
    };
    let report = run_match(&config, &*illegal, &*random_factory(), ("bad", "random"));
    // Pairs 2, 5, ..., 50 (the last one game 100 alone): 17 pairs, 33 games, all played although
    // the shard's own games cross the H0 bound.
    let indexes: Vec<u32> = report.games.iter().map(|g| g.index).collect();
    assert_eq!(indexes, Shard { index: 2, count: 3 }.games(101));
    assert_eq!(indexes.len(), 33);
    assert!(indexes.iter().all(|g| (g / 2) % 3 == 2));
    let sprt = report.sprt.unwrap();
    assert!(sprt.decided.is_none());
    assert!(sprt.status.llr <= sprt.status.lower);
    assert!(!report.stopped_early() && !report.interrupted);
    // Each game is the one the whole match plays at that index.
    let whole = run_match(
        &MatchConfig {
            sprt: None,
            shard: None,
            ..config.clone()
        },
        &*random_factory::<ConnectFour>(),
        &*random_factory::<ConnectFour>(),
        ("a", "b"),
    );
    let shard = run_match(
        &config,
        &*random_factory::<ConnectFour>(),
        &*random_factory(),
        ("a", "b"),
    );
    assert_eq!(shard.games.len(), 33);
    for g in &shard.games {
        let w = whole.games.iter().find(|w| w.index == g.index).unwrap();
        assert_eq!(
            (&g.opening, &g.moves, g.a_seat(), g.result),
            (&w.opening, &w.moves, w.a_seat(), w.result)
        );
    }
    let text = output::format_report(&report);
    assert!(
        text.contains("games 33 of 33 (shard 2/3 of 101),"),
        "{text}"
    );
    assert!(text.contains("H0 accepted on the totals"), "{text}");
}

/// Random against first-move agents on any registered game: every game finishes by the rules,
/// and the game list replays from the start position.
struct RandomVsFirst;

impl GameVisitor for RandomVsFirst {
    type Output = MatchReport;
    fn visit<G: Game>(self) -> MatchReport {
        let first: Box<AgentFactory<G>> = Box::new(|_| Box::new(FirstMoveAgent::new()));
        let config = MatchConfig {
            concurrency: 2,
            ..quiet::<G>(6)
        };
        let report = run_match(
            &config,
            &*random_factory::<G>(),
            &*first,
            ("random", "first"),
        );
        for g in &report.games {
            let mut game = G::start();
            let mut list = MoveList::new();
            for text in &g.moves {
                game.legal_moves(&mut list);
                let m = game.parse_move(text).unwrap();
                assert!(list.contains(m));
                game.play(m);
            }
            let ranks: Option<Vec<u8>> = game
                .outcome()
                .map(|o| (0..2).map(|s| o.rank(Player(s))).collect());
            assert_eq!(ranks.as_ref(), Some(&g.ranks), "{}", G::INFO.name);
        }
        report
    }
}

#[test]
fn random_against_first_move_through_the_registry() {
    for name in ["cfour", "breakthrough"] {
        let report = registry::visit(name, RandomVsFirst).unwrap();
        assert_eq!(report.game, name);
        assert_eq!(report.wdl().games(), 6);
        assert_eq!(report.count(Termination::Rules), 6);
        let text = output::format_report(&report);
        assert!(text.starts_with(&format!("match {name}: A = random, B = first\n")));
        let mut csv = Vec::new();
        output::write_csv(&report, &mut csv).unwrap();
        assert_eq!(String::from_utf8(csv).unwrap().lines().count(), 7);
        let mut json = Vec::new();
        output::write_json(&report, &mut json).unwrap();
        let json = String::from_utf8(json).unwrap();
        assert!(json.contains("\"played\": 6,"), "{json}");
        assert_eq!(json.matches("\"index\":").count(), 6);
    }
}

#[test]
fn openings_that_end_the_game_are_redrawn() {
    // 40 random plies of Connect Four usually end the game; the opening must leave it open.
    for seed in 0..20 {
        let moves = random_opening::<ConnectFour>(40, ConnectFour::MAX_PLIES, seed);
        let mut game = ConnectFour::start();
        for m in moves {
            game.play(m);
        }
        assert!(game.outcome().is_none());
    }
    assert_eq!(
        random_opening::<ConnectFour>(5, 100, 7),
        random_opening::<ConnectFour>(5, 100, 7)
    );
}

/// A raised stop flag starts no game; `on_game` sees each finished game once, as it ends.
#[test]
fn stop_flag_and_on_game() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    let flag = Arc::new(AtomicBool::new(false));
    let config = MatchConfig {
        concurrency: 2,
        stop: Some(StopFlag(Arc::clone(&flag))),
        ..quiet::<ConnectFour>(9)
    };
    let mut seen = Vec::new();
    let report = run_match_with::<ConnectFour>(
        &config,
        &*random_factory(),
        &*random_factory(),
        ("a", "b"),
        &mut |g: &GameRecord, wdl: &Wdl| seen.push((g.index, wdl.games())),
    );
    assert!(!report.interrupted);
    assert_eq!(report.games.len(), 9);
    seen.sort_unstable();
    assert_eq!(
        seen.iter().map(|s| s.0).collect::<Vec<_>>(),
        (0..9).collect::<Vec<_>>()
    );
    let p = report.pentanomial();
    assert_eq!((p.pairs(), p.unpaired), (4, 1));

    flag.store(true, Ordering::SeqCst);
    let report =
        run_match::<ConnectFour>(&config, &*random_factory(), &*random_factory(), ("a", "b"));
    assert!(report.interrupted);
    assert!(report.games.is_empty());
}

/// A stop raised during a move ends that move's search at once (not after its budget), and the
/// game it belonged to is abandoned, not recorded.
#[test]
fn stop_flag_cuts_the_search_in_progress() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use crate::search::SearchParams;
    use search_agent::SearchAgent;

    let flag = Arc::new(AtomicBool::new(false));
    let config = MatchConfig {
        // Hours a move: only the flag can end this match.
        budget: Budget::Iterations(u64::MAX / 4),
        stop: Some(StopFlag(Arc::clone(&flag))),
        ..quiet::<ConnectFour>(2)
    };
    let params = SearchParams::default();
    let search: Box<AgentFactory<ConnectFour>> = Box::new(move |seed| {
        Box::new(SearchAgent::<ConnectFour, 2>::new(&params, seed)) as Box<dyn Agent<ConnectFour>>
    });
    let raiser = {
        let flag = Arc::clone(&flag);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            flag.store(true, Ordering::SeqCst);
            Instant::now()
        })
    };
    let report = run_match::<ConnectFour>(&config, &*search, &*search, ("a", "b"));
    let raised = raiser.join().unwrap();
    assert!(
        raised.elapsed() < Duration::from_secs(2),
        "{:?}",
        raised.elapsed()
    );
    assert!(report.interrupted);
    assert!(report.games.is_empty());
}
