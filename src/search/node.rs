//! Tree nodes and edges: compact, `Copy`, indexed by `u32` into the arena of `tree.rs`.
//!
//! Layout (`docs/design.md`, "The search tree"): a node owns a contiguous block of 8-byte edges, one
//! per legal move, allocated when the node is created; the child node behind an edge is created
//! only when the edge is first selected. An edge whose child does not exist yet counts as proof
//! number 1 and bounds [loss, win], as in the GPN reference.

use std::sync::atomic::{AtomicI16, AtomicI8, AtomicU16, AtomicU32, AtomicU8, Ordering};

use crate::game::Move;

/// Index of a node in the arena; [`NONE`] when absent.
pub type NodeId = u32;
/// The absent node.
pub const NONE: NodeId = u32::MAX;
/// In an edge's child: a thread is creating the node (see [`ChildCell::claim`]); read as
/// [`NONE`]. Never a node's index.
pub const BUSY: NodeId = u32::MAX - 1;

/// A proof number: the number of leaves still to prove, saturating; [`PN_INF`] = disproven.
pub type Pn = u32;
/// Infinite proof number (the player can no longer reach the target).
pub const PN_INF: Pn = u32::MAX;

/// Adds proof numbers, saturating below [`PN_INF`] unless an operand is infinite.
#[inline]
pub fn pn_add(a: Pn, b: Pn) -> Pn {
    if a == PN_INF || b == PN_INF {
        PN_INF
    } else {
        a.saturating_add(b).min(PN_INF - 1)
    }
}

/// Score bounds are utilities on [-1, 1] quantised to `i8`: `BOUND_SCALE` is utility 1. 60 makes
/// the multi-player utilities 1/3 and 2/3 exact.
pub const BOUND_SCALE: i8 = 60;
/// The bound of a win.
pub const WIN: i8 = BOUND_SCALE;
/// The bound of a loss.
pub const LOSS: i8 = -BOUND_SCALE;

/// Quantises a utility in [-1, 1] to a bound.
#[inline]
pub fn to_bound(utility: f32) -> i8 {
    (utility * BOUND_SCALE as f32).round() as i8
}

/// The utility of a bound.
#[inline]
pub fn from_bound(bound: i8) -> f32 {
    bound as f32 / BOUND_SCALE as f32
}

/// Node flag: the position is over by the rules.
pub const TERMINAL: u8 = 1;
/// Node flag: a child's proof number changed since the bias terms were last built.
pub const PN_DIRTY: u8 = 2;
/// Node flag: recycling dropped some of this node's children (their edges lost their nodes);
/// the search rebuilds what it derived from them. Cleared by the search after the recycling.
pub const CHILDREN_DROPPED: u8 = 4;

/// Node flag: the threat search proved this node when it was created ([`super::threat`]); its
/// children, never searched, do not carry the proof, so it cannot serve as a root.
pub const THREAT: u8 = 8;

/// A node's visit count. Thread safety: the one statistic (with [`Sum`]) that threads back up
/// under the shared lock, so it is atomic; every access is relaxed (the count feeds selection,
/// never a proof), and code holding the tree exclusively reads and writes it plainly
/// ([`Count::get_mut`]), at the cost of a plain integer.
#[derive(Debug, Default)]
#[repr(transparent)]
pub struct Count(AtomicU32);

impl Count {
    pub const fn new(v: u32) -> Count {
        Count(AtomicU32::new(v))
    }

    #[inline]
    pub fn get(&self) -> u32 {
        self.0.load(Ordering::Relaxed)
    }

    #[inline]
    pub fn get_mut(&mut self) -> &mut u32 {
        self.0.get_mut()
    }

    /// Adds `k` atomically (threads under the shared lock).
    #[inline]
    pub fn add(&self, k: u32) {
        self.0.fetch_add(k, Ordering::Relaxed);
    }
}

impl Clone for Count {
    fn clone(&self) -> Count {
        Count::new(self.get())
    }
}

/// A sum of utilities (an `f32`), atomic for the same reason as [`Count`].
#[derive(Debug, Default)]
#[repr(transparent)]
pub struct Sum(AtomicU32);

impl Sum {
    pub fn new(v: f32) -> Sum {
        Sum(AtomicU32::new(v.to_bits()))
    }

    #[inline]
    pub fn get(&self) -> f32 {
        f32::from_bits(self.0.load(Ordering::Relaxed))
    }

    #[inline]
    pub fn set(&mut self, v: f32) {
        *self.0.get_mut() = v.to_bits();
    }

    /// Adds `x` with exclusive access (a plain addition).
    #[inline]
    pub fn add_mut(&mut self, x: f32) {
        let v = self.0.get_mut();
        *v = (f32::from_bits(*v) + x).to_bits();
    }

