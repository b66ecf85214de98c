//! Allis' proof-number search: an explicit AND/OR tree, leaves at (1, 1), MIN/SUM backup.

use super::bestfirst::{self, LeafCtx, Rule};
use super::{Budget, Goal, ProofRun, SolveConfig};
use crate::game::Game;

/// Allis' rules: every unfinished leaf starts at pn = dn = 1, or where a network advises, at
/// its numbers (`gpn solve --algo pns --net`).
pub struct Pns;

impl Rule for Pns {
    fn leaf<G: Game>(&self, _pos: &G, _depth: u32, _ctx: &mut LeafCtx) -> (f64, f64) {
        (1.0, 1.0)
    }

    fn takes_advice(&self) -> bool {
        true
    }
}

/// One binary proof by PNS.
pub fn prove<G: Game>(root: &G, goal: Goal, cfg: &SolveConfig, budget: &mut Budget) -> ProofRun {
    bestfirst::prove(root, goal, cfg, budget, &Pns)
}
