//! Reach Chess (Ludii): chess moves on 8x8; the mover wins when the piece it moved lands on the enemy back rank.
//!
//! Castling, double step and en passant are chess's, and moves leaving one's own king attacked are
//! illegal. A piece reaching the opponent's back rank (rank 8 for white, rank 1 for black) wins
//! at once, so there is no promotion choice: a pawn move to the last rank is a plain winning move.
//! Checkmate and stalemate do not end the game: the player without a move passes (`pass`), and a
//! king left in check by a pass may then be captured (Ludii captures kings like any piece; a side
//! without a king plays on without check rules). When neither side has a move the game is drawn.
//! As only the piece just moved can stand on the enemy back rank in a live game, "the side that
//! just moved has a piece there" is the win test, and positions need no extra state.

use super::{Board, Counter, Variant, PASS};
use crate::game::{
    Dialects, GameError, GameInfo, Heuristics, Move, MoveList, Outcome, Player, Rules,
};

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ReachRules;

impl Variant for ReachRules {
    const FILES: usize = 8;
    const RANKS: usize = 8;
    const CHECK_RULES: bool = true;
    const DOUBLE_STEP: bool = true;
    const CASTLING: bool = true;
    const PROMOTIONS: &'static [usize] = &[];
    const PIECES: &'static str = "PNBRQK";
    const ZOBRIST: u64 = 0x2EAC;
}

/// The enemy back rank of each color: its goal.
const GOAL: [u64; 2] = [0xFF << 56, 0xFF];

/// A Reach Chess position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ReachChess {
    board: Board<ReachRules>,
}

impl ReachChess {
    /// The side that just moved stands on its goal rank: it has won.
    #[inline]
    fn goal_reached(&self) -> bool {
        let mover = self.board.side() ^ 1;
        self.board.color(mover) & GOAL[mover] != 0
    }

    /// Whether the side not to move would have a move on this board (asked only when the side
    /// to move has none, to tell a forced pass from the end of the game).
    fn other_side_can_move(&self) -> bool {
        let mut other = self.board.clone();
        other.clear_ep();
        other.switch_side();
        let mut c = Counter(0);
        other.generate(&mut c);
        c.0 > 0
    }

    /// The number of legal moves, the forced pass included.
    #[inline]
    fn count(&self) -> usize {
        if self.goal_reached() {
            return 0;
        }
        let mut c = Counter(0);
        self.board.generate(&mut c);
        if c.0 == 0 && self.other_side_can_move() {
            1
        } else {
            c.0
        }
    }

    /// Chess move generation alone (no pass, no goal), for the chess perft tests.
    #[cfg(test)]
    fn chess_perft(&self, depth: u32) -> u64 {
        let mut list = MoveList::new();
        self.board.generate(&mut list);
        if depth <= 1 {
            return if depth == 0 { 1 } else { list.len() as u64 };
        }
        list.iter()
            .map(|&m| {
                let mut c = self.clone();
                c.board.make(m);
                c.chess_perft(depth - 1)
            })
            .sum()
    }
}

/// No network encoding yet.
impl crate::game::Features for ReachChess {}

impl Rules for ReachChess {
    const INFO: GameInfo = GameInfo {
        name: "reachchess",
        aliases: &["reach-chess"],
        board: "8x8",
        notation: "UCI long algebraic: e2e4, castling e1g1, a pawn reaching the last rank e7e8 (a letter is ignored), pass",
        start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
    };
    const HAS_CHECKS: bool = true;

    fn start() -> Self {
        ReachChess {
            board: Board::from_rows("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
        }
    }

    #[inline]
    fn to_move(&self) -> Player {
        Player(self.board.side() as u8)
    }

    #[inline]
    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.goal_reached() {
            return;
        }
        self.board.generate(out);
        if out.is_empty() && self.other_side_can_move() {
            out.push(PASS);
        }
    }

    #[inline]
    fn count_moves(&self) -> usize {
        self.count()
    }

