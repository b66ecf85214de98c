//! Skirmish (Ludii "Skirmish (GDL)"): chess pieces and moves without check rules; after 100 moves, more pieces wins.
//!
//! Kings are ordinary pieces: moving into check is legal and kings are captured. Castling needs
//! only an unmoved king and rook with empty squares between (attacks are ignored); double step,
//! en passant and promotion (Q, R, B, N) are chess's. The game ends after a move when the player
//! to move has no move, or when 100 moves were made since the set-up, where a promotion counts
//! twice (Ludii makes the piece choice a move of its own); then more pieces on the board wins,
//! equal is a draw.

use super::{Board, Counter, Variant, BISHOP, KNIGHT, QUEEN, ROOK};
use crate::game::zobrist;
use crate::game::{
    Dialects, GameError, GameInfo, Heuristics, Move, MoveList, Outcome, Player, Rules,
};

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SkirmishRules;

impl Variant for SkirmishRules {
    const FILES: usize = 8;
    const RANKS: usize = 8;
    const CHECK_RULES: bool = false;
    const DOUBLE_STEP: bool = true;
    const CASTLING: bool = true;
    const PROMOTIONS: &'static [usize] = &[QUEEN, ROOK, BISHOP, KNIGHT];
    const PIECES: &'static str = "PNBRQK";
    const ZOBRIST: u64 = 0x5C12;
}

/// Moves (Ludii's, promotion choices included) after which the game ends.
const MOVE_LIMIT: u16 = 100;

/// One key per move count, so that positions differing only in the count hash apart.
const COUNT_KEYS: [u64; 128] = zobrist::keys(0x5C13);

/// A Skirmish position: the board and the number of moves since the set-up.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Skirmish {
    board: Board<SkirmishRules>,
    moves_made: u16,
}

impl Skirmish {
    fn score(&self) -> i32 {
        self.board.color(0).count_ones() as i32 - self.board.color(1).count_ones() as i32
    }
}

/// No network encoding yet.
impl crate::game::Features for Skirmish {}

impl Rules for Skirmish {
    const INFO: GameInfo = GameInfo {
        name: "skirmish",
        aliases: &[],
        board: "8x8",
        notation: "UCI long algebraic: e2e4, castling e1g1, promotion e7e8q (q, r, b, n)",
        start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
    };

    fn start() -> Self {
        Skirmish {
            board: Board::from_rows("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
            moves_made: 0,
        }
    }

    #[inline]
    fn to_move(&self) -> Player {
        Player(self.board.side() as u8)
    }

    #[inline]
    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.moves_made < MOVE_LIMIT {
            self.board.generate(out);
        }
    }

    #[inline]
    fn count_moves(&self) -> usize {
        if self.moves_made >= MOVE_LIMIT {
            return 0;
        }
        let mut c = Counter(0);
        self.board.generate(&mut c);
        c.0
    }

    #[inline]
    fn play(&mut self, m: Move) {
        let effect = self.board.make(m);
        self.moves_made += 1 + u16::from(effect.promotion);
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.count_moves() == 0).then(|| Outcome::by_score(self.score()))
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.board.hash() ^ COUNT_KEYS[self.moves_made as usize & 127]
    }

    fn compute_hash(&self) -> u64 {
        self.board.compute_hash() ^ COUNT_KEYS[self.moves_made as usize & 127]
    }

    fn format_move(&self, m: Move) -> String {
        Board::<SkirmishRules>::format_move(m)
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        let mut legal = MoveList::new();
        self.legal_moves(&mut legal);
        self.board.parse_move(text, &legal)
    }

    fn to_position(&self) -> String {
        format!(
            "{} {} {} {} {}",
            self.board.board_field(),
            if self.board.side() == 0 { 'w' } else { 'b' },
            self.board.castling_field(),
            self.board.ep_field(),
            self.moves_made
        )
    }

    /// The fifth field counts the moves made (promotions twice); a standard six-field FEN
    /// (`... 0 1`) is read by its move number instead: 2 * (number - 1), plus 1 if black moves.
    fn parse_position(text: &str) -> Result<Self, GameError> {
        let (board, rest) = Board::<SkirmishRules>::parse_fields(text)?;
        let numbers: Vec<&str> = rest.collect();
        let bad = |s: &str| GameError::position("move count", format!("'{s}' is not a number"));
        let moves_made = match numbers.as_slice() {
            [] => 0,
            [count] => count.parse::<u16>().map_err(|_| bad(count))?,
            [_, number, ..] => {
                let n = number.parse::<u16>().map_err(|_| bad(number))?;
                n.saturating_sub(1).saturating_mul(2) + board.side() as u16
            }
        };
        // A promotion made at move 99 counts to 101.
        if moves_made > MOVE_LIMIT + 1 {
            return Err(GameError::position(
                "move count",
                format!("{moves_made} is past the limit of {MOVE_LIMIT}"),
            ));
        }
        Ok(Skirmish { board, moves_made })
    }

    fn diagram(&self) -> String {
        format!("{}   moves made: {}", self.board.diagram(), self.moves_made)
    }
}

