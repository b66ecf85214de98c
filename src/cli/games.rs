//! `gpn games`: the table of registered games.

use crate::game::registry::GAMES;

/// The `gpn games` listing: name, aliases, board and move notation of every game.
pub fn games_table() -> String {
    let mut out = format!("{:<16} {:<34} {:<6} notation\n", "game", "aliases", "board");
    for info in GAMES {
        let aliases = if info.aliases.is_empty() {
            "-".to_string()
        } else {
            info.aliases.join(",")
        };
        out += &format!(
            "{:<16} {:<34} {:<6} {}\n",
            info.name, aliases, info.board, info.notation
        );
    }
    out
}