    #[inline]
    fn play(&mut self, m: Move) {
        if m == PASS {
            self.board.clear_ep();
            self.board.switch_side();
        } else {
            self.board.make(m);
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.goal_reached() {
            return Some(Outcome::win(Player(self.board.side() as u8 ^ 1), 2));
        }
        (self.count() == 0).then(|| Outcome::draw(2))
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.board.hash()
    }

    fn compute_hash(&self) -> u64 {
        self.board.compute_hash()
    }

    fn format_move(&self, m: Move) -> String {
        Board::<ReachRules>::format_move(m)
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        let mut legal = MoveList::new();
        self.legal_moves(&mut legal);
        self.board.parse_move(text, &legal)
    }

    fn to_position(&self) -> String {
        format!(
            "{} {} {} {}",
            self.board.board_field(),
            if self.board.side() == 0 { 'w' } else { 'b' },
            self.board.castling_field(),
            self.board.ep_field()
        )
    }

    /// Kings are optional (they can be captured after a pass); the side to move may not stand
    /// on its goal rank (it would have won a move ago), nor pawns on their own first rank.
    fn parse_position(text: &str) -> Result<Self, GameError> {
        let (board, _) = Board::<ReachRules>::parse_fields(text)?;
        let us = board.side();
        if board.color(us) & GOAL[us] != 0 {
            return Err(GameError::position(
                "board",
                "the side to move already stands on the enemy back rank",
            ));
        }
        for c in 0..2 {
            if board.pieces(c, super::PAWN) & GOAL[c ^ 1] != 0 {
                return Err(GameError::position("board", "a pawn on its own first rank"));
            }
        }
        Ok(ReachChess { board })
    }

    fn diagram(&self) -> String {
        self.board.diagram()
    }

    fn in_check(&self) -> bool {
        self.board.in_check()
    }
}

impl Heuristics for ReachChess {
    const HAS_EVALUATION: bool = true;

    /// Material (chess values; the king 3, as it can reach the goal and its loss only removes
    /// the check rules) plus the race to the enemy back rank, which decides the game: every
    /// piece's rank advancement and, worth more, pieces on the two ranks before the goal.
    #[inline]
    fn evaluate(&self, player: Player) -> f32 {
        const VALUES: [i32; 6] = [1, 3, 3, 5, 9, 3];
        // Ranks 6-7 for white, 3-2 for black.
        const NEAR: [u64; 2] = [0xFFFF << 40, 0xFFFF << 8];
        let b = &self.board;
        let near =
            (b.color(0) & NEAR[0]).count_ones() as i32 - (b.color(1) & NEAR[1]).count_ones() as i32;
        let score = b.material(&VALUES) as f32
            + 0.1 * b.advancement(!0) as f32
            + 0.8 * near as f32
            + 0.05 * b.centralisation();
        let v = (score / 10.0).tanh();
        crate::game::zero_sum(v, player)
    }

    #[inline]
    fn is_capture(&self, m: Move) -> bool {
        self.board.is_capture(m)
    }

    #[inline]
    fn is_noisy(&self, m: Move) -> bool {
        self.board.is_noisy(m)
    }
}

impl Dialects for ReachChess {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::perft::perft;

