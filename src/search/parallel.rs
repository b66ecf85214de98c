//! Threaded search (`threads` > 1): tree parallelism on the one arena, with virtual loss.
//!
//! # Design
//! Every thread runs whole iterations, in batches, in three steps:
//! 1. **Select, under the shared (read) lock**: the thread first takes back the virtual visits
//!    of its previous batch, whose playouts have run; then the threads descend side by side,
//!    each from the root to the first edge without a node (or to a terminal or solved node),
//!    with its own random stream for ties, adding a **virtual visit** to every node it enters
//!    below the busy ones ([`VIRTUAL_LOSS_MAX_VISITS`]; an atomic count beside the node,
//!    [`super::tree::Tree::virtual_visits`]: selection counts it as a visit lost for the player
//!    who chose the node, so the other threads spread out),
//!    and marking the edge without a node it ends on ([`OpeningEdges`]), whose node-to-be
//!    counts the flights opening it as lost visits for the threads that select after it.
//!    Nothing else in the tree changes: a node whose cached proof-number bias terms are stale
//!    gets them computed into the thread's scratch.
//! 2. **Update, under the exclusive (write) lock**: the thread backs up its previous batch
//!    (creating each new node then, with the moves and values prepared outside the lock, and
//!    recomputing proof numbers, bounds, rank terms and minimax values up the path, exactly as
//!    the one-thread search does).
//! 3. **Outside the lock**: it prepares each new node (legal moves, terminal value, evaluation)
//!    and runs the playouts, with its own random stream and move buffers ([`Rollout`]).
//!
//! So below `shared_stats` threads every change to the tree but the virtual visits is made under
//! the exclusive lock, exactly as in the one-thread search, in some order: a proof or a bound can never be lost or
//! contradicted, a child is never created twice (a thread that finds its edge's node created
//! meanwhile backs its playout up through that node), and visit counts equal iterations. The
//! virtual visits feed selection only, never a proof, a bound or a report. What threads change is
//! only *which* iterations run.
//!
//! From `shared_stats` threads on (not with PN-MCTS, below), step 2 goes: a thread lands its
//! last batch at the start of step 1, side by side with the other threads ([`land_batch`]). Each playout's visit and utilities go up the path with
//! atomic additions; the new node is created through a shared reference
//! ([`super::tree::Tree::add_shared`]): the thread claims the edge
//! ([`super::node::ChildCell::claim`]), claims the node's slots in the arenas with one
//! compare-and-swap, writes the node whole and publishes it through the edge, and a thread that
//! lands on the same edge meanwhile waits for it and goes through it. The proof numbers, bounds
//! and minimax values the node changes are then backed up ([`Search::back_up_created`],
//! [`Search::backup_shared`]), each merged into its node so that no proof and no bound is lost to
//! a race (a proof number of 0 or infinity is never replaced, a bound only tightens). With RAVE,
//! each flight's all-moves-as-first visits go on its path's edges with atomic additions too
//! ([`Search::backup_amaf_shared`]). Each
//! thread adds the iterations and nodes it landed to shared atomic counts once a batch
//! ([`Tally`]), and the busy nodes' visits and utilities, and the root moves' values, every 16
//! iterations ([`HeldStats`]), flushing them when its last flight in the air lands, so that
//! recycling and the run's end find nothing held. The exclusive lock is left to the hook,
//! recycling and the arenas' growth.
//!
//! The iteration limit is exact: a thread claims each iteration (an atomic count of iterations
//! in flight) before it selects it, and an iteration is counted done before it leaves the count
//! in flight, so a claim never sees too few. The node limit is exact too: an iteration that
//! would create a node is counted before it runs.
//!
//! Recycling renumbers nodes, so it runs only when no iteration is in flight: a thread that finds
//! the tree full asks for it, no thread selects until it has happened, and the thread that sees
//! the last iteration in flight backed up recycles.
//!
//! PN-MCTS expands a node's children during selection, so it selects under the exclusive lock
//! (with the node creation in the same hold, and its virtual loss put on the nodes' own visits
//! and totals), as the first threaded design of this module did for every algorithm.
//!
//! With `threads` = 1 none of this runs: [`Search::run_with`] keeps its single-threaded loop,
//! which is deterministic per seed.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Instant;

use crossbeam_utils::CachePadded;
use parking_lot::{RwLock, RwLockReadGuard, RwLockWriteGuard};

use super::batch::{batch_size, nanos_between, smooth, Clock, Tick, HOLD_STREAK, MAX_BATCH};
use super::netleaf::NetLeaf;
use super::node::{from_im, Node, NodeId, Pn, NONE};
use super::opening::OpeningEdges;
use super::rollout::Rollout;
use super::scaling::LockProfile;
use super::spread::HeldSamples;
use super::tally::{SharedTally, Tally};
use super::tree::Refused;
use super::{Algorithm, Descent, Limits, Progress, Search, NO_EDGE, ROOT};
use crate::game::record::Seen;
use crate::game::{Game, Move, MoveList, Outcome};
use crate::rng::Rng;

#[path = "held.rs"]
mod held;
use held::HeldStats;

