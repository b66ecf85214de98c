//! The search: GPN-MCTS, Score-Bounded MCTS and plain UCT over one arena tree, generic over the
//! game and the number of players, with tree reuse and a hard memory cap.
//!
//! One iteration: select down the tree (UCB1 plus the proof-number bias), create one new node,
//! run a random playout from it, and back up the utilities, the proof numbers and the score
//! bounds. A node whose bounds have met (or a terminal one) ends the iteration with its exact
//! value, as an MCTS-Solver does.

mod backup;
mod batch;
pub mod defaults;
mod heuristic;
mod knowledge;
mod netleaf;
pub mod node;
mod opening;
mod parallel;
pub mod params;
mod pnmcts;
pub mod quiescence;
mod recycle;
mod report;
mod rollout;
pub mod scaling;
mod select;
mod slots;
mod spread;
mod tally;
pub mod threat;
pub mod tree;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::game::record::{repetition_end, Seen};
use crate::game::{Game, Move, MoveList, Outcome};
pub use defaults::UserParams;
use knowledge::TreeKnowledge;
pub(crate) use netleaf::NetLeaf;
use node::{from_im, to_bound, to_im, Node, NodeId, Pn, LOSS, NONE, PN_INF, TERMINAL, THREAT, WIN};
pub use params::{Algorithm, Bias, Policy, SearchParams};
pub use report::{PriorSource, Proven, RootLine, SearchReport};
use rollout::Rollout;
pub use spread::lower_confidence_bound;
use spread::RootSpread;
use threat::{Threat, ThreatSearch};
use tree::Tree;

/// The root is always node 0.
pub const ROOT: NodeId = 0;

/// When a search stops. Every limit that is set applies; with none set the search runs until the
/// stop flag is raised.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Iterations in this call.
    pub iterations: Option<u64>,
    /// Nodes in the tree at the start plus the nodes this call created (the tree's size had
    /// nothing been recycled).
    pub nodes: Option<u64>,
    /// Wall-clock time of this call.
    pub time: Option<Duration>,
    /// Raised by another thread to stop the search (checked every few iterations).
    pub stop: Option<Arc<AtomicBool>>,
    /// Stop as soon as the root's value is proven.
    pub stop_when_solved: bool,
}

/// The most iterations between two looks at the clock, the stop flag and the hook of
/// [`Search::run_with`].
pub const CHECK_EVERY: u64 = 64;

/// About how much search time passes between two looks: the interval (1 to [`CHECK_EVERY`]
/// iterations) adapts to the iteration speed, because 64 iterations with heavy playouts (LOA or
/// Los Alamos with `policy=ipp`) take several milliseconds and would overrun a short move time.
const CHECK_PERIOD: Duration = Duration::from_micros(200);

/// How far a [`Search::run_with`] has got.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub iterations: u64,
    pub elapsed: Duration,
}

/// Statistics of the current (or last) `run`.
#[derive(Clone, Debug, Default)]
struct RunStats {
    iterations: u64,
    depth_sum: u64,
    max_depth: u32,
    draws: u64,
    elapsed: Duration,
    /// Nodes created, recyclings and the nodes they dropped.
    created: u64,
    recycles: u64,
    recycled_nodes: u64,
    /// Threaded runs: flights whose new node another thread created while they were in the air
    /// (their evaluation was spent twice on one node).
    collisions: u64,
    /// A threaded run's lock times (none with one thread).
    lock: Option<scaling::LockProfile>,
}

