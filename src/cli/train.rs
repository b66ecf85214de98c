//! `gpn train`: a network from sample files, with games held out for validation.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use super::{note, CliError};
use crate::game::registry::{self, GameVisitor};
use crate::game::Game;
use crate::nn::data::read_samples;
use crate::nn::sample::Sample;
use crate::nn::train::{Settings, Trainer};
use crate::nn::{pcn, Network, Scratch, Shape};
use crate::rng::{mix64, Rng};
use crate::solve::Value;

pub const AFTER_HELP: &str = "\
Each epoch shuffles the training positions, takes Adam steps on batches of them, and prints the
mean losses (cross-entropy of the win/draw/loss value and of the policy over the legal moves)
on the training and the validation positions, and the validation accuracy of the value (the
most likely of win, draw and loss equals the result). Validation holds out whole games (a
share of the game numbers, drawn from --seed). The network is written to --out after every
epoch, so Ctrl-C keeps the last finished one.

Examples:
    gpn train cfour --data cfour.gpns --out cfour.gpnn --epochs 30 --test tests/data/cfour-solved.txt
    gpn train cfour --data a.gpns b.gpns --out cfour.gpnn --hidden 256,32 --augment --threads 2";

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// The game (one with a network encoding; any other is refused with the list)
    #[arg(value_name = "game")]
    game: String,
    /// Sample files written by `gpn selfplay`
    #[arg(long, value_name = "file", required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// The network file to write
    #[arg(long, value_name = "file")]
    out: PathBuf,
    /// Widths of the hidden layers, comma-separated (a new network)
    #[arg(long, value_name = "w[,w...]", default_value = "128", value_parser = parse_widths)]
    hidden: Widths,
    /// Start from this network instead of random weights
    #[arg(long, value_name = "file")]
    init: Option<PathBuf>,
    /// Passes over the training positions (0: only measure the --init network on the
    /// validation and --test positions)
    #[arg(long, value_name = "n", default_value_t = 20)]
    epochs: u32,
    /// Positions per Adam step
    #[arg(long, value_name = "n", default_value_t = 256, value_parser = super::positive::<usize>)]
    batch: usize,
    /// Adam's learning rate
    #[arg(long = "lr", value_name = "x", default_value_t = 1e-3, value_parser = parse_rate)]
    learning_rate: f32,
    /// Decoupled weight decay of the weights
    #[arg(long, value_name = "x", default_value_t = 1e-4, value_parser = parse_rate)]
    weight_decay: f32,
    /// Weight of the policy loss against the value loss
    #[arg(long, value_name = "x", default_value_t = 1.0, value_parser = parse_rate)]
    policy_weight: f32,
    /// Share of the games held out for validation, in [0, 1)
    #[arg(long, value_name = "x", default_value_t = 0.1, value_parser = super::share)]
    validation: f64,
    /// Also train on every symmetry of each position (the game's board symmetries)
    #[arg(long)]
    augment: bool,
    /// Threads that share out each batch (1 to 256)
    #[arg(long, value_name = "n", default_value_t = 1, value_parser = super::parse_threads)]
    threads: usize,
    /// Positions with known values (`gpn solve --batch` format, `game position | value`), whose
    /// value accuracy is printed after every epoch (e.g. solver-labelled positions)
    #[arg(long, value_name = "file")]
    test: Option<PathBuf>,
    /// Seed of the weights, the split and the shuffles
    #[arg(long, value_name = "s", default_value_t = 1, value_parser = super::count::<u64>)]
    seed: u64,
    /// Give a new network proof-cost heads and train them on the labels of the Proof Cost
    /// Network paper with this branching factor: b_max (the action space) or b_heur (the moves
    /// the rules and the game's forcing rule leave); needs samples with episodes (`gpn
    /// selfplay` since sample format 2)
    #[arg(long, value_name = "b", value_parser = parse_branching)]
    pcn: Option<pcn::Branching>,
    /// With --pcn: the largest proof cost, the label of a loser (the paper: 1600 in Gomoku, 500
    /// in Killall-Go)
    #[arg(long, value_name = "n", default_value_t = 1600.0, value_parser = parse_cap, requires = "pcn")]
    pcn_cap: f32,
}

fn parse_branching(text: &str) -> Result<pcn::Branching, String> {
    pcn::Branching::parse(text).ok_or_else(|| "expected b_max or b_heur".to_string())
}

fn parse_cap(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(x) if (2.0..=1e6).contains(&x) => Ok(x),
        _ => Err("a cost from 2 to 1000000".to_string()),
    }
}

