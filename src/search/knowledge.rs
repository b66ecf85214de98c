//! The Monte-Carlo Go programs' tree knowledge, for any game that offers it: move priors as
//! equivalent experience (Gelly & Silver 2007; Pachi's and Fuego's priors) and RAVE, the
//! all-moves-as-first statistics mixed into each move's value (Gelly & Silver's schedule in
//! Pachi's form). Both only change the estimate that selection reads for a child whose value is
//! not known: proven values and score bounds take precedence as before (`select.rs`), so proofs
//! stay exact.

use super::node::{Edge, Node, NodeId};
use super::params::{Algorithm, SearchParams};
use super::tree::{Amaf, PRIOR_ONE};
use super::Search;
use crate::game::{Game, Move};

/// The knowledge a search of `G` with `P` players uses, fixed when the search is made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct TreeKnowledge {
    /// Edges carry the game's move priors, worth `params.prior` playouts.
    pub priors: bool,
    /// Edges carry AMAF statistics, updated by every backup (one thread or many).
    pub rave: bool,
}

impl TreeKnowledge {
    /// What `params` turn on for game `G` with `P` players: two-player games, UCT-style
    /// algorithms (not PN-MCTS, whose selection is the proof numbers'), no network (whose
    /// priors and values take the place of both).
    pub fn of<G: Game, const P: usize>(params: &SearchParams) -> TreeKnowledge {
        let possible = P == 2 && params.algorithm != Algorithm::PnMcts && !params.uses_network();
        TreeKnowledge {
            priors: possible && params.prior > 0 && G::HAS_MOVE_PRIORS,
            rave: possible && params.rave > 0 && G::AMAF_MOVES > 0,
        }
    }

    pub fn any(&self) -> bool {
        self.priors || self.rave
    }
}

impl<G: Game, const P: usize> Search<G, P> {
    /// The value for the chooser `m` of an edge whose child (if created) is `child`, whose
    /// knowledge prior is `prior` (x 65535; `None` without priors) and whose AMAF statistics
    /// are `amaf`: the child's mean with the prior counted as `params.prior` playouts, mixed
    /// with the AMAF mean (itself with the prior) by RAVE's weight; `None` when nothing is
    /// known (no child, no prior, no AMAF visit). Selection reads a node's priors and AMAF
    /// slices once and passes each edge's entries.
    #[inline]
    pub(super) fn knowledge_value(
        &self,
        child: Option<&Node<P>>,
        m: usize,
        prior: Option<u16>,
        amaf: Amaf,
    ) -> Option<f32> {
        let (visits, sum) = child.map_or((0.0, 0.0), |c| (c.visits.get() as f32, c.total[m].get()));
        let (prior, weight) = match prior {
            Some(p) if self.knowledge.priors => (
                2.0 * p as f32 / PRIOR_ONE as f32 - 1.0,
                self.params.prior as f32,
            ),
            _ => (0.0, 0.0),
        };
        let mc = (visits + weight > 0.0).then(|| (sum + prior * weight) / (visits + weight));
        if amaf.visits == 0 {
            return mc;
        }
        let an = amaf.visits as f32;
        let rave = (amaf.total + prior * weight) / (an + weight);
        let beta = an / (an + visits + visits * an / self.params.rave as f32);
        Some(match mc {
            Some(mc) => (1.0 - beta) * mc + beta * rave,
            None => rave,
        })
    }

    /// Whether edge `i` of node `id` is a move the game's knowledge says never to play unless
    /// proved (prior 0: Go's own-eye fill).
    #[inline]
    pub(super) fn never_move(&self, id: NodeId, i: usize) -> bool {
        self.knowledge.priors && self.tree.priors(id).get(i) == Some(&0)
    }

    /// After an iteration with utilities `utilities` that descended along `path` ((node, edge)
    /// from the root) and whose playout played `trace` ((move, player)): every node of the path
    /// gets, on each edge whose move its mover played first at that node or later (in the tree
    /// or in the playout), one AMAF visit worth the mover's utility. Threaded searches below
    /// `shared_stats` threads call it under the exclusive lock, with their flight's path and
    /// trace; from there on, [`Search::backup_amaf_shared`].
    pub(super) fn backup_amaf(
        &mut self,
        path: &[(NodeId, u16)],
        trace: &[(Move, u8)],
        utilities: &[f32; P],
    ) {
        let mut seen = std::mem::take(&mut self.amaf_seen);
        Self::first_players(trace, &mut seen);
        for &(id, e) in path.iter().rev() {
            let mover = self.tree.node(id).mover;
            let (edges, amaf) = self.tree.edges_and_amaf_mut(id);
            let u = utilities[mover as usize];
            for k in Self::amaf_edges(edges, e, mover, &mut seen) {
                amaf[k].add_mut(u);
            }
        }
        self.amaf_seen = seen;
    }

    /// [`Search::backup_amaf`] for threads that land side by side (under the shared lock): the
    /// same visits, added atomically; `seen` is the thread's scratch.
    pub(super) fn backup_amaf_shared(
        &self,
        path: &[(NodeId, u16)],
        trace: &[(Move, u8)],
        utilities: &[f32; P],
        seen: &mut Vec<u8>,
    ) {
        Self::first_players(trace, seen);
        for &(id, e) in path.iter().rev() {
            let mover = self.tree.node(id).mover;
            let amaf = self.tree.amaf(id);
            let u = utilities[mover as usize];
            for k in Self::amaf_edges(self.tree.edges(id), e, mover, seen) {
                amaf[k].add(u);
            }
        }
    }

    /// Sets `seen[k]` to 1 + the player who played AMAF move `k` first in the playout `trace`
    /// (0: nobody).
    fn first_players(trace: &[(Move, u8)], seen: &mut Vec<u8>) {
        seen.clear();
        seen.resize(G::AMAF_MOVES, 0);
        for &(mv, player) in trace {
            if let Some(k) = G::amaf_index(mv).filter(|&k| k < seen.len()) {
                if seen[k] == 0 {
                    seen[k] = player + 1;
                }
            }
        }
    }

    /// At a node of the path whose `mover` took edge `taken`, moving up from the leaf: marks
    /// that move as the mover's first from here on in `seen`, then yields the indices of the
    /// node's edges whose move the mover played first (an AMAF visit each).
    fn amaf_edges<'a>(
        edges: &'a [Edge],
        taken: u16,
        mover: u8,
        seen: &'a mut [u8],
    ) -> impl Iterator<Item = usize> + 'a {
        if let Some(k) = G::amaf_index(edges[taken as usize].mv).filter(|&k| k < seen.len()) {
            seen[k] = mover + 1;
        }
        let seen: &'a [u8] = seen;
        edges.iter().enumerate().filter_map(move |(i, edge)| {
            G::amaf_index(edge.mv)
                .is_some_and(|k| k < seen.len() && seen[k] == mover + 1)
                .then_some(i)
        })
    }
}
