//! Gomoku tests: five in a row in every direction, overlines, the four-threat rule, draws, the
//! network encoding under the eight symmetries, and the notations.

use super::*;
use crate::game::check::random_games;
use crate::game::perft::perft;

type Exact = Gomoku<true>;
type Free = Gomoku<false>;

fn after<const E: bool>(moves: &str) -> Gomoku<E> {
    let mut g = Gomoku::<E>::start();
    for m in moves.split_whitespace() {
        g.play_text(m).unwrap();
    }
    g
}

/// A position of 15 rows from `rows` (top first; missing rows are empty).
fn pos<const E: bool>(rows: &[&str], side: &str) -> Gomoku<E> {
    let mut all: Vec<String> = rows.iter().map(|r| r.to_string()).collect();
    while all.len() < SIZE {
        all.push("15".into());
    }
    Gomoku::<E>::parse_position(&format!("{} {side}", all.join("/"))).unwrap()
}

#[test]
fn random_games_keep_invariants() {
    let stats = random_games(&Exact::start(), 600, 21);
    assert!(stats.decisive > 0);
    let stats = random_games(&Free::start(), 600, 22);
    assert!(stats.decisive > 0);
}

#[test]
fn five_in_each_direction_wins() {
    // Black builds five along each line; white plays far away on rank 15 / 1.
    let lines = [
        "d8 a15 e8 b15 f8 c15 g8 d15 h8",      // east
        "h4 a15 h5 b15 h6 c15 h7 d15 h8",      // north
        "d4 a15 e5 b15 f6 c15 g7 d15 h8",      // north-east
        "l4 a15 k5 b15 j6 c15 i7 d15 h8",      // north-west
        "a1 a15 b2 b15 c3 c15 d4 d15 e5",      // corner diagonal
        "o11 a15 o12 b15 o13 c15 o14 d15 o15", // edge column up to the corner
    ];
    for line in lines {
        let g: Exact = after(line);
        assert_eq!(g.outcome(), Some(Outcome::win(Player(0), 2)), "{line}");
        assert_eq!(g.count_moves(), 0);
        let f: Free = after(line);
        assert_eq!(f.outcome(), Some(Outcome::win(Player(0), 2)), "{line}");
    }
    // Four does not win, and a row does not wrap from file o to file a of the next rank.
    assert_eq!(after::<true>("d8 a15 e8 b15 f8 c15 g8").outcome(), None);
    assert_eq!(
        after::<true>("l8 a15 m8 b15 n8 c15 o8 d15 a9").outcome(),
        None
    );
    assert_eq!(
        after::<true>("l8 a15 m8 b15 n8 c15 o8 d15 a7").outcome(),
        None
    );
    // White wins too.
    let w: Exact = after("a1 d8 a3 e8 a5 f8 a7 g8 a9 h8");
    assert_eq!(w.outcome(), Some(Outcome::win(Player(1), 2)));
}

/// `p` under symmetry `s`, rebuilt stone by stone.
fn image<const E: bool>(p: &Gomoku<E>, s: usize) -> Gomoku<E> {
    let mut stones = [[0u64; 4]; 2];
    for (side, out) in stones.iter_mut().enumerate() {
        for row in 0..SIZE {
            for col in 0..SIZE {
                if has_stone(&p.stones[side], point(row, col) as i32) {
                    let (r, c) = crate::game::square_symmetry(s, row, col, SIZE);
                    let i = point(r, c);
                    out[i >> 6] |= 1 << (i & 63);
                }
            }
        }
    }
    let mut g = Gomoku {
        stones,
        count: p.count,
        won: p.won,
        hash: 0,
    };
    g.hash = g.compute_hash();
    g
}

#[test]
fn network_encoding_follows_the_mover_and_the_eight_symmetries() {
    let images: Vec<_> = (1..8).map(|s| move |p: &Free| image(p, s)).collect();
    let all: Vec<crate::game::features::check::Image<'_, Free>> = images
        .iter()
        .enumerate()
        .map(|(k, f)| (k + 1, f as &dyn Fn(&Free) -> Free))
        .collect();
    crate::game::features::check::check_encoding::<Free>(5, 12, &all);
}

