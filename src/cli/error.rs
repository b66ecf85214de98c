//! Command-line errors and how they are reported on stderr: `error: ...` and one hint line.

use std::fmt;
use std::io::{self, Write};

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::CommandFactory;

use super::Cli;
use crate::arena::run::MatchError;
use crate::game::registry;
use crate::game::GameError;
use crate::solve::batch::BatchError;
use crate::solve::run::SetupError;

/// Exit status of a usage error or bad input (clap's own usage errors exit with 2 too).
pub const EXIT_USAGE: u8 = 2;

/// A command-line error.
#[derive(Debug)]
pub enum CliError {
    /// Bad arguments found after parsing (a missing option, values that do not fit together).
    Usage(String),
    /// Bad game input: an unknown game, a bad position string or move.
    Game(GameError),
    /// A file could not be read or written.
    Io(String),
    /// stdout was closed by its reader: stop quietly, with success.
    BrokenPipe,
    /// A signal stopped the job before it had anything to report (it has said so on stderr);
    /// the exit status is the signal's ([`super::interrupt::exit_status`]).
    Interrupted,
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) | CliError::Io(m) => write!(f, "{m}"),
            CliError::Game(GameError::UnknownGame(name)) => match registry::suggest(name) {
                Some(s) => write!(f, "unknown game '{name}'; did you mean '{s}'?"),
                None => write!(f, "unknown game '{name}'"),
            },
            CliError::Game(e) => write!(f, "{e}"),
            CliError::BrokenPipe => write!(f, "broken pipe"),
            CliError::Interrupted => write!(f, "interrupted"),
        }
    }
}

impl From<GameError> for CliError {
    fn from(e: GameError) -> Self {
        CliError::Game(e)
    }
}

/// Writing results: a closed pipe is the reader's choice, not an error; anything else is.
impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            CliError::BrokenPipe
        } else {
            CliError::Io(format!("cannot write output: {e}"))
        }
    }
}

/// The hint line after an error: where the command's options are explained.
pub(super) fn hint(command: &str) -> String {
    match command {
        "" => "For more information, try 'gpn --help'.".to_string(),
        c => format!("For more information, try 'gpn {c} --help'."),
    }
}

/// Prints `e` as `error: ...` and one hint line.
pub(super) fn report(e: &CliError, command: &str) {
    let hint = match e {
        CliError::Game(GameError::UnknownGame(_)) => {
            "The games and their aliases: 'gpn games'.".to_string()
        }
        CliError::Io(_) => String::new(),
        _ => hint(command),
    };
    // stderr may be closed too; there is nobody left to tell, so the write error is dropped.
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "error: {e}");
    if !hint.is_empty() {
        let _ = writeln!(err, "{hint}");
    }
}

/// Reports a clap error: help and version go to stdout (status 0); a usage error becomes one
/// `error:` line, clap's tip if it has one ("a similar argument exists"), and a hint (status 2),
/// without the usage block that clap would print.
pub(super) fn report_clap(e: &clap::Error, args: &[String]) -> u8 {
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        // A closed stdout while printing help is no error either.
        let _ = e.print();
        return 0;
    }
    // The subcommand whose `--help` explains the mistake: the first argument, if it names one.
    let command = args
        .first()
        .and_then(|a| {
            Cli::command()
                .find_subcommand(a)
                .map(|c| c.get_name().to_string())
        })
        .filter(|c| c != "help")
        .unwrap_or_default();
    let mut lines: Vec<String> = Vec::new();
    match e.kind() {
        ErrorKind::ValueValidation | ErrorKind::InvalidValue => {
            // "--playouts 'many': not a count": the flag and the value, then what is wrong.
            let arg = match e.get(ContextKind::InvalidArg) {
                Some(ContextValue::String(s)) => s.clone(),
                _ => String::new(),
            };
            let arg = arg
                .split(' ')
                .next()
                .unwrap_or_default()
                .trim_matches(['<', '>']);
            let value = match e.get(ContextKind::InvalidValue) {
                Some(ContextValue::String(s)) => s.clone(),
                _ => String::new(),
            };
            let why = match (e.kind(), std::error::Error::source(e)) {
                (ErrorKind::ValueValidation, Some(source)) => source.to_string(),
                _ => match e.get(ContextKind::ValidValue) {
                    Some(ContextValue::Strings(v)) => format!("expected one of {}", v.join(", ")),
                    _ => "invalid value".to_string(),
                },
            };
            if value.is_empty() {
                lines.push(format!("error: {arg} needs a value"));
            } else {
                lines.push(format!("error: {arg} '{value}': {why}"));
            }
        }
        ErrorKind::InvalidSubcommand => {
            let name = match e.get(ContextKind::InvalidSubcommand) {
                Some(ContextValue::String(s)) => s.clone(),
                _ => String::new(),
            };
            lines.push(format!("error: unknown command '{name}'"));
            if let Some(ContextValue::Strings(s)) = e.get(ContextKind::SuggestedSubcommand) {
                if let Some(first) = s.first() {
                    lines.push(format!("  tip: did you mean '{first}'?"));
                }
            }
        }
        _ => {
            // clap's own message without its usage block: the `error:` line, the lines that
            // belong to it (missing arguments, tips), but not `Usage:` and what follows it.
            let text = e.render().to_string();
            for line in text.lines() {
                let trimmed = line.trim();
                if trimmed.starts_with("Usage:") || trimmed.starts_with("For more information") {
                    break;
                }
                if !trimmed.is_empty() {
                    lines.push(line.to_string());
                }
            }
        }
    }
    let mut err = io::stderr().lock();
    for line in lines {
        let _ = writeln!(err, "{line}");
    }
    let _ = writeln!(err, "{}", hint(&command));
    EXIT_USAGE
}

/// Writes the informational line `text` to stderr, ignoring a closed stderr (a panic there
/// would turn a finished job into a crash).
pub(super) fn note(text: fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr(), "{text}");
}

/// The settings that do not fit the game, in the command line's terms.
impl From<SetupError> for CliError {
    fn from(e: SetupError) -> Self {
        match e {
            SetupError::NoSuchPlayer {
                player,
                game,
                players,
            } => CliError::Usage(format!(
                "--player {}: {game} has {players} players",
                player + 1
            )),
            SetupError::Network { path, error } => {
                CliError::Usage(format!("--net {path}: {error}"))
            }
            SetupError::NoCostHeads { path, pcn } => CliError::Usage(format!(
                "--net {path}: --pcn {} needs a network with proof-cost heads (gpn train --pcn)",
                pcn.name()
            )),
            SetupError::Game(g) => CliError::Game(g),
        }
    }
}

impl From<BatchError> for CliError {
    fn from(e: BatchError) -> Self {
        match e {
            BatchError::BadLine(m) => CliError::Usage(m),
            BatchError::Game(g) => CliError::Game(g),
            BatchError::Position(m) => CliError::Io(m),
            BatchError::Setup(s) => s.into(),
        }
    }
}

/// A match's errors are the command line's.
impl From<MatchError> for CliError {
    fn from(e: MatchError) -> Self {
        match e {
            MatchError::Usage(m) => CliError::Usage(m),
            MatchError::Io(m) => CliError::Io(m),
            MatchError::Game(g) => CliError::Game(g),
        }
    }
}
