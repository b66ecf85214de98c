//! A whole match as the command line asks for it: settings, output files, resume, the report.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use super::games_file::{self, GamesFileError};
use super::records::{self, RecordFormat};
use super::spec::{agent_factory, check_agent, AgentSpec};
use super::{
    output, seats, shard, Budget, GameRecord, MatchConfig, Shard, SprtConfig, StopFlag, Wdl,
};
use crate::game::registry::{self, GameVisitor, PlayersVisitor};
use crate::game::{Game, GameError};

/// Why a match could not be played or its results kept.
#[derive(Debug)]
pub enum MatchError {
    /// Settings that do not fit together or fit the game (the message says which).
    Usage(String),
    /// A file could not be read or written.
    Io(String),
    /// An unknown game.
    Game(GameError),
}

impl From<GamesFileError> for MatchError {
    fn from(e: GamesFileError) -> Self {
        match e {
            GamesFileError::Io(m) => MatchError::Io(m),
            GamesFileError::Bad(m) => MatchError::Usage(m),
        }
    }
}

/// An agent as given (its name for the report, whitespace normalised) and as read.
#[derive(Clone, Debug)]
pub struct NamedAgent {
    pub name: String,
    pub spec: AgentSpec,
}

impl NamedAgent {
    /// Reads an agent spec (`random`, `default`, `sb-gpn c_pn=2`, ...).
    pub fn parse(text: &str) -> Result<NamedAgent, String> {
        Ok(NamedAgent {
            name: text.split_whitespace().collect::<Vec<_>>().join(" "),
            spec: super::spec::parse_agent_spec(text)?,
        })
    }

    /// The name in reports: a `default` agent is labelled with the game's row, so that a
    /// report says what played.
    fn label<G: Game>(&self) -> String {
        match self.spec {
            AgentSpec::Defaults(_) => format!(
                "{} [{}]",
                self.name,
                crate::search::defaults::defaults_spec(G::INFO.name)
            ),
            _ => self.name.clone(),
        }
    }
}

/// The games file's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GamesFormat {
    /// PGN where cutechess-cli knows the game, else JSON Lines.
    Auto,
    Pgn,
    Jsonl,
}

/// What a match plays and where its results go.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    pub games: u32,
    /// Iterations per move (default 1000), unless `movetime` (ms per move) is given.
    pub iterations: Option<u64>,
    pub movetime: Option<u64>,
    pub odds: u32,
    pub openings: u32,
    pub concurrency: usize,
    pub seed: u64,
    /// `None`: the game's own length cap.
    pub max_plies: Option<u32>,
    pub sprt: Option<SprtConfig>,
    /// No progress lines on stderr and no notes (the note that a games file is resumed).
    pub quiet: bool,
    /// The caller's [`MatchWatch`] draws a progress bar instead of the per-game lines (a
    /// two-player match).
    pub bar: bool,
    pub stop: Option<StopFlag>,
    pub shard: Option<Shard>,
    pub csv: Option<PathBuf>,
    pub json: Option<PathBuf>,
    pub games_file: Option<PathBuf>,
    pub games_format: GamesFormat,
    /// Continue the JSON Lines games file instead of overwriting it.
    pub resume: bool,
}

impl MatchSettings {
    /// The match of game `G`: progress lines unless `quiet`, nothing done yet.
    pub fn config<G: Game>(&self) -> MatchConfig {
        let budget = match (self.iterations, self.movetime) {
            (_, Some(ms)) => Budget::Time(Duration::from_millis(ms)),
            (Some(n), None) => Budget::Iterations(n),
            (None, None) => Budget::Iterations(1000),
        };
        MatchConfig {
            games: self.games,
            budget,
            odds: self.odds,
            opening_plies: self.openings,
            concurrency: self.concurrency,
            seed: self.seed,
            max_plies: self.max_plies.unwrap_or(G::MAX_PLIES),
            sprt: self.sprt,
            progress: !self.quiet,
            stop: self.stop.clone(),
            shard: self.shard,
            done: Default::default(),
        }
    }
}

/// What the caller sees of a running two-player match (a progress bar), all on the match's
/// threads, under its lock.
pub trait MatchWatch: Send {
    /// The match starts with `planned` games to play.
    fn start(&mut self, _planned: u32) {}
    /// A game finished; `wdl`: the results so far, from agent A's view.
    fn game(&mut self, _wdl: &Wdl) {}
    /// The match is over (before the report is written).
    fn finish(&mut self) {}
}

/// No watcher.
impl MatchWatch for () {}

