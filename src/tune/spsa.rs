//! SPSA arithmetic as OpenBench and fishtest use it: the gain schedules, the perturbations,
//! the update and clamping, and the state that a run saves and resumes from.
//!
//! Spall's simultaneous perturbation: at iteration `k` (1-based, counted in game pairs) every
//! parameter is moved by `±c_k` at once (the signs `delta` drawn at random), a pair of games
//! is played between `theta + c_k delta` and `theta - c_k delta`, and each parameter moves by
//! `r_k c_k (W - L) delta`, W and L the wins and losses of the plus side. The schedules are
//! `c_k = c / k^gamma` and `a_k = a / (A + k)^alpha`, `r_k = a_k / c_k^2`, with `c` and `a`
//! chosen so that at the last iteration `N` they reach each parameter's `c_end` and
//! `r_end` (OpenBench's parametrisation): `c = c_end N^gamma`, `a = r_end c_end^2 (A + N)^alpha`,
//! `A` a tenth of `N`, `alpha = 0.602`, `gamma = 0.101` (Spall's recommendations).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::arena::derive_seed;

/// Spall's exponent of the learning-rate decay.
pub const ALPHA: f64 = 0.602;
/// Spall's exponent of the perturbation decay.
pub const GAMMA: f64 = 0.101;
/// `A` as a share of the iterations (OpenBench's default).
pub const A_RATIO: f64 = 0.1;

/// Points as the shortest text that reads back to the same `f64`: serde_json's default parser
/// may miss long numbers by a unit in the last place, and a resumed run must continue exactly.
mod exact {
    use super::*;

    pub fn serialize<S: Serializer>(values: &[f64], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(values.iter().map(|x| x.to_string()))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|t| t.parse::<f64>().map_err(serde::de::Error::custom))
            .collect()
    }
}

/// One parameter under tuning, in its option's units.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// The registry key (`c`, `c_pn`, `pn_decay`).
    pub key: String,
    /// An integer option: the engines get `theta` rounded.
    pub int: bool,
    pub min: f64,
    pub max: f64,
    pub c_end: f64,
    pub r_end: f64,
}

impl Param {
    /// `x` within the parameter's tuning range.
    pub fn clamp(&self, x: f64) -> f64 {
        x.clamp(self.min, self.max)
    }

    /// The value an engine is given: rounded for an integer option.
    pub fn engine_value(&self, x: f64) -> f64 {
        if self.int {
            x.round()
        } else {
            x
        }
    }
}

/// The gains at iteration `k` of `n` for one parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gains {
    /// The perturbation `c_k`.
    pub c: f64,
    /// The learning rate `r_k = a_k / c_k^2`.
    pub r: f64,
}

/// The gains of `param` at iteration `k` (1-based) of a run of `n` iterations.
pub fn gains(param: &Param, k: u32, n: u32) -> Gains {
    let (k, n) = (k.max(1) as f64, n.max(1) as f64);
    let big_a = A_RATIO * n;
    let c0 = param.c_end * n.powf(GAMMA);
    let a0 = param.r_end * param.c_end * param.c_end * (big_a + n).powf(ALPHA);
    let c = c0 / k.powf(GAMMA);
    let a = a0 / (big_a + k).powf(ALPHA);
    Gains { c, r: a / (c * c) }
}

/// The signs of the perturbation of step `step` (±1 per parameter), derived from the run's seed
/// and the step alone, so that a resumed or sharded run draws the same ones.
pub fn deltas(seed: u64, step: u32, count: usize) -> Vec<f64> {
    (0..count)
        .map(|i| {
            let bits = derive_seed(seed, 200 + i as u64, step as u64);
            if bits >> 63 == 1 {
                1.0
            } else {
                -1.0
            }
        })
        .collect()
}

/// The results of one step, from the plus side's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepResult {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl StepResult {
    pub fn add(&mut self, other: StepResult) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

