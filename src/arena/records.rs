//! Game records for `gpn match --games-file`: PGN that cutechess-cli reads back for the games it
//! knows, JSON Lines for the others; one record appended per finished game.
//!
//! PGN movetext is in the game's own coordinate notation (the moves the engines exchanged, `e2e4`,
//! `P@d1`, `e4e5+`), not SAN: cutechess-cli's and python-chess's PGN readers accept it, and it is
//! exact for every game without a per-game SAN writer. The tags are those cutechess-cli writes
//! (the Seven Tag Roster, `Variant`, `PlyCount`, `TimeControl`, `Termination`), so its
//! `-openings file=... format=pgn` and GUIs that read cutechess PGN read these files.

use std::fmt::Write as _;
use std::io::{self, Write};

pub use super::lines::{result_for_first, LABELS};
use super::lines::{GameFields, GameLine, MatchFields};
use super::{Budget, GameRecord, MatchConfig, Termination};

/// How `--games-file` writes each game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    /// PGN, one game per record, a blank line between games.
    Pgn,
    /// JSON Lines: one self-contained JSON object per line.
    JsonLines,
}

impl RecordFormat {
    /// The format a game gets by default: PGN where cutechess-cli knows the game as a variant
    /// (so the file loads into it and the GUIs built on its notation), JSON Lines elsewhere.
    pub fn for_game(game: &str) -> RecordFormat {
        if cutechess_variant(game).is_some() {
            RecordFormat::Pgn
        } else {
            RecordFormat::JsonLines
        }
    }
}

/// cutechess-cli's name for a game it implements (its `-variant` and PGN `Variant` tag), for
/// the games whose notation is the one cutechess reads.
pub fn cutechess_variant(game: &str) -> Option<&'static str> {
    match game {
        "cfour" => Some("cfour"),
        "gomoku" => Some("gomoku"),
        "gomokufreestyle" => Some("gomokufreestyle"),
        "losalamos" => Some("losalamos"),
        "minishogi" => Some("minishogi"),
        _ => None,
    }
}

/// What every record of one match shares.
#[derive(Clone, Debug)]
pub struct MatchHeader<'a> {
    /// The game's registered name.
    pub game: &'a str,
    /// Agent A's and agent B's labels.
    pub names: (&'a str, &'a str),
    pub seed: u64,
    pub budget: Budget,
    /// The match's start date, `YYYY.MM.DD` as PGN writes it.
    pub date: String,
    /// The run this match belongs to (its id and settings), written on every record so that
    /// `gpn merge` can put shards together and refuse records of other runs.
    pub run: Option<RunTag<'a>>,
}

/// A run's id and the settings it hashes (see `shard::match_run_id`).
#[derive(Clone, Debug)]
pub struct RunTag<'a> {
    pub id: String,
    pub config: &'a MatchConfig,
}

/// Appends one game's record in `format`.
pub fn write_record<W: Write>(
    format: RecordFormat,
    header: &MatchHeader,
    g: &GameRecord,
    w: &mut W,
) -> io::Result<()> {
    match format {
        RecordFormat::Pgn => w.write_all(pgn(header, g).as_bytes()),
        RecordFormat::JsonLines => writeln!(w, "{}", json_line(header, g)?),
    }
}

/// The seated names: player 0's agent first.
fn players<'a>(header: &MatchHeader<'a>, g: &GameRecord) -> [&'a str; 2] {
    let (a, b) = header.names;
    if g.first_agent() == 0 {
        [a, b]
    } else {
        [b, a]
    }
}

/// A PGN tag value: backslashes and quotes escaped, line breaks flattened (PGN standard 8.1).
fn tag_value(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r', '\t'], " ")
}

/// The `{...}` comment that closes a game: why it ended, in words.
fn ending_comment(g: &GameRecord) -> String {
    match g.termination {
        Termination::Rules => "game over by the rules".to_string(),
        Termination::Repetition => "repetition rule".to_string(),
        Termination::LengthCap => "game-length cap reached, draw".to_string(),
        Termination::IllegalMove => {
            // The illegal move is not in the movetext (its notation is undefined); the side that
            // played it is the side to move after the legal plies.
            let offender = (g.plies as usize + g.first_agent()) % 2;
            format!("illegal move by {}", LABELS[offender])
        }
    }
}

