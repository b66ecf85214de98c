//! Search tests of heuristic knowledge: implicit minimax backups against the tree's minimax,
//! informed and epsilon-greedy playouts, node priors, the decaying proof-number biases, and
//! selection with and without clipping into score bounds.

use super::node::NONE;
use super::testgame::{use_evals, Spec, TreeGame};
use super::tests::{expand, params, search_tree};
use super::tree::PRIOR_ONE;
use super::*;
use crate::game::{Heuristics, Rules};

const A: u8 = 0;
const B: u8 = 1;

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
        if e.child() != NONE {
            let mut next = pos.clone();
            next.play(e.mv);
            values.push(tree_minimax(s, e.child(), &next));
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
    let got = s.tree.node(id).im() as f32 / node::IM_SCALE;
    assert!(
        (got - want).abs() < 1e-4,
        "node {}: im {got}, minimax {want}",
        pos.0
    );
    for e in s.tree.edges(id) {
        if e.child() != NONE {
            let mut next = pos.clone();
            next.play(e.mv);
            assert_minimax_values(s, e.child(), &next);
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
    assert_eq!(s.tree.node(n1).im(), node::to_im(0.3));
    assert_eq!(s.tree.node(ROOT).im(), node::to_im(0.3));
    let n3 = expand(&mut s, n1, 0, [0.0, 0.0]);
    s.backup_minimax(n3);
    assert_eq!(s.tree.node(n1).im(), node::to_im(0.5));
    assert_eq!(s.tree.node(ROOT).im(), node::to_im(0.5));
    // 4 evaluates -0.1: B prefers it, so 1 becomes -0.1; the root has only child 1: -0.1.
    let n4 = expand(&mut s, n1, 1, [0.0, 0.0]);
    s.backup_minimax(n4);
    assert_eq!(s.tree.node(n1).im(), node::to_im(-0.1));
    assert_eq!(s.tree.node(ROOT).im(), node::to_im(-0.1));
    // 2 evaluates -0.2 and the root (A) keeps the better -0.1.
    let n2 = expand(&mut s, ROOT, 1, [0.0, 0.0]);
    s.backup_minimax(n2);
    assert_eq!(s.tree.node(ROOT).im(), node::to_im(-0.1));
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
            let c = s.tree.node(e.child());
            (c.visits.get(), s.minimax_value(c, 0))
        })
        .collect();
    let best = if values[0].1 >= values[1].1 { 0 } else { 1 };
    assert!(
        values[best].0 > values[1 - best].0,
        "{values:?} after {}",
        root.visits.get()
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
    assert_eq!(s.tree.node(ROOT).visits.get(), 0, "the root gets no prior");
    let n1 = expand(&mut s, ROOT, 0, [1.0, -1.0]);
    let node = s.tree.node(n1);
    assert_eq!(node.visits.get(), 11);
    assert!((node.mean(0) - (10.0 * 0.3 + 1.0) / 11.0).abs() < 1e-6);
    assert!((node.mean(1) + (10.0 * 0.3 + 1.0) / 11.0).abs() < 1e-6);
    // Without priors the same expansion holds only the playout.
    let mut plain = search_tree("uct", IM_TREE);
    use_evals(IM_EVALS);
    plain.ensure_root();
    let p1 = expand(&mut plain, ROOT, 0, [1.0, -1.0]);
    assert_eq!(plain.tree.node(p1).visits.get(), 1);
    assert_eq!(plain.tree.node(p1).mean(0), 1.0);
    // PN-MCTS keeps its first-visit playout: no priors there.
    let mut pn = search_tree("pn-mcts np=10", IM_TREE);
    use_evals(IM_EVALS);
    pn.ensure_root();
    for _ in 0..10 {
        pn.iterate();
    }
    for e in pn.tree.edges(ROOT) {
        if e.child() != NONE {
            assert!(
                pn.tree.node(e.child()).visits.get() < 10,
                "a prior in PN-MCTS"
            );
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

/// Gives node `id` `visits` visits at mean `mean` for A (and `-mean` for B).
fn set_mean(s: &mut Search<TreeGame, 2>, id: NodeId, visits: u32, mean: f32) {
    let n = s.tree.node_mut(id);
    *n.visits.get_mut() = visits;
    n.total[0].set(mean * visits as f32);
    n.total[1].set(-mean * visits as f32);
}

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
        set_mean(&mut s, good_rank, 1000, -0.2);
        *s.tree.node_mut(ROOT).visits.get_mut() = 1002;
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
            set_mean(&mut s, id, visits, mean);
        }
        *s.tree.node_mut(ROOT).visits.get_mut() = 2 * visits;
        s.select(ROOT)
    };
    // Equal values: the better rank gets the larger exploration term.
    assert_eq!(pick("gpn c=0 c_pn=1 pn_explore=true", 1, 0.0), 0);
    // After 1000 visits each, 0.5 * sqrt(ln 2000 / 1000) = 0.044 no longer covers a 0.2 gap...
    assert_eq!(pick("gpn c=0 c_pn=1 pn_explore=true", 1000, -0.2), 1);
    // ...which the constant bias (+0.5) overrides however long the search runs.
    assert_eq!(pick("gpn c=0 c_pn=1", 1000, -0.2), 0);
}

/// Tiny 9x9 Killall-Go endgames: a random corner of white stones and empty points (A7-C9)
/// against a Black board with two eyes (E5, G5), so that exhaustive minimax is cheap.
fn killall_corners(count: usize, seed: u64) -> Vec<crate::game::go::KillallGo> {
    use crate::game::go::KillallGo;
    let mut rng = crate::rng::Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut rows: Vec<String> = Vec::new();
        let mut whites = 0;
        for _ in 0..3 {
            let corner: String = (0..3)
                .map(|_| {
                    if rng.below(10) < 4 {
                        whites += 1;
                        'O'
                    } else {
                        '.'
                    }
                })
                .collect();
            rows.push(format!("{corner}XXXXXX"));
        }
        rows.push("XXXXXXXXX".into());
        rows.push("XXXX.X.XX".into());
        rows.extend(std::iter::repeat("XXXXXXXXX".to_string()).take(4));
        let side = if rng.below(2) == 0 { "b" } else { "w" };
        let Ok(pos) = KillallGo::parse_position(&format!("{} {side}", rows.join("/"))) else {
            continue;
        };
        if whites > 0 && whites < 7 && pos.outcome().is_none() {
            out.push(pos);
        }
    }
    out
}

