//! How many iterations a thread of a threaded run selects and lands at a time, from the times
//! its playouts and selections take, and what the clock makes due between batches.

use std::time::Instant;

use super::CHECK_PERIOD;

/// The most iterations in one batch. A fast game's iteration lasts about a microsecond, as long
/// as handing the lock and the tree's cache lines from one core to the other, so one lock per
/// iteration spends the time on the handover (Kalah ran at 0.45x on 2 threads); a batch shares
/// that cost out. Each iteration of a batch is in flight with its virtual visits until its
/// playout has run, so batches stay small, and only games with fast playouts get more than one
/// (see [`batch_size`]).
pub(super) const MAX_BATCH: usize = 8;

/// PN-MCTS: the most iterations without a playout a thread runs in one hold of the exclusive
/// lock before it hands the lock over.
pub(super) const HOLD_STREAK: usize = 16;

/// How long the playouts of one batch should take: long enough to cover a lock handover many
/// times over, short enough that stop and the clock are checked every few tens of microseconds.
pub(super) const BATCH_PLAYOUT_NANOS: u64 = 20_000;

/// The longest a batch's selections should take: a thread waiting for the exclusive lock waits
/// that long, and spins for about this long before it sleeps (Gomoku, whose selections scan 225
/// moves a node, lost with longer batches).
pub(super) const BATCH_HOLD_NANOS: u64 = 3_000;

/// With `concurrent`, the batch whatever the selections last (unless playouts are slow): only
/// the hook's exclusive hold (every [`super::CHECK_PERIOD`]) waits for a batch, and a larger one
/// spreads its atomic operations on shared lines (the shared lock, the claim, the counts) over
/// more iterations. Connect Four on two threads, 100,000 iterations: 0.77x with the batch
/// [`BATCH_HOLD_NANOS`] gives, 0.85x with 4 iterations, 0.80x with 8.
pub(super) const CONCURRENT_BATCH: u64 = 4;

/// The batch for a thread whose playouts and selections last `playout_nanos` and
/// `descent_nanos` on average (0: not measured yet); `concurrent`: see [`CONCURRENT_BATCH`].
pub(super) fn batch_size(playout_nanos: u64, descent_nanos: u64, concurrent: bool) -> usize {
    if playout_nanos == 0 || descent_nanos == 0 {
        return 1;
    }
    let by_selection = if concurrent {
        CONCURRENT_BATCH
    } else {
        BATCH_HOLD_NANOS / descent_nanos
    };
    (BATCH_PLAYOUT_NANOS / playout_nanos)
        .min(by_selection)
        .clamp(1, MAX_BATCH as u64) as usize
}

/// Nanoseconds from `earlier` to `later`.
pub(super) fn nanos_between(earlier: Instant, later: Instant) -> u64 {
    later.saturating_duration_since(earlier).as_nanos() as u64
}

/// A running mean that follows changes within a few samples.
pub(super) fn smooth(mean: u64, sample: u64) -> u64 {
    if mean == 0 {
        sample
    } else {
        (3 * mean + sample) / 4
    }
}

/// The calling thread's duties besides iterating: the deadline, and the hook about every
/// [`CHECK_PERIOD`].
pub(super) struct Clock<'h, F> {
    pub(super) start: Instant,
    pub(super) deadline: Option<Instant>,
    pub(super) last_hook: Instant,
    pub(super) hook: &'h mut F,
}

/// What a thread must do before its next batch, by the clock (read outside the tree lock).
#[derive(PartialEq)]
pub(super) enum Tick {
    Go,
    Stop,
    /// Call the hook (under the exclusive lock) with the time elapsed so far.
    Hook(std::time::Duration),
}

impl<F> Clock<'_, F> {
    /// What is due at `now` (the thread's first clock reading of the batch).
    pub(super) fn tick(&mut self, now: Instant) -> Tick {
        if self.deadline.is_some_and(|d| now >= d) {
            Tick::Stop
        } else if now - self.last_hook >= CHECK_PERIOD {
            self.last_hook = now;
            Tick::Hook(now - self.start)
        } else {
            Tick::Go
        }
    }
}
