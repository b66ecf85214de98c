//! Threaded search (`threads` > 1): tree parallelism on the one arena, with virtual loss.
//!
//! # Design
//! Every thread runs whole iterations. The whole [`Search`] (the tree, everything derived from
//! it, the allocation cap, recycling, the statistics) sits behind one lock. Holding it, a thread
//! backs up its previous batch of playouts (visits and totals), then descends for the next batch
//! (one iteration, or up to [`MAX_BATCH`] when playouts are fast), each descent being:
//! selection, the creation of one node, and at once the backup of that node's proof numbers,
//! bounds, rank terms and minimax values, so that no other thread ever sees a child its
//! ancestors do not account for. It releases the lock for the playouts, which it runs with its
//! own random stream and move buffers ([`Rollout`]). So every tree update is made exactly as in the
//! one-thread search, in some order: a proof or a bound can never be lost or contradicted, a
//! child is never created twice, and visit counts equal iterations. What threads change is only
//! *which* iterations run: while an iteration is in flight (descended, not yet backed up) each
//! node on its path carries a virtual loss (one more visit, lost for the player who chose it), so
//! other threads spread over other lines instead of repeating it.
//!
//! Recycling renumbers nodes, so it waits until no iteration is in flight: a thread that finds
//! the tree full while others are in their playouts waits on a condition variable until their
//! backups are done, and then recycles alone.
//!
//! The speed-up is bounded by the share of an iteration spent in the playout; games with long or
//! heavy playouts scale best (docs/performance.md and docs/threads.md have the figures). A
//! lock-free tree (atomic node statistics) is the next step for fast games and many cores.
//!
//! With `threads` = 1 none of this runs: [`Search::run_with`] keeps its single-threaded loop,
//! which is deterministic per seed.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use parking_lot::{Condvar, Mutex};

use super::rollout::Rollout;
use super::{Limits, Progress, Search, CHECK_PERIOD};
use crate::game::Game;

/// The seed of thread `k`'s playouts in a run: distinct streams from one run seed.
fn thread_seed(seed: u64, k: usize) -> u64 {
    seed ^ crate::rng::mix64(0xA076_1D64_78BD_642F ^ k as u64)
}

/// How many times a thread tries the tree lock, pausing between tries, before it sleeps on it.
/// The lock is held for one batch of backups and descents (a few microseconds at most, see
/// [`BATCH_HOLD_NANOS`]), so spinning that long is cheaper than the sleep and wake-up (several microseconds) that
/// parking_lot's own short spin falls back to.
const SPIN_TRIES: u32 = 256;

/// The most iterations without a playout a thread runs in one hold of the tree lock.
const HOLD_STREAK: u32 = 16;

/// Takes the tree lock: spin briefly with `try_lock`, then block.
fn lock<T>(mutex: &Mutex<T>) -> parking_lot::MutexGuard<'_, T> {
    for _ in 0..SPIN_TRIES {
        if let Some(guard) = mutex.try_lock() {
            return guard;
        }
        std::hint::spin_loop();
    }
    mutex.lock()
}

/// What the threads share besides the tree lock.
struct Shared<'a> {
    limits: &'a Limits,
    /// Raised by the first thread that sees a limit; every thread then ends after its current
    /// iteration.
    done: AtomicBool,
    /// Signalled when the last in-flight iteration is backed up (for a waiting recycling).
    drained: Condvar,
    /// Tree size (nodes) at the start of the run, for the node limit.
    nodes_at_start: u64,
}

