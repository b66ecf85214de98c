//! Los Alamos chess (6x6, no bishops, no castling, no double step), as Fairy-Stockfish `losalamos`.
//!
//! Checkmate wins; stalemate, the fifty-move rule (100 plies without a pawn move or capture),
//! insufficient material (kings with at most one knight between them) and threefold repetition
//! (through [`record::Record`](crate::game::record::Record)) draw. Promotion to Q, R or N.
//!
//! `losalamos-ludii` is the game as Ludii's `Los Alamos Chess.lud` defines it, the rules of the
//! GPN-MCTS paper's experiments: no repetition rule and no insufficient-material draw, so a
//! cycling or bare-kings game ends only by the fifty-move rule (experiments/reference.md).

use super::{Board, Counter, Variant, KING, KNIGHT, PAWN, QUEEN, ROOK};
use crate::game::record::Repetition;
use crate::game::{
    Dialects, GameError, GameInfo, Heuristics, Move, MoveList, Outcome, Player, Rules,
};

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LosAlamosRules;

impl Variant for LosAlamosRules {
    const FILES: usize = 6;
    const RANKS: usize = 6;
    const CHECK_RULES: bool = true;
    const DOUBLE_STEP: bool = false;
    const CASTLING: bool = false;
    const PROMOTIONS: &'static [usize] = &[QUEEN, ROOK, KNIGHT];
    const PIECES: &'static str = "PNRQK";
    const ZOBRIST: u64 = 0x1A05;
}

/// A Los Alamos position: the board plus the fifty-move counter (not hashed, so that
/// repetitions are found). `LUDII` selects Ludii's rules: no repetition rule, no
/// insufficient-material draw.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LosAlamosGame<const LUDII: bool> {
    board: Board<LosAlamosRules>,
    /// Plies since the last pawn move or capture.
    halfmove: u16,
}

/// Los Alamos chess as Fairy-Stockfish plays it.
pub type LosAlamos = LosAlamosGame<false>;
/// Los Alamos chess as Ludii defines it (the GPN-MCTS paper's rules).
pub type LosAlamosLudii = LosAlamosGame<true>;

impl<const LUDII: bool> LosAlamosGame<LUDII> {
    /// No mate is possible: only kings and at most one knight on the board (a draw at once,
    /// except under Ludii's rules, which play on to the fifty-move rule).
    fn insufficient_material(&self) -> bool {
        if LUDII {
            return false;
        }
        let b = &self.board;
        let heavy = b.kind(PAWN) | b.kind(ROOK) | b.kind(QUEEN);
        heavy == 0 && b.kind(KNIGHT).count_ones() <= 1
    }

    /// Drawn or decided by the fifty-move rule or material, before looking at moves.
    #[inline]
    fn ended_without_moves_check(&self) -> bool {
        self.halfmove >= 100 || self.insufficient_material()
    }
}

/// Network inputs, from the side to move (Black's board turned upside down, so both move up):
/// one feature per piece, `(side * 5 + kind) * 36 + square`, side 0 the mover's, kinds P N R Q
/// K, square `rank * 6 + file`. Policy: `from * 36 + to` (queen promotions included), then the
/// 36 rook and knight promotions, `1296 + (from file * 3 + direction) * 2 + (knight)`.
/// Symmetry: the left-right mirror (no castling, so the rules keep it). The fifty-move counter
/// is not an input.
impl crate::game::Features for LosAlamos {
    const INPUTS: usize = 2 * 5 * 36;
    const POLICY: usize = 36 * 36 + 36;
    const SYMMETRIES: usize = 2;
    /// The 24 pieces of the start (a set-up position with more is evaluated in f32).
    const MAX_ACTIVE: usize = 24;

