//! Helpers shared by the integration tests that spawn the real binary.

// Each test crate includes this module and uses only some of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Runs `gpn` with `args` from the repository root and waits for it.
pub fn gpn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpn"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("gpn runs")
}

/// [`gpn`], which must succeed; its stdout.
pub fn gpn_ok(args: &[&str]) -> String {
    let out = gpn(args);
    assert!(
        out.status.success(),
        "gpn {args:?}: {:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Waits until a `gpn match` whose stderr is a pipe (one progress line per game, starting with
/// `[`) has printed `games` of them, interrupts it as Ctrl-C does (SIGINT), and returns its
/// output with the stderr lines it wrote after the signal.
pub fn interrupt_after_games(child: Child, games: usize) -> (Output, Vec<String>) {
    signal_after_games(child, games, "-INT")
}

/// [`interrupt_after_games`] with another signal (`kill`'s option: `-TERM`, `-HUP`).
pub fn signal_after_games(mut child: Child, games: usize, signal: &str) -> (Output, Vec<String>) {
    let mut lines = BufReader::new(child.stderr.take().expect("stderr is piped")).lines();
    let mut seen = 0;
    while seen < games {
        let line = lines.next().expect("progress lines").unwrap();
        seen += usize::from(line.starts_with('['));
    }
    let killed = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    (child.wait_with_output().unwrap(), rest)
}

/// Waits for `child` to exit and returns how long that took from `t`; kills it and fails the
/// test after 20 s.
pub fn wait_exit(child: &mut Child, t: Instant) -> Duration {
    loop {
        if child.try_wait().expect("wait").is_some() {
            return t.elapsed();
        }
        if t.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("the engine did not exit");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// A running engine (the real binary) whose stdout a thread reads line by line into `lines`.
/// Each protocol test adds its own ways of waiting for answers.
pub struct Engine {
    pub child: Child,
    /// `None` once closed (end of input).
    pub stdin: Option<ChildStdin>,
    pub lines: Receiver<String>,
}

impl Engine {
    /// Starts `gpn ARGS` with piped stdin and stdout (stderr discarded).
    pub fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gpn"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("gpn starts");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    /// Lines up to and including the first that satisfies `done`; the test fails (and the
    /// engine is killed) when none comes within `wait`, so a hang fails rather than blocks.
    pub fn until_within(&mut self, wait: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let stop = done(&line);
                    seen.push(line);
                    if stop {
                        return seen;
                    }
                }
                Err(err) => {
                    let _ = self.child.kill();
                    panic!("no matching line within {wait:?} ({err:?}); seen: {seen:#?}");
                }
            }
        }
    }

    /// Everything printed within `wait`.
    pub fn drain(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => seen.push(line),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return seen,
            }
        }
    }

    /// Sends one line.
    pub fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(text.as_bytes()).expect("write");
        stdin.write_all(b"\n").expect("write");
        stdin.flush().expect("flush");
    }
}
