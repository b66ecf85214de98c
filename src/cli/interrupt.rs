//! Signals for long jobs (`match`, `solve`, `selfplay`, `label`, `train`, `learn`): the first
//! SIGINT (Ctrl-C), SIGTERM or SIGHUP asks the job to stop cleanly, the move or search in progress
//! included, and keep what it has; the job then exits with 128 + the signal's number (130, 143,
//! 129), as a shell reports a job killed by it. A second signal exits at once.
//!
//! Batch schedulers and `timeout` send a single SIGTERM, so the first signal must be enough.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, OnceLock};

/// The exit status of a job stopped by SIGINT (Ctrl-C): 128 + 2.
pub const EXIT_INTERRUPTED: u8 = 130;

/// The flag the first signal raises; `None` when no handler could be installed.
static FLAG: OnceLock<Option<Arc<AtomicBool>>> = OnceLock::new();

/// The number of the first signal received (0: none yet).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// The exit status of a job stopped by signal `signal`: 128 + its number.
fn status_of(signal: i32) -> u8 {
    u8::try_from(128 + signal).unwrap_or(EXIT_INTERRUPTED)
}

/// Records signal `signal`: the first one raises `flag`, a second one exits at once.
fn on_signal(signal: i32, flag: &AtomicBool) {
    if SIGNAL
        .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
        .is_err()
    {
        // Already asked once: the user wants out now.
        std::process::exit(i32::from(status_of(signal)));
    }
    flag.store(true, Ordering::SeqCst);
    eprintln!("\ninterrupted: finishing cleanly (Ctrl-C or SIGTERM again to quit at once)");
}

/// Starts a thread that waits for SIGINT, SIGTERM and SIGHUP (signal-hook runs no code of ours
/// in the handler itself, so any code may run on that thread).
#[cfg(unix)]
fn install(flag: Arc<AtomicBool>) -> Result<(), String> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
        .map_err(|e| e.to_string())?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                on_signal(signal, &flag);
            }
        })
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// ctrlc where signal-hook does not run: every stop counts as Ctrl-C (status 130).
#[cfg(not(unix))]
fn install(flag: Arc<AtomicBool>) -> Result<(), String> {
    // SIGINT's number: the signal assumed where they cannot be told apart.
    ctrlc::set_handler(move || on_signal(2, &flag)).map_err(|e| e.to_string())
}

/// Installs the handler (once) and returns the flag it raises. Without a handler (it could not
/// be installed) the flag is never raised and the signals keep their default effect.
pub fn flag() -> Arc<AtomicBool> {
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        match install(Arc::clone(&flag)) {
            Ok(()) => Some(flag),
            Err(e) => {
                log::warn!("cannot handle Ctrl-C: {e}");
                None
            }
        }
    })
    .clone()
    .unwrap_or_else(|| Arc::new(AtomicBool::new(false)))
}

/// The flag of [`flag`] if it was installed, without installing it (for code that library
/// tests run too).
pub fn installed() -> Option<Arc<AtomicBool>> {
    FLAG.get().cloned().flatten()
}

/// Whether a signal arrived since the handler was installed.
pub fn interrupted() -> bool {
    FLAG.get()
        .and_then(Option::as_ref)
        .is_some_and(|f| f.load(Ordering::SeqCst))
}

/// The exit status of a job stopped by a signal (130 for SIGINT, 143 for SIGTERM, 129 for
/// SIGHUP); `None` when no signal arrived.
pub fn exit_status() -> Option<u8> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(status_of(signal)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_are_128_plus_the_signal() {
        assert_eq!((status_of(2), status_of(15), status_of(1)), (130, 143, 129));
        assert_eq!(status_of(200), 130);
    }
}
