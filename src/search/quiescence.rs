//! The quiescence step: a new node's network value after its captures are played out.
//!
//! A network judges a position as it stands; in the chess family a piece left hanging or an
//! exchange half done is exactly what a small network misjudges, and the tree would need a visit
//! per capture to see it. With `quiescence` plies, a new node's value is instead a small
//! alpha-beta over its noisy moves ([`crate::game::Heuristics::is_noisy`]: captures, and
//! promotions in the chess family) with the network at every position: the side to move may
//! stand on the network's value or take the best capture sequence, as a chess engine's
//! quiescence search does. A side in check stands on the network's value (its evasions are the
//! threat search's business), and at most [`QUIESCENCE_EVALUATIONS`] extra evaluations are
//! spent per node.
//!
//! Only the node's heuristic value changes, so score bounds and proofs stay exactly what the
//! tree proves. Game ends inside the step are not looked for (a mate is the threat search's, a
//! position without moves stands on its network value): detecting them would cost a move
//! generation per capture, and it keeps the pruning exact (a move is worth at most its child's
//! own value).

use crate::game::{Game, Move, MoveList};

/// The most network evaluations one quiescence step spends beyond the node's own.
pub const QUIESCENCE_EVALUATIONS: u32 = 32;

/// One thread's quiescence buffers (no allocation once warm).
#[derive(Default)]
pub(crate) struct Quiescence {
    /// Per ply below the node: the legal moves.
    moves: Vec<MoveList>,
    /// Per ply: each noisy move's value for the side to move after one ply (its child's
    /// network value), with the move's index in `moves`.
    noisy: Vec<Vec<(f32, usize)>>,
    /// Evaluations left in this step.
    left: u32,
}

impl Quiescence {
    /// The value of `position` for its side to move after up to `plies` plies of noisy moves,
    /// in [-1, 1]; `stand` is its network value for the side to move, `moves` its legal moves,
    /// `evaluate` the network's value of a position for its side to move.
    pub fn value<G: Game>(
        &mut self,
        evaluate: &mut impl FnMut(&G) -> f32,
        position: &G,
        moves: &[Move],
        stand: f32,
        plies: u32,
    ) -> f32 {
        if self.moves.is_empty() {
            self.moves.push(MoveList::new());
        }
        self.moves[0].clear();
        for &m in moves {
            self.moves[0].push(m);
        }
        self.left = QUIESCENCE_EVALUATIONS;
        self.search(evaluate, position, stand, 0, plies, -1.0, 1.0)
    }