#[test]
fn the_four_threat_rule_completes_a_five_or_blocks_one() {
    let mut out = MoveList::new();
    // Black (to move) has four on rank 1 and White four on rank 3: Black completes.
    let g = pos::<false>(
        &["15"; 12]
            .iter()
            .copied()
            .chain(["1pppp10", "15", "1PPPP10"])
            .collect::<Vec<_>>(),
        "w",
    );
    assert!(g.forcing_moves(&mut out));
    let names: Vec<String> = out.iter().map(|&m| g.format_move(m)).collect();
    assert_eq!(names, ["P@a1"]);
    // Without Black's four, the two ends of White's open four are the only moves.
    let g = pos::<false>(
        &["15"; 12]
            .iter()
            .copied()
            .chain(["1pppp10", "15", "1PPP2P8"])
            .collect::<Vec<_>>(),
        "w",
    );
    assert!(g.forcing_moves(&mut out));
    let mut names: Vec<String> = out.iter().map(|&m| g.format_move(m)).collect();
    names.sort();
    assert_eq!(names, ["P@a3", "P@f3"]);
    // No four anywhere: no forcing moves.
    assert!(!after::<false>("h8 h9 i8").forcing_moves(&mut out));
    // In exact Gomoku, a point that would make six is not a threat.
    let g = pos::<true>(
        &["15"; 12]
            .iter()
            .copied()
            .chain(["pppp1p9", "15", "PPP3PP7"])
            .collect::<Vec<_>>(),
        "w",
    );
    assert!(!g.forcing_moves(&mut out));
}

#[test]
fn overlines_win_only_in_freestyle() {
    // Black XXXX.XX on rank 8 (d8-g8 and i8-j8); filling h8 makes seven in a row.
    let rows = [
        "15",
        "15",
        "15",
        "15",
        "15",
        "15",
        "15",
        "3PPPP1PP5",
        "15",
        "15",
        "15",
        "15",
        "15",
        "pppp1pp8",
        "15",
    ];
    let e: Exact = pos(&rows, "w");
    let f: Free = pos(&rows, "w");
    let mut e2 = e.clone();
    e2.play_text("h8").unwrap();
    assert_eq!(e2.outcome(), None, "an overline does not win in gomoku");
    let mut f2 = f.clone();
    f2.play_text("h8").unwrap();
    assert_eq!(f2.outcome(), Some(Outcome::win(Player(0), 2)));
    // a8-d8 and f8: filling e8 makes exactly six.
    let six = [
        "15", "15", "15", "15", "15", "15", "15", "PPPP1P9", "15", "15", "15", "15", "15",
        "ppp1pp9", "15",
    ];
    let mut e6: Exact = pos(&six, "w");
    e6.play_text("e8").unwrap();
    assert_eq!(e6.outcome(), None);
    // An overline in one direction and exactly five in another wins in gomoku.
    let both = [
        "15", "15", "15", "15", "15", "15", "15", "PPPP1P9", "4P10", "4P10", "4P10", "4P10",
        "ppp1pp9", "1pppp10", "15",
    ];
    let mut eb: Exact = pos(&both, "w");
    eb.play_text("e8").unwrap();
    assert_eq!(eb.outcome(), Some(Outcome::win(Player(0), 2)));
}

/// A full board without five in a row: ranks alternate `PPppPPppPPppPPp` and
/// `ppPPppPPppPPppP` (runs of two across, alternating up, short diagonals); 113 black stones.
fn full_board_rows() -> Vec<String> {
    (0..SIZE)
        .map(|r| {
            (0..SIZE)
                .map(|c| {
                    if ((c + 2 * (r % 2)) / 2) % 2 == 0 {
                        'P'
                    } else {
                        'p'
                    }
                })
                .collect()
        })
        .collect()
}

#[test]
fn full_board_is_a_draw() {
    let rows = full_board_rows();
    let full = Exact::parse_position(&rows.join("/")).unwrap();
    assert_eq!(full.count_moves(), 0);
    assert_eq!(full.outcome(), Some(Outcome::draw(2)));
    let full = Free::parse_position(&rows.join("/")).unwrap();
    assert_eq!(full.outcome(), Some(Outcome::draw(2)));
}