/// A search over game `G` with `P` players (`P` must equal `G::NUM_PLAYERS`).
///
/// Thread safety: a threaded run (`parallel.rs`) puts the whole search behind one readers-writer
/// lock: every field below is written only under the exclusive lock, and read under either,
/// except what threads change side by side under the shared lock through atomics: the tree's
/// node values and virtual visits, new nodes (`Tree::add_shared`), and `spread`. Each thread's
/// playouts and selection tie-breaks use their own `Rollout`, never `rollout` below.
pub struct Search<G: Game, const P: usize> {
    params: SearchParams,
    tree: Tree<P>,
    root_position: G,
    /// The random stream of a one-thread search (selection ties and playouts); in a threaded
    /// run only the selection's tie-breaks and the seeds of the threads' own streams.
    rollout: Rollout,
    /// Scratch for the legal moves of a node being created.
    moves: MoveList,
    /// Scratch for the rank bias: (proof number, edge index).
    scratch: Vec<(u32, u16)>,
    stats: RunStats,
    /// PN-MCTS: the player whose win the proof numbers are about (the root's mover); paranoid
    /// play (more than two players): the player whose score bounds are paranoid. A root of
    /// another player gets a new tree.
    proof_player: u8,
    /// Root moves the search may choose (`searchmoves`); empty: all.
    root_moves: Vec<Move>,
    /// Recycling could not make room (the kept part fills the budget): the tree stops growing
    /// and selection stays among existing children, so every visit is still recorded on the
    /// path it took. Cleared when the root changes.
    frozen: bool,
    /// Games with a repetition rule: the game's positions since its last irreversible move up
    /// to the root (the first `root_history` entries), then those of the current descent down
    /// to the node being expanded. A node whose position the rule ends (Minishogi's fourth
    /// repetition, a threefold one in Los Alamos) is terminal: it depends on the path, and the
    /// tree has one path to each node. Empty in other games.
    history: Vec<Seen>,
    root_history: usize,
    /// The tree knowledge in use (move priors, RAVE), fixed by the parameters.
    knowledge: TreeKnowledge,
    /// With RAVE, in a one-thread search: the (node, edge index) pairs of the current descent,
    /// root first, for the AMAF backup.
    path: Vec<(NodeId, u16)>,
    /// Scratch of the AMAF backup, one entry per AMAF move.
    amaf_seen: Vec<u8>,
    /// The spread of each root move's values, for the lower confidence bounds of analysis.
    spread: RootSpread,
    /// Threaded runs create nodes and back up proof numbers and bounds side by side
    /// ([`Search::backup_shared`]): the rank bias terms are then rebuilt lazily, like the
    /// others, instead of adjusted in place by each backup. Fixed by the parameters, which a search keeps for life (new
    /// parameters make a new search), so one tree is always backed up the same way.
    concurrent: bool,
}

/// What a descent found: where the iteration's backup starts, and the exact utilities when it
/// ended at a terminal or solved node (else a playout from the descent's position gives them).
struct Descent<const P: usize> {
    leaf: NodeId,
    utilities: Option<[f32; P]>,
    created: bool,
    depth: u32,
    /// The root edge the descent took ([`NO_EDGE`] when it stopped at the root).
    root_edge: u16,
}

/// No edge: a descent that ended at the root.
const NO_EDGE: u16 = u16::MAX;

impl<G: Game, const P: usize> Search<G, P> {
    /// A search of `root` with an empty tree.
    pub fn new(mut params: SearchParams, root: G) -> Search<G, P> {
        assert_eq!(
            P,
            G::NUM_PLAYERS,
            "Search<_, P> instantiated with the wrong player count"
        );
        // The callers check a user's network when it is set; one that does not fit the game
        // (its encoding changed, or another game's) is never evaluated on it.
        if let Err(e) = params.check_network_for::<G>() {
            log::error!("{e}: searching without it");
            params.network = None;
        }
        // `builtin` becomes the game's embedded network (checked above to exist).
        params.network = params.network.and_then(|n| n.for_game(G::INFO.name).ok());
        // The tree grows only as it fills, but never past half the machine: a Hash beyond
        // that (advertised up to a terabyte) would end in the kernel killing the engine.
        let budget = crate::machine::fit_table_mb(params.hash_mb)
            .0
            .saturating_mul(1 << 20);
        let knowledge = TreeKnowledge::of::<G, P>(&params);
        let mut tree = Tree::new(
            budget,
            params.uses_network() || knowledge.priors,
            params.pcn_init,
        );
        if knowledge.rave {
            tree.enable_amaf();
        }
        // PN-MCTS selects under the exclusive lock, with its virtual loss on the nodes.
        if params.threads > 1 && params.algorithm != Algorithm::PnMcts {
            tree.enable_virtual_visits();
        }
        let mut rollout = Rollout::new(params.seed);
        rollout.set_tracing(knowledge.rave);
        // Proofs and bounds backed up beside the selections, with the statistics (from
        // `shared_stats` threads on), except for PN-MCTS, which selects under the exclusive
        // lock.
        let concurrent = params.threads > 1
            && params.threads >= params.shared_stats
            && params.algorithm != Algorithm::PnMcts;
        Search {
            rollout,
            tree,
            knowledge,
            path: Vec::new(),
            amaf_seen: Vec::new(),
            spread: RootSpread::default(),
            concurrent,
            params,
            root_position: root,
            moves: MoveList::new(),
            scratch: Vec::new(),
            stats: RunStats::default(),
            proof_player: 0,
            root_moves: Vec::new(),
            frozen: false,
            history: Vec::new(),
            root_history: 0,
        }
    }

