//! Knightthrough 8x8: Breakthrough with forward-only knights, on u64 bitboards.
//!
//! Square index = row * 8 + column, row 0 = rank 1 (the first player's home). The first player
//! (`N`, "white" as in Fairy-Stockfish) moves up, the second (`n`) moves down. A knight makes one
//! of the four knight leaps that advance (two forward and one sideways, or one forward and two
//! sideways) onto an empty square or an enemy knight (capture). Reaching the far rank wins; a
//! player without a move loses (Fairy-Stockfish's breakthrough stalemate rule; without pieces
//! is the usual case).

use super::{fen, zobrist};
use super::{
    find_legal, Dialects, GameError, GameInfo, Heuristics, Move, MoveList, Outcome, Player, Rules,
};
use crate::rng::Rng;

/// A Knightthrough position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Knightthrough {
    /// Knights of player 0 and player 1.
    knights: [u64; 2],
    to_move: u8,
    hash: u64,
}

const ZOBRIST_KNIGHT: [[u64; 64]; 2] = [zobrist::keys(0x4B01), zobrist::keys(0x4B02)];
const ZOBRIST_SIDE: u64 = zobrist::keys::<1>(0x4B03)[0];

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_B: u64 = FILE_A << 1;
const FILE_G: u64 = FILE_A << 6;
const FILE_H: u64 = FILE_A << 7;
const RANK_1: u64 = 0xFF;
const RANK_8: u64 = RANK_1 << 56;

/// The four forward leaps as (sources allowed, index step) for player 0; player 1 uses the same
/// sources mirrored left-right with negated steps. Order: two up one left, two up one right,
/// one up two left, one up two right.
const LEAPS: [(u64, i32); 4] = [
    (!FILE_A, 15),
    (!FILE_H, 17),
    (!(FILE_A | FILE_B), 6),
    (!(FILE_G | FILE_H), 10),
];

/// Move packing: from square in bits 0-5, to square in bits 6-11.
#[inline]
fn pack(from: usize, to: usize) -> Move {
    Move((from | to << 6) as u16)
}

#[inline]
fn unpack(m: Move) -> (usize, usize) {
    ((m.0 & 63) as usize, (m.0 >> 6 & 63) as usize)
}

impl Knightthrough {
    /// Targets of the four leaps for the side to move, with the index step from source to
    /// target; each target has exactly one source per leap.
    #[inline]
    fn targets(&self) -> [(u64, i32); 4] {
        let me = self.knights[self.to_move as usize];
        let not_mine = !me;
        if self.to_move == 0 {
            LEAPS.map(|(sources, step)| (((me & sources) << step) & not_mine, step))
        } else {
            // Moving down, "left" for player 0's leap tables is the same file mask: a leap of
            // -15 goes one file right, -17 one file left, -6 two right, -10 two left.
            [
                (((me & !FILE_H) >> 15) & not_mine, -15),
                (((me & !FILE_A) >> 17) & not_mine, -17),
                (((me & !(FILE_G | FILE_H)) >> 6) & not_mine, -6),
                (((me & !(FILE_A | FILE_B)) >> 10) & not_mine, -10),
            ]
        }
    }

    /// The winner by goal rank, if a knight stands on its far rank.
    #[inline]
    fn goal_winner(&self) -> Option<Player> {
        if self.knights[0] & RANK_8 != 0 {
            Some(Player(0))
        } else if self.knights[1] & RANK_1 != 0 {
            Some(Player(1))
        } else {
            None
        }
    }

    fn square_name(sq: usize) -> String {
        format!("{}{}", (b'a' + (sq % 8) as u8) as char, sq / 8 + 1)
    }

    /// Reads a square like `c3` at the start of `s`; returns the square and the bytes used.
    fn read_square(s: &[u8]) -> Option<(usize, usize)> {
        let file = *s.first()?;
        if !(b'a'..=b'h').contains(&file) {
            return None;
        }
        let rank = *s.get(1)?;
        if !(b'1'..=b'8').contains(&rank) {
            return None;
        }
        Some(((rank - b'1') as usize * 8 + (file - b'a') as usize, 2))
    }

    fn piece_at(&self, sq: usize) -> Option<char> {
        if self.knights[0] & (1 << sq) != 0 {
            Some('N')
        } else if self.knights[1] & (1 << sq) != 0 {
            Some('n')
        } else {
            None
        }
    }

