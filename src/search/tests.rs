//! Search tests: the hand-checked vectors of `docs/design.md` ("Search algorithms"), the bias
//! formulas, bound propagation on hand-built trees, exactness against exhaustive minimax, tree
//! reuse, the memory cap and determinism.

use std::collections::HashMap;

use super::node::{from_bound, NONE, PN_DIRTY, PN_INF};
use super::select::compute_bias_terms;
use super::testgame::{use_evals, use_tree, Spec, TreeGame};
use super::*;
use crate::game::breakthrough::Breakthrough;
use crate::game::connect4::ConnectFour;
use crate::game::minishogi::Minishogi;
use crate::game::Game;

const A: u8 = 0;
const B: u8 = 1;

pub(super) fn params(spec: &str) -> SearchParams {
    SearchParams::parse(spec).expect("valid spec")
}

fn search_tree(spec: &str, tree: super::testgame::TreeSpec) -> Search<TreeGame, 2> {
    use_tree(tree);
    Search::new(params(spec), TreeGame(0))
}

/// Expands edge `i` of node `id` the way an iteration does, backing up `u`.
fn expand(s: &mut Search<TreeGame, 2>, id: NodeId, i: usize, u: [f32; 2]) -> NodeId {
    let mut pos = TreeGame(0);
    // Rebuild the position of `id` by walking up the parents.
    let mut path = Vec::new();
    let mut n = id;
    while s.tree.node(n).parent != NONE {
        let parent = s.tree.node(n).parent;
        let k = s
            .tree
            .edges(parent)
            .iter()
            .position(|e| e.child == n)
            .unwrap();
        path.push(s.tree.edges(parent)[k].mv);
        n = parent;
    }
    for m in path.into_iter().rev() {
        pos.play(m);
    }
    pos.play(s.tree.edges(id)[i].mv);
    let child = s.create_node(id, &pos, None).unwrap();
    s.tree.edges_mut(id)[i].child = child;
    s.backup(child, Some(&u), true);
    child
}

// Node 0: X, A to move, 3 moves. 1: c0, B to move, 4 moves. 2: c1, a win for A.
// 3: c2, B to move, 2 moves. 4-5: draws.
static VECTOR_TREE: &[Spec] = &[
    Spec::Inner(A, &[1, 2, 3]),
    Spec::Inner(B, &[4, 4, 5, 5]),
    Spec::End(Some(A)),
    Spec::Inner(B, &[4, 5]),
    Spec::End(None),
    Spec::End(None),
];

#[test]
fn vector_1_new_node_gets_mobility_proof_numbers() {
    let mut s = search_tree("gpn", VECTOR_TREE);
    assert!(s.ensure_root());
    let x = s.tree.node(ROOT);
    assert_eq!(x.pn, [1, 3]);
    assert_eq!(x.flags & PN_DIRTY, 0);
    assert!(s.tree.edges(ROOT).iter().all(|e| e.term == 0));
}

#[test]
fn vector_2_expansion_and_rank_terms() {
    let mut s = search_tree("gpn bias=rank", VECTOR_TREE);
    s.ensure_root();
    let c0 = expand(&mut s, ROOT, 0, [0.0, 0.0]);
    assert_eq!(s.tree.node(c0).pn, [4, 1]);
    let x = *s.tree.node(ROOT);
    assert_eq!(x.pn, [1, 3], "min(4,1,1) and 1+1+1");
    assert_ne!(x.flags & PN_DIRTY, 0);
    let terms = |s: &Search<TreeGame, 2>| -> Vec<f32> {
        s.tree.edges(ROOT).iter().map(|e| e.bias(true, 3)).collect()
    };
    // The backup keeps rank terms current; a full rebuild agrees.
    let kept = terms(&s);
    s.rebuild_bias_terms(ROOT);
    for t in [kept, terms(&s)] {
        assert!(
            (t[0] - 0.0).abs() < 1e-6 && (t[1] - 2.0 / 3.0).abs() < 1e-6,
            "{t:?}"
        );
        assert!((t[2] - 2.0 / 3.0).abs() < 1e-6);
    }
}

#[test]
fn vector_3_terminal_win_proves_the_parent() {
    let mut s = search_tree("gpn", VECTOR_TREE);
    s.ensure_root();
    expand(&mut s, ROOT, 0, [0.0, 0.0]);
    let c1 = expand(&mut s, ROOT, 1, [1.0, -1.0]);
    assert_eq!(s.tree.node(c1).pn, [0, PN_INF]);
    assert_eq!(s.tree.node(ROOT).pn, [0, PN_INF]);
    assert_eq!(
        s.best_move(),
        Some(Move(1)),
        "a proven win is played regardless of visits"
    );
    let report = s.report();
    assert_eq!(report.proven, Some(Proven::Win { plies: 1 }));
}

