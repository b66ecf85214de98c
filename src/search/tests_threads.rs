//! Threaded search tests: with 2, 4 and 8 threads every proof and bound equals exhaustive
//! minimax, the tree stays one tree (every node reached once, visits equal iterations, no
//! virtual loss left behind), recycling keeps its guarantees, and the limits stay exact.

use crate::game::Rules;
use std::collections::HashMap;

use super::node::{NONE, PN_INF};
use super::tests::{assert_tree_consistent, minimax, params, proven_value, value_after};
use super::tests_memory::{assert_tree_values_exact, solved_connect_four};
use super::*;
use crate::game::breakthrough::Breakthrough;
use crate::game::connect4::ConnectFour;
use crate::game::Game;

/// Every node's visits cover its children's (each iteration through a child passed its parent),
/// and its totals are within its visits: no virtual visit or virtual loss was left behind.
fn assert_visits_consistent<G: Game>(s: &Search<G, 2>) {
    for id in 0..s.tree.len() {
        let node = s.tree.node(id as NodeId);
        assert_eq!(
            s.tree.virtual_visits(id as NodeId),
            0,
            "node {id}: virtual visits left"
        );
        let children: u64 = s
            .tree
            .edges(id as NodeId)
            .iter()
            .filter(|e| e.child() != NONE)
            .map(|e| u64::from(s.tree.node(e.child()).visits.get()))
            .sum();
        assert!(
            u64::from(node.visits.get()) >= children,
            "node {id}: {} visits, children {children}",
            node.visits.get()
        );
        for p in 0..2 {
            assert!(
                node.total[p].get().abs() <= node.visits.get() as f32 + 1e-3,
                "node {id}: total {} over {} visits",
                node.total[p].get(),
                node.visits.get()
            );
        }
    }
}

/// Every fact the children give a node is in the node: recomputing any node from its children
/// proves, disproves or tightens nothing more. Threads that back up side by side must not lose
/// a proof or a bound to a race (heuristic proof numbers may lag; they are not checked).
fn assert_facts_complete<G: Game>(s: &Search<G, 2>) {
    let algorithm = s.params.algorithm;
    let (use_pn, use_bounds) = (algorithm.uses_proof_numbers(), algorithm.uses_bounds());
    for id in 0..s.tree.len() as NodeId {
        let node = s.tree.node(id);
        if node.known_at_creation() || (id != ROOT && node.parent == NONE) {
            continue;
        }
        let before = super::backup::Values::of(node);
        let derived = s.derive_values(id, &before, use_bounds);
        if use_bounds {
            assert_eq!(
                (derived.lo, derived.hi),
                (before.lo, before.hi),
                "node {id}: bounds not backed up"
            );
        }
        if use_pn {
            for p in 0..2 {
                if derived.pn[p] == 0 || derived.pn[p] == PN_INF {
                    assert_eq!(
                        before.pn[p], derived.pn[p],
                        "node {id}: proof for player {p} not backed up"
                    );
                }
            }
        }
    }
}

/// Solves `pos` with `threads` threads (seed `seed`) and checks the proven value, the move and
/// every node of the tree against minimax.
fn assert_threaded_solve<G: Game>(
    pos: &G,
    threads: usize,
    seed: u64,
    algo: &str,
    memo: &mut HashMap<u64, i8>,
) {
    let truth = minimax(pos, memo);
    let spec = format!("{algo} threads={threads} seed={seed}");
    let mut s: Search<G, 2> = Search::new(params(&spec), pos.clone());
    let report = s.run(&Limits {
        iterations: Some(400_000),
        stop_when_solved: true,
        ..Limits::default()
    });
    let text = pos.to_position();
    assert_eq!(proven_value(report.proven), Some(truth), "{spec} on {text}");
    let best = report.best_move.expect("a move");
    let after = value_after(pos, best, memo);
    assert_eq!(after, truth, "{spec} on {text}: {}", pos.format_move(best));
    assert_eq!(u64::from(s.root_visits()), report.iterations, "{spec}");
    assert_tree_consistent(&s);
    assert_visits_consistent(&s);
    assert_facts_complete(&s);
    assert!(assert_tree_values_exact(&s, memo) > 0);
}

