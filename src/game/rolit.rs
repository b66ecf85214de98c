//! Rolit: Othello's board for 2, 3 or 4 players (8x8, and 6x6 and 4x4 for solving), with the
//! multi-player rules of Nijssen & Winands' and Saito & Winands' experiments.
//!
//! Rules, as gpn plays them:
//! * Four colours, red, yellow, green and blue, move in that order; with P players the first P
//!   colours play. The four centre squares start with one piece of each colour, clockwise from
//!   the top left: red, yellow, green, blue. A colour without a player (blue with 3 players,
//!   green and blue with 2) is neutral: its pieces can be taken but never move and count for
//!   nobody.
//! * A move places a piece of the mover's colour on an empty square. If the mover can
//!   outflank, it must: the new piece and another of its colour bracket a straight line
//!   (horizontal, vertical or diagonal) of pieces of any other colours, and every bracketed
//!   piece becomes the mover's. Only if no placement outflanks may the mover place on any empty
//!   square next to (8-neighbourhood) an occupied one, taking nothing. Nobody ever passes.
//! * The game ends when the board is full; players rank by their pieces (ties share a rank).
//!
//! Squares are `row * 8 + column` on a u64 (row 0 at the top, as Reversi), whatever the board
//! size, so Reversi's shift-fill placement and ray flip code serves every size: squares off a
//! smaller board stay empty and are masked out of the moves.

use std::fmt::Write as _;

use super::reversi::{flips, placements};
use super::{
    fen, find_legal, zobrist, Dialects, GameError, GameInfo, Heuristics, Move, MoveList, Outcome,
    Player, Rules, Territory,
};

/// Colours on the board (players and neutral ones).
const COLOURS: usize = 4;
/// Colour letters in turn order, for positions and diagrams.
const LETTERS: [char; COLOURS] = ['r', 'y', 'g', 'b'];
/// Colour names in turn order.
const NAMES: [&str; COLOURS] = ["red", "yellow", "green", "blue"];

/// Zobrist keys: 64 per colour, then one per player to move.
const KEYS: [u64; COLOURS * 64 + COLOURS] =
    zobrist::keys::<{ COLOURS * 64 + COLOURS }>(0x7011_7C01);

/// Every column but `a` (0) and every column but `h` (7): the masks of sideways shifts.
const NOT_COLUMN_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
const NOT_COLUMN_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// The squares next to any of `x` (8-neighbourhood) on the 8x8 grid.
#[inline]
fn neighbours(x: u64) -> u64 {
    let east = (x << 1 | x << 9 | x >> 7) & NOT_COLUMN_A;
    let west = (x >> 1 | x >> 9 | x << 7) & NOT_COLUMN_H;
    x << 8 | x >> 8 | east | west
}

/// The squares of an `n` x `n` board in the top-left corner of the 8x8 grid.
const fn board_mask(n: usize) -> u64 {
    let row = (1u64 << n) - 1;
    let mut mask = 0;
    let mut r = 0;
    while r < n {
        mask |= row << (8 * r);
        r += 1;
    }
    mask
}

const fn info(n: usize, p: usize) -> GameInfo {
    let notation = "column a.. + row 1.. counted from the top (d3), as Reversi";
    match (n, p) {
        (8, 4) => GameInfo {
            name: "rolit",
            aliases: &["rolit-4p", "rolit8-4p"],
            board: "8x8",
            notation,
            start: "8/8/8/3ry3/3bg3/8/8/8 r",
        },
        (8, 3) => GameInfo {
            name: "rolit-3p",
            aliases: &["rolit8-3p", "rolit3"],
            board: "8x8",
            notation,
            start: "8/8/8/3ry3/3bg3/8/8/8 r",
        },
        (8, 2) => GameInfo {
            name: "rolit-2p",
            aliases: &["rolit8-2p", "rolit2"],
            board: "8x8",
            notation,
            start: "8/8/8/3ry3/3bg3/8/8/8 r",
        },
        (6, 4) => GameInfo {
            name: "rolit6-4p",
            aliases: &["rolit6"],
            board: "6x6",
            notation,
            start: "6/6/2ry2/2bg2/6/6 r",
        },
        (6, 3) => GameInfo {
            name: "rolit6-3p",
            aliases: &[],
            board: "6x6",
            notation,
            start: "6/6/2ry2/2bg2/6/6 r",
        },
        (4, 4) => GameInfo {
            name: "rolit4-4p",
            aliases: &["rolit4"],
            board: "4x4",
            notation,
            start: "4/1ry1/1bg1/4 r",
        },
        (4, 3) => GameInfo {
            name: "rolit4-3p",
            aliases: &[],
            board: "4x4",
            notation,
            start: "4/1ry1/1bg1/4 r",
        },
        _ => panic!("unsupported Rolit board size or player count"),
    }
}

