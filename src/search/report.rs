//! What a search tells its caller: the move to play, the principal variation, the value and
//! any proof, plus tree statistics.

use std::time::Duration;

use super::node::{NodeId, LOSS, NONE, WIN};
use super::{Search, ROOT};
use crate::game::{Game, Move};

/// A proven game-theoretic value for the side to move, with the distance to the end in plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proven {
    Win { plies: u32 },
    Draw { plies: u32 },
    Loss { plies: u32 },
}

/// A snapshot of a search.
#[derive(Clone, Debug)]
pub struct SearchReport {
    /// The move to play (`None` only at a finished game or before any search).
    pub best_move: Option<Move>,
    /// The principal variation, starting with `best_move`.
    pub pv: Vec<Move>,
    /// Expected utility for the side to move, in [-1, 1].
    pub value: f32,
    /// Win/draw/loss estimate for the side to move (sums to 1).
    pub wdl: [f32; 3],
    /// The proven result, when the root is solved.
    pub proven: Option<Proven>,
    /// Mean and maximum selection depth of the iterations of this run.
    pub avg_depth: f32,
    pub max_depth: u32,
    /// Sum of the selection depths of this run's iterations (tracks search behaviour).
    pub depth_total: u64,
    /// Nodes in the tree and iterations of this run.
    pub nodes: usize,
    pub iterations: u64,
    pub elapsed: Duration,
    /// Bytes of the tree in use, and the budget.
    pub memory_bytes: usize,
    pub memory_budget: usize,
    /// Bytes the tree's arenas have written (their resident memory at most; never above the
    /// budget).
    pub memory_resident: usize,
    /// True when the tree is full and recycling cannot make room (the search then runs on
    /// without growing it).
    pub full: bool,
    /// Nodes created by this run, recyclings in it and the nodes they dropped.
    pub created: u64,
    pub recycles: u64,
    pub recycled_nodes: u64,
    /// With more than one thread, flights whose new node another thread created while they were
    /// in the air: an evaluation spent twice on one node.
    pub collisions: u64,
    /// With more than one thread, where the threads' time went (the tree lock's holds and
    /// waits), once the run has ended.
    pub lock: Option<super::scaling::LockProfile>,
}

