//! Chinese Checkers tests: the 73-hole star, move generation against an independent generator
//! (perft and random games), jumps and the rules of the start.

use super::*;
use crate::game::perft::perft;
use crate::rng::Rng;
use std::collections::{HashMap, HashSet};

/// An independent model of the game: the star built from scratch in cube coordinates
/// (x + y + z = 0), a `Vec` board, `HashSet`s of named moves, the rules as the module
/// documentation states them.
type Cube = (i32, i32, i32);
const CUBE_DIRECTIONS: [Cube; 6] = [
    (1, -1, 0),
    (-1, 1, 0),
    (1, 0, -1),
    (0, 1, -1),
    (0, -1, 1),
    (-1, 0, 1),
];

struct Star {
    holes: Vec<Cube>,
    at: HashMap<Cube, usize>,
    names: Vec<String>,
}

/// The star is the union of two big triangles of side 10: every coordinate at least -3,
/// or every coordinate at most 3. Rows are constant z (z = -6 at the top), x grows to the
/// right.
fn star() -> Star {
    let mut holes = Vec::new();
    let mut names = Vec::new();
    for z in -6..=6 {
        let mut in_row = 0;
        for x in -6..=6 {
            let y = -x - z;
            let low = x >= -3 && y >= -3 && z >= -3;
            let high = x <= 3 && y <= 3 && z <= 3;
            if low || high {
                in_row += 1;
                holes.push((x, y, z));
                names.push(format!("{}{in_row}", (b'a' + (z + 6) as u8) as char));
            }
        }
    }
    let at = holes.iter().enumerate().map(|(i, &c)| (c, i)).collect();
    Star { holes, at, names }
}

/// The triangle of a hole, clockwise from the top (0), or `None` in the hexagon.
fn triangle((x, y, z): Cube) -> Option<usize> {
    if z < -3 {
        Some(0)
    } else if x > 3 {
        Some(1)
    } else if y < -3 {
        Some(2)
    } else if z > 3 {
        Some(3)
    } else if x < -3 {
        Some(4)
    } else if y > 3 {
        Some(5)
    } else {
        None
    }
}

#[derive(Clone)]
struct Naive {
    homes: Vec<usize>,
    board: Vec<Option<usize>>,
    mover: usize,
}

impl Naive {
    fn start(star: &Star, players: usize) -> Naive {
        let homes = if players == 3 {
            vec![0, 2, 4]
        } else {
            vec![1, 2, 4, 5]
        };
        let board = star
            .holes
            .iter()
            .map(|&c| triangle(c).and_then(|t| homes.iter().position(|&h| h == t)))
            .collect();
        Naive {
            homes,
            board,
            mover: 0,
        }
    }

    fn target(&self, p: usize) -> usize {
        (self.homes[p] + 3) % 6
    }

    fn winner(&self, star: &Star) -> Option<usize> {
        (0..self.homes.len()).find(|&p| {
            let cells: Vec<Option<usize>> = (0..star.holes.len())
                .filter(|&i| triangle(star.holes[i]) == Some(self.target(p)))
                .map(|i| self.board[i])
                .collect();
            cells.iter().all(Option::is_some) && cells.contains(&Some(p))
        })
    }

