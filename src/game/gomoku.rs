//! Gomoku 15x15 on padded bitboards: exactly five in a row (`gomoku`) or five or more (`gomokufreestyle`).
//!
//! Point index = row * 16 + column, row 0 = rank 1 (the bottom), column 0 = file a. Column 15 and
//! row 15 are padding that never holds a stone, so walking a line from a stone stops at the edge
//! without any column test: a step off the left or right edge lands on a padding point. The
//! 256 points fit in four u64 words per player. The win check after a move looks only at the four
//! lines through the new stone.

use super::{fen, zobrist};
use super::{
    gogui_rows, Dialect, Dialects, GameError, GameInfo, GoGuiBoard, Heuristics, Move, MoveList,
    Outcome, Player, Rules, Territory,
};
use crate::rng::Rng;

const SIZE: usize = 15;
const STRIDE: usize = 16;
const POINTS: usize = SIZE * SIZE;
/// Playable points of each word: four rows of 15 points, the last word's fourth row is padding.
const BOARD: [u64; 4] = [
    0x7FFF_7FFF_7FFF_7FFF,
    0x7FFF_7FFF_7FFF_7FFF,
    0x7FFF_7FFF_7FFF_7FFF,
    0x0000_7FFF_7FFF_7FFF,
];
/// Line directions as index steps: east, north, north-east, north-west.
const DIRECTIONS: [i32; 4] = [1, STRIDE as i32, STRIDE as i32 + 1, STRIDE as i32 - 1];
/// GTP column letters: A to T skipping I, as Go programs write them.
const GTP_COLUMNS: &[u8; SIZE] = b"ABCDEFGHJKLMNOP";
/// Rejection draws `random_move` tries before selecting among the empty points directly.
const RANDOM_TRIES: u32 = 16;

const ZOBRIST_STONE: [[u64; 256]; 2] = [zobrist::keys(0x6011), zobrist::keys(0x6012)];
const ZOBRIST_SIDE: u64 = zobrist::keys::<1>(0x6013)[0];

/// A Gomoku position; `EXACT` = only a line of exactly five wins (overlines do not).
/// Moves are point indices (`row * 16 + column`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Gomoku<const EXACT: bool> {
    /// Stones of player 0 (black, `P`) and player 1 (white, `p`).
    stones: [[u64; 4]; 2],
    /// Stones on the board (also the number of plies played).
    count: u8,
    /// Set when the last move made a winning line.
    won: bool,
    hash: u64,
}

#[inline]
fn has_stone(bb: &[u64; 4], idx: i32) -> bool {
    (0..256).contains(&idx) && (bb[(idx >> 6) as usize] >> (idx & 63)) & 1 != 0
}

#[inline]
fn point(row: usize, col: usize) -> usize {
    row * STRIDE + col
}

/// Stones of `bb` next to `idx` going `step` away, counting at most five.
#[inline]
fn run(bb: &[u64; 4], idx: i32, step: i32) -> u32 {
    let mut n = 0;
    let mut i = idx + step;
    while n < 5 && has_stone(bb, i) {
        n += 1;
        i += step;
    }
    n
}

/// Whether the stone of `bb` on `idx` stands in a winning line: five or more in freestyle,
/// exactly five (counting every stone of the unbroken line) with `exact`.
#[inline]
fn makes_line(bb: &[u64; 4], idx: usize, exact: bool) -> bool {
    let idx = idx as i32;
    DIRECTIONS.iter().any(|&d| {
        let len = 1 + run(bb, idx, d) + run(bb, idx, -d);
        if exact {
            len == 5
        } else {
            len >= 5
        }
    })
}

fn file_char(col: usize) -> char {
    (b'a' + col as u8) as char
}

/// Reads a rank 1-15 that makes up all of `digits`.
fn read_rank(digits: &str) -> Option<usize> {
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let rank: usize = digits.parse().ok()?;
    (1..=SIZE).contains(&rank).then(|| rank - 1)
}

type Bits = [u64; 4];

