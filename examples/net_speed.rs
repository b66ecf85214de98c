//! Value evaluations per second of the f32 network and its int16 copy (full and incremental).
//!
//! `cargo run --release --example net_speed -- [game...]` (default: the embedded networks of
//! minishogi, losalamos, breakthrough, cfour and reversi). For each game: the int16 network's
//! |value difference| from f32 over the positions of random games, then evaluations/s of
//! `Network::evaluate`, `QuantNetwork::evaluate` (first layer from scratch) and the incremental
//! int16 evaluation of a child from the accumulator of its parent (1 ply) or of its grandparent
//! (2 plies: the same side to move, so the features differ least), diff of the feature lists
//! included; the f32 value path with its value head stored output-major as the int16 one is
//! ("f32 rows"); then the same for random networks with a first layer of 256 and 512.

use std::hint::black_box;
use std::time::Instant;

use gpn::game::registry::{visit, GameVisitor};
use gpn::game::{Game, MoveList};
use gpn::nn::{builtin, Accumulator, FeatureDiff, Network, QuantNetwork, QuantScratch, Shape};
use gpn::rng::Rng;

/// Each game's bound on active features (its pieces or stones); others get none.
fn max_active(game: &str) -> usize {
    match game {
        "minishogi" => 12,
        "losalamos" => 24,
        "breakthrough" => 32,
        "cfour" => 42,
        "reversi" => 64,
        _ => usize::MAX,
    }
}

/// The f32 network's value path with the value head stored output-major (three contiguous
/// rows, dot products in eight lanes): the f32 baseline of the int16 network's layout, for
/// networks of one hidden layer.
struct F32Rows {
    width: usize,
    first: Vec<f32>,
    bias: Vec<f32>,
    head: Vec<f32>,
    head_bias: [f32; 3],
    acc: Vec<f32>,
}

impl F32Rows {
    fn new(net: &Network) -> F32Rows {
        let (l0, l1) = (net.layer(0), net.layer(1));
        let p = net.params();
        let mut head = Vec::new();
        for o in 0..3 {
            head.extend((0..l1.inputs).map(|i| p[l1.w + i * 3 + o]));
        }
        F32Rows {
            width: l0.outputs,
            first: p[l0.w..l0.b].to_vec(),
            bias: p[l0.b..l0.b + l0.outputs].to_vec(),
            head,
            head_bias: [p[l1.b], p[l1.b + 1], p[l1.b + 2]],
            acc: Vec::new(),
        }
    }

    fn value(&mut self, features: &[u16]) -> f32 {
        self.acc.clear();
        self.acc.extend_from_slice(&self.bias);
        for &f in features {
            let row = &self.first[f as usize * self.width..(f as usize + 1) * self.width];
            for (a, w) in self.acc.iter_mut().zip(row) {
                *a += w;
            }
        }
        for a in &mut self.acc {
            *a = a.max(0.0);
        }
        let mut z = self.head_bias;
        for (o, row) in self.head.chunks_exact(self.width).enumerate() {
            let mut lanes = [0.0f32; 8];
            for (x, w) in self.acc.chunks_exact(8).zip(row.chunks_exact(8)) {
                for k in 0..8 {
                    lanes[k] += x[k] * w[k];
                }
            }
            z[o] += lanes.iter().sum::<f32>();
        }
        let m = z[0].max(z[1]).max(z[2]);
        let e = z.map(|v| (v - m).exp());
        (e[0] - e[2]) / (e[0] + e[1] + e[2])
    }
}

/// A position's features, its parent's and its grandparent's (the start position stands in
/// for a missing ancestor).
struct Sample {
    child: Vec<u16>,
    parent: Vec<u16>,
    grand: Vec<u16>,
}

fn samples<G: Game>(seed: u64, want: usize) -> Vec<Sample> {
    let mut rng = Rng::new(seed);
    let mut buf = MoveList::new();
    let mut out = Vec::new();
    while out.len() < want {
        let mut pos = G::start();
        let mut history: Vec<Vec<u16>> = Vec::new();
        for _ in 0..300 {
            let mut f = Vec::new();
            pos.features(&mut f);
            history.push(f);
            let n = history.len();
            if n >= 3 {
                out.push(Sample {
                    child: history[n - 1].clone(),
                    parent: history[n - 2].clone(),
                    grand: history[n - 3].clone(),
                });
            }
            if pos.outcome().is_some() {
                break;
            }
            let Some(m) = pos.random_move(&mut rng, &mut buf) else {
                break;
            };
            pos.play(m);
        }
    }
    out.truncate(want);
    out
}

/// Evaluations per second of `f` over the samples (repeated for at least 0.25 s); the best of
/// three rounds, each run by the caller in turn with the others.
fn rate(samples: &[Sample], mut f: impl FnMut(usize, &Sample) -> f32) -> f64 {
    let t0 = Instant::now();
    let mut n = 0usize;
    let mut sum = 0.0f32;
    while t0.elapsed().as_secs_f64() < 0.25 {
        for (i, s) in samples.iter().enumerate() {
            sum += f(i, s);
        }
        n += samples.len();
    }
    black_box(sum);
    n as f64 / t0.elapsed().as_secs_f64()
}

