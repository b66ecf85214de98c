//! Unit tests of the GTP controller's parsing, framing, analysis lines and scores.

use super::analyze::{analysis_line, analyze_args, kata_line, AnalyzeArgs};
use super::*;

#[test]
fn preprocessing_follows_the_spec() {
    let c = preprocess("12 play\tb D5 # comment").unwrap();
    assert_eq!(c.id.as_deref(), Some("12"));
    assert_eq!(c.name, "play");
    assert_eq!(c.args, vec!["b", "D5"]);
    assert!(preprocess("   # only a comment").is_none());
    assert!(preprocess("\u{7}").is_none());
}

#[test]
fn frames_have_one_blank_line_and_none_inside() {
    assert_eq!(frame(true, &Some("3".into()), "2"), "=3 2\n\n");
    assert_eq!(
        frame(false, &None, "unknown command"),
        "? unknown command\n\n"
    );
    assert_eq!(frame(true, &None, "a\n\nb\n"), "= a\nb\n\n");
    assert_eq!(frame(true, &None, ""), "=\n\n");
    assert_eq!(frame(true, &None, "\n1 x\n2 o"), "=\n1 x\n2 o\n\n");
}

/// A search snapshot with one line per `(move, value, visits, proof)`.
fn info(lines: &[(&str, f32, u32, Option<Proven>)]) -> SearchInfo {
    SearchInfo {
        lines: lines
            .iter()
            .map(|&(mv, value, visits, proven)| crate::engine::InfoLine {
                pv: vec![mv.to_string(), "pass".to_string()],
                value,
                lcb: if proven.is_some() { value } else { value - 0.5 },
                prior: 0.25,
                prior_source: crate::search::PriorSource::Policy,
                wdl: [0, 0, 0],
                proven,
                visits,
                move_number: 1,
            })
            .collect(),
        best: lines.first().map(|l| l.0.to_string()),
        ..SearchInfo::default()
    }
}

#[test]
fn analysis_arguments_take_colour_interval_and_katago_keys() {
    let parsed = |player, interval_cs, ownership| {
        Ok(AnalyzeArgs {
            player,
            interval_cs,
            ownership,
        })
    };
    assert_eq!(analyze_args(&[], &colour), parsed(None, 100, false));
    assert_eq!(
        analyze_args(&["w", "10"], &colour),
        parsed(Some(1), 10, false)
    );
    assert_eq!(analyze_args(&["50"], &colour), parsed(None, 50, false));
    assert_eq!(
        analyze_args(&["B", "interval", "20", "ownership", "true"], &colour),
        parsed(Some(0), 20, true)
    );
    assert_eq!(
        analyze_args(&["ownership", "false", "pvVisits", "true"], &colour),
        parsed(None, 100, false)
    );
    assert!(analyze_args(&["ownership", "yes"], &colour).is_err());
    assert_eq!(analyze_args(&["0"], &colour), parsed(None, 1, false));
    assert!(analyze_args(&["b", "frobnicate", "1"], &colour).is_err());
    assert!(analyze_args(&["interval"], &colour).is_err());
    assert!(analyze_args(&["interval", "x"], &colour).is_err());
    assert!(analyze_args(&["99999999999999999999999"], &colour).is_err());
    assert_eq!(
        analyze_args(&["4294967296000"], &colour),
        parsed(None, 8_640_000, false)
    );
}

#[test]
fn kata_lines_write_katago_fields_for_the_side_to_move() {
    let snapshot = info(&[("D4", 0.5, 30, None), ("C3", -1.0, 10, None)]);
    let line = kata_line(&snapshot, |pv| if pv[0] == "D4" { 2.5 } else { -1.0 });
    assert_eq!(
        line,
        "info move D4 visits 30 utility 0.500000 winrate 0.750000 scoreMean 2.50 \
         scoreLead 2.50 prior 0.250000 lcb 0.500000 order 0 pv D4 pass \
         info move C3 visits 10 utility -1.000000 winrate 0.000000 scoreMean -1.00 \
         scoreLead -1.00 prior 0.250000 lcb 0.000000 order 1 pv C3 pass"
    );
    assert_eq!(kata_line(&SearchInfo::default(), |_| 0.0), "");
    // A proven win: winrate 1, its bound with it, and the proof named.
    let won = info(&[("E5", 1.0, 7, Some(Proven::Win { plies: 3 }))]);
    assert_eq!(
        kata_line(&won, |_| 0.0),
        "info move E5 visits 7 utility 1.000000 winrate 1.000000 scoreMean 0.00 \
         scoreLead 0.00 prior 0.250000 lcb 1.000000 order 0 proof win pv E5 pass"
    );
}

