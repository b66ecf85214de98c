//! Breakthrough on N x N boards (8x8; 7x7 and 6x6 as cheap extras), on u64 bitboards.
//!
//! Square index = row * N + column, row 0 = rank 1 (the first player's home). The first player
//! (`P`, "white" as in Fairy-Stockfish) moves up, the second (`p`) moves down. A pawn steps one
//! square straight forward onto an empty square, or diagonally forward onto an empty square or an
//! enemy pawn (capture). Reaching the far rank wins; a player without a move (no pawns) loses.

use super::{fen, zobrist};
use super::{
    find_legal, Dialects, GameError, GameInfo, Heuristics, Move, MoveList, Outcome, Player, Rules,
};
use crate::rng::Rng;

/// A Breakthrough position on an `N` x `N` board (6 <= N <= 8).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Breakthrough<const N: usize> {
    /// Pawns of player 0 and player 1.
    pawns: [u64; 2],
    to_move: u8,
    hash: u64,
}

const ZOBRIST_PAWN: [[u64; 64]; 2] = [zobrist::keys(0x0B01), zobrist::keys(0x0B02)];
const ZOBRIST_SIDE: u64 = zobrist::keys::<1>(0x0B03)[0];

/// Move packing: from square in bits 0-5, to square in bits 6-11.
#[inline]
fn pack(from: usize, to: usize) -> Move {
    Move((from | to << 6) as u16)
}

#[inline]
fn unpack(m: Move) -> (usize, usize) {
    ((m.0 & 63) as usize, (m.0 >> 6 & 63) as usize)
}

impl<const N: usize> Breakthrough<N> {
    const BOARD: u64 = if N * N == 64 {
        !0
    } else {
        (1u64 << (N * N)) - 1
    };
    const FILE_FIRST: u64 = Self::file_mask(0);
    const FILE_LAST: u64 = Self::file_mask(N - 1);
    const RANK_FIRST: u64 = (1u64 << N) - 1;
    const RANK_LAST: u64 = Self::RANK_FIRST << (N * (N - 1));

    /// `ROW_BITS[k]`: the squares of the rows whose index has bit `k` set.
    const ROW_BITS: [u64; 3] = {
        let mut m = [0u64; 3];
        let mut row = 0;
        while row < N {
            let mut k = 0;
            while k < 3 {
                if row >> k & 1 == 1 {
                    m[k] |= Self::RANK_FIRST << (row * N);
                }
                k += 1;
            }
            row += 1;
        }
        m
    };

    const fn file_mask(col: usize) -> u64 {
        let mut mask = 0u64;
        let mut row = 0;
        while row < N {
            mask |= 1 << (row * N + col);
            row += 1;
        }
        mask
    }

    const INFO_N: GameInfo = match N {
        8 => GameInfo {
            name: "breakthrough",
            aliases: &["breakthrough8x8"],
            board: "8x8",
            notation: "from-to squares, rank 1 at the first player's side: a2a3, b2c3",
            start: "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w",
        },
        7 => GameInfo {
            name: "breakthrough7x7",
            aliases: &["breakthrough7"],
            board: "7x7",
            notation: "from-to squares, rank 1 at the first player's side: a2a3, b2c3",
            start: "ppppppp/ppppppp/7/7/7/PPPPPPP/PPPPPPP w",
        },
        _ => GameInfo {
            name: "breakthrough6x6",
            aliases: &["breakthrough6"],
            board: "6x6",
            notation: "from-to squares, rank 1 at the first player's side: a2a3, b2c3",
            start: "pppppp/pppppp/6/6/PPPPPP/PPPPPP w",
        },
    };

