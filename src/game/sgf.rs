//! SGF (FF\[4\]) game records: the main line's board size, komi, setup stones and moves, as GTP
//! vertices (`C7`, `pass`) that every board game's GTP dialect reads (`gpn solve --sgf`).
//!
//! Only the main line is read: in `(;A;B(;C)(;D))` the moves are A, B, C. Properties other
//! than SZ, KM, AB, AW, B and W are skipped (their values may hold any escaped text).

use std::fmt;

/// What the main line of an SGF record holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SgfRecord {
    /// `SZ`, 19 when absent (the SGF default for Go).
    pub size: usize,
    /// `KM`, when given.
    pub komi: Option<f32>,
    /// Setup stones (`AB`, `AW`) and moves (`B`, `W`) in order: `(black, vertex)`.
    pub moves: Vec<(bool, String)>,
    /// How many entries of `moves` are setup stones before the first real move (GTP's
    /// `loadsgf` counts move numbers from the first `B`/`W`).
    pub setup: usize,
}

/// Why an SGF text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfError(pub String);

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SGF: {}", self.0)
    }
}

impl std::error::Error for SgfError {}

/// GTP columns: A-T without I (and on, for boards over 19); Go's vertices use these too.
pub const GTP_COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The GTP vertex of SGF point `xy` (column and row letters from the top left) on a board of
/// `size`; `None` for a pass (`[]`, or `[tt]` on boards up to 19).
pub fn vertex(point: &str, size: usize) -> Result<Option<String>, SgfError> {
    let b = point.trim().as_bytes();
    if b.is_empty() || (size <= 19 && b == b"tt") {
        return Ok(None);
    }
    let coord = |c: u8| match c {
        b'a'..=b'z' => Some((c - b'a') as usize),
        b'A'..=b'Z' => Some((c - b'A') as usize + 26),
        _ => None,
    };
    match (
        b.len(),
        b.first().and_then(|&c| coord(c)),
        b.get(1).and_then(|&c| coord(c)),
    ) {
        (2, Some(x), Some(y)) if x < size && y < size && x < GTP_COLUMNS.len() => {
            Ok(Some(format!("{}{}", GTP_COLUMNS[x] as char, size - y)))
        }
        _ => Err(SgfError(format!(
            "'{point}' is not a point of a {size}x{size} board"
        ))),
    }
}

/// The SGF point of GTP vertex `vertex` (`C7`, any case) on a board of `size`; `""` for `pass`
/// (FF\[4\]'s pass).
pub fn point(vertex: &str, size: usize) -> Result<String, SgfError> {
    let v = vertex.trim().to_ascii_uppercase();
    if v == "PASS" {
        return Ok(String::new());
    }
    let bad = || {
        SgfError(format!(
            "'{vertex}' is not a vertex of a {size}x{size} board"
        ))
    };
    let mut chars = v.chars();
    let letter = chars.next().ok_or_else(bad)? as u8;
    let col = GTP_COLUMNS[..size.min(GTP_COLUMNS.len())]
        .iter()
        .position(|&c| c == letter)
        .ok_or_else(bad)?;
    let row: usize = chars.as_str().parse().map_err(|_| bad())?;
    if !(1..=size).contains(&row) {
        return Err(bad());
    }
    // SGF letters: a-z, then A-Z for boards over 26 (never reached: sizes stop at 25).
    let letter_of = |k: usize| (b'a' + k as u8) as char;
    Ok(format!("{}{}", letter_of(col), letter_of(size - row)))
}

/// The record as one line of SGF (FF\[4\], Go): `SZ`, `KM` when known, the setup stones as `AB`
/// and `AW` of the root node, then one node per move (a pass is `[]`).
pub fn write(record: &SgfRecord) -> Result<String, SgfError> {
    let mut out = format!(
        "(;FF[4]GM[1]CA[UTF-8]AP[gpn:{}]SZ[{}]",
        env!("CARGO_PKG_VERSION"),
        record.size
    );
    if let Some(komi) = record.komi {
        out += &format!("KM[{komi}]");
    }
    let (setup, moves) = record.moves.split_at(record.setup.min(record.moves.len()));
    for (id, black) in [("AB", true), ("AW", false)] {
        let points: Vec<String> = setup
            .iter()
            .filter(|(b, _)| *b == black)
            .map(|(_, v)| point(v, record.size).map(|p| format!("[{p}]")))
            .collect::<Result<_, _>>()?;
        if !points.is_empty() {
            out += &format!("{id}{}", points.concat());
        }
    }
    for (black, vertex) in moves {
        let colour = if *black { 'B' } else { 'W' };
        out += &format!(";{colour}[{}]", point(vertex, record.size)?);
    }
    out.push(')');
    Ok(out)
}

