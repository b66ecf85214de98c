//! The board field of FEN-like position strings, written and split into rows, and the
//! side-to-move letter of games of several players: shared by the games that use them.

use super::GameError;

/// The side-to-move field of a game of several players named by letters (`players`, in turn
/// order): the index of the one letter given.
pub fn side_to_move(field: Option<&str>, players: &[char]) -> Result<usize, GameError> {
    let Some(t) = field else {
        return Err(GameError::position("side to move", "missing"));
    };
    t.chars()
        .next()
        .filter(|_| t.len() == 1)
        .and_then(|ch| players.iter().position(|&l| l == ch))
        .ok_or_else(|| {
            GameError::position(
                "side to move",
                format!(
                    "expected one of {players:?} ({} players), found '{t}'",
                    players.len()
                ),
            )
        })
}

/// The board field: `rows` from the top, each a sequence of cells (`None` = empty), rows joined
/// by `/` and runs of empty cells written as their count.
pub fn board_field<R, C>(rows: R) -> String
where
    R: IntoIterator<Item = C>,
    C: IntoIterator<Item = Option<char>>,
{
    let mut out = String::new();
    for (i, row) in rows.into_iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for cell in row {
            match cell {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        out += &empty.to_string();
                        empty = 0;
                    }
                    out.push(c);
                }
            }
        }
        if empty > 0 {
            out += &empty.to_string();
        }
    }
    out
}

/// Splits the first field of a position string into its rows (top first), dropping a `[...]`
/// pocket suffix as cutechess and Fairy-Stockfish write it, and checks there are `expected`
/// rows. Returns the rows and the fields after the board.
pub fn board_rows(
    text: &str,
    expected: usize,
) -> Result<(Vec<&str>, std::str::SplitWhitespace<'_>), GameError> {
    let mut fields = text.split_whitespace();
    let board = fields
        .next()
        .ok_or_else(|| GameError::position("board", "empty string"))?;
    let board = board.split('[').next().unwrap_or(board);
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != expected {
        return Err(GameError::position(
            "board",
            format!("{} rows, expected {expected}", rows.len()),
        ));
    }
    Ok((rows, fields))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_of_empty_cells_become_counts() {
        let rows = vec![
            vec![None, Some('P'), None, None],
            vec![None; 4],
            vec![Some('p'); 4],
        ];
        assert_eq!(board_field(rows), "1P2/4/pppp");
    }
}