/// Rates of f32, int16 full, int16 from the parent and from the grandparent, and f32 with the
/// value head output-major; best of 3 rounds.
fn rates(net: &Network, q: &QuantNetwork, samples: &[Sample]) -> [f64; 5] {
    let mut rows = F32Rows::new(net);
    let mut scratch = Default::default();
    let mut qs = QuantScratch::default();
    let mut diff = FeatureDiff::default();
    let mut acc = Accumulator::default();
    let parents: Vec<Accumulator> = samples
        .iter()
        .map(|s| Accumulator::new(q, &s.parent))
        .collect();
    let grands: Vec<Accumulator> = samples
        .iter()
        .map(|s| Accumulator::new(q, &s.grand))
        .collect();
    let mut best = [0.0f64; 5];
    for _ in 0..3 {
        let r = [
            rate(samples, |_, s| net.evaluate(&s.child, &mut scratch).value()),
            rate(samples, |_, s| q.evaluate(&s.child, &mut qs).value()),
            rate(samples, |i, s| {
                diff.compute(&s.parent, &s.child);
                acc.update_from(q, &parents[i], diff.removed(), diff.added());
                q.evaluate_accumulator(&acc, &mut qs).value()
            }),
            rate(samples, |i, s| {
                diff.compute(&s.grand, &s.child);
                acc.update_from(q, &grands[i], diff.removed(), diff.added());
                q.evaluate_accumulator(&acc, &mut qs).value()
            }),
            rate(samples, |_, s| rows.value(&s.child)),
        ];
        for k in 0..5 {
            best[k] = best[k].max(r[k]);
        }
    }
    best
}

fn row(label: &str, r: [f64; 5]) {
    println!(
        "| {label} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
        r[0] / 1e6,
        r[4] / 1e6,
        r[1] / 1e6,
        r[2] / 1e6,
        r[3] / 1e6,
        r[1] / r[0],
        r[2] / r[0],
        r[3] / r[0]
    );
}

struct Bench;

impl GameVisitor for Bench {
    type Output = ();
    fn visit<G: Game>(self) {
        let name = G::INFO.name;
        let Some(file) = builtin::network(name) else {
            println!("{name}: no embedded network");
            return;
        };
        let net = file.net();
        let k = max_active(name);
        let q = QuantNetwork::with_max_active(net, k);
        let plain = QuantNetwork::new(net);
        let samples = samples::<G>(1, 3000);
        // Accuracy over every sample, bounded and unbounded.
        let (mut scratch, mut qs) = (Default::default(), QuantScratch::default());
        let mut stats = [(0.0f32, 0.0f32); 2];
        let (mut diff, mut d1, mut d2, mut active) = (FeatureDiff::default(), 0, 0, 0);
        for s in &samples {
            let v = net.evaluate(&s.child, &mut scratch).value();
            for (st, qn) in stats.iter_mut().zip([&q, &plain]) {
                let d = (qn.evaluate(&s.child, &mut qs).value() - v).abs();
                st.0 = st.0.max(d);
                st.1 += d;
            }
            diff.compute(&s.parent, &s.child);
            d1 += diff.removed().len() + diff.added().len();
            diff.compute(&s.grand, &s.child);
            d2 += diff.removed().len() + diff.added().len();
            active += s.child.len();
        }
        let n = samples.len() as f32;
        println!(
            "{name}: {} positions, {:.1} features; rows changed from the parent {:.1}, from \
             the grandparent {:.1}; |dvalue| max_active={}: max {:.4} mean {:.5}; \
             unbounded: max {:.4} mean {:.5}; first scale {:.0} / {:.0}",
            samples.len(),
            active as f32 / n,
            d1 as f32 / n,
            d2 as f32 / n,
            q.max_active(),
            stats[0].0,
            stats[0].1 / n,
            stats[1].0,
            stats[1].1 / n,
            q.first_scale(),
            plain.first_scale()
        );
        let shape = net.shape();
        println!(
            "| network | f32 M/s | f32 rows M/s | int16 full M/s | int16 incr. parent M/s | \
             int16 incr. grandparent M/s | full/f32 | parent/f32 | grandparent/f32 |"
        );
        println!("|---|---|---|---|---|---|---|---|---|");
        let samples = &samples[..1000];
        row(
            &format!("{name} {:?}", shape.hidden),
            rates(net, &q, samples),
        );
        for width in [256, 512] {
            let shape = Shape {
                hidden: vec![width],
                ..shape.clone()
            };
            let big = Network::new(name, shape, 9).expect("a valid shape");
            let qb = QuantNetwork::with_max_active(&big, k);
            row(
                &format!("{name} random [{width}]"),
                rates(&big, &qb, samples),
            );
        }
        println!();
    }
}

fn main() {
    let mut games: Vec<String> = std::env::args().skip(1).collect();
    if games.is_empty() {
        games = ["minishogi", "losalamos", "breakthrough", "cfour", "reversi"]
            .map(String::from)
            .to_vec();
    }
    for game in games {
        if let Err(e) = visit(&game, Bench) {
            eprintln!("{e}");
        }
    }
}
