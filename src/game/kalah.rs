//! Kalah (6 pits, 4 seeds) exactly as OpenSpiel `mancala`: sowing into the own store, extra turns
//! and captures from the opposite pit.
//!
//! Rules (OpenSpiel `mancala.cc`): a move empties one of the mover's pits and sows its seeds one
//! by one counter-clockwise, into the mover's own store but skipping the opponent's. If the last
//! seed lands in the mover's store, the same player moves again (the next ply is theirs too). If
//! it lands in one of the mover's own pits that was empty (it now holds 1) and the opposite pit
//! holds seeds, both go to the mover's store. The game ends as soon as either row is empty; each
//! player then owns the seeds of its own row and store, and more seeds wins (24-24 draws). No
//! pass is ever needed: a player to move in a live game has seeds in its row.
//!
//! Pits are numbered in sowing order, as in Awari: `A`..`F` are player 0's pits (the bottom,
//! "south" row, left to right; OpenSpiel's 1..6), then player 0's store (OpenSpiel's 7), then
//! `a`..`f`, player 1's pits (the top row, right to left as seen from the south; OpenSpiel's
//! 8..13), then player 1's store (OpenSpiel's 0). A [`Move`] is the index of the pit emptied.
//!
//! The position string is `<top row f..a>/<bottom row A..F> <store 0> <store 1> <side>`, e.g.
//! `4,4,4,4,4,4/4,4,4,4,4,4 0 0 S` (Awari's format): the board as the diagram shows it, the
//! stores of player 0 (south) and player 1 (north), and the side to move, `S` or `N`. The 48
//! seeds must all be accounted for.

use super::sowing::{RowsText, ROW, TOTAL_SEEDS};
use super::{
    find_legal, zobrist, Dialects, GameError, GameInfo, Heuristics, Move, MoveList, Outcome,
    Player, Rules,
};
use crate::rng::Rng;

/// Places seeds can be in: two rows of pits and two stores.
const CYCLE: usize = 2 * (ROW + 1);

/// Byte layout of [`Kalah::state`]: player 0's pits 0..6, its store 6, player 1's pits 7..13,
/// its store 13, then the side to move.
const STORE: [usize; 2] = [ROW, 2 * ROW + 1];
const SIDE: usize = CYCLE;

/// One row (six bytes) of pits read as a little-endian integer.
const ROW_BYTES: u64 = 0xFFFF_FFFF_FFFF;
/// The top bit of each of the six bytes of a row.
const ROW_HIGH_BITS: u64 = 0x8080_8080_8080;
/// Added to a row, sets a byte's top bit exactly when the pit holds a seed (counts are at most 48,
/// so no byte carries into the next).
const NON_EMPTY_ADD: u64 = 0x7F7F_7F7F_7F7F;

/// The change to [`Kalah::state`] of sowing the `n` seeds of pit `o`: byte `h` gets the seeds
/// place `h` receives, minus the `n` taken from `o`. As a wrapping 128-bit number it turns the
/// sowing into one addition: every byte of the true result lies in 0..=48, so no borrow or carry
/// crosses a byte.
static SOW: [[u128; 64]; 16] = sow_table().0;
/// Where the last seed of sowing `n` seeds from pit `o` lands, plus [`OWN_STORE`] or
/// [`OWN_PIT`] when that place is the mover's store or one of the mover's pits.
static LAST: [[u8; 64]; 16] = sow_table().1;
const OWN_STORE: u8 = 0x80;
const OWN_PIT: u8 = 0x40;
const PLACE_MASK: u8 = 0x0F;

