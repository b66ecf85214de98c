//! An exact Connect Four solver: bitboard negamax with alpha-beta, a fixed transposition table
//! and threat-ordered moves (after Pascal Pons' solver), cut by a stop flag or a deadline.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::{ConnectFour, BOARD, BOTTOM, COLS, ROWS, STRIDE};

/// Cells of the board.
const CELLS: i32 = (COLS * ROWS) as i32;
/// The lowest and highest scores a stored bound can take (Pons' score: a win with `k` of the
/// winner's stones left unplayed scores `k + 1`; a draw 0).
const MIN_SCORE: i32 = -(CELLS / 2) + 3;
const MAX_SCORE: i32 = (CELLS + 1) / 2 - 3;
/// Columns in search order: the centre first, then outwards.
const ORDER: [usize; COLS] = [3, 2, 4, 1, 5, 0, 6];
/// Nodes between two looks at the stop flag and the clock.
const CHECK_EVERY: u64 = 1 << 12;

/// A position as the solver sees it: the side to move's stones, every stone, stones played.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Board {
    current: u64,
    mask: u64,
    moves: i32,
}

/// Every empty cell that would complete four for the stones `position` (`mask`: all stones).
#[inline]
fn winning_cells(position: u64, mask: u64) -> u64 {
    super::threat_cells(position, BOARD & !mask)
}

#[inline]
fn column_mask(col: usize) -> u64 {
    ((1u64 << ROWS) - 1) << (col * STRIDE)
}

impl Board {
    /// The solver's view of a game position (`None` when the game is already over).
    pub fn of(game: &ConnectFour) -> Option<Board> {
        if game.is_over() {
            return None;
        }
        let mover = (game.count & 1) as usize;
        Some(Board {
            current: game.stones[mover],
            mask: game.stones[0] | game.stones[1],
            moves: i32::from(game.count),
        })
    }

    /// A key unique to the position (the side to move follows from the stone count): each
    /// column's mover stones under a marker bit just above its top stone.
    #[inline]
    pub fn key(&self) -> u64 {
        self.current + self.mask + BOTTOM
    }

    /// The position of a [`Board::key`]; `None` for a number that is no key.
    pub fn from_key(key: u64) -> Option<Board> {
        let mut current = 0;
        let mut mask = 0;
        for col in 0..COLS {
            let bits = (key >> (col * STRIDE)) & ((1 << STRIDE) - 1);
            if bits == 0 {
                return None;
            }
            let height = 63 - bits.leading_zeros() as usize;
            let column = (1u64 << height) - 1;
            current |= (bits & column) << (col * STRIDE);
            mask |= column << (col * STRIDE);
        }
        if key >> (COLS * STRIDE) != 0 {
            return None;
        }
        let board = Board {
            current,
            mask,
            moves: mask.count_ones() as i32,
        };
        (board.key() == key).then_some(board)
    }

    /// Stones played.
    pub fn moves(&self) -> i32 {
        self.moves
    }

    #[inline]
    fn possible(&self) -> u64 {
        (self.mask + BOTTOM) & BOARD
    }

    /// The cell a stone dropped in `col` lands on (0 when the column is full).
    #[inline]
    pub fn drop_cell(&self, col: usize) -> u64 {
        self.possible() & column_mask(col)
    }

    /// Plays the stone `cell` (a playable cell) for the side to move.
    #[inline]
    fn play_cell(&mut self, cell: u64) {
        self.current ^= self.mask;
        self.mask |= cell;
        self.moves += 1;
    }

    /// Plays in column `col` (not full).
    pub fn play(&mut self, col: usize) {
        self.play_cell(self.drop_cell(col));
    }

    /// Whether the side to move wins by playing in `col` (not full).
    pub fn wins_with(&self, col: usize) -> bool {
        winning_cells(self.current, self.mask) & self.drop_cell(col) != 0
    }

    #[inline]
    fn can_win_next(&self) -> bool {
        winning_cells(self.current, self.mask) & self.possible() != 0
    }

