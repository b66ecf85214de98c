//! The chess core shared by Los Alamos chess, Reach Chess and Skirmish: bitboards, move generation, copy-make.
//!
//! Every board lives in the 8x8 square numbering `rank * 8 + file` (a1 = 0, h8 = 63); a smaller
//! board (Los Alamos' 6x6) is the lower-left corner, and every attack set is masked with the
//! variant's board. As no piece ever stands outside that corner, sliding rays that leave the board
//! only cross empty squares, which the mask then drops. A [`Variant`] fixes the size, the pieces,
//! whether check rules exist (Skirmish has none: kings are captured like anything else), the
//! pawn double step with en passant, castling and the promotion choices.
//!
//! Move packing: from square in bits 0-5, to square in bits 6-11, a flag in bits 12-15
//! (promotion piece, en passant, castling); [`PASS`] is the forced pass of Reach Chess.

pub mod losalamos;
pub mod reachchess;
pub mod skirmish;

use std::fmt::Debug;
use std::marker::PhantomData;

use super::{GameError, Move, MoveList};

pub const PAWN: usize = 0;
pub const KNIGHT: usize = 1;
pub const BISHOP: usize = 2;
pub const ROOK: usize = 3;
pub const QUEEN: usize = 4;
pub const KING: usize = 5;

/// Mailbox code of an empty square (pieces are `color * 6 + kind`).
const EMPTY: u8 = 12;
/// "No en-passant square".
const NO_SQ: u8 = 64;

const FLAG_EP: u16 = 5;
const FLAG_CASTLE: u16 = 6;
/// The forced pass (Reach Chess only).
pub const PASS: Move = Move(0xFFFF);

const PIECE_CHARS: [u8; 12] = *b"PNBRQKpnbrqk";

/// Castling rights bits: white king side, white queen side, black king side, black queen side.
const WK: u8 = 1;
const WQ: u8 = 2;
const BK: u8 = 4;
const BQ: u8 = 8;

/// What distinguishes one chess-family game's board and moves from another's.
pub trait Variant: 'static + Clone + PartialEq + Eq + Debug + Send + Sync {
    const FILES: usize;
    const RANKS: usize;
    /// Moves that leave one's own king attacked are illegal (false: kings are captured).
    const CHECK_RULES: bool;
    /// Pawn double step from the second rank, with en passant.
    const DOUBLE_STEP: bool;
    const CASTLING: bool;
    /// Promotion choices on the last rank, best first; empty: a pawn just lands there.
    const PROMOTIONS: &'static [usize];
    /// Piece letters the board may hold (upper case).
    const PIECES: &'static str;
    /// Zobrist table id.
    const ZOBRIST: u64;
}

const fn board_mask(files: usize, ranks: usize) -> u64 {
    let mut m = 0u64;
    let mut r = 0;
    while r < ranks {
        let mut f = 0;
        while f < files {
            m |= 1 << (r * 8 + f);
            f += 1;
        }
        r += 1;
    }
    m
}

// ---------------------------------------------------------------------------------------------
// Attack tables (8x8, computed at compile time)

/// Directions as (file step, rank step): N, NE, E, NW are "positive" (the square index grows),
/// S, SW, W, SE "negative".
const DIRS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (-1, 1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (1, -1),
];

const fn step_table(steps: &[(i32, i32)]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        while i < steps.len() {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                t[sq] |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

const KNIGHT_ATT: [u64; 64] = step_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
const KING_ATT: [u64; 64] = step_table(&DIRS);
/// Squares a pawn of each color attacks.
const PAWN_ATT: [[u64; 64]; 2] = [
    step_table(&[(-1, 1), (1, 1)]),
    step_table(&[(-1, -1), (1, -1)]),
];

const fn ray_tables() -> [[u64; 64]; 8] {
    let mut t = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
            loop {
                f += DIRS[d].0;
                r += DIRS[d].1;
                if f < 0 || f >= 8 || r < 0 || r >= 8 {
                    break;
                }
                t[d][sq] |= 1 << (r * 8 + f);
            }
            sq += 1;
        }
        d += 1;
    }
    t
}

const RAYS: [[u64; 64]; 8] = ray_tables();