    /// Player 0's evaluation score: material, summed row advancement (from each side's own home
    /// rank), the furthest-advanced knight, and knights already within one leap of the goal
    /// (ranks 6-7 for player 0, 3-2 for player 1).
    #[inline]
    fn score(&self) -> f32 {
        let [w, b] = self.knights;
        let (nw, nb) = (w.count_ones() as i32, b.count_ones() as i32);
        let material = nw - nb;
        // Summed row indices by bit-sliced row masks (rows with bit 0, 1, 2 of the index set).
        const ROW_BITS: [u64; 3] = [
            0xFF00_FF00_FF00_FF00,
            0xFFFF_0000_FFFF_0000,
            0xFFFF_FFFF_0000_0000,
        ];
        let rows = |x: u64| {
            (x & ROW_BITS[0]).count_ones() as i32
                + 2 * (x & ROW_BITS[1]).count_ones() as i32
                + 4 * (x & ROW_BITS[2]).count_ones() as i32
        };
        let adv = rows(w) - (7 * nb - rows(b));
        let far_w = if w == 0 {
            0
        } else {
            (63 - w.leading_zeros() as i32) / 8
        };
        let far_b = if b == 0 {
            0
        } else {
            7 - b.trailing_zeros() as i32 / 8
        };
        let near_w = RANK_1 << 40 | RANK_1 << 48;
        let near_b = RANK_1 << 8 | RANK_1 << 16;
        let near = (w & near_w).count_ones() as i32 - (b & near_b).count_ones() as i32;
        material as f32 + 0.1 * adv as f32 + 0.3 * (far_w - far_b) as f32 + 0.3 * near as f32
    }
}

/// No network encoding yet.
impl crate::game::Features for Knightthrough {}

impl Rules for Knightthrough {
    const INFO: GameInfo = GameInfo {
        name: "knightthrough",
        aliases: &["knightthrough8x8"],
        board: "8x8",
        notation: "from-to squares, rank 1 at the first player's side: b1c3, g2h4",
        start: "nnnnnnnn/nnnnnnnn/8/8/8/8/NNNNNNNN/NNNNNNNN w",
    };

