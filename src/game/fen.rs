//! Writing the board field of FEN-like position strings, shared by the games that use one.

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
