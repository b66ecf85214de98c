//! The node and edge arenas: bump allocation under a hard byte cap, and in-place compaction that
//! serves both re-rooting (keep one subtree) and node recycling (keep the valuable part of the
//! tree when it is full), so resident memory never exceeds the budget over any search or game.
//!
//! # Memory model
//! Both arenas reserve their largest possible size once (address space only: a page becomes
//! resident when it is first written). The cap is enforced on the *high-water marks* of the two
//! arenas, the slots that have ever been written, so `resident_bytes()` is what the arenas can
//! hold in RAM at most and it never exceeds the budget, whatever the mix of nodes and edges over
//! time. Compaction moves the kept nodes down in place: no second arena, no copy outside the
//! budget. Its only scratch is a keep bitmap and a rank index, 1.5 bits per node.
//!
//! # Compaction
//! Nodes are created after their parents and compaction keeps their order, so a parent's index
//! is always smaller than its children's, and a node's edge block comes after its parent's. One
//! ascending pass decides what survives (a node survives if its parent does and the caller's
//! rule accepts it), a rank index over the keep bitmap gives every survivor its new index, and a
//! second ascending pass slides nodes and edge blocks down. An edge whose child was dropped
//! becomes an edge without a child; its node is flagged [`CHILDREN_DROPPED`] so that the search
//! can rebuild what it derived from the children (the node keeps its own statistics, proofs and
//! bounds: see `docs/recycling.md`).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

use super::node::{Count, Edge, Node, NodeId, Pn, Sum, BUSY, CHILDREN_DROPPED, NONE};
use super::slots::Slots;
use crate::game::Move;

/// The most children [`Tree::prefetch_children`] asks the cache for: Gomoku (225 moves) ran 5 %
/// slower on two threads with all of them fetched, Connect Four (7) 8 % faster.
const PREFETCH_MAX_CHILDREN: usize = 48;

/// Bytes of an edge's prior.
const PRIOR_BYTES: usize = std::mem::size_of::<u16>();
/// Bytes of one player's proof number for unvisited edges.
const UNVISITED_BYTES: usize = std::mem::size_of::<Pn>();
/// Bytes of a node's count of virtual visits.
const VIRTUAL_BYTES: usize = std::mem::size_of::<AtomicU32>();
/// Bytes of an edge's all-moves-as-first statistics.
const AMAF_BYTES: usize = std::mem::size_of::<AmafCell>();
/// The stored prior of probability 1.
pub const PRIOR_ONE: u16 = u16::MAX;
/// The most edges the arena indexes (a node's first edge is a `u32`).
const MAX_EDGES: usize = u32::MAX as usize;

/// Quantises a probability for [`Tree::add`].
#[inline]
pub fn to_prior(p: f32) -> u16 {
    (p.clamp(0.0, 1.0) * PRIOR_ONE as f32).round() as u16
}

/// The probability of a stored prior.
#[inline]
pub fn from_prior(p: u16) -> f32 {
    p as f32 / PRIOR_ONE as f32
}

/// An edge's all-moves-as-first (RAVE) statistics: the playouts through its node in which the
/// node's mover played the edge's move at any later turn, and the mover's utilities summed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Amaf {
    pub visits: u32,
    pub total: f32,
}

impl Amaf {
    /// The mean utility for the node's mover (0 without visits).
    #[inline]
    pub fn mean(&self) -> f32 {
        if self.visits == 0 {
            0.0
        } else {
            self.total / self.visits as f32
        }
    }
}

/// An edge's [`Amaf`] statistics as the tree keeps them. Thread safety: relaxed atomic cells, as
/// a node's visits and utilities ([`Count`], [`Sum`]), so that threads landing side by side add
/// to them; they feed selection only, never a proof.
#[derive(Debug, Default)]
pub struct AmafCell {
    visits: Count,
    total: Sum,
}

impl AmafCell {
    pub fn new(amaf: Amaf) -> AmafCell {
        AmafCell {
            visits: Count::new(amaf.visits),
            total: Sum::new(amaf.total),
        }
    }

    /// The statistics now (each field read on its own: another thread may add in between).
    #[inline]
    pub fn get(&self) -> Amaf {
        Amaf {
            visits: self.visits.get(),
            total: self.total.get(),
        }
    }