/// Reads the main line of an SGF record.
pub fn parse(text: &str) -> Result<SgfRecord, SgfError> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    p.skip_ws();
    if p.peek() != Some(b'(') {
        return Err(SgfError("a record starts with '('".into()));
    }
    let mut props: Vec<(String, Vec<String>)> = Vec::new();
    p.game_tree(&mut props, true)?;
    let mut record = SgfRecord {
        size: 19,
        ..SgfRecord::default()
    };
    // SZ first: the moves' vertices depend on it.
    for (id, values) in &props {
        if id == "SZ" {
            let v = values.first().map(|v| v.trim()).unwrap_or("");
            let n = v.split(':').next().unwrap_or("");
            record.size = n
                .parse()
                .ok()
                .filter(|n| (1..=25).contains(n))
                .ok_or_else(|| SgfError(format!("SZ[{v}] is not a board size of 1-25")))?;
        }
    }
    for (id, values) in &props {
        match id.as_str() {
            "KM" => {
                let v = values.first().map(|v| v.trim()).unwrap_or("");
                record.komi = Some(
                    v.parse()
                        .map_err(|_| SgfError(format!("KM[{v}] is not a number")))?,
                );
            }
            "B" | "W" | "AB" | "AW" => {
                let black = id.ends_with('B');
                let is_setup = id.starts_with('A');
                if is_setup && record.setup == record.moves.len() {
                    record.setup += values.len();
                }
                for v in values {
                    let vertex = vertex(v, record.size)?;
                    if vertex.is_none() && is_setup {
                        return Err(SgfError(format!("{id}[] names no point")));
                    }
                    record
                        .moves
                        .push((black, vertex.unwrap_or_else(|| "pass".into())));
                }
            }
            _ => {}
        }
    }
    Ok(record)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    fn expect(&mut self, c: u8) -> Result<(), SgfError> {
        self.skip_ws();
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(SgfError(format!(
                "expected '{}' at byte {}",
                c as char, self.i
            )))
        }
    }

    /// `( sequence { game_tree } )`; the properties of the main line go to `out` (only when
    /// `main`), later variations are read and dropped. Nested trees are kept on an explicit
    /// stack, not the call stack: a record nested a million deep is read, not a stack overflow.
    fn game_tree(
        &mut self,
        out: &mut Vec<(String, Vec<String>)>,
        main: bool,
    ) -> Result<(), SgfError> {
        self.expect(b'(')?;
        /// An open game tree: whether it is on the main line, and whether no child tree of
        /// it has been read yet (its first child continues its line).
        struct Open {
            main: bool,
            first_child: bool,
        }
        let mut open = vec![Open {
            main,
            first_child: true,
        }];
        while let Some(top) = open.last_mut() {
            self.skip_ws();
            match self.peek() {
                Some(b';') => {
                    self.i += 1;
                    let keep = top.main;
                    self.node(out, keep)?;
                }
                Some(b'(') => {
                    self.i += 1;
                    let child = Open {
                        main: top.main && top.first_child,
                        first_child: true,
                    };
                    top.first_child = false;
                    open.push(child);
                }
                Some(b')') => {
                    self.i += 1;
                    open.pop();
                }
                Some(c) => {
                    return Err(SgfError(format!(
                        "unexpected '{}' at byte {}",
                        c as char, self.i
                    )))
                }
                None => return Err(SgfError("the record ends inside a game tree".into())),
            }
        }
        Ok(())
    }

    /// The properties of one node: `ID[value][value]...`.
    fn node(&mut self, out: &mut Vec<(String, Vec<String>)>, keep: bool) -> Result<(), SgfError> {
        loop {
            self.skip_ws();
            let start = self.i;
            while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                self.i += 1;
            }
            if self.i == start {
                return Ok(());
            }
            // FF[3]'s lower-case letters in identifiers are ignored.
            let id: String = self.s[start..self.i]
                .iter()
                .filter(|c| c.is_ascii_uppercase())
                .map(|&c| c as char)
                .collect();
            let mut values = Vec::new();
            loop {
                self.skip_ws();
                if self.peek() != Some(b'[') {
                    break;
                }
                self.i += 1;
                let mut v = Vec::new();
                loop {
                    match self.peek() {
                        None => return Err(SgfError("a value is not closed with ']'".into())),
                        Some(b']') => {
                            self.i += 1;
                            break;
                        }
                        Some(b'\\') => {
                            self.i += 1;
                            if let Some(c) = self.peek() {
                                v.push(c);
                                self.i += 1;
                            }
                        }
                        Some(c) => {
                            v.push(c);
                            self.i += 1;
                        }
                    }
                }
                values.push(String::from_utf8_lossy(&v).into_owned());
            }
            if values.is_empty() {
                return Err(SgfError(format!("property {id} has no value")));
            }
            if keep {
                out.push((id, values));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_main_line_with_passes_setup_and_escapes() {
        let r = parse(
            "(;FF[4]GM[1]C[a \\] comment]SZ[9]KM[6.5]AB[aa][ii];B[cc];W[](;B[tt];W[ab])(;B[dd]))",
        )
        .unwrap();
        assert_eq!(r.size, 9);
        assert_eq!(r.komi, Some(6.5));
        let moves: Vec<String> = r
            .moves
            .iter()
            .map(|(b, v)| format!("{}{v}", if *b { 'B' } else { 'W' }))
            .collect();
        assert_eq!(moves, ["BA9", "BJ1", "BC7", "Wpass", "Bpass", "WA8"]);
    }

    #[test]
    fn setup_stones_are_counted_before_the_first_move() {
        let r = parse("(;SZ[9]AB[aa][bb]AW[cc];B[dd];AB[ee];W[ff])").unwrap();
        assert_eq!(r.setup, 3);
        assert_eq!(r.moves.len(), 6);
        assert_eq!(parse("(;SZ[9];B[dd])").unwrap().setup, 0);
    }

    #[test]
    fn points_and_written_records_read_back() {
        assert_eq!(point("A9", 9).unwrap(), "aa");
        assert_eq!(point("j1", 9).unwrap(), "ii");
        assert_eq!(point("C13", 15).unwrap(), "cc");
        assert_eq!(point("pass", 19).unwrap(), "");
        for bad in ["I5", "K9", "A10", "A0", "", "AA", "Z1"] {
            assert!(point(bad, 9).is_err(), "{bad}");
        }
        let record = SgfRecord {
            size: 9,
            komi: Some(6.5),
            moves: vec![
                (true, "C3".into()),
                (false, "G7".into()),
                (true, "E5".into()),
                (false, "pass".into()),
                (true, "D4".into()),
            ],
            setup: 2,
        };
        let text = write(&record).unwrap();
        assert!(
            text.ends_with("SZ[9]KM[6.5]AB[cg]AW[gc];B[ee];W[];B[df])"),
            "{text}"
        );
        assert_eq!(parse(&text).unwrap(), record);
        let mut bad = record.clone();
        bad.moves.push((false, "T19".into()));
        assert!(write(&bad).is_err());
    }

    #[test]
    fn bad_records_are_errors_not_panics() {
        for bad in [
            "",
            "(;SZ[9];B[zz])",
            "(;SZ[x])",
            "(;B[cc]",
            "(;B[cc",
            ";B[cc])",
            "(;AB[])",
            "(;B)",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert_eq!(vertex("cc", 15).unwrap().as_deref(), Some("C13"));
        // Nesting deeper than any call stack holds: an error or a record, never an overflow.
        let deep = 1_000_000;
        let open = "(".repeat(deep);
        assert!(parse(&open).is_err());
        let nested = format!("{open};B[cc]{}", ")".repeat(deep));
        assert_eq!(parse(&nested).unwrap().moves, vec![(true, "C17".into())]);
        assert_eq!(vertex("tt", 19).unwrap(), None);
    }
}
