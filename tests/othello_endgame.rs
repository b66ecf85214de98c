//! Othello endgames: every value the solvers prove equals an exhaustive alpha-beta search written
//! here from the rules alone. It reads the position string and uses no gpn code to move, flip,
//! pass or score, so a shared bug in the engine's move generator cannot hide.

use gpn::game::reversi::Reversi;
use gpn::game::{MoveList, Rules};
use gpn::rng::Rng;
use gpn::solve::{solve, Algo, SolveConfig, Value};

/// An Othello position: 64 cells (0 empty, 1 first player 'x', 2 second player 'o'), row-major
/// from the first row of the position string; `turn` is the colour to move.
#[derive(Clone)]
struct Board {
    cells: [u8; 64],
    turn: u8,
}

const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

impl Board {
    /// Reads `rows/…/rows side`, digits counting empty cells.
    fn parse(text: &str) -> Board {
        let (rows, side) = text.split_once(' ').expect("board and side");
        let mut cells = [0u8; 64];
        let mut i = 0;
        for row in rows.split('/') {
            for ch in row.chars() {
                match ch {
                    'x' => {
                        cells[i] = 1;
                        i += 1
                    }
                    'o' => {
                        cells[i] = 2;
                        i += 1
                    }
                    d => i += d.to_digit(10).expect("a digit") as usize,
                }
            }
        }
        assert_eq!(i, 64, "{text}");
        let turn = match side.trim() {
            "x" => 1,
            "o" => 2,
            s => panic!("side '{s}'"),
        };
        Board { cells, turn }
    }

    /// The cells `colour` would flip by playing at `at` (empty when the move is illegal).
    fn flips(&self, at: usize, colour: u8) -> Vec<usize> {
        let mut out = Vec::new();
        if self.cells[at] != 0 {
            return out;
        }
        let (r, c) = ((at / 8) as i32, (at % 8) as i32);
        for (dr, dc) in DIRECTIONS {
            let mut run = Vec::new();
            let (mut rr, mut cc) = (r + dr, c + dc);
            while (0..8).contains(&rr) && (0..8).contains(&cc) {
                let k = (rr * 8 + cc) as usize;
                if self.cells[k] == 3 - colour {
                    run.push(k);
                } else {
                    if self.cells[k] == colour {
                        out.extend_from_slice(&run);
                    }
                    break;
                }
                rr += dr;
                cc += dc;
            }
        }
        out
    }

    fn moves(&self, colour: u8) -> Vec<(usize, Vec<usize>)> {
        (0..64)
            .map(|k| (k, self.flips(k, colour)))
            .filter(|(_, f)| !f.is_empty())
            .collect()
    }

    /// Final disc difference for the side to move, with both sides playing perfectly (alpha-beta
    /// over the exact score; a side without a move passes; two passes end the game).
    fn negamax(&self, mut alpha: i32, beta: i32, passed: bool) -> i32 {
        let moves = self.moves(self.turn);
        if moves.is_empty() {
            let mut next = self.clone();
            next.turn = 3 - self.turn;
            if passed {
                let mine = self.cells.iter().filter(|&&c| c == self.turn).count() as i32;
                let theirs = self.cells.iter().filter(|&&c| c == 3 - self.turn).count() as i32;
                // The game ended at the previous pass; the score is the same either way.
                return mine - theirs;
            }
            return -next.negamax(-beta, -alpha, true);
        }
        let mut best = -65;
        for (at, flips) in moves {
            let mut next = self.clone();
            next.cells[at] = self.turn;
            for f in flips {
                next.cells[f] = self.turn;
            }
            next.turn = 3 - self.turn;
            let v = -next.negamax(-beta, -alpha, false);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Win, draw or loss for the side to move (a null window around 0 is enough).
    fn value(&self) -> Value {
        let v = self.negamax(-1, 1, false);
        match v.signum() {
            1 => Value::Win,
            0 => Value::Draw,
            _ => Value::Loss,
        }
    }
}

/// Positions after random play until at least `discs` discs are on the board (not finished).
fn late_positions(n: usize, discs: u32, seed: u64) -> Vec<Reversi> {
    let mut rng = Rng::new(seed);
    let mut buf = MoveList::new();
    let mut out = Vec::new();
    while out.len() < n {
        let mut p = Reversi::start();
        loop {
            let text = p.to_position();
            let count = text.chars().filter(|c| *c == 'x' || *c == 'o').count() as u32 - 1;
            if p.outcome().is_some() || count >= discs {
                break;
            }
            let m = p.random_move(&mut rng, &mut buf).expect("a move");
            p.play(m);
        }
        if p.outcome().is_none() {
            out.push(p);
        }
    }
    out
}

#[test]
fn the_independent_search_knows_the_rules() {
    // The start: four moves for the first player, each flipping one disc.
    let b = Board::parse(&Reversi::start().to_position());
    let moves = b.moves(b.turn);
    assert_eq!(moves.len(), 4);
    assert!(moves.iter().all(|(_, f)| f.len() == 1));
    // A full board is scored as it stands: 33 x against 31 o is a win for x.
    let mut cells = [2u8; 64];
    cells[..33].fill(1);
    assert_eq!(Board { cells, turn: 1 }.value(), Value::Win);
    assert_eq!(Board { cells, turn: 2 }.value(), Value::Loss);
}

#[test]
fn solvers_agree_with_alpha_beta_on_late_positions() {
    // 48 to 54 discs: 10 to 16 empty cells (the issue asks for >= 44 discs).
    let mut positions = late_positions(10, 54, 11);
    positions.extend(late_positions(8, 51, 12));
    // A seed whose 16-empty positions the plain alpha-beta above settles in about a second (its
    // time varies by orders of magnitude between positions: one of seed 13's takes minutes).
    positions.extend(late_positions(4, 48, 15));
    let mut concluded = [0usize; 5];
    for p in &positions {
        let text = p.to_position();
        let want = Board::parse(&text).value();
        for (k, algo) in Algo::ALL.into_iter().enumerate() {
            let cfg = SolveConfig {
                algo,
                max_nodes: Some(300_000),
                memory_mb: 64,
                playouts: 2,
                ..SolveConfig::default()
            };
            let r = solve(p, &cfg);
            if r.value != Value::Unknown {
                assert_eq!(r.value, want, "{} on {text}", algo.name());
                concluded[k] += 1;
            }
        }
    }
    // Every solver proves most of them within the budget (the late ones for certain).
    for (k, algo) in Algo::ALL.into_iter().enumerate() {
        assert!(
            concluded[k] >= 14,
            "{} concluded only {} of {}",
            algo.name(),
            concluded[k],
            positions.len()
        );
    }
}