    /// Adds a playout of utility `u` with exclusive access.
    #[inline]
    pub fn add_mut(&mut self, u: f32) {
        *self.visits.get_mut() += 1;
        self.total.add_mut(u);
    }

    /// Adds a playout of utility `u` atomically (threads landing side by side).
    #[inline]
    pub fn add(&self, u: f32) {
        self.visits.add(1);
        self.total.add(u);
    }
}

/// Why [`Tree::add_shared`] made no node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The budget is spent (the tree is marked full): recycling may make room.
    Full,
    /// The arenas' reserved address space is (the system refused to reserve it all up front):
    /// [`Tree::grow`], under `&mut`, makes room.
    Room,
}

/// Node and edge counts packed in one word, so that one compare-and-swap claims both.
#[inline]
fn pack(nodes: usize, edges: usize) -> u64 {
    nodes as u64 | (edges as u64) << 32
}

#[inline]
fn unpack(lens: u64) -> (usize, usize) {
    ((lens & 0xFFFF_FFFF) as usize, (lens >> 32) as usize)
}

/// The search tree of a game of `P` players. Node 0 is the root.
///
/// Thread safety: everything but the slots of new nodes is written through `&mut self` or
/// through the atomic cells of nodes and edges. New nodes are also added through `&self`
/// ([`Tree::add_shared`]) by threads that each claim distinct slots with one compare-and-swap on
/// `lens` and publish the node afterwards through its parent's edge (a release store read with
/// acquire), so that a node is read only once it is whole.
pub struct Tree<const P: usize> {
    /// Slots `0..len()` hold the nodes.
    nodes: Slots<Node<P>>,
    /// Slots `0..edge count` hold the edges, each node's in one block.
    edges: Slots<Edge>,
    /// With a network: each edge's prior probability (x 65535), parallel to `edges` (same
    /// index, moved with it); no slots without.
    priors: Slots<u16>,
    with_priors: bool,
    /// With RAVE: each edge's all-moves-as-first statistics, parallel to `edges` like `priors`;
    /// no slots without.
    amaf: Slots<AmafCell>,
    with_amaf: bool,
    /// With proof-cost initialisation: the per-player proof numbers each node's edges without a
    /// child count as (the parent's predicted costs spread over its moves), parallel to `nodes`;
    /// no slots without, where such an edge counts as 1.
    unvisited_pn: Slots<[Pn; P]>,
    with_unvisited_pn: bool,
    /// With threads: each node's virtual visits, the iterations in flight through it (each lost
    /// for the player who chose the node), parallel to `nodes`; no slots without. Thread
    /// safety: changed through `&self` only atomically (threads add their flights' virtual
    /// visits as they select and take them back before the backup). Every count is 0 when no
    /// iteration is in flight, so compaction, which runs only then, drops the counts of the
    /// nodes it drops.
    virtual_visits: Slots<AtomicU32>,
    with_virtual_visits: bool,
    /// The node count (low 32 bits) and the edge count (high 32 bits): the slots in use.
    /// Changed through `&self` only by the compare-and-swap that claims a new node's slots.
    lens: AtomicU64,
    /// The most nodes / edges the arenas had held when last counted (under `&mut`); the slots
    /// that may be resident are these or the current counts, whichever is larger.
    node_high: usize,
    edge_high: usize,
    budget_bytes: usize,
    /// An allocation was refused for want of budget since the last compaction.
    full: AtomicBool,
    /// Counts the changes of root (a cleared tree, a new root kept from the old tree), so that
    /// what is kept beside the tree about the root's moves knows when it is out of date.
    generation: u64,
}

/// A keep bitmap with a rank index: which old node indices survive a compaction, and the new
/// index of each survivor (the number of survivors before it).
struct Survivors {
    bits: Vec<u64>,
    /// Survivors in the words before word `w`.
    rank: Vec<u32>,
}

impl Survivors {
    fn new(n: usize) -> Survivors {
        Survivors {
            bits: vec![0; n.div_ceil(64)],
            rank: Vec::new(),
        }
    }

    #[inline]
    fn set(&mut self, i: usize) {
        self.bits[i / 64] |= 1 << (i % 64);
    }

    #[inline]
    fn get(&self, i: usize) -> bool {
        self.bits[i / 64] >> (i % 64) & 1 != 0
    }

