//! Selection: UCB1 (PUCT with a network's priors) plus the proof-number bias (GPN_UCB), with
//! score-bound clipping and soft pruning for the score-bounded algorithms, and the lazy rebuild
//! of the bias terms.

use super::node::{from_bound, Edge, NodeId, NONE, PN_DIRTY, PN_INF};
use super::params::Bias;
use super::tree::{AmafCell, PRIOR_ONE};
use super::Search;
use crate::game::Game;
use crate::rng::Rng;

/// Exploitation score of a child that can no longer improve on what the mover already has.
const PRUNED: f32 = -10_000.0;
/// First-play urgency at a root that has never been visited: try every move once.
const FPU_NEW_ROOT: f32 = 10_000.0;

impl<G: Game, const P: usize> Search<G, P> {
    /// Picks the edge to follow at node `id` (which has moves). In a frozen tree (full, and
    /// recycling cannot make room) only edges with a child compete while the node has any, so
    /// that every iteration records its visit on the edge it took.
    pub(super) fn select(&mut self, id: NodeId) -> usize {
        self.refresh_bias_terms(id);
        // The search's own stream breaks ties, as it always has (the one-thread search is
        // deterministic per seed); it is moved out for the call so selection can borrow `self`.
        let mut rng = std::mem::replace(&mut self.rollout.rng, Rng::new(0));
        let pick = self.select_shared(id, &mut rng, None, &[]);
        self.rollout.rng = rng;
        pick
    }

    /// Whether the bias terms are rebuilt lazily, when a child's proof number changed (max and
    /// sum biases; rank terms are kept up to date by the backup, and without proof numbers there
    /// are none).
    #[inline]
    pub(super) fn lazy_bias_terms(&self) -> bool {
        self.params.algorithm.uses_proof_numbers()
            && self.params.c_pn != 0.0
            && (self.params.bias != Bias::Rank || self.concurrent)
    }

    /// Whether node `id`'s cached bias terms must be rebuilt before selection reads them.
    #[inline]
    pub(super) fn bias_terms_stale(&self, id: NodeId) -> bool {
        self.lazy_bias_terms() && self.tree.node(id).flags() & PN_DIRTY != 0
    }

    /// Rebuilds node `id`'s cached bias terms in the tree if they are stale.
    #[inline]
    pub(super) fn refresh_bias_terms(&mut self, id: NodeId) {
        if self.bias_terms_stale(id) {
            self.rebuild_bias_terms(id);
            self.tree.node_mut(id).unmark(PN_DIRTY);
        }
    }

    /// [`Search::refresh_bias_terms`] for threads that back up side by side: the stale mark
    /// comes off before the children are read, so that a change made meanwhile marks the terms
    /// stale again; two threads that rebuild one node's terms at once each write terms of a
    /// recent view (a bias, not a proof). `xs` is scratch.
    pub(super) fn refresh_bias_terms_shared(&self, id: NodeId, xs: &mut Vec<(u32, u16)>) {
        if self.bias_terms_stale(id) {
            let node = self.tree.node(id);
            node.flags
                .atomic()
                .fetch_and(!PN_DIRTY, std::sync::atomic::Ordering::Relaxed);
            self.write_bias_terms(id, xs);
        }
    }

    /// Selection at node `id` without changing the tree, for threads that select side by side
    /// under a shared lock: ties are broken with `rng`, and `terms`, when given, replaces the
    /// edges' cached bias terms (a thread that finds them stale computes them for itself with
    /// [`Search::bias_terms_into`] instead of rebuilding them in the tree). In a tree with
    /// virtual visits (threads), each node counts its flights in the air as visits lost for the
    /// player who chose it; `pending` lists `(edge index, flights)` for the edges of `id`
    /// without a node that earlier flights of the thread's batch took, whose nodes-to-be hold
    /// those flights' virtual visits.
    #[inline]
    pub(super) fn select_shared(
        &self,
        id: NodeId,
        rng: &mut Rng,
        terms: Option<&[u16]>,
        pending: &[(u16, u16)],
    ) -> usize {
        if self.frozen {
            if let Some(i) = self.select_among::<true>(id, rng, terms, pending) {
                return i;
            }
        }
        self.select_among::<false>(id, rng, terms, pending)
            .unwrap_or(0)
    }

