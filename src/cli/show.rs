//! `gpn show`: a position as a diagram, its string, hash and legal moves.

use std::io::Write;

use clap::Args;

use super::position::PositionArgs;
use super::CliError;
use crate::game::registry::{self, GameVisitor};
use crate::game::{Game, MoveList};

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The game (a name or alias of `gpn games`)
    #[arg(value_name = "game")]
    game: String,
    #[command(flatten)]
    position: PositionArgs,
}

struct ShowVisitor<'a> {
    position: PositionArgs,
    out: &'a mut dyn Write,
}

impl GameVisitor for ShowVisitor<'_> {
    type Output = Result<(), CliError>;
    fn visit<G: Game>(self) -> Result<(), CliError> {
        let game: G = self.position.setup()?;
        let out = self.out;
        writeln!(out, "{}", game.diagram())?;
        writeln!(out, "position {}", game.to_position())?;
        writeln!(out, "hash {:016x}", game.hash())?;
        match game.outcome() {
            Some(outcome) => writeln!(out, "outcome {outcome}")?,
            None => {
                let mut list = MoveList::new();
                game.legal_moves(&mut list);
                let moves: Vec<String> = list.iter().map(|&m| game.format_move(m)).collect();
                writeln!(out, "to move: player {}", game.to_move().0 + 1)?;
                writeln!(out, "moves ({}): {}", moves.len(), moves.join(" "))?;
            }
        }
        Ok(())
    }
}

pub fn run(args: ShowArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let visitor = ShowVisitor {
        position: args.position,
        out,
    };
    registry::visit(&args.game, visitor)?
}
