//! GTP version 2: exact framing (`=`/`?`, optional ids, one blank line after each response and
//! none inside), the core commands, game selection (`list_games`/`set_game`), time settings with
//! a lag buffer, `lz-analyze` and `kata-analyze` streaming analysis that ends at the next input
//! line, and resignation. The Go commands (SGF files, handicap, KGS's cleanup, GoGui's analyze
//! list) are in `go.rs`, GoGui's game-ruler commands in `rules.rs`, the clocks in `clock.rs` and
//! the analysis commands in `analyze.rs`.

mod analyze;
mod clock;
mod go;
mod rules;
#[cfg(test)]
mod tests;

use analyze::{winrate, Analysis, LineFormat};
use clock::TimeSystem;

use crossbeam_channel::Receiver;
use std::sync::Arc;
use std::time::Duration;

use super::conductor::{Conductor, Outcome};
use super::{Event, Output, Settings};
use crate::engine::time::{Budget, Clock, DEFAULT_SLOW_MOVER};
use crate::engine::worker::Worker;
use crate::engine::{
    new_session, SearchControl, SearchInfo, SearchJob, Session, SolveJob, SolveMode, Verdict,
};
use crate::game::registry::{self, GAMES};
use crate::game::{Dialect, GameInfo, Player, MAX_PLAYERS};
use crate::options;
use crate::search::{Proven, SearchParams, UserParams};
use crate::solve::Algo;

/// Every command gpn answers, in `list_commands` order.
const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
    "final_status_list",
    "list_games",
    "set_game",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "lz-analyze",
    "kata-analyze",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
    "loadsgf",
    "printsgf",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "kgs-genmove_cleanup",
    "kgs-rules",
    "gogui-analyze_commands",
    "gpn-setoption",
    "gpn-legal_moves",
    "gpn-side_to_move",
    "gpn-players",
    "gpn-solve",
    "gpn-gfx_dead_stones",
    "gogui-rules_game_id",
    "gogui-rules_board_size",
    "gogui-rules_board",
    "gogui-rules_legal_moves",
    "gogui-rules_side_to_move",
    "gogui-rules_final_result",
    "gogui-rules_captured_count",
    "gogui-rules_setup",
    "gogui-setup",
    "gogui-setup_player",
];

/// `gpn-solve`'s time limit when none is given (a GTP command cannot be stopped).
const DEFAULT_SOLVE_TIME: Duration = Duration::from_secs(60);

/// The visits the best move needs before `genmove` resigns by its winrate: fewer say too
/// little about it (a proven loss needs none).
const RESIGN_MIN_VISITS: u32 = 100;

/// Per-move time when the controller has set no time: GTP has no `go movetime`.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

struct Controller {
    out: Output,
    conductor: Conductor,
    /// The search parameters of the game being played: its defaults row plus `user`.
    params: SearchParams,
    /// The search options set with `gpn-setoption`, re-applied over each game's defaults.
    user: UserParams,
    overhead: Duration,
    /// The `Slow Mover` option: the optimum time of a move in per cent of the usual.
    slow_mover: u32,
    move_time: Duration,
    /// A cap on any move's time, whatever the clock allows (`gpn-setoption maxmovetime`).
    max_move_time: Option<Duration>,
    /// The komi the controller set (`komi`), applied to every new game that has komi (Go);
    /// `None` keeps the game's own (7.5).
    komi: Option<f32>,
    /// The superko rule the controller set (`kgs-rules`): true situational, false positional;
    /// applied like `komi` to every new game that has superko (Go). `None` keeps positional.
    situational_superko: Option<bool>,
    /// The default algorithm of `gpn-solve` (`gpn-setoption Solver`).
    solver: Algo,
    /// `genmove` resigns below this winrate, and on a proven loss (0: never).
    resign_threshold: f64,
    time: TimeSystem,
    main_time: Duration,
    /// From `time_left`: seconds left and stones (Canadian) or periods (Japanese), per player.
    time_left: [Option<(Duration, u32)>; MAX_PLAYERS],
    /// A `quit` was read while a search ran: every search until it is answered at once.
    quit_queued: bool,
    /// The game was named (`--game`, `set_game`): `boardsize` then stays in its family. While
    /// it was not, a size the default game lacks switches to Go of that size.
    game_chosen: bool,
}

