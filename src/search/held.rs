//! Taking a threaded run's flights off the tree: their virtual visits back, their statistics
//! on, with the visits and utilities of the nodes every thread visits held back and added in
//! sums every few iterations instead of one locked addition each.

use super::super::node::{NodeId, NONE};
use super::super::spread::{HeldSamples, RootSpread};
use super::super::tree::Tree;
use super::super::Search;
use super::Flight;
use crate::game::Game;

impl<G: Game, const P: usize> Search<G, P> {
    /// Under the shared lock (or the exclusive one), in one walk from the flight's deepest
    /// existing node `node` to the root: takes back the virtual visits the flight added on its
    /// way down (on `virtual_top` and below it) and, given the playout's `utilities`, backs its
    /// visit and utilities up with atomic additions (the statistics that every iteration
    /// changes on the whole path; proofs, bounds and the rest wait for [`Self::land`]). The
    /// nodes above `virtual_top`, busy, get theirs through `held` ([`HeldStats`]).
    pub(super) fn take_flight_off(
        &self,
        node: NodeId,
        virtual_top: NodeId,
        utilities: Option<&[f32; P]>,
        held: &mut HeldStats<P>,
    ) {
        let mut id = node;
        let mut holds_virtual = virtual_top != NONE;
        while id != NONE {
            let node = self.tree.node(id);
            let busy = !holds_virtual;
            if holds_virtual {
                self.tree.remove_virtual_visits(id, 1);
                holds_virtual = id != virtual_top;
            }
            match utilities {
                Some(utilities) if busy => held.hold(&self.tree, id, utilities),
                Some(utilities) => node.add_visits(1, utilities),
                None => {}
            }
            id = node.parent;
        }
    }

    /// Takes a landed batch off as [`Self::take_flight_off`] does, with its statistics when
    /// `statistics` (from `shared_stats` threads on), holding the busy nodes' in `held`.
    pub(super) fn take_batch_off(
        &self,
        flights: &[Flight<G, P>],
        statistics: bool,
        held: &mut HeldStats<P>,
    ) {
        for flight in flights {
            let utilities = flight.utilities.unwrap_or([0.0; P]);
            self.take_flight_off(
                flight.node,
                flight.virtual_top,
                statistics.then_some(&utilities),
                held,
            );
        }
        if statistics {
            held.landed(&self.tree, &self.spread, flights.len() as u32);
        }
    }
}

/// Slots of [`HeldStats`]' table: four times the busy stretch of a path in practice, so that
/// two busy nodes seldom share a slot (the one there is then added to the tree first).
const HELD_SLOTS: usize = 64;

/// One thread's statistics for the busy nodes its flights went through and that the tree does
/// not show yet: per node, the visits and utilities summed since the last flush.
///
/// Why: a node near the root is on nearly every flight's path. Adding each flight's visit and
/// utilities to it at once is a locked operation on a cache line that the other threads read
/// and write next, so with two threads on a fast game every addition moves the line between
/// cores. Held for [`HeldStats::FLUSH_ITERATIONS`] iterations, those additions cost one
/// operation per node and field. Only nodes that get no virtual visits are held (see
/// `VIRTUAL_LOSS_MAX_VISITS` in `parallel.rs`): the 16 iterations a thread holds at most are
/// 6 % of such a node's visits at 256, less as it grows.
///
/// Rules: visits and utilities feed selection only, never a proof, so a lag is safe; the
/// holding thread flushes before its last flight lands (it has no flight in the air), so that
/// nothing is held when the tree is renumbered (recycling waits for no flight in the air) or
/// when a run ends.
pub(super) struct HeldStats<const P: usize> {
    /// (node, visits, utilities summed) in [`HeldStats::SLOTS`] slots, each node in the one
    /// its id hashes to ([`NONE`]: free). A direct-mapped table, not a list searched node by
    /// node: a flight holds every busy node of its path, and the search cost more than the
    /// atomic additions it saves.
    held: [(NodeId, u32, [f32; P]); HELD_SLOTS],
    /// Slots in use.
    used: u32,
    /// The root edges' values ([`RootSpread`]), held likewise.
    pub(super) samples: HeldSamples,
    /// Iterations held since the last flush.
    iterations: u32,
}

impl<const P: usize> Default for HeldStats<P> {
    fn default() -> Self {
        HeldStats {
            held: [(NONE, 0, [0.0; P]); HELD_SLOTS],
            used: 0,
            samples: HeldSamples::default(),
            iterations: 0,
        }
    }
}

impl<const P: usize> HeldStats<P> {
    /// Iterations held before a flush: sixteen additions become one.
    pub(super) const FLUSH_ITERATIONS: u32 = 16;
    /// Slots of the table.
    const SLOTS: usize = HELD_SLOTS;

    /// The slot of node `id` (Fibonacci hashing: the ids of a path's nodes are not spread).
    #[inline]
    fn slot(id: NodeId) -> usize {
        (id.wrapping_mul(0x9E37_79B9) >> (32 - Self::SLOTS.trailing_zeros())) as usize
    }

