//! Backup: utilities along the path, then proof numbers and score bounds recomputed from the
//! children, stopping at the first ancestor whose values did not change (lazy recomputation).

use super::node::{pn_add, Node, NodeId, Pn, LOSS, NONE, PN_DIRTY, PN_INF, WIN};
use super::Search;
use crate::game::Game;

/// The values a child contributes to its parent's recomputation.
#[derive(Clone, Copy)]
pub(super) struct Values<const P: usize> {
    pub(super) pn: [Pn; P],
    pub(super) lo: [i8; P],
    pub(super) hi: [i8; P],
}

impl<const P: usize> Values<P> {
    pub(super) fn of(n: &Node<P>) -> Values<P> {
        Values {
            pn: n.pn(),
            lo: n.lo(),
            hi: n.hi(),
        }
    }

    /// An edge without a node counts as proof numbers `pn` (1, or the parent's spread proof
    /// costs: [`super::tree::Tree::unvisited_pn`]) and bounds [loss, win].
    fn unexpanded(pn: [Pn; P]) -> Values<P> {
        Values {
            pn,
            lo: [LOSS; P],
            hi: [WIN; P],
        }
    }
}

impl<G: Game, const P: usize> Search<G, P> {
    /// Adds `utilities` (when given) to every node from `leaf` to the root; when `created` (the
    /// leaf is a new node), recomputes proof numbers and bounds upwards while they change. A
    /// threaded search calls it twice per iteration: without utilities right after creating the
    /// leaf (so that no other thread sees a child its ancestors do not account for), then with
    /// them after the playout.
    pub(super) fn backup(&mut self, leaf: NodeId, utilities: Option<&[f32; P]>, created: bool) {
        let mut id = leaf;
        let mut recompute = created;
        // What the child below contributed before and after this iteration; a new leaf used to
        // count as an edge without a node.
        let mut change = created.then(|| {
            let node = self.tree.node(leaf);
            let unvisited = if node.parent == NONE {
                [1; P]
            } else {
                self.tree.unvisited_pn(node.parent)
            };
            (Values::unexpanded(unvisited), Values::of(node))
        });
        let mut below = NONE;
        let rank_terms = self.maintains_rank_terms();
        while id != NONE {
            let node = self.tree.node_mut(id);
            match utilities {
                Some(utilities) => {
                    *node.visits.get_mut() += 1;
                    for (total, u) in node.total.iter_mut().zip(utilities) {
                        total.add_mut(*u);
                    }
                }
                None if !recompute => return,
                None => {}
            }
            let parent = node.parent;
            let m = node.mover as usize;
            if below != NONE && recompute {
                let before = Values::of(self.tree.node(id));
                recompute = match change {
                    Some((old, new)) => {
                        let mover_min = if rank_terms && old.pn[m] != new.pn[m] {
                            Some(self.update_rank_terms(id, below, old.pn[m], new.pn[m]))
                        } else {
                            None
                        };
                        self.recompute_after_change(id, &old, &new, mover_min)
                    }
                    None => self.recompute(id),
                };
                change = Some((before, Values::of(self.tree.node(id))));
            }
            below = id;
            id = parent;
        }
    }

    /// Whether the rank bias terms are kept current by the backup ([`Search::update_rank_terms`])
    /// rather than rebuilt lazily by selection.
    pub(super) fn maintains_rank_terms(&self) -> bool {
        self.params.algorithm.uses_proof_numbers()
            && self.params.bias == super::Bias::Rank
            && !self.concurrent
    }

