//! Awari (Oware, Abapa rules) exactly as OpenSpiel `oware`: 2x6 houses, captures of 2 or 3.
//!
//! Rules (OpenSpiel `oware.cc`): a move empties one of the mover's houses and sows its seeds one
//! by one counter-clockwise, skipping the emptied house on every lap. If the last seed lands in
//! the opponent's row in a house that now holds 2 or 3, that house is captured, and so is each
//! preceding house of the opponent's row while it holds 2 or 3. A capture that would take every
//! seed of the opponent (a grand slam) is played but captures nothing. When the opponent's row is
//! empty, only moves that sow into it are legal. The game ends when a player has captured more
//! than 24 seeds (or both have 24); when the player to move has no legal move (it cannot feed
//! the opponent), each side then adds the seeds of its own row to its store; and at the first
//! repetition of a position (tracked by [`Record`](super::record::Record), not here), scored the
//! same way. More seeds wins.
//!
//! Houses are numbered in sowing order: 0..6 are player 0's `A`..`F` (the bottom, "south" row,
//! left to right), 6..12 are player 1's `a`..`f` (the top, "north" row, right to left as seen
//! from the south). A [`Move`] is the number of the house emptied.
//!
//! The position string is `<top row f..a>/<bottom row A..F> <store 0> <store 1> <side>`, e.g.
//! `4,4,4,4,4,4/4,4,4,4,4,4 0 0 S`: the board as the diagram shows it (north row first, each row
//! left to right as seen from the south), the seeds captured by player 0 (south) and player 1
//! (north), and the side to move, `S` (player 0) or `N` (player 1). The 48 seeds must all be
//! accounted for.

use super::record::Repetition;
use super::sowing::{RowsText, ROW, TOTAL_SEEDS};
use super::{
    find_legal, zobrist, Dialects, GameError, GameInfo, Heuristics, Move, MoveList, Outcome,
    Player, Rules,
};
use crate::rng::Rng;

/// Houses on the board (ROW per side).
const HOUSES: usize = 2 * ROW;
/// Captures beyond half of the seeds win.
const HALF: u8 = (TOTAL_SEEDS / 2) as u8;

/// Byte layout of [`Awari::cells`]: houses 0..12, then the stores and the side to move.
const STORE: [usize; 2] = [12, 13];
const SIDE: usize = 14;

/// One row (six bytes) of the board read as a little-endian integer.
const ROW_BYTES: u64 = 0xFFFF_FFFF_FFFF;
/// The top bit of each of the six bytes of a row.
const ROW_HIGH_BITS: u64 = 0x8080_8080_8080;
/// Added to a row, sets a byte's top bit exactly when the house holds a seed (counts are at most
/// 48, so no byte carries into the next).
const NON_EMPTY_ADD: u64 = 0x7F7F_7F7F_7F7F;
/// Added to a row, sets a byte's top bit exactly when the house holds enough seeds to reach the
/// opponent's row: house `i` (0..6 in sowing order) needs more than `5 - i` seeds.
const FEEDS_ADD: u64 = 0x7F7E_7D7C_7B7A;

/// The change to [`Awari::state`] of sowing the `n` seeds of house `o`: `SOW[o][n]` holds, in
/// byte `h`, the seeds house `h` receives, minus the `n` seeds taken from `o`. As a wrapping
/// 128-bit number it turns a move into one addition: no byte of the true result is negative or
/// above 48, so no borrow or carry crosses a byte.
static SOW: [[u128; TOTAL_SEEDS as usize + 1]; HOUSES] = sow_table().0;
/// The house receiving the last seed when sowing `n` seeds from house `o`, plus
/// [`IN_OPPONENT_ROW`] when that house is in the opponent's row (a capture is possible).
static LAST: [[u8; TOTAL_SEEDS as usize + 1]; HOUSES] = sow_table().1;
const IN_OPPONENT_ROW: u8 = 0x80;

/// Builds [`SOW`] and [`LAST`] by sowing seed by seed, exactly as the rules say.
const fn sow_table() -> ([[u128; 49]; HOUSES], [[u8; 49]; HOUSES]) {
    let mut add = [[0u128; 49]; HOUSES];
    let mut last = [[0u8; 49]; HOUSES];
    let mut origin = 0;
    while origin < HOUSES {
        let mut n = 1;
        while n <= TOTAL_SEEDS as usize {
            let mut house = origin;
            let mut left = n;
            add[origin][n] = 0u128.wrapping_sub((n as u128) << (8 * origin));
            while left > 0 {
                house = (house + 1) % HOUSES;
                if house != origin {
                    add[origin][n] = add[origin][n].wrapping_add(1u128 << (8 * house));
                    left -= 1;
                }
            }
            let row_flag = if house / ROW != origin / ROW {
                IN_OPPONENT_ROW
            } else {
                0
            };
            last[origin][n] = house as u8 | row_flag;
            n += 1;
        }
        origin += 1;
    }
    (add, last)
}

