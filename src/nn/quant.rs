//! An int16 fixed-point copy of a network's value path (NNUE style), with integer dot products.
//!
//! The scales, the overflow argument and the measured error are on [`QuantNetwork`].

use super::net::softmax3;
use super::{Network, Wdl};

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
use super::accumulator::apply_avx2;
use super::accumulator::{apply, Accumulator};

/// The largest |difference| of the value (win minus loss), and of each of the win, draw and
/// loss probabilities, between a [`QuantNetwork`] made with its game's bound on active features
/// ([`QuantNetwork::with_max_active`]) and its f32 network that the tests accept on positions of
/// random games (measured on the embedded networks: at most 0.011, mean about 0.001).
pub const VALUE_TOLERANCE: f32 = 0.02;

/// [`VALUE_TOLERANCE`] for a [`QuantNetwork::new`], whose first layer must hold every feature
/// at once and is coarser (measured: at most 0.045, minishogi's 520 inputs for 12 pieces).
pub const UNBOUNDED_TOLERANCE: f32 = 0.06;

/// A dense layer after the first, in integers: `outputs` rows of `inputs` weights (output-major,
/// so that each output is one contiguous dot product).
#[derive(Clone, Debug)]
struct QuantLayer {
    inputs: usize,
    outputs: usize,
    weights: Vec<i16>,
    biases: Vec<i32>,
    /// Right shift of a trunk layer's ReLU output (0 for the value head).
    shift: u32,
}

/// The value path of a [`Network`] (first layer, trunk, value head) in `i16` fixed point: the
/// weights as `i16`; the policy and cost heads stay in the f32 network. Every scale is chosen from
/// the weights themselves, so that no sum can overflow whatever features are active:
///
/// - First layer: weights and biases are `round(w * s1)` as `i16`. The pre-activations of a
///   position (an [`Accumulator`]) are the bias plus one row per active feature, in `i16`.
///   Features are distinct (the [`Features`](crate::game::Features) contract), so each output's
///   sum lies between its bias plus every negative weight of its column and its bias plus every
///   positive one. `s1` is the largest scale that keeps both ends of that interval, computed on
///   the rounded integers, within `i16` ([`QuantNetwork::first_bound`]): no set of features can
///   overflow. With a bound `k` on the active features ([`QuantNetwork::with_max_active`]) the
///   interval is that of the `k` largest weights of each sign, a finer scale when a position
///   uses few of the inputs; an [`Accumulator`] counts its features and panics beyond `k`. The
///   additions wrap, so that an update's result is exact whatever its order (intermediate sums
///   may leave `i16`; the final one cannot).
/// - ReLU keeps the accumulator's values (in `[0, 32767]`, scale `s1`) as the next layer's
///   inputs.
/// - Each later dense layer: `i16` weights at a scale `sw`, products summed in `i32` with an
///   `i32` bias at the product's scale. `sw` is the largest scale for which the weights fit
///   `i16` and `|bias| + sum of (input bound x |weight|)` fits `i32` for every output, again
///   checked on the integers: no dot product, and no partial sum of one (each is bounded by the
///   same sum of absolute values), can overflow. A trunk layer's ReLU output is shifted right
///   (rounded) by the fewest bits that bring its bound back within `i16`; the value head's three
///   `i32` logits are divided by their scale and go through the same softmax as the f32 network.
///
/// The error against the f32 network is a matter of rounding, mostly the first layer's: measured
/// over random games of the embedded networks (experiments/quantised.md), the value (win minus
/// loss) differs by at most about 0.011 (mean 0.001) with each game's bound on active features
/// ([`QuantNetwork::with_max_active`]), and 0.045 without ([`QuantNetwork::new`]); the tests
/// hold them to [`VALUE_TOLERANCE`] and [`UNBOUNDED_TOLERANCE`].
///
/// Built once per network and shared read-only by every thread.
#[derive(Clone, Debug)]
pub struct QuantNetwork {
    inputs: usize,
    /// The first layer's width (an [`Accumulator`]'s length).
    width: usize,
    /// Feature-major: row `f` holds feature `f`'s weights to every first-layer output.
    first_weights: Vec<i16>,
    first_biases: Vec<i16>,
    first_scale: f64,
    /// The most features a position may have active (the scales hold for any such set).
    max_active: usize,
    /// The trunk's later layers, then the value head.
    layers: Vec<QuantLayer>,
    /// Scale of each layer's output activations (the first layer's first); the last is the
    /// value head's logits' scale.
    scales: Vec<f64>,
    /// Whether the CPU runs AVX2: the same loops are then compiled for it.
    avx2: bool,
}

