//! The search as an arena agent: one `Search` per game, its tree reused across the moves played.

use crate::game::record::Record;
use crate::game::{Game, Move, MoveList};
use crate::search::{Limits, Search, SearchParams};

use super::{Agent, Budget, StopFlag};

/// Plays the move of a search for `P` players (`G::NUM_PLAYERS`) with the given parameters; the
/// per-game seed replaces the parameters' seed, so paired games differ and runs stay
/// reproducible.
pub struct SearchAgent<G: Game, const P: usize = 2> {
    search: Search<G, P>,
    /// The match's stop request, polled by every search.
    stop: Option<StopFlag>,
}

impl<G: Game, const P: usize> SearchAgent<G, P> {
    pub fn new(params: &SearchParams, seed: u64) -> SearchAgent<G, P> {
        let params = SearchParams {
            seed,
            ..params.clone()
        };
        SearchAgent {
            search: Search::new(params, G::start()),
            stop: None,
        }
    }
}

impl<G: Game, const P: usize> Agent<G> for SearchAgent<G, P> {
    fn new_game(&mut self, start: &G) {
        self.search.set_position(start.clone());
    }

    fn choose(&mut self, record: &Record<G>, budget: &Budget) -> Move {
        if self.search.position() != record.position() {
            // Should not happen (every move is observed), but never search the wrong position.
            self.search.set_position(record.position().clone());
        }
        self.search.set_history(record.history());
        let stop = self.stop.as_ref().map(|s| s.0.clone());
        let limits = match *budget {
            Budget::Iterations(n) => Limits {
                iterations: Some(n),
                stop,
                ..Limits::default()
            },
            Budget::Time(t) => Limits {
                time: Some(t),
                stop,
                stop_when_solved: true,
                ..Limits::default()
            },
        };
        let report = self.search.run(&limits);
        report.best_move.unwrap_or_else(|| {
            let mut list = MoveList::new();
            record.position().legal_moves(&mut list);
            list.iter().next().copied().unwrap_or_default()
        })
    }

    fn observe(&mut self, m: Move) {
        self.search.advance(m);
    }

    fn set_stop(&mut self, stop: &StopFlag) {
        self.stop = Some(stop.clone());
    }
}
