//! Heuristic knowledge in the tree (the implicit-minimax paper): implicit minimax backups of the
//! game's evaluation. The informed playouts of the same paper live in `rollout.rs`.
//!
//! Evaluations are two-player: a node keeps its minimax value for the first player
//! ([`Node::im`]); with more players the heuristic options do nothing.

use super::node::{from_bound, Node, NodeId, IM_SCALE, NONE};
use super::Search;
use crate::game::Game;

impl<G: Game, const P: usize> Search<G, P> {
    /// The minimax-backed value of node `n` for player `p`: its exact value once its bounds
    /// have met, else its implicit minimax value.
    #[inline]
    pub(super) fn minimax_value(&self, n: &Node<P>, p: usize) -> f32 {
        if P != 2 {
            return 0.0;
        }
        let first = if n.is_terminal() || (self.params.algorithm.uses_bounds() && n.bounds_solved())
        {
            from_bound(n.lo()[0])
        } else {
            n.im() as f32 / IM_SCALE
        };
        if p == 0 {
            first
        } else {
            -first
        }
    }

    /// After a new node `leaf`: each ancestor's implicit minimax value becomes the best of its
    /// created children for its mover, up the path while something changes.
    pub(super) fn backup_minimax(&self, leaf: NodeId) {
        if P != 2 {
            return;
        }
        let mut id = self.tree.node(leaf).parent;
        while id != NONE {
            let node = self.tree.node(id).clone();
            let m = node.mover as usize;
            let mut best = f32::NEG_INFINITY;
            for edge in self.tree.edges(id) {
                if edge.child() != NONE {
                    best = best.max(self.minimax_value(self.tree.node(edge.child()), m));
                }
            }
            if best == f32::NEG_INFINITY {
                return;
            }
            let first = if m == 0 { best } else { -best };
            let im = super::node::to_im(first);
            if im == node.im() {
                return;
            }
            self.tree.node(id).im.set(im);
            id = node.parent;
        }
    }
}
