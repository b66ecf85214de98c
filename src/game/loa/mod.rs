//! Lines of Action on 8x8 (`loa`) and 7x7 (`loa7`), with u64 bitboards.
//!
//! Rules: a piece moves along one of the 8 directions exactly as many squares as
//! there are pieces of both colours on the whole line (row, column or diagonal) through it; it
//! may jump its own pieces but not enemy ones, may not land on its own piece and captures an
//! enemy piece by landing on it. A player whose pieces form one 8-connected group wins (a single
//! piece is one group); if a move leaves both players connected, the mover wins. There is no
//! repetition rule (the game-length cap of the record applies).
//!
//! Squares are `row * N + col`, row 0 = rank 1 (the rank of the first player's lower row). The
//! first player is `x` (black), the second `o` (white).

use super::{
    fen, find_legal, zobrist, Dialects, GameError, GameInfo, Heuristics, Move, MoveList, Outcome,
    Player, Rules,
};
use crate::rng::Rng;

/// The explicit pass, legal only when the player to move has pieces but no move at all. That is
/// rare in Lines of Action (every piece boxed in by enemy pieces or own landing squares), but
/// the `Game` contract wants a move in every position that is not over.
const PASS: Move = Move(0xFFFF);

/// Zobrist table id base ("LOA" in ASCII); the board size is added so 7x7 and 8x8 differ.
const ZOBRIST_TABLE: u64 = 0x004C_4F41_0000;

/// Index of the side-to-move key in the Zobrist table (after 2 colours x 64 squares).
const SIDE_KEY: usize = 128;

/// Lines through a square: 0 row, 1 column, 2 diagonal (a1-h8 direction), 3 anti-diagonal.
/// Direction `2 * line` walks towards higher square indices, `2 * line + 1` towards lower ones.
const LINES: usize = 4;

/// Per-square line masks and rays, built at compile time for one board size.
struct Tables {
    /// All squares of a line through the square, the square itself included.
    line: [[u64; 64]; LINES],
    /// The squares strictly beyond the square in a direction, up to the board edge.
    ray: [[u64; 64]; 2 * LINES],
    /// How many squares `ray` holds (the longest possible move in that direction).
    reach: [[u8; 64]; 2 * LINES],
}

const fn build_tables<const N: usize>() -> Tables {
    // (row step, column step) of the positive direction of each line.
    const STEPS: [(i32, i32); LINES] = [(0, 1), (1, 0), (1, 1), (1, -1)];
    let mut t = Tables {
        line: [[0; 64]; LINES],
        ray: [[0; 64]; 2 * LINES],
        reach: [[0; 64]; 2 * LINES],
    };
    let n = N as i32;
    let mut sq = 0;
    while sq < N * N {
        let mut l = 0;
        while l < LINES {
            let mut sign = 0;
            while sign < 2 {
                let (dr, dc) = STEPS[l];
                let (dr, dc) = if sign == 0 { (dr, dc) } else { (-dr, -dc) };
                let (mut r, mut c) = ((sq / N) as i32 + dr, (sq % N) as i32 + dc);
                let mut ray = 0u64;
                let mut reach = 0u8;
                while r >= 0 && r < n && c >= 0 && c < n {
                    ray |= 1 << (r * n + c);
                    reach += 1;
                    r += dr;
                    c += dc;
                }
                t.ray[2 * l + sign][sq] = ray;
                t.reach[2 * l + sign][sq] = reach;
                t.line[l][sq] |= ray;
                sign += 1;
            }
            t.line[l][sq] |= 1 << sq;
            l += 1;
        }
        sq += 1;
    }
    t
}

/// The start position: the first player on the bottom and top rows, the second on the left and
/// right columns, corners empty.
const fn start_pieces<const N: usize>() -> [u64; 2] {
    let mut pieces = [0u64; 2];
    let mut i = 1;
    while i < N - 1 {
        pieces[0] |= (1 << i) | (1 << ((N - 1) * N + i));
        pieces[1] |= (1 << (i * N)) | (1 << (i * N + N - 1));
        i += 1;
    }
    pieces
}

