//! The `gpn` binary: hands the command line to `gpn::cli` and exits with its status.

use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        // Stderr, and the `LogFile` when one is open.
        .target(env_logger::Target::Pipe(Box::new(
            gpn::protocol::logfile::StderrAndLogFile,
        )))
        .init();
    // Read as OsString: `std::env::args` panics on an argument that is not UTF-8.
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    // `gpn solve` recurses deeply (see `solve::STACK_BYTES`): run on a thread with room for it.
    let run = move || gpn::cli::main_os(args);
    match std::thread::Builder::new()
        .name("main".into())
        .stack_size(gpn::solve::STACK_BYTES)
        .spawn(run)
    {
        Ok(handle) => match handle.join() {
            Ok(status) => ExitCode::from(status),
            // The panic hook has already said why on stderr.
            Err(_) => ExitCode::from(101),
        },
        Err(e) => {
            eprintln!("error: cannot start the main thread: {e}");
            ExitCode::from(gpn::cli::EXIT_USAGE)
        }
    }
}
