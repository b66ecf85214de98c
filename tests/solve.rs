//! `gpn solve`: every solver against the perfect Connect Four solver's values, and the CLI's
//! handling of bad input.

use std::process::{Command, Output};

use gpn::game::connect4::ConnectFour;
use gpn::game::Rules;
use gpn::solve::{solve, Algo, SolveConfig, Value};

fn gpn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpn"))
        .args(args)
        .output()
        .expect("gpn runs")
}

/// (plies, position, value) of every line of tests/data/cfour-solved.txt (values from
/// connect-four-ai, the perfect solver).
fn solved_positions() -> Vec<(u32, ConnectFour, Value)> {
    let text = include_str!("data/cfour-solved.txt");
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (main, comment) = line.split_once('#').unwrap();
        let (pos, value) = main.split_once('|').unwrap();
        let pos = pos.trim().strip_prefix("cfour ").unwrap();
        let plies: u32 = comment
            .split_whitespace()
            .skip_while(|w| *w != "plies")
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        out.push((
            plies,
            ConnectFour::parse_position(pos).unwrap(),
            Value::parse(value).unwrap(),
        ));
    }
    out
}

fn config(algo: Algo, max_nodes: u64) -> SolveConfig {
    SolveConfig {
        algo,
        max_nodes: Some(max_nodes),
        memory_mb: 128,
        ..SolveConfig::default()
    }
}

/// Solves `positions` with every algorithm; panics on any value that differs from the perfect
/// solver's; returns the number concluded per algorithm.
fn check(positions: &[(u32, ConnectFour, Value)], max_nodes: u64) -> Vec<(Algo, usize)> {
    let mut counts = Vec::new();
    for algo in Algo::ALL {
        let mut concluded = 0;
        for (plies, pos, want) in positions {
            let r = solve(pos, &config(algo, max_nodes));
            if r.value == Value::Unknown {
                continue;
            }
            assert_eq!(
                r.value,
                *want,
                "{} on {} ({plies} plies): {}",
                algo.name(),
                pos.to_position(),
                r.proofs_text()
            );
            concluded += 1;
        }
        counts.push((algo, concluded));
    }
    counts
}

#[test]
fn the_data_file_has_200_positions_of_various_depths() {
    let all = solved_positions();
    assert!(all.len() >= 200);
    let mut depths: Vec<u32> = all.iter().map(|p| p.0).collect();
    depths.dedup();
    assert!(depths.len() >= 10);
    assert!(all.iter().all(|p| p.1.outcome().is_none()));
}

/// The positions of 26 plies and more solve in well under a second each.
#[test]
fn every_solver_agrees_with_the_perfect_solver_on_late_positions() {
    let late: Vec<_> = solved_positions()
        .into_iter()
        .filter(|p| p.0 >= 26)
        .collect();
    assert!(late.len() >= 60);
    for (algo, n) in check(&late, 1_000_000) {
        assert_eq!(n, late.len(), "{} left positions unknown", algo.name());
    }
}

/// All 204 positions, 2M nodes each: no wrong value; prints how many each concludes.
#[test]
#[ignore]
fn every_solver_agrees_with_the_perfect_solver_on_all_positions() {
    let all = solved_positions();
    for (algo, n) in check(&all, 2_000_000) {
        println!("{:<6} concluded {n} of {}", algo.name(), all.len());
    }
}