    /// The playable cells that do not lose at once (empty: every move loses next turn). Only
    /// for positions where the side to move cannot win at once.
    #[inline]
    fn non_losing_moves(&self) -> u64 {
        let mut possible = self.possible();
        let opponent_win = winning_cells(self.current ^ self.mask, self.mask);
        let forced = possible & opponent_win;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            possible = forced;
        }
        // Never play below the opponent's threat.
        possible & !(opponent_win >> 1)
    }

    /// How many threats the side to move has after playing `cell`.
    #[inline]
    fn move_score(&self, cell: u64) -> u32 {
        winning_cells(self.current | cell, self.mask).count_ones()
    }
}

/// The transposition table: one `u64` per entry (the 49-bit key above an 8-bit bound), a fixed
/// number of entries allocated once.
struct Table {
    entries: Vec<u64>,
    shift: u32,
}

impl Table {
    fn new(log2: u32) -> Table {
        let log2 = log2.clamp(10, 30);
        Table {
            entries: vec![0; 1 << log2],
            shift: 64 - log2,
        }
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    #[inline]
    fn get(&self, key: u64) -> u8 {
        let e = self.entries[self.index(key)];
        if e >> 8 == key {
            e as u8
        } else {
            0
        }
    }

    #[inline]
    fn put(&mut self, key: u64, value: u8) {
        let i = self.index(key);
        self.entries[i] = key << 8 | u64::from(value);
    }

    fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = 0);
    }
}

/// When a solve must give up.
#[derive(Clone, Copy, Default)]
pub struct Cut<'a> {
    pub stop: Option<&'a AtomicBool>,
    pub deadline: Option<Instant>,
    /// The most nodes to search.
    pub nodes: Option<u64>,
}

/// The solver, with its transposition table (kept between solves: its entries stay exact).
pub struct Solver {
    table: Table,
    nodes: u64,
    next_check: u64,
    aborted: bool,
}

impl Solver {
    /// A solver whose table has `2^log2` entries of 8 bytes (22: 32 MiB).
    pub fn new(log2: u32) -> Solver {
        Solver {
            table: Table::new(log2),
            nodes: 0,
            next_check: CHECK_EVERY,
            aborted: false,
        }
    }