    /// Builds the rank index; returns the number of survivors.
    fn index(&mut self) -> usize {
        let mut total = 0u32;
        self.rank = self
            .bits
            .iter()
            .map(|w| {
                let before = total;
                total += w.count_ones();
                before
            })
            .collect();
        total as usize
    }

    /// The new index of surviving node `i`.
    #[inline]
    fn new_index(&self, i: usize) -> NodeId {
        let below = self.bits[i / 64] & ((1u64 << (i % 64)) - 1);
        self.rank[i / 64] + below.count_ones()
    }
}

/// Reserves `len` slots for an arena that is enabled after the tree was made; if the system
/// refuses, the arena grows on demand (and a refused growth counts as a full tree).
fn reserve_up_front<T>(arena: &mut Slots<T>, len: usize, what: &str) {
    match Slots::with_capacity(len) {
        Some(slots) => *arena = slots,
        None => log::warn!("tree: could not reserve {what} up front; growing on demand"),
    }
}

/// `len` slots, or none if the system refuses them (`refused` is then set).
fn reserve<T>(len: usize, refused: &mut bool) -> Slots<T> {
    Slots::with_capacity(len).unwrap_or_else(|| {
        *refused = true;
        Slots::new()
    })
}

impl<const P: usize> Tree<P> {
    pub const NODE_BYTES: usize = std::mem::size_of::<Node<P>>();
    pub const EDGE_BYTES: usize = std::mem::size_of::<Edge>();

    /// An empty tree whose arenas never hold more than `budget_bytes` (at least one node with
    /// 1024 edges); `with_priors` gives every edge a prior (2 more bytes an edge),
    /// `with_unvisited_pn` every node the proof numbers of its unvisited edges (4 bytes a player
    /// more a node). The address space for the largest possible arenas is reserved now; if the
    /// system refuses it, the arenas grow on demand instead (and a refused growth counts as a
    /// full tree, never an abort).
    pub fn new(budget_bytes: usize, with_priors: bool, with_unvisited_pn: bool) -> Tree<P> {
        let edge_bytes = Self::EDGE_BYTES + if with_priors { PRIOR_BYTES } else { 0 };
        let node_bytes = Self::NODE_BYTES
            + if with_unvisited_pn {
                UNVISITED_BYTES * P
            } else {
                0
            };
        let budget_bytes = budget_bytes.max(node_bytes + edge_bytes * 1024);
        let (node_slots, edge_slots) = (budget_bytes / node_bytes, budget_bytes / edge_bytes);
        let mut refused = false;
        let nodes = reserve(node_slots, &mut refused);
        let edges = reserve(edge_slots, &mut refused);
        let priors = reserve(if with_priors { edge_slots } else { 0 }, &mut refused);
        let unvisited_pn = reserve(if with_unvisited_pn { node_slots } else { 0 }, &mut refused);
        if refused {
            log::warn!("tree: could not reserve {budget_bytes} bytes up front; growing on demand");
        }
        Tree {
            nodes,
            edges,
            priors,
            with_priors,
            amaf: Slots::new(),
            with_amaf: false,
            unvisited_pn,
            with_unvisited_pn,
            virtual_visits: Slots::new(),
            with_virtual_visits: false,
            lens: AtomicU64::new(0),
            node_high: 0,
            edge_high: 0,
            budget_bytes,
            full: AtomicBool::new(false),
            generation: 0,
        }
    }

    /// The node and edge counts.
    #[inline]
    fn lens(&self) -> (usize, usize) {
        unpack(self.lens.load(Ordering::Relaxed))
    }

    /// The node and edge counts, through `&mut` (no atomic operation).
    #[inline]
    fn lens_mut(&mut self) -> (usize, usize) {
        unpack(*self.lens.get_mut())
    }

    /// Sets the counts; the high-water marks take in the counts they replace.
    fn set_lens(&mut self, nodes: usize, edges: usize) {
        let (n, e) = self.lens_mut();
        self.node_high = self.node_high.max(n);
        self.edge_high = self.edge_high.max(e);
        *self.lens.get_mut() = pack(nodes, edges);
    }

    /// Removes every node (the arenas stay allocated, at most the budget).
    pub fn clear(&mut self) {
        self.set_lens(0, 0);
        *self.full.get_mut() = false;
        self.generation += 1;
    }

