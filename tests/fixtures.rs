//! Replays the transcript fixtures of `protocol/fixtures/` against the real binary: each fixture
//! is a conversation (lines sent, lines expected, with `*` wildcards) that pins gpn's dialects
//! down exactly as `protocol/` specifies them. The format is in `protocol/README.md` ("Fixture format").

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long one expected line may take to appear (searches in fixtures are short).
const LINE_TIMEOUT: Duration = Duration::from_secs(20);

/// One step of a fixture.
#[derive(Debug, PartialEq)]
enum Step {
    /// `> text`: a line written to the engine.
    Send(String),
    /// `< pattern`: the next line the engine writes.
    Expect(String),
    /// `!eof`: stdin is closed (the end of input), later steps only expect.
    Close,
    /// `<< pattern`: any number of lines matching the pattern, up to the first line that
    /// matches the `Expect` that must follow.
    Skip(String),
}

/// A parsed fixture: command-line arguments and steps, each with its line number.
struct Fixture {
    args: Vec<String>,
    steps: Vec<(usize, Step)>,
}

fn parse(text: &str) -> Result<Fixture, String> {
    let mut args = Vec::new();
    let mut steps = Vec::new();
    for (k, raw) in text.lines().enumerate() {
        let n = k + 1;
        let step = if let Some(rest) = raw.strip_prefix("<<") {
            Step::Skip(rest.strip_prefix(' ').unwrap_or(rest).to_string())
        } else if let Some(rest) = raw.strip_prefix('<') {
            Step::Expect(rest.strip_prefix(' ').unwrap_or(rest).to_string())
        } else if let Some(rest) = raw.strip_prefix('>') {
            Step::Send(rest.strip_prefix(' ').unwrap_or(rest).to_string())
        } else if raw.trim() == "!eof" {
            Step::Close
        } else if let Some(rest) = raw.strip_prefix("!args") {
            if !steps.is_empty() {
                return Err(format!("line {n}: !args must come before the steps"));
            }
            args = rest.split_whitespace().map(str::to_string).collect();
            continue;
        } else if raw.trim().is_empty() || raw.starts_with('#') {
            continue;
        } else {
            return Err(format!("line {n}: a step starts with >, < or <<: '{raw}'"));
        };
        steps.push((n, step));
    }
    // A skip waits for a line that does not match; only an expected line can end it.
    for w in steps.windows(2) {
        if matches!(w[0].1, Step::Skip(_)) && !matches!(w[1].1, Step::Expect(_)) {
            return Err(format!("line {}: << must be followed by <", w[0].0));
        }
    }
    if matches!(steps.last(), Some((_, Step::Skip(_)))) {
        return Err("a fixture cannot end with <<".to_string());
    }
    Ok(Fixture { args, steps })
}