/// One game as PGN, the blank line after it included. Movetext lines stay within 80 columns.
pub fn pgn(header: &MatchHeader, g: &GameRecord) -> String {
    let [white, black] = players(header, g);
    let result = result_for_first(&g.ranks);
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        // Writing to a String cannot fail.
        let _ = writeln!(out, "[{name} \"{}\"]", tag_value(value));
    };
    tag("Event", &format!("gpn match {}", header.game));
    tag("Site", "gpn");
    tag("Date", &header.date);
    tag("Round", &(g.index + 1).to_string());
    tag("White", white);
    tag("Black", black);
    tag("Result", result);
    tag("PlyCount", &g.plies.to_string());
    if let Budget::Time(d) = header.budget {
        tag("TimeControl", &format!("{}/move", d.as_secs_f64()));
    }
    tag("GpnBudget", &header.budget.to_string());
    tag("GpnSeed", &header.seed.to_string());
    tag("GpnOpeningPlies", &g.opening.len().to_string());
    if let Some(run) = &header.run {
        tag("GpnRun", &run.id);
    }
    match g.termination {
        Termination::LengthCap => tag("Termination", "adjudication"),
        Termination::IllegalMove => tag("Termination", "illegal move"),
        Termination::Rules | Termination::Repetition => {}
    }
    let variant = cutechess_variant(header.game).unwrap_or(header.game);
    tag("Variant", variant);
    out.push('\n');
    let legal = g.moves.iter().filter(|m| !m.starts_with("illegal:"));
    let mut tokens: Vec<String> = Vec::with_capacity(g.moves.len() * 3 / 2 + 2);
    for (ply, mv) in legal.enumerate() {
        if ply % 2 == 0 {
            tokens.push(format!("{}.", ply / 2 + 1));
        }
        tokens.push(mv.clone());
    }
    tokens.push(format!("{{{}}}", ending_comment(g)));
    tokens.push(result.to_string());
    let mut line_len = 0;
    for token in tokens {
        if line_len > 0 && line_len + 1 + token.len() > 80 {
            out.push('\n');
            line_len = 0;
        }
        if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        line_len += token.len();
        out.push_str(&token);
    }
    out.push_str("\n\n");
    out
}

/// One game as a JSON Lines record: the match's facts, the seated names, then the game's fields.
pub fn game_line(header: &MatchHeader, g: &GameRecord) -> GameLine {
    let [first, second] = players(header, g);
    GameLine {
        game: header.game.to_string(),
        engine_a: header.names.0.to_string(),
        engine_b: header.names.1.to_string(),
        seed: header.seed,
        budget: header.budget.to_string(),
        date: header.date.clone(),
        run: header.run.as_ref().map(|r| r.id.clone()),
        shard: header
            .run
            .as_ref()
            .map(|r| r.config.shard.map(|s| s.to_string())),
        settings: header.run.as_ref().map(|r| MatchFields::of(r.config)),
        players: [first.to_string(), second.to_string()],
        fields: GameFields::of(g),
    }
}

/// [`game_line`] as its line of text, without the line break.
pub fn json_line(header: &MatchHeader, g: &GameRecord) -> io::Result<String> {
    Ok(serde_json::to_string(&game_line(header, g))?)
}