    fn features(&self, out: &mut Vec<u16>) {
        out.clear();
        let b = &self.board;
        let mover = b.side();
        for (side, color) in [mover, 1 - mover].into_iter().enumerate() {
            for (k, kind) in [PAWN, KNIGHT, ROOK, QUEEN, KING].into_iter().enumerate() {
                let mut set = b.pieces(color, kind);
                while set != 0 {
                    let sq = set.trailing_zeros() as usize;
                    set &= set - 1;
                    out.push(((side * 5 + k) * 36 + relative(mover, sq)) as u16);
                }
            }
        }
    }

    fn policy_index(&self, m: Move) -> usize {
        let mover = self.board.side();
        let (from, to) = (super::move_from(m), super::move_to(m));
        let flag = super::move_flag(m) as usize;
        if flag == ROOK || flag == KNIGHT {
            let direction = to % 8 + 1 - from % 8;
            36 * 36 + (from % 8 * 3 + direction) * 2 + usize::from(flag == KNIGHT)
        } else {
            relative(mover, from) * 36 + relative(mover, to)
        }
    }

    fn map_feature(s: usize, f: u16) -> u16 {
        if s == 0 {
            return f;
        }
        let (base, sq) = (f / 36 * 36, f % 36);
        base + sq / 6 * 6 + 5 - sq % 6
    }

    fn map_policy(s: usize, p: usize) -> usize {
        let mirror = |sq: usize| sq / 6 * 6 + 5 - sq % 6;
        if s == 0 {
            p
        } else if p < 36 * 36 {
            mirror(p / 36) * 36 + mirror(p % 36)
        } else {
            let q = p - 36 * 36;
            let (file, direction) = (q / 2 / 3, q / 2 % 3);
            36 * 36 + ((5 - file) * 3 + 2 - direction) * 2 + q % 2
        }
    }
}

/// Square `sq` (of the 8x8 numbering) as `rank * 6 + file` seen by `player` (Black counts
/// ranks from its own side).
#[inline]
fn relative(player: usize, sq: usize) -> usize {
    let rank = if player == 0 { sq / 8 } else { 5 - sq / 8 };
    rank * 6 + sq % 8
}

const NOTATION: &str = "UCI long algebraic, rank 1 at the bottom: b2b3, promotion a5a6q (q, r, n)";
const START: &str = "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1";

impl<const LUDII: bool> Rules for LosAlamosGame<LUDII> {
    const INFO: GameInfo = if LUDII {
        GameInfo {
            name: "losalamos-ludii",
            aliases: &["los-alamos-ludii"],
            board: "6x6",
            notation: NOTATION,
            start: START,
        }
    } else {
        GameInfo {
            name: "losalamos",
            aliases: &["los-alamos"],
            board: "6x6",
            notation: NOTATION,
            start: START,
        }
    };
    const HAS_REPETITION_RULE: bool = !LUDII;
    const HAS_CHECKS: bool = true;

    fn start() -> Self {
        LosAlamosGame {
            board: Board::from_rows("rnqknr/pppppp/6/6/PPPPPP/RNQKNR"),
            halfmove: 0,
        }
    }

    #[inline]
    fn to_move(&self) -> Player {
        Player(self.board.side() as u8)
    }