/// A Rolit position on an `N` x `N` board (4, 6 or 8) for `P` players (2, 3 or 4).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Rolit<const N: usize, const P: usize> {
    /// Each colour's pieces, in turn order; colours from `P` on are neutral.
    pieces: [u64; COLOURS],
    /// The colour to move (below `P`).
    mover: u8,
    /// Incremental Zobrist hash (derived).
    hash: u64,
}

impl<const N: usize, const P: usize> Rolit<N, P> {
    /// The board's squares.
    const MASK: u64 = board_mask(N);

    fn occupied(&self) -> u64 {
        self.pieces.iter().fold(0, |a, &b| a | b)
    }

    /// The placements open to the mover: the outflanking ones, else every empty square next to
    /// a piece.
    #[inline]
    fn placement_mask(&self) -> u64 {
        let occupied = self.occupied();
        if occupied == Self::MASK {
            return 0;
        }
        let own = self.pieces[self.mover as usize];
        let outflanking = placements(own, occupied & !own) & Self::MASK;
        if outflanking != 0 {
            outflanking
        } else {
            neighbours(occupied) & Self::MASK & !occupied
        }
    }

    /// Pieces per colour.
    pub fn counts(&self) -> [u32; COLOURS] {
        self.pieces.map(u64::count_ones)
    }