    /// The UCB choice at node `id`, among the edges with a child only when `EXISTING_ONLY`;
    /// `None` when no edge qualifies.
    #[inline(always)]
    fn select_among<const EXISTING_ONLY: bool>(
        &self,
        id: NodeId,
        rng: &mut Rng,
        terms: Option<&[u16]>,
        pending: &[(u16, u16)],
    ) -> Option<usize> {
        let algorithm = self.params.algorithm;
        let use_pn = algorithm.uses_proof_numbers() && self.params.c_pn != 0.0;
        let rank = self.params.bias == Bias::Rank;
        let mut node = self.tree.node(id).clone();
        // Whose values the chooser reads, and with which sign: its own (max^n), or, in paranoid
        // play at another player's node, the root player's, negated (it picks what is worst for
        // the root player; its bounds there are paranoid too, see `recompute_values`). Never
        // with two players.
        let root_player = self.paranoid_player().filter(|&r| r != node.mover as usize);
        let against_root = root_player.is_some();
        let (m, sign) = match root_player {
            Some(r) => (r, -1.0),
            None => (node.mover as usize, 1.0),
        };
        let virtual_visits = self.tree.has_virtual_visits();
        if virtual_visits {
            self.tree.prefetch_children(id);
        }
        // The first-play value is the node's own mean: its flights in the air are losses for
        // the player who chose it, which say nothing of how good its unvisited moves are (with
        // them in, a node with few visits made its mover hope for half as much, one way or the
        // other, from each unvisited move).
        let (fpu_visits, fpu_mean) = (node.visits.get(), node.mean(m));
        if virtual_visits && id != super::ROOT {
            // The flights in the air through this node (the root carries no virtual loss).
            let flights = self.tree.virtual_visits(id);
            if flights > 0 {
                let chooser = self.tree.node(node.parent).mover;
                node = with_virtual_loss(node, flights, chooser);
            }
        }
        let ln_n = (node.visits.get().max(1) as f32).ln();
        // Implicit minimax: a Monte-Carlo mean is mixed with the minimax-backed evaluation.
        let (im, pb) = (self.params.im, self.params.pb);
        let fpu = if fpu_visits == 0 {
            FPU_NEW_ROOT
        } else if im > 0.0 {
            sign * ((1.0 - im) * fpu_mean + im * self.minimax_value(&node, m))
        } else {
            sign * fpu_mean
        };
        let bounds = algorithm.uses_bounds();
        let clip = self.params.clip;
        // With a network, PUCT: `cpuct * prior * sqrt(N) / (1 + n)` replaces UCB's exploration.
        let priors = self.tree.priors(id);
        let puct = !priors.is_empty() && self.params.uses_network();
        // Move priors and RAVE (two players, so `m` is the mover and `sign` 1).
        let knowledge = self.knowledge.any();
        let amaf = self.tree.amaf(id);
        let edge_knowledge = |i: usize| {
            (
                priors.get(i).copied(),
                amaf.get(i).map(AmafCell::get).unwrap_or_default(),
            )
        };
        let sqrt_n = (node.visits.get().max(1) as f32).sqrt();
        let c = if puct {
            self.params.cpuct
        } else {
            self.params.c
        };
        let c_pn = if use_pn { self.params.c_pn } else { 0.0 };
        let pn_explore = self.params.pn_explore;
        let n = node.num_edges as usize;
        let mut best = f32::NEG_INFINITY;
        let mut pick = usize::MAX;
        let mut ties = 0u32;
        let restricted = id == super::ROOT && !self.root_moves.is_empty();
        for (i, edge) in self.tree.edges(id).iter().enumerate() {
            if (restricted && !self.allowed(id, edge.mv)) || (EXISTING_ONLY && edge.child() == NONE)
            {
                continue;
            }
            let flights = if pending.is_empty() {
                0
            } else {
                pending
                    .iter()
                    .find(|&&(e, _)| e as usize == i)
                    .map_or(0, |&(_, k)| k as u32)
            };
            // `in_flight`: the child's visits that are other flights' virtual ones.
            let (exploit, explore, child_visits, in_flight) =
                if edge.child() == NONE && flights == 0 {
                    let known = if knowledge {
                        let (prior, stats) = edge_knowledge(i);
                        self.knowledge_value(None, m, prior, stats)
                    } else {
                        None
                    };
                    (known.unwrap_or(fpu), ln_n.sqrt(), 0, 0)
                } else if edge.child() == NONE {
                    // An earlier flight of the batch opened this edge: its node-to-be holds that
                    // flight's virtual loss.
                    (-1.0, (ln_n / flights as f32).sqrt(), flights, flights)
                } else {
                    let stored = self.tree.node(edge.child());
                    let adjusted;
                    let flights = if virtual_visits {
                        self.tree.virtual_visits(edge.child())
                    } else {
                        0
                    };
                    let child = if flights == 0 {
                        stored
                    } else {
                        adjusted = with_virtual_loss(stored.clone(), flights, node.mover);
                        &adjusted
                    };
                    let explore = (ln_n / child.visits.get().max(1) as f32).sqrt();
                    // Proven values take precedence; otherwise the mean, mixed with the minimax
                    // value when implicit minimax is on (and kept within the score bounds).
                    let estimate = || {
                        if knowledge {
                            let (prior, stats) = edge_knowledge(i);
                            self.knowledge_value(Some(child), m, prior, stats)
                                .unwrap_or_else(|| child.mean(m))
                        } else if im > 0.0 {
                            (1.0 - im) * child.mean(m) + im * self.minimax_value(child, m)
                        } else {
                            child.mean(m)
                        }
                    };
                    // A child that cannot improve on what the chooser already has: for the mover,
                    // one whose best is no better than the node's worst; against the root player,
                    // one that leaves the root player at least the node's best for it.
                    let useless = if against_root {
                        child.lo()[m] >= node.hi()[m]
                    } else {
                        child.hi()[m] <= node.lo()[m]
                    };
                    // The value for player `m`, then turned to the chooser's view by `sign`.
                    let exploit = if bounds {
                        if useless && node.lo()[m] < node.hi()[m] {
                            PRUNED
                        } else if child.bounds_solved() {
                            sign * from_bound(child.lo()[m])
                        } else if clip {
                            sign * estimate()
                                .clamp(from_bound(child.lo()[m]), from_bound(child.hi()[m]))
                        } else {
                            sign * estimate()
                        }
                    } else if use_pn && child.pn()[m] == 0 {
                        sign
                    } else if child.is_terminal() {
                        sign * from_bound(child.lo()[m])
                    } else {
                        sign * estimate()
                    };
                    let progressive = if pb > 0.0 {
                        sign * pb * self.minimax_value(child, m) / (child.visits.get() as f32 + 1.0)
                    } else {
                        0.0
                    };
                    (exploit + progressive, explore, child.visits.get(), flights)
                };
            let explore = if puct {
                priors[i] as f32 * (1.0 / PRIOR_ONE as f32) * sqrt_n / (1 + child_visits) as f32
            } else {
                explore
            };
            let term = terms.map_or(edge.term(), |t| t[i]);
            let mut bonus = c_pn * self.pn_weight(child_visits) * Edge::term_bias(term, rank, n);
            if in_flight > 0 {
                // The proof-number bonus is the same for every thread, so a strong one (c_pn 2)
                // sent them all down one path whatever the virtual loss did to the value: it is
                // diluted as the mean is, by the share of the child's visits that are real.
                bonus *= (child_visits - in_flight) as f32 / child_visits as f32;
            }
            let v = if pn_explore {
                exploit + (c + bonus) * explore
            } else {
                exploit + c * explore + bonus
            };
            if v > best {
                best = v;
                pick = i;
                ties = 1;
            } else if v == best {
                // Uniform tie-break: keep the i-th tied candidate with probability 1/i.
                ties += 1;
                if rng.below(ties) == 0 {
                    pick = i;
                }
            }
        }
        (pick != usize::MAX).then_some(pick)
    }