/// Keys of the hash (drawn like Zobrist keys; top bit of every byte set so that a key XOR any
/// valid half-state is never zero, which would flatten the folded multiply below).
const HASH_KEYS: [u64; 2] = zobrist::keys::<2>(0xA3A1);
const HASH_KEY_LO: u64 = HASH_KEYS[0] | 0x8080_8080_8080_8080;
const HASH_KEY_HI: u64 = HASH_KEYS[1] | 0x8080_8080_8080_8080;

/// An Awari position: seeds per house, the two stores and the side to move, packed in one
/// 128-bit integer so that a move is a few register operations and one store.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Awari {
    /// Little-endian bytes 0..12: seeds per house in sowing order; 12, 13: seeds captured by
    /// player 0 and 1; 14: the player to move (0 or 1); 15: always 0.
    state: u128,
}

impl Awari {
    fn from_cells(cells: [u8; 16]) -> Awari {
        Awari {
            state: u128::from_le_bytes(cells),
        }
    }

    /// The state as bytes (see [`Awari::state`]).
    #[inline]
    fn cells(&self) -> [u8; 16] {
        self.state.to_le_bytes()
    }

    /// Byte `i` of the state (a byte load: cheaper than a variable 128-bit shift).
    #[inline]
    fn cell(&self, i: usize) -> u8 {
        self.cells()[i % 16]
    }

    #[inline]
    fn side(&self) -> usize {
        (self.state >> (8 * SIDE)) as u8 as usize
    }

    #[inline]
    fn store(&self, p: usize) -> u8 {
        (self.state >> (8 * STORE[p])) as u8
    }

    /// The six houses of each player as little-endian integers (house `6p + i` in byte `i`).
    #[inline]
    fn rows(&self) -> [u64; 2] {
        [
            self.state as u64 & ROW_BYTES,
            (self.state >> 48) as u64 & ROW_BYTES,
        ]
    }

    fn row_sum(&self, p: usize) -> u32 {
        self.cells()[ROW * p..ROW * (p + 1)]
            .iter()
            .map(|&s| s as u32)
            .sum()
    }

    /// True when the stores alone end the game: more than half captured, or an even split.
    #[inline]
    fn decided_by_stores(&self) -> bool {
        let (s0, s1) = (self.store(0), self.store(1));
        s0 > HALF || s1 > HALF || (s0 == HALF && s1 == HALF)
    }

    /// The legal moves as the top bits of the mover's six row bytes (bit `8i + 7` for its house
    /// `i`), before checking whether the stores ended the game.
    #[inline]
    fn move_bits_ignoring_stores(&self) -> u64 {
        let [south, north] = self.rows();
        let (own, opponent) = if self.side() == 0 {
            (south, north)
        } else {
            (north, south)
        };
        let starved = opponent == 0;
        let add = if starved { FEEDS_ADD } else { NON_EMPTY_ADD };
        (own + add) & ROW_HIGH_BITS
    }

    /// The legal moves as bits (see [`Self::move_bits_ignoring_stores`]); 0 when the game is over.
    #[inline]
    fn move_bits(&self) -> u64 {
        if self.decided_by_stores() {
            0
        } else {
            self.move_bits_ignoring_stores()
        }
    }

    /// The move of the lowest set bit of a non-zero `bits`.
    #[inline]
    fn move_of_bit(&self, bits: u64) -> Move {
        Move((bits.trailing_zeros() / 8) as u16 + (ROW * self.side()) as u16)
    }

    /// The result when each player adds the seeds of its own row to its store (no legal move,
    /// or a repeated position).
    fn collected_outcome(&self) -> Outcome {
        let total = |p: usize| self.store(p) as i32 + self.row_sum(p) as i32;
        Outcome::by_score(total(0) - total(1))
    }