impl SearchReport {
    pub fn iterations_per_second(&self) -> f64 {
        self.iterations as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

impl<G: Game, const P: usize> Search<G, P> {
    /// The move the search would play now: a proven win (the shortest), else never a proven loss
    /// while another move exists, else the most visited (ties: higher value) unless its value
    /// is below that of a proven move (a draw), which is then played. A move whose
    /// knowledge prior is 0 (Go: filling one's own eye) counts as a loss unless proved.
    pub fn best_move(&self) -> Option<Move> {
        if self.tree.is_empty() {
            return None;
        }
        self.best_edge(ROOT).map(|i| self.tree.edges(ROOT)[i].mv)
    }

    /// The best move and its value for the side to move at the root, in [-1, 1] (exact where
    /// known, else the mean of its playouts): what the time manager watches.
    pub fn best_move_value(&self) -> Option<(Move, f32)> {
        if self.tree.is_empty() {
            return None;
        }
        let i = self.best_edge(ROOT)?;
        let edge = &self.tree.edges(ROOT)[i];
        if edge.child() == NONE {
            return Some((edge.mv, 0.0));
        }
        let mover = self.tree.node(ROOT).mover as usize;
        let child = self.tree.node(edge.child());
        let value = self
            .known_value(child, mover)
            .map_or(child.mean(mover), super::node::from_bound);
        Some((edge.mv, value))
    }

    /// Index of the best edge of node `id`, by the final-move rule.
    fn best_edge(&self, id: NodeId) -> Option<usize> {
        if self.params.algorithm == super::Algorithm::PnMcts {
            return self.best_edge_pn_mcts(id);
        }
        let node = self.tree.node(id);
        let m = node.mover as usize;
        let edges = self.tree.edges(id);
        if edges.is_empty() {
            return None;
        }
        // (edge index, known value, visits, mean, plies)
        let allowed = edges
            .iter()
            .enumerate()
            .filter(|(_, e)| self.allowed(id, e.mv));
        let stats = allowed.map(|(i, e)| {
            if e.child() == NONE {
                (i, None, 0, f32::NEG_INFINITY, 0)
            } else {
                let c = self.tree.node(e.child());
                (
                    i,
                    self.known_value(c, m),
                    c.visits.get(),
                    c.mean(m),
                    c.proof_plies(),
                )
            }
        });
        let wins = stats.clone().filter(|s| s.1 == Some(WIN));
        if let Some(w) = wins.min_by_key(|s| (s.4, std::cmp::Reverse(s.2))) {
            return Some(w.0);
        }
        // A move the game's knowledge says never to play unless proved (Go: filling one's own
        // eye) counts as lost: a lost game is not prolonged by destroying oneself.
        let not_lost = stats
            .clone()
            .filter(|s| s.1 != Some(LOSS) && !self.never_move(id, s.0));
        let by_visits = not_lost.max_by(|a, b| {
            let va = a.1.map_or(a.3, super::node::from_bound);
            let vb = b.1.map_or(b.3, super::node::from_bound);
            (a.2, va)
                .partial_cmp(&(b.2, vb))
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(b.0.cmp(&a.0))
        });
        // A proven result short of a win (a draw) beats the most visited move when that move's
        // value is lower: the bounds prune the proven move from selection, so the visits go to
        // the moves that might still win, however badly they do (Go: a jigo resigned).
        let secure = stats
            .clone()
            .filter(|s| s.1.is_some_and(|v| v != LOSS) && !self.never_move(id, s.0))
            .max_by_key(|s| s.1);
        if let (Some(best), Some(safe)) = (by_visits, secure) {
            let value = best.1.map_or(best.3, super::node::from_bound);
            if safe.1 > best.1 && value < safe.1.map_or(0.0, super::node::from_bound) {
                return Some(safe.0);
            }
        }
        match by_visits {
            Some(s) => Some(s.0),
            // Every move loses: resist the longest (a sensible move first).
            None => stats
                .max_by_key(|s| (!self.never_move(id, s.0), s.4, s.2))
                .map(|s| s.0),
        }
    }

    /// The principal variation from the root.
    pub fn principal_variation(&self) -> Vec<Move> {
        let mut pv = Vec::new();
        if !self.tree.is_empty() {
            self.extend_pv(ROOT, &mut pv);
        }
        pv
    }

    /// Appends the best line below node `id` to `pv` (at most 64 moves in all).
    fn extend_pv(&self, mut id: NodeId, pv: &mut Vec<Move>) {
        while let Some(i) = self.best_edge(id) {
            let edge = &self.tree.edges(id)[i];
            // A move never searched is no part of the line (it would only be the first of
            // the node's moves: analysis GUIs showed every unexplored line ending in A1).
            if edge.child() == NONE {
                break;
            }
            pv.push(edge.mv);
            if pv.len() >= 64 {
                break;
            }
            id = edge.child();
        }
    }

    /// The value of node `c` for player `m` as reported: its mean shrunk towards 0 by one
    /// virtual draw (`n / (n + 1)`), so that a handful of visits cannot claim a near-certain
    /// result (only proofs give mate scores; three won playouts read 0.75, not 1), within its
    /// score bounds when the algorithm keeps them.
    fn bounded_mean(&self, c: &super::node::Node<P>, m: usize) -> f32 {
        let n = c.visits.get() as f32;
        let mean = c.mean(m) * n / (n + 1.0);
        if self.params.algorithm.uses_bounds() {
            mean.clamp(
                super::node::from_bound(c.lo()[m]),
                super::node::from_bound(c.hi()[m]),
            )
        } else {
            mean
        }
    }

    /// A snapshot of the search.
    pub fn report(&self) -> SearchReport {
        let stats = &self.stats;
        let mut report = SearchReport {
            best_move: None,
            pv: Vec::new(),
            value: 0.0,
            wdl: [0.0, 1.0, 0.0],
            proven: None,
            avg_depth: stats.depth_sum as f32 / stats.iterations.max(1) as f32,
            max_depth: stats.max_depth,
            depth_total: stats.depth_sum,
            nodes: self.tree.len(),
            iterations: stats.iterations,
            elapsed: stats.elapsed,
            memory_bytes: self.tree.used_bytes(),
            memory_budget: self.tree.budget_bytes(),
            memory_resident: self.tree.resident_bytes(),
            full: self.frozen,
            created: stats.created,
            recycles: stats.recycles,
            recycled_nodes: stats.recycled_nodes,
            collisions: stats.collisions,
            lock: stats.lock,
        };
        if self.tree.is_empty() {
            return report;
        }
        let root = self.tree.node(ROOT).clone();
        let m = root.mover as usize;
        report.pv = self.principal_variation();
        report.best_move = report.pv.first().copied();
        let known = self.known_value(&root, m);
        report.value = match (known, report.best_move) {
            (Some(v), _) => super::node::from_bound(v),
            (None, Some(_)) => {
                let i = self.best_edge(ROOT).unwrap_or(0);
                let child = self.tree.edges(ROOT)[i].child();
                let c = if child == NONE {
                    &root
                } else {
                    self.tree.node(child)
                };
                self.bounded_mean(c, m)
            }
            (None, None) => root.mean(m),
        };
        let plies = root.proof_plies() as u32;
        report.proven = known.map(|v| match v {
            WIN => Proven::Win { plies },
            LOSS => Proven::Loss { plies },
            _ => Proven::Draw { plies },
        });
        // Draw share from the iterations of this run; the rest splits by the value.
        let d = if report.proven.is_some() {
            if matches!(report.proven, Some(Proven::Draw { .. })) {
                1.0
            } else {
                0.0
            }
        } else {
            stats.draws as f32 / stats.iterations.max(1) as f32
        };
        let w = ((1.0 + report.value - d) / 2.0).clamp(0.0, 1.0 - d);
        report.wdl = [w, d, (1.0 - w - d).max(0.0)];
        report
    }
}

/// Orders root lines (with their child indices) as MultiPV shows them: the chosen move
/// `best` first, then proven wins, unproven moves and proven losses, each by visits, then value.
/// Not generic: one sort for every game, not one copy per game and player count.
fn sort_root_lines(lines: &mut [(usize, RootLine)], best: Option<usize>) {
    let class = |l: &RootLine| match l.proven {
        Some(Proven::Win { .. }) => 0,
        Some(Proven::Loss { .. }) => 2,
        _ => 1,
    };
    lines.sort_by(|(ia, a), (ib, b)| {
        (Some(*ib) == best)
            .cmp(&(Some(*ia) == best))
            .then(class(a).cmp(&class(b)))
            .then(b.visits.cmp(&a.visits))
            .then(b.value.total_cmp(&a.value))
            .then(ia.cmp(ib))
    });
}

/// One root move with its line, for MultiPV output.
#[derive(Clone, Debug)]
pub struct RootLine {
    pub mv: Move,
    /// The line starting with `mv`.
    pub pv: Vec<Move>,
    /// Expected utility for the side to move after `mv`, in [-1, 1].
    pub value: f32,
    /// The lower confidence bound of `value` ([`super::lower_confidence_bound`]): `value`
    /// itself when proven, -1 below two visits.
    pub lcb: f32,
    /// The move's prior probability, in [0, 1], of the kind `prior_source` says.
    pub prior: f32,
    pub prior_source: PriorSource,
    /// The proven result of `mv` for the side to move (plies counted from the root).
    pub proven: Option<Proven>,
    pub visits: u32,
    /// The move's index in the root's move order (its edges, in move-generation order).
    pub index: usize,
}

/// Where a root move's prior comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PriorSource {
    /// The network's policy.
    Policy,
    /// No network: the move's share of the root's visits so far. (The game's own move
    /// knowledge, `docs/heuristics.md`, gives each move a value worth a few playouts, not a
    /// probability, so it is not shown as one.)
    Visits,
}

impl PriorSource {
    pub fn name(self) -> &'static str {
        match self {
            PriorSource::Policy => "policy",
            PriorSource::Visits => "visits",
        }
    }
}

