//! Ataxx 7x7 on u64 bitboards, by the rules, FEN and move notation of python-ataxx / cuteataxx.
//!
//! Squares are numbered `rank * 7 + file` with rank 0 = rank `1` (the BOTTOM row, as in
//! python-ataxx and UAI) and file 0 = `a`, so `a1` is bit 0 and `g7` bit 48. A move either clones
//! a piece onto an empty 8-neighbour (`b6`, written by its destination only) or jumps a piece to
//! an empty square at Chebyshev distance exactly 2 (`a1c3`, the origin is emptied); then every
//! enemy piece 8-adjacent to the destination turns. Gaps (`-` in positions) are squares nobody
//! may enter. A player with no move passes (`0000`) while the opponent can still move.
//!
//! The game ends (python-ataxx `gameover`/`result`) when a side has no pieces, no square is
//! empty, neither side can move (those three: more pieces wins), or the halfmove clock reaches
//! 100 (the fifty-move rule: a draw). The clock counts plies since the last single (clone) move;
//! jumps and passes advance it, captures do not reset it. The clock is part of the position (as
//! in a chess FEN) because it decides the outcome; the fullmove number is kept only so that the
//! FEN round-trips, and is not hashed.

use std::fmt::Write as _;

use super::{
    fen, find_legal, zobrist, Dialect, Dialects, GameError, GameInfo, Heuristics, Move, MoveList,
    Outcome, Player, Rules,
};
use crate::rng::Rng;

/// Squares on the board.
const SQUARES: usize = 49;
/// Every square of the board.
const BOARD: u64 = (1 << SQUARES) - 1;
/// Squares of file `a` and of file `g`: mask out the wrap-around of sideways shifts.
const FILE_A: u64 = 0x0408_1020_4081;
const FILE_G: u64 = FILE_A << 6;
/// Files `a`-`b` and `f`-`g`, for shifts by two files.
const FILES_AB: u64 = FILE_A | (FILE_A << 1);
const FILES_FG: u64 = FILE_G | (FILE_G >> 1);
/// Where a piece may land after a sideways shift: on the board and not wrapped to the other edge
/// (bits shifted past `g7` would otherwise come back onto the board in the vertical shifts).
const NOT_A: u64 = BOARD & !FILE_A;
const NOT_G: u64 = BOARD & !FILE_G;
const NOT_AB: u64 = BOARD & !FILES_AB;
const NOT_FG: u64 = BOARD & !FILES_FG;

/// The halfmove clock at which the game is drawn (python-ataxx `fifty_move_draw`).
const FIFTY_MOVE_PLIES: u32 = 100;
/// Counters above this are refused in positions (they would only overflow later).
const MAX_COUNTER: u32 = 1_000_000;

/// The pass move (the only legal move when the mover cannot move but the opponent can).
const PASS: Move = Move(0xFFFF);

/// Zobrist keys: 49 per colour (x first, then o), 49 for gaps, the o-to-move key, then one per
/// halfmove clock value 0..=100 (larger clocks share the last key: the game is over anyway).
const KEYS: [u64; 3 * SQUARES + 1 + 101] = zobrist::keys::<{ 3 * SQUARES + 1 + 101 }>(0xA7A8_0049);
const GAP_KEYS: usize = 2 * SQUARES;
const O_TO_MOVE_KEY: u64 = KEYS[3 * SQUARES];
const CLOCK_KEYS: usize = 3 * SQUARES + 1;

#[inline]
fn clock_key(clock: u32) -> u64 {
    KEYS[CLOCK_KEYS + clock.min(FIFTY_MOVE_PLIES) as usize]
}

/// `FLIP_KEYS[i][byte]`: the hash change when the pieces of `byte` (bits of byte `i` of a board)
/// change colour: seven lookups instead of a loop with an unpredictable trip count.
const FLIP_KEYS: [[u64; 256]; 7] = {
    let mut out = [[0u64; 256]; 7];
    let mut i = 0;
    while i < 7 {
        let mut byte = 0;
        while byte < 256 {
            let mut bit = 0;
            while bit < 8 {
                let sq = i * 8 + bit;
                if byte & (1 << bit) != 0 && sq < SQUARES {
                    out[i][byte] ^= KEYS[sq] ^ KEYS[SQUARES + sq];
                }
                bit += 1;
            }
            byte += 1;
        }
        i += 1;
    }
    out
};

