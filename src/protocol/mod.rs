//! The protocol loop: a stdin reader thread, protocol detection from the first command (or
//! `--protocol`), and the controllers of UCI/USI/UAI ([`uci`]) and GTP ([`gtp`]). The controller
//! is the only writer of stdout ([`Output`]); a search runs on the worker thread.

pub mod conductor;
pub mod gtp;
pub mod options;
pub mod uci;

use std::io::{self, BufRead, Write};
use std::sync::mpsc::{channel, Sender};

use crate::engine::worker::WorkerEvent;

/// The protocols gpn speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Usi,
    /// UAI: the UCI dialect of Ataxx (cuteataxx, python-ataxx).
    Uai,
    Gtp,
}

impl Protocol {
    pub fn parse(name: &str) -> Option<Protocol> {
        match name.to_ascii_lowercase().as_str() {
            "uci" => Some(Protocol::Uci),
            "usi" => Some(Protocol::Usi),
            "uai" => Some(Protocol::Uai),
            "gtp" => Some(Protocol::Gtp),
            _ => None,
        }
    }

    /// The protocol a first command belongs to: `uci`, `usi`, `uai`, anything else is GTP.
    pub fn detect(first_line: &str) -> Protocol {
        match first_line.split_whitespace().next() {
            Some("uci") => Protocol::Uci,
            Some("usi") => Protocol::Usi,
            Some("uai") => Protocol::Uai,
            _ => Protocol::Gtp,
        }
    }
}

/// Everything the controller waits for.
pub enum Event {
    /// A line of input (without its line end).
    Line(String),
    /// End of input.
    Eof,
    Worker(WorkerEvent),
}

impl From<WorkerEvent> for Event {
    fn from(e: WorkerEvent) -> Event {
        Event::Worker(e)
    }
}

/// Start-up settings from the command line.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Forced protocol (`--protocol`); detected from the first command otherwise.
    pub protocol: Option<Protocol>,
    /// The game to start with (`--game`).
    pub game: Option<String>,
    /// `name=value` options applied before the first command (`--option`).
    pub options: Vec<(String, String)>,
}

/// The single writer of stdout: every block is written under one lock and flushed at once.
pub struct Output {
    out: io::Stdout,
}

impl Default for Output {
    fn default() -> Output {
        Output::new()
    }
}

impl Output {
    pub fn new() -> Output {
        Output { out: io::stdout() }
    }

    /// Writes `text` (one or more lines, each ended by a newline here) and flushes.
    pub fn send(&self, text: &str) {
        let mut lock = self.out.lock();
        let _ = lock.write_all(text.as_bytes());
        if !text.ends_with('\n') {
            let _ = lock.write_all(b"\n");
        }
        let _ = lock.flush();
    }
}

/// Spawns the stdin reader: one `Event::Line` per line (a trailing `\r` removed, invalid UTF-8
/// replaced), then `Event::Eof`.
fn spawn_reader(events: Sender<Event>) {
    let _ = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let stdin = io::stdin();
            let mut lock = stdin.lock();
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match lock.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        if events.send(Event::Line(line)).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = events.send(Event::Eof);
        });
}

/// Runs the protocol loop until `quit` or end of input.
pub fn run(settings: Settings) {
    let (tx, rx) = channel::<Event>();
    spawn_reader(tx.clone());
    let protocol = match settings.protocol {
        Some(p) => p,
        None => {
            // Peek at the first non-blank line to choose; it is handled by the controller.
            let mut first = None;
            while first.is_none() {
                match rx.recv() {
                    Ok(Event::Line(l)) if l.trim().is_empty() => continue,
                    Ok(Event::Line(l)) => first = Some(l),
                    _ => return,
                }
            }
            let first = first.unwrap_or_default();
            let p = Protocol::detect(first.trim());
            let (tx2, rx2) = channel::<Event>();
            // Re-inject the first line ahead of the rest.
            let _ = tx2.send(Event::Line(first));
            let forward = tx2.clone();
            let _ = std::thread::Builder::new()
                .name("forward".into())
                .spawn(move || {
                    for e in rx {
                        if forward.send(e).is_err() {
                            break;
                        }
                    }
                });
            return start(p, settings, tx2, rx2);
        }
    };
    start(protocol, settings, tx, rx)
}

fn start(
    protocol: Protocol,
    settings: Settings,
    tx: Sender<Event>,
    rx: std::sync::mpsc::Receiver<Event>,
) {
    log::info!("protocol {protocol:?}");
    match protocol {
        Protocol::Uci | Protocol::Usi | Protocol::Uai => uci::run(protocol, settings, tx, rx),
        Protocol::Gtp => gtp::run(settings, tx, rx),
    }
}
