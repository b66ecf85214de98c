//! `gpn label` end to end: the real binary labels Minishogi positions with a UCI teacher, which
//! is the real binary again (`gpn` speaks UCI when its first command is `uci`, and plays the
//! game `UCI_Variant` names), so the test needs no engine installed.

use std::path::PathBuf;
use std::process::{Command, Output};

use gpn::nn::data::read_samples;

fn gpn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpn"))
        .args(args)
        .output()
        .expect("gpn runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpn-label-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `gpn label minishogi` taught by gpn itself at 30 nodes, into `out`.
fn label(out: &str, positions: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "label",
        "minishogi",
        "--engine",
        env!("CARGO_BIN_EXE_gpn"),
        "--nodes",
        "30",
        "--iterations",
        "10",
        "--positions",
        positions,
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    gpn(&args)
}

#[test]
fn label_writes_soft_value_and_one_hot_policy_targets_and_resumes() {
    let dir = scratch("minishogi");
    let out = dir.join("ms.gpns");
    let out_arg = out.to_str().unwrap();
    let run = label(out_arg, "20", &[]);
    let (stdout, stderr) = (text(&run.stdout), text(&run.stderr));
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert!(stdout.starts_with("label minishogi: "), "{stdout}");
    assert!(
        stdout.contains("labelled by gpn 0.1.0 at 30 nodes"),
        "{stdout}"
    );
    assert!(stderr.contains("game 0: "), "{stderr}");
    let file = read_samples(&out).unwrap();
    assert_eq!(file.game, "minishogi");
    let samples: Vec<_> = file.games.iter().flat_map(|g| &g.samples).collect();
    assert!(samples.len() >= 20, "{}", samples.len());
    let mut soft = 0;
    for s in &samples {
        assert!(!s.features.is_empty());
        assert!(
            s.wdl.iter().all(|&p| (0.0..=1.0).contains(&p)),
            "{:?}",
            s.wdl
        );
        assert!(
            (s.wdl.iter().sum::<f32>() - 1.0).abs() < 1e-4,
            "{:?}",
            s.wdl
        );
        soft += usize::from(s.wdl.iter().all(|&p| p > 0.0 && p < 1.0));
        // One entry per legal move, the teacher's move at 1.
        assert!(!s.policy.is_empty());
        assert_eq!(s.policy.iter().filter(|&&(_, q)| q == 1.0).count(), 1);
        assert_eq!(
            s.policy.iter().filter(|&&(_, q)| q == 0.0).count(),
            s.policy.len() - 1
        );
        let episode = s.episode.expect("an episode");
        assert_eq!(usize::from(episode.legal), s.policy.len());
    }
    assert!(soft * 2 > samples.len(), "{soft} soft of {}", samples.len());
    // The file holds enough: a rerun adds nothing, and says so.
    let again = label(out_arg, "20", &[]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert!(
        text(&again.stdout).contains(": 0 games (0 positions) added"),
        "{}",
        text(&again.stdout)
    );
    assert_eq!(read_samples(&out).unwrap(), file);
    // More positions: the next game numbers, the first ones kept.
    let more = label(out_arg, &(samples.len() + 1).to_string(), &[]);
    assert_eq!(more.status.code(), Some(0), "{}", text(&more.stderr));
    let grown = read_samples(&out).unwrap();
    assert!(grown.games.len() > file.games.len());
    assert_eq!(grown.games[..file.games.len()], file.games[..]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn mix_blends_in_the_games_result() {
    let dir = scratch("mix");
    let out = dir.join("mix.gpns");
    let run = label(out.to_str().unwrap(), "5", &["--mix", "0.5"]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    for g in read_samples(&out).unwrap().games {
        for s in g.samples {
            // Half of the target is the result's one-hot: its class has at least 0.5.
            let episode = s.episode.unwrap();
            let class = match episode.outcome {
                0 => 0,
                2 => 2,
                _ => 1,
            };
            assert!(s.wdl[class] >= 0.5 - 1e-4, "{:?} {episode:?}", s.wdl);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_engine_that_exits_or_is_not_uci_is_a_clear_error() {
    let dir = scratch("bad");
    let out = dir.join("bad.gpns");
    let out_arg = out.to_str().unwrap();
    let common = ["label", "minishogi", "--depth", "2", "--out", out_arg];
    let dead = gpn(&[&common[..], &["--engine", "true"]].concat());
    let err = text(&dead.stderr);
    assert_eq!(dead.status.code(), Some(2), "{err}");
    assert!(
        err.contains("engine true: exited") || err.contains("closed its output"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    // `cat` echoes `uci` and never says `uciok`.
    let mute = gpn(&[&common[..], &["--engine", "cat", "--timeout", "0.5"]].concat());
    let err = text(&mute.stderr);
    assert_eq!(mute.status.code(), Some(2), "{err}");
    assert!(err.contains("no uciok within 0.5 s"), "{err}");
    let missing = gpn(&[&common[..], &["--engine", "/nonexistent/engine"]].concat());
    let err = text(&missing.stderr);
    assert_eq!(missing.status.code(), Some(2), "{err}");
    assert!(
        err.contains("cannot start engine /nonexistent/engine"),
        "{err}"
    );
    // A teacher without the option asked for.
    let gpn_bin = env!("CARGO_BIN_EXE_gpn");
    let unknown = gpn(&[&common[..], &["--engine", gpn_bin, "--option", "NoSuch=1"]].concat());
    let err = text(&unknown.stderr);
    assert_eq!(unknown.status.code(), Some(2), "{err}");
    assert!(err.contains("has no option 'NoSuch'"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn sigint_stops_label_between_games_and_keeps_the_finished_ones() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let dir = scratch("interrupt");
    let out = dir.join("int.gpns");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpn"))
        .args(["label", "minishogi", "--engine", env!("CARGO_BIN_EXE_gpn")])
        .args([
            "--nodes",
            "30",
            "--iterations",
            "10",
            "--positions",
            "1000000",
        ])
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    // Wait for the first game, then interrupt as Ctrl-C does.
    loop {
        let line = lines.next().expect("a progress line").unwrap();
        if line.starts_with("game 0: ") {
            break;
        }
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{rest:?}");
    assert!(
        rest.iter()
            .any(|l| l.contains("dropped, the file holds every finished game")),
        "{rest:?}"
    );
    let report = text(&output.stdout);
    assert!(report.starts_with("label minishogi: "), "{report}");
    let file = read_samples(&out).unwrap();
    assert!(!file.cut && !file.games.is_empty());
    std::fs::remove_dir_all(&dir).ok();
}