    /// Captures after the last seed landed in house `last` of the opponent's row: that house
    /// and the houses before it in that row while they hold 2 or 3 — unless that would take
    /// all of the opponent's seeds (a grand slam), which captures nothing. Done on the whole row
    /// at once: no loop, and nothing happens when `last` itself holds neither 2 nor 3.
    #[inline]
    fn capture_from(&mut self, last: usize) {
        let side = self.side();
        let opponent = self.rows()[1 - side];
        let index = last - ROW * (1 - side);
        // Houses 0..=index of the opponent's row, where the chain can be.
        let reach = ROW_BYTES >> (8 * (ROW - 1 - index));
        // A byte is 2 or 3 exactly when clearing its low bit leaves 2.
        let not_two = (opponent & 0xFEFE_FEFE_FEFE) ^ 0x0202_0202_0202;
        let takeable = !(not_two + NON_EMPTY_ADD) & ROW_HIGH_BITS;
        // The chain runs down from `index` to the highest house in reach that it stops at.
        let stoppers = !takeable & ROW_HIGH_BITS & reach;
        let below_stop = u64::MAX.checked_shr(stoppers.leading_zeros()).unwrap_or(0);
        let chain = reach & !below_stop;
        if opponent & !chain == 0 {
            // A grand slam (or no seeds at all there): nothing is captured.
            return;
        }
        let taken = (opponent & chain).wrapping_mul(0x0101_0101_0101) >> 40 & 0xFF;
        let cleared = if side == 0 {
            (chain as u128) << 48
        } else {
            chain as u128
        };
        let stored = if side == 0 {
            (taken as u128) << (8 * STORE[0])
        } else {
            (taken as u128) << (8 * STORE[1])
        };
        self.state = (self.state & !cleared) + stored;
    }
}

/// The number of bytes with the top bit set among the six of a row mask. A multiply adds the
/// bytes: `count_ones` has no instruction in the baseline x86-64 target and costs a dozen.
#[inline]
fn count_bytes(row_high_bits: u64) -> u32 {
    ((row_high_bits >> 7).wrapping_mul(0x0101_0101_0101) >> 40) as u32 & 0xFF
}

/// No network encoding yet.
impl crate::game::Features for Awari {}

impl Rules for Awari {
    const INFO: GameInfo = GameInfo {
        name: "awari",
        aliases: &["oware", "abapa"],
        board: "2x6",
        notation:
            "the house sown, as OpenSpiel oware writes it: A-F for player 1 (bottom row, left \
                   to right), a-f for player 2 (top row, right to left); either case means the \
                   mover's own house, and digits 1-6 count the mover's houses in sowing order \
                   (1 = A or a), e.g. C or c or 3",
        start: "4,4,4,4,4,4/4,4,4,4,4,4 0 0 S",
    };

    const HAS_REPETITION_RULE: bool = true;

    fn start() -> Self {
        let mut cells = [0u8; 16];
        cells[..HOUSES].fill(4);
        Awari::from_cells(cells)
    }

