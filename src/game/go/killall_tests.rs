//! Killall-Go rules on hand-built positions: the opening, Benson's life, the end of the game,
//! simple ko only, no own-eye filling, and a solve.

use super::*;
use crate::game::check::random_games;
use crate::solve::{solve, Algo, SolveConfig, Value};

/// A 9x9 Killall-Go position from its rows, top (row 9) first; missing rows above are empty.
fn board(rows: &[&str], side: &str) -> KillallGo {
    let mut all: Vec<String> = vec!["9".into(); 9 - rows.len()];
    all.extend(rows.iter().map(|r| r.to_string()));
    KillallGo::parse_position(&format!("{} {side}", all.join("/"))).unwrap()
}

fn play<G: Rules>(g: &mut G, moves: &str) {
    for m in moves.split_whitespace() {
        g.play_text(m)
            .unwrap_or_else(|e| panic!("{m} in {}: {e}", g.to_position()));
    }
}

fn moves<G: Rules>(g: &G) -> Vec<String> {
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    list.iter().map(|&m| g.format_move(m)).collect()
}

#[test]
fn black_places_four_stones_while_white_passes() {
    let mut g = KillallGo::start();
    assert_eq!(g.to_position(), KillallGo::INFO.start);
    assert_eq!(moves(&g).len(), 81, "every point, no pass");
    assert!(g.parse_move("pass").is_err());
    play(&mut g, "C7");
    assert_eq!(moves(&g), ["pass"]);
    assert!(g
        .parse_move("D4")
        .unwrap_err()
        .to_string()
        .contains("White passes"));
    play(&mut g, "pass G7 pass C3 pass G3");
    assert_eq!(g.to_position(), "9/9/2X3X2/9/9/9/2X3X2/9/9 w");
    assert_eq!(moves(&g).len(), 78, "77 points and the pass");
    assert!(g.outcome().is_none());
    // The opening is part of the position: its string and hash.
    let mut early = KillallGo::start();
    play(&mut early, "C7 pass");
    assert_eq!(early.to_position(), "9/9/2X6/9/9/9/9/9/9 b opening 5");
    assert_eq!(
        KillallGo::parse_position(&early.to_position()).unwrap(),
        early
    );
    assert_ne!(
        early.hash(),
        KillallGo::parse_position("9/9/2X6/9/9/9/9/9/9 b")
            .unwrap()
            .hash()
    );
    assert!(KillallGo::parse_position("9/9/9/9/9/9/9/9/9 w opening 7").is_err());
    // 7x7: two stones.
    let mut g7 = KillallGo7::start();
    play(&mut g7, "C3 pass E5");
    assert_eq!(moves(&g7).len(), 48);
}

#[test]
fn benson_finds_two_eyes_and_refuses_one_eye_and_false_eyes() {
    // Two one-point eyes in the corner (A1, C1): alive.
    let g = board(&["OOOO5", ".O.O5"], "b");
    assert_eq!(g.benson(WHITE).alive_stones, 6);
    assert_eq!(g.outcome(), Some(Outcome::win(Player(1), 2)));
    assert!(moves(&g).is_empty());
    // One eye: not alive.
    let g = board(&["OOO6", ".OX6"], "b");
    assert_eq!(g.benson(WHITE).alive_stones, 0);
    assert!(g.outcome().is_none());
    // Two regions, but the second (C1 onwards) is open to the rest of the board.
    let g = board(&["OOOO5", ".O.2X3"], "b");
    assert_eq!(g.benson(WHITE).alive_stones, 0);
    // A black stone inside an eye whose empty points are all liberties: still vital.
    let g = board(&["OOOOO4", ".O.XO4"], "b");
    assert_eq!(g.benson(WHITE).alive_stones, 7);
    // Two chains that share two eyes are alive together.
    let g = board(&["OO.OO4", ".O.O5"], "w");
    assert_eq!(
        g.benson(WHITE).alive_stones,
        0,
        "B2 chain has only A1 fully"
    );
    // E1 is shared with the lone F1, which has no second region: F1 dies, E1 stops counting,
    // and the big chain lives on A1 and C1.
    let g = board(&["OOOOO4", ".O.O.O3"], "w");
    assert_eq!(g.benson(WHITE).alive_stones, 7);
}

