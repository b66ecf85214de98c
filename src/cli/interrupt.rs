//! Ctrl-C for long jobs (`match`, `solve`): the first one asks the job to stop cleanly and keep
//! what it has (games played, the partial solve), a second one exits at once. SIGTERM and SIGHUP
//! count as Ctrl-C (ctrlc's `termination` feature), so a job stopped by `timeout`, a batch
//! scheduler or a closed terminal keeps its results too.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// Exit status after a second Ctrl-C, as shells report a SIGINT death (128 + 2).
const EXIT_INTERRUPTED: i32 = 130;

/// The flag the first Ctrl-C raises; `None` when no handler could be installed.
static FLAG: OnceLock<Option<Arc<AtomicBool>>> = OnceLock::new();

/// Installs the handler (once) and returns the flag it raises. Without a handler (another one
/// was installed by an embedding program) the flag is never raised and Ctrl-C keeps its default
/// effect.
pub fn flag() -> Arc<AtomicBool> {
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let raised = Arc::clone(&flag);
        let installed = ctrlc::set_handler(move || {
            if raised.swap(true, Ordering::SeqCst) {
                // Already asked once: the user wants out now.
                std::process::exit(EXIT_INTERRUPTED);
            }
            eprintln!("\ninterrupted: finishing cleanly (Ctrl-C or SIGTERM again to quit at once)");
        });
        match installed {
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

/// Whether Ctrl-C was pressed since the handler was installed.
pub fn interrupted() -> bool {
    FLAG.get()
        .and_then(Option::as_ref)
        .is_some_and(|f| f.load(Ordering::SeqCst))
}
