//! GTP's Go commands, as Go GUIs (GoGui, Sabaki), GNU Go and KGS use them: SGF files
//! (`loadsgf`, `printsgf`), handicap stones (`fixed_handicap`, `place_free_handicap`,
//! `set_free_handicap`), `kgs-genmove_cleanup`'s choice of moves, and GoGui's analyze commands.
//! Like the rest of the protocol, they go through the [`Session`] only.

use super::{board_size, family_of, Controller};
use crate::engine::Session;
use crate::game::registry::GAMES;
use crate::game::{gogui_rows, sgf, Dialect};

use crate::game::sgf::GTP_COLUMNS as COLUMNS;

/// GoGui's analyze commands (`type/label/command`): only commands gpn answers, with the answer
/// each type wants (a `plist` is a list of points; `gfx` is GoGui's drawing language).
pub(super) const ANALYZE_COMMANDS: &[&str] = &[
    "string/ShowBoard/showboard",
    "string/Legal Moves/gpn-legal_moves",
    "string/Final Score/final_score",
    "plist/Dead Stones/final_status_list dead",
    "gfx/Dead Stones (marked)/gpn-gfx_dead_stones",
    "string/Print SGF/printsgf",
];

/// The board size of a Go or Killall-Go session; `None` for the other games.
fn go_size(s: &dyn Session) -> Option<usize> {
    let info = s.game();
    matches!(family_of(info.name), "go" | "killallgo")
        .then(|| board_size(info.board))
        .flatten()
        .map(|n| n as usize)
}

/// The stones of a Go position string (rows from the top, `X` Black, `O` White, digits or dots
/// for empty points): `(vertex, colour)` with colour 0 for Black.
fn stones(position: &str, size: usize) -> Vec<(String, usize)> {
    let board = position.split_whitespace().next().unwrap_or("");
    let mut out = Vec::new();
    for (i, row) in board.split('/').enumerate() {
        let rank = size.saturating_sub(i);
        let (mut col, mut run) = (0, 0);
        for ch in row.chars() {
            // Runs of empty points can have two digits (`19`).
            if let Some(d) = ch.to_digit(10) {
                run = run * 10 + d as usize;
                continue;
            }
            col += run;
            run = 0;
            let colour = match ch {
                'X' => Some(0),
                'O' => Some(1),
                _ => None,
            };
            if let (Some(c), Some(&letter)) = (colour, COLUMNS.get(col)) {
                out.push((format!("{}{rank}", letter as char), c));
            }
            col += 1;
        }
    }
    out
}

/// The komi of a Go position string (`... komi 6.5 ...`); `None` in Killall-Go.
fn komi_of(position: &str) -> Option<f32> {
    let mut fields = position.split_whitespace();
    fields.find(|f| *f == "komi")?;
    fields.next()?.parse().ok()
}

/// The most fixed handicap stones GTP (section 4.1.1) places on a `size` board: none below
/// 7x7, four on 7x7 and even sizes (they have no centre point), nine otherwise.
fn max_fixed_handicap(size: usize) -> usize {
    match size {
        0..=6 => 0,
        7 => 4,
        s if s % 2 == 0 => 4,
        _ => 9,
    }
}

/// GTP's fixed handicap points (section 4.1.1) of `n` stones on a `size` board: the corner star
/// points first, then the sides, the centre point for odd `n`; `None` where GTP has none.
fn handicap_points(size: usize, n: usize) -> Option<Vec<String>> {
    if !(2..=max_fixed_handicap(size)).contains(&n) {
        return None;
    }
    // The star points' lines: the third from the edge, the fourth from 13x13 on.
    let near = if size >= 13 { 3 } else { 2 };
    let lines = [near, size / 2, size - 1 - near];
    // (column, row) as indices into `lines`, in GTP's order.
    const ORDER: [(usize, usize); 8] = [
        (0, 0),
        (2, 2),
        (0, 2),
        (2, 0),
        (0, 1),
        (2, 1),
        (1, 0),
        (1, 2),
    ];
    let centre = n >= 5 && n % 2 == 1;
    let corners_and_sides = if centre { n - 1 } else { n };
    let mut points: Vec<(usize, usize)> = ORDER[..corners_and_sides].to_vec();
    if centre {
        points.push((1, 1));
    }
    Some(
        points
            .into_iter()
            .map(|(c, r)| format!("{}{}", COLUMNS[lines[c]] as char, lines[r] + 1))
            .collect(),
    )
}

