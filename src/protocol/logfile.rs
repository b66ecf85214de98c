//! The `LogFile` option: a transcript of every protocol line in and out, with timestamps, and the
//! engine's own log, in one file (GUIs hide stderr; lc0's `LogFile` and KataGo's `logFile` do
//! the same).
//!
//! Thread safety: one process-wide file behind a mutex. The stdin reader records input lines,
//! the stdout writer ([`super::Output`]) records output, and the logger ([`StderrAndLogFile`])
//! records log lines, each line whole under the lock; every write is flushed, so a crash loses
//! nothing already written. A write that fails closes the file (and says so on stderr): the
//! engine never stops for its log.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use parking_lot::Mutex;

/// The open log file and its path, if any.
static LOG: Mutex<Option<(File, String)>> = Mutex::new(None);

/// Which way a line went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Read from the GUI.
    In,
    /// Written to the GUI.
    Out,
    /// The engine's own log (what stderr gets).
    Log,
}

impl Direction {
    fn mark(self) -> &'static str {
        match self {
            Direction::In => "<<",
            Direction::Out => ">>",
            Direction::Log => "##",
        }
    }
}

/// Opens `path` for appending (created if missing) as the log file, closing the previous one;
/// an empty path closes the log, and the path already open keeps its file. A file that cannot
/// be opened leaves the previous one open.
pub fn open(path: &str) -> Result<(), String> {
    if path.is_empty() {
        *LOG.lock() = None;
        return Ok(());
    }
    if LOG.lock().as_ref().is_some_and(|(_, open)| open == path) {
        return Ok(());
    }
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(Path::new(path))
        .map_err(|e| format!("LogFile '{path}': {e}"))?;
    *LOG.lock() = Some((file, path.to_string()));
    record(
        Direction::Log,
        &format!("gpn {} log opened", env!("CARGO_PKG_VERSION")),
    );
    Ok(())
}

/// Whether a log file is open.
pub fn is_open() -> bool {
    LOG.lock().is_some()
}

/// Writes `text` (one line or several) to the log file, each line with the time and the
/// direction mark; does nothing without a log file.
pub fn record(direction: Direction, text: &str) {
    let mut log = LOG.lock();
    let Some((file, _)) = log.as_mut() else {
        return;
    };
    let stamp = timestamp(SystemTime::now());
    let mut block = String::with_capacity(text.len() + 40);
    for line in text.trim_end_matches('\n').split('\n') {
        block.push_str(&stamp);
        block.push(' ');
        block.push_str(direction.mark());
        block.push(' ');
        block.push_str(line.trim_end_matches('\r'));
        block.push('\n');
    }
    if let Err(e) = file.write_all(block.as_bytes()).and_then(|()| file.flush()) {
        *log = None;
        eprintln!("LogFile: {e}; no longer logging");
    }
}

/// `YYYY-MM-DD hh:mm:ss.micros` in UTC.
fn timestamp(now: SystemTime) -> String {
    let since = now.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (days, day_secs) = ((secs / 86_400) as i64, secs % 86_400);
    let (y, m, d) = crate::calendar::civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}.{:06}",
        day_secs / 3600,
        day_secs / 60 % 60,
        day_secs % 60,
        since.subsec_micros()
    )
}

/// The logger's output: stderr as before, and each line also into the log file when one is
/// open (give it to `env_logger` as its target).
#[derive(Debug, Default)]
pub struct StderrAndLogFile;

impl Write for StderrAndLogFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // A closed stderr must not stop the log file (nor the engine).
        let _ = io::stderr().write_all(buf);
        if is_open() {
            record(Direction::Log, &String::from_utf8_lossy(buf));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let _ = io::stderr().flush();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps_are_utc_calendar_dates() {
        let t = |s: u64| timestamp(UNIX_EPOCH + Duration::from_secs(s));
        assert_eq!(t(0), "1970-01-01 00:00:00.000000");
        // 2000-02-29 12:34:56 (a leap day of a century leap year).
        assert_eq!(t(951_827_696), "2000-02-29 12:34:56.000000");
        // 2026-11-30 23:59:59.
        assert_eq!(t(1_796_083_199), "2026-11-30 23:59:59.000000");
    }
}
