//! A client of a UCI engine, the teacher of `gpn label`: it starts the engine, shakes hands,
//! asks for searches and reads their scores and best moves, and converts a score to win, draw
//! and loss probabilities ([`WdlModel`]).
//!
//! Every wait has a deadline, and an engine that exits, stops answering or answers what UCI
//! does not allow is an [`EngineError`] with what happened, never a panic. The engine runs in
//! its own process group, so that Ctrl-C in a terminal reaches `gpn label` only, which then
//! finishes cleanly and sends `quit` itself.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// What went wrong with the engine, in words (with its path).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError(pub String);

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::error::Error for EngineError {}

/// A search's score for the side to move, as UCI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves: positive for the side to move, negative against it; 0 (or
    /// `-0`): the side to move is mated.
    Mate(i32),
}

/// One `info` line's score: the score, whether it is only a bound (an aspiration window's
/// fail), its MultiPV line (1 when not said) and the engine's own win/draw/loss in permille
/// where it reports one (`UCI_ShowWDL`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InfoScore {
    pub score: Score,
    pub bound: bool,
    pub multipv: u32,
    pub wdl: Option<[u32; 3]>,
}

/// The score of an `info` line; `None` for a line without one (`info string`, `currmove`).
pub fn parse_info(line: &str) -> Option<InfoScore> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let mut score = None;
    let mut bound = false;
    let mut multipv = 1;
    let mut wdl = None;
    while let Some(w) = words.next() {
        match w {
            // Free text and the moves of the line end what can be read.
            "string" | "pv" | "refutation" | "currline" => break,
            "multipv" => multipv = words.next()?.parse().ok()?,
            "score" => {
                let kind = words.next()?;
                let text = words.next()?;
                score = Some(match kind {
                    "cp" => Score::Cp(text.parse().ok()?),
                    "mate" => {
                        let n: i32 = text.parse().ok()?;
                        // `mate -0`: the side to move is mated, as `mate 0`.
                        Score::Mate(if text.starts_with('-') { -n.abs() } else { n })
                    }
                    _ => return None,
                });
            }
            "lowerbound" | "upperbound" => bound = true,
            "wdl" => {
                let mut v = [0u32; 3];
                for x in &mut v {
                    *x = words.next()?.parse().ok()?;
                }
                wdl = Some(v);
            }
            _ => {}
        }
    }
    Some(InfoScore {
        score: score?,
        bound,
        multipv,
        wdl,
    })
}

/// The end of a search: its last exact score of the first line (or, where every line was a
/// bound, the last bound) and its best move (`None`: `bestmove (none)` or `0000`, no move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReply {
    pub score: Option<InfoScore>,
    pub best: Option<String>,
}

/// Reads a search's lines as they come, until its `bestmove`.
#[derive(Clone, Debug, Default)]
pub struct ReplyReader {
    exact: Option<InfoScore>,
    bound: Option<InfoScore>,
}

impl ReplyReader {
    /// Takes one line; returns the reply at `bestmove`.
    pub fn feed(&mut self, line: &str) -> Option<SearchReply> {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("info") => {
                if let Some(s) = parse_info(line).filter(|s| s.multipv == 1) {
                    if s.bound {
                        self.bound = Some(s);
                    } else {
                        self.exact = Some(s);
                    }
                }
                None
            }
            Some("bestmove") => {
                let best = match words.next() {
                    None | Some("(none)" | "0000" | "none") => None,
                    Some(m) => Some(m.to_string()),
                };
                Some(SearchReply {
                    score: self.exact.or(self.bound),
                    best,
                })
            }
            _ => None,
        }
    }
}

/// The conversion of a centipawn score to win, draw and loss probabilities for the side to
/// move: the expected win minus loss is `tanh(cp / scale)` (a logistic curve in the score:
/// the expected score is `1 / (1 + exp(-2 cp / scale))`), and draws take `draw` of what is
/// not decided, `d = draw * (1 - |w - l|)`. A mate is a sure win or loss.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// Centipawns at which win minus loss is tanh(1) = 0.76.
    pub scale: f64,
    /// The draw share at an equal score, in [0, 1].
    pub draw: f64,
}

