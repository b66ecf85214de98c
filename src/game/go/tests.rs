//! Go rules on hand-built positions: captures, snapback, ko, superko, suicide and scoring
//! (perft against OpenSpiel is in tests/data/go.perft).

use super::*;
use crate::game::check::random_games;

/// A 9x9 position from its rows, top (row 9) first; missing rows above are empty.
fn board9(rows: &[&str], side: &str) -> Go9 {
    let mut all: Vec<String> = vec!["9".into(); 9 - rows.len()];
    all.extend(rows.iter().map(|r| r.to_string()));
    Go9::parse_position(&format!("{} {side}", all.join("/"))).unwrap()
}

fn play(g: &mut Go9, moves: &str) {
    for m in moves.split_whitespace() {
        g.play_text(m)
            .unwrap_or_else(|e| panic!("{m} in {}: {e}", g.to_position()));
    }
}

fn error(g: &Go9, m: &str) -> String {
    g.parse_move(m).map(|_| ()).unwrap_err().to_string()
}

fn legal(g: &Go9, m: &str) -> bool {
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    let mv = Move(Go9::read_vertex(m).unwrap() as u16);
    list.contains(mv)
}

#[test]
fn snapback_recaptures_five_stones_and_is_not_ko() {
    // White's chain A1-A2-B2-C2 has liberties B1 and C1. Black throws in at B1, White takes it
    // at C1, and White's chain of five is left with the one liberty B1.
    let mut g = board9(&["XXX6", "OOOX5", "O2X5"], "b");
    play(&mut g, "B1 C1");
    assert_eq!(g.captures(), [0, 1]);
    assert_eq!(g.ko, NO_KO, "White's capturing stone joined a chain: no ko");
    play(&mut g, "B1");
    assert_eq!(g.captures(), [5, 1]);
    assert_eq!(
        g.to_position(),
        "9/9/9/9/9/9/XXX6/3X5/1X1X5 w komi 7.5 captures 5 1"
    );
    assert_eq!(g.hash(), g.compute_hash());
}

#[test]
fn ko_forbids_the_immediate_retake_only() {
    let mut g = board9(&[".XO6", "XO1O5", "1XO6"], "b");
    play(&mut g, "C2");
    assert_eq!(g.captures(), [1, 0]);
    assert_eq!(Go9::vertex(g.ko as usize), "B2");
    assert!(error(&g, "B2").contains("ko"), "{}", error(&g, "B2"));
    assert!(!legal(&g, "B2"));
    assert!(g.to_position().ends_with("ko B2 captures 1 0"));
    // A threat and its answer, then the retake is legal.
    play(&mut g, "H8 H7 B2");
    assert_eq!(g.captures(), [1, 1]);
}

#[test]
fn positional_superko_forbids_a_double_ko_cycle_that_simple_ko_allows() {
    // Ko A (bottom left): Black takes at C2. Ko B (top right): White takes at H8.
    let rows = [
        "6OX1", "5OX1X", "6OX1", "9", "9", "9", ".XO6", "XO1O5", "1XO6",
    ];
    let start = Go9::parse_position(&format!("{} b", rows.join("/"))).unwrap();
    let mut g = start.clone();
    // Black takes A, White takes B, Black passes, White retakes A: Black's retake of B would
    // bring back the start's board, which simple ko (last capture at A) does not see.
    play(&mut g, "C2 H8 pass B2");
    assert_eq!(Go9::vertex(g.ko as usize), "C2");
    let e = error(&g, "G8");
    assert!(e.contains("superko"), "{e}");
    assert!(!legal(&g, "G8"));
    // The same position read from its string has no history: the retake is legal there.
    let fresh = Go9::parse_position(&g.to_position()).unwrap();
    assert_eq!(fresh, g);
    assert!(legal(&fresh, "G8"));
    let mut after = fresh.clone();
    play(&mut after, "G8");
    assert_eq!(
        after.board, start.board,
        "the retake recreates the start's board"
    );
}