    /// The game's history up to the root (the root last), for the repetition rule: without it
    /// the search sees only the repetitions inside its tree. [`Search::advance`] extends it. A
    /// history other than the tree's (the same position reached another way) drops the tree:
    /// the nodes it ended by repetition were ended for the old history.
    pub fn set_history(&mut self, history: &[Seen]) {
        if !G::HAS_REPETITION_RULE {
            return;
        }
        let start = Self::repeatable_start(history);
        if history[start..] != self.history[..self.root_history] {
            self.tree.clear();
            self.frozen = false;
        }
        self.history.clear();
        self.history.extend_from_slice(&history[start..]);
        self.root_history = self.history.len();
    }

    /// Where the positions that can still repeat begin: those since the last irreversible move.
    fn repeatable_start(history: &[Seen]) -> usize {
        history.last().map_or(0, |last| {
            history.len()
                - history
                    .iter()
                    .rev()
                    .take_while(|e| e.progress() == last.progress())
                    .count()
        })
    }

    /// The history of the root alone (a position set without its history).
    fn reset_history(&mut self) {
        let root = [Seen::of(&self.root_position)];
        self.set_history(&root);
    }

    /// Notes that the descent entered `position` (games with a repetition rule).
    #[inline]
    fn enter(history: &mut Vec<Seen>, position: &G) {
        if G::HAS_REPETITION_RULE {
            history.push(Seen::of(position));
        }
    }

    /// The end the repetition rule gives `position`, one move below the last position of
    /// `history`.
    #[inline]
    fn history_end(history: &mut Vec<Seen>, position: &G) -> Option<Outcome> {
        if !G::HAS_REPETITION_RULE {
            return None;
        }
        history.push(Seen::of(position));
        let end = repetition_end(history, position);
        history.pop();
        end
    }

    /// Restricts the root to `moves` (UCI `searchmoves`); an empty list allows every move.
    /// Proof numbers and bounds still cover every move: they describe the position.
    pub fn restrict_root(&mut self, moves: &[Move]) {
        self.root_moves = moves.to_vec();
    }

    /// Whether the search may choose edge `edge` at node `id`.
    #[inline]
    fn allowed(&self, id: NodeId, mv: Move) -> bool {
        id != ROOT || self.root_moves.is_empty() || self.root_moves.contains(&mv)
    }

    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// The position at the root.
    pub fn position(&self) -> &G {
        &self.root_position
    }

    /// Forgets the tree and searches `root` from scratch; the random stream restarts from the
    /// seed, so the same position and limits give the same result.
    pub fn set_position(&mut self, root: G) {
        self.root_position = root;
        self.reset_history();
        self.root_moves.clear();
        self.tree.clear();
        self.frozen = false;
        self.rollout = Rollout::new(self.params.seed);
        self.rollout.set_tracing(self.knowledge.rave);
    }

    /// Plays `m` at the root, keeping the subtree below it (statistics, proofs and bounds) and
    /// reclaiming the rest. Returns whether a subtree was kept.
    pub fn advance(&mut self, m: Move) -> bool {
        self.root_position.play(m);
        if G::HAS_REPETITION_RULE {
            self.history.truncate(self.root_history);
            self.history.push(Seen::of(&self.root_position));
            let start = Self::repeatable_start(&self.history);
            self.history.drain(..start);
            self.root_history = self.history.len();
        }
        self.root_moves.clear();
        let child = if self.tree.is_empty() {
            NONE
        } else {
            self.tree
                .edges(ROOT)
                .iter()
                .find(|e| e.mv == m)
                .map_or(NONE, |e| e.child())
        };
        self.frozen = false;
        // A node the threat search proved has no searched children to show its proof with.
        if child == NONE || self.tree.node(child).flags() & THREAT != 0 {
            self.tree.clear();
            false
        } else {
            self.tree.reroot(child);
            true
        }
    }

    /// Mean selection depth of the iterations of the current (or last) run.
    pub fn mean_depth(&self) -> f32 {
        self.stats.depth_sum as f32 / self.stats.iterations.max(1) as f32
    }

