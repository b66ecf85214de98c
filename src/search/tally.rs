//! The counts of a threaded run's iterations landed beside the selections: each thread's own,
//! added to shared atomic totals once a batch, and moved into the search's statistics under the
//! exclusive lock.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use super::RunStats;

/// One thread's counts of the iterations it landed under the shared lock, added to
/// [`SharedTally`] once a batch (one atomic addition a count, not one an iteration).
#[derive(Default)]
pub(super) struct Tally {
    pub(super) iterations: u64,
    pub(super) created: u64,
    pub(super) collisions: u64,
    pub(super) draws: u64,
    pub(super) depth_sum: u64,
    pub(super) max_depth: u32,
}

impl Tally {
    /// Counts an iteration `depth` plies deep that ended in `utilities`.
    pub(super) fn count<const P: usize>(&mut self, depth: u32, utilities: &[f32; P]) {
        self.iterations += 1;
        self.depth_sum += u64::from(depth);
        self.max_depth = self.max_depth.max(depth);
        if utilities.iter().all(|&u| u == 0.0) {
            self.draws += 1;
        }
    }

    /// Adds the counts to `shared` and starts afresh. The iterations are added before the
    /// caller takes them off the count in flight, so that a claim never sees fewer iterations
    /// done or in flight than there are (the iteration limit stays exact).
    pub(super) fn flush(&mut self, shared: &SharedTally) {
        if self.iterations == 0 {
            return;
        }
        shared
            .iterations
            .fetch_add(self.iterations, Ordering::AcqRel);
        shared
            .depth_sum
            .fetch_add(self.depth_sum, Ordering::Relaxed);
        shared
            .max_depth
            .fetch_max(self.max_depth, Ordering::Relaxed);
        for (count, mine) in [
            (&shared.created, self.created),
            (&shared.collisions, self.collisions),
            (&shared.draws, self.draws),
        ] {
            if mine > 0 {
                count.fetch_add(mine, Ordering::AcqRel);
            }
        }
        *self = Tally::default();
    }
}

/// The threads' [`Tally`]s, summed; moved into the search's statistics under the exclusive lock
/// ([`SharedTally::drain_into`]).
#[derive(Default)]
pub(super) struct SharedTally {
    pub(super) iterations: AtomicU64,
    pub(super) created: AtomicU64,
    pub(super) collisions: AtomicU64,
    pub(super) draws: AtomicU64,
    pub(super) depth_sum: AtomicU64,
    pub(super) max_depth: AtomicU32,
}

impl SharedTally {
    /// Moves the counts into `stats`. Under the exclusive lock (no thread lands meanwhile), so
    /// that the iterations and nodes counted in both places never change under a reader.
    pub(super) fn drain_into(&self, stats: &mut RunStats) {
        stats.iterations += self.iterations.swap(0, Ordering::AcqRel);
        stats.created += self.created.swap(0, Ordering::AcqRel);
        stats.collisions += self.collisions.swap(0, Ordering::AcqRel);
        stats.draws += self.draws.swap(0, Ordering::AcqRel);
        stats.depth_sum += self.depth_sum.swap(0, Ordering::AcqRel);
        stats.max_depth = stats
            .max_depth
            .max(self.max_depth.swap(0, Ordering::AcqRel));
    }
}
