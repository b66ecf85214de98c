//! `lz-analyze` and `kata-analyze`: their arguments, and the analysis lines Leela Zero's and
//! KataGo's clients read.

use super::*;

impl Controller {
    /// `lz-analyze` / `kata-analyze` (`kata`) `[colour] [interval] [key value ...]`: `=` at
    /// once, then one `info` line per interval with every searched move, until the next input
    /// line ends it (with the blank line). Bad arguments are answered `?` before anything runs.
    pub(super) fn analyze(&mut self, id: &Option<String>, args: &[&str], kata: bool) {
        let names = self
            .conductor
            .session()
            .map_or_else(|| vec!["black", "white"], |s| player_names(s.as_ref()));
        let AnalyzeArgs {
            player,
            interval_cs,
            ownership,
        } = match analyze_args(args, &|text: &str| player_in(&names, text)) {
            Ok(parsed) => parsed,
            Err(e) => return self.respond(id, Err(e)),
        };
        if let Some(p) = player {
            if let Err(e) = self.align_turn(p) {
                return self.respond(id, Err(e));
            }
        }
        // The session goes to the worker: the scorer keeps its own copy of the position.
        let scorer = match self.conductor.session() {
            Some(s) if kata => s.territory().and_then(|t| t.line_scorer(Dialect::Gtp)),
            _ => None,
        };
        // The position does not change while it is analysed: its ownership estimate is made
        // once, before the search starts (games without one: no `ownership` field).
        let ownership_field = match self.conductor.session() {
            Some(s) if kata && ownership => s.territory().and_then(|t| t.ownership()).map(|own| {
                // `+ 0.0` turns -0 into 0, which prints without a sign.
                let values: Vec<String> = own.iter().map(|v| format!("{:.4}", v + 0.0)).collect();
                format!(" ownership {}", values.join(" "))
            }),
            _ => None,
        };
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
            multipv: 256,
            info_interval: Duration::from_millis(interval_cs * 10),
            ..SearchJob::default()
        };
        self.conductor.start(job, control, true);
        loop {
            match self.conductor.next_event() {
                Event::Worker(w) => {
                    if let Outcome::Info(info) = self.conductor.on_worker(w) {
                        let line = if kata {
                            let score = |pv: &[String]| scorer.as_ref().map_or(0.0, |f| f(pv));
                            kata_line(&info, score) + ownership_field.as_deref().unwrap_or("")
                        } else {
                            analysis_line(&info)
                        };
                        self.out.send(&line);
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
    let prior = 1.0 / info.lines.len().max(1) as f64;
    let mut parts = Vec::new();
    for (k, line) in info.lines.iter().enumerate() {
        let Some(mv) = line.pv.first() else { continue };
        let w = winrate(line.value);
        let lead = score(&line.pv);
        parts.push(format!(
            "info move {mv} visits {} utility {:.6} winrate {w:.6} scoreMean {lead:.2} scoreLead {lead:.2} prior {prior:.6} lcb {w:.6} order {k} pv {}",
            line.visits,
            line.value,
            line.pv.join(" ")
        ));
    }
    parts.join(" ")
}

/// One `lz-analyze` line: `info move V visits N winrate W prior P lcb L order K pv ...` per
/// move (winrate, prior and lcb in 1/10000), plus gpn's `proof` field (win, loss, draw, none).
pub(super) fn analysis_line(info: &SearchInfo) -> String {
    let n = info.lines.len().max(1);
    let mut parts = Vec::new();
    for (k, line) in info.lines.iter().enumerate() {
        let Some(mv) = line.pv.first() else { continue };
        let winrate = ((line.value + 1.0) / 2.0 * 10_000.0)
            .round()
            .clamp(0.0, 10_000.0) as u32;
        let proof = match line.proven {
            Some(Proven::Win { .. }) => "win",
            Some(Proven::Loss { .. }) => "loss",
            Some(Proven::Draw { .. }) => "draw",
            None => "none",
        };
        parts.push(format!(
            "info move {mv} visits {} winrate {winrate} prior {} lcb {winrate} order {k} proof {proof} pv {}",
            line.visits,
            10_000 / n,
            line.pv.join(" ")
        ));
    }
    parts.join(" ")
}