    /// The root's generation: it changes whenever the root may be another position.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of nodes.
    #[inline]
    pub fn len(&self) -> usize {
        self.lens().0
    }

    /// Gives every edge all-moves-as-first statistics (8 more bytes an edge) from now on; only
    /// on an empty tree (else nothing changes). The budget stays the same, so fewer edges fit.
    pub fn enable_amaf(&mut self) {
        if !self.is_empty() || self.with_amaf {
            return;
        }
        self.with_amaf = true;
        let len = self.budget_bytes / self.edge_bytes();
        reserve_up_front(&mut self.amaf, len, "the AMAF arena");
    }

    /// Gives every node a count of virtual visits (4 more bytes a node) from now on, for a
    /// threaded search; only on an empty tree (else nothing changes). The budget stays the
    /// same, so fewer nodes fit.
    pub fn enable_virtual_visits(&mut self) {
        if !self.is_empty() || self.with_virtual_visits {
            return;
        }
        self.with_virtual_visits = true;
        let len = self.budget_bytes / self.node_bytes();
        reserve_up_front(&mut self.virtual_visits, len, "the virtual visits");
    }

    /// Whether the nodes carry counts of virtual visits.
    #[inline]
    pub fn has_virtual_visits(&self) -> bool {
        self.with_virtual_visits
    }

    /// Node `id`'s count of virtual visits, if the tree keeps them.
    #[inline]
    fn virtual_count(&self, id: NodeId) -> Option<&AtomicU32> {
        if !self.with_virtual_visits {
            return None;
        }
        self.check(id);
        // SAFETY: a node's count is written with the node, before it is published.
        Some(unsafe { self.virtual_visits.get(id as usize) })
    }

    /// Asks the cache for the nodes and virtual visits of `id`'s children before selection
    /// reads them one by one. With threads those lines were last written by another core, and
    /// asked for together their misses overlap instead of following one another. Not for a node
    /// of more than `PREFETCH_MAX_CHILDREN` children, whose lines would push others out.
    #[inline]
    pub fn prefetch_children(&self, id: NodeId) {
        let edges = self.edges(id);
        if edges.len() > PREFETCH_MAX_CHILDREN {
            return;
        }
        #[cfg(target_arch = "x86_64")]
        for edge in edges {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let child = edge.child();
            if child == NONE {
                continue;
            }
            let node: *const Node<P> = self.node(child);
            // SAFETY: a prefetch reads nothing; the address is a live node's.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(node.cast()) };
            if let Some(count) = self.virtual_count(child) {
                let count: *const AtomicU32 = count;
                // SAFETY: as above.
                unsafe { _mm_prefetch::<_MM_HINT_T0>(count.cast()) };
            }
        }
    }

    /// The virtual visits of node `id` (0 in a tree without them).
    #[inline]
    pub fn virtual_visits(&self, id: NodeId) -> u32 {
        self.virtual_count(id)
            .map_or(0, |v| v.load(Ordering::Relaxed))
    }

    /// Adds `k` virtual visits to node `id` (a tree with them); safe under the shared lock.
    #[inline]
    pub fn add_virtual_visits(&self, id: NodeId, k: u32) {
        if let Some(v) = self.virtual_count(id) {
            v.fetch_add(k, Ordering::Relaxed);
        }
    }

    /// Takes `k` virtual visits back from node `id`; safe under the shared lock.
    #[inline]
    pub fn remove_virtual_visits(&self, id: NodeId, k: u32) {
        if let Some(v) = self.virtual_count(id) {
            v.fetch_sub(k, Ordering::Relaxed);
        }
    }

    /// Whether the edges carry all-moves-as-first statistics.
    #[inline]
    pub fn has_amaf(&self) -> bool {
        self.with_amaf
    }

    /// Bytes an edge takes in the arenas (with its prior and AMAF statistics, if kept).
    #[inline]
    pub fn edge_bytes(&self) -> usize {
        Self::EDGE_BYTES
            + if self.with_priors { PRIOR_BYTES } else { 0 }
            + if self.with_amaf { AMAF_BYTES } else { 0 }
    }

    /// Bytes a node takes in the arenas (with its unvisited edges' proof numbers, if kept).
    #[inline]
    pub fn node_bytes(&self) -> usize {
        Self::NODE_BYTES
            + if self.with_unvisited_pn {
                UNVISITED_BYTES * P
            } else {
                0
            }
            + if self.with_virtual_visits {
                VIRTUAL_BYTES
            } else {
                0
            }
    }

