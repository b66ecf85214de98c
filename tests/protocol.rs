//! Protocol tests against the real binary: UCI, USI and GTP transcripts, the races harnesses
//! create (stop right after go, stop when idle, double stop, position or isready mid-search,
//! cutechess's ponder-hit and ponder-miss sequences, quit and EOF mid-search), bad input, and a
//! fuzz of random and mutated lines after which the engine still answers.

use std::io::Write;
use std::process::Command;
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(20);

mod common;
use common::Engine;

impl Engine {
    /// Lines up to and including the first that satisfies `done`.
    fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.until_within(TIMEOUT, done)
    }

    /// Sends `isready` and waits for `readyok`; returns what came before it.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends each line and checks that it is answered with `info string error` (UCI family).
    fn assert_each_rejected(&mut self, bad: &[&str]) {
        for line in bad {
            self.send(line);
            let lines = self.sync();
            assert!(
                lines.iter().any(|l| l.starts_with("info string error")),
                "{line}: {lines:#?}"
            );
        }
    }

    /// The legal moves (UCI/USI `d` command).
    fn legal(&mut self) -> Vec<String> {
        let lines = self.show();
        let last = lines.last().expect("legal line");
        last.trim_start_matches("info string legal")
            .split_whitespace()
            .map(str::to_string)
            .collect()
    }

    /// The `d` output, up to its last line (the legal moves).
    fn show(&mut self) -> Vec<String> {
        self.send("d");
        self.until(|l| l.starts_with("info string legal"))
    }

    /// Everything `d` prints (through the `isready` after it).
    fn show_all(&mut self) -> Vec<String> {
        self.send("d");
        self.sync()
    }

    fn position_text(&mut self) -> String {
        let lines = self.show();
        lines
            .iter()
            .find(|l| l.contains(" position "))
            .cloned()
            .unwrap_or_default()
    }

    /// Closes stdin and waits for the exit; returns how long it took.
    fn close(mut self) -> Duration {
        let t = Instant::now();
        self.stdin = None;
        common::wait_exit(&mut self.child, t)
    }
}

fn bestmove(lines: &[String]) -> String {
    let all: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(all.len(), 1, "exactly one bestmove: {lines:#?}");
    all[0].split_whitespace().nth(1).unwrap_or("").to_string()
}

fn uci(variant: &str) -> Engine {
    let mut e = Engine::start(&[]);
    e.send("uci");
    let handshake = e.until(|l| l == "uciok");
    assert!(handshake.iter().any(|l| l.starts_with("id name gpn")));
    assert!(handshake
        .iter()
        .any(|l| l.starts_with("option name UCI_Variant type combo")));
    e.send(&format!("setoption name UCI_Variant value {variant}"));
    e.send("ucinewgame");
    e.sync();
    e
}

#[test]
fn uci_plays_a_legal_move_with_a_final_info_line() {
    let mut e = uci("breakthrough");
    e.send("position startpos moves a2a3 h7h6");
    let legal = e.legal();
    e.send("go movetime 200");
    let lines = e.until(|l| l.starts_with("bestmove"));
    let best = bestmove(&lines);
    assert!(legal.contains(&best), "{best} not in {legal:?}");
    let last_info = &lines[lines.len() - 2];
    assert!(last_info.starts_with("info depth"), "{lines:#?}");
    for field in [
        " score ",
        " nodes ",
        " nps ",
        " time ",
        " hashfull ",
        " pv ",
    ] {
        assert!(last_info.contains(field), "{field} missing: {last_info}");
    }
    assert!(e.drain(Duration::from_millis(200)).is_empty());
    e.send("quit");
    e.close();
}

#[test]
fn stop_right_after_go_and_stop_when_idle() {
    let mut e = uci("cfour");
    for _ in 0..20 {
        e.send("position startpos");
        e.send("go infinite");
        e.send("stop");
        let lines = e.until(|l| l.starts_with("bestmove"));
        let best = bestmove(&lines);
        assert!(best.starts_with("P@"), "{best}");
    }
    // Idle stop, double stop: nothing more.
    e.send("stop");
    e.send("stop");
    let extra = e.sync();
    assert!(
        extra.iter().all(|l| !l.starts_with("bestmove")),
        "{extra:#?}"
    );
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    e.send("stop");
    e.send("stop");
    let lines = e.until(|l| l.starts_with("bestmove"));
    bestmove(&lines);
    let extra = e.sync();
    assert!(
        extra.iter().all(|l| !l.starts_with("bestmove")),
        "{extra:#?}"
    );
    e.close();
}

#[test]
fn isready_and_stop_answer_within_milliseconds_mid_search() {
    let mut e = uci("breakthrough");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    e.sync();
    let ready = t.elapsed();
    let t = Instant::now();
    e.send("stop");
    e.until(|l| l.starts_with("bestmove"));
    let stop = t.elapsed();
    // Generous bounds for a loaded CI machine; the figures themselves are reported by
    // docs/protocol-latency.md.
    assert!(ready < Duration::from_millis(500), "isready took {ready:?}");
    assert!(stop < Duration::from_millis(500), "stop took {stop:?}");
    e.close();
}