#[test]
fn vector_4_a_draw_proves_nothing_for_anybody() {
    let mut s = search_tree("gpn", VECTOR_TREE);
    s.ensure_root();
    let c2 = expand(&mut s, ROOT, 2, [0.0, 0.0]);
    let draw = expand(&mut s, c2, 0, [0.0, 0.0]);
    assert_eq!(s.tree.node(draw).pn, [PN_INF, PN_INF]);
    // At c2 (B to move) the draw child adds nothing to B's minimum (the other child is 1) and
    // makes A's sum infinite.
    assert_eq!(s.tree.node(c2).pn, [PN_INF, 1]);
}

#[test]
fn vector_5_bias_formulas() {
    let run = |bias, xs: &[u32]| {
        let mut v: Vec<(u32, u16)> = xs.iter().enumerate().map(|(i, &x)| (x, i as u16)).collect();
        let mut edges = vec![node::Edge::new(Move(0)); xs.len()];
        compute_bias_terms(bias, &mut v, |i, t| edges[i].term = t);
        edges
            .iter()
            .map(|e| (e.bias(bias == Bias::Rank, xs.len()) * 1000.0).round() / 1000.0)
            .collect::<Vec<f32>>()
    };
    assert_eq!(run(Bias::Sum, &[1, 2, PN_INF]), vec![0.75, 0.5, 0.0]);
    assert_eq!(run(Bias::Max, &[0, 2, 5]), vec![1.0, 0.667, 0.167]);
    assert_eq!(
        run(Bias::Rank, &[1, 1, 3, PN_INF, PN_INF]),
        vec![0.8, 0.8, 0.4, 0.2, 0.2]
    );
    assert_eq!(
        run(Bias::Sum, &[0, PN_INF]),
        vec![0.0, 0.0],
        "S == 0: no bonus"
    );
}

// Root A to move. Move 0: B to move with two losing replies (A wins in 2). Move 1: B can win.
static WIN_IN_2: &[Spec] = &[
    Spec::Inner(A, &[1, 2]),
    Spec::Inner(B, &[3, 3]),
    Spec::Inner(B, &[4, 3]),
    Spec::End(Some(A)),
    Spec::End(Some(B)),
];

// Root A to move; every move loses: move 0 at once, move 1 after three plies.
static ALL_LOSE: &[Spec] = &[
    Spec::Inner(A, &[1, 2]),
    Spec::End(Some(B)),
    Spec::Inner(B, &[3]),
    Spec::Inner(A, &[1]),
];

// Root A to move: move 0 draws, move 1 lets B win; a proven draw.
static DRAWN: &[Spec] = &[
    Spec::Inner(A, &[1, 2]),
    Spec::End(None),
    Spec::Inner(B, &[3, 1]),
    Spec::End(Some(B)),
];

#[test]
fn score_bounds_solve_hand_built_trees() {
    for algo in ["sb-uct", "sb-gpn"] {
        for (tree, proven, best) in [
            (WIN_IN_2, Proven::Win { plies: 2 }, Move(0)),
            (ALL_LOSE, Proven::Loss { plies: 3 }, Move(1)),
            (DRAWN, Proven::Draw { plies: 1 }, Move(0)),
        ] {
            let mut s = search_tree(algo, tree);
            let report = s.run(&Limits {
                iterations: Some(200),
                ..Limits::default()
            });
            assert_eq!(report.proven, Some(proven), "{algo}");
            assert_eq!(report.best_move, Some(best), "{algo}");
            let stop = s.run(&Limits {
                iterations: Some(200),
                stop_when_solved: true,
                ..Limits::default()
            });
            assert_eq!(stop.iterations, 0, "{algo}: a solved root stops at once");
        }
    }
}

#[test]
fn plain_uct_proves_nothing() {
    let mut s = search_tree("uct", WIN_IN_2);
    let report = s.run(&Limits {
        iterations: Some(200),
        ..Limits::default()
    });
    assert_eq!(report.proven, None);
}

/// Exhaustive negamax value (-1, 0, 1) for the side to move, memoised by position.
pub(super) fn minimax<G: Game>(pos: &G, memo: &mut HashMap<u64, i8>) -> i8 {
    if let Some(outcome) = pos.outcome() {
        return outcome.utility(pos.to_move()).round() as i8;
    }
    if let Some(&v) = memo.get(&pos.hash()) {
        return v;
    }
    let mut list = crate::game::MoveList::new();
    pos.legal_moves(&mut list);
    let mut best = -1;
    for &m in list.iter() {
        let mut child = pos.clone();
        child.play(m);
        let v = if child.to_move() == pos.to_move() {
            minimax(&child, memo)
        } else {
            -minimax(&child, memo)
        };
        best = best.max(v);
        if best == 1 {
            break;
        }
    }
    memo.insert(pos.hash(), best);
    best
}

pub(super) fn proven_value(p: Option<Proven>) -> Option<i8> {
    match p? {
        Proven::Win { .. } => Some(1),
        Proven::Draw { .. } => Some(0),
        Proven::Loss { .. } => Some(-1),
    }
}