/// White's life kept through the moves, with Benson's test skipped after the moves that cannot
/// have brought it, is Benson's verdict on the position: random games from the start and from
/// three of the PCN paper's problems (11, 12 and 18), and on 7x7.
#[test]
fn white_life_kept_through_the_moves_is_bensons_verdict() {
    let problems = [
        "1OO1O4/XOOXO4/OOXOXXX2/XXXOX1X2/OXXOOX1X1/OXOO1OX2/1XXOXXX2/XXOOO4/1O3X3 w",
        "9/2OX1OXX1/1XXO1XXO1/3XO2O1/2X2OO1X/3XXXOO1/2XXOOXOO/XXOOOOXXX/1OX1XOX2 w",
        "3X1X1O1/3X1XXOX/2XXXOXO1/3XOOOOO/1XOXOOXOX/1XXOXXXOX/X1XOO1XX1/1XOO1OX1X/1O1OXOXO1 w",
    ];
    let mut starts = vec![KillallGo::start()];
    starts.extend(problems.map(|p| KillallGo::parse_position(p).unwrap()));
    let (lives, moves) = life_kept_through_random_games(&starts, 61);
    assert!(lives > 20 && moves > 5000, "{lives} lives in {moves} moves");
    let (lives, moves) = life_kept_through_random_games(&[KillallGo7::start()], 62);
    assert!(
        lives > 5 && moves > 1000,
        "7x7: {lives} lives in {moves} moves"
    );
}

/// Plays 60 random games from each start, checking White's life at every position; returns
/// the games White won by life and the moves played.
fn life_kept_through_random_games<const N: usize, const C: usize>(
    starts: &[Go<N, C, true>],
    seed: u64,
) -> (u32, u32) {
    let mut rng = crate::rng::Rng::new(seed);
    let mut list = MoveList::new();
    let (mut lives, mut moves) = (0, 0);
    for start in starts {
        for _ in 0..60 {
            let mut g = start.clone();
            loop {
                assert_eq!(
                    g.white_alive,
                    g.benson(WHITE).alive_stones > 0,
                    "{}",
                    g.to_position()
                );
                match g.random_move(&mut rng, &mut list) {
                    Some(m) if g.outcome().is_none() && moves < 1_000_000 => {
                        g.play(m);
                        moves += 1;
                    }
                    _ => break,
                }
            }
            lives += g.white_alive as u32;
        }
    }
    (lives, moves)
}

#[test]
fn white_wins_by_life_black_only_by_killing_everything() {
    // White closes its second eye with D1: the game ends there.
    let mut g = board(&["OOOO5", ".O7"], "w");
    assert!(g.outcome().is_none());
    play(&mut g, "D1");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Player(1), 2)),
        "{}",
        g.to_position()
    );
    assert!(g.parse_move("E5").is_err(), "the game is over");
    // Two passes with a white stone left: White wins; with none: Black wins.
    let mut g = board(&["O8"], "w");
    play(&mut g, "pass pass");
    assert_eq!(g.outcome(), Some(Outcome::win(Player(1), 2)));
    let mut g = board(&["X8"], "w");
    play(&mut g, "pass pass");
    assert_eq!(g.outcome(), Some(Outcome::win(Player(0), 2)));
    assert_eq!(g.score_text().as_deref(), Some("B+1"));
}

#[test]
fn only_simple_ko_and_no_own_eye_filling() {
    // The double-ko cycle that positional superko forbids in Go is legal here.
    let rows = [
        "6OX1", "5OX1X", "6OX1", "9", "9", "9", ".XO6", "XO1O5", "1XO6",
    ];
    let mut g = KillallGo::parse_position(&format!("{} b", rows.join("/"))).unwrap();
    let start = g.clone();
    play(&mut g, "C2 H8 pass B2 G8");
    assert_eq!(g.board, start.board, "the cycle is back");
    // Black may not fill its own eye (A1 of the corner), White may not play there (suicide).
    let g = board(&["XX7", ".X7"], "b");
    assert!(g.parse_move("A1").unwrap_err().to_string().contains("eye"));
    assert!(!moves(&g).contains(&"A1".to_string()));
}