#[test]
fn position_and_go_during_a_search_stop_it_first() {
    let mut e = uci("breakthrough");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("position startpos moves a2a3");
    // The running search ends with its one bestmove before the new position applies.
    let lines = e.sync();
    bestmove(&lines);
    let text = e.position_text();
    assert!(
        text.contains(" b"),
        "second player to move after a2a3: {text}"
    );
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("go movetime 100");
    let lines = e.until(|l| l.starts_with("bestmove"));
    bestmove(&lines);
    let lines = e.until(|l| l.starts_with("bestmove"));
    bestmove(&lines);
    e.close();
}

#[test]
fn cutechess_ponder_hit_and_miss_sequences() {
    let mut e = uci("breakthrough");
    e.send("setoption name Ponder value true");
    e.send("position startpos");
    e.sync();
    e.send("go wtime 5000 btime 5000 winc 50 binc 50");
    let lines = e.until(|l| l.starts_with("bestmove"));
    let words: Vec<String> = lines
        .last()
        .unwrap()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    assert_eq!(
        words.get(2).map(String::as_str),
        Some("ponder"),
        "{words:?}"
    );
    let (ours, theirs) = (words[1].clone(), words[3].clone());
    // Hit: position with both moves, isready, go ponder, then ponderhit.
    e.send(&format!("position startpos moves {ours} {theirs}"));
    e.sync();
    e.send("go ponder wtime 5000 btime 5000 winc 50 binc 50");
    let early = e.drain(Duration::from_millis(300));
    assert!(
        early.iter().all(|l| !l.starts_with("bestmove")),
        "premature: {early:#?}"
    );
    let t = Instant::now();
    e.send("ponderhit");
    let lines = e.until(|l| l.starts_with("bestmove"));
    bestmove(&lines);
    assert!(
        t.elapsed() < Duration::from_millis(2500),
        "{:?}",
        t.elapsed()
    );
    // Miss: go ponder, stop (its bestmove is discarded), the real line, isready, go.
    e.send("position startpos moves a2a3 a7a6 b2b3 b7b6");
    e.send("go ponder wtime 5000 btime 5000");
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    let lines = e.until(|l| l.starts_with("bestmove"));
    bestmove(&lines);
    e.send("position startpos moves a2a3 a7a6 b2b3 h7h6");
    e.sync();
    let legal = e.legal();
    e.send("go wtime 4900 btime 5000");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(legal.contains(&bestmove(&lines)));
    e.close();
}

#[test]
fn infinite_and_ponder_never_end_by_themselves_even_when_solved() {
    // Connect Four with a win in one for the side to move: the root is solved at once.
    let mut e = uci("cfour");
    e.send("position startpos moves a1 b1 a2 b2 a3 b3");
    e.send("go infinite");
    let early = e.drain(Duration::from_millis(400));
    assert!(
        early.iter().all(|l| !l.starts_with("bestmove")),
        "{early:#?}"
    );
    e.send("stop");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(bestmove(&lines), "P@a4");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:#?}"
    );
    // A timed search of the same position stops as soon as it is solved.
    e.send("go movetime 10000");
    let t = Instant::now();
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(bestmove(&lines), "P@a4");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    e.close();
}

#[test]
fn quit_and_eof_during_a_search_exit_promptly() {
    let mut e = uci("minishogi");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("quit");
    let t = Instant::now();
    let took = common::wait_exit(&mut e.child, t);
    assert!(took < Duration::from_secs(2), "{took:?}");
    let mut e = uci("minishogi");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    assert!(e.close() < Duration::from_secs(2));
}

#[test]
fn bad_input_is_reported_and_the_position_kept() {
    let mut e = uci("breakthrough");
    e.send("position startpos moves a2a3");
    let before = e.position_text();
    e.assert_each_rejected(&[
        "position fen",
        "position fen xyz w",
        "position startpos moves a2a3 a2a3",
        "position startpos moves zz99",
        "position sideways",
        "setoption name Hash value lots",
        "setoption name NoSuchOption value 1",
        "setoption name UCI_Variant value chess",
        "frobnicate",
    ]);
    assert_eq!(e.position_text(), before);
    e.send("go wtime soon");
    let lines = e.until(|l| l.starts_with("bestmove"));
    bestmove(&lines);
    e.close();
}

#[test]
fn terminal_position_answers_bestmove_none() {
    let mut e = uci("cfour");
    e.send("position startpos moves a1 b1 a2 b2 a3 b3 a4");
    e.send("go movetime 100");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    e.close();
}

#[test]
fn multipv_and_wdl_lines() {
    let mut e = uci("cfour");
    e.send("setoption name MultiPV value 3");
    e.send("setoption name UCI_ShowWDL value true");
    e.send("position startpos");
    e.send("go nodes 3000");
    let lines = e.until(|l| l.starts_with("bestmove"));
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.contains(&format!(" multipv {k} ")) && l.contains(" wdl ")),
            "multipv {k}: {lines:#?}"
        );
    }
    e.close();
}

#[test]
fn usi_handshake_and_a_move() {
    let mut e = Engine::start(&[]);
    e.send("usi");
    let lines = e.until(|l| l == "usiok");
    assert!(lines.iter().any(|l| l.starts_with("option name USI_Hash")));
    assert!(lines
        .iter()
        .filter(|l| l.starts_with("option name"))
        .all(|l| !l["option name ".len()..]
            .split(" type ")
            .next()
            .unwrap()
            .contains(' ')));
    e.send("usinewgame");
    e.send("position startpos");
    e.sync();
    let legal = e.legal();
    e.send("go btime 1000 wtime 1000 byoyomi 100");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(legal.contains(&bestmove(&lines)), "{lines:#?}");
    e.send("gameover win");
    e.send("quit");
    e.close();
}