    fn from_pieces(pieces: [u64; COLOURS], mover: u8) -> Self {
        let mut pos = Rolit {
            pieces,
            mover,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    fn square_name(sq: usize) -> String {
        let column = (b'a' + (sq % 8) as u8) as char;
        format!("{column}{}", sq / 8 + 1)
    }

    fn parse_square(text: &str) -> Option<usize> {
        let bytes = text.as_bytes();
        let column = bytes.first()?.to_ascii_lowercase().wrapping_sub(b'a') as usize;
        let row: usize = text.get(1..)?.parse().ok()?;
        // `then`, not `then_some`: row 0 must not reach the subtraction.
        (column < N && (1..=N).contains(&row)).then(|| (row - 1) * 8 + column)
    }

    fn colour_of(&self, sq: usize) -> Option<usize> {
        self.pieces.iter().position(|&b| b >> sq & 1 != 0)
    }

    fn parse_board(board: &str) -> Result<[u64; COLOURS], GameError> {
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != N {
            return Err(GameError::position(
                "board",
                format!("expected {N} rows separated by '/', found {}", rows.len()),
            ));
        }
        let mut pieces = [0u64; COLOURS];
        for (r, row) in rows.iter().enumerate() {
            let mut column = 0usize;
            for ch in row.chars() {
                let colour = LETTERS.iter().position(|&l| l == ch);
                let run = match (colour, ch.to_digit(10)) {
                    (Some(_), _) => 1,
                    (None, Some(d)) if d >= 1 => d as usize,
                    _ => {
                        return Err(GameError::position(
                            "board",
                            format!(
                                "unexpected character '{ch}' in row {} (use r, y, g, b, 1-{N})",
                                r + 1
                            ),
                        ))
                    }
                };
                if column + run > N {
                    return Err(GameError::position(
                        "board",
                        format!("row {} is wider than {N} squares", r + 1),
                    ));
                }
                if let Some(c) = colour {
                    pieces[c] |= 1u64 << (r * 8 + column);
                }
                column += run;
            }
            if column != N {
                return Err(GameError::position(
                    "board",
                    format!("row {} has {column} squares, expected {N}", r + 1),
                ));
            }
        }
        Ok(pieces)
    }
}

impl<const N: usize, const P: usize> crate::game::Features for Rolit<N, P> {}

impl<const N: usize, const P: usize> Rules for Rolit<N, P> {
    const INFO: GameInfo = info(N, P);
    const NUM_PLAYERS: usize = P;
    /// One placement per empty square: the game ends after exactly N * N - 4 plies.
    const MAX_PLIES: u32 = (N * N) as u32;

    fn with_players<V: super::PlayersVisitor>(visitor: V) -> V::Output {
        visitor.visit::<Self, P>()
    }

    fn start() -> Self {
        let c = N / 2 - 1;
        let square = |row: usize, col: usize| 1u64 << (row * 8 + col);
        Self::from_pieces(
            [
                square(c, c),
                square(c, c + 1),
                square(c + 1, c + 1),
                square(c + 1, c),
            ],
            0,
        )
    }

    #[inline]
    fn to_move(&self) -> Player {
        Player(self.mover)
    }

    #[inline]
    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        let mut m = self.placement_mask();
        while m != 0 {
            out.push(Move(m.trailing_zeros() as u16));
            m &= m - 1;
        }
    }

    #[inline]
    fn count_moves(&self) -> usize {
        self.placement_mask().count_ones() as usize
    }

    fn play(&mut self, m: Move) {
        let sq = m.0 as usize;
        debug_assert!(self.placement_mask() >> sq & 1 != 0, "illegal move {m:?}");
        let me = self.mover as usize;
        let own = self.pieces[me];
        let taken = flips(own, self.occupied() & !own, sq);
        for colour in (0..COLOURS).filter(|&c| c != me) {
            let mut lost = self.pieces[colour] & taken;
            self.pieces[colour] &= !lost;
            while lost != 0 {
                let s = lost.trailing_zeros() as usize;
                self.hash ^= KEYS[colour * 64 + s] ^ KEYS[me * 64 + s];
                lost &= lost - 1;
            }
        }
        self.pieces[me] |= taken | 1u64 << sq;
        self.hash ^= KEYS[me * 64 + sq];
        let next = (me + 1) % P;
        self.hash ^= KEYS[COLOURS * 64 + me] ^ KEYS[COLOURS * 64 + next];
        self.mover = next as u8;
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.occupied() != Self::MASK {
            return None;
        }
        let scores = self.counts().map(|c| c as i32);
        Some(Outcome::by_scores(&scores[..P]))
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let mut h = KEYS[COLOURS * 64 + self.mover as usize];
        for (colour, &pieces) in self.pieces.iter().enumerate() {
            let mut b = pieces;
            while b != 0 {
                h ^= KEYS[colour * 64 + b.trailing_zeros() as usize];
                b &= b - 1;
            }
        }
        h
    }

    fn format_move(&self, m: Move) -> String {
        Self::square_name(m.0 as usize)
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        match Self::parse_square(text.trim()) {
            Some(sq) => find_legal(self, text, Move(sq as u16)),
            None => Err(GameError::syntax(
                text,
                format!(
                    "expected a square a1-{}{N} (row 1 at the top)",
                    (b'a' + N as u8 - 1) as char
                ),
            )),
        }
    }

    fn to_position(&self) -> String {
        let rows = (0..N)
            .map(|r| (0..N).map(move |c| self.colour_of(r * 8 + c).map(|colour| LETTERS[colour])));
        format!(
            "{} {}",
            fen::board_field(rows),
            LETTERS[self.mover as usize]
        )
    }

    fn parse_position(text: &str) -> Result<Self, GameError> {
        let mut fields = text.split_whitespace();
        let board = fields
            .next()
            .ok_or_else(|| GameError::position("board", "empty position"))?;
        let pieces = Self::parse_board(board)?;
        let players = &LETTERS[..P];
        let mover = fen::side_to_move(fields.next(), players)?;
        Ok(Self::from_pieces(pieces, mover as u8))
    }

    fn diagram(&self) -> String {
        let columns: String = (0..N)
            .map(|c| format!(" {}", (b'a' + c as u8) as char))
            .collect();
        let mut out = format!(" {columns}\n");
        for r in 0..N {
            let _ = write!(out, "{}", r + 1);
            for c in 0..N {
                let ch = self
                    .colour_of(r * 8 + c)
                    .map_or('-', |colour| LETTERS[colour]);
                let _ = write!(out, " {ch}");
            }
            let _ = writeln!(out, " {}", r + 1);
        }
        let _ = writeln!(out, " {columns}");
        let counts = self.counts();
        let scores: Vec<String> = (0..COLOURS)
            .filter(|&c| c < P || counts[c] > 0)
            .map(|c| {
                let neutral = if c < P { "" } else { " (neutral)" };
                format!("{} {}{neutral}", LETTERS[c], counts[c])
            })
            .collect();
        let status = match self.outcome() {
            Some(o) => format!("game over: {o}"),
            None => format!("{} to move", NAMES[self.mover as usize]),
        };
        let _ = writeln!(out, "{}; {status}", scores.join(", "));
        out
    }

    fn player_name(p: Player) -> &'static str {
        NAMES.get(p.index()).copied().unwrap_or("?")
    }