impl<G: Game, const P: usize> Search<G, P> {
    /// The threaded form of [`Search::run_with`]'s loop: `params.threads` threads, the calling
    /// one among them, which also keeps the clock and calls `hook`.
    pub(super) fn run_threads<F>(&mut self, limits: &Limits, hook: &mut F, start: Instant)
    where
        F: FnMut(&Self, &Progress) -> bool,
    {
        let threads = self.params.threads.max(1);
        // Fresh streams every run, drawn from the search's own: the moves of a game do not
        // replay the same playouts.
        let seed = self.rollout.rng.next_u64();
        let shared = Shared {
            limits,
            done: AtomicBool::new(false),
            drained: Condvar::new(),
            nodes_at_start: (self.tree.len() as u64).saturating_sub(self.stats.created),
        };
        let deadline = limits.time.map(|t| start + t);
        let tree = Mutex::new(self);
        std::thread::scope(|scope| {
            for k in 1..threads {
                let (tree, shared) = (&tree, &shared);
                let spawned = std::thread::Builder::new()
                    .name(format!("search-{k}"))
                    .spawn_scoped(scope, move || {
                        let mut rollout = Rollout::new(thread_seed(seed, k));
                        work::<G, P, F>(tree, shared, &mut rollout, None);
                    });
                if let Err(e) = spawned {
                    // Fewer threads than asked is still a search; say so and go on.
                    log::warn!("search: could not start thread {k}: {e}");
                    break;
                }
            }
            let mut rollout = Rollout::new(thread_seed(seed, 0));
            let mut clock = Clock {
                start,
                deadline,
                last_hook: start,
                hook,
            };
            work(&tree, &shared, &mut rollout, Some(&mut clock));
        });
    }
}

/// The calling thread's duties besides iterating: the deadline, and the hook about every
/// [`CHECK_PERIOD`].
struct Clock<'h, F> {
    start: Instant,
    deadline: Option<Instant>,
    last_hook: Instant,
    hook: &'h mut F,
}

/// What a thread must do before its next iteration, by the clock (read outside the tree lock).
#[derive(PartialEq)]
enum Tick {
    Go,
    Stop,
    /// Call the hook (under the lock) with the time elapsed so far.
    Hook(std::time::Duration),
}