    /// How much of the proof-number bias a child with `visits` visits still gets: 1 without
    /// decay, else `pn_decay / (pn_decay + visits)`. A constant bias keeps steering a child that
    /// the Monte-Carlo values already judge well, more so the longer the search runs; decaying it
    /// like a progressive bias lets it guide the first visits and hands over to the values.
    #[inline]
    pub(super) fn pn_weight(&self, visits: u32) -> f32 {
        match self.params.pn_decay {
            0 => 1.0,
            k => k as f32 / (k as f32 + visits as f32),
        }
    }

    /// Recomputes the cached bias term of every edge of `id` from its children's proof numbers
    /// for the node's mover (an edge without a child counts as proof number 1).
    pub(super) fn rebuild_bias_terms(&mut self, id: NodeId) {
        let mut xs = std::mem::take(&mut self.scratch);
        self.write_bias_terms(id, &mut xs);
        self.scratch = xs;
    }

    /// Computes node `id`'s bias terms from its children as they are now and stores them in
    /// its edges (relaxed cells, so threads may do it side by side); `xs` is scratch.
    fn write_bias_terms(&self, id: NodeId, xs: &mut Vec<(u32, u16)>) {
        let bias = self.bias_keys(id, xs);
        let edges = self.tree.edges(id);
        compute_bias_terms(bias, xs, |i, term| edges[i].term.set(term));
    }

