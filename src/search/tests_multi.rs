//! The search with three and four players: paranoid per-player proof numbers and score bounds on
//! a hand-built tree (values worked out below), and solved Rolit positions against an
//! exhaustive paranoid search.

use crate::game::{Heuristics, Rules};
use std::collections::HashMap;

use super::node::{from_bound, to_bound, PN_INF};
use super::testgame::{use_tree, Spec, TreeGame};
use super::*;
use crate::game::rolit::Rolit;
use crate::game::MoveList;

/// Players 0, 1 and 2 move at the nodes their number names; `Ranks` gives each player's rank.
///
/// ```text
/// 0 (p0) ── 1 (p1) ── 3: ranks 0 1 2   p0 first alone
///        │         └─ 4: ranks 0 2 1   p0 first alone
///        └─ 2 (p2) ── 5: ranks 1 0 2   p1 first alone
///                  └─ 6 (p1) ── 7: ranks 0 0 2   p0 and p1 share first
/// ```
///
/// Paranoid proof numbers (player p moves at OR nodes, everybody else at AND nodes; target: a
/// sole first place): node 1 proves p0 (both of p1's moves leave p0 first), so the root does;
/// p1's only win (node 5) is p2's to give, and p1 cannot win below node 1, so p1 is disproved
/// at the root; p2 never wins.
///
/// Score bounds, utilities for three players: first alone 1, second 0, last -1, a shared first
/// 0.5. Node 6 is exactly (0.5, 0.5, -1). Node 2, where p2 moves: p2 gets -1 either way;
/// p0 gets 0 (node 5) or 0.5, so [0, 0.5]; p1 gets 1 or 0.5, so [0.5, 1] (the mover may pick
/// either: a non-mover's pessimistic bound is the minimum over the children, its optimistic one
/// the maximum).
static THREE_PLAYER_TREE: &[Spec] = &[
    Spec::Inner(0, &[1, 2]),
    Spec::Inner(1, &[3, 4]),
    Spec::Inner(2, &[5, 6]),
    Spec::Ranks(&[0, 1, 2]),
    Spec::Ranks(&[0, 2, 1]),
    Spec::Ranks(&[1, 0, 2]),
    Spec::Inner(1, &[7]),
    Spec::Ranks(&[0, 0, 2]),
];

fn run_tree(spec: &str, root: u16) -> Search<TreeGame<3>, 3> {
    use_tree(THREE_PLAYER_TREE);
    let mut s: Search<TreeGame<3>, 3> = Search::new(super::tests::params(spec), TreeGame(root));
    s.run(&Limits {
        iterations: Some(200),
        ..Limits::default()
    });
    s
}

#[test]
fn paranoid_proof_numbers_of_three_players_on_a_hand_built_tree() {
    // One thread: the hand-built tree is installed per thread (tests run side by side), so a
    // second search thread would see another tree. Threads are checked on Rolit below.
    for spec in ["gpn", "sb-gpn"] {
        let s = run_tree(spec, 0);
        let root = s.tree.node(ROOT);
        assert_eq!(root.pn(), [0, PN_INF, PN_INF], "{spec}");
        // Node 1, where p1 moves, is p0's proof: both its moves leave p0 first alone.
        let one = s.tree.edges(ROOT)[0].child();
        assert_eq!(s.tree.node(one).pn(), [0, PN_INF, PN_INF], "{spec}");
        assert_eq!(s.best_move(), Some(Move(0)), "{spec}");
        // From node 2 nobody can force a sole first place.
        let s = run_tree(spec, 2);
        assert_eq!(s.tree.node(ROOT).pn(), [PN_INF; 3], "{spec}");
    }
}

#[test]
fn score_bounds_of_three_players_on_a_hand_built_tree() {
    let b = |u: f32| to_bound(u);
    for spec in ["sb-gpn", "sb-uct"] {
        let s = run_tree(spec, 2);
        let root = s.tree.node(ROOT);
        assert_eq!(root.lo(), [b(0.0), b(0.5), b(-1.0)], "{spec}");
        assert_eq!(root.hi(), [b(0.5), b(1.0), b(-1.0)], "{spec}");
        let six = s.tree.edges(ROOT)[1].child();
        assert_eq!(s.tree.node(six).lo(), [b(0.5), b(0.5), b(-1.0)], "{spec}");
        assert_eq!(s.tree.node(six).hi(), s.tree.node(six).lo(), "{spec}");
        // From the root p0 is first alone: its bounds meet at a win.
        let s = run_tree(spec, 0);
        let root = s.tree.node(ROOT);
        assert_eq!((root.lo()[0], root.hi()[0]), (b(1.0), b(1.0)), "{spec}");
    }
}