#[test]
fn situational_superko_allows_the_retake_that_recreates_a_board_with_the_other_side_to_move() {
    let rows = [
        "6OX1", "5OX1X", "6OX1", "9", "9", "9", ".XO6", "XO1O5", "1XO6",
    ];
    let text = format!("{} b superko situational", rows.join("/"));
    let start = Go9::parse_position(&text).unwrap();
    assert!(start
        .to_position()
        .ends_with(" b komi 7.5 superko situational"));
    assert_eq!(Go9::parse_position(&start.to_position()).unwrap(), start);
    let mut g = start.clone();
    // The cycle of the positional test: G8 brings back the start's board, but with White to
    // move, and the start had Black to move.
    play(&mut g, "C2 H8 pass B2");
    assert!(legal(&g, "G8"));
    play(&mut g, "G8");
    assert_eq!(g.board, start.board);
    // White passes (a pass may repeat a position): the start again, Black to move. Black's C2
    // would now bring back the board of the first C2 with White to move, as it was then:
    // forbidden, and not by simple ko (the pass cleared it).
    play(&mut g, "pass");
    assert_eq!(g.ko, NO_KO);
    let e = error(&g, "C2");
    assert!(e.contains("superko"), "{e}");
    // Switching a start position back to positional superko, and bad values.
    let mut positional = start.clone();
    assert!(positional.set_situational_superko(false));
    assert!(!positional.to_position().contains("superko"));
    play(&mut positional, "C2 H8 pass B2");
    assert!(!legal(&positional, "G8"));
    assert!(Go9::parse_position("9/9/9/9/9/9/9/9/9 b superko natural").is_err());
    let mut kag = KillallGo::start();
    assert!(!kag.set_situational_superko(true));
    assert!(KillallGo::parse_position("9/9/9/9/9/9/9/9/9 b superko situational").is_err());
}

/// Every move of random 5x5 games under both superko rules against a check that compares
/// each candidate board with the whole history (the last [`HISTORY`] positions, as the game
/// does), counting the moves on which the two rules disagree.
#[test]
fn superko_rules_agree_with_a_whole_history_check() {
    let mut disagreements = 0;
    for situational in [false, true] {
        let mut rng = crate::rng::Rng::new(7);
        for _ in 0..300 {
            let mut g = Go5::start();
            assert!(g.set_situational_superko(situational));
            let mut seen: Vec<([u8; 49], u8)> = vec![(g.board, g.to_move)];
            let mut list = MoveList::new();
            while g.outcome().is_none() && seen.len() < HISTORY {
                g.legal_moves(&mut list);
                for row in 0..5 {
                    for col in 0..5 {
                        let p = Go5::point(row, col);
                        let mut after = g.clone();
                        let simple = g.board[p] == EMPTY && p != g.ko as usize;
                        let Some(_) = simple.then(|| g.board_after(p, g.colour())).flatten() else {
                            assert!(!list.contains(Move(p as u16)));
                            continue;
                        };
                        after.place(p, g.colour());
                        let next = g.to_move ^ 1;
                        let repeats = |sit: bool| {
                            seen.iter()
                                .any(|&(b, side)| b == after.board && (!sit || side == next))
                        };
                        assert_eq!(list.contains(Move(p as u16)), !repeats(situational));
                        disagreements += usize::from(repeats(false) != repeats(true));
                    }
                }
                // Random moves, with passes rare so that cycles can form.
                let m = loop {
                    let m = list[rng.below(list.len() as u32) as usize];
                    if m != PASS || rng.below(8) == 0 {
                        break m;
                    }
                };
                g.play(m);
                seen.push((g.board, g.to_move));
            }
        }
    }
    assert!(disagreements > 0, "no move told the rules apart");
}

#[test]
fn suicide_is_illegal_for_one_stone_and_for_a_chain() {
    let g = board9(&["O8", "1O7"], "b");
    assert!(error(&g, "A1").contains("suicide"));
    assert!(!legal(&g, "A1"));
    // Black's A1 would join B1 and leave the pair without liberties.
    let g = board9(&["OO7", "X1O6"], "b");
    assert!(error(&g, "B1").contains("suicide"));
    // The same shape where the move captures is legal: White C1 has no other liberty.
    let g = board9(&["OOX6", "X1OX5"], "b");
    assert!(legal(&g, "B1"));
    let mut g = g;
    play(&mut g, "B1");
    assert_eq!(g.captures(), [1, 0]);
}