#[test]
fn threaded_searches_prove_exact_values_in_connect_four_and_breakthrough() {
    let mut memo = HashMap::new();
    let cfour = solved_connect_four(24..=26);
    let bt6 = [
        "6/2p3/6/6/3P2/6 w",
        "6/p4p/6/6/1P2P1/6 w",
        "2p3/6/1P4/6/6/6 b",
        "6/3p2/1p4/2P3/6/6 w",
    ];
    let mut memo6 = HashMap::new();
    // Below `shared_stats` threads (2 by default) proofs and bounds are backed up under the
    // exclusive lock (`shared_stats=257`: never side by side); from it on, side by side.
    for (threads, design, seeds) in [
        (2, "", 8),
        (2, " shared_stats=257", 8),
        (4, "", 8),
        (4, " shared_stats=257", 3),
        (8, "", 8),
        (16, "", 3),
    ] {
        for seed in 1..=seeds {
            for (pos, value) in cfour.iter().take(4) {
                assert_eq!(minimax(pos, &mut memo), *value);
                let algo = format!("sb-gpn{design}");
                assert_threaded_solve(pos, threads, seed, &algo, &mut memo);
            }
            for text in bt6 {
                let pos = Breakthrough::<6>::parse_position(text).unwrap();
                let algo = format!("sb-gpn{design}");
                assert_threaded_solve(&pos, threads, seed, &algo, &mut memo6);
            }
        }
        let (pos, _) = &cfour[0];
        for algo in ["sb-uct", "sb-gpn bias=rank c_pn=2", "sb-gpn im=0.5"] {
            assert_threaded_solve(pos, threads, 9, &format!("{algo}{design}"), &mut memo);
        }
    }
}

#[test]
fn threaded_recycling_keeps_every_proof_bound_and_visit() {
    let mut memo = HashMap::new();
    let mut recycled = 0;
    for (pos, _) in solved_connect_four(24..=26).into_iter().take(3) {
        for algo in ["sb-gpn", "sb-uct", "gpn", "pn-mcts", "sb-gpn im=0.5 np=3"] {
            let spec = format!("{algo} hash=1 threads=4");
            let mut s: Search<ConnectFour, 2> = Search::new(params(&spec), pos.clone());
            let mut iterations = 0;
            for _ in 0..3 {
                let r = s.run(&Limits {
                    iterations: Some(30_000),
                    ..Limits::default()
                });
                assert_eq!(r.iterations, 30_000, "{spec}: the iteration limit is exact");
                iterations += r.iterations;
                recycled += r.recycles;
                assert_tree_consistent(&s);
                if !algo.contains("np=") {
                    // Node priors start a node with virtual visits of its own.
                    assert_eq!(u64::from(s.root_visits()), iterations, "{spec}");
                    assert_visits_consistent(&s);
                }
                assert_tree_values_exact(&s, &mut memo);
                if algo != "pn-mcts" {
                    assert_facts_complete(&s);
                }
            }
        }
    }
    assert!(recycled > 0, "the test should recycle");
}

#[test]
fn many_threads_on_a_tiny_hash_keep_one_tree() {
    // Breakthrough's start in 1 MiB with 8 threads: the tree fills and is recycled many times
    // while iterations are in flight on every thread.
    let mut s: Search<Breakthrough<8>, 2> =
        Search::new(params("sb-gpn hash=1 threads=8"), Breakthrough::start());
    let r = s.run(&Limits {
        iterations: Some(60_000),
        ..Limits::default()
    });
    assert_eq!(r.iterations, 60_000);
    assert!(r.recycles >= 5, "{} recyclings", r.recycles);
    assert_eq!(s.root_visits(), 60_000);
    assert_tree_consistent(&s);
    assert_visits_consistent(&s);
}

