//! README's examples run as written: every `$ gpn ...` line of README.md is run with the real
//! binary and must succeed, so the README cannot drift from the command line.

use std::process::Command;

/// Splits a shell command line into words: spaces separate, double quotes group.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

#[test]
fn every_gpn_example_of_the_readme_succeeds() {
    let readme = include_str!("../README.md");
    let examples: Vec<&str> = readme
        .lines()
        .filter_map(|l| l.strip_prefix("$ gpn "))
        .collect();
    assert!(examples.len() >= 10, "{} examples", examples.len());
    for example in examples {
        assert!(
            !example.contains(['|', '>', '<', '$']),
            "not a plain command: {example}"
        );
        let out = Command::new(env!("CARGO_BIN_EXE_gpn"))
            .args(words(example))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("gpn runs");
        assert!(
            out.status.success(),
            "gpn {example}: {:?}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.stdout.is_empty(), "gpn {example}: no output");
    }
}

#[test]
fn words_follow_the_shell() {
    assert_eq!(
        words(r#"solve cfour --position "1P1 w" --algo dfpn"#),
        ["solve", "cfour", "--position", "1P1 w", "--algo", "dfpn"]
    );
}
