//! Go playout knowledge (the `game` playout policy): answer ataris, capture, play Mogo's 3x3
//! shapes next to the last move, and avoid self-atari, in the manner of the MCTS programs of
//! 2006-2010 (Gelly et al., "Modification of UCT with patterns in Monte-Carlo Go", 2006).
//!
//! Each playout move looks at the last move first, in this order:
//! 1. **capture** the chain just played when it is in atari;
//! 2. **escape**: a chain of the mover next to the last move in atari is saved by capturing an
//!    enemy chain in atari that touches it, or by extending at its liberty when that leaves it
//!    at least two liberties and is not caught in a ladder (`ladder`);
//! 3. **shape**: an empty neighbour of the last move (its 8 points) whose 3x3 surroundings match
//!    one of Mogo's hane, cut and edge patterns (in any rotation, reflection and colour);
//!
//! and then plays a uniformly drawn legal point that is neither the mover's eye nor a
//! self-atari (a move that leaves its chain one liberty without capturing; a nakade, a
//! self-atari whose capture leaves a dead eye shape, is allowed: `nakade`), falling back to
//! self-ataris and then to the pass. Every candidate is checked for legality, eyes and
//! self-atari, so the heuristics never play a move the random part would refuse.

use super::{Go, BLACK, EDGE, EMPTY, PASS, RANDOM_TRIES, WHITE};
use crate::game::{Move, MoveList};
use crate::rng::Rng;
use std::sync::OnceLock;

/// Mogo's patterns, rows top to bottom, the move in the centre. `X` and `O` are stones of the
/// two colours (either way round), `.` empty, `x` not `X` (empty or `O`), `o` not `O`, `#` off
/// the board, `?` anything.
const PATTERNS: [&str; 13] = [
    // hane: enclosing, non-cutting, magari, thin
    "XOX...???",
    "XO....?.?",
    "XO?X..?.?",
    "XOO...?.?",
    // cut1: an unprotected cut, a peeped cut
    "XO?O.o?o?",
    "XO?O.X???",
    // cut2
    "?X?O.Oooo",
    // edge: chase, block the side cut, block the connection, sagari, cut
    "X.?O.?###",
    "OX?X.O###",
    "?X?x.O###",
    "?XOx.x###",
    "?OXX.O###",
    // keima cut
    "OX??.O?o?",
];

/// The 3x3 shapes that match a pattern, by [`code`]: one bit per code.
fn shapes() -> &'static [u64; 1024] {
    static TABLE: OnceLock<[u64; 1024]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [0u64; 1024];
        for code in 0..1usize << 16 {
            let cells: [u8; 8] = std::array::from_fn(|i| ((code >> (2 * i)) & 3) as u8);
            if PATTERNS
                .iter()
                .any(|p| matches_any_symmetry(p.as_bytes(), &cells))
            {
                table[code / 64] |= 1 << (code % 64);
            }
        }
        table
    })
}

/// Whether the 8 cells (in [`code`] order) match pattern `p` in some symmetry and colouring.
fn matches_any_symmetry(p: &[u8], cells: &[u8; 8]) -> bool {
    // The pattern's 8 outer cells in code order: NW N NE W E SW S SE, as (row, col).
    const ORDER: [(usize, usize); 8] = [
        (0, 0),
        (0, 1),
        (0, 2),
        (1, 0),
        (1, 2),
        (2, 0),
        (2, 1),
        (2, 2),
    ];
    for sym in 0..8 {
        for (x, o) in [(BLACK, WHITE), (WHITE, BLACK)] {
            let fits = ORDER.iter().enumerate().all(|(i, &(r, c))| {
                let (r, c) = transform(sym, r, c);
                let cell = cells[i];
                match p[3 * r + c] {
                    b'X' => cell == x,
                    b'O' => cell == o,
                    b'.' => cell == EMPTY,
                    b'x' => cell == EMPTY || cell == o,
                    b'o' => cell == EMPTY || cell == x,
                    b'#' => cell == EDGE,
                    _ => true,
                }
            });
            if fits {
                return true;
            }
        }
    }
    false
}

