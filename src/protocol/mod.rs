//! The protocol loop: a stdin reader thread, protocol detection from the first command (or
//! `--protocol`), and the controllers of UCI/USI/UAI ([`uci`]) and GTP ([`gtp`]). The controller
//! is the only writer of stdout ([`Output`]); a search runs on the worker thread.

pub mod conductor;
pub mod gtp;
pub mod logfile;
pub mod uci;

use std::io::{self, BufRead, IsTerminal, Read, Write};

use crossbeam_channel::{unbounded, Receiver, Sender};

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

    /// The protocol a first command belongs to: `uci`, `usi`, `uai` and their own `*newgame`
    /// words; the commands every UCI dialect shares (`setoption`, `position`, `go`, `isready`,
    /// `debug`), which scripts and `initstr`s send before the handshake, mean UCI as Stockfish
    /// takes them; anything else is GTP.
    pub fn detect(first_line: &str) -> Protocol {
        match first_line.split_whitespace().next() {
            Some("uci" | "ucinewgame" | "setoption" | "position" | "go" | "isready" | "debug") => {
                Protocol::Uci
            }
            Some("usi" | "usinewgame") => Protocol::Usi,
            Some("uai" | "uainewgame") => Protocol::Uai,
            _ => Protocol::Gtp,
        }
    }

    /// Whether a first command belongs to a protocol gpn does not speak (CECP, which xboard and
    /// WinBoard start with `xboard`).
    fn unsupported(first_line: &str) -> bool {
        matches!(
            first_line.split_whitespace().next(),
            Some("xboard" | "protover")
        )
    }
}

/// Everything the controller waits for.
pub enum Event {
    /// A line of input (without its line end).
    Line(String),
    /// A line longer than [`MAX_LINE`] bytes, skipped unread (no command is that long: only
    /// garbage or an endless stream such as `/dev/zero` is).
    TooLong,
    /// End of input.
    Eof,
    Worker(WorkerEvent),
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

    /// Writes `text` (one or more lines, each ended by a newline here) and flushes. When stdout
    /// is gone (the GUI or the pipe's reader closed it) nobody can hear gpn any more: the process
    /// ends quietly, with status 0, as a filter in a pipe does.
    pub fn send(&self, text: &str) {
        let mut lock = self.out.lock();
        // Under the stdout lock, so the log has the lines in the order the GUI got them.
        logfile::record(logfile::Direction::Out, text);
        let written = lock
            .write_all(text.as_bytes())
            .and_then(|()| match text.ends_with('\n') {
                true => Ok(()),
                false => lock.write_all(b"\n"),
            })
            .and_then(|()| lock.flush());
        if let Err(e) = written {
            log::info!("stdout closed ({e}); exiting");
            std::process::exit(0);
        }
    }
}

/// The most characters of an error message gpn writes: an error quotes the bad input, and a
/// 10 MB junk line must not come back whole.
pub const MAX_ERROR_CHARS: usize = 160;

/// `text` cut to [`MAX_ERROR_CHARS`] characters, with `...` and the length when cut.
pub fn clip(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(MAX_ERROR_CHARS) {
        None => text.into(),
        Some((end, _)) => format!("{}... ({} bytes)", &text[..end], text.len()).into(),
    }
}

/// The longest input line read; a `position ... moves` line of a 1,000-ply game is ~6 KB.
pub const MAX_LINE: usize = 1 << 20;

/// What [`read_line_capped`] read.
#[derive(Debug, PartialEq)]
enum LineRead {
    Line,
    TooLong,
    End,
}

/// Reads one line of at most `max` bytes besides its end into `buf`; a longer line is read to
/// its end in pieces and dropped, so the memory it takes stays bounded.
fn read_line_capped(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<LineRead> {
    buf.clear();
    let n = Read::take(&mut *input, max as u64 + 1).read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(LineRead::End);
    }
    if buf.len() <= max || buf.last() == Some(&b'\n') {
        return Ok(LineRead::Line);
    }
    buf.clear();
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => {
                input.consume(at + 1);
                break;
            }
            None => {
                let len = chunk.len();
                input.consume(len);
            }
        }
    }
    Ok(LineRead::TooLong)
}