/// `kgs-genmove_cleanup`'s root moves: every legal move but the pass while some stone of the
/// opponent (of the side to move) is judged dead, so that they are captured before the game
/// ends; empty (all moves) otherwise, or when the pass is the only move.
pub(super) fn cleanup_moves(s: &dyn Session) -> Vec<String> {
    let (Some(size), Some(dead)) = (
        go_size(s),
        s.territory().and_then(|t| t.status_list("dead")),
    ) else {
        return Vec::new();
    };
    let opponent = 1 - s.side_to_move();
    let position = s.position_text(Dialect::Gtp);
    let theirs_dead = stones(&position, size)
        .iter()
        .any(|(v, c)| *c == opponent && dead.contains(v));
    if !theirs_dead {
        return Vec::new();
    }
    s.legal_moves(Dialect::Gtp)
        .into_iter()
        .filter(|m| !m.eq_ignore_ascii_case("pass"))
        .collect()
}

/// Plays the main line of `record` on `s`, up to before move `until` (numbered from 1 after the
/// setup stones); a move of the side not to move is preceded by a pass, as setup stones are.
fn replay(
    s: &mut dyn Session,
    record: &sgf::SgfRecord,
    until: Option<usize>,
) -> Result<(), String> {
    let count = until.map_or(record.moves.len(), |n| record.setup + n - 1);
    for (i, (black, vertex)) in record.moves.iter().take(count).enumerate() {
        let bad = |e: String| format!("cannot load file: move {} ({vertex}): {e}", i + 1);
        if s.side_to_move() != usize::from(!black) {
            s.play("pass", Dialect::Gtp)
                .map_err(|e| bad(e.to_string()))?;
        }
        s.play(vertex, Dialect::Gtp)
            .map_err(|e| bad(e.to_string()))?;
    }
    Ok(())
}

/// `black` or `white`, as GNU Go and GoGui write colours.
pub(super) fn colour_name(player: usize) -> String {
    if player == 0 { "black" } else { "white" }.to_string()
}

/// The row (0 at the top) and column of GTP vertex `v` on a `size` board.
fn grid_point(v: &str, size: usize) -> Option<(usize, usize)> {
    let v = v.to_ascii_uppercase();
    let mut chars = v.chars();
    let letter = chars.next()?;
    let col = COLUMNS.iter().position(|&c| c as char == letter)?;
    let rank: usize = chars.as_str().parse().ok()?;
    // Lazily: `size - rank` overflows for a rank above the board.
    (col < size && (1..=size).contains(&rank)).then(|| (size - rank, col))
}

/// GoGui's setup (`gogui-setup b A1 w B2 e C3 ...`, `gogui-setup_player w`) applied to Go
/// position string `position`: its stones with the listed points changed, `side` to move
/// (`None`: as it was), komi, superko rule and prisoners kept; the ko point, passes and a
/// Killall-Go opening dropped (a set-up position is a problem, the opening done).
fn setup_position(
    position: &str,
    size: usize,
    points: &[(usize, &str)],
    side: Option<usize>,
) -> Result<String, String> {
    let mut fields = position.split_whitespace();
    let mut rows: Vec<Vec<char>> = gogui_rows(fields.next().unwrap_or(""), ['X', 'O'], false)
        .iter()
        .map(|r| r.chars().collect())
        .collect();
    if rows.len() != size || rows.iter().any(|r| r.len() != size) {
        return Err("cannot read the board".to_string());
    }
    for &(colour, vertex) in points {
        let (row, col) =
            grid_point(vertex, size).ok_or_else(|| format!("bad vertex '{vertex}'"))?;
        rows[row][col] = ['X', 'O', '.'][colour];
    }
    let board: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    let old_side = fields.next().unwrap_or("b");
    let mut out = format!(
        "{} {}",
        board.join("/"),
        side.map_or(old_side, |c| ["b", "w"][c])
    );
    let rest: Vec<&str> = fields.collect();
    let mut i = 0;
    while i < rest.len() {
        let (width, keep) = match rest[i] {
            "komi" | "superko" => (2, true),
            "captures" => (3, true),
            _ => (2, false),
        };
        let field = &rest[i..(i + width).min(rest.len())];
        if keep {
            out += " ";
            out += &field.join(" ");
        }
        i += width;
    }
    Ok(out)
}

