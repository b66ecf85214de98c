//! Training: a network from sample files, with whole games held out for validation.

use std::fmt;
use std::path::PathBuf;
use std::time::Instant;

use super::{require_encoding, Error, OnProgress, Progress, StopFlag};
use crate::game::registry::{self, GameVisitor};
use crate::game::Game;
use crate::nn::data::read_samples;
use crate::nn::sample::Sample;
use crate::nn::train::{Losses, Settings, Trainer};
use crate::nn::{pcn, Network, Scratch, Shape};
use crate::rng::{mix64, Rng};
use crate::solve::Value;

/// What a training reads, trains and writes (`gpn train`'s options).
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// The game's name or alias (one with a network encoding).
    pub game: String,
    /// Sample files written by self-play.
    pub data: Vec<PathBuf>,
    /// The network file, rewritten after every epoch.
    pub out: PathBuf,
    /// Widths of the hidden layers of a new network.
    pub hidden: Vec<usize>,
    /// Start from this network instead of random weights.
    pub init: Option<PathBuf>,
    /// Passes over the training positions (0: only measure the initial network).
    pub epochs: u32,
    /// Positions per Adam step.
    pub batch: usize,
    /// Adam's learning rate.
    pub learning_rate: f32,
    /// Decoupled weight decay of the weights.
    pub weight_decay: f32,
    /// Weight of the policy loss against the value loss.
    pub policy_weight: f32,
    /// Share of the games held out for validation, in [0, 1).
    pub validation: f64,
    /// Also train on every symmetry of each position.
    pub augment: bool,
    /// Threads that share out each batch.
    pub threads: usize,
    /// Positions with known values whose value accuracy is reported after every epoch.
    pub test: Option<TestPositions>,
    /// Seed of the weights, the split and the shuffles.
    pub seed: u64,
    /// Proof-cost heads for a new network, trained on the Proof Cost Network paper's labels with
    /// this branching factor.
    pub pcn: Option<pcn::Branching>,
    /// With `pcn`: the largest proof cost, the label of a loser.
    pub pcn_cap: f32,
}

impl TrainConfig {
    /// `gpn train`'s defaults for `game`, from `data` into `out`.
    pub fn new(game: &str, data: Vec<PathBuf>, out: PathBuf) -> TrainConfig {
        TrainConfig {
            game: game.to_string(),
            data,
            out,
            hidden: vec![128],
            init: None,
            epochs: 20,
            batch: 256,
            learning_rate: 1e-3,
            weight_decay: 1e-4,
            policy_weight: 1.0,
            validation: 0.1,
            augment: false,
            threads: 1,
            test: None,
            seed: 1,
            pcn: None,
            pcn_cap: 1600.0,
        }
    }
}

/// Positions with known values, as the lines of a `gpn solve --batch` file (`game position |
/// value`) that carry one; those of other games are skipped.
#[derive(Clone, Debug)]
pub struct TestPositions {
    /// The file they come from, for messages.
    pub source: PathBuf,
    pub positions: Vec<TestPosition>,
}

/// One line of [`TestPositions`].
#[derive(Clone, Debug)]
pub struct TestPosition {
    /// The line's number in the file, from 1.
    pub line: usize,
    pub game: String,
    /// A position string, or `start`.
    pub position: String,
    pub value: Value,
}

/// The data a training read and the network it starts from.
#[derive(Clone, Debug)]
pub struct Started {
    /// The game's canonical name.
    pub game: &'static str,
    /// Training positions (with their symmetric images if `augmented`).
    pub training: usize,
    pub augmented: bool,
    pub validation: usize,
    /// The network's parameters.
    pub parameters: usize,
}

impl fmt::Display for Started {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "train {}: {} training positions{}, {} validation positions, {} parameters",
            self.game,
            self.training,
            if self.augmented {
                " (with symmetries)"
            } else {
                ""
            },
            self.validation,
            self.parameters
        )
    }
}

