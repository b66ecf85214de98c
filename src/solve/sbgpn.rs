//! sb-gpn as a solver: the engine's Score-Bounded GPN-MCTS run until the root is solved or a limit.

use super::{Budget, SolveConfig, Value};
use crate::game::{Game, Move};
use crate::search::{Algorithm, Limits, Proven, Search, SearchParams};

/// Runs the search on `root` (two players) and reads the proven value off its report.
pub fn solve<G: Game>(root: &G, cfg: &SolveConfig, budget: &mut Budget) -> (Value, Option<Move>) {
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
        stop_when_solved: true,
        ..Limits::default()
    };
    // A full tree stops growing but the search would run on: stop it there too (unknown).
    // The report that says so is not free, so look every 16th call (1024 iterations).
    let mut calls = 0u32;
    let report = search.run_with(&limits, |s, _| {
        calls = calls.wrapping_add(1);
        !(s.root_solved() || (calls % 16 == 0 && full(s)))
    });
    budget.nodes += report.nodes as u64;
    let value = match report.proven {
        Some(Proven::Win { .. }) => Value::Win,
        Some(Proven::Draw { .. }) => Value::Draw,
        Some(Proven::Loss { .. }) => Value::Loss,
        None => Value::Unknown,
    };
    let best = match value {
        Value::Win | Value::Draw => report.best_move,
        _ => None,
    };
    (value, best)
}

fn full<G: Game>(s: &Search<G, 2>) -> bool {
    s.report().full
}
