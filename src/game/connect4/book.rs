//! Connect Four's opening book: sorted (position key, column) records built by the exact
//! solver, embedded in the binary, and its builder and timing survey.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use super::solver::{Board, Cut, Solver};
use super::{ConnectFour, COLS};
use crate::game::{Move, MoveList, Rules};
use crate::rng::Rng;

/// The first bytes of a book file; the records follow as little-endian `u64`s.
pub const MAGIC: &[u8; 8] = b"GPNC4BK1";

/// The book built into the binary (`books/cfour.book`; docs/games.md has the command that
/// builds it).
pub static EMBEDDED: &[u8] = include_bytes!("../../../books/cfour.book");

/// One record: the solver's position key above the column (3 bits).
#[inline]
fn record(key: u64, col: usize) -> u64 {
    key << 3 | col as u64
}

/// A book: sorted records.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    records: Vec<u64>,
}

impl Book {
    /// Reads a book file; `None` when it is not one (a wrong magic, a cut record, records out
    /// of order or a column off the board).
    pub fn parse(bytes: &[u8]) -> Option<Book> {
        let body = bytes.strip_prefix(MAGIC.as_slice())?;
        if body.len() % 8 != 0 {
            return None;
        }
        let records: Vec<u64> = body
            .chunks_exact(8)
            .map(|c| {
                let mut b = [0u8; 8];
                b.copy_from_slice(c);
                u64::from_le_bytes(b)
            })
            .collect();
        let sorted = records.windows(2).all(|w| w[0] >> 3 < w[1] >> 3);
        let columns = records.iter().all(|r| (r & 7) < COLS as u64);
        (sorted && columns).then_some(Book { records })
    }

    /// The embedded book (empty if the file built in is not a book).
    pub fn embedded() -> &'static Book {
        static BOOK: std::sync::OnceLock<Book> = std::sync::OnceLock::new();
        BOOK.get_or_init(|| Book::parse(EMBEDDED).unwrap_or_default())
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for r in &self.records {
            out.extend_from_slice(&r.to_le_bytes());
        }
        out
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The book's column for `game`, if it has one (always a legal move).
    pub fn lookup(&self, game: &ConnectFour) -> Option<Move> {
        let board = Board::of(game)?;
        let key = board.key();
        let i = self.records.binary_search_by(|r| (r >> 3).cmp(&key)).ok()?;
        let col = (self.records[i] & 7) as usize;
        (board.drop_cell(col) != 0).then_some(Move(col as u16))
    }

    /// The positions with their columns, for tests and tools.
    pub fn entries(&self) -> impl Iterator<Item = (u64, usize)> + '_ {
        self.records.iter().map(|r| (r >> 3, (r & 7) as usize))
    }
}

/// What [`build`] did.
#[derive(Clone, Debug, Default)]
pub struct BuildStats {
    pub positions: usize,
    pub nodes: u64,
    pub time: Duration,
}

/// Builds the first player's book: from the start, the solver's winning move (centre first) of
/// every position where the first player is to move with at most `max_plies` stones down,
/// reached by that move and any reply, level by level; `progress` hears each entry, and
/// `level` each finished level (its ply and the book so far, for a build cut short). `None` if
/// some position of the walk is not a win for the first player (it cannot be, from the start).
pub fn build(
    max_plies: u32,
    table_log2: u32,
    mut progress: impl FnMut(usize, &ConnectFour, Move),
    mut level: impl FnMut(u32, &Book),
) -> Option<(Book, BuildStats)> {
    let t0 = Instant::now();
    let mut solver = Solver::new(table_log2);
    let mut seen = HashSet::new();
    let mut records = Vec::new();
    let mut frontier = vec![ConnectFour::start()];
    let mut list = MoveList::new();
    let mut ply = 0;
    while !frontier.is_empty() && ply <= max_plies {
        let mut next_frontier = Vec::new();
        for game in frontier {
            let board = Board::of(&game)?;
            if !seen.insert(board.key()) {
                continue;
            }
            let (col, score) = solver.best_move(&board, true, &Cut::default())?;
            if score <= 0 {
                return None;
            }
            let m = Move(col as u16);
            records.push(record(board.key(), col));
            progress(records.len(), &game, m);
            let mut next = game.clone();
            next.play(m);
            next.legal_moves(&mut list);
            for &reply in list.iter() {
                let mut after = next.clone();
                after.play(reply);
                if after.outcome().is_none() {
                    next_frontier.push(after);
                }
            }
        }
        let mut sorted = records.clone();
        sorted.sort_unstable();
        level(ply, &Book { records: sorted });
        frontier = next_frontier;
        ply += 2;
    }
    records.sort_unstable();
    let stats = BuildStats {
        positions: records.len(),
        nodes: solver.nodes(),
        time: t0.elapsed(),
    };
    Some((Book { records }, stats))
}

