//! Time management shared by every protocol: from a clock situation to a soft budget (stop after
//! it) and a hard one (never go past it).

use std::time::Duration;

/// Moves we expect still to play when the clock does not say (sudden death).
pub const DEFAULT_MOVES_TO_GO: u32 = 30;
/// The most of a fixed move time that the overhead may take: a short `movetime` (cutechess
/// `st=0.05`) still searches most of it.
pub const FIXED_OVERHEAD_SHARE: u32 = 10;

/// Our clock at the start of a move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
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
}

/// How long one search may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Stop at the first check after this.
    pub soft: Duration,
    /// Never search longer than this.
    pub hard: Duration,
}

impl Budget {
    /// A fixed time per move (`movetime`), less the overhead, but never less than 90 % of it:
    /// the overhead protects a clock, and a fixed move time has none to run out.
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
        let share = (usable / moves).saturating_add((clock.increment / 4 * 3).min(usable / 2));
        // A cap on any single move: the last move before a time control may use most of what is
        // left; otherwise keep a reserve for the moves to come.
        let cap = if moves == 1 {
            usable / 5 * 4
        } else {
            usable / 5 * 2
        };
        let soft = share.min(cap).saturating_add(byoyomi);
        let hard = share
            .saturating_mul(3)
            .min(cap)
            .saturating_add(byoyomi)
            .max(soft);
        Budget { soft, hard }
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
        assert_eq!(b.soft, ms(59_950) / 30);
        assert!(b.hard >= b.soft && b.hard <= ms(59_950) / 5 * 2);
    }

    #[test]
    fn a_game_that_must_end_sooner_spends_more_of_the_clock() {
        let clock = |moves_left| Clock {
            remaining: ms(10_000),
            moves_left,
            ..Clock::default()
        };
        let usual = Budget::from_clock(&clock(None), ms(0));
        assert_eq!(usual.soft, ms(10_000) / 30);
        // Connect Four's start: at most 21 moves each.
        assert_eq!(
            Budget::from_clock(&clock(Some(21)), ms(0)).soft,
            ms(10_000) / 21
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
        // 20 ms + 0 with no overhead: a share of what is left, well under a millisecond.
        let bullet = Budget::from_clock(
            &Clock {
                remaining: ms(20),
                ..Clock::default()
            },
            ms(0),
        );
        assert!(
            bullet.hard < ms(2) && bullet.soft <= bullet.hard,
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
            },
            ms(0),
        );
        assert!(b.hard >= b.soft);
    }

    #[test]
    fn fixed_time_subtracts_the_overhead_in_proportion() {
        assert_eq!(Budget::fixed(ms(1_000), ms(30)).hard, ms(970));
        assert_eq!(Budget::fixed(ms(50), ms(50)).hard, ms(45));
        assert_eq!(Budget::fixed(ms(10), ms(30)).hard, ms(9));
        assert_eq!(Budget::fixed(ms(0), ms(30)).hard, ms(0));
    }
}