impl Controller {
    /// `gogui-setup b|w|e V ...` (GoGui's setup stones, `e` an empty point) and
    /// `gogui-setup_player b|w`: Go and Killall-Go only. The result, checked as any position
    /// string is (a chain without liberties is refused), becomes the game's new start
    /// position: `undo` cannot go back past it. Any failure keeps the game as it was.
    pub(super) fn gogui_setup(
        &mut self,
        args: &[&str],
        player_only: bool,
    ) -> Result<String, String> {
        let s = self.conductor.session().ok_or("engine busy")?;
        let size = go_size(s.as_ref()).ok_or("setup stones are for Go")?;
        let (points, side) = if player_only {
            let c = match args {
                [c] => super::colour(c).ok_or("syntax error")?,
                _ => return Err("syntax error".to_string()),
            };
            (Vec::new(), Some(c))
        } else {
            if args.is_empty() || args.len() % 2 != 0 {
                return Err("syntax error".to_string());
            }
            let mut points = Vec::new();
            for pair in args.chunks(2) {
                let colour = match pair[0].to_ascii_lowercase().as_str() {
                    "b" | "black" => 0,
                    "w" | "white" => 1,
                    "e" | "empty" => 2,
                    _ => return Err("syntax error".to_string()),
                };
                points.push((colour, pair[1]));
            }
            (points, None)
        };
        let text = setup_position(&s.position_text(Dialect::Gtp), size, &points, side)?;
        s.set_position(Some(&text), &[], Dialect::Gtp)
            .map_err(|e| format!("illegal setup: {e}"))?;
        Ok(String::new())
    }

    /// `loadsgf FILE [MOVE_NUMBER]`: the Go game of the file's size (the current Killall-Go when
    /// the size is its own), its komi, its main line up to before MOVE_NUMBER; answers the
    /// colour to move. Any failure keeps the game as it was.
    pub(super) fn loadsgf(&mut self, args: &[&str]) -> Result<String, String> {
        let path = args.first().ok_or("syntax error")?;
        let until = match args.get(1) {
            None => None,
            Some(n) => Some(
                n.parse::<usize>()
                    .ok()
                    .filter(|&n| n >= 1)
                    .ok_or("syntax error")?,
            ),
        };
        let text = crate::files::read_text(std::path::Path::new(path), crate::files::TEXT_LIMIT)
            .map_err(|e| match e.kind() {
                // What files.rs refused (not a regular file, too big, not UTF-8) says why; a
                // file that cannot be opened gets GTP's plain answer.
                std::io::ErrorKind::InvalidInput | std::io::ErrorKind::InvalidData => {
                    format!("cannot load file: {e}")
                }
                _ => "cannot load file".to_string(),
            })?;
        let record = sgf::parse(&text).map_err(|e| format!("cannot load file: {e}"))?;
        if record
            .komi
            .is_some_and(|k| !k.is_finite() || k.abs() > 1000.0)
        {
            return Err("cannot load file: KM is out of range".to_string());
        }
        let game = self.sgf_game(record.size)?;
        let (mut session, params) = self.fresh_session(game)?;
        // The file's komi becomes the controller's (GTP's komi outlives the board), but only
        // once the whole file has loaded.
        let komi = record.komi.or(self.komi);
        let komi_taken =
            komi.is_some_and(|k| session.territory_mut().is_some_and(|t| t.set_komi(k)));
        replay(session.as_mut(), &record, until)?;
        let to_move = colour_name(session.side_to_move());
        self.install(session, params);
        if komi_taken && record.komi.is_some() {
            self.komi = record.komi;
        }
        Ok(to_move)
    }

