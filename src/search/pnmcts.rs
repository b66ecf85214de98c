//! PN-MCTS (Kowalski et al.; `docs/design.md`, "Search algorithms"): proof and disproof numbers relative to the root player,
//! all children created when selection first passes through a node, unvisited children tried
//! first in random order, then UCT plus the rank of each child's proof (OR) or disproof (AND)
//! number; the F, S and U enhancements are switches of `pn_flags`.
//!
//! Two players only. In a node, `pn[0]` is the proof number and `pn[1]` the disproof number of
//! "the proof player wins"; a draw counts as disproven (the one-layer version of the paper).

use super::node::{pn_add, Node, NodeId, Pn, NONE, PN_DIRTY, PN_INF};
use super::Search;
use crate::game::{Game, Player};

/// Index of the proof number in `Node::pn` (PN-MCTS).
pub(super) const PROOF: usize = 0;
/// Index of the disproof number in `Node::pn` (PN-MCTS).
pub(super) const DISPROOF: usize = 1;

impl<G: Game, const P: usize> Search<G, P> {
    /// True when node `n` is an OR node (the proof player moves there).
    #[inline]
    pub(super) fn is_or_node(&self, n: &Node<P>) -> bool {
        n.mover == self.proof_player
    }

    /// Proof/disproof numbers of a new node: a terminal win of the proof player is proven, any
    /// other end (draws included) disproven; other nodes start at 1/1.
    pub(super) fn pn_mcts_init(
        proof_player: u8,
        node: &mut Node<P>,
        outcome: Option<crate::game::Outcome>,
    ) {
        node.set_pn([1; P]);
        if let Some(outcome) = outcome {
            let proved = outcome.utility(Player(proof_player)) >= 1.0 - 1e-6;
            node.pn[PROOF].set(if proved { 0 } else { PN_INF });
            node.pn[DISPROOF].set(if proved { PN_INF } else { 0 });
        }
    }

    /// Creates the nodes of every edge of `id` (whose position is `position`). Returns false if
    /// the tree ran out of memory part-way (the remaining edges stay without nodes).
    pub(super) fn expand_all(&mut self, id: NodeId, position: &G) -> bool {
        for i in 0..self.tree.edges(id).len() {
            if self.tree.edges(id)[i].child() != NONE {
                continue;
            }
            let mut child_position = position.clone();
            child_position.play(self.tree.edges(id)[i].mv);
            let end = Self::history_end(&mut self.history, &child_position);
            match self.create_node(id, &child_position, end) {
                Some(child) => self.tree.edges_mut(id)[i].child.set(child),
                None => return false,
            }
        }
        // The caller backs up with `created`, which recomputes this node's numbers from the new
        // children (terminal ones are decided) and carries any change to the ancestors.
        true
    }

    /// Selection at an expanded node: a random unvisited child first, then UCT plus the proof
    /// number rank term (U), skipping solved children that are bad for the mover and have more
    /// than `solver_visits` visits (S).
    pub(super) fn select_pn_mcts(&mut self, id: NodeId) -> usize {
        let flags = self.params.pn_flags;
        if flags.uct_pn && self.tree.node(id).flags() & PN_DIRTY != 0 {
            self.rebuild_bias_terms(id);
            self.tree.node_mut(id).unmark(PN_DIRTY);
        }
        let node = self.tree.node(id).clone();
        let edges = self.tree.edges(id);
        let unvisited = edges
            .iter()
            .filter(|e| {
                e.child() != NONE
                    && self.allowed(id, e.mv)
                    && self.tree.node(e.child()).visits.get() == 0
            })
            .count() as u32;
        if unvisited > 0 {
            let mut k = self.rollout.rng.below(unvisited);
            for (i, e) in edges.iter().enumerate() {
                if e.child() != NONE
                    && self.allowed(id, e.mv)
                    && self.tree.node(e.child()).visits.get() == 0
                {
                    if k == 0 {
                        return i;
                    }
                    k -= 1;
                }
            }
        }
        let m = node.mover as usize;
        let ln_n = (node.visits.get().max(1) as f32).ln();
        let pp = self.proof_player as usize;
        let draw_layer = self.params.draw_layer;
        // One layer: proven (pn 0) or disproven (dn 0). Draw layer: "not a loss" proven (the
        // bounds) or "cannot win" (dn 0).
        let decided = |n: &Node<P>| {
            if draw_layer {
                n.lo()[pp] >= 0 || n.pn()[DISPROOF] == 0
            } else {
                n.pn()[PROOF] == 0 || n.pn()[DISPROOF] == 0
            }
        };
        let node_unsolved = !decided(&node);
        let c_pn = if flags.uct_pn { self.params.c_pn } else { 0.0 };
        let n = edges.len();
        let mut best = f32::NEG_INFINITY;
        let (mut pick, mut ties) = (usize::MAX, 0u32);
        for (i, e) in edges.iter().enumerate() {
            if e.child() == NONE || !self.allowed(id, e.mv) {
                continue;
            }
            let c = self.tree.node(e.child());
            if flags.solver
                && node_unsolved
                && decided(c)
                && c.visits.get() > self.params.solver_visits
            {
                continue;
            }
            let v = c.mean(m)
                + self.params.c * (ln_n / c.visits.get().max(1) as f32).sqrt()
                + c_pn * self.pn_weight(c.visits.get()) * e.bias(true, n);
            if v > best {
                (best, pick, ties) = (v, i, 1);
            } else if v == best {
                ties += 1;
                if self.rollout.rng.below(ties) == 0 {
                    pick = i;
                }
            }
        }
        if pick == usize::MAX {
            // Only edges without nodes are left (the tree was full): take the first one.
            pick = edges.iter().position(|e| e.child() == NONE).unwrap_or(0);
        }
        pick
    }

