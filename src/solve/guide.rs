//! A network's advice to the solvers: the order of a node's moves (its policy) and its new
//! children's proof and disproof numbers (its value head, or its proof-cost heads).

use super::{Pcn, SolveConfig};
use crate::game::{Game, Move, Player};
use crate::nn::{NetworkFile, Scratch};

/// One solver thread's network and buffers (no allocation once warm).
pub(crate) struct Guide {
    file: NetworkFile,
    pcn: Pcn,
    eval_init: u32,
    scratch: Scratch,
    features: Vec<u16>,
    indices: Vec<usize>,
    /// The policy's probabilities of the moves of the last [`Guide::advise`].
    pub priors: Vec<f32>,
    logits: Vec<f32>,
}

impl Guide {
    /// The moves of the last [`Guide::advise`] by index, most probable first, into `order`
    /// (cleared first). Not generic: one sort for every game, not one copy per game.
    pub fn move_order(&self, order: &mut Vec<(f32, u16)>) {
        order.clear();
        order.extend(self.priors.iter().enumerate().map(|(i, &p)| (p, i as u16)));
        order.sort_by(|a, b| b.0.total_cmp(&a.0));
    }

    /// The guide of `cfg`'s network for game `G`; `None` without a network (or with one that
    /// is not `G`'s: the command line checks the fit first and says so).
    pub fn new<G: Game>(cfg: &SolveConfig) -> Option<Guide> {
        let file = cfg.network.as_ref()?.for_game(G::INFO.name).ok()?;
        file.net()
            .check_fits(G::INFO.name, G::INPUTS, G::POLICY)
            .ok()?;
        Some(Guide {
            file,
            pcn: cfg.pcn,
            eval_init: cfg.eval_init,
            scratch: Scratch::default(),
            features: Vec::new(),
            indices: Vec::new(),
            priors: Vec::new(),
            logits: Vec::new(),
        })
    }

    /// Evaluates `pos`, whose moves to search are `moves`: their priors go to
    /// [`Guide::priors`], and the result is the (pn, dn) each new child starts with for the
    /// prover `me` (see [`Pcn`]), or `None` when the network does not set them (the value head
    /// with `eval_init` 0, or cost heads the network lacks).
    pub fn advise<G: Game>(&mut self, pos: &G, moves: &[Move], me: Player) -> Option<(f64, f64)> {
        pos.features(&mut self.features);
        let net = self.file.net();
        let wdl = net.evaluate(&self.features, &mut self.scratch);
        self.indices.clear();
        self.indices
            .extend(moves.iter().map(|&m| pos.policy_index(m)));
        net.policy(&self.scratch, &self.indices, &mut self.priors);
        let prover_moves = pos.to_move() == me;
        match self.pcn {
            Pcn::Off => {
                if self.eval_init == 0 {
                    return None;
                }
                let v = if prover_moves {
                    wdl.value()
                } else {
                    -wdl.value()
                } as f64;
                let k = self.eval_init as f64;
                Some((1.0 + (k * (1.0 - v)).round(), 1.0 + (k * (1.0 + v)).round()))
            }
            Pcn::Max | Pcn::Heur => {
                let [own, other] = net.costs(&self.scratch, &mut self.logits)?;
                let b = match self.pcn {
                    Pcn::Max => G::POLICY,
                    _ => moves.len(),
                }
                .max(1) as f64;
                let (own, other) = (own as f64, other as f64);
                Some(if prover_moves {
                    // v_n = the mover's cost, v_m = the other side's.
                    (own, other / b)
                } else {
                    (other / b, own)
                })
            }
        }
    }
}