/// One of the 8 symmetries of the 3x3 square applied to (row, col).
fn transform(sym: usize, r: usize, c: usize) -> (usize, usize) {
    let (r, c) = if sym & 4 != 0 { (c, r) } else { (r, c) };
    let r = if sym & 1 != 0 { 2 - r } else { r };
    let c = if sym & 2 != 0 { 2 - c } else { c };
    (r, c)
}

impl<const N: usize, const CELLS: usize, const K: bool> Go<N, CELLS, K> {
    /// The 3x3 surroundings of `p`, two bits per neighbour (NW N NE W E SW S SE).
    #[inline]
    fn code(&self, p: usize) -> usize {
        let w = Self::W;
        let b = &self.board;
        let cells = [
            b[p + w - 1],
            b[p + w],
            b[p + w + 1],
            b[p - 1],
            b[p + 1],
            b[p - w - 1],
            b[p - w],
            b[p - w + 1],
        ];
        cells
            .iter()
            .enumerate()
            .fold(0, |acc, (i, &s)| acc | (s as usize) << (2 * i))
    }

    /// Whether the surroundings of empty point `p` match one of the shape patterns.
    #[inline]
    pub(super) fn is_shape(&self, p: usize) -> bool {
        let code = self.code(p);
        shapes()[code / 64] >> (code % 64) & 1 != 0
    }

    /// The liberties of chain `r`, up to two distinct ones (0 marks none).
    pub(super) fn liberties2(&self, r: u16) -> [usize; 2] {
        let mut found = [0usize; 2];
        let mut s = r as usize;
        loop {
            for q in Self::neighbours(s) {
                if self.board[q] == EMPTY && found[0] != q {
                    if found[0] == 0 {
                        found[0] = q;
                    } else {
                        found[1] = q;
                        return found;
                    }
                }
            }
            s = self.next[s] as usize;
            if s == r as usize {
                return found;
            }
        }
    }

    /// The one liberty of chain `r` when it is in atari.
    #[inline]
    pub(super) fn atari_liberty(&self, r: u16) -> Option<usize> {
        match self.liberties2(r) {
            [l, 0] if l != 0 => Some(l),
            _ => None,
        }
    }

    /// Whether colour `c` playing on empty point `p` captures something.
    pub(super) fn captures_at(&self, p: usize, c: u8) -> bool {
        Self::neighbours(p).iter().any(|&q| {
            self.board[q] == 3 - c && {
                let r = self.chain[q];
                self.libs[r as usize] == self.touching(p, r)
            }
        })
    }

    /// Whether colour `c` playing on empty point `p` leaves its chain with fewer than two
    /// liberties without capturing anything.
    pub(super) fn is_self_atari(&self, p: usize, c: u8) -> bool {
        let mut libs = [0usize; 2];
        let mut add = |q: usize| {
            if q == p || libs[0] == q {
                return false;
            }
            if libs[0] == 0 {
                libs[0] = q;
                false
            } else {
                libs[1] = q;
                true
            }
        };
        for q in Self::neighbours(p) {
            if self.board[q] == EMPTY && add(q) {
                return false;
            }
        }
        for q in Self::neighbours(p) {
            if self.board[q] == c {
                let r = self.chain[q] as usize;
                let mut s = r;
                loop {
                    for t in Self::neighbours(s) {
                        if self.board[t] == EMPTY && add(t) {
                            return false;
                        }
                    }
                    s = self.next[s] as usize;
                    if s == r {
                        break;
                    }
                }
            }
        }
        !self.captures_at(p, c)
    }

