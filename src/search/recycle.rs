//! Node recycling: when the tree fills its memory budget, keep the most visited part of it (and
//! every solved node whose parent is kept) and drop the rest in place, so that a search of any
//! length keeps growing a useful tree inside Hash. The design and why it keeps proofs, bounds and
//! proof numbers correct is in `docs/recycling.md`.

use super::node::{Node, CHILDREN_DROPPED, PN_DIRTY};
use super::tree::Tree;
use super::{Search, ROOT};
use crate::game::Game;

/// The share of the budget a recycling keeps; the rest is room to grow before the next one.
const KEEP_SHARE: f64 = 0.5;
/// When the kept tree still fills more than this share of the budget (solved nodes and a
/// small budget can make it so), recycling is given up until the root changes: the search runs on
/// the tree it has ([`Search::frozen`]).
const FROZEN_SHARE: f64 = 0.85;
/// Visit counts below this have a bucket each; above, four buckets per power of two.
const EXACT_VISITS: u32 = 16;
/// Number of priority buckets (the last is for solved nodes).
const BUCKETS: usize = EXACT_VISITS as usize + 4 * 32 + 1;

/// True when a node's value is a fact: terminal, bounds met, or a proof for some player (which
/// also covers PN-MCTS's proof and disproof). Such nodes survive whenever their parent does.
#[inline]
pub(super) fn settled<const P: usize>(n: &Node<P>) -> bool {
    n.is_terminal() || n.bounds_solved() || n.pn().contains(&0)
}

/// The priority bucket of a node: its visits on a log scale, solved nodes above all.
#[inline]
fn bucket<const P: usize>(n: &Node<P>) -> usize {
    if settled(n) {
        return BUCKETS - 1;
    }
    let v = n.visits.get();
    if v < EXACT_VISITS {
        return v as usize;
    }
    let log = 31 - v.leading_zeros(); // >= 4
    let fraction = (v >> (log - 2)) & 3; // the two bits below the leading one
    (EXACT_VISITS as usize + 4 * (log as usize - 4) + fraction as usize).min(BUCKETS - 2)
}

/// The lowest bucket that may be kept so that the nodes of that bucket and above take at most
/// `target` bytes (an upper bound on what survives: a node also needs its parent kept).
fn threshold<const P: usize>(tree: &mut Tree<P>, target: usize) -> usize {
    let mut bytes = [0usize; BUCKETS];
    let (node_bytes, edge_bytes) = (tree.node_bytes(), tree.edge_bytes());
    for n in tree.nodes() {
        bytes[bucket(n)] += node_bytes + edge_bytes * n.num_edges as usize;
    }
    let mut lowest = BUCKETS;
    let mut kept = 0usize;
    while lowest > 0 && kept + bytes[lowest - 1] <= target {
        lowest -= 1;
        kept += bytes[lowest];
    }
    lowest
}

impl<G: Game, const P: usize> Search<G, P> {
    /// Recycles the full tree: keeps the root, and below it the most visited nodes (up to half
    /// the budget) and every solved child of a kept node; rebuilds the bias terms of the nodes
    /// that lost children. Freezes the tree when that frees too little.
    pub(super) fn recycle(&mut self) {
        let budget = self.tree.budget_bytes();
        let lowest = threshold(&mut self.tree, (budget as f64 * KEEP_SHARE) as usize);
        let dropped = self.tree.compact(ROOT, |n| bucket(n) >= lowest);
        self.stats.recycles += 1;
        self.stats.recycled_nodes += dropped as u64;
        let rank_terms = self.maintains_rank_terms();
        for id in 0..self.tree.len() as u32 {
            let node = self.tree.node_mut(id);
            if node.flags() & CHILDREN_DROPPED == 0 {
                continue;
            }
            // The node keeps its own statistics, proofs and bounds (the backup only tightens
            // them); its children's terms now count the dropped ones as new edges.
            node.flags
                .set((node.flags() & !CHILDREN_DROPPED) | PN_DIRTY);
            if rank_terms {
                self.rebuild_bias_terms(id);
            }
        }
        let kept = self.tree.used_bytes();
        if dropped == 0 || kept as f64 > budget as f64 * FROZEN_SHARE {
            log::debug!("recycle: kept {kept} of {budget} bytes; the tree stops growing");
            self.frozen = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::node::{NodeId, NONE};

    #[test]
    fn buckets_grow_with_visits_and_solved_nodes_come_first() {
        let mut n: Node<2> = Node::new(NONE, 0);
        let mut last = 0;
        for v in [0, 1, 2, 15, 16, 20, 24, 31, 32, 1000, 1 << 20, u32::MAX] {
            *n.visits.get_mut() = v;
            let b = bucket(&n);
            assert!(b >= last && b < BUCKETS - 1, "{v}: {b}");
            last = b;
        }
        n.set_lo([60, -60]);
        n.set_hi([60, -60]);
        assert_eq!(bucket(&n), BUCKETS - 1);
    }

    #[test]
    fn the_threshold_keeps_at_most_the_target() {
        let mut tree: Tree<2> = Tree::new(1 << 20, false, false);
        let moves: Vec<crate::game::Move> = (0..4).map(crate::game::Move).collect();
        let mut parent: NodeId = NONE;
        for v in 0..100u32 {
            let mut n = Node::new(parent, 0);
            *n.visits.get_mut() = 1000 - v * 10;
            parent = tree.add(n, &moves, &[], [1; 2]).unwrap();
        }
        let per = Tree::<2>::NODE_BYTES + 4 * Tree::<2>::EDGE_BYTES;
        let lowest = threshold(&mut tree, 30 * per);
        let kept = tree.nodes().iter().filter(|n| bucket(n) >= lowest).count();
        assert!((15..=30).contains(&kept), "{kept}");
    }
}