#[test]
fn killallgo7_ends_when_black_covers_the_board() {
    // Black everywhere but two separate one-point eyes: unconditionally safe, the whole board.
    let full = "X.XXXXX/XXXXXXX/XXXXX.X/XXXXXXX/XXXXXXX/XXXXXXX/XXXXXXX w";
    let g = KillallGo7::parse_position(full).unwrap();
    assert!(g.benson(BLACK).covers_board);
    assert_eq!(g.outcome(), Some(Outcome::win(Player(0), 2)));
    // One eye only: play goes on.
    let g = KillallGo7::parse_position("X.XXXXX/XXXXXXX/7/7/7/7/7 w").unwrap();
    assert!(!g.benson(BLACK).covers_board);
    assert!(g.outcome().is_none());
}

#[test]
fn random_games_keep_invariants() {
    let s = random_games(&KillallGo::start(), 60, 51);
    assert!(s.decisive + s.capped == 60 && s.decisive >= 55, "{s:?}");
    random_games(&KillallGo7::start(), 100, 52);
}

#[test]
fn dfpn_and_pns_prove_a_living_move_and_a_kill() {
    // White to move lives with D1 (eyes A1 and C1 against the edge).
    let g = board(&["OOOO5", ".O7"], "w");
    for algo in [Algo::Dfpn, Algo::Pns] {
        let cfg = SolveConfig {
            algo,
            max_nodes: Some(200_000),
            ..SolveConfig::default()
        };
        let r = solve(&g, &cfg);
        assert_eq!(r.value, Value::Win, "{algo:?}");
    }
    // The last white stone in atari and Black everywhere else (two eyes): Black captures,
    // White can only pass (every point is suicide), Black may not fill its eyes and passes.
    let mut rows = vec![".X.XXXXXX"];
    rows.extend(["XXXXXXXXX"; 7]);
    rows.push("XXXXXXX.O");
    let g = board(&rows, "b");
    let r = solve(
        &g,
        &SolveConfig {
            max_nodes: Some(200_000),
            ..SolveConfig::default()
        },
    );
    assert_eq!(r.value, Value::Win);
}

/// `pos` under symmetry `s`, rebuilt from its position string: the board's points and the ko
/// point moved, every other field kept.
pub(super) fn image<const K: bool>(pos: &Go<9, 121, K>, s: usize) -> Go<9, 121, K> {
    let text = pos.to_position();
    let mut fields = text.split_whitespace();
    let board = fields.next().unwrap();
    let mut grid = [['.'; 9]; 9];
    for (i, row_text) in board.split('/').enumerate() {
        let mut col = 0;
        for c in row_text.chars() {
            match c.to_digit(10) {
                Some(d) => col += d as usize,
                None => {
                    let (r, c2) = crate::game::square_symmetry(s, 8 - i, col, 9);
                    grid[8 - r][c2] = c;
                    col += 1;
                }
            }
        }
    }
    let rows: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
    let mut out = rows.join("/");
    let mut rest = fields.peekable();
    while let Some(f) = rest.next() {
        out.push(' ');
        out.push_str(f);
        if f == "ko" {
            let v = rest.next().unwrap();
            let col = COLUMNS.iter().position(|&c| c == v.as_bytes()[0]).unwrap();
            let row: usize = v[1..].parse::<usize>().unwrap() - 1;
            let (r, c) = crate::game::square_symmetry(s, row, col, 9);
            out.push_str(&format!(" {}{}", COLUMNS[c] as char, r + 1));
        }
    }
    Go::<9, 121, K>::parse_position(&out).unwrap_or_else(|e| panic!("{out}: {e}"))
}

#[test]
fn network_encoding_follows_the_mover_and_the_eight_symmetries() {
    let images: Vec<_> = (1..8).map(|s| move |p: &KillallGo| image(p, s)).collect();
    let all: Vec<crate::game::features::check::Image<'_, KillallGo>> = images
        .iter()
        .enumerate()
        .map(|(k, f)| (k + 1, f as &dyn Fn(&KillallGo) -> KillallGo))
        .collect();
    crate::game::features::check::check_encoding::<KillallGo>(7, 6, &all);
}
