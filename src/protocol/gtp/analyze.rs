//! `lz-analyze` and `kata-analyze`: their arguments, and the analysis lines Leela Zero's and
//! KataGo's clients read.

use super::*;
use crate::engine::LineScorer;

impl Controller {
    /// `lz-analyze` / `kata-analyze` (`kata`) `[colour] [interval] [key value ...]`: `=` at
    /// once, then one `info` line per interval with every searched move, until the next input
    /// line ends it (with the blank line). Bad arguments are answered `?` before anything runs.
    pub(super) fn analyze(&mut self, id: &Option<String>, args: &[&str], kata: bool) {
        let (args, format) = match self.analysis_setup(args, kata) {
            Ok(parsed) => parsed,
            Err(e) => return self.respond(id, Err(e)),
        };
        if let Some(p) = args.player {
            if let Err(e) = self.align_turn(p) {
                return self.respond(id, Err(e));
            }
        }
        let finished = !self
            .conductor
            .session()
            .is_some_and(|s| s.outcome().is_none());
        self.out.send(&format!("={}", id.as_deref().unwrap_or("")));
        if finished {
            self.out.send("");
            return;
        }
        let control = Arc::new(SearchControl::new());
        control.set_unlimited(true);
        let job = SearchJob {
            dialect: Dialect::Gtp,
            multipv: ANALYSIS_LINES,
            info_interval: Duration::from_millis(args.interval_cs * 10),
            ..SearchJob::default()
        };
        self.conductor.start(job, control, true);
        loop {
            match self.conductor.next_event() {
                Event::Worker(w) => {
                    if let Outcome::Info(info) = self.conductor.on_worker(w) {
                        self.out.send(&format.line(&info));
                    }
                }
                other => {
                    let _ = self.conductor.wait();
                    self.out.send("");
                    self.conductor.defer_front(other);
                    return;
                }
            }
        }
    }

    /// `lz-genmove_analyze` / `kata-genmove_analyze` (`kata`) `[colour] [interval] [key value
    /// ...]`: `genmove` under the game's clock that shows its analysis as it goes, as Sabaki and
    /// Lizzie play: `=`, the `info` lines of `lz-analyze` / `kata-analyze` every interval, then
    /// `play <move>` (or `play resign`) and the blank line. The move is played. Errors (bad
    /// arguments, a finished game) are answered `?` before anything runs.
    pub(super) fn genmove_analyze(&mut self, id: &Option<String>, args: &[&str], kata: bool) {
        let (args, format) = match self.analysis_setup(args, kata) {
            Ok(parsed) => parsed,
            Err(e) => return self.respond(id, Err(e)),
        };
        let player = match args.player {
            Some(p) => p,
            None => match self.conductor.session() {
                Some(s) => s.side_to_move(),
                None => return self.respond(id, Err("engine busy".to_string())),
            },
        };
        let inserted = match self.align_turn(player) {
            Ok(inserted) => inserted,
            Err(e) => return self.respond(id, Err(e)),
        };
        if self
            .conductor
            .session()
            .is_some_and(|s| s.outcome().is_some())
        {
            if inserted {
                self.session_do(|s| {
                    s.undo();
                });
            }
            return self.respond(id, Err("game is over".to_string()));
        }
        self.out.send(&format!("={}", id.as_deref().unwrap_or("")));
        let analysis = Analysis {
            format,
            interval: Duration::from_millis(args.interval_cs * 10),
        };
        let result = self.generate(player, true, Vec::new(), Some(&analysis));
        let played = result.as_deref().is_ok_and(|m| m != "resign");
        if inserted && !played {
            self.session_do(|s| {
                s.undo();
            });
        }
        match result {
            // The move line, then the blank line that ends every GTP response.
            Ok(mv) => self.out.send(&format!("play {mv}\n\n")),
            // The `=` is out: the error can only be logged, and the answer ends without a move.
            Err(e) => {
                log::error!(
                    "{}: {e}",
                    if kata {
                        "kata-genmove_analyze"
                    } else {
                        "lz-genmove_analyze"
                    }
                );
                self.out.send("");
            }
        }
    }