    /// The game an SGF record of `size` is loaded into: the current Killall-Go game when it has
    /// that size (SGF says GM[1] for both), else the Go game of that size.
    fn sgf_game(&mut self, size: usize) -> Result<&'static str, String> {
        let fits = |board: &str| board_size(board) == Some(size as u32);
        let current = self.conductor.session().map(|s| s.game());
        if let Some(g) = current.filter(|g| family_of(g.name) == "killallgo" && fits(g.board)) {
            return Ok(g.name);
        }
        GAMES
            .iter()
            .find(|g| family_of(g.name) == "go" && fits(g.board))
            .map(|g| g.name)
            .ok_or_else(|| format!("cannot load file: board size {size} is not supported"))
    }

    /// `printsgf [FILE]`: the game from its start as SGF (size, komi, every move, passes as
    /// `[]`), in the answer or written to FILE.
    pub(super) fn printsgf(&mut self, args: &[&str]) -> Result<String, String> {
        let s = self.conductor.session().ok_or("engine busy")?;
        let size = go_size(s.as_ref()).ok_or("printsgf is for Go")?;
        // Moves alternate from Black's first (a pass is a move), so the colours follow.
        let record = sgf::SgfRecord {
            size,
            komi: komi_of(&s.position_text(Dialect::Gtp)),
            moves: s
                .history(Dialect::Gtp)
                .into_iter()
                .enumerate()
                .map(|(i, m)| (i % 2 == 0, m))
                .collect(),
            setup: 0,
        };
        let text = sgf::write(&record).map_err(|e| e.to_string())?;
        match args.first() {
            None => Ok(text),
            Some(path) => std::fs::write(path, text + "\n")
                .map(|_| String::new())
                .map_err(|_| "cannot write file".to_string()),
        }
    }

    /// `fixed_handicap N`: GTP's fixed points for N stones, on an empty board; answers them.
    pub(super) fn fixed_handicap(&mut self, args: &[&str]) -> Result<String, String> {
        let size = self.handicap_size()?;
        let n = stone_count(args)?;
        let points = handicap_points(size, n).ok_or("invalid number of stones")?;
        self.place_handicap(&points)
            .map_err(|e| format!("cannot place handicap: {e}"))
    }

    /// `place_free_handicap N`: gpn places the fixed points, as many of N as the board has.
    pub(super) fn place_free_handicap(&mut self, args: &[&str]) -> Result<String, String> {
        let size = self.handicap_size()?;
        let n = stone_count(args)?;
        let points = handicap_points(size, n.min(max_fixed_handicap(size)))
            .filter(|_| n >= 2)
            .ok_or("invalid number of stones")?;
        self.place_handicap(&points)
            .map_err(|e| format!("cannot place handicap: {e}"))
    }

    /// `set_free_handicap V1 V2 ...`: the controller's handicap points, on an empty board.
    pub(super) fn set_free_handicap(&mut self, args: &[&str]) -> Result<String, String> {
        let size = self.handicap_size()?;
        if args.len() < 2
            || args.len() >= size * size
            || args.iter().any(|v| v.eq_ignore_ascii_case("pass"))
        {
            return Err("bad vertex list".to_string());
        }
        let points: Vec<String> = args.iter().map(|v| v.to_string()).collect();
        self.place_handicap(&points)
            .map(|_| String::new())
            .map_err(|e| format!("bad vertex list: {e}"))
    }

    /// The board size of the Go game being played, which must have an empty board.
    fn handicap_size(&mut self) -> Result<usize, String> {
        let s = self.conductor.session().ok_or("engine busy")?;
        let size = go_size(s.as_ref()).ok_or("handicap stones are for Go")?;
        if !stones(&s.position_text(Dialect::Gtp), size).is_empty() {
            return Err("board not empty".to_string());
        }
        Ok(size)
    }

    /// Plays `points` as Black's moves (White's passes in between, as `play` inserts them), so
    /// that White moves next; answers them. A stone that cannot be played takes them all back.
    fn place_handicap(&mut self, points: &[String]) -> Result<String, String> {
        let before = self.conductor.session().ok_or("engine busy")?.plies();
        for v in points {
            if let Err(e) = self.play(&["b", v.as_str()]) {
                self.session_do(|s| while s.plies() > before && s.undo() {});
                return Err(e);
            }
        }
        Ok(points.join(" "))
    }

    /// `gpn-gfx_dead_stones`: GoGui's `MARK` of the stones judged dead (`final_status_list dead`).
    pub(super) fn gfx_dead_stones(&mut self) -> Result<String, String> {
        let s = self.conductor.session().ok_or("engine busy")?;
        let dead = s
            .territory()
            .and_then(|t| t.status_list("dead"))
            .ok_or("this game has no life and death")?;
        Ok(if dead.is_empty() {
            String::new()
        } else {
            format!("MARK {}", dead.join(" "))
        })
    }
}