    /// Whether the edges carry priors.
    #[inline]
    pub fn has_priors(&self) -> bool {
        self.with_priors
    }

    /// Bytes of nodes and edges in use.
    pub fn used_bytes(&self) -> usize {
        let (n, e) = self.lens();
        n * self.node_bytes() + e * self.edge_bytes()
    }

    /// Bytes the arenas have ever written since they were allocated: the most they can hold
    /// resident. Never above [`Tree::budget_bytes`].
    pub fn resident_bytes(&self) -> usize {
        let (n, e) = self.lens();
        self.node_high.max(n) * self.node_bytes() + self.edge_high.max(e) * self.edge_bytes()
    }

    pub fn budget_bytes(&self) -> usize {
        self.budget_bytes
    }

    /// True once an allocation was refused (since the last compaction or clear).
    pub fn is_full(&self) -> bool {
        self.full.load(Ordering::Relaxed)
    }

    /// The nodes and edges the arenas' reserved slots can hold.
    fn room(&self) -> (usize, usize) {
        let mut nodes = self.nodes.capacity();
        if self.with_unvisited_pn {
            nodes = nodes.min(self.unvisited_pn.capacity());
        }
        if self.with_virtual_visits {
            nodes = nodes.min(self.virtual_visits.capacity());
        }
        let mut edges = self.edges.capacity();
        if self.with_priors {
            edges = edges.min(self.priors.capacity());
        }
        if self.with_amaf {
            edges = edges.min(self.amaf.capacity());
        }
        (nodes, edges)
    }

    /// Claims the slots of one node with `k` edges, one compare-and-swap on the counts: the
    /// node's index and its first edge's.
    fn claim(&self, k: usize) -> Result<(usize, usize), Refused> {
        let (node_room, edge_room) = self.room();
        let (node_bytes, edge_bytes) = (self.node_bytes(), self.edge_bytes());
        let mut lens = self.lens.load(Ordering::Relaxed);
        loop {
            let (n, e) = unpack(lens);
            let resident =
                self.node_high.max(n + 1) * node_bytes + self.edge_high.max(e + k) * edge_bytes;
            // Indices from BUSY up are markers, never nodes.
            if resident > self.budget_bytes || n + 1 >= BUSY as usize || e + k > MAX_EDGES {
                return Err(Refused::Full);
            }
            if n + 1 > node_room || e + k > edge_room {
                return Err(Refused::Room);
            }
            match self.lens.compare_exchange_weak(
                lens,
                pack(n + 1, e + k),
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return Ok((n, e)),
                Err(now) => lens = now,
            }
        }
    }

    /// Writes a node claimed at (`n`, `e`) and its edges.
    ///
    /// # Safety
    /// The slots were claimed by this call's thread ([`Tree::claim`]) and nothing reads them
    /// until the node is published.
    unsafe fn fill(
        &self,
        (n, e): (usize, usize),
        mut node: Node<P>,
        moves: &[Move],
        priors: &[u16],
        unvisited_pn: [Pn; P],
    ) {
        node.first_edge = e as u32;
        node.num_edges = moves.len() as u16;
        for (k, &m) in moves.iter().enumerate() {
            self.edges.write(e + k, Edge::new(m));
        }
        if self.with_priors {
            let equal = (PRIOR_ONE as usize / moves.len().max(1)) as u16;
            for k in 0..moves.len() {
                let prior = if priors.len() == moves.len() {
                    priors[k]
                } else {
                    equal
                };
                self.priors.write(e + k, prior);
            }
        }
        if self.with_amaf {
            for k in 0..moves.len() {
                self.amaf.write(e + k, AmafCell::default());
            }
        }
        self.nodes.write(n, node);
        if self.with_unvisited_pn {
            self.unvisited_pn.write(n, unvisited_pn);
        }
        if self.with_virtual_visits {
            self.virtual_visits.write(n, AtomicU32::new(0));
        }
    }