    fn moves(&self, star: &Star) -> HashSet<String> {
        let mut out = HashSet::new();
        if self.winner(star).is_some() {
            return out;
        }
        let me = self.mover;
        let empty = |board: &Vec<Option<usize>>, c: Cube| {
            star.at.get(&c).is_some_and(|&i| board[i].is_none())
        };
        let add = |a: Cube, b: Cube| (a.0 + b.0, a.1 + b.1, a.2 + b.2);
        for from in 0..star.holes.len() {
            if self.board[from] != Some(me) {
                continue;
            }
            let origin = star.holes[from];
            let mut board = self.board.clone();
            board[from] = None;
            let mut ends: HashSet<Cube> = HashSet::new();
            for d in CUBE_DIRECTIONS {
                if empty(&board, add(origin, d)) {
                    ends.insert(add(origin, d));
                }
            }
            let mut seen: HashSet<Cube> = HashSet::from([origin]);
            let mut queue = vec![origin];
            while let Some(c) = queue.pop() {
                for d in CUBE_DIRECTIONS {
                    let over = add(c, d);
                    let land = add(over, d);
                    let occupied = star.at.get(&over).is_some_and(|&i| board[i].is_some());
                    if occupied && empty(&board, land) && seen.insert(land) {
                        ends.insert(land);
                        queue.push(land);
                    }
                }
            }
            ends.remove(&origin);
            let target = self.target(me);
            for end in ends {
                let ok = if triangle(origin) == Some(target) {
                    triangle(end) == Some(target)
                } else {
                    match triangle(end) {
                        None => true,
                        Some(t) => t == target || t == self.homes[me],
                    }
                };
                if ok {
                    out.insert(format!(
                        "{}-{}",
                        star.names[from], star.names[star.at[&end]]
                    ));
                }
            }
        }
        if out.is_empty() {
            out.insert("pass".to_string());
        }
        out
    }

    fn play(&mut self, star: &Star, m: &str) {
        if let Some((a, b)) = m.split_once('-') {
            let from = star.names.iter().position(|n| n == a).unwrap();
            let to = star.names.iter().position(|n| n == b).unwrap();
            assert_eq!(self.board[from], Some(self.mover));
            assert_eq!(self.board[to], None);
            self.board[from] = None;
            self.board[to] = Some(self.mover);
        }
        self.mover = (self.mover + 1) % self.homes.len();
    }

    fn perft(&self, star: &Star, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves(star)
            .iter()
            .map(|m| {
                let mut next = self.clone();
                next.play(star, m);
                next.perft(star, depth - 1)
            })
            .sum()
    }

    /// The board as text, row by row, to compare with the game's position string.
    fn rows(&self, star: &Star) -> Vec<String> {
        let mut rows: Vec<String> = vec![String::new(); 13];
        for (i, &(_, _, z)) in star.holes.iter().enumerate() {
            let ch = self.board[i].map_or('.', |p| ['r', 'y', 'g', 'b'][p]);
            rows[(z + 6) as usize].push(ch);
        }
        rows
    }
}

/// The game's rows with empty runs spelt out as dots.
fn rows_of<const P: usize>(pos: &ChineseCheckers<P>) -> Vec<String> {
    let position = pos.to_position();
    let board = position.split_whitespace().next().unwrap();
    board
        .split('/')
        .map(|row| {
            let mut out = String::new();
            let mut run = 0;
            for ch in row.chars() {
                match ch.to_digit(10) {
                    Some(d) => run = run * 10 + d as usize,
                    None => {
                        out.extend(std::iter::repeat('.').take(run));
                        run = 0;
                        out.push(ch);
                    }
                }
            }
            out.extend(std::iter::repeat('.').take(run));
            out
        })
        .collect()
}

fn move_set<const P: usize>(pos: &ChineseCheckers<P>) -> HashSet<String> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let set: HashSet<String> = list.iter().map(|&m| pos.format_move(m)).collect();
    assert_eq!(
        set.len(),
        list.len(),
        "duplicate moves in {}",
        pos.to_position()
    );
    set
}

fn same_perft<const P: usize>(depth: u32) -> Vec<u64> {
    let star = star();
    let start = ChineseCheckers::<P>::start();
    let naive = Naive::start(&star, P);
    assert_eq!(rows_of(&start), naive.rows(&star));
    (1..=depth)
        .map(|d| {
            let fast = perft(&start, d);
            assert_eq!(fast, naive.perft(&star, d), "{P} players, perft {d}");
            fast
        })
        .collect()
}

#[test]
fn the_star_has_73_holes_in_seven_regions() {
    let star = star();
    assert_eq!(star.holes.len(), HOLES);
    assert_eq!(GEO.hexagon.count_ones(), 37);
    for t in 0..6 {
        assert_eq!(GEO.triangle[t].count_ones(), 6);
    }
    for (i, &c) in star.holes.iter().enumerate() {
        let game_region = GEO.region[i];
        assert_eq!(
            triangle(c).map_or(HEXAGON_REGION, |t| t as u8),
            game_region,
            "{}",
            star.names[i]
        );
        assert_eq!(ChineseCheckers::<3>::hole_name(i), star.names[i]);
        assert_eq!(ChineseCheckers::<3>::parse_hole(&star.names[i]), Some(i));
    }
}

