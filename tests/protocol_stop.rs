//! Long computations reached through a protocol stay interruptible: `go perft` counts while
//! `isready` and `d` are answered, and `stop`, `quit`, the end of input and a closed stdout end
//! it promptly; a too deep perft is an error; a stopped `go searchmoves ... mate` answers one of
//! the searchmoves; `d` leaves a running search running; GTP refuses a solve time no clock holds
//! and a file that is not a regular file.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::Engine;

/// How long any answer may take before the test fails (a hang fails, it does not block).
const TIMEOUT: Duration = Duration::from_secs(20);
/// "Promptly": the most a stop, a quit or an end of input may take to end a perft.
const PROMPT: Duration = Duration::from_secs(1);
/// A perft that no test machine finishes (cfour from the start, 30 plies).
const ENDLESS_PERFT: &str = "go perft 30";

fn until(e: &mut Engine, done: impl Fn(&str) -> bool) -> Vec<String> {
    e.until_within(TIMEOUT, done)
}

/// Sends `isready`; the lines before `readyok`, which must come within `wait`.
fn sync_within(e: &mut Engine, wait: Duration) -> Vec<String> {
    e.send("isready");
    let mut lines = e.until_within(wait, |l| l == "readyok");
    lines.pop();
    lines
}

/// A UCI engine playing cfour from its start position.
fn uci_cfour() -> Engine {
    let mut e = Engine::start(&[]);
    e.send("uci");
    until(&mut e, |l| l == "uciok");
    e.send("setoption name UCI_Variant value cfour");
    e.send("position startpos");
    sync_within(&mut e, TIMEOUT);
    e
}

/// An engine of `protocol` (`usi`, `uai`) after its handshake.
fn handshake(protocol: &str) -> Engine {
    let mut e = Engine::start(&[]);
    e.send(protocol);
    until(&mut e, |l| l == format!("{protocol}ok"));
    e.send("position startpos");
    sync_within(&mut e, TIMEOUT);
    e
}

/// Starts an endless perft, checks that `isready` is answered meanwhile and that `stop` ends it
/// promptly with the stopped marker; the engine answers afterwards.
fn perft_answers_isready_and_stop(e: &mut Engine) {
    e.send(ENDLESS_PERFT);
    std::thread::sleep(Duration::from_millis(200));
    let before = sync_within(e, PROMPT);
    assert!(
        !before.iter().any(|l| l.contains("Nodes searched")),
        "{before:#?}"
    );
    let t = Instant::now();
    e.send("stop");
    let lines = e.until_within(PROMPT, |l| l.starts_with("info string perft stopped"));
    assert!(t.elapsed() < PROMPT, "stop took {:?}", t.elapsed());
    assert!(
        !lines.iter().any(|l| l.contains("Nodes searched")),
        "a cut perft has no total: {lines:#?}"
    );
    // The engine is free again: a finished perft still answers as Stockfish does.
    e.send("go perft 1");
    let lines = until(e, |l| l.starts_with("Nodes searched"));
    let moves = lines.iter().filter(|l| l.contains(": ")).count() - 1;
    assert_eq!(
        lines.last(),
        Some(&format!("Nodes searched: {moves}")),
        "{lines:#?}"
    );
}

#[test]
fn uci_perft_answers_isready_and_stops_promptly() {
    let mut e = uci_cfour();
    perft_answers_isready_and_stop(&mut e);
}

#[test]
fn usi_and_uai_perft_answer_isready_and_stop_promptly() {
    for protocol in ["usi", "uai"] {
        let mut e = handshake(protocol);
        // Minishogi and ataxx never end: depth 30 is endless there too.
        perft_answers_isready_and_stop(&mut e);
    }
}

#[test]
fn perft_deeper_than_any_count_is_an_error() {
    // The old code recursed 4294967295 plies (a stack overflow in games without an end, such
    // as minishogi) and never answered `isready`.
    let mut e = uci_cfour();
    e.send("go perft 4294967295");
    let lines = sync_within(&mut e, PROMPT * 5);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error go perft: depth 4294967295")),
        "{lines:#?}"
    );
    let mut e = handshake("usi");
    e.send("go perft 99999999999999");
    let lines = sync_within(&mut e, PROMPT * 5);
    assert!(
        lines.iter().any(|l| l.starts_with("info string error")),
        "{lines:#?}"
    );
}

