//! sb-gpn as a solver: the engine's Score-Bounded GPN-MCTS run until the root is solved or a limit.

use std::sync::atomic::Ordering;

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
        threads: cfg.threads,
        network: cfg.network.clone(),
        pcn_init: cfg.network.is_some() && cfg.pcn != super::Pcn::Off,
        forcing: cfg.forcing,
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
    // A full tree is recycled and the search goes on (the node and time limits end it); a tree
    // that recycling cannot shrink stops growing, so stop there too (unknown).
    let nodes_before = budget.nodes;
    let report = search.run_with(&limits, |s, _| {
        // For a watcher (progress lines, the parallel solver's node limit).
        if let Some(p) = &cfg.progress {
            p.nodes
                .store(nodes_before + s.nodes_created(), Ordering::Relaxed);
        }
        !(s.root_solved() || s.tree_frozen())
    });
    budget.nodes += report.created;
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
