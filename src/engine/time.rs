//! Time management shared by every protocol, in the manner of Stockfish and lc0: from a clock
//! situation, an optimum time for the move (`soft`) and a maximum (`hard`); during the search,
//! the optimum is scaled ([`Budget::target`]) by how settled the best move is, how recently it
//! changed and whether the root value fell since our last move. Time an early stop saves stays
//! on the clock, so later moves get it.

use std::time::Duration;

use crate::game::Move;

/// Moves we expect still to play when the clock does not say (sudden death). Games against
/// the specialists are often decided in 20-40 moves; measured by matches in
/// experiments/time-management.md.
pub const DEFAULT_MOVES_TO_GO: u32 = 20;
/// The most of a fixed move time that the overhead may take (one fifth): a short `movetime`
/// (cutechess `st=0.05`) still searches most of it, and keeps 10 ms for the answer's way back,
/// since cutechess forfeits a move that takes longer (with 5 ms, one Gomoku game in a CI run on
/// a loaded 2-core machine was lost on time).
pub const FIXED_OVERHEAD_SHARE: u32 = 5;
/// The maximum time of a move, as a multiple of its optimum.
const MAX_OVER_OPTIMUM: u32 = 4;
/// The share of the remaining main time (per mille) that one move may take at most, unless it
/// is the last before a time control.
const MAX_SHARE_PER_MILLE: u32 = 300;
/// The default of the `Slow Mover` option: the optimum time in per cent of the usual.
pub const DEFAULT_SLOW_MOVER: u32 = 100;

/// Our clock at the start of a move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// Main time left.
    pub remaining: Duration,
    /// Added after each of our moves.
    pub increment: Duration,
    /// Moves until the next time control (`None`: sudden death).
    pub moves_to_go: Option<u32>,
    /// Japanese byo-yomi: time every move may use once the main time is gone.
    pub byoyomi: Duration,
    /// The most moves we can still have to play in this game (the game's bound, if any).
    pub moves_left: Option<u32>,
    /// The optimum time in per cent of the usual (the `Slow Mover` option).
    pub slow_mover: u32,
}

impl Default for Clock {
    fn default() -> Clock {
        Clock {
            remaining: Duration::ZERO,
            increment: Duration::ZERO,
            moves_to_go: None,
            byoyomi: Duration::ZERO,
            moves_left: None,
            slow_mover: DEFAULT_SLOW_MOVER,
        }
    }
}

/// How long one search may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The optimum: the search stops at the first check after this, scaled by
    /// [`Budget::target`] when the budget comes from a clock.
    pub soft: Duration,
    /// Never search longer than this.
    pub hard: Duration,
}

/// What the search looks like now, for [`Budget::target`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchShape {
    /// The best root move's share of the root moves' visits, in [0, 1].
    pub best_share: f32,
    /// When the best move last changed, as a share of the time searched so far, in [0, 1].
    pub last_change: f32,
    /// How much the value of the best move (for the side to move, in [-1, 1]) fell since our
    /// previous move's search; negative when it rose, 0 when unknown.
    pub value_drop: f32,
}

impl Budget {
    /// A fixed time per move (`movetime`), less the overhead, but never less than 80 % of it.
    pub fn fixed(time: Duration, overhead: Duration) -> Budget {
        let t = time - overhead.min(time / FIXED_OVERHEAD_SHARE);
        Budget { soft: t, hard: t }
    }

    /// The budget of one move from the clock. `overhead` is what the transport and the client
    /// lose per move (the `Move Overhead` option); it is kept out of every budget. A budget that
    /// rounds to zero (a bullet clock, or one below the overhead) means "answer at once": the
    /// search stops at its first look at the clock, after one iteration.
    pub fn from_clock(clock: &Clock, overhead: Duration) -> Budget {
        let usable = clock.remaining.saturating_sub(overhead);
        let byoyomi = clock.byoyomi.saturating_sub(overhead);
        // A game that must end sooner (Connect Four) spreads the clock over its last moves.
        let moves = clock
            .moves_to_go
            .unwrap_or(DEFAULT_MOVES_TO_GO)
            .min(clock.moves_left.unwrap_or(u32::MAX))
            .clamp(1, 100);
        // The share of the main time for this move, plus most of the increment (which arrives
        // after the move, so only what is already on the clock may be spent).
        let pace = clock.slow_mover.clamp(10, 1000);
        let share = ((usable / moves).saturating_mul(pace) / 100)
            .saturating_add((clock.increment / 4 * 3).min(usable / 2));
        // A cap on any single move: the last move before a time control may use most of what is
        // left; otherwise keep a reserve for the moves to come.
        let cap = if moves == 1 {
            usable / 5 * 4
        } else {
            usable / 1000 * MAX_SHARE_PER_MILLE
        };
        let soft = share.min(cap).saturating_add(byoyomi);
        let hard = share
            .saturating_mul(MAX_OVER_OPTIMUM)
            .min(cap)
            .saturating_add(byoyomi)
            .max(soft);
        Budget { soft, hard }
    }