/// Per-thread buffers of [`QuantNetwork::evaluate`] (no allocation once warm).
#[derive(Clone, Debug, Default)]
pub struct QuantScratch {
    accumulator: Accumulator,
    /// Each trunk layer's activations.
    acts: Vec<Vec<i16>>,
}

impl QuantNetwork {
    /// The int16 copy of `net`'s value path, safe for any set of features.
    pub fn new(net: &Network) -> QuantNetwork {
        QuantNetwork::with_max_active(net, net.shape().inputs)
    }

    /// The int16 copy of `net`'s value path for positions of at most `max_active` active
    /// features (a game's bound, such as its number of pieces): the first layer's scale then
    /// only has to hold the `max_active` largest weights of each sign, which buys precision
    /// when the network has many more inputs than a position uses. An [`Accumulator`] with
    /// more features panics.
    pub fn with_max_active(net: &Network, max_active: usize) -> QuantNetwork {
        let params = net.params();
        let trunk = net.shape().hidden.len();
        let first = net.layer(0);
        let (inputs, width) = (first.inputs, first.outputs);
        let max_active = max_active.clamp(1, inputs);
        // The first layer: the largest scale whose rounded sums fit i16, found from the real
        // sums and then shrunk until the integers agree (rounding adds at most half a unit per
        // weight).
        let mut bound = 0.0f64;
        let mut column = Vec::with_capacity(inputs);
        for o in 0..width {
            column.clear();
            column.extend((0..inputs).map(|i| params[first.w + i * width + o] as f64));
            let (lo, hi) = extremes(params[first.b + o] as f64, &mut column, max_active);
            bound = bound.max(hi.abs()).max(lo.abs());
        }
        let limit = i16::MAX as f64;
        let mut s1 = limit / bound.max(1e-9);
        let (first_weights, first_biases) = loop {
            // A scale so large that a weight alone would not fit is capped at the weights' range.
            let q = |w: f32| (w as f64 * s1).round().clamp(-limit, limit) as i16;
            let weights: Vec<i16> = params[first.w..first.b].iter().map(|&w| q(w)).collect();
            let biases: Vec<i16> = params[first.b..first.b + width]
                .iter()
                .map(|&b| q(b))
                .collect();
            if first_bounds(&weights, &biases, max_active).1 <= i16::MAX as i64 {
                break (weights, biases);
            }
            s1 *= 0.99;
        };
        // Upper bound of each first-layer activation (after ReLU), in integers.
        let mut act_bounds = first_bounds(&first_weights, &first_biases, max_active).0;
        let mut scales = vec![s1];
        let mut layers = Vec::new();
        for k in 1..=trunk {
            let l = net.layer(k);
            let s_in = *scales.last().unwrap();
            let w_at = |i: usize, o: usize| params[l.w + i * l.outputs + o] as f64;
            let max_w = params[l.w..l.b]
                .iter()
                .fold(0.0f64, |m, &w| m.max((w as f64).abs()));
            // Real bound of |z| per unit of weight scale: sum of input bound x |w| + |b| s_in.
            let mut real = 0.0f64;
            for o in 0..l.outputs {
                let mut z = (params[l.b + o] as f64).abs() * s_in;
                for (i, &a) in act_bounds.iter().enumerate() {
                    z += a as f64 * w_at(i, o).abs();
                }
                real = real.max(z);
            }
            let mut sw = (limit / max_w.max(1e-9)).min(i32::MAX as f64 / real.max(1e-9));
            let layer = loop {
                let mut weights = vec![0i16; l.inputs * l.outputs];
                for o in 0..l.outputs {
                    for i in 0..l.inputs {
                        weights[o * l.inputs + i] =
                            (w_at(i, o) * sw).round().clamp(-limit, limit) as i16;
                    }
                }
                let biases: Vec<i32> = (0..l.outputs)
                    .map(|o| {
                        (params[l.b + o] as f64 * s_in * sw)
                            .round()
                            .clamp(-(i32::MAX as f64), i32::MAX as f64)
                            as i32
                    })
                    .collect();
                let layer = QuantLayer {
                    inputs: l.inputs,
                    outputs: l.outputs,
                    weights,
                    biases,
                    shift: 0,
                };
                if layer.bounds(&act_bounds).1 <= i32::MAX as i64 {
                    break layer;
                }
                sw *= 0.99;
            };
            let mut layer = layer;
            let s_out = s_in * sw;
            if k < trunk {
                // ReLU, then the fewest bits of right shift that bring the bound into i16.
                let (highs, _) = layer.bounds(&act_bounds);
                let top = highs.iter().copied().max().unwrap_or(0).max(0);
                let mut shift = 0;
                while shifted(top, shift) > i16::MAX as i64 {
                    shift += 1;
                }
                layer.shift = shift;
                act_bounds = highs.iter().map(|&h| shifted(h.max(0), shift)).collect();
                scales.push(s_out / (1u64 << shift) as f64);
            } else {
                scales.push(s_out);
            }
            layers.push(layer);
        }
        QuantNetwork {
            inputs,
            width,
            first_weights,
            first_biases,
            first_scale: s1,
            max_active,
            layers,
            scales,
            avx2: has_avx2(),
        }
    }