    /// Targets of the three move directions for the side to move: (straight, towards the first
    /// file, towards the last file). Each target has exactly one source per direction.
    #[inline]
    fn targets(&self) -> [u64; 3] {
        let me = self.pawns[self.to_move as usize];
        let them = self.pawns[1 - self.to_move as usize];
        let empty = !(me | them) & Self::BOARD;
        let not_mine = !me & Self::BOARD;
        if self.to_move == 0 {
            [
                (me << N) & empty,
                ((me & !Self::FILE_FIRST) << (N - 1)) & not_mine,
                ((me & !Self::FILE_LAST) << (N + 1)) & not_mine,
            ]
        } else {
            [
                (me >> N) & empty,
                ((me & !Self::FILE_FIRST) >> (N + 1)) & not_mine,
                ((me & !Self::FILE_LAST) >> (N - 1)) & not_mine,
            ]
        }
    }

    /// How far back along each direction the source square lies (index offset from target).
    #[inline]
    fn source_offsets(&self) -> [isize; 3] {
        let n = N as isize;
        if self.to_move == 0 {
            [-n, -(n - 1), -(n + 1)]
        } else {
            [n, n + 1, n - 1]
        }
    }

    /// The winner by goal row, if a pawn stands on its far rank.
    #[inline]
    fn goal_winner(&self) -> Option<Player> {
        if self.pawns[0] & Self::RANK_LAST != 0 {
            Some(Player(0))
        } else if self.pawns[1] & Self::RANK_FIRST != 0 {
            Some(Player(1))
        } else {
            None
        }
    }

    fn square_name(sq: usize) -> String {
        format!("{}{}", (b'a' + (sq % N) as u8) as char, sq / N + 1)
    }

    /// Reads a square like `c3` at the start of `s`; returns the square and the bytes used.
    fn read_square(s: &[u8]) -> Option<(usize, usize)> {
        let file = *s.first()?;
        if !(b'a'..b'a' + N as u8).contains(&file) {
            return None;
        }
        let mut used = 1;
        let mut rank = 0usize;
        while used < s.len() && s[used].is_ascii_digit() && used < 3 {
            rank = rank * 10 + (s[used] - b'0') as usize;
            used += 1;
        }
        if used == 1 || rank == 0 || rank > N {
            return None;
        }
        Some(((rank - 1) * N + (file - b'a') as usize, used))
    }

    /// Player 0's side of the simple evaluation (Lorentz & Horey's shape): material, the summed
    /// row advancement of every pawn and the furthest-advanced pawn, each side from its own home.
    #[inline]
    fn simple_score(&self) -> f32 {
        let [w, b] = self.pawns;
        let (nw, nb) = (w.count_ones() as i32, b.count_ones() as i32);
        // Summed row indices by bit-sliced row masks: three popcounts instead of one per row.
        let rows = |x: u64| {
            (x & Self::ROW_BITS[0]).count_ones() as i32
                + 2 * (x & Self::ROW_BITS[1]).count_ones() as i32
                + 4 * (x & Self::ROW_BITS[2]).count_ones() as i32
        };
        let adv = rows(w) - ((N as i32 - 1) * nb - rows(b));
        let far_w = if w == 0 {
            0
        } else {
            (63 - w.leading_zeros() as i32) / N as i32
        };
        let far_b = if b == 0 {
            0
        } else {
            N as i32 - 1 - b.trailing_zeros() as i32 / N as i32
        };
        (nw - nb) as f32 + 0.1 * adv as f32 + 0.3 * (far_w - far_b) as f32
    }

    /// The simple score mapped into (-1, 1) for `player`.
    #[inline]
    fn scaled(score: f32, player: Player) -> f32 {
        let v = (score / 6.0).tanh();
        crate::game::zero_sum(v, player)
    }