    /// Negamax with alpha-beta over the noisy moves at `ply` (its legal moves already in
    /// `moves[ply]` at ply 0), standing on `stand`.
    #[allow(clippy::too_many_arguments)]
    fn search<G: Game>(
        &mut self,
        evaluate: &mut impl FnMut(&G) -> f32,
        position: &G,
        stand: f32,
        ply: usize,
        plies: u32,
        mut alpha: f32,
        beta: f32,
    ) -> f32 {
        if plies == 0 || stand >= beta || position.in_check() {
            return stand;
        }
        while self.moves.len() <= ply {
            self.moves.push(MoveList::new());
        }
        while self.noisy.len() <= ply {
            self.noisy.push(Vec::new());
        }
        if ply > 0 {
            // (A position without moves has no noisy ones: it stands on its value.)
            position.legal_moves(&mut self.moves[ply]);
        }
        let mut noisy = std::mem::take(&mut self.noisy[ply]);
        noisy.clear();
        for (i, &m) in self.moves[ply].iter().enumerate() {
            if self.left == 0 {
                break;
            }
            if position.is_noisy(m) {
                let mut child = position.clone();
                child.play(m);
                self.left -= 1;
                noisy.push((-evaluate(&child), i));
            }
        }
        // Best first, for the cut-offs.
        noisy.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
        let mut best = stand;
        alpha = alpha.max(stand);
        for &(value, i) in &noisy {
            // A move is worth at most its child's value (the reply may stand there), and the
            // moves come best first: none from here on can raise alpha.
            if alpha >= beta || value <= alpha {
                break;
            }
            let score = if plies == 1 {
                value
            } else {
                let mut child = position.clone();
                child.play(self.moves[ply][i]);
                -self.search(evaluate, &child, -value, ply + 1, plies - 1, -beta, -alpha)
            };
            best = best.max(score);
            alpha = alpha.max(score);
        }
        self.noisy[ply] = noisy;
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::minishogi::Minishogi;
    use crate::game::{Heuristics, Rules};
    use crate::nn::{Network, Scratch};

    /// The network's value of `position` for its side to move.
    fn mover_value<G: Game>(net: &Network, position: &G) -> f32 {
        let mut features = Vec::new();
        position.features(&mut features);
        net.evaluate(&features, &mut Scratch::default()).value()
    }

    /// The full-width capture search the step prunes: the same negamax without alpha-beta.
    fn plain<G: Game>(net: &Network, position: &G, plies: u32) -> f32 {
        let stand = mover_value(net, position);
        if plies == 0 || position.in_check() {
            return stand;
        }
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        let mut best = stand;
        for &m in moves.iter().filter(|&&m| position.is_noisy(m)) {
            let mut child = position.clone();
            child.play(m);
            best = best.max(-plain(net, &child, plies - 1));
        }
        best
    }

    #[test]
    fn alpha_beta_returns_the_full_width_value_and_never_less_than_standing() {
        let file = crate::nn::builtin::network("minishogi").expect("embedded minishogi network");
        let net = file.net();
        let mut evaluate = |p: &Minishogi| mover_value(net, p);
        let mut quiet = Quiescence::default();
        let mut rng = crate::rng::Rng::new(5);
        let mut moves = MoveList::new();
        let mut checked = 0;
        for _ in 0..20 {
            let mut p = Minishogi::start();
            for _ in 0..40 {
                p.legal_moves(&mut moves);
                if p.outcome().is_some() || moves.is_empty() {
                    break;
                }
                let stand = mover_value(net, &p);
                // Few enough captures that the budget never binds: the pruned value is exact.
                let captures = moves.iter().filter(|&&m| p.is_noisy(m)).count();
                if captures <= 4 {
                    let q = quiet.value(&mut evaluate, &p, moves.as_slice(), stand, 2);
                    assert!(q >= stand - 1e-6);
                    if quiet.left > 0 {
                        let full = plain(net, &p, 2);
                        assert!(
                            (q - full).abs() < 1e-5,
                            "{q} vs {full} at {}",
                            p.to_position()
                        );
                        checked += u32::from(captures > 0);
                    }
                }
                let m = moves[rng.below(moves.len() as u32) as usize];
                p.play(m);
            }
        }
        assert!(checked > 50, "only {checked} positions with captures");
    }

    #[test]
    fn a_hanging_piece_is_seen_and_no_plies_change_nothing() {
        use crate::game::chess::losalamos::LosAlamos;
        let file = crate::nn::builtin::network("losalamos").expect("embedded losalamos network");
        let net = file.net();
        let mut evaluate = |p: &LosAlamos| mover_value(net, p);
        let mut quiet = Quiescence::default();
        // White to move, Black's queen en prise to two pawns: taking it is worth far more than
        // standing.
        let p = LosAlamos::parse_position("rn1knr/pppppp/6/2q3/PPPPPP/RNQKNR w - - 0 1")
            .expect("position");
        let mut moves = MoveList::new();
        p.legal_moves(&mut moves);
        let stand = mover_value(net, &p);
        let none = quiet.value(&mut evaluate, &p, moves.as_slice(), stand, 0);
        assert_eq!(none, stand);
        let q = quiet.value(&mut evaluate, &p, moves.as_slice(), stand, 3);
        assert!(q > stand + 0.2, "stand {stand}, quiescence {q}");
    }
}
