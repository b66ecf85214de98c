//! Where a threaded search's time goes (the tree lock's holds and waits), and the speed-ups at
//! more threads that the measured serial fraction allows.
//!
//! A threaded run (`parallel.rs`) times, per thread, every wait for and every hold of the tree
//! lock, and the time outside it. Work under the exclusive lock excludes every other thread, so
//! its share of the threads' working time is the **serial fraction** `f`; selections under the
//! shared lock run side by side and count as parallel work. Two projections follow from it:
//!
//! - **Amdahl**: `S(n) = 1 / (f + (1 - f) / n)`: every other thread stops while one does
//!   serial work. The pessimistic reading, and the one targets are set in.
//! - **Queue** (the contention model): the lock is one server and each thread a customer that
//!   works `Z = 1 - f` (per unit of one-thread work) outside it, then asks for `D = f` of
//!   exclusive service, first come first served; exact mean-value analysis of that closed
//!   network gives the throughput with `n` threads. Only threads that want the lock wait for
//!   it, so this is the optimistic reading: about `min(n, 1 / f)`.
//!
//! The tree sits between the two: an exclusive hold stops the other threads' selections (they
//! need the shared lock) but not their playouts. Neither model counts the cost of moving cache
//! lines between cores, which grows with the cores; the measured two-thread speed-up and wait
//! show how far the models are from the machine.

use std::time::Duration;

/// Nanoseconds the threads of one run spent in each state, summed over the threads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LockProfile {
    /// Threads that ran.
    pub threads: u32,
    /// Waiting for the shared lock (to select).
    pub shared_wait: u64,
    /// Holding the shared lock (selecting side by side).
    pub shared_hold: u64,
    /// Waiting for the exclusive lock (to back up).
    pub exclusive_wait: u64,
    /// Holding the exclusive lock (backups, node creation, virtual loss, recycling, the hook).
    pub exclusive_hold: u64,
    /// Outside the lock (new nodes' moves and evaluations, playouts).
    pub outside: u64,
}

impl LockProfile {
    /// Adds another thread's (or run's) times.
    pub fn add(&mut self, other: &LockProfile) {
        self.threads += other.threads;
        self.shared_wait += other.shared_wait;
        self.shared_hold += other.shared_hold;
        self.exclusive_wait += other.exclusive_wait;
        self.exclusive_hold += other.exclusive_hold;
        self.outside += other.outside;
    }

    /// Time spent working (not waiting for the lock).
    pub fn working(&self) -> u64 {
        self.shared_hold + self.exclusive_hold + self.outside
    }

    /// Every thread's time, waits included.
    pub fn total(&self) -> u64 {
        self.working() + self.shared_wait + self.exclusive_wait
    }

    /// The share of the working time spent under the exclusive lock: the part no other thread
    /// can overlap.
    pub fn serial_fraction(&self) -> f64 {
        self.exclusive_hold as f64 / self.working().max(1) as f64
    }

    /// The share of every thread's time spent waiting for the lock.
    pub fn wait_fraction(&self) -> f64 {
        (self.shared_wait + self.exclusive_wait) as f64 / self.total().max(1) as f64
    }

    /// Amdahl's speed-up with `n` threads at this serial fraction.
    pub fn amdahl(&self, n: u32) -> f64 {
        amdahl(self.serial_fraction(), n)
    }

    /// The queue model's speed-up with `n` threads at this serial fraction.
    pub fn queue(&self, n: u32) -> f64 {
        queue(self.serial_fraction(), n)
    }

    /// Mean time per thread, for a report.
    pub fn per_thread(&self, nanos: u64) -> Duration {
        Duration::from_nanos(nanos / u64::from(self.threads.max(1)))
    }
}

/// Amdahl's law: the speed-up of `n` threads when a fraction `f` of the work is serial.
pub fn amdahl(f: f64, n: u32) -> f64 {
    let n = f64::from(n.max(1));
    1.0 / (f + (1.0 - f) / n)
}