/// Glob match: `*` stands for any text (also none), `?` for one character; everything else is
/// literal.
fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    // Classic two-pointer matcher with backtracking to the last star.
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < t.len() {
        if i < p.len() && p[i] == '*' {
            star = Some((i, j));
            i += 1;
        } else if i < p.len() && (p[i] == t[j] || p[i] == '?') {
            i += 1;
            j += 1;
        } else if let Some((si, sj)) = star {
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

/// Runs a fixture; the error says which step failed and what the engine wrote.
fn replay(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let fixture = parse(&text)?;
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpn"))
        .args(&fixture.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("gpn does not start: {e}"))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut stdin = child.stdin.take();
    let mut seen: Vec<String> = Vec::new();
    let mut pending: Option<String> = None;
    let next_line = |pending: &mut Option<String>, seen: &mut Vec<String>| {
        if let Some(line) = pending.take() {
            return Ok(line);
        }
        match rx.recv_timeout(LINE_TIMEOUT) {
            Ok(line) => {
                seen.push(line.clone());
                Ok(line)
            }
            Err(e) => Err(format!("no line ({e:?})")),
        }
    };
    let context = |n: usize, what: &str, seen: &[String]| {
        let tail = seen[seen.len().saturating_sub(12)..].join("\n  ");
        format!(
            "{}:{n}: {what}\n last lines the engine wrote:\n  {tail}",
            path.display()
        )
    };
    for (k, (n, step)) in fixture.steps.iter().enumerate() {
        match step {
            Step::Close => drop(stdin.take()),
            Step::Send(line) => {
                let pipe = stdin
                    .as_mut()
                    .ok_or_else(|| context(*n, "> after !eof", &seen))?;
                writeln!(pipe, "{line}")
                    .and_then(|_| pipe.flush())
                    .map_err(|e| context(*n, &format!("cannot write: {e}"), &seen))?;
            }
            Step::Expect(pattern) => {
                let line = next_line(&mut pending, &mut seen)
                    .map_err(|e| context(*n, &format!("expected '{pattern}': {e}"), &seen))?;
                if !glob(pattern, &line) {
                    let what = format!("expected '{pattern}', got '{line}'");
                    return Err(context(*n, &what, &seen));
                }
            }
            Step::Skip(pattern) => {
                // The parser made sure an expectation follows; the first line it accepts ends
                // the skip, and every line before it must match the skip's pattern.
                let Some((_, Step::Expect(until))) = fixture.steps.get(k + 1) else {
                    return Err(context(*n, "<< without a < after it", &seen));
                };
                loop {
                    let line = next_line(&mut pending, &mut seen).map_err(|e| {
                        context(*n, &format!("while skipping '{pattern}': {e}"), &seen)
                    })?;
                    if glob(until, &line) {
                        pending = Some(line);
                        break;
                    }
                    if !glob(pattern, &line) {
                        let what = format!("expected '{pattern}' or '{until}', got '{line}'");
                        return Err(context(*n, &what, &seen));
                    }
                }
            }
        }
    }
    // End of the conversation: the engine must exit (quit or EOF) and say nothing more.
    drop(stdin.take());
    let t = Instant::now();
    match rx.recv_timeout(Duration::from_secs(10)) {
        Ok(line) => {
            let what = format!("unexpected output after the last step: '{line}'");
            let _ = child.kill();
            return Err(context(fixture.steps.len(), &what, &seen));
        }
        Err(RecvTimeoutError::Disconnected) => {}
        Err(RecvTimeoutError::Timeout) => {
            let _ = child.kill();
            return Err(format!("{}: the engine did not exit", path.display()));
        }
    }
    while child.try_wait().map_err(|e| e.to_string())?.is_none() {
        if t.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            return Err(format!("{}: the engine did not exit", path.display()));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    Ok(())
}

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol/fixtures")
}

/// One test per fixture (they run in parallel); `every_fixture_is_replayed` keeps the list
/// complete.
macro_rules! fixtures {
    ($($test:ident => $file:literal),* $(,)?) => {
        const FILES: &[&str] = &[$($file),*];
        $(
            #[test]
            fn $test() {
                if let Err(e) = replay(&fixture_dir().join($file)) {
                    panic!("{e}");
                }
            }
        )*
    };
}

fixtures! {
    uci_handshake => "uci-handshake.txt",
    uci_search => "uci-search.txt",
    uci_errors => "uci-errors.txt",
    uci_ponder => "uci-ponder.txt",
    uci_variants => "uci-variants.txt",
    uci_pipe => "uci-pipe.txt",
    usi_minishogi => "usi-minishogi.txt",
    uai_ataxx => "uai-ataxx.txt",
    gtp_othello => "gtp-othello.txt",
    gtp_gomoku => "gtp-gomoku.txt",
    gtp_go => "gtp-go.txt",
    gtp_go_sgf => "gtp-go-sgf.txt",
    gtp_go_gui => "gtp-go-gui.txt",
    gtp_go_rules => "gtp-go-rules.txt",
    gtp_games => "gtp-games.txt",
    gtp_analyze => "gtp-analyze.txt",
    gtp_kata_analyze => "gtp-kata-analyze.txt",
    gtp_resign => "gtp-resign.txt",
    gtp_gogui_rules => "gtp-gogui-rules.txt",
    gtp_pipe => "gtp-pipe.txt",
    gtp_rolit => "gtp-rolit.txt",
}

#[test]
fn every_fixture_is_replayed() {
    let mut on_disk: Vec<String> = std::fs::read_dir(fixture_dir())
        .expect("protocol/fixtures")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".txt"))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = FILES.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(on_disk, listed, "list every fixture in tests/fixtures.rs");
}

#[test]
fn the_matcher_and_the_parser() {
    assert!(glob("bestmove *", "bestmove a2a3 ponder b7b6"));
    assert!(glob("info * pv *", "info depth 1 pv a2a3"));
    assert!(glob("", ""));
    assert!(!glob("", "x"));
    assert!(glob("*", ""));
    assert!(!glob("readyok", "readyok "));
    assert!(glob("a*b*c", "aXbYbc"));
    assert!(!glob("a*b*c", "aXbYb"));
    assert!(glob("bestmove ?2?3 *", "bestmove c2c3 ponder b7b6"));
    assert!(!glob("bestmove ?2?3", "bestmove c2c4"));
    let f = parse("# c\n!args --uci\n> isready\n<< info*\n< readyok\n<\n").unwrap();
    assert_eq!(f.args, vec!["--uci"]);
    assert_eq!(
        f.steps.iter().map(|(_, s)| s).collect::<Vec<_>>(),
        vec![
            &Step::Send("isready".into()),
            &Step::Skip("info*".into()),
            &Step::Expect("readyok".into()),
            &Step::Expect("".into()),
        ]
    );
    assert!(parse("<< info*\n> isready\n").is_err());
    assert_eq!(
        parse("> go\n!eof\n< bestmove *\n").unwrap().steps[1].1,
        Step::Close
    );
    assert!(parse("< x\n!args --gtp\n").is_err());
    assert!(parse("hello\n").is_err());
}