#[test]
fn threaded_limits_stop_on_time_on_nodes_and_on_the_flag() {
    use std::sync::atomic::AtomicBool;
    use std::time::{Duration, Instant};
    let start = Breakthrough::<8>::start();
    // Nodes: at most threads - 1 over.
    let mut s: Search<Breakthrough<8>, 2> = Search::new(params("sb-gpn threads=4"), start.clone());
    let r = s.run(&Limits {
        nodes: Some(5_000),
        ..Limits::default()
    });
    assert!(
        (5_000..5_004).contains(&(r.nodes as u64)),
        "{} nodes",
        r.nodes
    );
    // Time.
    let t0 = Instant::now();
    s.run(&Limits {
        time: Some(Duration::from_millis(100)),
        ..Limits::default()
    });
    let took = t0.elapsed();
    assert!(took < Duration::from_millis(400), "{took:?}");
    // The stop flag, raised by another thread while the search runs.
    let flag = Arc::new(AtomicBool::new(false));
    let raiser = {
        let flag = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            flag.store(true, Ordering::Relaxed);
            Instant::now()
        })
    };
    s.run(&Limits {
        stop: Some(flag),
        ..Limits::default()
    });
    let raised = raiser.join().unwrap();
    assert!(
        raised.elapsed() < Duration::from_millis(100),
        "slow to stop"
    );
    assert_tree_consistent(&s);
    assert_visits_consistent(&s);
    // The hook sees the run's progress and can end it.
    let mut calls = 0;
    let r = s.run_with(&Limits::default(), |_, progress| {
        calls += 1;
        progress.iterations < 20_000
    });
    assert!(
        calls > 0 && r.iterations >= 20_000,
        "{calls} calls, {} iterations",
        r.iterations
    );
}

#[test]
fn threaded_tree_reuse_keeps_the_subtree_over_a_game() {
    let mut s: Search<ConnectFour, 2> =
        Search::new(params("sb-gpn threads=3 hash=2"), ConnectFour::start());
    let mut plies = 0;
    while s.position().outcome().is_none() && plies < 42 {
        let r = s.run(&Limits {
            iterations: Some(3_000),
            ..Limits::default()
        });
        assert_tree_consistent(&s);
        assert_visits_consistent(&s);
        let best = r.best_move.expect("a move");
        s.advance(best);
        plies += 1;
    }
    assert!(plies >= 7);
}

#[test]
fn eight_threads_recycle_and_reuse_the_tree_over_a_game() {
    // The stress case: eight threads (visits and utilities backed up under the shared lock),
    // a tree recycled again and again while iterations are in flight, and re-rooted at every
    // move of a whole game.
    let mut s: Search<Breakthrough<6>, 2> = Search::new(
        params("sb-gpn threads=8 hash=1 seed=5"),
        Breakthrough::<6>::start(),
    );
    let (mut plies, mut recycles) = (0, 0);
    // 6,000 iterations a move fill the 1 MiB tree (about 4,500 nodes) every move or two now
    // that each flight opens a node of its own (4,000 left some games without a recycling).
    while s.position().outcome().is_none() && plies < 60 {
        let r = s.run(&Limits {
            iterations: Some(6_000),
            ..Limits::default()
        });
        recycles += r.recycles;
        assert_eq!(r.iterations, 6_000, "ply {plies}");
        assert_tree_consistent(&s);
        assert_visits_consistent(&s);
        // Every iteration of the run passed the root once (what it had before stays).
        assert!(u64::from(s.tree.node(ROOT).visits.get()) >= r.iterations);
        s.advance(r.best_move.expect("a move"));
        plies += 1;
    }
    assert!(plies >= 10, "{plies} plies");
    assert!(recycles > 0, "the tree was never recycled");
}

#[test]
fn selection_sees_the_flights_in_the_air() {
    // Other threads' flights are in the tree as virtual visits as soon as they are selected;
    // selection must count them, or every thread follows the same path.
    let mut s: Search<ConnectFour, 2> =
        Search::new(params("sb-gpn threads=2"), ConnectFour::start());
    s.run(&Limits {
        iterations: Some(3000),
        ..Limits::default()
    });
    let mut rng = crate::rng::Rng::new(3);
    let first = s.select_shared(ROOT, &mut rng, None, &[]);
    let child = s.tree.edges(ROOT)[first].child();
    assert_ne!(child, NONE);
    // As many flights in the air as the child has real visits: its mean drops below zero.
    let visits = s.tree.node(child).visits.get();
    s.tree.add_virtual_visits(child, visits);
    let next = s.select_shared(ROOT, &mut rng, None, &[]);
    assert_ne!(next, first, "the flights in the air were ignored");
    // Once they have landed, the choice is the stored tree's again.
    s.tree.remove_virtual_visits(child, visits);
    assert_eq!(s.tree.virtual_visits(child), 0);
    assert_eq!(s.select_shared(ROOT, &mut rng, None, &[]), first);
}