/// Builds [`SOW`] and [`LAST`] by sowing seed by seed, exactly as the rules say (entries for the
/// stores as origins stay unused). Sized 16 x 64 so that indices are masked, not divided.
const fn sow_table() -> ([[u128; 64]; 16], [[u8; 64]; 16]) {
    let mut add = [[0u128; 64]; 16];
    let mut last = [[0u8; 64]; 16];
    let mut origin = 0;
    while origin < CYCLE {
        if origin == STORE[0] || origin == STORE[1] {
            origin += 1;
            continue;
        }
        let mover = origin / (ROW + 1);
        let skipped = STORE[1 - mover];
        let mut n = 1;
        while n <= TOTAL_SEEDS as usize {
            let mut place = origin;
            let mut left = n;
            add[origin][n] = 0u128.wrapping_sub((n as u128) << (8 * origin));
            while left > 0 {
                place = (place + 1) % CYCLE;
                if place != skipped {
                    add[origin][n] = add[origin][n].wrapping_add(1u128 << (8 * place));
                    left -= 1;
                }
            }
            let flag = if place == STORE[mover] {
                OWN_STORE
            } else if place / (ROW + 1) == mover {
                OWN_PIT
            } else {
                0
            };
            last[origin][n] = place as u8 | flag;
            n += 1;
        }
        origin += 1;
    }
    (add, last)
}

/// Keys of the hash (as Awari's: top bit of every byte set so that a key XOR a valid half-state
/// is never zero).
const HASH_KEYS: [u64; 2] = zobrist::keys::<2>(0xCA1A);
const HASH_KEY_LO: u64 = HASH_KEYS[0] | 0x8080_8080_8080_8080;
const HASH_KEY_HI: u64 = HASH_KEYS[1] | 0x8080_8080_8080_8080;

/// A Kalah position: seeds per pit and store and the side to move, packed in one 128-bit integer
/// so that a move is a table look-up, an addition and rarely a capture.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Kalah {
    /// Little-endian bytes 0..14: seeds per place in sowing order (see [`STORE`]); 14: the
    /// player to move (0 or 1); 15: always 0.
    state: u128,
}

/// The number of bytes with the top bit set among the six of a row mask (a multiply adds the
/// bytes; `count_ones` has no instruction in the baseline x86-64 target).
#[inline]
fn count_bytes(row_high_bits: u64) -> u32 {
    ((row_high_bits >> 7).wrapping_mul(0x0101_0101_0101) >> 40) as u32 & 0xFF
}

impl Kalah {
    fn from_cells(cells: [u8; 16]) -> Kalah {
        Kalah {
            state: u128::from_le_bytes(cells),
        }
    }

    #[inline]
    fn cells(&self) -> [u8; 16] {
        self.state.to_le_bytes()
    }

    /// Byte `i` of the state.
    #[inline]
    fn cell(&self, i: usize) -> u8 {
        self.cells()[i & 15]
    }

    #[inline]
    fn side(&self) -> usize {
        (self.state >> (8 * SIDE)) as u8 as usize
    }

    #[inline]
    fn store(&self, p: usize) -> u8 {
        (self.state >> (8 * STORE[p])) as u8
    }

    /// The six pits of each player as little-endian integers (pit `i` of the row in byte `i`).
    #[inline]
    fn rows(&self) -> [u64; 2] {
        [
            self.state as u64 & ROW_BYTES,
            (self.state >> (8 * (ROW + 1))) as u64 & ROW_BYTES,
        ]
    }

    /// The legal moves as the top bits of the mover's six row bytes (bit `8i + 7` for its pit
    /// `i`); 0 when either row is empty (the game is over).
    #[inline]
    fn move_bits(&self) -> u64 {
        let [south, north] = self.rows();
        if south == 0 || north == 0 {
            return 0;
        }
        let own = if self.side() == 0 { south } else { north };
        (own + NON_EMPTY_ADD) & ROW_HIGH_BITS
    }

    /// The pit index (move) of row byte `index` of the side to move.
    #[inline]
    fn pit(&self, index: u32) -> Move {
        Move((index as usize + (ROW + 1) * self.side()) as u16)
    }