/// Squares strictly between two aligned squares (0 if not aligned), and the whole line through
/// them (0 if not aligned).
const fn between_and_line() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let ray = RAYS[d][a];
            let opposite = RAYS[(d + 4) % 8][a];
            let mut b = 0;
            while b < 64 {
                if ray & (1 << b) != 0 {
                    // b lies on ray d from a: between = ray from a minus ray from b minus b.
                    between[a][b] = ray & !RAYS[d][b] & !(1 << b);
                    line[a][b] = ray | opposite | (1 << a);
                }
                b += 1;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static BETWEEN_LINE: ([[u64; 64]; 64], [[u64; 64]; 64]) = between_and_line();

#[inline(always)]
fn between(a: usize, b: usize) -> u64 {
    BETWEEN_LINE.0[a][b]
}

#[inline(always)]
fn line(a: usize, b: usize) -> u64 {
    BETWEEN_LINE.1[a][b]
}

#[inline(always)]
fn ray_up(d: usize, sq: usize, occ: u64) -> u64 {
    let r = RAYS[d][sq];
    // The square 63 has no positive ray, so a missing blocker costs nothing.
    let b = (r & occ) | (1 << 63);
    r ^ RAYS[d][b.trailing_zeros() as usize]
}

#[inline(always)]
fn ray_down(d: usize, sq: usize, occ: u64) -> u64 {
    let r = RAYS[d][sq];
    let b = (r & occ) | 1;
    r ^ RAYS[d][63 - b.leading_zeros() as usize]
}

#[inline(always)]
pub fn rook_attacks(sq: usize, occ: u64) -> u64 {
    ray_up(0, sq, occ) | ray_up(2, sq, occ) | ray_down(4, sq, occ) | ray_down(6, sq, occ)
}

#[inline(always)]
pub fn bishop_attacks(sq: usize, occ: u64) -> u64 {
    ray_up(1, sq, occ) | ray_up(3, sq, occ) | ray_down(5, sq, occ) | ray_down(7, sq, occ)
}

/// Castling-rights bits that survive a move from or to each square (8x8).
const fn castle_keep() -> [u8; 64] {
    let mut t = [0xFu8; 64];
    t[0] = !WQ & 0xF;
    t[4] = !(WK | WQ) & 0xF;
    t[7] = !WK & 0xF;
    t[56] = !BQ & 0xF;
    t[60] = !(BK | BQ) & 0xF;
    t[63] = !BK & 0xF;
    t
}
const CASTLE_KEEP: [u8; 64] = castle_keep();

#[inline(always)]
fn bits(mut b: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let s = b.trailing_zeros() as usize;
            b &= b - 1;
            Some(s)
        }
    })
}

#[inline(always)]
fn pack(from: usize, to: usize, flag: u16) -> Move {
    Move(from as u16 | (to as u16) << 6 | flag << 12)
}

#[inline(always)]
pub fn move_from(m: Move) -> usize {
    (m.0 & 63) as usize
}

#[inline(always)]
pub fn move_to(m: Move) -> usize {
    (m.0 >> 6 & 63) as usize
}

#[inline(always)]
fn move_flag(m: Move) -> u16 {
    m.0 >> 12
}

/// Where generated moves go: a list, or a counter.
pub trait Sink {
    fn add(&mut self, m: Move);
    /// Ordinary moves from `from` to every square of `targets`.
    fn add_set(&mut self, from: usize, targets: u64);
    /// Promotions from `from` to every square of `targets`, one per piece in `kinds`.
    fn add_promotions(&mut self, from: usize, targets: u64, kinds: &[usize]);
}

impl Sink for MoveList {
    #[inline(always)]
    fn add(&mut self, m: Move) {
        self.push(m);
    }
    #[inline(always)]
    fn add_set(&mut self, from: usize, targets: u64) {
        for to in bits(targets) {
            self.push(pack(from, to, 0));
        }
    }
    #[inline(always)]
    fn add_promotions(&mut self, from: usize, targets: u64, kinds: &[usize]) {
        for to in bits(targets) {
            for &k in kinds {
                self.push(pack(from, to, k as u16));
            }
        }
    }
}

/// Counts moves without writing them (perft's bulk counting).
#[derive(Default)]
pub struct Counter(pub usize);

impl Sink for Counter {
    #[inline(always)]
    fn add(&mut self, _m: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn add_set(&mut self, _from: usize, targets: u64) {
        self.0 += targets.count_ones() as usize;
    }
    #[inline(always)]
    fn add_promotions(&mut self, _from: usize, targets: u64, kinds: &[usize]) {
        self.0 += targets.count_ones() as usize * kinds.len();
    }
}

/// What a move did, for the games' counters.
#[derive(Clone, Copy, Debug)]
pub struct MoveEffect {
    pub capture: bool,
    pub pawn: bool,
    pub promotion: bool,
}

/// A chess-family board: pieces, side to move, castling rights, en-passant square, hash.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Board<V: Variant> {
    /// Pieces by kind (both colors).
    kinds: [u64; 6],
    /// Pieces by color.
    colors: [u64; 2],
    mailbox: [u8; 64],
    side: u8,
    castling: u8,
    /// The square a double-stepping pawn passed over, only when an enemy pawn could take it.
    ep: u8,
    hash: u64,
    variant: PhantomData<V>,
}

