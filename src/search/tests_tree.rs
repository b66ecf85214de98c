//! Tests of the tree's arenas: the budget, compaction, the parallel arenas, and nodes added by
//! threads side by side.

use super::*;

fn moves(n: u16) -> Vec<Move> {
    (0..n).map(Move).collect()
}

/// A root with two moves, each with its child of one move.
fn root_with_two_children(tree: &mut Tree<2>) -> (NodeId, NodeId, NodeId) {
    let root = tree
        .add(Node::new(NONE, 0), &moves(2), &[], [1; 2])
        .unwrap();
    let a = tree
        .add(Node::new(root, 1), &moves(1), &[], [1; 2])
        .unwrap();
    let b = tree
        .add(Node::new(root, 1), &moves(1), &[], [1; 2])
        .unwrap();
    tree.edges_mut(root)[0].child.set(a);
    tree.edges_mut(root)[1].child.set(b);
    (root, a, b)
}

#[test]
fn budget_is_never_exceeded() {
    let budget = 64 * 1024;
    let mut tree: Tree<2> = Tree::new(budget, false, false);
    let mut added = 0;
    while tree
        .add(Node::new(NONE, 0), &moves(10), &[], [1; 2])
        .is_some()
    {
        added += 1;
        assert!(tree.used_bytes() <= budget);
    }
    assert!(tree.is_full());
    assert!(added > 100);
}

#[test]
fn reroot_keeps_the_subtree_and_drops_the_rest() {
    let mut tree: Tree<2> = Tree::new(1 << 20, false, false);
    let root = tree
        .add(Node::new(NONE, 0), &moves(3), &[], [1; 2])
        .unwrap();
    let a = tree
        .add(Node::new(root, 1), &moves(2), &[], [1; 2])
        .unwrap();
    let b = tree
        .add(Node::new(root, 1), &moves(2), &[], [1; 2])
        .unwrap();
    tree.edges_mut(root)[0].child.set(a);
    tree.edges_mut(root)[2].child.set(b);
    let a0 = tree.add(Node::new(a, 0), &moves(1), &[], [1; 2]).unwrap();
    tree.edges_mut(a)[1].child.set(a0);
    *tree.node_mut(a).visits.get_mut() = 7;
    *tree.node_mut(a0).visits.get_mut() = 3;
    tree.reroot(a);
    assert_eq!(tree.len(), 2);
    assert_eq!(tree.node(0).visits.get(), 7);
    assert_eq!(tree.node(0).parent, NONE);
    let child = tree.edges(0)[1].child();
    assert_eq!(tree.edges(0)[0].child(), NONE);
    assert_eq!(tree.node(child).visits.get(), 3);
    assert_eq!(tree.node(child).parent, 0);
    assert_eq!(tree.edges(0)[1].mv, Move(1));
    assert_eq!(
        tree.used_bytes(),
        2 * Tree::<2>::NODE_BYTES + 3 * Tree::<2>::EDGE_BYTES
    );
}

#[test]
fn priors_move_with_their_edges_and_count_against_the_budget() {
    let mut tree: Tree<2> = Tree::new(1 << 20, true, false);
    let root = tree
        .add(Node::new(NONE, 0), &moves(2), &[], [1; 2])
        .unwrap();
    // No priors given: the moves share the probability.
    assert_eq!(tree.priors(root), &[PRIOR_ONE / 2, PRIOR_ONE / 2]);
    let a = tree
        .add(Node::new(root, 1), &moves(2), &[1, 2], [1; 2])
        .unwrap();
    let b = tree
        .add(Node::new(root, 1), &moves(3), &[3, 4, 5], [1; 2])
        .unwrap();
    tree.edges_mut(root)[0].child.set(a);
    tree.edges_mut(root)[1].child.set(b);
    assert_eq!(
        tree.used_bytes(),
        3 * Tree::<2>::NODE_BYTES + 7 * (Tree::<2>::EDGE_BYTES + 2)
    );
    tree.reroot(b);
    assert_eq!(tree.priors(0), &[3, 4, 5]);
    assert_eq!(tree.edges(0)[2].mv, Move(2));
    let plain: Tree<2> = Tree::new(1 << 20, false, false);
    assert!(!plain.has_priors() && tree.has_priors());
    assert_eq!(to_prior(1.0), PRIOR_ONE);
    assert_eq!(to_prior(0.5), PRIOR_ONE / 2 + 1);
}

