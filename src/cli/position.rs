//! `--position`, `--sgf` and `--moves`, shared by `perft`, `show` and `solve`.

use clap::Args;

use crate::game::{sgf, Dialect, Game, GameError, Player};

/// The position a command starts from: the start position or `--position`, then `--moves`.
#[derive(Args, Debug, Default, Clone)]
pub struct PositionArgs {
    /// Start from this position string instead of the game's start position (FEN-like; it
    /// contains spaces, so quote it; `gpn games` shows each game's start string)
    #[arg(long, alias = "fen", value_name = "string")]
    pub position: Option<String>,
    /// Start from the end of this SGF record's main line instead (board games whose GTP
    /// dialect reads vertices: Go, Killall-Go, Gomoku); a move of the side not to move is
    /// preceded by a pass, as GTP setup stones are
    #[arg(long, value_name = "file", conflicts_with = "position")]
    pub sgf: Option<String>,
    /// Moves to play from that position first, in the game's notation: comma- or
    /// space-separated (--moves d1,d2 or --moves d1 d2)
    #[arg(long, value_name = "move", num_args = 0.., value_delimiter = ',')]
    moves: Vec<String>,
}

impl PositionArgs {
    /// The moves, one per entry. Commas are split by clap; spaces inside one argument
    /// (`--moves "d1 d2"`, as scripts often quote a list) are split here.
    pub fn moves(&self) -> Vec<&str> {
        self.moves
            .iter()
            .flat_map(|m| m.split_whitespace())
            .collect()
    }

    /// Whether `--position`, `--sgf` or `--moves` was given.
    pub fn is_set(&self) -> bool {
        self.position.is_some() || self.sgf.is_some() || !self.moves().is_empty()
    }

    /// Builds the position: the start or `--position` (`start` also means the start), then
    /// each move.
    pub fn setup<G: Game>(&self) -> Result<G, GameError> {
        let mut game = match self.position.as_deref() {
            None | Some("start") => G::start(),
            Some(text) => G::parse_position(text)?,
        };
        if let Some(path) = &self.sgf {
            game = from_sgf(game, path)?;
        }
        for m in self.moves() {
            game.play_text(m)?;
        }
        Ok(game)
    }
}

/// `start` after the main line of the SGF record in file `path`.
fn from_sgf<G: Game>(mut game: G, path: &str) -> Result<G, GameError> {
    let bad = |m: String| GameError::position("sgf", format!("{path}: {m}"));
    let text = crate::files::read_text(std::path::Path::new(path), crate::files::TEXT_LIMIT)
        .map_err(|e| bad(e.to_string()))?;
    let record = sgf::parse(&text).map_err(|e| bad(e.to_string()))?;
    let size = format!("{0}x{0}", record.size);
    if size != G::INFO.board {
        return Err(bad(format!(
            "the record is for a {size} board, {} is {}",
            G::INFO.name,
            G::INFO.board
        )));
    }
    if let Some(komi) = record.komi {
        // Games without komi (Killall-Go, Gomoku) ignore it.
        if let Some(territory) = game.territory_mut() {
            territory.set_komi(komi);
        }
    }
    for (i, (black, vertex)) in record.moves.iter().enumerate() {
        let colour = if *black { Player(0) } else { Player(1) };
        if game.to_move() != colour {
            let pass = game
                .parse_move_in("pass", Dialect::Gtp)
                .map_err(|e| bad(format!("move {}: {e}", i + 1)))?;
            game.play(pass);
        }
        let m = game
            .parse_move_in(vertex, Dialect::Gtp)
            .map_err(|e| bad(format!("move {} ({vertex}): {e}", i + 1)))?;
        game.play(m);
    }
    Ok(game)
}