/// A network measured on the validation and the test positions.
#[derive(Clone, Debug)]
pub struct Measurement {
    /// Mean losses on the validation positions.
    pub validation: Losses,
    /// Share of the validation positions whose most likely value class is the result (`None`:
    /// no validation positions).
    pub accuracy: Option<f64>,
    /// The same share on the test positions, and their number (`None`: no test positions).
    pub test: Option<(f64, usize)>,
}

impl Measurement {
    fn of(trainer: &Trainer, validation: &[Sample], test: &[Sample]) -> Self {
        let net = trainer.network();
        Measurement {
            validation: trainer.losses(validation),
            accuracy: accuracy(net, validation),
            test: accuracy(net, test).map(|x| (x, test.len())),
        }
    }

    fn accuracy_text(&self) -> String {
        self.accuracy
            .map_or("-".to_string(), |x| format!("{:.3}", x))
    }

    fn test_text(&self) -> String {
        self.test.map_or(String::new(), |(x, n)| {
            format!(" | test accuracy {x:.3} ({n})")
        })
    }
}

impl fmt::Display for Measurement {
    /// The report of a training of 0 epochs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "epoch 0: validation value {:.4} policy {:.4} accuracy {}{}",
            self.validation.value,
            self.validation.policy,
            self.accuracy_text(),
            self.test_text()
        )
    }
}

/// A finished epoch.
#[derive(Clone, Debug)]
pub struct EpochReport {
    /// The epoch's number, from 1.
    pub epoch: u32,
    /// Adam steps taken.
    pub steps: usize,
    /// Mean losses over the epoch's training batches.
    pub training: Losses,
    /// The network after the epoch.
    pub measured: Measurement,
    /// The network has proof-cost heads in training: the cost losses are reported.
    pub costs: bool,
    /// Seconds since the training started.
    pub seconds: f64,
}

impl fmt::Display for EpochReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (t, v) = (&self.training, &self.measured.validation);
        let (train_cost, valid_cost) = if self.costs {
            (
                format!(" cost {:.4}", t.cost),
                format!(" cost {:.4}", v.cost),
            )
        } else {
            (String::new(), String::new())
        };
        write!(
            f,
            "epoch {}: {} steps, train value {:.4} policy {:.4}{train_cost} | validation value {:.4} policy {:.4}{valid_cost} accuracy {}{} | {:.1} s",
            self.epoch,
            self.steps,
            t.value,
            t.policy,
            v.value,
            v.policy,
            self.measured.accuracy_text(),
            self.measured.test_text(),
            self.seconds
        )
    }
}

/// What a training did.
#[derive(Clone, Debug)]
pub struct Trained {
    /// Epochs finished (each one's network was written).
    pub epochs: u32,
    /// The last finished epoch.
    pub last: Option<EpochReport>,
    /// The stop flag ended the training early.
    pub stopped: bool,
}

/// Trains a network on `config.data` and writes it to `config.out` after every epoch. A raised
/// `stop` ends the training before the next batch; the file keeps the last finished epoch.
pub fn train(
    config: &TrainConfig,
    stop: &StopFlag,
    progress: &mut OnProgress<'_>,
) -> Result<Trained, Error> {
    let visitor = TrainVisitor {
        config,
        stop,
        progress,
    };
    registry::visit(&config.game, visitor)?
}

struct TrainVisitor<'a, 'p> {
    config: &'a TrainConfig,
    stop: &'a StopFlag,
    progress: &'a mut OnProgress<'p>,
}

