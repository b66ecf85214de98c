//! The report of a match at a table of more than two seats, over the arena's common
//! [`GameRecord`]s: results per game, per seat and per number of seats held, and the games
//! file's line for such a table.
//!
//! With `P` seats and two agents there are `2^P - 2` seatings in which both agents play (agent A
//! in a non-empty proper subset of the seats, B in the others): 6 for three players, 14 for
//! four. Game `g` is seating `g % S` of group `g / S` (`S` seatings); every game of a group
//! starts from the group's opening, so each agent meets the same positions from every seat, as in
//! Nijssen & Winands' multi-player MCTS experiments.
//!
//! A game counts for A as a win when A alone holds first place (in any of its seats), a loss when
//! B alone does, and a draw when they share it (or the game is drawn): with both agents equal
//! the expected score is 1/2, whatever the number of seats. Per seat the report gives the share
//! of first place each agent took from it (1/k for a first place shared by k seats) and its
//! mean points where the game counts them ([`crate::game::Territory::player_scores`]).

use std::fmt::Write as _;
use std::io;

use serde::Deserialize;

use super::lines::SeatLine;
use super::report_json::SeatsJson;
use super::stats::{score_interval, Interval, Mean};
use super::{seating_text, seatings, GameRecord, MatchReport, Termination, Wdl};

/// The stderr line for a finished game of a larger table: index, seating, ending, result and
/// this run's totals.
pub fn progress_line(record: &GameRecord, wdl: &Wdl) -> String {
    format!(
        "game {} ({}) {}: A {} | this run W {} D {} L {} score {:.3}",
        record.index + 1,
        seating_text(record.seating, record.seats()),
        record.termination,
        record.result,
        wdl.wins,
        wdl.draws,
        wdl.losses,
        wdl.score()
    )
}

/// A game as one JSON line of a larger table's games file (`run` ties it to its match for
/// `--resume`).
pub fn json_line(g: &GameRecord, run: &str) -> io::Result<String> {
    Ok(serde_json::to_string(&SeatLine::of(g, run))?)
}

/// Reads a line written by [`json_line`]: `Ok(None)` for a line of another run, an error for
/// a line that is not such a record.
pub fn read_json_line(line: &str, run: &str) -> Result<Option<GameRecord>, String> {
    let value: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
    if value.get("run").and_then(|r| r.as_str()) != Some(run) {
        return Ok(None);
    }
    let parsed = SeatLine::deserialize(&value).map_err(|e| e.to_string())?;
    parsed.record().map(Some)
}

/// The N-seat statistics of a match (they hold for two seats too, where the two-seat report of
/// `output` says more).
impl MatchReport {
    /// Results from A's point of view in the games where A held `k` seats.
    pub fn wdl_holding(&self, k: u32) -> Wdl {
        Wdl::from_results(
            self.games
                .iter()
                .filter(|g| g.a_seats() == k)
                .map(|g| g.result),
        )
    }

    /// The share of first place `agent` took from `seat`, over the games it sat there.
    pub fn seat_share(&self, agent: usize, seat: usize) -> Mean {
        Mean::of(
            self.games
                .iter()
                .filter(|g| g.agent_in(seat) == agent)
                .map(|g| g.first_share(seat)),
        )
    }

    /// The mean points of `agent` in `seat`, where the game counts points.
    pub fn seat_points(&self, agent: usize, seat: usize) -> Mean {
        Mean::of(
            self.games
                .iter()
                .filter(|g| g.agent_in(seat) == agent)
                .filter_map(|g| g.scores.as_ref().map(|s| s[seat] as f64)),
        )
    }

    /// The share of first place `agent` took per seat it held, over every seat and game (1/P
    /// when both agents are equal).
    pub fn first_share(&self, agent: usize) -> Mean {
        let players = self.players();
        Mean::of(self.games.iter().flat_map(|g| {
            (0..players)
                .filter(move |&s| g.agent_in(s) == agent)
                .map(move |s| g.first_share(s))
        }))
    }