/// The seed of thread `k`'s playouts in a run: distinct streams from one run seed.
fn thread_seed(seed: u64, k: usize) -> u64 {
    seed ^ crate::rng::mix64(0xA076_1D64_78BD_642F ^ k as u64)
}

/// How many times a thread tries the tree lock, pausing between tries, before it sleeps on it.
/// The exclusive lock is held for one batch of backups (a few microseconds at most), so spinning
/// that long is cheaper than the sleep and wake-up (several microseconds) that parking_lot's own
/// short spin falls back to.
const SPIN_TRIES: u32 = 256;

/// Takes a lock: `attempt` it [`SPIN_TRIES`] times, pausing between tries, then `block` on it.
fn spin_lock<Guard>(attempt: impl Fn() -> Option<Guard>, block: impl FnOnce() -> Guard) -> Guard {
    for _ in 0..SPIN_TRIES {
        if let Some(guard) = attempt() {
            return guard;
        }
        std::hint::spin_loop();
    }
    block()
}

/// Takes the shared lock.
fn read<T>(lock: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    spin_lock(|| lock.try_read(), || lock.read())
}

/// Takes the exclusive lock.
fn write<T>(lock: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    spin_lock(|| lock.try_write(), || lock.write())
}

/// What the threads share besides the tree lock. Every field is atomic and read without the
/// lock; the counts are changed under the shared lock (claims) or the exclusive one (backups),
/// so that a thread holding either sees a count that no backup changes under it. The counts
/// every batch writes sit on cache lines of their own (`CachePadded`), away from the flags every
/// batch only reads, so that a write does not take those lines from the other cores too.
struct Shared<'a> {
    limits: &'a Limits,
    /// Raised by the first thread that sees a limit; every thread then backs up what it has in
    /// flight and ends.
    done: AtomicBool,
    /// Iterations claimed and not yet backed up (all threads).
    in_flight: CachePadded<AtomicU32>,
    /// The counts of the iterations landed under the shared lock, not yet moved into the
    /// search's statistics (which change only under the exclusive lock).
    tally: CachePadded<SharedTally>,
    /// A thread found the arenas without room (their reservation was refused up front): the
    /// next exclusive hold grows them.
    grow_wanted: AtomicBool,
    /// Of those, the ones that will try to create a node (for the node limit).
    creating: CachePadded<AtomicU64>,
    /// A thread found the tree full: no thread selects until it has been recycled.
    recycle_wanted: AtomicBool,
    /// Tree size (nodes) at the start of the run, for the node limit.
    nodes_at_start: u64,
    /// The threads' lock times, each thread's added as it ends.
    profile: parking_lot::Mutex<LockProfile>,
    /// The edges without a node that flights in the air are opening.
    opening: OpeningEdges,
}

impl<G: Game, const P: usize> Search<G, P> {
    /// The threaded form of [`Search::run_with`]'s loop: `params.threads` threads, the calling
    /// one among them, which also keeps the clock and calls `hook`.
    pub(super) fn run_threads<F>(&mut self, limits: &Limits, hook: &mut F, start: Instant)
    where
        F: FnMut(&Self, &Progress) -> bool,
    {
        let threads = self.params.threads.max(1);
        // Fresh streams every run, drawn from the search's own: the moves of a game do not
        // replay the same playouts.
        let seed = self.rollout.rng.next_u64();
        let shared = Shared {
            limits,
            done: AtomicBool::new(false),
            in_flight: CachePadded::new(AtomicU32::new(0)),
            tally: CachePadded::new(SharedTally::default()),
            grow_wanted: AtomicBool::new(false),
            creating: CachePadded::new(AtomicU64::new(0)),
            recycle_wanted: AtomicBool::new(false),
            nodes_at_start: (self.tree.len() as u64).saturating_sub(self.stats.created),
            profile: parking_lot::Mutex::new(LockProfile::default()),
            opening: OpeningEdges::new(),
        };
        // A time past what an `Instant` can hold is no deadline at all.
        let deadline = limits.time.and_then(|t| start.checked_add(t));
        // The root keeps its index (recycling keeps node 0) and its generation for the run.
        let root_edges = self.tree.node(ROOT).num_edges as usize;
        self.spread.prepare(self.tree.generation(), root_edges);
        // On a line of its own, as the counts above: each batch takes it (a locked addition).
        let tree = CachePadded::new(RwLock::new(&mut *self));
        std::thread::scope(|scope| {
            for k in 1..threads {
                let (tree, shared) = (&tree, &shared);
                let spawned = std::thread::Builder::new()
                    .name(format!("search-{k}"))
                    .spawn_scoped(scope, move || {
                        let mut rollout = Rollout::new(thread_seed(seed, k));
                        work::<G, P, F>(tree, shared, &mut rollout, None);
                    });
                if let Err(e) = spawned {
                    // Fewer threads than asked is still a search; say so and go on.
                    log::warn!("search: could not start thread {k}: {e}");
                    break;
                }
            }
            let mut rollout = Rollout::new(thread_seed(seed, 0));
            let mut clock = Clock {
                start,
                deadline,
                last_hook: start,
                hook,
            };
            work(&tree, &shared, &mut rollout, Some(&mut clock));
        });
        shared.tally.drain_into(&mut self.stats);
        let profile = shared.profile.into_inner();
        log::debug!(
            "search: {} threads, serial fraction {:.1} %, waiting {:.1} % of the time, \
             {} collisions in {} iterations",
            profile.threads,
            100.0 * profile.serial_fraction(),
            100.0 * profile.wait_fraction(),
            self.stats.collisions,
            self.stats.iterations
        );
        self.stats.lock = Some(profile);
    }