    /// Nodes in the tree.
    pub fn tree_nodes(&self) -> usize {
        self.tree.len()
    }

    /// Bytes the tree's arenas have written: the most they hold resident (at most Hash).
    pub fn tree_resident_bytes(&self) -> usize {
        self.tree.resident_bytes()
    }

    /// Nodes created by the current (or last) run.
    pub fn nodes_created(&self) -> u64 {
        self.stats.created
    }

    /// True when the tree can no longer grow, even by recycling.
    pub fn tree_frozen(&self) -> bool {
        self.frozen
    }

    /// Visits of the root (0 before the first search).
    pub fn root_visits(&self) -> u32 {
        if self.tree.is_empty() {
            0
        } else {
            self.tree.node(ROOT).visits.get()
        }
    }

    /// Searches until a limit is reached and reports the result.
    pub fn run(&mut self, limits: &Limits) -> SearchReport {
        self.run_with(limits, |_, _| true)
    }

    /// [`Search::run`] with a hook called every few iterations (at most [`CHECK_EVERY`], about
    /// every 0.2 ms) with the search and the iterations and time of this run so far; the search
    /// stops when it returns false. The engine uses it for its clock, info lines and early
    /// stops.
    pub fn run_with<F>(&mut self, limits: &Limits, mut hook: F) -> SearchReport
    where
        F: FnMut(&Self, &Progress) -> bool,
    {
        let start = Instant::now();
        self.stats = RunStats::default();
        if !self.ensure_root() || self.tree.node(ROOT).is_terminal() {
            self.stats.elapsed = start.elapsed();
            return self.report();
        }
        if self.params.uses_network() {
            self.prefer_root_win();
        }
        if self.params.threads > 1 {
            self.run_threads(limits, &mut hook, start);
            self.stats.elapsed = start.elapsed();
            return self.report();
        }
        // A time past what an `Instant` can hold is no deadline at all.
        let deadline = limits.time.and_then(|t| start.checked_add(t));
        // The root, if this call created it, counts among the created nodes.
        let nodes_at_start = (self.tree.len() as u64).saturating_sub(self.stats.created);
        let mut interval = 1;
        let mut next_check = 1;
        let mut last_check = start;
        loop {
            if let Some(max) = limits.iterations {
                if self.stats.iterations >= max {
                    break;
                }
            }
            if self.stats.iterations >= next_check {
                let now = Instant::now();
                if deadline.is_some_and(|d| now >= d) {
                    break;
                }
                // Double the interval while checks come too often, halve it when too seldom.
                let since = now - last_check;
                if since < CHECK_PERIOD / 2 {
                    interval = (interval * 2).min(CHECK_EVERY);
                } else if since > CHECK_PERIOD * 2 {
                    interval = (interval / 2).max(1);
                }
                last_check = now;
                next_check = self.stats.iterations + interval;
                if limits
                    .stop
                    .as_ref()
                    .is_some_and(|s| s.load(Ordering::Relaxed))
                {
                    break;
                }
                let progress = Progress {
                    iterations: self.stats.iterations,
                    elapsed: start.elapsed(),
                };
                self.stats.elapsed = progress.elapsed;
                if !hook(self, &progress) {
                    break;
                }
            }
            if limits
                .nodes
                .is_some_and(|n| nodes_at_start + self.stats.created >= n)
            {
                break;
            }
            if limits.stop_when_solved && self.root_solved() {
                break;
            }
            self.iterate();
        }
        self.stats.elapsed = start.elapsed();
        self.report()
    }

    /// Paranoid play: the root player, against whom every other player chooses (`None`: max^n
    /// play, and always with two players).
    #[inline]
    pub(super) fn paranoid_player(&self) -> Option<usize> {
        (P > 2 && self.params.paranoid).then_some(self.proof_player as usize)
    }

    /// Creates the root node if the tree is empty; false if even that does not fit.
    fn ensure_root(&mut self) -> bool {
        let mover = self.root_position.to_move().0;
        let relative =
            self.params.algorithm == Algorithm::PnMcts || self.paranoid_player().is_some();
        if relative && mover != self.proof_player {
            // PN-MCTS numbers and paranoid bounds are relative to the root player: a new root
            // player needs a new tree.
            self.tree.clear();
            self.proof_player = mover;
        }
        if self.tree.is_empty() {
            let position = self.root_position.clone();
            return self.create_node(NONE, &position, None).is_some();
        }
        true
    }

