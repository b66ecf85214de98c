//! Unit tests of the reversi game: rules, notation, invariants and bad input.

use super::*;
use crate::game::check::random_games;
use crate::game::perft::perft;

fn pos(text: &str) -> Reversi {
    Reversi::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves_of(p: &Reversi) -> Vec<String> {
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    list.iter().map(|&m| p.format_move(m)).collect()
}

/// Reference flips by walking each direction square by square.
fn slow_flips(own: u64, opp: u64, sq: usize) -> u64 {
    let mut out = 0;
    for (dr, dc) in DIRECTIONS {
        let (mut r, mut c) = ((sq / 8) as i32 + dr, (sq % 8) as i32 + dc);
        let mut line = 0u64;
        while (0..8).contains(&r) && (0..8).contains(&c) {
            let bit = 1u64 << (r * 8 + c);
            if opp & bit != 0 {
                line |= bit;
            } else {
                if own & bit != 0 {
                    out |= line;
                }
                break;
            }
            r += dr;
            c += dc;
        }
    }
    out
}

#[test]
fn random_games_keep_invariants() {
    let stats = random_games(&Reversi::start(), 3000, 11);
    assert_eq!(stats.games, 3000);
    assert_eq!(stats.capped, 0);
    assert!(stats.decisive > 0 && stats.draws > 0);
}

#[test]
fn generator_matches_slow_reference_on_random_boards() {
    let mut rng = Rng::new(5);
    for _ in 0..20_000 {
        let a = rng.next_u64() & rng.next_u64() | rng.next_u64() & rng.next_u64();
        let b = rng.next_u64() & !a;
        let (own, opp) = (a & rng.next_u64(), b);
        let empty = !(own | opp);
        let mut expected = 0u64;
        for sq in 0..64 {
            let f = slow_flips(own, opp, sq);
            assert_eq!(
                flips(own, opp, sq),
                f,
                "flips at {sq} own {own:x} opp {opp:x}"
            );
            if empty & (1 << sq) != 0 && f != 0 {
                expected |= 1 << sq;
            }
        }
        assert_eq!(placements(own, opp), expected, "own {own:x} opp {opp:x}");
    }
}

#[test]
fn start_position_and_first_moves() {
    let p = Reversi::start();
    assert_eq!(p.to_position(), Reversi::INFO.start);
    assert_eq!(pos(Reversi::INFO.start), p);
    assert_eq!(moves_of(&p), ["d3", "c4", "f5", "e6"]);
    let mut q = p.clone();
    q.play_text("d3").unwrap();
    assert_eq!(q.to_position(), "8/8/3x4/3xx3/3xo3/8/8/8 o");
    assert_eq!(q.to_move(), Player(1));
    assert_eq!(perft(&p, 4), 244);
}

#[test]
fn all_bracketed_lines_flip() {
    // Black plays d4 (centre of a star): flips along the row, the column and both diagonals.
    let mut p = pos("x2x2x1/1o1o1o2/2ooo3/xoo1ooox/2ooo3/1o1o1o2/x2x2x1/8 x");
    p.play_text("d4").unwrap();
    assert_eq!(
        p.to_position(),
        "x2x2x1/1x1x1x2/2xxx3/xxxxxxxx/2xxx3/1x1x1x2/x2x2x1/8 o"
    );
    assert_eq!(p.hash(), p.compute_hash());
}

#[test]
fn unbracketed_lines_do_not_flip() {
    // Black a1 brackets b1-e1 against f1; the white column a2-a8 runs to the edge and the
    // diagonal b2 ends on an empty square, so neither flips.
    let mut p = pos("1oooox2/oo6/o7/o7/o7/o7/o7/o7 x");
    assert_eq!(moves_of(&p), ["a1"]);
    p.play_text("a1").unwrap();
    assert_eq!(p.to_position(), "xxxxxx2/oo6/o7/o7/o7/o7/o7/o7 o");
    assert_eq!(p.hash(), p.compute_hash());
}

#[test]
fn forced_pass_is_the_only_move() {
    // White to move has no placement, black has: white must pass.
    let p = pos("xxo5/8/8/8/8/8/8/8 o");
    assert_eq!(moves_of(&p), ["pass"]);
    assert_eq!(p.count_moves(), 1);
    assert!(p.outcome().is_none());
    let mut q = p.clone();
    q.play_text("PASS").unwrap();
    assert_eq!(q.to_position(), "xxo5/8/8/8/8/8/8/8 x");
    assert_eq!(q.hash(), q.compute_hash());
    assert!(p.parse_move("0000").is_ok());
    // Passing is illegal when a placement exists.
    assert!(matches!(
        Reversi::start().parse_move("pass"),
        Err(GameError::IllegalMove { .. })
    ));
}

#[test]
fn game_ends_when_neither_side_can_move() {
    // Only black discs: nobody can move; black wins.
    let p = pos("x7/8/8/8/8/8/8/8 o");
    assert!(moves_of(&p).is_empty());
    assert_eq!(p.count_moves(), 0);
    assert_eq!(p.outcome(), Some(Outcome::win(Player(0), 2)));
    // Full board 32-32: draw.
    let full = "xxxxxxxx/oooooooo/xxxxxxxx/oooooooo/xxxxxxxx/oooooooo/xxxxxxxx/oooooooo x";
    assert_eq!(pos(full).outcome(), Some(Outcome::draw(2)));
    // Disconnected discs with empty squares left: over, white has more.
    let p = pos("x1oo4/8/8/8/8/8/8/8 x");
    assert_eq!(p.outcome(), Some(Outcome::win(Player(1), 2)));
    assert!(matches!(
        p.parse_move("c1"),
        Err(GameError::IllegalMove { .. })
    ));
    // The empty board is over too (a draw).
    assert_eq!(pos("8/8/8/8/8/8/8/8 x").outcome(), Some(Outcome::draw(2)));
}

#[test]
fn last_move_fills_board_and_ends_game() {
    let mut p = pos("xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxo1 x");
    assert_eq!(moves_of(&p), ["h8"]);
    p.play_text("h8").unwrap();
    assert_eq!(p.outcome(), Some(Outcome::win(Player(0), 2)));
    assert_eq!(p.to_move(), Player(1));
}

#[test]
fn move_notation() {
    let p = Reversi::start();
    assert_eq!(p.parse_move("D3"), Ok(Move(2 * 8 + 3)));
    assert_eq!(p.parse_move(" e6 "), Ok(Move(5 * 8 + 4)));
    assert_eq!(p.format_move(Move(0)), "a1");
    assert_eq!(p.format_move(Move(63)), "h8");
    assert_eq!(p.format_move(PASS), "pass");
    for bad in [
        "",
        "d",
        "d9",
        "i3",
        "d0",
        "3d",
        "d33",
        "é3",
        "ä",
        "99999999999999999999",
        "p@d3",
    ] {
        match p.parse_move(bad) {
            Err(GameError::MoveSyntax { text, .. }) => assert_eq!(text, bad),
            other => panic!("{bad:?}: {other:?}"),
        }
    }
    for illegal in ["a1", "d4", "e3", "h8"] {
        match p.parse_move(illegal) {
            Err(GameError::IllegalMove { text, .. }) => assert_eq!(text, illegal),
            other => panic!("{illegal:?}: {other:?}"),
        }
    }
}

#[test]
fn position_strings() {
    // Trailing fields are ignored; the canonical form drops them.
    let p = pos("8/8/8/3ox3/3xo3/8/8/8 x 0 1");
    assert_eq!(p.to_position(), "8/8/8/3ox3/3xo3/8/8/8 x");
    // Split digit runs are accepted.
    assert_eq!(
        pos("44/8/8/3ox3/3xo3/8/8/8 o").to_position(),
        "8/8/8/3ox3/3xo3/8/8/8 o"
    );
    let cases = [
        ("", "board"),
        ("   ", "board"),
        ("8/8/8/8/8/8/8 x", "board"),
        ("8/8/8/8/8/8/8/8/8 x", "board"),
        ("8/8/8/3oX3/3xo3/8/8/8 x", "board"),
        ("8/8/8/3ob3/3xo3/8/8/8 x", "board"),
        ("8/8/8/3ox4/3xo3/8/8/8 x", "board"),
        ("8/8/8/3ox2/3xo3/8/8/8 x", "board"),
        ("8/8/8/9/8/8/8/8 x", "board"),
        ("8/8/8/0/8/8/8/8 x", "board"),
        ("8/8/8/3é4/8/8/8/8 x", "board"),
        ("8/8/8/99999999999999999999/8/8/8/8 x", "board"),
        ("8/8/8/8/8/8/8/8/ x", "board"),
        ("8/8/8/3ox3/3xo3/8/8/8", "side to move"),
        ("8/8/8/3ox3/3xo3/8/8/8 b", "side to move"),
        ("8/8/8/3ox3/3xo3/8/8/8 X", "side to move"),
        ("8/8/8/3ox3/3xo3/8/8/8 xo", "side to move"),
    ];
    for (text, field) in cases {
        match Reversi::parse_position(text) {
            Err(GameError::Position { field: f, message }) => {
                assert_eq!(f, field, "{text:?}: {message}")
            }
            other => panic!("{text:?}: {other:?}"),
        }
    }
}

#[test]
fn peer_random_position() {
    let mut p = Reversi::start();
    let line = "c4 c5 b6 d3 c2 a7 d6 e7 d7 e3 b5 d2 f7 b1 b7 c6 e6 e8 d1 a8";
    for m in line.split_whitespace() {
        p.play_text(m).unwrap();
    }
    assert_eq!(
        p.to_position(),
        "1o1x4/2ox4/3xo3/2xxo3/1xxxo3/1xoxo3/oo1oox2/o3o3 x"
    );
    assert_eq!(p.count_moves(), 11);
    assert_eq!(perft(&p, 3), 1464);
}

#[test]
fn select_finds_every_set_bit() {
    let mut rng = Rng::new(9);
    for i in 0..5000u64 {
        let x = match i {
            0 => u64::MAX,
            1 => 1 << 63,
            2 => 1,
            _ => rng.next_u64() & rng.next_u64(),
        };
        let prefix = byte_prefix_counts(x);
        assert_eq!(prefix >> 56, x.count_ones() as u64);
        let mut rest = x;
        for k in 0..x.count_ones() {
            assert_eq!(
                select_bit(x, prefix, k),
                rest.trailing_zeros(),
                "{x:x} k {k}"
            );
            rest &= rest - 1;
        }
    }
}

#[test]
fn random_move_is_uniform() {
    let p = Reversi::start();
    let mut rng = Rng::new(3);
    let mut buf = MoveList::new();
    let mut counts = [0u32; 64];
    for _ in 0..40_000 {
        let m = p.random_move(&mut rng, &mut buf).unwrap();
        counts[m.0 as usize] += 1;
    }
    for m in ["d3", "c4", "f5", "e6"] {
        let c = counts[p.parse_move(m).unwrap().0 as usize];
        assert!((9_000..11_000).contains(&c), "{m}: {c}");
    }
    assert_eq!(counts.iter().sum::<u32>(), 40_000);
}

#[test]
fn gtp_writes_upper_case_and_reads_any_case() {
    let p = Reversi::start();
    let e6 = Move(5 * 8 + 4);
    assert_eq!(p.format_move_in(e6, Dialect::Gtp), "E6");
    for d in [Dialect::Native, Dialect::Usi] {
        assert_eq!(p.format_move_in(e6, d), "e6");
    }
    for d in [Dialect::Native, Dialect::Usi, Dialect::Gtp] {
        assert_eq!(p.parse_move_in("E6", d), Ok(e6));
        assert_eq!(p.parse_move_in("e6", d), Ok(e6));
        assert_eq!(p.to_position_in(d), p.to_position());
    }
    // A forced pass is `pass` in GTP too; `PASS` and UCI's `0000` are read.
    let q = pos("xxo5/8/8/8/8/8/8/8 o");
    assert_eq!(q.format_move_in(PASS, Dialect::Gtp), "pass");
    for text in ["pass", "PASS", "0000"] {
        assert_eq!(q.parse_move_in(text, Dialect::Gtp), Ok(PASS), "{text}");
    }
}

#[test]
fn evaluation_invariants_hold() {
    crate::game::check::evaluation_invariants(&Reversi::start(), 100, 81);
    assert_eq!(Reversi::start().evaluate(Player(0)), 0.0);
}

#[test]
fn evaluation_is_colour_symmetric() {
    // Othello's board has no orientation: the colour swap only exchanges x/o and the mover.
    for (a, b) in [
        ("8/8/3x4/3xx3/3xo3/8/8/8 o", "8/8/3o4/3oo3/3ox3/8/8/8 x"),
        (
            "x7/1o6/2xo4/3xo3/3oxx2/8/8/8 x",
            "o7/1x6/2ox4/3ox3/3xoo2/8/8/8 o",
        ),
    ] {
        crate::game::check::assert_mirrored_evaluation::<Reversi>(a, b);
    }
}

#[test]
fn corners_and_mobility_evaluate_higher() {
    use crate::game::check::evaluation_of;
    // Same discs, but x holds a corner instead of an edge square.
    let corner = evaluation_of::<Reversi>("x7/1o6/2xo4/3xo3/3oxx2/8/8/8 o", Player(0));
    let edge = evaluation_of::<Reversi>("1x6/1o6/2xo4/3xo3/3oxx2/8/8/8 o", Player(0));
    assert!(corner > edge, "{corner} <= {edge}");
    // Late in the game the disc count weighs: x owns almost the whole board.
    let late = evaluation_of::<Reversi>(
        "xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxoo/xxxxxo2 x",
        Player(0),
    );
    assert!(late > 0.5, "{late}");
}

#[test]
fn network_encoding_follows_the_mover_and_the_eight_symmetries() {
    fn map(b: u64, s: usize) -> u64 {
        (0..64)
            .filter(|&sq| b >> sq & 1 == 1)
            .fold(0, |acc, sq| acc | 1 << symmetric_square(s, sq))
    }
    let flip = |p: &Reversi| {
        let (black, white) = p.black_white();
        Reversi::from_discs(white, black, p.side ^ 1)
    };
    let image = |s: usize| {
        move |p: &Reversi| {
            let (black, white) = p.black_white();
            Reversi::from_discs(map(black, s), map(white, s), p.side)
        }
    };
    let images: Vec<_> = (1..8).map(image).collect();
    let mut all: Vec<crate::game::features::check::Image<'_, Reversi>> = vec![(0, &flip)];
    for (k, f) in images.iter().enumerate() {
        all.push((k + 1, f));
    }
    crate::game::features::check::check_encoding::<Reversi>(4, 20, &all);
}