impl WdlModel {
    /// The defaults for `game` (a canonical name), by family: chess-like games as Elo's
    /// logistic (400 cp per factor 10 of odds: scale 800 / ln 10 = 347) with a quarter of
    /// draws at equality; shogi scores of Fairy-Stockfish run about twice as large (pieces in
    /// hand) and draws are rare; Breakthrough-like races cannot be drawn.
    pub fn for_game(game: &str) -> WdlModel {
        let (scale, draw) = match game {
            "losalamos" | "chess" | "reachchess" | "skirmish" => (350.0, 0.25),
            "minishogi" => (700.0, 0.05),
            "breakthrough" | "knightthrough" => (400.0, 0.0),
            _ => (400.0, 0.2),
        };
        WdlModel { scale, draw }
    }

    /// The probabilities of `score` (with the engine's own permille, where it gave them, in
    /// place of the model).
    pub fn wdl(&self, score: &InfoScore) -> [f32; 3] {
        if let Some(v) = score.wdl.filter(|v| v.iter().sum::<u32>() > 0) {
            let sum = v.iter().sum::<u32>() as f32;
            return v.map(|x| x as f32 / sum);
        }
        match score.score {
            Score::Mate(n) if n > 0 => [1.0, 0.0, 0.0],
            Score::Mate(_) => [0.0, 0.0, 1.0],
            Score::Cp(cp) => {
                let e = (f64::from(cp) / self.scale).tanh();
                let d = self.draw.clamp(0.0, 1.0) * (1.0 - e.abs());
                let w = ((1.0 - d + e) / 2.0).clamp(0.0, 1.0);
                let l = ((1.0 - d - e) / 2.0).clamp(0.0, 1.0);
                [w as f32, d as f32, l as f32]
            }
        }
    }
}

/// A running UCI engine.
pub struct UciEngine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    path: PathBuf,
    /// Its `id name`, or the file name where it gave none.
    pub name: String,
    /// The wait allowed for each answer.
    timeout: Duration,
}

/// A `option name ... type ...` line's name and, for a combo, its choices.
fn parse_option(line: &str) -> Option<(String, Vec<String>)> {
    let rest = line.strip_prefix("option name ")?;
    let (name, rest) = rest.split_once(" type ").unwrap_or((rest, ""));
    let vars = rest
        .split(" var ")
        .skip(1)
        .map(|v| v.split_whitespace().next().unwrap_or("").to_string())
        .collect();
    Some((name.trim().to_string(), vars))
}

