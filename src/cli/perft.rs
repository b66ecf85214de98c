//! `gpn perft`: move-generator counts, one line per root move.

use std::io::Write;
use std::time::Instant;

use clap::Args;

use super::position::PositionArgs;
use super::{note, CliError};
use crate::game::perft::{perft, MAX_DEPTH};
use crate::game::registry::{self, GameVisitor};
use crate::game::{Game, MoveList};

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// The game (a name or alias of `gpn games`)
    #[arg(value_name = "game")]
    game: String,
    /// Plies to count (0 counts the position itself; at most 128)
    #[arg(value_name = "depth", value_parser = parse_depth)]
    depth: u32,
    #[command(flatten)]
    position: PositionArgs,
}

struct PerftVisitor<'a> {
    depth: u32,
    position: PositionArgs,
    out: &'a mut dyn Write,
}

impl GameVisitor for PerftVisitor<'_> {
    type Output = Result<(), CliError>;
    fn visit<G: Game>(self) -> Result<(), CliError> {
        let game: G = self.position.setup()?;
        let t0 = Instant::now();
        // `divide`, line by line: a long perft shows its progress, and a reader that has seen
        // enough (`| head`) stops it at the next line.
        let total = if self.depth == 0 {
            perft(&game, 0)
        } else {
            let mut list = MoveList::new();
            game.legal_moves(&mut list);
            let mut total = 0;
            for &m in list.iter() {
                let mut child = game.clone();
                child.play(m);
                let n = perft(&child, self.depth - 1);
                writeln!(self.out, "{}: {n}", game.format_move(m))?;
                total += n;
            }
            total
        };
        let secs = t0.elapsed().as_secs_f64();
        writeln!(self.out, "nodes {total}")?;
        self.out.flush()?;
        note(format_args!(
            "perft {} depth {}: {total} leaves in {:.3} s ({:.0} leaves/s)",
            G::INFO.name,
            self.depth,
            secs,
            total as f64 / secs.max(1e-9)
        ));
        Ok(())
    }
}

/// A depth up to [`MAX_DEPTH`]: the count recurses once per ply, and games that never end
/// (minishogi, ataxx) would otherwise recurse until the stack overflows.
fn parse_depth(text: &str) -> Result<u32, String> {
    let depth: u32 = super::count(text)?;
    if depth > MAX_DEPTH {
        return Err(format!("{depth} is deeper than {MAX_DEPTH} plies"));
    }
    Ok(depth)
}

pub fn run(args: PerftArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let visitor = PerftVisitor {
        depth: args.depth,
        position: args.position,
        out,
    };
    registry::visit(&args.game, visitor)?
}