/// A UAI engine (detected from `uai`), after the handshake and `uainewgame`.
fn uai() -> Engine {
    let mut e = Engine::start(&[]);
    e.send("uai");
    let handshake = e.until(|l| l == "uaiok");
    assert!(handshake.iter().any(|l| l.starts_with("id name gpn")));
    assert!(handshake.iter().any(|l| l.starts_with("option name Hash ")));
    assert!(
        handshake.iter().all(|l| !l.contains("UCI_Variant")),
        "UAI plays ataxx only: no variant option"
    );
    e.send("isready");
    e.until(|l| l == "readyok");
    e.send("uainewgame");
    e.sync();
    e
}

/// The FEN of the engine's position (from `d`).
fn uai_fen(e: &mut Engine) -> String {
    let line = e.position_text();
    line.split_once(" position ")
        .map(|(_, fen)| fen.to_string())
        .unwrap_or(line)
}

#[test]
fn uai_handshake_and_a_move_with_x_clock_as_btime() {
    let mut e = uai();
    e.send("position startpos");
    let legal = e.legal();
    assert_eq!(legal.len(), 16, "{legal:?}");
    // x (the first player) has 2 s, o almost nothing: x must not move as if it had 1 ms.
    e.send("go btime 2000 wtime 1 binc 0 winc 0");
    let t = Instant::now();
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(t.elapsed() >= Duration::from_millis(20), "{lines:#?}");
    let best = bestmove(&lines);
    assert!(legal.contains(&best), "{best} not in {legal:?}");
    // cuteataxx sends a bare FEN each move: the move played and a reply.
    e.send("position fen x5o/7/7/7/7/7/o5x x 0 1 moves b6 f6");
    let fen = uai_fen(&mut e);
    assert_eq!(fen, "x5o/1x3o1/7/7/7/7/o5x x 0 2");
    e.send(&format!("position fen {fen}"));
    let legal = e.legal();
    e.send("go nodes 200 simulations 200");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(legal.contains(&bestmove(&lines)), "{lines:#?}");
    e.send("quit");
    e.close();
}

#[test]
fn uai_stop_right_after_go() {
    let mut e = uai();
    for _ in 0..20 {
        e.send("position fen x5o/7/7/7/7/7/o5x x 0 1");
        e.send("go infinite");
        e.send("stop");
        let lines = e.until(|l| l.starts_with("bestmove"));
        let best = bestmove(&lines);
        assert!(best.len() == 2 || best.len() == 4, "{best}");
    }
    e.send("stop");
    let extra = e.sync();
    assert!(
        extra.iter().all(|l| !l.starts_with("bestmove")),
        "{extra:#?}"
    );
    e.close();
}

#[test]
fn uai_bad_input_is_reported_and_the_position_kept() {
    let mut e = uai();
    e.send("position fen x5o/7/3-3/7/3-3/7/o5x x 0 1 moves b6");
    let before = uai_fen(&mut e);
    assert_eq!(before, "x5o/1x5/3-3/7/3-3/7/o5x o 0 1");
    e.assert_each_rejected(&[
        "position fen",
        "position fen x5o/7/7/7/7/7 x 0 1",
        "position fen x5o/7/7/7/7/7/o5x q 0 1",
        "position fen x5o/7/7/7/7/7/o5x x many 1",
        "position startpos moves b6 b6",
        "position startpos moves d4",
        "position startpos moves a7d7",
        "position startpos moves 0000",
        "position startpos moves P@h8",
        "setoption name UCI_Variant value cfour",
        "setoption name Hash value lots",
        "frobnicate",
    ]);
    assert_eq!(uai_fen(&mut e), before);
    // A bad go value still gets its bestmove.
    e.send("go btime soon");
    let lines = e.until(|l| l.starts_with("bestmove"));
    bestmove(&lines);
    e.close();
}

#[test]
fn uai_forced_pass_and_finished_game() {
    let mut e = uai();
    e.send("position fen 7/7/7/7/---4/oo-4/xo-4 x 0 1");
    e.send("go btime 1000 wtime 1000");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(bestmove(&lines), "0000");
    e.send("position fen 7/7/7/7/7/7/x6 o 0 1");
    e.send("go movetime 50");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    e.close();
}

/// One GTP exchange: the response lines (status line first) up to the blank line.
fn gtp(e: &mut Engine, command: &str) -> Vec<String> {
    e.send(command);
    let mut lines = e.until(|l| l.is_empty());
    lines.pop();
    assert!(
        lines
            .first()
            .is_some_and(|l| l.starts_with('=') || l.starts_with('?')),
        "{command}: {lines:?}"
    );
    lines
}

