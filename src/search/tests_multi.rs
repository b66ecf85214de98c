//! The search with three and four players: paranoid per-player proof numbers and score bounds on
//! a hand-built tree (values worked out below), and solved Rolit positions against an
//! exhaustive paranoid search.

use std::collections::HashMap;

use super::node::{from_bound, to_bound, PN_INF};
use super::testgame::{use_tree, Spec, TreeGame};
use super::*;
use crate::game::rolit::Rolit;
use crate::game::{Game, MoveList};

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
        assert_eq!(root.pn, [0, PN_INF, PN_INF], "{spec}");
        // Node 1, where p1 moves, is p0's proof: both its moves leave p0 first alone.
        let one = s.tree.edges(ROOT)[0].child;
        assert_eq!(s.tree.node(one).pn, [0, PN_INF, PN_INF], "{spec}");
        assert_eq!(s.best_move(), Some(Move(0)), "{spec}");
        // From node 2 nobody can force a sole first place.
        let s = run_tree(spec, 2);
        assert_eq!(s.tree.node(ROOT).pn, [PN_INF; 3], "{spec}");
    }
}

#[test]
fn score_bounds_of_three_players_on_a_hand_built_tree() {
    let b = |u: f32| to_bound(u);
    for spec in ["sb-gpn", "sb-uct"] {
        let s = run_tree(spec, 2);
        let root = s.tree.node(ROOT);
        assert_eq!(root.lo, [b(0.0), b(0.5), b(-1.0)], "{spec}");
        assert_eq!(root.hi, [b(0.5), b(1.0), b(-1.0)], "{spec}");
        let six = s.tree.edges(ROOT)[1].child;
        assert_eq!(s.tree.node(six).lo, [b(0.5), b(0.5), b(-1.0)], "{spec}");
        assert_eq!(s.tree.node(six).hi, s.tree.node(six).lo, "{spec}");
        // From the root p0 is first alone: its bounds meet at a win.
        let s = run_tree(spec, 0);
        let root = s.tree.node(ROOT);
        assert_eq!((root.lo[0], root.hi[0]), (b(1.0), b(1.0)), "{spec}");
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
        let root = *s.tree.node(ROOT);
        let m = me.index();
        let text = pos.to_position();
        assert!(
            from_bound(root.lo[m]) <= truth + 1e-6,
            "{text}: lo above {truth}"
        );
        assert!(
            from_bound(root.hi[m]) >= truth - 1e-6,
            "{text}: hi below {truth}"
        );
        if root.lo[m] == root.hi[m] {
            assert!((from_bound(root.lo[m]) - truth).abs() < 1e-6, "{text}");
            exact += 1;
        }
        // A proof (pn 0) is a paranoid win, a disproof (infinite pn) rules one out.
        if root.pn[m] == 0 {
            assert!(truth > 0.99, "{text}: proved a win worth {truth}");
            proved += 1;
        }
        if root.pn[m] == PN_INF {
            assert!(truth < 0.99, "{text}: disproved a win");
        }
    }
    (exact, proved)
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
