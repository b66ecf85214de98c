//! `gpn tune` with the real binary: the OpenBench list, a tiny SPSA run with its files, a rerun
//! that continues (here: finds the run complete), and two shards that give the single-process
//! run's path exactly.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::{gpn, gpn_ok as ok};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpn-tune-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A tiny run: cfour, plain UCT without the network, 20 iterations a move.
fn tiny<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "tune",
        "cfour",
        "--base",
        "sb-uct",
        "--params",
        "c,pn_decay",
        "--pairs",
        "4",
        "--pairs-per-step",
        "2",
        "--iterations",
        "20",
        "--openings",
        "2",
        "--r-end",
        "0.05",
        "--quiet",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    args
}

#[test]
fn the_openbench_list_has_seven_fields_and_the_games_values() {
    let list = ok(&["tune", "cfour", "--list"]);
    let lines: Vec<&str> = list.lines().collect();
    assert!(lines.len() >= 3, "{list}");
    for line in &lines {
        let fields: Vec<&str> = line.split(", ").collect();
        assert_eq!(fields.len(), 7, "{line}");
        assert!(fields[1] == "int" || fields[1] == "float", "{line}");
        for f in &fields[2..] {
            assert!(f.parse::<f64>().is_ok(), "{line}");
        }
    }
    assert!(lines.contains(&"C, float, 1, 0.1, 3, 0.1, 0.002"), "{list}");
    let spin = ok(&["tune", "cfour", "--list", "--spin", "--params", "c"]);
    assert_eq!(spin, "Tune_C, int, 1000, 100, 3000, 100, 0.000002\n");
    // The spin form is an option every protocol accepts.
    let out = gpn(&["tune", "cfour", "--list", "--params", "hash"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_tiny_run_writes_its_files_and_a_rerun_continues() {
    let dir = temp_dir("tiny");
    let report = ok(&tiny(path(&dir), &[]));
    assert!(report.contains("4 of 4 pairs in 2 steps"), "{report}");
    assert!(report.contains("tuned: \"sb-uct c="), "{report}");
    let csv = std::fs::read_to_string(dir.join("path.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "iteration,c,pn_decay,wins,draws,losses");
    assert_eq!(lines.len(), 4, "{csv}");
    assert!(lines[3].starts_with("4,"), "{csv}");
    let svg = std::fs::read_to_string(dir.join("path.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("<polyline"));
    let state = std::fs::read_to_string(dir.join("state.json")).unwrap();
    assert!(state.contains("\"pairs_done\":4"), "{state}");
    // The same command again finds the run done and reports the same theta.
    let again = ok(&tiny(path(&dir), &[]));
    let theta = |r: &str| {
        r.lines()
            .filter(|l| l.contains("theta"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(theta(&again), theta(&report));
    // Other settings on the same directory are refused.
    let other = gpn(&tiny(path(&dir), &["--seed", "9"]));
    assert_eq!(other.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&other.stderr).contains("another run"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_shards_give_the_single_process_path() {
    let single = temp_dir("single");
    ok(&tiny(path(&single), &[]));
    let shared = temp_dir("shards");
    let dir = path(&shared).to_string();
    let spawn = |k: &str| {
        Command::new(env!("CARGO_BIN_EXE_gpn"))
            .args(tiny(&dir, &["--shard", k]))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
    };
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| spawn("0/2"));
        let b = s.spawn(|| spawn("1/2"));
        (a.join().unwrap().unwrap(), b.join().unwrap().unwrap())
    });
    assert!(a.status.success() && b.status.success(), "{a:?} {b:?}");
    let csv = |d: &Path| std::fs::read_to_string(d.join("path.csv")).unwrap();
    assert_eq!(csv(&shared), csv(&single));
    assert!(shared.join("state-1-of-2.json").exists());
    let _ = std::fs::remove_dir_all(&single);
    let _ = std::fs::remove_dir_all(&shared);
}