#[inline]
fn flip_key(flipped: u64) -> u64 {
    let mut key = 0;
    for (i, table) in FLIP_KEYS.iter().enumerate() {
        key ^= table[(flipped >> (8 * i)) as usize & 0xFF];
    }
    key
}

/// Squares at Chebyshev distance `1..=max` from each square, as `RINGS[max - 1]`, minus the
/// inner ring for distance 2: `NEIGHBOURS[sq]` (distance 1) and `JUMPS[sq]` (exactly 2).
const fn ring(sq: usize, dist: i32) -> u64 {
    let (rank, file) = ((sq / 7) as i32, (sq % 7) as i32);
    let mut out = 0u64;
    let mut dr = -dist;
    while dr <= dist {
        let mut df = -dist;
        while df <= dist {
            let (r, f) = (rank + dr, file + df);
            let far = if dr.abs() > df.abs() {
                dr.abs()
            } else {
                df.abs()
            };
            if far == dist && r >= 0 && r < 7 && f >= 0 && f < 7 {
                out |= 1u64 << (r * 7 + f);
            }
            df += 1;
        }
        dr += 1;
    }
    out
}

const fn rings(dist: i32) -> [u64; SQUARES] {
    let mut out = [0u64; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        out[sq] = ring(sq, dist);
        sq += 1;
    }
    out
}

/// The 8-neighbours of each square.
const NEIGHBOURS: [u64; SQUARES] = rings(1);
/// The squares at distance exactly 2 of each square (jump destinations).
const JUMPS: [u64; SQUARES] = rings(2);

/// `x` grown by one square in all 8 directions (`x` included).
#[inline(always)]
fn dilate(x: u64) -> u64 {
    let row = x | ((x << 1) & NOT_A) | ((x >> 1) & NOT_G);
    (row | (row << 7) | (row >> 7)) & BOARD
}

/// `x` grown by two squares in all 8 directions: every square a piece of `x` can move to.
#[inline(always)]
fn reach(x: u64) -> u64 {
    let row =
        x | ((x << 1) & NOT_A) | ((x >> 1) & NOT_G) | ((x << 2) & NOT_AB) | ((x >> 2) & NOT_FG);
    (row | (row << 7) | (row >> 7) | (row << 14) | (row >> 14)) & BOARD
}

/// Set bits of `x` (SWAR: the default x86-64 target has no `popcnt` instruction, and
/// `count_ones` compiles to the same).
#[inline(always)]
fn popcount(x: u64) -> u32 {
    x.count_ones()
}

/// The `k`-th (from 0) set bit of `x`; `k` is below the popcount.
#[inline]
fn select_bit(mut x: u64, k: u32) -> u32 {
    for _ in 0..k {
        x &= x - 1;
    }
    x.trailing_zeros()
}

#[inline]
fn single(to: u32) -> Move {
    Move((to << 6 | to) as u16)
}

#[inline]
fn jump(from: u32, to: u32) -> Move {
    Move((from << 6 | to) as u16)
}

fn square_name(sq: u32) -> String {
    let file = (b'a' + (sq % 7) as u8) as char;
    let rank = (b'1' + (sq / 7) as u8) as char;
    format!("{file}{rank}")
}

fn parse_square(text: &[u8]) -> Option<u32> {
    match text {
        [f, r] => {
            let file = f.to_ascii_lowercase().wrapping_sub(b'a');
            let rank = r.wrapping_sub(b'1');
            (file < 7 && rank < 7).then_some(rank as u32 * 7 + file as u32)
        }
        _ => None,
    }
}

/// What the mover can do.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    /// At least one clone or jump.
    Play,
    /// No move, but the opponent can move: `0000` is the only move.
    Pass,
    /// The game is over.
    Over,
}