#[test]
fn notation_forms() {
    let g: Exact = after("h8");
    let j9 = Move(point(8, 9) as u16);
    assert_eq!(g.format_move(j9), "P@j9");
    for text in ["P@j9", "p@J9", "j9", "J9", " j9 "] {
        assert_eq!(g.parse_move(text), Ok(j9), "{text}");
    }
    assert_eq!(g.parse_move("o15"), Ok(Move(point(14, 14) as u16)));
    assert!(matches!(
        g.parse_move("h8"),
        Err(GameError::IllegalMove { .. })
    ));
    for bad in [
        "",
        "p",
        "P@",
        "h0",
        "h16",
        "p8",
        "h8x",
        "ü",
        "h08x",
        "h99999999999999999999",
        "@h8",
        "pass",
        "0000",
        "8h",
    ] {
        assert!(
            matches!(g.parse_move(bad), Err(GameError::MoveSyntax { .. })),
            "{bad}"
        );
    }
    let over: Exact = after("d8 a15 e8 b15 f8 c15 g8 d15 h8");
    assert!(matches!(
        over.parse_move("a1"),
        Err(GameError::IllegalMove { .. })
    ));
}

#[test]
fn gtp_vertices_skip_i() {
    let g: Exact = Exact::start();
    let h8 = Move(point(7, 7) as u16);
    let i8 = Move(point(7, 8) as u16);
    let o15 = Move(point(14, 14) as u16);
    assert_eq!(g.format_move_in(h8, Dialect::Gtp), "H8");
    assert_eq!(g.format_move_in(i8, Dialect::Gtp), "J8");
    assert_eq!(g.format_move_in(o15, Dialect::Gtp), "P15");
    assert_eq!(g.format_move_in(i8, Dialect::Native), "P@i8");
    assert_eq!(g.format_move_in(i8, Dialect::Usi), "P@i8");
    assert_eq!(g.parse_move_in("J8", Dialect::Gtp), Ok(i8));
    assert_eq!(g.parse_move_in("j8", Dialect::Gtp), Ok(i8));
    assert_eq!(g.parse_move_in("P15", Dialect::Gtp), Ok(o15));
    assert_eq!(g.parse_move_in("P@i8", Dialect::Gtp), Ok(i8));
    assert_eq!(g.parse_move_in("h8", Dialect::Gtp), Ok(h8));
    // Natively j8 is the tenth file.
    assert_eq!(
        g.parse_move_in("j8", Dialect::Native),
        Ok(Move(point(7, 9) as u16))
    );
    for bad in ["I8", "i8", "Q1", "pass", "", "H", "H16", "H0"] {
        assert!(
            matches!(
                g.parse_move_in(bad, Dialect::Gtp),
                Err(GameError::MoveSyntax { .. })
            ),
            "{bad}"
        );
    }
    let after_h8: Exact = after("h8");
    assert!(matches!(
        after_h8.parse_move_in("H8", Dialect::Gtp),
        Err(GameError::IllegalMove { .. })
    ));
}

#[test]
fn positions_round_trip_and_read_variants() {
    let g: Exact = after("h8 a1 o15");
    let text = g.to_position();
    assert_eq!(text, "14P/15/15/15/15/15/15/7P7/15/15/15/15/15/15/p14 b");
    assert_eq!(Exact::parse_position(&text), Ok(g.clone()));
    // cutechess-style pocket and counters, x/o stones, no side to move.
    assert_eq!(
        Exact::parse_position("14x/15/15/15/15/15/15/7x7/15/15/15/15/15/15/o14[PPpp] b - - 0 1"),
        Ok(g.clone())
    );
    assert_eq!(
        Exact::parse_position("14P/15/15/15/15/15/15/7P7/15/15/15/15/15/15/p14"),
        Ok(g)
    );
    assert_eq!(Exact::parse_position(Exact::INFO.start), Ok(Exact::start()));
}