    /// Step 1 of a threaded iteration: selection from the root, changing nothing, to the first
    /// edge without a node or to a terminal or solved node. `xs` and `terms` are scratch for
    /// stale bias terms.
    fn select_flight(
        &self,
        rng: &mut Rng,
        xs: &mut Vec<(u32, u16)>,
        terms: &mut Vec<u16>,
        scratch: &mut SelectScratch,
        opening: &OpeningEdges,
    ) -> Flight<G, P> {
        let mut position = self.root_position.clone();
        let mut id = ROOT;
        let mut depth = 0u32;
        let mut virtual_top = NONE;
        scratch.path.clear();
        scratch.history.clear();
        scratch
            .history
            .extend_from_slice(&self.history[..self.root_history]);
        loop {
            let n = self.tree.node(id);
            if n.is_terminal() || (depth > 0 && self.node_solved(n)) {
                return Flight {
                    node: id,
                    virtual_top,
                    open_edge: None,
                    root_edge: scratch.path.first().map_or(NO_EDGE, |&(_, e)| e),
                    depth,
                    utilities: Some(self.solved_utilities(n)),
                    history_end: None,
                    position,
                    new_node: None,
                };
            }
            let stale = self.bias_terms_stale(id);
            if stale {
                self.bias_terms_into(id, xs, terms);
            }
            // Choose; an edge without a node that flights in the air are opening counts them
            // as its node-to-be's lost visits, and the choice is made again, until it falls on
            // an edge with a node, a free one, or a busy one all the same.
            scratch.here.clear();
            let i = loop {
                let i =
                    self.select_shared(id, rng, stale.then_some(terms.as_slice()), &scratch.here);
                if self.tree.edges(id)[i].child() != NONE
                    || scratch.here.iter().any(|&(e, _)| e as usize == i)
                {
                    break i;
                }
                match opening.count(id, i) {
                    0 => break i,
                    flights => scratch
                        .here
                        .push((i as u16, flights.min(u16::MAX as u32) as u16)),
                }
            };
            scratch.path.push((id, i as u16));
            let edge = &self.tree.edges(id)[i];
            position.play(edge.mv);
            depth += 1;
            if edge.child() == NONE {
                opening.open(id, i);
                return Flight {
                    node: id,
                    virtual_top,
                    open_edge: Some(i),
                    root_edge: scratch.path[0].1,
                    depth,
                    utilities: None,
                    history_end: Self::history_end(&mut scratch.history, &position),
                    position,
                    new_node: None,
                };
            }
            Self::enter(&mut scratch.history, &position);
            id = edge.child();
            // Other threads see this flight at once, and spread out (below the busy nodes).
            if virtual_top != NONE || self.tree.node(id).visits.get() < VIRTUAL_LOSS_MAX_VISITS {
                self.tree.add_virtual_visits(id, 1);
                if virtual_top == NONE {
                    virtual_top = id;
                }
            }
        }
    }

    /// The tree is full and recycling may still make room.
    fn needs_recycling(&self) -> bool {
        self.tree.is_full() && !self.frozen
    }

    /// Step 2 (below `shared_stats` threads, or with PN-MCTS), after the flight's virtual
    /// visits came off: creates the flight's new node (unless another thread created it
    /// meanwhile, or the tree is full) with its edges' `moves` and `priors`, counts the
    /// iteration, and backs up what `backup` says, as the one-thread search does: its visit and
    /// utilities on the path (unless [`Self::take_flight_off`] put them on the path above the
    /// new node already), then what the new node changes (proof numbers, bounds, rank terms,
    /// minimax values); with RAVE, along the flight's selected `path` and its playout's
    /// `trace`.
    fn land(
        &mut self,
        flight: &mut Flight<G, P>,
        backup: Backup,
        moves: &MoveList,
        priors: &[u16],
        path: &[(NodeId, u16)],
        trace: &[(Move, u8)],
    ) {
        let mut leaf = flight.node;
        let mut created = false;
        if let (Some(i), Some(new_node)) = (flight.open_edge, flight.new_node.take()) {
            let child = self.tree.edges(leaf)[i].child();
            if child != NONE {
                // Another thread created it: this playout went through it all the same.
                self.stats.collisions += 1;
                leaf = child;
            } else if let Some(child) =
                self.tree
                    .add(new_node.0, moves.as_slice(), priors, new_node.1)
            {
                self.stats.created += 1;
                self.tree.edges_mut(leaf)[i].child.set(child);
                leaf = child;
                created = true;
            }
            // A full tree: the move was evaluated by a playout without storing it.
        }
        let utilities = flight.utilities.unwrap_or([0.0; P]);
        let descent = Descent {
            leaf,
            utilities: flight.utilities,
            created,
            depth: flight.depth,
            root_edge: flight.root_edge,
        };
        if backup == Backup::Whole {
            self.finish(&descent, &utilities, false);
        } else {
            if leaf != flight.node {
                // The path's statistics stopped at the node the flight found; the new node (or
                // the one another thread created meanwhile) gets its visit here.
                let node = self.tree.node_mut(leaf);
                *node.visits.get_mut() += 1;
                for (total, &u) in node.total.iter_mut().zip(&utilities) {
                    total.add_mut(u);
                }
            }
            self.count_iteration(&descent, &utilities);
            if created {
                self.backup(leaf, None, true);
                if self.params.uses_node_evaluation() {
                    self.backup_minimax(leaf);
                }
            }
        }
        if self.knowledge.rave {
            self.backup_amaf(path, trace, &utilities);
        }
        // The bias terms the backup made stale are rebuilt now, while the lock is exclusive, so
        // that selecting threads rarely have to compute them for themselves.
        if self.lazy_bias_terms() {
            let mut id = leaf;
            while id != NONE {
                self.refresh_bias_terms(id);
                id = self.tree.node(id).parent;
            }
        }
    }