/// Plays the match of `game` between `agents` as `settings` say, writing its files as games
/// end, and returns the report's text. `watch` follows a two-player match; `note` gets the
/// informational lines (a resumed games file).
pub fn play_match(
    game: &str,
    agents: [NamedAgent; 2],
    settings: &MatchSettings,
    watch: &mut dyn MatchWatch,
    note: &mut dyn FnMut(&str),
) -> Result<String, MatchError> {
    let visitor = Match {
        settings,
        agents,
        watch,
        note,
    };
    registry::visit(game, visitor).map_err(MatchError::Game)?
}

/// The note that a resumed games file holds `done` finished games already.
fn resuming(done: usize, path: &std::path::Path) -> String {
    format!(
        "resuming: {done} finished games of this run in {}, not played again",
        path.display()
    )
}

/// One match, whatever the number of seats. Two seats get the two-player extras (SPRT, shards,
/// CSV, PGN, the W/D/L and Elo report); a larger table plays every seating of the two agents
/// per opening and gets the per-seat report.
struct Match<'a> {
    settings: &'a MatchSettings,
    agents: [NamedAgent; 2],
    watch: &'a mut dyn MatchWatch,
    note: &'a mut dyn FnMut(&str),
}

impl GameVisitor for Match<'_> {
    type Output = Result<String, MatchError>;
    fn visit<G: Game>(self) -> Result<String, MatchError> {
        G::with_players(self)
    }
}

impl Match<'_> {
    /// The settings a table of `P` seats cannot honour, refused before anything is written.
    fn refuse<G: Game, const P: usize>(&self) -> Result<(), MatchError> {
        let args = self.settings;
        let refuse = |what: &str| {
            Err(MatchError::Usage(format!(
                "{what} is for two-player games; {} has {} players",
                G::INFO.name,
                P
            )))
        };
        if P == 2 {
            return Ok(());
        }
        if args.sprt.is_some() {
            return refuse("--sprt");
        }
        if args.shard.is_some() {
            return refuse("--shard");
        }
        if args.csv.is_some() {
            return refuse("--csv (use --games-file or --json)");
        }
        if args.games_format == GamesFormat::Pgn {
            return refuse("--games-format pgn (the games file is JSON Lines)");
        }
        Ok(())
    }

    /// The games file's format: JSON Lines for a shard (`gpn merge` reads them) and for a
    /// larger table; PGN by default where cutechess-cli knows the game.
    fn record_format<G: Game, const P: usize>(&self) -> Result<RecordFormat, MatchError> {
        let args = self.settings;
        Ok(match (args.games_format, args.shard) {
            (GamesFormat::Pgn, Some(_)) => {
                return Err(MatchError::Usage(
                    "--shard writes its games as JSON Lines (for gpn merge); drop --games-format \
                     pgn"
                    .into(),
                ))
            }
            _ if P != 2 => RecordFormat::JsonLines,
            (GamesFormat::Auto, Some(_)) | (GamesFormat::Jsonl, _) => RecordFormat::JsonLines,
            (GamesFormat::Auto, None) => RecordFormat::for_game(G::INFO.name),
            (GamesFormat::Pgn, None) => RecordFormat::Pgn,
        })
    }
}

