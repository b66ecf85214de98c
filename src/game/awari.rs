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
use super::{find_legal, zobrist, Game, GameError, GameInfo, Move, MoveList, Outcome, Player};
use crate::rng::Rng;

/// Houses per row, and on the board.
const ROW: usize = 6;
const HOUSES: usize = 2 * ROW;
/// Seeds in the game: 4 per house at the start, always 48 on the board plus in the stores.
const TOTAL_SEEDS: u32 = 48;
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

    /// Parses one row of six comma-separated seed counts.
    fn parse_row(text: &str, which: &str) -> Result<[u8; ROW], GameError> {
        let mut row = [0u8; ROW];
        let mut count = 0;
        for (i, item) in text.split(',').enumerate() {
            if i >= ROW {
                return Err(GameError::position(
                    "board",
                    format!("the {which} row '{text}' has more than {ROW} houses"),
                ));
            }
            row[i] = parse_count(item).map_err(|m| {
                GameError::position("board", format!("house {} of the {which} row: {m}", i + 1))
            })?;
            count = i + 1;
        }
        if count != ROW {
            return Err(GameError::position(
                "board",
                format!("the {which} row '{text}' has {count} houses, expected {ROW}"),
            ));
        }
        Ok(row)
    }
}

/// The number of bytes with the top bit set among the six of a row mask. A multiply adds the
/// bytes: `count_ones` has no instruction in the baseline x86-64 target and costs a dozen.
#[inline]
fn count_bytes(row_high_bits: u64) -> u32 {
    ((row_high_bits >> 7).wrapping_mul(0x0101_0101_0101) >> 40) as u32 & 0xFF
}

/// A seed count: decimal digits only, at most 48.
fn parse_count(text: &str) -> Result<u8, String> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("'{text}' is not a number of seeds"));
    }
    match text.parse::<u32>() {
        Ok(n) if n <= TOTAL_SEEDS => Ok(n as u8),
        _ => Err(format!(
            "'{text}' is more than the {TOTAL_SEEDS} seeds of the game"
        )),
    }
}