    /// Mixes Dirichlet noise into the root's priors, as AlphaZero's self-play does, so that
    /// self-play tries moves its policy rules out: each prior becomes `(1 - epsilon) * prior +
    /// epsilon * noise`, the noise drawn with concentration `alpha` from `rng`. Only with a
    /// network (a tree with priors) and a root of two moves or more; creates the root if needed.
    /// Returns whether it mixed (and so drew from `rng`).
    pub fn add_root_noise(&mut self, alpha: f64, epsilon: f64, rng: &mut crate::rng::Rng) -> bool {
        if epsilon <= 0.0 || alpha <= 0.0 || !self.params.uses_network() || !self.ensure_root() {
            return false;
        }
        let priors = self.tree.priors_mut(ROOT);
        if priors.len() < 2 {
            return false;
        }
        let mut noise = vec![0.0; priors.len()];
        rng.dirichlet(alpha, &mut noise);
        let epsilon = epsilon.min(1.0);
        for (p, d) in priors.iter_mut().zip(noise) {
            let prior = *p as f64 / tree::PRIOR_ONE as f64;
            *p = tree::to_prior(((1.0 - epsilon) * prior + epsilon * d) as f32);
        }
        true
    }

    /// Gives an immediate win at the root the whole prior. PUCT may never visit a move its
    /// policy rules out, and a root proven through a longer win stops the search before the
    /// immediate one is seen (a network once played a mate in 7 with a mate in 1 on the board);
    /// with the whole prior the win is visited first, proven at once and played.
    fn prefer_root_win(&mut self) {
        let Some(win) = self.root_position.winning_move(&mut self.moves) else {
            return;
        };
        let Some(k) = self.tree.edges(ROOT).iter().position(|e| e.mv == win) else {
            return;
        };
        let priors = self.tree.priors_mut(ROOT);
        if k < priors.len() {
            priors.fill(0);
            priors[k] = tree::PRIOR_ONE;
        }
    }

    /// True when the root's value is known exactly.
    pub fn root_solved(&self) -> bool {
        !self.tree.is_empty() && self.node_solved(self.tree.node(ROOT))
    }

    /// Whether a node's value is exactly known: by its bounds (score-bounded algorithms), or by a
    /// proof number of 0 (GPN, two players: a proven win for someone).
    #[inline]
    fn node_solved(&self, n: &Node<P>) -> bool {
        if self.params.algorithm == Algorithm::PnMcts {
            n.is_terminal()
        } else if self.params.algorithm.uses_bounds() {
            n.bounds_solved()
        } else if self.params.algorithm.uses_proof_numbers() && P == 2 {
            n.pn().contains(&0)
        } else {
            n.is_terminal()
        }
    }

    /// The exact utilities of a solved or terminal node.
    #[inline]
    fn solved_utilities(&self, n: &Node<P>) -> [f32; P] {
        if n.is_terminal() || self.params.algorithm.uses_bounds() {
            n.lo().map(node::from_bound)
        } else {
            // GPN, two players: the player with proof number 0 wins.
            let winner = n.pn().iter().position(|&p| p == 0).unwrap_or(0);
            std::array::from_fn(|p| if p == winner { 1.0 } else { -1.0 })
        }
    }

    /// One iteration: selection, expansion of one node, playout, backup.
    pub fn iterate(&mut self) {
        if self.tree.is_full() && !self.frozen {
            self.recycle();
        }
        let (descent, position) = self.descend(false);
        self.rollout.clear_trace();
        let utilities = match descent.utilities {
            Some(u) => u,
            None => self.rollout.playout(&self.params, position),
        };
        self.finish(&descent, &utilities, false);
        if self.knowledge.rave {
            let path = std::mem::take(&mut self.path);
            let trace = self.rollout.take_trace();
            self.backup_amaf(&path, &trace, &utilities);
            self.path = path;
            self.rollout.put_trace(trace);
        }
    }