    /// A richer piece-square evaluation for `player`: the simple terms, plus safe pawns (defended
    /// by an own pawn diagonally behind), attacked undefended pawns, the home-row defence (pawns
    /// still on the home rank guard against break-ins) and a bonus for pawns on the two ranks
    /// before the goal; zero-sum and colour-symmetric like [`Heuristics::evaluate`].
    pub fn evaluate_piece_square(&self, player: Player) -> f32 {
        let [w, b] = self.pawns;
        // Squares each side's pawns attack (diagonally forward).
        let att_w = ((w & !Self::FILE_FIRST) << (N - 1)) | ((w & !Self::FILE_LAST) << (N + 1));
        let att_b = ((b & !Self::FILE_FIRST) >> (N + 1)) | ((b & !Self::FILE_LAST) >> (N - 1));
        let safe = (w & att_w).count_ones() as i32 - (b & att_b).count_ones() as i32;
        let hanging =
            (w & att_b & !att_w).count_ones() as i32 - (b & att_w & !att_b).count_ones() as i32;
        let home =
            (w & Self::RANK_FIRST).count_ones() as i32 - (b & Self::RANK_LAST).count_ones() as i32;
        let near_w = Self::RANK_LAST >> N | Self::RANK_LAST >> (2 * N);
        let near_b = Self::RANK_FIRST << N | Self::RANK_FIRST << (2 * N);
        let near = (w & near_w).count_ones() as i32 - (b & near_b).count_ones() as i32;
        let score = self.simple_score() + 0.15 * safe as f32 - 0.4 * hanging as f32
            + 0.1 * home as f32
            + 0.3 * near as f32;
        Self::scaled(score, player)
    }
}

/// Network inputs, from the side to move (the second player's board turned upside down, so
/// both move up): one feature per pawn, its square (row * N + column) for the mover's pawns and
/// N * N plus it for the opponent's. Policy: the origin square times 3 plus the direction
/// (0 left, 1 straight, 2 right, in files). Symmetry: the left-right mirror.
impl<const N: usize> crate::game::Features for Breakthrough<N> {
    const INPUTS: usize = 2 * N * N;
    const POLICY: usize = 3 * N * N;
    const SYMMETRIES: usize = 2;
    /// The runners of the start, two rows a side (a set-up position with more is evaluated in
    /// f32).
    const MAX_ACTIVE: usize = 4 * N;

    fn features(&self, out: &mut Vec<u16>) {
        out.clear();
        let mover = self.to_move as usize;
        for (side, base) in [(mover, 0), (1 - mover, N * N)] {
            let mut b = self.pawns[side];
            while b != 0 {
                let sq = b.trailing_zeros() as usize;
                b &= b - 1;
                out.push((base + Self::relative(mover, sq)) as u16);
            }
        }
    }

    fn policy_index(&self, m: Move) -> usize {
        let (from, to) = unpack(m);
        Self::relative(self.to_move as usize, from) * 3 + (to % N + 1 - from % N)
    }

    fn map_feature(s: usize, f: u16) -> u16 {
        let f = f as usize;
        let (base, sq) = (f / (N * N) * (N * N), f % (N * N));
        (if s == 0 { f } else { base + Self::mirror(sq) }) as u16
    }

    fn map_policy(s: usize, p: usize) -> usize {
        if s == 0 {
            p
        } else {
            Self::mirror(p / 3) * 3 + 2 - p % 3
        }
    }
}

impl<const N: usize> Breakthrough<N> {
    /// Square `sq` seen by `player`: the second player's rows are counted from its own side.
    #[inline]
    fn relative(player: usize, sq: usize) -> usize {
        if player == 0 {
            sq
        } else {
            (N - 1 - sq / N) * N + sq % N
        }
    }

    /// Square `sq` mirrored left to right.
    #[inline]
    fn mirror(sq: usize) -> usize {
        sq / N * N + N - 1 - sq % N
    }
}

impl<const N: usize> Rules for Breakthrough<N> {
    const INFO: GameInfo = Self::INFO_N;

    fn start() -> Self {
        let home = (1u64 << (2 * N)) - 1;
        let pawns = [home, home << (N * (N - 2))];
        let mut game = Breakthrough {
            pawns,
            to_move: 0,
            hash: 0,
        };
        game.hash = game.compute_hash();
        game
    }

