//! The game's own perfect move before a search: a book move, or an exact solve that fits a
//! share of the move's time (Connect Four), played with its proven score.

use std::time::{Duration, Instant};

use super::super::{InfoLine, SearchControl, SearchInfo, SearchJob};
use super::GameSession;
use crate::game::{Game, Move, PerfectAsk, Solution};
use crate::search::Proven;

/// The share of a move's time an exact solve may take before the search gets the rest.
const PERFECT_SHARE: f64 = 0.5;
/// No exact solve is tried in less time than this: the solver's table is allocated on its first
/// use, and its clock checks come every few thousand nodes, so a bullet move (CI's 50 ms games)
/// would overrun its clock. The book still answers.
const MIN_PERFECT_SOLVE: Duration = Duration::from_millis(20);

impl<G: Game, const P: usize> GameSession<G, P> {
    /// The game's own perfect move ([`crate::game::Heuristics::perfect_move`]: a book move, or
    /// an exact solve given at most [`PERFECT_SHARE`] of the move's time), as a proven answer;
    /// `None` to search. Only a timed search asks (a `go nodes` or `go depth` search stays
    /// reproducible, an infinite or ponder search is for the tree), with option `book` on, more
    /// than one legal move and no `searchmoves` the perfect move is outside of.
    pub(super) fn perfect(
        &self,
        job: &SearchJob,
        control: &SearchControl,
        allowed: &[Move],
        legal: usize,
    ) -> Option<SearchInfo> {
        if !self.search.params().book
            || legal < 2
            || control.unlimited()
            || job.iterations.is_some()
            || job.nodes.is_some()
            || job.depth.is_some()
        {
            return None;
        }
        let (budget, spent) = control.budget()?;
        let t0 = Instant::now();
        let share = budget.soft.mul_f64(PERFECT_SHARE);
        let share = share.min(budget.hard.saturating_sub(spent));
        let deadline = t0 + share;
        let stop = control.stop_flag();
        let ask = PerfectAsk {
            book: true,
            solve: share >= MIN_PERFECT_SOLVE,
            stop: Some(&stop),
            deadline: Some(deadline),
        };
        let perfect = self.position().perfect_move(&ask)?;
        if !allowed.is_empty() && !allowed.contains(&perfect.mv) {
            return None;
        }
        let text = self.position().format_move_in(perfect.mv, job.dialect);
        let (value, wdl, proven) = match perfect.value {
            Solution::Win => (
                1.0,
                [1000, 0, 0],
                Proven::Win {
                    plies: perfect.plies,
                },
            ),
            Solution::Draw => (
                0.0,
                [0, 1000, 0],
                Proven::Draw {
                    plies: perfect.plies,
                },
            ),
            Solution::Loss => (
                -1.0,
                [0, 0, 1000],
                Proven::Loss {
                    plies: perfect.plies,
                },
            ),
        };
        log::debug!("perfect move {text} from the {}", perfect.source);
        Some(SearchInfo {
            lines: vec![InfoLine::sole(vec![text.clone()], value, wdl, Some(proven))],
            depth: 1,
            seldepth: 1,
            time: t0.elapsed(),
            best: Some(text),
            ..SearchInfo::default()
        })
    }
}
