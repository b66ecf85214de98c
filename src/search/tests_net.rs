//! Search with a network: the value replaces the playouts, the policy's priors steer PUCT, and
//! proofs and bounds stay exact whatever the network says.

use crate::game::{Heuristics, Rules};
use std::collections::HashMap;

use super::tests::{assert_tree_consistent, minimax, params, proven_value, value_after};
use super::tests_memory::{assert_tree_values_exact, solved_connect_four};
use super::tree::PRIOR_ONE;
use super::*;
use crate::game::connect4::ConnectFour;
use crate::nn::{Features, Network, NetworkFile, Shape};

/// A random Connect Four network (hidden 16), optionally with its policy biased towards
/// column `favourite` and its value biased towards "the side to move wins" by `win_bias`.
fn cfour_net(seed: u64, favourite: Option<usize>, win_bias: f32) -> NetworkFile {
    let shape = Shape {
        inputs: ConnectFour::INPUTS,
        hidden: vec![16],
        policy: ConnectFour::POLICY,
        cost: 0,
    };
    let mut net = Network::new("cfour", shape, seed).unwrap();
    let (value, policy) = (net.layer(1), net.layer(2));
    net.params_mut()[value.b] += win_bias;
    if let Some(col) = favourite {
        net.params_mut()[policy.b + col] += 20.0;
    }
    NetworkFile::new(&format!("test-{seed}.gpnn"), net)
}

fn with_net(spec: &str, net: &NetworkFile) -> SearchParams {
    let mut p = params(spec);
    p.network = Some(net.clone());
    p
}

#[test]
fn the_priors_of_a_new_node_are_the_policy_over_its_legal_moves() {
    let net = cfour_net(3, None, 0.0);
    let mut s: Search<ConnectFour, 2> = Search::new(with_net("sb-gpn", &net), ConnectFour::start());
    s.run(&Limits {
        iterations: Some(50),
        ..Limits::default()
    });
    let priors = s.tree.priors(ROOT);
    assert_eq!(priors.len(), 7);
    let sum: u32 = priors.iter().map(|&p| p as u32).sum();
    assert!((sum as i64 - PRIOR_ONE as i64).abs() <= 7, "{sum}");
    // The same probabilities as the network's policy head over the seven columns.
    let mut leaf = netleaf::NetLeaf::default();
    let moves: Vec<_> = s.tree.edges(ROOT).iter().map(|e| e.mv).collect();
    leaf.value_and_priors(net.net(), &ConnectFour::start(), &moves);
    assert_eq!(leaf.priors, priors);
}

#[test]
fn puct_follows_a_confident_policy() {
    let net = cfour_net(4, Some(5), 0.0);
    let mut s: Search<ConnectFour, 2> = Search::new(with_net("uct", &net), ConnectFour::start());
    let report = s.run(&Limits {
        iterations: Some(200),
        ..Limits::default()
    });
    let col5 = s
        .tree
        .edges(ROOT)
        .iter()
        .find(|e| e.mv.0 == 5)
        .map(|e| s.tree.node(e.child()).visits.get())
        .unwrap();
    assert!(col5 > 190, "column 5 got {col5} of 200 visits");
    assert_eq!(report.best_move.map(|m| m.0), Some(5));
    // Without the network the visits spread over the columns.
    let mut plain: Search<ConnectFour, 2> = Search::new(params("uct"), ConnectFour::start());
    plain.run(&Limits {
        iterations: Some(200),
        ..Limits::default()
    });
    assert!(plain
        .tree
        .edges(ROOT)
        .iter()
        .all(|e| plain.tree.node(e.child()).visits.get() < 100));
}