#[test]
fn go_priors_and_rave_keep_proofs_and_bounds_exact() {
    use super::tests::{minimax, proven_value, value_after};
    use super::tests_memory::assert_tree_values_exact;
    let mut memo = std::collections::HashMap::new();
    let mut proved = 0;
    for pos in killall_corners(8, 3) {
        let truth = minimax(&pos, &mut memo);
        for spec in [
            "sb-uct policy=game prior=20 rave=3000",
            "sb-uct prior=50",
            "sb-gpn rave=100 c=0.2",
            "sb-gpn policy=game prior=20 rave=1000 c=0.2",
            "sb-uct policy=game prior=20 rave=3000 threads=2",
            // Killall-Go's embedded network blended into the priors.
            "sb-uct policy=game prior=20 rave=3000 network=builtin net_prior=50",
        ] {
            let mut s: Search<crate::game::go::KillallGo, 2> =
                Search::new(params(spec), pos.clone());
            let report = s.run(&Limits {
                iterations: Some(20_000),
                stop_when_solved: true,
                ..Limits::default()
            });
            let text = pos.to_position();
            // Every value the tree knows is exact and every bound holds the true value.
            assert_tree_values_exact(&s, &mut memo);
            if let Some(value) = proven_value(report.proven) {
                assert_eq!(value, truth, "{spec} on {text}");
                let best = report.best_move.expect("a move");
                assert_eq!(
                    value_after(&pos, best, &mut memo),
                    truth,
                    "{spec} on {text}"
                );
                proved += 1;
            }
        }
    }
    // These endgames run 17 plies: the proof-number searches prove half of them in 20,000
    // iterations (sb-uct, with or without the knowledge, proves the short ones only).
    assert!(proved >= 8, "{proved} proofs");
}