#[test]
fn a_chain_touching_the_move_twice_is_captured_once() {
    // White's L-shaped chain B1-B2-C2 has the single liberty C1, touched by two of its stones;
    // Black's C1 takes three stones, and its own chains merge.
    let mut g = board9(&["1XX6", "XOOX5", "XO1X5"], "b");
    assert!(g.is_capture(Move(Go9::read_vertex("C1").unwrap() as u16)));
    play(&mut g, "C1");
    assert_eq!(g.captures(), [3, 0]);
    assert_eq!(g.hash(), g.compute_hash());
    let reread = Go9::parse_position(&g.to_position()).unwrap();
    let mut a = MoveList::new();
    let mut b = MoveList::new();
    g.legal_moves(&mut a);
    reread.legal_moves(&mut b);
    assert_eq!(a.as_slice(), b.as_slice());
}

#[test]
fn area_scoring_with_komi_and_two_passes() {
    let rows = "2XO1/2XO1/2XO1/2XO1/2XO1";
    let g = Go5::parse_position(&format!("{rows} b komi 7.5")).unwrap();
    assert_eq!(g.area(), (15, 10));
    assert_eq!(g.area_text(), "W+2.5");
    let g = Go5::parse_position(&format!("{rows} b komi 5")).unwrap();
    assert_eq!(g.area_text(), "0");
    let mut g = Go5::parse_position(&format!("{rows} b komi 0.5")).unwrap();
    assert_eq!(g.area_text(), "B+4.5");
    assert_eq!(g.outcome(), None);
    g.play_text("pass").unwrap();
    assert_eq!(g.outcome(), None);
    g.play_text("pass").unwrap();
    assert_eq!(g.outcome(), Some(Outcome::win(Player(0), 2)));
    assert_eq!(g.count_moves(), 0);
    // A shared empty region (dame) counts for nobody.
    let g = Go5::parse_position("2X1O/2X1O/2X1O/2X1O/2X1O b komi 0").unwrap();
    assert_eq!(g.area(), (15, 5));
}

#[test]
fn bad_positions_are_refused() {
    for bad in [
        "9/9/9/9/9/9/9/9/9 x",
        "9/9/9/9/9/9/9/9/8 b",
        "9/9/9/9/9/9/9/9/9Z b",
        "9/9/9/9/9/9/9/O8/XO7 b",
        "9/9/9/9/9/9/9/9/9 b komi many",
        "9/9/9/9/9/9/9/9/9 b ko A1 ko",
        "9/9/9/9/9/9/9/9/X8 b ko A1",
        "9/9/9/9/9/9/9/9/9 b passes 3",
        "9/9/9/9/9/9/9/9/9 b rules japanese",
    ] {
        assert!(Go9::parse_position(bad).is_err(), "{bad}");
    }
    let g = Go9::start();
    for bad in ["I5", "K1", "A10", "A0", "Z", "", "resign"] {
        assert!(g.parse_move(bad).is_err(), "{bad}");
    }
    assert_eq!(g.parse_move("j9").unwrap(), g.parse_move("J9").unwrap());
    assert_eq!(g.parse_move("PASS").unwrap(), PASS);
}

#[test]
fn playouts_never_fill_their_own_eyes_and_end_by_passes() {
    let stats = random_games(&Go9::start(), 60, 31);
    assert_eq!(stats.capped, 0, "a random 9x9 game reached the ply cap");
    // An eye of Black's: Black's playout move is never A1.
    let g = board9(&["XX7", "1X7"], "b");
    let mut rng = Rng::new(3);
    let mut buf = MoveList::new();
    for _ in 0..2000 {
        let m = g.random_move(&mut rng, &mut buf).unwrap();
        assert_ne!(g.format_move(m), "A1");
    }
}

#[test]
fn random_games_keep_invariants_on_every_size() {
    random_games(&Go5::start(), 200, 41);
    random_games(&Go7::start(), 100, 42);
    random_games(&Go13::start(), 10, 43);
    random_games(&Go19::start(), 4, 44);
}