#[test]
fn the_network_value_replaces_the_playout_and_is_the_node_evaluation() {
    // A seed whose values after every first move are clear of 0 and of +-1 (checked below).
    let net = cfour_net(4, None, 0.0);
    let mut leaf = netleaf::NetLeaf::default();
    for spec in ["uct", "sb-gpn", "sb-gpn threads=2"] {
        let mut s: Search<ConnectFour, 2> = Search::new(with_net(spec, &net), ConnectFour::start());
        s.run(&Limits {
            iterations: Some(1),
            ..Limits::default()
        });
        // One iteration: one new child, backed up with the network's value of its position
        // (a playout would have given 1, 0 or -1).
        let root = s.tree.node(ROOT).clone();
        let edge = s
            .tree
            .edges(ROOT)
            .iter()
            .find(|e| e.child() != node::NONE)
            .unwrap();
        let mut after = ConnectFour::start();
        after.play(edge.mv);
        let v = leaf.value(net.net(), &after);
        assert!(v.abs() > 0.01 && v.abs() < 0.99, "{spec}: {v}");
        assert!(
            (root.total[0].get() - v).abs() < 1e-3,
            "{spec}: {} vs {v}",
            root.total[0].get()
        );
        // Each node's evaluation is the network's value of its position, for the first player.
        let start = leaf.value(net.net(), &ConnectFour::start());
        assert!((node::from_im(root.im()) - start).abs() < 1e-3, "{spec}");
        let child = s.tree.node(edge.child());
        assert!((node::from_im(child.im()) - v).abs() < 1e-3, "{spec}");
    }
}

#[test]
fn proofs_and_bounds_stay_exact_with_any_network_and_any_threads() {
    let mut memo = HashMap::new();
    let positions = solved_connect_four(24..=26);
    for seed in 1..=3u64 {
        // A random net, and one that misjudges everything with confidence.
        for net in [
            cfour_net(seed, None, 0.0),
            cfour_net(seed, Some(seed as usize), -6.0),
        ] {
            for threads in [1, 2, 4] {
                for (pos, value) in positions.iter().take(3) {
                    let spec = format!("sb-gpn threads={threads} seed={seed}");
                    let mut s: Search<ConnectFour, 2> =
                        Search::new(with_net(&spec, &net), pos.clone());
                    let report = s.run(&Limits {
                        iterations: Some(400_000),
                        stop_when_solved: true,
                        ..Limits::default()
                    });
                    let text = pos.to_position();
                    assert_eq!(
                        proven_value(report.proven),
                        Some(*value),
                        "{spec} on {text}"
                    );
                    let best = report.best_move.expect("a move");
                    assert_eq!(
                        value_after(pos, best, &mut memo),
                        *value,
                        "{spec} on {text}"
                    );
                    assert_eq!(minimax(pos, &mut memo), *value);
                    assert_tree_consistent(&s);
                    assert!(assert_tree_values_exact(&s, &mut memo) > 0);
                }
            }
        }
    }
}

#[test]
fn a_network_for_another_game_or_encoding_is_refused_and_never_evaluated() {
    let net = cfour_net(5, None, 0.0);
    let p = with_net("sb-gpn", &net);
    assert!(p
        .check_network("cfour", 2, ConnectFour::INPUTS, ConnectFour::POLICY)
        .is_ok());
    let e = p.check_network("gomoku", 2, 450, 225).unwrap_err();
    assert!(e.0.contains("it is for cfour, not gomoku"), "{e}");
    let e = p.check_network("cfour", 2, 85, 7).unwrap_err();
    assert!(e.0.contains("encoding"), "{e}");
    // Search::new drops it: the search runs on playouts, without priors.
    let mut s: Search<crate::game::breakthrough::Breakthrough<6>, 2> =
        Search::new(p, Rules::start());
    assert!(!s.params().uses_network() && !s.tree.has_priors());
    s.run(&Limits {
        iterations: Some(100),
        ..Limits::default()
    });
}