#[test]
fn solve_prints_value_move_nodes_and_proofs() {
    let out = gpn(&[
        "solve",
        "cfour",
        "--moves",
        "d,d,d,d,c,c,e,e",
        "--algo",
        "pns",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for want in [
        "value win",
        "proofs win?=yes",
        "nodes ",
        "nodes/s ",
        "proof size 2",
    ] {
        assert!(text.contains(want), "{want} missing in {text}");
    }
    assert!(text.contains("bestmove P@b1") || text.contains("bestmove P@f1"));
}

#[test]
fn batch_checks_expected_values() {
    let dir = std::env::temp_dir().join(format!("gpn-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("batch.txt");
    std::fs::write(
        &file,
        "# a comment\ncfour 7/7/3p3/3P3/2ppp2/2PPP2 w | win\n\ncfour 7/7/3p3/3P3/2ppp2/2PPP2 w | loss # wrong on purpose\n",
    )
    .unwrap();
    let out = gpn(&[
        "solve",
        "--batch",
        file.to_str().unwrap(),
        "--algo",
        "dfpn,pns",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches(" ok ").count(), 2, "{text}");
    assert_eq!(text.matches("MISMATCH").count(), 2, "{text}");
    assert!(text.contains("summary (2 positions)"));
    let out = gpn(&[
        "solve",
        "--batch",
        file.to_str().unwrap(),
        "--algo",
        "dfpn",
        "--csv",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("line,game,position,algo,value"));
    assert_eq!(text.lines().count(), 3);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_exits_with_code_2() {
    let cases: &[&[&str]] = &[
        &["solve", "chess", "--algo", "pns"],
        &[
            "solve",
            "cfour",
            "--position",
            "8/7/7/7/7/7 w",
            "--algo",
            "pns",
        ],
        &["solve", "cfour", "--moves", "d,z", "--algo", "dfpn"],
        &[
            "solve",
            "cfour",
            "--moves",
            "d d d d d d d",
            "--algo",
            "dfpn",
        ],
        &["solve", "cfour", "--algo", "alphabeta"],
        &["solve", "cfour"],
        &["solve", "cfour", "--algo", "pns", "--max-nodes", "x"],
        &["solve", "--batch", "/nonexistent/file", "--algo", "pns"],
    ];
    for args in cases {
        let out = gpn(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("error"));
    }
}

#[test]
fn tiny_memory_is_unknown_not_a_crash() {
    for algo in ["pns", "ppns", "mcpns"] {
        let out = gpn(&["solve", "cfour", "--algo", algo, "--memory", "1"]);
        assert!(out.status.success(), "{algo}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("value unknown"), "{algo}: {text}");
    }
    // sb-gpn recycles its tree (as DFPN overwrites its table): the node limit ends it, far past
    // the ~11,000 nodes that 1 MB holds at once.
    let out = gpn(&[
        "solve",
        "cfour",
        "--algo",
        "sb-gpn",
        "--memory",
        "1",
        "--max-nodes",
        "100000",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("value unknown"), "{text}");
    let nodes: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("nodes "))
        .and_then(|n| n.trim().parse().ok())
        .expect("a nodes line");
    assert!(nodes >= 100_000, "{text}");
}

#[test]
fn json_lines_name_the_value_and_the_limit_that_stopped_a_solve() {
    let out = gpn(&[
        "solve",
        "cfour",
        "--moves",
        "d,d,d,d,c,c,e,e",
        "--algo",
        "dfpn,pns",
        "--json",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    for line in &lines {
        assert!(line.starts_with('{') && line.ends_with('}'), "{line}");
        assert!(line.contains("\"value\":\"win\""), "{line}");
        assert!(line.contains("\"stopped_by\":null"), "{line}");
    }
    // A node limit: the value is unknown, and the JSON and the text say which limit.
    let out = gpn(&[
        "solve",
        "cfour",
        "--algo",
        "dfpn",
        "--max-nodes",
        "1000",
        "--json",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("\"value\":\"unknown\",\"stopped_by\":\"nodes\""),
        "{text}"
    );
    let out = gpn(&["solve", "cfour", "--algo", "sb-gpn", "--max-time", "0.2"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("value unknown (stopped by the time limit)"),
        "{text}"
    );
}

#[test]
fn ctrl_c_ends_a_solve_with_its_partial_result_and_progress_goes_to_stderr() {
    let child = Command::new(env!("CARGO_BIN_EXE_gpn"))
        .args(["solve", "cfour", "--algo", "dfpn,pns"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("gpn runs");
    std::thread::sleep(std::time::Duration::from_millis(3500));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let out = child.wait_with_output().expect("gpn ends");
    // The partial result is printed, then the status of a SIGINT death (128 + 2).
    assert_eq!(out.status.code(), Some(130), "{:?}", out.status);
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains("value unknown (stopped: interrupted)"),
        "{text}"
    );
    // The second algorithm does not start after Ctrl-C.
    assert!(!text.contains("algo pns"), "{text}");
    assert!(err.contains("running until solved"), "{err}");
    assert!(
        err.contains("solve dfpn: 2 s,") && err.contains("root pn"),
        "{err}"
    );
}
