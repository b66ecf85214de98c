//! The `--json` report files as serde types: a two-player match's (summary, statistics and
//! every game) and a larger table's (summary and per-seat statistics).
//!
//! Field names, order and layout are those of the hand-written writers they replace, and the
//! fields that earlier builds did not write yet (`odds`, `pentanomial`, `interrupted`, the
//! choice counts) have defaults, so that every report in `experiments/data` reads back.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use super::lines::GameFields;
use super::serial::{budget, sprt, Num};
use super::stats::{self, Interval, Mean, Wdl};
use super::{Budget, MatchReport, SprtConfig, Termination};
use crate::game::Player;

/// Results as `{"wins":..,"draws":..,"losses":..,"score":..}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WdlJson {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub score: Num,
}

impl WdlJson {
    fn of(w: &Wdl) -> WdlJson {
        WdlJson {
            wins: w.wins,
            draws: w.draws,
            losses: w.losses,
            score: Num(w.score()),
        }
    }
}

/// A value with its 95% interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IntervalJson {
    pub value: Num,
    pub low: Num,
    pub high: Num,
}

impl IntervalJson {
    fn of(i: &Interval) -> IntervalJson {
        IntervalJson {
            value: Num(i.value),
            low: Num(i.low),
            high: Num(i.high),
        }
    }
}

/// The match's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfigJson {
    pub games: u32,
    #[serde(with = "budget")]
    pub budget: Budget,
    #[serde(default = "even")]
    pub odds: u32,
    pub opening_plies: u32,
    pub concurrency: usize,
    pub seed: u64,
    pub max_plies: u32,
    #[serde(with = "sprt")]
    pub sprt: Option<SprtConfig>,
}

/// Even odds, for reports written before `odds` existed.
fn even() -> u32 {
    1
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PentanomialJson {
    pub counts: [u32; 5],
    pub pairs: u32,
    pub unpaired: u32,
}

/// How many games ended for each [`Termination`], by its name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EndingsJson {
    pub rules: usize,
    pub repetition: usize,
    #[serde(rename = "length-cap")]
    pub length_cap: usize,
    #[serde(rename = "illegal-move")]
    pub illegal_move: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThinkJson {
    pub a: Num,
    pub b: Num,
}

/// The SPRT's state: the first decision and after how many games, or the state on the totals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtJson {
    pub model: String,
    pub llr: Num,
    pub lower: Num,
    pub upper: Num,
    pub decision: String,
    pub decided_after: Option<u32>,
}

/// A two-player match's `--json` report (docs/commands.md lists the fields).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportJson {
    pub game: String,
    pub engine_a: String,
    pub engine_b: String,
    pub config: ConfigJson,
    pub played: usize,
    pub results: WdlJson,
    pub score: IntervalJson,
    pub elo: IntervalJson,
    pub a_first: WdlJson,
    pub a_second: WdlJson,
    pub first_player: WdlJson,
    #[serde(default)]
    pub pentanomial: Option<PentanomialJson>,
    #[serde(default)]
    pub interrupted: bool,
    pub endings: EndingsJson,
    pub think_ms: ThinkJson,
    pub sprt: Option<SprtJson>,
    pub seconds: Num,
    pub games: Vec<GameFields>,
}

impl ReportJson {
    pub fn of(report: &MatchReport) -> ReportJson {
        let cfg = &report.config;
        let wdl = report.wdl();
        let penta = report.pentanomial();
        ReportJson {
            game: report.game.to_string(),
            engine_a: report.names.0.clone(),
            engine_b: report.names.1.clone(),
            config: ConfigJson {
                games: cfg.games,
                budget: cfg.budget,
                odds: cfg.odds,
                opening_plies: cfg.opening_plies,
                concurrency: cfg.concurrency,
                seed: cfg.seed,
                max_plies: cfg.max_plies,
                sprt: cfg.sprt,
            },
            played: report.games.len(),
            results: WdlJson::of(&wdl),
            score: IntervalJson::of(&stats::score_interval(&wdl)),
            elo: IntervalJson::of(&stats::elo_interval(&wdl)),
            a_first: WdlJson::of(&report.wdl_in_seat(Player(0))),
            a_second: WdlJson::of(&report.wdl_in_seat(Player(1))),
            first_player: WdlJson::of(&report.wdl_first_player()),
            pentanomial: Some(PentanomialJson {
                counts: penta.counts,
                pairs: penta.pairs(),
                unpaired: penta.unpaired,
            }),
            interrupted: report.interrupted,
            endings: EndingsJson {
                rules: report.count(Termination::Rules),
                repetition: report.count(Termination::Repetition),
                length_cap: report.count(Termination::LengthCap),
                illegal_move: report.count(Termination::IllegalMove),
            },
            think_ms: ThinkJson {
                a: Num(report.mean_think_ms(0).0),
                b: Num(report.mean_think_ms(1).0),
            },
            sprt: report.sprt.map(|s| {
                let (decision, after) = match s.decided {
                    Some((d, n)) => (d, Some(n)),
                    None => (s.status.decision, None),
                };
                SprtJson {
                    model: "logistic".into(),
                    llr: Num(s.status.llr),
                    lower: Num(s.status.lower),
                    upper: Num(s.status.upper),
                    decision: decision.as_str().into(),
                    decided_after: after,
                }
            }),
            seconds: Num(report.seconds),
            games: report.games.iter().map(GameFields::of).collect(),
        }
    }

