//! The `gpn` binary's subcommands, run as a user would run them.

use std::process::{Command, Output};

mod common;

fn gpn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpn"))
        .args(args)
        .output()
        .expect("gpn runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn perft_prints_one_line_per_root_move_then_the_total() {
    let out = gpn(&["perft", "breakthrough", "3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 23, "{text}");
    assert_eq!(lines[22], "nodes 11132");
    let sum: u64 = lines[..22]
        .iter()
        .map(|l| l.rsplit(": ").next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 11132);
    assert!(lines.contains(&"a2a3: 484") || lines.iter().any(|l| l.starts_with("a2a3: ")));
}

#[test]
fn perft_from_a_position_and_moves() {
    let out = gpn(&["perft", "cfour", "2", "--moves", "b", "e", "g"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).ends_with("nodes 49\n"), "{}", stdout(&out));
    let out = gpn(&["perft", "connect4", "1", "--position", "7/7/7/7/7/P6 b"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("P@a2: 1"), "{}", stdout(&out));
}

#[test]
fn bad_input_gives_a_clear_error_and_exit_code_2() {
    for (args, needle) in [
        (vec!["perft", "chess", "2"], "unknown game 'chess'"),
        (vec!["perft", "cfour", "x"], "depth 'x'"),
        (
            vec!["perft", "cfour", "2", "--position", "7/7 w"],
            "invalid position (board)",
        ),
        (
            vec!["perft", "breakthrough", "2", "--moves", "a2a5"],
            "illegal move 'a2a5'",
        ),
        (
            vec!["perft", "breakthrough", "2", "--moves", "zz"],
            "cannot read move 'zz'",
        ),
        (vec!["bench", "--playouts", "many"], "--playouts 'many'"),
        (vec!["frobnicate"], "unknown command"),
    ] {
        let out = gpn(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?} wrote to stdout");
    }
}

#[test]
fn games_lists_every_game_with_aliases() {
    let text = stdout(&gpn(&["games"]));
    for info in gpn::game::registry::GAMES {
        assert!(
            text.contains(info.name),
            "{} missing from:\n{text}",
            info.name
        );
        for alias in info.aliases {
            assert!(text.contains(alias), "alias {alias} missing");
        }
    }
}

#[test]
fn bench_signature_is_reproducible() {
    let run = || {
        stdout(&gpn(&[
            "bench",
            "--playouts",
            "50",
            "--iterations",
            "200",
            "--seed",
            "9",
        ]))
    };
    let (a, b) = (run(), run());
    let signature = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("bench "))
            .unwrap_or_default()
            .to_string()
    };
    assert!(!signature(&a).is_empty(), "{a}");
    assert_eq!(signature(&a), signature(&b));
    // Stockfish's closing lines: every search iteration of every game and engine counted.
    let searched: u64 = a
        .lines()
        .find_map(|l| l.strip_prefix("Nodes searched  : "))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{a}"));
    assert!(searched > 0 && searched % 200 == 0, "{searched}");
    assert!(
        a.lines()
            .last()
            .unwrap_or_default()
            .starts_with("Nodes/second    : "),
        "{a}"
    );
    let one = stdout(&gpn(&[
        "bench",
        "--game",
        "cfour",
        "--playouts",
        "50",
        "--seed",
        "9",
    ]));
    assert!(one.lines().any(|l| l.starts_with("cfour ")), "{one}");
}

/// The first game row of a bench's search table, found by its header's last ratio column
/// (empty if there is none).
fn search_row<'a>(text: &'a str, last_ratio: &str) -> &'a str {
    let header = text
        .lines()
        .position(|l| l.starts_with("game") && l.contains(last_ratio));
    header
        .and_then(|h| text.lines().nth(h + 1))
        .unwrap_or_default()
}