impl<G: Game, const P: usize> Search<G, P> {
    /// Up to `k` root moves, best first: the final-move choice, then proven wins, then the others
    /// by visits and value, proven losses last.
    pub fn root_lines(&self, k: usize) -> Vec<RootLine> {
        if self.tree.is_empty() || k == 0 {
            return Vec::new();
        }
        let root = self.tree.node(ROOT).clone();
        let m = root.mover as usize;
        let best = self.best_edge(ROOT);
        let prior_source = if self.params.uses_network() && self.tree.has_priors() {
            PriorSource::Policy
        } else {
            PriorSource::Visits
        };
        let edges = self.tree.edges(ROOT);
        let child_visits = |e: &super::node::Edge| {
            (e.child() != NONE).then(|| self.tree.node(e.child()).visits.get())
        };
        let visits_sum: u64 = edges
            .iter()
            .filter_map(|e| child_visits(e).map(u64::from))
            .sum();
        let generation = self.tree.generation();
        let mut lines: Vec<(usize, RootLine)> = edges
            .iter()
            .enumerate()
            .filter(|(_, e)| self.allowed(ROOT, e.mv))
            .map(|(i, e)| {
                let mut pv = vec![e.mv];
                let prior = match prior_source {
                    PriorSource::Policy => super::tree::from_prior(self.tree.priors(ROOT)[i]),
                    PriorSource::Visits => {
                        child_visits(e).unwrap_or(0) as f32 / visits_sum.max(1) as f32
                    }
                };
                let line = if e.child() == NONE {
                    RootLine {
                        mv: e.mv,
                        pv,
                        value: root.mean(m),
                        lcb: -1.0,
                        prior,
                        prior_source,
                        proven: None,
                        visits: 0,
                        index: i,
                    }
                } else {
                    let c = self.tree.node(e.child());
                    self.extend_pv(e.child(), &mut pv);
                    let known = self.known_value(c, m);
                    let plies = c.proof_plies() as u32 + 1;
                    let value =
                        known.map_or_else(|| self.bounded_mean(c, m), super::node::from_bound);
                    let visits = c.visits.get();
                    let lcb = if known.is_some() {
                        value
                    } else {
                        let variance = self.spread.variance(generation, i, c.mean(m));
                        super::spread::lower_confidence_bound(value, variance, visits)
                    };
                    RootLine {
                        mv: e.mv,
                        pv,
                        value,
                        lcb,
                        prior,
                        prior_source,
                        proven: known.map(|v| match v {
                            WIN => Proven::Win { plies },
                            LOSS => Proven::Loss { plies },
                            _ => Proven::Draw { plies },
                        }),
                        visits,
                        index: i,
                    }
                };
                (i, line)
            })
            .collect();
        sort_root_lines(&mut lines, best);
        lines.into_iter().take(k).map(|(_, l)| l).collect()
    }

    /// Visits of the two most visited root moves the search may choose (for early stopping: the
    /// leader cannot be overtaken when the gap exceeds the iterations left).
    pub fn root_top_two_visits(&self) -> (u32, u32) {
        if self.tree.is_empty() {
            return (0, 0);
        }
        let mut top = (0, 0);
        for e in self.tree.edges(ROOT) {
            if e.child() == NONE || !self.allowed(ROOT, e.mv) {
                continue;
            }
            let v = self.tree.node(e.child()).visits.get();
            if v > top.0 {
                top = (v, top.0);
            } else if v > top.1 {
                top.1 = v;
            }
        }
        top
    }
}