#[test]
fn bad_positions_name_the_field() {
    let empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15";
    for (text, field) in [
        ("", "board"),
        ("15/15/15 w", "board"),
        (&format!("{empty}/16 w"), "board"),
        (&format!("{empty}/14 w"), "board"),
        (&format!("{empty}/0P14 b"), "board"),
        (&format!("{empty}/P15 b"), "board"),
        (&format!("{empty}/PP13 b"), "board"),
        (&format!("{empty}/Pq13 b"), "board"),
        (&format!("{empty}/ü14 b"), "board"),
        (&format!("{empty}/P14 w"), "side to move"),
        (&format!("{empty}/P14 z"), "side to move"),
        (&format!("{empty}/15/15 w"), "board"),
        // Black has five and is to move: the game ended earlier.
        (
            "PPPPP10/pp1ppp9/15/15/15/15/15/15/15/15/15/15/15/15/15 w",
            "board",
        ),
        (
            "15/15/15/15/15/15/15/15/15/15/15/15/15/15/99999999999999999999 w",
            "board",
        ),
    ] {
        match Exact::parse_position(text) {
            Err(GameError::Position { field: f, .. }) => assert_eq!(f, field, "{text}"),
            other => panic!("{text}: expected a position error, got {other:?}"),
        }
    }
    // The last mover's five means the game is over.
    let won =
        Exact::parse_position("PPPPP10/pppp11/15/15/15/15/15/15/15/15/15/15/15/15/15 b").unwrap();
    assert_eq!(won.outcome(), Some(Outcome::win(Player(0), 2)));
    assert_eq!(won.count_moves(), 0);
}

#[test]
fn random_move_is_uniform_on_a_nearly_full_board() {
    // Three empty points left: every one must come up about a third of the time, also
    // through the fallback path (rejection fails on most tries).
    // Empty a1 and b1 (black) and c1 (white) of the full board: black to move.
    let mut rows = full_board_rows();
    rows[14] = format!("3{}", &rows[14][3..]);
    let g = Free::parse_position(&rows.join("/")).unwrap();
    assert_eq!(g.count_moves(), 3);
    let mut rng = Rng::new(5);
    let mut buf = MoveList::new();
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    let mut hits = [0u32; 3];
    for _ in 0..30_000 {
        let m = g.random_move(&mut rng, &mut buf).unwrap();
        let i = list.iter().position(|&x| x == m).unwrap();
        hits[i] += 1;
    }
    for h in hits {
        assert!((9_000..11_000).contains(&h), "{hits:?}");
    }
}

#[test]
fn perft_small_depths() {
    assert_eq!(perft(&Exact::start(), 1), 225);
    assert_eq!(perft(&Exact::start(), 2), 50400);
    assert_eq!(perft(&Free::start(), 2), 50400);
}

#[test]
fn evaluation_invariants_hold() {
    crate::game::check::evaluation_invariants(&Exact::start(), 20, 111);
    crate::game::check::evaluation_invariants(&Free::start(), 20, 112);
    assert_eq!(Exact::start().evaluate(Player(0)), 0.0);
}

/// The colour-swapped twin of a Gomoku position is not a position (the side to move follows
/// from the stone counts): the colour symmetry is checked on the scoring function with the
/// roles exchanged, and the board's reflection through position strings.
#[test]
fn evaluation_is_colour_and_mirror_symmetric() {
    let g: Exact = after("h8 h9 i8 j10 g8 a1 i9");
    let [a, b] = g.stones;
    let mover = (g.count & 1) as usize;
    let v = pattern_score(&[a, b], mover);
    assert!(v != 0.0);
    assert_eq!(pattern_score(&[b, a], 1 - mover), -v);
    let text = g.to_position();
    let mut fields = text.split_whitespace();
    let rows: Vec<&str> = fields.next().unwrap().split('/').rev().collect();
    let flipped = format!("{} {}", rows.join("/"), fields.next().unwrap());
    let f = Exact::parse_position(&flipped).unwrap();
    assert!((f.evaluate(Player(0)) - g.evaluate(Player(0))).abs() < 1e-6);
}

#[test]
fn patterns_evaluate_higher() {
    // Black (first) has an open three, white two scattered stones; white to move.
    let three: Exact = after("h8 a1 i8 o15 j8");
    assert!(
        three.evaluate(Player(0)) > 0.1,
        "{}",
        three.evaluate(Player(0))
    );
    // A four for the side to move is nearly a win.
    let four: Exact = after("h8 a1 i8 o15 j8 a15 k8");
    assert!(
        four.evaluate(Player(1)) < -0.5,
        "{}",
        four.evaluate(Player(1))
    );
    // The same stones count more for the side to move.
    let g: Exact = after("h8 h9 i8 j10");
    let [a, b] = g.stones;
    assert!(pattern_score(&[a, b], 0) > pattern_score(&[a, b], 1));
}