#[test]
fn bench_compares_named_engines_with_ratios_to_the_first() {
    let out = gpn(&[
        "bench",
        "--game",
        "cfour",
        "--playouts",
        "1",
        "--iterations",
        "300",
        "--rounds",
        "3",
        "--engine",
        "uct",
        "--engine",
        "gpn c_pn=0.5",
    ]);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(text.contains("median of 3 interleaved rounds"), "{text}");
    assert!(
        text.contains("e1: uct") && text.contains("e2: gpn c_pn=0.5"),
        "{text}"
    );
    let row = search_row(&text, "e2/e1");
    assert!(
        row.starts_with("cfour ") && row.split_whitespace().count() == 5,
        "no row with e1, e2, e2/e1 and the signature:\n{text}"
    );
    let bad = gpn(&["bench", "--engine", "uct c=oops"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("--engine 'uct c=oops'"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn bench_times_each_games_defaults_with_threads() {
    let out = gpn(&[
        "bench",
        "--game",
        "breakthrough",
        "--playouts",
        "1",
        "--iterations",
        "300",
        "--engine",
        "default",
        "--engine",
        "default shared_stats=2",
        "--threads",
        "1,2",
    ]);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        text.contains("e1: default threads=1")
            && text.contains("e4: default shared_stats=2 threads=2"),
        "{text}"
    );
    let row = search_row(&text, "e4/e1");
    assert!(row.starts_with("breakthrough "), "{text}");
    // e1..e4, three ratios and the signature.
    assert_eq!(row.split_whitespace().count(), 9, "{text}");
    let bad = gpn(&["bench", "--engine", "default c=oops"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("c=oops"), "{}", stderr(&bad));
}

#[test]
fn no_arguments_runs_the_engine_and_help_prints_usage() {
    // The engine reads its protocol from stdin; at once-closed input it exits quietly.
    let out = gpn(&[]);
    assert!(out.status.success());
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    assert!(stdout(&gpn(&["help"])).contains("USAGE"));
}

/// `gpn match cfour` between two random agents, 1 iteration a move, writing the CSV, JSON and
/// games files; `extra` follows.
fn random_cfour_match_args<'a>(
    files: &'a (std::path::PathBuf, std::path::PathBuf, std::path::PathBuf),
    extra: &[&'a str],
) -> Vec<&'a str> {
    let (csv, json, games) = files;
    let mut args = vec![
        "match",
        "cfour",
        "--engine1",
        "random",
        "--engine2",
        "random",
        "--iterations",
        "1",
        "--csv",
        csv.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
        "--games-file",
        games.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    args
}

#[test]
fn match_random_against_random() {
    let dir = std::env::temp_dir().join(format!("gpn-cli-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let files = (dir.join("m.csv"), dir.join("m.json"), dir.join("m.txt"));
    let (csv, json, games) = &files;
    let run = |concurrency: &str| {
        gpn(&random_cfour_match_args(
            &files,
            &[
                "--games",
                "10",
                "--concurrency",
                concurrency,
                "--openings",
                "2",
                "--seed",
                "7",
                "--sprt",
                "0,5",
            ],
        ))
    };
    let out = run("2");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "match cfour: A = random, B = random", "{text}");
    assert!(lines[1].starts_with("games 10 of 10, budget 1 iterations/move, opening 2 plies"));
    let results = lines
        .iter()
        .find_map(|l| l.strip_prefix("results (A's view): "))
        .expect("a results line");
    let counts: Vec<u32> = results
        .split_whitespace()
        .filter_map(|t| t.parse().ok())
        .collect();
    assert_eq!(counts.iter().sum::<u32>(), 10, "{results}");
    for prefix in [
        "score ",
        "elo ",
        "A first: ",
        "A second: ",
        "endings: ",
        "sprt: ",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(prefix)),
            "{prefix}: {text}"
        );
    }
    // One progress line per game on stderr, none on stdout.
    assert_eq!(
        stderr(&out).lines().filter(|l| l.starts_with('[')).count(),
        10
    );
    assert!(!text.contains("[1/10]"));
    // Connect Four's games file is PGN (cutechess-cli knows the game): one record per game.
    let games_text = std::fs::read_to_string(games).unwrap();
    assert_eq!(
        games_text
            .lines()
            .filter(|l| l.starts_with("[Event \"gpn match cfour\"]"))
            .count(),
        10
    );
    assert_eq!(
        games_text
            .lines()
            .filter(|l| l.starts_with("[Variant \"cfour\"]"))
            .count(),
        10
    );
    assert_eq!(std::fs::read_to_string(csv).unwrap().lines().count(), 11);
    assert!(std::fs::read_to_string(json)
        .unwrap()
        .contains("\"played\": 10,"));
    // The same seed gives the same games on one thread. Lines are appended as games finish, so
    // with two threads their order may differ: compare them sorted.
    let sorted = |text: &str| {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        lines.sort();
        lines
    };
    assert!(run("1").status.success());
    assert_eq!(
        sorted(&std::fs::read_to_string(games).unwrap()),
        sorted(&games_text)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The number in the first `"key": N` (or `"key":N`) of a JSON text.
fn json_count(json: &str, key: &str) -> u64 {
    let pat = format!("\"{key}\":");
    let at = json.find(&pat).map(|i| i + pat.len()).expect(key);
    json[at..]
        .trim_start()
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .expect(key)
}

#[test]
fn sigterm_stops_a_match_as_ctrl_c_does() {
    use std::process::Stdio;

    // `timeout`, batch schedulers and a closed terminal send SIGTERM or SIGHUP, not SIGINT.
    let dir = std::env::temp_dir().join(format!("gpn-cli-match-term-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let files = (dir.join("m.csv"), dir.join("m.json"), dir.join("m.txt"));
    let child = Command::new(env!("CARGO_BIN_EXE_gpn"))
        .args(random_cfour_match_args(
            &files,
            &["--games", "10000000", "--games-format", "jsonl"],
        ))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gpn runs");
    let (out, rest) = common::signal_after_games(child, 10, "-TERM");
    // 128 + 15, as a shell reports a job killed by SIGTERM.
    assert_eq!(out.status.code(), Some(143), "{}", rest.join("\n"));
    let played = json_count(&std::fs::read_to_string(&files.1).unwrap(), "played");
    assert!((10..10_000_000).contains(&played), "{played}");
    assert!(
        stdout(&out).lines().any(|l| l
            == format!("interrupted: {played} finished games kept, games in progress abandoned")),
        "{}",
        stdout(&out)
    );
    let kept = std::fs::read_to_string(&files.2).unwrap().lines().count() as u64;
    assert_eq!(kept, played);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn ctrl_c_stops_a_match_and_keeps_every_finished_game() {
    use std::process::Stdio;

    let dir = std::env::temp_dir().join(format!("gpn-cli-match-int-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let files = (dir.join("m.csv"), dir.join("m.json"), dir.join("m.txt"));
    let (csv, json, games) = &files;
    // Far more games than can finish before the signal.
    let child = Command::new(env!("CARGO_BIN_EXE_gpn"))
        .args(random_cfour_match_args(
            &files,
            &[
                "--games",
                "10000000",
                "--concurrency",
                "2",
                "--games-format",
                "jsonl",
            ],
        ))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gpn runs");
    // stderr is a pipe: one progress line per game. Interrupt after 20 of them.
    let (out, rest) = common::interrupt_after_games(child, 20);
    // Documented in docs/commands.md: an interrupted match exits 130 (128 + SIGINT), like a solve.
    assert_eq!(out.status.code(), Some(130), "{}", rest.join("\n"));
    assert!(
        rest.iter().any(|l| l.starts_with("interrupted")),
        "{rest:?}"
    );
    let text = stdout(&out);
    let played = json_count(&std::fs::read_to_string(json).unwrap(), "played");
    assert!((20..10_000_000).contains(&played), "{played}");
    assert!(
        text.lines().any(|l| l
            == format!("interrupted: {played} finished games kept, games in progress abandoned")),
        "{text}"
    );
    assert!(
        text.contains(&format!("games {played} of 10000000,")),
        "{text}"
    );
    let results = text
        .lines()
        .find_map(|l| l.strip_prefix("results (A's view): "))
        .expect("a results line");
    let wdl: u64 = results
        .split_whitespace()
        .filter_map(|t| t.parse::<u64>().ok())
        .sum();
    assert_eq!(wdl, played, "{results}");
    let penta = text
        .lines()
        .find(|l| l.starts_with("pentanomial"))
        .expect("a pentanomial line");
    assert!(penta.ends_with(" unpaired games"), "{penta}");
    let json_text = std::fs::read_to_string(json).unwrap();
    assert!(json_text.contains("\"interrupted\": true,"));
    assert_eq!(
        2 * json_count(&json_text, "pairs") + json_count(&json_text, "unpaired"),
        played
    );
    // The CSV (a header and a row per game) and the games file hold exactly the finished games.
    let csv_text = std::fs::read_to_string(csv).unwrap();
    assert_eq!(csv_text.lines().count() as u64, played + 1);
    // JSON Lines (asked for): one object per line.
    let games_text = std::fs::read_to_string(games).unwrap();
    assert_eq!(games_text.lines().count() as u64, played);
    assert!(games_text
        .lines()
        .all(|l| l.starts_with("{\"game\":\"cfour\",") && l.ends_with("]}")));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_rejects_bad_options() {
    for (args, needle) in [
        (
            vec!["match", "cfour", "--engine1", "random"],
            "--engine1 and --engine2",
        ),
        (
            vec!["match", "cfour", "--engine1", "mcts", "--engine2", "random"],
            "agent 'mcts'",
        ),
        (
            vec![
                "match",
                "cfour",
                "--engine1",
                "random",
                "--engine2",
                "random",
                "--sprt",
                "5",
            ],
            "--sprt '5'",
        ),
        (
            vec![
                "match",
                "cfour",
                "--engine1",
                "random",
                "--engine2",
                "random",
                "--games",
                "0",
            ],
            "--games '0'",
        ),
        (
            vec![
                "match",
                "chess",
                "--engine1",
                "random",
                "--engine2",
                "random",
            ],
            "unknown game 'chess'",
        ),
        (
            vec![
                "match",
                "cfour",
                "--engine1",
                "random",
                "--engine2",
                "random",
                "--games-format",
                "sgf",
            ],
            "--games-format 'sgf': expected one of auto, pgn, jsonl",
        ),
    ] {
        let out = gpn(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?} wrote to stdout");
    }
}

#[test]
fn match_between_two_searches_is_reproducible() {
    let run = || {
        let out = gpn(&[
            "match",
            "cfour",
            "--engine1",
            "sb-gpn c_pn=0.5",
            "--engine2",
            "uct",
            "--games",
            "4",
            "--iterations",
            "200",
            "--concurrency",
            "2",
            "--openings",
            "2",
            "--quiet",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let first = run();
    assert!(first.contains("A = sb-gpn c_pn=0.5, B = uct"), "{first}");
    let results = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("results"))
            .map(str::to_string)
    };
    assert_eq!(results(&first), results(&run()));
}

#[test]
fn a_three_player_match_plays_every_seating_and_resumes_its_games_file() {
    let dir = std::env::temp_dir().join(format!("gpn-cli-match-3p-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let games = dir.join("games.jsonl");
    let games_arg = games.to_str().unwrap();
    let run = |count: &str| {
        let out = gpn(&[
            "match",
            "rolit4-3p",
            "--engine1",
            "sb-gpn",
            "--engine2",
            "random",
            "--games",
            count,
            "--iterations",
            "30",
            "--openings",
            "2",
            "--games-file",
            games_arg,
            "--resume",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        (stdout(&out), stderr(&out))
    };
    let (first, _) = run("12");
    assert!(
        first.contains("rolit4-3p, 3 players, 12 games (6 seatings per opening)"),
        "{first}"
    );
    for line in [
        "A in 1 of 3 seats",
        "A in 2 of 3 seats",
        "1. red",
        "3. green",
    ] {
        assert!(first.contains(line), "{line}: {first}");
    }
    let text = std::fs::read_to_string(&games).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 12);
    // Each opening's six games seat the agents in all six ways.
    let mut seatings: Vec<&str> = lines[..6]
        .iter()
        .map(|l| {
            l.split("\"seating\":\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
        })
        .collect();
    seatings.sort();
    assert_eq!(seatings, ["AAB", "ABA", "ABB", "BAA", "BAB", "BBA"]);
    // The same run again: every game is in the file, none is played again, same report.
    let (again, err) = run("12");
    assert!(err.contains("resuming: 12 finished games"), "{err}");
    let results = |s: &str| s.lines().nth(3).map(str::to_string);
    assert_eq!(results(&again), results(&first));
    assert_eq!(std::fs::read_to_string(&games).unwrap(), text);
    // Two-player statistics are refused with a reason.
    let out = gpn(&[
        "match",
        "rolit4-3p",
        "--engine1",
        "random",
        "--engine2",
        "random",
        "--sprt",
        "0,5",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--sprt is for two-player games"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_subcommand_has_help_and_there_is_a_version() {
    for command in ["games", "perft", "show", "bench", "match", "solve", "merge"] {
        for args in [
            vec![command, "--help"],
            vec![command, "-h"],
            vec!["help", command],
        ] {
            let out = gpn(&args);
            assert!(out.status.success(), "{args:?}: {}", stderr(&out));
            assert!(
                stdout(&out).contains(&format!("Usage: gpn {command}")),
                "{args:?}: {}",
                stdout(&out)
            );
            assert!(stderr(&out).is_empty(), "{args:?}: {}", stderr(&out));
        }
    }
    for args in [["--help"], ["-h"], ["help"]] {
        let out = gpn(&args);
        assert!(out.status.success(), "{args:?}");
        let text = stdout(&out);
        for needle in [
            "USAGE",
            "--protocol",
            "perft",
            "solve",
            "merge",
            "Exit status",
        ] {
            assert!(
                text.contains(needle),
                "{args:?}: {needle} missing in {text}"
            );
        }
    }
    for flag in ["--version", "-V"] {
        let out = gpn(&[flag]);
        assert!(out.status.success());
        assert_eq!(stdout(&out), format!("gpn {}\n", env!("CARGO_PKG_VERSION")));
    }
}

#[test]
fn errors_are_one_line_and_a_hint_not_the_usage() {
    for (args, hint) in [
        (vec!["frobnicate"], "'gpn --help'"),
        (vec!["perft", "cfour"], "'gpn perft --help'"),
        (vec!["perft", "cfour", "x"], "'gpn perft --help'"),
        (vec!["perft", "cfour", "1", "--frob"], "'gpn perft --help'"),
        (vec!["bench", "--playouts", "many"], "'gpn bench --help'"),
        (vec!["show", "cfour", "--moves", "z"], "'gpn show --help'"),
        (
            vec!["match", "cfour", "--engine1", "random"],
            "'gpn match --help'",
        ),
        (vec!["solve", "cfour"], "'gpn solve --help'"),
        (vec!["perft", "chess", "1"], "'gpn games'"),
        (vec!["--protocol", "xboard"], "'gpn --help'"),
    ] {
        let out = gpn(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let text = stderr(&out);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("error: "), "{args:?}: {text}");
        assert!(lines.len() <= 3, "{args:?}: more than 3 lines:\n{text}");
        assert!(
            lines.last().is_some_and(|l| l.contains(hint)),
            "{args:?}: no hint {hint}:\n{text}"
        );
        assert!(
            !text.contains("Usage") && !text.contains("USAGE"),
            "{args:?}: {text}"
        );
        assert!(stdout(&out).is_empty(), "{args:?} wrote to stdout");
    }
}

#[test]
fn misspelt_commands_flags_and_games_get_a_suggestion() {
    for (args, needle) in [
        (vec!["perf", "cfour", "1"], "did you mean 'perft'?"),
        (vec!["sovle"], "did you mean 'solve'?"),
        (
            vec!["bench", "--playout", "5"],
            "a similar argument exists: '--playouts'",
        ),
        (
            vec!["perft", "breaktrough", "1"],
            "unknown game 'breaktrough'; did you mean 'breakthrough'?",
        ),
        (
            vec!["show", "othelo"],
            "unknown game 'othelo'; did you mean 'othello'?",
        ),
        (
            vec!["--game", "conect4"],
            "unknown game 'conect4'; did you mean 'connect4'?",
        ),
    ] {
        let out = gpn(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
    }
    // A name far from every game gets no guess.
    assert!(!stderr(&gpn(&["perft", "chess", "1"])).contains("did you mean"));
}

#[test]
fn flags_take_their_value_after_an_equals_sign() {
    let out = gpn(&[
        "bench",
        "--game=cfour",
        "--playouts=20",
        "--iterations=0",
        "--seed=3",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let spaced = gpn(&[
        "bench",
        "--game",
        "cfour",
        "--playouts",
        "20",
        "--iterations",
        "0",
        "--seed",
        "3",
    ]);
    let last = |o: &Output| stdout(o).lines().last().unwrap_or_default().to_string();
    assert_eq!(last(&out), last(&spaced));
    let out = gpn(&["perft", "cfour", "1", "--position=7/7/7/7/7/P6 b"]);
    assert!(stdout(&out).contains("P@a2: 1"), "{}", stderr(&out));
    let out = gpn(&[
        "match",
        "cfour",
        "--engine1=random",
        "--engine2=sb-gpn c_pn=0.5",
        "--games=2",
        "--iterations=10",
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("A = random, B = sb-gpn c_pn=0.5"));
}

#[test]
fn moves_are_comma_or_space_separated_everywhere() {
    for (command, moves) in [
        (vec!["perft", "cfour", "2"], vec!["d1", "d2", "c1"]),
        (vec!["show", "reversi"], vec!["d3", "c5", "f6"]),
        (
            vec!["solve", "cfour", "--algo", "pns"],
            vec!["d", "d", "d", "d", "c", "c", "e", "e"],
        ),
    ] {
        let comma = moves.join(",");
        let space = moves.join(" ");
        let first_two = moves[..2].join(",");
        let equals = format!("--moves={comma}");
        let mut separate = vec!["--moves"];
        separate.extend(&moves);
        let mut mixed = vec!["--moves", first_two.as_str()];
        mixed.extend(&moves[2..]);
        let outputs: Vec<String> = [
            vec!["--moves", comma.as_str()],
            separate,
            vec!["--moves", space.as_str()],
            mixed,
            vec![equals.as_str()],
        ]
        .iter()
        .map(|flags| {
            let args: Vec<&str> = command.iter().chain(flags).copied().collect();
            let out = gpn(&args);
            assert!(out.status.success(), "{args:?}: {}", stderr(&out));
            // Times and rates differ from run to run; positions, moves and counts do not.
            stdout(&out)
                .lines()
                .filter(|l| !l.starts_with("time ") && !l.starts_with("nodes/s "))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect();
        assert!(!outputs[0].is_empty());
        for other in &outputs[1..] {
            assert_eq!(&outputs[0], other, "{command:?}");
        }
    }
}

/// Runs `args` with stdout piped, reads `lines` lines of it, closes the pipe and waits. With
/// `lines` = 0 the reading end is closed before gpn starts (a socket pair stands in for the pipe:
/// it fails a write the same way, with EPIPE), so its first write meets it closed whatever the
/// timing.
fn close_stdout_after(args: &[&str], lines: usize) -> Output {
    use std::io::{BufRead, BufReader};
    use std::os::fd::OwnedFd;
    use std::os::unix::net::UnixStream;
    use std::process::Stdio;
    if lines == 0 {
        let (writer, reader) = UnixStream::pair().expect("a socket pair");
        drop(reader);
        return Command::new(env!("CARGO_BIN_EXE_gpn"))
            .args(args)
            .stdout(Stdio::from(OwnedFd::from(writer)))
            .stderr(Stdio::piped())
            .output()
            .expect("gpn runs");
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpn"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gpn runs");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut reader = BufReader::new(stdout);
    for _ in 0..lines {
        let mut line = String::new();
        reader.read_line(&mut line).expect("a line");
        assert!(!line.is_empty(), "{args:?}: no output");
    }
    drop(reader);
    child.wait_with_output().expect("gpn ends")
}

#[test]
fn a_closed_stdout_ends_quietly_with_success() {
    for (args, lines) in [
        // As `gpn perft gomoku 3 | head -1`, but deterministic: the pipe is closed before gpn
        // starts, or, at depth 4, after the first root move, while 224 are still to be counted.
        (vec!["perft", "gomoku", "3"], 0),
        (vec!["perft", "gomoku", "4"], 1),
        // More than a pipe buffer of output: the writes must meet the closed pipe.
        (
            vec!["solve", "cfour", "--generate", "3000", "--plies", "10"],
            1,
        ),
        (vec!["games"], 0),
    ] {
        let out = close_stdout_after(&args, lines);
        assert!(out.status.success(), "{args:?}: {:?}", out.status);
        assert!(out.stderr.is_empty(), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn sgf_records_set_up_killallgo_problems_and_bad_ones_are_clear_errors() {
    // Problem 26 of the PCN paper's set: its final position, White to move (the same line as
    // experiments/data/killallgo/problems.txt holds).
    let out = gpn(&[
        "show",
        "killallgo",
        "--sgf",
        "tests/data/killallgo-pcn-26.sgf",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let batch = include_str!("../experiments/data/killallgo/problems.txt");
    let want = batch.lines().nth(25).unwrap();
    let want = want
        .strip_prefix("killallgo ")
        .and_then(|l| l.split(" # ").next())
        .unwrap();
    assert!(
        stdout(&out).contains(&format!("position {want}\n")),
        "{}",
        stdout(&out)
    );
    // White lives: dfpn proves it.
    let out = gpn(&[
        "solve",
        "killallgo",
        "--sgf",
        "tests/data/killallgo-pcn-26.sgf",
        "--algo",
        "dfpn",
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("value win"), "{}", stdout(&out));
    // A missing file and a record of another board size are errors, not panics.
    for (file, needle) in [
        ("tests/data/no-such.sgf", "no-such.sgf"),
        (
            "tests/data/killallgo-pcn-26.sgf",
            "a 9x9 board, go13 is 13x13",
        ),
    ] {
        let game = if needle.contains("go13") {
            "go13"
        } else {
            "killallgo"
        };
        let out = gpn(&["show", game, "--sgf", file]);
        assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
        assert!(stderr(&out).contains(needle), "{}", stderr(&out));
    }
}

#[test]
fn learn_runs_generations_logs_them_draws_the_chart_and_resumes() {
    let dir = std::env::temp_dir().join(format!("gpn-cli-learn-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let args = |generations: &'static str| {
        [
            "learn",
            "cfour",
            "--dir",
            d,
            "--generations",
            generations,
            "--games",
            "8",
            "--iterations",
            "60",
            "--epochs",
            "1",
            "--hidden",
            "16",
            "--gate-games",
            "4",
            "--gate",
            "0",
            "--solve-nodes",
            "20000",
        ]
    };
    let out = gpn(&args("1"));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("generation 1: "),
        "{}",
        stdout(&out)
    );
    // --gate 0 promotes every network: the best plays the next generation's self-play.
    assert!(dir.join("best.gpnn").exists() && dir.join("gen-1.gpns").exists());
    let out = gpn(&args("2"));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("generations 1 to 1 done, going on"),
        "{}",
        stderr(&out)
    );
    assert!(
        stdout(&out).starts_with("generation 2: "),
        "{}",
        stdout(&out)
    );
    let log = std::fs::read_to_string(dir.join("learn.jsonl")).unwrap();
    assert_eq!(log.lines().count(), 2);
    assert!(
        log.lines().all(|l| l.contains("\"promoted\":true")),
        "{log}"
    );
    // Nothing left to do: said so, nothing played.
    let out = gpn(&args("2"));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("learn cfour: 2 generations in "),
        "{}",
        stdout(&out)
    );
    let svg = std::fs::read_to_string(dir.join("learn.svg")).unwrap();
    assert_eq!(svg.matches("<circle").count(), 2);
    // Each generation's self-play and training reports are kept (the training curve).
    let report = std::fs::read_to_string(dir.join("gen-2.log")).unwrap();
    assert!(report.contains("epoch 1: "), "{report}");
    // A game without an encoding is refused before anything is written.
    let other = dir.join("kalah");
    let o = other.to_str().unwrap();
    let out = gpn(&["learn", "kalah", "--dir", o, "--games", "2"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("kalah has no network encoding yet (games with one: breakthrough,"),
        "{}",
        stderr(&out)
    );
    assert!(!other.exists());
    std::fs::remove_dir_all(&dir).ok();
}