#[test]
fn amaf_statistics_move_with_their_edges_and_count_against_the_budget() {
    let mut tree: Tree<2> = Tree::new(1 << 20, false, false);
    tree.enable_amaf();
    assert!(tree.has_amaf());
    let root = tree
        .add(Node::new(NONE, 0), &moves(2), &[], [1; 2])
        .unwrap();
    let a = tree
        .add(Node::new(root, 1), &moves(2), &[], [1; 2])
        .unwrap();
    let b = tree
        .add(Node::new(root, 1), &moves(3), &[], [1; 2])
        .unwrap();
    tree.edges_mut(root)[0].child.set(a);
    tree.edges_mut(root)[1].child.set(b);
    for (k, stat) in tree.amaf_mut(b).iter_mut().enumerate() {
        *stat = AmafCell::new(Amaf {
            visits: k as u32 + 1,
            total: -(k as f32),
        });
    }
    assert_eq!(
        tree.used_bytes(),
        3 * Tree::<2>::NODE_BYTES + 7 * (Tree::<2>::EDGE_BYTES + AMAF_BYTES)
    );
    tree.reroot(b);
    let kept: Vec<(u32, f32)> = tree
        .amaf(0)
        .iter()
        .map(|a| (a.get().visits, a.get().total))
        .collect();
    assert_eq!(kept, [(1, 0.0), (2, -1.0), (3, -2.0)]);
    assert_eq!(tree.amaf(0)[2].get().mean(), -2.0 / 3.0);
    // Only an empty tree takes the statistics on.
    let mut plain: Tree<2> = Tree::new(1 << 20, false, false);
    plain.add(Node::new(NONE, 0), &moves(2), &[], [1; 2]);
    plain.enable_amaf();
    assert!(!plain.has_amaf() && plain.amaf(0).is_empty());
}

#[test]
fn unvisited_proof_numbers_move_with_their_nodes_and_count_against_the_budget() {
    let mut tree: Tree<2> = Tree::new(1 << 20, false, true);
    let root = tree
        .add(Node::new(NONE, 0), &moves(2), &[], [7, 3])
        .unwrap();
    let a = tree
        .add(Node::new(root, 1), &moves(1), &[], [5, 9])
        .unwrap();
    let b = tree
        .add(Node::new(root, 1), &moves(3), &[], [11, 2])
        .unwrap();
    tree.edges_mut(root)[0].child.set(a);
    tree.edges_mut(root)[1].child.set(b);
    assert_eq!(tree.unvisited_pn(a), [5, 9]);
    assert_eq!(tree.node_bytes(), Tree::<2>::NODE_BYTES + 8);
    assert_eq!(
        tree.used_bytes(),
        3 * (Tree::<2>::NODE_BYTES + 8) + 6 * Tree::<2>::EDGE_BYTES
    );
    tree.reroot(b);
    assert_eq!(tree.len(), 1);
    assert_eq!(tree.unvisited_pn(0), [11, 2]);
    // A tree that does not keep them counts every unvisited edge as one leaf.
    let mut plain: Tree<2> = Tree::new(1 << 20, false, false);
    let r = plain
        .add(Node::new(NONE, 0), &moves(2), &[], [7, 3])
        .unwrap();
    assert_eq!(plain.unvisited_pn(r), [1, 1]);
}

#[test]
fn virtual_visits_count_against_the_budget_and_follow_compaction() {
    let mut tree: Tree<2> = Tree::new(1 << 20, false, false);
    tree.enable_virtual_visits();
    assert!(tree.has_virtual_visits());
    assert_eq!(tree.node_bytes(), Tree::<2>::NODE_BYTES + 4);
    let (_, a, b) = root_with_two_children(&mut tree);
    assert_eq!(
        tree.used_bytes(),
        3 * (Tree::<2>::NODE_BYTES + 4) + 4 * Tree::<2>::EDGE_BYTES
    );
    // Taken and given back through a shared reference, as selecting threads do.
    let shared = &tree;
    shared.add_virtual_visits(b, 3);
    shared.remove_virtual_visits(b, 1);
    assert_eq!((tree.virtual_visits(a), tree.virtual_visits(b)), (0, 2));
    tree.remove_virtual_visits(b, 2);
    tree.reroot(b);
    assert_eq!((tree.len(), tree.virtual_visits(0)), (1, 0));
    // Only an empty tree takes them on; a tree without them counts none.
    let mut plain: Tree<2> = Tree::new(1 << 20, false, false);
    plain.add(Node::new(NONE, 0), &moves(2), &[], [1; 2]);
    plain.enable_virtual_visits();
    plain.add_virtual_visits(0, 1);
    assert!(!plain.has_virtual_visits() && plain.virtual_visits(0) == 0);
}