    /// The parsed analysis arguments and the line format they ask for.
    fn analysis_setup(
        &mut self,
        args: &[&str],
        kata: bool,
    ) -> Result<(AnalyzeArgs, LineFormat), String> {
        let names = self
            .conductor
            .session()
            .map_or_else(|| vec!["black", "white"], |s| player_names(s.as_ref()));
        let parsed = analyze_args(args, &|text: &str| player_in(&names, text))?;
        // The session goes to the worker: the scorer keeps its own copy of the position.
        let scorer = match self.conductor.session() {
            Some(s) if kata => s.territory().and_then(|t| t.line_scorer(Dialect::Gtp)),
            _ => None,
        };
        // The position does not change while it is analysed: its ownership estimate is made
        // once, before the search starts (games without one: no `ownership` field).
        let ownership = match self.conductor.session() {
            Some(s) if kata && parsed.ownership => {
                s.territory().and_then(|t| t.ownership()).map(|own| {
                    // `+ 0.0` turns -0 into 0, which prints without a sign.
                    let values: Vec<String> =
                        own.iter().map(|v| format!("{:.4}", v + 0.0)).collect();
                    format!(" ownership {}", values.join(" "))
                })
            }
            _ => None,
        };
        Ok((
            parsed,
            LineFormat {
                kata,
                scorer,
                ownership,
            },
        ))
    }
}

/// How many root moves analysis lines show: all of them, as Leela Zero and KataGo do.
pub(super) const ANALYSIS_LINES: usize = crate::options::MAX_MULTIPV;

/// How analysis lines are written: Leela Zero's or KataGo's (with its score lead and ownership).
pub(super) struct LineFormat {
    kata: bool,
    /// The score lead of a line, in games that count points.
    scorer: Option<LineScorer>,
    /// `kata-analyze ownership true`: the ` ownership ...` field, made once per position.
    ownership: Option<String>,
}

impl LineFormat {
    pub(super) fn line(&self, info: &SearchInfo) -> String {
        if self.kata {
            let score = |pv: &[String]| self.scorer.as_ref().map_or(0.0, |f| f(pv));
            kata_line(info, score) + self.ownership.as_deref().unwrap_or("")
        } else {
            analysis_line(info)
        }
    }
}

/// A `genmove` that streams its analysis.
pub(super) struct Analysis {
    pub(super) format: LineFormat,
    pub(super) interval: Duration,
}

/// The keys of KataGo's and Leela Zero's analysis commands that take one value and that gpn
/// accepts without acting on them (it has no ownership deviation, move filters or root info).
pub(super) const IGNORED_ANALYZE_KEYS: &[&str] = &[
    "ownershipStdev",
    "movesOwnership",
    "pvVisits",
    "pvEdgeVisits",
    "rootInfo",
    "minmoves",
    "maxmoves",
];

/// What the analysis arguments ask for.
#[derive(Debug, PartialEq)]
pub(super) struct AnalyzeArgs {
    /// The colour to analyse for (`None`: the side to move).
    pub(super) player: Option<usize>,
    /// Centiseconds between lines.
    pub(super) interval_cs: u64,
    /// `ownership true`: `kata-analyze` lines end with the ownership estimate.
    pub(super) ownership: bool,
}