/// Spawns the stdin reader: one `Event::Line` per line (a trailing `\r` removed, invalid UTF-8
/// replaced), `Event::TooLong` for a line over [`MAX_LINE`] bytes, then `Event::Eof`.
fn spawn_reader(events: Sender<Event>) {
    let _ = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let stdin = io::stdin();
            let mut lock = stdin.lock();
            let mut buf = Vec::new();
            loop {
                match read_line_capped(&mut lock, &mut buf, MAX_LINE) {
                    Ok(LineRead::End) | Err(_) => break,
                    Ok(LineRead::TooLong) => {
                        if events.send(Event::TooLong).is_err() {
                            return;
                        }
                    }
                    Ok(LineRead::Line) => {
                        let line = String::from_utf8_lossy(&buf);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        logfile::record(logfile::Direction::In, &line);
                        if events.send(Event::Line(line)).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = events.send(Event::Eof);
        });
}

/// Spawns the stdout watcher: when the reader of stdout goes away (the GUI closed the pipe),
/// the process ends at once, as [`Output::send`] does at its next write. A perft or a solve
/// writes nothing for a long time, so without this a closed stdout would go unnoticed until it
/// ends. Unix only: elsewhere the next write notices.
fn spawn_stdout_watcher() {
    #[cfg(unix)]
    let _ = std::thread::Builder::new()
        .name("stdout-watch".into())
        .stack_size(64 << 10)
        .spawn(|| loop {
            let mut fd = libc::pollfd {
                fd: libc::STDOUT_FILENO,
                // Nothing asked for: POLLERR (a pipe without reader) and POLLHUP (a socket or
                // terminal hung up) are reported anyway.
                events: 0,
                revents: 0,
            };
            // SAFETY: one valid pollfd, for the length of the call.
            let ready = unsafe { libc::poll(&mut fd, 1, -1) };
            if ready < 0 {
                if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return;
            }
            if fd.revents & libc::POLLNVAL != 0 {
                // No stdout at all: nothing to watch.
                return;
            }
            if fd.revents & (libc::POLLERR | libc::POLLHUP) != 0 {
                log::info!("stdout closed; exiting");
                std::process::exit(0);
            }
            // Anything else is unexpected with no events asked for: do not spin on it.
            std::thread::sleep(std::time::Duration::from_millis(50));
        });
}

/// Runs the protocol loop until `quit` or end of input.
pub fn run(settings: Settings) {
    // A `LogFile` given at start-up is opened before the first line is read, so the log has
    // every line (the controller, setting the option again, keeps the same file).
    for (name, value) in &settings.options {
        if crate::options::find(name).is_some_and(|o| o.key == "log_file") {
            if let Err(e) = logfile::open(value) {
                log::error!("{e}");
            }
        }
    }
    let (tx, rx) = unbounded::<Event>();
    spawn_reader(tx);
    spawn_stdout_watcher();
    let protocol = match settings.protocol {
        Some(p) => p,
        None => {
            if io::stdin().is_terminal() {
                // A person at a terminal: say what to type (stderr, so stdout stays the protocol's).
                eprintln!(
                    "gpn {}: speaks UCI, USI, UAI and GTP; type `uci`, `usi`, `uai` or a GTP \
                     command such as `list_commands` (`gpn help` lists the subcommands)",
                    env!("CARGO_PKG_VERSION")
                );
            }
            // Peek at the first non-blank line to choose; it is handled by the controller.
            let mut first = None;
            while first.is_none() {
                match rx.recv() {
                    Ok(Event::Line(l)) if l.trim().is_empty() => continue,
                    Ok(Event::Line(l)) if Protocol::unsupported(&l) => {
                        // CECP's error form, which xboard shows to its user; keep listening, in
                        // case the GUI goes on in a protocol gpn speaks.
                        Output::new().send(&format!(
                            "Error (gpn speaks UCI, USI, UAI and GTP, not the xboard protocol): {}",
                            clip(l.trim())
                        ));
                    }
                    Ok(Event::Line(l)) => first = Some(l),
                    Ok(Event::TooLong) => {
                        log::warn!("a line of more than {MAX_LINE} bytes, ignored")
                    }
                    _ => return,
                }
            }
            let first = first.unwrap_or_default();
            // The first line is handled by the controller, ahead of the rest of the input.
            return start(Protocol::detect(first.trim()), settings, rx, Some(first));
        }
    };
    start(protocol, settings, rx, None)
}

fn start(protocol: Protocol, settings: Settings, input: Receiver<Event>, first: Option<String>) {
    log::info!("protocol {protocol:?}");
    match protocol {
        Protocol::Uci | Protocol::Usi | Protocol::Uai => uci::run(protocol, settings, input, first),
        Protocol::Gtp => gtp::run(settings, input, first),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_overlong_line_is_dropped_and_the_next_one_read() {
        let text = format!("ab\n{}\n{}\ncd\nef", "x".repeat(100), "y".repeat(10));
        let mut input = io::BufReader::with_capacity(7, text.as_bytes());
        let mut buf = Vec::new();
        let mut lines = Vec::new();
        loop {
            let read = read_line_capped(&mut input, &mut buf, 10).unwrap();
            assert!(buf.len() <= 11);
            lines.push(match read {
                LineRead::End => break,
                LineRead::TooLong => "(long)".to_string(),
                LineRead::Line => String::from_utf8_lossy(&buf).into_owned(),
            });
        }
        let ten = format!("{}\n", "y".repeat(10));
        assert_eq!(lines, ["ab\n", "(long)", &ten, "cd\n", "ef"]);
    }

    #[test]
    fn detection_by_first_command() {
        for (line, p) in [
            ("uci", Protocol::Uci),
            ("isready", Protocol::Uci),
            ("position startpos moves a2a3", Protocol::Uci),
            ("setoption name Hash value 1", Protocol::Uci),
            ("usinewgame", Protocol::Usi),
            ("uai", Protocol::Uai),
            ("1 protocol_version", Protocol::Gtp),
            ("genmove b", Protocol::Gtp),
        ] {
            assert_eq!(Protocol::detect(line), p, "{line}");
        }
        assert!(Protocol::unsupported("xboard"));
        assert!(!Protocol::unsupported("uci"));
    }

    #[test]
    fn long_input_is_clipped_on_a_character_boundary() {
        assert_eq!(clip("short"), "short");
        let long = "é".repeat(1000);
        let clipped = clip(&long);
        assert!(clipped.starts_with(&"é".repeat(MAX_ERROR_CHARS)));
        assert!(clipped.ends_with("... (2000 bytes)"), "{clipped}");
    }
}