    /// Adds a node with one edge per move; `None` (and the tree marked full) when the budget
    /// would be exceeded. In a tree with priors, `priors` holds each move's prior (x 65535);
    /// empty, the moves share the probability equally. Without priors it is ignored. In a tree
    /// that keeps them, `unvisited_pn` is what the node's edges count as until their children
    /// exist (see [`Tree::unvisited_pn`]); ignored otherwise.
    #[inline]
    pub fn add(
        &mut self,
        node: Node<P>,
        moves: &[Move],
        priors: &[u16],
        unvisited_pn: [Pn; P],
    ) -> Option<NodeId> {
        loop {
            match self.claim(moves.len()) {
                Ok(slots) => {
                    // SAFETY: `&mut self`: no other reader or writer.
                    unsafe { self.fill(slots, node, moves, priors, unvisited_pn) };
                    return Some(slots.0 as NodeId);
                }
                // Only when the up-front reservation was refused do the arenas grow here.
                Err(Refused::Room) if self.grow() => {}
                Err(_) => {
                    *self.full.get_mut() = true;
                    return None;
                }
            }
        }
    }

    /// [`Tree::add`] through a shared reference, for threads that add nodes side by side: the
    /// node's index, or why there is none ([`Refused::Full`] marks the tree full). The node is
    /// not yet reachable: the caller publishes it by storing its index in its parent's edge.
    ///
    /// # Safety
    /// Until then, no thread reads the new node's slots: threads reach nodes only through
    /// edges and parents, never by index up to [`Tree::len`], while nodes are added this way.
    pub unsafe fn add_shared(
        &self,
        node: Node<P>,
        moves: &[Move],
        priors: &[u16],
        unvisited_pn: [Pn; P],
    ) -> Result<NodeId, Refused> {
        match self.claim(moves.len()) {
            Ok(slots) => {
                self.fill(slots, node, moves, priors, unvisited_pn);
                Ok(slots.0 as NodeId)
            }
            Err(refused) => {
                if refused == Refused::Full {
                    self.full.store(true, Ordering::Relaxed);
                }
                Err(refused)
            }
        }
    }

    /// Doubles the arenas that hold fewer slots than the budget allows (their up-front
    /// reservation was refused), within the budget; false (and the tree marked full) if none
    /// could grow.
    pub fn grow(&mut self) -> bool {
        let (n, e) = self.lens_mut();
        let (node_bytes, edge_bytes) = (self.node_bytes(), self.edge_bytes());
        let (node_max, edge_max) = (
            self.budget_bytes / node_bytes,
            self.budget_bytes / edge_bytes,
        );
        let (node_room, edge_room) = self.room();
        let mut grown = false;
        if node_room < node_max {
            let cap = (2 * node_room).clamp(n + 1, node_max);
            let mut ok = self.nodes.grow(n, cap);
            if self.with_unvisited_pn {
                ok &= self.unvisited_pn.grow(n, cap);
            }
            if self.with_virtual_visits {
                ok &= self.virtual_visits.grow(n, cap);
            }
            grown |= ok;
        }
        if edge_room < edge_max {
            let cap = (2 * edge_room).clamp(e + 1024, edge_max.max(e + 1024));
            let mut ok = self.edges.grow(e, cap);
            if self.with_priors {
                ok &= self.priors.grow(e, cap);
            }
            if self.with_amaf {
                ok &= self.amaf.grow(e, cap);
            }
            grown |= ok;
        }
        if !grown {
            *self.full.get_mut() = true;
        }
        grown
    }

    /// Panics unless node `id` exists (the bound that makes the unsafe reads below sound).
    #[inline]
    fn check(&self, id: NodeId) {
        assert!((id as usize) < self.len(), "node {id} out of the tree");
    }

    /// The per-player proof numbers an edge of node `id` counts as while it has no child: 1
    /// (one leaf to prove) unless the tree keeps other values per node (proof-cost
    /// initialisation).
    #[inline]
    pub fn unvisited_pn(&self, id: NodeId) -> [Pn; P] {
        if self.with_unvisited_pn {
            self.check(id);
            // SAFETY: written with the node, before it was published.
            unsafe { *self.unvisited_pn.get(id as usize) }
        } else {
            [1; P]
        }
    }

    #[inline]
    pub fn node(&self, id: NodeId) -> &Node<P> {
        self.check(id);
        // SAFETY: slots below the count hold nodes; one added through `&self` is reached only
        // once published (see `add_shared`).
        unsafe { self.nodes.get(id as usize) }
    }