/// Today's date (UTC) as PGN writes it, `YYYY.MM.DD`; `????.??.??` if the clock is before 1970.
pub fn pgn_date_today() -> String {
    match std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        Ok(d) => {
            let (y, m, day) = crate::calendar::civil_from_days((d.as_secs() / 86_400) as i64);
            format!("{y:04}.{m:02}.{day:02}")
        }
        Err(_) => "????.??.??".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::GameResult;
    use crate::game::{Outcome, Player};
    use std::time::Duration;

    fn record(index: u32, moves: &[&str], termination: Termination) -> GameRecord {
        GameRecord {
            index,
            seating: if index % 2 == 0 { 0b01 } else { 0b10 },
            opening: moves.iter().take(2).map(|m| m.to_string()).collect(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            // The second player won.
            ranks: vec![1, 0],
            scores: None,
            result: if index % 2 == 0 {
                GameResult::Loss
            } else {
                GameResult::Win
            },
            plies: moves.iter().filter(|m| !m.starts_with("illegal:")).count() as u32,
            termination,
            think_ms: [2.0, 4.0],
            think_moves: [1, 1],
        }
    }

    fn header(game: &str) -> MatchHeader<'_> {
        MatchHeader {
            game,
            names: ("gpn \"new\"", "sb-uct"),
            seed: 7,
            budget: Budget::Time(Duration::from_millis(100)),
            date: "2026.11.25".to_string(),
            run: None,
        }
    }

    #[test]
    fn the_default_format_is_pgn_only_where_cutechess_reads_the_game() {
        assert_eq!(RecordFormat::for_game("losalamos"), RecordFormat::Pgn);
        assert_eq!(RecordFormat::for_game("minishogi"), RecordFormat::Pgn);
        assert_eq!(RecordFormat::for_game("cfour"), RecordFormat::Pgn);
        assert_eq!(
            RecordFormat::for_game("breakthrough"),
            RecordFormat::JsonLines
        );
        assert_eq!(RecordFormat::for_game("awari"), RecordFormat::JsonLines);
    }

    #[test]
    fn pgn_has_cutechess_tags_numbered_moves_and_the_result() {
        let g = record(1, &["P@d1", "P@d2", "P@e1", "P@e2"], Termination::Rules);
        let text = pgn(&header("cfour"), &g);
        // Game 1 seats B first: B is White, and the second player won.
        assert!(text.starts_with("[Event \"gpn match cfour\"]\n[Site \"gpn\"]\n"));
        assert!(text.contains("[Date \"2026.11.25\"]\n[Round \"2\"]\n"));
        assert!(text.contains("[White \"sb-uct\"]\n[Black \"gpn \\\"new\\\"\"]\n"));
        assert!(text.contains("[Result \"0-1\"]\n[PlyCount \"4\"]\n"));
        assert!(text.contains("[TimeControl \"0.1/move\"]\n"));
        assert!(text.contains("[Variant \"cfour\"]\n\n"));
        assert!(!text.contains("[Termination"));
        assert!(text.ends_with("\n1. P@d1 P@d2 2. P@e1 P@e2 {game over by the rules} 0-1\n\n"));
    }

    #[test]
    fn pgn_movetext_wraps_at_80_columns_and_leaves_illegal_moves_out() {
        let mut moves: Vec<&str> = vec!["a2a3"; 61];
        moves.push("illegal:0x1234");
        let g = record(0, &moves, Termination::IllegalMove);
        let text = pgn(&header("losalamos"), &g);
        assert!(text.contains("[Termination \"illegal move\"]"));
        let movetext: Vec<&str> = text.split("\n\n").nth(1).unwrap().lines().collect();
        assert!(movetext.len() > 3);
        assert!(movetext.iter().all(|l| l.len() <= 80), "{movetext:?}");
        assert!(!text.contains("illegal:"));
        // 61 legal plies from A's first seat: B (player 1) was to move and played the illegal one.
        assert!(text.contains("{illegal move by B}"));
    }

    #[test]
    fn json_lines_are_one_object_per_line_with_the_seated_names() {
        let g = record(0, &["a2a3", "h7h6"], Termination::LengthCap);
        let mut out = Vec::new();
        write_record(
            RecordFormat::JsonLines,
            &header("breakthrough"),
            &g,
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 1);
        assert!(text.starts_with("{\"game\":\"breakthrough\",\"engine_a\":\"gpn \\\"new\\\"\""));
        assert!(text.contains("\"players\":[\"gpn \\\"new\\\"\",\"sb-uct\"],\"index\":0,"));
        assert!(text.contains("\"reason\":\"length-cap\""));
        assert!(text.trim_end().ends_with("\"moves\":[\"a2a3\",\"h7h6\"]}"));
    }

    #[test]
    fn todays_date_is_written_as_pgn_does() {
        let date = pgn_date_today();
        assert_eq!(date.len(), 10);
        assert_eq!((&date[4..5], &date[7..8]), (".", "."));
    }

    #[test]
    fn results_for_the_first_player() {
        let ranks = |o: Outcome| [o.rank(Player(0)), o.rank(Player(1))];
        assert_eq!(result_for_first(&ranks(Outcome::win(Player(0), 2))), "1-0");
        assert_eq!(result_for_first(&ranks(Outcome::win(Player(1), 2))), "0-1");
        assert_eq!(result_for_first(&ranks(Outcome::draw(2))), "1/2-1/2");
    }
}