/// A parsed command line: id, command name, arguments.
struct Command {
    id: Option<String>,
    name: String,
    args: Vec<String>,
}

/// GTP preprocessing: control characters dropped (tabs become spaces), comments cut; `None`
/// for a line with nothing left.
fn preprocess(line: &str) -> Option<Command> {
    let cleaned: String = line
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let cleaned = cleaned.split('#').next().unwrap_or("");
    let mut words = cleaned.split_whitespace();
    let first = words.next()?;
    let (id, name) = if first.chars().all(|c| c.is_ascii_digit()) {
        (
            Some(first.to_string()),
            words.next().unwrap_or("").to_string(),
        )
    } else {
        (None, first.to_string())
    };
    Some(Command {
        id,
        name,
        args: words.map(str::to_string).collect(),
    })
}

/// The response text: `=id result` or `?id message`, lines without blank ones, then a blank line.
fn frame(ok: bool, id: &Option<String>, body: &str) -> String {
    // A body starting with a newline (a board) begins on the line after the status.
    let separator = if body.starts_with('\n') { "\n" } else { " " };
    let body: Vec<&str> = body.lines().filter(|l| !l.trim().is_empty()).collect();
    let head = format!(
        "{}{}",
        if ok { '=' } else { '?' },
        id.as_deref().unwrap_or("")
    );
    if body.is_empty() {
        format!("{head}\n\n")
    } else {
        format!("{head}{separator}{}\n\n", body.join("\n"))
    }
}

/// `b`/`black` is the first player, `w`/`white` the second.
fn colour(text: &str) -> Option<usize> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(0),
        "w" | "white" => Some(1),
        _ => None,
    }
}

/// The player a colour argument names in a game of more than two players whose colours are
/// `names` in seat order: a full name, or its first letter where no other colour starts with
/// it, case-insensitive (Rolit: `red`, `R`, `y`, ...).
fn player_index(names: &[&str], text: &str) -> Option<usize> {
    if let Some(p) = names.iter().position(|n| n.eq_ignore_ascii_case(text)) {
        return Some(p);
    }
    let mut chars = text.chars();
    let (Some(letter), None) = (chars.next(), chars.next()) else {
        return None;
    };
    let starts = |n: &&str| {
        n.chars()
            .next()
            .is_some_and(|c| c.eq_ignore_ascii_case(&letter))
    };
    let mut hits = names.iter().enumerate().filter(|(_, n)| starts(n));
    match (hits.next(), hits.next()) {
        (Some((p, _)), None) => Some(p),
        _ => None,
    }
}

/// The colour names of the players of `s` in seat order: `black` and `white` in two-player
/// games, the game's own colours in games of more players.
fn player_names(s: &dyn Session) -> Vec<&'static str> {
    if s.num_players() == 2 {
        return vec!["black", "white"];
    }
    (0..s.num_players()).map(|p| s.player_name(p)).collect()
}

/// Reads the colour argument `text` in a game whose players are `names` ([`player_names`]):
/// `b`/`black`/`w`/`white` in two-player games ([`colour`]), the game's colours in games of
/// more players ([`player_index`]).
fn player_in(names: &[&str], text: &str) -> Option<usize> {
    if names.len() == 2 {
        colour(text)
    } else {
        player_index(names, text)
    }
}

/// The name `list_games` gives a game (the names Quarry and gtp-rhino use where they exist).
fn gtp_game_name(name: &str) -> &str {
    match name {
        "reversi" => "Othello",
        other => other,
    }
}

/// The family of a game name, without its size: `go13` → `go`, `breakthrough7x7` →
/// `breakthrough`, `gomoku` → `gomoku`.
fn family_of(name: &str) -> &str {
    let digits = |c: char| c.is_ascii_digit();
    let t = name.trim_end_matches(digits);
    match t.strip_suffix('x') {
        Some(u) if t.len() < name.len() => u.trim_end_matches(digits),
        _ => t,
    }
}

/// Board size of a game (its first number, "8x8" → 8).
fn board_size(board: &str) -> Option<u32> {
    board.split(['x', 'X']).next()?.trim().parse().ok()
}