impl GameVisitor for TrainVisitor<'_, '_> {
    type Output = Result<Trained, Error>;
    fn visit<G: Game>(self) -> Result<Trained, Error> {
        let c = self.config;
        let progress = self.progress;
        require_encoding::<G>()?;
        let (mut train, valid) = load::<G>(c, progress)?;
        let test = match &c.test {
            Some(test) => labelled::<G>(test)?,
            None => Vec::new(),
        };
        if train.is_empty() {
            return Err(Error::Invalid("no training positions in the data".into()));
        }
        if c.augment {
            augment::<G>(&mut train);
        }
        let net = initial_network::<G>(c)?;
        let settings = Settings {
            learning_rate: c.learning_rate,
            weight_decay: c.weight_decay,
            policy_weight: c.policy_weight,
            threads: c.threads,
            ..Settings::default()
        };
        progress(Progress::TrainingStarted(Started {
            game: G::INFO.name,
            training: train.len(),
            augmented: c.augment,
            validation: valid.len(),
            parameters: net.params().len(),
        }))
        .map_err(Error::Output)?;
        let mut trainer = Trainer::new(net, settings);
        let mut trained = Trained {
            epochs: 0,
            last: None,
            stopped: false,
        };
        if c.epochs == 0 {
            let measured = Measurement::of(&trainer, &valid, &test);
            progress(Progress::Measured(measured)).map_err(Error::Output)?;
            return Ok(trained);
        }
        let mut rng = Rng::new(mix64(c.seed ^ 0x7EA1));
        let started = Instant::now();
        'epochs: for epoch in 1..=c.epochs {
            rng.shuffle(&mut train);
            let mut seen = Losses::default();
            let mut steps = 0usize;
            for batch in train.chunks(c.batch) {
                // Polled per batch: an epoch of a big file takes minutes.
                if self.stop.is_raised() {
                    progress(Progress::TrainingStopped { out: c.out.clone() })
                        .map_err(Error::Output)?;
                    trained.stopped = true;
                    break 'epochs;
                }
                let l = trainer.step(batch);
                seen.value += l.value * l.samples as f64;
                seen.policy += l.policy * l.samples as f64;
                seen.cost += l.cost * l.samples as f64;
                seen.samples += l.samples;
                steps += 1;
            }
            let n = seen.samples.max(1) as f64;
            let measured = Measurement::of(&trainer, &valid, &test);
            trainer
                .network()
                .save(&c.out)
                .map_err(|e| Error::Io(format!("cannot write {}: {e}", c.out.display())))?;
            let report = EpochReport {
                epoch,
                steps,
                training: Losses {
                    value: seen.value / n,
                    policy: seen.policy / n,
                    cost: seen.cost / n,
                    samples: seen.samples,
                },
                measured,
                costs: c.pcn.is_some(),
                seconds: started.elapsed().as_secs_f64(),
            };
            progress(Progress::Epoch(report.clone())).map_err(Error::Output)?;
            trained.epochs = epoch;
            trained.last = Some(report);
        }
        Ok(trained)
    }
}

/// The network training starts from: `config.init`, or new random weights.
fn initial_network<G: Game>(c: &TrainConfig) -> Result<Network, Error> {
    let Some(path) = &c.init else {
        let shape = Shape {
            inputs: G::INPUTS,
            hidden: c.hidden.clone(),
            policy: G::POLICY,
            cost: if c.pcn.is_some() { pcn::BINS } else { 0 },
        };
        return Network::new(G::INFO.name, shape, c.seed)
            .map_err(|e| Error::Invalid(e.to_string()));
    };
    let net = Network::load(path)
        .map_err(|e| Error::Io(format!("cannot read {}: {e}", path.display())))?;
    net.check_fits(G::INFO.name, G::INPUTS, G::POLICY)
        .map_err(|e| Error::Invalid(format!("--init {}: {e}", path.display())))?;
    if c.pcn.is_some() && !net.has_costs() {
        return Err(Error::Invalid(format!(
            "--init {} has no proof-cost heads to train with --pcn",
            path.display()
        )));
    }
    Ok(net)
}