impl Heuristics for Skirmish {
    const HAS_EVALUATION: bool = true;

    /// The game is scored by the number of pieces when it ends, so the piece count weighs most,
    /// and more as the move limit nears; the chess value of the pieces (what they can still
    /// capture or defend, the king 3 as it is capturable) and a little centralisation follow.
    #[inline]
    fn evaluate(&self, player: Player) -> f32 {
        const VALUES: [i32; 6] = [1, 3, 3, 5, 9, 3];
        let b = &self.board;
        let count = b.color(0).count_ones() as i32 - b.color(1).count_ones() as i32;
        let late = self.moves_made.min(MOVE_LIMIT) as f32 / MOVE_LIMIT as f32;
        let score = (1.0 + 2.0 * late) * count as f32
            + 0.5 * b.material(&VALUES) as f32
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

impl Dialects for Skirmish {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::perft::perft;

    fn pos(s: &str) -> Skirmish {
        Skirmish::parse_position(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn moves(p: &Skirmish) -> Vec<String> {
        let mut l = MoveList::new();
        p.legal_moves(&mut l);
        let mut v: Vec<String> = l.iter().map(|&m| p.format_move(m)).collect();
        v.sort();
        v
    }

    #[test]
    fn random_games_keep_invariants() {
        crate::game::check::random_games(&Skirmish::start(), 1500, 13);
    }

    #[test]
    fn kings_may_walk_into_check_and_be_captured() {
        // White king e1, black rook e8 pins nothing: the king may step to e2 (on the file).
        let p = pos("4r2k/8/8/8/8/8/8/4K3 w - - 0");
        let m = moves(&p);
        assert_eq!(m, ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]);
        let mut p = pos("4r2k/8/8/8/8/8/8/4K3 b - - 0");
        p.play_text("e8e1").unwrap();
        // White has no piece left: the game is over, black wins on pieces.
        assert_eq!(p.outcome(), Some(Outcome::win(Player(1), 2)));
        assert!(moves(&p).is_empty());
    }

    #[test]
    fn castling_ignores_attacks() {
        // Black rooks attack e1, f1 and d1: castling both ways is still legal.
        let p = pos("3rrr1k/8/8/8/8/8/8/R3K2R w KQ - 0");
        let m = moves(&p);
        assert!(m.contains(&"e1g1".to_string()) && m.contains(&"e1c1".to_string()));
        // Blocked by a piece between: no queen-side castling.
        let p = pos("7k/8/8/8/8/8/8/RN2K2R w KQ - 0");
        let m = moves(&p);
        assert!(m.contains(&"e1g1".to_string()) && !m.contains(&"e1c1".to_string()));
    }

    #[test]
    fn promotion_counts_twice_and_the_limit_ends_the_game() {
        let mut p = pos("7k/P7/8/8/8/8/8/K7 w - - 97");
        let m = moves(&p);
        for promo in ["a7a8q", "a7a8r", "a7a8b", "a7a8n"] {
            assert!(m.contains(&promo.to_string()), "{m:?}");
        }
        p.play_text("a7a8q").unwrap();
        assert_eq!(p.to_position(), "Q6k/8/8/8/8/8/8/K7 b - - 99");
        assert_eq!(p.outcome(), None);
        p.play_text("h8h7").unwrap();
        // 100 moves: white has 2 pieces, black 1.
        assert_eq!(p.outcome(), Some(Outcome::win(Player(0), 2)));
        assert_eq!(p.count_moves(), 0);
        // Equal material at the limit draws.
        let p = pos("7k/8/8/8/8/8/8/K7 w - - 100");
        assert_eq!(p.outcome(), Some(Outcome::draw(2)));
    }

    #[test]
    fn en_passant_without_check_rules() {
        // Black pawn d4, white plays e2e4: d4xe3 e.p. is legal even though it exposes
        // nothing in particular; the black king h4 on the rank with the white rook a4 would
        // make it illegal in chess (rank pin), but not here.
        let mut p = pos("8/8/8/8/R2p3k/8/4P3/4K3 w - - 0");
        p.play_text("e2e4").unwrap();
        assert_eq!(p.to_position(), "8/8/8/8/R2pP2k/8/8/4K3 b - e3 1");
        assert!(moves(&p).contains(&"d4e3".to_string()));
    }

    /// Perft from the start against a from-scratch mailbox generator of pseudo-legal chess
    /// moves (below): depth 1 to 3 equal chess's 20, 400, 8902 (no check can matter yet); at 4
    /// the positions after 2.Qh5+ style checks let black ignore the check, so the count
    /// exceeds chess's 197281.
    #[test]
    fn perft_matches_a_simple_generator() {
        let p = Skirmish::start();
        assert_eq!(perft(&p, 1), 20);
        assert_eq!(perft(&p, 2), 400);
        assert_eq!(perft(&p, 3), 8902);
        let simple = simple::perft(&simple::start(), 4);
        assert_eq!(perft(&p, 4), simple);
        assert!(simple > 197281);
    }

    /// Depth 5 (4897256) against the naive generator: slow, run with --ignored.
    #[test]
    #[ignore]
    fn perft_5_matches_the_simple_generator() {
        assert_eq!(simple::perft(&simple::start(), 5), 4897256);
        assert_eq!(perft(&Skirmish::start(), 5), 4897256);
    }

    /// Hand counts. En passant: white e5, black d5 just double-stepped, white king a5 and
    /// black rook h5 on the same rank. Chess forbids e5xd6 (it would open the rank to the
    /// king); Skirmish has no such rule: e5e6, e5d6, king a4 a6 b4 b5 b6 = 7. Promotion: pawn
    /// a7 (a8 empty) has 4 promotions, king a1 has a2 b1 b2: 7.
    #[test]
    fn hand_counted_positions() {
        let p = pos("8/8/8/K2pP2r/8/7k/8/8 w - d6 0");
        assert_eq!(p.count_moves(), 7);
        assert!(moves(&p).contains(&"e5d6".to_string()));
        let p = pos("7k/P7/8/8/8/8/8/K7 w - - 0");
        assert_eq!(p.count_moves(), 7);
    }

    #[test]
    fn random_positions_match_the_simple_generator() {
        let mut rng = crate::rng::Rng::new(5);
        let mut list = MoveList::new();
        for _ in 0..200 {
            let mut p = Skirmish::start();
            while let Some(m) = p.random_move(&mut rng, &mut list) {
                let fen = p.to_position();
                let s = simple::parse(&fen);
                let mut ours = moves(&p);
                let mut theirs = simple::moves(&s);
                ours.sort();
                theirs.sort();
                assert_eq!(ours, theirs, "{fen}");
                p.play(m);
            }
        }
    }

    /// A deliberately naive pseudo-legal chess generator (mailbox, no check rules), written
    /// independently of the bitboard core, to cross-check it.
    pub(super) mod simple {
        #[derive(Clone)]
        pub struct S {
            sq: [u8; 64], // b'.' or a FEN letter
            white: bool,
            castle: [bool; 4], // K Q k q
            ep: Option<usize>,
            count: u32,
        }

        pub fn start() -> S {
            parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0")
        }

        pub fn parse(fen: &str) -> S {
            let f: Vec<&str> = fen.split(' ').collect();
            let mut sq = [b'.'; 64];
            for (i, row) in f[0].split('/').enumerate() {
                let mut file = 0;
                for c in row.bytes() {
                    if c.is_ascii_digit() {
                        file += (c - b'0') as usize;
                    } else {
                        sq[(7 - i) * 8 + file] = c;
                        file += 1;
                    }
                }
            }
            let ep = (f[3] != "-").then(|| {
                let b = f[3].as_bytes();
                (b[1] - b'1') as usize * 8 + (b[0] - b'a') as usize
            });
            S {
                sq,
                white: f[1] == "w",
                castle: [b'K', b'Q', b'k', b'q'].map(|c| f[2].as_bytes().contains(&c)),
                ep,
                count: f[4].parse().unwrap(),
            }
        }

        fn name(s: usize) -> String {
            format!("{}{}", (b'a' + (s % 8) as u8) as char, s / 8 + 1)
        }

        fn own(s: &S, c: u8) -> bool {
            c != b'.' && c.is_ascii_uppercase() == s.white
        }

        /// (from, to, promotion letter) triples.
        fn gen(s: &S) -> Vec<(usize, usize, Option<u8>)> {
            let mut out = Vec::new();
            if s.count >= 100 {
                return out;
            }
            let on = |f: i32, r: i32| (0..8).contains(&f) && (0..8).contains(&r);
            for from in 0..64 {
                let c = s.sq[from];
                if !own(s, c) {
                    continue;
                }
                let (f, r) = ((from % 8) as i32, (from / 8) as i32);
                let mut add = |to: usize| {
                    if !own(s, s.sq[to]) {
                        out.push((from, to, None));
                    }
                };
                let steps: &[(i32, i32)] = match c.to_ascii_lowercase() {
                    b'n' => &[
                        (1, 2),
                        (2, 1),
                        (2, -1),
                        (1, -2),
                        (-1, -2),
                        (-2, -1),
                        (-2, 1),
                        (-1, 2),
                    ],
                    b'k' => &[
                        (1, 1),
                        (1, 0),
                        (1, -1),
                        (0, 1),
                        (0, -1),
                        (-1, 1),
                        (-1, 0),
                        (-1, -1),
                    ],
                    _ => &[],
                };
                for &(df, dr) in steps {
                    if on(f + df, r + dr) {
                        add(((r + dr) * 8 + f + df) as usize);
                    }
                }
                let dirs: &[(i32, i32)] = match c.to_ascii_lowercase() {
                    b'b' => &[(1, 1), (1, -1), (-1, 1), (-1, -1)],
                    b'r' => &[(1, 0), (-1, 0), (0, 1), (0, -1)],
                    b'q' => &[
                        (1, 1),
                        (1, -1),
                        (-1, 1),
                        (-1, -1),
                        (1, 0),
                        (-1, 0),
                        (0, 1),
                        (0, -1),
                    ],
                    _ => &[],
                };
                for &(df, dr) in dirs {
                    let (mut nf, mut nr) = (f + df, r + dr);
                    while on(nf, nr) {
                        let to = (nr * 8 + nf) as usize;
                        add(to);
                        if s.sq[to] != b'.' {
                            break;
                        }
                        nf += df;
                        nr += dr;
                    }
                }
                if c.eq_ignore_ascii_case(&b'p') {
                    let dir = if s.white { 1 } else { -1 };
                    let last = if s.white { 7 } else { 0 };
                    let pawn = |to: usize, out: &mut Vec<_>| {
                        if (to / 8) as i32 == last {
                            for p in [b'q', b'r', b'b', b'n'] {
                                out.push((from, to, Some(p)));
                            }
                        } else {
                            out.push((from, to, None));
                        }
                    };
                    let one = ((r + dir) * 8 + f) as usize;
                    if s.sq[one] == b'.' {
                        pawn(one, &mut out);
                        let home = if s.white { 1 } else { 6 };
                        let two = ((r + 2 * dir) * 8 + f) as usize;
                        if r == home && s.sq[two] == b'.' {
                            out.push((from, two, None));
                        }
                    }
                    for df in [-1, 1] {
                        if on(f + df, r + dir) {
                            let to = ((r + dir) * 8 + f + df) as usize;
                            let t = s.sq[to];
                            if (t != b'.' && !own(s, t)) || s.ep == Some(to) {
                                pawn(to, &mut out);
                            }
                        }
                    }
                }
                if c.eq_ignore_ascii_case(&b'k') {
                    let (base, k, q) = if s.white { (0, 0, 1) } else { (56, 2, 3) };
                    let empty = |i: usize| s.sq[base + i] == b'.';
                    if from == base + 4 && s.castle[k] && empty(5) && empty(6) {
                        out.push((from, base + 6, None));
                    }
                    if from == base + 4 && s.castle[q] && empty(1) && empty(2) && empty(3) {
                        out.push((from, base + 2, None));
                    }
                }
            }
            out
        }

        pub fn moves(s: &S) -> Vec<String> {
            gen(s)
                .into_iter()
                .map(|(a, b, p)| {
                    let mut t = name(a) + &name(b);
                    if let Some(p) = p {
                        t.push(p as char);
                    }
                    t
                })
                .collect()
        }

        fn play(s: &S, (from, to, promo): (usize, usize, Option<u8>)) -> S {
            let mut n = s.clone();
            let c = s.sq[from];
            let pawn = c.eq_ignore_ascii_case(&b'p');
            if pawn && Some(to) == s.ep {
                n.sq[if s.white { to - 8 } else { to + 8 }] = b'.';
            }
            n.sq[to] = match promo {
                Some(p) if s.white => p.to_ascii_uppercase(),
                Some(p) => p,
                None => c,
            };
            n.sq[from] = b'.';
            if c.eq_ignore_ascii_case(&b'k') && from.abs_diff(to) == 2 {
                let (rf, rt) = if to > from {
                    (from + 3, from + 1)
                } else {
                    (from - 4, from - 1)
                };
                n.sq[rt] = n.sq[rf];
                n.sq[rf] = b'.';
            }
            for (i, corner) in [(0, 7), (1, 0), (2, 63), (3, 56)] {
                if from == corner || to == corner {
                    n.castle[i] = false;
                }
            }
            for (king, rights) in [(4, [0, 1]), (60, [2, 3])] {
                if from == king || to == king {
                    for i in rights {
                        n.castle[i] = false;
                    }
                }
            }
            n.ep = (pawn && from.abs_diff(to) == 16).then_some((from + to) / 2);
            n.white = !s.white;
            n.count += 1 + u32::from(promo.is_some());
            n
        }

        pub fn perft(s: &S, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            gen(s)
                .into_iter()
                .map(|m| perft(&play(s, m), depth - 1))
                .sum()
        }
    }

    #[test]
    fn bad_input() {
        let field = |s: &str| match Skirmish::parse_position(s) {
            Err(GameError::Position { field, .. }) => field,
            other => panic!("{s}: {other:?}"),
        };
        assert_eq!(field(""), "board");
        assert_eq!(
            field("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w"),
            "board"
        );
        assert_eq!(
            field("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w"),
            "board"
        );
        assert_eq!(
            field("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w"),
            "board"
        );
        assert_eq!(
            field("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white"),
            "side to move"
        );
        assert_eq!(
            field("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w kq- -"),
            "castling"
        );
        assert_eq!(
            field("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - e9"),
            "en passant"
        );
        assert_eq!(
            field("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - x"),
            "move count"
        );
        assert_eq!(
            field("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 102"),
            "move count"
        );
        assert_eq!(
            field("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 x"),
            "move count"
        );
        assert_eq!(
            field("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/PNBQKBNR w - - 0"),
            "board"
        );
        // A standard FEN's move number gives the count.
        let p = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 3");
        assert_eq!(p.moves_made, 5);
        let p = Skirmish::start();
        for bad in [
            "",
            "e2",
            "e2e4e",
            "i2i4",
            "e2e9",
            "✓✓✓✓",
            "-1-1",
            "99999999",
        ] {
            assert!(
                matches!(p.parse_move(bad), Err(GameError::MoveSyntax { .. })),
                "{bad}"
            );
        }
        for illegal in ["e2e5", "e1e2", "pass", "e1g1", "e7e5", "0000"] {
            assert!(
                matches!(p.parse_move(illegal), Err(GameError::IllegalMove { .. })),
                "{illegal}"
            );
        }
    }

    #[test]
    fn evaluation_invariants_hold() {
        crate::game::check::evaluation_invariants(&Skirmish::start(), 40, 93);
        assert_eq!(Skirmish::start().evaluate(Player(0)), 0.0);
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        use crate::game::check::{assert_mirrored_evaluation, flip_fen};
        for text in [
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b - - 3",
            "4k3/8/1P6/8/8/2n5/8/4K3 w - - 90",
        ] {
            assert_mirrored_evaluation::<Skirmish>(text, &flip_fen(text, ("w", "b")));
        }
    }

    #[test]
    fn more_pieces_evaluate_higher() {
        use crate::game::check::evaluation_of;
        let up = evaluation_of::<Skirmish>(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 b Qkq - 1",
            Player(1),
        );
        assert!(up > 0.3, "{up}");
        // The same extra pawn weighs more near the move limit.
        let early = evaluation_of::<Skirmish>("4k3/8/8/8/8/8/PP6/4K3 w - - 10", Player(0));
        let late = evaluation_of::<Skirmish>("4k3/8/8/8/8/8/PP6/4K3 w - - 98", Player(0));
        assert!(late > early && early > 0.0, "{late} {early}");
    }

    #[test]
    fn captures_are_flagged() {
        let p = pos("4k3/8/8/3p4/4P3/8/8/4K3 w - - 10");
        assert!(p.is_capture(p.parse_move("e4d5").unwrap()));
        assert!(!p.is_capture(p.parse_move("e4e5").unwrap()));
    }
}