    /// Writes the report as before: one top-level field a line, one game a line.
    pub fn write<W: Write>(&self, w: &mut W) -> io::Result<()> {
        let mut ser = serde_json::Serializer::with_formatter(&mut *w, Layout::default());
        self.serialize(&mut ser)?;
        writeln!(w)
    }
}

/// A result with its 95% interval, as a larger table's report writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScoreJson {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub score: Num,
    pub low: Num,
    pub high: Num,
}

impl ScoreJson {
    fn of(w: &Wdl) -> ScoreJson {
        let i = stats::score_interval(w);
        ScoreJson {
            wins: w.wins,
            draws: w.draws,
            losses: w.losses,
            score: Num(i.value),
            low: Num(i.low),
            high: Num(i.high),
        }
    }
}

/// A [`Mean`] as `{"n":..,"mean":..,"margin":..}` (`null`s without samples).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeanJson {
    pub n: usize,
    pub mean: Num,
    pub margin: Num,
}

impl MeanJson {
    fn of(m: &Mean) -> MeanJson {
        MeanJson {
            n: m.n,
            mean: Num(m.mean),
            margin: Num(m.margin),
        }
    }
}

/// One seat's statistics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatJson {
    /// 1-based.
    pub seat: usize,
    pub colour: String,
    pub a_share: MeanJson,
    pub b_share: MeanJson,
    pub a_points: MeanJson,
    pub b_points: MeanJson,
}

/// A larger table's `--json` report: the summary (the games themselves are in the games file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatsJson {
    pub game: String,
    pub players: usize,
    pub engine1: String,
    pub engine2: String,
    #[serde(with = "budget")]
    pub budget: Budget,
    pub odds: u32,
    pub openings: u32,
    pub seed: u64,
    pub games: usize,
    pub interrupted: bool,
    pub seconds: Num,
    pub result: ScoreJson,
    /// By the number of seats A held.
    pub by_seats_held: BTreeMap<u32, ScoreJson>,
    pub a_first_share: MeanJson,
    pub b_first_share: MeanJson,
    pub seats: Vec<SeatJson>,
}

impl SeatsJson {
    pub fn of(report: &MatchReport) -> SeatsJson {
        let players = report.players();
        SeatsJson {
            game: report.game.to_string(),
            players,
            engine1: report.names.0.clone(),
            engine2: report.names.1.clone(),
            budget: report.config.budget,
            odds: report.config.odds,
            openings: report.config.opening_plies,
            seed: report.config.seed,
            games: report.games.len(),
            interrupted: report.interrupted,
            seconds: Num(report.seconds),
            result: ScoreJson::of(&report.wdl()),
            by_seats_held: (1..players as u32)
                .map(|k| (k, ScoreJson::of(&report.wdl_holding(k))))
                .collect(),
            a_first_share: MeanJson::of(&report.first_share(0)),
            b_first_share: MeanJson::of(&report.first_share(1)),
            seats: (0..players)
                .map(|s| SeatJson {
                    seat: s + 1,
                    colour: report.seat_names[s].to_string(),
                    a_share: MeanJson::of(&report.seat_share(0, s)),
                    b_share: MeanJson::of(&report.seat_share(1, s)),
                    a_points: MeanJson::of(&report.seat_points(0, s)),
                    b_points: MeanJson::of(&report.seat_points(1, s)),
                })
                .collect(),
        }
    }
}

/// The two-player report's layout: each top-level field on its own line (`"key": value`), each
/// element of a top-level array on its own line, everything else compact. Diffs of reports and
/// `grep` over them stay as readable as with the hand-written writer.
#[derive(Default)]
struct Layout {
    /// Open objects and arrays.
    depth: usize,
}

impl serde_json::ser::Formatter for Layout {
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth += 1;
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth -= 1;
        w.write_all(if self.depth == 0 { b"\n}" } else { b"}" })
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        match (self.depth, first) {
            (1, true) => w.write_all(b"\n  "),
            (1, false) => w.write_all(b",\n  "),
            (_, true) => Ok(()),
            (_, false) => w.write_all(b","),
        }
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(if self.depth == 1 { b": " } else { b":" })
    }

    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth += 1;
        w.write_all(b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth -= 1;
        w.write_all(if self.depth == 1 { b"\n  ]" } else { b"]" })
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        match (self.depth, first) {
            (2, true) => w.write_all(b"\n    "),
            (2, false) => w.write_all(b",\n    "),
            (_, true) => Ok(()),
            (_, false) => w.write_all(b","),
        }
    }
}