    /// Adds `x` atomically (threads under the shared lock): a compare-and-swap loop, since
    /// there is no atomic floating-point addition.
    #[inline]
    pub fn add(&self, x: f32) {
        let mut old = self.0.load(Ordering::Relaxed);
        loop {
            let new = (f32::from_bits(old) + x).to_bits();
            match self
                .0
                .compare_exchange_weak(old, new, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => return,
                Err(current) => old = current,
            }
        }
    }
}

impl Clone for Sum {
    fn clone(&self) -> Sum {
        Sum::new(self.get())
    }
}

/// Declares a relaxed atomic cell over an integer: a field that threads may read while another
/// writes it. Every access is relaxed (on x86 a plain load or store), so the single-threaded
/// search pays nothing; what a multi-field value needs (a proof never taken back, bounds that
/// only tighten) is kept by the writers, as [`Node`] says.
macro_rules! relaxed_cell {
    ($(#[$doc:meta])* $name:ident, $atomic:ty, $int:ty) => {
        $(#[$doc])*
        #[derive(Debug, Default)]
        #[repr(transparent)]
        pub struct $name($atomic);

        impl $name {
            pub const fn new(v: $int) -> $name {
                $name(<$atomic>::new(v))
            }

            #[inline]
            pub fn get(&self) -> $int {
                self.0.load(Ordering::Relaxed)
            }

            /// Stores `v` (a relaxed store: safe beside readers in other threads).
            #[inline]
            pub fn set(&self, v: $int) {
                self.0.store(v, Ordering::Relaxed)
            }

            #[inline]
            pub fn get_mut(&mut self) -> &mut $int {
                self.0.get_mut()
            }

            /// The atomic itself, for read-modify-write operations.
            #[inline]
            pub fn atomic(&self) -> &$atomic {
                &self.0
            }
        }

        impl Clone for $name {
            fn clone(&self) -> $name {
                $name::new(self.get())
            }
        }
    };
}

relaxed_cell!(
    /// A proof number that threads may read while another thread writes it.
    PnCell, AtomicU32, Pn
);
relaxed_cell!(
    /// A score bound that threads may read while another thread writes it.
    BoundCell, AtomicI8, i8
);
relaxed_cell!(
    /// A node's flags, read and written like [`PnCell`].
    FlagCell, AtomicU8, u8
);
relaxed_cell!(
    /// A quantised minimax value, read and written like [`PnCell`].
    ImCell, AtomicI16, i16
);
relaxed_cell!(
    /// A small count (a proof's plies, an edge's bias term), read and written like [`PnCell`].
    U16Cell, AtomicU16, u16
);
/// An edge's child: the node's index, [`NONE`], or [`BUSY`] while a thread creates it.
///
/// Thread safety: the index is stored with release ordering and loaded with acquire, so that a
/// thread that finds a child also finds the node and its edges written whole (a node is written
/// into its slots before its index is stored here; on x86 both orderings are plain moves). Of the
/// threads that land on an edge without a child at once, the one whose [`ChildCell::claim`]
/// succeeds creates the node; the others wait for it in [`ChildCell::wait`].
#[derive(Debug)]
#[repr(transparent)]
pub struct ChildCell(AtomicU32);

impl ChildCell {
    pub const fn new(id: NodeId) -> ChildCell {
        ChildCell(AtomicU32::new(id))
    }

    /// The child ([`NONE`] while there is none, or while it is being created).
    #[inline]
    pub fn get(&self) -> NodeId {
        match self.0.load(Ordering::Acquire) {
            BUSY => NONE,
            id => id,
        }
    }

    /// Stores (publishes) the child.
    #[inline]
    pub fn set(&self, id: NodeId) {
        self.0.store(id, Ordering::Release)
    }

    /// Claims the creation of the child: true if the edge had none and this thread now alone
    /// creates it (it then stores the child, or [`NONE`] if it could not create one).
    #[inline]
    pub fn claim(&self) -> bool {
        self.0
            .compare_exchange(NONE, BUSY, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
    }

    /// The child another thread is creating, once it is there ([`NONE`] if it could not be
    /// created); does not wait when no thread is creating one.
    pub fn wait(&self) -> NodeId {
        loop {
            match self.0.load(Ordering::Acquire) {
                BUSY => std::hint::spin_loop(),
                id => return id,
            }
        }
    }
}

impl Clone for ChildCell {
    fn clone(&self) -> ChildCell {
        ChildCell::new(self.get())
    }
}

/// One position in the tree, for a game of `P` players (36-40 bytes for two players).
///
/// Thread safety: every field a search changes after the node's creation is a relaxed atomic
/// cell, so threads may read a node while another writes it. What each cell holds stays true
/// under such races because writers keep the facts monotone: a proof number of 0 or
/// [`PN_INF`] is never changed back, a pessimistic bound only rises and an optimistic one only
/// falls (a bound computed from children read mid-update is still a bound, only looser), and
/// readers that need several fields at once (a solved node's value) read facts that can only
/// have accumulated. The rest (`first_edge`, `parent`, `num_edges`, `mover`) is written before
/// the node is published through its parent's edge and only by code holding the tree
/// exclusively afterwards (compaction).
#[derive(Debug)]
#[repr(C)]
pub struct Node<const P: usize> {
    /// First of this node's `num_edges` edges in the edge arena.
    pub first_edge: u32,
    /// The parent node ([`NONE`] at the root).
    pub parent: NodeId,
    /// Completed iterations through this node.
    pub visits: Count,
    /// Number of legal moves (0 for a terminal node).
    pub num_edges: u16,
    /// Plies to the end of the game when the node is solved (0 at a terminal node).
    pub proof_plies: U16Cell,
    /// Sum of playout utilities per player.
    pub total: [Sum; P],
    /// Proof number per player: the leaves still to prove for that player to reach the best
    /// available rank (0 = proven, [`PN_INF`] = disproven).
    pub pn: [PnCell; P],
    /// Pessimistic score bound per player (quantised utility).
    pub lo: [BoundCell; P],
    /// Optimistic score bound per player.
    pub hi: [BoundCell; P],
    /// The player to move in this position.
    pub mover: u8,
    /// [`TERMINAL`], [`PN_DIRTY`], [`CHILDREN_DROPPED`], [`THREAT`].
    pub flags: FlagCell,
    /// Implicit minimax value for the first player (two-player games), quantised by
    /// [`IM_SCALE`]: the evaluation of a new leaf, then the minimax of its created children.
    pub im: ImCell,
}

impl<const P: usize> Clone for Node<P> {
    fn clone(&self) -> Node<P> {
        Node {
            first_edge: self.first_edge,
            parent: self.parent,
            visits: self.visits.clone(),
            num_edges: self.num_edges,
            proof_plies: self.proof_plies.clone(),
            total: self.total.clone(),
            pn: self.pn.clone(),
            lo: self.lo.clone(),
            hi: self.hi.clone(),
            mover: self.mover,
            flags: self.flags.clone(),
            im: self.im.clone(),
        }
    }
}

/// The scale of [`Node::im`]: 32767 is utility 1.
pub const IM_SCALE: f32 = 32767.0;

/// Quantises a value in [-1, 1] for [`Node::im`].
#[inline]
pub fn to_im(value: f32) -> i16 {
    (value.clamp(-1.0, 1.0) * IM_SCALE).round() as i16
}

/// The value in [-1, 1] of a quantised [`Node::im`].
#[inline]
pub fn from_im(im: i16) -> f32 {
    im as f32 / IM_SCALE
}

const _: () = assert!(
    std::mem::size_of::<Node<2>>() <= 40,
    "two-player node over 40 bytes"
);
const _: () = assert!(std::mem::size_of::<Edge>() == 8, "edge is not 8 bytes");

impl<const P: usize> Node<P> {
    /// A fresh, unvisited node with unknown value.
    pub fn new(parent: NodeId, mover: u8) -> Node<P> {
        Node {
            first_edge: 0,
            parent,
            visits: Count::new(0),
            num_edges: 0,
            proof_plies: U16Cell::new(0),
            total: std::array::from_fn(|_| Sum::new(0.0)),
            pn: std::array::from_fn(|_| PnCell::new(1)),
            lo: std::array::from_fn(|_| BoundCell::new(LOSS)),
            hi: std::array::from_fn(|_| BoundCell::new(WIN)),
            mover,
            flags: FlagCell::new(0),
            im: ImCell::new(0),
        }
    }

    /// The proof numbers, one per player.
    #[inline]
    pub fn pn(&self) -> [Pn; P] {
        std::array::from_fn(|p| self.pn[p].get())
    }

    /// The pessimistic bounds, one per player.
    #[inline]
    pub fn lo(&self) -> [i8; P] {
        std::array::from_fn(|p| self.lo[p].get())
    }

    /// The optimistic bounds, one per player.
    #[inline]
    pub fn hi(&self) -> [i8; P] {
        std::array::from_fn(|p| self.hi[p].get())
    }

    #[inline]
    pub fn set_pn(&self, pn: [Pn; P]) {
        for (cell, v) in self.pn.iter().zip(pn) {
            cell.set(v);
        }
    }

    #[inline]
    pub fn set_lo(&self, lo: [i8; P]) {
        for (cell, v) in self.lo.iter().zip(lo) {
            cell.set(v);
        }
    }

    #[inline]
    pub fn set_hi(&self, hi: [i8; P]) {
        for (cell, v) in self.hi.iter().zip(hi) {
            cell.set(v);
        }
    }

    #[inline]
    pub fn flags(&self) -> u8 {
        self.flags.get()
    }

    /// Sets `flag` (with the node held exclusively: a plain or).
    #[inline]
    pub fn mark(&mut self, flag: u8) {
        *self.flags.get_mut() |= flag;
    }

    /// Clears `flag`, likewise.
    #[inline]
    pub fn unmark(&mut self, flag: u8) {
        *self.flags.get_mut() &= !flag;
    }

    #[inline]
    pub fn im(&self) -> i16 {
        self.im.get()
    }

    #[inline]
    pub fn proof_plies(&self) -> u16 {
        self.proof_plies.get()
    }

    #[inline]
    pub fn is_terminal(&self) -> bool {
        self.flags() & TERMINAL != 0
    }

    /// Whether the node's value was known when it was created: the rules ended the game there,
    /// or the threat search proved it.
    #[inline]
    pub fn known_at_creation(&self) -> bool {
        self.flags() & (TERMINAL | THREAT) != 0
    }

    /// True when the score bounds have met for every player: the exact value is known.
    #[inline]
    pub fn bounds_solved(&self) -> bool {
        self.lo() == self.hi()
    }

    /// Adds `visits` visits whose utilities sum to `sums`, with atomic additions (threads
    /// side by side).
    #[inline]
    pub fn add_visits(&self, visits: u32, sums: &[f32; P]) {
        self.visits.add(visits);
        for (total, &sum) in self.total.iter().zip(sums) {
            total.add(sum);
        }
    }

    /// The mean utility for player `p` (0 without visits).
    #[inline]
    pub fn mean(&self, p: usize) -> f32 {
        let visits = self.visits.get();
        if visits == 0 {
            0.0
        } else {
            self.total[p].get() / visits as f32
        }
    }
}

/// A legal move of a node, with the child behind it and the cached proof-number bias term.
/// Thread safety: `child` and `term` are relaxed cells, like a [`Node`]'s values.
#[derive(Debug)]
#[repr(C)]
pub struct Edge {
    pub mv: Move,
    /// The cached proof-number bias of this child, read through [`Edge::bias`]: for the rank
    /// bias the number of siblings with a smaller proof number (an integer the backup can adjust
    /// in place), for max and sum the term quantised to 0..=65535 for [0, 1].
    pub term: U16Cell,
    pub child: ChildCell,
}

impl Clone for Edge {
    fn clone(&self) -> Edge {
        Edge {
            mv: self.mv,
            term: self.term.clone(),
            child: self.child.clone(),
        }
    }
}

impl Edge {
    pub fn new(mv: Move) -> Edge {
        Edge {
            mv,
            term: U16Cell::new(0),
            child: ChildCell::new(NONE),
        }
    }

    /// The node behind this edge ([`NONE`]: none yet).
    #[inline]
    pub fn child(&self) -> NodeId {
        self.child.get()
    }

    #[inline]
    pub fn term(&self) -> u16 {
        self.term.get()
    }

    /// The bias term in [0, 1] of this edge among `n` edges.
    #[inline]
    pub fn bias(&self, rank: bool, n: usize) -> f32 {
        Edge::term_bias(self.term(), rank, n)
    }

    /// The bias in [0, 1] that the cached term `term` stands for, among `n` edges.
    #[inline]
    pub fn term_bias(term: u16, rank: bool, n: usize) -> f32 {
        if rank {
            // PNRank = 1 - rank / n, with rank = 1 + the siblings below (competition ranking).
            (n - 1 - term as usize) as f32 / n as f32
        } else {
            term as f32 * (1.0 / 65535.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pn_addition_saturates_and_keeps_infinity() {
        assert_eq!(pn_add(1, 2), 3);
        assert_eq!(pn_add(PN_INF - 5, 10), PN_INF - 1);
        assert_eq!(pn_add(PN_INF, 0), PN_INF);
        assert_eq!(pn_add(0, PN_INF), PN_INF);
    }

    #[test]
    fn bounds_quantise_multi_player_utilities_exactly() {
        for u in [-1.0f32, -1.0 / 3.0, 0.0, 1.0 / 3.0, 0.5, 1.0] {
            assert!((from_bound(to_bound(u)) - u).abs() < 1e-6, "{u}");
        }
    }
}