/// `a` shifted towards lower indices by `k` (< 128) points.
#[inline(always)]
fn shift_down(a: &Bits, k: usize) -> Bits {
    let (w, b) = (k / 64, k % 64);
    let mut out = [0u64; 4];
    for (i, o) in out.iter_mut().enumerate() {
        let lo = if i + w < 4 { a[i + w] } else { 0 };
        let hi = if i + w + 1 < 4 { a[i + w + 1] } else { 0 };
        *o = if b == 0 {
            lo
        } else {
            (lo >> b) | (hi << (64 - b))
        };
    }
    out
}

/// Line steps as (row, column) of the four directions, in [`DIRECTIONS`] order.
const STEPS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// Points where a five-point window in each direction starts and stays on the board.
const WINDOW_STARTS: [Bits; 4] = {
    let mut out = [[0u64; 4]; 4];
    let mut d = 0;
    while d < 4 {
        let (dr, dc) = STEPS[d];
        let mut p = 0;
        while p < 256 {
            let (r, c) = ((p / STRIDE) as i32, (p % STRIDE) as i32);
            let (er, ec) = (r + 4 * dr, c + 4 * dc);
            let size = SIZE as i32;
            if r < size && c < size && er >= 0 && er < size && ec >= 0 && ec < size {
                out[d][p / 64] |= 1 << (p % 64);
            }
            p += 1;
        }
        d += 1;
    }
    out
};

/// Player 0's pattern score minus player 1's, over every five-point window of every line that
/// holds stones of one side only: 2 stones (a two) count 1, 3 (a three: open when the window
/// is free) 8, 4 (a four: one move from five) 60. The side to move's patterns count 1.5 times
/// (it plays first), and a four of the mover is a win next move (+400).
#[inline]
fn pattern_score(stones: &[Bits; 2], mover: usize) -> f32 {
    let mut counts = [[0u32; 3]; 2];
    for (d, &step) in DIRECTIONS.iter().enumerate() {
        let step = step as usize;
        let mut shifted = [[[0u64; 4]; 5]; 2];
        for side in 0..2 {
            for (i, s) in shifted[side].iter_mut().enumerate() {
                *s = shift_down(&stones[side], i * step);
            }
        }
        for w in 0..4 {
            let starts = WINDOW_STARTS[d][w];
            if starts == 0 {
                continue;
            }
            for side in 0..2 {
                let x = &shifted[side];
                let y = &shifted[1 - side];
                let blocked = y[0][w] | y[1][w] | y[2][w] | y[3][w] | y[4][w];
                let clean = starts & !blocked;
                // Bit-sliced sum of the five inputs: ones + 2 twos + 4 fours.
                let (a, b, c, e, f) = (x[0][w], x[1][w], x[2][w], x[3][w], x[4][w]);
                let s1 = a ^ b;
                let mut twos = a & b;
                let s2 = s1 ^ c;
                twos |= s1 & c;
                let s3 = s2 ^ e;
                let c3 = s2 & e;
                let mut fours = twos & c3;
                twos ^= c3;
                let ones = s3 ^ f;
                let c4 = s3 & f;
                fours |= twos & c4;
                twos ^= c4;
                let n4 = clean & fours & !twos & !ones;
                let n3 = clean & !fours & twos & ones;
                let n2 = clean & !fours & twos & !ones;
                counts[side][0] += n2.count_ones();
                counts[side][1] += n3.count_ones();
                counts[side][2] += n4.count_ones();
            }
        }
    }
    let mut score = [0.0f32; 2];
    for side in 0..2 {
        let [n2, n3, n4] = counts[side];
        score[side] = n2 as f32 + 8.0 * n3 as f32 + 60.0 * n4 as f32;
        if side == mover {
            score[side] *= 1.5;
            if n4 > 0 {
                score[side] += 400.0;
            }
        }
    }
    score[0] - score[1]
}

