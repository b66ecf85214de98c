//! The edges that threads' flights in the air are opening: a hashed table of counts that keeps
//! threads from evaluating the same new node twice.

use std::sync::atomic::{AtomicU32, Ordering};

use super::node::NodeId;

/// The edges without a node that flights in the air will create nodes behind, counted in a
/// table hashed by (node, edge index). A flight's virtual visits mark its path as soon as it
/// selects it, except on the node it will create, which does not exist until the flight lands:
/// without this table every thread took the same best unvisited move of a node and evaluated
/// the same position (with a network, two threads on Reversi spent 41 % of their iterations on
/// such duplicates). A thread about to open an edge that others are opening counts those flights
/// as lost visits of the node-to-be, as selection does for a node's virtual visits, and chooses
/// again.
///
/// Thread safety: counts are added by a selecting thread (shared lock) and taken off under the
/// exclusive lock once the flight's node is in the tree, so that a count is never off while the
/// edge still has no node. Distinct edges can share a count (the table is hashed, not keyed):
/// with at most a few hundred flights in the air, one free edge in a few hundred is then taken
/// for a busy one, which only makes a thread choose another move.
pub(super) struct OpeningEdges {
    counts: Box<[AtomicU32]>,
}

impl OpeningEdges {
    /// Slots: far more than the flights in the air (threads x the largest batch, 8).
    const SLOTS: usize = 1 << 15;

    pub(super) fn new() -> Self {
        Self {
            counts: (0..Self::SLOTS).map(|_| AtomicU32::new(0)).collect(),
        }
    }

    #[inline]
    fn slot(&self, node: NodeId, edge: usize) -> &AtomicU32 {
        let key = (u64::from(node) << 16) ^ edge as u64;
        &self.counts[crate::rng::mix64(key) as usize & (Self::SLOTS - 1)]
    }

    /// The flights in the air opening `edge` of `node`.
    #[inline]
    pub(super) fn count(&self, node: NodeId, edge: usize) -> u32 {
        self.slot(node, edge).load(Ordering::Relaxed)
    }

    pub(super) fn open(&self, node: NodeId, edge: usize) {
        self.slot(node, edge).fetch_add(1, Ordering::Relaxed);
    }

    pub(super) fn close(&self, node: NodeId, edge: usize) {
        self.slot(node, edge).fetch_sub(1, Ordering::Relaxed);
    }

    /// Takes off the mark of a flight that ended at `node`, if it opened an edge.
    pub(super) fn landed(&self, node: NodeId, open_edge: Option<usize>) {
        if let Some(edge) = open_edge {
            self.close(node, edge);
        }
    }
}