/// The minimax value of `pos` for its mover after playing `m`.
pub(super) fn value_after<G: Game>(pos: &G, m: Move, memo: &mut HashMap<u64, i8>) -> i8 {
    let mut child = pos.clone();
    child.play(m);
    if child.to_move() == pos.to_move() {
        minimax(&child, memo)
    } else {
        -minimax(&child, memo)
    }
}

/// Checks that both score-bounded searches prove `pos`'s minimax value and play a move that keeps it.
fn assert_solves_exactly<G: Game>(pos: &G, iterations: u64) {
    let mut memo = HashMap::new();
    let truth = minimax(pos, &mut memo);
    for algo in ["sb-gpn", "sb-uct"] {
        let mut s: Search<G, 2> = Search::new(params(algo), pos.clone());
        let report = s.run(&Limits {
            iterations: Some(iterations),
            stop_when_solved: true,
            ..Limits::default()
        });
        let text = pos.to_position();
        assert_eq!(proven_value(report.proven), Some(truth), "{algo} on {text}");
        let best = report.best_move.expect("a move");
        let after = value_after(pos, best, &mut memo);
        assert_eq!(
            after,
            truth,
            "{algo} on {text}: {} does not keep the value",
            pos.format_move(best)
        );
    }
}

#[test]
fn connect_four_endgames_are_solved_exactly() {
    let mut rng = crate::rng::Rng::new(5);
    let mut list = crate::game::MoveList::new();
    let mut checked = 0;
    while checked < 12 {
        let mut pos = ConnectFour::start();
        for _ in 0..30 {
            match pos.random_move(&mut rng, &mut list) {
                Some(m) => pos.play(m),
                None => break,
            }
        }
        if pos.outcome().is_none() {
            assert_solves_exactly(&pos, 200_000);
            checked += 1;
        }
    }
}

#[test]
fn breakthrough_6x6_endgames_are_solved_exactly() {
    for text in [
        "6/2p3/6/6/3P2/6 w",
        "6/2p3/6/6/3P2/6 b",
        "6/p4p/6/6/1P2P1/6 w",
        "2p3/6/1P4/6/6/6 b",
        "6/3p2/1p4/2P3/6/6 w",
    ] {
        let pos = Breakthrough::<6>::parse_position(text).unwrap();
        assert_solves_exactly(&pos, 500_000);
    }
}

#[test]
fn minishogi_mates_in_one_are_found() {
    // Random games until a position where the side to move can mate in one.
    let mut rng = crate::rng::Rng::new(3);
    let mut list = crate::game::MoveList::new();
    let mut found = 0;
    for _ in 0..400 {
        let mut pos = Minishogi::start();
        for _ in 0..60 {
            let Some(m) = pos.random_move(&mut rng, &mut list) else {
                break;
            };
            pos.play(m);
            if pos.outcome().is_some() {
                break;
            }
            pos.legal_moves(&mut list);
            let mates = list.iter().any(|&m| {
                let mut c = pos.clone();
                c.play(m);
                c.outcome().is_some()
            });
            if mates {
                for algo in ["sb-gpn", "sb-uct"] {
                    let mut s: Search<Minishogi, 2> = Search::new(params(algo), pos.clone());
                    let r = s.run(&Limits {
                        iterations: Some(20_000),
                        stop_when_solved: true,
                        ..Limits::default()
                    });
                    assert_eq!(
                        r.proven,
                        Some(Proven::Win { plies: 1 }),
                        "{algo} {}",
                        pos.to_position()
                    );
                    let mut c = pos.clone();
                    c.play(r.best_move.unwrap());
                    assert!(c.outcome().is_some(), "{algo}: the proven move must mate");
                }
                found += 1;
                break;
            }
        }
        if found >= 5 {
            break;
        }
    }
    assert!(found >= 5, "too few mate-in-one positions found");
}

#[test]
fn tree_reuse_keeps_the_subtree() {
    let mut s: Search<Breakthrough<8>, 2> = Search::new(params("sb-gpn"), Breakthrough::start());
    s.run(&Limits {
        iterations: Some(5000),
        ..Limits::default()
    });
    let first = s.best_move().unwrap();
    // The statistics of the child we are about to enter, and of its most visited reply.
    let child = s
        .tree
        .edges(ROOT)
        .iter()
        .find(|e| e.mv == first)
        .unwrap()
        .child;
    let child_visits = s.tree.node(child).visits;
    let reply_edge = *s
        .tree
        .edges(child)
        .iter()
        .max_by_key(|e| {
            if e.child == NONE {
                0
            } else {
                s.tree.node(e.child).visits
            }
        })
        .unwrap();
    let reply_visits = s.tree.node(reply_edge.child).visits;
    assert!(s.advance(first));
    assert_eq!(s.root_visits(), child_visits);
    assert!(s.advance(reply_edge.mv));
    assert_eq!(s.root_visits(), reply_visits);
    let before = s.root_visits();
    s.run(&Limits {
        iterations: Some(1000),
        ..Limits::default()
    });
    assert_eq!(s.root_visits(), before + 1000);
    // A move that was never expanded starts a fresh tree.
    let mut t: Search<Breakthrough<8>, 2> = Search::new(params("uct"), Breakthrough::start());
    assert!(!t.advance(Move(0b001001_000001))); // b1b2 was never searched
}

