//! The incremental first layer (NNUE-style accumulators) of a quantised network; feature diffs.
//!
//! A position's [`Accumulator`] (of a [`QuantNetwork`](super::QuantNetwork), which implements its
//! updates) holds the first layer's pre-activations in `i16`: the bias plus
//! one weight row per active feature. A move changes a few features, so a child's accumulator is
//! its parent's minus the rows of the features the move removed plus those it added
//! ([`Accumulator::update_from`]); [`FeatureDiff`] finds them for any game from the two feature
//! lists. Integer sums are exact, so an updated accumulator equals a full
//! [`Accumulator::refresh`] bit for bit, and unmaking a move is the update with the lists
//! swapped (or popping a stack of accumulators).

/// The first layer's pre-activations of one position, for one
/// [`QuantNetwork`](super::QuantNetwork) (scaled by its
/// [`first_scale`](super::QuantNetwork::first_scale)). Reusing one keeps its buffer: no allocation once warm.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Accumulator {
    pub(super) values: Vec<i16>,
    /// Number of active features.
    pub(super) active: usize,
}

impl Accumulator {
    /// The pre-activations, one per first-layer output.
    pub fn values(&self) -> &[i16] {
        &self.values
    }

    /// Number of active features.
    pub fn active(&self) -> usize {
        self.active
    }
}

/// Subtracts the rows of `removed` and adds those of `added` (rows of `values.len()` weights in
/// `weights`, feature-major), compiled for AVX2.
///
/// # Safety
/// The CPU must run AVX2.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn apply_avx2(
    values: &mut [i16],
    weights: &[i16],
    removed: &[u16],
    added: &[u16],
) {
    apply(values, weights, removed, added)
}

/// Subtracts the rows of `removed` and adds those of `added` (rows of `values.len()` weights in
/// `weights`, feature-major). The sums wrap (two's complement), so the result is exact whatever
/// the order: every set of at most `max_active` distinct features fits `i16`
/// ([`QuantNetwork::first_bound`](super::QuantNetwork::first_bound)), and the final one is such
/// a set.
#[inline(always)]
pub(super) fn apply(values: &mut [i16], weights: &[i16], removed: &[u16], added: &[u16]) {
    let width = values.len();
    let row = |f: u16| &weights[f as usize * width..(f as usize + 1) * width];
    for &f in removed {
        for (v, &w) in values.iter_mut().zip(row(f)) {
            *v = v.wrapping_sub(w);
        }
    }
    for &f in added {
        for (v, &w) in values.iter_mut().zip(row(f)) {
            *v = v.wrapping_add(w);
        }
    }
}

/// The features a move removed and added, from the parent's and the child's feature lists (any
/// order, each feature once): generic for every game. One mark per feature instead of sorting:
/// linear in the lists' lengths. Keeps its buffers (no allocation once warm).
#[derive(Clone, Debug, Default)]
pub struct FeatureDiff {
    /// Per feature: 1 while it is in the parent's list and not yet seen in the child's; all 0
    /// between calls.
    marks: Vec<u8>,
    removed: Vec<u16>,
    added: Vec<u16>,
}

impl FeatureDiff {
    /// Finds the features active in `parent` but not in `child` ([`FeatureDiff::removed`], in
    /// `parent`'s order) and those active in `child` but not in `parent`
    /// ([`FeatureDiff::added`], in `child`'s order).
    pub fn compute(&mut self, parent: &[u16], child: &[u16]) {
        self.removed.clear();
        self.added.clear();
        let top = parent
            .iter()
            .chain(child)
            .copied()
            .max()
            .map_or(0, |f| f as usize + 1);
        if self.marks.len() < top {
            self.marks.resize(top, 0);
        }
        for &f in parent {
            self.marks[f as usize] = 1;
        }
        for &f in child {
            let m = &mut self.marks[f as usize];
            if *m == 1 {
                *m = 2;
            } else {
                self.added.push(f);
            }
        }
        for &f in parent {
            let m = &mut self.marks[f as usize];
            if *m == 1 {
                self.removed.push(f);
            }
            *m = 0;
        }
    }

    /// After [`FeatureDiff::compute`], the features the move deactivated.
    pub fn removed(&self) -> &[u16] {
        &self.removed
    }