#[test]
fn final_score_removes_the_stones_playouts_find_dead() {
    // Black owns A-E, White F-J; a white stone at B5 and a black one at H5 cannot live.
    let g =
        Go9::parse_position("4XO3/4XO3/4XO3/4XO3/1O2XO1X1/4XO3/4XO3/4XO3/4XO3 b komi 7 passes 2")
            .unwrap();
    assert_eq!(g.status_list("dead").unwrap(), vec!["B5", "H5"]);
    assert_eq!(g.status_list("alive").unwrap().len(), 18);
    assert_eq!(g.status_list("seki").unwrap(), Vec::<String>::new());
    assert_eq!(g.status_list("dying"), None);
    // 45 to 36 with the dead stones off, komi 7; the raw count gives both sides' areas away.
    assert_eq!(g.final_score_text(), "B+2");
    assert_eq!(g.area(), (10, 10));
    assert_eq!(g.score_text().as_deref(), Some("B+2"));
    // Nothing is dead in a settled position without intruders.
    let settled =
        Go9::parse_position("4XO3/4XO3/4XO3/4XO3/4XO3/4XO3/4XO3/4XO3/4XO3 b komi 7").unwrap();
    assert!(settled.status_list("dead").unwrap().is_empty());
    assert_eq!(settled.final_score_text(), "B+2");
}

#[test]
fn ownership_is_from_the_side_to_move_top_row_first() {
    // Black's top two rows are alive with three eyes: every playout leaves them Black's.
    for (side, sign) in [("b", 1.0), ("w", -1.0)] {
        let g = Go5::parse_position(&format!(".X.X./XXXXX/5/5/5 {side}")).unwrap();
        let own = Territory::ownership(&g).unwrap();
        assert_eq!(own.len(), 25);
        assert!(own[..10].iter().all(|&v| v == sign), "{own:?}");
        assert!(own.iter().all(|v| (-1.0..=1.0).contains(v)));
    }
    assert!(crate::game::connect4::ConnectFour::start()
        .territory()
        .is_none());
}

#[test]
fn network_encoding_counts_liberties_and_follows_the_eight_symmetries() {
    use crate::game::Features;
    let images: Vec<_> = (1..8)
        .map(|s| move |p: &Go9| super::killall_tests::image(p, s))
        .collect();
    let all: Vec<crate::game::features::check::Image<'_, Go9>> = images
        .iter()
        .enumerate()
        .map(|(k, f)| (k + 1, f as &dyn Fn(&Go9) -> Go9))
        .collect();
    crate::game::features::check::check_encoding::<Go9>(9, 6, &all);
    // Black to move. White's E5 is in atari (plane 3: the opponent's, one liberty); White's J9
    // has two liberties (plane 4); Black's stones around E5 and its A1-B1 pair have three each
    // (plane 2: the mover's, three or more).
    let g = board9(&["8O", "9", "9", "9", "3XOX3", "4X4", "9", "9", "XX7"], "b");
    let mut f = Vec::new();
    g.features(&mut f);
    let at = |plane: usize, v: &str| {
        let p = Go9::read_vertex(v).unwrap();
        let (row, col) = (p / 11 - 1, p % 11 - 1);
        (plane * 81 + row * 9 + col) as u16
    };
    f.sort_unstable();
    let mut want = vec![
        at(2, "A1"),
        at(2, "B1"),
        at(2, "D5"),
        at(2, "F5"),
        at(2, "E4"),
        at(3, "E5"),
        at(4, "J9"),
    ];
    want.sort_unstable();
    assert_eq!(f, want);
    assert_eq!(Go9::INPUTS, 6 * 81 + 1);
}

#[test]
fn playout_moves_skip_only_the_superko_check() {
    // Along knowledge playouts of 9x9 games: the playouts' suicide test agrees with the rules'
    // on every empty point for both colours, and every playout move is a pass or empty, not
    // suicide, not the simple-ko retake and not the mover's own eye.
    let mut rng = Rng::new(17);
    let mut buf = MoveList::new();
    let mut checked = 0;
    for _ in 0..20 {
        let mut g = Go9::start();
        for _ in 0..150 {
            for row in 0..9 {
                for col in 0..9 {
                    let p = Go9::point(row, col);
                    if g.board[p] == EMPTY {
                        for c in [BLACK, WHITE] {
                            assert_eq!(g.is_suicide(p, c), g.board_after(p, c).is_none());
                        }
                    }
                }
            }
            let Some(m) = g.policy_move(&mut rng, &mut buf) else {
                break;
            };
            if m != PASS {
                let p = m.0 as usize;
                let c = g.colour();
                assert_eq!(g.board[p], EMPTY);
                assert_ne!(p, g.ko as usize);
                assert!(!g.is_eye(p, c));
                assert!(g.board_after(p, c).is_some());
                checked += 1;
            }
            g.play(m);
        }
    }
    assert!(checked > 1000, "{checked}");
}