    /// Holds one visit of node `id` with `utilities`; another node held in its slot goes to the
    /// tree first.
    #[inline]
    pub(super) fn hold(&mut self, tree: &Tree<P>, id: NodeId, utilities: &[f32; P]) {
        let entry = &mut self.held[Self::slot(id)];
        if entry.0 != id {
            if entry.0 == NONE {
                self.used += 1;
            } else {
                tree.node(entry.0).add_visits(entry.1, &entry.2);
            }
            *entry = (id, 0, [0.0; P]);
        }
        entry.1 += 1;
        for (sum, &u) in entry.2.iter_mut().zip(utilities) {
            *sum += u;
        }
    }

    /// Counts `k` iterations landed and flushes when [`HeldStats::FLUSH_ITERATIONS`] are held.
    #[inline]
    pub(super) fn landed(&mut self, tree: &Tree<P>, spread: &RootSpread, k: u32) {
        self.iterations += k;
        if self.iterations >= Self::FLUSH_ITERATIONS {
            self.flush(tree, spread);
        }
    }

    /// Adds everything held to the tree (one atomic addition per node and field) and to the
    /// root's `spread`, and starts afresh. Under the shared lock or the exclusive one.
    pub(super) fn flush(&mut self, tree: &Tree<P>, spread: &RootSpread) {
        self.flush_nodes(tree);
        self.samples.flush(spread);
        self.iterations = 0;
    }

    fn flush_nodes(&mut self, tree: &Tree<P>) {
        if self.used == 0 {
            return;
        }
        for entry in &mut self.held {
            if entry.0 != NONE {
                tree.node(entry.0).add_visits(entry.1, &entry.2);
                entry.0 = NONE;
            }
        }
        self.used = 0;
    }

    /// Whether nothing is held.
    pub(super) fn is_empty(&self) -> bool {
        self.used == 0 && self.samples.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Move;
    use crate::search::node::{Node, NONE};

    /// A tree of `n` nodes without edges, with their ids.
    fn tree_of(n: usize) -> (Tree<2>, Vec<NodeId>) {
        let mut tree: Tree<2> = Tree::new(1 << 20, false, false);
        let ids = (0..n)
            .map(|_| {
                tree.add(Node::new(NONE, 0), &[] as &[Move], &[], [1; 2])
                    .expect("room")
            })
            .collect();
        (tree, ids)
    }

    #[test]
    fn held_visits_and_utilities_reach_the_tree_whole_at_the_flush() {
        let (tree, ids) = tree_of(2);
        let spread = RootSpread::default();
        let mut held = HeldStats::<2>::default();
        for k in 0..HeldStats::<2>::FLUSH_ITERATIONS - 1 {
            let u = if k % 2 == 0 { 1.0 } else { -0.5 };
            held.hold(&tree, ids[0], &[u, -u]);
            held.hold(&tree, ids[1], &[u, -u]);
            held.landed(&tree, &spread, 1);
        }
        assert_eq!(tree.node(ids[0]).visits.get(), 0, "held, not yet shown");
        held.hold(&tree, ids[0], &[1.0, -1.0]);
        held.landed(&tree, &spread, 1);
        assert!(held.is_empty(), "the sixteenth iteration flushes");
        let root = tree.node(ids[0]);
        assert_eq!(root.visits.get(), 16);
        assert_eq!(root.total[0].get(), 8.0 * 1.0 - 7.0 * 0.5 + 1.0);
        assert_eq!(root.total[1].get(), -root.total[0].get());
        assert_eq!(tree.node(ids[1]).visits.get(), 15);
    }

    #[test]
    fn a_node_whose_slot_is_taken_sends_the_holder_to_the_tree() {
        let (tree, ids) = tree_of(4 * HeldStats::<2>::SLOTS);
        let spread = RootSpread::default();
        let slot = HeldStats::<2>::slot;
        let first = ids[0];
        let rival = *ids[1..]
            .iter()
            .find(|&&id| slot(id) == slot(first))
            .expect("two ids share a slot");
        let other = *ids
            .iter()
            .find(|&&id| slot(id) != slot(first))
            .expect("an id of another slot");
        let mut held = HeldStats::<2>::default();
        held.hold(&tree, first, &[1.0, -1.0]);
        held.hold(&tree, first, &[0.5, -0.5]);
        held.hold(&tree, other, &[1.0, -1.0]);
        assert_eq!(tree.node(first).visits.get(), 0, "held");
        held.hold(&tree, rival, &[-1.0, 1.0]);
        assert_eq!(tree.node(first).visits.get(), 2, "evicted whole");
        assert_eq!(tree.node(first).total[0].get(), 1.5);
        assert_eq!(tree.node(rival).visits.get(), 0, "the rival is held now");
        assert_eq!(tree.node(other).visits.get(), 0, "other slots stay held");
        held.flush(&tree, &spread);
        assert!(held.is_empty());
        assert_eq!(tree.node(rival).visits.get(), 1);
        assert_eq!(tree.node(rival).total[0].get(), -1.0);
        assert_eq!(tree.node(other).visits.get(), 1);
        assert_eq!(tree.node(first).visits.get(), 2, "added once");
    }
}