#[test]
fn gtp_transcript() {
    let mut e = Engine::start(&["--protocol", "gtp", "--option", "movetime=100"]);
    assert_eq!(gtp(&mut e, "1 protocol_version"), vec!["=1 2"]);
    assert_eq!(gtp(&mut e, "name"), vec!["= gpn"]);
    assert_eq!(gtp(&mut e, "known_command genmove"), vec!["= true"]);
    assert_eq!(gtp(&mut e, "known_command dance"), vec!["= false"]);
    assert!(gtp(&mut e, "list_games").contains(&"Othello".to_string()));
    assert_eq!(gtp(&mut e, "set_game Othello"), vec!["="]);
    assert_eq!(gtp(&mut e, "boardsize 8"), vec!["="]);
    assert_eq!(gtp(&mut e, "boardsize 19"), vec!["? unacceptable size"]);
    assert_eq!(gtp(&mut e, "clear_board"), vec!["="]);
    assert_eq!(gtp(&mut e, "komi x"), vec!["? syntax error"]);
    assert_eq!(gtp(&mut e, "komi 0.5"), vec!["="]);
    assert_eq!(gtp(&mut e, "play b d3"), vec!["="]);
    assert!(gtp(&mut e, "play b e3")[0].starts_with("? illegal move"));
    assert!(gtp(&mut e, "play w a1")[0].starts_with("? illegal move"));
    let reply = gtp(&mut e, "7 genmove w");
    assert!(reply[0].starts_with("=7 "), "{reply:?}");
    let board = gtp(&mut e, "showboard");
    assert!(board.len() > 8, "{board:?}");
    assert_eq!(gtp(&mut e, "undo"), vec!["="]);
    assert_eq!(gtp(&mut e, "undo"), vec!["="]);
    assert_eq!(gtp(&mut e, "undo"), vec!["? cannot undo"]);
    assert_eq!(gtp(&mut e, "final_score")[0].chars().next(), Some('?'));
    assert_eq!(gtp(&mut e, "frobnicate"), vec!["? unknown command"]);
    assert_eq!(gtp(&mut e, "time_settings 10 0 0"), vec!["="]);
    assert_eq!(gtp(&mut e, "time_left b 5 0"), vec!["="]);
    let t = Instant::now();
    gtp(&mut e, "genmove b");
    assert!(t.elapsed() < Duration::from_secs(2));
    assert_eq!(gtp(&mut e, "kgs-time_settings byoyomi 0 1 5"), vec!["="]);
    gtp(&mut e, "genmove w");
    // Streaming analysis: `=` at once, info lines, ended by the next command with a blank line.
    e.send("lz-analyze 10");
    let first = e.until(|l| l.starts_with("info move"));
    assert_eq!(first[0], "=");
    e.send("name");
    let rest = e.until(|l| l == "= gpn");
    let blank = rest
        .iter()
        .position(|l| l.is_empty())
        .expect("blank line ends analysis");
    assert!(
        rest[..blank].iter().all(|l| l.starts_with("info move")),
        "{rest:?}"
    );
    assert_eq!(
        e.until(|l| l.is_empty()),
        vec![""],
        "the blank line after '= gpn'"
    );
    assert_eq!(gtp(&mut e, "quit"), vec!["="]);
    e.close();
}

/// A tiny deterministic generator for the fuzz (no dependency).
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Random lines built from the protocol's vocabulary, mutated (characters dropped, swapped,
/// replaced by bytes of every kind), plus pure noise.
fn fuzz_lines(seed: u64, count: usize, vocabulary: &[&str]) -> Vec<String> {
    let mut rng = SplitMix(seed);
    let noise = [
        "-1",
        "0",
        "99999999999999999999",
        "nan",
        "1e9",
        "",
        "moves",
        "fen",
        "value",
        "name",
        "startpos",
        "a1",
        "P@a1",
        "P*3c",
        "pass",
        "0000",
        "/",
        "[",
        "]",
        "+",
        "\t",
        "é",
        "\u{0}",
        "inf",
        "-",
        "b",
        "w",
        "8",
        "x",
    ];
    (0..count)
        .map(|_| {
            let n = 1 + rng.below(6);
            let mut words: Vec<String> = (0..n)
                .map(|k| {
                    if k == 0 || rng.below(3) == 0 {
                        vocabulary[rng.below(vocabulary.len())].to_string()
                    } else {
                        noise[rng.below(noise.len())].to_string()
                    }
                })
                .collect();
            if rng.below(4) == 0 {
                let k = rng.below(words.len());
                words[k] = words[k]
                    .chars()
                    .map(|c| {
                        if rng.below(3) == 0 {
                            char::from_u32(rng.below(0x300) as u32).unwrap_or('?')
                        } else {
                            c
                        }
                    })
                    .collect();
            }
            words.join(" ").replace(['\n', '\r'], " ")
        })
        .collect()
}