    #[inline]
    fn to_move(&self) -> Player {
        Player(self.to_move)
    }

    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.goal_winner().is_some() {
            return;
        }
        let offsets = self.source_offsets();
        for (mut targets, offset) in self.targets().into_iter().zip(offsets) {
            while targets != 0 {
                let to = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                out.push(pack((to as isize + offset) as usize, to));
            }
        }
    }

    #[inline]
    fn count_moves(&self) -> usize {
        if self.goal_winner().is_some() {
            return 0;
        }
        self.targets().iter().map(|t| t.count_ones() as usize).sum()
    }

    #[inline]
    fn play(&mut self, m: Move) {
        let (from, to) = unpack(m);
        let me = self.to_move as usize;
        let them = 1 - me;
        self.pawns[me] ^= (1 << from) | (1 << to);
        self.hash ^= ZOBRIST_PAWN[me][from] ^ ZOBRIST_PAWN[me][to];
        if self.pawns[them] & (1 << to) != 0 {
            self.pawns[them] ^= 1 << to;
            self.hash ^= ZOBRIST_PAWN[them][to];
        }
        self.to_move = them as u8;
        self.hash ^= ZOBRIST_SIDE;
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(winner) = self.goal_winner() {
            return Some(Outcome::win(winner, 2));
        }
        (self.count_moves() == 0).then(|| Outcome::loss(self.to_move(), 2))
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let mut h = if self.to_move == 1 { ZOBRIST_SIDE } else { 0 };
        for (side, keys) in ZOBRIST_PAWN.iter().enumerate() {
            let mut bb = self.pawns[side];
            while bb != 0 {
                h ^= keys[bb.trailing_zeros() as usize];
                bb &= bb - 1;
            }
        }
        h
    }

    fn format_move(&self, m: Move) -> String {
        let (from, to) = unpack(m);
        format!("{}{}", Self::square_name(from), Self::square_name(to))
    }

    /// Accepts `a2a3`, and `a2-a3` / `a2xb3` as written by some tools.
    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        let s = text.trim().as_bytes();
        let syntax = || GameError::syntax(text, "expected from-to squares such as a2a3");
        let (from, used) = Self::read_square(s).ok_or_else(syntax)?;
        let rest = match s.get(used) {
            Some(b'-') | Some(b'x') => &s[used + 1..],
            _ => &s[used..],
        };
        let (to, used_to) = Self::read_square(rest).ok_or_else(syntax)?;
        if used_to != rest.len() {
            return Err(syntax());
        }
        find_legal(self, text, pack(from, to))
    }

    fn to_position(&self) -> String {
        let cell = |sq: usize| {
            if self.pawns[0] & (1 << sq) != 0 {
                Some('P')
            } else if self.pawns[1] & (1 << sq) != 0 {
                Some('p')
            } else {
                None
            }
        };
        let rows = (0..N)
            .rev()
            .map(|row| (0..N).map(move |col| cell(row * N + col)));
        format!(
            "{} {}",
            fen::board_field(rows),
            if self.to_move == 0 { 'w' } else { 'b' }
        )
    }

    /// Reads `<rows top to bottom> <w|b>`; further fields (counters, `-`) are ignored.
    fn parse_position(text: &str) -> Result<Self, GameError> {
        let (rows, mut fields) = fen::board_rows(text, N)?;
        let mut pawns = [0u64; 2];
        for (i, row) in rows.iter().enumerate() {
            let rank = N - 1 - i;
            let mut col = 0usize;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    col += d as usize;
                    continue;
                }
                let side = match c {
                    'P' => 0,
                    'p' => 1,
                    _ => {
                        return Err(GameError::position(
                            "board",
                            format!(
                                "unknown piece '{c}' on rank {} (use P, p or digits)",
                                rank + 1
                            ),
                        ))
                    }
                };
                if col >= N {
                    return Err(GameError::position(
                        "board",
                        format!("rank {} has more than {N} squares", rank + 1),
                    ));
                }
                pawns[side] |= 1 << (rank * N + col);
                col += 1;
            }
            if col != N {
                return Err(GameError::position(
                    "board",
                    format!("rank {} has {col} squares, expected {N}", rank + 1),
                ));
            }
        }
        let to_move = match fields.next() {
            None | Some("w") | Some("W") => 0,
            Some("b") | Some("B") => 1,
            Some(other) => {
                return Err(GameError::position(
                    "side to move",
                    format!("'{other}' is not w or b"),
                ))
            }
        };
        if pawns[1 - to_move as usize] == 0 {
            // The side that just moved has nothing left: the game ended with the capture of its
            // last piece, before that move. Searching it would report a win that never was.
            return Err(GameError::position(
                "board",
                format!(
                    "the side that just moved ({}) has no pawns: the game was over before its move",
                    if to_move == 0 { "black" } else { "white" }
                ),
            ));
        }
        let mut game = Breakthrough {
            pawns,
            to_move,
            hash: 0,
        };
        if game.pawns[0] & Self::RANK_LAST != 0 && game.pawns[1] & Self::RANK_FIRST != 0 {
            return Err(GameError::position(
                "board",
                "both sides stand on their goal ranks",
            ));
        }
        game.hash = game.compute_hash();
        Ok(game)
    }

    fn diagram(&self) -> String {
        let mut out = String::new();
        for row in (0..N).rev() {
            out += &format!("{:>2} ", row + 1);
            for col in 0..N {
                let bit = 1u64 << (row * N + col);
                out.push(if self.pawns[0] & bit != 0 {
                    'P'
                } else if self.pawns[1] & bit != 0 {
                    'p'
                } else {
                    '.'
                });
                out.push(' ');
            }
            out.push('\n');
        }
        out += "   ";
        for col in 0..N {
            out.push((b'a' + col as u8) as char);
            out.push(' ');
        }
        out
    }

    /// Picks the k-th move over the three target masks without building the list.
    #[inline]
    fn random_move(&self, rng: &mut Rng, _buf: &mut MoveList) -> Option<Move> {
        if self.goal_winner().is_some() {
            return None;
        }
        let targets = self.targets();
        let counts = targets.map(|t| t.count_ones());
        let total = counts[0] + counts[1] + counts[2];
        if total == 0 {
            return None;
        }
        let mut k = rng.below(total);
        let offsets = self.source_offsets();
        for i in 0..3 {
            if k < counts[i] {
                let mut t = targets[i];
                for _ in 0..k {
                    t &= t - 1;
                }
                let to = t.trailing_zeros() as usize;
                return Some(pack((to as isize + offsets[i]) as usize, to));
            }
            k -= counts[i];
        }
        None
    }
}