    /// Selection from the root down to a new node (created here), a terminal or solved node, or
    /// a move whose node cannot be stored (a full tree). With `virtual_loss` (threaded search)
    /// every node entered below the root counts one more visit, lost for the player who chose
    /// it, until [`Search::finish`] backs the iteration up: other threads then spread out.
    fn descend(&mut self, virtual_loss: bool) -> (Descent<P>, G) {
        let mut position = self.root_position.clone();
        self.history.truncate(self.root_history);
        let mut id = ROOT;
        let mut depth = 0u32;
        let mut created = false;
        let mut root_edge = NO_EDGE;
        let pn_mcts = self.params.algorithm == Algorithm::PnMcts;
        // The one-thread AMAF backup follows this path (threads record their flights' own).
        let trace_path = self.knowledge.rave && !virtual_loss;
        self.path.clear();
        let utilities = loop {
            let n = self.tree.node(id).clone();
            if n.is_terminal() || (depth > 0 && self.node_solved(&n)) {
                break Some(self.solved_utilities(&n));
            }
            if pn_mcts {
                // PN-MCTS: a node's first visit is its playout; the next pass expands it fully.
                if depth > 0 && n.visits.get() == u32::from(virtual_loss) {
                    break None;
                }
                if self.tree.edges(id).iter().any(|e| e.child() == NONE) {
                    created = true;
                    if !self.expand_all(id, &position) {
                        break None;
                    }
                }
                let i = self.select_pn_mcts(id);
                let edge = &self.tree.edges(id)[i];
                if depth == 0 {
                    root_edge = i as u16;
                }
                position.play(edge.mv);
                Self::enter(&mut self.history, &position);
                depth += 1;
                id = edge.child();
                if virtual_loss {
                    self.add_virtual_loss(id, n.mover);
                }
                continue;
            }
            let i = self.select(id);
            let edge = &self.tree.edges(id)[i];
            if depth == 0 {
                root_edge = i as u16;
            }
            if trace_path {
                self.path.push((id, i as u16));
            }
            position.play(edge.mv);
            depth += 1;
            if edge.child() != NONE {
                Self::enter(&mut self.history, &position);
                id = edge.child();
                if virtual_loss {
                    self.add_virtual_loss(id, n.mover);
                }
                continue;
            }
            let end = Self::history_end(&mut self.history, &position);
            match self.create_node(id, &position, end) {
                Some(child) => {
                    self.tree.edges_mut(id)[i].child.set(child);
                    created = true;
                    id = child;
                    if virtual_loss {
                        self.add_virtual_loss(id, n.mover);
                    }
                    let n = self.tree.node(child);
                    break if n.known_at_creation() {
                        Some(self.solved_utilities(n))
                    } else if self.params.uses_network() {
                        // The network's value of the new node replaces its playout.
                        Some(NetLeaf::utilities(from_im(n.im())))
                    } else {
                        None
                    };
                }
                // The tree is full: evaluate the move by a playout without storing it.
                None => break None,
            }
        };
        if virtual_loss && created {
            // Other threads will see the new node before this iteration's playout is backed up:
            // its ancestors' proof numbers, bounds and minimax values must account for it now.
            self.backup(id, None, true);
            if self.params.uses_node_evaluation() {
                self.backup_minimax(id);
            }
        }
        let descent = Descent {
            leaf: id,
            utilities,
            created,
            depth,
            root_edge,
        };
        (descent, position)
    }

    /// A virtual visit of node `id`, lost for `chooser` (the mover at its parent).
    #[inline]
    fn add_virtual_loss(&mut self, id: NodeId, chooser: u8) {
        let node = self.tree.node_mut(id);
        *node.visits.get_mut() += 1;
        node.total[chooser as usize].add_mut(-1.0);
    }

    /// Takes back the virtual visit of every node from `node` up to the root's child.
    fn remove_virtual_loss(&mut self, node: NodeId) {
        let mut id = node;
        while id != ROOT {
            let parent = self.tree.node(id).parent;
            let chooser = self.tree.node(parent).mover as usize;
            let node = self.tree.node_mut(id);
            *node.visits.get_mut() -= 1;
            node.total[chooser].add_mut(1.0);
            id = parent;
        }
    }

    /// Backs up one iteration whose descent was `descent` and whose playout (or exact value) gave
    /// `utilities`; with `virtual_loss`, first takes back the virtual visits of the descent.
    fn finish(&mut self, descent: &Descent<P>, utilities: &[f32; P], virtual_loss: bool) {
        if virtual_loss {
            self.remove_virtual_loss(descent.leaf);
        }
        self.count_iteration(descent, utilities);
        // A threaded descent has backed up its new node's values already.
        let created = descent.created && !virtual_loss;
        self.backup(descent.leaf, Some(utilities), created);
        if created && self.params.uses_node_evaluation() {
            self.backup_minimax(descent.leaf);
        }
    }

