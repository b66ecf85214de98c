//! `gpn games`: the table of registered games.

use crate::game::registry::{num_players, GAMES};

/// The `gpn games` listing: name, aliases, board, players and move notation of every game.
pub fn games_table() -> String {
    let mut out = format!(
        "{:<16} {:<34} {:<6} {:<7} notation\n",
        "game", "aliases", "board", "players"
    );
    for info in GAMES {
        let aliases = if info.aliases.is_empty() {
            "-".to_string()
        } else {
            info.aliases.join(",")
        };
        let players = num_players(info.name).unwrap_or(2);
        out += &format!(
            "{:<16} {:<34} {:<6} {:<7} {}\n",
            info.name, aliases, info.board, players, info.notation
        );
    }
    out
}