impl<const N: usize> Heuristics for Breakthrough<N> {
    /// A step onto the goal rank, read off the target masks; otherwise only leaving the opponent
    /// without a move wins, and one move takes at most four of theirs (the three of a captured
    /// pawn and a blocked straight step), so the slow test runs only when they have four or fewer.
    fn winning_move(&self, buf: &mut MoveList) -> Option<Move> {
        if self.goal_winner().is_some() {
            return None;
        }
        let goal = if self.to_move == 0 {
            Self::RANK_LAST
        } else {
            Self::RANK_FIRST
        };
        for (targets, offset) in self.targets().into_iter().zip(self.source_offsets()) {
            let hit = targets & goal;
            if hit != 0 {
                let to = hit.trailing_zeros() as usize;
                return Some(pack((to as isize + offset) as usize, to));
            }
        }
        let mut them = self.clone();
        them.to_move ^= 1;
        if them.count_moves() > 4 {
            return None;
        }
        super::first_winning_move(self, buf)
    }

    const HAS_EVALUATION: bool = true;

    /// The simple evaluation (see `simple_score`); [`Breakthrough::evaluate_piece_square`] is
    /// the richer one.
    #[inline]
    fn evaluate(&self, player: Player) -> f32 {
        Self::scaled(self.simple_score(), player)
    }