/// Solve times of random positions `plies` stones deep (uniform random moves, games over
/// before skipped), each with a fresh table: (weak solve time, nodes) per position.
pub fn survey(plies: u32, count: usize, seed: u64, table_log2: u32) -> Vec<(Duration, u64)> {
    let mut rng = Rng::new(seed);
    let mut buf = MoveList::new();
    let mut solver = Solver::new(table_log2);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut g = ConnectFour::start();
        while u32::from(g.count) < plies {
            match g.random_move(&mut rng, &mut buf) {
                Some(m) => g.play(m),
                None => break,
            }
        }
        let Some(board) = Board::of(&g) else { continue };
        solver.clear();
        let nodes = solver.nodes();
        let t0 = Instant::now();
        if solver.best_move(&board, true, &Cut::default()).is_some() {
            out.push((t0.elapsed(), solver.nodes() - nodes));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn book_files_round_trip_and_bad_ones_are_refused() {
        let book = Book::embedded();
        assert_eq!(Book::parse(&book.to_bytes()).as_ref(), Some(book));
        assert!(Book::parse(b"GPNC4BK").is_none());
        assert!(Book::parse(b"GPNC4BK1\x07\0\0\0\0\0\0\0").is_none());
        assert!(Book::parse(b"XXXXXXXX").is_none());
        let two = [record(9, 1).to_le_bytes(), record(5, 1).to_le_bytes()].concat();
        assert!(Book::parse(&[MAGIC.as_slice(), &two].concat()).is_none());
    }

    /// The embedded book answers the centre at the start, covers every reply to its moves up
    /// to its depth, and its deepest entries are wins by the solver.
    #[test]
    fn the_embedded_book_covers_the_first_player_and_wins() {
        let book = Book::embedded();
        assert!(!book.is_empty());
        assert_eq!(book.lookup(&ConnectFour::start()), Some(Move(3)));
        let depth = book
            .entries()
            .filter_map(|(k, _)| Board::from_key(k))
            .map(|b| b.moves())
            .max()
            .unwrap_or(0);
        let mut stack = vec![ConnectFour::start()];
        let mut list = MoveList::new();
        let mut deepest = Vec::new();
        while let Some(g) = stack.pop() {
            let m = book
                .lookup(&g)
                .unwrap_or_else(|| panic!("no entry: {}", g.to_position()));
            if i32::from(g.count) == depth {
                deepest.push((g, m));
                continue;
            }
            let mut next = g.clone();
            next.play(m);
            assert!(next.outcome().is_none());
            next.legal_moves(&mut list);
            for &r in list.iter() {
                let mut after = next.clone();
                after.play(r);
                stack.push(after);
            }
        }
        // Positions of fewer stones take the solver too long for a test.
        if depth < 8 {
            return;
        }
        let mut solver = Solver::new(20);
        for (g, m) in deepest.iter().step_by(deepest.len() / 3 + 1) {
            let mut next = g.clone();
            next.play(*m);
            let b = Board::of(&next).unwrap();
            assert_eq!(
                solver.solve(&b, true, &Cut::default()),
                Some(-1),
                "{next:?}"
            );
        }
    }

    #[test]
    fn keys_decode() {
        let mut rng = Rng::new(3);
        let mut buf = MoveList::new();
        for _ in 0..200 {
            let mut g = ConnectFour::start();
            while let Some(m) = g.random_move(&mut rng, &mut buf) {
                let b = Board::of(&g).unwrap();
                assert_eq!(Board::from_key(b.key()), Some(b));
                g.play(m);
            }
        }
        assert_eq!(Board::from_key(0), None);
    }
}
