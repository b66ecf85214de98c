//! Lines of Action on 8x8 (`loa`) and 7x7 (`loa7`), with u64 bitboards.
//!
//! Rules (RULES.md §1): a piece moves along one of the 8 directions exactly as many squares as
//! there are pieces of both colours on the whole line (row, column or diagonal) through it; it
//! may jump its own pieces but not enemy ones, may not land on its own piece and captures an
//! enemy piece by landing on it. A player whose pieces form one 8-connected group wins (a single
//! piece is one group); if a move leaves both players connected, the mover wins. There is no
//! repetition rule (the game-length cap of the record applies).
//!
//! Squares are `row * N + col`, row 0 = rank 1 (the rank of the first player's lower row). The
//! first player is `x` (black), the second `o` (white).

use super::{find_legal, zobrist, Game, GameError, GameInfo, Move, MoveList, Outcome, Player};
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

impl<const N: usize> Game for Loa<N> {
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
        let mut s = String::with_capacity(N * (N + 1) + 2);
        for row in (0..N).rev() {
            let mut empty = 0;
            for col in 0..N {
                let bit = 1u64 << (row * N + col);
                let ch = if self.pieces[0] & bit != 0 {
                    'x'
                } else if self.pieces[1] & bit != 0 {
                    'o'
                } else {
                    empty += 1;
                    continue;
                };
                if empty > 0 {
                    s.push((b'0' + empty) as char);
                    empty = 0;
                }
                s.push(ch);
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if row > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(if self.side == 0 { 'x' } else { 'o' });
        s
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::check::random_games;
    use crate::game::perft::perft;

    type Loa8 = Loa<8>;
    type Loa7 = Loa<7>;

    fn pos<const N: usize>(text: &str) -> Loa<N> {
        Loa::<N>::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn move_names<const N: usize>(p: &Loa<N>) -> Vec<String> {
        let mut list = MoveList::new();
        p.legal_moves(&mut list);
        let mut names: Vec<String> = list.iter().map(|&m| p.format_move(m)).collect();
        names.sort();
        names
    }

    fn sorted(names: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn start_positions() {
        let p = Loa8::start();
        assert_eq!(p.to_position(), Loa8::INFO.start);
        assert_eq!(p.count_moves(), 36);
        assert_eq!(p.pieces[0].count_ones(), 12);
        assert_eq!(p.pieces[1].count_ones(), 12);
        let q = Loa7::start();
        assert_eq!(q.to_position(), Loa7::INFO.start);
        assert_eq!(q.pieces[0].count_ones(), 10);
        assert_eq!(q.pieces[1].count_ones(), 10);
        assert!(p.outcome().is_none() && q.outcome().is_none());
    }

    #[test]
    fn random_games_keep_invariants() {
        let s8 = random_games(&Loa8::start(), 700, 1);
        let s7 = random_games(&Loa7::start(), 700, 2);
        for s in [s8, s7] {
            assert!(s.decisive > 0);
            assert_eq!(s.capped + s.decisive + s.draws, s.games);
        }
    }

    #[test]
    fn distance_counts_every_piece_on_the_line() {
        // d4 alone on its row, column and anti-diagonal (1 square); the a1-h8 diagonal holds
        // a1, d4 and h8 (3 squares: d4g7, but d4a1 would land on an own piece).
        let p = pos::<8>("7o/8/8/8/3x4/8/8/x6o x");
        let expected = [
            "d4c4", "d4e4", "d4d3", "d4d5", "d4g7", "d4c5", "d4e3", "a1c1", "a1a2",
        ];
        assert_eq!(move_names(&p), sorted(&expected));
    }

    #[test]
    fn jumps_own_pieces_not_enemy_ones_and_captures_by_landing() {
        // Rank 1 holds a1, b1 (x) and d1 (o): 3 pieces.
        let p = pos::<8>("7x/8/8/7o/8/8/8/xx1o4 x");
        assert!(
            p.parse_move("a1d1").is_ok(),
            "a1 jumps its own b1 and captures on d1"
        );
        assert!(
            matches!(p.parse_move("b1e1"), Err(GameError::IllegalMove { .. })),
            "d1 blocks"
        );
        let mut q = p.clone();
        q.play_text("a1xd1").unwrap();
        assert_eq!(q.pieces[1].count_ones(), 1);
        // The capture leaves o a single piece, which is connected: o wins although x moved.
        assert_eq!(q.outcome(), Some(Outcome::win(Player(1), 2)));
        assert!(q.count_moves() == 0);
    }

    #[test]
    fn connecting_wins() {
        let mut p = pos::<8>("7o/8/8/8/8/1x6/8/x6o x");
        assert!(p.outcome().is_none());
        p.play_text("a1a2").unwrap();
        assert_eq!(p.outcome(), Some(Outcome::win(Player(0), 2)));
        let mut list = MoveList::new();
        p.legal_moves(&mut list);
        assert!(list.is_empty());
        assert!(matches!(
            p.parse_move("h1h2"),
            Err(GameError::IllegalMove { .. })
        ));
    }

    #[test]
    fn mover_wins_when_both_sides_connect() {
        // x b1 captures on b3: x b3+c3 connected, o g8+h8 connected too; the mover wins.
        let mut p = pos::<8>("6oo/8/8/8/8/1ox5/8/1x6 x");
        p.play_text("b1b3").unwrap();
        assert_eq!(p.outcome(), Some(Outcome::win(Player(0), 2)));
        let mut q = pos::<8>("6xx/8/8/8/8/1xo5/8/1o6 o");
        q.play_text("b1b3").unwrap();
        assert_eq!(q.outcome(), Some(Outcome::win(Player(1), 2)));
        // Parsed positions follow the same rule: the player not to move made the last move.
        let both = pos::<8>("6oo/8/8/8/8/1xx5/8/8 o");
        assert_eq!(both.outcome(), Some(Outcome::win(Player(0), 2)));
        let both = pos::<8>("6oo/8/8/8/8/1xx5/8/8 x");
        assert_eq!(both.outcome(), Some(Outcome::win(Player(1), 2)));
    }

    #[test]
    fn blocked_player_passes() {
        // x on a1 and h1 is boxed in by o on every line: only a pass remains.
        let p = pos::<8>("8/8/8/8/8/8/oo4oo/xo4ox x");
        assert!(p.outcome().is_none());
        assert_eq!(move_names(&p), vec!["pass".to_string()]);
        assert_eq!(p.count_moves(), 1);
        let m = p.parse_move("0000").unwrap();
        let mut q = p.clone();
        q.play(m);
        assert_eq!(q.to_move(), Player(1));
        assert!(q.outcome().is_none() && q.count_moves() > 0);
        assert!(matches!(
            q.parse_move("pass"),
            Err(GameError::IllegalMove { .. })
        ));
        assert!(matches!(
            Loa8::start().parse_move("pass"),
            Err(GameError::IllegalMove { .. })
        ));
        let mut rng = Rng::new(3);
        let mut buf = MoveList::new();
        assert_eq!(p.random_move(&mut rng, &mut buf), Some(PASS));
    }

    #[test]
    fn notation_variants() {
        let p = Loa8::start();
        let m = p.parse_move("b1b3").unwrap();
        assert_eq!(p.parse_move("b1-b3").unwrap(), m);
        assert_eq!(p.parse_move(" B1xB3 ").unwrap(), m);
        assert_eq!(p.format_move(m), "b1b3");
        let q = Loa7::start();
        assert_eq!(q.format_move(q.parse_move("b1b3").unwrap()), "b1b3");
        assert!(matches!(
            q.parse_move("h1h3"),
            Err(GameError::MoveSyntax { .. })
        ));
    }

    #[test]
    fn bad_moves_are_reported() {
        let p = Loa8::start();
        for text in [
            "",
            "b1",
            "b1b",
            "b1b9",
            "i1a1",
            "b1b3 x",
            "b1=b3",
            "é1b3",
            "b1é3",
            "99999999999999999999",
            "b0b3",
            "pas",
        ] {
            match p.parse_move(text) {
                Err(GameError::MoveSyntax { text: t, .. }) => assert_eq!(t, text),
                other => panic!("'{text}': expected a syntax error, got {other:?}"),
            }
        }
        for text in ["b1b4", "a2a3", "d4d5", "b1b1", "pass", "0000"] {
            match p.parse_move(text) {
                Err(GameError::IllegalMove { text: t, .. }) => assert_eq!(t, text),
                other => panic!("'{text}': expected an illegal-move error, got {other:?}"),
            }
        }
        let err = p.parse_move("a2a3").unwrap_err();
        assert!(err.to_string().contains("no x piece on a2"), "{err}");
    }

    #[test]
    fn bad_positions_are_reported() {
        let start = Loa8::INFO.start;
        let cases: &[(&str, &str)] = &[
            ("", "board"),
            ("   ", "board"),
            ("1xxxxxx1/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x", "board"), // 7 rows
            ("1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x", "board"), // 9 rows
            ("1xxxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x", "board"), // wide
            ("1xxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x", "board"), // narrow
            ("1xxxxxk1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x", "board"), // bad char
            ("1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1/ x", "board"), // trailing slash
            ("0xxxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x", "board"), // zero run
            ("9/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x", "board"),
            ("11xxxxxx/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x", "board"), // two digits
            ("1xxxxxx1/o6o/o6é/o6o/o6o/o6o/o6o/1xxxxxx1 x", "board"), // unicode
            ("8/o6o/o6o/o6o/o6o/o6o/o6o/8 x", "board"),               // no x pieces
            ("1xxxxxx1/8/8/8/8/8/8/1xxxxxx1 x", "board"),             // no o pieces
            ("1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1", "side to move"),
            (
                "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 w",
                "side to move",
            ),
            (
                "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 xo",
                "side to move",
            ),
            (
                "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 99999999999999999999",
                "side to move",
            ),
            ("1xxxxx1/o5o/o5o/o5o/o5o/o5o/1xxxxx1 x", "board"), // a 7x7 string
        ];
        for &(text, field) in cases {
            match Loa8::parse_position(text) {
                Err(GameError::Position { field: f, message }) => {
                    assert_eq!(f, field, "'{text}': {message}");
                    assert!(!message.is_empty());
                }
                other => panic!("'{text}': expected a {field} error, got {other:?}"),
            }
        }
        // Trailing fields we do not use are ignored.
        assert_eq!(pos::<8>(&format!("{start} 0 1")), Loa8::start());
        assert!(matches!(
            Loa7::parse_position(start),
            Err(GameError::Position { field: "board", .. })
        ));
    }

    // ---- An independent, naive generator on plain arrays, for cross-checking ----

    /// A board as rows of cells (row 0 = rank 1): 0 empty, 1 x, 2 o; and the side to move.
    #[derive(Clone)]
    struct Naive {
        n: usize,
        cells: Vec<Vec<u8>>,
        side: u8,
    }

    impl Naive {
        /// Reads our position string with its own code (not `parse_position`).
        fn read(text: &str) -> Naive {
            let (board, side) = text.split_once(' ').unwrap();
            let mut cells: Vec<Vec<u8>> = board
                .split('/')
                .map(|row| {
                    let mut out = Vec::new();
                    for ch in row.chars() {
                        match ch {
                            'x' => out.push(1),
                            'o' => out.push(2),
                            d => out.extend(
                                std::iter::repeat(0).take(d.to_digit(10).unwrap() as usize),
                            ),
                        }
                    }
                    out
                })
                .collect();
            cells.reverse();
            Naive {
                n: cells.len(),
                cells,
                side: if side == "x" { 1 } else { 2 },
            }
        }

        fn write(&self) -> String {
            let rows: Vec<String> = self
                .cells
                .iter()
                .rev()
                .map(|row| {
                    let mut s = String::new();
                    let mut empty = 0;
                    for &c in row {
                        if c == 0 {
                            empty += 1;
                            continue;
                        }
                        if empty > 0 {
                            s += &empty.to_string();
                            empty = 0;
                        }
                        s.push(if c == 1 { 'x' } else { 'o' });
                    }
                    if empty > 0 {
                        s += &empty.to_string();
                    }
                    s
                })
                .collect();
            format!(
                "{} {}",
                rows.join("/"),
                if self.side == 1 { 'x' } else { 'o' }
            )
        }

        fn at(&self, r: i32, c: i32) -> Option<u8> {
            let n = self.n as i32;
            (r >= 0 && r < n && c >= 0 && c < n).then(|| self.cells[r as usize][c as usize])
        }

        fn name(r: i32, c: i32) -> String {
            format!("{}{}", (b'a' + c as u8) as char, r + 1)
        }

        /// Moves as `(from_r, from_c, to_r, to_c)`, walking each line square by square.
        fn moves(&self) -> Vec<(i32, i32, i32, i32)> {
            let mut out = Vec::new();
            let dirs = [
                (0, 1),
                (0, -1),
                (1, 0),
                (-1, 0),
                (1, 1),
                (-1, -1),
                (1, -1),
                (-1, 1),
            ];
            for r in 0..self.n as i32 {
                for c in 0..self.n as i32 {
                    if self.at(r, c) != Some(self.side) {
                        continue;
                    }
                    for &(dr, dc) in &dirs {
                        // Count the pieces on the whole line: both ways from (r, c), plus itself.
                        let mut count = 1;
                        for s in [1, -1] {
                            let mut k = 1;
                            while let Some(v) = self.at(r + s * k * dr, c + s * k * dc) {
                                count += (v != 0) as i32;
                                k += 1;
                            }
                        }
                        let (tr, tc) = (r + count * dr, c + count * dc);
                        let Some(target) = self.at(tr, tc) else {
                            continue;
                        };
                        let blocked = (1..count).any(|k| {
                            let v = self.at(r + k * dr, c + k * dc).unwrap();
                            v != 0 && v != self.side
                        });
                        if !blocked && target != self.side {
                            out.push((r, c, tr, tc));
                        }
                    }
                }
            }
            out
        }

        fn move_names(&self) -> Vec<String> {
            let mut v: Vec<String> = self
                .moves()
                .iter()
                .map(|&(r, c, tr, tc)| Self::name(r, c) + &Self::name(tr, tc))
                .collect();
            if v.is_empty() && self.winner().is_none() {
                v.push("pass".into());
            }
            if self.winner().is_some() {
                v.clear();
            }
            v.sort();
            v
        }

        /// Breadth-first search over the 8-neighbours of one piece of `who`.
        fn connected(&self, who: u8) -> bool {
            let n = self.n as i32;
            let all: Vec<(i32, i32)> = (0..n)
                .flat_map(|r| (0..n).map(move |c| (r, c)))
                .filter(|&(r, c)| self.at(r, c) == Some(who))
                .collect();
            let mut seen = vec![all[0]];
            let mut i = 0;
            while i < seen.len() {
                let (r, c) = seen[i];
                for dr in -1..=1 {
                    for dc in -1..=1 {
                        let q = (r + dr, c + dc);
                        if self.at(q.0, q.1) == Some(who) && !seen.contains(&q) {
                            seen.push(q);
                        }
                    }
                }
                i += 1;
            }
            seen.len() == all.len()
        }

        /// The winner (1 or 2): the player who just moved if connected, else the other.
        fn winner(&self) -> Option<u8> {
            let mover = 3 - self.side;
            if self.connected(mover) {
                Some(mover)
            } else if self.connected(self.side) {
                Some(self.side)
            } else {
                None
            }
        }

        fn play(&mut self, (r, c, tr, tc): (i32, i32, i32, i32)) {
            self.cells[r as usize][c as usize] = 0;
            self.cells[tr as usize][tc as usize] = self.side;
            self.side = 3 - self.side;
        }

        fn perft(&self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            if self.winner().is_some() {
                return 0;
            }
            let moves = self.moves();
            if moves.is_empty() {
                let mut next = self.clone();
                next.side = 3 - next.side;
                return next.perft(depth - 1);
            }
            moves
                .into_iter()
                .map(|m| {
                    let mut next = self.clone();
                    next.play(m);
                    next.perft(depth - 1)
                })
                .sum()
        }
    }

    /// Compares the bitboard position with the naive one: moves, outcome, and every child.
    fn cross_check<const N: usize>(p: &Loa<N>) {
        let text = p.to_position();
        let naive = Naive::read(&text);
        assert_eq!(naive.write(), text);
        assert_eq!(move_names(p), naive.move_names(), "moves differ in {text}");
        let expected = naive.winner().map(|w| Outcome::win(Player(w - 1), 2));
        assert_eq!(p.outcome(), expected, "outcome differs in {text}");
        let mut list = MoveList::new();
        p.legal_moves(&mut list);
        for &m in &list {
            let mut child = p.clone();
            child.play(m);
            let mut naive_child = naive.clone();
            if m == PASS {
                naive_child.side = 3 - naive_child.side;
            } else {
                let name = p.format_move(m);
                let b = name.as_bytes();
                let sq = |i: usize| ((b[i + 1] - b'1') as i32, (b[i] - b'a') as i32);
                let ((r, c), (tr, tc)) = (sq(0), sq(2));
                naive_child.play((r, c, tr, tc));
            }
            assert_eq!(
                child.to_position(),
                naive_child.write(),
                "play differs in {text}"
            );
            let winner = naive_child.winner().map(|w| Outcome::win(Player(w - 1), 2));
            assert_eq!(
                child.outcome(),
                winner,
                "outcome after {} in {text}",
                p.format_move(m)
            );
            assert_eq!(child.hash(), child.compute_hash());
        }
    }

    /// A random position: each square empty, x or o with densities drawn per position.
    fn random_position<const N: usize>(rng: &mut Rng) -> Loa<N> {
        loop {
            let density = 5 + rng.below(60);
            let mut pieces = [0u64; 2];
            for sq in 0..N * N {
                if rng.below(100) < density {
                    pieces[rng.below(2) as usize] |= 1 << sq;
                }
            }
            if pieces[0] != 0 && pieces[1] != 0 {
                return Loa::from_parts(pieces, rng.below(2) as u8);
            }
        }
    }

    fn cross_check_size<const N: usize>(seed: u64) {
        let mut rng = Rng::new(seed);
        for _ in 0..3000 {
            cross_check(&random_position::<N>(&mut rng));
        }
        // Positions of random games (mostly sparse middle and end games).
        let mut buf = MoveList::new();
        for _ in 0..60 {
            let mut p = Loa::<N>::start();
            while let Some(m) = p.random_move(&mut rng, &mut buf) {
                cross_check(&p);
                p.play(m);
            }
            cross_check(&p);
        }
    }

    #[test]
    fn bitboards_agree_with_naive_generator_8x8() {
        cross_check_size::<8>(11);
    }

    #[test]
    fn bitboards_agree_with_naive_generator_7x7() {
        cross_check_size::<7>(12);
        // The 7x7 perft data is self-computed: check its shallow depths against the naive code.
        let naive = Naive::read(Loa7::INFO.start);
        for depth in 1..=3 {
            assert_eq!(
                perft(&Loa7::start(), depth),
                naive.perft(depth),
                "depth {depth}"
            );
        }
    }

    #[test]
    #[ignore = "slow naive perft; run with: cargo test --release --lib loa -- --ignored"]
    fn naive_generator_confirms_7x7_depth_4() {
        let naive = Naive::read(Loa7::INFO.start);
        assert_eq!(naive.perft(4), perft(&Loa7::start(), 4));
        assert_eq!(naive.perft(4), 698_880);
    }

    #[test]
    fn naive_generator_matches_peer_perft() {
        // The naive generator itself reproduces OpenSpiel's 8x8 counts (d1-d3), so its
        // agreement with the bitboards on 7x7 means something.
        let naive = Naive::read(Loa8::INFO.start);
        assert_eq!([1, 2, 3].map(|d| naive.perft(d)), [36, 1244, 44952]);
    }

    #[test]
    fn random_move_is_uniform() {
        // Chi-square-like sanity check on the start position: every move drawn about equally.
        let p = Loa8::start();
        let mut list = MoveList::new();
        p.legal_moves(&mut list);
        let mut counts = vec![0u32; list.len()];
        let mut rng = Rng::new(5);
        let mut buf = MoveList::new();
        let draws = 36_000;
        for _ in 0..draws {
            let m = p.random_move(&mut rng, &mut buf).unwrap();
            counts[list.iter().position(|&x| x == m).unwrap()] += 1;
        }
        let mean = draws as f64 / list.len() as f64;
        let chi2: f64 = counts
            .iter()
            .map(|&c| (c as f64 - mean).powi(2) / mean)
            .sum();
        // 35 degrees of freedom: the 99.99% quantile is about 72.
        assert!(chi2 < 72.0, "chi2 {chi2}, counts {counts:?}");
    }

    #[test]
    fn diagram_shows_board_and_side() {
        let d = Loa8::start().diagram();
        assert!(d.starts_with("8  . x x x x x x ."), "{d}");
        assert!(
            d.contains("a b c d e f g h") && d.contains("x to move"),
            "{d}"
        );
        let d = Loa7::start().diagram();
        assert!(d.starts_with("7  . x x x x x ."), "{d}");
    }
}