    #[inline]
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node<P> {
        self.check(id);
        // SAFETY: slots below the count hold nodes.
        unsafe { &mut self.nodes.range_mut(id as usize..id as usize + 1)[0] }
    }

    /// Every node, in index order (a parent before its children). Through `&mut`: with threads
    /// adding nodes, the last slots may still be written.
    pub fn nodes(&mut self) -> &[Node<P>] {
        let (n, _) = self.lens_mut();
        // SAFETY: slots below the count hold nodes, and `&mut self` excludes writers.
        unsafe { self.nodes.range_mut(0..n) }
    }

    /// Where node `id`'s edges (and their priors and AMAF statistics) stand in the arenas.
    #[inline]
    fn edge_range(&self, id: NodeId) -> std::ops::Range<usize> {
        // One load of the counts for both bounds (this runs for every node a selection reads).
        let (nodes, edges) = self.lens();
        assert!((id as usize) < nodes, "node {id} out of the tree");
        // SAFETY: slots below the count hold nodes (see `node`).
        let n = unsafe { self.nodes.get(id as usize) };
        let range = n.first_edge as usize..n.first_edge as usize + n.num_edges as usize;
        assert!(range.end <= edges, "node {id}'s edges out of the arena");
        range
    }

    /// The edges of node `id`.
    #[inline]
    pub fn edges(&self, id: NodeId) -> &[Edge] {
        // SAFETY: a node's edges are written before the node is published.
        unsafe { self.edges.range(self.edge_range(id)) }
    }

    /// The priors of node `id`'s edges (x [`PRIOR_ONE`]); empty in a tree without priors.
    #[inline]
    pub fn priors(&self, id: NodeId) -> &[u16] {
        if !self.with_priors {
            return &[];
        }
        // SAFETY: as for the edges.
        unsafe { self.priors.range(self.edge_range(id)) }
    }

    /// The AMAF statistics of node `id`'s edges; empty in a tree without them.
    #[inline]
    pub fn amaf(&self, id: NodeId) -> &[AmafCell] {
        if !self.with_amaf {
            return &[];
        }
        // SAFETY: as for the edges.
        unsafe { self.amaf.range(self.edge_range(id)) }
    }

    /// The AMAF statistics of node `id`'s edges, to update; empty in a tree without them.
    #[inline]
    pub fn amaf_mut(&mut self, id: NodeId) -> &mut [AmafCell] {
        if !self.with_amaf {
            return &mut [];
        }
        let range = self.edge_range(id);
        // SAFETY: as for the edges.
        unsafe { self.amaf.range_mut(range) }
    }

    /// The edges of node `id` (read-only) and their AMAF statistics (writable; empty in a tree
    /// without them).
    #[inline]
    pub fn edges_and_amaf_mut(&mut self, id: NodeId) -> (&[Edge], &mut [AmafCell]) {
        let range = self.edge_range(id);
        // SAFETY: as for the edges.
        unsafe {
            let amaf = if self.with_amaf {
                self.amaf.range_mut(range.clone())
            } else {
                &mut []
            };
            (self.edges.range(range), amaf)
        }
    }

    /// The priors of node `id`'s edges, to change (self-play's root noise); empty in a tree
    /// without priors.
    pub fn priors_mut(&mut self, id: NodeId) -> &mut [u16] {
        if !self.with_priors {
            return &mut [];
        }
        let range = self.edge_range(id);
        // SAFETY: as for the edges.
        unsafe { self.priors.range_mut(range) }
    }

    #[inline]
    pub fn edges_mut(&mut self, id: NodeId) -> &mut [Edge] {
        let range = self.edge_range(id);
        // SAFETY: as for the edges.
        unsafe { self.edges.range_mut(range) }
    }

    /// Both the node and its edges (for code that reads one while writing the other).
    #[inline]
    pub fn node_and_edges_mut(&mut self, id: NodeId) -> (&mut Node<P>, &mut [Edge]) {
        let range = self.edge_range(id);
        let i = id as usize;
        // SAFETY: as for `node_mut` and the edges.
        unsafe {
            (
                &mut self.nodes.range_mut(i..i + 1)[0],
                self.edges.range_mut(range),
            )
        }
    }

