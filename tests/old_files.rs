//! Match files written by earlier builds (the hand-written JSON writers, before serde) still
//! read through the arena's serde types: two-player reports of several vintages, a larger
//! table's report and its games file, all read in place from `experiments/data`.

use std::path::Path;

use gpn::arena::lines::SeatLine;
use gpn::arena::report_json::{ReportJson, SeatsJson};
use gpn::arena::{seats, GameResult, Termination};

fn read(path: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Two-player reports: without `odds`, `pentanomial`, `interrupted` or the choice counts (the
/// oldest), with some of them, and with all; their games agree with their totals and convert to
/// game records, and a report written again reads back the same.
#[test]
fn two_player_reports_of_every_vintage_read() {
    for (path, pentanomial, choices) in [
        (
            "experiments/data/pn-decay/breakthrough-100ms-sb-gpn_pn_decay1000--vs--sb-uct.json",
            false,
            false,
        ),
        (
            "experiments/data/defaults/losalamos-table-1000ms.part3.json",
            false,
            false,
        ),
        (
            "experiments/data/defaults/loa7-table-1000ms.part3.json",
            true,
            false,
        ),
        (
            "experiments/data/threads/minishogi-t2vt1rwvl-100ms.part7.json",
            true,
            true,
        ),
    ] {
        let report: ReportJson =
            serde_json::from_str(&read(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(report.pentanomial.is_some(), pentanomial, "{path}");
        assert_eq!(report.played, report.games.len(), "{path}");
        assert!(report.config.odds >= 1, "{path}");
        let count = |r: GameResult| report.games.iter().filter(|g| g.result_a == r).count();
        assert_eq!(
            (
                count(GameResult::Win),
                count(GameResult::Draw),
                count(GameResult::Loss)
            ),
            (
                report.results.wins as usize,
                report.results.draws as usize,
                report.results.losses as usize
            ),
            "{path}"
        );
        let e = &report.endings;
        assert_eq!(
            e.rules + e.repetition + e.length_cap + e.illegal_move,
            report.played,
            "{path}"
        );
        for g in &report.games {
            let record = g.record().unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!(record.index, g.index);
            assert_eq!(record.a_seat().index(), usize::from(g.player0 == "B"));
            assert_eq!(record.plies as usize, g.moves.len(), "{path}");
            assert_eq!(g.choices_a > 0, choices, "{path}");
        }
        let mut again = Vec::new();
        report.write(&mut again).unwrap();
        let back: ReportJson = serde_json::from_slice(&again).unwrap();
        assert_eq!(back.games, report.games, "{path}");
        assert_eq!(back.results, report.results, "{path}");
        assert_eq!(back.config, report.config, "{path}");
    }
}

/// A three-player match: its report and its games file (one line per game, the run's id on
/// each) read, and the lines add up to the report's result.
#[test]
fn a_larger_tables_report_and_games_file_read() {
    for base in [
        "experiments/data/multiplayer/rolit-3p-1000-cpn03",
        "experiments/data/multiplayer/chinesecheckers-200-ege",
    ] {
        let report: SeatsJson = serde_json::from_str(&read(&format!("{base}.json")))
            .unwrap_or_else(|e| panic!("{base}: {e}"));
        assert_eq!(report.players, 3, "{base}");
        assert_eq!(report.seats.len(), 3, "{base}");
        assert_eq!(report.by_seats_held.len(), 2, "{base}");
        let text = read(&format!("{base}.jsonl"));
        let first: SeatLine = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        let games: Vec<_> = text
            .lines()
            .filter_map(|l| seats::read_json_line(l, &first.run).unwrap())
            .collect();
        assert_eq!(games.len(), report.games, "{base}");
        let count = |r: GameResult| games.iter().filter(|g| g.result == r).count() as u32;
        assert_eq!(
            (
                count(GameResult::Win),
                count(GameResult::Draw),
                count(GameResult::Loss)
            ),
            (
                report.result.wins,
                report.result.draws,
                report.result.losses
            ),
            "{base}"
        );
        for g in &games {
            assert_eq!(g.seats(), 3);
            assert!(g.opening.len() as u32 <= report.openings, "{base}");
            assert!(g.termination != Termination::IllegalMove, "{base}");
        }
    }
}