    #[inline]
    fn is_capture(&self, m: Move) -> bool {
        let (_, to) = unpack(m);
        self.pawns[1 - self.to_move as usize] & (1 << to) != 0
    }
}

impl<const N: usize> Dialects for Breakthrough<N> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::check::random_games;
    use crate::game::perft::perft;
    use crate::game::Dialect;

    type Bt8 = Breakthrough<8>;

    #[test]
    fn network_encoding_follows_the_mover_and_the_mirror() {
        fn map<const N: usize>(b: u64, f: impl Fn(usize) -> usize) -> u64 {
            (0..N * N)
                .filter(|&sq| b >> sq & 1 == 1)
                .fold(0, |acc, sq| acc | 1 << f(sq))
        }
        fn images<const N: usize>() {
            let flip = |p: &Breakthrough<N>| {
                let row = |sq: usize| (N - 1 - sq / N) * N + sq % N;
                let mut q = p.clone();
                q.pawns = [map::<N>(p.pawns[1], row), map::<N>(p.pawns[0], row)];
                q.to_move ^= 1;
                q.hash = q.compute_hash();
                q
            };
            let mirror = |p: &Breakthrough<N>| {
                let mut q = p.clone();
                q.pawns = p.pawns.map(|b| map::<N>(b, Breakthrough::<N>::mirror));
                q.hash = q.compute_hash();
                q
            };
            crate::game::features::check::check_encoding::<Breakthrough<N>>(
                3,
                30,
                &[(0, &flip), (1, &mirror)],
            );
        }
        images::<8>();
        images::<6>();
    }

    #[test]
    fn start_position_string_and_moves() {
        let g = Bt8::start();
        assert_eq!(g.to_position(), Bt8::INFO.start);
        assert_eq!(g.count_moves(), 22);
        assert_eq!(
            Breakthrough::<6>::start().to_position(),
            Breakthrough::<6>::INFO.start
        );
        assert_eq!(
            Breakthrough::<7>::start().to_position(),
            Breakthrough::<7>::INFO.start
        );
    }

    #[test]
    fn random_games_keep_invariants() {
        let s8 = random_games(&Bt8::start(), 1500, 1);
        assert_eq!(s8.draws, 0, "Breakthrough has no draws");
        random_games(&Breakthrough::<7>::start(), 1000, 2);
        random_games(&Breakthrough::<6>::start(), 1000, 3);
    }

    #[test]
    fn straight_moves_cannot_capture() {
        let g = Bt8::parse_position("8/8/8/8/3p4/3P4/8/8 w").unwrap();
        let mut list = MoveList::new();
        g.legal_moves(&mut list);
        let moves: Vec<String> = list.iter().map(|&m| g.format_move(m)).collect();
        assert_eq!(moves.len(), 2, "{moves:?}");
        assert!(g.parse_move("d3d4").is_err());
        assert!(g.parse_move("d3c4").is_ok() && g.parse_move("d3e4").is_ok());
    }

    #[test]
    fn diagonal_capture_and_edges() {
        // White pawn on a3 with black on b4: capture a3b4 or step a3a4; no wrap to the h-file.
        let mut g = Bt8::parse_position("7p/8/8/8/1p6/P7/8/8 w").unwrap();
        assert_eq!(g.count_moves(), 2);
        g.play_text("a3xb4").unwrap();
        assert_eq!(g.to_position(), "7p/8/8/8/1P6/8/8/8 b");
        assert_eq!(g.hash(), g.compute_hash());
    }

    #[test]
    fn reaching_the_far_rank_wins() {
        let mut g = Bt8::parse_position("8/P7/8/8/8/8/7p/8 w").unwrap();
        assert_eq!(g.outcome(), None);
        g.play_text("a7a8").unwrap();
        assert_eq!(g.outcome(), Some(Outcome::win(Player(0), 2)));
        assert_eq!(g.count_moves(), 0);
        let mut g = Bt8::parse_position("8/P7/8/8/8/8/7p/8 b").unwrap();
        g.play_text("h2g1").unwrap();
        assert_eq!(g.outcome(), Some(Outcome::win(Player(1), 2)));
    }

    #[test]
    fn no_pieces_loses() {
        let mut g = Bt8::parse_position("8/8/8/8/8/1p6/P7/8 w").unwrap();
        g.play_text("a2b3").unwrap();
        assert_eq!(g.outcome(), Some(Outcome::loss(Player(1), 2)));
    }

    #[test]
    fn perft_small_depths_from_start() {
        assert_eq!(perft(&Bt8::start(), 3), 11132);
        assert_eq!(perft(&Breakthrough::<6>::start(), 3), 4308);
    }

    #[test]
    fn fairy_stockfish_fens_parse_in_every_dialect() {
        // Fairy-Stockfish 11.1's `d` and its startpos (also pyffish's start_fen).
        for text in [
            "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w - - 0 1",
            "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w 0 1",
        ] {
            for d in [Dialect::Native, Dialect::Usi, Dialect::Gtp] {
                assert_eq!(Bt8::parse_position_in(text, d), Ok(Bt8::start()), "{text}");
            }
        }
        let g = Bt8::parse_position("pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP b - - 1 1");
        assert_eq!(g.map(|g| g.to_move()), Ok(Player(1)));
    }

    #[test]
    fn bad_positions_name_the_field() {
        for (text, field) in [
            ("", "board"),
            ("8/8/8 w", "board"),
            ("8/8/8/8/8/8/8/9 w", "board"),
            ("8/8/8/8/8/8/8/PPPPPPPPP w", "board"),
            ("8/8/8/8/8/8/8/7K w", "board"),
            ("8/8/8/8/8/8/8/8 x", "side to move"),
            ("P7/8/8/8/8/8/8/p7 w", "board"),
            ("ü/8/8/8/8/8/8/8 w", "board"),
        ] {
            match Bt8::parse_position(text) {
                Err(GameError::Position { field: f, .. }) => assert_eq!(f, field, "{text}"),
                other => panic!("{text}: expected a position error, got {other:?}"),
            }
        }
    }

    #[test]
    fn bad_moves_are_typed_errors() {
        let g = Bt8::start();
        for text in [
            "",
            "a2",
            "a2a9",
            "i2i3",
            "a2a3a4",
            "ü",
            "a99999999999999999a3",
        ] {
            assert!(
                matches!(g.parse_move(text), Err(GameError::MoveSyntax { .. })),
                "{text}"
            );
        }
        for text in ["a2a4", "a1a2", "a7a6", "a2b2"] {
            assert!(
                matches!(g.parse_move(text), Err(GameError::IllegalMove { .. })),
                "{text}"
            );
        }
    }

    #[test]
    fn evaluation_invariants_hold() {
        use crate::game::check::{check_evaluation, evaluation_invariants};
        evaluation_invariants(&Bt8::start(), 100, 11);
        evaluation_invariants(&Breakthrough::<7>::start(), 50, 12);
        evaluation_invariants(&Breakthrough::<6>::start(), 50, 13);
        // The piece-square variant keeps the same invariants.
        let mut rng = Rng::new(14);
        let mut list = MoveList::new();
        let mut g = Bt8::start();
        while let Some(m) = g.random_move(&mut rng, &mut list) {
            check_evaluation(&g);
            let v = g.evaluate_piece_square(Player(0));
            assert!(v.is_finite() && v.abs() <= 1.0);
            assert_eq!(v, -g.evaluate_piece_square(Player(1)));
            g.play(m);
        }
        assert_eq!(Bt8::start().evaluate(Player(0)), 0.0);
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        use crate::game::check::{assert_mirrored_evaluation, flip_fen};
        for pos in [
            "pppppppp/ppp1pppp/8/3P4/8/8/PP1PPPPP/PPPPPPPP b",
            "8/2p5/8/1P6/8/P7/8/8 w",
            "pppppp/pppp2/6/2P3/6/PPPPP1 w",
        ] {
            let mirrored = flip_fen(pos, ("w", "b"));
            if pos.len() > 30 && pos.starts_with("pppppppp") {
                assert_mirrored_evaluation::<Bt8>(pos, &mirrored);
                let (a, b) = (
                    Bt8::parse_position(pos).unwrap(),
                    Bt8::parse_position(&mirrored).unwrap(),
                );
                assert_eq!(
                    a.evaluate_piece_square(Player(0)),
                    -b.evaluate_piece_square(Player(0))
                );
            } else if pos.starts_with("8/") {
                assert_mirrored_evaluation::<Bt8>(pos, &mirrored);
            } else {
                assert_mirrored_evaluation::<Breakthrough<6>>(pos, &mirrored);
            }
        }
    }

    #[test]
    fn material_and_advancement_evaluate_higher() {
        use crate::game::check::evaluation_of;
        // White has an extra pawn.
        let up = evaluation_of::<Bt8>("pppppppp/ppppppp1/8/8/8/8/PPPPPPPP/PPPPPPPP b", Player(0));
        assert!(up > 0.05, "{up}");
        // Equal material, white's pawn is further advanced.
        let far = "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w";
        let near = "pppppppp/pppppppp/8/8/8/P7/1PPPPPPP/PPPPPPPP b";
        let v0 = evaluation_of::<Bt8>(far, Player(0));
        let v1 = evaluation_of::<Bt8>(near, Player(0));
        assert!(v1 > v0, "{v1} <= {v0}");
        // A defended pawn in front is better than a hanging one in the richer evaluation.
        let hanging = Bt8::parse_position("8/8/8/3p4/4P3/8/8/8 w").unwrap();
        let defended = Bt8::parse_position("8/8/8/3p4/4P3/3P4/8/8 w").unwrap();
        assert!(
            defended.evaluate_piece_square(Player(0)) > hanging.evaluate_piece_square(Player(0))
        );
    }

    #[test]
    fn captures_are_flagged() {
        let g = Bt8::parse_position("8/8/8/8/3p4/4P3/8/8 w").unwrap();
        let mut list = MoveList::new();
        g.legal_moves(&mut list);
        let caps: Vec<String> = list
            .iter()
            .filter(|&&m| g.is_capture(m))
            .map(|&m| g.format_move(m))
            .collect();
        assert_eq!(caps, ["e3d4"]);
    }

    /// The bit tricks of `simple_score` against a square-by-square count.
    #[test]
    fn simple_score_matches_a_square_by_square_count() {
        fn reference<const N: usize>(g: &Breakthrough<N>) -> f32 {
            let (mut material, mut adv, mut far_w, mut far_b) = (0i32, 0i32, 0i32, 0i32);
            for sq in 0..N * N {
                let row = (sq / N) as i32;
                if g.pawns[0] & (1 << sq) != 0 {
                    material += 1;
                    adv += row;
                    far_w = far_w.max(row);
                }
                if g.pawns[1] & (1 << sq) != 0 {
                    material -= 1;
                    adv -= N as i32 - 1 - row;
                    far_b = far_b.max(N as i32 - 1 - row);
                }
            }
            material as f32 + 0.1 * adv as f32 + 0.3 * (far_w - far_b) as f32
        }
        fn check<const N: usize>(seed: u64) {
            let mut rng = Rng::new(seed);
            let mut list = MoveList::new();
            for _ in 0..20 {
                let mut g = Breakthrough::<N>::start();
                loop {
                    assert_eq!(g.simple_score(), reference(&g), "{}", g.to_position());
                    match g.random_move(&mut rng, &mut list) {
                        Some(m) => g.play(m),
                        None => break,
                    }
                }
            }
        }
        check::<8>(15);
        check::<7>(16);
        check::<6>(17);
    }
}