    /// Child `child` of node `id` changed its proof number for `id`'s mover from `old` to `new`:
    /// adjusts every edge's count of siblings with a smaller proof number in one pass (no sort),
    /// and returns the children's new minimum, which is the mover's proof number at `id`.
    fn update_rank_terms(&mut self, id: NodeId, child: NodeId, old: Pn, new: Pn) -> Pn {
        let m = self.tree.node(id).mover as usize;
        let unvisited = self.tree.unvisited_pn(id)[m];
        let mut min = PN_INF;
        let (nodes, edges) = self.tree.nodes_and_edges_mut(id);
        let mut changed_edge = usize::MAX;
        let mut smaller = 0u16;
        for (i, edge) in edges.iter_mut().enumerate() {
            if edge.child() == child {
                changed_edge = i;
                min = min.min(new);
                continue;
            }
            // An edge without a node counts as its unvisited proof number (1 without costs).
            let x = if edge.child() == NONE {
                unvisited
            } else {
                nodes[edge.child() as usize].pn()[m]
            };
            min = min.min(x);
            smaller += u16::from(x < new);
            // The changed child stops or starts counting as smaller than this sibling.
            match (old < x, new < x) {
                (true, false) => *edge.term.get_mut() -= 1,
                (false, true) => *edge.term.get_mut() += 1,
                _ => {}
            }
        }
        if let Some(edge) = edges.get_mut(changed_edge) {
            edge.term.set(smaller);
        }
        min
    }

    /// Updates node `id` after one child's values went from `old` to `new`: proof-number sums
    /// and minima incrementally (O(1) instead of a pass over the children) where that is exact,
    /// otherwise by [`Search::recompute`]. Returns whether the node's values changed.
    /// `mover_min`, when given, is the children's minimum proof number for the node's mover (from
    /// [`Search::update_rank_terms`], which scanned them anyway).
    fn recompute_after_change(
        &mut self,
        id: NodeId,
        old: &Values<P>,
        new: &Values<P>,
        mover_min: Option<Pn>,
    ) -> bool {
        let algorithm = self.params.algorithm;
        let use_pn = algorithm.uses_proof_numbers();
        // Incremental sums need the node's numbers to be the sums of its children, which the
        // 1/1 initialisation is not (the mobility and the proof-cost initialisations are);
        // bounds change rarely and are recomputed in full.
        let bounds_changed = algorithm.uses_bounds() && (old.lo != new.lo || old.hi != new.hi);
        let incremental = use_pn && self.params.mobility_init && !bounds_changed;
        if algorithm == super::Algorithm::PnMcts || !incremental {
            return self.recompute(id);
        }
        if old.pn == new.pn {
            return false;
        }
        let node = self.tree.node(id).clone();
        let m = node.mover as usize;
        let mut pn = node.pn();
        for (p, (x, (&o, &n))) in pn.iter_mut().zip(old.pn.iter().zip(&new.pn)).enumerate() {
            if o == n {
                continue;
            }
            if p == m {
                if let Some(min) = mover_min {
                    *x = min;
                } else if n < *x {
                    *x = n;
                } else if o == *x {
                    return self.recompute(id); // the minimum rose: rescan
                }
            } else if o == PN_INF || n == PN_INF || *x >= PN_INF - 1 || *x < o {
                // Infinity or saturation, or a sum that no longer covers the child (after a
                // recycling): rescan.
                return self.recompute(id);
            } else {
                *x = pn_add(*x - o, n);
            }
        }
        if pn.contains(&0) {
            return self.recompute(id); // proven: let the full pass apply the proof rules
        }
        let n = self.tree.node_mut(id);
        n.mark(PN_DIRTY);
        let changed = n.pn() != pn;
        n.set_pn(pn);
        changed
    }

    /// Recomputes node `id`'s proof numbers (OR for the mover, AND for the others) and score
    /// bounds from its children; returns whether any of them changed.
    pub(super) fn recompute(&mut self, id: NodeId) -> bool {
        let algorithm = self.params.algorithm;
        if algorithm == super::Algorithm::PnMcts {
            // The draw layer's "not a loss" / "cannot win" proofs are exactly the score bounds.
            let numbers = self.recompute_pn_mcts(id);
            let bounds = self.params.draw_layer && self.recompute_values(id, false, true);
            return numbers || bounds;
        }
        self.recompute_values(id, algorithm.uses_proof_numbers(), algorithm.uses_bounds())
    }