/// Squares at least `margin` files and ranks away from every edge of a `files` x `ranks` board.
const fn inner_mask(files: usize, ranks: usize, margin: usize) -> u64 {
    board_mask(files - margin, ranks - margin)
        & !board_mask(files, margin)
        & !{
            // Files below `margin`.
            let mut m = 0u64;
            let mut r = 0;
            while r < ranks {
                let mut f = 0;
                while f < margin {
                    m |= 1 << (r * 8 + f);
                    f += 1;
                }
                r += 1;
            }
            m
        }
}

/// Conventional piece values in pawns (P, N, B, R, Q; the king counts 0 here: each game that
/// can lose its king weights it itself).
pub const PIECE_VALUES: [i32; 6] = [1, 3, 3, 5, 9, 0];

impl<V: Variant> Board<V> {
    pub const MASK: u64 = board_mask(V::FILES, V::RANKS);
    const LAST_RANK: [u64; 2] = [
        board_mask(V::FILES, V::RANKS) & !board_mask(V::FILES, V::RANKS - 1),
        board_mask(V::FILES, 1),
    ];
    /// Ranks from which a pawn may double-step (third rank after one step, as in set-wise code).
    const THIRD_RANK: [u64; 2] = [
        board_mask(V::FILES, 3) & !board_mask(V::FILES, 2),
        board_mask(V::FILES, V::RANKS - 2) & !board_mask(V::FILES, V::RANKS - 3),
    ];
    const Z: &'static [u64; 801] = &super::zobrist::keys::<801>(V::ZOBRIST);
    const Z_CASTLE: usize = 768;
    const Z_EP: usize = 784;
    const Z_SIDE: usize = 800;

    /// The central squares: two files and ranks in from each edge (d4-e5 widened to c3-f6 on
    /// 8x8, c3-d4 on 6x6).
    const CENTRE: u64 = inner_mask(V::FILES, V::RANKS, 2);
    /// One file and rank in from each edge.
    const INNER: u64 = inner_mask(V::FILES, V::RANKS, 1);

    /// White's material minus black's, by `values` per piece kind (popcounts only).
    #[inline]
    pub fn material(&self, values: &[i32; 6]) -> i32 {
        let (w, b) = (self.colors[0], self.colors[1]);
        let mut sum = 0;
        for (k, &v) in values.iter().enumerate() {
            if v != 0 {
                let bb = self.kinds[k];
                sum += v * ((bb & w).count_ones() as i32 - (bb & b).count_ones() as i32);
            }
        }
        sum
    }

    /// White's minus black's count of pieces (pawns and kings excluded) on the central squares,
    /// plus half a point per such piece one ring further out: a small centralisation term.
    #[inline]
    pub fn centralisation(&self) -> f32 {
        let minor = !(self.kinds[PAWN] | self.kinds[KING]);
        let (w, b) = (self.colors[0] & minor, self.colors[1] & minor);
        let centre =
            (w & Self::CENTRE).count_ones() as i32 - (b & Self::CENTRE).count_ones() as i32;
        let inner = (w & Self::INNER).count_ones() as i32 - (b & Self::INNER).count_ones() as i32;
        centre as f32 + 0.5 * inner as f32
    }

    /// White's minus black's summed rank advancement (ranks from each side's own back rank) of
    /// the pieces in `set`.
    #[inline]
    pub fn advancement(&self, set: u64) -> i32 {
        let (w, b) = (self.colors[0] & set, self.colors[1] & set);
        let mut sum = 0;
        for r in 0..V::RANKS {
            let rank = 0xFFu64 << (8 * r);
            sum += r as i32 * (w & rank).count_ones() as i32
                - (V::RANKS - 1 - r) as i32 * (b & rank).count_ones() as i32;
        }
        sum
    }