/// The stone count of a handicap command (its first argument).
fn stone_count(args: &[&str]) -> Result<usize, String> {
    args.first()
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| "syntax error".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::session_after as session;

    #[test]
    fn fixed_handicap_points_follow_the_gtp_spec() {
        let p = |size, n| handicap_points(size, n).map(|v| v.join(" "));
        assert_eq!(p(19, 2).as_deref(), Some("D4 Q16"));
        assert_eq!(p(19, 3).as_deref(), Some("D4 Q16 D16"));
        assert_eq!(p(19, 5).as_deref(), Some("D4 Q16 D16 Q4 K10"));
        assert_eq!(p(19, 6).as_deref(), Some("D4 Q16 D16 Q4 D10 Q10"));
        assert_eq!(
            p(19, 9).as_deref(),
            Some("D4 Q16 D16 Q4 D10 Q10 K4 K16 K10")
        );
        assert_eq!(p(13, 4).as_deref(), Some("D4 K10 D10 K4"));
        assert_eq!(p(13, 7).as_deref(), Some("D4 K10 D10 K4 D7 K7 G7"));
        assert_eq!(p(9, 4).as_deref(), Some("C3 G7 C7 G3"));
        assert_eq!(p(9, 8).as_deref(), Some("C3 G7 C7 G3 C5 G5 E3 E7"));
        assert_eq!(p(7, 4).as_deref(), Some("C3 E5 C5 E3"));
        for (size, n) in [(19, 1), (19, 10), (9, 0), (7, 5), (5, 2)] {
            assert_eq!(p(size, n), None, "{size} {n}");
        }
    }

    #[test]
    fn stones_and_komi_are_read_from_the_position_string() {
        let s = session("go19", &["A19", "T1", "K10"]);
        let text = s.position_text(Dialect::Gtp);
        let mut found = stones(&text, 19);
        found.sort();
        assert_eq!(
            found,
            [
                ("A19".to_string(), 0),
                ("K10".to_string(), 0),
                ("T1".to_string(), 1)
            ]
        );
        assert_eq!(komi_of(&text), Some(7.5));
        let kag = session("killallgo", &[]);
        assert_eq!(komi_of(&kag.position_text(Dialect::Gtp)), None);
        assert_eq!(go_size(kag.as_ref()), Some(9));
        assert_eq!(go_size(session("gomoku", &[]).as_ref()), None);
    }

    #[test]
    fn cleanup_forbids_the_pass_only_while_the_opponent_has_dead_stones() {
        // A lone white stone behind Black's wall on 5x5 is dead; Black to move may not pass.
        let black_wall = [
            "D1", "pass", "D2", "pass", "D3", "pass", "D4", "pass", "D5", "E5",
        ];
        let s = session("go5", &black_wall);
        assert_eq!(s.side_to_move(), 0);
        let dead = s.territory().and_then(|t| t.status_list("dead")).unwrap();
        assert!(dead.contains(&"E5".to_string()));
        let moves = cleanup_moves(s.as_ref());
        assert!(
            !moves.is_empty() && !moves.iter().any(|m| m == "pass"),
            "{moves:?}"
        );
        // White to move: the dead stone is its own, all moves stay.
        let s = session("go5", &[&black_wall[..], &["A1"]].concat());
        assert_eq!(s.side_to_move(), 1);
        assert!(cleanup_moves(s.as_ref()).is_empty());
        assert!(cleanup_moves(session("othello", &[]).as_ref()).is_empty());
    }

    #[test]
    fn replay_stops_before_the_move_number_and_inserts_passes() {
        let record = sgf::parse("(;SZ[9]AB[cc][gg];W[ee];B[dd];W[ff])").unwrap();
        let mut s = session("go", &[]);
        replay(s.as_mut(), &record, Some(2)).unwrap();
        // C7, pass, G3, E5: before move 2 (B D6).
        assert_eq!(s.history(Dialect::Gtp), ["C7", "pass", "G3", "E5"]);
        let mut s = session("go", &[]);
        replay(s.as_mut(), &record, None).unwrap();
        assert_eq!(s.plies(), 6);
        let bad = sgf::parse("(;SZ[9];B[ee];W[ee])").unwrap();
        let e = replay(session("go", &[]).as_mut(), &bad, None).unwrap_err();
        assert!(e.starts_with("cannot load file: move 2 (E5)"), "{e}");
    }

    #[test]
    fn analyze_commands_name_only_known_commands() {
        for entry in ANALYZE_COMMANDS {
            let command = entry.rsplit('/').next().unwrap_or("");
            let name = command.split_whitespace().next().unwrap_or("");
            assert!(super::super::COMMANDS.contains(&name), "{entry}");
        }
    }
}
