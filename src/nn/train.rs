//! Training a [`Network`]: Adam (with decoupled weight decay on the weights) on mini-batches,
//! cross-entropy losses for the value (win/draw/loss) and the policy (over the legal moves),
//! and a forward and backward pass written apart from the search's forward pass.
//!
//! Hand-written rather than candle or burn: the networks are a few small dense layers over
//! sparse binary inputs, where a framework's dense tensors spend most of their time on zeros
//! and its build adds minutes to every CI run; the test `inference_matches_training_forward`
//! holds the two forward passes to each other.

use super::net::{softmax, softmax3, Layer, Network};
use super::pcn;
use super::sample::Sample;

/// Optimiser settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub learning_rate: f32,
    pub beta1: f32,
    pub beta2: f32,
    pub epsilon: f32,
    /// Decoupled weight decay (AdamW) on the weights, not the biases.
    pub weight_decay: f32,
    /// The policy loss's weight against the value loss.
    pub policy_weight: f32,
    /// Threads that share out a batch's gradient.
    pub threads: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            learning_rate: 1e-3,
            beta1: 0.9,
            beta2: 0.999,
            epsilon: 1e-8,
            weight_decay: 1e-4,
            policy_weight: 1.0,
            threads: 1,
        }
    }
}

/// Mean losses over some samples (natural-log cross-entropies).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Losses {
    pub value: f64,
    pub policy: f64,
    /// The two proof-cost heads' cross-entropies together (0 without cost heads or targets).
    pub cost: f64,
    pub samples: usize,
}

impl Losses {
    fn add(&mut self, other: Losses) {
        self.value += other.value;
        self.policy += other.policy;
        self.cost += other.cost;
        self.samples += other.samples;
    }

    fn mean(mut self) -> Losses {
        if self.samples > 0 {
            self.value /= self.samples as f64;
            self.policy /= self.samples as f64;
            self.cost /= self.samples as f64;
        }
        self
    }

    /// The weighted sum the optimiser minimises.
    pub fn total(&self, policy_weight: f32) -> f64 {
        self.value + policy_weight as f64 * self.policy + self.cost
    }
}

/// A network being trained, with Adam's moment estimates.
pub struct Trainer {
    net: Network,
    settings: Settings,
    m: Vec<f32>,
    v: Vec<f32>,
    steps: u32,
    /// Per-thread gradient buffers, reused.
    grads: Vec<Vec<f32>>,
}

/// One sample's activations in the training pass: pre-activations `z` and activations `a` of
/// every trunk layer, then the heads' logits.
#[derive(Default)]
struct Pass {
    z: Vec<Vec<f32>>,
    a: Vec<Vec<f32>>,
    value: [f32; 3],
    policy: Vec<f32>,
    /// The policy's probabilities (scratch of the loss).
    probs: Vec<f32>,
    /// The cost heads' probabilities (both heads, empty when the sample has no cost target)
    /// and their two-hot targets.
    cost_probs: Vec<f32>,
    cost_targets: Vec<f32>,
}

impl Trainer {
    pub fn new(net: Network, settings: Settings) -> Trainer {
        let n = net.params().len();
        Trainer {
            net,
            settings,
            m: vec![0.0; n],
            v: vec![0.0; n],
            steps: 0,
            grads: Vec::new(),
        }
    }

    pub fn network(&self) -> &Network {
        &self.net
    }

    pub fn into_network(self) -> Network {
        self.net
    }

    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// Adam steps taken.
    pub fn steps(&self) -> u32 {
        self.steps
    }

    /// Mean losses of the current network over `samples`, without training.
    pub fn losses(&self, samples: &[Sample]) -> Losses {
        let mut pass = Pass::default();
        let mut total = Losses::default();
        for s in samples {
            total.add(forward(&self.net, s, &mut pass));
        }
        total.mean()
    }