    /// The text report of a larger table (for stdout).
    pub fn format_seats(&self) -> String {
        let players = self.players();
        let groups = seatings(players).len();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Match: {}, {} players, {} games ({} seatings per opening), {}{}",
            self.game,
            players,
            self.games.len(),
            groups,
            self.config.budget,
            if self.config.odds > 1 {
                format!(", engine 1 at {}x", self.config.odds)
            } else {
                String::new()
            }
        );
        let _ = writeln!(out, "  A: {}", self.names.0);
        let _ = writeln!(out, "  B: {}", self.names.1);
        if self.interrupted {
            let _ = writeln!(out, "Interrupted: the finished games only.");
        }
        let wdl = self.wdl();
        let _ = writeln!(
            out,
            "First place, A vs B: W {} D {} L {}, score {}",
            wdl.wins,
            wdl.draws,
            wdl.losses,
            format_interval(&score_interval(&wdl))
        );
        for k in 1..players as u32 {
            let w = self.wdl_holding(k);
            let _ = writeln!(
                out,
                "  A in {k} of {players} seats: W {} D {} L {}, score {}",
                w.wins,
                w.draws,
                w.losses,
                format_interval(&score_interval(&w))
            );
        }
        for (agent, name) in [(0, "A"), (1, "B")] {
            let _ = writeln!(
                out,
                "  {name}'s share of first place per seat held: {} (1/{players} when even)",
                format_mean(&self.first_share(agent), 3)
            );
        }
        let points = self.games.iter().any(|g| g.scores.is_some());
        let _ = writeln!(
            out,
            "Per seat (share of first place, mean points; 95% intervals):"
        );
        for (seat, colour) in self.seat_names.iter().enumerate() {
            let mut line = format!("  {}. {colour:<7}", seat + 1);
            for (agent, name) in [(0, "A"), (1, "B")] {
                let share = self.seat_share(agent, seat);
                let _ = write!(
                    line,
                    "  {name} {} in {:>4}",
                    format_mean(&share, 3),
                    share.n
                );
                if points {
                    let _ = write!(line, ", {}", format_mean(&self.seat_points(agent, seat), 1));
                }
            }
            let _ = writeln!(out, "{line}");
        }
        let ended: Vec<String> = Termination::ALL
            .iter()
            .map(|&t| (t, self.games.iter().filter(|g| g.termination == t).count()))
            .filter(|&(_, n)| n > 0)
            .map(|(t, n)| format!("{t} {n}"))
            .collect();
        let _ = writeln!(out, "Ended: {}", ended.join(", "));
        let plies = Mean::of(self.games.iter().map(|g| g.plies as f64));
        let (ta, na) = self.mean_think_ms(0);
        let (tb, nb) = self.mean_think_ms(1);
        let _ = writeln!(
            out,
            "Plies per game: {:.1}; think: A {ta:.2} ms/move ({na} moves), B {tb:.2} ms/move \
             ({nb} moves); {:.1} s",
            plies.mean, self.seconds
        );
        out
    }

    /// The summary of a larger table as JSON, one line (the games themselves go to the games
    /// file).
    pub fn seats_json(&self) -> io::Result<String> {
        Ok(serde_json::to_string(&SeatsJson::of(self))? + "\n")
    }
}

fn format_interval(i: &Interval) -> String {
    format!("{:.3} [{:.3}, {:.3}]", i.value, i.low, i.high)
}

