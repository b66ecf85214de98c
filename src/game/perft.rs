//! Perft: the number of move sequences of exactly `depth` plies, for checking move generators.
//!
//! Conventions of the peer programs whose counts `tests/data/*.perft` hold: forced passes are plies, a finished game has no
//! children, and repetition or n-move rules are not applied.

use std::sync::atomic::{AtomicBool, Ordering};

use super::{MoveList, Rules};

/// Leaf count at `depth` below `game`, with bulk counting of the last ply.
pub fn perft<G: Rules>(game: &G, depth: u32) -> u64 {
    // One count for both: a flag nobody raises (one relaxed load per interior node, nothing
    // next to the bulk-counted last ply), so the count always finishes.
    perft_until(game, depth, &AtomicBool::new(false)).unwrap_or(0)
}

/// Per-root-move counts (`divide`), in move-generation order, with each move's notation.
pub fn divide<G: Rules>(game: &G, depth: u32) -> Vec<(String, u64)> {
    let mut list = MoveList::new();
    game.legal_moves(&mut list);
    if depth == 0 {
        return Vec::new();
    }
    list.iter()
        .map(|&m| {
            let mut child = game.clone();
            child.play(m);
            (game.format_move(m), perft(&child, depth - 1))
        })
        .collect()
}

/// The deepest perft the protocols count. Each ply is a stack frame, and a game without an end
/// (pieces moving back and forth) would recurse until the stack overflows; no game gpn plays
/// has a perft this deep that finishes anyway.
pub const MAX_DEPTH: u32 = 128;

/// [`perft`] that gives up, with `None`, once `stop` is set: the flag is read at each interior
/// node, so a stop is seen after at most one bulk-counted move generation.
pub fn perft_until<G: Rules>(game: &G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    match depth {
        0 => Some(1),
        1 => Some(game.count_moves() as u64),
        _ => {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let mut list = MoveList::new();
            game.legal_moves(&mut list);
            let mut total = 0;
            for &m in list.iter() {
                let mut child = game.clone();
                child.play(m);
                total += perft_until(&child, depth - 1, stop)?;
            }
            Some(total)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect4::ConnectFour;
    use crate::game::Rules;

    #[test]
    fn stoppable_perft_counts_as_perft_until_stopped() {
        let start = ConnectFour::start();
        let go_on = AtomicBool::new(false);
        for depth in 0..=5 {
            assert_eq!(
                perft_until(&start, depth, &go_on),
                Some(perft(&start, depth))
            );
        }
        let stopped = AtomicBool::new(true);
        assert_eq!(perft_until(&start, 5, &stopped), None);
        // Depths 0 and 1 have no interior node to look at the flag: they are instant anyway.
        assert_eq!(perft_until(&start, 1, &stopped), Some(7));
    }
}
