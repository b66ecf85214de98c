//! The user documentation's examples run as written: every `$ gpn ...` line of README.md and of
//! the docs it links first (games, protocols, the command line, the search) is run with the
//! real binary and must succeed, so the documents cannot drift from the command line.

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
fn every_gpn_example_of_the_user_documents_succeeds() {
    let documents = [
        include_str!("../README.md"),
        include_str!("../docs/games.md"),
        include_str!("../docs/protocols.md"),
        include_str!("../docs/commands.md"),
        include_str!("../docs/search.md"),
    ];
    let text = documents.join("\n");
    let lines: Vec<&str> = text.lines().collect();
    let mut examples = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(first) = lines[i].strip_prefix("$ gpn ") else {
            i += 1;
            continue;
        };
        // A command continued over several lines with `\`.
        let mut example = first.to_string();
        while example.ends_with('\\') && i + 1 < lines.len() {
            example.pop();
            i += 1;
            example.push(' ');
            example.push_str(lines[i].trim());
        }
        i += 1;
        // The transcript shown under it, up to the next command or the end of the block: a
        // session stopped with Ctrl-C (`^C`) shows an interactive use, not a command to run.
        let transcript = lines[i..]
            .iter()
            .take_while(|l| !l.starts_with("$ ") && !l.starts_with("```"));
        if transcript.clone().any(|l| l.starts_with("^C")) {
            continue;
        }
        examples.push(example);
    }
    assert!(examples.len() >= 10, "{} examples", examples.len());
    for example in &examples {
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
