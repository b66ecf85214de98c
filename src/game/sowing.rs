//! The position text shared by the two-row sowing games (Awari, Kalah): `top/bottom stores side`.
//!
//! `4,4,4,4,4,4/4,4,4,4,4,4 0 0 S`: the north row as seen from the south (right to left in
//! sowing order), the south row left to right, the two stores, and `S` or `N` to move. Trailing
//! fields (move counters and the like) are ignored.

use super::GameError;

/// Pits per row.
pub const ROW: usize = 6;
/// Seeds in the game (4 per pit).
pub const TOTAL_SEEDS: u32 = 48;

/// A position as written: rows in reading order, stores of player 1 and 2, the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowsText {
    /// The north row, left to right as printed (north's last pit first).
    pub top: [u8; ROW],
    /// The south row, left to right (south's first pit first).
    pub bottom: [u8; ROW],
    pub stores: [u8; 2],
    /// 0 = south (player 1), 1 = north.
    pub side: u8,
}

impl RowsText {
    /// The text of a position; `unit` is not needed to write it.
    pub fn format(&self) -> String {
        let list = |row: &[u8; ROW]| {
            row.iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let side = if self.side == 0 { 'S' } else { 'N' };
        format!(
            "{}/{} {} {} {side}",
            list(&self.top),
            list(&self.bottom),
            self.stores[0],
            self.stores[1]
        )
    }

    /// Reads a position; `unit` names a pit in error messages ("pit", "house"). Checks that the
    /// seeds add up to [`TOTAL_SEEDS`].
    pub fn parse(text: &str, unit: &str) -> Result<RowsText, GameError> {
        let mut fields = text.split_whitespace();
        let board = fields
            .next()
            .ok_or_else(|| GameError::position("board", "missing"))?;
        let (top, bottom) = board.split_once('/').ok_or_else(|| {
            GameError::position(
                "board",
                format!("'{board}' is not two rows separated by '/'"),
            )
        })?;
        if bottom.contains('/') {
            return Err(GameError::position(
                "board",
                format!("'{board}' has more than two rows"),
            ));
        }
        let top = parse_row(top, "top (north)", unit)?;
        let bottom = parse_row(bottom, "bottom (south)", unit)?;
        let mut stores = [0u8; 2];
        for (store, field) in stores
            .iter_mut()
            .zip(["store of player 1", "store of player 2"])
        {
            let text = fields
                .next()
                .ok_or_else(|| GameError::position(field, "missing"))?;
            *store = parse_count(text).map_err(|m| GameError::position(field, m))?;
        }
        let side = fields
            .next()
            .ok_or_else(|| GameError::position("side to move", "missing"))?;
        let side = match side {
            "S" | "s" => 0,
            "N" | "n" => 1,
            _ => {
                return Err(GameError::position(
                    "side to move",
                    format!("'{side}' is neither S (player 1, south) nor N (player 2, north)"),
                ))
            }
        };
        let total: u32 = top
            .iter()
            .chain(&bottom)
            .chain(&stores)
            .map(|&s| s as u32)
            .sum();
        if total != TOTAL_SEEDS {
            return Err(GameError::position(
                "board",
                format!("{unit}s and stores hold {total} seeds, expected {TOTAL_SEEDS}"),
            ));
        }
        Ok(RowsText {
            top,
            bottom,
            stores,
            side,
        })
    }
}

fn parse_row(text: &str, which: &str, unit: &str) -> Result<[u8; ROW], GameError> {
    let mut row = [0u8; ROW];
    let mut count = 0;
    for (i, item) in text.split(',').enumerate() {
        if i >= ROW {
            return Err(GameError::position(
                "board",
                format!("the {which} row '{text}' has more than {ROW} {unit}s"),
            ));
        }
        row[i] = parse_count(item).map_err(|m| {
            GameError::position("board", format!("{unit} {} of the {which} row: {m}", i + 1))
        })?;
        count = i + 1;
    }
    if count != ROW {
        return Err(GameError::position(
            "board",
            format!("the {which} row '{text}' has {count} {unit}s, expected {ROW}"),
        ));
    }
    Ok(row)
}

fn parse_count(text: &str) -> Result<u8, String> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("'{text}' is not a number of seeds"));
    }
    match text.parse::<u32>() {
        Ok(n) if n <= TOTAL_SEEDS => Ok(n as u8),
        _ => Err(format!(
            "'{text}' is more than the {TOTAL_SEEDS} seeds of the game"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_errors_name_the_field() {
        let text = "0,1,2,3,4,5/6,7,8,0,0,0 6 6 N";
        let rows = RowsText::parse(text, "pit").unwrap();
        assert_eq!(rows.top, [0, 1, 2, 3, 4, 5]);
        assert_eq!(rows.stores, [6, 6]);
        assert_eq!(rows.side, 1);
        assert_eq!(rows.format(), text);
        let err = |t: &str| RowsText::parse(t, "house").unwrap_err().to_string();
        assert!(err("4,4,4,4,4,4/4,4,4,4,4 0 0 S").contains("5 houses"));
        assert!(err("4,4,4,4,4,4/4,4,4,4,4,4 0 0 X").contains("side to move"));
        assert!(err("4,4,4,4,4,4/4,4,4,4,4,4 0").contains("store of player 2"));
        assert!(err("4,4,4,4,4,4/4,4,4,4,4,4 1 0 S").contains("49 seeds"));
    }
}