/// One row of the path: the iteration reached (pairs played), theta after it, and the step's
/// results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PathRow {
    pub iteration: u32,
    #[serde(with = "exact")]
    pub theta: Vec<f64>,
    pub result: StepResult,
}

/// The points one step plays: `plus` against `minus`, both clamped into range.
#[derive(Clone, Debug, PartialEq)]
pub struct StepPlan {
    /// The step's number (0-based).
    pub step: u32,
    /// The iteration `k` whose gains the step uses (1-based: pairs played before it, plus one).
    pub k: u32,
    pub delta: Vec<f64>,
    pub gains: Vec<Gains>,
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
}

/// What defines a run: a resumed state must have been written by the same.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSpec {
    pub game: String,
    /// The engine both sides start from (`default`, `default threads=2`, `sb-gpn c=0.5`).
    pub base: String,
    /// The budget per move as text (`iterations:1000`, `movetime:50`).
    pub budget: String,
    /// Random opening plies, the same for both games of a pair.
    pub openings: u32,
    /// Iterations `N` of the schedules, in game pairs.
    pub pairs: u32,
    /// Game pairs a step plays with one perturbation (OpenBench's batch).
    pub pairs_per_step: u32,
    pub seed: u64,
    pub params: Vec<Param>,
}

/// A run in progress: everything needed to continue it exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaState {
    /// The format of this file.
    pub version: u32,
    pub spec: RunSpec,
    /// The starting point.
    #[serde(with = "exact")]
    pub start: Vec<f64>,
    /// The current point.
    #[serde(with = "exact")]
    pub theta: Vec<f64>,
    /// Steps done.
    pub steps: u32,
    /// Game pairs done (the iteration `k` of the schedules).
    pub pairs_done: u32,
    /// Totals from the plus side's view.
    pub total: StepResult,
    /// Theta after every step.
    pub path: Vec<PathRow>,
}

/// The state file's format.
pub const STATE_VERSION: u32 = 1;

impl SpsaState {
    /// A new run from `start` (clamped into range).
    pub fn new(spec: RunSpec, start: Vec<f64>) -> SpsaState {
        let start: Vec<f64> = spec
            .params
            .iter()
            .zip(&start)
            .map(|(p, &x)| p.clamp(x))
            .collect();
        SpsaState {
            version: STATE_VERSION,
            theta: start.clone(),
            start,
            spec,
            steps: 0,
            pairs_done: 0,
            total: StepResult::default(),
            path: Vec::new(),
        }
    }

    /// Whether every planned pair has been played.
    pub fn finished(&self) -> bool {
        self.pairs_done >= self.spec.pairs
    }

    /// The game pairs the next step plays (the last step may be short).
    pub fn next_pairs(&self) -> u32 {
        self.spec
            .pairs_per_step
            .max(1)
            .min(self.spec.pairs.saturating_sub(self.pairs_done))
    }

    /// The points of the next step.
    pub fn plan(&self) -> StepPlan {
        let params = &self.spec.params;
        let k = self.pairs_done + 1;
        let delta = deltas(self.spec.seed, self.steps, params.len());
        let gains: Vec<Gains> = params
            .iter()
            .map(|p| gains(p, k, self.spec.pairs))
            .collect();
        let point = |sign: f64| -> Vec<f64> {
            params
                .iter()
                .enumerate()
                .map(|(i, p)| p.clamp(self.theta[i] + sign * gains[i].c * delta[i]))
                .collect()
        };
        StepPlan {
            step: self.steps,
            k,
            plus: point(1.0),
            minus: point(-1.0),
            delta,
            gains,
        }
    }

