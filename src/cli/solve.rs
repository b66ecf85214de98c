//! `gpn solve`: game-theoretic values by proof-number search, one position or a batch file.

use std::io::Write;

use super::position::PositionArgs;
use super::solve_args::{warn_unlimited, WATCH};
use super::{interrupt, CliError};
use crate::game::registry::{self, GameVisitor};
use crate::game::Game;
use crate::solve::batch::RandomPositions;
use crate::solve::report::{self, SolvedPosition};
use crate::solve::run::{solve_position, SetupError};
use crate::solve::SolveConfig;

pub use super::solve_args::{SolveArgs, AFTER_HELP};

// `gpn train` reads batch files too.
pub(super) use crate::solve::batch::parse_batch_line;

/// Solves the position of the command line.
struct SolveVisitor<'a> {
    position: &'a PositionArgs,
    cfg: SolveConfig,
    watch: bool,
}

impl GameVisitor for SolveVisitor<'_> {
    type Output = Result<SolvedPosition, SetupError>;
    fn visit<G: Game>(self) -> Self::Output {
        let watch = self.watch.then_some(&WATCH);
        solve_position::<G>(|| self.position.setup(), self.cfg, watch)
    }
}

/// `--generate`: random positions as batch lines.
fn generate(a: &SolveArgs, count: usize, out: &mut dyn Write) -> Result<(), CliError> {
    let game = a
        .game
        .as_deref()
        .ok_or_else(|| CliError::Usage("--generate needs <game>".into()))?;
    let visitor = RandomPositions {
        count,
        plies: a.plies,
        seed: a.seed,
    };
    let lines = registry::visit(game, visitor)?;
    for line in &lines {
        writeln!(out, "{line}")?;
    }
    // Games that end before `--plies`, or too few distinct positions at that depth: the
    // lines found are printed, and the shortfall is an error a script cannot miss.
    if lines.len() < count {
        return Err(CliError::Usage(format!(
            "--generate {count}: only {} distinct positions of {game} that are not over \
             after {} plies turned up in {} random games",
            lines.len(),
            a.plies,
            count.saturating_mul(1000)
        )));
    }
    Ok(())
}

pub fn run(a: SolveArgs, out: &mut dyn Write) -> Result<(), CliError> {
    if let Some(count) = a.generate {
        return generate(&a, count, out);
    }
    if a.algos.is_empty() {
        return Err(CliError::Usage(
            "solve needs --algo (pns, dfpn, ppns, mcpns or sb-gpn)".into(),
        ));
    }
    if let Some(file) = &a.batch {
        if a.game.is_some() || a.position.is_set() {
            return Err(CliError::Usage(
                "--batch takes its positions from the file (no <game>, --position or --moves)"
                    .into(),
            ));
        }
        return super::solve_batch::run(file, &a, out);
    }
    let game = a
        .game
        .as_deref()
        .ok_or_else(|| CliError::Usage("solve needs <game> (or --batch <file>)".into()))?;
    warn_unlimited(&a);
    let config = a.config(a.settings())?;
    for (k, &algo) in a.algos.iter().enumerate() {
        if interrupt::interrupted() {
            break;
        }
        let cfg = SolveConfig {
            algo,
            ..config.clone()
        };
        let visitor = SolveVisitor {
            position: &a.position,
            cfg: cfg.clone(),
            watch: !a.quiet,
        };
        let line = registry::visit(game, visitor)??;
        if a.json {
            writeln!(
                out,
                "{}",
                report::SolveLine::new(&line, &cfg, None).to_json()
            )?;
            continue;
        }
        if k > 0 {
            writeln!(out)?;
        }
        out.write_all(report::solve_text(&line, &cfg).as_bytes())?;
    }
    Ok(())
}