/// An Ataxx position: pieces, gaps, side to move and the two FEN counters.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Ataxx {
    /// Pieces of `x` (first player) and `o`.
    pieces: [u64; 2],
    /// Squares that are not part of the board.
    gaps: u64,
    /// 0 = `x` to move, 1 = `o`.
    side: u8,
    /// Plies since the last single (clone) move.
    clock: u32,
    /// The FEN fullmove number (starts at 1, grows after each move of `o`).
    fullmove: u32,
    /// Incremental Zobrist hash of pieces, gaps, side and clock (derived).
    hash: u64,
}

impl Ataxx {
    /// A position from its parts (pieces and gaps disjoint); the hash is computed here.
    fn from_parts(pieces: [u64; 2], gaps: u64, side: u8, clock: u32, fullmove: u32) -> Ataxx {
        let mut pos = Ataxx {
            pieces,
            gaps,
            side,
            clock,
            fullmove,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    #[inline(always)]
    fn own(&self) -> u64 {
        self.pieces[self.side as usize]
    }

    #[inline(always)]
    fn opp(&self) -> u64 {
        self.pieces[self.side as usize ^ 1]
    }

    #[inline(always)]
    fn empty(&self) -> u64 {
        BOARD & !(self.pieces[0] | self.pieces[1] | self.gaps)
    }

    /// Whether the mover can move, must pass, or the game is over; also the clone destinations.
    #[inline(always)]
    fn state(&self) -> (State, u64) {
        let (own, opp, empty) = (self.own(), self.opp(), self.empty());
        if self.clock >= FIFTY_MOVE_PLIES || own == 0 || opp == 0 || empty == 0 {
            return (State::Over, 0);
        }
        let singles = dilate(own) & empty;
        if singles != 0 || reach(own) & empty != 0 {
            (State::Play, singles)
        } else if reach(opp) & empty != 0 {
            (State::Pass, 0)
        } else {
            (State::Over, 0)
        }
    }

    /// The number of jumps of the mover (`empty` = the empty squares). Jumps are counted from
    /// whichever side has fewer squares, the mover's pieces or the empty squares (the jump
    /// relation is symmetric): early in a game pieces are few, late empty squares are.
    #[inline(always)]
    fn count_jumps(&self, empty: u64) -> u32 {
        let (mut from, other, _) = Self::jump_sides(self.own(), empty);
        let mut n = 0;
        while from != 0 {
            n += popcount(JUMPS[from.trailing_zeros() as usize] & other);
            from &= from - 1;
        }
        n
    }

    /// `(iterated, other, iterated_is_own)`: the smaller of `own` and `empty` first;
    /// [`Ataxx::count_jumps`] and `random_move` must agree on it.
    #[inline(always)]
    fn jump_sides(own: u64, empty: u64) -> (u64, u64, bool) {
        if popcount(own) <= popcount(empty) {
            (own, empty, true)
        } else {
            (empty, own, false)
        }
    }

    /// The board field, top rank first.
    fn board_field(&self) -> String {
        let cell = |sq: usize| {
            let bit = 1u64 << sq;
            if self.pieces[0] & bit != 0 {
                Some('x')
            } else if self.pieces[1] & bit != 0 {
                Some('o')
            } else if self.gaps & bit != 0 {
                Some('-')
            } else {
                None
            }
        };
        let rows = (0..7).rev().map(|r| (0..7).map(move |f| cell(r * 7 + f)));
        fen::board_field(rows)
    }

    /// Reads the board field: pieces of the first player (`x`, also `X`, `b`, `B`, and
    /// Fairy-Stockfish's `P`), of the second (`o`, `O`, `w`, `W`, `p`), gaps (`-`, `*`), digits.
    /// Returns the pieces, the gaps and whether Fairy-Stockfish's `P`/`p` letters were used.
    fn parse_board(board: &str) -> Result<([u64; 2], u64, bool), GameError> {
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 7 {
            return Err(GameError::position(
                "board",
                format!("expected 7 ranks separated by '/', found {}", rows.len()),
            ));
        }
        let (mut pieces, mut gaps, mut fsf) = ([0u64; 2], 0u64, false);
        for (i, row) in rows.iter().enumerate() {
            let rank = 6 - i;
            let mut file = 0usize;
            for ch in row.chars() {
                let run = match ch {
                    '1'..='7' => ch as usize - '0' as usize,
                    'x' | 'X' | 'b' | 'B' | 'P' | 'o' | 'O' | 'w' | 'W' | 'p' | '-' | '*' => 1,
                    _ => {
                        return Err(GameError::position(
                            "board",
                            format!(
                                "unexpected character '{ch}' in rank {} (use x, o, - and 1-7)",
                                rank + 1
                            ),
                        ))
                    }
                };
                if file + run > 7 {
                    return Err(GameError::position(
                        "board",
                        format!("rank {} is wider than 7 squares", rank + 1),
                    ));
                }
                let bit = 1u64 << (rank * 7 + file);
                match ch {
                    'x' | 'X' | 'b' | 'B' => pieces[0] |= bit,
                    'o' | 'O' | 'w' | 'W' => pieces[1] |= bit,
                    'P' => (pieces[0], fsf) = (pieces[0] | bit, true),
                    'p' => (pieces[1], fsf) = (pieces[1] | bit, true),
                    '-' | '*' => gaps |= bit,
                    _ => {}
                }
                file += run;
            }
            if file != 7 {
                return Err(GameError::position(
                    "board",
                    format!("rank {} has {file} squares, expected 7", rank + 1),
                ));
            }
        }
        Ok((pieces, gaps, fsf))
    }

    /// Reads a counter field; `-` (a placeholder) and a missing field give `default`.
    fn parse_counter(
        field: &'static str,
        text: Option<&str>,
        default: u32,
    ) -> Result<u32, GameError> {
        match text {
            None | Some("-") => Ok(default),
            Some(t) => match t.parse::<u32>() {
                Ok(n) if n <= MAX_COUNTER => Ok(n),
                _ => Err(GameError::position(
                    field,
                    format!("expected a number from 0 to {MAX_COUNTER}, found '{t}'"),
                )),
            },
        }
    }
}

/// No network encoding yet.
impl crate::game::Features for Ataxx {}

impl Rules for Ataxx {
    const INFO: GameInfo = GameInfo {
        name: "ataxx",
        aliases: &[],
        board: "7x7",
        notation:
            "clone by destination (b6), jump from-to (a1c3), forced pass 0000; rank 1 at the bottom",
        start: "x5o/7/7/7/7/7/o5x x 0 1",
    };
    /// Random games end within a few hundred plies (the fifty-move rule ends shuffling).
    const MAX_PLIES: u32 = 1000;

    fn start() -> Self {
        // x on a7 and g1, o on g7 and a1.
        let x = (1u64 << 42) | (1u64 << 6);
        let o = (1u64 << 48) | 1u64;
        Ataxx::from_parts([x, o], 0, 0, 0, 1)
    }

    #[inline]
    fn to_move(&self) -> Player {
        Player(self.side)
    }

    #[inline]
    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        let (state, mut singles) = self.state();
        match state {
            State::Play => {
                while singles != 0 {
                    out.push(single(singles.trailing_zeros()));
                    singles &= singles - 1;
                }
                let empty = self.empty();
                let mut own = self.own();
                while own != 0 {
                    let from = own.trailing_zeros();
                    let mut to = JUMPS[from as usize] & empty;
                    while to != 0 {
                        out.push(jump(from, to.trailing_zeros()));
                        to &= to - 1;
                    }
                    own &= own - 1;
                }
            }
            State::Pass => out.push(PASS),
            State::Over => {}
        }
    }

    #[inline]
    fn count_moves(&self) -> usize {
        match self.state() {
            (State::Play, singles) => (popcount(singles) + self.count_jumps(self.empty())) as usize,
            (State::Pass, _) => 1,
            (State::Over, _) => 0,
        }
    }

    #[inline]
    fn play(&mut self, m: Move) {
        let side = self.side as usize;
        let old_clock = self.clock;
        if m == PASS {
            debug_assert_eq!(self.state().0, State::Pass, "pass when not forced");
            self.clock += 1;
        } else {
            let (from, to) = ((m.0 >> 6) as usize, (m.0 & 63) as usize);
            debug_assert!(from < SQUARES && to < SQUARES && self.empty() & (1 << to) != 0);
            if from != to {
                debug_assert!(self.own() & JUMPS[to] & (1 << from) != 0, "bad jump {m:?}");
                self.pieces[side] ^= 1 << from;
                self.hash ^= KEYS[side * SQUARES + from];
                self.clock += 1;
            } else {
                debug_assert!(self.own() & NEIGHBOURS[to] != 0, "bad clone {m:?}");
                self.clock = 0;
            }
            let captured = NEIGHBOURS[to] & self.pieces[side ^ 1];
            self.pieces[side] |= captured | (1 << to);
            self.pieces[side ^ 1] ^= captured;
            self.hash ^= KEYS[side * SQUARES + to] ^ flip_key(captured);
        }
        self.fullmove += side as u32;
        self.side ^= 1;
        self.hash ^= O_TO_MOVE_KEY ^ clock_key(old_clock) ^ clock_key(self.clock);
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.state().0 != State::Over {
            return None;
        }
        let (x, o) = (self.pieces[0], self.pieces[1]);
        let someone_can_move = reach(x | o) & self.empty() != 0;
        if self.clock >= FIFTY_MOVE_PLIES && x != 0 && o != 0 && someone_can_move {
            // The fifty-move rule (python-ataxx `result`: checked after the piece counts).
            return Some(Outcome::draw(2));
        }
        Some(Outcome::by_score(popcount(x) as i32 - popcount(o) as i32))
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let mut h = clock_key(self.clock);
        if self.side == 1 {
            h ^= O_TO_MOVE_KEY;
        }
        for (table, mut bits) in [
            (0, self.pieces[0]),
            (SQUARES, self.pieces[1]),
            (GAP_KEYS, self.gaps),
        ] {
            while bits != 0 {
                h ^= KEYS[table + bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
        }
        h
    }

    fn format_move(&self, m: Move) -> String {
        if m == PASS {
            return "0000".to_string();
        }
        let (from, to) = ((m.0 >> 6) as u32, (m.0 & 63) as u32);
        if from == to {
            square_name(to)
        } else {
            format!("{}{}", square_name(from), square_name(to))
        }
    }

    /// Reads `b6` (clone), `a1c3` (jump), `0000` or `pass`; also Fairy-Stockfish's clone
    /// notation `P@b6`.
    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        let t = text.trim();
        let bytes = t.as_bytes();
        let candidate = if t == "0000" || t.eq_ignore_ascii_case("pass") {
            PASS
        } else {
            let squares = match bytes {
                [b'P' | b'p', b'@', rest @ ..] => rest,
                _ => bytes,
            };
            match squares.len() {
                2 => match parse_square(squares) {
                    Some(to) => single(to),
                    None => return Err(GameError::syntax(text, "no such square (a1-g7)")),
                },
                4 => match (parse_square(&squares[..2]), parse_square(&squares[2..])) {
                    (Some(from), Some(to)) => {
                        if JUMPS[from as usize] & (1 << to) == 0 {
                            return Err(GameError::syntax(
                                text,
                                "a jump must go exactly two squares away (a clone is written \
                                 by its destination only, e.g. b6)",
                            ));
                        }
                        jump(from, to)
                    }
                    _ => return Err(GameError::syntax(text, "no such square (a1-g7)")),
                },
                _ => {
                    return Err(GameError::syntax(
                        text,
                        "expected a clone (b6), a jump (a1c3) or the pass 0000",
                    ))
                }
            }
        };
        find_legal(self, text, candidate)
    }

    fn to_position(&self) -> String {
        format!(
            "{} {} {} {}",
            self.board_field(),
            if self.side == 0 { 'x' } else { 'o' },
            self.clock,
            self.fullmove
        )
    }

    /// Reads python-ataxx / cuteataxx FEN (`x5o/7/7/7/7/7/o5x x 0 1`; `b`/`w` letters too) and
    /// Fairy-Stockfish's (`P5p/7/7/7/7/7/p5P w 0 1`, where `w` is the first player). The
    /// counters are optional, and `-` placeholders before them are skipped.
    fn parse_position(text: &str) -> Result<Self, GameError> {
        let mut fields = text.split_whitespace();
        let board = fields
            .next()
            .ok_or_else(|| GameError::position("board", "empty position"))?;
        let (pieces, gaps, fsf) = Ataxx::parse_board(board)?;
        let side = match fields.next() {
            None => 0,
            Some("x" | "X" | "B") => 0,
            Some("o" | "O" | "W") => 1,
            // Fairy-Stockfish calls the first player white, python-ataxx calls it black.
            Some("w") => u8::from(!fsf),
            Some("b") => u8::from(fsf),
            Some(other) => {
                return Err(GameError::position(
                    "side to move",
                    format!("expected 'x' or 'o', found '{other}'"),
                ))
            }
        };
        let mut counters = fields.filter(|f| *f != "-");
        let clock = Ataxx::parse_counter("halfmove clock", counters.next(), 0)?;
        let fullmove = Ataxx::parse_counter("fullmove number", counters.next(), 1)?.max(1);
        Ok(Ataxx::from_parts(pieces, gaps, side, clock, fullmove))
    }

    fn diagram(&self) -> String {
        let mut out = String::from("  a b c d e f g\n");
        for rank in (0..7).rev() {
            let _ = write!(out, "{}", rank + 1);
            for file in 0..7 {
                let bit = 1u64 << (rank * 7 + file);
                let ch = if self.pieces[0] & bit != 0 {
                    'x'
                } else if self.pieces[1] & bit != 0 {
                    'o'
                } else if self.gaps & bit != 0 {
                    '#'
                } else {
                    '.'
                };
                let _ = write!(out, " {ch}");
            }
            let _ = writeln!(out, " {}", rank + 1);
        }
        out.push_str("  a b c d e f g\n");
        let status = match self.outcome() {
            Some(o) => format!("game over: {o}"),
            None if self.side == 0 => "x to move".to_string(),
            None => "o to move".to_string(),
        };
        let _ = writeln!(
            out,
            "x {}, o {}, halfmove clock {}; {status}",
            popcount(self.pieces[0]),
            popcount(self.pieces[1]),
            self.clock
        );
        out
    }

    /// Uniform over the legal moves without building the list: the clones are one mask and the
    /// jumps are counted per piece, then the chosen index is located.
    #[inline]
    fn random_move(&self, rng: &mut Rng, _buf: &mut MoveList) -> Option<Move> {
        let (state, singles) = self.state();
        match state {
            State::Play => {
                let empty = self.empty();
                let n_singles = popcount(singles);
                let total = n_singles + self.count_jumps(empty);
                let mut k = rng.below(total);
                if k < n_singles {
                    return Some(single(select_bit(singles, k)));
                }
                k -= n_singles;
                let (mut iterated, other, from_own) = Self::jump_sides(self.own(), empty);
                loop {
                    let sq = iterated.trailing_zeros();
                    let partners = JUMPS[sq as usize] & other;
                    let n = popcount(partners);
                    if k < n {
                        let partner = select_bit(partners, k);
                        return Some(if from_own {
                            jump(sq, partner)
                        } else {
                            jump(partner, sq)
                        });
                    }
                    k -= n;
                    iterated &= iterated - 1;
                }
            }
            State::Pass => Some(PASS),
            State::Over => None,
        }
    }
}

impl Heuristics for Ataxx {
    const HAS_EVALUATION: bool = true;

    /// The piece difference, through tanh into (-1, 1), less a little for pieces next to empty
    /// squares (a clone next to them turns them).
    #[inline]
    fn evaluate(&self, player: Player) -> f32 {
        let [x, o] = self.pieces;
        let exposed = dilate(self.empty());
        let material = popcount(x) as i32 - popcount(o) as i32;
        let open = popcount(x & exposed) as i32 - popcount(o & exposed) as i32;
        let v = ((material as f32 - 0.1 * open as f32) / 8.0).tanh();
        crate::game::zero_sum(v, player)
    }

    /// A move that turns enemy pieces (its destination touches one).
    #[inline]
    fn is_capture(&self, m: Move) -> bool {
        m != PASS && NEIGHBOURS[(m.0 & 63) as usize] & self.opp() != 0
    }
}

impl Dialects for Ataxx {
    /// GTP writes the pass as `pass`; everything else is the native notation.
    fn format_move_in(&self, m: Move, dialect: Dialect) -> String {
        match dialect {
            Dialect::Gtp if m == PASS => "pass".to_string(),
            _ => self.format_move(m),
        }
    }
}

#[cfg(test)]
mod tests;
