//! `--position` and `--moves`, shared by `perft`, `show` and `solve`.

use clap::Args;

use crate::game::{Game, GameError};

/// The position a command starts from: the start position or `--position`, then `--moves`.
#[derive(Args, Debug, Default, Clone)]
pub struct PositionArgs {
    /// Start from this position string instead of the game's start position (FEN-like; it
    /// contains spaces, so quote it; `gpn games` shows each game's start string)
    #[arg(long, alias = "fen", value_name = "string")]
    pub position: Option<String>,
    /// Moves to play from that position first, in the game's notation: comma- or
    /// space-separated (--moves d1,d2 or --moves d1 d2)
    #[arg(long, value_name = "move", num_args = 0.., value_delimiter = ',')]
    moves: Vec<String>,
}

impl PositionArgs {
    /// A position string and no moves (a line of a batch file).
    pub fn at(position: &str) -> Self {
        PositionArgs {
            position: Some(position.to_string()),
            moves: Vec::new(),
        }
    }

    /// The moves, one per entry. Commas are split by clap; spaces inside one argument
    /// (`--moves "d1 d2"`, as scripts often quote a list) are split here.
    pub fn moves(&self) -> Vec<&str> {
        self.moves
            .iter()
            .flat_map(|m| m.split_whitespace())
            .collect()
    }

    /// Whether `--position` or `--moves` was given.
    pub fn is_set(&self) -> bool {
        self.position.is_some() || !self.moves().is_empty()
    }

    /// Builds the position: the start or `--position` (`start` also means the start), then
    /// each move.
    pub fn setup<G: Game>(&self) -> Result<G, GameError> {
        let mut game = match self.position.as_deref() {
            None | Some("start") => G::start(),
            Some(text) => G::parse_position(text)?,
        };
        for m in self.moves() {
            game.play_text(m)?;
        }
        Ok(game)
    }
}
