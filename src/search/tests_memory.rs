//! Search tests of a small Hash: visits keep spreading after the tree fills, recycling keeps
//! proofs and bounds exact, and a frozen tree still counts every visit.

use crate::game::Rules;
use std::collections::HashMap;

use super::node::{from_bound, NONE};
use super::tests::{assert_tree_consistent, minimax, params};
use super::*;
use crate::game::breakthrough::Breakthrough;
use crate::game::connect4::ConnectFour;
use crate::game::Game;

/// The visit shares of the root's moves.
fn root_shares<G: Game>(s: &Search<G, 2>) -> Vec<f64> {
    let root = s.tree.node(ROOT).visits.get() as f64;
    s.tree
        .edges(ROOT)
        .iter()
        .map(|e| {
            if e.child() == NONE {
                0.0
            } else {
                s.tree.node(e.child()).visits.get() as f64 / root
            }
        })
        .collect()
}

#[test]
fn a_tiny_hash_keeps_spreading_visits_long_after_it_fills() {
    // Breakthrough's start: ~22 moves of similar value. 1 MiB holds ~5,000 nodes, so 120,000
    // iterations fill the tree more than twenty times over.
    for algo in ["sb-gpn", "uct"] {
        let mut tiny: Search<Breakthrough<8>, 2> =
            Search::new(params(&format!("{algo} hash=1")), Breakthrough::start());
        let r = tiny.run(&Limits {
            iterations: Some(120_000),
            ..Limits::default()
        });
        assert!(r.recycles >= 20, "{algo}: {} recyclings", r.recycles);
        assert!(!r.full, "{algo}: recycling gave up");
        // Every iteration left its visit at the root, and the root's children keep theirs.
        assert_eq!(tiny.root_visits() as u64, 120_000);
        assert_tree_consistent(&tiny);
        let mut large: Search<Breakthrough<8>, 2> =
            Search::new(params(&format!("{algo} hash=256")), Breakthrough::start());
        large.run(&Limits {
            iterations: Some(120_000),
            ..Limits::default()
        });
        let (t, l) = (root_shares(&tiny), root_shares(&large));
        let max = |v: &[f64]| v.iter().cloned().fold(0.0, f64::max);
        assert!(
            max(&t) <= max(&l) + 0.1,
            "{algo}: a root move took {:.2} of the visits (large hash: {:.2})",
            max(&t),
            max(&l)
        );
        let spread = |v: &[f64]| v.iter().filter(|&&x| x >= 0.01).count();
        assert!(
            spread(&t) + 3 >= spread(&l),
            "{algo}: {} moves with 1 % of the visits, {} in a large hash",
            spread(&t),
            spread(&l)
        );
    }
}

/// Connect Four positions of the perfect solver's file with `plies` plies.
pub(super) fn solved_connect_four(plies: std::ops::RangeInclusive<u32>) -> Vec<(ConnectFour, i8)> {
    let text = include_str!("../../tests/data/cfour-solved.txt");
    let mut out = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (main, comment) = line.split_once('#').expect("a comment");
        let (pos, value) = main.split_once('|').expect("a value");
        let n: u32 = comment.split_whitespace().nth(1).unwrap().parse().unwrap();
        if !plies.contains(&n) {
            continue;
        }
        let pos = ConnectFour::parse_position(pos.trim().strip_prefix("cfour ").unwrap());
        let value = match value.trim() {
            "win" => 1,
            "draw" => 0,
            _ => -1,
        };
        out.push((pos.unwrap(), value));
    }
    out
}

/// Checks every node of `s`'s tree against exhaustive minimax: known values exact, bounds
/// around the true value. Returns the number of nodes with a known value.
pub(super) fn assert_tree_values_exact<G: Game>(
    s: &Search<G, 2>,
    memo: &mut HashMap<u64, i8>,
) -> usize {
    let mut known = 0;
    let mut stack = vec![(ROOT, s.position().clone())];
    while let Some((id, pos)) = stack.pop() {
        let node = s.tree.node(id).clone();
        let m = node.mover as usize;
        let truth = minimax(&pos, memo);
        let (lo, hi) = (from_bound(node.lo()[m]), from_bound(node.hi()[m]));
        let text = pos.to_position();
        assert!(
            lo <= truth as f32 && truth as f32 <= hi,
            "{text}: [{lo}, {hi}] vs {truth}"
        );
        if let Some(v) = s.known_value(&node, m) {
            assert_eq!(from_bound(v), truth as f32, "{text}");
            known += 1;
        }
        for e in s.tree.edges(id) {
            if e.child() != NONE {
                let mut child = pos.clone();
                child.play(e.mv);
                stack.push((e.child(), child));
            }
        }
    }
    known
}