#[test]
fn flights_in_the_air_dilute_the_proof_number_bonus() {
    // The proof-number bonus is the same for every thread: with c_pn 2 and virtual loss on the
    // value alone, every thread stayed on the child with the best bonus. It is diluted as the
    // mean is, by the share of the child's visits that are real.
    let mut s: Search<ConnectFour, 2> = Search::new(
        params("sb-gpn threads=2 bias=max c_pn=2"),
        ConnectFour::start(),
    );
    s.run(&Limits {
        iterations: Some(3000),
        ..Limits::default()
    });
    s.refresh_bias_terms(ROOT);
    let mut rng = crate::rng::Rng::new(3);
    // Give one child the whole bonus and the others none: it is chosen.
    let favoured = 3;
    for (i, edge) in s.tree.edges_mut(ROOT).iter_mut().enumerate() {
        edge.term.set(if i == favoured { u16::MAX } else { 0 });
    }
    assert_eq!(s.select_shared(ROOT, &mut rng, None, &[]), favoured);
    let child = s.tree.edges(ROOT)[favoured].child();
    assert_ne!(child, NONE);
    // Three flights in the air for each real visit: a quarter of the bonus is left.
    let visits = s.tree.node(child).visits.get();
    s.tree.add_virtual_visits(child, 3 * visits);
    assert_ne!(
        s.select_shared(ROOT, &mut rng, None, &[]),
        favoured,
        "the bonus ignored the flights in the air"
    );
    s.tree.remove_virtual_visits(child, 3 * visits);
}

#[test]
fn a_batch_sees_the_edges_its_earlier_flights_opened() {
    // An edge without a node that an earlier flight of the batch took has no node to hold
    // that flight's virtual visit yet: the batch's pending list stands in for it.
    // (One thread builds the tree: the same tree every time.)
    let mut s: Search<ConnectFour, 2> = Search::new(params("sb-gpn seed=3"), ConnectFour::start());
    s.run(&Limits {
        iterations: Some(3),
        ..Limits::default()
    });
    let mut rng = crate::rng::Rng::new(3);
    let first = s.select_shared(ROOT, &mut rng, None, &[]);
    assert_eq!(
        s.tree.edges(ROOT)[first].child(),
        NONE,
        "an unvisited move first"
    );
    let next = s.select_shared(ROOT, &mut rng, None, &[(first as u16, 1)]);
    assert_ne!(next, first, "the batch's opened edge was ignored");
}

#[test]
fn a_threaded_run_reports_where_its_time_went() {
    let pos = Breakthrough::<8>::start();
    let mut one: Search<Breakthrough<8>, 2> = Search::new(params("sb-gpn seed=3"), pos.clone());
    let report = one.run(&Limits {
        iterations: Some(2_000),
        ..Limits::default()
    });
    assert!(report.lock.is_none(), "one thread takes no lock");
    let mut two: Search<Breakthrough<8>, 2> = Search::new(params("sb-gpn threads=2 seed=3"), pos);
    let report = two.run(&Limits {
        iterations: Some(20_000),
        ..Limits::default()
    });
    let lock = report.lock.expect("a threaded run's lock profile");
    assert_eq!(lock.threads, 2);
    // Every thread backs up under the exclusive lock and selects under the shared one.
    assert!(lock.exclusive_hold > 0 && lock.shared_hold > 0 && lock.outside > 0);
    let f = lock.serial_fraction();
    assert!(f > 0.0 && f < 1.0, "serial fraction {f}");
    // The threads' times add up to no more than two threads' wall time (the run's elapsed
    // time is measured around them).
    let wall = report.elapsed.as_nanos() as u64;
    assert!(
        lock.total() <= 2 * wall + 2_000_000,
        "{} > 2 x {wall}",
        lock.total()
    );
    assert!(lock.amdahl(16) > 1.0 && lock.amdahl(16) <= lock.queue(16) + 1e-9);
}

#[test]
fn threads_seldom_evaluate_the_same_new_node_twice() {
    // Each flight marks the edge it opens: without the marks, about 5 % of this run's flights
    // (1,073-1,143 of 20,000 on two free cores) took a move whose node another thread was
    // creating, with them 0-2. On one busy core the threads rarely overlap and it passes
    // either way.
    let mut s: Search<Breakthrough<6>, 2> = Search::new(
        params("sb-gpn threads=2 seed=5"),
        Breakthrough::<6>::start(),
    );
    let report = s.run(&Limits {
        iterations: Some(20_000),
        ..Limits::default()
    });
    assert!(
        report.collisions * 100 < report.iterations,
        "{} of {} flights opened a node another thread had opened",
        report.collisions,
        report.iterations
    );
    assert_visits_consistent(&s);
}