#[test]
fn rave_counts_every_move_the_mover_played_first() {
    // One thread, and threads whose flights back their own paths and playouts up: beside the
    // selections (from `shared_stats` threads on, 2 by default), or under the exclusive lock.
    for spec in [
        "sb-uct policy=game rave=3000",
        "sb-uct policy=game rave=3000 threads=2",
        "sb-uct policy=game rave=3000 threads=8",
        "sb-uct policy=game rave=3000 threads=2 shared_stats=257",
    ] {
        let pos = crate::game::go::Go9::start();
        let mut s: Search<crate::game::go::Go9, 2> = Search::new(params(spec), pos);
        s.run(&Limits {
            iterations: Some(300),
            ..Limits::default()
        });
        let beside = spec.contains("threads") && !spec.contains("shared_stats=257");
        assert_eq!(s.concurrent, beside, "{spec}: where the flights land");
        let root = s.tree.node(ROOT).clone();
        assert_eq!(root.visits.get(), 300, "{spec}");
        let mut amaf_visits = 0;
        for (edge, amaf) in s.tree.edges(ROOT).iter().zip(s.tree.amaf(ROOT)) {
            let amaf = amaf.get();
            amaf_visits += amaf.visits;
            assert!(amaf.mean().abs() <= 1.0);
            if edge.child() != NONE && crate::game::go::Go9::amaf_index(edge.mv).is_some() {
                // Each iteration through the edge played its move at the root (the pass has
                // no AMAF statistics).
                let child = s.tree.node(edge.child()).visits.get();
                assert!(
                    amaf.visits >= child,
                    "{spec}: {amaf:?} against {child} visits"
                );
            }
        }
        // A playout plays dozens of points for the root's mover.
        assert!(
            amaf_visits > 10 * root.visits.get(),
            "{spec}: {amaf_visits} / {}",
            root.visits.get()
        );
    }
    // Games without point moves have none.
    let other: Search<crate::game::connect4::ConnectFour, 2> = Search::new(
        params("sb-uct rave=3000"),
        crate::game::connect4::ConnectFour::start(),
    );
    assert!(!other.knowledge.rave && !other.tree.has_amaf());
}

/// Black to move and lost: its corner group has two eyes (A9, C9); White owns the rest of the
/// board with eyes Black cannot play. Black's only moves are its eyes and the pass.
fn lost_with_two_eyes() -> crate::game::go::Go9 {
    let rows = [
        ".X.XOOOOO",
        "XXXXO.O.O",
        "OOOOOOOOO",
        "O.OO.OO.O",
        "OOOOOOOOO",
        "OO.OO.OOO",
        "OOOOOOOOO",
        "O.OO.OO.O",
        "OOOOOOOOO",
    ];
    crate::game::go::Go9::parse_position(&format!("{} b", rows.join("/"))).unwrap()
}

#[test]
fn a_search_with_go_priors_passes_rather_than_fill_its_own_eye() {
    use crate::game::go::Go9;
    let pos = lost_with_two_eyes();
    let mut list = crate::game::MoveList::new();
    pos.legal_moves(&mut list);
    let legal: Vec<String> = list.iter().map(|&m| pos.format_move(m)).collect();
    assert_eq!(legal, ["A9", "C9", "pass"]);
    let choice = |spec: &str| {
        let mut s: Search<Go9, 2> = Search::new(params(spec), pos.clone());
        let r = s.run(&Limits {
            iterations: Some(3_000),
            ..Limits::default()
        });
        pos.format_move(r.best_move.expect("a move"))
    };
    // Without the priors the lost search resists longest by filling an eye; with them, it
    // passes (and a GTP `genmove` resigns).
    assert_ne!(choice("sb-uct policy=game"), "pass");
    assert_eq!(choice("sb-uct policy=game prior=20"), "pass");
    assert_eq!(choice("sb-uct policy=game prior=20 rave=3000"), "pass");
}