    fn territory(&self) -> Option<&dyn Territory> {
        Some(self)
    }

    fn territory_mut(&mut self) -> Option<&mut dyn Territory> {
        Some(self)
    }
}

impl<const N: usize, const P: usize> Heuristics for Rolit<N, P> {
    const HAS_EVALUATION: bool = true;

    /// `player`'s lead over the best other player in pieces, a corner counting three (corners
    /// can never be taken back), as a share of the pieces on the board, through tanh: in
    /// (-1, 1), 0 when level.
    fn evaluate(&self, player: Player) -> f32 {
        let corners = 1u64 | 1 << (N - 1) | 1 << (8 * (N - 1)) | 1 << (8 * (N - 1) + N - 1);
        let weight = |c: usize| {
            (self.pieces[c].count_ones() + 2 * (self.pieces[c] & corners).count_ones()) as f32
        };
        let me = player.index();
        let best_other = (0..P).filter(|&c| c != me).map(weight).fold(0.0, f32::max);
        let total = self.occupied().count_ones().max(1) as f32;
        (3.0 * (weight(me) - best_other) / total).tanh()
    }
}

impl<const N: usize, const P: usize> Dialects for Rolit<N, P> {}

impl<const N: usize, const P: usize> Territory for Rolit<N, P> {
    /// Pieces of each player's colour (neutral pieces count for nobody).
    fn player_scores(&self) -> Option<Vec<i32>> {
        Some(
            self.pieces[..P]
                .iter()
                .map(|b| b.count_ones() as i32)
                .collect(),
        )
    }
}

