//! The engine form of the command line: `gpn [--protocol ...] [--game ...] [--option ...]`.

use clap::Args;

use super::CliError;
use crate::game::registry;
use crate::game::GameError;
use crate::options;
use crate::protocol::{self, Protocol, Settings};

/// The options of the engine (no command): how it starts before the first protocol command.
#[derive(Args, Debug)]
pub struct EngineArgs {
    /// Speak this protocol (uci, usi, uai or gtp) instead of detecting it from the first
    /// command (`uci`, `usi`, `uai`; anything else is GTP)
    #[arg(long, value_name = "protocol", value_parser = parse_protocol)]
    protocol: Option<Protocol>,
    /// Same as --protocol uci
    #[arg(long, hide = true, conflicts_with_all = ["protocol", "usi", "uai", "gtp"])]
    uci: bool,
    /// Same as --protocol usi
    #[arg(long, hide = true, conflicts_with_all = ["protocol", "uai", "gtp"])]
    usi: bool,
    /// Same as --protocol uai
    #[arg(long, hide = true, conflicts_with_all = ["protocol", "gtp"])]
    uai: bool,
    /// Same as --protocol gtp
    #[arg(long, hide = true, conflicts_with = "protocol")]
    gtp: bool,
    /// The game to start with (a name or alias of `gpn games`; default: the protocol's own,
    /// e.g. minishogi for USI, reversi for GTP)
    #[arg(long, value_name = "game")]
    game: Option<String>,
    /// An engine option set before the first command, as `setoption` would (repeatable), e.g.
    /// --option Hash=64 --option Threads=2
    #[arg(long = "option", value_name = "name>=<value", value_parser = parse_option)]
    options: Vec<(String, String)>,
    /// A file of options, one `name = value` per line (`#` comments), set before the --option
    /// ones (docs/protocols.md, Config file)
    #[arg(long, value_name = "file")]
    config: Option<std::path::PathBuf>,
}

fn parse_protocol(text: &str) -> Result<Protocol, String> {
    Protocol::parse(text).ok_or_else(|| "expected uci, usi, uai or gtp".to_string())
}

fn parse_option(text: &str) -> Result<(String, String), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| "expected name=value".to_string())?;
    Ok((name.trim().to_string(), value.trim().to_string()))
}

/// Starts the protocol loop on stdin/stdout; it returns at the end of input or on `quit`.
pub fn run(args: EngineArgs) -> Result<(), CliError> {
    let flag = [
        (args.uci, Protocol::Uci),
        (args.usi, Protocol::Usi),
        (args.uai, Protocol::Uai),
        (args.gtp, Protocol::Gtp),
    ]
    .into_iter()
    .find_map(|(set, p)| set.then_some(p));
    let game = match args.game {
        Some(g) => Some(
            registry::canonical_name(&g)
                .ok_or(GameError::UnknownGame(g))?
                .to_string(),
        ),
        None => None,
    };
    // The config file's options first, so that the command line's override them.
    let mut options = match &args.config {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| CliError::Io(format!("{}: {e}", path.display())))?;
            options::read_config(&text)
                .map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))?
        }
        None => Vec::new(),
    };
    options.extend(args.options);
    protocol::run(Settings {
        protocol: args.protocol.or(flag),
        game,
        options,
    });
    Ok(())
}