    /// After [`FeatureDiff::compute`], the features the move activated.
    pub fn added(&self) -> &[u16] {
        &self.added
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::breakthrough::Breakthrough;
    use crate::game::chess::losalamos::LosAlamos;
    use crate::game::connect4::ConnectFour;
    use crate::game::minishogi::Minishogi;
    use crate::game::reversi::Reversi;
    use crate::game::{Game, MoveList};
    use crate::nn::quant::tests::builtin_net;
    use crate::nn::QuantNetwork;
    use crate::nn::QuantScratch;
    use crate::rng::Rng;

    #[test]
    fn a_diff_lists_what_left_and_what_came_in_any_order() {
        let mut d = FeatureDiff::default();
        d.compute(&[9, 3, 5, 1], &[5, 2, 9, 7, 8]);
        assert_eq!(d.removed(), &[3, 1]);
        assert_eq!(d.added(), &[2, 7, 8]);
        d.compute(&[4, 2], &[2, 4]);
        assert!(d.removed().is_empty() && d.added().is_empty());
        d.compute(&[], &[6]);
        assert_eq!((d.removed(), d.added()), (&[][..], &[6u16][..]));
        d.compute(&[6, 300], &[]);
        assert_eq!((d.removed(), d.added()), (&[6u16, 300][..], &[][..]));
        // Against sorted set differences, on random lists.
        let mut rng = Rng::new(8);
        for _ in 0..200 {
            let mut pick = |n| {
                let mut v: Vec<u16> = (0..n).map(|_| rng.below(64) as u16).collect();
                v.sort_unstable();
                v.dedup();
                rng.shuffle(&mut v);
                v
            };
            let (a, b) = (pick(20), pick(20));
            d.compute(&a, &b);
            let minus = |x: &[u16], y: &[u16]| {
                let mut v: Vec<u16> = x.iter().copied().filter(|f| !y.contains(f)).collect();
                v.sort_unstable();
                v
            };
            let mut removed = d.removed().to_vec();
            removed.sort_unstable();
            let mut added = d.added().to_vec();
            added.sort_unstable();
            assert_eq!(removed, minus(&a, &b));
            assert_eq!(added, minus(&b, &a));
        }
    }

    #[test]
    #[should_panic(expected = "13 active features, more than the 12")]
    fn more_features_than_the_network_was_quantised_for_panic() {
        let q = QuantNetwork::with_max_active(&builtin_net::<Minishogi>(), 12);
        let mut acc = Accumulator::new(&q, &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        acc.update(&q, &[3], &[20, 21, 22]);
    }

    struct Frame<G> {
        position: G,
        features: Vec<u16>,
        acc: Accumulator,
    }

    /// A random walk of `steps` makes and unmakes over a stack of accumulators: a make updates
    /// the new position's accumulator from the one `back` plies up the stack (1: the parent;
    /// 2: the last position with the same side to move, whose features differ least), an unmake
    /// pops it, after checking that the reverse update (removed and added swapped) gives the
    /// parent's back. Every accumulator must equal a full recomputation, and its value the full
    /// evaluation's, bit for bit. Returns the number of makes.
    fn walk<G: Game>(seed: u64, steps: usize, back: usize, max_active: usize) -> usize {
        let net = builtin_net::<G>();
        let q = QuantNetwork::with_max_active(&net, max_active);
        let mut rng = Rng::new(seed);
        let mut buf = MoveList::new();
        let (mut diff, mut scratch) = (FeatureDiff::default(), QuantScratch::default());
        let mut features = Vec::new();
        let start = G::start();
        start.features(&mut features);
        let mut stack = vec![Frame {
            acc: Accumulator::new(&q, &features),
            features: features.clone(),
            position: start,
        }];
        let mut makes = 0;
        for _ in 0..steps {
            let top = &stack[stack.len() - 1];
            let m = if top.position.outcome().is_none() && rng.below(10) < 7 {
                top.position.random_move(&mut rng, &mut buf)
            } else {
                None
            };
            let Some(m) = m else {
                if stack.len() > 1 {
                    // Unmake: the reverse of the parent-to-child update restores the parent.
                    let child = stack.pop().unwrap();
                    let parent = stack.last().unwrap();
                    diff.compute(&parent.features, &child.features);
                    let mut acc = child.acc.clone();
                    acc.update(&q, diff.added(), diff.removed());
                    assert_eq!(acc, parent.acc, "{}", parent.position.to_position());
                }
                continue;
            };
            let mut position = top.position.clone();
            position.play(m);
            position.features(&mut features);
            let from = &stack[stack.len().saturating_sub(back)];
            diff.compute(&from.features, &features);
            let mut acc = Accumulator::default();
            acc.update_from(&q, &from.acc, diff.removed(), diff.added());
            let full = Accumulator::new(&q, &features);
            assert_eq!(acc, full, "{}", position.to_position());
            let incremental = q.evaluate_accumulator(&acc, &mut scratch);
            assert_eq!(incremental, q.evaluate(&features, &mut scratch));
            makes += 1;
            stack.push(Frame {
                position,
                features: features.clone(),
                acc,
            });
        }
        makes
    }

    #[test]
    fn incremental_accumulators_equal_a_full_recomputation_through_makes_and_unmakes() {
        for back in [1, 2] {
            let makes = [
                walk::<Minishogi>(1, 600, back, 12),
                walk::<LosAlamos>(2, 600, back, 24),
                walk::<Breakthrough<8>>(3, 600, back, 32),
                walk::<ConnectFour>(4, 600, back, 42),
                walk::<Reversi>(5, 600, back, 64),
                walk::<Minishogi>(6, 600, back, usize::MAX),
            ];
            assert!(makes.iter().all(|&n| n >= 300), "{makes:?}");
        }
    }
}