/// Runs GTP until `quit` or end of input.
pub fn run(settings: Settings, input: Receiver<Event>, first: Option<String>) {
    let game = settings
        .game
        .clone()
        .unwrap_or_else(|| "reversi".to_string());
    let Ok(session) = new_session(&game, SearchParams::for_game(&game)) else {
        return;
    };
    let params = session.params().clone();
    let worker = Worker::spawn();
    let mut c = Controller {
        out: Output::new(),
        conductor: Conductor::new(session, worker, input, first),
        params,
        user: UserParams::default(),
        overhead: Duration::from_millis(50),
        slow_mover: DEFAULT_SLOW_MOVER,
        move_time: DEFAULT_MOVE_TIME,
        max_move_time: None,
        komi: None,
        situational_superko: None,
        solver: Algo::Dfpn,
        resign_threshold: crate::options::find("resign_threshold")
            .and_then(|o| o.default.parse().ok())
            .unwrap_or(0.0),
        time: TimeSystem::Unset,
        main_time: Duration::ZERO,
        time_left: [None; MAX_PLAYERS],
        quit_queued: false,
        game_chosen: settings.game.is_some(),
    };
    for (name, value) in &settings.options {
        if let Err(e) = c.set_option(name, value) {
            log::warn!("--option {name}: {e}");
        }
    }
    loop {
        match c.conductor.next_event() {
            Event::Line(line) => {
                if let Some(cmd) = preprocess(&line) {
                    if !c.command(cmd) {
                        break;
                    }
                }
            }
            Event::Worker(w) => {
                // Only a search abandoned by an analysis can end here; nothing to print.
                let _ = c.conductor.on_worker(w);
            }
            Event::TooLong => c.respond(
                &None,
                Err(format!("a line of more than {} bytes", super::MAX_LINE)),
            ),
            Event::Eof => break,
        }
    }
    if let Some(control) = c.conductor.control() {
        control.stop();
    }
}

impl Controller {
    fn respond(&self, id: &Option<String>, result: Result<String, String>) {
        let text = match result {
            Ok(body) => frame(true, id, &body),
            Err(message) => frame(false, id, &super::clip(&message)),
        };
        self.out.send(&text);
    }

