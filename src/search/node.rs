//! Tree nodes and edges: compact, `Copy`, indexed by `u32` into the arena of `tree.rs`.
//!
//! Layout (`docs/design.md`, "The search tree"): a node owns a contiguous block of 8-byte edges, one
//! per legal move, allocated when the node is created; the child node behind an edge is created
//! only when the edge is first selected. An edge whose child does not exist yet counts as proof
//! number 1 and bounds [loss, win], as in the GPN reference.

use std::sync::atomic::{AtomicU32, Ordering};

use crate::game::Move;

/// Index of a node in the arena; [`NONE`] when absent.
pub type NodeId = u32;
/// The absent node.
pub const NONE: NodeId = u32::MAX;

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

/// One position in the tree, for a game of `P` players (36-40 bytes for two players).
#[derive(Clone, Debug)]
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
    pub proof_plies: u16,
    /// Sum of playout utilities per player.
    pub total: [Sum; P],
    /// Proof number per player: the leaves still to prove for that player to reach the best
    /// available rank (0 = proven, [`PN_INF`] = disproven).
    pub pn: [Pn; P],
    /// Pessimistic score bound per player (quantised utility).
    pub lo: [i8; P],
    /// Optimistic score bound per player.
    pub hi: [i8; P],
    /// The player to move in this position.
    pub mover: u8,
    /// [`TERMINAL`], [`PN_DIRTY`], [`CHILDREN_DROPPED`], [`THREAT`].
    pub flags: u8,
    /// Implicit minimax value for the first player (two-player games), quantised by
    /// [`IM_SCALE`]: the evaluation of a new leaf, then the minimax of its created children.
    pub im: i16,
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
            proof_plies: 0,
            total: std::array::from_fn(|_| Sum::new(0.0)),
            pn: [1; P],
            lo: [LOSS; P],
            hi: [WIN; P],
            mover,
            flags: 0,
            im: 0,
        }
    }

    #[inline]
    pub fn is_terminal(&self) -> bool {
        self.flags & TERMINAL != 0
    }

    /// Whether the node's value was known when it was created: the rules ended the game there,
    /// or the threat search proved it.
    #[inline]
    pub fn known_at_creation(&self) -> bool {
        self.flags & (TERMINAL | THREAT) != 0
    }

    /// True when the score bounds have met for every player: the exact value is known.
    #[inline]
    pub fn bounds_solved(&self) -> bool {
        self.lo == self.hi
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
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct Edge {
    pub mv: Move,
    /// The cached proof-number bias of this child, read through [`Edge::bias`]: for the rank
    /// bias the number of siblings with a smaller proof number (an integer the backup can adjust
    /// in place), for max and sum the term quantised to 0..=65535 for [0, 1].
    pub term: u16,
    pub child: NodeId,
}

impl Edge {
    pub fn new(mv: Move) -> Edge {
        Edge {
            mv,
            term: 0,
            child: NONE,
        }
    }

    /// The bias term in [0, 1] of this edge among `n` edges.
    #[inline]
    pub fn bias(&self, rank: bool, n: usize) -> f32 {
        Edge::term_bias(self.term, rank, n)
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