    /// Nodes searched since the solver was made or reset.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets the table (results stay the same; only timings change).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    fn start(&mut self) {
        self.aborted = false;
        self.next_check = self.nodes + CHECK_EVERY;
    }

    /// True when the cut says stop; looked at every few thousand nodes.
    #[inline]
    fn should_stop(&mut self, cut: &Cut, base: u64) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes < self.next_check {
            return false;
        }
        self.next_check = self.nodes + CHECK_EVERY;
        let stop = cut.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || cut.deadline.is_some_and(|d| Instant::now() >= d)
            || cut.nodes.is_some_and(|n| self.nodes - base >= n);
        self.aborted = stop;
        stop
    }

    /// Negamax within `(alpha, beta)` of a position where the side to move cannot win at once.
    fn negamax(&mut self, b: &Board, mut alpha: i32, mut beta: i32, cut: &Cut, base: u64) -> i32 {
        self.nodes += 1;
        if self.should_stop(cut, base) {
            return 0;
        }
        let next = b.non_losing_moves();
        if next == 0 {
            return -(CELLS - b.moves) / 2;
        }
        if b.moves >= CELLS - 2 {
            return 0;
        }
        let min = -(CELLS - 2 - b.moves) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let mut max = (CELLS - 1 - b.moves) / 2;
        let key = b.key();
        let stored = i32::from(self.table.get(key));
        if stored != 0 {
            if stored > MAX_SCORE - MIN_SCORE + 1 {
                let lower = stored + 2 * MIN_SCORE - MAX_SCORE - 2;
                if alpha < lower {
                    alpha = lower;
                    if alpha >= beta {
                        return alpha;
                    }
                }
            } else {
                max = stored + MIN_SCORE - 1;
            }
        }
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        // Insertion sort by threats made, stable on the centre-first order.
        let mut cells = [0u64; COLS];
        let mut scores = [0u32; COLS];
        let mut n = 0;
        for &col in ORDER.iter().rev() {
            let cell = next & column_mask(col);
            if cell == 0 {
                continue;
            }
            let score = b.move_score(cell);
            let mut i = n;
            while i > 0 && scores[i - 1] > score {
                cells[i] = cells[i - 1];
                scores[i] = scores[i - 1];
                i -= 1;
            }
            cells[i] = cell;
            scores[i] = score;
            n += 1;
        }
        for i in (0..n).rev() {
            let mut child = *b;
            child.play_cell(cells[i]);
            let score = -self.negamax(&child, -beta, -alpha, cut, base);
            if self.aborted {
                return 0;
            }
            if score >= beta {
                self.table
                    .put(key, (score + MAX_SCORE - 2 * MIN_SCORE + 2) as u8);
                return score;
            }
            if score > alpha {
                alpha = score;
            }
        }
        self.table.put(key, (alpha - MIN_SCORE + 1) as u8);
        alpha
    }

    /// The score of `b` for the side to move (Pons' scale: positive wins, larger sooner), or
    /// with `weak` only its sign (-1, 0, 1); `None` when the cut came first.
    pub fn solve(&mut self, b: &Board, weak: bool, cut: &Cut) -> Option<i32> {
        self.start();
        let base = self.nodes;
        if b.can_win_next() {
            return Some(if weak { 1 } else { (CELLS + 1 - b.moves) / 2 });
        }
        let (mut min, mut max) = if weak {
            (-1, 1)
        } else {
            (-(CELLS - b.moves) / 2, (CELLS + 1 - b.moves) / 2)
        };
        while min < max {
            let mut med = min + (max - min) / 2;
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let r = self.negamax(b, med, med + 1, cut, base);
            if self.aborted {
                return None;
            }
            if r <= med {
                max = r;
            } else {
                min = r;
            }
        }
        // A fail-soft answer may overshoot the weak window: keep its sign.
        Some(if weak { min.signum() } else { min })
    }

    /// The best column of `b` and its score for the side to move: the first winning move found
    /// (centre first), else a drawing one, else (with `weak`) any move, or the longest loss
    /// with a strong solve. `None` when the cut came first or there is no move.
    pub fn best_move(&mut self, b: &Board, weak: bool, cut: &Cut) -> Option<(usize, i32)> {
        let mut best: Option<(usize, i32)> = None;
        for &col in &ORDER {
            if b.drop_cell(col) == 0 {
                continue;
            }
            if b.wins_with(col) {
                return Some((col, (CELLS + 1 - b.moves) / 2));
            }
        }
        for &col in &ORDER {
            if b.drop_cell(col) == 0 {
                continue;
            }
            let mut child = *b;
            child.play(col);
            let score = if child.moves == CELLS {
                0
            } else {
                -self.solve(&child, weak, cut)?
            };
            if best.map_or(true, |(_, s)| score > s) {
                best = Some((col, score));
                if weak && score > 0 {
                    break;
                }
            }
        }
        best
    }
}

/// Plies until the side to move wins, from `moves` stones down, with the (strong, positive)
/// score `score`: the winning stone is the `44 - 2 * score`-th or the one before, whichever the
/// side to move plays.
pub fn plies_to_win(moves: i32, score: i32) -> u32 {
    let mut last = 44 - 2 * score;
    if (last - moves) % 2 == 0 {
        last -= 1;
    }
    (last - moves).max(1) as u32
}

/// Entries (log 2) of the table of the solver that sessions share: 2^22 entries, 32 MiB.
const SHARED_TABLE_LOG2: u32 = 22;

