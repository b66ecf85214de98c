//! Search tests: the hand-checked vectors of `docs/design.md` ("Search algorithms"), the bias
//! formulas, bound propagation on hand-built trees, exactness against exhaustive minimax, tree
//! reuse, the memory cap, determinism and PN-MCTS. Heuristic knowledge is tested in
//! `tests_knowledge.rs`, small Hash sizes and recycling in `tests_memory.rs`.

use crate::game::{Heuristics, Rules};
use std::collections::HashMap;

use super::node::{NONE, PN_DIRTY, PN_INF};
use super::select::compute_bias_terms;
use super::testgame::{use_tree, Spec, TreeGame};
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

pub(super) fn search_tree(spec: &str, tree: super::testgame::TreeSpec) -> Search<TreeGame, 2> {
    use_tree(tree);
    Search::new(params(spec), TreeGame(0))
}

/// Expands edge `i` of node `id` the way an iteration does, backing up `u`.
pub(super) fn expand(s: &mut Search<TreeGame, 2>, id: NodeId, i: usize, u: [f32; 2]) -> NodeId {
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
            .position(|e| e.child() == n)
            .unwrap();
        path.push(s.tree.edges(parent)[k].mv);
        n = parent;
    }
    for m in path.into_iter().rev() {
        pos.play(m);
    }
    pos.play(s.tree.edges(id)[i].mv);
    let child = s.create_node(id, &pos, None).unwrap();
    s.tree.edges_mut(id)[i].child.set(child);
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
    assert_eq!(x.pn(), [1, 3]);
    assert_eq!(x.flags() & PN_DIRTY, 0);
    assert!(s.tree.edges(ROOT).iter().all(|e| e.term() == 0));
}

#[test]
fn vector_2_expansion_and_rank_terms() {
    let mut s = search_tree("gpn bias=rank", VECTOR_TREE);
    s.ensure_root();
    let c0 = expand(&mut s, ROOT, 0, [0.0, 0.0]);
    assert_eq!(s.tree.node(c0).pn(), [4, 1]);
    let x = s.tree.node(ROOT).clone();
    assert_eq!(x.pn(), [1, 3], "min(4,1,1) and 1+1+1");
    assert_ne!(x.flags() & PN_DIRTY, 0);
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
    assert_eq!(s.tree.node(c1).pn(), [0, PN_INF]);
    assert_eq!(s.tree.node(ROOT).pn(), [0, PN_INF]);
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
    assert_eq!(s.tree.node(draw).pn(), [PN_INF, PN_INF]);
    // At c2 (B to move) the draw child adds nothing to B's minimum (the other child is 1) and
    // makes A's sum infinite.
    assert_eq!(s.tree.node(c2).pn(), [PN_INF, 1]);
}

