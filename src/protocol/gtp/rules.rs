//! GoGui's game-ruler commands (`gogui-rules_*`, GoGui's manual, "Game Rules"): with them GoGui
//! lets gpn referee a game it does not know, for every gpn game whose board is a square grid of
//! GTP vertices and whose moves are single vertices or passes (Go, Killall-Go, Gomoku,
//! Othello). They read the [`Session`] only, through its
//! territory ([`crate::game::Territory::gogui_board`]).

use super::go::colour_name;
use super::{family_of, gtp_game_name, Controller, COMMANDS};
use crate::engine::Session;
use crate::game::{Dialect, GoGuiBoard, Player};

/// The board of `s` as GoGui shows it, or the error every game-ruler command gives for a game
/// that does not map onto GoGui's grid (Connect Four's 7x6 is not square; Ataxx's jumps and the
/// other games' moves take two vertices).
fn board_of(s: &dyn Session) -> Result<GoGuiBoard, String> {
    s.territory()
        .and_then(|t| t.gogui_board())
        .ok_or_else(|| format!("not supported for {}", gtp_game_name(s.game().name)))
}

/// `gogui-rules_final_result`: `unknown` while the game goes on; then the score of games
/// scored by points (`B+3.5`, `W+0.5`, `0`, as `final_score`), or `B+`, `W+` or `0` (a draw).
fn final_result(s: &dyn Session) -> String {
    let Some(outcome) = s.outcome() else {
        return "unknown".to_string();
    };
    if let Some(score) = s.territory().and_then(|t| t.score_text()) {
        return score;
    }
    match outcome.winner() {
        Some(Player(0)) => "B+".to_string(),
        Some(_) => "W+".to_string(),
        None => "0".to_string(),
    }
}

/// The answer of game-ruler command `name` for `s`; `None` for a name that is not one.
fn rules_answer(s: &dyn Session, name: &str) -> Option<Result<String, String>> {
    if !name.starts_with("gogui-rules_") || !COMMANDS.contains(&name) {
        return None;
    }
    let board = match board_of(s) {
        Ok(board) => board,
        Err(e) => return Some(Err(e)),
    };
    let answer = match name {
        "gogui-rules_game_id" => gtp_game_name(s.game().name).to_string(),
        "gogui-rules_board_size" => board.rows.len().to_string(),
        // Rows from the line after `=`, top first, as `showboard` writes its diagram.
        "gogui-rules_board" => format!("\n{}", board.rows.join("\n")),
        // Empty once the game is over: GoGui takes that as the end of the game.
        "gogui-rules_legal_moves" => s.legal_moves(Dialect::Gtp).join(" "),
        "gogui-rules_side_to_move" => colour_name(s.side_to_move()),
        "gogui-rules_final_result" => final_result(s),
        // GoGui reads the white stones captured (by Black) first.
        "gogui-rules_captured_count" => format!("{} {}", board.captured[0], board.captured[1]),
        // GoGui enables its setup tool when the ruler has this command; the stones then come
        // with `gogui-setup` (Go and Killall-Go only).
        "gogui-rules_setup" if matches!(family_of(s.game().name), "go" | "killallgo") => {
            String::new()
        }
        "gogui-rules_setup" => return Some(Err("setup stones are for Go".to_string())),
        _ => return None,
    };
    Some(Ok(answer))
}

impl Controller {
    /// The game-ruler command `name` (`gogui-rules_...`); `None` when it is not one.
    pub(super) fn gogui_rules(&mut self, name: &str) -> Option<Result<String, String>> {
        let s = self.conductor.session()?;
        rules_answer(s.as_ref(), name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::session_after as session;

    fn answer(s: &dyn Session, name: &str) -> Result<String, String> {
        rules_answer(s, name).unwrap()
    }

    #[test]
    fn go_boards_have_rows_from_the_top_and_prisoners() {
        // Black captures the white stone on A1 with B1 after A2.
        let s = session("go5", &["A2", "A1", "B1"]);
        assert_eq!(answer(s.as_ref(), "gogui-rules_board_size").unwrap(), "5");
        assert_eq!(
            answer(s.as_ref(), "gogui-rules_board").unwrap(),
            "\n.....\n.....\n.....\nX....\n.X..."
        );
        assert_eq!(
            answer(s.as_ref(), "gogui-rules_captured_count").unwrap(),
            "1 0"
        );
        assert_eq!(
            answer(s.as_ref(), "gogui-rules_side_to_move").unwrap(),
            "white"
        );
        assert_eq!(answer(s.as_ref(), "gogui-rules_game_id").unwrap(), "go5");
        assert_eq!(
            answer(s.as_ref(), "gogui-rules_final_result").unwrap(),
            "unknown"
        );
        let legal = answer(s.as_ref(), "gogui-rules_legal_moves").unwrap();
        assert!(legal.contains("pass") && !legal.contains("B1"), "{legal}");
        assert!(rules_answer(s.as_ref(), "showboard").is_none());
        assert_eq!(answer(s.as_ref(), "gogui-rules_setup"), Ok(String::new()));
        let othello = session("othello", &[]);
        assert!(answer(othello.as_ref(), "gogui-rules_setup").is_err());
    }

    #[test]
    fn a_finished_game_has_a_result_and_no_legal_moves() {
        let s = session("go5", &["C3", "pass", "pass"]);
        assert_eq!(answer(s.as_ref(), "gogui-rules_legal_moves").unwrap(), "");
        assert_eq!(
            answer(s.as_ref(), "gogui-rules_final_result").unwrap(),
            "B+17.5"
        );
        // Gomoku: five in a row for Black.
        let five = ["H8", "A1", "J8", "A2", "K8", "A3", "L8", "A4", "M8"];
        let s = session("gomoku", &five);
        assert_eq!(
            answer(s.as_ref(), "gogui-rules_final_result").unwrap(),
            "B+"
        );
        assert_eq!(answer(s.as_ref(), "gogui-rules_legal_moves").unwrap(), "");
        let rows = answer(s.as_ref(), "gogui-rules_board").unwrap();
        // Row 8 is the eighth from the bottom of 15: line 8 after the leading newline.
        assert_eq!(rows.lines().nth(8), Some(".......XXXXX..."));
        assert_eq!(rows.lines().nth(15), Some("O.............."));
    }

    #[test]
    fn othello_is_mirrored_so_vertices_keep_their_names() {
        // gpn's D3 is the third row from the top; GoGui's D3 the third from the bottom.
        let s = session("othello", &["D3"]);
        let rows = answer(s.as_ref(), "gogui-rules_board").unwrap();
        let rows: Vec<&str> = rows.lines().skip(1).collect();
        assert_eq!(rows.len(), 8);
        assert_eq!(&rows[8 - 3][3..4], "X", "{rows:?}");
        assert_eq!(
            answer(s.as_ref(), "gogui-rules_side_to_move").unwrap(),
            "white"
        );
        assert_eq!(
            answer(s.as_ref(), "gogui-rules_game_id").unwrap(),
            "Othello"
        );
    }

    #[test]
    fn games_off_the_grid_are_not_supported() {
        for (game, name) in [
            ("cfour", "cfour"),
            ("ataxx", "ataxx"),
            ("breakthrough", "breakthrough"),
        ] {
            let s = session(game, &[]);
            assert_eq!(
                answer(s.as_ref(), "gogui-rules_board"),
                Err(format!("not supported for {name}"))
            );
        }
    }
}
