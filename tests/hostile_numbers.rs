//! Numbers too large for a `Duration` in the binary's inputs (found by the protocol fuzz of
//! issue 40): each is taken as "unlimited" or refused, never a panic.

use std::io::Write;
use std::process::{Command, Stdio};

fn gpn() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gpn"))
}

/// `gpn-solve 1e300` used to panic in `Duration::from_secs_f64` (an abort in release builds).
#[test]
fn gtp_solve_with_a_huge_time_answers_and_the_engine_goes_on() {
    let mut child = gpn()
        .args(["--protocol", "gtp"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("gpn starts");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(b"set_game cfour\n1 gpn-solve 1e300 10\n2 name\n")
        .expect("written");
    drop(stdin);
    let out = child.wait_with_output().expect("gpn exits");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{:?}: {text}", out.status);
    assert!(text.contains("=1 ") || text.contains("?1 "), "{text}");
    assert!(text.contains("=2 gpn"), "{text}");
}

/// `gpn solve --max-time 1e300` used to panic the same way.
#[test]
fn solve_with_a_huge_max_time_runs() {
    let out = gpn()
        .args([
            "solve",
            "cfour",
            "--algo",
            "pns",
            "--max-time",
            "1e300",
            "--max-nodes",
            "10",
        ])
        .output()
        .expect("gpn runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.status.success(), "{:?}: {err}", out.status);
}