/// White to move at komi 7 after Black's pass, every group settled and the area even: passing
/// ends the game in a jigo, while every move White has fills its own eye space (a game gpn
/// resigned against GNU Go, 2026-11-28).
fn jigo_after_a_pass() -> crate::game::go::Go9 {
    let rows = [
        "X1XXXXXXX",
        "1XX1XXOXO",
        "X1XXXOOOO",
        "1XX1XXO1O",
        "XXXXXXOOO",
        "XXOXXOOO1",
        "1XOOO1OO1",
        "XXXOOOOOO",
        "XXOO4O",
    ];
    let text = format!("{} w komi 7 passes 1", rows.join("/"));
    crate::game::go::Go9::parse_position(&text).unwrap()
}

#[test]
fn a_proven_draw_is_played_when_the_most_visited_move_does_worse() {
    use crate::game::go::Go9;
    let pos = jigo_after_a_pass();
    // Go's row, and its priors under plain UCT exploration. (Without the priors White's own-eye
    // fill H6 is a draw as well, and may be played.)
    for spec in [
        "sb-uct policy=game c=0 prior=20 rave=3000",
        "sb-uct policy=game prior=20",
    ] {
        let mut s: Search<Go9, 2> = Search::new(params(spec), pos.clone());
        let r = s.run(&Limits {
            iterations: Some(3_000),
            ..Limits::default()
        });
        let best = r.best_move.expect("a move");
        assert_eq!(pos.format_move(best), "pass", "{spec}");
        let (_, value) = s.best_move_value().expect("a value");
        assert_eq!(value, 0.0, "{spec}: the draw's exact value");
    }
}

/// A 9x9 Go network whose policy is nearly all on `point` (its policy index, `row * 9 +
/// column` from the top-left corner).
fn go_net_favouring(point: usize) -> crate::nn::NetworkFile {
    use crate::game::go::Go9;
    use crate::game::Features;
    use crate::nn::{Network, NetworkFile, Shape};
    let shape = Shape {
        inputs: Go9::INPUTS,
        hidden: vec![8],
        policy: Go9::POLICY,
        cost: 0,
    };
    let mut net = Network::new("go", shape, 5).unwrap();
    let policy = net.layer(2);
    net.params_mut()[policy.b + point] += 30.0;
    NetworkFile::new("favour.gpnn", net)
}

