//! `gpn train`: a network from sample files, with games held out for validation.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::learn::{parse_widths, print_progress, Widths};
use super::{interrupt, CliError};
use crate::arena::StopFlag;
use crate::learn::train::{self, TestPosition, TestPositions, TrainConfig};
use crate::nn::pcn;

/// The library's defaults are `gpn train`'s: one place to change them.
fn defaults() -> TrainConfig {
    TrainConfig::new("", Vec::new(), PathBuf::new())
}

pub const AFTER_HELP: &str = "\
Each epoch shuffles the training positions, takes Adam steps on batches of them, and prints the
mean losses (cross-entropy of the win/draw/loss value and of the policy over the legal moves)
on the training and the validation positions, and the validation accuracy of the value (the
most likely of win, draw and loss equals the result, or a soft target's likeliest class). The
value target is the game's result, an exact value, or the soft win/draw/loss probabilities
`gpn label` takes from a stronger engine. Validation holds out whole games (a
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
    /// Sample files written by `gpn selfplay` or `gpn label`
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
    #[arg(long, value_name = "n", default_value_t = defaults().epochs)]
    epochs: u32,
    /// Positions per Adam step
    #[arg(long, value_name = "n", default_value_t = defaults().batch, value_parser = super::positive::<usize>)]
    batch: usize,
    /// Adam's learning rate
    #[arg(long = "lr", value_name = "x", default_value_t = defaults().learning_rate, value_parser = parse_rate)]
    learning_rate: f32,
    /// Decoupled weight decay of the weights
    #[arg(long, value_name = "x", default_value_t = defaults().weight_decay, value_parser = parse_rate)]
    weight_decay: f32,
    /// Weight of the policy loss against the value loss
    #[arg(long, value_name = "x", default_value_t = defaults().policy_weight, value_parser = parse_rate)]
    policy_weight: f32,
    /// Share of the games held out for validation, in [0, 1)
    #[arg(long, value_name = "x", default_value_t = defaults().validation, value_parser = super::share)]
    validation: f64,
    /// Also train on every symmetry of each position (the game's board symmetries)
    #[arg(long)]
    augment: bool,
    /// Threads that share out each batch (1 to 256)
    #[arg(long, value_name = "n", default_value_t = defaults().threads, value_parser = super::parse_threads)]
    threads: usize,
    /// Positions with known values (`gpn solve --batch` format, `game position | value`), whose
    /// value accuracy is printed after every epoch (e.g. solver-labelled positions)
    #[arg(long, value_name = "file")]
    test: Option<PathBuf>,
    /// Seed of the weights, the split and the shuffles
    #[arg(long, value_name = "s", default_value_t = defaults().seed, value_parser = super::count::<u64>)]
    seed: u64,
    /// Give a new network proof-cost heads and train them on the labels of the Proof Cost
    /// Network paper with this branching factor: b_max (the action space) or b_heur (the moves
    /// the rules and the game's forcing rule leave); needs samples with episodes (`gpn
    /// selfplay` since sample format 2)
    #[arg(long, value_name = "b", value_parser = parse_branching)]
    pcn: Option<pcn::Branching>,
    /// With --pcn: the largest proof cost, the label of a loser (the paper: 1600 in Gomoku, 500
    /// in Killall-Go)
    #[arg(long, value_name = "n", default_value_t = defaults().pcn_cap, value_parser = parse_cap, requires = "pcn")]
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

fn parse_rate(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(x) if x >= 0.0 && x.is_finite() => Ok(x),
        _ => Err("not a number >= 0".to_string()),
    }
}

/// The lines of a `gpn solve --batch` file with a value, read here because the batch format's
/// parser is `gpn solve`'s; the library skips the lines of other games.
fn test_positions(path: &Path) -> Result<TestPositions, CliError> {
    let text = crate::files::read_text(path, crate::files::TEXT_LIMIT)
        .map_err(|e| CliError::Io(format!("cannot read {}: {e}", path.display())))?;
    let positions = text
        .lines()
        .enumerate()
        .filter_map(|(n, line)| {
            let (game, position, value, _) = super::solve::parse_batch_line(line)?;
            Some(TestPosition {
                line: n + 1,
                game,
                position,
                value: value?,
            })
        })
        .collect();
    Ok(TestPositions {
        source: path.to_path_buf(),
        positions,
    })
}

/// `gpn train`: trains and writes the network, one report line per epoch.
pub fn run(args: TrainArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let config = TrainConfig {
        test: args.test.as_deref().map(test_positions).transpose()?,
        game: args.game,
        data: args.data,
        out: args.out,
        hidden: args.hidden.0,
        init: args.init,
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.learning_rate,
        weight_decay: args.weight_decay,
        policy_weight: args.policy_weight,
        validation: args.validation,
        augment: args.augment,
        threads: args.threads,
        seed: args.seed,
        pcn: args.pcn,
        pcn_cap: args.pcn_cap,
    };
    // Ctrl-C ends the run after the current epoch's file is written.
    train::train(&config, &StopFlag(interrupt::flag()), &mut |event| {
        print_progress(event, out)
    })?;
    Ok(())
}