    /// Every node (read-only) and the edges of node `id` (writable): for passes that update edges
    /// from the children's values.
    #[inline]
    pub fn nodes_and_edges_mut(&mut self, id: NodeId) -> (&[Node<P>], &mut [Edge]) {
        let range = self.edge_range(id);
        let (n, _) = self.lens_mut();
        // SAFETY: as for `nodes` and the edges.
        unsafe { (self.nodes.range(0..n), self.edges.range_mut(range)) }
    }

    /// Makes `new_root` the root, keeping its whole subtree (statistics, proofs and bounds) and
    /// reclaiming everything else, in place. Cost: one pass over the tree.
    pub fn reroot(&mut self, new_root: NodeId) {
        self.compact(new_root, |_| true);
    }

    /// Keeps `new_root` and every node below it that `keep` accepts and whose parent is kept;
    /// drops the rest and slides the survivors down in place (their order, and so the
    /// parent-before-child invariant, is kept). `new_root` becomes node 0. Survivors that lost a
    /// child are flagged [`CHILDREN_DROPPED`]. Returns the number of nodes dropped.
    pub fn compact(&mut self, new_root: NodeId, mut keep: impl FnMut(&Node<P>) -> bool) -> usize {
        let root = new_root as usize;
        if root != 0 {
            self.generation += 1;
        }
        let (n, e) = self.lens_mut();
        // SAFETY: slots below the counts hold nodes and edges (and their parallel entries), and
        // `&mut self` excludes every other reader and writer.
        let nodes = unsafe { self.nodes.range_mut(0..n) };
        let edges = unsafe { self.edges.range_mut(0..e) };
        let mut alive = Survivors::new(n);
        alive.set(root);
        for (i, node) in nodes.iter().enumerate().skip(root + 1) {
            let parent = node.parent as usize;
            // Children come after their parents, so the parent's fate is already decided.
            if node.parent != NONE && parent >= root && alive.get(parent) && keep(node) {
                alive.set(i);
            }
        }
        let survivors = alive.index();
        let mut edge_top = 0usize;
        for i in root..n {
            if !alive.get(i) {
                continue;
            }
            let mut node = nodes[i].clone();
            let to = alive.new_index(i) as usize;
            node.parent = if i == root {
                NONE
            } else {
                alive.new_index(node.parent as usize)
            };
            let from = node.first_edge as usize;
            let count = node.num_edges as usize;
            // Survivors keep their order, so blocks only move down: copy_within is safe, and
            // so is swapping each edge down in increasing order (edges hold atomic cells, which
            // are not `Copy`; what is swapped up lies in dropped space).
            if from != edge_top {
                for k in 0..count {
                    edges.swap(edge_top + k, from + k);
                }
                // SAFETY: as above, for the parallel arenas.
                unsafe {
                    if self.with_priors {
                        self.priors
                            .range_mut(0..e)
                            .copy_within(from..from + count, edge_top);
                    }
                    if self.with_amaf {
                        // Atomic cells, not `Copy`: swapped down as the edges are.
                        let amaf = self.amaf.range_mut(0..e);
                        for k in 0..count {
                            amaf.swap(edge_top + k, from + k);
                        }
                    }
                }
            }
            for edge in &mut edges[edge_top..edge_top + count] {
                if edge.child() == NONE {
                    continue;
                }
                if alive.get(edge.child() as usize) {
                    edge.child.set(alive.new_index(edge.child() as usize));
                } else {
                    edge.child.set(NONE);
                    node.mark(CHILDREN_DROPPED);
                }
            }
            node.first_edge = edge_top as u32;
            edge_top += count;
            nodes[to] = node;
            if self.with_unvisited_pn {
                // SAFETY: as above.
                let pn = unsafe { *self.unvisited_pn.get(i) };
                self.unvisited_pn.put(to, pn);
            }
        }
        // Nothing is in flight: every count is 0, so the survivors' counts need no moving.
        #[cfg(debug_assertions)]
        if self.with_virtual_visits {
            // SAFETY: as above.
            let counts = unsafe { self.virtual_visits.range_mut(0..n) };
            debug_assert!(counts.iter_mut().all(|v| *v.get_mut() == 0));
        }
        self.set_lens(survivors, edge_top);
        *self.full.get_mut() = false;
        n - survivors
    }
}

#[cfg(test)]
#[path = "tests_tree.rs"]
mod tests;