/// Lines of Action on an `N`x`N` board (`N` = 7 or 8).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Loa<const N: usize> {
    /// Pieces of player 0 (`x`) and player 1 (`o`).
    pieces: [u64; 2],
    /// The player to move, 0 or 1.
    side: u8,
    /// 0 while the game goes on, else 1 + the winner. Derived from `pieces` and `side` (see
    /// [`Loa::result_of`]), so equal positions have equal caches.
    result: u8,
    /// Incremental Zobrist hash of `pieces` and `side`.
    hash: u64,
}

impl<const N: usize> Loa<N> {
    const TABLES: &'static Tables = &build_tables::<N>();
    const KEYS: &'static [u64; 129] = &zobrist::keys::<129>(ZOBRIST_TABLE + N as u64);
    /// Square-index step of the positive direction of each line.
    const DELTA: [usize; LINES] = [1, N, N + 1, N - 1];
    const FIRST_COL: u64 = {
        let mut m = 0u64;
        let mut r = 0;
        while r < N {
            m |= 1 << (r * N);
            r += 1;
        }
        m
    };
    const LAST_COL: u64 = Self::FIRST_COL << (N - 1);
    const START: [u64; 2] = start_pieces::<N>();

    fn from_parts(pieces: [u64; 2], side: u8) -> Self {
        let mut pos = Loa {
            pieces,
            side,
            result: Self::result_of(pieces, side),
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    /// The result of a position as a function of the position alone: the player who just moved
    /// wins if connected (even when the other is connected too), else the player to move wins
    /// if connected. `play` computes the same thing more cheaply.
    fn result_of(pieces: [u64; 2], side: u8) -> u8 {
        let mover = side ^ 1;
        if Self::connected(pieces[mover as usize]) {
            mover + 1
        } else if Self::connected(pieces[side as usize]) {
            side + 1
        } else {
            0
        }
    }

    /// The 8-neighbourhood of `set`, `set` included (bits past the board may be set; callers
    /// intersect with a set of pieces).
    #[inline(always)]
    fn grow(set: u64) -> u64 {
        let h = set | ((set & !Self::LAST_COL) << 1) | ((set & !Self::FIRST_COL) >> 1);
        h | (h << N) | (h >> N)
    }

    /// Whether `set` (non-empty) forms one 8-connected group: flood fill from its lowest piece.
    #[inline]
    fn connected(set: u64) -> bool {
        let mut group = set & set.wrapping_neg();
        loop {
            let grown = Self::grow(group) & set;
            if grown == group {
                return group == set;
            }
            group = grown;
        }
    }

    /// One side's shape score (Winands' MIA terms, without mobility): concentration (the mean
    /// Chebyshev distance to the centre of mass beyond the least possible for that many pieces),
    /// centralisation (the mean Chebyshev distance to the board centre) and the number of
    /// groups beyond one; higher is better.
    #[inline]
    fn side_score(set: u64) -> f32 {
        let n = set.count_ones() as i32;
        if n == 0 {
            return 0.0;
        }
        let (mut rows, mut cols) = (0i32, 0i32);
        let mut rest = set;
        while rest != 0 {
            let sq = rest.trailing_zeros() as i32;
            rest &= rest - 1;
            rows += sq / N as i32;
            cols += sq % N as i32;
        }
        // Centre of mass and board centre, doubled to stay in integers.
        let (cr, cc) = ((2 * rows + n / 2) / n, (2 * cols + n / 2) / n);
        let mid = N as i32 - 1;
        let (mut spread, mut off_centre) = (0i32, 0i32);
        let mut rest = set;
        while rest != 0 {
            let sq = rest.trailing_zeros() as i32;
            rest &= rest - 1;
            let (r2, c2) = (2 * (sq / N as i32), 2 * (sq % N as i32));
            spread += (r2 - 2 * (cr / 2) - (cr & 1))
                .abs()
                .max((c2 - 2 * (cc / 2) - (cc & 1)).abs());
            off_centre += (r2 - mid).abs().max((c2 - mid).abs());
        }
        // The least summed distance of n pieces packed around one square: 8 at 1, 16 at 2, ...
        let least = match n {
            0..=1 => 0,
            2..=9 => n - 1,
            _ => 8 + 2 * (n - 9),
        };
        let concentration = (spread as f32 / 2.0 - least as f32).max(0.0) / n as f32;
        let centralisation = off_centre as f32 / 2.0 / n as f32;
        let mut groups = 0;
        let mut rest = set;
        while rest != 0 {
            let mut group = rest & rest.wrapping_neg();
            loop {
                let grown = Self::grow(group) & set;
                if grown == group {
                    break;
                }
                group = grown;
            }
            rest &= !group;
            groups += 1;
        }
        -concentration - 0.3 * centralisation - 0.4 * (groups - 1) as f32
    }

    /// The target square of a move from `from` in direction `dir`, if that move is legal.
    #[inline(always)]
    fn target(&self, from: usize, dir: usize, own: u64, opp: u64) -> Option<usize> {
        let t = Self::TABLES;
        let line = dir >> 1;
        let dist = ((own | opp) & t.line[line][from]).count_ones() as usize;
        if dist > t.reach[dir][from] as usize {
            return None;
        }
        let ray = t.ray[dir][from];
        let (to, between) = if dir & 1 == 0 {
            let to = from + dist * Self::DELTA[line];
            (to, ray & ((1u64 << to) - 1))
        } else {
            let to = from - dist * Self::DELTA[line];
            (to, ray & !((2u64 << to) - 1))
        };
        ((between & opp) | (own & (1u64 << to)) == 0).then_some(to)
    }

    /// Calls `emit(from, to)` for every legal (non-pass) move of the player to move.
    #[inline(always)]
    fn for_each_move(&self, mut emit: impl FnMut(usize, usize)) {
        let t = Self::TABLES;
        let own = self.pieces[self.side as usize];
        let opp = self.pieces[self.side as usize ^ 1];
        let occ = own | opp;
        let mut rest = own;
        while rest != 0 {
            let from = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            for line in 0..LINES {
                let dist = (occ & t.line[line][from]).count_ones() as usize;
                let step = dist * Self::DELTA[line];
                if dist <= t.reach[2 * line][from] as usize {
                    let to = from + step;
                    let between = t.ray[2 * line][from] & ((1u64 << to) - 1);
                    if (between & opp) | (own & (1u64 << to)) == 0 {
                        emit(from, to);
                    }
                }
                if dist <= t.reach[2 * line + 1][from] as usize {
                    let to = from - step;
                    let between = t.ray[2 * line + 1][from] & !((2u64 << to) - 1);
                    if (between & opp) | (own & (1u64 << to)) == 0 {
                        emit(from, to);
                    }
                }
            }
        }
    }

    #[inline]
    fn encode(from: usize, to: usize) -> Move {
        Move((from | (to << 6)) as u16)
    }

    fn square_name(sq: usize) -> String {
        format!("{}{}", (b'a' + (sq % N) as u8) as char, sq / N + 1)
    }

    /// Reads a square like `b3` from the start of `bytes`, if it is on this board.
    fn parse_square(bytes: &[u8]) -> Option<usize> {
        let (&file, &rank) = (bytes.first()?, bytes.get(1)?);
        let col = file.to_ascii_lowercase().wrapping_sub(b'a') as usize;
        let row = rank.wrapping_sub(b'1') as usize;
        (col < N && row < N).then_some(row * N + col)
    }

    fn parse_board(text: &str) -> Result<[u64; 2], GameError> {
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != N {
            return Err(GameError::position(
                "board",
                format!("expected {N} rows separated by '/', found {}", rows.len()),
            ));
        }
        let mut pieces = [0u64; 2];
        for (i, row_text) in rows.iter().enumerate() {
            let row = N - 1 - i;
            let rank = row + 1;
            let mut col = 0usize;
            let mut last_was_digit = false;
            for ch in row_text.chars() {
                let run = match ch {
                    'x' | 'o' => 1,
                    '1'..='9' => {
                        if last_was_digit {
                            return Err(GameError::position(
                                "board",
                                format!("rank {rank}: two digits in a row in '{row_text}'"),
                            ));
                        }
                        ch as usize - '0' as usize
                    }
                    _ => {
                        return Err(GameError::position(
                            "board",
                            format!("rank {rank}: unexpected '{ch}' (use x, o or digits 1-{N})"),
                        ))
                    }
                };
                last_was_digit = ch.is_ascii_digit();
                if col + run > N {
                    return Err(GameError::position(
                        "board",
                        format!("rank {rank}: '{row_text}' is wider than {N} squares"),
                    ));
                }
                if let Some(p) = ['x', 'o'].iter().position(|&c| c == ch) {
                    pieces[p] |= 1 << (row * N + col);
                }
                col += run;
            }
            if col != N {
                return Err(GameError::position(
                    "board",
                    format!("rank {rank}: '{row_text}' covers {col} squares, expected {N}"),
                ));
            }
        }
        for (p, name) in ["x", "o"].iter().enumerate() {
            if pieces[p] == 0 {
                return Err(GameError::position(
                    "board",
                    format!("player {name} has no pieces (every reachable position has some)"),
                ));
            }
        }
        Ok(pieces)
    }
}

/// No network encoding yet.
impl<const N: usize> crate::game::Features for Loa<N> {}

impl<const N: usize> Rules for Loa<N> {
    const INFO: GameInfo = if N == 8 {
        GameInfo {
            name: "loa",
            aliases: &["linesofaction", "lines_of_action"],
            board: "8x8",
            notation: "from and to square, e.g. b1b3 (also b1-b3, c1xa3); pass when blocked",
            start: "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x",
        }
    } else if N == 7 {
        GameInfo {
            name: "loa7",
            aliases: &["loa7x7"],
            board: "7x7",
            notation: "from and to square, e.g. b1b3 (also b1-b3, c1xa3); pass when blocked",
            start: "1xxxxx1/o5o/o5o/o5o/o5o/o5o/1xxxxx1 x",
        }
    } else {
        panic!("Lines of Action is defined here for 7x7 and 8x8 boards only")
    };

    fn start() -> Self {
        Self::from_parts(Self::START, 0)
    }

    #[inline]
    fn to_move(&self) -> Player {
        Player(self.side)
    }

    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.result != 0 {
            return;
        }
        self.for_each_move(|from, to| out.push(Self::encode(from, to)));
        if out.is_empty() {
            out.push(PASS);
        }
    }

    fn count_moves(&self) -> usize {
        if self.result != 0 {
            return 0;
        }
        let mut n = 0;
        self.for_each_move(|_, _| n += 1);
        n.max(1)
    }

    fn play(&mut self, m: Move) {
        let s = self.side as usize;
        let o = s ^ 1;
        self.side ^= 1;
        self.hash ^= Self::KEYS[SIDE_KEY];
        if m == PASS {
            // Nothing moved: neither side was connected before, neither is now.
            return;
        }
        let (from, to) = ((m.0 & 63) as usize, (m.0 >> 6) as usize);
        let to_bit = 1u64 << to;
        self.pieces[s] ^= (1u64 << from) | to_bit;
        self.hash ^= Self::KEYS[s * 64 + from] ^ Self::KEYS[s * 64 + to];
        let captured = self.pieces[o] & to_bit != 0;
        if captured {
            self.pieces[o] ^= to_bit;
            self.hash ^= Self::KEYS[o * 64 + to];
        }
        // Same as `result_of`: the opponent's pieces only change (and so can only become
        // connected) on a capture, since it was not connected before the move.
        self.result = if Self::connected(self.pieces[s]) {
            s as u8 + 1
        } else if captured && Self::connected(self.pieces[o]) {
            o as u8 + 1
        } else {
            0
        };
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        match self.result {
            0 => None,
            r => Some(Outcome::win(Player(r - 1), 2)),
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let mut h = if self.side == 1 {
            Self::KEYS[SIDE_KEY]
        } else {
            0
        };
        for p in 0..2 {
            let mut rest = self.pieces[p];
            while rest != 0 {
                h ^= Self::KEYS[p * 64 + rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
        }
        h
    }

    fn format_move(&self, m: Move) -> String {
        if m == PASS {
            return "pass".to_string();
        }
        let (from, to) = ((m.0 & 63) as usize, (m.0 >> 6) as usize);
        format!("{}{}", Self::square_name(from), Self::square_name(to))
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("pass") || t == "0000" {
            if self.outcome().is_some() {
                return Err(GameError::illegal(text, "the game is over"));
            }
            return find_legal(self, text, PASS).map_err(|_| {
                GameError::illegal(text, "pass is only allowed when no piece can move")
            });
        }
        let bytes = t.as_bytes();
        let syntax = || {
            GameError::syntax(
                text,
                "expected from and to squares like b1b3, b1-b3 or c1xa3, or pass",
            )
        };
        let (from_part, to_part) = match bytes.len() {
            4 => (&bytes[..2], &bytes[2..]),
            5 if matches!(bytes[2], b'-' | b'x' | b'X' | b':') => (&bytes[..2], &bytes[3..]),
            _ => return Err(syntax()),
        };
        let from = Self::parse_square(from_part).ok_or_else(syntax)?;
        let to = Self::parse_square(to_part).ok_or_else(syntax)?;
        if self.outcome().is_none() && self.pieces[self.side as usize] & (1 << from) == 0 {
            let name = Self::square_name(from);
            let who = if self.side == 0 { 'x' } else { 'o' };
            return Err(GameError::illegal(
                text,
                format!("no {who} piece on {name}"),
            ));
        }
        find_legal(self, text, Self::encode(from, to))
    }

    fn to_position(&self) -> String {
        let cell = |bit: u64| {
            if self.pieces[0] & bit != 0 {
                Some('x')
            } else if self.pieces[1] & bit != 0 {
                Some('o')
            } else {
                None
            }
        };
        let rows = (0..N)
            .rev()
            .map(|row| (0..N).map(move |col| cell(1u64 << (row * N + col))));
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
        let pieces = Self::parse_board(board)?;
        let side = match fields.next() {
            Some("x") => 0,
            Some("o") => 1,
            Some(other) => {
                return Err(GameError::position(
                    "side to move",
                    format!("expected x or o, found '{other}'"),
                ))
            }
            None => return Err(GameError::position("side to move", "missing (x or o)")),
        };
        // Further fields (move counters and the like) carry nothing we use.
        Ok(Self::from_parts(pieces, side))
    }

    fn diagram(&self) -> String {
        let mut s = String::new();
        for row in (0..N).rev() {
            s += &format!("{} ", row + 1);
            for col in 0..N {
                let bit = 1u64 << (row * N + col);
                let ch = if self.pieces[0] & bit != 0 {
                    'x'
                } else if self.pieces[1] & bit != 0 {
                    'o'
                } else {
                    '.'
                };
                s.push(' ');
                s.push(ch);
            }
            s.push('\n');
        }
        s += "  ";
        for col in 0..N {
            s.push(' ');
            s.push((b'a' + col as u8) as char);
        }
        s.push('\n');
        let names = ['x', 'o'];
        match self.result {
            0 => s += &format!("{} to move\n", names[self.side as usize]),
            r => s += &format!("{} wins\n", names[r as usize - 1]),
        }
        s
    }

    /// Rejection sampling: a uniform (piece, direction) pair is a uniform legal move once
    /// accepted, since every legal move comes from exactly one pair. After a few misses the whole
    /// list decides (also uniform, so the mixture stays uniform); that also finds the pass.
    fn random_move(&self, rng: &mut Rng, buf: &mut MoveList) -> Option<Move> {
        if self.result != 0 {
            return None;
        }
        let own = self.pieces[self.side as usize];
        let opp = self.pieces[self.side as usize ^ 1];
        let pairs = own.count_ones() * 8;
        for _ in 0..16 {
            let r = rng.below(pairs);
            let mut rest = own;
            for _ in 0..r >> 3 {
                rest &= rest - 1;
            }
            let from = rest.trailing_zeros() as usize;
            if let Some(to) = self.target(from, (r & 7) as usize, own, opp) {
                return Some(Self::encode(from, to));
            }
        }
        self.legal_moves(buf);
        Some(buf[rng.below(buf.len() as u32) as usize])
    }
}

impl<const N: usize> Heuristics for Loa<N> {
    const HAS_EVALUATION: bool = true;

    /// See `Loa::side_score`: player 0's shape minus player 1's, through tanh into (-1, 1).
    #[inline]
    fn evaluate(&self, player: Player) -> f32 {
        let score = Self::side_score(self.pieces[0]) - Self::side_score(self.pieces[1]);
        let v = (score / 2.0).tanh();
        crate::game::zero_sum(v, player)
    }

    #[inline]
    fn is_capture(&self, m: Move) -> bool {
        m != PASS && self.pieces[1 - self.side as usize] & (1 << (m.0 >> 6 & 63)) != 0
    }
}

impl<const N: usize> Dialects for Loa<N> {}

#[cfg(test)]
mod tests;