#[test]
fn memory_stays_under_the_cap_over_a_self_play_game() {
    let mut s: Search<ConnectFour, 2> = Search::new(params("sb-gpn hash=1"), ConnectFour::start());
    let mut full_seen = false;
    while s.position().outcome().is_none() {
        let r = s.run(&Limits {
            iterations: Some(20_000),
            ..Limits::default()
        });
        assert!(
            r.memory_bytes <= r.memory_budget,
            "{} > {}",
            r.memory_bytes,
            r.memory_budget
        );
        assert!(r.memory_resident <= r.memory_budget);
        full_seen |= r.recycles > 0;
        let m = r.best_move.unwrap();
        s.advance(m);
    }
    assert!(full_seen, "the test should reach the cap and recycle");
}

#[test]
fn one_thread_and_a_seed_give_identical_searches() {
    let run = || {
        let mut s: Search<Breakthrough<8>, 2> =
            Search::new(params("sb-gpn seed=7"), Breakthrough::start());
        let r = s.run(&Limits {
            iterations: Some(3000),
            ..Limits::default()
        });
        let visits: Vec<u32> = s
            .tree
            .edges(ROOT)
            .iter()
            .map(|e| {
                if e.child == NONE {
                    0
                } else {
                    s.tree.node(e.child).visits
                }
            })
            .collect();
        (r.best_move, r.nodes, r.pv, visits)
    };
    assert_eq!(run(), run());
}