    /// Moves theta by the results of the step `plan` over `pairs` game pairs:
    /// `theta_i += r_k c_k (W - L) delta_i`, clamped into range.
    pub fn apply(&mut self, plan: &StepPlan, pairs: u32, result: StepResult) {
        let diff = result.wins as f64 - result.losses as f64;
        for (i, p) in self.spec.params.iter().enumerate() {
            let g = plan.gains[i];
            self.theta[i] = p.clamp(self.theta[i] + g.r * g.c * diff * plan.delta[i]);
        }
        self.steps += 1;
        self.pairs_done += pairs;
        self.total.add(result);
        self.path.push(PathRow {
            iteration: self.pairs_done,
            theta: self.theta.clone(),
            result,
        });
    }

    /// The path as CSV: `iteration`, one column per parameter, the step's W/D/L.
    pub fn path_csv(&self) -> String {
        let mut text = String::from("iteration");
        for p in &self.spec.params {
            text.push(',');
            text.push_str(&p.key);
        }
        text.push_str(",wins,draws,losses\n");
        let row = |iteration: u32, theta: &[f64], r: StepResult| {
            let values: Vec<String> = theta.iter().map(|x| format!("{x:.6}")).collect();
            format!(
                "{iteration},{},{},{},{}\n",
                values.join(","),
                r.wins,
                r.draws,
                r.losses
            )
        };
        text.push_str(&row(0, &self.start, StepResult::default()));
        for r in &self.path {
            text.push_str(&row(r.iteration, &r.theta, r.result));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(key: &str, min: f64, max: f64, c_end: f64, r_end: f64) -> Param {
        Param {
            key: key.into(),
            int: false,
            min,
            max,
            c_end,
            r_end,
        }
    }

    fn spec(pairs: u32, pairs_per_step: u32) -> RunSpec {
        RunSpec {
            game: "cfour".into(),
            base: "default".into(),
            budget: "iterations:10".into(),
            openings: 2,
            pairs,
            pairs_per_step,
            seed: 7,
            params: vec![
                param("c", 0.1, 3.0, 0.1, 0.002),
                Param {
                    int: true,
                    ..param("pn_decay", 0.0, 200.0, 4.0, 0.002)
                },
            ],
        }
    }

    #[test]
    fn the_schedules_end_at_c_end_and_r_end() {
        let p = param("c", 0.0, 10.0, 0.1, 0.002);
        let n = 2000;
        let end = gains(&p, n, n);
        assert!((end.c - 0.1).abs() < 1e-12, "{end:?}");
        assert!((end.r - 0.002).abs() < 1e-12, "{end:?}");
        // c_1 = c_end N^gamma; both gains shrink as k grows.
        let first = gains(&p, 1, n);
        assert!((first.c - 0.1 * (n as f64).powf(GAMMA)).abs() < 1e-12);
        let mid = gains(&p, n / 2, n);
        assert!(first.c > mid.c && mid.c > end.c);
        let a = |g: Gains| g.r * g.c * g.c;
        assert!(a(first) > a(mid) && a(mid) > a(end));
        // a_k = a / (A + k)^alpha with A = N / 10.
        let a0 = 0.002 * 0.01 * (200.0f64 + 2000.0).powf(ALPHA);
        assert!((a(mid) - a0 / (200.0f64 + 1000.0).powf(ALPHA)).abs() < 1e-15);
    }

    #[test]
    fn deltas_are_signs_fixed_by_seed_and_step() {
        let d = deltas(1, 0, 64);
        assert!(d.iter().all(|&x| x == 1.0 || x == -1.0));
        assert!(d.contains(&1.0) && d.contains(&-1.0));
        assert_eq!(d, deltas(1, 0, 64));
        assert_ne!(d, deltas(1, 1, 64));
        assert_ne!(d, deltas(2, 0, 64));
    }

    #[test]
    fn points_and_updates_stay_in_range() {
        let mut s = SpsaState::new(spec(10, 1), vec![5.0, -3.0]);
        assert_eq!(s.theta, vec![3.0, 0.0], "the start is clamped");
        let plan = s.plan();
        for (i, p) in s.spec.params.iter().enumerate() {
            assert!(plan.plus[i] >= p.min && plan.plus[i] <= p.max);
            assert!(plan.minus[i] >= p.min && plan.minus[i] <= p.max);
        }
        // A huge win streak cannot push theta out of range.
        s.apply(
            &plan,
            1,
            StepResult {
                wins: 1_000_000,
                draws: 0,
                losses: 0,
            },
        );
        for (i, p) in s.spec.params.iter().enumerate() {
            assert!(s.theta[i] >= p.min && s.theta[i] <= p.max, "{:?}", s.theta);
        }
        assert_eq!((s.steps, s.pairs_done, s.path.len()), (1, 1, 1));
    }

    #[test]
    fn an_update_moves_towards_the_winner() {
        let mut s = SpsaState::new(spec(100, 1), vec![1.0, 50.0]);
        let plan = s.plan();
        s.apply(
            &plan,
            1,
            StepResult {
                wins: 2,
                draws: 0,
                losses: 0,
            },
        );
        for i in 0..2 {
            let moved = s.theta[i] - s.start[i];
            assert_eq!(moved.signum(), plan.delta[i], "param {i}");
            let g = plan.gains[i];
            assert!((moved.abs() - 2.0 * g.r * g.c).abs() < 1e-12);
        }
        assert_eq!(s.spec.params[1].engine_value(10.4), 10.0);
        assert_eq!(s.spec.params[0].engine_value(1.04), 1.04);
    }

    /// A made-up "match": the plus side wins when it is nearer 1.5 in the first parameter,
    /// with a deterministic coin for ties.
    fn fake_result(plan: &StepPlan) -> StepResult {
        let d = |t: &[f64]| (t[0] - 1.5).abs();
        match d(&plan.plus).partial_cmp(&d(&plan.minus)) {
            Some(std::cmp::Ordering::Less) => StepResult {
                wins: 2,
                draws: 0,
                losses: 0,
            },
            Some(std::cmp::Ordering::Greater) => StepResult {
                wins: 0,
                draws: 0,
                losses: 2,
            },
            _ => StepResult {
                wins: 0,
                draws: 2,
                losses: 0,
            },
        }
    }

    fn run_steps(state: &mut SpsaState, steps: u32) {
        for _ in 0..steps {
            if state.finished() {
                break;
            }
            let pairs = state.next_pairs();
            let plan = state.plan();
            let result = fake_result(&plan);
            state.apply(&plan, pairs, result);
        }
    }

    #[test]
    fn a_resumed_run_continues_exactly_as_an_uninterrupted_one() {
        let mut whole = SpsaState::new(spec(40, 3), vec![0.5, 20.0]);
        run_steps(&mut whole, 100);
        assert!(whole.finished());
        assert_eq!(whole.pairs_done, 40);
        assert_eq!(whole.steps, 14, "13 steps of 3 pairs and a last one of 1");
        // Interrupted after 5 steps, saved, read back, continued.
        let mut part = SpsaState::new(spec(40, 3), vec![0.5, 20.0]);
        run_steps(&mut part, 5);
        let saved = serde_json::to_string(&part).unwrap();
        let mut resumed: SpsaState = serde_json::from_str(&saved).unwrap();
        run_steps(&mut resumed, 100);
        assert_eq!(resumed, whole);
        // The fake optimum is found: the first parameter moved towards 1.5.
        assert!((whole.theta[0] - 1.5).abs() < (whole.start[0] - 1.5).abs());
    }

    #[test]
    fn the_path_csv_has_a_header_the_start_and_a_row_per_step() {
        let mut s = SpsaState::new(spec(4, 1), vec![1.0, 10.0]);
        run_steps(&mut s, 4);
        let csv = s.path_csv();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "iteration,c,pn_decay,wins,draws,losses");
        assert_eq!(lines[1], "0,1.000000,10.000000,0,0,0");
        assert_eq!(lines.len(), 6);
        assert!(lines[5].starts_with("4,"));
    }
}