impl UciEngine {
    /// Starts `path` with `args`, shakes hands (`uci` ... `uciok`), sets `UCI_Variant` to
    /// `variant` where the engine has that option (refusing an engine whose choices lack it),
    /// then `options` (each must be one the engine listed), and waits for `readyok`.
    pub fn start(
        path: &Path,
        args: &[String],
        variant: &str,
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<UciEngine, EngineError> {
        let mut command = Command::new(path);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // Its own process group: a terminal's Ctrl-C is for gpn, which stops it cleanly.
            command.process_group(0);
        }
        let mut child = command
            .spawn()
            .map_err(|e| EngineError(format!("cannot start engine {}: {e}", path.display())))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = mpsc::channel();
        std::thread::Builder::new()
            .name("uci-engine".into())
            .spawn(move || {
                let mut r = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match r.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf).trim().to_string();
                            if tx.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            })
            .map_err(|e| EngineError(format!("cannot start a reader thread: {e}")))?;
        let stdin = child.stdin.take();
        let mut engine = UciEngine {
            child,
            stdin,
            lines,
            path: path.to_path_buf(),
            name: path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            timeout,
        };
        engine.send("uci")?;
        let mut listed: Vec<(String, Vec<String>)> = Vec::new();
        let deadline = Instant::now() + timeout;
        loop {
            let line = engine.next_line(deadline, "uciok")?;
            if line == "uciok" {
                break;
            }
            if let Some(name) = line.strip_prefix("id name ") {
                engine.name = name.trim().to_string();
            } else if let Some(option) = parse_option(&line) {
                listed.push(option);
            }
        }
        let find = |name: &str| {
            listed
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .cloned()
        };
        if let Some((name, vars)) = find("UCI_Variant") {
            if !vars.is_empty() && !vars.iter().any(|v| v.eq_ignore_ascii_case(variant)) {
                let mut shown = vars.iter().take(30).cloned().collect::<Vec<_>>().join(" ");
                if vars.len() > 30 {
                    shown.push_str(&format!(" and {} more", vars.len() - 30));
                }
                return Err(engine.error(&format!(
                    "does not play {variant} (its UCI_Variant choices: {shown})"
                )));
            }
            engine.send(&format!("setoption name {name} value {variant}"))?;
        }
        for (name, value) in options {
            let Some((listed_name, _)) = find(name) else {
                return Err(engine.error(&format!("has no option '{name}'")));
            };
            engine.send(&format!("setoption name {listed_name} value {value}"))?;
        }
        engine.ready()?;
        Ok(engine)
    }

    fn error(&mut self, what: &str) -> EngineError {
        EngineError(format!("engine {}: {what}", self.path.display()))
    }

    /// The error of an engine that has gone: with its exit status where it has one.
    fn gone(&mut self, waiting_for: &str) -> EngineError {
        // The reader ends a moment before the process is reaped.
        let mut status = None;
        for _ in 0..50 {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let how = status.map_or_else(
            || "closed its output".to_string(),
            |s| format!("exited ({s})"),
        );
        self.error(&format!("{how} while gpn waited for {waiting_for}"))
    }

    /// Sends one command line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let sent = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|()| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        sent.map_err(|_| self.gone(&format!("it to read '{line}'")))
    }

    /// The next line, by `deadline`.
    fn next_line(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Disconnected) => Err(self.gone(waiting_for)),
            Err(RecvTimeoutError::Timeout) => Err(self.error(&format!(
                "no {waiting_for} within {} s",
                self.timeout.as_secs_f64()
            ))),
        }
    }

    /// `isready`, and waits for `readyok`.
    pub fn ready(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + self.timeout;
        while self.next_line(deadline, "readyok")? != "readyok" {}
        Ok(())
    }

    /// `ucinewgame` then `isready`: a new game, its hash cleared (labels that do not depend
    /// on the games labelled before).
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.send("ucinewgame")?;
        self.ready()
    }

    /// Sends `position` (a `position ...` command) and `go` (a `go ...` command) and reads the
    /// search's lines until its `bestmove`.
    pub fn search(&mut self, position: &str, go: &str) -> Result<SearchReply, EngineError> {
        self.send(position)?;
        self.send(go)?;
        let deadline = Instant::now() + self.timeout;
        let mut reader = ReplyReader::default();
        loop {
            let line = self.next_line(deadline, "bestmove")?;
            if let Some(reply) = reader.feed(&line) {
                return Ok(reply);
            }
        }
    }

    /// `quit`, then a second to exit before it is killed.
    pub fn quit(mut self) {
        self.close();
    }

    fn close(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit").and_then(|()| stdin.flush());
        }
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(1) {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        self.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(line: &str) -> Option<(Score, bool, u32)> {
        parse_info(line).map(|s| (s.score, s.bound, s.multipv))
    }

    #[test]
    fn info_lines_give_their_scores_bounds_and_lines() {
        let fsf = "info depth 6 seldepth 6 multipv 1 score cp 86 nodes 287 nps 143500 tbhits 0 time 2 pv a2a3 a5a4";
        assert_eq!(score(fsf), Some((Score::Cp(86), false, 1)));
        assert_eq!(
            score("info depth 9 score cp -35 upperbound nodes 100 pv e2e4"),
            Some((Score::Cp(-35), true, 1))
        );
        assert_eq!(
            score("info depth 9 multipv 2 score cp 12 lowerbound"),
            Some((Score::Cp(12), true, 2))
        );
        assert_eq!(
            score("info score mate 3 pv a1a2"),
            Some((Score::Mate(3), false, 1))
        );
        assert_eq!(
            score("info score mate -2"),
            Some((Score::Mate(-2), false, 1))
        );
        assert_eq!(
            score("info score mate -0"),
            Some((Score::Mate(0), false, 1))
        );
        // Lines without a score, and words after `string` or `pv`, are not read.
        assert_eq!(score("info string score cp 100"), None);
        assert_eq!(score("info depth 3 currmove e2e4 currmovenumber 1"), None);
        assert_eq!(score("info pv score cp 1"), None);
        assert_eq!(score("info score cp x"), None);
        assert_eq!(score("bestmove e2e4"), None);
        let gpn = "info depth 3 seldepth 5 multipv 1 score cp 20 wdl 400 350 250 nodes 50 pv a1";
        assert_eq!(parse_info(gpn).unwrap().wdl, Some([400, 350, 250]));
    }

    #[test]
    fn a_reply_keeps_the_last_exact_first_line_score_and_its_best_move() {
        let mut r = ReplyReader::default();
        let lines = [
            "info depth 1 score cp 10 pv a",
            "info depth 2 multipv 1 score cp 30 pv b",
            "info depth 2 multipv 2 score cp -80 pv c",
            "info depth 3 score cp 90 lowerbound",
            "info string thinking",
        ];
        for line in lines {
            assert_eq!(r.feed(line), None);
        }
        let reply = r.feed("bestmove P@c3 ponder b5b4").unwrap();
        assert_eq!(reply.best.as_deref(), Some("P@c3"));
        assert_eq!(reply.score.unwrap().score, Score::Cp(30));
        // Only bounds: the last bound. No move: none.
        let mut r = ReplyReader::default();
        r.feed("info depth 3 score cp 90 upperbound");
        let reply = r.feed("bestmove (none)").unwrap();
        assert_eq!(
            (reply.best, reply.score.unwrap().score),
            (None, Score::Cp(90))
        );
        let reply = ReplyReader::default().feed("bestmove 0000").unwrap();
        assert_eq!((reply.best, reply.score), (None, None));
    }

    fn close(a: [f32; 3], b: [f64; 3]) -> bool {
        a.iter()
            .zip(b)
            .all(|(&x, y)| (f64::from(x) - y).abs() < 1e-5)
    }

    fn cp(n: i32) -> InfoScore {
        InfoScore {
            score: Score::Cp(n),
            bound: false,
            multipv: 1,
            wdl: None,
        }
    }

    #[test]
    fn centipawns_become_probabilities_by_the_stated_logistic() {
        let m = WdlModel {
            scale: 400.0,
            draw: 0.2,
        };
        assert!(close(m.wdl(&cp(0)), [0.4, 0.2, 0.4]));
        // tanh(1) = 0.761594: w - l is that, d is 0.2 of the rest.
        let e = 1f64.tanh();
        let d = 0.2 * (1.0 - e);
        let plus = m.wdl(&cp(400));
        assert!(
            close(plus, [(1.0 - d + e) / 2.0, d, (1.0 - d - e) / 2.0]),
            "{plus:?}"
        );
        let minus = m.wdl(&cp(-400));
        assert!(close(
            minus,
            [plus[2] as f64, plus[1] as f64, plus[0] as f64]
        ));
        for n in [-100_000, -1234, -1, 0, 7, 350, 99_999] {
            let p = m.wdl(&cp(n));
            assert!(p.iter().all(|&x| (0.0..=1.0).contains(&x)), "{n}: {p:?}");
            assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-5, "{n}: {p:?}");
        }
        // Monotone in the score.
        assert!(m.wdl(&cp(100))[0] < m.wdl(&cp(200))[0]);
        // Mates are sure; mate 0 is the side to move mated.
        let mate = |n| InfoScore {
            score: Score::Mate(n),
            ..cp(0)
        };
        assert_eq!(m.wdl(&mate(4)), [1.0, 0.0, 0.0]);
        assert_eq!(m.wdl(&mate(-4)), [0.0, 0.0, 1.0]);
        assert_eq!(m.wdl(&mate(0)), [0.0, 0.0, 1.0]);
        // The engine's own permille win over the model.
        let own = InfoScore {
            wdl: Some([500, 300, 200]),
            ..cp(-900)
        };
        assert!(close(m.wdl(&own), [0.5, 0.3, 0.2]));
        // Breakthrough cannot be drawn.
        assert_eq!(WdlModel::for_game("breakthrough").wdl(&cp(0))[1], 0.0);
    }

    #[test]
    fn option_lines_give_names_and_choices() {
        assert_eq!(
            parse_option(
                "option name UCI_Variant type combo default chess var chess var minishogi"
            ),
            Some((
                "UCI_Variant".into(),
                vec!["chess".into(), "minishogi".into()]
            ))
        );
        assert_eq!(
            parse_option("option name Skill Level type spin default 20 min -20 max 20"),
            Some(("Skill Level".into(), vec![]))
        );
        assert_eq!(parse_option("id name x"), None);
    }
}
