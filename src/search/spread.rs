//! The spread of each root move's playout values, for the lower confidence bound (LCB) that
//! analysis GUIs draw (Leela Zero's and KataGo's `lcb`).
//!
//! Only the root's children need a variance, and only analysis reads it, so it lives beside the
//! tree rather than in every node: one (count, sum, sum of squares) per root edge, recorded as
//! each iteration is counted. A tree kept from the previous move has visits but no recorded
//! values; its variance is then taken from the values recorded since, and before there are two of
//! them from the largest a mean allows (1 - mean², a value in [-1, 1]), which widens the bound,
//! never narrows it.

use std::sync::atomic::{AtomicI64, AtomicU32, Ordering};

/// Per root edge: the values recorded for the side to move at the root.
///
/// Thread safety: the threads of a run record side by side through `&self`, with atomic
/// additions (sums in fixed point, so that they add exactly in any order); the edges are laid
/// out through `&mut self` before the run ([`RootSpread::prepare`]).
#[derive(Debug, Default)]
pub(super) struct RootSpread {
    /// The tree generation the records belong to ([`super::tree::Tree::generation`]).
    generation: u64,
    samples: Vec<Samples>,
}

#[derive(Debug, Default)]
struct Samples {
    n: AtomicU32,
    /// The sum of the values and of their squares, times [`ONE`].
    sum: AtomicI64,
    sum_sq: AtomicI64,
}

/// The fixed-point value of 1: 2^30, so that 2^32 values in [-1, 1] add up without overflow,
/// each within 1e-9.
const ONE: f64 = (1u64 << 30) as f64;

/// A value's fixed-point contribution to the sum and to the sum of squares.
#[inline]
fn fixed(value: f32) -> (i64, i64) {
    let v = f64::from(value.clamp(-1.0, 1.0));
    ((v * ONE) as i64, (v * v * ONE) as i64)
}

/// One thread's values for the root edges, not yet recorded in [`RootSpread`]: recording each
/// iteration's value at once was three locked additions on lines every thread writes. Flushed
/// with the rest of the thread's held statistics (`HeldStats`, `held.rs`); the fixed-point sums
/// make the flushed records exactly what recording one by one gives.
#[derive(Debug, Default)]
pub(super) struct HeldSamples {
    /// (root edge, values, sum, sum of squares).
    held: Vec<(usize, u32, i64, i64)>,
}

impl HeldSamples {
    /// Holds `value` for root edge `edge`.
    #[inline]
    pub(super) fn hold(&mut self, edge: usize, value: f32) {
        let (sum, sum_sq) = fixed(value);
        match self.held.iter_mut().find(|h| h.0 == edge) {
            Some(h) => {
                h.1 += 1;
                h.2 += sum;
                h.3 += sum_sq;
            }
            None => self.held.push((edge, 1, sum, sum_sq)),
        }
    }

    /// Records everything held in `spread` and starts afresh.
    pub(super) fn flush(&mut self, spread: &RootSpread) {
        for (edge, n, sum, sum_sq) in self.held.drain(..) {
            spread.add(edge, n, sum, sum_sq);
        }
    }

    /// Whether nothing is held.
    pub(super) fn is_empty(&self) -> bool {
        self.held.is_empty()
    }
}

/// The standard normal quantile at 1 - ALPHA / 2, where ALPHA = 1e-5 is the two-sided error
/// probability of the bound (Leela Zero's `ci_alpha`): a move's true value is below its LCB
/// with probability 1 in 200,000.
const Z: f64 = 4.417_173_4;

impl RootSpread {
    /// Makes room for the records of a tree of `generation` with `edges` root edges; the
    /// records of an older generation (another root) are dropped.
    #[inline]
    pub(super) fn prepare(&mut self, generation: u64, edges: usize) {
        if generation != self.generation || self.samples.len() != edges {
            self.generation = generation;
            self.samples.clear();
            self.samples.resize_with(edges, Samples::default);
        }
    }

    /// Records `value` for root edge `edge` (of the generation last prepared).
    #[inline]
    pub(super) fn record(&self, edge: usize, value: f32) {
        let (sum, sum_sq) = fixed(value);
        self.add(edge, 1, sum, sum_sq);
    }

    /// Adds `n` values of fixed-point sums `sum` and `sum_sq` to root edge `edge`.
    #[inline]
    fn add(&self, edge: usize, n: u32, sum: i64, sum_sq: i64) {
        if let Some(s) = self.samples.get(edge) {
            s.n.fetch_add(n, Ordering::Relaxed);
            s.sum.fetch_add(sum, Ordering::Relaxed);
            s.sum_sq.fetch_add(sum_sq, Ordering::Relaxed);
        }
    }

    /// The variance of root edge `edge`'s values, or the largest variance a `mean` allows when
    /// fewer than two were recorded for this generation.
    pub(super) fn variance(&self, generation: u64, edge: usize, mean: f32) -> f64 {
        let most = (1.0 - f64::from(mean).powi(2)).max(0.0);
        match self.samples.get(edge) {
            Some(s) if generation == self.generation && s.n.load(Ordering::Relaxed) >= 2 => {
                let n = f64::from(s.n.load(Ordering::Relaxed));
                let sum = s.sum.load(Ordering::Relaxed) as f64 / ONE;
                let sum_sq = s.sum_sq.load(Ordering::Relaxed) as f64 / ONE;
                ((sum_sq - sum * sum / n) / (n - 1.0)).clamp(0.0, most.max(1e-12))
            }
            _ => most,
        }
    }
}