/// The training and the validation positions of every file (whole games to either side).
fn load<G: Game>(
    c: &TrainConfig,
    progress: &mut OnProgress<'_>,
) -> Result<(Vec<Sample>, Vec<Sample>), Error> {
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    for path in &c.data {
        let file = read_samples(path)
            .map_err(|e| Error::Io(format!("cannot read {}: {e}", path.display())))?;
        if file.game != G::INFO.name {
            return Err(Error::Invalid(format!(
                "{} holds {} positions, not {}",
                path.display(),
                file.game,
                G::INFO.name
            )));
        }
        if file.cut {
            progress(Progress::IncompleteFile(path.clone())).map_err(Error::Output)?;
        }
        for mut g in file.games {
            if let Some(b) = c.pcn {
                pcn::label_game(&mut g.samples, b, G::POLICY as u16, c.pcn_cap);
            }
            for s in &g.samples {
                let bad = s.features.iter().any(|&f| f as usize >= G::INPUTS)
                    || s.policy.iter().any(|&(p, _)| p as usize >= G::POLICY);
                if bad {
                    return Err(Error::Invalid(format!(
                        "{}: game {} has a feature or move index out of range for {}",
                        path.display(),
                        g.number,
                        G::INFO.name
                    )));
                }
            }
            let draw =
                (mix64(c.seed ^ mix64(g.number as u64 + 1)) >> 11) as f64 / (1u64 << 53) as f64;
            if draw < c.validation {
                valid.extend(g.samples);
            } else {
                train.extend(g.samples);
            }
        }
    }
    if c.pcn.is_some() && !train.iter().any(|s| s.cost.is_some()) {
        return Err(Error::Invalid(
            "--pcn: no position of the data has an episode (sample files of gpn selfplay since sample format 2)".into(),
        ));
    }
    Ok((train, valid))
}

/// The test positions of `G` with a known win, draw or loss, as samples without a policy.
fn labelled<G: Game>(test: &TestPositions) -> Result<Vec<Sample>, Error> {
    let mut out = Vec::new();
    for t in &test.positions {
        if registry::canonical_name(&t.game) != Some(G::INFO.name) {
            continue;
        }
        let wdl = match t.value {
            Value::Win => [1.0, 0.0, 0.0],
            Value::Draw => [0.0, 1.0, 0.0],
            Value::Loss => [0.0, 0.0, 1.0],
            _ => continue,
        };
        let pos = if t.position == "start" {
            G::start()
        } else {
            G::parse_position(&t.position).map_err(|e| {
                Error::Invalid(format!("{} line {}: {e}", test.source.display(), t.line))
            })?
        };
        let mut features = Vec::new();
        pos.features(&mut features);
        out.push(Sample {
            features,
            wdl,
            ..Sample::default()
        });
    }
    if out.is_empty() {
        return Err(Error::Invalid(format!(
            "{} has no {} position with a value",
            test.source.display(),
            G::INFO.name
        )));
    }
    Ok(out)
}

/// Adds every position's images under the game's other symmetries.
fn augment<G: Game>(samples: &mut Vec<Sample>) {
    let n = samples.len();
    for s in 1..G::SYMMETRIES {
        for i in 0..n {
            let x = &samples[i];
            let image = Sample {
                features: x.features.iter().map(|&f| G::map_feature(s, f)).collect(),
                wdl: x.wdl,
                policy: x
                    .policy
                    .iter()
                    .map(|&(p, q)| (G::map_policy(s, p as usize) as u16, q))
                    .collect(),
                episode: x.episode,
                cost: x.cost,
            };
            samples.push(image);
        }
    }
}

