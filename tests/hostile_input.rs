//! Hostile input through the real binary: files that lie about their sizes or are not files at
//! all, records nested past any stack, numbers past what a duration or the machine holds,
//! arguments that are not UTF-8, and values a command accepted without a word. Each is an
//! error (exit 2, `? ...`, `info string error ...`) or a sane answer, never an abort or a hang.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::Engine;

/// The longest any of these may take: each is refused before any work.
const PROMPT: Duration = Duration::from_secs(20);

fn gpn(args: &[&str]) -> Output {
    run(Command::new(env!("CARGO_BIN_EXE_gpn")).args(args))
}

/// Runs `command` with stdin closed, failing the test if it takes longer than [`PROMPT`].
fn run(command: &mut Command) -> Output {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gpn starts");
    let started = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > PROMPT {
            let _ = child.kill();
            panic!("gpn still running after {PROMPT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Exit status 2 with `needle` in the error.
fn assert_usage_error(out: &Output, needle: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(needle), "wanted '{needle}' in: {err}");
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpn-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A FIFO nobody writes to (opening it for reading blocks); `None` without `mkfifo`.
fn fifo(name: &str) -> Option<PathBuf> {
    let path = scratch(name);
    let _ = std::fs::remove_file(&path);
    let made = Command::new("mkfifo").arg(&path).status();
    made.is_ok_and(|s| s.success()).then_some(path)
}

/// A network file header for cfour that declares 8 hidden layers of 65,536 (about 154 GB of
/// weights) and holds none of them.
fn lying_network() -> PathBuf {
    let mut bytes = b"GPNN".to_vec();
    // Version 1, the name's length, the name, inputs, policy outputs, 8 hidden layers.
    bytes.extend_from_slice(&1u32.to_le_bytes());
    bytes.extend_from_slice(&5u32.to_le_bytes());
    bytes.extend_from_slice(b"cfour");
    for x in [126u32, 7, 8] {
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    for _ in 0..8 {
        bytes.extend_from_slice(&65_536u32.to_le_bytes());
    }
    let path = scratch("lying.gpnn");
    std::fs::write(&path, bytes).unwrap();
    path
}

/// An SGF record of one move nested `depth` trees deep.
fn deep_sgf(depth: usize) -> PathBuf {
    let text = format!("{};SZ[9];B[cc]{}", "(".repeat(depth), ")".repeat(depth));
    let path = scratch(&format!("deep{depth}.sgf"));
    std::fs::write(&path, text).unwrap();
    path
}

impl Engine {
    /// Lines up to and including the first that satisfies `done`, within [`PROMPT`].
    fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.until_within(PROMPT, done)
    }

    /// One GTP exchange: the status line and the rest, up to the blank line.
    fn gtp(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        let mut lines = self.until(str::is_empty);
        lines.pop();
        lines
    }

    /// `isready` answered: the engine is alive and reading.
    fn ready(&mut self) {
        self.send("isready");
        self.until(|l| l == "readyok");
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().expect("exit");
        assert!(status.success(), "{status}");
    }
}

#[test]
fn a_network_header_that_declares_more_than_the_file_holds_is_refused() {
    let net = lying_network();
    let net = net.to_str().unwrap();
    let out = gpn(&["solve", "cfour", "--algo", "dfpn", "--net", net]);
    assert_usage_error(&out, "more than the");
    // An engine option is reported in the protocol, as every bad `--option` is.
    let out = gpn(&["--protocol", "uci", "--option", &format!("network={net}")]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("info string error network: not a usable"),
        "{text}"
    );
    let mut e = Engine::start(&["--protocol", "uci"]);
    e.send("setoption name UCI_Variant value cfour");
    e.send(&format!("setoption name EvalFile value {net}"));
    let lines = e.until(|l| l.starts_with("info string error"));
    assert!(lines.last().unwrap().contains("parameters"), "{lines:?}");
    e.ready();
    e.quit();
}

#[test]
fn a_network_file_cut_short_is_refused_without_reading_past_it() {
    // A plausible shape whose weights are missing: the reader stops at the end of the file.
    let mut bytes = std::fs::read(lying_network()).unwrap();
    let at = bytes.len() - 8 * 4 - 4;
    bytes.truncate(at);
    bytes.extend_from_slice(&1u32.to_le_bytes());
    bytes.extend_from_slice(&64u32.to_le_bytes());
    let path = scratch("short.gpnn");
    std::fs::write(&path, bytes).unwrap();
    let out = gpn(&[
        "solve",
        "cfour",
        "--algo",
        "pns",
        "--net",
        path.to_str().unwrap(),
    ]);
    assert_usage_error(&out, "the file ends after 0 of the");
}

#[test]
fn an_sgf_nested_a_million_deep_is_read_not_a_stack_overflow() {
    let sgf = deep_sgf(1_000_000);
    let sgf = sgf.to_str().unwrap();
    let out = gpn(&["show", "go", "--sgf", sgf]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut e = Engine::start(&["--protocol", "gtp"]);
    assert_eq!(e.gtp(&format!("loadsgf {sgf}")), ["= white"]);
    assert_eq!(e.gtp("list_stones black").len(), 1);
    e.gtp("quit");
}

#[test]
fn a_hash_the_machine_cannot_hold_still_answers_go_mate_and_gpn_solve() {
    // 128 GiB: inside Hash's advertised range; the solver's table is cut to what fits.
    let mut e = Engine::start(&["--protocol", "uci"]);
    e.send("setoption name UCI_Variant value cfour");
    e.send("setoption name Hash value 131072");
    e.send("position startpos moves d1 d2 d3 d4");
    e.send("go mate 3");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.starts_with("info string solve")),
        "{lines:?}"
    );
    e.ready();
    e.quit();
    let mut e = Engine::start(&["--protocol", "gtp", "--game", "cfour"]);
    e.gtp("gpn-setoption Hash 131072");
    let answer = e.gtp("gpn-solve dfpn 1 1000");
    assert!(answer[0].starts_with('='), "{answer:?}");
    e.gtp("quit");
}

#[test]
fn seconds_past_what_a_duration_holds_are_errors() {
    for t in ["1e20", "inf", "nan", "0"] {
        let out = gpn(&["solve", "cfour", "--algo", "dfpn", "--max-time", t]);
        assert_usage_error(&out, "--max-time");
    }
    // 1e19 s fits a duration but no deadline: it is no limit at all, not a panic.
    let out = gpn(&[
        "solve",
        "cfour",
        "--algo",
        "dfpn",
        "--max-time",
        "1e19",
        "--max-nodes",
        "2000",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("unknown"));
    let mut e = Engine::start(&["--protocol", "gtp", "--game", "cfour"]);
    let answer = e.gtp("gpn-solve dfpn 1e20 100");
    assert!(answer[0].starts_with('?'), "{answer:?}");
    assert_eq!(e.gtp("name"), ["= gpn"]);
    e.gtp("quit");
}

#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_a_usage_error() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let bad = OsStr::from_bytes(b"cf\xffour");
    let out = run(Command::new(env!("CARGO_BIN_EXE_gpn")).args([OsStr::new("perft"), bad]));
    assert_usage_error(&out, "argument 2");
    assert!(stderr(&out).contains("not valid UTF-8"));
}

#[test]
fn devices_are_refused_as_files() {
    let zero = "/dev/zero";
    if !Path::new(zero).exists() {
        return;
    }
    for args in [
        vec!["show", "go", "--sgf", zero],
        vec!["solve", "--batch", zero, "--algo", "pns"],
        vec!["merge", zero],
        vec!["solve", "cfour", "--algo", "dfpn", "--net", zero],
    ] {
        let out = gpn(&args);
        assert_usage_error(&out, "not a regular file");
    }
    let mut e = Engine::start(&["--protocol", "gtp"]);
    let answer = e.gtp("loadsgf /dev/zero");
    assert!(answer[0].starts_with("? cannot load file"), "{answer:?}");
    assert!(answer[0].contains("not a regular file"), "{answer:?}");
    e.gtp("quit");
}

#[test]
fn a_fifo_is_refused_rather_than_waited_on() {
    let Some(pipe) = fifo("pipe") else { return };
    let pipe = pipe.to_str().unwrap();
    let mut e = Engine::start(&["--protocol", "gtp"]);
    let answer = e.gtp(&format!("loadsgf {pipe}"));
    assert!(answer[0].contains("a FIFO"), "{answer:?}");
    let answer = e.gtp(&format!("gpn-setoption network {pipe}"));
    assert!(answer[0].starts_with('?'), "{answer:?}");
    e.gtp("quit");
    let mut e = Engine::start(&["--protocol", "uci"]);
    e.send("setoption name UCI_Variant value cfour");
    e.send(&format!("setoption name EvalFile value {pipe}"));
    let lines = e.until(|l| l.starts_with("info string error"));
    assert!(lines.last().unwrap().contains("a FIFO"), "{lines:?}");
    e.ready();
    e.quit();
    let out = gpn(&["show", "go", "--sgf", pipe]);
    assert_usage_error(&out, "a FIFO");
}

#[test]
fn generate_says_when_it_finds_fewer_positions_than_asked() {
    // Connect Four ends within 42 plies: no position is 100 plies deep.
    let out = gpn(&["solve", "cfour", "--generate", "1", "--plies", "100"]);
    assert_usage_error(&out, "only 0 distinct positions");
    assert!(out.stdout.is_empty());
    // Three plies of Connect Four have 7^3 = 343 move orders but fewer distinct positions.
    let out = gpn(&["solve", "cfour", "--generate", "400", "--plies", "3"]);
    assert_usage_error(&out, "--generate 400: only");
    let found = String::from_utf8_lossy(&out.stdout).lines().count();
    assert!((1..400).contains(&found), "{found}");
    let out = gpn(&["solve", "cfour", "--generate", "5", "--plies", "4"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn values_once_accepted_silently_are_usage_errors() {
    let net_free = ["solve", "cfour", "--algo", "dfpn"];
    let with = |extra: &[&'static str]| -> Vec<&'static str> {
        net_free.iter().chain(extra).copied().collect()
    };
    for (args, needle) in [
        (with(&["--memory", "0"]), "--memory"),
        (
            with(&["--memory", "100000000000"]),
            "more than this machine",
        ),
        (
            vec!["solve", "cfour", "--algo", "ppns", "--playouts", "0"],
            "--playouts",
        ),
        (with(&["--focus", "0.5"]), "--net"),
        (with(&["--pcn", "b_max"]), "--net"),
        (vec!["bench", "--engine", ""], "--engine"),
        (vec!["perft", "minishogi", "4294967295"], "deeper than 128"),
        (vec!["bench", "--engine", "  "], "empty spec"),
        (
            vec![
                "train",
                "cfour",
                "--data",
                "x.gpns",
                "--out",
                "y.gpnn",
                "--threads",
                "1000000000",
            ],
            "thread count",
        ),
        (
            vec![
                "match",
                "cfour",
                "--engine1",
                "random",
                "--engine2",
                "random",
                "--concurrency",
                "1000000000",
            ],
            "thread count",
        ),
    ] {
        let out = gpn(&args);
        assert_usage_error(&out, needle);
    }
}

#[test]
fn a_line_longer_than_any_command_is_skipped_with_an_error() {
    let mut e = Engine::start(&["--protocol", "uci"]);
    let long = "x".repeat(3 << 20);
    e.send(&long);
    let lines = e.until(|l| l.starts_with("info string error"));
    assert!(
        lines.last().unwrap().contains("a line of more than"),
        "{lines:?}"
    );
    e.ready();
    e.quit();
    let mut e = Engine::start(&["--protocol", "gtp"]);
    e.send(&format!("name {long}"));
    let answer = e.gtp("name");
    assert!(answer[0].starts_with("? a line of more than"), "{answer:?}");
    assert_eq!(e.until(str::is_empty), ["= gpn", ""]);
    e.gtp("quit");
}