    /// Number of input features.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// The first layer's width: an [`Accumulator`]'s length.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The first layer's scale: an accumulator holds its pre-activations times this.
    pub fn first_scale(&self) -> f64 {
        self.first_scale
    }

    /// The most features a position may have active ([`QuantNetwork::with_max_active`]).
    pub fn max_active(&self) -> usize {
        self.max_active
    }

    /// The largest |value| any output of the first layer can take over every set of at most
    /// [`QuantNetwork::max_active`] distinct features (at most `i16::MAX` by construction).
    pub fn first_bound(&self) -> i64 {
        first_bounds(&self.first_weights, &self.first_biases, self.max_active).1
    }

    /// The largest |sum| any later dense layer's dot product (bias included) can reach, given
    /// the bounds of its inputs (at most `i32::MAX` by construction).
    pub fn dense_bound(&self) -> i64 {
        let mut bounds = first_bounds(&self.first_weights, &self.first_biases, self.max_active).0;
        let mut worst = 0;
        for l in &self.layers {
            let (highs, abs) = l.bounds(&bounds);
            worst = worst.max(abs);
            bounds = highs.iter().map(|&h| shifted(h.max(0), l.shift)).collect();
        }
        worst
    }

    /// Feature `f`'s row of first-layer weights.
    #[cfg(test)]
    fn row(&self, f: u16) -> &[i16] {
        let at = f as usize * self.width;
        &self.first_weights[at..at + self.width]
    }

    #[cfg(test)]
    fn first_biases(&self) -> &[i16] {
        &self.first_biases
    }

    /// The value of the position whose active features are `features` (each once, below
    /// [`QuantNetwork::inputs`]).
    pub fn evaluate(&self, features: &[u16], scratch: &mut QuantScratch) -> Wdl {
        let mut acc = std::mem::take(&mut scratch.accumulator);
        acc.refresh(self, features);
        let wdl = self.evaluate_accumulator(&acc, scratch);
        scratch.accumulator = acc;
        wdl
    }

    /// The value of the position whose first layer is `acc` (made by [`Accumulator::refresh`]
    /// or updated from a parent's by this network).
    pub fn evaluate_accumulator(&self, acc: &Accumulator, scratch: &mut QuantScratch) -> Wdl {
        assert_eq!(
            acc.values().len(),
            self.width,
            "an accumulator of this network"
        );
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        if self.avx2 {
            // SAFETY: the CPU runs AVX2 (checked when the network was built).
            return unsafe { self.forward_avx2(acc.values(), scratch) };
        }
        self.forward(acc.values(), scratch)
    }

