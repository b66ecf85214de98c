//! The `gpn` binary: parses the command line and hands it to `gpn::cli`.

use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `gpn solve` recurses deeply (see `solve::STACK_BYTES`): run on a thread with room for it.
    let run = move || gpn::cli::run(&args);
    let result = match std::thread::Builder::new()
        .name("main".into())
        .stack_size(gpn::solve::STACK_BYTES)
        .spawn(run)
    {
        Ok(handle) => match handle.join() {
            Ok(result) => result,
            // The panic hook has already said why on stderr.
            Err(_) => return ExitCode::from(101),
        },
        Err(e) => {
            eprintln!("error: cannot start the main thread: {e}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