/// sb-gpn on Rolit for a fixed budget: the mover's pessimistic bound never exceeds its paranoid
/// utility by exhaustive search and the optimistic one never falls below it (bounds that meet
/// are that utility), and a proof (pn 0) is a paranoid win. Returns how many roots had meeting
/// bounds and how many were proved.
fn solve_rolit<const N: usize, const P: usize>(
    plies: usize,
    games: u64,
    extra: &str,
) -> (usize, usize) {
    let mut rng = crate::rng::Rng::new(N as u64 + 7 * P as u64);
    let mut buf = MoveList::new();
    let (mut exact, mut proved) = (0, 0);
    for game in 0..games {
        let mut pos = Rolit::<N, P>::start();
        for _ in 0..plies {
            let m = pos.random_move(&mut rng, &mut buf).expect("not over yet");
            pos.play(m);
        }
        let me = pos.to_move();
        // `me`'s paranoid utility (the best it can guarantee when every other player plays
        // against it), quantised as the bounds are.
        let utility = |o: &crate::game::Outcome| to_bound(o.utility(me));
        let truth = from_bound(crate::solve::tests::paranoid(
            &pos,
            me,
            &utility,
            &mut HashMap::new(),
        ));
        let spec = format!("sb-gpn seed={game} {extra}");
        let mut s: Search<Rolit<N, P>, P> = Search::new(super::tests::params(&spec), pos.clone());
        s.run(&Limits {
            iterations: Some(50_000),
            stop_when_solved: true,
            ..Limits::default()
        });
        let root = s.tree.node(ROOT).clone();
        let m = me.index();
        let text = pos.to_position();
        assert!(
            from_bound(root.lo()[m]) <= truth + 1e-6,
            "{text}: lo above {truth}"
        );
        assert!(
            from_bound(root.hi()[m]) >= truth - 1e-6,
            "{text}: hi below {truth}"
        );
        if root.lo()[m] == root.hi()[m] {
            assert!((from_bound(root.lo()[m]) - truth).abs() < 1e-6, "{text}");
            exact += 1;
        }
        // A proof (pn 0) is a paranoid win, a disproof (infinite pn) rules one out.
        if root.pn()[m] == 0 {
            assert!(truth > 0.99, "{text}: proved a win worth {truth}");
            proved += 1;
        }
        if root.pn()[m] == PN_INF {
            assert!(truth < 0.99, "{text}: disproved a win");
        }
    }
    (exact, proved)
}

/// Paranoid play: the root player's bounds are paranoid, so they meet at its paranoid utility
/// once the search has seen enough, with one thread and with two.
#[test]
fn paranoid_play_solves_rolit_positions_for_the_root_player() {
    for (games, (exact, _)) in [
        (1, solve_rolit::<4, 3>(0, 1, "paranoid=true")),
        (1, solve_rolit::<4, 4>(0, 1, "paranoid=true")),
        (12, solve_rolit::<4, 3>(4, 12, "paranoid=true")),
        (12, solve_rolit::<4, 4>(4, 12, "paranoid=true")),
        (6, solve_rolit::<6, 3>(24, 6, "paranoid=true")),
        (6, solve_rolit::<6, 4>(24, 6, "paranoid=true")),
        (6, solve_rolit::<4, 3>(4, 6, "paranoid=true threads=2")),
    ] {
        assert_eq!(exact, games, "roots with meeting bounds");
    }
}

#[test]
fn solved_rolit_positions_match_an_exhaustive_paranoid_search() {
    // Whole 4x4 games (12 plies) and positions a few placements in, for three and four players.
    let mut totals = (0, 0);
    for (exact, proved) in [
        solve_rolit::<4, 3>(0, 1, ""),
        solve_rolit::<4, 4>(0, 1, ""),
        solve_rolit::<4, 3>(4, 12, ""),
        solve_rolit::<4, 4>(4, 12, ""),
        solve_rolit::<6, 3>(24, 6, ""),
        solve_rolit::<6, 4>(24, 6, ""),
        // Two threads: the same soundness with tree parallelism for three and four players.
        solve_rolit::<4, 3>(4, 6, "threads=2"),
        solve_rolit::<6, 4>(24, 3, "threads=2"),
    ] {
        totals = (totals.0 + exact, totals.1 + proved);
    }
    eprintln!("exact roots {}, proved wins {}", totals.0, totals.1);
    assert!(totals.1 >= 3, "only {} paranoid wins proved", totals.1);
}

