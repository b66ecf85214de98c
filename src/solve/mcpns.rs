//! Monte-Carlo proof-number search (Saito et al. 2007): PNS whose leaves get pn = 1 - R, dn = R.
//!
//! R is the rate at which `playouts` random games from the new leaf reach the goal; both numbers
//! are kept at least `theta` so that only finished positions are ever proven or disproved. The
//! MIN/SUM backup and the selection are Allis' (real-valued).

use super::bestfirst::{self, LeafCtx, Rule};
use super::{Budget, Goal, ProofRun, SolveConfig};
use crate::game::Game;

/// MCPNS's rules with the smallest leaf number `theta`.
pub struct Mcpns {
    pub theta: f64,
}

impl Rule for Mcpns {
    fn leaf<G: Game>(&self, pos: &G, depth: u32, ctx: &mut LeafCtx) -> (f64, f64) {
        let r = ctx.win_rate(pos, depth);
        ((1.0 - r).max(self.theta), r.max(self.theta))
    }
}

/// One binary proof by MCPNS.
pub fn prove<G: Game>(root: &G, goal: Goal, cfg: &SolveConfig, budget: &mut Budget) -> ProofRun {
    let theta = if cfg.theta > 0.0 { cfg.theta } else { 0.01 };
    bestfirst::prove(root, goal, cfg, budget, &Mcpns { theta })
}
