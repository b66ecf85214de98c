//! Session tests: solving through a session, sessions of more players, history and lines,
//! tree reuse across positions, and repetition inside the search.

use super::*;
use crate::game::ataxx::Ataxx;
use crate::game::Rules;
use crate::search::Limits;

/// A session of `G` that searched its start position for `iterations`.
fn searched<G: Game>(iterations: u64) -> GameSession<G, 2> {
    let mut s = GameSession::<G, 2>::new(SearchParams::default());
    s.set_position(None, &[], Dialect::Native).unwrap();
    s.search.run(&Limits {
        iterations: Some(iterations),
        ..Limits::default()
    });
    s
}

#[test]
fn an_unknown_value_solve_reports_the_solvers_own_nodes_and_time() {
    // Connect Four's start is far beyond 200 ms of any solver. GTP's `gpn-solve` used to
    // be followed by UCI's fallback search for a move to play, whose one iteration in no
    // time left replaced the solver's figures (`nodes 1 time 0.000`).
    let mut s = GameSession::<crate::game::connect4::ConnectFour, 2>::new(SearchParams::default());
    for algo in [Algo::Dfpn, Algo::SbGpn] {
        let control = SearchControl::new();
        control.set_budget(Some(crate::engine::Budget::fixed(
            Duration::from_millis(200),
            Duration::ZERO,
        )));
        let job = SearchJob {
            dialect: Dialect::Gtp,
            solve: Some(SolveJob {
                algo,
                mode: SolveMode::Value,
                max_nodes: None,
                memory_mb: 16,
                threads: 1,
            }),
            ..SearchJob::default()
        };
        let info = s.search(&job, &control, &mut |_| {});
        let solved = info.solved.expect("a solve answer");
        assert_eq!(solved.verdict, Verdict::Unknown, "{algo:?}");
        assert!(info.iterations > 100, "{algo:?}: {} nodes", info.iterations);
        assert!(
            info.time >= Duration::from_millis(150),
            "{algo:?}: {:?}",
            info.time
        );
    }
}

#[test]
fn games_of_more_players_get_a_session_of_their_player_count() {
    let mut s = new_session("rolit-3p", SearchParams::default()).unwrap();
    assert_eq!(s.num_players(), 3);
    let names: Vec<&str> = (0..3).map(|p| s.player_name(p)).collect();
    assert_eq!(names, ["red", "yellow", "green"]);
    assert_eq!(
        s.territory().and_then(|t| t.player_scores()),
        Some(vec![1, 1, 1])
    );
    for ply in 0..3 {
        assert_eq!(s.side_to_move(), ply);
        let first = s.legal_moves(Dialect::Gtp)[0].clone();
        s.play(&first, Dialect::Gtp).unwrap();
    }
    assert_eq!(s.side_to_move(), 0);
    let job = SearchJob {
        dialect: Dialect::Gtp,
        iterations: Some(300),
        ..SearchJob::default()
    };
    let info = s.search(&job, &SearchControl::new(), &mut |_| {});
    let best = info.best.expect("a move");
    assert!(s.legal_moves(Dialect::Gtp).contains(&best), "{best}");
    assert!(info.iterations >= 300);
    let four = new_session("rolit4", SearchParams::default()).unwrap();
    assert_eq!(four.num_players(), 4);
    assert_eq!(four.player_name(3), "blue");
    let two = new_session("othello", SearchParams::default()).unwrap();
    let scores = two.territory().and_then(|t| t.player_scores());
    assert_eq!((two.num_players(), scores), (2, None));
}

#[test]
fn solves_of_more_players_are_paranoid_proofs_with_every_solver() {
    let mut s = new_session("rolit4-3p", SearchParams::default()).unwrap();
    let job = |algo, threads| SearchJob {
        dialect: Dialect::Gtp,
        solve: Some(SolveJob {
            algo,
            mode: SolveMode::Value,
            max_nodes: None,
            memory_mb: 64,
            threads,
        }),
        ..SearchJob::default()
    };
    let control = SearchControl::new();
    // Red cannot take even a shared first place at the start of 4x4 Rolit with three
    // players if yellow and green play together (experiments/multiplayer.md).
    for algo in [Algo::Dfpn, Algo::SbGpn] {
        for threads in [1, 2] {
            let info = s.search(&job(algo, threads), &control, &mut |_| {});
            let verdict = info.solved.unwrap().verdict;
            assert_eq!(verdict, Verdict::Loss, "{algo:?} with {threads} threads");
        }
    }
    let mate = SolveJob {
        mode: SolveMode::Mate(None),
        ..job(Algo::Dfpn, 1).solve.unwrap()
    };
    assert!(mate.refusal(3).is_some() && mate.refusal(2).is_none());
}