/// Hidden layer widths (a newtype, so that clap takes the comma list as one value).
#[derive(Clone, Debug)]
pub struct Widths(Vec<usize>);

fn parse_widths(text: &str) -> Result<Widths, String> {
    let widths: Result<Vec<usize>, _> = text.split(',').map(|w| w.trim().parse()).collect();
    match widths {
        Ok(w) if !w.is_empty() && w.len() <= 8 && w.iter().all(|&x| (1..=4096).contains(&x)) => {
            Ok(Widths(w))
        }
        _ => Err("expected 1 to 8 widths in 1..=4096, comma-separated".to_string()),
    }
}

fn parse_rate(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(x) if x >= 0.0 && x.is_finite() => Ok(x),
        _ => Err("not a number >= 0".to_string()),
    }
}

struct TrainVisitor<'a> {
    args: TrainArgs,
    out: &'a mut dyn Write,
}

impl GameVisitor for TrainVisitor<'_> {
    type Output = Result<(), CliError>;
    fn visit<G: Game>(self) -> Result<(), CliError> {
        let a = &self.args;
        require_encoding::<G>()?;
        let (mut train, valid) = load::<G>(a)?;
        let test = match &a.test {
            Some(path) => labelled::<G>(path)?,
            None => Vec::new(),
        };
        if train.is_empty() {
            return Err(CliError::Usage("no training positions in the data".into()));
        }
        if a.augment {
            augment::<G>(&mut train);
        }
        let net = match &a.init {
            Some(path) => {
                let net = Network::load(path)
                    .map_err(|e| CliError::Io(format!("cannot read {}: {e}", path.display())))?;
                net.check_fits(G::INFO.name, G::INPUTS, G::POLICY)
                    .map_err(|e| CliError::Usage(format!("--init {}: {e}", path.display())))?;
                if a.pcn.is_some() && !net.has_costs() {
                    return Err(CliError::Usage(format!(
                        "--init {} has no proof-cost heads to train with --pcn",
                        path.display()
                    )));
                }
                net
            }
            None => {
                let shape = Shape {
                    inputs: G::INPUTS,
                    hidden: a.hidden.0.clone(),
                    policy: G::POLICY,
                    cost: if a.pcn.is_some() { pcn::BINS } else { 0 },
                };
                Network::new(G::INFO.name, shape, a.seed)
                    .map_err(|e| CliError::Usage(e.to_string()))?
            }
        };
        let settings = Settings {
            learning_rate: a.learning_rate,
            weight_decay: a.weight_decay,
            policy_weight: a.policy_weight,
            threads: a.threads,
            ..Settings::default()
        };
        writeln!(
            self.out,
            "train {}: {} training positions{}, {} validation positions, {} parameters",
            G::INFO.name,
            train.len(),
            if a.augment { " (with symmetries)" } else { "" },
            valid.len(),
            net.params().len()
        )?;
        let mut trainer = Trainer::new(net, settings);
        if a.epochs == 0 {
            let net = trainer.network();
            let (v, acc) = (trainer.losses(&valid), accuracy(net, &valid));
            writeln!(
                self.out,
                "epoch 0: validation value {:.4} policy {:.4} accuracy {}{}",
                v.value,
                v.policy,
                acc.map_or("-".to_string(), |x| format!("{:.3}", x)),
                accuracy(net, &test).map_or(String::new(), |x| {
                    format!(" | test accuracy {x:.3} ({})", test.len())
                })
            )?;
            return Ok(());
        }
        let mut rng = Rng::new(mix64(a.seed ^ 0x7EA1));
        let started = Instant::now();
        'epochs: for epoch in 1..=a.epochs {
            shuffle(&mut train, &mut rng);
            let mut seen = crate::nn::train::Losses::default();
            let mut steps = 0usize;
            for batch in train.chunks(a.batch) {
                // Polled per batch: an epoch of a big file takes minutes.
                if super::interrupt::interrupted() {
                    note(format_args!(
                        "interrupted: {} holds the last finished epoch",
                        a.out.display()
                    ));
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
            let v = trainer.losses(&valid);
            let acc = accuracy(trainer.network(), &valid);
            let (train_cost, valid_cost) = if a.pcn.is_some() {
                (
                    format!(" cost {:.4}", seen.cost / n),
                    format!(" cost {:.4}", v.cost),
                )
            } else {
                (String::new(), String::new())
            };
            let test_acc = accuracy(trainer.network(), &test).map_or(String::new(), |x| {
                format!(" | test accuracy {x:.3} ({})", test.len())
            });
            trainer
                .network()
                .save(&a.out)
                .map_err(|e| CliError::Io(format!("cannot write {}: {e}", a.out.display())))?;
            writeln!(
                self.out,
                "epoch {epoch}: {steps} steps, train value {:.4} policy {:.4}{train_cost} | validation value {:.4} policy {:.4}{valid_cost} accuracy {}{test_acc} | {:.1} s",
                seen.value / n,
                seen.policy / n,
                v.value,
                v.policy,
                acc.map_or("-".to_string(), |x| format!("{:.3}", x)),
                started.elapsed().as_secs_f64()
            )?;
            self.out.flush()?;
        }
        Ok(())
    }
}