#[test]
fn every_algorithm_plays_legal_moves_in_every_game() {
    use crate::game::registry::{visit, GameVisitor, PlayersVisitor, GAMES};
    struct Play(&'static str);
    impl GameVisitor for Play {
        type Output = ();
        fn visit<G: Game>(self) {
            G::with_players(self)
        }
    }
    impl PlayersVisitor for Play {
        type Output = ();
        fn visit<G: Game, const P: usize>(self) {
            let mut s: Search<G, P> = Search::new(params(self.0), G::start());
            for _ in 0..3 {
                let r = s.run(&Limits {
                    iterations: Some(300),
                    ..Limits::default()
                });
                let Some(m) = r.best_move else { break };
                let mut list = crate::game::MoveList::new();
                s.position().legal_moves(&mut list);
                assert!(list.contains(m), "{} {}", G::INFO.name, self.0);
                s.advance(m);
            }
        }
    }
    for algo in ["uct", "sb-uct", "gpn", "sb-gpn", "pn-mcts"] {
        for info in GAMES {
            visit(info.name, Play(algo)).unwrap();
        }
    }
}

#[test]
fn pn_mcts_proves_a_win_and_plays_it_with_f() {
    let mut s = search_tree("pn-mcts pn_flags=FSU", WIN_IN_2);
    let report = s.run(&Limits {
        iterations: Some(100),
        ..Limits::default()
    });
    assert_eq!(
        s.tree.node(ROOT).pn,
        [0, PN_INF],
        "proof and disproof numbers of the root"
    );
    assert_eq!(report.best_move, Some(Move(0)));
    assert!(matches!(report.proven, Some(Proven::Win { .. })));
    // A draw is a disproof in the one-layer version: the drawn tree is disproven, not proven.
    let mut d = search_tree("pn-mcts", DRAWN);
    d.run(&Limits {
        iterations: Some(100),
        ..Limits::default()
    });
    assert_eq!(d.tree.node(ROOT).pn, [PN_INF, 0]);
    assert_eq!(d.report().proven, None);
}

#[test]
fn pn_mcts_expands_every_child_at_once_and_visits_each_first() {
    let mut s = search_tree("pn-mcts", VECTOR_TREE);
    s.run(&Limits {
        iterations: Some(1),
        ..Limits::default()
    });
    assert!(
        s.tree.edges(ROOT).iter().all(|e| e.child != NONE),
        "root fully expanded"
    );
    s.run(&Limits {
        iterations: Some(2),
        ..Limits::default()
    });
    let visited = s
        .tree
        .edges(ROOT)
        .iter()
        .filter(|e| s.tree.node(e.child).visits > 0)
        .count();
    assert_eq!(
        visited, 3,
        "each child is visited once before any is visited twice"
    );
}

#[test]
fn pn_mcts_solves_connect_four_wins() {
    // Positions where the side to move wins (by minimax): PN-MCTS must prove them.
    let mut rng = crate::rng::Rng::new(9);
    let mut list = crate::game::MoveList::new();
    let mut proved = 0;
    for _ in 0..2000 {
        let mut pos = ConnectFour::start();
        for _ in 0..32 {
            if let Some(m) = pos.random_move(&mut rng, &mut list) {
                pos.play(m);
            }
        }
        if pos.outcome().is_some() || minimax(&pos, &mut HashMap::new()) != 1 {
            continue;
        }
        let mut s: Search<ConnectFour, 2> = Search::new(params("pn-mcts"), pos.clone());
        let r = s.run(&Limits {
            iterations: Some(100_000),
            stop_when_solved: true,
            ..Limits::default()
        });
        assert!(
            matches!(r.proven, Some(Proven::Win { .. })),
            "{}",
            pos.to_position()
        );
        let mut child = pos.clone();
        child.play(r.best_move.unwrap());
        assert_eq!(
            -minimax(&child, &mut HashMap::new()),
            1,
            "F plays a winning move"
        );
        proved += 1;
        if proved == 8 {
            break;
        }
    }
    assert_eq!(proved, 8);
}

#[test]
fn pn_mcts_draw_layer_proves_not_losing_and_takes_the_draw_with_contempt() {
    // DRAWN: move 0 draws, move 1 loses. The draw layer proves "not a loss" at the root.
    let mut s = search_tree("pn-mcts draw_layer=true contempt=0.2", DRAWN);
    let r = s.run(&Limits {
        iterations: Some(100),
        ..Limits::default()
    });
    assert!(s.tree.node(ROOT).lo[0] >= 0, "not-a-loss proven");
    assert_eq!(r.proven, Some(Proven::Draw { plies: 1 }));
    assert_eq!(r.best_move, Some(Move(0)));
    assert!(
        SearchParams::parse("pn-mcts l2=1 contempt=0.2")
            .unwrap()
            .draw_layer
    );
}

/// Proof numbers of every node equal a from-scratch OR/AND over its children, so the lazy and
/// incremental updates of the backup lose nothing.
fn assert_proof_numbers_consistent<G: Game>(s: &Search<G, 2>) {
    for id in 0..s.tree.len() as NodeId {
        let n = s.tree.node(id);
        if n.is_terminal() {
            continue;
        }
        let m = n.mover as usize;
        let mut expected = [0u32; 2];
        expected[m] = PN_INF;
        for e in s.tree.edges(id) {
            let c = if e.child == NONE {
                [1, 1]
            } else {
                s.tree.node(e.child).pn
            };
            for p in 0..2 {
                expected[p] = if p == m {
                    expected[p].min(c[p])
                } else {
                    node::pn_add(expected[p], c[p])
                };
            }
        }
        if let Some(w) = expected.iter().position(|&x| x == 0) {
            expected[1 - w] = PN_INF;
        }
        assert_eq!(n.pn, expected, "node {id}");
    }
}

/// The rank terms the backup maintains in place equal a from-scratch ranking of the children.
fn assert_rank_terms_current<G: Game>(s: &mut Search<G, 2>) {
    for id in 0..s.tree.len() as NodeId {
        if s.tree.node(id).is_terminal() {
            continue;
        }
        let kept: Vec<u16> = s.tree.edges(id).iter().map(|e| e.term).collect();
        s.rebuild_bias_terms(id);
        let fresh: Vec<u16> = s.tree.edges(id).iter().map(|e| e.term).collect();
        assert_eq!(kept, fresh, "node {id}");
    }
}

#[test]
fn incremental_proof_numbers_and_rank_terms_equal_a_full_recomputation() {
    for algo in ["gpn", "sb-gpn"] {
        let mut s: Search<Breakthrough<6>, 2> = Search::new(params(algo), Breakthrough::start());
        for _ in 0..4 {
            let r = s.run(&Limits {
                iterations: Some(3000),
                ..Limits::default()
            });
            assert_proof_numbers_consistent(&s);
            assert_rank_terms_current(&mut s);
            s.advance(r.best_move.unwrap());
        }
        let mut c: Search<ConnectFour, 2> = Search::new(params(algo), ConnectFour::start());
        for _ in 0..6 {
            let r = c.run(&Limits {
                iterations: Some(3000),
                ..Limits::default()
            });
            assert_proof_numbers_consistent(&c);
            assert_rank_terms_current(&mut c);
            c.advance(r.best_move.unwrap());
        }
    }
}

// A depth-3 tree for implicit minimax: A moves at 0, B at 1 and 2, A at 3-6; 7-14 are leaves
// (draws) whose evaluations differ.
static IM_TREE: &[Spec] = &[
    Spec::Inner(A, &[1, 2]),
    Spec::Inner(B, &[3, 4]),
    Spec::Inner(B, &[5, 6]),
    Spec::Inner(A, &[7, 8]),
    Spec::Inner(A, &[9, 10]),
    Spec::Inner(A, &[11, 12]),
    Spec::Inner(A, &[13, 14]),
    Spec::End(None),
    Spec::End(None),
    Spec::End(None),
    Spec::End(None),
    Spec::End(None),
    Spec::End(None),
    Spec::End(None),
    Spec::End(None),
];
static IM_EVALS: &[f32] = &[
    0.0, 0.3, -0.2, 0.5, -0.1, 0.4, 0.6, 0.9, -0.5, 0.2, 0.1, -0.8, 0.7, 0.3, 0.35,
];

/// Minimax of the evaluations over the nodes the search has created below `id` (a node without
/// created children counts its own evaluation; a finished one its exact value), for A.
fn tree_minimax(s: &Search<TreeGame, 2>, id: NodeId, pos: &TreeGame) -> f32 {
    let node = s.tree.node(id);
    if let Some(o) = pos.outcome() {
        return o.utility(crate::game::Player(0));
    }
    let mut values = Vec::new();
    for e in s.tree.edges(id) {
        if e.child != NONE {
            let mut next = pos.clone();
            next.play(e.mv);
            values.push(tree_minimax(s, e.child, &next));
        }
    }
    if values.is_empty() {
        pos.evaluate(crate::game::Player(0))
    } else if node.mover == A {
        values.into_iter().fold(f32::NEG_INFINITY, f32::max)
    } else {
        values.into_iter().fold(f32::INFINITY, f32::min)
    }
}

fn assert_minimax_values(s: &Search<TreeGame, 2>, id: NodeId, pos: &TreeGame) {
    let want = tree_minimax(s, id, pos);
    let got = s.tree.node(id).im as f32 / node::IM_SCALE;
    assert!(
        (got - want).abs() < 1e-4,
        "node {}: im {got}, minimax {want}",
        pos.0
    );
    for e in s.tree.edges(id) {
        if e.child != NONE {
            let mut next = pos.clone();
            next.play(e.mv);
            assert_minimax_values(s, e.child, &next);
        }
    }
}

#[test]
fn implicit_minimax_values_equal_the_minimax_of_the_tree_after_every_iteration() {
    for algo in ["uct", "sb-uct", "gpn", "sb-gpn"] {
        let mut s = search_tree(&format!("{algo} im=0.5"), IM_TREE);
        use_evals(IM_EVALS);
        s.ensure_root();
        for _ in 0..40 {
            s.iterate();
            assert_minimax_values(&s, ROOT, &TreeGame(0));
        }
        // The root's value is the full minimax over the leaves' exact values (all draws). The
        // plain algorithms built the whole tree; the score-bounded ones stopped growing it once
        // the draw was proven.
        if !algo.starts_with("sb") {
            assert_eq!(s.tree.len(), IM_TREE.len(), "{algo}");
        }
        assert_eq!(s.minimax_value(s.tree.node(ROOT), 0), 0.0, "{algo}");
    }
}

#[test]
fn partial_trees_back_up_evaluations_by_hand() {
    // Expand 0 -> 1 -> 3 by hand: 3 evaluates 0.5 for A, so 1 (B to move, one created child)
    // is 0.5, and so is the root.
    let mut s = search_tree("uct im=0.5", IM_TREE);
    use_evals(IM_EVALS);
    s.ensure_root();
    let n1 = expand(&mut s, ROOT, 0, [0.0, 0.0]);
    s.backup_minimax(n1);
    assert_eq!(s.tree.node(n1).im, node::to_im(0.3));
    assert_eq!(s.tree.node(ROOT).im, node::to_im(0.3));
    let n3 = expand(&mut s, n1, 0, [0.0, 0.0]);
    s.backup_minimax(n3);
    assert_eq!(s.tree.node(n1).im, node::to_im(0.5));
    assert_eq!(s.tree.node(ROOT).im, node::to_im(0.5));
    // 4 evaluates -0.1: B prefers it, so 1 becomes -0.1; the root has only child 1: -0.1.
    let n4 = expand(&mut s, n1, 1, [0.0, 0.0]);
    s.backup_minimax(n4);
    assert_eq!(s.tree.node(n1).im, node::to_im(-0.1));
    assert_eq!(s.tree.node(ROOT).im, node::to_im(-0.1));
    // 2 evaluates -0.2 and the root (A) keeps the better -0.1.
    let n2 = expand(&mut s, ROOT, 1, [0.0, 0.0]);
    s.backup_minimax(n2);
    assert_eq!(s.tree.node(ROOT).im, node::to_im(-0.1));
}

#[test]
fn implicit_minimax_steers_selection_towards_the_better_evaluation() {
    // With alpha = 1 and no exploration, selection follows the minimax values alone: after both
    // root moves are tried, the one whose subtree evaluates better for A is chosen every time.
    let mut s = search_tree("uct im=1 c=0", IM_TREE);
    use_evals(IM_EVALS);
    s.ensure_root();
    for _ in 0..30 {
        s.iterate();
    }
    let root = s.tree.node(ROOT);
    let values: Vec<(u32, f32)> = s
        .tree
        .edges(ROOT)
        .iter()
        .map(|e| {
            let c = s.tree.node(e.child);
            (c.visits, s.minimax_value(c, 0))
        })
        .collect();
    let best = if values[0].1 >= values[1].1 { 0 } else { 1 };
    assert!(
        values[best].0 > values[1 - best].0,
        "{values:?} after {}",
        root.visits
    );
}

#[test]
fn informed_playouts_take_a_win_in_one_and_early_terminations_score_the_evaluation() {
    use crate::game::connect4::ConnectFour;
    // x to move with three in a row on the first rank: the informed policy wins at once.
    let pos = ConnectFour::parse_position("7/7/7/7/7/ooo1xxx w").unwrap();
    let mut s: Search<ConnectFour, 2> = Search::new(params("uct policy=ipp"), pos.clone());
    for _ in 0..20 {
        assert_eq!(
            s.rollout.informed_playout::<_, 2>(&s.params, pos.clone()),
            [1.0, -1.0]
        );
    }
    // fet 0 plies away is the position's own evaluation; det 0.01 ends at once on any lead.
    let mut s: Search<TreeGame, 2> = search_tree("uct fet=1", IM_TREE);
    use_evals(IM_EVALS);
    let after_one = s
        .rollout
        .informed_playout::<_, 2>(&s.params, TreeGame::<2>(1));
    assert!(
        after_one == [0.5, -0.5] || after_one == [-0.1, 0.1],
        "{after_one:?}"
    );
    let mut s: Search<TreeGame, 2> = search_tree("uct det=0.25", IM_TREE);
    use_evals(IM_EVALS);
    assert_eq!(
        s.rollout
            .informed_playout::<_, 2>(&s.params, TreeGame::<2>(1)),
        [1.0, -1.0]
    );
    assert_eq!(
        s.rollout
            .informed_playout::<_, 2>(&s.params, TreeGame::<2>(5)),
        [1.0, -1.0]
    );
}

#[test]
fn epsilon_greedy_playouts_pick_the_best_evaluated_move() {
    // ege 0 would be off: a tiny epsilon is greedy almost always. At the root (A to move), 1
    // evaluates 0.3 for A and 2 -0.2; at 1 (B to move), 4 (-0.1 for A) beats 3 (0.5).
    let mut s = search_tree("uct ege=0.000001", IM_TREE);
    use_evals(IM_EVALS);
    for _ in 0..20 {
        assert_eq!(
            s.rollout.playout_move(&s.params, &TreeGame::<2>(0)),
            Some(Move(0))
        );
        assert_eq!(
            s.rollout.playout_move(&s.params, &TreeGame::<2>(1)),
            Some(Move(1))
        );
        // B at 2 prefers 5 (0.4 for A) over 6 (0.6 for A).
        assert_eq!(
            s.rollout.playout_move(&s.params, &TreeGame::<2>(2)),
            Some(Move(0))
        );
    }
}

#[test]
fn node_priors_start_a_new_node_at_its_evaluation() {
    // Node 1 evaluates 0.3 for A: with np=10 it is created with 10 virtual visits at mean 0.3
    // for A (-0.3 for B); the backed-up playout (a win for A) then counts as the 11th visit.
    let mut s = search_tree("uct np=10", IM_TREE);
    use_evals(IM_EVALS);
    s.ensure_root();
    assert_eq!(s.tree.node(ROOT).visits, 0, "the root gets no prior");
    let n1 = expand(&mut s, ROOT, 0, [1.0, -1.0]);
    let node = s.tree.node(n1);
    assert_eq!(node.visits, 11);
    assert!((node.mean(0) - (10.0 * 0.3 + 1.0) / 11.0).abs() < 1e-6);
    assert!((node.mean(1) + (10.0 * 0.3 + 1.0) / 11.0).abs() < 1e-6);
    // Without priors the same expansion holds only the playout.
    let mut plain = search_tree("uct", IM_TREE);
    use_evals(IM_EVALS);
    plain.ensure_root();
    let p1 = expand(&mut plain, ROOT, 0, [1.0, -1.0]);
    assert_eq!(plain.tree.node(p1).visits, 1);
    assert_eq!(plain.tree.node(p1).mean(0), 1.0);
    // PN-MCTS keeps its first-visit playout: no priors there.
    let mut pn = search_tree("pn-mcts np=10", IM_TREE);
    use_evals(IM_EVALS);
    pn.ensure_root();
    for _ in 0..10 {
        pn.iterate();
    }
    for e in pn.tree.edges(ROOT) {
        if e.child != NONE {
            assert!(pn.tree.node(e.child).visits < 10, "a prior in PN-MCTS");
        }
    }
}

// Root A to move: move 0 leads to a node where B has 2 moves (A's proof number 2), move 1 to one
// where B has 4 (A's proof number 4), so move 0 has the better proof-number rank.
static DECAY_TREE: &[Spec] = &[
    Spec::Inner(A, &[1, 2]),
    Spec::Inner(B, &[3, 3]),
    Spec::Inner(B, &[3, 3, 3, 3]),
    Spec::End(None),
];

#[test]
fn a_decaying_proof_number_bias_hands_a_well_visited_child_over_to_its_value() {
    // Move 0: rank bonus 1/2, but 1000 visits at mean -0.2 for A. Move 1: no bonus, 1 visit at
    // mean 0. No exploration (c = 0), so only the value and the bias decide.
    let pick = |spec: &str| {
        let mut s = search_tree(spec, DECAY_TREE);
        s.ensure_root();
        let good_rank = expand(&mut s, ROOT, 0, [0.0, 0.0]);
        expand(&mut s, ROOT, 1, [0.0, 0.0]);
        s.rebuild_bias_terms(ROOT);
        let n = s.tree.node_mut(good_rank);
        n.visits = 1000;
        n.total = [-200.0, 200.0];
        s.tree.node_mut(ROOT).visits = 1002;
        s.select(ROOT)
    };
    // Constant bias: -0.2 + 0.5 beats 0.
    assert_eq!(pick("gpn c=0 c_pn=1"), 0);
    // Halved at 100 visits: the bonus left after 1000 is 0.5 * 100 / 1100 = 0.045 < 0.2.
    assert_eq!(pick("gpn c=0 c_pn=1 pn_decay=100"), 1);
    // Halved only at 100000 visits: the bonus is still 0.495.
    assert_eq!(pick("gpn c=0 c_pn=1 pn_decay=100000"), 0);
    let s = search_tree("gpn pn_decay=100", DECAY_TREE);
    assert_eq!((s.pn_weight(0), s.pn_weight(100)), (1.0, 0.5));
}

#[test]
fn a_bias_on_the_exploration_term_orders_equal_children_and_fades_with_visits() {
    // Both children with `visits` visits; move 0 (rank bonus 1/2) at `mean0` for A, move 1 (no
    // bonus) at 0. No plain exploration (c = 0): only the values and the bias decide.
    let pick = |spec: &str, visits: u32, mean0: f32| {
        let mut s = search_tree(spec, DECAY_TREE);
        s.ensure_root();
        let good_rank = expand(&mut s, ROOT, 0, [0.0, 0.0]);
        let other = expand(&mut s, ROOT, 1, [0.0, 0.0]);
        s.rebuild_bias_terms(ROOT);
        for (id, mean) in [(good_rank, mean0), (other, 0.0)] {
            let n = s.tree.node_mut(id);
            n.visits = visits;
            n.total = [mean * visits as f32, -mean * visits as f32];
        }
        s.tree.node_mut(ROOT).visits = 2 * visits;
        s.select(ROOT)
    };
    // Equal values: the better rank gets the larger exploration term.
    assert_eq!(pick("gpn c=0 c_pn=1 pn_explore=true", 1, 0.0), 0);
    // After 1000 visits each, 0.5 * sqrt(ln 2000 / 1000) = 0.044 no longer covers a 0.2 gap...
    assert_eq!(pick("gpn c=0 c_pn=1 pn_explore=true", 1000, -0.2), 1);
    // ...which the constant bias (+0.5) overrides however long the search runs.
    assert_eq!(pick("gpn c=0 c_pn=1", 1000, -0.2), 0);
}

/// Every node reachable from the root exactly once, parents and children agreeing, and the
/// memory accounting equal to what the arenas hold.
pub(super) fn assert_tree_consistent<G: Game>(s: &Search<G, 2>) {
    let tree = &s.tree;
    let mut seen = vec![false; tree.len()];
    let mut stack = vec![ROOT];
    seen[ROOT as usize] = true;
    assert_eq!(tree.node(ROOT).parent, NONE);
    while let Some(id) = stack.pop() {
        for e in tree.edges(id) {
            if e.child != NONE {
                assert!(!seen[e.child as usize], "node {} reached twice", e.child);
                seen[e.child as usize] = true;
                assert_eq!(tree.node(e.child).parent, id);
                assert!(e.child > id, "a child before its parent");
                stack.push(e.child);
            }
        }
    }
    assert!(seen.iter().all(|&x| x), "unreachable nodes");
    let sum: usize = tree
        .nodes()
        .iter()
        .map(|n| tree.node_bytes() + tree.edge_bytes() * n.num_edges as usize)
        .sum();
    assert_eq!(tree.used_bytes(), sum);
    assert!(tree.used_bytes() <= tree.resident_bytes());
    assert!(tree.resident_bytes() <= tree.budget_bytes());
}

/// The visit shares of the root's moves.
fn root_shares<G: Game>(s: &Search<G, 2>) -> Vec<f64> {
    let root = s.tree.node(ROOT).visits as f64;
    s.tree
        .edges(ROOT)
        .iter()
        .map(|e| {
            if e.child == NONE {
                0.0
            } else {
                s.tree.node(e.child).visits as f64 / root
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
        let node = *s.tree.node(id);
        let m = node.mover as usize;
        let truth = minimax(&pos, memo);
        let (lo, hi) = (from_bound(node.lo[m]), from_bound(node.hi[m]));
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
            if e.child != NONE {
                let mut child = pos.clone();
                child.play(e.mv);
                stack.push((e.child, child));
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
        let edges = s.tree.edges(ROOT).iter().filter(|e| e.child != NONE);
        edges.map(|e| s.tree.node(e.child).visits).sum()
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