    #[inline]
    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if !self.ended_without_moves_check() {
            self.board.generate(out);
        }
    }

    #[inline]
    fn count_moves(&self) -> usize {
        if self.ended_without_moves_check() {
            return 0;
        }
        let mut c = Counter(0);
        self.board.generate(&mut c);
        c.0
    }

    #[inline]
    fn play(&mut self, m: Move) {
        let effect = self.board.make(m);
        if effect.capture || effect.pawn {
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        let mut c = Counter(0);
        self.board.generate(&mut c);
        if c.0 == 0 {
            return Some(if self.board.in_check() {
                Outcome::win(self.to_move().next(2), 2)
            } else {
                Outcome::draw(2)
            });
        }
        self.ended_without_moves_check().then(|| Outcome::draw(2))
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.board.hash()
    }

    fn compute_hash(&self) -> u64 {
        self.board.compute_hash()
    }

    fn format_move(&self, m: Move) -> String {
        Board::<LosAlamosRules>::format_move(m)
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        let mut legal = MoveList::new();
        self.legal_moves(&mut legal);
        self.board.parse_move(text, &legal)
    }

    fn to_position(&self) -> String {
        format!(
            "{} {} - - {} 1",
            self.board.board_field(),
            if self.board.side() == 0 { 'w' } else { 'b' },
            self.halfmove
        )
    }

    fn parse_position(text: &str) -> Result<Self, GameError> {
        let (board, mut rest) = Board::<LosAlamosRules>::parse_fields(text)?;
        for c in 0..2 {
            if board.pieces(c, super::KING) == 0 {
                return Err(GameError::position("board", "each side needs a king"));
            }
        }
        let them = board.side() ^ 1;
        let their_king = board.king_square(them).unwrap_or(0);
        if board.attackers(their_king, board.side(), board.occupied()) != 0 {
            return Err(GameError::position(
                "board",
                "the side not to move is in check",
            ));
        }
        let halfmove = match rest.next() {
            None => 0,
            Some(h) => h.parse::<u16>().map_err(|_| {
                GameError::position("halfmove clock", format!("'{h}' is not a number"))
            })?,
        };
        Ok(LosAlamosGame { board, halfmove })
    }

    fn diagram(&self) -> String {
        format!(
            "{}   halfmove clock: {}",
            self.board.diagram(),
            self.halfmove
        )
    }

    fn in_check(&self) -> bool {
        self.board.in_check()
    }

    /// Pawn advances and captures only ever add to it: captured pieces weigh 64, pawns gone
    /// (captured or promoted) 8 (more than a pawn's 4 possible steps), pawn steps 1.
    fn progress(&self) -> u32 {
        let b = &self.board;
        let captured = 64 - b.occupied().count_ones();
        let pawns = b.kind(PAWN);
        let white_steps: u32 = super::bits(pawns & b.color(0))
            .map(|s| (s / 8) as u32 - 1)
            .sum();
        let black_steps: u32 = super::bits(pawns & b.color(1))
            .map(|s| 4 - (s / 8) as u32)
            .sum();
        captured * 64 + (64 - pawns.count_ones()) * 8 + white_steps + black_steps
    }

    /// Threefold repetition draws (Ludii's rules have no repetition rule).
    fn repetition_outcome(&self, rep: &Repetition) -> Option<Outcome> {
        (!LUDII && rep.count >= 3).then(|| Outcome::draw(2))
    }
}

impl<const LUDII: bool> Heuristics for LosAlamosGame<LUDII> {
    const HAS_EVALUATION: bool = true;