    /// Recomputes per-player proof numbers (`use_pn`) and score bounds (`use_bounds`) of node
    /// `id` in one pass over its children; returns whether any of them changed.
    fn recompute_values(&mut self, id: NodeId, use_pn: bool, use_bounds: bool) -> bool {
        if !use_pn && !use_bounds {
            return false;
        }
        let before = Values::of(self.tree.node(id));
        let v = self.derive_values(id, &before, use_bounds);
        let changed = (use_pn && v.pn != before.pn)
            || (use_bounds && (v.lo != before.lo || v.hi != before.hi));
        let n = self.tree.node_mut(id);
        if use_pn {
            n.set_pn(v.pn);
            n.mark(PN_DIRTY);
        }
        if use_bounds {
            n.set_lo(v.lo);
            n.set_hi(v.hi);
        }
        if changed {
            let plies = self.proof_plies(id);
            self.tree.node_mut(id).proof_plies.set(plies);
        }
        changed
    }

    /// Node `id`'s proof numbers (OR for the mover, AND for the others) and score bounds from its
    /// children as they are now, merged with the facts the node already holds (`before`, its
    /// values): a node keeps its proofs, disproofs and bounds even when the children that gave
    /// them were recycled (without recycling this changes nothing, since the children's facts
    /// only accumulate too).
    pub(super) fn derive_values(
        &self,
        id: NodeId,
        before: &Values<P>,
        use_bounds: bool,
    ) -> Values<P> {
        let m = self.tree.node(id).mover as usize;
        let mut pn: [Pn; P] = [0; P];
        pn[m] = PN_INF;
        let (mut lo, mut hi) = ([WIN; P], [LOSS; P]);
        lo[m] = LOSS;
        // Paranoid play: at another player's node the root player's optimistic bound is the
        // least over the children (that player chooses against it), so the root player's
        // bounds are paranoid; everybody else's stay max^n. `P` (the root player) otherwise.
        let paranoid = self.paranoid_player().filter(|&r| r != m).unwrap_or(P);
        if paranoid < P {
            hi[paranoid] = WIN;
        }
        let unvisited = self.tree.unvisited_pn(id);
        for edge in self.tree.edges(id) {
            let (c_pn, c_lo, c_hi) = if edge.child() == NONE {
                (unvisited, [LOSS; P], [WIN; P])
            } else {
                let c = self.tree.node(edge.child());
                (c.pn(), c.lo(), c.hi())
            };
            for p in 0..P {
                if p == m {
                    pn[p] = pn[p].min(c_pn[p]);
                    lo[p] = lo[p].max(c_lo[p]);
                } else {
                    pn[p] = pn_add(pn[p], c_pn[p]);
                    lo[p] = lo[p].min(c_lo[p]);
                }
                hi[p] = if p == paranoid {
                    hi[p].min(c_hi[p])
                } else {
                    hi[p].max(c_hi[p])
                };
            }
        }
        if P == 2 {
            // Zero-sum: the other player gets exactly what the mover does not.
            let q = 1 - m;
            lo[q] = -hi[m];
            hi[q] = -lo[m];
        }
        if use_bounds {
            for p in 0..P {
                lo[p] = lo[p].max(before.lo[p]);
                hi[p] = hi[p].min(before.hi[p]);
                debug_assert!(lo[p] <= hi[p], "contradictory bounds at node {id}");
            }
        }
        if before.pn.contains(&0) {
            pn = before.pn;
        }
        for (x, &old) in pn.iter_mut().zip(&before.pn) {
            if old == PN_INF {
                *x = PN_INF;
            }
        }
        if let Some(proven) = pn.iter().position(|&x| x == 0) {
            for (p, x) in pn.iter_mut().enumerate() {
                if p != proven {
                    *x = PN_INF;
                }
            }
        }
        Values { pn, lo, hi }
    }

    /// The threaded form of [`Search::backup`] for a node `leaf` just created, run side by side
    /// with other threads' selections and backups: proof numbers and bounds recomputed upwards
    /// from `leaf`'s parent while they change, each merged into the node so that what other
    /// threads wrote meanwhile is kept where it is a fact ([`Search::recompute_shared`]).
    ///
    /// Why no fact is lost: a thread that changes a node always recomputes its parent after
    /// the change, from children read after it. Two threads that change two children of one
    /// node at once each write their child, then read the siblings; the fence between makes at
    /// least one of them read the other's write, so the one that reads both derives what needs
    /// both (a node lost once its last two children are proven). Heuristic proof numbers can
    /// be left stale by such a race (the later write wins, from an older view) until the next
    /// backup through the node; selection only reads them as a bias.
    pub(super) fn backup_shared(&self, leaf: NodeId) {
        let mut id = self.tree.node(leaf).parent;
        while id != NONE {
            std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
            if !self.recompute_shared(id) {
                return;
            }
            id = self.tree.node(id).parent;
        }
    }