impl<const EXACT: bool> Gomoku<EXACT> {
    const INFO_RULE: GameInfo = if EXACT {
        GameInfo {
            name: "gomoku",
            aliases: &["gomoku15x15", "gomokuexact"],
            board: "15x15",
            notation: "drop as cutechess/Fairy-Stockfish write it: P@h8 (files a-o, ranks 1-15); \
                       also accepts h8; GTP vertices skip I (H8, J8)",
            start: "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 w",
        }
    } else {
        GameInfo {
            name: "gomokufreestyle",
            aliases: &["gomoku-freestyle", "freestylegomoku"],
            board: "15x15",
            notation: "drop as cutechess/Fairy-Stockfish write it: P@h8 (files a-o, ranks 1-15); \
                       also accepts h8; GTP vertices skip I (H8, J8)",
            start: "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 w",
        }
    };

    #[inline]
    fn occupied(&self) -> [u64; 4] {
        let [a, b] = &self.stones;
        [a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]]
    }

    #[inline]
    fn empty(&self) -> [u64; 4] {
        let occ = self.occupied();
        [
            !occ[0] & BOARD[0],
            !occ[1] & BOARD[1],
            !occ[2] & BOARD[2],
            !occ[3] & BOARD[3],
        ]
    }

    #[inline]
    fn is_over(&self) -> bool {
        self.won || self.count as usize == POINTS
    }

    #[inline]
    fn is_empty_point(&self, idx: usize) -> bool {
        (self.empty()[idx >> 6] >> (idx & 63)) & 1 != 0
    }

    fn point_name(idx: usize) -> String {
        format!("{}{}", file_char(idx % STRIDE), idx / STRIDE + 1)
    }

    fn gtp_vertex(idx: usize) -> String {
        format!("{}{}", GTP_COLUMNS[idx % STRIDE] as char, idx / STRIDE + 1)
    }

    /// The legal move dropping on `idx`, or why it is not legal.
    fn drop_on(&self, text: &str, idx: usize) -> Result<Move, GameError> {
        if self.is_over() {
            Err(GameError::illegal(text, "the game is over"))
        } else if !self.is_empty_point(idx) {
            Err(GameError::illegal(text, "the point is occupied"))
        } else {
            Ok(Move(idx as u16))
        }
    }

    /// Reads `P@h8` or `h8` (files a-o, any case) to a point index.
    fn read_native(text: &str) -> Result<usize, GameError> {
        let t = text.trim();
        let t = t
            .strip_prefix("P@")
            .or_else(|| t.strip_prefix("p@"))
            .unwrap_or(t);
        let err = || GameError::syntax(text, "expected a point a1-o15, as in P@h8 or h8");
        let mut chars = t.chars();
        let col = match chars.next() {
            Some(c @ 'a'..='o') => c as usize - 'a' as usize,
            Some(c @ 'A'..='O') => c as usize - 'A' as usize,
            _ => return Err(err()),
        };
        let row = read_rank(chars.as_str()).ok_or_else(err)?;
        Ok(point(row, col))
    }

    /// Reads a GTP vertex (`H8`, `J8`: columns A-P without I, any case) to a point index.
    fn read_gtp(text: &str) -> Result<usize, GameError> {
        let t = text.trim();
        let mut chars = t.chars();
        let letter = chars.next().map(|c| c.to_ascii_uppercase());
        if letter == Some('I') {
            return Err(GameError::syntax(
                text,
                "GTP vertices skip the letter I (the ninth column is J); P@i8 is the native form",
            ));
        }
        let col = letter
            .and_then(|c| GTP_COLUMNS.iter().position(|&g| g as char == c))
            .ok_or_else(|| {
                GameError::syntax(text, "expected a vertex A1-P15 (no I), as in H8, or P@h8")
            })?;
        let row = read_rank(chars.as_str()).ok_or_else(|| {
            GameError::syntax(text, "expected a row 1-15 after the column, as in H8")
        })?;
        Ok(point(row, col))
    }

    /// Whether `side` has a winning line anywhere (for reading positions).
    fn has_line_anywhere(stones: &[u64; 4]) -> bool {
        (0..256).any(|idx| has_stone(stones, idx) && makes_line(stones, idx as usize, EXACT))
    }

    fn stone_char(&self, idx: usize, marks: [char; 2]) -> Option<char> {
        (0..2)
            .find(|&s| has_stone(&self.stones[s], idx as i32))
            .map(|s| marks[s])
    }
}

