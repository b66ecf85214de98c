//! Reversi / Othello 8x8 on u64 bitboards: shift-fill move generation and ray-based flips.
//!
//! Squares are numbered `row * 8 + column` with row 0 = the TOP row (Othello row `1`) and
//! column 0 = `a`, so `a1` is bit 0 and `h8` bit 63. The position keeps the discs of the side to
//! move and of its opponent (not black and white), so move generation and flipping never branch
//! on colour; it also caches the mover's move mask, which is a pure function of the discs.

use std::fmt::Write as _;

use super::{
    fen, find_legal, gogui_rows, zobrist, Dialect, Dialects, GameError, GameInfo, GoGuiBoard,
    Heuristics, Move, MoveList, Outcome, Player, Rules, Territory,
};
use crate::rng::Rng;

/// The explicit pass move (the only legal move when the mover has no placement but the
/// opponent has).
const PASS: Move = Move(64);

/// Every square except column `a` and column `h`: masks out the wrap-around of horizontal and
/// diagonal shifts.
const NOT_EDGE_COLUMNS: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// What the mover can do besides placing a disc.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    /// The mover has at least one placement.
    Play,
    /// The mover has no placement but the opponent has: `pass` is the only move.
    Pass,
    /// Neither side can place a disc: the game is over.
    Over,
}

/// Zobrist keys: 64 per colour (black first, then white), then the white-to-move key.
const KEYS: [u64; 129] = zobrist::keys::<129>(0x0E7E_2051);
const WHITE_TO_MOVE_KEY: u64 = KEYS[128];

/// `FLIP_KEYS[i][byte]`: the key change when the discs of `byte` (bits of byte `i` of a board)
/// turn colour, i.e. the XOR of black key ^ white key over those squares. Eight lookups replace a
/// loop over the flipped discs whose unpredictable trip count cost a branch miss per move.
const FLIP_KEYS: [[u64; 256]; 8] = {
    let mut out = [[0u64; 256]; 8];
    let mut i = 0;
    while i < 8 {
        let mut byte = 0;
        while byte < 256 {
            let mut bit = 0;
            while bit < 8 {
                if byte & (1 << bit) != 0 {
                    let sq = i * 8 + bit;
                    out[i][byte] ^= KEYS[sq] ^ KEYS[64 + sq];
                }
                bit += 1;
            }
            byte += 1;
        }
        i += 1;
    }
    out
};

/// The hash change when the discs of `flipped` turn colour.
#[inline]
fn flip_key(flipped: u64) -> u64 {
    let mut key = 0;
    for (i, table) in FLIP_KEYS.iter().enumerate() {
        key ^= table[(flipped >> (8 * i)) as usize & 0xFF];
    }
    key
}

/// Direction steps as (row, column) deltas; the first four increase the square index.
const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, -1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// `RAYS[d][sq]`: the squares seen from `sq` in direction `d` up to the edge, `sq` excluded.
const RAYS: [[u64; 64]; 8] = {
    let mut out = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let (dr, dc) = DIRECTIONS[d];
        let mut sq = 0;
        while sq < 64 {
            let (mut r, mut c) = ((sq / 8) as i32 + dr, (sq % 8) as i32 + dc);
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                out[d][sq] |= 1u64 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            sq += 1;
        }
        d += 1;
    }
    out
};

/// Squares where `own` may place a disc: empty squares that bracket at least one line of
/// `opp` discs ending on an `own` disc (shift-fill along the 4 axes, both ways, with doubling).
#[inline]
pub(crate) fn placements(own: u64, opp: u64) -> u64 {
    let inner = opp & NOT_EDGE_COLUMNS;
    let found = east_by_carry(own, inner)
        | fill(own, inner, 1, Shift::Down)
        | fill(own, opp, 8, Shift::Up)
        | fill(own, opp, 8, Shift::Down)
        | fill(own, inner, 7, Shift::Up)
        | fill(own, inner, 7, Shift::Down)
        | fill(own, inner, 9, Shift::Up)
        | fill(own, inner, 9, Shift::Down);
    found & !(own | opp)
}

/// Squares just east of a run of `inner` discs that starts east of an `own` disc, plus other
/// squares that the caller masks out as occupied. Adding a run's first bit to the run carries
/// through it to the square after it: 3 operations instead of a 6-step fill. Runs never include
/// column `h`, so the carry cannot leave its row.
#[inline(always)]
fn east_by_carry(own: u64, inner: u64) -> u64 {
    ((own << 1) & inner).wrapping_add(inner)
}

