//! Connect Four (7 columns x 6 rows) on the classic column-major bitboard.
//!
//! Bit `col * 7 + row` is the cell of column `col` (0 = a) and row `row` (0 = bottom); the
//! seventh bit of each column stays empty so that line tests by shifting never wrap.

pub mod book;
pub mod solver;

use super::{fen, zobrist};
use super::{
    find_legal, Dialect, Dialects, GameError, GameInfo, Heuristics, Move, MoveList, Outcome,
    PerfectAsk, PerfectMove, Player, Rules, Solution,
};
use crate::rng::Rng;

const COLS: usize = 7;
const ROWS: usize = 6;
const STRIDE: usize = ROWS + 1;
/// Bottom cell of every column.
const BOTTOM: u64 = {
    let mut b = 0u64;
    let mut c = 0;
    while c < COLS {
        b |= 1 << (c * STRIDE);
        c += 1;
    }
    b
};
/// Every playable cell.
const BOARD: u64 = BOTTOM * ((1 << ROWS) - 1);

const ZOBRIST_CELL: [[u64; 64]; 2] = [zobrist::keys(0xC401), zobrist::keys(0xC402)];
const ZOBRIST_SIDE: u64 = zobrist::keys::<1>(0xC403)[0];

/// A Connect Four position. Moves are column numbers 0..7.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ConnectFour {
    /// Stones of player 0 and player 1.
    stones: [u64; 2],
    /// Stones on the board (also the number of plies played).
    count: u8,
    /// Set when the last move made four in a row.
    winner: Option<u8>,
    hash: u64,
}

/// True when `b` holds four in a row in any direction.
#[inline]
fn has_four(b: u64) -> bool {
    // Vertical (1), horizontal (STRIDE), both diagonals (STRIDE - 1, STRIDE + 1).
    for shift in [1, STRIDE, STRIDE - 1, STRIDE + 1] {
        let pairs = b & (b >> shift);
        if pairs & (pairs >> (2 * shift)) != 0 {
            return true;
        }
    }
    false
}

/// The empty cells that would complete four in a row for the stones `b` (Pons' bitboard
/// formula): each is a threat of that side.
#[inline]
fn threat_cells(b: u64, empty: u64) -> u64 {
    // Vertical: three below.
    let mut r = (b << 1) & (b << 2) & (b << 3);
    for shift in [STRIDE, STRIDE - 1, STRIDE + 1] {
        let p = (b << shift) & (b << (2 * shift));
        r |= p & (b << (3 * shift));
        r |= p & (b >> shift);
        let p = (b >> shift) & (b >> (2 * shift));
        r |= p & (b << shift);
        r |= p & (b >> (3 * shift));
    }
    r & empty
}

/// Cells of odd rows (1, 3, 5 counting from 1 at the bottom: indices 0, 2, 4).
const ODD_ROWS: u64 = BOTTOM * 0b010101;
/// The centre column and its two neighbours.
const CENTRE: u64 = 0b111111 << (3 * STRIDE);
const NEAR_CENTRE: u64 = (0b111111 << (2 * STRIDE)) | (0b111111 << (4 * STRIDE));

/// The evaluation score of `stones[0]` against `stones[1]` when `first` (0 or 1) is the side that
/// moved first (it owns the odd-row threats by the zugzwang rule) and `mover` is to move, with the
/// cells `drop` playable now. Threats on the owner's parity count fully, the others half; the
/// mover's playable threat is a win next move, and two playable threats of the other side cannot
/// both be blocked; centre stones get a small bonus.
#[inline]
fn score(stones: [u64; 2], first: usize, mover: usize, drop: u64) -> f32 {
    let empty = BOARD & !(stones[0] | stones[1]);
    let threats = [
        threat_cells(stones[0], empty),
        threat_cells(stones[1], empty),
    ];
    let mut side = [0.0f32; 2];
    for (s, t) in threats.iter().enumerate() {
        let own = if s == first { ODD_ROWS } else { !ODD_ROWS };
        side[s] = (t & own).count_ones() as f32 + 0.5 * (t & !own).count_ones() as f32;
        side[s] += 0.15 * (stones[s] & CENTRE).count_ones() as f32
            + 0.05 * (stones[s] & NEAR_CENTRE).count_ones() as f32;
    }
    let other = 1 - mover;
    if threats[mover] & drop != 0 {
        side[mover] += 4.0;
    } else if (threats[other] & drop).count_ones() >= 2 {
        side[other] += 4.0;
    }
    side[0] - side[1]
}