impl<F> Clock<'_, F> {
    fn tick(&mut self) -> Tick {
        let now = Instant::now();
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

/// The most iterations a thread descends in one hold of the tree lock before it runs their
/// playouts. A fast game's iteration lasts about a microsecond, as long as handing the lock and
/// the tree's cache lines from one core to the other, so one lock per iteration spends the time
/// on the handover (Kalah ran at 0.45x on 2 threads); a batch shares that cost out. Each
/// iteration of a batch is in flight with its virtual loss until its backup, so batches stay
/// small, and only games with fast playouts get more than one (see [`batch_size`]).
const MAX_BATCH: usize = 8;

/// How long the playouts of one batch should take: long enough to cover a lock handover many
/// times over, short enough that stop and the clock are checked every few tens of microseconds.
const BATCH_PLAYOUT_NANOS: u64 = 20_000;

/// The longest a batch's descents should hold the lock: a waiting thread spins for about this
/// long before it sleeps, and a sleep and wake-up cost more than the batch saves (Gomoku, whose
/// descents scan 225 moves a node, went from 1.13-1.57x to 1.05x with batches of two).
const BATCH_HOLD_NANOS: u64 = 3_000;

/// The batch for a thread whose playouts and descents last `playout_nanos` and `descent_nanos`
/// on average (0: not measured yet).
fn batch_size(playout_nanos: u64, descent_nanos: u64) -> usize {
    if playout_nanos == 0 || descent_nanos == 0 {
        return 1;
    }
    (BATCH_PLAYOUT_NANOS / playout_nanos)
        .min(BATCH_HOLD_NANOS / descent_nanos)
        .clamp(1, MAX_BATCH as u64) as usize
}

/// A running mean that follows changes within a few samples.
fn smooth(mean: u64, sample: u64) -> u64 {
    if mean == 0 {
        sample
    } else {
        (3 * mean + sample) / 4
    }
}

/// One thread's loop: iterations until a limit, the stop flag, the clock (the calling thread's
/// `clock`, which also calls the hook) or another thread ends the run. Each lock of the tree
/// backs up the thread's previous batch of playouts and descends for its next batch, so a thread
/// takes the lock once per batch.
fn work<G: Game, const P: usize, F>(
    tree: &Mutex<&mut Search<G, P>>,
    shared: &Shared,
    rollout: &mut Rollout,
    mut clock: Option<&mut Clock<F>>,
) where
    F: FnMut(&Search<G, P>, &Progress) -> bool,
{
    let limits = shared.limits;
    let params = tree.lock().params.clone();
    // Descended iterations waiting for their playouts, then for their backups.
    let mut batch: Vec<(super::Descent<P>, G)> = Vec::with_capacity(MAX_BATCH);
    let mut pending: Vec<(super::Descent<P>, [f32; P])> = Vec::with_capacity(MAX_BATCH);
    // Mean playout and descent times (ns), smoothed, for the batch size.
    let mut playout_nanos = 0u64;
    let mut descent_nanos = 0u64;
    loop {
        let tick = clock.as_mut().map_or(Tick::Go, |c| c.tick());
        let mut search = lock(tree);
        for (descent, utilities) in pending.drain(..) {
            search.finish(&descent, &utilities, true);
            search.in_flight -= 1;
        }
        if search.in_flight == 0 {
            shared.drained.notify_all();
        }
        let s = &mut **search;
        let stop_now = |s: &Search<G, P>| {
            shared.done.load(Ordering::Relaxed)
                || limits
                    .stop
                    .as_ref()
                    .is_some_and(|f| f.load(Ordering::Relaxed))
                || limits
                    .iterations
                    .is_some_and(|max| s.stats.iterations + u64::from(s.in_flight) >= max)
                || limits
                    .nodes
                    .is_some_and(|n| shared.nodes_at_start + s.stats.created >= n)
                || (limits.stop_when_solved && s.root_solved())
        };
        let mut stop = tick == Tick::Stop || stop_now(s);
        if let (Tick::Hook(elapsed), Some(c), false) = (&tick, clock.as_mut(), stop) {
            let progress = Progress {
                iterations: s.stats.iterations,
                elapsed: *elapsed,
            };
            s.stats.elapsed = *elapsed;
            stop = !(c.hook)(s, &progress);
        }
        if stop {
            shared.done.store(true, Ordering::Relaxed);
            return;
        }
        let want = batch_size(playout_nanos, descent_nanos);
        let descending = Instant::now();
        let mut descents = 0u64;
        // Iterations that end in the tree (a terminal or solved node) need no playout; a run
        // of them is capped so the lock is handed over now and then.
        let mut tree_only = 0;
        while batch.len() < want && tree_only < HOLD_STREAK {
            let s = &mut **search;
            // The first descent was checked above; the limits hold for every one after it.
            if descents > 0 && stop_now(s) {
                break;
            }
            if s.tree.is_full() && !s.frozen {
                if !batch.is_empty() {
                    // Back these up first (next lock), then recycle.
                    break;
                }
                if s.in_flight > 0 {
                    // This thread has nothing in flight, so the others will drain.
                    shared.drained.wait(&mut search);
                    break;
                }
                s.recycle();
            }
            let (descent, position) = s.descend(true);
            descents += 1;
            match descent.utilities {
                Some(u) => {
                    s.finish(&descent, &u, true);
                    tree_only += 1;
                }
                None => {
                    s.in_flight += 1;
                    batch.push((descent, position));
                }
            }
        }
        drop(search);
        if let Some(per_descent) = (descending.elapsed().as_nanos() as u64).checked_div(descents) {
            descent_nanos = smooth(descent_nanos, per_descent.max(1));
        }
        if batch.is_empty() {
            continue;
        }
        let started = Instant::now();
        let n = batch.len() as u64;
        for (descent, position) in batch.drain(..) {
            let utilities = rollout.playout(&params, position);
            pending.push((descent, utilities));
        }
        let per_playout = (started.elapsed().as_nanos() as u64 / n).max(1);
        playout_nanos = smooth(playout_nanos, per_playout);
    }
}