/// The network's view: the mover's stones (features 0-224, `row * 15 + column`), the
/// opponent's (225-449), and feature 450 when Black is to move (the first player's game is not
/// the second's); a move's policy index is its point's `row * 15 + column`; the eight symmetries
/// of the square keep the rules.
impl<const EXACT: bool> crate::game::Features for Gomoku<EXACT> {
    const INPUTS: usize = 2 * POINTS + 1;
    const POLICY: usize = POINTS;
    const SYMMETRIES: usize = 8;

    fn features(&self, out: &mut Vec<u16>) {
        out.clear();
        let me = (self.count & 1) as usize;
        for (side, base) in [(me, 0), (1 - me, POINTS)] {
            for (w, &word) in self.stones[side].iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let idx = w * 64 + bits.trailing_zeros() as usize;
                    out.push((base + idx / STRIDE * SIZE + idx % STRIDE) as u16);
                    bits &= bits - 1;
                }
            }
        }
        if me == 0 {
            out.push(2 * POINTS as u16);
        }
    }

    fn policy_index(&self, m: Move) -> usize {
        let idx = m.0 as usize;
        idx / STRIDE * SIZE + idx % STRIDE
    }

    fn map_feature(s: usize, f: u16) -> u16 {
        let f = f as usize;
        if f == 2 * POINTS {
            return f as u16;
        }
        (f / POINTS * POINTS + Self::map_policy(s, f % POINTS)) as u16
    }

    fn map_policy(s: usize, p: usize) -> usize {
        let (row, col) = crate::game::square_symmetry(s, p / SIZE, p % SIZE, SIZE);
        row * SIZE + col
    }
}

impl<const EXACT: bool> Rules for Gomoku<EXACT> {
    const INFO: GameInfo = Self::INFO_RULE;

    fn start() -> Self {
        Gomoku {
            stones: [[0; 4]; 2],
            count: 0,
            won: false,
            hash: 0,
        }
    }