    /// The bias terms of node `id`'s edges computed from its children as they are now, into
    /// `terms` (indexed like the edges), without touching the tree; `xs` is scratch.
    pub(super) fn bias_terms_into(
        &self,
        id: NodeId,
        xs: &mut Vec<(u32, u16)>,
        terms: &mut Vec<u16>,
    ) {
        let bias = self.bias_keys(id, xs);
        terms.clear();
        terms.resize(xs.len(), 0);
        compute_bias_terms(bias, xs, |i, term| terms[i] = term);
    }

    /// Fills `xs` with each edge's proof-number key and index (an edge without a child counts
    /// as [`super::tree::Tree::unvisited_pn`], 1 unless proof costs set it) and returns the
    /// bias formula that turns them into terms.
    fn bias_keys(&self, id: NodeId, xs: &mut Vec<(u32, u16)>) -> Bias {
        let parent = self.tree.node(id).clone();
        let m = parent.mover as usize;
        let pn_mcts = self.params.algorithm == super::Algorithm::PnMcts;
        let unvisited = self.tree.unvisited_pn(id)[m];
        xs.clear();
        for (i, edge) in self.tree.edges(id).iter().enumerate() {
            let x = if edge.child() == NONE {
                unvisited
            } else if pn_mcts {
                self.pn_mcts_rank_key(&parent, self.tree.node(edge.child()))
            } else {
                self.tree.node(edge.child()).pn()[m]
            };
            xs.push((x, i as u16));
        }
        // PN-MCTS always ranks (the paper's formula); GPN uses the configured bias.
        if pn_mcts {
            Bias::Rank
        } else {
            self.params.bias
        }
    }
}

/// `node` as it looks with `flights` virtual visits lost for `chooser`.
#[inline]
fn with_virtual_loss<const P: usize>(
    mut node: super::node::Node<P>,
    flights: u32,
    chooser: u8,
) -> super::node::Node<P> {
    *node.visits.get_mut() += flights;
    node.total[chooser as usize].add_mut(-(flights as f32));
    node
}

/// Computes each edge's term from the proof numbers `xs[i] = (pn, i)` (reordered in the
/// process) and hands it to `set(i, term)`; see [`Edge::term`] for what is stored per bias.
pub(super) fn compute_bias_terms(
    bias: Bias,
    xs: &mut [(u32, u16)],
    mut set: impl FnMut(usize, u16),
) {
    let n = xs.len();
    let quantise = |t: f64| (t.clamp(0.0, 1.0) * 65535.0 + 0.5) as u16;
    match bias {
        Bias::Rank => {
            xs.sort_unstable();
            let mut below = 0;
            for k in 0..n {
                if k > 0 && xs[k].0 != xs[k - 1].0 {
                    below = k; // competition ranking: ties share the smaller rank
                }
                set(xs[k].1 as usize, below as u16);
            }
        }
        Bias::Sum => {
            let sum: f64 = xs
                .iter()
                .filter(|x| x.0 != PN_INF)
                .map(|x| x.0 as f64)
                .sum();
            for &(x, i) in xs.iter() {
                let t = if sum > 0.0 && x != PN_INF {
                    1.0 - x as f64 / (1.0 + sum)
                } else {
                    0.0
                };
                set(i as usize, quantise(t));
            }
        }
        Bias::Max => {
            let finite = xs.iter().filter(|x| x.0 != PN_INF).map(|x| x.0 as f64);
            let mx = finite.clone().fold(0.0f64, f64::max);
            let mn = finite.fold(f64::INFINITY, f64::min);
            for &(x, i) in xs.iter() {
                let t = if mx > 0.0 && x != PN_INF {
                    1.0 - (x as f64 - mn) / (1.0 + mx - mn)
                } else {
                    0.0
                };
                set(i as usize, quantise(t));
            }
        }
    }
}