    /// From `shared_stats` threads on (but not with PN-MCTS), under the shared lock,
    /// after the flight's virtual visits came off and its statistics went up the path: creates
    /// the flight's new node, as [`Self::land`] does, and backs up what it changes side by side
    /// with the other threads ([`Self::back_up_created`]); counts the iteration in `tally` and
    /// holds its root move's value in `samples`. Returns why the tree refused the node, if it did (the playout still counts, as in a
    /// full tree). `xs` is scratch.
    fn land_shared(
        &self,
        flight: &mut Flight<G, P>,
        moves: &MoveList,
        priors: &[u16],
        tally: &mut Tally,
        samples: &mut HeldSamples,
        xs: &mut Vec<(u32, u16)>,
    ) -> Option<Refused> {
        let utilities = flight.utilities.unwrap_or([0.0; P]);
        let mut refused = None;
        if let (Some(i), Some((mut node, unvisited_pn))) =
            (flight.open_edge, flight.new_node.take())
        {
            let edge = &self.tree.edges(flight.node)[i];
            if edge.child.claim() {
                // The node is born with this iteration's visit, before any thread can see it.
                *node.visits.get_mut() = 1;
                for (total, &u) in node.total.iter_mut().zip(&utilities) {
                    total.add_mut(u);
                }
                // SAFETY: the node is reached only through this edge, whose claim this thread
                // holds until it stores the node's index (threads never walk the arena by
                // index while they add nodes).
                match unsafe {
                    self.tree
                        .add_shared(node, moves.as_slice(), priors, unvisited_pn)
                } {
                    Ok(child) => {
                        edge.child.set(child);
                        tally.created += 1;
                        self.back_up_created(child, xs);
                    }
                    Err(why) => {
                        edge.child.set(NONE);
                        refused = Some(why);
                    }
                }
            } else {
                let child = edge.child.wait();
                if child != NONE {
                    // Another thread created it: this playout went through it all the same.
                    tally.collisions += 1;
                    self.tree.node(child).add_visits(1, &utilities);
                }
            }
        }
        tally.count(flight.depth, &utilities);
        if flight.root_edge != NO_EDGE {
            let mover = self.tree.node(ROOT).mover as usize;
            samples.hold(flight.root_edge as usize, utilities[mover]);
        }
        refused
    }

    /// Backs up what the new node `leaf` changes (proof numbers, bounds, minimax values) and
    /// rebuilds the bias terms this makes stale on its path, side by side with the other
    /// threads' selections and backups ([`Search::backup_shared`]); `xs` is scratch.
    fn back_up_created(&self, leaf: NodeId, xs: &mut Vec<(u32, u16)>) {
        self.backup_shared(leaf);
        if self.params.uses_node_evaluation() {
            self.backup_minimax(leaf);
        }
        if self.lazy_bias_terms() {
            let mut id = leaf;
            while id != NONE {
                self.refresh_bias_terms_shared(id, xs);
                id = self.tree.node(id).parent;
            }
        }
    }
}

/// The iterations done in this search, those landed under the shared lock included.
fn iterations_done<G: Game, const P: usize>(s: &Search<G, P>, shared: &Shared) -> u64 {
    s.stats.iterations + shared.tally.iterations.load(Ordering::Acquire)
}

/// The nodes created in this search, those created under the shared lock included.
fn nodes_created<G: Game, const P: usize>(s: &Search<G, P>, shared: &Shared) -> u64 {
    s.stats.created + shared.tally.created.load(Ordering::Acquire)
}

/// What [`Search::land`] backs up under the exclusive lock.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Backup {
    /// The whole iteration.
    Whole,
    /// All but the statistics above the new node, which step 1 backed up.
    Rest,
}