/// Rolit for four players on the 8x8 board.
pub type Rolit4 = Rolit<8, 4>;
/// Rolit for three players on the 8x8 board.
pub type Rolit3 = Rolit<8, 3>;
/// Rolit for two players on the 8x8 board.
pub type Rolit2 = Rolit<8, 2>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::perft::perft;

    /// An independent move generator on a plain array: walks each of the 8 rays square by
    /// square, as the rules read, with no bit tricks.
    #[derive(Clone)]
    struct Naive {
        n: usize,
        players: usize,
        /// Colour per square (row-major, n x n), `None` when empty.
        cells: Vec<Option<usize>>,
        mover: usize,
    }

    const DIRECTIONS: [(i32, i32); 8] = [
        (-1, -1),
        (-1, 0),
        (-1, 1),
        (0, -1),
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
    ];

    impl Naive {
        fn of<const N: usize, const P: usize>(pos: &Rolit<N, P>) -> Naive {
            Naive {
                n: N,
                players: P,
                cells: (0..N * N)
                    .map(|i| pos.colour_of((i / N) * 8 + i % N))
                    .collect(),
                mover: pos.mover as usize,
            }
        }

        fn at(&self, r: i32, c: i32) -> Option<Option<usize>> {
            let n = self.n as i32;
            (r >= 0 && c >= 0 && r < n && c < n).then(|| self.cells[(r * n + c) as usize])
        }

        /// The squares `(r, c)` takes for the mover.
        fn taken(&self, r: usize, c: usize) -> Vec<usize> {
            let mut all = Vec::new();
            for (dr, dc) in DIRECTIONS {
                let mut line = Vec::new();
                let (mut rr, mut cc) = (r as i32 + dr, c as i32 + dc);
                while let Some(Some(colour)) = self.at(rr, cc) {
                    if colour == self.mover {
                        all.extend(line.iter().copied());
                        break;
                    }
                    line.push((rr * self.n as i32 + cc) as usize);
                    rr += dr;
                    cc += dc;
                }
            }
            all
        }

        /// Legal placements as (row, column), row-major order.
        fn moves(&self) -> Vec<(usize, usize)> {
            let empty: Vec<(usize, usize)> = (0..self.n * self.n)
                .filter(|&i| self.cells[i].is_none())
                .map(|i| (i / self.n, i % self.n))
                .collect();
            let flanking: Vec<_> = empty
                .iter()
                .copied()
                .filter(|&(r, c)| !self.taken(r, c).is_empty())
                .collect();
            if !flanking.is_empty() {
                return flanking;
            }
            empty
                .into_iter()
                .filter(|&(r, c)| {
                    DIRECTIONS.iter().any(|&(dr, dc)| {
                        matches!(self.at(r as i32 + dr, c as i32 + dc), Some(Some(_)))
                    })
                })
                .collect()
        }

        fn play(&mut self, (r, c): (usize, usize)) {
            for s in self.taken(r, c) {
                self.cells[s] = Some(self.mover);
            }
            self.cells[r * self.n + c] = Some(self.mover);
            self.mover = (self.mover + 1) % self.players;
        }

        fn perft(&self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            self.moves()
                .into_iter()
                .map(|m| {
                    let mut next = self.clone();
                    next.play(m);
                    next.perft(depth - 1)
                })
                .sum()
        }
    }

    fn same_perft<const N: usize, const P: usize>(depth: u32) -> Vec<u64> {
        let start = Rolit::<N, P>::start();
        let naive = Naive::of(&start);
        (1..=depth)
            .map(|d| {
                let fast = perft(&start, d);
                assert_eq!(
                    fast,
                    naive.perft(d),
                    "{} perft {d}",
                    Rolit::<N, P>::INFO.name
                );
                fast
            })
            .collect()
    }

    #[test]
    fn perft_matches_an_independent_generator_on_every_board() {
        // The 4x4 boards completely (12 empty squares): their counts are the full game trees.
        same_perft::<4, 4>(12);
        same_perft::<4, 3>(12);
        same_perft::<6, 4>(7);
        same_perft::<6, 3>(7);
        same_perft::<8, 4>(6);
        same_perft::<8, 3>(6);
        same_perft::<8, 2>(6);
    }

    /// Plays random games with both generators side by side: the same moves, the same boards
    /// and a hash kept equal to the one computed from scratch.
    fn random_games<const N: usize, const P: usize>(games: u64) {
        let mut rng = crate::rng::Rng::new(N as u64 * 10 + P as u64);
        let mut buf = MoveList::new();
        for _ in 0..games {
            let mut pos = Rolit::<N, P>::start();
            let mut naive = Naive::of(&pos);
            let mut plies = 0;
            while let Some(m) = pos.random_move(&mut rng, &mut buf) {
                let mut fast: Vec<(usize, usize)> = Vec::new();
                pos.legal_moves(&mut buf);
                fast.extend(buf.iter().map(|m| (m.0 as usize / 8, m.0 as usize % 8)));
                assert_eq!(fast, naive.moves(), "{}", pos.to_position());
                naive.play((m.0 as usize / 8, m.0 as usize % 8));
                pos.play(m);
                plies += 1;
                assert_eq!(pos.hash(), pos.compute_hash());
                assert_eq!(Naive::of(&pos).cells, naive.cells);
                assert_eq!(
                    Rolit::<N, P>::parse_position(&pos.to_position()).unwrap(),
                    pos
                );
            }
            assert_eq!(
                plies,
                N * N - 4,
                "the game fills the board, one square a ply"
            );
            let outcome = pos.outcome().expect("a full board ends the game");
            let counts = pos.counts();
            for a in 0..P {
                for b in 0..P {
                    let (pa, pb) = (Player(a as u8), Player(b as u8));
                    assert_eq!(counts[a] > counts[b], outcome.rank(pa) < outcome.rank(pb));
                }
            }
        }
    }

    #[test]
    fn random_games_agree_with_the_independent_generator() {
        random_games::<8, 4>(30);
        random_games::<8, 3>(30);
        random_games::<8, 2>(30);
        random_games::<6, 4>(30);
        random_games::<6, 3>(30);
        random_games::<4, 4>(30);
        random_games::<4, 3>(30);
    }

    #[test]
    fn the_start_and_the_first_moves_follow_the_rules() {
        let start = Rolit4::start();
        assert_eq!(start.to_position(), Rolit4::INFO.start);
        assert_eq!(Rolit3::start().to_position(), Rolit3::INFO.start);
        // Red (d4) outflanks yellow's e4 from f4, green's e5 from f6 and blue's d5 from d6.
        let mut moves = MoveList::new();
        start.legal_moves(&mut moves);
        let names: Vec<String> = moves.iter().map(|&m| start.format_move(m)).collect();
        assert_eq!(names, ["f4", "d6", "f6"]);
        let mut p = start.clone();
        p.play(p.parse_move("f4").unwrap());
        assert_eq!(p.to_position(), "8/8/8/3rrr2/3bg3/8/8/8 y");
        // Yellow has lost its only piece: it may place next to any piece, taking nothing.
        p.legal_moves(&mut moves);
        assert_eq!(moves.len(), 14);
        p.play(p.parse_move("c3").unwrap());
        assert_eq!(p.to_position(), "8/8/2y5/3rrr2/3bg3/8/8/8 g");
        assert_eq!(p.to_move(), Player(2));
    }

    #[test]
    fn neutral_pieces_can_be_taken_and_count_for_nobody() {
        // Three players: blue's centre piece is neutral. Red takes it from d6 (d4 brackets d5).
        let mut p = Rolit3::start();
        p.play(p.parse_move("d6").unwrap());
        assert_eq!(p.to_position(), "8/8/8/3ry3/3rg3/3r4/8/8 y");
        assert_eq!(p.counts(), [3, 1, 1, 0]);
        // A full 4x4 board for three players with a neutral piece left: ranks by pieces.
        let full = Rolit::<4, 3>::parse_position("rrrr/rryy/yygg/gggb r").unwrap();
        let outcome = full.outcome().unwrap();
        assert_eq!(full.counts(), [6, 4, 5, 1]);
        assert_eq!(
            [0, 1, 2].map(|p| outcome.rank(Player(p))),
            [0, 2, 1],
            "red 6, green 5, yellow 4"
        );
        assert!(outcome.utility(Player(0)) > 0.99);
    }

    #[test]
    fn the_evaluation_favours_the_leader_and_corners() {
        let p = Rolit4::parse_position("r7/8/8/3ry3/3bg3/8/8/8 y").unwrap();
        assert!(p.evaluate(Player(0)) > 0.5);
        assert!(p.evaluate(Player(1)) < 0.0);
        let level = Rolit4::start();
        for c in 0..4 {
            assert_eq!(level.evaluate(Player(c)), 0.0);
        }
    }

    #[test]
    fn bad_positions_and_moves_are_refused() {
        for bad in [
            "",
            "8/8/8/3ry3/3bg3/8/8 r",
            "8/8/8/3ry3/3bg3/8/8/8",
            "8/8/8/3ry3/3bg3/8/8/8 x",
            "8/8/8/3rx3/3bg3/8/8/8 r",
            "8/8/8/3ry4/3bg3/8/8/8 r",
        ] {
            assert!(Rolit4::parse_position(bad).is_err(), "{bad:?}");
        }
        // Blue does not play in the three-player game.
        assert!(Rolit3::parse_position("8/8/8/3ry3/3bg3/8/8/8 b").is_err());
        let start = Rolit4::start();
        for bad in ["a1", "z9", "d4", "", "f44", "i1", "a0", "z0", "d-1"] {
            assert!(start.parse_move(bad).is_err(), "{bad:?}");
        }
        assert!(Rolit::<4, 4>::start().parse_move("e1").is_err());
    }
}