    #[inline]
    fn to_move(&self) -> Player {
        Player(self.cell(SIDE))
    }

    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        let mut bits = self.move_bits();
        while bits != 0 {
            out.push(self.move_of_bit(bits));
            bits &= bits - 1;
        }
    }

    #[inline]
    fn count_moves(&self) -> usize {
        count_bytes(self.move_bits()) as usize
    }

    #[inline]
    fn play(&mut self, m: Move) {
        let origin = m.0 as usize % HOUSES;
        let seeds = self.cell(origin) as usize;
        debug_assert!(
            origin / ROW == self.side() && seeds > 0,
            "illegal move {m:?}"
        );
        self.state = self.state.wrapping_add(SOW[origin][seeds]);
        let last = LAST[origin][seeds];
        let house = (last & !IN_OPPONENT_ROW) as usize;
        // One well-predicted branch (about one move in seven captures) instead of two.
        if (last & IN_OPPONENT_ROW != 0) & (self.cell(house) & 0xFE == 2) {
            self.capture_from(house);
        }
        self.state ^= 1 << (8 * SIDE);
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.decided_by_stores() {
            Some(Outcome::by_score(
                self.store(0) as i32 - self.store(1) as i32,
            ))
        } else if self.move_bits_ignoring_stores() == 0 {
            Some(self.collected_outcome())
        } else {
            None
        }
    }

    /// A hash of the packed 16-byte state, computed on demand: one folded 64x64→128-bit multiply
    /// of the two halves (as wyhash finishes) costs less than updating Zobrist keys for every
    /// house a long sowing touches, so there is nothing to maintain incrementally.
    #[inline]
    fn hash(&self) -> u64 {
        let word = self.state;
        let product =
            ((word as u64 ^ HASH_KEY_LO) as u128) * (((word >> 64) as u64 ^ HASH_KEY_HI) as u128);
        (product as u64) ^ ((product >> 64) as u64)
    }

    fn compute_hash(&self) -> u64 {
        self.hash()
    }

    fn format_move(&self, m: Move) -> String {
        let house = m.0 as u8;
        let letter = if house < ROW as u8 {
            b'A' + house
        } else {
            b'a' + house - ROW as u8
        };
        (letter as char).to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        let index = match text.trim().as_bytes() {
            [c @ b'A'..=b'F'] => c - b'A',
            [c @ b'a'..=b'f'] => c - b'a',
            [c @ b'1'..=b'6'] => c - b'1',
            _ => {
                return Err(GameError::syntax(
                    text,
                    "expected a house: a letter A-F or a-f, or a digit 1-6",
                ))
            }
        };
        let house = (ROW * self.side()) as u16 + index as u16;
        find_legal(self, text, Move(house)).map_err(|e| match e {
            GameError::IllegalMove { .. } if self.outcome().is_none() => {
                let reason = if self.cell(house as usize) == 0 {
                    "the house is empty"
                } else {
                    "the opponent's row is empty and this move does not sow into it"
                };
                GameError::illegal(text, reason)
            }
            other => other,
        })
    }

    fn to_position(&self) -> String {
        let mut rows = RowsText {
            top: [0; ROW],
            bottom: [0; ROW],
            stores: [self.store(0), self.store(1)],
            side: self.side() as u8,
        };
        for (slot, h) in rows.top.iter_mut().zip((ROW..HOUSES).rev()) {
            *slot = self.cell(h);
        }
        for (slot, h) in rows.bottom.iter_mut().zip(0..ROW) {
            *slot = self.cell(h);
        }
        rows.format()
    }

    fn parse_position(text: &str) -> Result<Self, GameError> {
        let rows = RowsText::parse(text, "house")?;
        let mut cells = [0u8; 16];
        cells[..ROW].copy_from_slice(&rows.bottom);
        for (i, &seeds) in rows.top.iter().enumerate() {
            cells[HOUSES - 1 - i] = seeds;
        }
        cells[STORE[0]] = rows.stores[0];
        cells[STORE[1]] = rows.stores[1];
        cells[SIDE] = rows.side;
        Ok(Awari::from_cells(cells))
    }

    fn diagram(&self) -> String {
        let marker = |p: usize| {
            if self.side() == p && self.outcome().is_none() {
                " [to move]"
            } else {
                ""
            }
        };
        let mut out = format!("Player 2 (north) store = {}{}\n", self.store(1), marker(1));
        out += "  f  e  d  c  b  a\n";
        for h in (ROW..HOUSES).rev() {
            out += &format!("{:>3}", self.cell(h));
        }
        out += "\n";
        for h in 0..ROW {
            out += &format!("{:>3}", self.cell(h));
        }
        out += "\n  A  B  C  D  E  F\n";
        out += &format!("Player 1 (south) store = {}{}\n", self.store(0), marker(0));
        if let Some(outcome) = self.outcome() {
            if self.decided_by_stores() {
                out += &format!("Game over: {outcome}\n");
            } else {
                let total = |p: usize| self.store(p) as u32 + self.row_sum(p);
                out += &format!(
                    "Game over, player {} cannot move: each side takes its own row, {}-{}: {outcome}\n",
                    self.side() + 1,
                    total(0),
                    total(1)
                );
            }
        }
        out
    }

    #[inline]
    fn random_move(&self, rng: &mut Rng, _buf: &mut MoveList) -> Option<Move> {
        let bits = self.move_bits();
        if bits == 0 {
            return None;
        }
        // The k-th legal move in house order, as the default implementation would pick it,
        // found without a data-dependent loop: byte i of `before` counts the legal moves in
        // houses 0..=i, and the k-th move's house is the number of bytes where it is <= k.
        let k = rng.below(count_bytes(bits)) as u64;
        let before = (bits >> 7).wrapping_mul(0x0101_0101_0101);
        let beyond = (before + (0x7F - k) * 0x0101_0101_0101) & ROW_HIGH_BITS;
        let index = ROW as u32 - count_bytes(beyond);
        Some(Move((index + (ROW * self.side()) as u32) as u16))
    }

    /// Total seeds captured: it only grows, and positions can repeat only between captures.
    #[inline]
    fn progress(&self) -> u32 {
        self.store(0) as u32 + self.store(1) as u32
    }

    /// OpenSpiel ends the game at the first recurrence of a position since the last capture,
    /// each player taking the seeds of its own row.
    fn repetition_outcome(&self, rep: &Repetition) -> Option<Outcome> {
        (rep.count >= 2).then(|| self.collected_outcome())
    }
}

impl Heuristics for Awari {
    const HAS_EVALUATION: bool = true;

    /// The store difference over all the seeds (the implicit-minimax paper's evaluation), inside
    /// (-1, 1) while the game goes on.
    #[inline]
    fn evaluate(&self, player: Player) -> f32 {
        let diff = self.store(0) as i32 - self.store(1) as i32;
        let v = diff as f32 / TOTAL_SEEDS as f32;
        crate::game::zero_sum(v, player)
    }

    /// Whether the move takes seeds (a grand slam takes none).
    #[inline]
    fn is_capture(&self, m: Move) -> bool {
        let me = self.side();
        let mut after = self.clone();
        after.play(m);
        after.store(me) != self.store(me)
    }
}

impl Dialects for Awari {}

#[cfg(test)]
mod tests;