    /// OR node: proof = min, disproof = sum; AND node: proof = sum, disproof = min. Returns
    /// whether the numbers changed. A node without children keeps its own numbers.
    pub(super) fn recompute_pn_mcts(&mut self, id: NodeId) -> bool {
        let node = self.tree.node(id).clone();
        if node.is_terminal() || self.tree.edges(id).iter().all(|e| e.child() == NONE) {
            return false;
        }
        let or = self.is_or_node(&node);
        let (mut min, mut sum): (Pn, Pn) = (PN_INF, 0);
        let (min_i, sum_i) = if or {
            (PROOF, DISPROOF)
        } else {
            (DISPROOF, PROOF)
        };
        for e in self.tree.edges(id) {
            let c_pn = if e.child() == NONE {
                [1; P]
            } else {
                self.tree.node(e.child()).pn()
            };
            min = min.min(c_pn[min_i]);
            sum = pn_add(sum, c_pn[sum_i]);
        }
        let mut pn = node.pn();
        // A proof or disproof stays, also when recycling dropped the children behind it.
        if !node.pn().contains(&0) {
            pn[min_i] = min;
            pn[sum_i] = sum;
        }
        let n = self.tree.node_mut(id);
        n.mark(PN_DIRTY);
        let changed = pn != n.pn();
        n.set_pn(pn);
        changed
    }

    /// The proof number the rank term of node `parent` sorts its children by: proof numbers at
    /// OR nodes, disproof numbers at AND nodes.
    #[inline]
    pub(super) fn pn_mcts_rank_key(&self, parent: &Node<P>, child: &Node<P>) -> Pn {
        if self.is_or_node(parent) {
            child.pn()[PROOF]
        } else {
            child.pn()[DISPROOF]
        }
    }

    /// Final move: with F, the first child proven for the proof player when the root is proven;
    /// otherwise the most visited child (the robust child).
    pub(super) fn best_edge_pn_mcts(&self, id: NodeId) -> Option<usize> {
        let node = self.tree.node(id);
        let edges = self.tree.edges(id);
        let child = |e: &super::node::Edge| (e.child() != NONE).then(|| self.tree.node(e.child()));
        if self.params.pn_flags.final_move && node.pn()[PROOF] == 0 && self.is_or_node(node) {
            if let Some(i) = edges.iter().position(|e| {
                self.allowed(id, e.mv) && child(e).is_some_and(|c| c.pn()[PROOF] == 0)
            }) {
                return Some(i);
            }
        }
        edges
            .iter()
            .enumerate()
            .filter(|(_, e)| self.allowed(id, e.mv))
            .max_by_key(|(i, e)| {
                (
                    child(e).map_or(0, |c| c.visits.get()),
                    std::cmp::Reverse(*i),
                )
            })
            .map(|(i, _)| i)
    }
}