#[test]
fn early_terminated_playouts_score_every_players_own_evaluation() {
    // Three players, one ply then the evaluation: the playout's utilities are each player's
    // evaluation of one of the start's children (Rolit's evaluations are leads over the best
    // other player, so they need not sum to zero).
    let start = Rolit::<8, 3>::start();
    let params = super::tests::params("sb-uct fet=1");
    let mut moves = MoveList::new();
    start.legal_moves(&mut moves);
    let children: Vec<[f32; 3]> = moves
        .iter()
        .map(|&m| {
            let mut next = start.clone();
            next.play(m);
            std::array::from_fn(|p| next.evaluate(crate::game::Player(p as u8)))
        })
        .collect();
    let mut rollout = rollout::Rollout::new(5);
    for _ in 0..20 {
        let u: [f32; 3] = rollout.informed_playout(&params, start.clone());
        assert!(children.contains(&u), "{u:?}");
        assert!(u.iter().any(|&x| x != 0.0));
    }
    // Greedy playouts (ege) play for the mover with three players too: a whole greedy game
    // ends (no length cap reached) and scores its outcome.
    let params = super::tests::params("sb-uct ege=0.05");
    let u: [f32; 3] = rollout.informed_playout(&params, start.clone());
    assert!(u.iter().any(|&x| x == 1.0 || x == 0.5), "{u:?}");
}

/// Where max^n and paranoid play part: player 1 moves after either root move.
///
/// ```text
/// 0 (p0) ── 1 (p1) ── 3: ranks 1 0 2   p1 first, p0 second: p0 0, p1 1
///        │         └─ 4: ranks 2 1 0   p2 first, p0 last:   p0 -1, p1 0
///        └─ 2 (p1) ── 5: ranks 1 0 1   p1 first, p0 shares last: p0 -0.5
/// ```
///
/// Max^n: p1 takes its win at node 1 (node 3), leaving p0 0 there against -0.5 through node
/// 2, so p0 plays to node 1 (move 0). Paranoid: p1 plays against p0 at node 1 (node 4, -1 for
/// p0), so p0 prefers -0.5 through node 2 (move 1).
static MAXN_OR_PARANOID: &[Spec] = &[
    Spec::Inner(0, &[1, 2]),
    Spec::Inner(1, &[3, 4]),
    Spec::Inner(1, &[5]),
    Spec::Ranks(&[1, 0, 2]),
    Spec::Ranks(&[2, 1, 0]),
    Spec::Ranks(&[1, 0, 1]),
];

#[test]
fn paranoid_play_chooses_against_the_root_player() {
    use_tree(MAXN_OR_PARANOID);
    for spec in ["uct", "sb-uct", "gpn", "sb-gpn"] {
        for (paranoid, want) in [(false, Move(0)), (true, Move(1))] {
            let spec = format!("{spec} paranoid={paranoid}");
            let mut s: Search<TreeGame<3>, 3> =
                Search::new(super::tests::params(&spec), TreeGame(0));
            s.run(&Limits {
                iterations: Some(300),
                ..Limits::default()
            });
            assert_eq!(s.best_move(), Some(want), "{spec}");
            // p1's choice at node 1: the child it visited most.
            let one = s.tree.edges(ROOT)[0].child();
            let visits: Vec<u32> = s
                .tree
                .edges(one)
                .iter()
                .map(|e| {
                    if e.child() == node::NONE {
                        0
                    } else {
                        s.tree.node(e.child()).visits.get()
                    }
                })
                .collect();
            let favourite = if paranoid { 1 } else { 0 };
            assert!(
                visits[favourite] > visits[1 - favourite],
                "{spec}: p1's visits at node 1 {visits:?}"
            );
            if spec.starts_with("sb-") {
                // The root player's bounds: paranoid, exact at -0.5 (node 2); max^n, node 1's
                // p0 range [-1, 0] (p1 may choose either) against node 2's -0.5.
                let root = s.tree.node(ROOT);
                let b = |u: f32| to_bound(u);
                let want = if paranoid {
                    (b(-0.5), b(-0.5))
                } else {
                    (b(-0.5), b(0.0))
                };
                assert_eq!((root.lo()[0], root.hi()[0]), want, "{spec}");
                assert_eq!(
                    s.tree.node(one).hi()[0],
                    if paranoid { b(-1.0) } else { b(0.0) },
                    "{spec}"
                );
            }
            if paranoid {
                // Paranoid bounds are the root player's: a root of another player (p1 after
                // move 0) starts a new tree.
                assert!(s.advance(Move(0)));
                s.run(&Limits {
                    iterations: Some(10),
                    ..Limits::default()
                });
                assert_eq!(s.root_visits(), 10, "{spec}");
            }
        }
    }
}