fn format_mean(m: &Mean, digits: usize) -> String {
    if m.n == 0 {
        return "-".into();
    }
    format!("{:.*} ± {:.*}", digits, m.mean, digits, m.margin)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::agents::{FirstMoveAgent, RandomAgent};
    use crate::arena::{run_match, run_match_with, AgentFactory, GameResult, MatchConfig};
    use crate::game::rolit::Rolit;

    type Small = Rolit<4, 3>;

    fn config(games: u32) -> MatchConfig {
        MatchConfig {
            games,
            progress: false,
            ..MatchConfig::for_game::<Small>()
        }
    }

    #[test]
    fn seatings_put_both_agents_at_the_table() {
        assert_eq!(seatings(3), vec![1, 2, 3, 4, 5, 6]);
        assert_eq!(seatings(4).len(), 14);
        assert_eq!(seating_text(0b001, 3), "ABB");
        assert_eq!(seating_text(0b110, 3), "BAA");
        for s in seatings(4) {
            assert!(s != 0 && s != 0b1111);
        }
    }

    #[test]
    fn a_match_plays_every_seating_per_opening_and_scores_first_places() {
        let random: &AgentFactory<Small> = &|seed| Box::new(RandomAgent::new(seed));
        let first: &AgentFactory<Small> = &|_| Box::new(FirstMoveAgent::new());
        let mut seen = Vec::new();
        let cfg = MatchConfig {
            opening_plies: 2,
            concurrency: 2,
            ..config(12)
        };
        let report = run_match_with(&cfg, random, first, ("r", "f"), &mut |g, _| {
            seen.push(g.index)
        });
        assert_eq!(report.games.len(), 12);
        assert_eq!(seen.len(), 12);
        for g in &report.games {
            assert_eq!(g.seating, seatings(3)[g.index as usize % 6]);
            // The group's opening is shared by its six games.
            let lead = &report.games[(g.index / 6 * 6) as usize];
            assert_eq!(g.moves[..2], lead.moves[..2]);
            assert_eq!(g.opening.len(), 2);
            // Rolit 4x4 fills its 12 empty squares (nobody passes).
            assert_eq!(g.plies, 12);
            // Every square is some colour's; blue's neutral centre piece counts for nobody
            // unless it was taken.
            let pieces: i32 = g.scores.as_ref().map_or(0, |s| s.iter().sum());
            assert!(pieces == 15 || pieces == 16, "{pieces}");
            let first_a = (0..3).any(|s| g.ranks[s] == 0 && g.agent_in(s) == 0);
            let first_b = (0..3).any(|s| g.ranks[s] == 0 && g.agent_in(s) == 1);
            let expected = match (first_a, first_b) {
                (true, false) => GameResult::Win,
                (false, true) => GameResult::Loss,
                _ => GameResult::Draw,
            };
            assert_eq!(g.result, expected);
            let shares: f64 = (0..3).map(|s| g.first_share(s)).sum();
            assert!((shares - 1.0).abs() < 1e-9);
        }
        // Seeds depend on the game, not on the scheduling.
        let again = run_match(&config(12), random, first, ("r", "f"));
        let once = run_match(
            &MatchConfig {
                concurrency: 1,
                ..config(12)
            },
            random,
            first,
            ("r", "f"),
        );
        let games = |r: &MatchReport| r.games.iter().map(played).collect::<Vec<_>>();
        assert_eq!(games(&again), games(&once));
        let text = report.format_seats();
        assert!(
            text.contains("A in 1 of 3 seats") && text.contains("3. green"),
            "{text}"
        );
        let json: SeatsJson = serde_json::from_str(&report.seats_json().unwrap()).unwrap();
        assert_eq!(json.games, 12);
    }

    /// A game without its think times (wall-clock, and rounded by printing).
    fn played(g: &GameRecord) -> GameRecord {
        GameRecord {
            think_ms: [0.0; 2],
            ..g.clone()
        }
    }

    #[test]
    fn records_round_trip_through_json_lines_and_resume() {
        let random: &AgentFactory<Small> = &|seed| Box::new(RandomAgent::new(seed));
        let full = run_match(&config(6), random, random, ("a", "b"));
        let lines: Vec<String> = full
            .games
            .iter()
            .map(|g| json_line(g, "r1").unwrap())
            .collect();
        let back: Vec<GameRecord> = lines
            .iter()
            .filter_map(|l| read_json_line(l, "r1").unwrap())
            .collect();
        assert_eq!(back.len(), 6);
        for (x, y) in back.iter().zip(&full.games) {
            assert_eq!(played(x), played(y));
        }
        assert_eq!(read_json_line(&lines[0], "other"), Ok(None));
        assert!(read_json_line("{\"run\":\"r1\"}", "r1").is_err());
        // Resuming with the first three done plays the other three, the same as before.
        let mut cfg = config(6);
        cfg.done = back[..3].iter().map(|g| g.index).collect();
        let mut rest = run_match(&cfg, random, random, ("a", "b"));
        assert_eq!(rest.games.len(), 3);
        rest.include(back[..3].to_vec());
        assert_eq!(rest.games.len(), 6);
        let games = |r: &MatchReport| r.games.iter().map(played).collect::<Vec<_>>();
        assert_eq!(games(&rest), games(&full));
    }
}