/// Feeds `lines` and then `probe`, and checks that `expect` (an answer no fuzz line can
/// produce) comes back: the engine neither crashed nor hung, and then exits at end of input.
fn fuzz(args: &[&str], lines: &[String], probe: &str, expect: &str) {
    if let Ok(dir) = std::env::var("GPN_FUZZ_DUMP") {
        let _ = std::fs::write(format!("{dir}/{}.txt", args[1]), lines.join("\n") + "\n");
    }
    let mut e = Engine::start(args);
    let feed = lines.join("\n") + "\n" + probe + "\n";
    let mut stdin = e.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(feed.as_bytes());
        stdin
    });
    let deadline = Instant::now() + Duration::from_secs(300);
    let mut found = false;
    while Instant::now() < deadline {
        match e.lines.recv_timeout(Duration::from_secs(60)) {
            Ok(line) if line == expect => {
                found = true;
                break;
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    let stdin = writer.join().expect("writer");
    assert!(
        found,
        "no '{expect}' after the fuzz lines ({:?})",
        e.child.try_wait()
    );
    drop(stdin);
    e.close();
}

const FUZZ_LINES: usize = 100_000;

#[test]
fn fuzz_uci() {
    let vocabulary = [
        "uci",
        "isready",
        "ucinewgame",
        "position",
        "position startpos moves",
        "position fen",
        "go",
        "go movetime 1",
        "go nodes 10",
        "go depth 1",
        "go infinite",
        "go ponder",
        "go wtime 10 btime 10",
        "stop",
        "ponderhit",
        "setoption name",
        "setoption name Hash value",
        "setoption name UCI_Variant value",
        "setoption name MultiPV value",
        "d",
        "debug on",
        "register",
        "searchmoves",
        "cfour",
        "reversi",
        "awari",
        "minishogi",
        "loa7",
    ];
    let lines = fuzz_lines(1, FUZZ_LINES, &vocabulary);
    fuzz(
        &["--protocol", "uci"],
        &lines,
        "fuzzprobe",
        "info string error unknown command 'fuzzprobe'",
    );
}

#[test]
fn fuzz_usi() {
    let vocabulary = [
        "usi",
        "isready",
        "usinewgame",
        "position sfen",
        "position startpos moves",
        "go byoyomi 1",
        "go mate 1",
        "go btime 1 wtime 1",
        "stop",
        "gameover lose",
        "setoption name USI_Hash value",
        "go nodes 5",
        "ponderhit",
        "go ponder",
    ];
    let lines = fuzz_lines(2, FUZZ_LINES, &vocabulary);
    fuzz(
        &["--protocol", "usi"],
        &lines,
        "fuzzprobe",
        "info string error unknown command 'fuzzprobe'",
    );
}

#[test]
fn fuzz_uai() {
    let vocabulary = [
        "uai",
        "isready",
        "uainewgame",
        "position",
        "position startpos moves",
        "position fen",
        "x5o/7/7/7/7/7/o5x",
        "x5o/7/2-1-2/7/2-1-2/7/o5x",
        "x",
        "o",
        "0",
        "1",
        "100",
        "b6",
        "a7a5",
        "0000",
        "g1e3",
        "go",
        "go movetime 1",
        "go nodes 10 simulations 10",
        "go depth 1",
        "go infinite",
        "go btime 10 wtime 10 binc 1 winc 1",
        "stop",
        "setoption name Hash value",
        "setoption name UCI_Variant value",
        "ataxx",
        "d",
    ];
    let lines = fuzz_lines(4, FUZZ_LINES, &vocabulary);
    fuzz(
        &["--protocol", "uai"],
        &lines,
        "fuzzprobe",
        "info string error unknown command 'fuzzprobe'",
    );
}

#[test]
fn fuzz_gtp() {
    let vocabulary = [
        "1",
        "play b",
        "play w",
        "genmove b",
        "genmove w",
        "undo",
        "boardsize",
        "clear_board",
        "komi",
        "showboard",
        "set_game",
        "list_games",
        "time_settings",
        "time_left b",
        "kgs-time_settings byoyomi",
        "final_score",
        "known_command",
        "lz-analyze",
        "kata-analyze w interval",
        "gogui-rules_board",
        "gogui-rules_legal_moves",
        "gogui-rules_final_result",
        "gpn-setoption resign_threshold 0.5",
        "reg_genmove b",
        "gpn-setoption C_pn",
        "set_game cfour",
        "set_game breakthrough6x6",
        "set_game reversi",
    ];
    let lines = fuzz_lines(3, FUZZ_LINES, &vocabulary);
    fuzz(
        // Fuzzed time settings may allow seconds per move: cap every move instead.
        &[
            "--protocol",
            "gtp",
            "--option",
            "movetime=1",
            "--option",
            "maxmovetime=2",
        ],
        &lines,
        "424242 name",
        "=424242 gpn",
    );
}

/// The `info string search` line of `d`: the settings the next search uses.
fn search_line(e: &mut Engine) -> String {
    e.show()
        .iter()
        .find_map(|l| l.strip_prefix("info string search "))
        .unwrap_or_default()
        .to_string()
}

#[test]
fn each_game_starts_from_its_defaults_row_and_options_set_survive_a_variant_change() {
    use gpn::search::SearchParams;
    let mut e = uci("cfour");
    assert_eq!(search_line(&mut e), SearchParams::for_game("cfour").spec());
    e.send("setoption name C_pn value 0.375");
    e.send("setoption name PN Decay value not-a-number");
    let errors = e.sync();
    assert!(
        errors.iter().any(|l| l.starts_with("info string error")),
        "{errors:?}"
    );
    for game in ["breakthrough", "reversi", "cfour"] {
        e.send(&format!("setoption name UCI_Variant value {game}"));
        let mut expected = SearchParams::for_game(game);
        expected.c_pn = 0.375;
        assert_eq!(search_line(&mut e), expected.spec(), "{game}");
    }
    e.close();
}

#[test]
fn threads_option_searches_stops_and_reuses_with_several_threads() {
    let mut e = uci("cfour");
    e.assert_each_rejected(&[
        "setoption name Threads value 0",
        "setoption name Threads value 257",
        "setoption name Threads value many",
    ]);
    e.send("setoption name Threads value 4");
    let shown = e.show();
    assert!(
        shown.iter().any(|l| l.contains(" threads=4 ")),
        "{shown:#?}"
    );
    // A timed search, a reused tree, an exact node budget, `stop` mid-search and `go mate`.
    e.send("position startpos moves d1");
    e.send("go movetime 200");
    let lines = e.until(|l| l.starts_with("bestmove"));
    bestmove(&lines);
    e.send("position startpos moves d1 d2");
    e.send("go nodes 5000");
    let lines = e.until(|l| l.starts_with("bestmove"));
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    let nodes: u64 = last_info
        .split_whitespace()
        .skip_while(|w| *w != "nodes")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("nodes");
    assert!((5000..5004).contains(&nodes), "{last_info}");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    e.send("stop");
    e.until(|l| l.starts_with("bestmove"));
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "stop took {:?}",
        t.elapsed()
    );
    e.send("setoption name Solver value sb-gpn");
    e.send("position fen 7/7/7/7/7/ooo1xxx w");
    e.send("go mate 1");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:#?}"
    );
    assert_eq!(bestmove(&lines), "P@d1");
    e.close();
}

