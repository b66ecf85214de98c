//! Match output: the progress line, the final text report, and the CSV and JSON files (the games
//! file is `records.rs`).
//!
//! The JSON report's types are `report_json`'s: infinite Elo figures are written as the strings
//! `"+inf"` / `"-inf"` (JSON has no infinity).

use std::io::{self, Write};

use crate::game::Player;

use super::records::LABELS;
use super::report_json::ReportJson;
use super::stats::{self, format_elo, Wdl};
use super::{GameRecord, MatchReport, SprtReport, Termination};

/// The stderr line for a finished game: index, seats, result, length, running statistics.
pub fn progress_line(
    game: &GameRecord,
    total: u32,
    running: &Wdl,
    sprt: Option<&SprtReport>,
) -> String {
    let seat = if game.a_seat() == Player(0) {
        "first"
    } else {
        "second"
    };
    let mut line = format!(
        "[{}/{}] game {} (A {}): A {}, {} plies ({}); W {} D {} L {}, score {:.3}, elo {}",
        running.games(),
        total,
        game.index,
        seat,
        game.result,
        game.plies,
        game.termination,
        running.wins,
        running.draws,
        running.losses,
        running.score(),
        format_elo(stats::elo_interval(running).value),
    );
    if let Some(s) = sprt {
        line += &format!(
            ", llr {:.2} [{:.2}, {:.2}]",
            s.status.llr, s.status.lower, s.status.upper
        );
    }
    line
}

fn wdl_text(wdl: &Wdl) -> String {
    format!(
        "W {} D {} L {}, score {:.4}",
        wdl.wins,
        wdl.draws,
        wdl.losses,
        wdl.score()
    )
}

/// The final human-readable report (for stdout). Line prefixes are stable: `match`, `games`,
/// `results`, `score`, `elo`, `A first`, `A second`, `first player`, `endings`, `plies`,
/// `think`, `sprt` (with an SPRT), `time`.
pub fn format_report(report: &MatchReport) -> String {
    let cfg = &report.config;
    let wdl = report.wdl();
    let score = stats::score_interval(&wdl);
    let elo = stats::elo_interval(&wdl);
    let mut out = String::new();
    out += &format!(
        "match {}: A = {}, B = {}\n",
        report.game, report.names.0, report.names.1
    );
    let resumed = if cfg.done.is_empty() {
        String::new()
    } else {
        format!(", {} more in the games file before", cfg.done.len())
    };
    let shard = match cfg.shard {
        Some(shard) => format!(" (shard {shard} of {}{resumed})", cfg.games),
        None => String::new(),
    };
    out += &format!(
        "games {} of {}{shard}, budget {}{}, opening {} plies, max plies {}, seed {}, concurrency {}\n",
        report.games.len(),
        cfg.planned_games(),
        cfg.budget,
        if cfg.odds > 1 {
            format!(" (A: {})", cfg.budget.times(cfg.odds))
        } else {
            String::new()
        },
        cfg.opening_plies,
        cfg.max_plies,
        cfg.seed,
        cfg.concurrency
    );
    out += &format!(
        "results (A's view): W {} D {} L {}\n",
        wdl.wins, wdl.draws, wdl.losses
    );
    out += &format!(
        "score {:.4} [{:.4}, {:.4}] (95%)\n",
        score.value, score.low, score.high
    );
    out += &format!(
        "elo {} [{}, {}] (95%), +/- {}\n",
        format_elo(elo.value),
        format_elo(elo.low),
        format_elo(elo.high),
        margin_text(&wdl)
    );
    out += &format!("A first:  {}\n", wdl_text(&report.wdl_in_seat(Player(0))));
    out += &format!("A second: {}\n", wdl_text(&report.wdl_in_seat(Player(1))));
    out += &format!("first player: {}\n", wdl_text(&report.wdl_first_player()));
    let penta = report.pentanomial();
    let [p0, p1, p2, p3, p4] = penta.counts;
    out += &format!(
        "pentanomial (pair scores 0, 0.5, 1, 1.5, 2 for A): [{p0}, {p1}, {p2}, {p3}, {p4}], {} pairs, {} unpaired games\n",
        penta.pairs(),
        penta.unpaired
    );
    let illegal_by = |agent: usize| {
        report
            .games
            .iter()
            .filter(|g| {
                g.termination == Termination::IllegalMove
                    && (g.result == super::GameResult::Loss) == (agent == 0)
            })
            .count()
    };
    out += &format!(
        "endings: rules {}, repetition {}, length-cap {}, illegal-move {} (by A {}, by B {})\n",
        report.count(Termination::Rules),
        report.count(Termination::Repetition),
        report.count(Termination::LengthCap),
        report.count(Termination::IllegalMove),
        illegal_by(0),
        illegal_by(1)
    );
    let plies: Vec<u32> = report.games.iter().map(|g| g.plies).collect();
    if plies.is_empty() {
        out += "plies: no games\n";
    } else {
        let mean = plies.iter().map(|&p| p as f64).sum::<f64>() / plies.len() as f64;
        out += &format!(
            "plies: mean {:.1}, min {}, max {}\n",
            mean,
            plies.iter().min().copied().unwrap_or(0),
            plies.iter().max().copied().unwrap_or(0)
        );
    }
    let (ta, na) = report.mean_think_ms(0);
    let (tb, nb) = report.mean_think_ms(1);
    out += &format!("think: A {ta:.3} ms/move ({na} moves), B {tb:.3} ms/move ({nb} moves)\n");
    if let Some(s) = &report.sprt {
        let c = &s.config;
        let decided = match s.decided {
            Some((d, n)) => format!("{} after {} games", d.as_str(), n),
            // A merge of shards has no order of games, only the totals.
            None => match s.status.decision {
                super::SprtDecision::Continue => "no decision".to_string(),
                d => format!("{} on the totals", d.as_str()),
            },
        };
        out += &format!(
            "sprt: elo0 {} elo1 {} alpha {} beta {} (logistic GSPRT): llr {:.3} [{:.3}, {:.3}], {}\n",
            c.elo0, c.elo1, c.alpha, c.beta, s.status.llr, s.status.lower, s.status.upper, decided
        );
    }
    if report.interrupted {
        out += &format!(
            "interrupted: {} finished games kept, games in progress abandoned\n",
            report.games.len()
        );
    }
    out += &format!("time {:.2} s\n", report.seconds);
    out
}