    /// Seeds a player owns at the end: its store and its row.
    fn total(&self, p: usize) -> u32 {
        let row = &self.cells()[(ROW + 1) * p..(ROW + 1) * p + ROW + 1];
        row.iter().map(|&s| s as u32).sum()
    }
}

/// No network encoding yet.
impl crate::game::Features for Kalah {}

impl Rules for Kalah {
    const INFO: GameInfo = GameInfo {
        name: "kalah",
        aliases: &["mancala", "kalah6"],
        board: "2x6 + 2 stores",
        notation: "the pit sown: A-F for player 1 (bottom row, left to right), a-f for player 2 \
                   (top row, right to left); either case means the mover's own pit, digits 1-6 \
                   count the mover's pits in sowing order, and OpenSpiel's 8-13 are a-f, e.g. C",
        start: "4,4,4,4,4,4/4,4,4,4,4,4 0 0 S",
    };

    fn start() -> Self {
        let mut cells = [4u8; 16];
        cells[STORE[0]] = 0;
        cells[STORE[1]] = 0;
        cells[SIDE] = 0;
        cells[15] = 0;
        Kalah::from_cells(cells)
    }

    #[inline]
    fn to_move(&self) -> Player {
        Player(self.side() as u8)
    }

    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        let mut bits = self.move_bits();
        while bits != 0 {
            out.push(self.pit(bits.trailing_zeros() / 8));
            bits &= bits - 1;
        }
    }

    #[inline]
    fn count_moves(&self) -> usize {
        count_bytes(self.move_bits()) as usize
    }

    #[inline]
    fn play(&mut self, m: Move) {
        let origin = m.0 as usize & 15;
        // A shift of the half holding the pit, not a byte load: the load would wait for the
        // state to be written to memory after the last move, on the critical path of a playout.
        let half = if origin < 8 {
            self.state as u64
        } else {
            (self.state >> 64) as u64
        };
        let seeds = (half >> (8 * (origin & 7))) as u8 as usize;
        debug_assert!(
            origin / (ROW + 1) == self.side() && origin % (ROW + 1) < ROW && seeds > 0,
            "illegal move {m:?}"
        );
        self.state = self.state.wrapping_add(SOW[origin][seeds & 63]);
        let last = LAST[origin][seeds & 63];
        let place = (last & PLACE_MASK) as usize;
        if last & OWN_PIT != 0 && self.cell(place) == 1 {
            let opposite = 2 * ROW - place;
            let taken = self.cell(opposite) as u128;
            if taken != 0 {
                let store = STORE[self.side()];
                self.state = self.state - (1u128 << (8 * place)) - (taken << (8 * opposite))
                    + ((taken + 1) << (8 * store));
            }
        }
        // The turn passes unless the last seed fell into the own store (branch-free: an extra
        // turn follows about one move in six, too often for a well-predicted branch).
        self.state ^= ((last & OWN_STORE == 0) as u128) << (8 * SIDE);
    }

    fn outcome(&self) -> Option<Outcome> {
        let [south, north] = self.rows();
        if south != 0 && north != 0 {
            return None;
        }
        Some(Outcome::by_score(
            self.total(0) as i32 - self.total(1) as i32,
        ))
    }

    /// A hash of the packed 16-byte state computed on demand (as Awari's: one folded multiply).
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
        let pit = m.0 as u8;
        let letter = if pit < ROW as u8 {
            b'A' + pit
        } else {
            b'a' + pit - (ROW + 1) as u8
        };
        (letter as char).to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        let side = self.side();
        let own = |index: u8| ((ROW + 1) * side) as u16 + index as u16;
        let pit = match text.trim().as_bytes() {
            [c @ b'A'..=b'F'] => own(c - b'A'),
            [c @ b'a'..=b'f'] => own(c - b'a'),
            [c @ b'1'..=b'6'] => own(c - b'1'),
            // OpenSpiel's numbers of player 2's pits.
            [b'8'] | [b'9'] | [b'1', b'0'..=b'3'] => {
                let n: u16 = text.trim().parse().unwrap_or(0);
                if side != 1 {
                    return Err(GameError::illegal(
                        text,
                        "OpenSpiel pits 8-13 belong to player 2, and player 1 is to move",
                    ));
                }
                n - 1
            }
            _ => {
                return Err(GameError::syntax(
                    text,
                    "expected a pit: a letter A-F or a-f, a digit 1-6, or OpenSpiel's 8-13",
                ))
            }
        };
        find_legal(self, text, Move(pit)).map_err(|e| match e {
            GameError::IllegalMove { .. } if self.outcome().is_none() => {
                GameError::illegal(text, "the pit is empty")
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
        for (slot, h) in rows.top.iter_mut().zip((ROW + 1..2 * ROW + 1).rev()) {
            *slot = self.cell(h);
        }
        for (slot, h) in rows.bottom.iter_mut().zip(0..ROW) {
            *slot = self.cell(h);
        }
        rows.format()
    }

    fn parse_position(text: &str) -> Result<Self, GameError> {
        let rows = RowsText::parse(text, "pit")?;
        let mut cells = [0u8; 16];
        cells[..ROW].copy_from_slice(&rows.bottom);
        for (i, &seeds) in rows.top.iter().enumerate() {
            cells[2 * ROW - i] = seeds;
        }
        cells[STORE[0]] = rows.stores[0];
        cells[STORE[1]] = rows.stores[1];
        cells[SIDE] = rows.side;
        Ok(Kalah::from_cells(cells))
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
        out += "     f  e  d  c  b  a\n";
        out += "   ";
        for h in (ROW + 1..2 * ROW + 1).rev() {
            out += &format!("{:>3}", self.cell(h));
        }
        out += &format!("\n{:>3}{:>21}\n   ", self.store(1), self.store(0));
        for h in 0..ROW {
            out += &format!("{:>3}", self.cell(h));
        }
        out += "\n     A  B  C  D  E  F\n";
        out += &format!("Player 1 (south) store = {}{}\n", self.store(0), marker(0));
        if let Some(outcome) = self.outcome() {
            out += &format!(
                "Game over: a row is empty, each side takes its own row, {}-{}: {outcome}\n",
                self.total(0),
                self.total(1)
            );
        }
        out
    }

    #[inline]
    fn random_move(&self, rng: &mut Rng, _buf: &mut MoveList) -> Option<Move> {
        let bits = self.move_bits();
        if bits == 0 {
            return None;
        }
        // The k-th legal move in pit order, found without a data-dependent loop: byte i of
        // `before` counts the legal moves in pits 0..=i, and the k-th move's pit is the number
        // of bytes where that count is <= k.
        let k = rng.below(count_bytes(bits)) as u64;
        let before = (bits >> 7).wrapping_mul(0x0101_0101_0101);
        let beyond = (before + (0x7F - k) * 0x0101_0101_0101) & ROW_HIGH_BITS;
        Some(self.pit(ROW as u32 - count_bytes(beyond)))
    }

    /// Seeds in the stores: they never leave, so positions with different totals differ.
    #[inline]
    fn progress(&self) -> u32 {
        self.store(0) as u32 + self.store(1) as u32
    }
}

impl Heuristics for Kalah {
    const HAS_EVALUATION: bool = true;

    /// The store difference over all the seeds (the implicit-minimax paper's evaluation): a
    /// store cannot hold every seed while the game goes on, so the value stays inside (-1, 1).
    #[inline]
    fn evaluate(&self, player: Player) -> f32 {
        let diff = self.store(0) as i32 - self.store(1) as i32;
        let v = diff as f32 / TOTAL_SEEDS as f32;
        crate::game::zero_sum(v, player)
    }

    /// A capture: the last seed lands in an empty own pit across from a non-empty one.
    #[inline]
    fn is_capture(&self, m: Move) -> bool {
        let origin = m.0 as usize & 15;
        let seeds = self.cell(origin) as usize;
        let last = LAST[origin][seeds & 63];
        if last & OWN_PIT == 0 {
            return false;
        }
        let after = Kalah {
            state: self.state.wrapping_add(SOW[origin][seeds & 63]),
        };
        let place = (last & PLACE_MASK) as usize;
        after.cell(place) == 1 && after.cell(2 * ROW - place) != 0
    }
}

impl Dialects for Kalah {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::check::random_games;
    use crate::game::perft::perft;

    fn moves_of(g: &Kalah) -> Vec<String> {
        let mut list = MoveList::new();
        g.legal_moves(&mut list);
        list.iter().map(|&m| g.format_move(m)).collect()
    }

    #[test]
    fn start_position_string_and_moves() {
        let g = Kalah::start();
        assert_eq!(g.to_position(), Kalah::INFO.start);
        assert_eq!(Kalah::parse_position(Kalah::INFO.start), Ok(Kalah::start()));
        assert_eq!(moves_of(&g), ["A", "B", "C", "D", "E", "F"]);
        assert_eq!(perft(&g, 4), 942);
    }

    #[test]
    fn random_games_keep_invariants() {
        let stats = random_games(&Kalah::start(), 4000, 1);
        assert_eq!(stats.capped, 0);
        assert!(stats.draws > 0 && stats.decisive > 0, "{stats:?}");
    }

    #[test]
    fn last_seed_in_own_store_moves_again() {
        // C holds 4: C->D,E,F,store. The same player moves again.
        let mut g = Kalah::start();
        g.play_text("C").unwrap();
        assert_eq!(g.to_position(), "4,4,4,4,4,4/4,4,0,5,5,5 1 0 S");
        assert_eq!(g.to_move(), Player(0));
        g.play_text("F").unwrap();
        assert_eq!(g.to_position(), "4,4,5,5,5,5/4,4,0,5,5,0 2 0 N");
        // North: a holds 6 -> b..f then its store: again, and f's single seed again.
        let mut g = Kalah::parse_position("0,0,0,0,0,6/1,0,0,0,0,0 23 18 N").unwrap();
        g.play_text("a").unwrap();
        assert_eq!(g.to_position(), "1,1,1,1,1,0/1,0,0,0,0,0 23 19 N");
        g.play_text("f").unwrap();
        assert_eq!(g.to_position(), "0,1,1,1,1,0/1,0,0,0,0,0 23 20 N");
        // e: one seed into f, which was empty; opposite A holds 1: captured.
        g.play_text("e").unwrap();
        assert_eq!(g.to_position(), "0,0,1,1,1,0/0,0,0,0,0,0 23 22 S");
        assert_eq!(g.outcome(), Some(Outcome::win(Player(1), 2)));
    }

    #[test]
    fn sowing_skips_the_opponents_store() {
        // F with 9 seeds: store, a..f, (skip north store), A, B.
        let mut g = Kalah::parse_position("1,1,1,1,1,1/1,1,1,1,1,9 15 13 S").unwrap();
        g.play_text("F").unwrap();
        assert_eq!(g.to_position(), "2,2,2,2,2,2/2,2,1,1,1,0 16 13 N");
        // a with 13 seeds comes back to a: it was empty, now 1, and F opposite holds 5.
        let mut g = Kalah::parse_position("1,1,1,1,1,13/1,1,1,1,1,4 10 11 N").unwrap();
        g.play_text("a").unwrap();
        // Every other place of the lap gains 1, the south store is skipped; a ends with 1 and
        // captures F's 5: north store 11 + 1 + 1 + 5.
        assert_eq!(g.to_position(), "2,2,2,2,2,0/2,2,2,2,2,0 10 18 S");
    }

    #[test]
    fn capture_from_the_opposite_pit() {
        // A holds 1 and B is empty: A->B captures B's seed and the 4 of e, opposite B.
        let mut g = Kalah::parse_position("4,4,4,3,4,4/1,0,4,4,4,4 4 4 S").unwrap();
        g.play_text("A").unwrap();
        assert_eq!(g.to_position(), "4,0,4,3,4,4/0,0,4,4,4,4 9 4 N");
        // No capture when the opposite pit is empty: the seed stays.
        let mut g = Kalah::parse_position("4,0,4,4,4,4/1,0,4,4,4,7 4 4 S").unwrap();
        g.play_text("A").unwrap();
        assert_eq!(g.to_position(), "4,0,4,4,4,4/0,1,4,4,4,7 4 4 N");
        // No capture in the opponent's row, nor when the own pit was not empty.
        let mut g = Kalah::parse_position("4,4,4,4,4,4/1,2,4,4,4,4 3 2 S").unwrap();
        g.play_text("A").unwrap();
        assert_eq!(g.to_position(), "4,4,4,4,4,4/0,3,4,4,4,4 3 2 N");
        // North captures too: a (1 seed) -> b empty, opposite of b is E.
        let mut g = Kalah::parse_position("4,4,4,4,0,1/4,4,4,4,3,4 4 4 N").unwrap();
        g.play_text("a").unwrap();
        assert_eq!(g.to_position(), "4,4,4,4,0,0/4,4,4,4,0,4 4 8 S");
    }

    #[test]
    fn an_empty_row_ends_the_game_and_rows_go_to_their_owners() {
        // South sows its last seed into its store: its row is empty, the game ends at once
        // (even though South would move again); North keeps its 10 seeds: 24-24 draws.
        let mut g = Kalah::parse_position("2,2,2,2,1,1/0,0,0,0,0,1 23 14 S").unwrap();
        g.play_text("F").unwrap();
        assert_eq!(g.count_moves(), 0);
        assert_eq!(g.outcome(), Some(Outcome::draw(2)));
        // An empty row of the player NOT to move also ends the game.
        let g = Kalah::parse_position("0,0,0,0,0,0/0,0,0,0,0,3 20 25 S").unwrap();
        assert_eq!(g.outcome(), Some(Outcome::win(Player(1), 2)));
        assert!(moves_of(&g).is_empty());
        let g = Kalah::parse_position("0,0,0,0,0,1/0,0,0,0,0,3 25 19 N").unwrap();
        assert_eq!(g.outcome(), None);
    }

    #[test]
    fn openspiel_numbers_are_accepted() {
        let g = Kalah::start();
        assert_eq!(g.parse_move("3"), g.parse_move("C"));
        assert!(matches!(
            g.parse_move("8"),
            Err(GameError::IllegalMove { .. })
        ));
        let mut g = Kalah::start();
        g.play_text("A").unwrap();
        assert_eq!(g.parse_move("8").map(|m| g.format_move(m)), Ok("a".into()));
        assert_eq!(g.parse_move("13").map(|m| g.format_move(m)), Ok("f".into()));
        assert_eq!(g.parse_move("1").map(|m| g.format_move(m)), Ok("a".into()));
    }

    #[test]
    fn bad_positions_name_the_field() {
        for (text, field) in [
            ("", "board"),
            ("4,4,4,4,4,4 0 0 S", "board"),
            ("4,4,4,4,4,4/4,4,4,4,4,4/4 0 0 S", "board"),
            ("4,4,4,4,4/4,4,4,4,4,4,4 0 0 S", "board"),
            ("4,4,4,4,4,4,4/4,4,4,4,4 0 0 S", "board"),
            ("4,4,4,4,4,x/4,4,4,4,4,4 0 0 S", "board"),
            ("4,4,4,4,4,-4/4,4,4,4,4,4 0 0 S", "board"),
            ("4,4,4,4,4,99999999999999999999/4,4,4,4,4,4 0 0 S", "board"),
            ("4,4,4,4,4,4/4,4,4,4,4,4 1 0 S", "board"),
            ("4,4,4,4,4,4/4,4,4,4,4,ü 0 0 S", "board"),
            ("4,4,4,4,4,4/4,4,4,4,4,4", "store of player 1"),
            ("4,4,4,4,4,4/4,4,4,4,4,4 x 0 S", "store of player 1"),
            ("4,4,4,4,4,4/4,4,4,4,4,4 0 -1 S", "store of player 2"),
            ("4,4,4,4,4,4/4,4,4,4,4,4 0 0", "side to move"),
            ("4,4,4,4,4,4/4,4,4,4,4,4 0 0 W", "side to move"),
        ] {
            match Kalah::parse_position(text) {
                Err(GameError::Position { field: f, .. }) => assert_eq!(f, field, "{text}"),
                other => panic!("{text}: expected a position error, got {other:?}"),
            }
        }
        // Trailing fields are ignored.
        assert_eq!(
            Kalah::parse_position("4,4,4,4,4,4/4,4,4,4,4,4 0 0 S 12 7"),
            Ok(Kalah::start())
        );
    }

    #[test]
    fn bad_moves_are_typed_errors() {
        let g = Kalah::start();
        for text in [
            "",
            "G",
            "g",
            "0",
            "7",
            "14",
            "AB",
            "ü",
            "99999999999999999999",
            "pass",
        ] {
            assert!(
                matches!(g.parse_move(text), Err(GameError::MoveSyntax { .. })),
                "{text}"
            );
        }
        let g = Kalah::parse_position("4,4,4,4,4,4/0,4,4,4,4,4 4 0 S").unwrap();
        assert!(matches!(
            g.parse_move("A"),
            Err(GameError::IllegalMove { .. })
        ));
        let over = Kalah::parse_position("0,0,0,0,0,0/0,0,0,0,0,3 20 25 S").unwrap();
        assert!(matches!(
            over.parse_move("F"),
            Err(GameError::IllegalMove { .. })
        ));
    }

    #[test]
    fn evaluation_invariants_hold() {
        crate::game::check::evaluation_invariants(&Kalah::start(), 300, 41);
        assert_eq!(Kalah::start().evaluate(Player(0)), 0.0);
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        // The mirror: each row becomes the other's (read in reverse, as the diagram shows the
        // north row right to left), the stores and the side to move swap.
        crate::game::check::assert_mirrored_evaluation::<Kalah>(
            "0,1,2,3,4,5/6,5,4,3,2,1 8 4 S",
            "1,2,3,4,5,6/5,4,3,2,1,0 4 8 N",
        );
    }

    #[test]
    fn the_bigger_store_evaluates_higher() {
        use crate::game::check::evaluation_of;
        let v = evaluation_of::<Kalah>("0,1,2,3,4,5/6,5,4,3,2,1 8 4 S", Player(0));
        assert_eq!(v, 4.0 / 48.0);
        assert_eq!(
            evaluation_of::<Kalah>("0,1,2,3,4,5/6,5,4,3,2,1 8 4 S", Player(1)),
            -v
        );
    }

    #[test]
    fn captures_are_flagged() {
        // South's pit A holds one seed, B is empty and across from north's b: A captures.
        let g = Kalah::parse_position("4,4,4,4,4,4/1,0,4,4,4,4 0 7 S").unwrap();
        let mut list = MoveList::new();
        g.legal_moves(&mut list);
        let caps: Vec<String> = list
            .iter()
            .filter(|&&m| g.is_capture(m))
            .map(|&m| g.format_move(m))
            .collect();
        assert_eq!(caps.len(), 1, "{caps:?}");
        let mut after = g.clone();
        after.play(list.iter().copied().find(|&m| g.is_capture(m)).unwrap());
        assert!(after.store(0) > 1);
    }
}