#[test]
fn recycling_keeps_every_proof_and_bound_exact() {
    let mut memo = HashMap::new();
    let mut recycled = 0;
    for (pos, value) in solved_connect_four(24..=26).into_iter().take(6) {
        assert_eq!(minimax(&pos, &mut memo), value, "{}", pos.to_position());
        for algo in ["sb-gpn", "sb-uct", "gpn", "pn-mcts"] {
            let mut s: Search<ConnectFour, 2> =
                Search::new(params(&format!("{algo} hash=1")), pos.clone());
            for _ in 0..4 {
                let r = s.run(&Limits {
                    iterations: Some(40_000),
                    ..Limits::default()
                });
                recycled += r.recycles;
                assert_tree_consistent(&s);
                let known = assert_tree_values_exact(&s, &mut memo);
                assert!(known > 0 || algo == "gpn" || algo == "pn-mcts");
            }
        }
    }
    assert!(recycled > 0, "the test should recycle");
}

#[test]
fn a_tiny_hash_still_finds_a_value_keeping_move() {
    use crate::solve::{solve, Algo, SolveConfig, Value};
    // Early positions (10-14 plies) whose wins and draws are long: the tree fills 1 MiB many
    // times over. A move is checked by DFPN on the position after it (the solvers agree with
    // the perfect solver in tests/solve.rs). Where the same search in a large hash keeps the
    // value, the tiny hash must keep it too.
    let keeps = |pos: &ConnectFour, m: Move, value: i8| {
        let mut child = pos.clone();
        child.play(m);
        let cfg = SolveConfig {
            algo: Algo::Dfpn,
            max_nodes: Some(20_000_000),
            ..SolveConfig::default()
        };
        match solve(&child, &cfg).value {
            Value::Win => Some(value == -1),
            Value::Draw => Some(value == 0),
            Value::Loss => Some(value == 1),
            Value::Unknown => None,
        }
    };
    let mut checked = 0;
    for (pos, value) in solved_connect_four(10..=14) {
        if value < 0 || checked >= 4 {
            continue;
        }
        let best = |hash: usize| {
            let mut s: Search<ConnectFour, 2> =
                Search::new(params(&format!("sb-gpn hash={hash}")), pos.clone());
            let r = s.run(&Limits {
                iterations: Some(400_000),
                ..Limits::default()
            });
            (r.best_move.unwrap(), r.recycles)
        };
        let (tiny, recycles) = best(1);
        if recycles < 5 || keeps(&pos, best(256).0, value) != Some(true) {
            continue; // solved before the tree filled, or too hard for this budget in any hash
        }
        assert_eq!(
            keeps(&pos, tiny, value),
            Some(true),
            "{}: {} does not keep the value",
            pos.to_position(),
            pos.format_move(tiny)
        );
        checked += 1;
    }
    assert_eq!(checked, 4, "not enough positions fill the tree");
}

#[test]
fn a_frozen_tree_records_every_visit_on_its_path() {
    let mut s: Search<Breakthrough<8>, 2> =
        Search::new(params("sb-uct hash=1"), Breakthrough::start());
    let children_visits = |s: &Search<Breakthrough<8>, 2>| -> u32 {
        let edges = s.tree.edges(ROOT).iter().filter(|e| e.child() != NONE);
        edges.map(|e| s.tree.node(e.child()).visits.get()).sum()
    };
    // Fill the tree, then freeze it as a recycling that cannot make room would.
    while s.tree.used_bytes() < s.tree.budget_bytes() * 9 / 10 {
        s.run(&Limits {
            iterations: Some(1_000),
            ..Limits::default()
        });
    }
    s.frozen = true;
    s.run(&Limits {
        iterations: Some(20_000),
        ..Limits::default()
    });
    assert!(s.tree.is_full(), "the tree should have refused a node");
    let (root, children) = (s.root_visits(), children_visits(&s));
    s.run(&Limits {
        iterations: Some(20_000),
        ..Limits::default()
    });
    assert!(s.report().full);
    // Every one of the iterations went down an existing root child and was recorded there.
    assert_eq!(s.root_visits() - root, 20_000);
    assert_eq!(children_visits(&s) - children, 20_000);
    assert_tree_consistent(&s);
}

#[test]
fn a_few_visits_never_claim_a_near_certain_value() {
    // 207 iterations over Gomoku's 225 moves: the best move has a visit or two, and its value
    // must not read like a mate (it used to print cp 10458).
    let mut s: Search<crate::game::gomoku::Gomoku<true>, 2> = Search::new(
        params("sb-gpn"),
        crate::game::gomoku::Gomoku::<true>::start(),
    );
    let r = s.run(&Limits {
        iterations: Some(207),
        ..Limits::default()
    });
    assert!(r.proven.is_none());
    let visits = s.root_lines(1)[0].visits as f32;
    assert!(
        r.value.abs() <= visits / (visits + 1.0) + 1e-6,
        "{} from {visits} visits",
        r.value
    );
    assert!(r.value.abs() < 0.9);
}