#[test]
fn perft_matches_an_independent_generator() {
    // tests/data/chinesecheckers.perft has these counts and deeper ones.
    assert_eq!(same_perft::<3>(5), [10, 100, 1000, 17200, 295930]);
    assert_eq!(same_perft::<4>(5), [10, 101, 1010, 10201, 175639]);
}

/// Plays games with both models side by side, mostly greedy (the move that brings the
/// mover nearest its target) so that many games end by the rules: the same move sets, the
/// same boards, the same winner, and a hash kept equal to the one computed from scratch.
fn games<const P: usize>(games: u64) -> u64 {
    let star = star();
    let mut rng = Rng::new(0xCC + P as u64);
    let mut list = MoveList::new();
    let mut won = 0;
    for _ in 0..games {
        let mut pos = ChineseCheckers::<P>::start();
        let mut naive = Naive::start(&star, P);
        for _ in 0..ChineseCheckers::<P>::MAX_PLIES {
            let moves = move_set(&pos);
            assert_eq!(moves, naive.moves(&star), "{}", pos.to_position());
            assert_eq!(
                pos.outcome().and_then(|o| o.winner()).map(Player::index),
                naive.winner(&star),
                "{}",
                pos.to_position()
            );
            if pos.outcome().is_some() {
                won += 1;
                break;
            }
            pos.legal_moves(&mut list);
            let me = pos.mover as usize;
            let m = if rng.below(4) == 0 {
                list[rng.below(list.len() as u32) as usize]
            } else {
                let after = |m: Move| {
                    let mut next = pos.clone();
                    next.play(m);
                    next.to_go(me)
                };
                let best = list.iter().map(|&m| after(m)).min().unwrap();
                let bests: Vec<Move> = list.iter().copied().filter(|&m| after(m) == best).collect();
                bests[rng.below(bests.len() as u32) as usize]
            };
            naive.play(&star, &pos.format_move(m));
            pos.play(m);
            assert_eq!(pos.hash(), pos.compute_hash());
            assert_eq!(rows_of(&pos), naive.rows(&star));
            assert_eq!(
                ChineseCheckers::<P>::parse_position(&pos.to_position()).unwrap(),
                pos
            );
        }
    }
    won
}

#[test]
fn games_agree_with_the_independent_generator() {
    assert!(
        games::<3>(12) >= 6,
        "most greedy games should end by the rules"
    );
    assert!(
        games::<4>(12) >= 6,
        "most greedy games should end by the rules"
    );
}

fn moves_from<const P: usize>(pos: &ChineseCheckers<P>, from: &str) -> Vec<String> {
    let mut out: Vec<String> = move_set(pos)
        .into_iter()
        .filter_map(|m| m.strip_prefix(&format!("{from}-")).map(str::to_string))
        .collect();
    out.sort();
    out
}

#[test]
fn the_start_and_the_first_moves_follow_the_rules() {
    let start = ChineseCheckers3::start();
    assert_eq!(start.to_position(), ChineseCheckers3::INFO.start);
    assert_eq!(
        ChineseCheckers4::start().to_position(),
        ChineseCheckers4::INFO.start
    );
    // Red (top): each of the front row's pieces steps to two holes of d4-d7, and each of
    // the middle row's jumps over the front row to two more.
    let mut names: Vec<String> = move_set(&start).into_iter().collect();
    names.sort();
    assert_eq!(
        names,
        [
            "b1-d4", "b1-d6", "b2-d5", "b2-d7", "c1-d4", "c1-d5", "c2-d5", "c2-d6", "c3-d6",
            "c3-d7"
        ]
    );
    assert_eq!(start.player_scores(), Some(vec![0, 0, 0]));
    let mut p = start.clone();
    p.play_text("b1-d6").unwrap();
    assert_eq!(
        p.to_position(),
        "r/1r/rrr/5r4/9/8/7/g6y/gg5yy/ggg4yyy/3/2/1 y"
    );
    assert_eq!(p.to_move(), Player(1));
    assert_eq!(ChineseCheckers3::player_name(Player(2)), "green");
    assert_eq!(ChineseCheckers4::player_name(Player(3)), "blue");
    assert!(p.diagram().contains("red (r): top -> bottom, 0 of 6 home"));
}

