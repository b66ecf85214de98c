//! The network at the leaves: a position's value, and its moves' priors, from a [`Network`].

use super::quiescence::Quiescence;
use super::tree::to_prior;
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
        self.indices.clear();
        self.indices
            .extend(moves.iter().map(|&m| position.policy_index(m)));
        net.policy(&self.scratch, &self.indices, &mut self.probabilities);
        self.priors.clear();
        self.priors
            .extend(self.probabilities.iter().map(|&p| to_prior(p)));
        value
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