    /// One Adam step on `batch`; returns its mean losses before the step.
    pub fn step(&mut self, batch: &[Sample]) -> Losses {
        let n = self.net.params().len();
        let threads = self.settings.threads.clamp(1, batch.len().max(1));
        self.grads.resize_with(threads, Vec::new);
        for g in &mut self.grads {
            g.clear();
            g.resize(n, 0.0);
        }
        let chunk = batch.len().div_ceil(threads).max(1);
        let net = &self.net;
        let policy_weight = self.settings.policy_weight;
        let mut total = Losses::default();
        if threads == 1 {
            total = gradient(net, batch, policy_weight, &mut self.grads[0]);
        } else {
            let parts: Vec<Losses> = std::thread::scope(|scope| {
                let handles: Vec<_> = batch
                    .chunks(chunk)
                    .zip(self.grads.iter_mut())
                    .map(|(part, g)| scope.spawn(move || gradient(net, part, policy_weight, g)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_default())
                    .collect()
            });
            for p in parts {
                total.add(p);
            }
            let (first, rest) = self.grads.split_at_mut(1);
            for g in rest {
                for (a, b) in first[0].iter_mut().zip(g.iter()) {
                    *a += b;
                }
            }
        }
        let scale = 1.0 / batch.len().max(1) as f32;
        self.adam(scale);
        total.mean()
    }

    /// Adam's update from the summed gradient in `grads[0]`, scaled by `scale`.
    fn adam(&mut self, scale: f32) {
        let s = self.settings;
        self.steps += 1;
        let t = self.steps as i32;
        let c1 = 1.0 - s.beta1.powi(t);
        let c2 = 1.0 - s.beta2.powi(t);
        let depth = self.net.depth();
        let layers: Vec<Layer> = (0..depth).map(|k| self.net.layer(k)).collect();
        let g = &self.grads[0];
        let params = self.net.params_mut();
        for l in layers {
            for i in l.w..l.b + l.outputs {
                let gi = g[i] * scale;
                self.m[i] = s.beta1 * self.m[i] + (1.0 - s.beta1) * gi;
                self.v[i] = s.beta2 * self.v[i] + (1.0 - s.beta2) * gi * gi;
                let step = (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + s.epsilon);
                let decay = if i < l.b {
                    s.weight_decay * params[i]
                } else {
                    0.0
                };
                params[i] -= s.learning_rate * (step + decay);
            }
        }
    }
}

/// The training forward pass of one sample into `pass`; returns its losses.
fn forward(net: &Network, s: &Sample, pass: &mut Pass) -> Losses {
    let trunk = net.shape().hidden.len();
    let params = net.params();
    pass.z.resize_with(trunk, Vec::new);
    pass.a.resize_with(trunk, Vec::new);
    for k in 0..trunk {
        let l = net.layer(k);
        let z = &mut pass.z[k];
        z.clear();
        z.extend_from_slice(&params[l.b..l.b + l.outputs]);
        if k == 0 {
            for &f in &s.features {
                let row = &params[l.w + f as usize * l.outputs..][..l.outputs];
                for j in 0..l.outputs {
                    z[j] += row[j];
                }
            }
        } else {
            let prev = &pass.a[k - 1];
            for j in 0..l.outputs {
                let mut sum = 0.0;
                for (i, &x) in prev.iter().enumerate() {
                    sum += x * params[l.w + i * l.outputs + j];
                }
                z[j] += sum;
            }
        }
        let a = &mut pass.a[k];
        a.clear();
        a.extend(z.iter().map(|&v| v.max(0.0)));
    }
    let top = &pass.a[trunk - 1];
    let head = |l: Layer, j: usize| -> f32 {
        let mut sum = params[l.b + j];
        for (i, &x) in top.iter().enumerate() {
            sum += x * params[l.w + i * l.outputs + j];
        }
        sum
    };
    let vl = net.layer(trunk);
    pass.value = [head(vl, 0), head(vl, 1), head(vl, 2)];
    let pl = net.layer(trunk + 1);
    pass.policy.clear();
    pass.policy
        .extend(s.policy.iter().map(|&(p, _)| head(pl, p as usize)));
    // Cross-entropies; a zero target contributes nothing (and no log of zero).
    let probs = softmax3(pass.value);
    let mut value = 0.0f64;
    for (&t, &q) in s.wdl.iter().zip(&probs) {
        if t > 0.0 {
            value -= t as f64 * (q.max(1e-12) as f64).ln();
        }
    }
    let mut policy = 0.0f64;
    if !s.policy.is_empty() {
        pass.probs.clear();
        pass.probs.extend_from_slice(&pass.policy);
        softmax(&mut pass.probs);
        for (&(_, t), &q) in s.policy.iter().zip(&pass.probs) {
            if t > 0.0 {
                policy -= t as f64 * (q.max(1e-12) as f64).ln();
            }
        }
    }
    let mut cost = 0.0f64;
    pass.cost_probs.clear();
    pass.cost_targets.clear();
    if let (true, Some(targets)) = (net.has_costs(), s.cost) {
        let cl = net.layer(trunk + 2);
        let bins = net.shape().cost;
        pass.cost_probs.extend((0..cl.outputs).map(|j| head(cl, j)));
        pass.cost_targets.resize(2 * bins, 0.0);
        for (k, &ln) in targets.iter().enumerate() {
            let probs = &mut pass.cost_probs[k * bins..(k + 1) * bins];
            softmax(probs);
            let t = &mut pass.cost_targets[k * bins..(k + 1) * bins];
            pcn::two_hot(ln, t);
            for (&t, &q) in t.iter().zip(probs.iter()) {
                if t > 0.0 {
                    cost -= t as f64 * (q.max(1e-12) as f64).ln();
                }
            }
        }
    }
    Losses {
        value,
        policy,
        cost,
        samples: 1,
    }
}

/// The summed gradient of `batch`'s losses, added into `g`; returns the summed losses.
fn gradient(net: &Network, batch: &[Sample], policy_weight: f32, g: &mut [f32]) -> Losses {
    let trunk = net.shape().hidden.len();
    let params = net.params();
    let mut pass = Pass::default();
    let mut total = Losses::default();
    let mut da: Vec<f32> = Vec::new();
    let mut dz: Vec<f32> = Vec::new();
    let mut dp: Vec<f32> = Vec::new();
    for s in batch {
        total.add(forward(net, s, &mut pass));
        // Value head: softmax minus target.
        let probs = softmax3(pass.value);
        let dv = [
            probs[0] - s.wdl[0],
            probs[1] - s.wdl[1],
            probs[2] - s.wdl[2],
        ];
        // Policy head over the legal moves.
        dp.clear();
        if !s.policy.is_empty() {
            // The forward pass left the policy's probabilities in `pass.probs`.
            dp.extend_from_slice(&pass.probs);
            for (d, &(_, t)) in dp.iter_mut().zip(&s.policy) {
                *d = policy_weight * (*d - t);
            }
        }
        let top = &pass.a[trunk - 1];
        da.clear();
        da.resize(top.len(), 0.0);
        let vl = net.layer(trunk);
        for c in 0..3 {
            g[vl.b + c] += dv[c];
        }
        for (i, &x) in top.iter().enumerate() {
            let row = vl.w + i * 3;
            for c in 0..3 {
                g[row + c] += x * dv[c];
                da[i] += params[row + c] * dv[c];
            }
        }
        let pl = net.layer(trunk + 1);
        for (&d, &(p, _)) in dp.iter().zip(&s.policy) {
            let p = p as usize;
            g[pl.b + p] += d;
            for (i, &x) in top.iter().enumerate() {
                let at = pl.w + i * pl.outputs + p;
                g[at] += x * d;
                da[i] += params[at] * d;
            }
        }
        // Cost heads: softmax minus the two-hot target, per head.
        if !pass.cost_probs.is_empty() {
            let cl = net.layer(trunk + 2);
            for (j, (&q, &t)) in pass.cost_probs.iter().zip(&pass.cost_targets).enumerate() {
                let d = q - t;
                g[cl.b + j] += d;
                for (i, &x) in top.iter().enumerate() {
                    let at = cl.w + i * cl.outputs + j;
                    g[at] += x * d;
                    da[i] += params[at] * d;
                }
            }
        }
        // The trunk, from the top down.
        for k in (0..trunk).rev() {
            let l = net.layer(k);
            dz.clear();
            dz.extend(
                da.iter()
                    .zip(&pass.z[k])
                    .map(|(&d, &z)| if z > 0.0 { d } else { 0.0 }),
            );
            for j in 0..l.outputs {
                g[l.b + j] += dz[j];
            }
            if k == 0 {
                for &f in &s.features {
                    let row = l.w + f as usize * l.outputs;
                    for j in 0..l.outputs {
                        g[row + j] += dz[j];
                    }
                }
            } else {
                let prev = &pass.a[k - 1];
                da.clear();
                da.resize(prev.len(), 0.0);
                for (i, &x) in prev.iter().enumerate() {
                    let row = l.w + i * l.outputs;
                    for j in 0..l.outputs {
                        g[row + j] += x * dz[j];
                        da[i] += params[row + j] * dz[j];
                    }
                }
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::{Scratch, Shape};
    use crate::rng::Rng;

    /// A small network with every head, the proof-cost heads included.
    fn shape() -> Shape {
        Shape {
            inputs: 30,
            hidden: vec![16, 8],
            policy: 5,
            cost: pcn::BINS,
        }
    }

    fn random_samples(n: usize, seed: u64) -> Vec<Sample> {
        let mut rng = Rng::new(seed);
        (0..n)
            .map(|_| {
                let mut features: Vec<u16> = (0..30u16).filter(|_| rng.below(3) == 0).collect();
                if features.is_empty() {
                    features.push(rng.below(30) as u16);
                }
                let c = rng.below(3) as usize;
                let mut wdl = [0.0; 3];
                wdl[c] = 1.0;
                let legal: Vec<u16> = (0..5u16).filter(|_| rng.below(2) == 0).collect();
                let legal = if legal.is_empty() { vec![2] } else { legal };
                let pick = legal[rng.below(legal.len() as u32) as usize];
                let policy = legal
                    .iter()
                    .map(|&p| (p, if p == pick { 1.0 } else { 0.0 }))
                    .collect();
                // Two samples in three have cost targets anywhere on the bins' range.
                let cost = (rng.below(3) != 0).then(|| {
                    let top = pcn::BIN_STEP * (pcn::BINS - 1) as f32;
                    [rng.unit_f64() as f32 * top, rng.unit_f64() as f32 * top]
                });
                Sample {
                    features,
                    wdl,
                    policy,
                    cost,
                    ..Sample::default()
                }
            })
            .collect()
    }

    #[test]
    fn inference_matches_training_forward() {
        let net = Network::new("test", shape(), 7).unwrap();
        let mut columns = net.clone();
        columns.params_mut();
        let mut scratch = Scratch::default();
        let mut pass = Pass::default();
        let mut probs = Vec::new();
        for s in random_samples(200, 3) {
            let wdl = net.evaluate(&s.features, &mut scratch);
            forward(&net, &s, &mut pass);
            let want = softmax3(pass.value);
            for (got, want) in [wdl.win, wdl.draw, wdl.loss].iter().zip(want) {
                assert!((got - want).abs() < 1e-4, "{got} vs {want}");
            }
            // The cost heads decode what the training pass's probabilities say.
            let costs = net.costs(&scratch, &mut probs).unwrap();
            if s.cost.is_some() {
                let bins = pcn::BINS;
                for k in 0..2 {
                    let want = pcn::decode(&pass.cost_probs[k * bins..(k + 1) * bins]);
                    assert!((costs[k] - want).abs() < 1e-3 * want, "{costs:?} vs {want}");
                }
            }
            let indices: Vec<usize> = s.policy.iter().map(|&(p, _)| p as usize).collect();
            let mut want = pass.policy.clone();
            softmax(&mut want);
            // Both ways of reading the policy head: move-major rows, and columns (after the
            // trainer's writes).
            for net in [&net, &columns] {
                net.policy(&scratch, &indices, &mut probs);
                for (got, want) in probs.iter().zip(&want) {
                    assert!((got - want).abs() < 1e-4, "{got} vs {want}");
                }
                assert!((probs.iter().sum::<f32>() - 1.0).abs() < 1e-4);
            }
        }
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let net = Network::new("test", shape(), 11).unwrap();
        let batch = random_samples(4, 5);
        let mut g = vec![0.0f32; net.params().len()];
        gradient(&net, &batch, 1.0, &mut g);
        let loss = |n: &Network| {
            let mut pass = Pass::default();
            batch
                .iter()
                .map(|s| forward(n, s, &mut pass).total(1.0))
                .sum::<f64>()
        };
        let mut rng = Rng::new(9);
        let mut checked = 0;
        while checked < 60 {
            let i = rng.below(net.params().len() as u32) as usize;
            let h = 1e-2f32;
            let mut up = net.clone();
            up.params_mut()[i] += h;
            let mut down = net.clone();
            down.params_mut()[i] -= h;
            let numeric = (loss(&up) - loss(&down)) / (2.0 * h as f64);
            // A ReLU kink inside the step makes the difference meaningless: skip those.
            if (numeric - g[i] as f64).abs() > 1e-2 * (1.0 + numeric.abs()) {
                let mut up2 = net.clone();
                up2.params_mut()[i] += h / 4.0;
                let mut down2 = net.clone();
                down2.params_mut()[i] -= h / 4.0;
                let finer = (loss(&up2) - loss(&down2)) / (h as f64 / 2.0);
                assert!(
                    (finer - numeric).abs() > 1e-3,
                    "param {i}: analytic {} numeric {numeric}",
                    g[i]
                );
                continue;
            }
            checked += 1;
        }
    }

    #[test]
    fn a_network_overfits_a_small_fixed_batch() {
        let net = Network::new("test", shape(), 1).unwrap();
        let batch = random_samples(32, 21);
        let mut trainer = Trainer::new(
            net,
            Settings {
                learning_rate: 1e-2,
                weight_decay: 0.0,
                ..Settings::default()
            },
        );
        // The value and policy targets are one-hot (their cross-entropy can reach 0); a cost
        // target is two-hot, so its cross-entropy cannot fall below the target's own entropy.
        let floor = batch
            .iter()
            .filter_map(|s| s.cost)
            .flatten()
            .map(|ln| {
                let mut bins = [0.0f32; pcn::BINS];
                pcn::two_hot(ln, &mut bins);
                bins.iter()
                    .filter(|&&t| t > 0.0)
                    .map(|&t| -(t as f64) * (t as f64).ln())
                    .sum::<f64>()
            })
            .sum::<f64>()
            / batch.len() as f64;
        let before = trainer.losses(&batch).total(1.0) - floor;
        for _ in 0..2000 {
            trainer.step(&batch);
        }
        let after = trainer.losses(&batch).total(1.0) - floor;
        assert!(
            after >= -1e-6 && after * 10.0 < before,
            "loss above the floor {floor}: {before} -> {after}"
        );
    }

    #[test]
    fn threads_share_a_batch_without_changing_the_step() {
        let batch = random_samples(64, 8);
        let mut one = Trainer::new(
            Network::new("test", shape(), 4).unwrap(),
            Settings::default(),
        );
        let mut three = Trainer::new(
            Network::new("test", shape(), 4).unwrap(),
            Settings {
                threads: 3,
                ..Settings::default()
            },
        );
        for _ in 0..5 {
            let a = one.step(&batch);
            let b = three.step(&batch);
            assert!((a.total(1.0) - b.total(1.0)).abs() < 1e-6);
        }
        for (a, b) in one.network().params().iter().zip(three.network().params()) {
            assert!((a - b).abs() < 1e-5, "{a} vs {b}");
        }
    }

    #[test]
    fn files_round_trip_and_damage_is_refused() {
        // Without cost heads the file is version 1, as older gpn builds read it.
        let plain = Network::new("cfour", Shape { cost: 0, ..shape() }, 2).unwrap();
        let mut bytes = Vec::new();
        plain.write(&mut bytes).unwrap();
        assert_eq!(bytes[4..8], 1u32.to_le_bytes());
        assert_eq!(Network::read(&mut bytes.as_slice()).unwrap(), plain);
        let net = Network::new("cfour", shape(), 2).unwrap();
        let mut bytes = Vec::new();
        net.write(&mut bytes).unwrap();
        assert_eq!(bytes[4..8], 2u32.to_le_bytes());
        let back = Network::read(&mut bytes.as_slice()).unwrap();
        assert_eq!(back, net);
        assert!(back.has_costs());
        let mut bad = bytes.clone();
        let mid = bad.len() / 2;
        bad[mid] ^= 0x40;
        assert!(Network::read(&mut bad.as_slice()).is_err());
        assert!(Network::read(&mut &bytes[..bytes.len() - 3]).is_err());
        assert!(Network::read(&mut &b"GPNX"[..]).is_err());
    }
}