/// Share of `samples` whose most likely value class (the search's forward pass) is the
/// result; `None` for no samples.
fn accuracy(net: &Network, samples: &[Sample]) -> Option<f64> {
    if samples.is_empty() {
        return None;
    }
    let mut scratch = Scratch::default();
    let right = samples
        .iter()
        .filter(|s| {
            let w = net.evaluate(&s.features, &mut scratch);
            let p = [w.win, w.draw, w.loss];
            let guess = (0..3).fold(0, |b, c| if p[c] > p[b] { c } else { b });
            // The target's likeliest class: the result, or a soft target's (an engine's).
            let want = (0..3).fold(0, |b, c| if s.wdl[c] > s.wdl[b] { c } else { b });
            guess == want
        })
        .count();
    Some(right as f64 / samples.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect4::ConnectFour;
    use crate::game::Features;
    use crate::learn::selfplay::{self, SelfplayConfig};
    use std::path::Path;

    /// A scratch directory of this test process holding a few quick Connect Four games.
    fn samples(name: &str) -> (PathBuf, PathBuf) {
        let dir =
            std::env::temp_dir().join(format!("gpn-learn-train-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let data = dir.join("c4.gpns");
        let config = SelfplayConfig {
            games: 4,
            iterations: 20,
            engine: "sb-uct".into(),
            ..SelfplayConfig::new("cfour", data.clone())
        };
        selfplay::play(&config, &StopFlag::default(), &mut |_| Ok(())).expect("self-play");
        (dir, data)
    }

    fn quick(data: &Path, out: PathBuf) -> TrainConfig {
        TrainConfig {
            hidden: vec![8],
            epochs: 2,
            batch: 16,
            validation: 0.25,
            ..TrainConfig::new("cfour", vec![data.to_path_buf()], out)
        }
    }

    #[test]
    fn every_epoch_is_reported_and_written_and_a_raised_stop_writes_nothing() {
        let (dir, data) = samples("epochs");
        let out = dir.join("c4.gpnn");
        let mut events = Vec::new();
        let trained = train(&quick(&data, out.clone()), &StopFlag::default(), &mut |p| {
            events.push(p);
            Ok(())
        })
        .expect("trains");
        assert_eq!((trained.epochs, trained.stopped), (2, false));
        assert!(
            matches!(events[0], Progress::TrainingStarted(_)),
            "{events:?}"
        );
        let epochs: Vec<u32> = events
            .iter()
            .filter_map(|p| match p {
                Progress::Epoch(e) => Some(e.epoch),
                _ => None,
            })
            .collect();
        assert_eq!(epochs, [1, 2]);
        let last = trained.last.expect("a last epoch");
        assert!(last.steps > 0 && last.training.value > 0.0, "{last}");
        assert!(last.to_string().starts_with("epoch 2: "), "{last}");
        let net = Network::load(&out).expect("the network was written");
        let (inputs, policy) = (ConnectFour::INPUTS, ConnectFour::POLICY);
        assert!(net.check_fits("cfour", inputs, policy).is_ok());
        // Stopped before the first batch: nothing trained, nothing written, said so.
        std::fs::remove_file(&out).unwrap();
        let stop = StopFlag(std::sync::Arc::new(true.into()));
        let mut notes = Vec::new();
        let trained = train(&quick(&data, out.clone()), &stop, &mut |p| {
            notes.push(p.to_string());
            Ok(())
        })
        .expect("a stop is no error");
        assert_eq!((trained.epochs, trained.stopped), (0, true));
        assert!(!out.exists());
        assert!(
            notes
                .last()
                .unwrap()
                .contains("holds the last finished epoch"),
            "{notes:?}"
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn test_positions_are_measured_and_bad_ones_named_by_their_line() {
        let (dir, data) = samples("test");
        let line = |line, position: &str, value| TestPosition {
            line,
            game: "cfour".into(),
            position: position.into(),
            value,
        };
        let measure = |positions: Vec<TestPosition>| {
            let config = TrainConfig {
                epochs: 0,
                test: Some(TestPositions {
                    source: PathBuf::from("known.txt"),
                    positions,
                }),
                ..quick(&data, dir.join("unused.gpnn"))
            };
            let mut measured = None;
            train(&config, &StopFlag::default(), &mut |p| {
                if let Progress::Measured(m) = p {
                    measured = Some(m);
                }
                Ok(())
            })
            .map(|_| measured)
        };
        let m = measure(vec![line(3, "start", Value::Win)])
            .expect("measures")
            .expect("a measurement");
        assert_eq!(m.test.map(|(_, n)| n), Some(1));
        assert!(m.to_string().contains(" | test accuracy "), "{m}");
        let err = measure(vec![line(7, "not a position", Value::Win)]).unwrap_err();
        assert!(err.to_string().starts_with("known.txt line 7: "), "{err}");
        let err = measure(vec![line(1, "start", Value::Unknown)]).unwrap_err();
        assert!(
            err.to_string()
                .contains("has no cfour position with a value"),
            "{err}"
        );
        // Samples of another game are refused.
        let other = TrainConfig::new("breakthrough", vec![data.clone()], dir.join("x.gpnn"));
        let err = train(&other, &StopFlag::default(), &mut |_| Ok(())).unwrap_err();
        assert!(
            err.to_string()
                .contains("holds cfour positions, not breakthrough"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
