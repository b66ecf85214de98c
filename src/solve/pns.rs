//! Allis' proof-number search: an explicit AND/OR tree, leaves at (1, 1), MIN/SUM backup.

use super::bestfirst::{self, LeafCtx, Node, Rule};
use super::{Budget, Goal, ProofRun, SolveConfig};
use crate::game::Game;

/// Proof and disproof numbers as f64 (exact for integers below 2^53); infinity is `INFINITY`.
pub const INF: f64 = f64::INFINITY;

/// The MIN/SUM rules shared with MCPNS (which differs only in its leaf values).
pub(crate) fn combine_min_sum(or: bool, children: &[Node]) -> (f64, f64) {
    let mut min = INF;
    let mut sum = 0.0;
    for c in children {
        // OR: pn = min pn, dn = sum dn; AND: pn = sum pn, dn = min dn.
        let (m, s) = if or { (c.a, c.b) } else { (c.b, c.a) };
        if m < min {
            min = m;
        }
        sum += s;
    }
    if or {
        (min, sum)
    } else {
        (sum, min)
    }
}

/// The most-proving child: least proof number at OR nodes, least disproof number at AND nodes.
pub(crate) fn select_min(or: bool, children: &[Node]) -> usize {
    let mut best = 0;
    let mut best_v = INF;
    for (i, c) in children.iter().enumerate() {
        let v = if or { c.a } else { c.b };
        if v < best_v {
            best_v = v;
            best = i;
        }
    }
    best
}

pub(crate) fn terminal_pn(success: bool) -> (f64, f64) {
    if success {
        (0.0, INF)
    } else {
        (INF, 0.0)
    }
}

pub(crate) fn solved_pn(pn: f64, dn: f64) -> Option<bool> {
    if pn == 0.0 {
        Some(true)
    } else if dn == 0.0 {
        Some(false)
    } else {
        None
    }
}

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