/// Starts gpn with no arguments, sends `first` as its first line, and syncs with `isready`.
fn detected(first: &str) -> (Engine, Vec<String>) {
    let mut e = Engine::start(&[]);
    e.send(first);
    let lines = e.sync();
    (e, lines)
}

#[test]
fn uci_commands_as_first_line_mean_uci_and_xboard_gets_a_clear_refusal() {
    // Scripts and cutechess `initstr`s send these before (or without) `uci`, as Stockfish allows.
    for first in [
        "isready",
        "setoption name Hash value 16",
        "position startpos moves a2a3",
        "ucinewgame",
        "debug on",
    ] {
        let (mut e, lines) = detected(first);
        assert!(lines.is_empty(), "{first}: {lines:#?}");
        e.send("go nodes 50");
        let lines = e.until(|l| l.starts_with("bestmove"));
        assert_ne!(bestmove(&lines), "(none)", "{first}");
    }
    let mut e = Engine::start(&[]);
    e.send("go nodes 20");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(bestmove(&lines).len(), 4, "{lines:#?}");
    e.send("uci");
    e.until(|l| l == "uciok");
    let (_, lines) = detected("usinewgame");
    assert!(lines.is_empty(), "usinewgame: {lines:#?}");
    // CECP: refused in CECP's own error form, and gpn still listens for a protocol it speaks.
    let mut e = Engine::start(&[]);
    e.send("xboard");
    let refusal = e.until(|l| l.starts_with("Error"));
    assert!(
        refusal[0].contains("not the xboard protocol"),
        "{refusal:?}"
    );
    e.send("uci");
    e.until(|l| l == "uciok");
}

#[test]
fn gtp_end_of_input_finishes_the_queued_commands() {
    // GNU Go and KataGo answer every command of a pipe; each genmove here is a real 300 ms search.
    // Without breakthrough's network, whose confident policy lets a search stop before its
    // movetime once no other move can catch up, each genmove takes its whole 300 ms.
    let mut e = Engine::start(&["--option", "network=none"]);
    e.send("1 set_game breakthrough");
    e.send("2 gpn-setoption movetime 300");
    e.send("3 genmove b");
    e.send("4 genmove w");
    e.send("5 gpn-legal_moves");
    let t = Instant::now();
    e.stdin = None;
    let mut lines = Vec::new();
    while lines
        .iter()
        .filter(|l: &&String| l.starts_with('='))
        .count()
        < 5
    {
        lines.extend(e.until(|l| l.starts_with('=') || l.starts_with('?')));
    }
    let took = t.elapsed();
    assert!(!lines.iter().any(|l| l.starts_with('?')), "{lines:#?}");
    for id in ["=3 ", "=4 "] {
        let answer = lines.iter().find(|l| l.starts_with(id)).expect("answered");
        assert_eq!(answer.len(), id.len() + 4, "a move: {answer}");
    }
    assert!(
        took >= Duration::from_millis(500),
        "both searched: {took:?}"
    );
    common::wait_exit(&mut e.child, Instant::now());
}

#[test]
fn gtp_quit_during_genmove_answers_it_and_exits_at_once() {
    let mut e = Engine::start(&[]);
    gtp(&mut e, "set_game breakthrough");
    gtp(&mut e, "gpn-setoption movetime 60000");
    e.send("genmove b");
    std::thread::sleep(Duration::from_millis(200));
    e.send("quit");
    let t = Instant::now();
    let lines = e.until(|l| l == "=");
    assert!(
        lines[0].starts_with("= ") && lines[0].len() == 6,
        "{lines:?}"
    );
    let took = common::wait_exit(&mut e.child, t);
    assert!(took < Duration::from_secs(5), "{took:?}");
    // A quit queued behind several genmoves: each is answered at once, then gpn exits.
    let mut e = Engine::start(&[]);
    gtp(&mut e, "set_game breakthrough");
    gtp(&mut e, "gpn-setoption movetime 60000");
    let t = Instant::now();
    e.send("genmove b\ngenmove w\ngenmove b\nquit");
    let lines: Vec<String> = (0..4).flat_map(|_| e.until(|l| l.is_empty())).collect();
    assert_eq!(
        lines.iter().filter(|l| l.len() == 6).count(),
        3,
        "{lines:?}"
    );
    assert_eq!(lines[lines.len() - 2], "=", "{lines:?}");
    let took = common::wait_exit(&mut e.child, t);
    assert!(took < Duration::from_secs(5), "{took:?}");
}

