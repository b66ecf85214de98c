//! Probability-based proof-number search (Song et al. 2020), as the paper's Algorithms 1-6.
//!
//! A leaf's PPN is the playout win rate R (R = 1 becomes 1 - theta, R = 0 becomes theta); an OR
//! node's PPN is 1 - prod(1 - child), an AND node's prod(child); selection takes the child of
//! greatest PPN at OR nodes and of least at AND nodes (ties: the last, as Algorithm 1). Beside the
//! float, every node keeps an exact solved flag from the finished positions below it, so a proof
//! never rests on rounding (a product can round to exactly 0 or 1). With a precision rate `pr`
//! the search also stops when the root's PPN is within `pr` of 1 or 0 (Algorithm 6): that
//! conclusion is reported as such, not as a proof.

use super::bestfirst::{self, LeafCtx, Node, Rule};
use super::{Budget, Goal, ProofRun, SolveConfig};
use crate::game::Game;

/// PPNS's rules: `a` is the PPN, `b` the exact flag (1 proven, -1 disproved, 0 open).
pub struct Ppns {
    pub theta: f64,
    pub pr: Option<f64>,
}

impl Rule for Ppns {
    fn terminal(&self, success: bool) -> (f64, f64) {
        if success {
            (1.0, 1.0)
        } else {
            (0.0, -1.0)
        }
    }
    fn leaf<G: Game>(&self, pos: &G, depth: u32, ctx: &mut LeafCtx) -> (f64, f64) {
        let mut r = ctx.win_rate(pos, depth);
        if r >= 1.0 {
            r -= self.theta;
        } else if r <= 0.0 {
            r += self.theta;
        }
        (r, 0.0)
    }
    fn combine(&self, or: bool, children: &[Node]) -> (f64, f64) {
        let mut prod = 1.0;
        let mut any = false; // OR: a proven child; AND: a disproved child
        let mut all = true; // OR: every child disproved; AND: every child proven
        for c in children {
            if or {
                prod *= 1.0 - c.a;
                any |= c.b > 0.0;
                all &= c.b < 0.0;
            } else {
                prod *= c.a;
                any |= c.b < 0.0;
                all &= c.b > 0.0;
            }
        }
        match (or, any, all) {
            (true, true, _) | (false, _, true) => (1.0, 1.0),
            (true, false, true) | (false, true, _) => (0.0, -1.0),
            (true, false, false) => (1.0 - prod, 0.0),
            (false, false, false) => (prod, 0.0),
        }
    }
    fn select(&self, or: bool, children: &[Node]) -> usize {
        let mut best = usize::MAX;
        let mut best_v = if or { f64::NEG_INFINITY } else { f64::INFINITY };
        for (i, c) in children.iter().enumerate() {
            if c.b != 0.0 {
                continue;
            }
            if (or && c.a >= best_v) || (!or && c.a <= best_v) {
                best_v = c.a;
                best = i;
            }
        }
        if best == usize::MAX {
            0
        } else {
            best
        }
    }
    fn solved(&self, _a: f64, b: f64) -> Option<bool> {
        if b > 0.0 {
            Some(true)
        } else if b < 0.0 {
            Some(false)
        } else {
            None
        }
    }
    fn concluded(&self, a: f64, _b: f64) -> Option<bool> {
        let pr = self.pr?;
        if a >= 1.0 - pr {
            Some(true)
        } else if a <= pr {
            Some(false)
        } else {
            None
        }
    }
}

/// One binary proof by PPNS.
pub fn prove<G: Game>(root: &G, goal: Goal, cfg: &SolveConfig, budget: &mut Budget) -> ProofRun {
    bestfirst::prove(
        root,
        goal,
        cfg,
        budget,
        &Ppns {
            theta: cfg.theta,
            pr: cfg.pr,
        },
    )
}
