//! Perft: the number of move sequences of exactly `depth` plies, for checking move generators.
//!
//! Conventions as `shared/reference/PERFT.md`: forced passes are plies, a finished game has no
//! children, and repetition or n-move rules are not applied.

use super::{Game, MoveList};

/// Leaf count at `depth` below `game`, with bulk counting of the last ply.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => game.count_moves() as u64,
        _ => {
            let mut list = MoveList::new();
            game.legal_moves(&mut list);
            list.iter()
                .map(|&m| {
                    let mut child = game.clone();
                    child.play(m);
                    perft(&child, depth - 1)
                })
                .sum()
        }
    }
}

/// Per-root-move counts (`divide`), in move-generation order, with each move's notation.
pub fn divide<G: Game>(game: &G, depth: u32) -> Vec<(String, u64)> {
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