    /// Material (P 1, N 3, R 5, Q 9), a small centralisation term and pawn advancement, through
    /// tanh into (-1, 1).
    #[inline]
    fn evaluate(&self, player: Player) -> f32 {
        let b = &self.board;
        let score = b.material(&super::PIECE_VALUES) as f32
            + 0.1 * b.centralisation()
            + 0.05 * b.advancement(b.kind(super::PAWN)) as f32;
        let v = (score / 8.0).tanh();
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

impl<const LUDII: bool> Dialects for LosAlamosGame<LUDII> {}

/// Ludii's rules have no network of their own (the encoding's defaults: none).
impl crate::game::Features for LosAlamosLudii {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::perft::perft;

    fn pos(s: &str) -> LosAlamos {
        LosAlamos::parse_position(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn moves(p: &LosAlamos) -> Vec<String> {
        let mut l = MoveList::new();
        p.legal_moves(&mut l);
        let mut v: Vec<String> = l.iter().map(|&m| p.format_move(m)).collect();
        v.sort();
        v
    }

    #[test]
    fn network_encoding_follows_the_mover_and_the_mirror() {
        // Positions rebuilt from their text: colours swapped with the board turned upside down,
        // and the board mirrored (on 6 files every run of empty squares is one digit).
        let text = |p: &LosAlamos| -> (Vec<String>, Vec<String>) {
            let t = p.to_position();
            let mut parts = t.split(' ').map(str::to_string);
            let rows = parts
                .next()
                .unwrap()
                .split('/')
                .map(str::to_string)
                .collect();
            (rows, parts.collect())
        };
        let flip = |p: &LosAlamos| pos(&crate::game::check::flip_fen(&p.to_position(), ("w", "b")));
        let mirror = |p: &LosAlamos| {
            let (rows, rest) = text(p);
            let rows: Vec<String> = rows.iter().map(|r| r.chars().rev().collect()).collect();
            pos(&format!("{} {}", rows.join("/"), rest.join(" ")))
        };
        crate::game::features::check::check_encoding::<LosAlamos>(
            6,
            30,
            &[(0, &flip), (1, &mirror)],
        );
        // Promotions: one index per piece, the queen's that of the plain move.
        let p = pos("4k1/1P4/6/6/6/K5 w - - 0 1");
        use crate::game::Features;
        let index = |m: &str| p.policy_index(p.parse_move(m).unwrap());
        assert_eq!(index("b5b6q"), (4 * 6 + 1) * 36 + 5 * 6 + 1);
        assert_eq!(index("b5b6r"), 36 * 36 + (3 + 1) * 2);
        assert_eq!(index("b5b6n"), 36 * 36 + (3 + 1) * 2 + 1);
    }

    #[test]
    fn start_position_perft() {
        let p = LosAlamos::start();
        assert_eq!(p.to_position(), LosAlamos::INFO.start);
        assert_eq!(perft(&p, 1), 10);
        assert_eq!(perft(&p, 2), 100);
        assert_eq!(perft(&p, 3), 1212);
        assert_eq!(perft(&p, 4), 14332);
    }

    #[test]
    fn random_games_keep_invariants() {
        crate::game::check::random_games(&LosAlamos::start(), 1200, 7);
    }

    #[test]
    fn promotion_offers_queen_rook_knight() {
        // White pawn a5 with a6 empty; kings far apart: a5a6 q/r/n plus the king's moves.
        let p = pos("3k2/P5/6/6/6/3K2 w - - 0 1");
        let m = moves(&p);
        for promo in ["a5a6q", "a5a6r", "a5a6n"] {
            assert!(m.contains(&promo.to_string()), "{m:?}");
        }
        assert!(!m.iter().any(|s| s == "a5a6b" || s == "a5a6"));
        // 3 promotions + king d1 to c1 c2 d2 e1 e2.
        assert_eq!(m.len(), 8);
        assert!(matches!(
            p.parse_move("a5a6"),
            Err(GameError::IllegalMove { .. })
        ));
        assert!(p.parse_move("a5a6Q").is_ok());
    }

    #[test]
    fn no_double_step() {
        let p = LosAlamos::start();
        assert!(matches!(
            p.parse_move("a2a4"),
            Err(GameError::IllegalMove { .. })
        ));
        assert!(p.parse_move("a2a3").is_ok());
    }

    #[test]
    fn checkmate_and_stalemate() {
        // Back-rank mate: black king d6 boxed by its pawns, white rook delivers mate on a6.
        let mut p = pos("3k2/2ppp1/6/6/6/R2K2 w - - 0 1");
        p.play_text("a1a6").unwrap();
        assert!(p.in_check());
        assert_eq!(p.outcome(), Some(Outcome::win(Player(0), 2)));
        assert_eq!(p.count_moves(), 0);
        // Stalemate: black king a6, white queen b4, white king c5 -> a6 has no move, no check.
        let p = pos("k5/2K3/1Q4/6/6/6 b - - 0 1");
        assert!(!p.in_check());
        assert_eq!(p.count_moves(), 0);
        assert_eq!(p.outcome(), Some(Outcome::draw(2)));
    }

    #[test]
    fn fifty_moves_and_material_draw() {
        let p = pos("3k2/6/6/6/3P2/3K2 w - - 100 1");
        assert_eq!(p.outcome(), Some(Outcome::draw(2)));
        assert_eq!(p.count_moves(), 0);
        let p = pos("3k2/6/6/6/3N2/3K2 w - - 0 1");
        assert_eq!(p.outcome(), Some(Outcome::draw(2)));
        let p = pos("3k2/6/6/6/2NN2/3K2 w - - 0 1");
        assert_eq!(p.outcome(), None);
    }

    #[test]
    fn pins_and_evasions() {
        // White knight d2 pinned by the rook d6 on the king d1: it cannot move; the king steps.
        let p = pos("3r2/6/6/k5/3N2/3K2 w - - 0 1");
        let m = moves(&p);
        assert!(!m.iter().any(|s| s.starts_with("d2")), "{m:?}");
        // Check by the rook d6: the king leaves the d-file (d2 stays attacked).
        let p = pos("3r2/6/6/k5/6/3K2 w - - 0 1");
        assert_eq!(
            moves(&p),
            ["c1", "c2", "e1", "e2"].map(|s| format!("d1{s}"))
        );
        // Double check by the rook d6 and the knight e3: c2 (knight) and d2 (rook) are
        // attacked, nothing can block both: only the king moves, to c1, e1, e2.
        let p = pos("3r2/k5/6/4n1/6/3K2 w - - 0 1");
        assert_eq!(moves(&p), ["c1", "e1", "e2"].map(|s| format!("d1{s}")));
    }

    #[test]
    fn threefold_repetition_draws() {
        use crate::game::record::Record;
        let mut r = Record::new(LosAlamos::start(), 1000);
        for _ in 0..2 {
            for m in ["b1c3", "b6c4", "c3b1", "c4b6"] {
                let mv = r.position().parse_move(m).unwrap();
                r.play(mv);
            }
        }
        assert_eq!(r.outcome(), Some(Outcome::draw(2)));
    }

    /// Ludii's rules: the same moves, but repetition and bare kings do not end the game; the
    /// fifty-move rule, mate and stalemate do.
    #[test]
    fn ludii_rules_play_on_through_repetition_and_bare_kings() {
        use crate::game::record::Record;
        let start = LosAlamosLudii::start();
        assert_eq!(perft(&start, 4), 14332);
        assert_eq!(LosAlamosLudii::INFO.name, "losalamos-ludii");
        let mut r = Record::new(start, 1000);
        for _ in 0..5 {
            for m in ["b1c3", "b6c4", "c3b1", "c4b6"] {
                let mv = r.position().parse_move(m).unwrap();
                r.play(mv);
            }
        }
        assert_eq!(r.outcome(), None);
        let ludii = |s: &str| LosAlamosLudii::parse_position(s).unwrap();
        let bare = ludii("3k2/6/6/6/3N2/3K2 w - - 0 1");
        assert_eq!(bare.outcome(), None);
        assert!(bare.count_moves() > 0);
        assert_eq!(
            ludii("3k2/6/6/6/3N2/3K2 w - - 100 1").outcome(),
            Some(Outcome::draw(2))
        );
        // Mate (the rook a6 and the king d4 against the king d6) is the same in both.
        let mate = "R2k2/6/3K2/6/6/6 b - - 0 1";
        assert_eq!(ludii(mate).outcome(), Some(Outcome::win(Player(0), 2)));
        assert_eq!(pos(mate).outcome(), ludii(mate).outcome());
    }

    #[test]
    fn bad_input() {
        let field = |s: &str| match LosAlamos::parse_position(s) {
            Err(GameError::Position { field, .. }) => field,
            other => panic!("{s}: {other:?}"),
        };
        assert_eq!(field(""), "board");
        assert_eq!(field("rnqknr/pppppp/6/6/PPPPPP w"), "board");
        assert_eq!(field("rnqknr/pppppp/6/6/PPPPPP/RNQKNB w"), "board");
        assert_eq!(field("rnqknr/pppppp/7/6/PPPPPP/RNQKNR w"), "board");
        assert_eq!(field("rnqknr/pppppp/5/6/PPPPPP/RNQKNR w"), "board");
        assert_eq!(field("rnqknr/pppppp/99999/6/PPPPPP/RNQKNR w"), "board");
        assert_eq!(field("rnqknr/pppppp/6/6/PPPPPP/RNQKNR x"), "side to move");
        assert_eq!(field("rnqknr/pppppp/6/6/PPPPPP/RNQKNR"), "side to move");
        assert_eq!(field("rnqknr/pppppp/6/6/PPPPPP/RNQKNR w KQ"), "castling");
        assert_eq!(
            field("rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - a3"),
            "en passant"
        );
        assert_eq!(
            field("rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - x"),
            "halfmove clock"
        );
        assert_eq!(
            field("rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 99999999999999999999"),
            "halfmove clock"
        );
        assert_eq!(field("rnq1nr/pppppp/6/6/PPPPPP/RNQKNR w"), "board");
        assert_eq!(field("rnqkkr/pppppp/6/6/PPPPPP/RNQKNR w"), "board");
        assert_eq!(field("Pnqknr/pppppp/6/6/PPPPPP/RNQKNR w"), "board");
        assert_eq!(field("rnqknr/ppppéé/6/6/PPPPPP/RNQKNR w"), "board");
        // Black king attacked with white to move.
        assert_eq!(field("3k2/6/6/6/6/3R1K w"), "board");
        let p = LosAlamos::start();
        for bad in [
            "", "e2", "e2e4x", "z9a1", "a1a7", "é2é3", "a2a3k", "a2a3qq", "1234",
        ] {
            assert!(
                matches!(p.parse_move(bad), Err(GameError::MoveSyntax { .. })),
                "{bad}"
            );
        }
        for illegal in ["a2a4", "a1a2", "d1d2", "pass", "0000", "a3a4"] {
            assert!(
                matches!(p.parse_move(illegal), Err(GameError::IllegalMove { .. })),
                "{illegal}"
            );
        }
    }

    #[test]
    fn evaluation_invariants_hold() {
        crate::game::check::evaluation_invariants(&LosAlamos::start(), 40, 91);
        assert_eq!(LosAlamos::start().evaluate(Player(0)), 0.0);
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        use crate::game::check::{assert_mirrored_evaluation, flip_fen};
        for text in [
            "rnqk1r/ppp1pp/3p2/2N3/PPPPPP/R1QK1R b - - 0 4",
            "4k1/2P3/6/1n4/6/2KR2 w - - 0 40",
        ] {
            assert_mirrored_evaluation::<LosAlamos>(text, &flip_fen(text, ("w", "b")));
        }
    }

    #[test]
    fn material_evaluates_higher() {
        use crate::game::check::evaluation_of;
        // White is a rook up.
        let up = evaluation_of::<LosAlamos>("rnqkn1/pppppp/6/6/PPPPPP/RNQKNR b - - 0 1", Player(0));
        assert!(up > 0.4, "{up}");
        // A centralised knight beats one on the rim.
        let centre = evaluation_of::<LosAlamos>("3k2/6/6/2N3/6/3K2 w - - 0 40", Player(0));
        let rim = evaluation_of::<LosAlamos>("3k2/6/6/6/6/N2K2 w - - 0 40", Player(0));
        assert!(centre > rim, "{centre} <= {rim}");
    }

    #[test]
    fn captures_are_flagged() {
        let p = pos("3k2/6/2p3/6/1N4/3K2 w - - 0 40");
        assert!(p.is_capture(p.parse_move("b2c4").unwrap()));
        assert!(!p.is_capture(p.parse_move("b2a4").unwrap()));
    }
}