/// Runs `f` on the solver that every session of the process shares, made at the first call
/// (its table is kept between moves; sessions wait for one another, which only happens when
/// several searches of Connect Four run at once, as in `gpn match`).
pub fn with_shared<T>(f: impl FnOnce(&mut Solver) -> T) -> T {
    static SHARED: std::sync::Mutex<Option<Solver>> = std::sync::Mutex::new(None);
    let mut guard = SHARED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    f(guard.get_or_insert_with(|| Solver::new(SHARED_TABLE_LOG2)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Move, Rules};

    fn after(moves: &str) -> ConnectFour {
        let mut g = ConnectFour::start();
        for c in moves.chars() {
            g.play(Move(u16::from(c as u8 - b'1')));
        }
        g
    }

    /// Plain minimax over the game's own rules: the score in Pons' scale.
    fn minimax(g: &ConnectFour) -> i32 {
        let mut list = crate::game::MoveList::new();
        g.legal_moves(&mut list);
        let mut best = -100;
        for &m in list.iter() {
            let mut c = g.clone();
            c.play(m);
            let score = match c.outcome() {
                Some(o) if o.is_draw() => 0,
                Some(_) => (CELLS + 1 - i32::from(g.count)) / 2,
                None => -minimax(&c),
            };
            best = best.max(score);
        }
        best
    }

    #[test]
    fn agrees_with_minimax_near_the_end() {
        let mut rng = crate::rng::Rng::new(7);
        let mut buf = crate::game::MoveList::new();
        let mut solver = Solver::new(16);
        let mut checked = 0;
        while checked < 60 {
            let mut g = ConnectFour::start();
            while g.count < 31 {
                match g.random_move(&mut rng, &mut buf) {
                    Some(m) => g.play(m),
                    None => break,
                }
            }
            let Some(b) = Board::of(&g) else { continue };
            let exact = minimax(&g);
            let cut = Cut::default();
            assert_eq!(solver.solve(&b, false, &cut), Some(exact), "{g:?}");
            let weak = solver.solve(&b, true, &cut);
            assert_eq!(weak, Some(exact.signum()), "{g:?}");
            let (col, score) = solver.best_move(&b, false, &cut).unwrap();
            assert_eq!(score, exact);
            if exact > 0 {
                // The winner's last stone is the one the distance names.
                let plies = plies_to_win(b.moves(), exact) as i32;
                assert!(b.moves() + plies <= CELLS && plies % 2 == 1, "{plies}");
            }
            let mut child = g.clone();
            child.play(Move(col as u16));
            if child.outcome().is_none() {
                assert_eq!(-minimax(&child), exact);
            }
            checked += 1;
        }
    }

    #[test]
    fn known_scores_of_pons_test_set() {
        // From Pons' test set "Test_L3_R1" (end positions): moves as 1-indexed columns, score.
        let mut solver = Solver::new(18);
        for (moves, score) in [
            ("2252576253462244111563365343671351441", -1),
            ("7422341735647741166133573473242566", 1),
            ("23163416124767223154467471272416755633", 0),
            ("65214673556155731566316327373221417", -1),
        ] {
            let b = Board::of(&after(moves)).unwrap();
            assert_eq!(
                solver.solve(&b, false, &Cut::default()),
                Some(score),
                "{moves}"
            );
        }
        // A win at once is one ply away; a win with the 3rd stone from now is five.
        assert_eq!(plies_to_win(36, (CELLS + 1 - 36) / 2), 1);
        assert_eq!(plies_to_win(35, (CELLS + 1 - 35) / 2), 1);
        assert_eq!(plies_to_win(20, (CELLS + 1 - 24) / 2), 5);
    }

    #[test]
    fn a_node_budget_cuts_the_solve() {
        let mut solver = Solver::new(16);
        let b = Board::of(&ConnectFour::start()).unwrap();
        let cut = Cut {
            nodes: Some(10_000),
            ..Cut::default()
        };
        assert_eq!(solver.solve(&b, true, &cut), None);
        let stop = AtomicBool::new(true);
        let cut = Cut {
            stop: Some(&stop),
            ..Cut::default()
        };
        assert_eq!(solver.best_move(&b, true, &cut), None);
    }
}