#[test]
fn jumps_chain_and_may_stop_after_any_jump() {
    // Red on g4 jumps over yellow's h4 to i4, over i5 to i6, over h6 to g6; it may also stop
    // on i4 or i6, or step to any empty neighbour.
    let pos = ChineseCheckers3::parse_position("r/rr/rr1/10/9/8/3r3/g2y1y1y/gg2y2yy/ggg7/3/2/1 r")
        .unwrap();
    assert_eq!(
        moves_from(&pos, "g4"),
        ["f4", "f5", "g3", "g5", "g6", "h5", "i4", "i6"]
    );
    let mut p = pos.clone();
    p.play_text("g4-g6").unwrap();
    assert_eq!(
        p.to_position(),
        "r/rr/rr1/10/9/8/5r1/g2y1y1y/gg2y2yy/ggg7/3/2/1 y"
    );
    // One step or one chain per move: g4 cannot go on from i6 to i7 in the same move.
    assert!(pos.parse_move("g4-i7").is_err());
}

#[test]
fn pieces_stay_in_their_target_and_out_of_other_triangles() {
    // Red's piece on k2 (its target, the bottom) moves only within the bottom triangle.
    let pos =
        ChineseCheckers3::parse_position("1/rr/rrr/10/9/8/7/g6y/gg5yy/ggg4yyy/1r1/2/1 r").unwrap();
    assert_eq!(moves_from(&pos, "k2"), ["k1", "k3", "l1", "l2"]);
    assert_eq!(pos.player_scores(), Some(vec![1, 0, 0]));
    // Red on d4 may not stop in the upper-left triangle (d3), nobody's home or target of
    // red's.
    let pos =
        ChineseCheckers3::parse_position("r/rr/rr1/3r6/9/8/7/g6y/gg5yy/ggg4yyy/3/2/1 r").unwrap();
    assert_eq!(moves_from(&pos, "d4"), ["d5", "e3", "e4"]);
    assert!(matches!(
        pos.parse_move("d4-d3"),
        Err(GameError::IllegalMove { .. })
    ));
}

#[test]
fn a_full_target_wins_with_one_own_piece_in_it() {
    // Four players: red's target (lower left) is green's home, full of green at the start,
    // and that is no win for red.
    let start = ChineseCheckers4::start();
    assert_eq!(start.outcome(), None);
    // Green has left j3; red fills it from j4 and wins with one piece home.
    let pos =
        ChineseCheckers4::parse_position("1/2/3/bbb5rr/bb5rr/b6r/3g3/g6y/gg5yy/gg1r3yyy/3/2/1 r")
            .unwrap();
    assert_eq!(pos.outcome(), None);
    let mut buf = MoveList::new();
    let win = pos.winning_move(&mut buf).unwrap();
    assert_eq!(pos.format_move(win), "j4-j3");
    let mut p = pos.clone();
    p.play(win);
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.winner(), Some(Player(0)));
    assert_eq!([0, 1, 2, 3].map(|q| outcome.rank(Player(q))), [0, 1, 1, 1]);
    assert_eq!(p.player_scores(), Some(vec![1, 0, 0, 0]));
    p.legal_moves(&mut buf);
    assert!(buf.is_empty());
    assert!(p.parse_move("g4-g3").is_err());
    // A move by green into its own home that fills red's target also wins for red.
    let mut p =
        ChineseCheckers4::parse_position("1/2/3/bbb5rr/bb5rr/b6r/7/1g5y/gg5yy/ggrg3yyy/3/2/1 g")
            .unwrap();
    assert_eq!(p.outcome(), None);
    p.play_text("h2-h1").unwrap();
    assert_eq!(p.outcome().and_then(|o| o.winner()), Some(Player(0)));
}