/// One thread's scratch for selecting a flight.
#[derive(Default)]
struct SelectScratch {
    /// The edges of the node being selected at that flights in the air are opening (found in
    /// [`OpeningEdges`] as selection chose them): (edge index, flights).
    here: Vec<(u16, u16)>,
    /// The current flight's (node, edge index) per depth.
    path: Vec<(NodeId, u16)>,
    /// The game's history to the root, then the current flight's positions (games with a
    /// repetition rule; see [`Search::set_history`]).
    history: Vec<Seen>,
}

/// A node visited this often is busy: it gets no virtual visits, and its visits and utilities
/// come in sums every few iterations ([`HeldStats`]). One flight's loss would move its mean by
/// at most 2/257 (of utilities in [-1, 1]), which turns few choices, while writing the count
/// costs a cache line that every other thread reads next (the nodes visited most are the ones
/// near the root, on every thread's path). Once a flight has entered a node with fewer visits, every node below it gets
/// one, so a flight's virtual visits lie on one stretch of its path, and the busy nodes above it.
/// Of 64, 256 and 1024, 256 gave two threads the most iterations over one, or near it, in
/// cfour, breakthrough and reversi (`experiments/threads.md`, "Busy nodes").
pub(super) const VIRTUAL_LOSS_MAX_VISITS: u32 = 256;

/// One iteration of a threaded run, from its selection to its backup.
struct Flight<G, const P: usize> {
    /// The deepest existing node of the path.
    node: NodeId,
    /// The shallowest node of the path holding this flight's virtual visit ([`NONE`]: none
    /// does); it and the nodes below it down to `node` hold one each until the playout has run
    /// (see [`VIRTUAL_LOSS_MAX_VISITS`]).
    virtual_top: NodeId,
    /// The edge of `node` whose node does not exist yet: the node this iteration creates.
    open_edge: Option<usize>,
    /// The root edge the flight took ([`NO_EDGE`]: it stopped at the root).
    root_edge: u16,
    depth: u32,
    /// The exact utilities (terminal or solved node, or a terminal new node), else the
    /// playout's once it has run.
    utilities: Option<[f32; P]>,
    /// The repetition rule ends the game at the new node, with this outcome.
    history_end: Option<Outcome>,
    /// The position at the end of the path.
    position: G,
    /// The new node prepared outside the lock (its moves in the thread's move list of the same
    /// slot).
    new_node: Option<(Node<P>, [Pn; P])>,
}

/// An iteration of PN-MCTS, selected and expanded under the exclusive lock.
struct ExclusiveFlight<G, const P: usize> {
    descent: Descent<P>,
    position: G,
    utilities: [f32; P],
}

/// Lands a thread's batch under the shared lock (`concurrent`): each flight's node and backup
/// ([`Search::land_shared`]), then the batch's counts, done before they leave the count in
/// flight. A tree found full asks for recycling; arenas found without room, for growth.
#[allow(clippy::too_many_arguments)]
fn land_batch<G: Game, const P: usize>(
    s: &Search<G, P>,
    shared: &Shared,
    flights: &mut Vec<Flight<G, P>>,
    moves: &[MoveList],
    priors: &[Vec<u16>],
    tally: &mut Tally,
    samples: &mut HeldSamples,
    xs: &mut Vec<(u32, u16)>,
    mut rave: Option<RaveBatch>,
) {
    let landed = flights.len() as u32;
    let mut creating = 0;
    for (i, mut flight) in flights.drain(..).enumerate() {
        if s.land_shared(&mut flight, &moves[i], &priors[i], tally, samples, xs)
            == Some(Refused::Room)
        {
            shared.grow_wanted.store(true, Ordering::Relaxed);
        }
        if let Some(rave) = rave.as_mut() {
            let utilities = flight.utilities.unwrap_or([0.0; P]);
            s.backup_amaf_shared(&rave.paths[i], &rave.traces[i], &utilities, rave.seen);
        }
        // The edge has its node now (or never will: a full tree).
        shared.opening.landed(flight.node, flight.open_edge);
        creating += u64::from(flight.open_edge.is_some());
    }
    tally.flush(&shared.tally);
    shared.in_flight.fetch_sub(landed, Ordering::AcqRel);
    if creating > 0 && shared.limits.nodes.is_some() {
        shared.creating.fetch_sub(creating, Ordering::AcqRel);
    }
    if s.needs_recycling() {
        shared.recycle_wanted.store(true, Ordering::Relaxed);
    }
}

/// With RAVE, what [`land_batch`] needs for each flight's AMAF backup: the flights' paths and
/// playout traces (by the flight's index), and the thread's scratch.
struct RaveBatch<'a> {
    paths: &'a [Vec<(NodeId, u16)>],
    traces: &'a [Vec<(Move, u8)>],
    seen: &'a mut Vec<u8>,
}

/// Whether the run must end now (a stop that does not wait for iterations in flight).
fn must_stop<G: Game, const P: usize>(s: &Search<G, P>, shared: &Shared) -> bool {
    let limits = shared.limits;
    shared.done.load(Ordering::Relaxed)
        || limits
            .stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        || limits
            .iterations
            .is_some_and(|max| iterations_done(s, shared) >= max)
        || limits
            .nodes
            .is_some_and(|n| shared.nodes_at_start + nodes_created(s, shared) >= n)
        || (limits.stop_when_solved && s.root_solved())
}