/// Refuses a game without a network encoding ([`crate::nn::Features`]).
pub(super) fn require_encoding<G: Game>() -> Result<(), CliError> {
    if G::INPUTS == 0 {
        return Err(CliError::Usage(format!(
            "{} has no network encoding yet (games with one: {})",
            G::INFO.name,
            crate::game::registry::network_games()
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(())
}

/// The training and the validation positions of every file (whole games to either side).
fn load<G: Game>(a: &TrainArgs) -> Result<(Vec<Sample>, Vec<Sample>), CliError> {
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    for path in &a.data {
        let file = read_samples(path)
            .map_err(|e| CliError::Io(format!("cannot read {}: {e}", path.display())))?;
        if file.game != G::INFO.name {
            return Err(CliError::Usage(format!(
                "{} holds {} positions, not {}",
                path.display(),
                file.game,
                G::INFO.name
            )));
        }
        if file.cut {
            note(format_args!(
                "{}: an incomplete last game was left out",
                path.display()
            ));
        }
        for mut g in file.games {
            if let Some(b) = a.pcn {
                pcn::label_game(&mut g.samples, b, G::POLICY as u16, a.pcn_cap);
            }
            for s in &g.samples {
                let bad = s.features.iter().any(|&f| f as usize >= G::INPUTS)
                    || s.policy.iter().any(|&(p, _)| p as usize >= G::POLICY);
                if bad {
                    return Err(CliError::Usage(format!(
                        "{}: game {} has a feature or move index out of range for {}",
                        path.display(),
                        g.number,
                        G::INFO.name
                    )));
                }
            }
            let draw =
                (mix64(a.seed ^ mix64(g.number as u64 + 1)) >> 11) as f64 / (1u64 << 53) as f64;
            if draw < a.validation {
                valid.extend(g.samples);
            } else {
                train.extend(g.samples);
            }
        }
    }
    if a.pcn.is_some() && !train.iter().any(|s| s.cost.is_some()) {
        return Err(CliError::Usage(
            "--pcn: no position of the data has an episode (sample files of gpn selfplay since sample format 2)".into(),
        ));
    }
    Ok((train, valid))
}

/// The positions of a batch file with a known win, draw or loss, as samples without a policy.
fn labelled<G: Game>(path: &std::path::Path) -> Result<Vec<Sample>, CliError> {
    let text = crate::files::read_text(path, crate::files::TEXT_LIMIT)
        .map_err(|e| CliError::Io(format!("cannot read {}: {e}", path.display())))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let Some((game, position, want, _)) = super::solve::parse_batch_line(line) else {
            continue;
        };
        if registry::canonical_name(&game) != Some(G::INFO.name) {
            continue;
        }
        let wdl = match want {
            Some(Value::Win) => [1.0, 0.0, 0.0],
            Some(Value::Draw) => [0.0, 1.0, 0.0],
            Some(Value::Loss) => [0.0, 0.0, 1.0],
            _ => continue,
        };
        let pos = if position == "start" {
            G::start()
        } else {
            G::parse_position(&position)
                .map_err(|e| CliError::Usage(format!("{} line {}: {e}", path.display(), n + 1)))?
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
        return Err(CliError::Usage(format!(
            "{} has no {} position with a value",
            path.display(),
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

fn shuffle(samples: &mut [Sample], rng: &mut Rng) {
    for i in (1..samples.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        samples.swap(i, j);
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
            s.wdl[guess] >= 0.5
        })
        .count();
    Some(right as f64 / samples.len() as f64)
}

pub fn run(args: TrainArgs, out: &mut dyn Write) -> Result<(), CliError> {
    // Ctrl-C ends the run after the current epoch's file is written.
    super::interrupt::flag();
    let game = args.game.clone();
    registry::visit(&game, TrainVisitor { args, out })?
}