#[test]
fn a_network_blends_into_the_priors_and_keeps_playouts_rave_and_eyes() {
    use crate::game::go::Go9;
    use crate::game::Features;
    let pos = Go9::start();
    let tengen = pos.parse_move("E5").unwrap();
    let net = go_net_favouring(pos.policy_index(tengen));
    let root_prior = |share: u32| {
        let mut p = params("sb-uct policy=game prior=20 rave=3000");
        p.network = Some(net.clone());
        p.net_prior = share;
        assert_eq!(p.uses_network(), share == 0);
        let mut s: Search<Go9, 2> = Search::new(p, pos.clone());
        s.run(&Limits {
            iterations: Some(200),
            ..Limits::default()
        });
        let knowledge = TreeKnowledge::of::<Go9, 2>(&s.params);
        assert_eq!((knowledge.priors, knowledge.rave), (share > 0, share > 0));
        let i = s
            .tree
            .edges(ROOT)
            .iter()
            .position(|e| e.mv == tengen)
            .unwrap();
        let amaf_visits: u32 = s.tree.amaf(ROOT).iter().map(|a| a.get().visits).sum();
        let prior = s.tree.priors(ROOT)[i] as f32 / PRIOR_ONE as f32;
        (prior, amaf_visits)
    };
    let mut hand = Vec::new();
    let mut list = crate::game::MoveList::new();
    pos.legal_moves(&mut list);
    pos.move_priors(list.as_slice(), &mut hand);
    let i = list.iter().position(|&m| m == tengen).unwrap();
    let hand = hand[i] as f32 / PRIOR_ONE as f32;
    // All the policy on one of 82 moves: p n / (p n + 1) is about 81/82.
    let (full, amaf) = root_prior(100);
    assert!(full > 0.98, "{full}");
    assert!(amaf > 0, "RAVE stays on");
    let (half, _) = root_prior(50);
    assert!(
        (half - (0.5 * hand + 0.5 * full)).abs() < 1e-3,
        "{half} {hand} {full}"
    );
    // Share 0: the network replaces the playouts; its PUCT priors are the raw policy.
    let (puct, amaf) = root_prior(0);
    assert_eq!(amaf, 0);
    assert!(puct > 0.99);

    // A network that wants an own-eye fill does not get it: a lost position with all the
    // policy on its eye at A9.
    let lost = lost_with_two_eyes();
    let eye = lost.parse_move("A9").unwrap();
    let mut p = params("sb-uct policy=game prior=20 rave=3000 net_prior=100");
    p.network = Some(go_net_favouring(lost.policy_index(eye)));
    let mut s: Search<Go9, 2> = Search::new(p, lost.clone());
    let r = s.run(&Limits {
        iterations: Some(3_000),
        ..Limits::default()
    });
    let i = s.tree.edges(ROOT).iter().position(|e| e.mv == eye).unwrap();
    assert_eq!(s.tree.priors(ROOT)[i], 0);
    assert_eq!(lost.format_move(r.best_move.expect("a move")), "pass");
}

#[test]
fn go_priors_rank_captures_over_self_ataris_and_zero_own_eyes() {
    use crate::game::go::Go9;
    // Black to move: D5 captures the white stone at D4 (in atari); A1 is Black's own eye;
    // J9 is a self-atari of one stone in the corner next to White; E7 is nothing special.
    let rows = ["7O.", "9", "9", "9", "2X.X4", "2XOX4", "3X5", "X8", ".X7"];
    let pos = Go9::parse_position(&format!("{} b", rows.join("/"))).unwrap();
    let moves: Vec<crate::game::Move> = ["D5", "A1", "J9", "E7", "pass"]
        .iter()
        .map(|m| pos.parse_move(m).unwrap())
        .collect();
    let mut priors = Vec::new();
    pos.move_priors(&moves, &mut priors);
    let [capture, eye, self_atari, plain, pass] = priors[..] else {
        panic!("{priors:?}")
    };
    assert_eq!(eye, 0);
    assert!(
        capture > plain && plain > self_atari && self_atari > 0,
        "{priors:?}"
    );
    assert!(pass < plain, "{priors:?}");
}

#[test]
fn without_clipping_selection_reads_the_raw_mean_as_ludiis_score_bounded_mcts() {
    // Move 0: mean -0.5 for A, but proven at least a draw (lower bound 0). Move 1: mean -0.2,
    // nothing proven. No exploration (c = 0), so only the values decide.
    let pick = |spec: &str| {
        let mut s = search_tree(spec, DECAY_TREE);
        s.ensure_root();
        let drawn_at_worst = expand(&mut s, ROOT, 0, [0.0, 0.0]);
        let open = expand(&mut s, ROOT, 1, [0.0, 0.0]);
        for (id, mean) in [(drawn_at_worst, -0.5), (open, -0.2)] {
            set_mean(&mut s, id, 10, mean);
        }
        let n = s.tree.node_mut(drawn_at_worst);
        n.lo[0].set(node::to_bound(0.0));
        n.hi[1].set(node::to_bound(0.0));
        *s.tree.node_mut(ROOT).visits.get_mut() = 20;
        s.select(ROOT)
    };
    // Clipped into [0, 1], move 0 is worth 0 > -0.2; its raw mean -0.5 is not.
    assert_eq!(pick("sb-uct c=0"), 0);
    assert_eq!(pick("sb-uct c=0 clip=false"), 1);
}
