//! Perft counts of every game against `tests/data/*.perft`, which hold the counts of peer
//! programs (the conventions are in `docs/design.md`, "Games") with move lists translated into our notation.
//!
//! Data format, one directive per line (`#` starts a comment):
//! `game <name>` selects the game; `case start` or `case position <string>` starts a case;
//! `moves <m1> <m2> ...` plays moves in the current case; `perft <depth> <count>` expects a count.
//! Counts up to `FAST_LEAVES` run in `cargo test`; all run with `cargo test --release -- --ignored`.

use std::fs;
use std::path::Path;

use gpn::game::perft::perft;
use gpn::game::registry::{visit, GameVisitor};
use gpn::game::Game;

/// Largest expected count checked by the default (fast) test run.
const FAST_LEAVES: u64 = 5_000_000;

#[derive(Debug, Clone)]
struct Case {
    file: String,
    line: usize,
    game: String,
    position: Option<String>,
    moves: Vec<String>,
    expected: Vec<(u32, u64)>,
}

fn load_cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut files: Vec<_> = fs::read_dir(&dir)
        .expect("tests/data exists")
        .map(|e| e.expect("readable dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "perft"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let text = fs::read_to_string(&path).expect("readable perft file");
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        let mut game = String::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap().trim();
            if line.is_empty() {
                continue;
            }
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            let rest = rest.trim();
            let at = format!("{file}:{}", i + 1);
            match key {
                "game" => game = rest.to_string(),
                "case" => {
                    let position = match rest.split_once(' ') {
                        _ if rest == "start" => None,
                        Some(("position", s)) => Some(s.trim().to_string()),
                        _ => panic!("{at}: expected 'case start' or 'case position <s>'"),
                    };
                    cases.push(Case {
                        file: file.clone(),
                        line: i + 1,
                        game: game.clone(),
                        position,
                        moves: Vec::new(),
                        expected: Vec::new(),
                    });
                }
                "moves" => cases
                    .last_mut()
                    .unwrap_or_else(|| panic!("{at}: moves before case"))
                    .moves
                    .extend(rest.split_whitespace().map(str::to_string)),
                "perft" => {
                    let nums: Vec<u64> = rest
                        .split_whitespace()
                        .map(|x| {
                            x.parse()
                                .unwrap_or_else(|_| panic!("{at}: bad number '{x}'"))
                        })
                        .collect();
                    assert_eq!(nums.len(), 2, "{at}: perft <depth> <count>");
                    cases
                        .last_mut()
                        .unwrap_or_else(|| panic!("{at}: perft before case"))
                        .expected
                        .push((nums[0] as u32, nums[1]));
                }
                other => panic!("{at}: unknown directive '{other}'"),
            }
        }
    }
    cases
}

struct RunCase<'a> {
    case: &'a Case,
    max_leaves: u64,
}

impl GameVisitor for RunCase<'_> {
    type Output = Vec<String>;
    fn visit<G: Game>(self) -> Vec<String> {
        let c = self.case;
        let where_ = format!("{}:{} ({})", c.file, c.line, c.game);
        let mut game = match &c.position {
            Some(p) => G::parse_position(p).unwrap_or_else(|e| panic!("{where_}: {e}")),
            None => G::start(),
        };
        for m in &c.moves {
            game.play_text(m)
                .unwrap_or_else(|e| panic!("{where_}: {e}"));
        }
        let mut failures = Vec::new();
        for &(depth, expected) in &c.expected {
            if expected > self.max_leaves {
                continue;
            }
            let got = perft(&game, depth);
            if got != expected {
                failures.push(format!(
                    "{where_}: depth {depth}: got {got}, expected {expected}"
                ));
            }
        }
        failures
    }
}

fn run_all(max_leaves: u64) {
    let cases = load_cases();
    assert!(!cases.is_empty(), "no perft data found");
    let mut failures = Vec::new();
    for case in &cases {
        let out = visit(&case.game, RunCase { case, max_leaves })
            .unwrap_or_else(|e| panic!("{}:{}: {e}", case.file, case.line));
        failures.extend(out);
    }
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
}

#[test]
fn perft_matches_peers() {
    run_all(FAST_LEAVES);
}

#[test]
#[ignore = "deep counts; run with: cargo test --release --test perft -- --ignored"]
fn perft_matches_peers_deep() {
    run_all(u64::MAX);
}

#[test]
fn every_registered_game_has_perft_data() {
    let cases = load_cases();
    for info in gpn::game::registry::GAMES {
        assert!(
            cases
                .iter()
                .any(|c| gpn::game::registry::canonical_name(&c.game) == Some(info.name)),
            "no perft data for {}",
            info.name
        );
    }
}
