//! The network at the leaves: a position's value, and its moves' priors, from a [`Network`].

use super::quiescence::Quiescence;
use super::tree::{to_prior, PRIOR_ONE};
use crate::game::{Game, Move, Player};
use crate::nn::{Network, NetworkFile, QuantScratch, Scratch};

/// One thread's buffers for network evaluations (no allocation once warm).
#[derive(Default)]
pub(crate) struct NetLeaf {
    scratch: Scratch,
    features: Vec<u16>,
    indices: Vec<usize>,
    probabilities: Vec<f32>,
    /// The priors of the last [`NetLeaf::value_and_priors`], one per move, for `Tree::add`.
    pub priors: Vec<u16>,
    /// The quiescence step's buffers.
    quiet: Quiescence,
    /// The int16 value path's buffers.
    quant: QuantScratch,
    /// The top trunk layer's activations from the int16 path, the policy head's input.
    top: Vec<f32>,
}

impl NetLeaf {
    /// The value of `position` for the first player, in [-1, 1] (the network sees the side to
    /// move; its win minus loss is turned to the first player's view).
    pub fn value<G: Game>(&mut self, net: &Network, position: &G) -> f32 {
        position.features(&mut self.features);
        let value = net.evaluate(&self.features, &mut self.scratch).value();
        if position.to_move() == Player(0) {
            value
        } else {
            -value
        }
    }

    /// The value of `position` for its side to move, in [-1, 1], from the network's int16
    /// value path (within [`crate::nn::VALUE_TOLERANCE`] of the f32 one, several times faster;
    /// the f32 path where a position has more features than the game's bound).
    pub fn mover_value<G: Game>(&mut self, file: &NetworkFile, position: &G) -> f32 {
        position.features(&mut self.features);
        let quant = file.quantised(G::MAX_ACTIVE);
        if self.features.len() <= quant.max_active() {
            quant.evaluate(&self.features, &mut self.quant).value()
        } else {
            file.net()
                .evaluate(&self.features, &mut self.scratch)
                .value()
        }
    }

    /// The first player's value of `position` after `plies` plies of the quiescence step
    /// ([`super::quiescence`]), given its network value `value` (first player's view) and its
    /// legal `moves`. Overwrites the scratch: call it after the policy and costs are read.
    pub fn quiescent_value<G: Game>(
        &mut self,
        file: &NetworkFile,
        position: &G,
        moves: &[Move],
        value: f32,
        plies: u32,
    ) -> f32 {
        let first = position.to_move() == Player(0);
        let stand = if first { value } else { -value };
        let mut quiet = std::mem::take(&mut self.quiet);
        let q = quiet.value(
            &mut |p: &G| self.mover_value(file, p),
            position,
            moves,
            stand,
            plies,
        );
        self.quiet = quiet;
        if first {
            q
        } else {
            -q
        }
    }

    /// [`NetLeaf::value`], and the policy's probability of each of `moves` (the legal moves)
    /// left in [`NetLeaf::priors`].
    pub fn value_and_priors<G: Game>(
        &mut self,
        net: &Network,
        position: &G,
        moves: &[Move],
    ) -> f32 {
        let value = self.value(net, position);
        self.fill_priors(net, position, moves, false);
        value
    }

    /// [`NetLeaf::value_and_priors`] through the int16 trunk ([`crate::nn::QuantNetwork`]) in
    /// games whose positions have a bound on active features ([`crate::nn::Features`]'s
    /// `MAX_ACTIVE`), where it is within [`crate::nn::VALUE_TOLERANCE`] of f32 and faster; the
    /// f32 path elsewhere, for a position over the bound, and for networks with cost heads
    /// (whose [`NetLeaf::costs`] read the f32 trunk).
    pub fn node_value_and_priors<G: Game>(
        &mut self,
        file: &NetworkFile,
        position: &G,
        moves: &[Move],
    ) -> f32 {
        let net = file.net();
        if G::MAX_ACTIVE == usize::MAX || net.has_costs() {
            return self.value_and_priors(net, position, moves);
        }
        position.features(&mut self.features);
        let quant = file.quantised(G::MAX_ACTIVE);
        if self.features.len() > quant.max_active() {
            return self.value_and_priors(net, position, moves);
        }
        let mover = quant.evaluate(&self.features, &mut self.quant).value();
        quant.top(&self.quant, &mut self.top);
        self.fill_priors(net, position, moves, true);
        if position.to_move() == Player(0) {
            mover
        } else {
            -mover
        }
    }

    /// The policy probabilities of `moves` (after an evaluation: the float network's, or the
    /// int16 one's with `int16`) into `self.probabilities`.
    fn fill_probabilities<G: Game>(
        &mut self,
        net: &Network,
        position: &G,
        moves: &[Move],
        int16: bool,
    ) {
        self.indices.clear();
        self.indices
            .extend(moves.iter().map(|&m| position.policy_index(m)));
        if int16 {
            net.policy_of(&self.top, &self.indices, &mut self.probabilities);
        } else {
            net.policy(&self.scratch, &self.indices, &mut self.probabilities);
        }
    }