#[test]
fn leela_lines_write_winrate_prior_and_lcb_in_ten_thousandths() {
    let snapshot = info(&[
        ("D4", 0.5, 30, None),
        ("C3", -1.0, 2, Some(Proven::Loss { plies: 2 })),
    ]);
    assert_eq!(
        analysis_line(&snapshot),
        "info move D4 visits 30 winrate 7500 prior 2500 lcb 5000 order 0 proof none pv D4 pass \
         info move C3 visits 2 winrate 0 prior 2500 lcb 0 order 1 proof loss pv C3 pass"
    );
}

#[test]
fn resignation_needs_the_option_and_a_loss_or_a_low_winrate_with_visits() {
    let loss = Some(Proven::Loss { plies: 3 });
    assert!(!resigns(&info(&[("D4", -1.0, 1, loss)]), 0.0));
    assert!(resigns(&info(&[("D4", -1.0, 1, loss)]), 0.01));
    assert!(resigns(&info(&[("D4", -0.9, 100, None)]), 0.1));
    assert!(!resigns(&info(&[("D4", -0.9, 99, None)]), 0.1));
    assert!(!resigns(&info(&[("D4", -0.7, 500, None)]), 0.1));
    let draw = Some(Proven::Draw { plies: 2 });
    assert!(!resigns(&info(&[("D4", 0.0, 5, draw)]), 0.6));
    assert!(!resigns(&SearchInfo::default(), 0.5));
}

#[test]
fn colours_of_more_players_are_names_or_unambiguous_first_letters() {
    let four = ["red", "yellow", "green", "blue"];
    assert_eq!(player_index(&four, "red"), Some(0));
    assert_eq!(player_index(&four, "Yellow"), Some(1));
    assert_eq!(player_index(&four, "G"), Some(2));
    assert_eq!(player_index(&four, "b"), Some(3));
    assert_eq!(player_index(&four, "black"), None);
    assert_eq!(player_index(&four, "re"), None);
    assert_eq!(player_index(&four, ""), None);
    // A letter two colours start with names neither.
    assert_eq!(player_index(&["red", "rose", "green"], "r"), None);
    assert_eq!(player_index(&["red", "rose", "green"], "rose"), Some(1));
    // Two-player games keep black and white.
    assert_eq!(player_in(&["black", "white"], "b"), Some(0));
    assert_eq!(player_in(&["black", "white"], "red"), None);
    assert_eq!(player_in(&four[..3], "b"), None);
    assert_eq!(player_in(&four[..3], "y"), Some(1));
}

#[test]
fn multi_player_scores_list_points_then_ranks_in_seat_order() {
    let names = ["red", "yellow", "green", "blue"];
    let points = [20, 15, 14, 15];
    let outcome = crate::game::Outcome::by_scores(&points);
    assert_eq!(
        multi_player_score(&names, Some(&points), &outcome),
        "red 20 yellow 15 green 14 blue 15 ranks 1 2 4 2"
    );
    let outcome = crate::game::Outcome::by_scores(&[3, 3, 1]);
    assert_eq!(
        multi_player_score(&names[..3], None, &outcome),
        "ranks 1 1 3"
    );
}

#[test]
fn boardsize_in_rolit_keeps_the_player_count() {
    let info = |name: &str| *GAMES.iter().find(|g| g.name == name).unwrap();
    let size = |game: &str, n| multi_player_of_size(&info(game), n).map(|g| g.name);
    assert_eq!(size("rolit", 6), Some("rolit6-4p"));
    assert_eq!(size("rolit", 4), Some("rolit4-4p"));
    assert_eq!(size("rolit-3p", 6), Some("rolit6-3p"));
    assert_eq!(size("rolit4-3p", 8), Some("rolit-3p"));
    assert_eq!(size("rolit6-4p", 8), Some("rolit"));
    assert_eq!(size("rolit-3p", 5), None);
}

#[test]
fn colours_and_sizes() {
    assert_eq!(colour("B"), Some(0));
    assert_eq!(colour("white"), Some(1));
    assert_eq!(colour("red"), None);
    assert_eq!(board_size("8x8"), Some(8));
    assert_eq!(board_size("7x6"), Some(7));
    assert_eq!(family_of("go13"), "go");
    assert_eq!(family_of("go"), "go");
    assert_eq!(family_of("breakthrough7x7"), "breakthrough");
    assert_eq!(family_of("loa7"), "loa");
    assert_eq!(family_of("ataxx"), "ataxx");
    assert_eq!(family_of("gomoku"), "gomoku");
}