    /// After an evaluation with `scratch`, the top trunk layer's activations in real units (the
    /// policy and cost heads' input), into `out`: the f32 network's
    /// [`Network::policy_of`] takes them.
    pub fn top(&self, scratch: &QuantScratch, out: &mut Vec<f32>) {
        let k = self.layers.len() - 1;
        let scale = self.scales[k];
        out.clear();
        out.extend(scratch.acts[k].iter().map(|&a| (a as f64 / scale) as f32));
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[target_feature(enable = "avx2")]
    unsafe fn forward_avx2(&self, acc: &[i16], scratch: &mut QuantScratch) -> Wdl {
        self.forward(acc, scratch)
    }

    #[inline(always)]
    fn forward(&self, acc: &[i16], scratch: &mut QuantScratch) -> Wdl {
        let depth = self.layers.len();
        scratch.acts.resize_with(depth, Vec::new);
        let a0 = &mut scratch.acts[0];
        a0.clear();
        a0.extend(acc.iter().map(|&v| v.max(0)));
        let mut logits = [0.0f32; 3];
        for (k, l) in self.layers.iter().enumerate() {
            let (done, rest) = scratch.acts.split_at_mut(k + 1);
            let x = &done[k];
            if k + 1 < depth {
                let out = &mut rest[0];
                out.clear();
                let half = if l.shift > 0 {
                    1i32 << (l.shift - 1)
                } else {
                    0
                };
                for (row, &b) in l.weights.chunks_exact(l.inputs).zip(&l.biases) {
                    let z = (b + dot(x, row)).max(0);
                    out.push(((z as i64 + half as i64) >> l.shift).min(i16::MAX as i64) as i16);
                }
            } else {
                let scale = self.scales[k + 1];
                for (o, (row, &b)) in l.weights.chunks_exact(l.inputs).zip(&l.biases).enumerate() {
                    logits[o] = ((b + dot(x, row)) as f64 / scale) as f32;
                }
            }
        }
        let [win, draw, loss] = softmax3(logits);
        Wdl { win, draw, loss }
    }
}

/// An accumulator's updates, here beside the weights they add.
impl Accumulator {
    /// The accumulator of the position whose active features are `features` (each once).
    pub fn new(net: &QuantNetwork, features: &[u16]) -> Accumulator {
        let mut acc = Accumulator::default();
        acc.refresh(net, features);
        acc
    }

    /// Recomputes from scratch: the bias plus the row of every feature in `features` (at most
    /// [`QuantNetwork::max_active`] of them).
    pub fn refresh(&mut self, net: &QuantNetwork, features: &[u16]) {
        self.values.clear();
        self.values.extend_from_slice(&net.first_biases);
        self.active = 0;
        self.apply(net, &[], features);
    }

    /// Updates in place for a move that deactivated `removed` and activated `added` (each
    /// feature once; `removed` were active, `added` were not). Unmaking the move is
    /// `update(net, added, removed)`.
    pub fn update(&mut self, net: &QuantNetwork, removed: &[u16], added: &[u16]) {
        assert_eq!(
            self.values.len(),
            net.width(),
            "an accumulator of this network"
        );
        self.apply(net, removed, added);
    }

    /// Becomes `parent` updated by `removed` and `added` ([`Accumulator::update`]): a child's
    /// accumulator from its parent's, without touching the parent.
    pub fn update_from(
        &mut self,
        net: &QuantNetwork,
        parent: &Accumulator,
        removed: &[u16],
        added: &[u16],
    ) {
        self.values.clear();
        self.values.extend_from_slice(&parent.values);
        self.active = parent.active;
        self.update(net, removed, added);
    }

