//! `--shard K/N` and `gpn merge` with the real binary: shards merged equal the single-process
//! run game for game (match) and position for position (solve batch); mixed runs are refused;
//! missing pairs, duplicates and conflicts are reported; an interrupted shard keeps its games.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value as Json;

mod common;

use common::{gpn, gpn_ok as ok};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpn-shard-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A small deterministic match (iteration budgets, one search thread): 7 games, so 4 pairs and
/// the last one a single game, which 3 shards split unevenly (2, 1 and 1 pairs).
const MATCH: [&str; 13] = [
    "match",
    "cfour",
    "--engine1",
    "sb-gpn",
    "--engine2",
    "sb-uct c=1",
    "--games",
    "7",
    "--iterations",
    "40",
    "--openings",
    "2",
    "--quiet",
];

fn run_match(extra: &[&str]) -> String {
    let mut args: Vec<&str> = MATCH.to_vec();
    args.extend_from_slice(extra);
    ok(&args)
}

/// The report lines that depend on the games only: not the wall-clock `think`/`time` lines,
/// and the `games` line without its `concurrency`.
fn game_lines(report: &str) -> Vec<String> {
    report
        .lines()
        .filter(|l| !l.starts_with("think:") && !l.starts_with("time "))
        .take_while(|l| !l.starts_with("merged:"))
        .map(|l| match l.find(", concurrency") {
            Some(at) if l.starts_with("games ") => l[..at].to_string(),
            _ => l.to_string(),
        })
        .collect()
}

/// The games of every shard file, by game index.
fn union_of(shards: &[PathBuf]) -> BTreeMap<u64, String> {
    let mut union = BTreeMap::new();
    for p in shards {
        union.extend(games_by_index(&std::fs::read_to_string(p).unwrap()));
    }
    union
}

/// Each game of a games file (JSON Lines) by index: who sat first, its moves, result and ending.
fn games_by_index(text: &str) -> BTreeMap<u64, String> {
    text.lines()
        .map(|l| {
            let v = serde_json::from_str::<Json>(l).expect("a JSON line");
            let s = |k: &str| format!("{:?}", v.get(k).expect(k));
            (
                v.get("index").and_then(Json::as_u64).expect("index"),
                [
                    s("player0"),
                    s("moves"),
                    s("result_a"),
                    s("result"),
                    s("reason"),
                    s("run"),
                ]
                .join(" "),
            )
        })
        .collect()
}

/// Runs the three shards into `dir/s{k}.jsonl` and returns their paths.
fn run_shards(dir: &Path, extra: &[&str]) -> Vec<PathBuf> {
    (0..3)
        .map(|k| {
            let file = dir.join(format!("s{k}.jsonl"));
            let shard = format!("{k}/3");
            let mut args = vec!["--shard", &shard, "--games-file", path(&file)];
            args.extend_from_slice(extra);
            run_match(&args);
            file
        })
        .collect()
}