    /// Counts one iteration in the run's statistics (iterations, depths, draws).
    fn count_iteration(&mut self, descent: &Descent<P>, utilities: &[f32; P]) {
        self.stats.iterations += 1;
        self.stats.depth_sum += descent.depth as u64;
        self.stats.max_depth = self.stats.max_depth.max(descent.depth);
        if utilities.iter().all(|&u| u == 0.0) {
            self.stats.draws += 1;
        }
        if descent.root_edge != NO_EDGE {
            let root = self.tree.node(ROOT);
            self.spread
                .prepare(self.tree.generation(), root.num_edges as usize);
            self.spread
                .record(descent.root_edge as usize, utilities[root.mover as usize]);
        }
    }

    /// Allocates the node of `position` below `parent`, with its edges, its initial proof numbers
    /// (mobility initialisation) and bounds. `None` when the tree is full.
    fn create_node(
        &mut self,
        parent: NodeId,
        position: &G,
        history_end: Option<Outcome>,
    ) -> Option<NodeId> {
        let (node, unvisited_pn) = Self::prepare_node(
            &self.params,
            self.proof_player,
            parent,
            position,
            history_end,
            &mut self.moves,
            &mut self.rollout.net,
            &mut self.rollout.threats,
            Some(&self.history),
        );
        let id = self.tree.add(
            node,
            self.moves.as_slice(),
            &self.rollout.net.priors,
            unvisited_pn,
        );
        self.stats.created += u64::from(id.is_some());
        id
    }