#[derive(Clone, Copy)]
enum Shift {
    /// Towards higher square indices.
    Up,
    /// Towards lower square indices.
    Down,
}

#[inline(always)]
fn shift(x: u64, by: u32, towards: Shift) -> u64 {
    match towards {
        Shift::Up => x << by,
        Shift::Down => x >> by,
    }
}

/// Squares one `step` beyond a run of `opp` discs that starts next to an `own` disc, going
/// `towards`. Runs are at most 6 long: two single steps then two double steps cover them.
#[inline(always)]
fn fill(own: u64, opp: u64, step: u32, towards: Shift) -> u64 {
    let mut run = opp & shift(own, step, towards);
    run |= opp & shift(run, step, towards);
    let pairs = opp & shift(opp, step, towards);
    run |= pairs & shift(run, 2 * step, towards);
    run |= pairs & shift(run, 2 * step, towards);
    shift(run, step, towards)
}

/// The `opp` discs that `own` flips by placing on `sq` (empty when the placement is illegal).
#[inline]
pub(crate) fn flips(own: u64, opp: u64, sq: usize) -> u64 {
    let mut flipped = 0;
    // Increasing directions: the nearest non-opponent square is the lowest set bit.
    for ray in &RAYS[..4] {
        let ray = ray[sq];
        let stop = ray & !opp;
        let outflank = stop & stop.wrapping_neg() & own;
        let between = outflank.wrapping_sub(1) & ray;
        flipped |= if outflank != 0 { between } else { 0 };
    }
    // Decreasing directions: the nearest non-opponent square is the highest set bit.
    for ray in &RAYS[4..] {
        let ray = ray[sq];
        let stop = ray & !opp;
        let highest = (1u64 << 63).wrapping_shr(stop.leading_zeros()) & stop;
        let outflank = highest & own;
        let between = !(outflank.wrapping_shl(1).wrapping_sub(1)) & ray;
        flipped |= if outflank != 0 { between } else { 0 };
    }
    flipped
}