    /// Fills [`NetLeaf::priors`] with the policy's probability of each of `moves`, from the
    /// top trunk activations of the last evaluation: the int16 trunk's (`int16`, in
    /// `self.top`) or the f32 one's.
    fn fill_priors<G: Game>(&mut self, net: &Network, position: &G, moves: &[Move], int16: bool) {
        self.fill_probabilities(net, position, moves, int16);
        self.priors.clear();
        self.priors
            .extend(self.probabilities.iter().map(|&p| to_prior(p)));
    }

    /// Blends the policy of `net` into `priors`, the game's knowledge priors of `moves` (x
    /// 65535, one per move): each becomes `(1 - share) knowledge + share r`, where `r = p n /
    /// (p n + 1)` turns the move's policy probability `p` among the `n` legal moves into a win
    /// rate (a uniform policy gives 0.5, ten times uniform 0.91, a tenth 0.09). A knowledge
    /// prior of 0 (never play unless proved: Go's own-eye fill) stays 0, whatever the network
    /// thinks, and no other becomes 0.
    pub fn blend_policy<G: Game>(
        &mut self,
        net: &Network,
        position: &G,
        moves: &[Move],
        share: f32,
        priors: &mut [u16],
    ) {
        position.features(&mut self.features);
        net.evaluate(&self.features, &mut self.scratch);
        self.fill_probabilities(net, position, moves, false);
        let n = moves.len() as f32;
        for (prior, &p) in priors.iter_mut().zip(&self.probabilities) {
            if *prior == 0 {
                continue;
            }
            let rate = p * n / (p * n + 1.0);
            let knowledge = *prior as f32 / PRIOR_ONE as f32;
            // At least 1: a prior of 0 would forbid the move.
            *prior = to_prior((1.0 - share) * knowledge + share * rate).max(1);
        }
    }

    /// After [`NetLeaf::value`], the position's proof costs for the side to move and for the
    /// opponent from the network's cost heads (`None` without them).
    pub fn costs(&mut self, net: &Network) -> Option<[f32; 2]> {
        net.costs(&self.scratch, &mut self.probabilities)
    }

    /// Utilities of both players from the first player's value (two-player, zero-sum).
    pub fn utilities<const P: usize>(value: f32) -> [f32; P] {
        std::array::from_fn(|p| if p == 0 { value } else { -value })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::chess::losalamos::LosAlamos;
    use crate::game::minishogi::Minishogi;
    use crate::game::MoveList;
    use crate::nn::{NetworkFile, BUILTIN, VALUE_TOLERANCE};
    use crate::rng::Rng;

    /// The largest value and prior differences between the int16 node path and the f32 one
    /// over the positions of random games with the game's embedded network.
    fn node_differences<G: Game>(game: &str, seed: u64) -> (f32, f32, usize) {
        let file = NetworkFile::load(BUILTIN)
            .expect("builtin")
            .for_game(game)
            .expect("an embedded network");
        let (mut f32_leaf, mut int_leaf) = (NetLeaf::default(), NetLeaf::default());
        let (mut rng, mut buf) = (Rng::new(seed), MoveList::new());
        let (mut worst_value, mut worst_prior, mut n) = (0.0f32, 0.0f32, 0);
        for _ in 0..10 {
            let mut pos = G::start();
            while pos.outcome().is_none() && n < 2000 {
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                let a = f32_leaf.value_and_priors(file.net(), &pos, moves.as_slice());
                let b = int_leaf.node_value_and_priors(&file, &pos, moves.as_slice());
                worst_value = worst_value.max((a - b).abs());
                for (&p, &q) in f32_leaf.priors.iter().zip(&int_leaf.priors) {
                    let d = (p as f32 - q as f32).abs() / crate::search::tree::PRIOR_ONE as f32;
                    worst_prior = worst_prior.max(d);
                }
                assert_eq!(f32_leaf.priors.len(), int_leaf.priors.len());
                n += 1;
                let Some(m) = pos.random_move(&mut rng, &mut buf) else {
                    break;
                };
                pos.play(m);
            }
        }
        (worst_value, worst_prior, n)
    }

    #[test]
    fn the_int16_node_path_follows_the_f32_one_in_value_and_priors() {
        for (game, (value, prior, n)) in [
            ("minishogi", node_differences::<Minishogi>("minishogi", 1)),
            ("losalamos", node_differences::<LosAlamos>("losalamos", 2)),
        ] {
            eprintln!("{game}: {n} positions, value max {value:.5}, prior max {prior:.5}");
            assert!(n > 300, "{game}: {n} positions");
            assert!(value <= VALUE_TOLERANCE, "{game}: value {value}");
            assert!(prior <= VALUE_TOLERANCE, "{game}: prior {prior}");
        }
    }
}