#[test]
fn vector_5_bias_formulas() {
    let run = |bias, xs: &[u32]| {
        let mut v: Vec<(u32, u16)> = xs.iter().enumerate().map(|(i, &x)| (x, i as u16)).collect();
        let edges = vec![node::Edge::new(Move(0)); xs.len()];
        compute_bias_terms(bias, &mut v, |i, t| edges[i].term.set(t));
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
    for algo in ["sb-gpn", "sb-uct", "sb-gpn threats=3", "sb-uct threats=5"] {
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

/// Whether the opponent can win at once after `m`.
fn allows_a_win_in_one<G: Game>(pos: &G, m: Move) -> bool {
    let mut child = pos.clone();
    child.play(m);
    child.outcome().is_none()
        && child
            .winning_move(&mut crate::game::MoveList::new())
            .is_some()
}

#[test]
fn with_threats_a_short_search_never_walks_into_a_mate_in_one() {
    // Positions of random Minishogi games where some moves allow a mate in one and others do
    // not: 300 iterations with the threat search must choose one that does not.
    let mut rng = crate::rng::Rng::new(11);
    let mut list = crate::game::MoveList::new();
    let mut checked = 0;
    for _ in 0..300 {
        let mut pos = Minishogi::start();
        for _ in 0..80 {
            let Some(m) = pos.random_move(&mut rng, &mut list) else {
                break;
            };
            pos.play(m);
            if pos.outcome().is_some() {
                break;
            }
            pos.legal_moves(&mut list);
            let bad = list
                .iter()
                .filter(|&&m| allows_a_win_in_one(&pos, m))
                .count();
            if bad == 0 || bad == list.len() {
                continue;
            }
            let mut s: Search<Minishogi, 2> = Search::new(params("sb-gpn threats=1"), pos.clone());
            let r = s.run(&Limits {
                iterations: Some(300),
                ..Limits::default()
            });
            let best = r.best_move.expect("a move");
            if pos
                .winning_move(&mut crate::game::MoveList::new())
                .is_none()
            {
                assert!(
                    !allows_a_win_in_one(&pos, best),
                    "{} walks into a mate in one at {}",
                    pos.format_move(best),
                    pos.to_position()
                );
            }
            checked += 1;
            break;
        }
        if checked >= 8 {
            break;
        }
    }
    assert!(checked >= 8, "too few positions with a mate-in-one trap");
}

#[test]
fn a_threat_proven_node_becomes_a_root_that_is_searched_again() {
    // Connect Four: the first player threatens to complete the bottom row at d1; the second
    // player's other moves lose at once. The threat search proves them, then the game goes
    // into one: the tree starts again there and the search still finds the win.
    let pos = ConnectFour::parse_position("7/7/7/7/7/PPP1pp1 b").unwrap();
    let mut s: Search<ConnectFour, 2> = Search::new(params("sb-gpn threats=1"), pos.clone());
    let r = s.run(&Limits {
        iterations: Some(2_000),
        stop_when_solved: true,
        ..Limits::default()
    });
    let block = pos.parse_move("d").unwrap();
    assert_eq!(r.best_move, Some(block));
    let losing = pos.parse_move("g").unwrap();
    let kept = s.advance(losing);
    assert!(
        !kept,
        "a node the threat search proved is not kept as a root"
    );
    let r = s.run(&Limits {
        iterations: Some(2_000),
        stop_when_solved: true,
        ..Limits::default()
    });
    assert_eq!(r.proven, Some(Proven::Win { plies: 1 }));
    let mut after = pos.clone();
    after.play(losing);
    assert_eq!(r.best_move, Some(after.parse_move("d").unwrap()));
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
        .child();
    let child_visits = s.tree.node(child).visits.get();
    let reply_edge = s
        .tree
        .edges(child)
        .iter()
        .max_by_key(|e| {
            if e.child() == NONE {
                0
            } else {
                s.tree.node(e.child()).visits.get()
            }
        })
        .unwrap()
        .clone();
    let reply_visits = s.tree.node(reply_edge.child()).visits.get();
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
                if e.child() == NONE {
                    0
                } else {
                    s.tree.node(e.child()).visits.get()
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
        s.tree.node(ROOT).pn(),
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
    assert_eq!(d.tree.node(ROOT).pn(), [PN_INF, 0]);
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
        s.tree.edges(ROOT).iter().all(|e| e.child() != NONE),
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
        .filter(|e| s.tree.node(e.child()).visits.get() > 0)
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
    assert!(s.tree.node(ROOT).lo()[0] >= 0, "not-a-loss proven");
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
            let c = if e.child() == NONE {
                [1, 1]
            } else {
                s.tree.node(e.child()).pn()
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
        assert_eq!(n.pn(), expected, "node {id}");
    }
}

/// The rank terms the backup maintains in place equal a from-scratch ranking of the children.
fn assert_rank_terms_current<G: Game>(s: &mut Search<G, 2>) {
    for id in 0..s.tree.len() as NodeId {
        if s.tree.node(id).is_terminal() {
            continue;
        }
        let kept: Vec<u16> = s.tree.edges(id).iter().map(|e| e.term()).collect();
        s.rebuild_bias_terms(id);
        let fresh: Vec<u16> = s.tree.edges(id).iter().map(|e| e.term()).collect();
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
            if e.child() != NONE {
                assert!(
                    !seen[e.child() as usize],
                    "node {} reached twice",
                    e.child()
                );
                seen[e.child() as usize] = true;
                assert_eq!(tree.node(e.child()).parent, id);
                assert!(e.child() > id, "a child before its parent");
                stack.push(e.child());
            }
        }
    }
    assert!(seen.iter().all(|&x| x), "unreachable nodes");
    let sum: usize = (0..tree.len() as NodeId)
        .map(|id| tree.node(id))
        .map(|n| tree.node_bytes() + tree.edge_bytes() * n.num_edges as usize)
        .sum();
    assert_eq!(tree.used_bytes(), sum);
    assert!(tree.used_bytes() <= tree.resident_bytes());
    assert!(tree.resident_bytes() <= tree.budget_bytes());
}