/// Claims up to `want` iterations as the limits allow, counting them in flight; returns how
/// many. Called under the shared lock: iterations that complete meanwhile are counted done
/// before they leave the count in flight ([`Tally::flush`]), so the claim may undercount the
/// room, never overcount it; two threads claiming at once get distinct slots.
fn claim<G: Game, const P: usize>(s: &Search<G, P>, shared: &Shared, want: usize) -> usize {
    let before = shared.in_flight.fetch_add(want as u32, Ordering::AcqRel);
    let Some(max) = shared.limits.iterations else {
        return want;
    };
    let room = max.saturating_sub(iterations_done(s, shared) + u64::from(before));
    let granted = room.min(want as u64) as usize;
    if granted < want {
        shared
            .in_flight
            .fetch_sub((want - granted) as u32, Ordering::AcqRel);
    }
    granted
}

/// Counts a claimed iteration among those that create a node (only under a node limit); false
/// (and nothing counted) if the limit leaves no room for it.
fn claim_node<G: Game, const P: usize>(s: &Search<G, P>, shared: &Shared) -> bool {
    let before = shared.creating.fetch_add(1, Ordering::AcqRel);
    if shared
        .limits
        .nodes
        .is_some_and(|n| shared.nodes_at_start + nodes_created(s, shared) + before >= n)
    {
        shared.creating.fetch_sub(1, Ordering::AcqRel);
        return false;
    }
    true
}