#[test]
fn match_shards_merged_equal_the_single_process_run_game_for_game() {
    let dir = temp_dir("match");
    let all = dir.join("all.jsonl");
    let all_json = dir.join("all.json");
    let single = run_match(&[
        "--games-file",
        path(&all),
        "--games-format",
        "jsonl",
        "--json",
        path(&all_json),
        "--concurrency",
        "2",
    ]);
    let shards = run_shards(&dir, &[]);
    // Uneven shards: pairs {0, 3}, {1}, {2}; the odd game 6 is pair 3's only game.
    let indexes = |p: &PathBuf| -> Vec<u64> {
        games_by_index(&std::fs::read_to_string(p).unwrap())
            .into_keys()
            .collect()
    };
    assert_eq!(indexes(&shards[0]), [0, 1, 6]);
    assert_eq!(indexes(&shards[1]), [2, 3]);
    assert_eq!(indexes(&shards[2]), [4, 5]);

    let merged_json = dir.join("merged.json");
    let mut args = vec!["merge"];
    // Any order of files.
    args.extend(shards.iter().rev().map(|p| path(p)));
    args.extend(["--json", path(&merged_json)]);
    let merged = ok(&args);
    assert_eq!(
        game_lines(&merged),
        game_lines(&single),
        "{merged}\n{single}"
    );
    assert!(merged.contains("missing pairs: none\n"), "{merged}");
    assert!(merged.contains("incomplete pairs: none\n"), "{merged}");
    assert!(
        merged.contains("duplicate games (same result, counted once): none\n"),
        "{merged}"
    );
    assert!(merged.contains("shards 0/3 1/3 2/3, 7 lines, 7 distinct games of 7"));

    // Game for game: the same moves, seats, results and endings under the same run id.
    assert_eq!(
        union_of(&shards),
        games_by_index(&std::fs::read_to_string(&all).unwrap())
    );

    // The merged JSON is `gpn match --json`'s, with the same numbers and games.
    let j =
        |p: &PathBuf| serde_json::from_str::<Json>(&std::fs::read_to_string(p).unwrap()).unwrap();
    let (m, s) = (j(&merged_json), j(&all_json));
    for key in [
        "game",
        "engine_a",
        "engine_b",
        "played",
        "results",
        "score",
        "elo",
        "a_first",
        "a_second",
        "first_player",
        "pentanomial",
        "endings",
        "sprt",
    ] {
        assert_eq!(m.get(key), s.get(key), "{key}");
    }
    let moves = |v: &Json| -> Vec<String> {
        v.get("games")
            .and_then(Json::as_array)
            .unwrap()
            .iter()
            .map(|g| format!("{:?} {:?}", g.get("moves"), g.get("result_a")))
            .collect()
    };
    assert_eq!(moves(&m), moves(&s));

    // A merge of the single-process file gives the same report too.
    let again = ok(&["merge", path(&all)]);
    assert_eq!(game_lines(&again), game_lines(&single));
    assert!(again.contains("shards all,"), "{again}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merge_reports_missing_pairs_duplicates_and_refuses_conflicts_and_mixed_runs() {
    let dir = temp_dir("errors");
    let shards = run_shards(&dir, &[]);
    // Shard 1 (pair 1: games 2 and 3) is missing; shard 0 is given twice.
    let merged = ok(&[
        "merge",
        path(&shards[0]),
        path(&shards[2]),
        path(&shards[0]),
    ]);
    assert!(merged.contains("missing pairs: 1 of 4 (1)\n"), "{merged}");
    assert!(
        merged.contains(
            "duplicate games (same result, counted once): 3 (game 0 x2, game 1 x2, game 6 x2)"
        ),
        "{merged}"
    );
    assert!(merged.contains("games 5 of 7,"), "{merged}");
    assert!(
        merged.contains("pentanomial (pair scores 0, 0.5, 1, 1.5, 2 for A): ")
            && merged.contains("2 pairs, 1 unpaired games"),
        "{merged}"
    );

    // The same game with another result is an error, not a vote.
    let text = std::fs::read_to_string(&shards[2]).unwrap();
    let flipped = if text.contains("\"result_a\":\"win\"") {
        text.replacen("\"result_a\":\"win\"", "\"result_a\":\"loss\"", 1)
    } else {
        text.replacen("\"result_a\":\"loss\"", "\"result_a\":\"win\"", 1)
    };
    assert_ne!(flipped, text);
    let conflict = dir.join("conflict.jsonl");
    std::fs::write(&conflict, flipped).unwrap();
    let out = gpn(&["merge", path(&shards[2]), path(&conflict)]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("conflicts"), "{err}");

    // Another seed is another run.
    let other = dir.join("other.jsonl");
    run_match(&[
        "--shard",
        "1/3",
        "--games-file",
        path(&other),
        "--seed",
        "2",
    ]);
    let out = gpn(&["merge", path(&shards[0]), path(&other)]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("lines of different runs are not merged") && err.contains("other.jsonl:1"),
        "{err}"
    );
    assert!(out.stdout.is_empty());

    // A line whose settings were edited no longer matches its own run id.
    let edited = dir.join("edited.jsonl");
    let text = std::fs::read_to_string(&shards[1]).unwrap();
    std::fs::write(&edited, text.replace("\"odds\":1", "\"odds\":2")).unwrap();
    let out = gpn(&["merge", path(&edited)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("is not the id of the line's own settings")
    );

    // PGN (no run id) and garbage are clear errors, not panics.
    let pgn = dir.join("m.pgn");
    run_match(&["--games-file", path(&pgn)]);
    for bad in [&pgn, &dir.join("absent.jsonl")] {
        let out = gpn(&["merge", path(bad)]);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: "));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shard_needs_a_json_lines_games_file() {
    let mut args: Vec<&str> = MATCH.to_vec();
    args.extend(["--shard", "0/2"]);
    let out = gpn(&args);
    assert_eq!(out.status.code(), Some(2));
    args.extend(["--games-file", "/dev/null", "--games-format", "pgn"]);
    let out = gpn(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("JSON Lines"));
    for bad in ["2/2", "x"] {
        let mut args: Vec<&str> = MATCH.to_vec();
        args.extend(["--shard", bad, "--games-file", "/dev/null"]);
        assert_eq!(gpn(&args).status.code(), Some(2), "{bad}");
    }
}

#[test]
fn an_interrupted_shard_keeps_its_finished_games_and_merges() {
    use std::process::Stdio;

    let dir = temp_dir("interrupt");
    let file = dir.join("s1.jsonl");
    let child = Command::new(env!("CARGO_BIN_EXE_gpn"))
        .args([
            "match",
            "cfour",
            "--engine1",
            "random",
            "--engine2",
            "random",
            "--iterations",
            "1",
            "--games",
            "10000000",
            "--shard",
            "1/2",
            "--games-file",
            path(&file),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gpn runs");
    // stderr is a pipe: one progress line per game. Interrupt after 20 of them.
    let (out, _rest) = common::interrupt_after_games(child, 20);
    // Kept and reported, then the status a shell gives a SIGINT death (128 + 2).
    assert_eq!(out.status.code(), Some(130));
    let report = String::from_utf8_lossy(&out.stdout);
    let played: u64 = report
        .lines()
        .find_map(|l| l.strip_prefix("interrupted: "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("an interrupted line");
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().count() as u64, played);
    // Shard 1 of 2 holds the odd pairs only.
    let games = games_by_index(&text);
    assert!(games.keys().all(|g| (g / 2) % 2 == 1), "{:?}", games.keys());
    let merged = ok(&["merge", path(&file)]);
    assert!(
        merged.contains(&format!(", {played} distinct games of 10000000")),
        "{merged}"
    );
    assert!(merged.contains("missing pairs: "), "{merged}");
    assert!(!merged.contains("missing pairs: none"), "{merged}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The first 7 positions of the 12-ply Connect Four set, with their values.
fn small_batch(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cfour-12ply.txt"),
    )
    .unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("cfour "))
        .take(7)
        .collect();
    let file = dir.join("batch.txt");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    file
}

/// A solve line without its timings and shard (which differ between runs).
fn solve_key(line: &str) -> String {
    let v = serde_json::from_str::<Json>(line).expect("a JSON line");
    [
        "run",
        "index",
        "line",
        "position",
        "algo",
        "value",
        "best_move",
        "nodes",
        "proofs",
        "match",
    ]
    .iter()
    .map(|k| format!("{:?}", v.get(k).expect(k)))
    .collect::<Vec<_>>()
    .join(" ")
}

/// The summary's lines without the time and rate figures.
fn summary_counts(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.contains(" concluded "))
        .map(|l| l[..l.find(" time ").unwrap_or(l.len())].to_string())
        .collect()
}

#[test]
fn solve_shards_merged_equal_the_whole_batch() {
    let dir = temp_dir("solve");
    let batch = small_batch(&dir);
    let solve = |extra: &[&str]| {
        let mut args = vec![
            "solve",
            "--batch",
            path(&batch),
            "--algo",
            "dfpn,pns",
            "--max-nodes",
            "20000",
            "--json",
            "--quiet",
        ];
        args.extend_from_slice(extra);
        let out = gpn(&args);
        assert!(out.status.success(), "{args:?}");
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (whole, whole_summary) = solve(&[]);
    let mut files = Vec::new();
    for k in 0..3 {
        let (lines, _) = solve(&["--shard", &format!("{k}/3")]);
        let file = dir.join(format!("solve-{k}.jsonl"));
        std::fs::write(&file, &lines).unwrap();
        files.push(file);
    }
    // Every third position from k: 3, 2 and 2 positions, two algorithms each.
    let count = |p: &PathBuf| std::fs::read_to_string(p).unwrap().lines().count();
    assert_eq!(files.iter().map(count).collect::<Vec<_>>(), [6, 4, 4]);
    let merged_lines = dir.join("merged.jsonl");
    let mut args = vec!["merge", "--json", path(&merged_lines)];
    args.extend(files.iter().map(|p| path(p)));
    let merged = ok(&args);
    assert_eq!(
        summary_counts(&merged),
        summary_counts(&whole_summary),
        "{merged}\n{whole_summary}"
    );
    assert_eq!(summary_counts(&merged).len(), 2);
    assert!(merged.contains("summary (7 positions, merged)"), "{merged}");
    assert!(merged.contains("missing positions: none"), "{merged}");
    let keys = |text: &str| text.lines().map(solve_key).collect::<Vec<_>>();
    assert_eq!(
        keys(&std::fs::read_to_string(&merged_lines).unwrap()),
        keys(&whole)
    );

    // A shard left out and one given twice; another run is refused.
    let partial = ok(&["merge", path(&files[0]), path(&files[2]), path(&files[2])]);
    assert!(partial.contains("missing positions: 2 (1, 4)"), "{partial}");
    assert!(
        partial.contains("duplicate solves (same value, counted once): 4"),
        "{partial}"
    );
    let (other, _) = solve(&["--shard", "1/3", "--seed", "9"]);
    let other_file = dir.join("other.jsonl");
    std::fs::write(&other_file, other).unwrap();
    let out = gpn(&["merge", path(&files[0]), path(&other_file)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("different runs"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_shard_rerun_resumes_its_games_file() {
    let dir = temp_dir("resume");
    let all = dir.join("all.jsonl");
    run_match(&["--games-file", path(&all), "--games-format", "jsonl"]);
    let shards = run_shards(&dir, &[]);
    // Shard 0 (games 0, 1 and 6) killed after its first game, in the middle of its second line.
    let text = std::fs::read_to_string(&shards[0]).unwrap();
    let first_line_end = text.find('\n').unwrap() + 1;
    std::fs::write(&shards[0], &text[..first_line_end + 30]).unwrap();
    let mut args: Vec<&str> = MATCH.to_vec();
    args.retain(|a| *a != "--quiet");
    args.extend([
        "--shard",
        "0/3",
        "--games-file",
        path(&shards[0]),
        "--resume",
    ]);
    let out = gpn(&args);
    assert!(out.status.success());
    let report = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("resuming: 1 finished games of this run in"),
        "{err}"
    );
    // Only the two missing games were played.
    assert!(
        report.contains("games 2 of 2 (shard 0/3 of 7, 1 more in the games file before),"),
        "{report}"
    );
    let resumed = std::fs::read_to_string(&shards[0]).unwrap();
    assert_eq!(resumed.lines().count(), 3);
    assert!(resumed.starts_with(&text[..first_line_end]));
    // The resumed shard and the others are the single-process match, game for game.
    assert_eq!(
        union_of(&shards),
        games_by_index(&std::fs::read_to_string(&all).unwrap())
    );
    let merged = ok(&[
        "merge",
        path(&shards[0]),
        path(&shards[1]),
        path(&shards[2]),
    ]);
    assert!(
        merged.contains("7 lines, 7 distinct games of 7"),
        "{merged}"
    );
    // Once complete, a rerun plays nothing and adds nothing.
    let out = gpn(&args);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("games 0 of 0 (shard 0/3 of 7, 3 more"));
    assert_eq!(std::fs::read_to_string(&shards[0]).unwrap(), resumed);
    // A file of another run is refused, and left as it was.
    args.extend(["--seed", "3"]);
    let out = gpn(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("give each run its own file"));
    assert_eq!(std::fs::read_to_string(&shards[0]).unwrap(), resumed);
    // PGN cannot be read back.
    let mut pgn: Vec<&str> = MATCH.to_vec();
    pgn.extend([
        "--games-file",
        path(&all),
        "--games-format",
        "pgn",
        "--resume",
    ]);
    let out = gpn(&pgn);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("JSON Lines only"));
    let _ = std::fs::remove_dir_all(&dir);
}