impl ConnectFour {
    #[inline]
    fn occupied(&self) -> u64 {
        self.stones[0] | self.stones[1]
    }

    /// The cell a stone dropped into each non-full column would occupy.
    #[inline]
    fn drop_cells(&self) -> u64 {
        (self.occupied() + BOTTOM) & BOARD
    }

    #[inline]
    fn is_over(&self) -> bool {
        self.winner.is_some() || self.count as usize == COLS * ROWS
    }

    fn cell_name(cell: usize) -> String {
        format!(
            "{}{}",
            (b'a' + (cell / STRIDE) as u8) as char,
            cell % STRIDE + 1
        )
    }

    fn landing_cell(&self, col: usize) -> u64 {
        self.drop_cells() & (((1u64 << STRIDE) - 1) << (col * STRIDE))
    }
}

impl Rules for ConnectFour {
    const INFO: GameInfo = GameInfo {
        name: "cfour",
        aliases: &["connect4", "connectfour", "connect_four"],
        board: "7x6",
        notation: "drop as Fairy-Stockfish/cutechess write it: P@d1 (file a-g, landing rank 1-6); \
                   also accepts d1 or just the column d",
        start: "7/7/7/7/7/7 w",
    };

    fn start() -> Self {
        ConnectFour {
            stones: [0, 0],
            count: 0,
            winner: None,
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
        let mut cells = self.drop_cells();
        while cells != 0 {
            out.push(Move((cells.trailing_zeros() as usize / STRIDE) as u16));
            cells &= cells - 1;
        }
    }

    #[inline]
    fn count_moves(&self) -> usize {
        if self.is_over() {
            0
        } else {
            self.drop_cells().count_ones() as usize
        }
    }

    #[inline]
    fn play(&mut self, m: Move) {
        let me = (self.count & 1) as usize;
        let cell = self.landing_cell(m.0 as usize);
        self.stones[me] |= cell;
        self.hash ^= ZOBRIST_CELL[me][cell.trailing_zeros() as usize] ^ ZOBRIST_SIDE;
        self.count += 1;
        if has_four(self.stones[me]) {
            self.winner = Some(me as u8);
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner {
            Some(w) => Some(Outcome::win(Player(w), 2)),
            None if self.count as usize == COLS * ROWS => Some(Outcome::draw(2)),
            None => None,
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let mut h = if self.count & 1 == 1 { ZOBRIST_SIDE } else { 0 };
        for (side, keys) in ZOBRIST_CELL.iter().enumerate() {
            let mut bb = self.stones[side];
            while bb != 0 {
                h ^= keys[bb.trailing_zeros() as usize];
                bb &= bb - 1;
            }
        }
        h
    }

    fn format_move(&self, m: Move) -> String {
        let cell = self.landing_cell(m.0 as usize);
        format!("P@{}", Self::cell_name(cell.trailing_zeros() as usize))
    }

    /// Accepts `P@d1`, `d1` (the rank must be the landing rank) and a bare column `d`.
    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        let t = text.trim();
        let t = t
            .strip_prefix("P@")
            .or_else(|| t.strip_prefix("p@"))
            .unwrap_or(t);
        let bytes = t.as_bytes();
        let col = match bytes.first() {
            Some(&c @ b'a'..=b'g') => (c - b'a') as usize,
            Some(&c @ b'A'..=b'G') => (c - b'A') as usize,
            _ => {
                return Err(GameError::syntax(
                    text,
                    "expected a column a-g, as in P@d1, d1 or d",
                ))
            }
        };
        if self.is_over() {
            return Err(GameError::illegal(text, "the game is over"));
        }
        let cell = self.landing_cell(col);
        if cell == 0 {
            return Err(GameError::illegal(text, "the column is full"));
        }
        if bytes.len() > 1 {
            let rank: usize = t[1..]
                .parse()
                .map_err(|_| GameError::syntax(text, "expected a rank 1-6 after the column"))?;
            let landing = cell.trailing_zeros() as usize % STRIDE + 1;
            if rank != landing {
                return Err(GameError::illegal(
                    text,
                    format!("a stone dropped in this column lands on rank {landing}"),
                ));
            }
        }
        find_legal(self, text, Move(col as u16))
    }

    fn to_position(&self) -> String {
        let cell = |bit: u64| {
            if self.stones[0] & bit != 0 {
                Some('P')
            } else if self.stones[1] & bit != 0 {
                Some('p')
            } else {
                None
            }
        };
        let rows = (0..ROWS)
            .rev()
            .map(|row| (0..COLS).map(move |col| cell(1 << (col * STRIDE + row))));
        format!(
            "{} {}",
            fen::board_field(rows),
            if self.count & 1 == 0 { 'w' } else { 'b' }
        )
    }

    /// Reads `<rows top to bottom> [w|b]`; a `[...]` pocket and trailing fields are ignored.
    fn parse_position(text: &str) -> Result<Self, GameError> {
        let (rows, mut fields) = fen::board_rows(text, ROWS)?;
        let mut stones = [0u64; 2];
        for (i, row_text) in rows.iter().enumerate() {
            let row = ROWS - 1 - i;
            let mut col = 0usize;
            for c in row_text.chars() {
                if let Some(d) = c.to_digit(10) {
                    col += d as usize;
                    continue;
                }
                let side = match c {
                    'P' | 'X' | 'x' => 0,
                    'p' | 'O' | 'o' => 1,
                    _ => {
                        return Err(GameError::position(
                            "board",
                            format!(
                                "unknown stone '{c}' on rank {} (use P, p or digits)",
                                row + 1
                            ),
                        ))
                    }
                };
                if col >= COLS {
                    return Err(GameError::position(
                        "board",
                        format!("rank {} has more than 7 cells", row + 1),
                    ));
                }
                stones[side] |= 1 << (col * STRIDE + row);
                col += 1;
            }
            if col != COLS {
                return Err(GameError::position(
                    "board",
                    format!("rank {} has {col} cells, expected 7", row + 1),
                ));
            }
        }
        let occupied = stones[0] | stones[1];
        // Gravity: every stone above the bottom row rests on another.
        if (occupied >> 1) & !occupied & BOARD & !(BOTTOM << (ROWS - 1)) != 0 {
            return Err(GameError::position(
                "board",
                "a stone floats above an empty cell",
            ));
        }
        let (n0, n1) = (stones[0].count_ones(), stones[1].count_ones());
        if n0 != n1 && n0 != n1 + 1 {
            return Err(GameError::position(
                "board",
                format!("{n0} first-player and {n1} second-player stones cannot occur"),
            ));
        }
        let to_move = if n0 == n1 { 'w' } else { 'b' };
        match fields.next() {
            None => {}
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
        let wins = [has_four(stones[0]), has_four(stones[1])];
        let last_mover = if n0 == n1 { 1 } else { 0 };
        if wins[1 - last_mover] {
            return Err(GameError::position(
                "board",
                "the side to move already has four in a row (the game ended earlier)",
            ));
        }
        let mut game = ConnectFour {
            stones,
            count: (n0 + n1) as u8,
            winner: wins[last_mover].then_some(last_mover as u8),
            hash: 0,
        };
        game.hash = game.compute_hash();
        Ok(game)
    }

    fn diagram(&self) -> String {
        let mut out = String::new();
        for row in (0..ROWS).rev() {
            out += &format!("{} ", row + 1);
            for col in 0..COLS {
                let bit = 1u64 << (col * STRIDE + row);
                out.push(if self.stones[0] & bit != 0 {
                    'X'
                } else if self.stones[1] & bit != 0 {
                    'O'
                } else {
                    '.'
                });
                out.push(' ');
            }
            out.push('\n');
        }
        out + "  a b c d e f g"
    }

    #[inline]
    fn random_move(&self, rng: &mut Rng, _buf: &mut MoveList) -> Option<Move> {
        if self.is_over() {
            return None;
        }
        let mut cells = self.drop_cells();
        for _ in 0..rng.below(cells.count_ones()) {
            cells &= cells - 1;
        }
        Some(Move((cells.trailing_zeros() as usize / STRIDE) as u16))
    }
}

impl Heuristics for ConnectFour {
    /// Each move fills a cell: the mover has at most half the empty cells, rounded up.
    fn moves_left_bound(&self) -> Option<u32> {
        Some((COLS * ROWS - self.count as usize).div_ceil(2) as u32)
    }
    // Reading needs no override: `parse_move` takes `D1`, `d1`, `P@d1` and a bare column in any
    // case, in every dialect.

    const HAS_EVALUATION: bool = true;

    /// The embedded opening book's move, else the exact solver's (weak: win, draw or loss)
    /// when it finishes within `ask`'s limits; a lost position is left to the search.
    fn perfect_move(&self, ask: &PerfectAsk) -> Option<PerfectMove> {
        let left = (COLS * ROWS - self.count as usize) as u32;
        if ask.book {
            if let Some(mv) = book::Book::embedded().lookup(self) {
                return Some(PerfectMove {
                    mv,
                    value: Solution::Win,
                    plies: left,
                    source: "book",
                });
            }
        }
        if !ask.solve {
            return None;
        }
        let board = solver::Board::of(self)?;
        let cut = solver::Cut {
            stop: ask.stop,
            deadline: ask.deadline,
            nodes: None,
        };
        solver::with_shared(|s| {
            let (col, score) = s.best_move(&board, true, &cut)?;
            let value = match score.signum() {
                1 => Solution::Win,
                0 => Solution::Draw,
                _ => return None,
            };
            // A win's distance, when a strong solve of the move also fits the time.
            let mut child = board;
            child.play(col);
            let plies = match value {
                Solution::Win if child.moves() < (COLS * ROWS) as i32 && !board.wins_with(col) => s
                    .solve(&child, false, &cut)
                    .map_or(left, |theirs| solver::plies_to_win(board.moves(), -theirs)),
                Solution::Win => 1,
                _ => left,
            };
            Some(PerfectMove {
                mv: Move(col as u16),
                value,
                plies,
                source: "solver",
            })
        })
    }

    /// Threats with the odd/even rule, immediate wins and centre control (see `score`), through
    /// tanh into (-1, 1).
    #[inline]
    fn evaluate(&self, player: Player) -> f32 {
        let mover = (self.count & 1) as usize;
        let v = (score(self.stones, 0, mover, self.drop_cells()) / 5.0).tanh();
        crate::game::zero_sum(v, player)
    }
}

impl Dialects for ConnectFour {
    /// GTP writes the vertex of the landing cell, `D1` (column letter, row from the bottom; with
    /// seven columns GTP's missing `I` never matters). UCI and USI write the native `P@d1`.
    fn format_move_in(&self, m: Move, dialect: Dialect) -> String {
        match dialect {
            Dialect::Gtp => {
                let cell = self.landing_cell(m.0 as usize).trailing_zeros() as usize;
                Self::cell_name(cell).to_ascii_uppercase()
            }
            Dialect::Native | Dialect::Usi => self.format_move(m),
        }
    }
}

/// Network inputs: one feature per stone, the side to move's stones first (cell = column * 6 +
/// row), then the opponent's; one policy output per column; the left-right mirror as symmetry.
impl crate::game::Features for ConnectFour {
    const INPUTS: usize = 2 * COLS * ROWS;
    const POLICY: usize = COLS;
    const SYMMETRIES: usize = 2;

    fn features(&self, out: &mut Vec<u16>) {
        out.clear();
        let mover = self.to_move().index();
        for (side, base) in [(mover, 0), (1 - mover, COLS * ROWS)] {
            let mut b = self.stones[side];
            while b != 0 {
                let bit = b.trailing_zeros() as usize;
                b &= b - 1;
                out.push((base + bit / STRIDE * ROWS + bit % STRIDE) as u16);
            }
        }
    }

    fn policy_index(&self, m: Move) -> usize {
        m.0 as usize
    }

    fn map_feature(s: usize, f: u16) -> u16 {
        if s == 0 {
            return f;
        }
        let cells = (COLS * ROWS) as u16;
        let (base, cell) = (f / cells * cells, f % cells);
        let (col, row) = (cell / ROWS as u16, cell % ROWS as u16);
        base + (COLS as u16 - 1 - col) * ROWS as u16 + row
    }

    fn map_policy(s: usize, p: usize) -> usize {
        if s == 0 {
            p
        } else {
            COLS - 1 - p
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::check::random_games;
    use crate::game::perft::perft;

    fn after(moves: &str) -> ConnectFour {
        let mut g = ConnectFour::start();
        for m in moves.split_whitespace() {
            g.play_text(m).unwrap();
        }
        g
    }

    #[test]
    fn moves_left_bound_is_half_the_empty_cells() {
        assert_eq!(ConnectFour::start().moves_left_bound(), Some(21));
        assert_eq!(after("d").moves_left_bound(), Some(21));
        assert_eq!(after("d d").moves_left_bound(), Some(20));
    }

    #[test]
    fn network_features_follow_the_mover_and_the_mirror() {
        use crate::game::Features;
        let mut rng = Rng::new(5);
        let mut buf = MoveList::new();
        let (mut f, mut g) = (Vec::new(), Vec::new());
        for _ in 0..200 {
            let mut game = ConnectFour::start();
            let mut mirror = ConnectFour::start();
            while let Some(m) = game.random_move(&mut rng, &mut buf) {
                game.features(&mut f);
                mirror.features(&mut g);
                assert_eq!(f.len(), game.count as usize);
                let mut mapped: Vec<u16> =
                    f.iter().map(|&x| ConnectFour::map_feature(1, x)).collect();
                mapped.sort_unstable();
                g.sort_unstable();
                assert_eq!(mapped, g);
                assert!(f.iter().all(|&x| (x as usize) < ConnectFour::INPUTS));
                let p = game.policy_index(m);
                assert_eq!(
                    ConnectFour::map_policy(1, p),
                    mirror.policy_index(Move(6 - m.0))
                );
                game.play(m);
                mirror.play(Move(6 - m.0));
                if game.outcome().is_some() {
                    break;
                }
                // The stone just played counts among the opponent's, seen by the new mover.
                game.features(&mut f);
                let theirs = f.iter().filter(|&&x| x as usize >= COLS * ROWS).count();
                assert_eq!(theirs, (game.count as usize).div_ceil(2));
            }
        }
    }

    #[test]
    fn random_games_keep_invariants() {
        let stats = random_games(&ConnectFour::start(), 5000, 11);
        assert!(stats.draws > 0 && stats.decisive > 0);
    }

    #[test]
    fn each_direction_wins() {
        // Vertical, horizontal and both diagonals, for the first player.
        let vertical = after("a b a b a b a");
        assert_eq!(vertical.outcome(), Some(Outcome::win(Player(0), 2)));
        let horizontal = after("a a b b c c d");
        assert_eq!(horizontal.outcome(), Some(Outcome::win(Player(0), 2)));
        let rising = after("a b b c c d c d d g d");
        assert_eq!(rising.outcome(), Some(Outcome::win(Player(0), 2)));
        let falling = after("g f f e e d e d d a d");
        assert_eq!(falling.outcome(), Some(Outcome::win(Player(0), 2)));
        assert_eq!(falling.count_moves(), 0);
        // Three in a row does not win, and a row does not wrap from column g to a.
        assert_eq!(after("a a b b c").outcome(), None);
        assert_eq!(after("e a f a g b a").outcome(), None);
    }

    #[test]
    fn full_board_is_a_draw() {
        // A full board without four in a row (found by a random search, checked by hand).
        let full = ConnectFour::parse_position("PpPpPpp/PpppPPp/PPpPpPp/pPppPPP/pPPpPpP/PpppPpP w")
            .unwrap();
        assert_eq!(full.outcome(), Some(Outcome::draw(2)));
        assert_eq!(full.count_moves(), 0);
    }

    #[test]
    fn notation_forms() {
        let g = after("d");
        assert_eq!(g.format_move(Move(3)), "P@d2");
        assert_eq!(g.parse_move("P@d2"), Ok(Move(3)));
        assert_eq!(g.parse_move("d2"), Ok(Move(3)));
        assert_eq!(g.parse_move("D"), Ok(Move(3)));
        assert!(matches!(
            g.parse_move("d1"),
            Err(GameError::IllegalMove { .. })
        ));
        for bad in ["", "h", "P@", "d0x", "ü", "1"] {
            assert!(
                matches!(g.parse_move(bad), Err(GameError::MoveSyntax { .. })),
                "{bad}"
            );
        }
        let full_column = after("a a a a a a");
        assert!(matches!(
            full_column.parse_move("a"),
            Err(GameError::IllegalMove { .. })
        ));
    }

    #[test]
    fn gtp_writes_the_landing_vertex_and_reads_every_form() {
        let g = after("d");
        assert_eq!(g.format_move_in(Move(3), Dialect::Gtp), "D2");
        assert_eq!(g.format_move_in(Move(0), Dialect::Gtp), "A1");
        for d in [Dialect::Native, Dialect::Usi] {
            assert_eq!(g.format_move_in(Move(3), d), "P@d2");
        }
        for d in [Dialect::Native, Dialect::Usi, Dialect::Gtp] {
            for text in ["D2", "d2", "P@d2", "p@D2", "d", "D"] {
                assert_eq!(g.parse_move_in(text, d), Ok(Move(3)), "{text}");
            }
            assert!(matches!(
                g.parse_move_in("D1", d),
                Err(GameError::IllegalMove { .. })
            ));
            assert!(matches!(
                g.parse_move_in("pass", d),
                Err(GameError::MoveSyntax { .. })
            ));
            assert_eq!(g.to_position_in(d), g.to_position());
        }
    }

    #[test]
    fn cutechess_fens_with_a_pocket_parse() {
        // cutechess's cfour FENs list the stones still to play in a pocket.
        let pocket = |p: usize, q: usize| format!("[{}{}]", "P".repeat(p), "p".repeat(q));
        let start = format!("7/7/7/7/7/7{} w - - 0 1", pocket(21, 21));
        let after_d = format!("7/7/7/7/7/3P3{} b - - 0 1", pocket(20, 21));
        for d in [Dialect::Native, Dialect::Usi, Dialect::Gtp] {
            assert_eq!(
                ConnectFour::parse_position_in(&start, d),
                Ok(ConnectFour::start())
            );
            assert_eq!(ConnectFour::parse_position_in(&after_d, d), Ok(after("d")));
            assert_eq!(
                ConnectFour::parse_position_in("7/7/7/7/7/7 w - - 0 1", d),
                Ok(ConnectFour::start())
            );
        }
    }

    #[test]
    fn bad_positions_name_the_field() {
        for (text, field) in [
            ("", "board"),
            ("7/7/7 w", "board"),
            ("7/7/7/7/7/8 w", "board"),
            ("7/7/7/7/7/PPPPPPPP w", "board"),
            ("7/7/7/7/P6/7 b", "board"),
            ("7/7/7/7/7/PP5 b", "board"),
            ("7/7/7/7/7/Pq5 b", "board"),
            ("7/7/7/7/7/P6 w", "side to move"),
            ("7/7/7/7/7/P6 z", "side to move"),
            ("7/7/p6/p6/pPP4/pPP1P2 b", "board"),
        ] {
            match ConnectFour::parse_position(text) {
                Err(GameError::Position { field: f, .. }) => assert_eq!(f, field, "{text}"),
                other => panic!("{text}: expected a position error, got {other:?}"),
            }
        }
    }

    #[test]
    fn perft_small_depths() {
        assert_eq!(perft(&ConnectFour::start(), 4), 2401);
        assert_eq!(perft(&ConnectFour::start(), 6), 117649);
    }

    #[test]
    fn evaluation_invariants_hold() {
        crate::game::check::evaluation_invariants(&ConnectFour::start(), 300, 31);
        assert_eq!(ConnectFour::start().evaluate(Player(0)), 0.0);
    }

    /// A colour-swapped Connect Four position is not a position (the side to move follows from
    /// the stone counts), so the colour symmetry is checked on the scoring function with the
    /// roles exchanged, and the left-right mirror through position strings.
    #[test]
    fn evaluation_is_colour_and_mirror_symmetric() {
        let g = after("d d c e c b a");
        let [a, b] = g.stones;
        let mover = (g.count & 1) as usize;
        let drop = g.drop_cells();
        let v = score([a, b], 0, mover, drop);
        assert!(v != 0.0);
        assert_eq!(score([b, a], 1, 1 - mover, drop), -v);
        let pos = g.to_position();
        let mirrored: Vec<String> = pos
            .split_whitespace()
            .next()
            .unwrap()
            .split('/')
            .map(|row| {
                let mut cells = String::new();
                for c in row.chars() {
                    match c.to_digit(10) {
                        Some(d) => cells.extend(std::iter::repeat('.').take(d as usize)),
                        None => cells.push(c),
                    }
                }
                cells.chars().rev().collect::<String>()
            })
            .collect();
        let text = mirrored
            .iter()
            .map(|row| {
                let mut out = String::new();
                let mut run = 0;
                for c in row.chars() {
                    if c == '.' {
                        run += 1;
                    } else {
                        if run > 0 {
                            out += &run.to_string();
                            run = 0;
                        }
                        out.push(c);
                    }
                }
                if run > 0 {
                    out += &run.to_string();
                }
                out
            })
            .collect::<Vec<_>>()
            .join("/");
        let side = pos.split_whitespace().nth(1).unwrap();
        let m = ConnectFour::parse_position(&format!("{text} {side}")).unwrap();
        assert_eq!(m.evaluate(Player(0)), g.evaluate(Player(0)));
    }

    #[test]
    fn threats_and_centre_evaluate_higher() {
        // The first player holds the centre, the second the edge.
        let centre = after("d a");
        assert!(centre.evaluate(Player(0)) > 0.0);
        assert!(centre.evaluate(Player(1)) < 0.0);
        // Three in a row on the bottom row with both ends open, the first player to move: an
        // immediate win is almost +1.
        let three = after("c c d d e g");
        assert!(
            three.evaluate(Player(0)) > 0.6,
            "{}",
            three.evaluate(Player(0))
        );
        // The second player to move against two open ends: nearly lost.
        let double = after("c a d a e");
        assert!(
            double.evaluate(Player(1)) < -0.6,
            "{}",
            double.evaluate(Player(1))
        );
    }
}