/// `quit`, `clear_board` and `boardsize` during a long `genmove` are answered within 10 ms, as
/// UCI's `stop` is: the search stops the moment the command is read (it used to wait for the
/// search's next report, up to a second), and the move it plays is followed by the tree later.
/// The best of three tries counts, so that a loaded machine's scheduling does not decide.
#[test]
fn gtp_commands_that_end_a_genmove_are_answered_within_10_ms() {
    for command in ["quit", "clear_board", "boardsize 9"] {
        let mut best = Duration::MAX;
        for _ in 0..3 {
            let mut e = Engine::start(&["--protocol", "gtp", "--game", "go9"]);
            gtp(&mut e, "gpn-setoption movetime 60000");
            e.send("genmove b");
            std::thread::sleep(Duration::from_millis(1000));
            e.send(command);
            let t = Instant::now();
            let lines = e.until(|l| l == "=");
            best = best.min(t.elapsed());
            assert!(lines[0].starts_with("= "), "{command}: {lines:?}");
            if command != "quit" {
                e.until(|l| l.is_empty());
                gtp(&mut e, "quit");
            }
            common::wait_exit(&mut e.child, Instant::now());
            if best <= Duration::from_millis(10) {
                break;
            }
        }
        assert!(best <= Duration::from_millis(10), "{command}: {best:?}");
    }
}

/// Minishogi through UCI, as cutechess plays it: sente's rook has checked gote's king back and
/// forth three times; playing the check once more repeats the position a fourth time, a
/// perpetual check that loses (cutechess flags it as an illegal move). Between that check and a
/// rook blunder gpn must choose the blunder, and no `info` line may show the check. Without the
/// history the same position gets the check: the game's history decides.
#[test]
fn uci_minishogi_never_plays_or_shows_a_fourth_perpetual_check() {
    let cycle = "b3a3 a5b5 a3b3 b5a5";
    let mut e = uci("minishogi");
    e.send(&format!(
        "position fen k1g2/5/2R2/5/4K[-] w 0 1 moves c3a3 a5b5 a3b3 b5a5 {cycle} {cycle}"
    ));
    e.send("go nodes 3000 searchmoves b3a3 b3b4");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.last().unwrap().starts_with("bestmove b3b4"),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains(" pv b3a3")), "{lines:?}");
    e.send("position fen k1g2/5/1R3/5/4K[-] w 0 1");
    e.send("go nodes 3000 searchmoves b3a3 b3b4");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.last().unwrap().starts_with("bestmove b3a3"),
        "{lines:?}"
    );
}

#[test]
fn protocol_edge_cases_of_the_uci_family() {
    let mut e = uci("breakthrough");
    // Non-finite numbers are refused, not searched with.
    e.assert_each_rejected(&[
        "setoption name C value nan",
        "setoption name C value inf",
        "setoption name C_PN value NaN",
    ]);
    // A 10,000-character junk line is quoted, not echoed whole.
    e.send(&"x".repeat(10_000));
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("info string error") && lines[0].len() < 300);
    // go perft, as Stockfish answers it.
    e.send("position startpos");
    e.send("go perft 2");
    let lines = e.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 484");
    assert_eq!(lines.iter().filter(|l| l.contains(": 22")).count(), 22);
    // A won-before-it-was-moved position is refused, the previous one kept.
    let before = e.position_text();
    e.assert_each_rejected(&["position fen 8/8/8/8/8/8/8/P7 w"]);
    assert_eq!(e.position_text(), before);
    // `d` on a finished game says how it ended.
    e.send("position fen 7P/8/8/p7/8/8/8/8 b");
    let lines = e.show_all();
    assert!(
        lines
            .iter()
            .any(|l| l == "info string result player 1 wins"),
        "{lines:#?}"
    );
    // searchmoves takes every notation `position ... moves` does (Connect Four: `d` = `P@d1`).
    let mut e = uci("cfour");
    e.send("position startpos");
    e.send("go nodes 200 searchmoves b");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(bestmove(&lines), "P@b1");
    e.send("go nodes 200 searchmoves zz");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.contains("searchmoves")),
        "{lines:#?}"
    );
}

/// A small Connect Four network made the way a user makes one: `gpn selfplay`, `gpn train`.
fn train_cfour_net(dir: &std::path::Path) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).expect("temp dir");
    let (data, net) = (dir.join("c4.gpns"), dir.join("c4.gpnn"));
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_gpn"))
            .args(args)
            .output()
            .expect("gpn runs");
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let data_arg = data.to_str().expect("utf-8 path");
    run(&[
        "selfplay",
        "cfour",
        "--games",
        "6",
        "--iterations",
        "60",
        "--out",
        data_arg,
        "--quiet",
    ]);
    run(&[
        "train",
        "cfour",
        "--data",
        data_arg,
        "--out",
        net.to_str().unwrap(),
        "--epochs",
        "2",
        "--hidden",
        "16",
    ]);
    net
}