#[test]
fn the_history_lists_the_moves_since_the_start() {
    let mut s = GameSession::<crate::game::go::Go9, 2>::new(SearchParams::default());
    for m in ["d4", "pass", "E5"] {
        s.play(m, Dialect::Gtp).unwrap();
    }
    assert_eq!(s.history(Dialect::Gtp), ["D4", "pass", "E5"]);
    s.undo();
    assert_eq!(s.history(Dialect::Gtp), ["D4", "pass"]);
}

#[test]
fn the_line_scorer_scores_for_the_side_to_move_at_the_end_of_the_line() {
    let mut s = GameSession::<crate::game::go::Go5, 2>::new(SearchParams::default());
    s.play("C3", Dialect::Gtp).unwrap();
    let score = s.line_scorer(Dialect::Gtp).unwrap();
    // White to move: Black's C3 and its four neighbours (5 points) against komi 7.5.
    assert_eq!(score(&[]), 2.5);
    // After White's B2: 3 points each (C3, C4, D3 and B2, A2, B1: B3 and C2 touch both).
    assert_eq!(score(&["B2".to_string()]), 7.5);
    // The line stops at a move that is not legal (C3 is taken).
    assert_eq!(score(&["C3".to_string(), "B2".to_string()]), 2.5);
    let othello = GameSession::<crate::game::reversi::Reversi, 2>::new(SearchParams::default());
    assert!(othello.line_scorer(Dialect::Gtp).is_none());
}

#[test]
fn a_bare_fen_two_plies_ahead_reuses_the_subtree() {
    // cuteataxx's way: `position fen <fen>` with no moves, after our move and the reply.
    let mut s = searched::<Ataxx>(3000);
    let pv = s.search.root_lines(1)[0].pv.clone();
    assert!(pv.len() >= 2, "the principal variation has two plies");
    let mut target = Ataxx::start();
    target.play(pv[0]);
    target.play(pv[1]);
    let fen = target.to_position();
    s.set_position(Some(&fen), &[], Dialect::Native).unwrap();
    assert_eq!(*s.search.position(), target);
    assert!(s.search.root_visits() > 0, "the subtree was dropped");
    // One ply ahead (a bare fen after our own move) is found too.
    let mut s = searched::<Ataxx>(2000);
    let mut one = Ataxx::start();
    one.play(pv[0]);
    s.set_position(Some(&one.to_position()), &[], Dialect::Native)
        .unwrap();
    assert!(s.search.root_visits() > 0);
}

#[test]
fn a_reported_line_stops_where_the_game_record_ends() {
    // The search does not see the record's length cap: a line that runs past the end of
    // the game is cut after the move that ends it.
    let s = searched::<Ataxx>(3000);
    let pv = s.search.root_lines(1)[0].pv.clone();
    assert!(pv.len() >= 3, "a line of three plies");
    let full = format_line(&s.record, &pv, Dialect::Native);
    assert_eq!(full.len(), pv.len());
    let capped = Record::new(Ataxx::start(), 2);
    assert_eq!(
        format_line(&capped, &pv, Dialect::Native),
        full[..2].to_vec()
    );
}

#[test]
fn an_unrelated_fen_starts_a_fresh_tree() {
    let mut s = searched::<Ataxx>(1000);
    s.set_position(Some("x5o/7/3-3/7/3-3/7/o5x x 0 1"), &[], Dialect::Native)
        .unwrap();
    assert_eq!(s.search.root_visits(), 0);
}

/// Minishogi: sente's rook checks gote's king back and forth (a5, b5); the position after
/// `b3a3` has occurred three times. A fourth time is a perpetual check, lost for sente
/// (the rule Fairy-Stockfish and cutechess enforce), so of the check and a rook blunder
/// (`b3b4`, taken by the gold) the search must choose the blunder, and no line may show the
/// check. The same position without its history must still choose the check: the history
/// is what decides.
#[test]
fn the_search_never_plays_into_a_lost_perpetual_check() {
    let cycle = ["b3a3", "a5b5", "a3b3", "b5a5"];
    let mut moves = vec!["c3a3", "a5b5", "a3b3", "b5a5"];
    moves.extend(cycle);
    moves.extend(cycle);
    let job = SearchJob {
        iterations: Some(3_000),
        searchmoves: vec!["b3a3".to_string(), "b3b4".to_string()],
        ..SearchJob::default()
    };
    let search = |start: &str, moves: &[&str]| {
        let mut s = new_session("minishogi", SearchParams::default()).unwrap();
        s.set_position(Some(start), moves, Dialect::Native).unwrap();
        s.search(&job, &SearchControl::new(), &mut |_| {})
    };
    let without_history = search("k1g2/5/1R3/5/4K[-] w", &[]);
    assert_eq!(without_history.best.as_deref(), Some("b3a3"));
    let info = search("k1g2/5/2R2/5/4K[-] w", &moves);
    assert_eq!(info.best.as_deref(), Some("b3b4"));
    for line in &info.lines {
        assert_ne!(line.pv[0], "b3a3", "{line:?}");
    }
}