    fn apply(&mut self, net: &QuantNetwork, removed: &[u16], added: &[u16]) {
        // The scales hold for at most `max_active` features: more would overflow silently.
        self.active = (self.active + added.len())
            .checked_sub(removed.len())
            .expect("removed features were active");
        assert!(
            self.active <= net.max_active(),
            "{} active features, more than the {} the network was quantised for",
            self.active,
            net.max_active()
        );
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        if net.avx2 {
            // SAFETY: the CPU runs AVX2 (checked when the network was built).
            return unsafe { apply_avx2(&mut self.values, &net.first_weights, removed, added) };
        }
        apply(&mut self.values, &net.first_weights, removed, added)
    }
}

impl QuantLayer {
    /// Per output, the largest value of `bias + x . w` over inputs `x` in `[0, bounds]`, and the
    /// largest `|bias| + sum bounds x |w|` over the outputs.
    fn bounds(&self, bounds: &[i64]) -> (Vec<i64>, i64) {
        let mut highs = Vec::with_capacity(self.outputs);
        let mut worst = 0;
        for (row, &b) in self.weights.chunks_exact(self.inputs).zip(&self.biases) {
            let (mut hi, mut abs) = (b as i64, (b as i64).abs());
            for (&w, &a) in row.iter().zip(bounds) {
                hi += a * (w as i64).max(0);
                abs += a * (w as i64).abs();
            }
            highs.push(hi);
            worst = worst.max(abs);
        }
        (highs, worst)
    }
}

/// `x` shifted right by `shift` bits, rounded.
fn shifted(x: i64, shift: u32) -> i64 {
    if shift == 0 {
        x
    } else {
        (x + (1 << (shift - 1))) >> shift
    }
}

/// The lowest and highest sum of `bias` and at most `k` of `column`'s weights (sorts `column`).
fn extremes(bias: f64, column: &mut [f64], k: usize) -> (f64, f64) {
    column.sort_unstable_by(f64::total_cmp);
    let lo = bias + column.iter().take(k).filter(|&&w| w < 0.0).sum::<f64>();
    let hi = bias
        + column
            .iter()
            .rev()
            .take(k)
            .filter(|&&w| w > 0.0)
            .sum::<f64>();
    (lo, hi)
}

/// Per first-layer output, the upper bound of its activation (ReLU of the bias plus at most `k`
/// distinct features' weights); and the largest |pre-activation| of any output over such sets.
fn first_bounds(weights: &[i16], biases: &[i16], k: usize) -> (Vec<i64>, i64) {
    let width = biases.len();
    let mut highs = Vec::with_capacity(width);
    let mut worst = 0;
    let mut column = Vec::new();
    for (o, &b) in biases.iter().enumerate() {
        column.clear();
        column.extend(weights.chunks_exact(width).map(|row| row[o] as i64));
        column.sort_unstable();
        let lo = b as i64 + column.iter().take(k).filter(|&&w| w < 0).sum::<i64>();
        let hi = b as i64 + column.iter().rev().take(k).filter(|&&w| w > 0).sum::<i64>();
        highs.push(hi.max(0));
        worst = worst.max(lo.abs()).max(hi.abs());
    }
    (highs, worst)
}

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
fn has_avx2() -> bool {
    false
}

/// The dot product of `a` and `b` (equal lengths) in `i32`, in sixteen lanes so that it
/// vectorises (multiply-add of 16-bit pairs). No sum overflows: every partial sum is bounded by
/// the layer's sum of absolute products, which [`QuantNetwork::new`] keeps within `i32`.
#[inline(always)]
fn dot(a: &[i16], b: &[i16]) -> i32 {
    let mut lanes = [0i32; 16];
    let (a16, b16) = (a.chunks_exact(16), b.chunks_exact(16));
    let tail: i32 = a16
        .remainder()
        .iter()
        .zip(b16.remainder())
        .map(|(&x, &y)| x as i32 * y as i32)
        .sum();
    for (x, y) in a16.zip(b16) {
        for k in 0..16 {
            lanes[k] += x[k] as i32 * y[k] as i32;
        }
    }
    lanes.iter().sum::<i32>() + tail
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::game::breakthrough::Breakthrough;
    use crate::game::chess::losalamos::LosAlamos;
    use crate::game::connect4::ConnectFour;
    use crate::game::minishogi::Minishogi;
    use crate::game::{Game, MoveList};
    use crate::nn::{builtin, Shape};
    use crate::rng::Rng;

    /// The game's embedded network.
    pub(crate) fn builtin_net<G: Game>() -> Network {
        builtin::network(G::INFO.name)
            .unwrap_or_else(|| panic!("{} has a builtin network", G::INFO.name))
            .net()
            .clone()
    }

    /// The feature lists of the positions of `games` random games (up to 300 plies each).
    pub(crate) fn random_positions<G: Game>(seed: u64, games: usize) -> Vec<Vec<u16>> {
        let mut rng = Rng::new(seed);
        let mut buf = MoveList::new();
        let mut out = Vec::new();
        for _ in 0..games {
            let mut pos = G::start();
            for _ in 0..300 {
                let mut f = Vec::new();
                pos.features(&mut f);
                out.push(f);
                if pos.outcome().is_some() {
                    break;
                }
                let Some(m) = pos.random_move(&mut rng, &mut buf) else {
                    break;
                };
                pos.play(m);
            }
        }
        out
    }

    /// The largest and the mean |value difference| between the int16 and the f32 network over
    /// the positions of random games; each win, draw and loss probability is also held to the
    /// tolerance.
    fn differences<G: Game>(seed: u64, max_active: usize) -> (f32, f32, usize) {
        let net = builtin_net::<G>();
        let q = QuantNetwork::with_max_active(&net, max_active);
        let (mut scratch, mut qscratch) = (Default::default(), QuantScratch::default());
        let (mut worst, mut sum) = (0.0f32, 0.0f32);
        let positions = random_positions::<G>(seed, 20);
        for f in &positions {
            let a = net.evaluate(f, &mut scratch);
            let b = q.evaluate(f, &mut qscratch);
            let d = (a.value() - b.value()).abs();
            for (x, y) in [(a.win, b.win), (a.draw, b.draw), (a.loss, b.loss)] {
                worst = worst.max((x - y).abs());
            }
            worst = worst.max(d);
            sum += d;
        }
        (worst, sum / positions.len() as f32, positions.len())
    }

    #[test]
    fn quantised_values_are_within_the_tolerance_of_f32() {
        // Each game's bound on active features: its pieces (minishogi's 12 on the board or in
        // hand, Los Alamos' 24, Breakthrough's 32, Connect Four's 42 stones); then no bound
        // (a coarser first layer), held to UNBOUNDED_TOLERANCE.
        let bounded = [
            ("minishogi", differences::<Minishogi>(1, 12)),
            ("losalamos", differences::<LosAlamos>(2, 24)),
            ("breakthrough", differences::<Breakthrough<8>>(3, 32)),
            ("cfour", differences::<ConnectFour>(4, 42)),
        ];
        let unbounded = [
            ("minishogi", differences::<Minishogi>(1, usize::MAX)),
            ("losalamos", differences::<LosAlamos>(2, usize::MAX)),
            (
                "breakthrough",
                differences::<Breakthrough<8>>(3, usize::MAX),
            ),
            ("cfour", differences::<ConnectFour>(4, usize::MAX)),
        ];
        for (results, tolerance) in [(bounded, VALUE_TOLERANCE), (unbounded, UNBOUNDED_TOLERANCE)] {
            for (game, (worst, mean, n)) in results {
                eprintln!("{game}: {n} positions, |d| max {worst:.5} mean {mean:.5}");
                assert!(n > 300, "{game}: {n} positions");
                assert!(worst <= tolerance, "{game}: {worst}");
                // Rounding, not a systematic error: the mean is far below the worst case.
                assert!(mean <= tolerance / 4.0, "{game}: mean {mean}");
            }
        }
    }

    /// The int16 value follows the f32 one on random networks too, with more hidden layers
    /// (the right shifts between trunk layers) and wider ones.
    #[test]
    fn random_networks_of_other_shapes_quantise_within_the_tolerance() {
        let positions = random_positions::<Minishogi>(5, 4);
        for hidden in [vec![512], vec![256, 128], vec![64, 32, 32]] {
            let shape = Shape {
                inputs: 520,
                hidden: hidden.clone(),
                policy: 1375,
                cost: 0,
            };
            let net = Network::new("minishogi", shape, 7).unwrap();
            let q = QuantNetwork::new(&net);
            let (mut scratch, mut qscratch) = (Default::default(), QuantScratch::default());
            let mut top = Vec::new();
            for f in &positions {
                let (a, b) = (net.evaluate(f, &mut scratch), q.evaluate(f, &mut qscratch));
                let d = (a.value() - b.value()).abs();
                assert!(d <= VALUE_TOLERANCE, "{hidden:?}: {a:?} {b:?}");
                q.top(&qscratch, &mut top);
                assert_eq!(top.len(), *hidden.last().unwrap());
            }
        }
    }

    /// The f32 policy head on the int16 trunk's activations gives the f32 network's priors.
    #[test]
    fn the_policy_of_the_quantised_trunk_follows_the_f32_policy() {
        let net = builtin_net::<Minishogi>();
        let q = QuantNetwork::with_max_active(&net, 12);
        let (mut scratch, mut qscratch) = (Default::default(), QuantScratch::default());
        let (mut top, mut a, mut b) = (Vec::new(), Vec::new(), Vec::new());
        let indices: Vec<usize> = (0..net.shape().policy).step_by(7).collect();
        let mut worst = 0.0f32;
        for f in random_positions::<Minishogi>(9, 3) {
            net.evaluate(&f, &mut scratch);
            net.policy(&scratch, &indices, &mut a);
            q.evaluate(&f, &mut qscratch);
            q.top(&qscratch, &mut top);
            net.policy_of(&top, &indices, &mut b);
            for (x, y) in a.iter().zip(&b) {
                worst = worst.max((x - y).abs());
            }
        }
        assert!(worst <= VALUE_TOLERANCE, "{worst}");
    }

    /// Checks, output by output, that the features with positive weights (and then those with
    /// negative ones) all active at once give the exact sum: the extremes of every output, so
    /// no set of features overflows the i16 accumulator; and that the later layers' bounds fit.
    fn assert_no_overflow(net: &Network, max_active: usize) {
        let q = QuantNetwork::with_max_active(net, max_active);
        assert!(q.first_bound() <= i16::MAX as i64, "{}", q.first_bound());
        assert!(q.dense_bound() <= i32::MAX as i64, "{}", q.dense_bound());
        let mut scratch = QuantScratch::default();
        let mut features = Vec::new();
        for o in 0..q.width() {
            for positive in [true, false] {
                features.clear();
                features.extend((0..q.inputs() as u16).filter(|&f| (q.row(f)[o] > 0) == positive));
                // The `max_active` largest weights of that sign.
                features.sort_by_key(|&f| std::cmp::Reverse(q.row(f)[o].unsigned_abs()));
                features.truncate(q.max_active());
                let acc = Accumulator::new(&q, &features);
                let exact: i64 = q.first_biases()[o] as i64
                    + features.iter().map(|&f| q.row(f)[o] as i64).sum::<i64>();
                assert_eq!(acc.values()[o] as i64, exact, "output {o}");
                // The worst cases run through the later layers too (overflow checks are on
                // in tests).
                let wdl = q.evaluate_accumulator(&acc, &mut scratch);
                assert!(wdl.win.is_finite() && wdl.loss.is_finite());
            }
        }
        let all: Vec<u16> = (0..q.max_active() as u16).collect();
        let wdl = q.evaluate(&all, &mut scratch);
        assert!((wdl.win + wdl.draw + wdl.loss - 1.0).abs() < 1e-4);
    }

    #[test]
    fn no_set_of_features_overflows_the_accumulator_or_the_dot_products() {
        for game in builtin::games() {
            let net = builtin::network(game).unwrap().net().clone();
            for max_active in [net.shape().inputs, 40, 12, 1] {
                assert_no_overflow(&net, max_active);
            }
        }
        // Weights far beyond any trained network's: the scales shrink instead of overflowing.
        let shape = Shape {
            inputs: 520,
            hidden: vec![256, 128],
            policy: 10,
            cost: 0,
        };
        let mut net = Network::new("minishogi", shape, 3).unwrap();
        for (k, w) in net.params_mut().iter_mut().enumerate() {
            *w = *w * 300.0 + if k % 7 == 0 { 50.0 } else { 0.0 };
        }
        assert_no_overflow(&net, 520);
        assert_no_overflow(&net, 30);
        let q = QuantNetwork::new(&net);
        assert!(q.first_scale() < 16.0, "{}", q.first_scale());
    }
}