/// The analysis arguments `[colour] [interval] [key value ...]`: the colour to analyse for
/// (`colour` reads the game's colour names), the interval in centiseconds (default 100;
/// `interval N` also sets it) and `ownership`.
pub(super) fn analyze_args(
    args: &[&str],
    colour: &dyn Fn(&str) -> Option<usize>,
) -> Result<AnalyzeArgs, String> {
    let mut player = None;
    let mut interval = 100u64;
    let mut ownership = false;
    let mut rest = args;
    if let Some((first, tail)) = rest.split_first() {
        if let Some(p) = colour(first) {
            player = Some(p);
            rest = tail;
        }
    }
    let number = |a: &str| a.parse::<u64>().map_err(|_| format!("syntax error: '{a}'"));
    while let Some((word, tail)) = rest.split_first() {
        rest = tail;
        if word.chars().all(|c| c.is_ascii_digit()) {
            interval = number(word)?;
            continue;
        }
        let (value, tail) = rest
            .split_first()
            .ok_or_else(|| format!("syntax error: '{word}' needs a value"))?;
        rest = tail;
        if *word == "interval" {
            interval = number(value)?;
        } else if *word == "ownership" {
            ownership = match *value {
                "true" => true,
                "false" => false,
                _ => return Err(format!("syntax error: ownership '{value}'")),
            };
        } else if !IGNORED_ANALYZE_KEYS.contains(word) {
            return Err(format!("syntax error: unknown key '{word}'"));
        }
    }
    // At most a day: the interval becomes milliseconds, which must not overflow.
    Ok(AnalyzeArgs {
        player,
        interval_cs: interval.clamp(1, 8_640_000),
        ownership,
    })
}

/// The winrate of a value in [-1, 1]: (value + 1) / 2, in 0..1.
pub(super) fn winrate(value: f32) -> f64 {
    ((f64::from(value) + 1.0) / 2.0).clamp(0.0, 1.0)
}

/// One `kata-analyze` line as KataGo writes it, all values for the side to move: `info move V
/// visits N utility U winrate W scoreMean S scoreLead S prior P lcb L order K pv ...` per
/// move (winrate, prior and lcb in 0..1, utility in -1..1); `score` gives the lead in points
/// of a line (0 in games without points).
pub(super) fn kata_line(info: &SearchInfo, score: impl Fn(&[String]) -> f32) -> String {
    let mut parts = Vec::new();
    for (k, line) in info.lines.iter().enumerate() {
        let Some(mv) = line.pv.first() else { continue };
        let w = winrate(line.value);
        let lcb = winrate(line.lcb);
        let lead = score(&line.pv);
        // A proven move says so (a field KataGo does not have; its clients skip unknown keys).
        let proof = match line.proven {
            Some(p) => format!(" proof {}", proof_name(Some(p))),
            None => String::new(),
        };
        parts.push(format!(
            "info move {mv} visits {} utility {:.6} winrate {w:.6} scoreMean {lead:.2} scoreLead {lead:.2} prior {:.6} lcb {lcb:.6} order {k}{proof} pv {}",
            line.visits,
            line.value,
            line.prior,
            line.pv.join(" ")
        ));
    }
    parts.join(" ")
}

/// gpn's `proof` field: the proven result of a move for the side to move.
fn proof_name(proven: Option<Proven>) -> &'static str {
    match proven {
        Some(Proven::Win { .. }) => "win",
        Some(Proven::Loss { .. }) => "loss",
        Some(Proven::Draw { .. }) => "draw",
        None => "none",
    }
}

/// A winrate in 0..1 in Leela Zero's units, 1/10000.
fn per_10000(winrate: f64) -> u32 {
    (winrate * 10_000.0).round().clamp(0.0, 10_000.0) as u32
}

/// One `lz-analyze` line: `info move V visits N winrate W prior P lcb L order K pv ...` per
/// move (winrate, prior and lcb in 1/10000), plus gpn's `proof` field (win, loss, draw, none).
pub(super) fn analysis_line(info: &SearchInfo) -> String {
    let mut parts = Vec::new();
    for (k, line) in info.lines.iter().enumerate() {
        let Some(mv) = line.pv.first() else { continue };
        parts.push(format!(
            "info move {mv} visits {} winrate {} prior {} lcb {} order {k} proof {} pv {}",
            line.visits,
            per_10000(winrate(line.value)),
            per_10000(f64::from(line.prior)),
            per_10000(winrate(line.lcb)),
            proof_name(line.proven),
            line.pv.join(" ")
        ));
    }
    parts.join(" ")
}