    /// Handles one command; false after `quit`.
    fn command(&mut self, cmd: Command) -> bool {
        // Whatever ran in the background (an abandoned analysis) ends before anything else.
        let _ = self.conductor.wait();
        let id = cmd.id.clone();
        let args: Vec<&str> = cmd.args.iter().map(String::as_str).collect();
        let result = match cmd.name.as_str() {
            "protocol_version" => Ok("2".to_string()),
            "name" => Ok("gpn".to_string()),
            "version" => Ok(env!("CARGO_PKG_VERSION").to_string()),
            "known_command" => Ok(args
                .first()
                .is_some_and(|c| COMMANDS.contains(c))
                .to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => {
                self.respond(&id, Ok(String::new()));
                return false;
            }
            "boardsize" => self.boardsize(&args),
            "clear_board" => {
                self.session_do(|s| s.new_game());
                self.apply_rules();
                Ok(String::new())
            }
            "komi" => match args.first().and_then(|k| k.parse::<f32>().ok()) {
                Some(k) if k.is_finite() && k.abs() <= 1000.0 => {
                    self.komi = Some(k);
                    self.apply_rules();
                    Ok(String::new())
                }
                _ => Err("syntax error".to_string()),
            },
            "play" => self.play(&args),
            "genmove" => self.genmove(&args, true, false),
            "reg_genmove" => self.genmove(&args, false, false),
            "kgs-genmove_cleanup" => self.genmove(&args, true, true),
            "kgs-rules" => self.kgs_rules(&args),
            "loadsgf" => self.loadsgf(&args),
            "printsgf" => self.printsgf(&args),
            "fixed_handicap" => self.fixed_handicap(&args),
            "gogui-setup" => self.gogui_setup(&args, false),
            "gogui-setup_player" => self.gogui_setup(&args, true),
            "place_free_handicap" => self.place_free_handicap(&args),
            "set_free_handicap" => self.set_free_handicap(&args),
            "gogui-analyze_commands" => Ok(go::ANALYZE_COMMANDS.join("\n")),
            "gpn-gfx_dead_stones" => self.gfx_dead_stones(),
            "undo" => match self.conductor.session().map(|s| s.undo()) {
                Some(true) => Ok(String::new()),
                _ => Err("cannot undo".to_string()),
            },
            "showboard" => Ok(self.showboard()),
            "final_score" => self.final_score(),
            "final_status_list" => {
                let status = args.first().copied().unwrap_or("").to_ascii_lowercase();
                match self
                    .conductor
                    .session()
                    .and_then(|s| s.territory())
                    .map(|t| t.status_list(&status))
                {
                    Some(Some(list)) => Ok(list.join(" ")),
                    _ if ["dead", "alive", "seki"].contains(&status.as_str()) => {
                        Err("this game has no life and death".to_string())
                    }
                    _ => Err("syntax error: final_status_list dead|alive|seki".to_string()),
                }
            }
            "list_games" => Ok(GAMES
                .iter()
                .map(|g| gtp_game_name(g.name))
                .collect::<Vec<_>>()
                .join("\n")),
            "set_game" => self.set_game(&args),
            "time_settings" => self.time_settings(&args),
            "time_left" => self.time_left(&args),
            "kgs-time_settings" => self.kgs_time_settings(&args),
            "lz-analyze" | "kata-analyze" => {
                self.analyze(&id, &args, cmd.name == "kata-analyze");
                return true;
            }
            "lz-genmove_analyze" | "kata-genmove_analyze" => {
                self.genmove_analyze(&id, &args, cmd.name == "kata-genmove_analyze");
                return true;
            }
            "gpn-setoption" => match args.split_first() {
                Some((name, value)) => self.set_option(name, &value.join(" ")),
                None => Err("syntax error".to_string()),
            },
            "gpn-solve" => self.solve(&args),
            "gpn-legal_moves" => Ok(self
                .conductor
                .session()
                .map(|s| s.legal_moves(Dialect::Gtp).join(" "))
                .unwrap_or_default()),
            "gpn-side_to_move" => Ok(self
                .conductor
                .session()
                .map(|s| player_names(s.as_ref())[s.side_to_move()].to_string())
                .unwrap_or_default()),
            "gpn-players" => Ok(self
                .conductor
                .session()
                .map(|s| player_names(s.as_ref()).join(" "))
                .unwrap_or_default()),
            "" => Err("syntax error".to_string()),
            name => self
                .gogui_rules(name)
                .unwrap_or_else(|| Err("unknown command".to_string())),
        };
        self.respond(&id, result);
        true
    }

    /// Gives the current game the controller's komi and superko rule, where it set them and the
    /// game has them.
    fn apply_rules(&mut self) {
        if let Some(k) = self.komi {
            self.session_do(|s| {
                if let Some(t) = s.territory_mut() {
                    t.set_komi(k);
                }
            });
        }
        if let Some(situational) = self.situational_superko {
            self.session_do(|s| {
                if let Some(t) = s.territory_mut() {
                    t.set_superko(situational);
                }
            });
        }
    }

    /// `kgs-rules chinese|tromp-taylor|aga|new_zealand` (kgsGtp sends it before a game): the
    /// superko rule of the named rule set, kept for later games as `komi` is (Chinese and
    /// Tromp-Taylor: positional; AGA and New Zealand: situational). Japanese rules count
    /// territory, which gpn does not: refused. The position is kept; its moves are replayed.
    fn kgs_rules(&mut self, args: &[&str]) -> Result<String, String> {
        let situational = match args.first().map(|a| a.to_ascii_lowercase()).as_deref() {
            Some("chinese" | "tromp-taylor" | "tromp_taylor") => false,
            Some("aga" | "new_zealand" | "new-zealand") => true,
            Some("japanese") => {
                return Err("unsupported rules: gpn scores by area only".to_string())
            }
            _ => return Err("syntax error: chinese, aga, new_zealand or tromp-taylor".to_string()),
        };
        self.situational_superko = Some(situational);
        self.apply_rules();
        Ok(String::new())
    }

    fn session_do(&mut self, f: impl FnOnce(&mut Box<dyn crate::engine::Session>)) {
        if let Some(s) = self.conductor.session() {
            f(s);
        }
    }

    /// `gpn-setoption <name> <value>`: the options of the registry (by key, UCI or USI name),
    /// with GTP's own `movetime`, `maxmovetime` and `resign_threshold`.
    fn set_option(&mut self, name: &str, value: &str) -> Result<String, String> {
        // A spin form (`Tune_C`) arrives as its real option with the value unscaled.
        let (option, value) = options::lookup_value(name, value)?;
        let value = option.check(&value)?;
        // The registry has checked the value: the parses below cannot fail.
        let ms = || Duration::from_millis(value.parse().unwrap_or(0));
        match option.key {
            "variant" => return self.set_game(&[value.as_str()]),
            "movetime" => self.move_time = ms(),
            "maxmovetime" => self.max_move_time = Some(ms()).filter(|t| !t.is_zero()),
            "move_overhead" => self.overhead = ms(),
            "slow_mover" => self.slow_mover = value.parse().unwrap_or(DEFAULT_SLOW_MOVER),
            "solver" => self.solver = Algo::parse(&value).unwrap_or(Algo::Dfpn),
            "resign_threshold" => self.resign_threshold = value.parse().unwrap_or(0.0),
            "log_file" => super::logfile::open(&value)?,
            "ponder" | "multipv" | "show_wdl" | "analyse_mode" | "verbose_move_stats" => {
                return Err(format!("{} has no meaning in GTP", option.name()))
            }
            key => {
                self.set_param(key, &value)?;
                let params = self.params.clone();
                self.session_do(|s| s.set_params(params));
            }
        }
        Ok(String::new())
    }

    fn set_game(&mut self, args: &[&str]) -> Result<String, String> {
        let name = args.join(" ");
        let game = registry::canonical_name(&name)
            .or_else(|| {
                GAMES
                    .iter()
                    .find(|g| gtp_game_name(g.name).eq_ignore_ascii_case(&name))
                    .map(|g| g.name)
            })
            .ok_or_else(|| match registry::suggest(&name) {
                Some(g) => format!("unsupported game; did you mean '{g}'?"),
                None => "unsupported game".to_string(),
            })?;
        let (session, params) = self.fresh_session(game)?;
        self.install(session, params);
        self.apply_rules();
        self.game_chosen = true;
        Ok(String::new())
    }

    /// A new session of `game` with the user's options over its defaults, and those parameters.
    fn fresh_session(&self, game: &str) -> Result<(Box<dyn Session>, SearchParams), String> {
        let params = self.user.resolve(game);
        let session = new_session(game, params.clone()).map_err(|e| e.to_string())?;
        Ok((session, params))
    }

    /// Makes `session` (from [`Controller::fresh_session`]) the game being played.
    fn install(&mut self, session: Box<dyn Session>, params: SearchParams) {
        self.conductor.replace_session(session);
        self.params = params;
    }

    /// Records a search option the user set and recomputes the current game's parameters.
    fn set_param(&mut self, name: &str, value: &str) -> Result<(), String> {
        // Checked on a copy first, so that a value the game refuses (another game's network)
        // changes nothing.
        let mut user = self.user.clone();
        user.set(&self.params, name, value)
            .map_err(|e| e.to_string())?;
        if let Some(s) = self.conductor.session() {
            let params = user.resolve(s.game().name);
            s.check_params(&params).map_err(|e| e.to_string())?;
            self.params = params;
        }
        self.user = user;
        Ok(())
    }

    /// `boardsize N`: a new game; the current game's size, or the game of the same family with
    /// that size (breakthrough 6/7/8, loa 7/8).
    fn boardsize(&mut self, args: &[&str]) -> Result<String, String> {
        let n: u32 = args
            .first()
            .and_then(|a| a.parse().ok())
            .ok_or("syntax error")?;
        let current = self
            .conductor
            .session()
            .map(|s| s.game())
            .ok_or("unacceptable size")?;
        if board_size(current.board) == Some(n) {
            self.session_do(|s| s.new_game());
            self.apply_rules();
            return Ok(String::new());
        }
        // Games of more than two players keep their player count (Rolit: rolit-3p, rolit6-3p,
        // rolit4-3p) and never become Go.
        if registry::num_players(current.name).is_some_and(|p| p > 2) {
            return match multi_player_of_size(current, n) {
                Some(g) => self.set_game(&[g.name]),
                None => Err("unacceptable size".to_string()),
            };
        }
        // The same game in another size, else (while no game was named) Go of that size: a
        // controller that sends a boardsize the default game does not have is a Go controller
        // (GTP's own game), and a Go GUI starting gpn without --game must get Go, not
        // `? unacceptable size`.
        let family = family_of(current.name);
        let of_size = |family: &str| {
            registry::two_player_games()
                .find(|g| family_of(g.name) == family && board_size(g.board) == Some(n))
        };
        let go = || of_size("go").filter(|_| !self.game_chosen);
        match of_size(family).or_else(go) {
            Some(g) => self.set_game(&[g.name]),
            None => Err("unacceptable size".to_string()),
        }
    }

    /// Plays a pass for the side to move when `player` is not to move and the other side may
    /// pass: a forced pass (Othello; GTP controllers skip passes they consider implicit), or a
    /// Go pass, so that several stones of one colour in a row (Sabaki's setup stones) are played
    /// as they come. A pass that would end the game is not inserted. Returns whether it
    /// inserted one.
    fn align_turn(&mut self, player: usize) -> Result<bool, String> {
        let Some(s) = self.conductor.session() else {
            return Err("engine busy".to_string());
        };
        if s.side_to_move() == player || s.outcome().is_some() {
            return Ok(false);
        }
        // With more than two players the rules fix the order of play: nobody passes, and a
        // colour moves only in its turn.
        if s.num_players() > 2 {
            return Err(format!(
                "illegal move: it is {}'s turn",
                s.player_name(s.side_to_move())
            ));
        }
        let legal = s.legal_moves(Dialect::Gtp);
        if legal.iter().any(|m| m.eq_ignore_ascii_case("pass")) {
            s.play("pass", Dialect::Gtp).map_err(|e| e.to_string())?;
            if s.outcome().is_none() {
                return Ok(true);
            }
            s.undo();
        }
        Err(format!(
            "illegal move: it is {}'s turn",
            if s.side_to_move() == 0 {
                "black"
            } else {
                "white"
            }
        ))
    }

    /// The player of the colour argument `text` (`None`: missing) in the current game; in games
    /// of more than two players an unknown colour is answered with the game's colours.
    fn player_arg(&mut self, text: Option<&&str>) -> Result<usize, String> {
        let text = text.copied().ok_or("syntax error")?;
        match self.conductor.session() {
            Some(s) if s.num_players() > 2 => {
                let names = player_names(s.as_ref());
                player_index(&names, text).ok_or_else(|| {
                    format!(
                        "syntax error: unknown colour '{text}' (this game's colours: {})",
                        names.join(", ")
                    )
                })
            }
            _ => colour(text).ok_or_else(|| "syntax error".to_string()),
        }
    }

    fn play(&mut self, args: &[&str]) -> Result<String, String> {
        let player = self.player_arg(args.first())?;
        // A missing vertex is a pass (some GUIs send `play b`).
        let vertex = args.get(1).copied().unwrap_or("pass");
        let inserted = self.align_turn(player)?;
        let s = self.conductor.session().ok_or("engine busy")?;
        s.play(vertex, Dialect::Gtp)
            .map(|_| String::new())
            .map_err(|e| {
                // An illegal move leaves the position as it was, without the inserted pass.
                if inserted {
                    s.undo();
                }
                // GTP controllers look for the words "illegal move" at the start.
                let e = e.to_string();
                if e.starts_with("illegal move") {
                    e
                } else {
                    format!("illegal move: {e}")
                }
            })
    }

    /// `genmove`, `reg_genmove` (not `play`) and `kgs-genmove_cleanup` (`cleanup`: no pass
    /// while the opponent has dead stones).
    fn genmove(&mut self, args: &[&str], play: bool, cleanup: bool) -> Result<String, String> {
        let player = self.player_arg(args.first())?;
        let inserted = self.align_turn(player)?;
        let searchmoves = {
            let s = self.conductor.session().ok_or("engine busy")?;
            if s.outcome().is_some() {
                Err("game is over".to_string())
            } else if cleanup {
                Ok(go::cleanup_moves(s.as_ref()))
            } else {
                Ok(Vec::new())
            }
        };
        let result = searchmoves.and_then(|moves| self.generate(player, play, moves, None));
        // `reg_genmove`, a resignation, or a move that could not be made, leaves the position
        // as it was.
        let played = play && result.as_deref().is_ok_and(|m| m != "resign");
        if inserted && !played {
            self.session_do(|s| {
                s.undo();
            });
        }
        result
    }

    /// Searches for `player` (to move) among `searchmoves` (empty: all) and plays the move when
    /// `play`; with `analysis`, writes the search's analysis lines as it goes.
    fn generate(
        &mut self,
        player: usize,
        play: bool,
        searchmoves: Vec<String>,
        analysis: Option<&Analysis>,
    ) -> Result<String, String> {
        let control = Arc::new(SearchControl::new());
        let moves_left = self.conductor.session().and_then(|s| s.moves_left_bound());
        control.set_budget(Some(self.budget(player, moves_left)));
        let mut job = SearchJob {
            dialect: Dialect::Gtp,
            searchmoves,
            ..SearchJob::default()
        };
        if let Some(a) = analysis {
            job.multipv = analyze::ANALYSIS_LINES;
            job.info_interval = a.interval;
        }
        self.conductor.start(job, control, false);
        let info = self.finish_search(analysis.map(|a| &a.format));
        // Resigning ends a game of two; with more players the others would play on.
        let two_players = self
            .conductor
            .session()
            .is_some_and(|s| s.num_players() == 2);
        if two_players && resigns(&info, self.resign_threshold) {
            return Ok("resign".to_string());
        }
        let best = info.best.ok_or("game is over")?;
        if play {
            let s = self.conductor.session().ok_or("engine busy")?;
            s.play(&best, Dialect::Gtp).map_err(|e| e.to_string())?;
        }
        Ok(best)
    }

    /// `gpn-solve [algorithm] [max_seconds] [max_nodes]`: the game-theoretic value for the side
    /// to move, `<win|draw|loss|unknown> <move|-> algo A nodes N time S proofs ...`.
    fn solve(&mut self, args: &[&str]) -> Result<String, String> {
        let mut algo = self.solver;
        let mut time = DEFAULT_SOLVE_TIME;
        let mut nodes = None;
        let mut numbers = 0;
        for a in args {
            if let Some(x) = Algo::parse(a) {
                algo = x;
                continue;
            }
            match (numbers, a.parse::<f64>()) {
                (0, Ok(t)) if t > 0.0 && t.is_finite() => {
                    time = Duration::try_from_secs_f64(t)
                        .map_err(|_| format!("max_seconds '{a}' is too large"))?
                }
                (1, Ok(n)) if n >= 1.0 && n.is_finite() => nodes = Some(n as u64),
                _ => {
                    return Err(format!(
                        "syntax error: '{a}' (gpn-solve [algorithm] [max_seconds] [max_nodes])"
                    ))
                }
            }
            numbers += 1;
        }
        let solve = SolveJob {
            algo,
            mode: SolveMode::Value,
            max_nodes: nodes,
            memory_mb: self.params.hash_mb,
            threads: self.params.threads,
        };
        {
            let s = self.conductor.session().ok_or("engine busy")?;
            if s.outcome().is_some() {
                return Err("game is over".to_string());
            }
            if let Some(why) = solve.refusal(s.num_players()) {
                return Err(why);
            }
        }
        let control = Arc::new(SearchControl::new());
        control.set_budget(Some(Budget::fixed(time, Duration::ZERO)));
        let job = SearchJob {
            dialect: Dialect::Gtp,
            solve: Some(solve),
            ..SearchJob::default()
        };
        self.conductor.start(job, control, false);
        let info = self.finish_search(None);
        let Some(solved) = &info.solved else {
            return Err("game is over".to_string());
        };
        let best = match solved.verdict {
            Verdict::Win | Verdict::Draw => info.best.as_deref().unwrap_or("-"),
            _ => "-",
        };
        Ok(format!(
            "{} {best} algo {} nodes {} time {:.3} proofs {}",
            solved.verdict.name(),
            algo.name(),
            info.iterations,
            info.time.as_secs_f64(),
            solved.detail.replace(' ', ","),
        ))
    }

    /// Waits for the running search to end by itself (GTP answers in order; input read
    /// meanwhile waits its turn). The end of input does not cut it short: a script that pipes
    /// `genmove`s in gets every one searched, as GNU Go and KataGo do. A `quit` read meanwhile
    /// does: the search stops at once, is answered, and the `quit` follows. So do `clear_board`
    /// and `boardsize`, which abandon the game the search is for. With `analysis`, the search's
    /// snapshots are written as analysis lines.
    fn finish_search(&mut self, analysis: Option<&LineFormat>) -> SearchInfo {
        loop {
            if self.quit_queued {
                if let Some(control) = self.conductor.control() {
                    control.stop();
                }
            }
            // The search is stopped from inside the read: `next_search_event` returns only
            // with the worker's next event, which may be a second away.
            let control = self.conductor.control().cloned();
            let mut quit = false;
            let event = self.conductor.next_search_event(|e| {
                if let Event::Line(line) = e {
                    let name = preprocess(line).map(|c| c.name);
                    let ends =
                        matches!(name.as_deref(), Some("quit" | "clear_board" | "boardsize"));
                    quit |= name.as_deref() == Some("quit");
                    if let Some(control) = control.as_ref().filter(|_| ends) {
                        control.stop();
                    }
                }
            });
            self.quit_queued |= quit;
            match event {
                Some(w) => match self.conductor.on_worker(w) {
                    Outcome::Finished(info) => return info,
                    Outcome::Info(info) => {
                        if let Some(format) = analysis {
                            self.out.send(&format.line(&info));
                        }
                    }
                    Outcome::Quiet => {}
                },
                // The worker is gone: nothing more will come.
                None => return self.conductor.wait().unwrap_or_default(),
            }
        }
    }

    fn showboard(&mut self) -> String {
        match self.conductor.session() {
            Some(s) => {
                let mut diagram = s.diagram();
                // With more than two players the colour to move is always shown.
                if s.num_players() > 2 && s.outcome().is_none() {
                    let turn = format!("{} to move", s.player_name(s.side_to_move()));
                    if !diagram.contains(&turn) {
                        diagram = format!("{diagram}\n{turn}");
                    }
                }
                let board: Vec<&str> = diagram.lines().map(str::trim_end).collect();
                format!("\n{}", board.join("\n"))
            }
            None => String::new(),
        }
    }

    fn final_score(&mut self) -> Result<String, String> {
        let s = self.conductor.session().ok_or("cannot score")?;
        if s.num_players() > 2 {
            let outcome = s.outcome().ok_or("cannot score: the game is not over")?;
            return Ok(multi_player_score(
                &player_names(s.as_ref()),
                s.territory().and_then(|t| t.player_scores()).as_deref(),
                &outcome,
            ));
        }
        // Games scored by points (Go) count the board as it stands, as GTP engines do when
        // the controller ends a game.
        if let Some(score) = s.territory().and_then(|t| t.score_text()) {
            return Ok(score);
        }
        let outcome = s.outcome().ok_or("cannot score: the game is not over")?;
        Ok(match outcome.winner() {
            Some(Player(0)) => "B+1".to_string(),
            Some(_) => "W+1".to_string(),
            None => "0".to_string(),
        })
    }
}

/// `final_score` of a finished game of more than two players: each colour (`names`, in seat
/// order) with its points where the game counts them (`scores`), then `ranks` and each
/// player's place in seat order, 1 the best, tied players sharing the better place:
/// `red 20 yellow 15 green 14 blue 15 ranks 1 2 4 2`.
fn multi_player_score(
    names: &[&str],
    scores: Option<&[i32]>,
    outcome: &crate::game::Outcome,
) -> String {
    let mut words = Vec::new();
    if let Some(scores) = scores {
        for (name, points) in names.iter().zip(scores) {
            words.push(format!("{name} {points}"));
        }
    }
    words.push("ranks".to_string());
    for p in 0..names.len() {
        words.push((outcome.rank(Player(p as u8)) + 1).to_string());
    }
    words.join(" ")
}

/// The game of the same family (the letters its name starts with: `rolit`), player count and
/// board size `n` as `current`, which has more than two players: `boardsize` in Rolit.
fn multi_player_of_size(current: &GameInfo, n: u32) -> Option<&'static GameInfo> {
    let family = |name: &str| -> String {
        name.chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect()
    };
    let players = registry::num_players(current.name);
    GAMES.iter().find(|g| {
        family(g.name) == family(current.name)
            && board_size(g.board) == Some(n)
            && registry::num_players(g.name) == players
    })
}

/// Whether `genmove` resigns after the search `info` with the option `resign_threshold`: never
/// at 0; else when the best move is a proven loss (every move then loses), or when its winrate
/// is below the threshold after [`RESIGN_MIN_VISITS`] visits of it.
fn resigns(info: &SearchInfo, threshold: f64) -> bool {
    let best = info
        .lines
        .iter()
        .find(|l| l.pv.first() == info.best.as_ref())
        .or(info.lines.first());
    let Some(best) = best.filter(|_| threshold > 0.0) else {
        return false;
    };
    matches!(best.proven, Some(Proven::Loss { .. }))
        || (best.visits >= RESIGN_MIN_VISITS && winrate(best.value) < threshold)
}