    /// The node of `position` below `parent` as [`Search::create_node`] stores it, with its legal
    /// moves (its edges) in `moves` and, with a network, their priors in `net.priors` (else
    /// `net.priors` is empty); it reads only the parameters and the PN-MCTS proof player, so a
    /// threaded search prepares nodes outside the tree's lock. With a network the node's
    /// evaluation ([`Node::im`]) is the network's value, or with [`SearchParams::pcn_init`] the
    /// value of its proof costs ([`crate::nn::pcn::cost_value`]). Also returns the per-player
    /// proof numbers its edges count as until their children exist ([`Tree::unvisited_pn`]).
    /// `history_end`: the game ends here by its repetition rule, with this outcome. `history`:
    /// the positions before this one, for the threat search in games with a repetition rule.
    #[allow(clippy::too_many_arguments)]
    fn prepare_node(
        params: &SearchParams,
        proof_player: u8,
        parent: NodeId,
        position: &G,
        history_end: Option<Outcome>,
        moves: &mut MoveList,
        net: &mut NetLeaf,
        threats: &mut ThreatSearch,
        history: Option<&[crate::game::record::Seen]>,
    ) -> (Node<P>, [Pn; P]) {
        if history_end.is_some() {
            moves.clear();
        } else if !(params.forcing && position.forcing_moves(moves)) {
            position.legal_moves(moves);
        }
        // A position without moves ends the game: by the rules, or drawn.
        let end = || {
            history_end
                .or_else(|| position.outcome())
                .unwrap_or_else(|| Outcome::draw(P))
        };
        net.priors.clear();
        let mut node = Node::<P>::new(parent, position.to_move().0);
        if params.algorithm == Algorithm::PnMcts {
            let outcome = moves.is_empty().then(end);
            Self::pn_mcts_init(proof_player, &mut node, outcome);
            if let Some(outcome) = outcome {
                node.flags.set(TERMINAL);
                for p in 0..P {
                    node.lo[p].set(to_bound(outcome.utility(crate::game::Player(p as u8))));
                    node.hi[p].set(node.lo()[p]);
                }
            }
        } else if moves.is_empty() {
            node.flags.set(TERMINAL);
            let outcome = end();
            for p in 0..P {
                let u = outcome.utility(crate::game::Player(p as u8));
                node.lo[p].set(to_bound(u));
                node.hi[p].set(node.lo()[p]);
                // Only a sole first place proves the target rank; a draw proves nothing.
                node.pn[p].set(if u >= 1.0 - 1e-6 { 0 } else { PN_INF });
            }
        }
        // Not at the root, which must be searched to show its proof.
        if !node.is_terminal() && parent != NONE && params.uses_threats(P) {
            if let Some(threat) =
                threats.probe(position, params.threats, params.threat_nodes, history)
            {
                Self::mark_proven(&mut node, threat);
            }
        }
        let mut costs = None;
        if P == 2 && (params.uses_node_evaluation() || params.uses_network()) {
            if node.known_at_creation() {
                node.im.set(to_im(node::from_bound(node.lo()[0])));
            } else {
                let value = match params.network.as_ref().filter(|_| params.uses_network()) {
                    Some(file) => {
                        let mut v = net.node_value_and_priors(file, position, moves.as_slice());
                        if params.pcn_init {
                            costs = net.costs(file.net());
                        }
                        if params.quiescence > 0 {
                            v = net.quiescent_value(
                                file,
                                position,
                                moves.as_slice(),
                                v,
                                params.quiescence,
                            );
                        }
                        match costs {
                            // The mover's cost value, for the first player.
                            Some([own, other]) => {
                                let v = crate::nn::pcn::cost_value(own, other);
                                if position.to_move().0 == 0 {
                                    v
                                } else {
                                    -v
                                }
                            }
                            None => v,
                        }
                    }
                    None => position.evaluate(crate::game::Player(0)),
                };
                node.im.set(to_im(value));
                // Node priors (not at the root, whose value selects nothing; not in PN-MCTS,
                // where a node's first visit is its playout).
                let np = params.np;
                if np > 0 && parent != NONE && params.algorithm != Algorithm::PnMcts {
                    *node.visits.get_mut() = np;
                    for (p, total) in node.total.iter_mut().enumerate() {
                        total.set(
                            np as f32 * crate::game::zero_sum(value, crate::game::Player(p as u8)),
                        );
                    }
                }
            }
        }
        if !moves.is_empty() && TreeKnowledge::of::<G, P>(params).priors {
            position.move_priors(moves.as_slice(), &mut net.priors);
            if let Some((file, share)) = params.network_priors() {
                let mut priors = std::mem::take(&mut net.priors);
                net.blend_policy(file.net(), position, moves.as_slice(), share, &mut priors);
                net.priors = priors;
            }
        }
        let open = !node.known_at_creation() && params.algorithm != Algorithm::PnMcts;
        let mut unvisited_pn = [1; P];
        if let (true, Some([own, other])) = (open, costs) {
            // The PCN paper's initialisation: every edge counts as the mover's own cost and as
            // the opponent's cost over the b edges, so that the node's numbers (the minimum of
            // its edges for the mover, their sum for the other) are its two costs, and they stay
            // the sums the incremental backup expects.
            let pn = |c: f32| (c.round() as u32).clamp(1, PN_INF - 1);
            let b = moves.len().max(1) as f32;
            let mover = node.mover as usize;
            for (p, (edge, node_pn)) in unvisited_pn.iter_mut().zip(&mut node.pn).enumerate() {
                if p == mover {
                    *edge = pn(own);
                    node_pn.set(pn(own));
                } else {
                    *edge = pn(other / b);
                    node_pn.set(edge.saturating_mul(moves.len() as u32).min(PN_INF - 1));
                }
            }
        } else if open && params.mobility_init {
            let mobility = moves.len() as u32;
            for p in 0..P {
                node.pn[p].set(if p == node.mover as usize {
                    1
                } else {
                    mobility
                });
            }
        }
        (node, unvisited_pn)
    }

    /// Gives a new two-player node the exact value the threat search proved: met bounds, the
    /// winner's proof number 0 and the loser's infinite, and the distance to the end.
    fn mark_proven(node: &mut Node<P>, threat: Threat) {
        let (winner, plies) = match threat {
            Threat::Win(n) => (node.mover as usize, n),
            Threat::Loss(n) => (1 - node.mover as usize, n),
        };
        for p in 0..P {
            let won = p == winner;
            node.lo[p].set(if won { WIN } else { LOSS });
            node.hi[p].set(node.lo()[p]);
            node.pn[p].set(if won { 0 } else { PN_INF });
        }
        node.proof_plies.set(plies);
        node.mark(THREAT);
    }
}

#[cfg(test)]
mod testgame;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_knowledge;
#[cfg(test)]
mod tests_memory;
#[cfg(test)]
mod tests_multi;
#[cfg(test)]
mod tests_net;
#[cfg(test)]
mod tests_threads;
