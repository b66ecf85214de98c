//! Go knowledge for the search tree: each new node's moves get a prior win rate, as Pachi's and
//! Fuego's priors do (Gelly & Silver 2007, "Combining online and offline knowledge in UCT"):
//! captures, atari escapes and ladders that work high, shapes and moves near the last one above
//! even, first-line moves, self-ataris and escapes into a working ladder low, and a move that
//! fills the mover's own eye 0, which the search reads as "never, unless proved" (the
//! whole-board losses of docs/go.md came from the tree filling its own eyes once every move
//! looked lost).

use super::{Go, EDGE, EMPTY, PASS};
use crate::game::{Move, Rules};

/// A prior win rate of one: what [`crate::game::Heuristics::move_priors`] writes, x 65535.
const ONE: f32 = 65535.0;

/// Prior win rates by what the move does (the strongest reason wins; see `prior_of`).
const EVEN: f32 = 0.5;
const CAPTURE: f32 = 0.9;
const ESCAPE: f32 = 0.85;
const ATARI: f32 = 0.65;
/// An atari that starts a working ladder.
const LADDER: f32 = 0.8;
/// Running from atari into a working ladder.
const FUTILE_ESCAPE: f32 = 0.15;
const SHAPE_NEAR_LAST: f32 = 0.75;
const SHAPE: f32 = 0.6;
const NEAR_LAST: f32 = 0.6;
const FIRST_LINE: f32 = 0.3;
/// A self-atari of a chain small enough to be a nakade (a throw-in that kills an eye).
const SMALL_SELF_ATARI: f32 = 0.3;
const SELF_ATARI: f32 = 0.1;
/// Passing while the opponent has not: rarely right before the end.
const EARLY_PASS: f32 = 0.1;
/// The most stones a self-atari may put at stake and still count as a possible nakade.
const NAKADE_STONES: usize = 3;

impl<const N: usize, const CELLS: usize, const K: bool> Go<N, CELLS, K> {
    /// The prior win rates of `moves` for the side to move, x 65535, into `out`.
    pub(super) fn knowledge_priors(&self, moves: &[Move], out: &mut Vec<u16>) {
        out.clear();
        out.extend(
            moves
                .iter()
                .map(|&m| (self.prior_of(m) * ONE).round() as u16),
        );
    }

    /// The prior win rate of legal move `m`: 0 for an own-eye fill, else the strongest of its
    /// good reasons, lowered by its bad ones.
    fn prior_of(&self, m: Move) -> f32 {
        if m == PASS {
            return if self.passes > 0 { EVEN } else { EARLY_PASS };
        }
        let p = m.0 as usize;
        let c = self.colour();
        if self.is_eye(p, c) {
            return 0.0;
        }
        if self.captures_at(p, c) {
            return CAPTURE;
        }
        if self.is_self_atari(p, c) {
            return if self.stones_joined(p, c) <= NAKADE_STONES {
                SMALL_SELF_ATARI
            } else {
                SELF_ATARI
            };
        }
        if self.saves_chain_in_atari(p, c) && self.escape_is_caught(p) {
            return FUTILE_ESCAPE;
        }
        let mut prior = EVEN;
        let mut raise = |v: f32| prior = f32::max(prior, v);
        if self.saves_chain_in_atari(p, c) {
            raise(ESCAPE);
        }
        if self.ataris(p, c) {
            raise(if self.ladder_follows(p) {
                LADDER
            } else {
                ATARI
            });
        }
        let near = self.near_last(p);
        if self.is_shape(p) {
            raise(if near { SHAPE_NEAR_LAST } else { SHAPE });
        } else if near {
            raise(NEAR_LAST);
        }
        if prior == EVEN && self.on_first_line(p) {
            prior = FIRST_LINE;
        }
        prior
    }

    /// Whether the atari at `p` (by the side to move) catches a chain in a working ladder.
    fn ladder_follows(&self, p: usize) -> bool {
        let mut after = self.clone();
        after.play(Move(p as u16));
        Self::neighbours(p).iter().any(|&q| {
            after.board[q] == 3 - self.colour()
                && after
                    .atari_liberty(after.chain[q])
                    .is_some_and(|e| after.escape_is_caught(e))
        })
    }

    /// Whether `p` is within two steps (8-neighbourhood or a straight two) of the last move.
    fn near_last(&self, p: usize) -> bool {
        let last = self.last as usize;
        if last == 0 {
            return false;
        }
        let w = Self::W as isize;
        let d = p as isize - last as isize;
        [
            -w - 1,
            -w,
            -w + 1,
            -1,
            1,
            w - 1,
            w,
            w + 1,
            -2 * w,
            2 * w,
            -2,
            2,
        ]
        .contains(&d)
    }

    /// Whether `p` is on the edge of the board.
    fn on_first_line(&self, p: usize) -> bool {
        Self::neighbours(p).iter().any(|&q| self.board[q] == EDGE)
    }

    /// Whether colour `c` at `p` is the liberty of one of its chains in atari and leaves the
    /// joined chain at least two liberties (the self-atari test says it does, so here: it
    /// touches a chain of `c` in atari).
    fn saves_chain_in_atari(&self, p: usize, c: u8) -> bool {
        Self::neighbours(p)
            .iter()
            .any(|&q| self.board[q] == c && self.atari_liberty(self.chain[q]) == Some(p))
    }

    /// Whether colour `c` at `p` leaves a neighbouring enemy chain with one liberty.
    fn ataris(&self, p: usize, c: u8) -> bool {
        Self::neighbours(p).iter().any(|&q| {
            self.board[q] == 3 - c && {
                let libs = self.liberties2(self.chain[q]);
                libs[1] != 0 && (libs[0] == p || libs[1] == p) && {
                    // Exactly two liberties, one of them `p`.
                    self.liberties_at_most(self.chain[q], 2)
                }
            }
        })
    }

    /// Whether chain `r` has at most `k` distinct liberties.
    pub(super) fn liberties_at_most(&self, r: u16, k: usize) -> bool {
        let mut seen = [0usize; 8];
        let mut count = 0;
        let mut s = r as usize;
        loop {
            for q in Self::neighbours(s) {
                if self.board[q] == EMPTY && !seen[..count.min(8)].contains(&q) {
                    if count >= k {
                        return false;
                    }
                    seen[count] = q;
                    count += 1;
                }
            }
            s = self.next[s] as usize;
            if s == r as usize {
                return true;
            }
        }
    }

    /// The stones of colour `c`'s chain after it plays at empty `p` (the stone and the chains
    /// it joins), counted up to `NAKADE_STONES + 1`.
    fn stones_joined(&self, p: usize, c: u8) -> usize {
        let mut chains = [u16::MAX; 4];
        let mut stones = 1;
        for (i, q) in Self::neighbours(p).into_iter().enumerate() {
            if self.board[q] != c {
                continue;
            }
            let r = self.chain[q];
            if chains[..i].contains(&r) {
                continue;
            }
            chains[i] = r;
            let mut s = r as usize;
            loop {
                stones += 1;
                if stones > NAKADE_STONES {
                    return stones;
                }
                s = self.next[s] as usize;
                if s == r as usize {
                    break;
                }
            }
        }
        stones
    }
}