    fn pos(s: &str) -> ReachChess {
        ReachChess::parse_position(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn moves(p: &ReachChess) -> Vec<String> {
        let mut l = MoveList::new();
        p.legal_moves(&mut l);
        let mut v: Vec<String> = l.iter().map(|&m| p.format_move(m)).collect();
        v.sort();
        v
    }

    /// Chess perft from the start, with chess's own rules: plain legal moves, no pass.
    #[test]
    fn chess_perft_from_the_start() {
        let p = ReachChess::start();
        assert_eq!(p.chess_perft(1), 20);
        assert_eq!(p.chess_perft(2), 400);
        assert_eq!(p.chess_perft(3), 8902);
        assert_eq!(p.chess_perft(4), 197281);
    }

    /// The game's perft equals chess's to depth 4: no piece can reach the far rank within two
    /// moves of a side, and no checkmate happens before ply 4. (Depth 5 differs: the 8 mates at
    /// ply 4 each have one forced pass in Reach Chess, 4865609 + 8; see tests/data.)
    #[test]
    fn game_perft_equals_chess_to_depth_4() {
        let p = ReachChess::start();
        assert_eq!(perft(&p, 3), 8902);
        assert_eq!(perft(&p, 4), 197281);
    }

    /// "Kiwipete" (chessprogramming.org): castling both ways, en passant, pins; chess perft
    /// 48, 2039, 97862. No piece is on a goal rank and none reaches one at depth 1; at depth 2
    /// the numbers still count plain chess moves (we compare chess_perft).
    #[test]
    fn kiwipete_chess_counts() {
        let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -");
        assert_eq!(p.chess_perft(1), 48);
        assert_eq!(p.chess_perft(2), 2039);
        assert_eq!(p.chess_perft(3), 97862);
    }

    /// Position 3 of chessprogramming.org (en passant with a rank pin): 14, 191, 2812, 43238.
    #[test]
    fn en_passant_pin_counts() {
        let p = pos("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -");
        assert_eq!(p.chess_perft(1), 14);
        assert_eq!(p.chess_perft(2), 191);
        assert_eq!(p.chess_perft(3), 2812);
        assert_eq!(p.chess_perft(4), 43238);
    }

    #[test]
    fn reaching_the_back_rank_wins_without_promotion() {
        // White pawn e7, kings a1 / h6 (h6 so that e8 is free): e7e8 is one move, and it wins.
        let mut p = pos("8/4P3/7k/8/8/8/8/K7 w - -");
        let m = moves(&p);
        assert!(m.contains(&"e7e8".to_string()), "{m:?}");
        assert!(!m.iter().any(|s| s.len() == 5));
        assert_eq!(p.parse_move("e7e8q"), p.parse_move("e7e8"));
        p.play_text("e7e8").unwrap();
        assert_eq!(p.outcome(), Some(Outcome::win(Player(0), 2)));
        assert_eq!(p.count_moves(), 0);
        // A king walking onto rank 1 wins for black too.
        let mut p = pos("8/8/8/8/8/8/k7/7K b - -");
        p.play_text("a2b1").unwrap();
        assert_eq!(p.outcome(), Some(Outcome::win(Player(1), 2)));
    }

    #[test]
    fn checkmate_is_a_forced_pass_and_the_king_can_then_be_taken() {
        // Fool's mate: white is mated but the game goes on; white passes.
        let mut p = ReachChess::start();
        for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            p.play_text(m).unwrap();
        }
        assert!(p.in_check());
        assert_eq!(p.outcome(), None);
        assert_eq!(moves(&p), ["pass"]);
        assert_eq!(p.parse_move("0000"), Ok(PASS));
        p.play_text("pass").unwrap();
        // Black may capture the king: h4e1 lands on rank 1 and wins at once anyway.
        assert!(moves(&p).contains(&"h4e1".to_string()));
        p.play_text("h4e1").unwrap();
        assert_eq!(p.outcome(), Some(Outcome::win(Player(1), 2)));
    }

    #[test]
    fn neither_side_moving_draws() {
        // No kings (they can be taken after a pass) and two pawns blocking each other.
        let p = pos("8/8/8/8/3p4/3P4/8/8 w - -");
        assert!(moves(&p).is_empty());
        assert_eq!(p.outcome(), Some(Outcome::draw(2)));
        // Only white blocked, black can still move: white passes.
        let p = pos("7k/8/8/8/3p4/3P4/8/8 w - -");
        assert_eq!(moves(&p), ["pass"]);
        assert_eq!(p.outcome(), None);
    }

    /// Hand counts. En passant: white e5, black d5 just double-stepped: e5e6, e5d6 and the king
    /// e1's d1 d2 e2 f2 f1 = 7. With the white king a5 and a black rook h5 on that rank, e5xd6
    /// would expose the king: e5e6 plus king a4 a6 b4 b5 b6 = 6. Check: a black rook e8 makes
    /// e2 illegal for a lone king e1: d1 d2 f1 f2 = 4 (Skirmish allows e2: 5).
    #[test]
    fn hand_counted_positions() {
        let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6");
        assert_eq!(p.count_moves(), 7);
        assert!(moves(&p).contains(&"e5d6".to_string()));
        let p = pos("8/8/8/K2pP2r/8/7k/8/8 w - d6");
        assert_eq!(p.count_moves(), 6);
        assert!(!moves(&p).contains(&"e5d6".to_string()));
        let p = pos("4r2k/8/8/8/8/8/8/4K3 w - -");
        assert_eq!(moves(&p), ["e1d1", "e1d2", "e1f1", "e1f2"]);
    }

    #[test]
    fn castling_rules() {
        // Both castlings legal; then with a rook attacking f1 king-side castling is gone.
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq -");
        let m = moves(&p);
        assert!(m.contains(&"e1g1".to_string()) && m.contains(&"e1c1".to_string()));
        // 26 moves: rooks a1 (b1 c1 d1 + a2..a8 = 10), h1 (g1 f1 + h2..h8 = 9), king d1 d2 e2
        // f2 f1 (5), castling 2.
        assert_eq!(m.len(), 26);
        let p = pos("r3kr2/8/8/8/8/8/8/R3K2R w KQq -");
        let m = moves(&p);
        assert!(!m.contains(&"e1g1".to_string()) && m.contains(&"e1c1".to_string()));
        let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq -");
        p.play_text("e1g1").unwrap();
        assert_eq!(p.to_position(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq -");
        assert_eq!(p.hash(), p.compute_hash());
    }

    #[test]
    fn random_games_keep_invariants() {
        crate::game::check::random_games(&ReachChess::start(), 1000, 11);
    }

    #[test]
    fn bad_input() {
        let field = |s: &str| match ReachChess::parse_position(s) {
            Err(GameError::Position { field, .. }) => field,
            other => panic!("{s}: {other:?}"),
        };
        assert_eq!(field(""), "board");
        assert_eq!(field("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w"), "board");
        assert_eq!(
            field("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w"),
            "board"
        );
        assert_eq!(
            field("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w"),
            "board"
        );
        assert_eq!(
            field("rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w"),
            "board"
        );
        assert_eq!(
            field("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR ?"),
            "side to move"
        );
        assert_eq!(
            field("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx"),
            "castling"
        );
        assert_eq!(
            field("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w KQkq"),
            "castling"
        );
        assert_eq!(
            field("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3"),
            "en passant"
        );
        assert_eq!(
            field("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9"),
            "en passant"
        );
        assert_eq!(
            field("rnbqkbnR/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w"),
            "board"
        );
        assert_eq!(
            field("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNp b"),
            "board"
        );
        let p = ReachChess::start();
        for bad in ["", "e2", "e2e4e", "i2i4", "e2e9", "ｅ2e4", "-1-1"] {
            assert!(
                matches!(p.parse_move(bad), Err(GameError::MoveSyntax { .. })),
                "{bad}"
            );
        }
        for illegal in ["e2e5", "e1e2", "pass", "e1g1", "e7e5"] {
            assert!(
                matches!(p.parse_move(illegal), Err(GameError::IllegalMove { .. })),
                "{illegal}"
            );
        }
    }

    #[test]
    fn evaluation_invariants_hold() {
        crate::game::check::evaluation_invariants(&ReachChess::start(), 40, 92);
        assert_eq!(ReachChess::start().evaluate(Player(0)), 0.0);
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        use crate::game::check::{assert_mirrored_evaluation, flip_fen};
        for text in [
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b - -",
            "4k3/8/1P6/8/8/2n5/8/4K3 w - -",
        ] {
            assert_mirrored_evaluation::<ReachChess>(text, &flip_fen(text, ("w", "b")));
        }
    }

    #[test]
    fn material_and_the_race_evaluate_higher() {
        use crate::game::check::evaluation_of;
        let up = evaluation_of::<ReachChess>(
            "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Qq -",
            Player(0),
        );
        assert!(up > 0.3, "{up}");
        // Same material: a pawn two steps from the goal against one at home.
        let near = evaluation_of::<ReachChess>("4k3/p7/1P6/8/8/8/8/4K3 b - -", Player(0));
        assert!(near > 0.1, "{near}");
    }

    #[test]
    fn captures_are_flagged() {
        let p = pos("4k3/8/8/3p4/4P3/8/8/4K3 w - -");
        assert!(p.is_capture(p.parse_move("e4d5").unwrap()));
        assert!(!p.is_capture(p.parse_move("e4e5").unwrap()));
        let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6");
        assert!(p.is_capture(p.parse_move("e5d6").unwrap()), "en passant");
    }
}
