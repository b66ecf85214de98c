//! Helpers shared by the integration tests that spawn the real binary.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Output};

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