impl Game for Awari {
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
        let list = |houses: &mut dyn Iterator<Item = usize>| {
            houses
                .map(|h| self.cell(h).to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let top = list(&mut (ROW..HOUSES).rev());
        let bottom = list(&mut (0..ROW));
        let side = if self.side() == 0 { 'S' } else { 'N' };
        format!("{top}/{bottom} {} {} {side}", self.store(0), self.store(1))
    }

    fn parse_position(text: &str) -> Result<Self, GameError> {
        let mut fields = text.split_whitespace();
        let board = fields
            .next()
            .ok_or_else(|| GameError::position("board", "missing"))?;
        let (top, bottom) = board.split_once('/').ok_or_else(|| {
            GameError::position(
                "board",
                format!("'{board}' is not two rows separated by '/'"),
            )
        })?;
        if bottom.contains('/') {
            return Err(GameError::position(
                "board",
                format!("'{board}' has more than two rows"),
            ));
        }
        let top = Self::parse_row(top, "top (north)")?;
        let bottom = Self::parse_row(bottom, "bottom (south)")?;

        let mut cells = [0u8; 16];
        cells[..ROW].copy_from_slice(&bottom);
        for (i, &seeds) in top.iter().enumerate() {
            cells[HOUSES - 1 - i] = seeds;
        }
        for (p, field) in [(0, "store of player 1"), (1, "store of player 2")] {
            let text = fields
                .next()
                .ok_or_else(|| GameError::position(field, "missing"))?;
            cells[STORE[p]] = parse_count(text).map_err(|m| GameError::position(field, m))?;
        }
        let side = fields
            .next()
            .ok_or_else(|| GameError::position("side to move", "missing"))?;
        cells[SIDE] = match side {
            "S" | "s" => 0,
            "N" | "n" => 1,
            _ => {
                return Err(GameError::position(
                    "side to move",
                    format!("'{side}' is neither S (player 1, south) nor N (player 2, north)"),
                ))
            }
        };
        // Trailing fields (move counters and the like) are ignored.

        let total: u32 = cells[..STORE[1] + 1].iter().map(|&s| s as u32).sum();
        if total != TOTAL_SEEDS {
            return Err(GameError::position(
                "board",
                format!("houses and stores hold {total} seeds, expected {TOTAL_SEEDS}"),
            ));
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::check::random_games;
    use crate::game::record::Record;

    fn pos(text: &str) -> Awari {
        Awari::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn moves_of(p: &Awari) -> Vec<String> {
        let mut list = MoveList::new();
        p.legal_moves(&mut list);
        list.iter().map(|&m| p.format_move(m)).collect()
    }

    /// Plays `moves` from `start` and returns the resulting position string.
    fn after(start: &str, moves: &[&str]) -> String {
        let mut p = pos(start);
        for m in moves {
            p.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        p.to_position()
    }

    fn field_of(result: Result<Awari, GameError>) -> &'static str {
        match result {
            Err(GameError::Position { field, .. }) => field,
            other => panic!("expected a position error, got {other:?}"),
        }
    }

    /// The rules written out seed by seed, as OpenSpiel states them: the slow, obvious version
    /// of `play` on the byte layout of [`Awari::state`].
    fn reference_play(mut cells: [u8; 16], origin: usize) -> [u8; 16] {
        let side = cells[SIDE] as usize;
        let opponent_row = ROW * (1 - side)..ROW * (2 - side);
        let mut left = cells[origin];
        cells[origin] = 0;
        let mut house = origin;
        while left > 0 {
            house = (house + 1) % HOUSES;
            if house != origin {
                cells[house] += 1;
                left -= 1;
            }
        }
        let takeable = |seeds: u8| seeds == 2 || seeds == 3;
        if opponent_row.contains(&house) {
            let nothing_beyond = (house + 1..opponent_row.end).all(|h| cells[h] == 0);
            let all_taken = (opponent_row.start..=house).all(|h| takeable(cells[h]));
            if !(nothing_beyond && all_taken) {
                for h in (opponent_row.start..=house).rev() {
                    if !takeable(cells[h]) {
                        break;
                    }
                    cells[STORE[side]] += cells[h];
                    cells[h] = 0;
                }
            }
        }
        cells[SIDE] ^= 1;
        cells
    }

    /// Legal moves by the rules as stated (houses, in order).
    fn reference_moves(cells: [u8; 16]) -> Vec<usize> {
        let (s0, s1) = (cells[STORE[0]], cells[STORE[1]]);
        if s0 > 24 || s1 > 24 || (s0 == 24 && s1 == 24) {
            return Vec::new();
        }
        let side = cells[SIDE] as usize;
        let own = ROW * side..ROW * (side + 1);
        let starved = cells[ROW * (1 - side)..ROW * (2 - side)]
            .iter()
            .all(|&s| s == 0);
        own.clone()
            .filter(|&h| cells[h] > 0 && (!starved || cells[h] as usize > own.end - 1 - h))
            .collect()
    }

    /// A random legal-looking position: random stores, the other seeds scattered over a random
    /// subset of the houses (so that sparse rows, starved sides and big houses all occur).
    fn random_position(rng: &mut Rng) -> Awari {
        let mut cells = [0u8; 16];
        cells[STORE[0]] = rng.below(26) as u8;
        cells[STORE[1]] = rng.below(23) as u8;
        cells[SIDE] = rng.below(2) as u8;
        let used = 1 + rng.below(4095) as u16;
        let houses: Vec<usize> = (0..HOUSES).filter(|h| used >> h & 1 != 0).collect();
        let on_board = TOTAL_SEEDS - cells[STORE[0]] as u32 - cells[STORE[1]] as u32;
        for _ in 0..on_board {
            cells[houses[rng.below(houses.len() as u32) as usize]] += 1;
        }
        Awari::from_cells(cells)
    }

    #[test]
    fn packed_play_matches_the_rules_seed_by_seed() {
        let mut rng = Rng::new(99);
        for _ in 0..100_000 {
            let p = random_position(&mut rng);
            let moves: Vec<usize> = {
                let mut list = MoveList::new();
                p.legal_moves(&mut list);
                list.iter().map(|m| m.0 as usize).collect()
            };
            assert_eq!(moves, reference_moves(p.cells()), "{}", p.to_position());
            for &m in &moves {
                let mut q = p.clone();
                q.play(Move(m as u16));
                let expected = Awari::from_cells(reference_play(p.cells(), m));
                assert_eq!(
                    q,
                    expected,
                    "{} after {}",
                    p.to_position(),
                    p.format_move(Move(m as u16))
                );
            }
        }
    }

    #[test]
    fn random_games_keep_the_invariants() {
        let stats = random_games(&Awari::start(), 3000, 1);
        assert_eq!(stats.games, 3000);
        assert!(stats.decisive > 0 && stats.draws > 0, "{stats:?}");
        assert_eq!(
            stats.capped, 0,
            "random games end long before the length cap"
        );
        // From unusual positions too: a starved side, laps, a near-decided score.
        for (i, start) in [
            "0,0,0,0,0,0/1,0,9,0,0,1 23 14 S",
            "1,1,1,1,1,1/12,0,0,0,0,0 15 15 S",
            "0,0,0,0,3,0/0,0,22,0,0,0 13 10 S",
        ]
        .iter()
        .enumerate()
        {
            random_games(&pos(start), 300, i as u64 + 2);
        }
    }

    #[test]
    fn start_position_and_notation() {
        let start = Awari::start();
        assert_eq!(start.to_position(), Awari::INFO.start);
        assert_eq!(pos(Awari::INFO.start), start);
        assert_eq!(moves_of(&start), ["A", "B", "C", "D", "E", "F"]);
        // Either case and the digits name the mover's own houses.
        for text in ["C", "c", "3", " 3 "] {
            assert_eq!(start.format_move(start.parse_move(text).unwrap()), "C");
        }
        let mut north = start.clone();
        north.play_text("A").unwrap();
        assert_eq!(moves_of(&north), ["a", "b", "c", "d", "e", "f"]);
        for text in ["F", "f", "6"] {
            assert_eq!(north.format_move(north.parse_move(text).unwrap()), "f");
        }
        // Sowing order: A..F, then a..f (a is at the top right of the diagram).
        assert_eq!(
            after(Awari::INFO.start, &["F"]),
            "4,4,5,5,5,5/4,4,4,4,4,0 0 0 N"
        );
        assert_eq!(
            after(Awari::INFO.start, &["F", "f"]),
            "0,4,5,5,5,5/5,5,5,5,4,0 0 0 S"
        );
    }

    #[test]
    fn sowing_skips_the_origin_on_laps() {
        // 12 seeds: 11 go round, the 12th skips A and lands in B.
        let p = "1,1,1,1,1,1/12,0,0,0,0,0 15 15 S";
        assert_eq!(after(p, &["A"]), "2,2,2,2,2,2/0,2,1,1,1,1 15 15 N");
        // 11 seeds end in the house before the origin (f) without touching A.
        let p = "0,0,0,0,0,0/11,0,0,0,0,0 19 18 S";
        assert_eq!(after(p, &["A"]), "1,1,1,1,1,1/0,1,1,1,1,1 19 18 N");
    }

    #[test]
    fn captures_chain_backwards_through_twos_and_threes() {
        // OpenSpiel CaptureMostOpponentHousesTest: C ends in e (3); e, d, c, b are taken,
        // a (4 seeds) stops the chain.
        let p = "0,2,1,1,1,3/0,0,8,0,0,1 12 19 S";
        assert_eq!(after(p, &["C"]), "0,0,0,0,0,4/0,0,0,1,1,2 21 19 N");
        // The chain stops at the start of the opponent's row, never entering the mover's row:
        // E sows F and a; a (2) is taken, F (3) is the mover's own house.
        let p = "0,0,1,1,2,1/0,0,0,0,2,2 20 19 S";
        assert_eq!(after(p, &["E"]), "0,0,1,1,2,0/0,0,0,0,0,3 22 19 N");
        // Two full laps from C end in the mover's own B: nothing is captured although every
        // opponent house then holds 2 or more.
        let p = "0,0,0,0,2,0/0,0,22,0,0,0 12 12 S";
        assert_eq!(after(p, &["C"]), "2,2,2,2,4,2/2,2,0,2,2,2 12 12 N");
    }

    #[test]
    fn captures_reaching_more_than_half_end_the_game() {
        // OpenSpiel CaptureOpponentHousesTillBeginTest with 48 seeds: C takes a..e (11 seeds),
        // f keeps 3 so it is no grand slam.
        let p = pos("3,2,1,1,1,1/0,0,8,0,0,1 15 15 S");
        let mut q = p.clone();
        q.play_text("C").unwrap();
        assert_eq!(q.to_position(), "3,0,0,0,0,0/0,0,0,1,1,2 26 15 N");
        assert_eq!(q.outcome(), Some(Outcome::win(Player(0), 2)));
        assert_eq!(q.count_moves(), 0);
        // Exactly 24 each is a draw.
        let draw = pos("0,0,0,0,0,0/0,0,0,0,0,0 24 24 S");
        assert_eq!(draw.outcome(), Some(Outcome::draw(2)));
    }

    #[test]
    fn grand_slam_captures_nothing() {
        // OpenSpiel NoCaptureBecauseGrandSlamTest (player 1 sows c onto A..E), 48 seeds.
        let p = "1,0,0,8,0,0/1,1,1,1,1,0 14 20 N";
        assert_eq!(after(p, &["c"]), "2,1,1,0,0,0/2,2,2,2,2,0 14 20 S");
        // Two laps from A leave every opponent house with 2: all would be taken, so none is.
        let p = "0,0,0,0,0,0/22,0,0,0,0,0 13 13 S";
        assert_eq!(after(p, &["A"]), "2,2,2,2,2,2/0,2,2,2,2,2 13 13 N");
        // The same with b = 2 first: b ends with 4, so c..f are captured normally.
        let p = "0,0,0,0,2,0/22,0,0,0,0,0 12 12 S";
        assert_eq!(after(p, &["A"]), "0,0,0,0,4,2/0,2,2,2,2,2 20 12 N");
    }

    #[test]
    fn too_few_or_too_many_seeds_capture_nothing() {
        // OpenSpiel NoCaptureBecauseTooFewSeedsTest / TooManySeedsTest, with 48 seeds.
        assert_eq!(
            after("1,0,0,8,0,0/3,1,1,1,0,0 16 17 N", &["c"]),
            "2,1,1,0,0,0/4,2,2,2,1,0 16 17 S"
        );
        assert_eq!(
            after("0,3,1,1,1,3/0,0,8,0,0,1 15 15 S", &["C"]),
            "0,4,2,2,2,4/0,0,0,1,1,2 15 15 N"
        );
    }

    #[test]
    fn a_starved_opponent_must_be_fed() {
        // OpenSpiel LegalActionsNoConstraintsTest and LegalActionsLeaveTheOpponentSeedsTest.
        assert_eq!(
            moves_of(&pos("0,0,0,0,0,1/1,0,9,0,0,1 20 16 S")),
            ["A", "C", "F"]
        );
        let starved = pos("0,0,0,0,0,0/1,0,0,0,0,1 23 23 S");
        assert_eq!(moves_of(&starved), ["F"]);
        assert!(matches!(
            starved.parse_move("A"),
            Err(GameError::IllegalMove { .. })
        ));
        // Each house needs enough seeds to reach the opponent's row.
        let p = pos("0,0,0,0,0,0/5,4,3,2,1,0 17 16 S");
        assert_eq!(p.outcome(), Some(Outcome::win(Player(0), 2)));
        let p = pos("0,0,0,0,0,0/6,4,4,2,1,0 16 15 S");
        assert_eq!(moves_of(&p), ["A", "C"]);
        // The rule holds for the north player too.
        let p = pos("0,2,0,0,4,6/0,0,0,0,0,0 19 17 N");
        assert_eq!(moves_of(&p), ["a", "e"]);
    }

    #[test]
    fn unable_to_feed_ends_the_game_with_each_side_taking_its_row() {
        // South cannot reach the empty north row: south takes its 4 seeds, 26-22.
        let p = pos("0,0,0,0,0,0/3,1,0,0,0,0 22 22 S");
        assert_eq!(moves_of(&p), Vec::<String>::new());
        assert_eq!(p.outcome(), Some(Outcome::win(Player(0), 2)));
        // ... and a 24-24 split that way is a draw.
        let p = pos("0,0,0,0,0,0/1,0,0,0,0,0 23 24 S");
        assert_eq!(p.outcome(), Some(Outcome::draw(2)));
        // The move that starves the opponent is legal; the opponent then cannot feed it back.
        let mut p = pos("0,0,0,0,0,1/0,0,0,0,0,0 23 24 N");
        assert_eq!(p.outcome(), Some(Outcome::win(Player(1), 2)));
        p = pos("0,0,0,0,0,1/0,0,0,0,1,0 22 24 S");
        p.play_text("E").unwrap();
        assert_eq!(p.to_position(), "0,0,0,0,0,1/0,0,0,0,0,1 22 24 N");
        assert!(p.outcome().is_none());
        p.play_text("a").unwrap();
        assert_eq!(p.to_position(), "0,0,0,0,1,0/0,0,0,0,0,1 22 24 S");
    }

    #[test]
    fn first_repetition_ends_the_game_with_each_side_taking_its_row() {
        // OpenSpiel GameEndsByRepetitionTest: the two single seeds chase each other round.
        let start = pos("0,0,0,0,0,1/1,0,0,0,0,0 23 23 S");
        let mut record = Record::new(start.clone(), Awari::MAX_PLIES);
        for (i, m) in ["A", "a", "B", "b", "C", "c", "D", "d", "E", "e", "F", "f"]
            .iter()
            .enumerate()
        {
            assert!(record.outcome().is_none(), "over before ply {i}");
            let mv = record.position().parse_move(m).unwrap();
            record.play(mv);
        }
        assert_eq!(record.position(), &start);
        assert_eq!(record.outcome(), Some(Outcome::draw(2)));
        // Uneven rows: the side with more seeds on its row wins at the repetition.
        let p = pos("0,0,0,0,0,1/3,0,0,0,0,0 22 22 S");
        let rep = Repetition {
            count: 2,
            perpetual_check_by: None,
        };
        assert_eq!(p.repetition_outcome(&rep), Some(Outcome::win(Player(0), 2)));
    }

    #[test]
    fn a_side_without_seeds_to_move_ends_the_game() {
        let p = pos("0,0,0,0,0,5/0,0,0,0,0,0 20 23 S");
        assert_eq!(p.count_moves(), 0);
        assert_eq!(p.outcome(), Some(Outcome::win(Player(1), 2)));
        assert!(matches!(
            p.parse_move("A"),
            Err(GameError::IllegalMove { .. })
        ));
    }

    #[test]
    fn random_move_is_uniform_over_legal_moves() {
        let p = pos("0,0,0,0,0,1/1,0,9,0,3,1 20 13 S");
        let legal = moves_of(&p);
        assert_eq!(legal, ["A", "C", "E", "F"]);
        let mut rng = Rng::new(5);
        let mut buf = MoveList::new();
        let mut seen = std::collections::HashMap::new();
        for _ in 0..4000 {
            let m = p.random_move(&mut rng, &mut buf).unwrap();
            *seen.entry(p.format_move(m)).or_insert(0) += 1;
        }
        assert_eq!(seen.len(), 4);
        assert!(seen.values().all(|&n| (850..1150).contains(&n)), "{seen:?}");
    }

    #[test]
    fn position_strings_round_trip_and_ignore_trailing_fields() {
        let text = "13,1,1,5,0,8/0,0,12,0,3,0 3 2 S";
        assert_eq!(pos(text).to_position(), text);
        assert_eq!(
            pos("13,1,1,5,0,8/0,0,12,0,3,0 3 2 s 40 -").to_position(),
            text
        );
        assert_eq!(
            pos("  13,1,1,5,0,8/0,0,12,0,3,0   3 2 N").to_position(),
            text.replace('S', "N")
        );
        assert!(pos(text)
            .diagram()
            .contains(" 13  1  1  5  0  8\n  0  0 12  0  3  0"));
    }

    #[test]
    fn bad_position_strings_name_the_field() {
        let board = [
            "",
            "   ",
            "4,4,4,4,4,4",
            "4,4,4,4,4,4/4,4,4,4,4,4/4 0 0 S",
            "4,4,4,4,4/4,4,4,4,4,4,4 0 0 S",
            "4,4,4,4,4,4,4/4,4,4,4,4 0 0 S",
            "4,4,x,4,4,4/4,4,4,4,4,4 0 0 S",
            "4,4,-4,4,4,4/4,4,4,4,4,4 0 0 S",
            "4,4,+4,4,4,4/4,4,4,4,4,4 0 0 S",
            "4,4,,4,4,4/4,4,4,4,4,4 0 0 S",
            "4,4,99999999999999999999999,4,4,4/4,4,4,4,4,4 0 0 S",
            "4,4,49,4,4,4/4,4,4,4,4,4 0 0 S",
            "4,4,４,4,4,4/4,4,4,4,4,4 0 0 S",
            "4;4;4;4;4;4/4,4,4,4,4,4 0 0 S",
            "4,4,4,4,4,4/4,4,4,4,4,4 1 0 S",
            "4,4,4,4,4,4/4,4,4,4,4,3 0 0 S",
            "0,0,0,0,0,0/0,0,0,0,0,0 24 23 S",
        ];
        for text in board {
            assert_eq!(field_of(Awari::parse_position(text)), "board", "{text}");
        }
        let p = "4,4,4,4,4,4/4,4,4,4,4,4";
        assert_eq!(field_of(Awari::parse_position(p)), "store of player 1");
        assert_eq!(
            field_of(Awari::parse_position(&format!("{p} x 0 S"))),
            "store of player 1"
        );
        assert_eq!(
            field_of(Awari::parse_position(&format!("{p} 0"))),
            "store of player 2"
        );
        assert_eq!(
            field_of(Awari::parse_position(&format!("{p} 0 -1 S"))),
            "store of player 2"
        );
        assert_eq!(
            field_of(Awari::parse_position(&format!("{p} 0 1000 S"))),
            "store of player 2"
        );
        for side in ["", "W", "0", "south", "ś"] {
            let text = format!("{p} 0 0 {side}");
            assert_eq!(
                field_of(Awari::parse_position(&text)),
                "side to move",
                "{text}"
            );
        }
    }

    #[test]
    fn bad_moves_are_rejected_with_the_right_error() {
        let start = Awari::start();
        for text in [
            "",
            " ",
            "G",
            "g",
            "0",
            "7",
            "AB",
            "A1",
            "pass",
            "é",
            "１",
            "-1",
            "99999999999",
        ] {
            match start.parse_move(text) {
                Err(GameError::MoveSyntax { text: t, .. }) => assert_eq!(t, text),
                other => panic!("'{text}': expected a syntax error, got {other:?}"),
            }
        }
        let p = pos("0,0,0,0,0,1/1,0,9,0,0,1 20 16 S");
        match p.parse_move("B") {
            Err(GameError::IllegalMove { message, .. }) => assert!(message.contains("empty")),
            other => panic!("expected an illegal move, got {other:?}"),
        }
        let over = pos("0,0,0,0,0,0/0,0,0,0,0,0 24 24 S");
        match over.parse_move("A") {
            Err(GameError::IllegalMove { message, .. }) => assert!(message.contains("over")),
            other => panic!("expected an illegal move, got {other:?}"),
        }
        // The position is untouched when play_text fails.
        let mut q = p.clone();
        assert!(q.play_text("B").is_err());
        assert_eq!(q, p);
    }
}
