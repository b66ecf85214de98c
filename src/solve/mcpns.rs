//! Monte-Carlo proof-number search (Saito et al. 2007): PNS whose leaves get pn = 1 - R, dn = R.
//!
//! R is the rate at which `playouts` random games from the new leaf reach the goal; both numbers
//! are kept at least `theta` so that only finished positions are ever proven or disproved. The
//! MIN/SUM backup and the selection are Allis' (real-valued).

use super::bestfirst::{self, LeafCtx, Node, Rule};
use super::pns::{combine_min_sum, select_min, solved_pn, terminal_pn};
use super::{Budget, Goal, ProofRun, SolveConfig};
use crate::game::Game;

/// MCPNS's rules with the smallest leaf number `theta`.
pub struct Mcpns {
    pub theta: f64,
}

impl Rule for Mcpns {
    fn terminal(&self, success: bool) -> (f64, f64) {
        terminal_pn(success)
    }
    fn leaf<G: Game>(&self, pos: &G, depth: u32, ctx: &mut LeafCtx) -> (f64, f64) {
        let r = ctx.win_rate(pos, depth);
        ((1.0 - r).max(self.theta), r.max(self.theta))
    }
    fn combine(&self, or: bool, children: &[Node]) -> (f64, f64) {
        combine_min_sum(or, children)
    }
    fn select(&self, or: bool, children: &[Node]) -> usize {
        select_min(or, children)
    }
    fn solved(&self, a: f64, b: f64) -> Option<bool> {
        solved_pn(a, b)
    }
}

/// One binary proof by MCPNS.
pub fn prove<G: Game>(root: &G, goal: Goal, cfg: &SolveConfig, budget: &mut Budget) -> ProofRun {
    let theta = if cfg.theta > 0.0 { cfg.theta } else { 0.01 };
    bestfirst::prove(root, goal, cfg, budget, &Mcpns { theta })
}