    #[inline]
    fn to_move(&self) -> Player {
        Player(self.count & 1)
    }

    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.is_over() {
            return;
        }
        for (w, mut bits) in self.empty().into_iter().enumerate() {
            while bits != 0 {
                out.push(Move((w * 64 + bits.trailing_zeros() as usize) as u16));
                bits &= bits - 1;
            }
        }
    }

    #[inline]
    fn count_moves(&self) -> usize {
        if self.is_over() {
            0
        } else {
            POINTS - self.count as usize
        }
    }

    #[inline]
    fn play(&mut self, m: Move) {
        let me = (self.count & 1) as usize;
        let idx = m.0 as usize;
        debug_assert!(self.is_empty_point(idx) && !self.is_over());
        self.stones[me][idx >> 6] |= 1 << (idx & 63);
        self.hash ^= ZOBRIST_STONE[me][idx] ^ ZOBRIST_SIDE;
        self.count += 1;
        self.won = makes_line(&self.stones[me], idx, EXACT);
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.won {
            Some(Outcome::win(Player((self.count - 1) & 1), 2))
        } else if self.count as usize == POINTS {
            Some(Outcome::draw(2))
        } else {
            None
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let mut h = if self.count & 1 == 1 { ZOBRIST_SIDE } else { 0 };
        for (side, keys) in ZOBRIST_STONE.iter().enumerate() {
            for (w, &word) in self.stones[side].iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    h ^= keys[w * 64 + bits.trailing_zeros() as usize];
                    bits &= bits - 1;
                }
            }
        }
        h
    }

    fn format_move(&self, m: Move) -> String {
        format!("P@{}", Self::point_name(m.0 as usize))
    }

    /// Accepts `P@h8` and `h8` (any case).
    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        let idx = Self::read_native(text)?;
        self.drop_on(text, idx)
    }

    fn to_position(&self) -> String {
        let rows = (0..SIZE)
            .rev()
            .map(|row| (0..SIZE).map(move |col| self.stone_char(point(row, col), ['P', 'p'])));
        format!(
            "{} {}",
            fen::board_field(rows),
            if self.count & 1 == 0 { 'w' } else { 'b' }
        )
    }

    /// Reads `<15 rows top to bottom> [w|b]`; stones `P`/`p` (or `x`/`o`); a `[...]` pocket and
    /// trailing fields are ignored.
    fn parse_position(text: &str) -> Result<Self, GameError> {
        let (rows, mut fields) = fen::board_rows(text, SIZE)?;
        let mut stones = [[0u64; 4]; 2];
        for (i, row_text) in rows.iter().enumerate() {
            let row = SIZE - 1 - i;
            let rank = row + 1;
            let mut col = 0usize;
            let mut run = 0usize;
            for c in row_text.chars() {
                if let Some(d) = c.to_digit(10) {
                    run = run * 10 + d as usize;
                    if run == 0 || run > SIZE {
                        return Err(GameError::position(
                            "board",
                            format!("bad run of empty points on rank {rank}"),
                        ));
                    }
                    continue;
                }
                col += run;
                run = 0;
                let side = match c {
                    'P' | 'X' | 'x' | 'B' => 0,
                    'p' | 'O' | 'o' | 'W' => 1,
                    _ => {
                        return Err(GameError::position(
                            "board",
                            format!("unknown stone '{c}' on rank {rank} (use P, p or digits)"),
                        ))
                    }
                };
                if col >= SIZE {
                    return Err(GameError::position(
                        "board",
                        format!("rank {rank} has more than 15 points"),
                    ));
                }
                let idx = point(row, col);
                stones[side][idx >> 6] |= 1 << (idx & 63);
                col += 1;
            }
            col += run;
            if col != SIZE {
                return Err(GameError::position(
                    "board",
                    format!("rank {rank} has {col} points, expected 15"),
                ));
            }
        }
        let count_of = |s: &[u64; 4]| s.iter().map(|w| w.count_ones()).sum::<u32>();
        let (n0, n1) = (count_of(&stones[0]), count_of(&stones[1]));
        if n0 != n1 && n0 != n1 + 1 {
            return Err(GameError::position(
                "board",
                format!("{n0} first-player and {n1} second-player stones cannot occur"),
            ));
        }
        let to_move = if n0 == n1 { 'w' } else { 'b' };
        match fields.next() {
            None | Some("-") => {}
            Some(s) if s.eq_ignore_ascii_case(&to_move.to_string()) => {}
            Some("w") | Some("b") | Some("W") | Some("B") => {
                return Err(GameError::position(
                    "side to move",
                    format!("the stone counts say '{to_move}' is to move"),
                ))
            }
            Some(other) => {
                return Err(GameError::position(
                    "side to move",
                    format!("'{other}' is not w or b"),
                ))
            }
        }
        let last_mover = if n0 == n1 { 1 } else { 0 };
        if n0 + n1 > 0 && Self::has_line_anywhere(&stones[1 - last_mover]) {
            return Err(GameError::position(
                "board",
                "the side to move already has five in a row (the game ended earlier)",
            ));
        }
        let mut game = Gomoku {
            stones,
            count: (n0 + n1) as u8,
            won: n0 + n1 > 0 && Self::has_line_anywhere(&stones[last_mover]),
            hash: 0,
        };
        game.hash = game.compute_hash();
        Ok(game)
    }

    fn diagram(&self) -> String {
        let mut out = String::new();
        for row in (0..SIZE).rev() {
            out += &format!("{:>2} ", row + 1);
            for col in 0..SIZE {
                out.push(self.stone_char(point(row, col), ['X', 'O']).unwrap_or('.'));
                out.push(' ');
            }
            out.push('\n');
        }
        // GTP players read the board too: their vertices skip I, so label both.
        out + "   a b c d e f g h i j k l m n o\n   A B C D E F G H J K L M N O P  (GTP vertices)"
    }

    /// Rejection sampling over the 256 point indices (uniform over the empty points, and cheap
    /// while the board is not nearly full), then a direct pick among the empty points.
    #[inline]
    fn random_move(&self, rng: &mut Rng, _buf: &mut MoveList) -> Option<Move> {
        if self.is_over() {
            return None;
        }
        let empty = self.empty();
        let mut bits = 0u64;
        for k in 0..RANDOM_TRIES {
            if k % 8 == 0 {
                bits = rng.next_u64();
            }
            let idx = (bits & 255) as usize;
            bits >>= 8;
            if (empty[idx >> 6] >> (idx & 63)) & 1 != 0 {
                return Some(Move(idx as u16));
            }
        }
        let mut k = rng.below((POINTS - self.count as usize) as u32);
        for (w, mut word) in empty.into_iter().enumerate() {
            let n = word.count_ones();
            if k < n {
                for _ in 0..k {
                    word &= word - 1;
                }
                return Some(Move((w * 64 + word.trailing_zeros() as usize) as u16));
            }
            k -= n;
        }
        debug_assert!(false, "no empty point in a live position");
        None
    }

    fn territory(&self) -> Option<&dyn Territory> {
        Some(self)
    }

    fn territory_mut(&mut self) -> Option<&mut dyn Territory> {
        Some(self)
    }
}