/// One thread's loop: batches of iterations until a limit, the stop flag, the clock (the calling
/// thread's `clock`, which also calls the hook) or another thread ends the run. See the module
/// documentation for the three steps of a batch.
fn work<G: Game, const P: usize, F>(
    tree: &RwLock<&mut Search<G, P>>,
    shared: &Shared,
    rollout: &mut Rollout,
    mut clock: Option<&mut Clock<F>>,
) where
    F: FnMut(&Search<G, P>, &Progress) -> bool,
{
    let (params, proof_player, concurrent) = {
        let s = read(tree);
        (s.params.clone(), s.proof_player, s.concurrent)
    };
    let exclusive = params.algorithm == Algorithm::PnMcts;
    let shared_statistics = params.threads >= params.shared_stats;

    // The iterations this thread landed under the shared lock (`concurrent`), not yet counted.
    let mut tally = Tally::default();
    // The batch selected last, waiting for its playouts (step 3), then for its backup (the next
    // step 2); each flight's new node's moves in the list of the same index.
    let mut flights: Vec<Flight<G, P>> = Vec::with_capacity(MAX_BATCH);
    let mut selected: Vec<Flight<G, P>> = Vec::with_capacity(MAX_BATCH);
    let mut moves: Vec<MoveList> = (0..MAX_BATCH).map(|_| MoveList::new()).collect();
    // With a network, each flight's new node's priors, likewise.
    let mut priors: Vec<Vec<u16>> = vec![Vec::new(); MAX_BATCH];
    let mut exclusive_flights: Vec<ExclusiveFlight<G, P>> = Vec::with_capacity(MAX_BATCH);
    // With RAVE, each flight's selected path (for the batch in the air and the one being
    // selected) and its playout's moves, likewise.
    let rave = read(tree).knowledge.rave;
    rollout.set_tracing(rave);
    let mut paths: Vec<Vec<(NodeId, u16)>> = vec![Vec::new(); MAX_BATCH];
    let mut selected_paths: Vec<Vec<(NodeId, u16)>> = vec![Vec::new(); MAX_BATCH];
    let mut traces: Vec<Vec<(Move, u8)>> = vec![Vec::new(); MAX_BATCH];
    // With RAVE, landing beside the selections: the AMAF backup's scratch.
    let mut amaf_seen: Vec<u8> = Vec::new();
    let (mut xs, mut terms) = (Vec::new(), Vec::new());
    let mut scratch = SelectScratch::default();
    // The busy nodes' statistics this thread has not added to the tree yet.
    let mut held_stats = HeldStats::<P>::default();
    // Mean playout and selection times (ns), smoothed, for the batch size.
    let mut playout_nanos = 0u64;
    let mut descent_nanos = 0u64;
    // This thread's lock times (see `scaling.rs`); the rest of its time is outside the lock.
    let mut profile = LockProfile {
        threads: 1,
        ..LockProfile::default()
    };
    let thread_start = Instant::now();
    // When the last batch's playouts started, and how many ran: the next batch's first clock
    // reading ends them (three readings a batch, not five: at a microsecond an iteration, the
    // clock cost 2 % of a thread's time).
    let (mut playouts_started, mut playouts) = (thread_start, 0u64);
    // When this thread took the shared / exclusive lock in the current batch.
    let (mut read_held, mut write_held) = (None, None);
    loop {
        let selecting = Instant::now();
        if let Some(per) = nanos_between(playouts_started, selecting).checked_div(playouts) {
            playout_nanos = smooth(playout_nanos, per.max(1));
        }
        let tick = clock.as_mut().map_or(Tick::Go, |c| c.tick(selecting));
        if tick == Tick::Stop {
            shared.done.store(true, Ordering::Relaxed);
        }
        let want = batch_size(playout_nanos, descent_nanos, concurrent);
        // Whether step 1 took the last batch's virtual visits off (and put its statistics on).
        let mut landed_in_step_1 = false;
        // Step 1: select the next batch side by side with the other threads (and with
        // `concurrent`, land the last one first, also side by side). While the tree waits to
        // be recycled, nothing is selected, but what is in the air lands.
        if !exclusive
            && (!shared.recycle_wanted.load(Ordering::Relaxed)
                || (concurrent && !flights.is_empty()))
        {
            // One hold of the shared lock per batch, and one claim: each atomic operation on a
            // shared counter or lock moves a cache line between cores, which costs as much as a
            // fast game's whole iteration.
            let s = read(tree);
            let held = Instant::now();
            profile.shared_wait += nanos_between(selecting, held);
            read_held = Some(held);
            let s = &**s;
            // The last batch's playouts have run: its virtual visits come off (and with many
            // threads its visits and utilities go on), side by side with the other threads.
            s.take_batch_off(&flights, shared_statistics, &mut held_stats);
            landed_in_step_1 = true;
            if concurrent && !flights.is_empty() {
                land_batch(
                    s,
                    shared,
                    &mut flights,
                    &moves,
                    &priors,
                    &mut tally,
                    &mut held_stats.samples,
                    &mut xs,
                    rave.then_some(RaveBatch {
                        paths: &paths,
                        traces: &traces,
                        seen: &mut amaf_seen,
                    }),
                );
            }
            if must_stop(s, shared) {
                shared.done.store(true, Ordering::Relaxed);
            } else if !shared.recycle_wanted.load(Ordering::Relaxed) {
                let granted = claim(s, shared, want);
                let node_limited = shared.limits.nodes.is_some();
                while selected.len() < granted {
                    let flight = s.select_flight(
                        &mut rollout.rng,
                        &mut xs,
                        &mut terms,
                        &mut scratch,
                        &shared.opening,
                    );
                    if node_limited && flight.open_edge.is_some() && !claim_node(s, shared) {
                        // No room under the node limit until the flights in the air have landed.
                        s.take_flight_off(flight.node, flight.virtual_top, None, &mut held_stats);
                        shared.opening.landed(flight.node, flight.open_edge);
                        break;
                    }
                    if rave {
                        let path = &mut selected_paths[selected.len()];
                        path.clear();
                        path.extend_from_slice(&scratch.path);
                    }
                    selected.push(flight);
                }
                let unused = granted - selected.len();
                if unused > 0 {
                    shared.in_flight.fetch_sub(unused as u32, Ordering::AcqRel);
                }
            }
            if selected.is_empty() {
                // No flight of this thread in the air: nothing may stay held (see `HeldStats`).
                held_stats.flush(&s.tree, &s.spread);
            }
        }
        // One clock reading ends the selection and starts the wait for the exclusive lock.
        let selected_at = Instant::now();
        if let Some(held) = read_held.take() {
            profile.shared_hold += nanos_between(held, selected_at);
        }
        let mut selecting_nanos = nanos_between(selecting, selected_at);
        let mut selected_count = selected.len() as u64;
        // Step 2: back up the previous batch.
        let hook_now = matches!(tick, Tick::Hook(_));
        // The last iterations in flight may be this thread's: it then recycles after them.
        let recycle_due = shared.recycle_wanted.load(Ordering::Relaxed)
            && shared.in_flight.load(Ordering::Acquire) as usize == flights.len();
        let grow_due = shared.grow_wanted.load(Ordering::Relaxed);
        // With `concurrent`, the batches landed in step 1: the exclusive lock only for the
        // hook, recycling and growth.
        let landing = !concurrent && (!flights.is_empty() || !selected.is_empty());
        if exclusive || landing || hook_now || recycle_due || grow_due {
            let mut guard = write(tree);
            let held = Instant::now();
            profile.exclusive_wait += nanos_between(selected_at, held);
            write_held = Some(held);
            let s = &mut **guard;
            if !landed_in_step_1 {
                s.take_batch_off(&flights, shared_statistics, &mut held_stats);
            }
            if selected.is_empty() {
                // As in step 1: before a recycling that this thread may do below.
                held_stats.flush(&s.tree, &s.spread);
            }
            let landed = (flights.len() + exclusive_flights.len()) as u32;
            let mut creating = 0;
            for (i, mut flight) in flights.drain(..).enumerate() {
                // The edge has its node now (or never will: a full tree), under this lock.
                shared.opening.landed(flight.node, flight.open_edge);
                let backup = if shared_statistics {
                    Backup::Rest
                } else {
                    Backup::Whole
                };
                s.land(
                    &mut flight,
                    backup,
                    &moves[i],
                    &priors[i],
                    &paths[i],
                    &traces[i],
                );
                creating += u64::from(flight.open_edge.is_some());
            }
            for flight in exclusive_flights.drain(..) {
                s.finish(&flight.descent, &flight.utilities, true);
            }
            if landed > 0 {
                shared.in_flight.fetch_sub(landed, Ordering::AcqRel);
            }
            if creating > 0 && shared.limits.nodes.is_some() {
                shared.creating.fetch_sub(creating, Ordering::AcqRel);
            }
            if shared.grow_wanted.swap(false, Ordering::Relaxed) {
                // Growth moves the arenas but renumbers nothing: flights in the air keep their
                // nodes. If nothing can grow, the tree counts as full.
                s.tree.grow();
            }
            if s.needs_recycling() {
                // Recycling renumbers nodes: only with no iteration in flight anywhere.
                if shared.in_flight.load(Ordering::Acquire) == 0 {
                    shared.tally.drain_into(&mut s.stats);
                    s.recycle();
                    shared.recycle_wanted.store(false, Ordering::Relaxed);
                } else {
                    shared.recycle_wanted.store(true, Ordering::Relaxed);
                }
            } else if shared.recycle_wanted.load(Ordering::Relaxed) {
                shared.recycle_wanted.store(false, Ordering::Relaxed);
            }
            if let (Tick::Hook(elapsed), Some(c)) = (&tick, clock.as_mut()) {
                shared.tally.drain_into(&mut s.stats);
                let progress = Progress {
                    iterations: s.stats.iterations,
                    elapsed: *elapsed,
                };
                s.stats.elapsed = *elapsed;
                if !(c.hook)(s, &progress) {
                    shared.done.store(true, Ordering::Relaxed);
                }
            }
            if exclusive && must_stop(s, shared) {
                shared.done.store(true, Ordering::Relaxed);
            }
            if exclusive {
                // PN-MCTS: select, expand and put the virtual loss on, all in this hold.
                let descending = Instant::now();
                let mut tree_only = 0;
                while exclusive_flights.len() < want
                    && tree_only < HOLD_STREAK
                    && !must_stop(s, shared)
                    && !s.needs_recycling()
                    && claim(s, shared, 1) == 1
                {
                    let (descent, position) = s.descend(true);
                    match descent.utilities {
                        Some(u) => {
                            s.finish(&descent, &u, true);
                            shared.in_flight.fetch_sub(1, Ordering::AcqRel);
                            tree_only += 1;
                        }
                        None => exclusive_flights.push(ExclusiveFlight {
                            descent,
                            position,
                            utilities: [0.0; P],
                        }),
                    }
                    selected_count += 1;
                }
                selecting_nanos = descending.elapsed().as_nanos() as u64;
            }
        }
        let ran = selected_count > 0;
        if let Some(per) = selecting_nanos.checked_div(selected_count) {
            descent_nanos = smooth(descent_nanos, per.max(1));
        }
        std::mem::swap(&mut flights, &mut selected);
        std::mem::swap(&mut paths, &mut selected_paths);
        // Step 3: prepare the new nodes and run the playouts, outside the lock. (The exclusive
        // hold, if any, ended just above: its time includes handing the lock over.)
        let started = match write_held.take() {
            Some(held) => {
                let now = Instant::now();
                profile.exclusive_hold += nanos_between(held, now);
                now
            }
            None => selected_at,
        };
        (playouts_started, playouts) = (started, 0);
        for (i, flight) in flights.iter_mut().enumerate() {
            if flight.open_edge.is_some() {
                let (node, unvisited_pn) = Search::<G, P>::prepare_node(
                    &params,
                    proof_player,
                    flight.node,
                    &flight.position,
                    flight.history_end,
                    &mut moves[i],
                    &mut rollout.net,
                    &mut rollout.threats,
                    // The flight's history is not kept: games with a repetition rule are
                    // probed for wins in one only.
                    None,
                );
                std::mem::swap(&mut priors[i], &mut rollout.net.priors);
                if node.known_at_creation() {
                    flight.utilities = Some(node.lo().map(super::node::from_bound));
                } else if params.uses_network() {
                    // The network's value of the new node replaces its playout.
                    flight.utilities = Some(NetLeaf::utilities(from_im(node.im())));
                }
                flight.new_node = Some((node, unvisited_pn));
            }
            rollout.clear_trace();
            if flight.utilities.is_none() {
                flight.utilities = Some(rollout.playout(&params, flight.position.clone()));
                playouts += 1;
            }
            if rave {
                traces[i].clear();
                traces[i].extend_from_slice(rollout.trace());
            }
        }
        for flight in exclusive_flights.iter_mut() {
            flight.utilities = rollout.playout(&params, flight.position.clone());
            playouts += 1;
        }
        if shared.done.load(Ordering::Relaxed) && flights.is_empty() && exclusive_flights.is_empty()
        {
            debug_assert!(held_stats.is_empty(), "flushed when the last flight landed");
            let locked = profile.shared_wait
                + profile.shared_hold
                + profile.exclusive_wait
                + profile.exclusive_hold;
            profile.outside = (thread_start.elapsed().as_nanos() as u64).saturating_sub(locked);
            shared.profile.lock().add(&profile);
            return;
        }
        if !ran && flights.is_empty() && exclusive_flights.is_empty() {
            // Nothing to do until others land their flights (a recycling, or a limit that
            // waits for them): let them run.
            std::thread::yield_now();
        }
    }
}

#[cfg(test)]
#[path = "tests_parallel.rs"]
mod tests;