    /// When a search of this budget in the shape `shape` should stop: the optimum, scaled
    /// - down to 0.6 when the best move has most of the visits (up to 1.4 when it has few),
    /// - up to 1.6 when the best move changed late in the search,
    /// - by 0.8 to 1.6 as the value of the best move fell since our previous move,
    ///
    /// and never past the maximum. A fixed budget (no clock: `soft` = `hard`) is not scaled.
    pub fn target(&self, shape: &SearchShape) -> Duration {
        if self.soft >= self.hard {
            return self.hard;
        }
        let settled = (1.6 - 1.2 * shape.best_share.clamp(0.0, 1.0)).clamp(0.6, 1.4);
        let unstable = 1.0 + 0.6 * shape.last_change.clamp(0.0, 1.0);
        let falling = (1.0 + 2.0 * shape.value_drop).clamp(0.8, 1.6);
        let scale = f64::from(settled * unstable * falling);
        self.soft.mul_f64(scale).min(self.hard)
    }
}

/// What the time manager follows during a search: when the best move last changed, and how
/// far its value fell since our previous move. It looks every `WATCH_PERIOD`, not at every
/// check of the clock, since finding the best move scans the root.
#[derive(Debug, Default)]
pub struct BestMoveWatch {
    best: Option<Move>,
    /// Search time when the best move last changed.
    changed_at: Duration,
    value_drop: f32,
    next_look: Duration,
}

/// How often [`BestMoveWatch`] looks at the root.
const WATCH_PERIOD: Duration = Duration::from_millis(2);

impl BestMoveWatch {
    /// Whether the search, `elapsed` into it, is due for a look.
    pub fn due(&self, elapsed: Duration) -> bool {
        elapsed >= self.next_look
    }

    /// Notes the search's best move and its value (for the side to move), `elapsed` into the
    /// search; `previous_value` is our previous move's value, if known.
    pub fn look(
        &mut self,
        best_value: Option<(Move, f32)>,
        elapsed: Duration,
        previous_value: Option<f32>,
    ) {
        self.next_look = elapsed + WATCH_PERIOD;
        let Some((best, value)) = best_value else {
            return;
        };
        if self.best != Some(best) {
            // The first best move is no change.
            if self.best.is_some() {
                self.changed_at = elapsed;
            }
            self.best = Some(best);
        }
        self.value_drop = previous_value.map_or(0.0, |before| before - value);
    }

