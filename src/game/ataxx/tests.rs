//! Ataxx tests: clones and jumps, captures, gaps, forced passes, the end of a game, uniform
//! random moves and perft.

use super::*;
use crate::game::check::random_games;
use crate::game::perft::perft;

fn pos(text: &str) -> Ataxx {
    Ataxx::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves_of(p: &Ataxx) -> Vec<String> {
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut v: Vec<String> = list.iter().map(|&m| p.format_move(m)).collect();
    v.sort();
    v
}

fn played(p: &Ataxx, m: &str) -> Ataxx {
    let mut q = p.clone();
    q.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    q
}

#[test]
fn random_games_keep_invariants() {
    let stats = random_games(&Ataxx::start(), 600, 7);
    assert_eq!(stats.games, 600);
    assert_eq!(stats.capped, 0);
    assert!(stats.decisive > 0);
    // Positions with gaps (python-ataxx's "4 corners" and "4 sides" starts).
    random_games(&pos("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1"), 150, 8);
    random_games(&pos("x5o/7/3-3/2-1-2/3-3/7/o5x x 0 1"), 150, 9);
}

#[test]
fn random_move_is_uniform() {
    let p = played(&played(&Ataxx::start(), "b6"), "f6");
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut counts = std::collections::HashMap::new();
    let mut rng = Rng::new(3);
    let draws = 200 * list.len() as u32;
    for _ in 0..draws {
        *counts
            .entry(p.random_move(&mut rng, &mut MoveList::new()).unwrap())
            .or_insert(0u32) += 1;
    }
    assert_eq!(counts.len(), list.len());
    for (_, &c) in counts.iter() {
        assert!((120..=280).contains(&c), "count {c} far from 200");
    }
}

#[test]
fn random_move_is_uniform_when_empty_squares_are_fewer_than_pieces() {
    // 10 empty squares, 20 x pieces: jumps are located from the empty squares.
    let p = pos("xxxxxxx/xxxxxxx/xxxxxx1/ooooo2/oooooo1/ooo4/ooooooo x 0 1");
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    assert!(list.len() > 5);
    let mut counts = std::collections::HashMap::new();
    let mut rng = Rng::new(4);
    for _ in 0..200 * list.len() as u32 {
        let m = p.random_move(&mut rng, &mut MoveList::new()).unwrap();
        assert!(list.contains(m));
        *counts.entry(m).or_insert(0u32) += 1;
    }
    assert_eq!(counts.len(), list.len());
    for (_, &c) in counts.iter() {
        assert!((120..=280).contains(&c), "count {c} far from 200");
    }
}

#[test]
fn start_position_and_perft() {
    let s = Ataxx::start();
    assert_eq!(s.to_position(), Ataxx::INFO.start);
    assert_eq!(pos(Ataxx::INFO.start), s);
    assert_eq!(perft(&s, 1), 16);
    assert_eq!(perft(&s, 2), 256);
    assert_eq!(perft(&s, 3), 6460);
    // Clones by destination (3 + 3), jumps from a7 (5) and g1 (5).
    let m = moves_of(&s);
    assert!(m.contains(&"b6".to_string()) && m.contains(&"g1e3".to_string()));
}

#[test]
fn clone_keeps_the_origin_and_jump_empties_it() {
    let s = Ataxx::start();
    let c = played(&s, "b6");
    assert_eq!(c.to_position(), "x5o/1x5/7/7/7/7/o5x o 0 1");
    let j = played(&s, "a7c5");
    assert_eq!(j.to_position(), "6o/7/2x4/7/7/7/o5x o 1 1");
}

#[test]
fn captures_convert_all_neighbours_of_the_destination() {
    // o on a3, b2, c2 and d4; x clones a1-a2: a3 and b2 turn (8-adjacent), c2, d4 do not.
    let p = pos("7/7/7/3o3/o6/1oo4/x6 x 0 1");
    let after = played(&p, "a2");
    assert_eq!(after.to_position(), "7/7/7/3o3/x6/xxo4/x6 o 0 1");
    // A jump captures around its destination too, and advances the clock.
    let q = pos("7/7/7/3o3/7/7/x6 x 5 1");
    assert_eq!(played(&q, "a1c3").to_position(), "7/7/7/3x3/2x4/7/7 o 6 1");
}

#[test]
fn gaps_cannot_be_entered() {
    // x on a1; b1, a2, b2 are gaps: no clone; jumps to the distance-2 ring except gaps.
    let p = pos("6o/7/7/7/--5/--5/x-5 x 0 1");
    assert_eq!(moves_of(&p), vec!["a1c1", "a1c2", "a1c3"]);
    assert!(matches!(
        p.parse_move("b2"),
        Err(GameError::IllegalMove { .. })
    ));
    assert!(matches!(
        p.parse_move("a1a3"),
        Err(GameError::IllegalMove { .. })
    ));
}

#[test]
fn pass_only_when_forced() {
    // x on a1 is walled in by o pieces and gaps: it must pass while o can move.
    let p = pos("7/7/7/7/---4/oo-4/xo-4 x 0 1");
    assert_eq!(moves_of(&p), vec!["0000"]);
    assert_eq!(p.outcome(), None);
    let after = played(&p, "0000");
    assert_eq!(after.to_position(), "7/7/7/7/---4/oo-4/xo-4 o 1 1");
    assert!(played(&p, "pass") == after);
    // With a move available the pass is illegal.
    assert!(matches!(
        Ataxx::start().parse_move("0000"),
        Err(GameError::IllegalMove { .. })
    ));
}

#[test]
fn game_ends_when_a_side_has_no_pieces() {
    let p = pos("7/7/7/7/7/1o5/x6 x 0 1");
    // Cloning to b1 or a2 captures the only o piece: x wins at once.
    let after = played(&p, "a2");
    assert_eq!(after.outcome(), Some(Outcome::win(Player(0), 2)));
    assert!(moves_of(&after).is_empty());
    assert_eq!(
        pos("7/7/7/7/7/7/o6 x 0 1").outcome(),
        Some(Outcome::win(Player(1), 2))
    );
}

#[test]
fn game_ends_on_a_full_board_or_when_nobody_can_move() {
    let full = pos("xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/ooooooo/ooooooo/ooooooo o 0 1");
    assert_eq!(full.outcome(), Some(Outcome::win(Player(0), 2)));
    // The only empty square (g7) is out of everybody's reach behind gaps: by count.
    let stuck = pos("xxxx--1/xxxx---/xxxx---/ooooooo/ooooooo/ooooooo/ooooooo x 0 1");
    assert_eq!(stuck.outcome(), Some(Outcome::win(Player(1), 2)));
    assert!(moves_of(&stuck).is_empty());
}

#[test]
fn fifty_move_rule_draws() {
    let p = pos("x5o/7/7/7/7/7/o5x x 99 60");
    assert_eq!(p.outcome(), None);
    // A jump makes it 100: drawn, although x leads on pieces.
    let j = played(&p, "a7c5");
    assert_eq!(j.clock, 100);
    assert_eq!(j.outcome(), Some(Outcome::draw(2)));
    assert!(moves_of(&j).is_empty());
    // A clone resets the clock.
    assert_eq!(played(&p, "b6").clock, 0);
    // A full board at clock 100 is scored by pieces, as python-ataxx does.
    let full = pos("xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/ooooooo/ooooooo/ooooooo o 100 1");
    assert_eq!(full.outcome(), Some(Outcome::win(Player(0), 2)));
}

#[test]
fn fullmove_number_counts_after_o() {
    let s = Ataxx::start();
    let a = played(&s, "b6");
    assert_eq!(a.fullmove, 1);
    let b = played(&a, "f6");
    assert_eq!(b.to_position(), "x5o/1x3o1/7/7/7/7/o5x x 0 2");
}

#[test]
fn other_fen_dialects_are_read() {
    let s = Ataxx::start();
    assert_eq!(pos("x5o/7/7/7/7/7/o5x"), s);
    assert_eq!(pos("x5o/7/7/7/7/7/o5x x"), s);
    assert_eq!(pos("X5O/7/7/7/7/7/O5X b 0 1"), s);
    assert_eq!(pos("P5p/7/7/7/7/7/p5P w 0 1"), s);
    assert_eq!(pos("P5p/7/7/7/7/7/p5P w - - 0 1"), s);
    assert_eq!(pos("P5p/7/7/7/7/7/p5P b 0 1").side, 1);
    assert_eq!(pos("x5o/7/7/7/7/7/o5x w 0 1").side, 1);
    assert_eq!(
        pos("x5o/7/2*1*2/7/7/7/o5x x"),
        pos("x5o/7/2-1-2/7/7/7/o5x x")
    );
}

#[test]
fn move_notation() {
    let s = Ataxx::start();
    assert_eq!(s.parse_move("P@b6"), s.parse_move("b6"));
    assert_eq!(s.parse_move(" B6 "), s.parse_move("b6"));
    let m = s.parse_move("g1e3").unwrap();
    assert_eq!(s.format_move(m), "g1e3");
    assert_eq!(s.format_move_in(m, Dialect::Gtp), "g1e3");
}

#[test]
fn bad_positions_name_the_field() {
    let field = |text: &str| match Ataxx::parse_position(text) {
        Err(GameError::Position { field, .. }) => field,
        other => panic!("{text}: expected a position error, got {other:?}"),
    };
    assert_eq!(field(""), "board");
    assert_eq!(field("   "), "board");
    assert_eq!(field("x5o/7/7/7/7/7 x 0 1"), "board");
    assert_eq!(field("x5o/7/7/7/7/7/7/o5x x 0 1"), "board");
    assert_eq!(field("x5o/7/7/7/7/7/o6x x 0 1"), "board");
    assert_eq!(field("x5o/7/7/7/7/7/o4x x 0 1"), "board");
    assert_eq!(field("x5o/7/7/7/7/7/o5k x 0 1"), "board");
    assert_eq!(field("x5o/7/7/7/7/7/o8 x 0 1"), "board");
    assert_eq!(field("x5o/7/7/7/7/7/o0x x 0 1"), "board");
    assert_eq!(field("x5o/7/7/7/7/7/o5é x 0 1"), "board");
    assert_eq!(field("x5o/7/7/7/7/7/o5x z 0 1"), "side to move");
    assert_eq!(field("x5o/7/7/7/7/7/o5x xo 0 1"), "side to move");
    assert_eq!(field("x5o/7/7/7/7/7/o5x x -3 1"), "halfmove clock");
    assert_eq!(field("x5o/7/7/7/7/7/o5x x abc 1"), "halfmove clock");
    assert_eq!(
        field("x5o/7/7/7/7/7/o5x x 99999999999999999999999 1"),
        "halfmove clock"
    );
    assert_eq!(field("x5o/7/7/7/7/7/o5x x 0 1.5"), "fullmove number");
    assert_eq!(field("x5o/7/7/7/7/7/o5x x 0 4294967296"), "fullmove number");
}

#[test]
fn bad_moves_are_errors() {
    let s = Ataxx::start();
    for text in [
        "", "  ", "a", "h1", "a8", "a0", "a1a", "a7a6a5", "é", "😀😀", "P@", "P@h9",
    ] {
        assert!(
            matches!(s.parse_move(text), Err(GameError::MoveSyntax { .. })),
            "{text:?}"
        );
    }
    // Parses, but a jump must be exactly two squares.
    assert!(matches!(
        s.parse_move("a7b6"),
        Err(GameError::MoveSyntax { .. })
    ));
    assert!(matches!(
        s.parse_move("a7d7"),
        Err(GameError::MoveSyntax { .. })
    ));
    // Well-formed but illegal: occupied destination, no own piece near, not own piece.
    for text in ["g7", "d4", "g7e7", "a1c1", "c5a7", "d4f6"] {
        assert!(
            matches!(s.parse_move(text), Err(GameError::IllegalMove { .. })),
            "{text:?}"
        );
    }
    let over = pos("7/7/7/7/7/7/x6 o 0 1");
    assert!(matches!(
        over.parse_move("0000"),
        Err(GameError::IllegalMove { .. })
    ));
}

#[test]
fn hash_ignores_fullmove_but_not_clock() {
    let a = pos("x5o/7/7/7/7/7/o5x x 0 1");
    let b = pos("x5o/7/7/7/7/7/o5x x 0 7");
    let c = pos("x5o/7/7/7/7/7/o5x x 3 1");
    assert_eq!(a.hash(), b.hash());
    assert_ne!(a.hash(), c.hash());
    assert_ne!(a.hash(), pos("x5o/7/7/3-3/7/7/o5x x 0 1").hash());
}

fn ataxx_mirror(text: &str) -> String {
    let mut fields = text.split_whitespace();
    let board: Vec<String> = fields
        .next()
        .unwrap()
        .split('/')
        .rev()
        .map(|row| {
            row.chars()
                .map(|c| match c {
                    'x' => 'o',
                    'o' => 'x',
                    c => c,
                })
                .collect()
        })
        .collect();
    let side = if fields.next() == Some("x") { "o" } else { "x" };
    let rest: Vec<&str> = fields.collect();
    format!("{} {side} {}", board.join("/"), rest.join(" "))
}

#[test]
fn evaluation_invariants_hold() {
    crate::game::check::evaluation_invariants(&Ataxx::start(), 60, 61);
    assert_eq!(Ataxx::start().evaluate(Player(0)), 0.0);
}

#[test]
fn evaluation_is_colour_symmetric() {
    for text in ["x5o/1x5/7/3-3/7/7/o5x o 3 5", "xxx3o/xo5/7/7/7/7/o5x x 0 1"] {
        crate::game::check::assert_mirrored_evaluation::<Ataxx>(text, &ataxx_mirror(text));
    }
}

#[test]
fn more_pieces_evaluate_higher() {
    use crate::game::check::evaluation_of;
    let v = evaluation_of::<Ataxx>("xxx3o/xo5/7/7/7/7/o5x x 0 1", Player(0));
    assert!(v > 0.2, "{v}");
    assert!(evaluation_of::<Ataxx>("xxx3o/xo5/7/7/7/7/o5x x 0 1", Player(1)) < -0.2);
}

#[test]
fn captures_are_flagged() {
    let p = pos("x5o/7/7/7/7/7/o5x x 0 1");
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    assert!(list.iter().all(|&m| !p.is_capture(m)));
    let p = pos("xo5/7/7/7/7/7/7 x 0 1");
    p.legal_moves(&mut list);
    let caps = list.iter().filter(|&&m| p.is_capture(m)).count();
    // Every clone or jump landing next to the o on b7: a6, b6, c6, c7 and jumps to c5?
    // (c5 is two away from b7: not adjacent.) Jumps to c6 and c7... are adjacent.
    assert!(caps >= 3, "{caps}");
    assert!(p.is_capture(p.parse_move("b6").unwrap()));
    assert!(!p.is_capture(p.parse_move("a7a5").unwrap()));
}