/// `SELECT_IN_BYTE[byte][k]`: the position of the `k`-th (from 0) set bit of `byte`.
const SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut out = [[0u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                out[byte][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    out
};

const ONES_PER_BYTE: u64 = 0x0101_0101_0101_0101;

/// Byte `i` of the result counts the set bits in bytes `0..=i` of `x` (so the top byte is the
/// popcount). Plain SWAR, because the default x86-64 target has no `popcnt` instruction.
#[inline]
fn byte_prefix_counts(x: u64) -> u64 {
    let mut s = x - ((x >> 1) & 0x5555_5555_5555_5555);
    s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    s = (s + (s >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    s.wrapping_mul(ONES_PER_BYTE)
}

/// The `k`-th (from 0) set bit of `x`, given `prefix = byte_prefix_counts(x)` and `k` below the
/// popcount. Branch-free broadword select: a loop clearing `k` low bits would mispredict its exit
/// about once per call, which costs more than this whole function.
#[inline]
fn select_bit(x: u64, prefix: u64, k: u32) -> u32 {
    // Bytes whose prefix count is <= k lie wholly before the wanted bit (counts are < 128, so the
    // per-byte subtraction never borrows across bytes).
    let k_per_byte = k as u64 * ONES_PER_BYTE;
    let before = ((k_per_byte | 0x8080_8080_8080_8080) - prefix) & 0x8080_8080_8080_8080;
    let shift = (((before >> 7).wrapping_mul(ONES_PER_BYTE) >> 56) * 8) as u32;
    let skipped = ((prefix << 8) >> shift) as u32 & 0xFF;
    let byte = (x >> shift) as usize & 0xFF;
    shift + SELECT_IN_BYTE[byte][(k - skipped) as usize & 7] as u32
}

fn square_name(sq: u32) -> String {
    let column = (b'a' + (sq % 8) as u8) as char;
    let row = (b'1' + (sq / 8) as u8) as char;
    format!("{column}{row}")
}

/// A Reversi position: discs, side to move, and values derived from them.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Reversi {
    /// Discs of the player to move.
    own: u64,
    /// Discs of the other player.
    opp: u64,
    /// Legal placements of the player to move (derived).
    moves: u64,
    /// Incremental Zobrist hash (derived).
    hash: u64,
    /// 0 = black (`x`) to move, 1 = white (`o`).
    side: u8,
    /// Whether the mover must pass or the game is over (derived).
    state: State,
}

impl Reversi {
    /// A position from black and white discs (disjoint) and the side to move.
    fn from_discs(black: u64, white: u64, side: u8) -> Reversi {
        debug_assert_eq!(black & white, 0);
        let (own, opp) = if side == 0 {
            (black, white)
        } else {
            (white, black)
        };
        let mut pos = Reversi {
            own,
            opp,
            moves: 0,
            hash: 0,
            side,
            state: State::Play,
        };
        pos.refresh_moves();
        pos.hash = pos.compute_hash();
        pos
    }

    /// Recomputes the derived move mask and state after the discs or the mover changed.
    #[inline]
    fn refresh_moves(&mut self) {
        self.moves = placements(self.own, self.opp);
        self.state = if self.moves != 0 {
            State::Play
        } else if placements(self.opp, self.own) != 0 {
            State::Pass
        } else {
            State::Over
        };
    }

    /// Black and white discs.
    fn black_white(&self) -> (u64, u64) {
        if self.side == 0 {
            (self.own, self.opp)
        } else {
            (self.opp, self.own)
        }
    }

    /// Hands the move to the other player (after a placement or a pass).
    #[inline]
    fn switch_sides(&mut self) {
        std::mem::swap(&mut self.own, &mut self.opp);
        self.side ^= 1;
        self.hash ^= WHITE_TO_MOVE_KEY;
        self.refresh_moves();
    }

    fn parse_square(text: &str) -> Option<u32> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let column = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
        let row = bytes[1].wrapping_sub(b'1');
        (column < 8 && row < 8).then_some(row as u32 * 8 + column as u32)
    }

    fn parse_board(board: &str) -> Result<(u64, u64), GameError> {
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 8 {
            return Err(GameError::position(
                "board",
                format!("expected 8 rows separated by '/', found {}", rows.len()),
            ));
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (r, row) in rows.iter().enumerate() {
            let mut column = 0usize;
            for ch in row.chars() {
                let run = match ch {
                    'x' | 'o' => 1,
                    '1'..='8' => ch as usize - '0' as usize,
                    _ => {
                        return Err(GameError::position(
                            "board",
                            format!(
                                "unexpected character '{ch}' in row {} (use x, o, 1-8)",
                                r + 1
                            ),
                        ))
                    }
                };
                if column + run > 8 {
                    return Err(GameError::position(
                        "board",
                        format!("row {} is wider than 8 squares", r + 1),
                    ));
                }
                let bit = 1u64 << (r * 8 + column);
                match ch {
                    'x' => black |= bit,
                    'o' => white |= bit,
                    _ => {}
                }
                column += run;
            }
            if column != 8 {
                return Err(GameError::position(
                    "board",
                    format!("row {} has {column} squares, expected 8", r + 1),
                ));
            }
        }
        Ok((black, white))
    }
}

impl Reversi {
    /// The mover's heuristic score in (-1, 1): mobility (own placements against the opponent's,
    /// normalised), corners held, X-squares next to an empty corner (they give the corner away),
    /// and the disc difference weighted by the square of how full the board is (low early,
    /// decisive late), through tanh.
    #[inline]
    fn mover_score(&self) -> f32 {
        const CORNERS: u64 = 0x8100_0000_0000_0081;
        let mobility = {
            let own = self.moves.count_ones() as f32;
            let opp = placements(self.opp, self.own).count_ones() as f32;
            (own - opp) / (own + opp + 2.0)
        };
        let corners =
            (self.own & CORNERS).count_ones() as f32 - (self.opp & CORNERS).count_ones() as f32;
        // X-squares b2, g2, b7, g7 whose corner (a1, h1, a8, h8) is still empty.
        let empty = !(self.own | self.opp);
        let x_squares = ((empty & 1) << 9)
            | ((empty & 1 << 7) << 7)
            | ((empty & 1 << 56) >> 7)
            | ((empty & 1 << 63) >> 9);
        let xs =
            (self.own & x_squares).count_ones() as f32 - (self.opp & x_squares).count_ones() as f32;
        let (d_own, d_opp) = (self.own.count_ones() as f32, self.opp.count_ones() as f32);
        let fullness = (d_own + d_opp) / 64.0;
        let discs = (d_own - d_opp) / (d_own + d_opp).max(1.0);
        let score = mobility + 0.4 * corners - 0.2 * xs + 1.5 * fullness * fullness * discs;
        (score / 1.5).tanh()
    }
}

/// Network inputs, from the side to move: one feature per disc, its square (row * 8 + column)
/// for the mover's discs and 64 plus it for the opponent's. Policy: the square of a placement,
/// 64 for a pass. Symmetries: the eight of the square (the rules and the scoring keep them all).
impl crate::game::Features for Reversi {
    const INPUTS: usize = 128;
    const POLICY: usize = 65;
    const SYMMETRIES: usize = 8;

    fn features(&self, out: &mut Vec<u16>) {
        out.clear();
        for (mut b, base) in [(self.own, 0), (self.opp, 64)] {
            while b != 0 {
                out.push(base + b.trailing_zeros() as u16);
                b &= b - 1;
            }
        }
    }

    fn policy_index(&self, m: Move) -> usize {
        m.0 as usize
    }

    fn map_feature(s: usize, f: u16) -> u16 {
        f & 64 | symmetric_square(s, f as usize & 63) as u16
    }

    fn map_policy(s: usize, p: usize) -> usize {
        if p == 64 {
            p
        } else {
            symmetric_square(s, p)
        }
    }
}

/// Square `sq` under symmetry `s` of the square board ([`crate::game::square_symmetry`]).
#[inline]
fn symmetric_square(s: usize, sq: usize) -> usize {
    let (row, col) = crate::game::square_symmetry(s, sq / 8, sq % 8, 8);
    row * 8 + col
}

impl Rules for Reversi {
    const INFO: GameInfo = GameInfo {
        name: "reversi",
        aliases: &["othello", "flipello"],
        board: "8x8",
        notation: "column a-h + row 1-8 counted from the top (d3); pass",
        start: "8/8/8/3ox3/3xo3/8/8/8 x",
    };
    /// 60 placements plus passes; a game can never come near this cap.
    const MAX_PLIES: u32 = 200;

    fn start() -> Self {
        // d4 and e5 white, d5 and e4 black (rows counted from the top).
        let white = (1u64 << (3 * 8 + 3)) | (1u64 << (4 * 8 + 4));
        let black = (1u64 << (3 * 8 + 4)) | (1u64 << (4 * 8 + 3));
        Reversi::from_discs(black, white, 0)
    }

    #[inline]
    fn to_move(&self) -> Player {
        Player(self.side)
    }

    #[inline]
    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        match self.state {
            State::Play => {
                let mut m = self.moves;
                while m != 0 {
                    out.push(Move(m.trailing_zeros() as u16));
                    m &= m - 1;
                }
            }
            State::Pass => out.push(PASS),
            State::Over => {}
        }
    }

    #[inline]
    fn count_moves(&self) -> usize {
        match self.state {
            State::Play => self.moves.count_ones() as usize,
            State::Pass => 1,
            State::Over => 0,
        }
    }

    #[inline]
    fn play(&mut self, m: Move) {
        if m != PASS {
            let sq = m.0 as usize;
            debug_assert!(
                sq < 64 && self.moves & (1u64 << sq) != 0,
                "illegal move {m:?}"
            );
            let flipped = flips(self.own, self.opp, sq);
            let placed = 1u64 << sq;
            self.own |= flipped | placed;
            self.opp &= !flipped;
            self.hash ^= KEYS[self.side as usize * 64 + sq] ^ flip_key(flipped);
        } else {
            debug_assert_eq!(self.state, State::Pass, "pass when not forced");
        }
        self.switch_sides();
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.state != State::Over {
            return None;
        }
        let (black, white) = self.black_white();
        Some(Outcome::by_score(
            black.count_ones() as i32 - white.count_ones() as i32,
        ))
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let (black, white) = self.black_white();
        let mut h = if self.side == 1 { WHITE_TO_MOVE_KEY } else { 0 };
        for (colour, mut discs) in [(0, black), (1, white)] {
            while discs != 0 {
                h ^= KEYS[colour * 64 + discs.trailing_zeros() as usize];
                discs &= discs - 1;
            }
        }
        h
    }

    fn format_move(&self, m: Move) -> String {
        if m == PASS {
            "pass".to_string()
        } else {
            square_name(m.0 as u32)
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        let t = text.trim();
        let candidate = if t.eq_ignore_ascii_case("pass") || t == "0000" {
            PASS
        } else {
            match Reversi::parse_square(t) {
                Some(sq) => Move(sq as u16),
                None => {
                    return Err(GameError::syntax(
                        text,
                        "expected a square a1-h8 (row 1 at the top) or 'pass'",
                    ))
                }
            }
        };
        find_legal(self, text, candidate)
    }

    fn to_position(&self) -> String {
        let (black, white) = self.black_white();
        let cell = |bit: u64| {
            if black & bit != 0 {
                Some('x')
            } else if white & bit != 0 {
                Some('o')
            } else {
                None
            }
        };
        let rows = (0..8).map(|r| (0..8).map(move |c| cell(1u64 << (r * 8 + c))));
        format!(
            "{} {}",
            fen::board_field(rows),
            if self.side == 0 { 'x' } else { 'o' }
        )
    }

    fn parse_position(text: &str) -> Result<Self, GameError> {
        let mut fields = text.split_whitespace();
        let board = fields
            .next()
            .ok_or_else(|| GameError::position("board", "empty position"))?;
        let (black, white) = Reversi::parse_board(board)?;
        let side = match fields.next() {
            Some("x") => 0,
            Some("o") => 1,
            Some(other) => {
                return Err(GameError::position(
                    "side to move",
                    format!("expected 'x' or 'o', found '{other}'"),
                ))
            }
            None => return Err(GameError::position("side to move", "missing (x or o)")),
        };
        // Any further fields (move counters and the like) are ignored.
        Ok(Reversi::from_discs(black, white, side))
    }

    fn diagram(&self) -> String {
        let (black, white) = self.black_white();
        let mut out = String::from("  a b c d e f g h\n");
        for r in 0..8 {
            let _ = write!(out, "{}", r + 1);
            for c in 0..8 {
                let bit = 1u64 << (r * 8 + c);
                let ch = if black & bit != 0 {
                    'x'
                } else if white & bit != 0 {
                    'o'
                } else {
                    '-'
                };
                let _ = write!(out, " {ch}");
            }
            let _ = writeln!(out, " {}", r + 1);
        }
        out.push_str("  a b c d e f g h\n");
        let (nb, nw) = (black.count_ones(), white.count_ones());
        let status = match self.outcome() {
            Some(o) => format!("game over: {o}"),
            None if self.side == 0 => "black (x) to move".to_string(),
            None => "white (o) to move".to_string(),
        };
        let _ = writeln!(out, "x {nb}, o {nw}; {status}");
        out
    }

    #[inline]
    fn random_move(&self, rng: &mut Rng, _buf: &mut MoveList) -> Option<Move> {
        match self.state {
            State::Play => {
                let prefix = byte_prefix_counts(self.moves);
                let k = rng.below((prefix >> 56) as u32);
                Some(Move(select_bit(self.moves, prefix, k) as u16))
            }
            State::Pass => Some(PASS),
            State::Over => None,
        }
    }

    fn territory(&self) -> Option<&dyn Territory> {
        Some(self)
    }

    fn territory_mut(&mut self) -> Option<&mut dyn Territory> {
        Some(self)
    }
}

impl Heuristics for Reversi {
    const HAS_EVALUATION: bool = true;

    /// See `Reversi::mover_score`; the value is the mover's, negated for the other player.
    #[inline]
    fn evaluate(&self, player: Player) -> f32 {
        let v = self.mover_score();
        if player.0 == self.side {
            v
        } else {
            -v
        }
    }
}

impl Dialects for Reversi {
    /// GTP (gtp-rhino) writes the same Othello coordinates, row 1 at the top, in upper case
    /// (`E6`), and `pass`. `parse_move` already reads any case, so reading needs no override.
    fn format_move_in(&self, m: Move, dialect: Dialect) -> String {
        match dialect {
            Dialect::Gtp if m != PASS => self.format_move(m).to_ascii_uppercase(),
            _ => self.format_move(m),
        }
    }
}

impl Territory for Reversi {
    /// The rows of the position string turned over: its vertices count rows from the top
    /// (`D3`, as gtp-rhino writes them) and GoGui's from the bottom, so GoGui shows the board
    /// mirrored top to bottom, with every vertex where GoGui's name for it says (the rules are
    /// symmetric under the mirror).
    fn gogui_board(&self) -> Option<GoGuiBoard> {
        Some(GoGuiBoard {
            rows: gogui_rows(&self.to_position(), ['x', 'o'], true),
            captured: [0, 0],
        })
    }
}

#[cfg(test)]
mod tests;
