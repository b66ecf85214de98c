//! Heuristic knowledge in the search (the implicit-minimax paper): implicit minimax backups of
//! the game's evaluation, and informed playouts (decisive and anti-decisive moves, preferred
//! captures, epsilon-greedy moves, fixed and dynamic early terminations).
//!
//! Evaluations are two-player: a node keeps its minimax value for the first player
//! ([`Node::im`]); with more players the heuristic options do nothing.

use super::node::{from_bound, Node, NodeId, IM_SCALE, NONE};
use super::params::Policy;
use super::Search;
use crate::game::{Game, Move, Player};

/// How much likelier a capture is than another move under the informed policy (the paper's 4).
const CAPTURE_WEIGHT: u32 = 4;
/// Under the informed policy, moves drawn before one that does not hand the opponent an
/// immediate win is accepted (then the last one is played anyway).
const ANTI_DECISIVE_TRIES: u32 = 4;

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
            from_bound(n.lo[0])
        } else {
            n.im as f32 / IM_SCALE
        };
        if p == 0 {
            first
        } else {
            -first
        }
    }

    /// After a new node `leaf`: each ancestor's implicit minimax value becomes the best of its
    /// created children for its mover, up the path while something changes.
    pub(super) fn backup_minimax(&mut self, leaf: NodeId) {
        if P != 2 {
            return;
        }
        let mut id = self.tree.node(leaf).parent;
        while id != NONE {
            let node = *self.tree.node(id);
            let m = node.mover as usize;
            let mut best = f32::NEG_INFINITY;
            for edge in self.tree.edges(id) {
                if edge.child != NONE {
                    best = best.max(self.minimax_value(self.tree.node(edge.child), m));
                }
            }
            if best == f32::NEG_INFINITY {
                return;
            }
            let first = if m == 0 { best } else { -best };
            let im = super::node::to_im(first);
            if im == node.im {
                return;
            }
            self.tree.node_mut(id).im = im;
            id = node.parent;
        }
    }

    /// A playout under the heuristic options: the policy's moves, cut short by fixed or dynamic
    /// early termination (scored by the evaluation), capped at `playout_cap` plies (a draw).
    pub(super) fn informed_playout(&mut self, mut position: G) -> [f32; P] {
        let (fet, det) = (self.params.fet, self.params.det);
        let mut plies = 0u32;
        loop {
            if let Some(outcome) = position.outcome() {
                return std::array::from_fn(|p| outcome.utility(Player(p as u8)));
            }
            if plies >= self.params.playout_cap {
                return [0.0; P];
            }
            if P == 2 && (fet > 0 || det > 0.0) {
                let v = position.evaluate(Player(0));
                if fet > 0 && plies >= fet {
                    return std::array::from_fn(|p| if p == 0 { v } else { -v });
                }
                if det > 0.0 && v.abs() >= det {
                    let s = v.signum();
                    return std::array::from_fn(|p| if p == 0 { s } else { -s });
                }
            }
            match self.playout_move(&position) {
                Some(m) => position.play(m),
                None => return [0.0; P],
            }
            plies += 1;
        }
    }

    /// The next playout move under the policy (`None` only when there is no legal move).
    pub(super) fn playout_move(&mut self, position: &G) -> Option<Move> {
        position.legal_moves(&mut self.moves);
        let n = self.moves.len();
        if n == 0 {
            return None;
        }
        let informed = self.params.policy == Policy::Informed && P == 2;
        if informed {
            // Decisive: a move that wins at once is always played.
            if let Some(m) = position.winning_move(&mut self.replies) {
                return Some(m);
            }
        }
        let ege = self.params.ege;
        if ege > 0.0 && P == 2 && self.rng.below(1 << 20) as f32 >= ege * (1 << 20) as f32 {
            return Some(self.greediest(position));
        }
        if !informed {
            return Some(self.moves[self.rng.below(n as u32) as usize]);
        }
        // Captures preferred; anti-decisive: redraw a move that lets the opponent win at once.
        let mut pick = self.moves[0];
        for _ in 0..ANTI_DECISIVE_TRIES {
            pick = self.weighted_move(position);
            let mut next = position.clone();
            next.play(pick);
            if !self.wins_at_once(&next) {
                break;
            }
        }
        Some(pick)
    }

    /// A move of `self.moves` at random, captures [`CAPTURE_WEIGHT`] times as likely.
    fn weighted_move(&mut self, position: &G) -> Move {
        let total: u32 = self
            .moves
            .iter()
            .map(|&m| {
                if position.is_capture(m) {
                    CAPTURE_WEIGHT
                } else {
                    1
                }
            })
            .sum();
        let mut r = self.rng.below(total.max(1));
        for &m in self.moves.iter() {
            let w = if position.is_capture(m) {
                CAPTURE_WEIGHT
            } else {
                1
            };
            if r < w {
                return m;
            }
            r -= w;
        }
        self.moves[self.moves.len() - 1]
    }

    /// Whether the player to move in `position` has a move that wins at once.
    fn wins_at_once(&mut self, position: &G) -> bool {
        position.winning_move(&mut self.replies).is_some()
    }

    /// The move of `self.moves` whose position evaluates best for the mover (ties at random).
    fn greediest(&mut self, position: &G) -> Move {
        let mover = position.to_move();
        let mut best = f32::NEG_INFINITY;
        let mut pick = self.moves[0];
        let mut ties = 0u32;
        for i in 0..self.moves.len() {
            let m = self.moves[i];
            let mut next = position.clone();
            next.play(m);
            let v = match next.outcome() {
                Some(o) => o.utility(mover) * 2.0,
                None => next.evaluate(mover),
            };
            if v > best {
                best = v;
                pick = m;
                ties = 1;
            } else if v == best {
                ties += 1;
                if self.rng.below(ties) == 0 {
                    pick = m;
                }
            }
        }
        pick
    }
}