#[test]
fn a_player_without_a_move_passes() {
    // Red's home is walled in by two full rows: its only move is the pass.
    let pos =
        ChineseCheckers3::parse_position("r/rr/rrr/3yyyy3/2yyggg2/8/7/g7/gg7/10/3/2/1 r").unwrap();
    let moves: Vec<String> = move_set(&pos).into_iter().collect();
    assert_eq!(moves, ["pass"]);
    assert_eq!(pos.count_moves(), 1);
    assert_eq!(pos.parse_move("0000"), Ok(PASS));
    let mut p = pos.clone();
    p.play_text("pass").unwrap();
    assert_eq!(p.to_move(), Player(1));
    assert_eq!(p.hash(), p.compute_hash());
    // Nobody passes while it has a move.
    assert!(ChineseCheckers3::start().parse_move("pass").is_err());
}

#[test]
fn the_evaluation_favours_the_player_further_ahead() {
    for p in 0..3 {
        assert_eq!(ChineseCheckers3::start().evaluate(Player(p)), 0.0);
    }
    // Red has brought all six pieces to row h: 34 steps ahead of yellow and green.
    let pos =
        ChineseCheckers3::parse_position("1/2/3/10/9/8/7/grrrrrry/gg5yy/ggg4yyy/3/2/1 y").unwrap();
    assert_eq!(pos.to_go(0), 22);
    assert_eq!(pos.to_go(1), 56);
    assert!(pos.evaluate(Player(0)) > 0.9);
    assert!(pos.evaluate(Player(1)) < -0.9);
    // Along random games the evaluation stays inside [-1, 1].
    let mut rng = Rng::new(7);
    let mut buf = MoveList::new();
    let mut p = ChineseCheckers4::start();
    for _ in 0..300 {
        for q in 0..4 {
            assert!((-1.0..=1.0).contains(&p.evaluate(Player(q))));
        }
        let Some(m) = p.random_move(&mut rng, &mut buf) else {
            break;
        };
        p.play(m);
    }
}

#[test]
fn bad_positions_and_moves_are_refused() {
    let field = |text: &str| match ChineseCheckers4::parse_position(text) {
        Err(GameError::Position { field, .. }) => field,
        other => panic!("{text:?} gave {other:?}"),
    };
    for bad in [
        "",
        "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyy/3/2 r",
        "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyyy/3/2/1 r",
        "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg3yyy/3/2/1 r",
        "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyx/3/2/1 r",
        "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg04yyy/3/2/1 r",
        "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyy/3/2/r r",
        "1/2/3/bbb5rr/bb5rr/y6r/3gb2/g6y/gg5yy/ggr4yy1/3/2/1 r",
        "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyy/3/2/1/1 r",
        "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyy/3/2/1/ r",
        "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyy/3/2/99999999999999999999 r",
    ] {
        assert_eq!(field(bad), "board", "{bad:?}");
    }
    for bad in [
        "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyy/3/2/1",
        "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyy/3/2/1 x",
        "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyy/3/2/1 ry",
    ] {
        assert_eq!(field(bad), "side to move", "{bad:?}");
    }
    // Blue does not play in the three-player game.
    assert!(ChineseCheckers3::parse_position(
        "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyy/3/2/1 r"
    )
    .is_err());
    assert!(
        ChineseCheckers3::parse_position("r/rr/rrr/10/9/8/7/g6y/gg5yy/ggg4yyy/3/2/1 b").is_err()
    );
    let start = ChineseCheckers3::start();
    for bad in [
        "", "c1", "c1d4", "c1-", "-d4", "c4-d4", "n1-d4", "c0-d4", "c1-d11", "c1-d+4",
    ] {
        assert!(
            matches!(start.parse_move(bad), Err(GameError::MoveSyntax { .. })),
            "{bad:?}"
        );
    }
    for bad in ["c1-d9", "d4-e4", "c1-c1", "a1-b1", "pass", "0000", "h1-h2"] {
        assert!(
            matches!(start.parse_move(bad), Err(GameError::IllegalMove { .. })),
            "{bad:?}"
        );
    }
    assert_eq!(
        start.parse_move(" C1-D4 ").map(|m| start.format_move(m)),
        Ok("c1-d4".into())
    );
}