    /// [`Search::recompute_values`] for threads that back up side by side: each proof number
    /// is written by a compare-and-swap that never replaces a proof (0) or a disproof
    /// ([`PN_INF`]), and each bound by an atomic maximum (pessimistic) or minimum (optimistic),
    /// so that a bound derived from children read mid-update, which is a valid but looser
    /// bound, never loosens one another thread wrote. Returns whether anything changed.
    pub(super) fn recompute_shared(&self, id: NodeId) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        let algorithm = self.params.algorithm;
        let (use_pn, use_bounds) = (algorithm.uses_proof_numbers(), algorithm.uses_bounds());
        if !use_pn && !use_bounds {
            return false;
        }
        let node = self.tree.node(id);
        let before = Values::of(node);
        let v = self.derive_values(id, &before, use_bounds);
        let mut changed = false;
        if use_pn {
            // A child's proof numbers changed: the node's bias terms are stale.
            if node.flags() & PN_DIRTY == 0 {
                node.flags.atomic().fetch_or(PN_DIRTY, Relaxed);
            }
            for (cell, &x) in node.pn.iter().zip(&v.pn) {
                let atomic = cell.atomic();
                let mut old = atomic.load(Relaxed);
                while old != x && old != 0 && old != PN_INF {
                    match atomic.compare_exchange_weak(old, x, Relaxed, Relaxed) {
                        Ok(_) => {
                            changed = true;
                            break;
                        }
                        Err(now) => old = now,
                    }
                }
            }
        }
        if use_bounds {
            for p in 0..P {
                if v.lo[p] > node.lo[p].get() {
                    node.lo[p].atomic().fetch_max(v.lo[p], Relaxed);
                    changed = true;
                }
                if v.hi[p] < node.hi[p].get() {
                    node.hi[p].atomic().fetch_min(v.hi[p], Relaxed);
                    changed = true;
                }
            }
        }
        if changed {
            node.proof_plies.set(self.proof_plies(id));
        }
        changed
    }

    /// Distance to the end of a solved node: the shortest win, the longest loss or draw.
    fn proof_plies(&self, id: NodeId) -> u16 {
        let node = self.tree.node(id).clone();
        let m = node.mover as usize;
        let Some(value) = self.known_value(&node, m) else {
            return 0;
        };
        let children = self
            .tree
            .edges(id)
            .iter()
            .filter(|e| e.child() != NONE)
            .map(|e| self.tree.node(e.child()))
            .filter(|c| self.known_value(c, m) == Some(value))
            .map(|c| c.proof_plies());
        let best = if value == WIN {
            children.min()
        } else {
            children.max()
        };
        best.map_or(0, |p| p.saturating_add(1))
    }

    /// The exact value of `n` for player `p` (quantised), if the algorithm knows it: terminal
    /// nodes, met bounds, or (GPN, two players) a proof number of 0.
    pub(super) fn known_value(&self, n: &Node<P>, p: usize) -> Option<i8> {
        if self.params.algorithm == super::Algorithm::PnMcts {
            if n.is_terminal() || (self.params.draw_layer && n.bounds_solved()) {
                return Some(n.lo()[p]);
            }
            // Only a proof is exact: a disproof may be a draw or a loss.
            let proof_player_wins = n.pn()[super::pnmcts::PROOF] == 0;
            return proof_player_wins.then_some(if p == self.proof_player as usize {
                WIN
            } else {
                LOSS
            });
        }
        if n.is_terminal() || (self.params.algorithm.uses_bounds() && n.bounds_solved()) {
            return Some(n.lo()[p]);
        }
        if self.params.algorithm.uses_proof_numbers() && P == 2 {
            if n.pn()[p] == 0 {
                return Some(WIN);
            }
            if n.pn()[1 - p] == 0 {
                return Some(LOSS);
            }
        }
        None
    }
}