    /// Whether the legal move `m` captures (en passant included); the pass captures nothing.
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        m != PASS && (self.mailbox[move_to(m)] != EMPTY || move_flag(m) == FLAG_EP)
    }

    /// Whether the legal move `m` captures or promotes.
    #[inline]
    pub fn is_noisy(&self, m: Move) -> bool {
        self.is_capture(m) || (m != PASS && (1..=4).contains(&move_flag(m)))
    }

    pub fn empty() -> Self {
        Board {
            kinds: [0; 6],
            colors: [0; 2],
            mailbox: [EMPTY; 64],
            side: 0,
            castling: 0,
            ep: NO_SQ,
            hash: 0,
            variant: PhantomData,
        }
    }

    /// A board from a FEN board field of the standard back-rank order (`RNBQKBNR` style).
    pub fn from_rows(rows: &str) -> Self {
        let mut b = Self::empty();
        b.read_board_field(rows).expect("start position parses");
        b.castling = if V::CASTLING { WK | WQ | BK | BQ } else { 0 };
        b.hash = b.compute_hash();
        b
    }

    #[inline(always)]
    pub fn side(&self) -> usize {
        self.side as usize
    }

    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.colors[0] | self.colors[1]
    }

    #[inline(always)]
    pub fn color(&self, c: usize) -> u64 {
        self.colors[c]
    }

    #[inline(always)]
    pub fn kind(&self, k: usize) -> u64 {
        self.kinds[k]
    }

    #[inline(always)]
    pub fn pieces(&self, c: usize, k: usize) -> u64 {
        self.colors[c] & self.kinds[k]
    }

    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in 0..64 {
            let p = self.mailbox[sq];
            if p != EMPTY {
                h ^= Self::Z[p as usize * 64 + sq];
            }
        }
        h ^= Self::Z[Self::Z_CASTLE + self.castling as usize];
        if self.ep != NO_SQ {
            h ^= Self::Z[Self::Z_EP + (self.ep % 8) as usize];
        }
        if self.side == 1 {
            h ^= Self::Z[Self::Z_SIDE];
        }
        h
    }

    #[inline(always)]
    fn put(&mut self, color: usize, kind: usize, sq: usize) {
        let bit = 1u64 << sq;
        self.kinds[kind] |= bit;
        self.colors[color] |= bit;
        let p = color * 6 + kind;
        self.mailbox[sq] = p as u8;
        self.hash ^= Self::Z[p * 64 + sq];
    }

    #[inline(always)]
    fn remove(&mut self, sq: usize) {
        let p = self.mailbox[sq] as usize;
        debug_assert!(p != EMPTY as usize);
        let bit = 1u64 << sq;
        self.kinds[p % 6] ^= bit;
        self.colors[p / 6] ^= bit;
        self.mailbox[sq] = EMPTY;
        self.hash ^= Self::Z[p * 64 + sq];
    }

    /// Pieces of `by` attacking `sq` with occupancy `occ`.
    #[inline(always)]
    pub fn attackers(&self, sq: usize, by: usize, occ: u64) -> u64 {
        let them = self.colors[by];
        let rq = self.kinds[ROOK] | self.kinds[QUEEN];
        let bq = self.kinds[BISHOP] | self.kinds[QUEEN];
        them & ((KNIGHT_ATT[sq] & self.kinds[KNIGHT])
            | (KING_ATT[sq] & self.kinds[KING])
            | (PAWN_ATT[by ^ 1][sq] & self.kinds[PAWN])
            | (rook_attacks(sq, occ) & rq)
            | (bishop_attacks(sq, occ) & bq))
    }

    /// The king square of `c`, if it has a king.
    #[inline(always)]
    pub fn king_square(&self, c: usize) -> Option<usize> {
        let k = self.pieces(c, KING);
        (k != 0).then(|| k.trailing_zeros() as usize)
    }

    /// Whether the side to move has a king and it is attacked.
    pub fn in_check(&self) -> bool {
        let us = self.side();
        self.king_square(us)
            .is_some_and(|k| self.attackers(k, us ^ 1, self.occupied()) != 0)
    }

    /// Generates the moves of the side to move: legal ones when the variant has check rules and
    /// the side has a king, pseudo-legal ones otherwise.
    #[inline(always)]
    pub fn generate<S: Sink>(&self, sink: &mut S) {
        let us = self.side();
        let them = us ^ 1;
        let own = self.colors[us];
        let opp = self.colors[them];
        let occ = own | opp;
        let king = self.pieces(us, KING);
        let legal = V::CHECK_RULES && king != 0;
        let mut target = !own & Self::MASK;
        let mut pinned = 0u64;
        let mut ksq = 0;
        let mut checkers = 0u64;
        if legal {
            ksq = king.trailing_zeros() as usize;
            checkers = self.attackers(ksq, them, occ);
            // King steps onto squares the enemy does not attack once the king has left.
            let occ_without_king = occ ^ king;
            for to in bits(KING_ATT[ksq] & target) {
                if self.attackers(to, them, occ_without_king) == 0 {
                    sink.add(pack(ksq, to, 0));
                }
            }
            if checkers & checkers.wrapping_sub(1) != 0 {
                return; // double check: only the king moves
            }
            if checkers != 0 {
                let c = checkers.trailing_zeros() as usize;
                target &= between(ksq, c) | checkers;
            }
            let snipers = opp
                & ((rook_attacks(ksq, opp) & (self.kinds[ROOK] | self.kinds[QUEEN]))
                    | (bishop_attacks(ksq, opp) & (self.kinds[BISHOP] | self.kinds[QUEEN])));
            for s in bits(snipers) {
                let b = between(ksq, s) & occ;
                if b & b.wrapping_sub(1) == 0 && b & own != 0 {
                    pinned |= b;
                }
            }
        } else if king != 0 {
            let k = king.trailing_zeros() as usize;
            sink.add_set(k, KING_ATT[k] & target);
        }
        let pin_line = |sq: usize| -> u64 {
            if pinned & (1 << sq) != 0 {
                line(ksq, sq)
            } else {
                !0
            }
        };
        for sq in bits(self.pieces(us, KNIGHT) & !pinned) {
            sink.add_set(sq, KNIGHT_ATT[sq] & target);
        }
        for sq in bits(own & (self.kinds[BISHOP] | self.kinds[QUEEN])) {
            sink.add_set(sq, bishop_attacks(sq, occ) & target & pin_line(sq));
        }
        for sq in bits(own & (self.kinds[ROOK] | self.kinds[QUEEN])) {
            sink.add_set(sq, rook_attacks(sq, occ) & target & pin_line(sq));
        }
        self.generate_pawns(sink, target, pinned, ksq, legal);
        if V::CASTLING && self.castling != 0 && checkers == 0 {
            self.generate_castling(sink, legal);
        }
    }

    #[inline(always)]
    fn generate_pawns<S: Sink>(
        &self,
        sink: &mut S,
        target: u64,
        pinned: u64,
        ksq: usize,
        legal: bool,
    ) {
        let us = self.side();
        let opp = self.colors[us ^ 1];
        let empty = !self.occupied() & Self::MASK;
        let pawns = self.pieces(us, PAWN);
        let last = Self::LAST_RANK[us];
        let forward = |b: u64| if us == 0 { b << 8 } else { b >> 8 };
        let backward = |b: u64| if us == 0 { b >> 8 } else { b << 8 };
        // Unpinned pawns set-wise: pushes (and double steps), then per-pawn captures.
        let free = pawns & !pinned;
        let single = forward(free) & empty;
        let mut double = 0;
        if V::DOUBLE_STEP {
            double = forward(single & Self::THIRD_RANK[us]) & empty & target;
        }
        let single = single & target;
        let promote = !V::PROMOTIONS.is_empty();
        for to in bits(single) {
            let from = if us == 0 { to - 8 } else { to + 8 };
            if promote && last & (1 << to) != 0 {
                sink.add_promotions(from, 1 << to, V::PROMOTIONS);
            } else {
                sink.add(pack(from, to, 0));
            }
        }
        for to in bits(double) {
            let from = if us == 0 { to - 16 } else { to + 16 };
            sink.add(pack(from, to, 0));
        }
        for from in bits(free) {
            self.pawn_captures(sink, from, PAWN_ATT[us][from] & opp & target);
        }
        // Pinned pawns one by one, along their pin line.
        for from in bits(pawns & pinned) {
            let pin = line(ksq, from);
            let mut t = PAWN_ATT[us][from] & opp;
            let one = forward(1 << from) & empty;
            t |= one;
            if V::DOUBLE_STEP && one & Self::THIRD_RANK[us] != 0 {
                t |= forward(one) & empty;
            }
            self.pawn_captures(sink, from, t & target & pin);
        }
        if V::DOUBLE_STEP && self.ep != NO_SQ {
            let ep = self.ep as usize;
            let captured = backward(1 << ep);
            for from in bits(pawns & PAWN_ATT[us ^ 1][ep]) {
                if !legal || self.ep_is_legal(from, ep, captured) {
                    sink.add(pack(from, ep, FLAG_EP));
                }
            }
        }
    }

    #[inline(always)]
    fn pawn_captures<S: Sink>(&self, sink: &mut S, from: usize, t: u64) {
        let last = Self::LAST_RANK[self.side()];
        if !V::PROMOTIONS.is_empty() {
            sink.add_promotions(from, t & last, V::PROMOTIONS);
            sink.add_set(from, t & !last);
        } else {
            sink.add_set(from, t);
        }
    }

    /// En passant can expose the king along a rank or resolve (or not) a check: try it.
    fn ep_is_legal(&self, from: usize, ep: usize, captured: u64) -> bool {
        let us = self.side();
        let Some(ksq) = self.king_square(us) else {
            return true;
        };
        let occ = (self.occupied() ^ (1 << from) ^ captured) | (1 << ep);
        let attackers = self.attackers(ksq, us ^ 1, occ) & !captured;
        attackers == 0
    }

    fn generate_castling<S: Sink>(&self, sink: &mut S, legal: bool) {
        let us = self.side();
        let occ = self.occupied();
        let base = if us == 0 { 0 } else { 56 };
        let (king_side, queen_side) = if us == 0 { (WK, WQ) } else { (BK, BQ) };
        let safe = |sq: usize| !legal || self.attackers(sq, us ^ 1, occ) == 0;
        if self.castling & king_side != 0
            && occ & (0b0110_0000 << base) == 0
            && safe(base + 5)
            && safe(base + 6)
        {
            sink.add(pack(base + 4, base + 6, FLAG_CASTLE));
        }
        if self.castling & queen_side != 0
            && occ & (0b0000_1110 << base) == 0
            && safe(base + 3)
            && safe(base + 2)
        {
            sink.add(pack(base + 4, base + 2, FLAG_CASTLE));
        }
    }

    /// Plays a generated move (not [`PASS`]).
    #[inline(always)]
    pub fn make(&mut self, m: Move) -> MoveEffect {
        let (from, to, flag) = (move_from(m), move_to(m), move_flag(m));
        let us = self.side();
        let piece = self.mailbox[from] as usize;
        debug_assert!(
            piece != EMPTY as usize && piece / 6 == us,
            "no own piece on {from}"
        );
        let kind = piece % 6;
        if self.ep != NO_SQ {
            self.hash ^= Self::Z[Self::Z_EP + (self.ep % 8) as usize];
            self.ep = NO_SQ;
        }
        let mut capture = false;
        if flag == FLAG_EP {
            self.remove(if us == 0 { to - 8 } else { to + 8 });
            capture = true;
        } else if self.mailbox[to] != EMPTY {
            self.remove(to);
            capture = true;
        }
        self.remove(from);
        let promotion = (1..=4).contains(&flag);
        self.put(us, if promotion { flag as usize } else { kind }, to);
        if flag == FLAG_CASTLE {
            let (rook_from, rook_to) = if to > from {
                (from + 3, from + 1)
            } else {
                (from - 4, from - 1)
            };
            self.remove(rook_from);
            self.put(us, ROOK, rook_to);
        }
        if V::DOUBLE_STEP && kind == PAWN && from.abs_diff(to) == 16 {
            let ep = (from + to) / 2;
            if PAWN_ATT[us][ep] & self.pieces(us ^ 1, PAWN) != 0 {
                self.ep = ep as u8;
                self.hash ^= Self::Z[Self::Z_EP + ep % 8];
            }
        }
        if V::CASTLING {
            let rights = self.castling & CASTLE_KEEP[from] & CASTLE_KEEP[to];
            if rights != self.castling {
                self.hash ^= Self::Z[Self::Z_CASTLE + self.castling as usize]
                    ^ Self::Z[Self::Z_CASTLE + rights as usize];
                self.castling = rights;
            }
        }
        self.switch_side();
        MoveEffect {
            capture,
            pawn: kind == PAWN,
            promotion,
        }
    }

    /// Hands the move to the other side (also the forced pass).
    #[inline(always)]
    pub fn switch_side(&mut self) {
        self.side ^= 1;
        self.hash ^= Self::Z[Self::Z_SIDE];
    }

    /// Clears the en-passant square (a pass forfeits it).
    pub fn clear_ep(&mut self) {
        if self.ep != NO_SQ {
            self.hash ^= Self::Z[Self::Z_EP + (self.ep % 8) as usize];
            self.ep = NO_SQ;
        }
    }

    // -----------------------------------------------------------------------------------------
    // Text

    pub fn square_name(sq: usize) -> String {
        format!("{}{}", (b'a' + (sq % 8) as u8) as char, sq / 8 + 1)
    }

    fn read_square(s: &[u8]) -> Option<usize> {
        let f = s.first()?.to_ascii_lowercase().checked_sub(b'a')? as usize;
        let r = s.get(1)?.checked_sub(b'1')? as usize;
        (f < V::FILES && r < V::RANKS).then_some(r * 8 + f)
    }

    /// UCI long algebraic: `e2e4`, `a5a6q`; castling as the king's move `e1g1`.
    pub fn format_move(m: Move) -> String {
        if m == PASS {
            return "pass".to_string();
        }
        let mut s = Self::square_name(move_from(m)) + &Self::square_name(move_to(m));
        let flag = move_flag(m);
        if (1..=4).contains(&flag) {
            s.push(PIECE_CHARS[6 + flag as usize] as char);
        }
        s
    }

    /// The move `text` names, if it is one of `legal`; promotion letters in either case; a
    /// variant without promotion choices accepts (and ignores) a letter on a last-rank move.
    pub fn parse_move(&self, text: &str, legal: &MoveList) -> Result<Move, GameError> {
        let t = text.trim();
        let s = t.as_bytes();
        if t.eq_ignore_ascii_case("pass") || t == "0000" {
            return if legal.contains(PASS) {
                Ok(PASS)
            } else {
                Err(GameError::illegal(
                    text,
                    "a pass is only legal without any other move",
                ))
            };
        }
        let syntax = || GameError::syntax(text, "expected UCI squares such as e2e4 or a5a6q");
        if !t.is_ascii() || !(4..=5).contains(&s.len()) {
            return Err(syntax());
        }
        let from = Self::read_square(&s[0..2]).ok_or_else(syntax)?;
        let to = Self::read_square(&s[2..4]).ok_or_else(syntax)?;
        let promo = match s.get(4).map(|c| c.to_ascii_lowercase()) {
            None => None,
            Some(b'n') => Some(KNIGHT),
            Some(b'b') => Some(BISHOP),
            Some(b'r') => Some(ROOK),
            Some(b'q') => Some(QUEEN),
            Some(_) => return Err(syntax()),
        };
        let found = legal.iter().copied().find(|&m| {
            if m == PASS || move_from(m) != from || move_to(m) != to {
                return false;
            }
            let flag = move_flag(m);
            let m_promo = (1..=4).contains(&flag).then_some(flag as usize);
            match (m_promo, promo) {
                (a, b) if a == b => true,
                // No choice to make: a letter on a last-rank pawn move is tolerated.
                (None, Some(_)) => {
                    V::PROMOTIONS.is_empty()
                        && self.mailbox[from] as usize % 6 == PAWN
                        && Self::LAST_RANK[self.side()] & (1 << to) != 0
                }
                _ => false,
            }
        });
        found.ok_or_else(|| {
            if promo.is_none()
                && !V::PROMOTIONS.is_empty()
                && legal
                    .iter()
                    .any(|&m| m != PASS && move_from(m) == from && move_to(m) == to)
            {
                GameError::illegal(text, "a promotion needs its piece letter (q, r, n)")
            } else {
                GameError::illegal(text, "not a legal move in this position")
            }
        })
    }

    fn piece_char(&self, sq: usize) -> Option<char> {
        let p = self.mailbox[sq];
        (p != EMPTY).then(|| PIECE_CHARS[p as usize] as char)
    }

    pub fn board_field(&self) -> String {
        super::fen::board_field(
            (0..V::RANKS)
                .rev()
                .map(|r| (0..V::FILES).map(move |f| self.piece_char(r * 8 + f))),
        )
    }

    /// The castling field (`KQkq`, `-`).
    pub fn castling_field(&self) -> String {
        let mut s = String::new();
        for (bit, c) in [(WK, 'K'), (WQ, 'Q'), (BK, 'k'), (BQ, 'q')] {
            if self.castling & bit != 0 {
                s.push(c);
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }

    pub fn ep_field(&self) -> String {
        if self.ep == NO_SQ {
            "-".to_string()
        } else {
            Self::square_name(self.ep as usize)
        }
    }

    /// Reads the board field into an empty board.
    fn read_board_field(&mut self, field: &str) -> Result<(), GameError> {
        let err = |msg: String| GameError::position("board", msg);
        let rows: Vec<&str> = field.split('/').collect();
        if rows.len() != V::RANKS {
            return Err(err(format!("{} rows, expected {}", rows.len(), V::RANKS)));
        }
        for (i, row) in rows.iter().enumerate() {
            let rank = V::RANKS - 1 - i;
            let mut file = 0usize;
            let mut digits = 0usize;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    // Multi-digit runs ("10") are read as one number.
                    digits = digits * 10 + d as usize;
                    if digits == 0 || digits > V::FILES {
                        return Err(err(format!("bad empty-square count in row {}", i + 1)));
                    }
                    continue;
                }
                file += std::mem::take(&mut digits);
                let upper = c.to_ascii_uppercase();
                if !c.is_ascii_alphabetic() || !V::PIECES.contains(upper) {
                    return Err(err(format!(
                        "unknown piece '{c}' in row {} (pieces: {} and lower case)",
                        i + 1,
                        V::PIECES
                    )));
                }
                if file >= V::FILES {
                    return Err(err(format!("row {} is longer than {}", i + 1, V::FILES)));
                }
                let kind = PIECE_CHARS[..6].iter().position(|&p| p as char == upper);
                let kind = kind.ok_or_else(|| err(format!("unknown piece '{c}'")))?;
                let color = usize::from(c.is_ascii_lowercase());
                if kind == PAWN && (rank == 0 || rank == V::RANKS - 1) && !V::PROMOTIONS.is_empty()
                {
                    return Err(err(format!("a pawn on the first or last rank ({c})")));
                }
                self.put(color, kind, rank * 8 + file);
                file += 1;
            }
            file += digits;
            if file != V::FILES {
                return Err(err(format!(
                    "row {} has {file} squares, expected {}",
                    i + 1,
                    V::FILES
                )));
            }
        }
        Ok(())
    }

    /// Reads board, side, castling and en-passant fields (the last two optional); the game
    /// checks kings and its own fields. Returns the remaining fields.
    pub fn parse_fields<'a>(
        text: &'a str,
    ) -> Result<(Self, std::str::SplitWhitespace<'a>), GameError> {
        let mut fields = text.split_whitespace();
        let mut b = Self::empty();
        let board = fields
            .next()
            .ok_or_else(|| GameError::position("board", "empty string"))?;
        b.read_board_field(board)?;
        b.side = match fields.next() {
            Some("w") | Some("W") => 0,
            Some("b") | Some("B") => 1,
            Some(other) => {
                return Err(GameError::position(
                    "side to move",
                    format!("'{other}', expected w or b"),
                ))
            }
            None => return Err(GameError::position("side to move", "missing (w or b)")),
        };
        if let Some(c) = fields.next() {
            b.read_castling(c)?;
        }
        if let Some(e) = fields.next() {
            b.read_ep(e)?;
        }
        for c in 0..2 {
            if b.pieces(c, KING).count_ones() > 1 {
                return Err(GameError::position(
                    "board",
                    "more than one king of a color",
                ));
            }
        }
        b.hash = b.compute_hash();
        Ok((b, fields))
    }

    fn read_castling(&mut self, field: &str) -> Result<(), GameError> {
        if field == "-" {
            return Ok(());
        }
        for c in field.chars() {
            let (bit, color, rook_sq) = match c {
                'K' => (WK, 0, 7),
                'Q' => (WQ, 0, 0),
                'k' => (BK, 1, 63),
                'q' => (BQ, 1, 56),
                _ => {
                    return Err(GameError::position(
                        "castling",
                        format!("'{field}': expected - or letters of KQkq"),
                    ))
                }
            };
            if !V::CASTLING {
                return Err(GameError::position(
                    "castling",
                    "this game has no castling (write -)",
                ));
            }
            let king_sq = if color == 0 { 4 } else { 60 };
            if self.pieces(color, KING) & (1 << king_sq) == 0
                || self.pieces(color, ROOK) & (1 << rook_sq) == 0
            {
                return Err(GameError::position(
                    "castling",
                    format!("'{c}' without its king and rook on their squares"),
                ));
            }
            self.castling |= bit;
        }
        Ok(())
    }

    fn read_ep(&mut self, field: &str) -> Result<(), GameError> {
        if field == "-" {
            return Ok(());
        }
        let bad = || GameError::position("en passant", format!("'{field}' is not - or a square"));
        if field.len() != 2 || !V::DOUBLE_STEP {
            return Err(bad());
        }
        let sq = Self::read_square(field.as_bytes()).ok_or_else(bad)?;
        let us = self.side();
        let (ep_rank, pawn_sq) = if us == 0 {
            (V::RANKS - 3, sq.wrapping_sub(8))
        } else {
            (2, sq + 8)
        };
        if sq / 8 != ep_rank || pawn_sq >= 64 || self.pieces(us ^ 1, PAWN) & (1 << pawn_sq) == 0 {
            return Err(GameError::position(
                "en passant",
                format!("'{field}' is not behind a pawn that just double-stepped"),
            ));
        }
        // Kept only when a pawn can take there (so equal positions stay equal).
        if PAWN_ATT[us ^ 1][sq] & self.pieces(us, PAWN) != 0 {
            self.ep = sq as u8;
        }
        Ok(())
    }

    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for r in (0..V::RANKS).rev() {
            s += &format!("{} ", r + 1);
            for f in 0..V::FILES {
                s.push(' ');
                s.push(self.piece_char(r * 8 + f).unwrap_or('.'));
            }
            s.push('\n');
        }
        s += "  ";
        for f in 0..V::FILES {
            s.push(' ');
            s.push((b'a' + f as u8) as char);
        }
        s.push('\n');
        s += &format!(
            "to move: {}   castling: {}   en passant: {}",
            if self.side == 0 {
                "white (w)"
            } else {
                "black (b)"
            },
            self.castling_field(),
            self.ep_field()
        );
        s
    }
}
