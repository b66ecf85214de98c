//! One SIGINT or SIGTERM stops a long job of the real binary (`match`, `selfplay`, `learn`,
//! `solve`) within a second, the move or search in progress included: it keeps its records,
//! prints its report and exits with 128 + the signal's number (130, 143). Also: the solvers
//! with playouts (PPNS, MCPNS) keep to `--max-time`.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// How long a stopped job may take to exit: the issue asks for a second; the rest is room for
/// a loaded test machine.
const PROMPT: Duration = Duration::from_secs(4);

/// How long a job runs before the signal: time to install its handler on a loaded machine (a
/// signal before that kills it, status none), and to be well into its first move.
const STARTED: Duration = Duration::from_millis(1000);

/// A fresh scratch directory for test `name`.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpn-interrupt-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_gpn"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gpn runs")
}

/// Sends `signal` (`kill`'s option: `-INT`, `-TERM`) to `child`.
fn kill(child: &Child, signal: &str) {
    let killed = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
}

/// Lets `child` run for `after`, sends `signal`, and returns its output with the time it took
/// to exit after the signal.
fn signal_after(child: Child, after: Duration, signal: &str) -> (Output, Duration) {
    std::thread::sleep(after);
    let sent = Instant::now();
    kill(&child, signal);
    let out = child.wait_with_output().unwrap();
    (out, sent.elapsed())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The `"index"` of each line of a JSON Lines games file.
fn game_indexes(path: &Path) -> Vec<u64> {
    let games = std::fs::read_to_string(path).unwrap_or_default();
    games
        .lines()
        .map(|line| {
            let at = line.find("\"index\":").expect("a game index") + "\"index\":".len();
            line[at..]
                .trim_start()
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .and_then(|n| n.parse().ok())
                .expect("a game index")
        })
        .collect()
}

#[test]
fn sigterm_stops_the_move_in_progress_of_a_match() {
    let dir = scratch("movetime");
    let (games, json) = (dir.join("g.jsonl"), dir.join("m.json"));
    // A minute a move: before the fix the first move ran to its end.
    let child = spawn(&[
        "match",
        "cfour",
        "--engine1",
        "sb-uct",
        "--engine2",
        "sb-uct",
        "--games",
        "2",
        "--movetime",
        "60000",
        "--games-format",
        "jsonl",
        "--games-file",
        games.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    let (out, took) = signal_after(child, STARTED, "-TERM");
    assert_eq!(out.status.code(), Some(143), "{}", text(&out.stderr));
    assert!(took < PROMPT, "{took:?}");
    let report = text(&out.stdout);
    assert!(
        report.contains("interrupted: 0 finished games kept, games in progress abandoned"),
        "{report}"
    );
    assert!(std::fs::read_to_string(&json)
        .unwrap()
        .contains("\"interrupted\": true,"));
    assert_eq!(std::fs::read_to_string(&games).unwrap(), "");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn sigint_stops_a_huge_iteration_budget_of_a_match_of_three() {
    // Chinese Checkers for three players: the multi-player arena polls the flag too.
    let child = spawn(&[
        "match",
        "chinesecheckers",
        "--engine1",
        "sb-uct",
        "--engine2",
        "sb-uct",
        "--games",
        "6",
        "--iterations",
        "1000000000000",
    ]);
    let (out, took) = signal_after(child, STARTED, "-INT");
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    assert!(took < PROMPT, "{took:?}");
    let report = text(&out.stdout);
    assert!(
        report.contains(", 0 games (") && report.contains("Interrupted: the finished games only."),
        "{report}"
    );
}

/// The match of the resume test: short games, one at a time, a JSON Lines games file.
fn resumable_match(games: &Path) -> Vec<String> {
    [
        "match",
        "cfour",
        "--engine1",
        "sb-uct",
        "--engine2",
        "random",
        "--games",
        "8",
        "--iterations",
        "30000",
        "--games-format",
        "jsonl",
        "--resume",
        "--games-file",
        games.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn a_game_cut_short_is_not_recorded_and_resume_plays_it() {
    let dir = scratch("resume");
    let games = dir.join("g.jsonl");
    let args = resumable_match(&games);
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpn"))
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gpn runs");
    // stderr is a pipe: one progress line (`[k/8] ...`) per finished game.
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut seen = 0;
    while seen < 2 {
        let line = lines.next().expect("progress lines").unwrap();
        seen += usize::from(line.starts_with('['));
    }
    let sent = Instant::now();
    kill(&child, "-INT");
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let out = child.wait_with_output().unwrap();
    assert!(sent.elapsed() < PROMPT, "{:?}", sent.elapsed());
    assert_eq!(out.status.code(), Some(130), "{}", rest.join("\n"));
    let kept = game_indexes(&games);
    let played = kept.len();
    assert!(
        text(&out.stdout).contains(&format!(
            "interrupted: {played} finished games kept, games in progress abandoned"
        )),
        "{}",
        text(&out.stdout)
    );
    assert!((2..8).contains(&played), "{kept:?}");

    // The rerun plays the games missing, the one cut short included, each once.
    let again = Command::new(env!("CARGO_BIN_EXE_gpn"))
        .args(&args)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert!(
        text(&again.stderr).contains(&format!("resuming: {played} finished games")),
        "{}",
        text(&again.stderr)
    );
    let mut all = game_indexes(&games);
    all.sort_unstable();
    assert_eq!(all, (0..8).collect::<Vec<u64>>());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn sigterm_stops_the_move_in_progress_of_selfplay() {
    let dir = scratch("selfplay");
    let samples = dir.join("s.gpns");
    let samples_arg = samples.to_str().unwrap().to_string();
    let run = |iterations: &str| {
        spawn(&[
            "selfplay",
            "cfour",
            "--engine",
            "sb-uct",
            "--games",
            "2",
            "--iterations",
            iterations,
            "--out",
            &samples_arg,
        ])
    };
    let (out, took) = signal_after(run("1000000000000"), STARTED, "-TERM");
    assert_eq!(out.status.code(), Some(143), "{}", text(&out.stderr));
    assert!(took < PROMPT, "{took:?}");
    let err = text(&out.stderr);
    assert!(
        err.contains("interrupted: game 0 dropped, the file holds every finished game"),
        "{err}"
    );
    assert!(
        text(&out.stdout).contains("0 games (0 positions"),
        "{}",
        text(&out.stdout)
    );
    // The dropped game is played by the rerun.
    let again = run("50").wait_with_output().unwrap();
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert!(
        text(&again.stdout).contains(": 2 games ("),
        "{}",
        text(&again.stdout)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn sigint_stops_learn_in_its_self_play() {
    let dir = scratch("learn");
    let child = spawn(&[
        "learn",
        "cfour",
        "--dir",
        dir.to_str().unwrap(),
        "--generations",
        "1",
        "--games",
        "2",
        "--iterations",
        "1000000000000",
    ]);
    let (out, took) = signal_after(child, STARTED, "-INT");
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    assert!(took < PROMPT, "{took:?}");
    assert!(
        text(&out.stderr).contains("interrupted: generation 1 is redone"),
        "{}",
        text(&out.stderr)
    );
    assert!(!dir.join("learn.jsonl").exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_stopped_solve_prints_its_partial_result_and_exits_with_the_signal() {
    // No limit: the solve runs until the signal. PPNS: its playouts poll the stop too.
    let child = spawn(&["solve", "chinesecheckers", "--algo", "ppns", "--quiet"]);
    let (out, took) = signal_after(child, STARTED, "-TERM");
    assert_eq!(out.status.code(), Some(143), "{}", text(&out.stderr));
    assert!(took < PROMPT, "{took:?}");
    assert!(
        text(&out.stdout).contains("stopped: interrupted"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn playout_solvers_keep_to_the_time_limit() {
    // One expansion in Chinese Checkers (tens of children, ten long random playouts each) took
    // seconds: 0.5 s asked, 4-26 s taken before the clock was read between playouts.
    for algo in ["ppns", "mcpns"] {
        let started = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_gpn"))
            .args([
                "solve",
                "chinesecheckers",
                "--algo",
                algo,
                "--max-time",
                "0.3",
            ])
            .args(["--quiet"])
            .output()
            .unwrap();
        let took = started.elapsed();
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(
            text(&out.stdout).contains("value unknown (stopped by the time limit)"),
            "{algo}: {}",
            text(&out.stdout)
        );
        assert!(took < Duration::from_millis(1500), "{algo}: {took:?}");
    }
}