/// The lower confidence bound of a mean of `visits` values with `variance`, as Leela Zero
/// computes it: mean - t * sqrt(variance / visits), t the Student-t quantile at 1 - 5e-6
/// with visits - 1 degrees of freedom; -1 below two visits. In [-1, 1].
pub fn lower_confidence_bound(mean: f32, variance: f64, visits: u32) -> f32 {
    if visits < 2 {
        return -1.0;
    }
    let t = student_t_quantile(f64::from(visits - 1));
    let bound = f64::from(mean) - t * (variance / f64::from(visits)).sqrt();
    bound.clamp(-1.0, 1.0) as f32
}

/// The Student-t quantile at 1 - 5e-6 (1 - ALPHA / 2) with `nu` degrees of freedom: exact below 8 degrees
/// of freedom (computed from the regularised incomplete beta function), then the Cornish-Fisher
/// expansion in 1/nu (Abramowitz and Stegun 26.7.5), within 0.7 % at 8 and 0.003 % at 30.
fn student_t_quantile(nu: f64) -> f64 {
    const SMALL: [f64; 7] = [
        63_661.977, 316.225_39, 60.396_824, 27.771_648, 17.896_866, 13.555_316, 11.214_85,
    ];
    if nu < 8.0 {
        return SMALL[(nu.max(1.0) as usize - 1).min(6)];
    }
    let z = Z;
    let z2 = z * z;
    let g1 = (z2 + 1.0) * z / 4.0;
    let g2 = ((5.0 * z2 + 16.0) * z2 + 3.0) * z / 96.0;
    let g3 = (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) * z / 384.0;
    let g4 = ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) * z / 92160.0;
    z + g1 / nu + g2 / nu.powi(2) + g3 / nu.powi(3) + g4 / nu.powi(4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quantile_falls_to_the_normal_one() {
        let mut last = f64::INFINITY;
        for nu in [1.0, 2.0, 3.0, 5.0, 7.0, 8.0, 10.0, 30.0, 100.0, 1e4, 1e7] {
            let t = student_t_quantile(nu);
            assert!(t < last && t > Z, "nu {nu}: {t}");
            last = t;
        }
        assert!((student_t_quantile(1e7) - Z).abs() < 1e-5);
        // t(1 - 5e-6, nu) to eight digits, from the incomplete beta function.
        for (nu, exact) in [(8.0, 9.782_531_7), (10.0, 8.150_286_6), (30.0, 5.299_451_3)] {
            assert!((student_t_quantile(nu) / exact - 1.0).abs() < 0.007, "{nu}");
        }
    }

    #[test]
    fn held_values_record_exactly_what_recording_one_by_one_does() {
        let values = [0.25f32, -1.0, 0.7, 1.0, -0.3, 0.0, 0.9];
        let (mut one_by_one, mut flushed) = (RootSpread::default(), RootSpread::default());
        one_by_one.prepare(7, 3);
        flushed.prepare(7, 3);
        let mut held = HeldSamples::default();
        for (k, &v) in values.iter().enumerate() {
            one_by_one.record(k % 2, v);
            held.hold(k % 2, v);
        }
        assert_eq!(
            flushed.variance(7, 0, 0.0),
            1.0,
            "nothing recorded before the flush"
        );
        held.flush(&flushed);
        assert!(held.is_empty());
        for edge in 0..3 {
            let (a, b) = (
                one_by_one.variance(7, edge, 0.1),
                flushed.variance(7, edge, 0.1),
            );
            assert_eq!(a.to_bits(), b.to_bits(), "edge {edge}");
        }
        assert!(
            one_by_one.variance(7, 0, 0.1) < 0.99,
            "edge 0 had four values"
        );
    }

    #[test]
    fn the_bound_is_below_the_mean_and_closes_in_with_visits() {
        let mut last = -1.0;
        for visits in [30, 100, 1_000, 10_000, 1_000_000] {
            let lcb = lower_confidence_bound(0.3, 0.25, visits);
            assert!(lcb < 0.3 && lcb > last, "{visits}: {lcb}");
            last = lcb;
        }
        assert!(0.3 - last < 0.003);
        assert_eq!(lower_confidence_bound(0.9, 0.01, 1), -1.0);
        assert_eq!(lower_confidence_bound(0.0, 0.0, 50), 0.0);
    }

    #[test]
    fn records_give_the_sample_variance_and_a_new_root_forgets_them() {
        let mut s = RootSpread::default();
        // Values 1, -1, 1, -1: variance 4/3 (unbiased), clamped to the most a mean of 0 allows.
        for (k, v) in [1.0, -1.0, 1.0, -1.0].into_iter().enumerate() {
            s.prepare(7, 3);
            s.record(1, v);
            assert_eq!(s.samples[1].n.load(Ordering::Relaxed) as usize, k + 1);
        }
        assert!((s.variance(7, 1, 0.0) - 1.0).abs() < 1e-12);
        for v in [0.5, 0.7, 0.6] {
            s.record(2, v);
        }
        assert!((s.variance(7, 2, 0.6) - 0.01).abs() < 1e-6);
        // No records for edge 0, or for another generation: the widest variance for the mean.
        assert!((s.variance(7, 0, 0.5) - 0.75).abs() < 1e-12);
        assert!((s.variance(8, 2, 0.6) - 0.64).abs() < 1e-6);
        s.prepare(8, 3);
        s.record(0, 0.1);
        assert_eq!(
            s.samples[2].n.load(Ordering::Relaxed),
            0,
            "a new generation starts afresh"
        );
        s.record(9, 0.1);
    }
}