    /// Whether the side to move may play `p` in a playout: not suicide, not a simple-ko
    /// retake, not its own eye and, unless `self_atari` allows it, not a self-atari other than
    /// a nakade. Superko is not checked: with it (the history scan and the board hash of
    /// `legal_point`) a 9x9 search spent a fifth more time; cycles longer than a ko are too
    /// rare to bias a playout's result, and the playout cap ends any that occur (Pachi's and
    /// Fuego's playouts skip superko too). The tree's moves are still checked in full.
    #[inline]
    fn playable(&self, p: usize, self_atari: bool) -> bool {
        let c = self.colour();
        self.board[p] == EMPTY
            && p != self.ko as usize
            && !self.is_eye(p, c)
            && if self_atari {
                !self.is_suicide(p, c)
            } else {
                // A move that is not a self-atari keeps a liberty or captures: not suicide.
                !self.is_self_atari(p, c)
                    || (self.is_nakade_self_atari(p, c) && !self.is_suicide(p, c))
            }
    }

    /// The playout move of the side to move (see the module documentation); `None` once the
    /// game is over. `buf` is scratch.
    pub(super) fn policy_move(&self, rng: &mut Rng, buf: &mut MoveList) -> Option<Move> {
        if self.is_over() {
            return None;
        }
        if self.opening > 0 {
            return self.opening_move(rng, buf);
        }
        if let Some(m) = self.last_move_reply(rng, buf) {
            return Some(m);
        }
        for _ in 0..RANDOM_TRIES {
            let i = rng.below((N * N) as u32) as usize;
            let p = Self::point(i / N, i % N);
            if self.playable(p, false) {
                return Some(Move(p as u16));
            }
        }
        for self_atari in [false, true] {
            buf.clear();
            for row in 0..N {
                for col in 0..N {
                    let p = Self::point(row, col);
                    if self.playable(p, self_atari) {
                        buf.push(Move(p as u16));
                    }
                }
            }
            if !buf.is_empty() {
                return Some(buf[rng.below(buf.len() as u32) as usize]);
            }
        }
        Some(PASS)
    }

    /// A capture, an atari escape or a shape move answering the last move, if any.
    fn last_move_reply(&self, rng: &mut Rng, buf: &mut MoveList) -> Option<Move> {
        let last = self.last as usize;
        if last == 0 || self.board[last] == EMPTY {
            return None;
        }
        let c = self.colour();
        let pick = |buf: &MoveList, rng: &mut Rng| {
            (!buf.is_empty()).then(|| buf[rng.below(buf.len() as u32) as usize])
        };
        // Capture the chain just played.
        if let Some(l) = self.atari_liberty(self.chain[last]) {
            if self.playable(l, true) {
                return Some(Move(l as u16));
            }
        }
        // Save the mover's chains that the last move put in atari.
        buf.clear();
        for q in Self::neighbours(last) {
            if self.board[q] != c {
                continue;
            }
            let r = self.chain[q];
            let Some(l) = self.atari_liberty(r) else {
                continue;
            };
            self.push_captures_next_to(r, buf);
            if !self.is_self_atari(l, c) && self.playable(l, true) && !self.escape_is_caught(l) {
                buf.push(Move(l as u16));
            }
        }
        if let Some(m) = pick(buf, rng) {
            return Some(m);
        }
        // Shapes next to the last move.
        buf.clear();
        let w = Self::W;
        for p in [
            last + w - 1,
            last + w,
            last + w + 1,
            last - 1,
            last + 1,
            last - w - 1,
            last - w,
            last - w + 1,
        ] {
            if self.board[p] == EMPTY && self.is_shape(p) && self.playable(p, false) {
                buf.push(Move(p as u16));
            }
        }
        pick(buf, rng)
    }

    /// Pushes the capturing points of the enemy chains in atari that touch chain `r`.
    pub(super) fn push_captures_next_to(&self, r: u16, buf: &mut MoveList) {
        let o = 3 - self.board[r as usize];
        let mut s = r as usize;
        loop {
            for q in Self::neighbours(s) {
                if self.board[q] == o {
                    if let Some(l) = self.atari_liberty(self.chain[q]) {
                        let m = Move(l as u16);
                        if !buf.contains(m) && self.playable(l, true) {
                            buf.push(m);
                        }
                    }
                }
            }
            s = self.next[s] as usize;
            if s == r as usize {
                return;
            }
        }
    }
}