#[test]
fn evalfile_loads_a_network_and_a_wrong_one_is_refused_with_the_state_kept() {
    let dir = std::env::temp_dir().join(format!("gpn-protocol-net-{}", std::process::id()));
    let net = train_cfour_net(&dir);
    let net = net.to_str().unwrap();
    let mut e = uci("cfour");
    e.assert_each_rejected(&[
        "setoption name EvalFile value /no/such/file.gpnn",
        &format!(
            "setoption name EvalFile value {}",
            dir.join("c4.gpns").display()
        ),
    ]);
    e.send(&format!("setoption name EvalFile value {net}"));
    let lines = e.sync();
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:#?}");
    e.send("position startpos moves P@d1 P@d2");
    let legal = e.legal();
    e.send("go nodes 500");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(legal.contains(&bestmove(&lines)), "{lines:#?}");
    // Another game's network: refused when set, reported when the game changes.
    let mut b = uci("breakthrough");
    b.assert_each_rejected(&[&format!("setoption name EvalFile value {net}")]);
    e.send("setoption name UCI_Variant value breakthrough");
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error") && l.contains("it is for cfour")),
        "{lines:#?}"
    );
    e.send("position startpos");
    e.send("go nodes 200");
    bestmove(&e.until(|l| l.starts_with("bestmove")));
    // Empty switches it off again.
    e.send("setoption name EvalFile value <empty>");
    assert!(!e.sync().iter().any(|l| l.contains("error")));
    e.close();
    b.close();
    std::fs::remove_dir_all(&dir).ok();
}

/// Connect Four's perfect play: the book's centre at the start and the exact solver a few
/// moves from the end answer a timed search at once, with a proven score; `Book` off searches.
#[test]
fn cfour_plays_the_book_and_the_solver_with_a_proven_score() {
    let mut e = uci("cfour");
    e.send("position startpos");
    e.send("go movetime 100");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(bestmove(&lines), "P@d1", "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains("score mate")), "{lines:#?}");
    // Pons' end position "7422341735647741166133573473242566" scores 1: a win for the mover.
    let moves: Vec<String> = "7422341735647741166133573473242566"
        .chars()
        .map(|c| ((b'a' + (c as u8 - b'1')) as char).to_string())
        .collect();
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go movetime 2000");
    let t = Instant::now();
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(
        t.elapsed() < Duration::from_millis(1500),
        "{:?}",
        t.elapsed()
    );
    assert!(
        lines.iter().any(|l| l.contains("score mate 4")),
        "{lines:#?}"
    );
    e.send("setoption name Book value false");
    e.send("position startpos");
    e.send("go movetime 100");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(
        !lines.iter().any(|l| l.contains("score mate")),
        "{lines:#?}"
    );
    e.close();
}

/// A scratch folder of this test process.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gpn-protocol-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

#[test]
fn log_file_records_every_line_in_and_out_with_times() {
    let dir = scratch("logfile");
    let log = dir.join("gpn.log");
    let log_arg = format!("LogFile={}", log.display());
    let mut e = Engine::start(&["--option", &log_arg]);
    e.send("uci");
    e.until(|l| l == "uciok");
    e.send("setoption name Threads value 0");
    e.send("position startpos");
    e.send("go nodes 100");
    let lines = e.until(|l| l.starts_with("bestmove"));
    e.sync();
    e.send("quit");
    e.close();
    let text = std::fs::read_to_string(&log).expect("the log was written");
    let entries: Vec<&str> = text.lines().collect();
    // `YYYY-MM-DD hh:mm:ss.micros`, the direction, the line.
    for entry in &entries {
        let (date, rest) = entry.split_at(26);
        assert!(
            date.len() == 26 && date.as_bytes()[10] == b' ' && date.as_bytes()[19] == b'.',
            "{entry}"
        );
        assert!(
            rest.starts_with(" << ") || rest.starts_with(" >> ") || rest.starts_with(" ## "),
            "{entry}"
        );
    }
    let has = |line: &str| entries.iter().any(|e| &e[26..] == line);
    // The first line read is there: the log was open before it.
    assert!(has(" << uci"), "{text}");
    assert!(has(" >> uciok"));
    assert!(has(" << go nodes 100"));
    assert!(has(" >> info string error Threads: '0' is outside 1..256"));
    assert!(has(&format!(" >> {}", lines.last().unwrap())));
    assert!(has(" << quit"));
    // In order: what was read before what it caused.
    let at = |line: &str| entries.iter().position(|e| &e[26..] == line).unwrap();
    assert!(at(" << uci") < at(" >> uciok"));
    assert!(at(" << go nodes 100") < at(&format!(" >> {}", lines.last().unwrap())));
    // A file that cannot be opened is an error and the engine goes on.
    let mut e = uci("breakthrough");
    e.send(&format!(
        "setoption name LogFile value {}",
        dir.join("no/such/folder/x.log").display()
    ));
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error LogFile")),
        "{lines:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_config_file_sets_options_and_a_bad_line_stops_gpn_with_its_number() {
    let dir = scratch("config");
    let config = dir.join("gpn.cfg");
    std::fs::write(
        &config,
        "# gpn settings\nUCI_Variant = losalamos\nHash = 16\n\nMultiPV = 2\n",
    )
    .unwrap();
    let config_arg = config.display().to_string();
    // The command line's options come after the file's.
    let mut e = Engine::start(&["--config", &config_arg, "--option", "MultiPV=3"]);
    e.send("uci");
    e.until(|l| l == "uciok");
    let shown = e.show_all().join("\n");
    assert!(shown.contains("game losalamos"), "{shown}");
    assert!(shown.contains("hash=16"), "{shown}");
    e.send("position startpos");
    e.send("go nodes 400");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.contains(" multipv 3 ")),
        "{lines:#?}"
    );
    e.send("quit");
    e.close();
    // A bad line: exit status 2 before any input is read, naming the file and the line.
    std::fs::write(&config, "Hash = 16\n# fine\nThreads = 0\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gpn"))
        .args(["--config", &config_arg])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("gpn runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("gpn.cfg: line 3: Threads: '0' is outside 1..256"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}