fn margin_text(wdl: &Wdl) -> String {
    let m = stats::elo_margin(wdl);
    if m.is_finite() {
        format!("{m:.1}")
    } else {
        "inf".to_string()
    }
}

/// A CSV field, quoted when it holds a comma, quote or line break (RFC 4180).
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One CSV row per game: `game,pair,player0,opening,result_a,plies,reason,think_ms_a,think_ms_b`
/// (player0 is `A` or `B`; the opening's moves are space-separated; think times are the mean
/// wall-clock milliseconds per move of each agent).
pub fn write_csv<W: Write>(report: &MatchReport, w: &mut W) -> io::Result<()> {
    write_csv_header(w)?;
    for g in &report.games {
        write_csv_row(g, w)?;
    }
    Ok(())
}

/// The CSV header line.
pub fn write_csv_header<W: Write>(w: &mut W) -> io::Result<()> {
    writeln!(
        w,
        "game,pair,player0,opening,result_a,plies,reason,think_ms_a,think_ms_b"
    )
}

/// One game's CSV row.
pub fn write_csv_row<W: Write>(g: &GameRecord, w: &mut W) -> io::Result<()> {
    writeln!(
        w,
        "{},{},{},{},{},{},{},{:.4},{:.4}",
        g.index,
        g.pair(),
        LABELS[g.first_agent()],
        csv_field(&g.opening.join(" ")),
        g.result,
        g.plies,
        g.termination,
        g.mean_think_ms(0),
        g.mean_think_ms(1)
    )
}

/// The summary and every game as one JSON object (docs/commands.md lists the fields).
pub fn write_json<W: Write>(report: &MatchReport, w: &mut W) -> io::Result<()> {
    ReportJson::of(report).write(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_are_quoted_when_needed() {
        assert_eq!(csv_field("a2a3 b7b6"), "a2a3 b7b6");
        assert_eq!(csv_field("4,4"), "\"4,4\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }
}