#[test]
fn compaction_drops_rejected_subtrees_in_place_and_flags_their_parents() {
    let mut tree: Tree<2> = Tree::new(1 << 20, false, false);
    // root -> a, b; a -> a0; b -> b0 (b rejected, so b0 goes too).
    let (root, a, b) = root_with_two_children(&mut tree);
    let a0 = tree.add(Node::new(a, 0), &moves(3), &[], [1; 2]).unwrap();
    let b0 = tree.add(Node::new(b, 0), &moves(4), &[], [1; 2]).unwrap();
    tree.edges_mut(a)[0].child.set(a0);
    tree.edges_mut(b)[0].child.set(b0);
    for (id, v) in [(root, 10), (a, 6), (b, 1), (a0, 5), (b0, 9)] {
        *tree.node_mut(id).visits.get_mut() = v;
    }
    let resident = tree.resident_bytes();
    let dropped = tree.compact(root, |n| n.visits.get() >= 5);
    assert_eq!(dropped, 2);
    assert_eq!(tree.len(), 3);
    assert_eq!(tree.node(0).flags() & CHILDREN_DROPPED, CHILDREN_DROPPED);
    assert_eq!(tree.edges(0)[1].child(), NONE);
    let a = tree.edges(0)[0].child();
    assert_eq!((tree.node(a).visits.get(), tree.node(a).parent), (6, 0));
    let a0 = tree.edges(a)[0].child();
    assert_eq!((tree.node(a0).visits.get(), tree.node(a0).parent), (5, a));
    assert_eq!(tree.edges(a0).len(), 3);
    assert_eq!(tree.node(a).flags() & CHILDREN_DROPPED, 0);
    assert_eq!(
        tree.used_bytes(),
        3 * Tree::<2>::NODE_BYTES + 6 * Tree::<2>::EDGE_BYTES
    );
    // The written slots stay counted: reuse them before writing new ones.
    assert_eq!(tree.resident_bytes(), resident);
    tree.add(Node::new(0, 1), &moves(2), &[], [1; 2]).unwrap();
    assert_eq!(tree.resident_bytes(), resident);
}
/// Threads that land on the same edges at once: one creates each child, the others find
/// it. Returns the tree and how many times a thread found a child another had created.
fn add_side_by_side(budget: usize) -> (Tree<2>, usize) {
    let tree: Tree<2> = {
        let mut t = Tree::new(budget, true, true);
        t.enable_virtual_visits();
        t.add(Node::new(NONE, 0), &moves(64), &[], [1; 2]).unwrap();
        t
    };
    let found = AtomicU32::new(0);
    std::thread::scope(|scope| {
        for k in 0..8u32 {
            let (tree, found) = (&tree, &found);
            scope.spawn(move || {
                for round in 0..64u32 {
                    // Threads pair up on edges, in a different order each pair.
                    let i = ((round * 7 + k / 2 * 13) % 64) as usize;
                    let edge = &tree.edges(0)[i];
                    if edge.child.claim() {
                        let node = Node::new(0, 1);
                        // SAFETY: the node is reached only through the claimed edge.
                        match unsafe { tree.add_shared(node, &moves(50), &[], [2, 5]) } {
                            Ok(child) => edge.child.set(child),
                            Err(why) => {
                                assert_eq!(why, Refused::Full);
                                edge.child.set(NONE);
                            }
                        }
                    } else if edge.child.wait() != NONE {
                        found.fetch_add(1, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    (tree, found.load(Ordering::Relaxed) as usize)
}

#[test]
fn threads_add_nodes_side_by_side_each_child_once() {
    let (mut tree, found) = add_side_by_side(1 << 20);
    let children: Vec<NodeId> = tree.edges(0).iter().map(|e| e.child()).collect();
    assert!(
        children.iter().all(|&c| c != NONE),
        "every edge got its child"
    );
    assert_eq!(tree.len(), 65, "no node created twice");
    assert!(found > 0, "some threads found a child another had created");
    let mut sorted = children.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (1..65).collect::<Vec<NodeId>>());
    for &c in &children {
        assert_eq!(tree.node(c).parent, 0);
        assert_eq!(tree.edges(c).len(), 50);
        assert_eq!(tree.unvisited_pn(c), [2, 5]);
        assert_eq!(tree.priors(c), &[PRIOR_ONE / 50; 50]);
        assert_eq!(tree.virtual_visits(c), 0);
    }
    assert_eq!(
        tree.used_bytes(),
        65 * tree.node_bytes() + (64 + 50 * 64) * tree.edge_bytes()
    );
    assert!(!tree.is_full());
    // Compaction through `&mut` afterwards sees every node.
    assert_eq!(tree.compact(0, |_| true), 0);
    assert_eq!(tree.nodes().len(), 65);
}

#[test]
fn threads_adding_side_by_side_stop_at_the_budget() {
    let mut probe: Tree<2> = Tree::new(1 << 20, true, true);
    probe.enable_virtual_visits();
    let (node_bytes, edge_bytes) = (probe.node_bytes(), probe.edge_bytes());
    // The root, and room for 20 of its 64 children (above the least budget, 1024 edges).
    let budget = 21 * node_bytes + (64 + 50 * 20) * edge_bytes + 1;
    let (tree, _) = add_side_by_side(budget);
    assert!(tree.is_full());
    assert_eq!(tree.len(), 21);
    assert!(tree.resident_bytes() <= tree.budget_bytes());
    let children = tree.edges(0).iter().filter(|e| e.child() != NONE).count();
    assert_eq!(children, 20, "every node made is reachable");
}