#[test]
fn a_full_tree_with_a_network_keeps_its_priors_through_recycling() {
    let net = cfour_net(6, None, 0.0);
    let mut s: Search<ConnectFour, 2> =
        Search::new(with_net("sb-gpn hash=1", &net), ConnectFour::start());
    s.run(&Limits {
        iterations: Some(60_000),
        ..Limits::default()
    });
    assert!(s.stats.recycles > 0, "the tree never filled");
    assert_tree_consistent(&s);
    let mut leaf = netleaf::NetLeaf::default();
    let moves: Vec<_> = s.tree.edges(ROOT).iter().map(|e| e.mv).collect();
    leaf.value_and_priors(net.net(), &ConnectFour::start(), &moves);
    assert_eq!(leaf.priors, s.tree.priors(ROOT));
}

#[test]
fn a_network_option_loads_the_file_and_round_trips_through_the_spec() {
    let dir = std::env::temp_dir().join(format!("gpn-net-spec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("c4.gpnn");
    cfour_net(8, None, 0.0).net().save(&path).unwrap();
    let spec = format!("sb-gpn net={} cpuct=2", path.display());
    let p = params(&spec);
    assert_eq!(p.cpuct, 2.0);
    assert_eq!(p.network.as_ref().map(|n| n.net().game()), Some("cfour"));
    assert_eq!(SearchParams::parse(&p.spec()).unwrap(), p);
    // An empty value (as GUIs send `<empty>`) switches it off; a bad file is refused.
    let mut q = p.clone();
    q.set("EvalFile", "<empty>").unwrap();
    assert!(q.network.is_none());
    std::fs::write(dir.join("bad.gpnn"), b"GPNN junk").unwrap();
    let e = q
        .set("network", &dir.join("bad.gpnn").display().to_string())
        .unwrap_err();
    assert!(e.0.starts_with("network:"), "{e}");
    assert!(q.network.is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn builtin_is_the_games_embedded_network_and_refused_where_there_is_none() {
    use crate::game::breakthrough::Breakthrough;
    let p = params("sb-gpn network=builtin");
    assert!(p.network.as_ref().is_some_and(|n| n.is_builtin()));
    assert_eq!(SearchParams::parse(&p.spec()).unwrap(), p);
    p.check_network_for::<Breakthrough<8>>().unwrap();
    let e = p.check_network_for::<Breakthrough<7>>().unwrap_err();
    assert!(
        e.0.contains("breakthrough7x7 has no builtin network"),
        "{e}"
    );
    // The search resolves it and evaluates with it: its priors are the embedded policy's.
    let mut s: Search<Breakthrough<8>, 2> = Search::new(p, Breakthrough::start());
    s.run(&Limits {
        iterations: Some(200),
        ..Limits::default()
    });
    let file = s.params().network.clone().expect("resolved");
    assert_eq!(file.net().game(), "breakthrough");
    let mut leaf = netleaf::NetLeaf::default();
    let moves: Vec<_> = s.tree.edges(ROOT).iter().map(|e| e.mv).collect();
    leaf.node_value_and_priors(&file, &Breakthrough::<8>::start(), &moves);
    assert_eq!(leaf.priors, s.tree.priors(ROOT));
    // Where the game has none, the search runs without a network.
    let s: Search<Breakthrough<7>, 2> =
        Search::new(params("sb-gpn network=builtin"), Breakthrough::start());
    assert!(s.params().network.is_none());
}

#[test]
fn root_noise_mixes_a_dirichlet_draw_into_the_root_priors_only_with_a_network() {
    use crate::rng::Rng;
    let net = cfour_net(3, Some(3), 0.0);
    let noised = |seed: u64| {
        let mut s: Search<ConnectFour, 2> =
            Search::new(with_net("sb-gpn", &net), ConnectFour::start());
        s.run(&Limits {
            iterations: Some(1),
            ..Limits::default()
        });
        let before = s.tree.priors(ROOT).to_vec();
        assert!(
            !s.add_root_noise(0.3, 0.0, &mut Rng::new(seed)),
            "no share, no noise"
        );
        assert_eq!(s.tree.priors(ROOT), before);
        assert!(s.add_root_noise(0.3, 0.25, &mut Rng::new(seed)));
        let after = s.tree.priors(ROOT).to_vec();
        let sum: u32 = after.iter().map(|&p| p as u32).sum();
        assert!((sum as i64 - PRIOR_ONE as i64).abs() <= 14, "{sum}");
        for (a, b) in after.iter().zip(&before) {
            assert!(*a as f64 >= 0.75 * *b as f64 - 2.0, "{after:?} {before:?}");
        }
        assert_ne!(after, before);
        after
    };
    // The same draw from the same seed, another from another.
    assert_eq!(noised(7), noised(7));
    assert_ne!(noised(7), noised(8));
    // Without a network there are no priors to mix.
    let mut plain: Search<ConnectFour, 2> = Search::new(params("sb-gpn"), ConnectFour::start());
    assert!(!plain.add_root_noise(0.3, 0.25, &mut Rng::new(1)));
}

#[test]
fn an_immediate_win_is_played_whatever_the_policy_says() {
    // A game of cutechess-cli's: Black wins at once with c2 (c2 d2 e2 f2), but the builtin
    // network's search proved the root through b6 (a mate in 4 moves) in 15 iterations, and
    // played it, before ever visiting c2.
    let moves = "d1 a1 a2 e1 g1 b1 g2 d2 f1 f2 f3 e2 e3 d3 e4 a3 g3 g4 b2 e5 b3 a4 a5 a6 e6 b4 \
                 g5 f4 d4 d5 g6 d6 b5 c1 f5";
    let mut position = ConnectFour::start();
    for m in moves.split_whitespace() {
        position.play_text(m).unwrap();
    }
    let mut s: Search<ConnectFour, 2> =
        Search::new(SearchParams::for_game("cfour"), position.clone());
    assert!(s.params().uses_network());
    s.run(&Limits {
        iterations: Some(200),
        ..Limits::default()
    });
    assert!(s.root_solved());
    assert_eq!(
        s.best_move().map(|m| position.format_move(m)),
        Some("P@c2".into())
    );
}

/// A random Connect Four network with proof-cost heads.
fn cfour_cost_net(seed: u64) -> NetworkFile {
    let shape = Shape {
        inputs: ConnectFour::INPUTS,
        hidden: vec![16],
        policy: ConnectFour::POLICY,
        cost: crate::nn::pcn::BINS,
    };
    NetworkFile::new("costs.gpnn", Network::new("cfour", shape, seed).unwrap())
}

#[test]
fn proof_costs_set_new_nodes_their_unvisited_edges_and_their_values() {
    let net = cfour_cost_net(11);
    let mut leaf = netleaf::NetLeaf::default();
    let mut memo = HashMap::new();
    let mut leaves = 0;
    // Positions shallow enough for the exhaustive check of every node's proofs.
    for (i, (start, _)) in solved_connect_four(24..=26).into_iter().take(6).enumerate() {
        let threads = 1 + i % 2;
        let mut p = with_net(&format!("sb-gpn threads={threads}"), &net);
        p.pcn_init = true;
        let mut s: Search<ConnectFour, 2> = Search::new(p, start.clone());
        s.run(&Limits {
            iterations: Some(300),
            ..Limits::default()
        });
        let mut stack = vec![(ROOT, start.clone())];
        while let Some((id, pos)) = stack.pop() {
            let node = s.tree.node(id).clone();
            let edges = s.tree.edges(id);
            let n = edges.len() as u32;
            for e in edges {
                if e.child() != node::NONE {
                    let mut child = pos.clone();
                    child.play(e.mv);
                    stack.push((e.child(), child));
                }
            }
            if node.is_terminal() || node.pn().contains(&0) || node.pn().contains(&node::PN_INF) {
                continue;
            }
            // The network's costs for this position, spread over its edges as the paper does.
            let moves: Vec<_> = edges.iter().map(|e| e.mv).collect();
            leaf.value_and_priors(net.net(), &pos, &moves);
            let [own, other] = leaf.costs(net.net()).unwrap();
            let m = node.mover as usize;
            let unvisited = s.tree.unvisited_pn(id);
            let round = |c: f32| (c.round() as u32).max(1);
            assert_eq!(unvisited[m], round(own), "{}", pos.to_position());
            assert_eq!(unvisited[1 - m], round(other / n as f32));
            let v = crate::nn::pcn::cost_value(own, other);
            let v = if m == 0 { v } else { -v };
            assert!(
                (node::from_im(node.im()) - v).abs() < 1e-3
                    || edges.iter().any(|e| e.child() != node::NONE)
            );
            if edges.iter().all(|e| e.child() == node::NONE) {
                // A leaf: its numbers are its costs (the minimum and the sum of its edges).
                leaves += 1;
                assert_eq!(node.pn(), {
                    let mut pn = [0; 2];
                    pn[m] = unvisited[m];
                    pn[1 - m] = unvisited[1 - m] * n;
                    pn
                });
            } else {
                // Inside the tree the incremental backup keeps the minimum and the sum exact.
                let mut min = node::PN_INF;
                let mut sum = 0;
                for e in edges {
                    let c = if e.child() == node::NONE {
                        unvisited
                    } else {
                        s.tree.node(e.child()).pn()
                    };
                    min = min.min(c[m]);
                    sum = node::pn_add(sum, c[1 - m]);
                }
                assert_eq!(
                    (node.pn()[m], node.pn()[1 - m]),
                    (min, sum),
                    "{}",
                    pos.to_position()
                );
            }
        }
        assert_tree_consistent(&s);
        assert_tree_values_exact(&s, &mut memo);
    }
    assert!(leaves > 50, "{leaves} leaves");
}

#[test]
fn proofs_and_bounds_stay_exact_with_the_quiescence_step() {
    use crate::game::breakthrough::Breakthrough;
    type Bt6 = Breakthrough<6>;
    let shape = Shape {
        inputs: Bt6::INPUTS,
        hidden: vec![16],
        policy: Bt6::POLICY,
        cost: 0,
    };
    let mut memo = HashMap::new();
    let mut rng = crate::rng::Rng::new(3);
    let mut checked = 0;
    let mut captures_seen = 0;
    while checked < 8 {
        // Two runners a side on random squares, none on its goal row yet.
        let mut rows = [['.'; 6]; 6];
        for (piece, lo, hi) in [('P', 0u32, 4u32), ('p', 1, 5)] {
            let mut placed = 0;
            while placed < 2 {
                let (r, c) = (
                    (lo + rng.below(hi - lo + 1)) as usize,
                    rng.below(6) as usize,
                );
                if rows[r][c] == '.' {
                    rows[r][c] = piece;
                    placed += 1;
                }
            }
        }
        // Ranks 6 down to 1; rows[0] is rank 1.
        let rank = |row: &[char; 6]| {
            let mut out = String::new();
            let mut empty = 0;
            for &c in row {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                    }
                    empty = 0;
                    out.push(c);
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        };
        let board: Vec<String> = (0..6).rev().map(|r| rank(&rows[r])).collect();
        let text = format!("{} w", board.join("/"));
        let Ok(pos) = Bt6::parse_position(&text) else {
            continue;
        };
        if pos.outcome().is_some() {
            continue;
        }
        let mut moves = crate::game::MoveList::new();
        pos.legal_moves(&mut moves);
        captures_seen += moves.iter().filter(|&&m| pos.is_noisy(m)).count();
        let truth = minimax(&pos, &mut memo);
        let net = NetworkFile::new(
            "test-bt6.gpnn",
            Network::new("breakthrough6x6", shape.clone(), checked as u64 + 1).unwrap(),
        );
        for threads in [1, 2] {
            let spec = format!("sb-gpn quiescence=4 threats=1 threads={threads}");
            let mut s: Search<Bt6, 2> = Search::new(with_net(&spec, &net), pos.clone());
            let report = s.run(&Limits {
                iterations: Some(200_000),
                stop_when_solved: true,
                ..Limits::default()
            });
            assert_eq!(proven_value(report.proven), Some(truth), "{spec} on {text}");
            let best = report.best_move.expect("a move");
            assert_eq!(
                value_after(&pos, best, &mut memo),
                truth,
                "{spec} on {text}"
            );
            assert_tree_consistent(&s);
            assert!(assert_tree_values_exact(&s, &mut memo) > 0);
        }
        checked += 1;
    }
    assert!(captures_seen > 0, "no position offered a capture");
}

#[test]
fn root_lines_show_the_policy_as_prior_and_a_bound_below_the_value() {
    let net = cfour_net(5, None, 0.0);
    let mut s: Search<ConnectFour, 2> = Search::new(with_net("sb-gpn", &net), ConnectFour::start());
    let mut gaps = Vec::new();
    for iterations in [200u64, 2_000, 20_000] {
        s.run(&Limits {
            iterations: Some(iterations),
            ..Limits::default()
        });
        let lines = s.root_lines(7);
        assert_eq!(lines.len(), 7);
        // Each line's prior is the network's policy for its move, within the u16 rounding.
        let mut leaf = netleaf::NetLeaf::default();
        let moves: Vec<_> = s.tree.edges(ROOT).iter().map(|e| e.mv).collect();
        leaf.value_and_priors(net.net(), &ConnectFour::start(), &moves);
        for line in &lines {
            let i = moves.iter().position(|&m| m == line.mv).unwrap();
            let policy = leaf.priors[i] as f32 / PRIOR_ONE as f32;
            assert_eq!(line.prior_source, PriorSource::Policy);
            assert!(
                (line.prior - policy).abs() <= 1.0 / PRIOR_ONE as f32,
                "{line:?}"
            );
            assert_eq!(line.index, i);
        }
        let total: f32 = lines.iter().map(|l| l.prior).sum();
        assert!((total - 1.0).abs() < 1e-3, "{total}");
        let best = &lines[0];
        if best.proven.is_none() {
            assert!(best.lcb < best.value, "{best:?}");
            gaps.push(best.value - best.lcb);
        }
    }
    // The bound closes in on the value as the visits grow.
    assert!(
        gaps.len() >= 2 && gaps.windows(2).all(|w| w[1] < w[0]),
        "{gaps:?}"
    );
}

#[test]
fn without_a_network_the_prior_is_the_share_of_visits() {
    let mut s: Search<ConnectFour, 2> = Search::new(params("sb-gpn"), ConnectFour::start());
    s.run(&Limits {
        iterations: Some(3_000),
        ..Limits::default()
    });
    let lines = s.root_lines(7);
    let visits: u32 = lines.iter().map(|l| l.visits).sum();
    for line in &lines {
        assert_eq!(line.prior_source, PriorSource::Visits);
        assert!((line.prior - line.visits as f32 / visits as f32).abs() < 1e-6);
    }
}

#[test]
fn a_proven_root_move_has_its_value_as_its_bound() {
    // A won position of the perfect solver's file, solved by the search.
    let (position, value) = solved_connect_four(30..=34)
        .into_iter()
        .find(|&(_, v)| v == 1)
        .expect("a won position");
    assert_eq!(value, 1);
    let mut s: Search<ConnectFour, 2> = Search::new(params("sb-gpn"), position);
    s.run(&Limits {
        iterations: Some(200_000),
        ..Limits::default()
    });
    assert!(s.root_solved());
    let best = &s.root_lines(1)[0];
    assert!(matches!(best.proven, Some(Proven::Win { .. })), "{best:?}");
    assert_eq!((best.value, best.lcb), (1.0, 1.0));
}