impl<const EXACT: bool> Heuristics for Gomoku<EXACT> {
    /// The four-threat rule: a five of the mover's own (the first such point), else the points
    /// where the opponent would make five (the blocks).
    fn forcing_moves(&self, out: &mut MoveList) -> bool {
        out.clear();
        if self.is_over() {
            return false;
        }
        let me = (self.count & 1) as usize;
        let empty = self.empty();
        for side in [me, 1 - me] {
            for (w, &word) in empty.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let idx = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let mut with = self.stones[side];
                    with[idx >> 6] |= 1 << (idx & 63);
                    if makes_line(&with, idx, EXACT) {
                        out.push(Move(idx as u16));
                        if side == me {
                            return true;
                        }
                    }
                }
            }
            if !out.is_empty() {
                return true;
            }
        }
        false
    }

    const HAS_EVALUATION: bool = true;

    /// Line patterns from five-point windows (see `pattern_score`), through tanh into (-1, 1).
    #[inline]
    fn evaluate(&self, player: Player) -> f32 {
        let v = (pattern_score(&self.stones, (self.count & 1) as usize) / 40.0).tanh();
        crate::game::zero_sum(v, player)
    }
}

impl<const EXACT: bool> Dialects for Gomoku<EXACT> {
    /// GTP writes vertices, `H8` (columns A-P skipping I, row 1 at the bottom); UCI and USI write
    /// the native `P@h8`.
    fn format_move_in(&self, m: Move, dialect: Dialect) -> String {
        match dialect {
            Dialect::Gtp => Self::gtp_vertex(m.0 as usize),
            Dialect::Native | Dialect::Usi => self.format_move(m),
        }
    }

    /// GTP reads a bare vertex as GTP (`J8` is the ninth column) and `P@j8` natively; the other
    /// dialects read the native notation.
    fn parse_move_in(&self, text: &str, dialect: Dialect) -> Result<Move, GameError> {
        let t = text.trim();
        if dialect != Dialect::Gtp || t.starts_with("P@") || t.starts_with("p@") {
            return self.parse_move(text);
        }
        let idx = Self::read_gtp(text)?;
        self.drop_on(text, idx)
    }
}

impl<const EXACT: bool> Territory for Gomoku<EXACT> {
    /// The rows of the position string (`P` the first player, Black) on GoGui's 15x15 grid.
    fn gogui_board(&self) -> Option<GoGuiBoard> {
        Some(GoGuiBoard {
            rows: gogui_rows(&self.to_position(), ['P', 'p'], false),
            captured: [0, 0],
        })
    }
}

#[cfg(test)]
mod tests;
