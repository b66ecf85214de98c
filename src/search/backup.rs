//! Backup: utilities along the path, then proof numbers and score bounds recomputed from the
//! children, stopping at the first ancestor whose values did not change (lazy recomputation).

use super::node::{pn_add, Node, NodeId, Pn, LOSS, NONE, PN_DIRTY, PN_INF, WIN};
use super::Search;
use crate::game::Game;

impl<G: Game, const P: usize> Search<G, P> {
    /// Adds `utilities` to every node from `leaf` to the root; when `created` (the leaf is a new
    /// node), recomputes proof numbers and bounds upwards while they change.
    pub(super) fn backup(&mut self, leaf: NodeId, utilities: &[f32; P], created: bool) {
        let mut id = leaf;
        let mut recompute = created;
        let mut first = true;
        while id != NONE {
            let node = self.tree.node_mut(id);
            node.visits += 1;
            for (total, u) in node.total.iter_mut().zip(utilities) {
                *total += u;
            }
            let parent = node.parent;
            if !first && recompute {
                recompute = self.recompute(id);
            }
            first = false;
            id = parent;
        }
    }

    /// Recomputes node `id`'s proof numbers (OR for the mover, AND for the others) and score
    /// bounds from its children; returns whether any of them changed.
    pub(super) fn recompute(&mut self, id: NodeId) -> bool {
        let algorithm = self.params.algorithm;
        if algorithm == super::Algorithm::PnMcts {
            // The draw layer's "not a loss" / "cannot win" proofs are exactly the score bounds.
            let numbers = self.recompute_pn_mcts(id);
            let bounds = self.params.draw_layer && self.recompute_values(id, false, true);
            return numbers || bounds;
        }
        self.recompute_values(id, algorithm.uses_proof_numbers(), algorithm.uses_bounds())
    }

    /// Recomputes per-player proof numbers (`use_pn`) and score bounds (`use_bounds`) of node
    /// `id` in one pass over its children; returns whether any of them changed.
    fn recompute_values(&mut self, id: NodeId, use_pn: bool, use_bounds: bool) -> bool {
        if !use_pn && !use_bounds {
            return false;
        }
        let node = *self.tree.node(id);
        let m = node.mover as usize;
        let mut pn: [Pn; P] = [0; P];
        pn[m] = PN_INF;
        let (mut lo, mut hi) = ([WIN; P], [LOSS; P]);
        lo[m] = LOSS;
        for edge in self.tree.edges(id) {
            let (c_pn, c_lo, c_hi) = if edge.child == NONE {
                ([1; P], [LOSS; P], [WIN; P])
            } else {
                let c = self.tree.node(edge.child);
                (c.pn, c.lo, c.hi)
            };
            for p in 0..P {
                if p == m {
                    pn[p] = pn[p].min(c_pn[p]);
                    lo[p] = lo[p].max(c_lo[p]);
                } else {
                    pn[p] = pn_add(pn[p], c_pn[p]);
                    lo[p] = lo[p].min(c_lo[p]);
                }
                hi[p] = hi[p].max(c_hi[p]);
            }
        }
        if P == 2 {
            // Zero-sum: the other player gets exactly what the mover does not.
            let q = 1 - m;
            lo[q] = -hi[m];
            hi[q] = -lo[m];
        }
        if let Some(proven) = pn.iter().position(|&x| x == 0) {
            for (p, x) in pn.iter_mut().enumerate() {
                if p != proven {
                    *x = PN_INF;
                }
            }
        }
        let changed = (use_pn && pn != node.pn) || (use_bounds && (lo != node.lo || hi != node.hi));
        let n = self.tree.node_mut(id);
        if use_pn {
            n.pn = pn;
            n.flags |= PN_DIRTY;
        }
        if use_bounds {
            n.lo = lo;
            n.hi = hi;
        }
        if changed {
            let plies = self.proof_plies(id);
            self.tree.node_mut(id).proof_plies = plies;
        }
        changed
    }

    /// Distance to the end of a solved node: the shortest win, the longest loss or draw.
    fn proof_plies(&self, id: NodeId) -> u16 {
        let node = *self.tree.node(id);
        let m = node.mover as usize;
        let Some(value) = self.known_value(&node, m) else {
            return 0;
        };
        let children = self
            .tree
            .edges(id)
            .iter()
            .filter(|e| e.child != NONE)
            .map(|e| self.tree.node(e.child))
            .filter(|c| self.known_value(c, m) == Some(value))
            .map(|c| c.proof_plies);
        let best = if value == WIN {
            children.min()
        } else {
            children.max()
        };
        best.map_or(0, |p| p.saturating_add(1))
    }

    /// The exact value of `n` for player `p` (quantised), if the algorithm knows it: terminal
    /// nodes, met bounds, or (GPN, two players) a proof number of 0.
    pub(super) fn known_value(&self, n: &Node<P>, p: usize) -> Option<i8> {
        if self.params.algorithm == super::Algorithm::PnMcts {
            if n.is_terminal() || (self.params.draw_layer && n.bounds_solved()) {
                return Some(n.lo[p]);
            }
            // Only a proof is exact: a disproof may be a draw or a loss.
            let proof_player_wins = n.pn[super::pnmcts::PROOF] == 0;
            return proof_player_wins.then_some(if p == self.proof_player as usize {
                WIN
            } else {
                LOSS
            });
        }
        if n.is_terminal() || (self.params.algorithm.uses_bounds() && n.bounds_solved()) {
            return Some(n.lo[p]);
        }
        if self.params.algorithm.uses_proof_numbers() && P == 2 {
            if n.pn[p] == 0 {
                return Some(WIN);
            }
            if n.pn[1 - p] == 0 {
                return Some(LOSS);
            }
        }
        None
    }
}