impl PlayersVisitor for Match<'_> {
    type Output = Result<String, MatchError>;
    fn visit<G: Game, const P: usize>(self) -> Result<String, MatchError> {
        let two = P == 2;
        self.refuse::<G, P>()?;
        let args = self.settings;
        for engine in &self.agents {
            check_agent::<G>(&engine.spec).map_err(MatchError::Usage)?;
        }
        // The caller's bar replaces the per-game lines (of a two-player match).
        let bar = args.bar && two;
        let mut config = MatchConfig {
            progress: !args.quiet && !bar,
            ..args.config::<G>()
        };
        let record_format = self.record_format::<G, P>()?;
        let mut csv = games_file::create(&args.csv)?;
        let mut json = games_file::create(&args.json)?;
        if args.resume && record_format != RecordFormat::JsonLines {
            return Err(MatchError::Usage(
                "--resume reads the games file back: JSON Lines only (--games-format jsonl)".into(),
            ));
        }
        // A resumed file is opened below, once the run id is known.
        let mut games = if args.resume {
            None
        } else {
            games_file::create(&args.games_file)?
        };
        let [a, b] = &self.agents;
        let names = (a.label::<G>(), b.label::<G>());
        let run_id = shard::match_run_id(G::INFO.name, (&names.0, &names.1), &config);
        let mut previous = Vec::new();
        if let (true, Some(path)) = (args.resume, &args.games_file) {
            let (writer, done) = games_file::resume(path, &run_id, P)?;
            if !done.is_empty() && !args.quiet {
                (self.note)(&resuming(done.len(), path));
            }
            // Games past `games` (a file of a longer run cannot share its id) are ignored.
            previous = done
                .into_iter()
                .filter(|g| g.index < config.games)
                .collect();
            config.done = previous.iter().map(|g| g.index).collect();
            games = Some(writer);
        }
        let io = |e: std::io::Error| MatchError::Io(format!("cannot write output: {e}"));
        // The headers now and every game as it ends, flushed, so that a crash or a Ctrl-C keeps
        // every finished game; rows come in the order games finish (sort by `game`).
        let record_header = records::MatchHeader {
            game: G::INFO.name,
            names: (&names.0, &names.1),
            seed: config.seed,
            budget: config.budget,
            date: records::pgn_date_today(),
            run: Some(records::RunTag {
                id: run_id.clone(),
                config: &config,
            }),
        };
        if let Some(w) = csv.as_mut() {
            output::write_csv_header(w)
                .and_then(|_| w.flush())
                .map_err(io)?;
        }
        // Only a two-player match has a bar (a larger table keeps its per-game lines).
        let watch: &mut dyn MatchWatch = if two { self.watch } else { &mut () };
        watch.start(config.planned_games());
        let mut write_error: Option<std::io::Error> = None;
        let mut on_game = |g: &GameRecord, wdl: &Wdl| {
            watch.game(wdl);
            if write_error.is_some() {
                return;
            }
            let written = games
                .as_mut()
                .map_or(Ok(()), |w| {
                    if two {
                        records::write_record(record_format, &record_header, g, w)
                    } else {
                        seats::json_line(g, &run_id).and_then(|line| writeln!(w, "{line}"))
                    }
                    .and_then(|_| w.flush())
                })
                .and_then(|_| {
                    csv.as_mut().map_or(Ok(()), |w| {
                        output::write_csv_row(g, w).and_then(|_| w.flush())
                    })
                });
            // The match goes on (its report still reaches stdout); the error is reported after.
            write_error = written.err();
        };
        let mut report = super::run_match_with::<G>(
            &config,
            &*agent_factory::<G, P>(&a.spec),
            &*agent_factory::<G, P>(&b.spec),
            (&names.0, &names.1),
            &mut on_game,
        );
        watch.finish();
        // The two-player report counts this run's games (and says how many the file held
        // before); a larger table's report counts every game of the match.
        if !two {
            report.include(previous);
        }
        // JSON at the end (also after a Ctrl-C): it holds the summary of the games played.
        if let Some(w) = json.as_mut() {
            if two {
                output::write_json(&report, w)
            } else {
                report
                    .seats_json()
                    .and_then(|text| w.write_all(text.as_bytes()))
            }
            .and_then(|_| w.flush())
            .map_err(io)?;
        }
        if let Some(e) = write_error {
            return Err(io(e));
        }
        Ok(if two {
            output::format_report(&report)
        } else {
            report.format_seats()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> MatchSettings {
        MatchSettings {
            games: 2,
            iterations: None,
            movetime: None,
            odds: 1,
            openings: 0,
            concurrency: 1,
            seed: 1,
            max_plies: None,
            sprt: None,
            quiet: true,
            bar: false,
            stop: None,
            shard: None,
            csv: None,
            json: None,
            games_file: None,
            games_format: GamesFormat::Auto,
            resume: false,
        }
    }

    #[test]
    fn settings_make_the_match_config() {
        let config = settings().config::<crate::game::connect4::ConnectFour>();
        assert_eq!(config.budget, Budget::Iterations(1000));
        assert!(!config.progress);
        let timed = MatchSettings {
            movetime: Some(20),
            iterations: Some(5),
            ..settings()
        };
        let config = timed.config::<crate::game::connect4::ConnectFour>();
        assert_eq!(config.budget, Budget::Time(Duration::from_millis(20)));
    }

    #[test]
    fn a_match_returns_its_report_and_refuses_what_does_not_fit() {
        let agent = || NamedAgent::parse("random").unwrap();
        let report = play_match(
            "cfour",
            [agent(), agent()],
            &settings(),
            &mut (),
            &mut |_| {},
        );
        assert!(report.unwrap().contains("random"));
        let multi = MatchSettings {
            csv: Some(PathBuf::from("x.csv")),
            ..settings()
        };
        let refused = play_match("rolit-3p", [agent(), agent()], &multi, &mut (), &mut |_| {});
        assert!(matches!(refused, Err(MatchError::Usage(m)) if m.starts_with("--csv")));
        let unknown = play_match(
            "nosuch",
            [agent(), agent()],
            &settings(),
            &mut (),
            &mut |_| {},
        );
        assert!(matches!(unknown, Err(MatchError::Game(_))));
    }
}
