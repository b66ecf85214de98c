//! sb-gpn as a solver: the engine's Score-Bounded GPN-MCTS run until the root is solved or a limit.

use super::{Budget, SolveConfig, Value};
use crate::game::{Game, Move};
use crate::search::{Algorithm, Limits, Proven, Search, SearchParams};

/// What the search proved: the value, a move that achieves it, the search's principal
/// variation and the proven distance in plies.
pub struct Answer {
    pub value: Value,
    pub best: Option<Move>,
    pub pv: Vec<Move>,
    pub plies: Option<u32>,
}

/// Runs the search on `root` (two players) and reads the proven value off its report.
pub fn solve<G: Game>(root: &G, cfg: &SolveConfig, budget: &mut Budget) -> Answer {
    let params = SearchParams {
        algorithm: Algorithm::SbGpn,
        seed: cfg.seed,
        hash_mb: cfg.memory_mb,
        ..SearchParams::default()
    };
    let mut search: Search<G, 2> = Search::new(params, root.clone());
    let limits = Limits {
        nodes: cfg.max_nodes,
        time: cfg.max_time,
        stop: cfg.stop.clone(),
        stop_when_solved: true,
        ..Limits::default()
    };
    // A full tree stops growing but the search would run on: stop it there too (unknown).
    // The report that says so is not free, so look every 16th call (at most 1024 iterations).
    let mut calls = 0u32;
    let report = search.run_with(&limits, |s, _| {
        calls = calls.wrapping_add(1);
        !(s.root_solved() || (calls % 16 == 0 && full(s)))
    });
    budget.nodes += report.nodes as u64;
    let (value, plies) = match report.proven {
        Some(Proven::Win { plies }) => (Value::Win, Some(plies)),
        Some(Proven::Draw { plies }) => (Value::Draw, Some(plies)),
        Some(Proven::Loss { plies }) => (Value::Loss, Some(plies)),
        None => (Value::Unknown, None),
    };
    let best = match value {
        Value::Win | Value::Draw => report.best_move,
        _ => None,
    };
    Answer {
        value,
        best,
        pv: if plies.is_some() {
            report.pv
        } else {
            Vec::new()
        },
        plies,
    }
}

fn full<G: Game>(s: &Search<G, 2>) -> bool {
    s.report().full
}