/// The speed-up of `n` threads that each work `1 - f` outside one lock and `f` under it (one
/// server, first come first served), by exact mean-value analysis of the closed network: with
/// `k` customers the time at the lock is `R(k) = f (1 + Q(k - 1))`, the throughput
/// `X(k) = k / (1 - f + R(k))` and the queue `Q(k) = X(k) R(k)`. One thread's throughput is 1.
pub fn queue(f: f64, n: u32) -> f64 {
    let think = 1.0 - f;
    let mut queued = 0.0;
    let mut throughput = 1.0;
    for k in 1..=n.max(1) {
        let at_lock = f * (1.0 + queued);
        throughput = f64::from(k) / (think + at_lock);
        queued = throughput * at_lock;
    }
    throughput
}

/// The thread counts the projections are reported for.
pub const PROJECTED_THREADS: [u32; 5] = [4, 8, 16, 32, 64];

/// The largest serial fraction that still allows a speed-up of `target` with `n` threads by
/// Amdahl's law (`f = (n / target - 1) / (n - 1)`).
pub fn serial_budget(target: f64, n: u32) -> f64 {
    let n = f64::from(n.max(2));
    ((n / target - 1.0) / (n - 1.0)).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amdahl_matches_the_law_at_its_ends() {
        assert!((amdahl(0.0, 16) - 16.0).abs() < 1e-9);
        assert!((amdahl(1.0, 16) - 1.0).abs() < 1e-9);
        assert!((amdahl(0.1, 1) - 1.0).abs() < 1e-9);
        // 10 % serial: 6.4x at 16 threads, never above 10x.
        assert!((amdahl(0.1, 16) - 6.4).abs() < 1e-9);
        assert!(amdahl(0.1, 1 << 20) < 10.0);
    }

    #[test]
    fn the_queue_model_lies_between_amdahl_and_its_bounds() {
        for f in [0.0, 0.01, 0.05, 0.1, 0.3] {
            assert!((queue(f, 1) - 1.0).abs() < 1e-9, "one thread is the unit");
            for n in [2, 4, 8, 16, 64] {
                let (q, a) = (queue(f, n), amdahl(f, n));
                assert!(q >= a - 1e-9, "f {f} n {n}: queue {q} below Amdahl {a}");
                // Never above n threads' work, nor above the lock's capacity 1/f.
                assert!(
                    q <= f64::from(n) + 1e-9 && q <= 1.0 / f + 1e-9,
                    "f {f} n {n}: {q}"
                );
                assert!(q >= queue(f, n / 2) - 1e-9, "more threads never slower");
            }
        }
        // Without serial work it is linear; far past saturation it is the lock's capacity.
        assert!((queue(0.0, 16) - 16.0).abs() < 1e-9);
        assert!((queue(0.1, 1000) - 10.0).abs() < 0.01);
        // Two threads with 10 % serial: a thread finds the lock busy now and then.
        let q2 = queue(0.1, 2);
        assert!(q2 > amdahl(0.1, 2) && q2 < 2.0, "{q2}");
    }

    #[test]
    fn the_serial_budget_inverts_amdahl() {
        let f = serial_budget(12.0, 16);
        assert!((amdahl(f, 16) - 12.0).abs() < 1e-9);
        assert!((f - 1.0 / 45.0).abs() < 1e-12, "{f}");
        assert_eq!(serial_budget(32.0, 16), 0.0);
    }

    #[test]
    fn a_profile_sums_threads_and_derives_its_fractions() {
        let mut p = LockProfile::default();
        p.add(&LockProfile {
            threads: 1,
            shared_wait: 5,
            shared_hold: 30,
            exclusive_wait: 5,
            exclusive_hold: 10,
            outside: 60,
        });
        p.add(&LockProfile {
            threads: 1,
            shared_wait: 0,
            shared_hold: 30,
            exclusive_wait: 10,
            exclusive_hold: 10,
            outside: 60,
        });
        assert_eq!(p.threads, 2);
        assert_eq!(p.working(), 200);
        assert_eq!(p.total(), 220);
        assert!((p.serial_fraction() - 0.1).abs() < 1e-12);
        assert!((p.wait_fraction() - 20.0 / 220.0).abs() < 1e-12);
        assert_eq!(p.per_thread(p.outside), Duration::from_nanos(60));
        assert!((p.amdahl(16) - 6.4).abs() < 1e-9);
        assert_eq!(LockProfile::default().serial_fraction(), 0.0);
    }
}