#[test]
fn perft_ends_promptly_on_quit_and_on_end_of_input() {
    let mut e = uci_cfour();
    e.send(ENDLESS_PERFT);
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    e.send("quit");
    let took = common::wait_exit(&mut e.child, t);
    assert!(took < PROMPT, "quit took {took:?}");

    let mut e = uci_cfour();
    e.send(ENDLESS_PERFT);
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    e.stdin = None;
    let took = common::wait_exit(&mut e.child, t);
    assert!(took < PROMPT, "end of input took {took:?}");
    // As a search does at the end of input, the cut perft is answered.
    let rest = e.drain(Duration::from_millis(200));
    assert!(
        rest.iter()
            .any(|l| l.starts_with("info string perft stopped")),
        "{rest:#?}"
    );
}

#[test]
fn perft_ends_promptly_when_stdout_is_closed() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpn"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("gpn starts");
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(
        stdin,
        "uci\nsetoption name UCI_Variant value cfour\n{ENDLESS_PERFT}"
    )
    .expect("write");
    stdin.flush().expect("flush");
    std::thread::sleep(Duration::from_millis(300));
    // The reader goes away while stdin stays open: nothing is written during a perft, yet the
    // engine must notice.
    drop(child.stdout.take());
    let took = common::wait_exit(&mut child, Instant::now());
    assert!(took < PROMPT, "a closed stdout took {took:?}");
    drop(stdin);
}

#[test]
fn stopped_mate_search_answers_one_of_the_searchmoves() {
    for only in ["P@g1", "P@e1"] {
        let mut e = uci_cfour();
        e.send(&format!("go searchmoves {only} mate 50"));
        std::thread::sleep(Duration::from_millis(300));
        e.send("stop");
        let lines = until(&mut e, |l| l.starts_with("bestmove"));
        let best = lines.last().expect("bestmove line");
        assert_eq!(best, &format!("bestmove {only}"), "{lines:#?}");
    }
}

#[test]
fn display_during_an_infinite_search_leaves_it_running() {
    let mut e = uci_cfour();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("d");
    let shown = until(&mut e, |l| l.starts_with("info string legal"));
    assert!(
        shown
            .iter()
            .any(|l| l.starts_with("info string game cfour position")),
        "{shown:#?}"
    );
    // Still searching: no bestmove until `stop`.
    let meanwhile = e.drain(Duration::from_millis(500));
    assert!(
        !meanwhile.iter().any(|l| l.starts_with("bestmove")),
        "d ended the search: {shown:#?} {meanwhile:#?}"
    );
    sync_within(&mut e, PROMPT);
    e.send("stop");
    let lines = until(&mut e, |l| l.starts_with("bestmove"));
    assert!(lines.iter().filter(|l| l.starts_with("bestmove")).count() == 1);
    // Exactly one bestmove: nothing more comes.
    let after = sync_within(&mut e, PROMPT);
    assert!(
        !after.iter().any(|l| l.starts_with("bestmove")),
        "{after:#?}"
    );
}

/// One GTP command's response, without its blank line.
fn gtp(e: &mut Engine, command: &str) -> Vec<String> {
    e.send(command);
    let mut lines = until(e, str::is_empty);
    lines.pop();
    lines
}

#[test]
fn gtp_solve_time_beyond_any_clock_is_an_error() {
    // The old code panicked converting 1e300 seconds to a duration.
    let mut e = Engine::start(&["--protocol", "gtp", "--game", "cfour"]);
    for bad in ["gpn-solve 1e300", "gpn-solve dfpn 1e20"] {
        let answer = gtp(&mut e, bad);
        assert!(answer[0].starts_with('?'), "{bad}: {answer:#?}");
    }
    assert_eq!(gtp(&mut e, "name"), vec!["= gpn"]);
}

#[cfg(unix)]
#[test]
fn gtp_loadsgf_of_an_endless_file_is_an_error() {
    // The old code read /dev/zero until memory ran out.
    let mut e = Engine::start(&["--protocol", "gtp", "--game", "go"]);
    for bad in ["loadsgf /dev/zero", "loadsgf /"] {
        e.send(bad);
        let answer = e.until_within(PROMPT * 5, str::is_empty);
        assert!(
            answer[0].starts_with("? cannot load file"),
            "{bad}: {answer:#?}"
        );
    }
    assert_eq!(gtp(&mut e, "name"), vec!["= gpn"]);
}