    fn start() -> Self {
        let home = 0xFFFF;
        let mut game = Knightthrough {
            knights: [home, home << 48],
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
        for (mut targets, step) in self.targets() {
            while targets != 0 {
                let to = targets.trailing_zeros() as i32;
                targets &= targets - 1;
                out.push(pack((to - step) as usize, to as usize));
            }
        }
    }

    #[inline]
    fn count_moves(&self) -> usize {
        if self.goal_winner().is_some() {
            return 0;
        }
        self.targets()
            .iter()
            .map(|t| t.0.count_ones() as usize)
            .sum()
    }

    #[inline]
    fn play(&mut self, m: Move) {
        let (from, to) = unpack(m);
        let me = self.to_move as usize;
        let them = 1 - me;
        self.knights[me] ^= (1 << from) | (1 << to);
        self.hash ^= ZOBRIST_KNIGHT[me][from] ^ ZOBRIST_KNIGHT[me][to];
        if self.knights[them] & (1 << to) != 0 {
            self.knights[them] ^= 1 << to;
            self.hash ^= ZOBRIST_KNIGHT[them][to];
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
        for (side, keys) in ZOBRIST_KNIGHT.iter().enumerate() {
            let mut bb = self.knights[side];
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

    /// Accepts `b1c3`, and `b1-c3` / `b1xc3` / `Nb1c3` as written by some tools.
    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        let t = text.trim();
        let s = t.strip_prefix(['N', 'n']).unwrap_or(t).as_bytes();
        let syntax = || GameError::syntax(text, "expected from-to squares such as b1c3");
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
        let rows = (0..8)
            .rev()
            .map(|row| (0..8).map(move |col| self.piece_at(row * 8 + col)));
        format!(
            "{} {}",
            fen::board_field(rows),
            if self.to_move == 0 { 'w' } else { 'b' }
        )
    }

    /// Reads `<rows top to bottom> <w|b>`; further fields (counters, `-`) are ignored.
    fn parse_position(text: &str) -> Result<Self, GameError> {
        let (rows, mut fields) = fen::board_rows(text, 8)?;
        let mut knights = [0u64; 2];
        for (i, row) in rows.iter().enumerate() {
            let rank = 7 - i;
            let mut col = 0usize;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    col += d as usize;
                    continue;
                }
                let side = match c {
                    'N' => 0,
                    'n' => 1,
                    _ => {
                        return Err(GameError::position(
                            "board",
                            format!(
                                "unknown piece '{c}' on rank {} (use N, n or digits)",
                                rank + 1
                            ),
                        ))
                    }
                };
                if col >= 8 {
                    return Err(GameError::position(
                        "board",
                        format!("rank {} has more than 8 squares", rank + 1),
                    ));
                }
                knights[side] |= 1 << (rank * 8 + col);
                col += 1;
            }
            if col != 8 {
                return Err(GameError::position(
                    "board",
                    format!("rank {} has {col} squares, expected 8", rank + 1),
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
        if knights[1 - to_move as usize] == 0 {
            // The side that just moved has nothing left: the game ended with the capture of its
            // last piece, before that move. Searching it would report a win that never was.
            return Err(GameError::position(
                "board",
                format!(
                    "the side that just moved ({}) has no knights: the game was over before its move",
                    if to_move == 0 { "black" } else { "white" }
                ),
            ));
        }
        if knights[0] & RANK_8 != 0 && knights[1] & RANK_1 != 0 {
            return Err(GameError::position(
                "board",
                "both sides stand on their goal ranks",
            ));
        }
        let mut game = Knightthrough {
            knights,
            to_move,
            hash: 0,
        };
        game.hash = game.compute_hash();
        Ok(game)
    }

    fn diagram(&self) -> String {
        let mut out = String::new();
        for row in (0..8).rev() {
            out += &format!("{} ", row + 1);
            for col in 0..8 {
                out.push(self.piece_at(row * 8 + col).unwrap_or('.'));
                out.push(' ');
            }
            out.push('\n');
        }
        out += "  a b c d e f g h";
        out
    }

    /// Picks the k-th move over the four target masks without building the list.
    #[inline]
    fn random_move(&self, rng: &mut Rng, _buf: &mut MoveList) -> Option<Move> {
        if self.goal_winner().is_some() {
            return None;
        }
        let targets = self.targets();
        let counts = targets.map(|t| t.0.count_ones());
        let total: u32 = counts.iter().sum();
        if total == 0 {
            return None;
        }
        let mut k = rng.below(total);
        for (i, &(mut t, step)) in targets.iter().enumerate() {
            if k < counts[i] {
                for _ in 0..k {
                    t &= t - 1;
                }
                let to = t.trailing_zeros() as i32;
                return Some(pack((to - step) as usize, to as usize));
            }
            k -= counts[i];
        }
        None
    }
}

impl Heuristics for Knightthrough {
    /// A leap onto the goal rank, read off the target masks; otherwise only leaving the opponent
    /// without a move wins, and one move takes at most the four leaps of a captured knight (a
    /// knight is never blocked by an enemy piece), so the slow test runs only below five.
    fn winning_move(&self, buf: &mut MoveList) -> Option<Move> {
        if self.goal_winner().is_some() {
            return None;
        }
        let goal = if self.to_move == 0 { RANK_8 } else { RANK_1 };
        for (targets, step) in self.targets() {
            let hit = targets & goal;
            if hit != 0 {
                let to = hit.trailing_zeros() as i32;
                return Some(pack((to - step) as usize, to as usize));
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

    /// Material and advancement (see `score`), through tanh into (-1, 1).
    #[inline]
    fn evaluate(&self, player: Player) -> f32 {
        let v = (self.score() / 6.0).tanh();
        crate::game::zero_sum(v, player)
    }

    #[inline]
    fn is_capture(&self, m: Move) -> bool {
        let (_, to) = unpack(m);
        self.knights[1 - self.to_move as usize] & (1 << to) != 0
    }
}

impl Dialects for Knightthrough {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::check::random_games;
    use crate::game::perft::perft;
    use crate::game::Dialect;

    type Kt = Knightthrough;

    fn moves_of(g: &Kt) -> Vec<String> {
        let mut list = MoveList::new();
        g.legal_moves(&mut list);
        let mut v: Vec<String> = list.iter().map(|&m| g.format_move(m)).collect();
        v.sort();
        v
    }

    #[test]
    fn start_position_string_and_moves() {
        let g = Kt::start();
        assert_eq!(g.to_position(), Kt::INFO.start);
        assert_eq!(Kt::parse_position(Kt::INFO.start), Ok(Kt::start()));
        assert_eq!(g.count_moves(), 40);
        assert_eq!(moves_of(&g).len(), 40);
    }

    #[test]
    fn random_games_keep_invariants() {
        let stats = random_games(&Kt::start(), 3000, 1);
        assert_eq!(stats.draws, 0, "Knightthrough has no draws");
    }

    #[test]
    fn a_knight_has_four_forward_leaps_only() {
        let g = Kt::parse_position("8/8/8/8/3N4/8/7n/8 w").unwrap();
        assert_eq!(moves_of(&g), ["d4b5", "d4c6", "d4e6", "d4f5"]);
        let g = Kt::parse_position("8/N7/8/8/3n4/8/8/8 b").unwrap();
        assert_eq!(moves_of(&g), ["d4b3", "d4c2", "d4e2", "d4f3"]);
    }

    #[test]
    fn leaps_do_not_wrap_around_the_edges() {
        let g = Kt::parse_position("8/8/8/8/N6N/8/7n/8 w").unwrap();
        assert_eq!(moves_of(&g), ["a4b6", "a4c5", "h4f5", "h4g6"]);
        let g = Kt::parse_position("8/7N/8/8/nn4nn/8/8/8 b").unwrap();
        assert_eq!(
            moves_of(&g),
            ["a4b2", "a4c3", "b4a2", "b4c2", "b4d3", "g4e3", "g4f2", "g4h2", "h4f3", "h4g2"]
        );
    }

    #[test]
    fn captures_onto_enemies_not_own_knights() {
        let mut g = Kt::parse_position("7n/8/2N1n3/8/3N4/8/8/8 w").unwrap();
        // d4: b5, c6 (own, blocked), e6 (capture), f5.
        assert_eq!(
            moves_of(&g),
            ["c6a7", "c6b8", "c6d8", "c6e7", "d4b5", "d4e6", "d4f5"]
        );
        g.play_text("d4xe6").unwrap();
        assert_eq!(g.to_position(), "7n/8/2N1N3/8/8/8/8/8 b");
        assert_eq!(g.hash(), g.compute_hash());
    }

    #[test]
    fn reaching_the_far_rank_wins() {
        let mut g = Kt::parse_position("8/8/1N6/8/8/8/6n1/8 w").unwrap();
        assert_eq!(g.outcome(), None);
        g.play_text("b6c8").unwrap();
        assert_eq!(g.outcome(), Some(Outcome::win(Player(0), 2)));
        assert_eq!(g.count_moves(), 0);
        let mut g = Kt::parse_position("8/8/1N6/8/8/8/6n1/8 b").unwrap();
        g.play_text("g2e1").unwrap();
        assert_eq!(g.outcome(), Some(Outcome::win(Player(1), 2)));
        // A position string with a knight already home is a finished game.
        let g = Kt::parse_position("2N5/8/8/8/8/8/6n1/8 b").unwrap();
        assert_eq!(g.outcome(), Some(Outcome::win(Player(0), 2)));
        assert_eq!(g.count_moves(), 0);
    }

    #[test]
    fn losing_every_knight_loses() {
        // The frontmost knight of a side always has a leap, so only a side without knights
        // is without a move.
        let mut g = Kt::parse_position("8/8/8/8/1n6/8/N7/8 w").unwrap();
        g.play_text("a2b4").unwrap();
        assert_eq!(g.outcome(), Some(Outcome::loss(Player(1), 2)));
        assert_eq!(g.count_moves(), 0);
    }

    #[test]
    fn perft_small_depths_from_start() {
        assert_eq!(perft(&Kt::start(), 3), 63520);
    }

    #[test]
    fn fairy_stockfish_fens_parse_in_every_dialect() {
        for text in [
            "nnnnnnnn/nnnnnnnn/8/8/8/8/NNNNNNNN/NNNNNNNN w - - 0 1",
            "nnnnnnnn/nnnnnnnn/8/8/8/8/NNNNNNNN/NNNNNNNN w 0 1",
        ] {
            for d in [Dialect::Native, Dialect::Usi, Dialect::Gtp] {
                assert_eq!(Kt::parse_position_in(text, d), Ok(Kt::start()), "{text}");
            }
        }
    }

    #[test]
    fn bad_positions_name_the_field() {
        for (text, field) in [
            ("", "board"),
            ("8/8/8 w", "board"),
            ("8/8/8/8/8/8/8/9 w", "board"),
            ("8/8/8/8/8/8/8/NNNNNNNNN w", "board"),
            ("8/8/8/8/8/8/8/7P w", "board"),
            ("8/8/8/8/8/8/8/8 x", "side to move"),
            ("N7/8/8/8/8/8/8/n7 w", "board"),
            ("ü/8/8/8/8/8/8/8 w", "board"),
            ("8/8/8/8/8/8/8/8/8 w", "board"),
        ] {
            match Kt::parse_position(text) {
                Err(GameError::Position { field: f, .. }) => assert_eq!(f, field, "{text}"),
                other => panic!("{text}: expected a position error, got {other:?}"),
            }
        }
    }

    #[test]
    fn bad_moves_are_typed_errors() {
        let g = Kt::start();
        for text in [
            "",
            "b1",
            "b1c9",
            "i1j3",
            "b1c3c4",
            "ü",
            "b99999999999999999c3",
            "pass",
        ] {
            assert!(
                matches!(g.parse_move(text), Err(GameError::MoveSyntax { .. })),
                "{text}"
            );
        }
        for text in ["b1b3", "b1d2", "a1c2", "b8c6", "c3b1", "b2a3"] {
            assert!(
                matches!(g.parse_move(text), Err(GameError::IllegalMove { .. })),
                "{text}"
            );
        }
        assert!(g.parse_move("b1c3").is_ok() && g.parse_move("Nb1-c3").is_ok());
    }

    #[test]
    fn evaluation_invariants_hold() {
        crate::game::check::evaluation_invariants(&Kt::start(), 100, 21);
        assert_eq!(Kt::start().evaluate(Player(0)), 0.0);
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        use crate::game::check::{assert_mirrored_evaluation, flip_fen};
        for pos in [
            "nnnnnnnn/nnnn1nnn/8/8/8/2N5/NNNNNNNN/NN1NNNNN b",
            "8/8/2N5/8/n7/8/8/8 w",
        ] {
            assert_mirrored_evaluation::<Kt>(pos, &flip_fen(pos, ("w", "b")));
        }
    }

    #[test]
    fn material_and_advancement_evaluate_higher() {
        use crate::game::check::evaluation_of;
        let up = evaluation_of::<Kt>("nnnnnnnn/nnnnnnn1/8/8/8/8/NNNNNNNN/NNNNNNNN w", Player(0));
        assert!(up > 0.05, "{up}");
        let home = evaluation_of::<Kt>("8/n7/8/8/8/8/7N/8 w", Player(0));
        let near = evaluation_of::<Kt>("8/n7/7N/8/8/8/8/8 w", Player(0));
        assert!(near > home, "{near} <= {home}");
        assert!(evaluation_of::<Kt>("8/n7/7N/8/8/8/8/8 w", Player(1)) < 0.0);
    }

    #[test]
    fn captures_are_flagged() {
        let g = Kt::parse_position("8/8/8/8/8/2n5/8/1N6 w").unwrap();
        let mut list = MoveList::new();
        g.legal_moves(&mut list);
        let caps: Vec<String> = list
            .iter()
            .filter(|&&m| g.is_capture(m))
            .map(|&m| g.format_move(m))
            .collect();
        assert_eq!(caps, ["b1c3"]);
    }

    /// The bit tricks of `score` against a square-by-square count.
    #[test]
    fn score_matches_a_square_by_square_count() {
        let reference = |g: &Kt| {
            let (mut material, mut adv, mut far_w, mut far_b, mut near) = (0, 0, 0, 0, 0);
            for sq in 0..64 {
                let row = sq / 8;
                if g.knights[0] & (1 << sq) != 0 {
                    material += 1;
                    adv += row;
                    far_w = far_w.max(row);
                    near += (row == 5 || row == 6) as i32;
                }
                if g.knights[1] & (1 << sq) != 0 {
                    material -= 1;
                    adv -= 7 - row;
                    far_b = far_b.max(7 - row);
                    near -= (row == 1 || row == 2) as i32;
                }
            }
            material as f32 + 0.1 * adv as f32 + 0.3 * (far_w - far_b) as f32 + 0.3 * near as f32
        };
        let mut rng = Rng::new(22);
        let mut list = MoveList::new();
        for _ in 0..30 {
            let mut g = Kt::start();
            loop {
                assert_eq!(g.score(), reference(&g), "{}", g.to_position());
                match g.random_move(&mut rng, &mut list) {
                    Some(m) => g.play(m),
                    None => break,
                }
            }
        }
    }
}