    /// The search's shape now: the best move has `best_visits` of the root's `root_visits`.
    pub fn shape(&self, best_visits: u32, root_visits: u32, elapsed: Duration) -> SearchShape {
        SearchShape {
            best_share: best_visits as f32 / root_visits.max(1) as f32,
            last_change: self.changed_at.as_secs_f32() / elapsed.as_secs_f32().max(1e-6),
            value_drop: self.value_drop,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    #[test]
    fn sudden_death_spends_a_share_and_never_the_whole_clock() {
        let b = Budget::from_clock(
            &Clock {
                remaining: ms(60_000),
                ..Clock::default()
            },
            ms(50),
        );
        assert_eq!(b.soft, ms(59_950) / DEFAULT_MOVES_TO_GO);
        assert_eq!(b.hard, b.soft * MAX_OVER_OPTIMUM);
        assert!(b.hard <= ms(59_950) / 10 * 3);
    }

    #[test]
    fn a_game_that_must_end_sooner_spends_more_of_the_clock() {
        let clock = |moves_left| Clock {
            remaining: ms(10_000),
            moves_left,
            ..Clock::default()
        };
        let usual = Budget::from_clock(&clock(None), ms(0));
        assert_eq!(usual.soft, ms(10_000) / DEFAULT_MOVES_TO_GO);
        // Connect Four after 18 plies: at most 12 moves each.
        assert_eq!(
            Budget::from_clock(&clock(Some(12)), ms(0)).soft,
            ms(10_000) / 12
        );
        // A longer bound changes nothing; the last move keeps a reserve all the same.
        assert_eq!(Budget::from_clock(&clock(Some(80)), ms(0)), usual);
        let last = Budget::from_clock(&clock(Some(1)), ms(0));
        assert!(last.hard <= ms(8_000), "{last:?}");
    }

    #[test]
    fn increment_adds_but_a_tiny_clock_stays_safe() {
        let with_inc = Budget::from_clock(
            &Clock {
                remaining: ms(5_000),
                increment: ms(100),
                ..Clock::default()
            },
            ms(50),
        );
        assert!(with_inc.soft > ms(4_950) / 30);
        // 120 ms left with a 1 s increment: the increment is not spendable yet.
        let tiny = Budget::from_clock(
            &Clock {
                remaining: ms(120),
                increment: ms(1_000),
                ..Clock::default()
            },
            ms(50),
        );
        assert!(tiny.hard <= ms(70), "{tiny:?}");
        let empty = Budget::from_clock(
            &Clock {
                remaining: ms(10),
                ..Clock::default()
            },
            ms(50),
        );
        assert_eq!(
            empty,
            Budget {
                soft: Duration::ZERO,
                hard: Duration::ZERO
            }
        );
        // 20 ms + 0 with no overhead: a share of what is left, at most 30 % of it.
        let bullet = Budget::from_clock(
            &Clock {
                remaining: ms(20),
                ..Clock::default()
            },
            ms(0),
        );
        assert!(
            bullet.hard <= ms(6) && bullet.soft <= bullet.hard,
            "{bullet:?}"
        );
    }

    #[test]
    fn last_move_before_the_control_may_use_most_but_not_all() {
        let b = Budget::from_clock(
            &Clock {
                remaining: ms(10_000),
                moves_to_go: Some(1),
                ..Clock::default()
            },
            ms(0),
        );
        assert_eq!(b.hard, ms(8_000));
        assert_eq!(b.soft, ms(8_000));
    }

    #[test]
    fn byoyomi_is_spent_every_move_once_main_time_is_gone() {
        let b = Budget::from_clock(
            &Clock {
                remaining: ms(0),
                byoyomi: ms(1_000),
                ..Clock::default()
            },
            ms(100),
        );
        assert_eq!(
            b,
            Budget {
                soft: ms(900),
                hard: ms(900)
            }
        );
    }

    #[test]
    fn absurd_clocks_do_not_overflow() {
        let b = Budget::from_clock(
            &Clock {
                remaining: Duration::MAX,
                increment: Duration::MAX,
                moves_to_go: Some(1),
                byoyomi: Duration::MAX,
                moves_left: Some(0),
                slow_mover: u32::MAX,
            },
            ms(0),
        );
        assert!(b.hard >= b.soft);
    }

    #[test]
    fn fixed_time_subtracts_the_overhead_in_proportion() {
        assert_eq!(Budget::fixed(ms(1_000), ms(30)).hard, ms(970));
        assert_eq!(Budget::fixed(ms(50), ms(50)).hard, ms(40));
        assert_eq!(Budget::fixed(ms(10), ms(30)).hard, ms(8));
        assert_eq!(Budget::fixed(ms(0), ms(30)).hard, ms(0));
    }

    #[test]
    fn slow_mover_scales_the_optimum() {
        let clock = |slow_mover| Clock {
            remaining: ms(10_000),
            slow_mover,
            ..Clock::default()
        };
        let usual = Budget::from_clock(&clock(100), ms(0));
        assert_eq!(Budget::from_clock(&clock(50), ms(0)).soft, usual.soft / 2);
        assert_eq!(Budget::from_clock(&clock(200), ms(0)).soft, usual.soft * 2);
        // Out of range: clamped, never a budget past the cap.
        assert!(Budget::from_clock(&clock(0), ms(0)).soft > Duration::ZERO);
        assert!(Budget::from_clock(&clock(100_000), ms(0)).hard <= ms(3_000));
    }

    #[test]
    fn the_target_follows_the_shape_of_the_search() {
        let b = Budget {
            soft: ms(1_000),
            hard: ms(4_000),
        };
        let shape = |best_share, last_change, value_drop| SearchShape {
            best_share,
            last_change,
            value_drop,
        };
        let usual = b.target(&shape(0.5, 0.0, 0.0));
        assert_eq!(usual, ms(1_000));
        // One move has almost every visit: stop sooner.
        assert!(b.target(&shape(0.95, 0.0, 0.0)) < ms(700));
        // The best move just changed: search on.
        assert!(b.target(&shape(0.5, 1.0, 0.0)) > ms(1_500));
        // The position got worse since our last move: more time; better: a little less.
        assert!(b.target(&shape(0.5, 0.0, 0.2)) > ms(1_300));
        assert!(b.target(&shape(0.5, 0.0, -0.5)) >= ms(800));
        // Everything at once is held at the maximum.
        let short = Budget {
            hard: ms(3_000),
            ..b
        };
        assert_eq!(short.target(&shape(0.0, 1.0, 1.0)), ms(3_000));
        // A fixed time is not scaled.
        let fixed = Budget::fixed(ms(1_000), ms(0));
        assert_eq!(fixed.target(&shape(0.99, 0.0, -1.0)), ms(1_000));
        assert_eq!(fixed.target(&shape(0.0, 1.0, 1.0)), ms(1_000));
    }
}
