//! GTP version 2: exact framing (`=`/`?`, optional ids, one blank line after each response and
//! none inside), the core commands, game selection (`list_games`/`set_game`), time settings with
//! a lag buffer, `lz-analyze` and `kata-analyze` streaming analysis that ends at the next input
//! line, and resignation. The Go commands (SGF files, handicap, KGS's cleanup, GoGui's analyze
//! list) are in `gtp_go.rs`, GoGui's game-ruler commands in `gtp_rules.rs`.

#[path = "gtp_go.rs"]
mod go;
#[path = "gtp_rules.rs"]
mod rules;

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

/// The time system set by `time_settings` / `kgs-time_settings`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum TimeSystem {
    /// No time settings: `DEFAULT_MOVE_TIME` (or `gpn-setoption movetime`) per move.
    Unset,
    /// No limit at all (`time_settings M B 0` with B > 0, or `kgs-time_settings none`).
    NoLimit,
    Absolute,
    /// Canadian: after the main time, `period` for every `stones` moves.
    Canadian {
        period: Duration,
        stones: u32,
    },
    /// Japanese: after the main time, `periods` periods of `period` each.
    Byoyomi {
        period: Duration,
    },
}

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
        resign_threshold: 0.0,
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
                match self.conductor.session().map(|s| s.status_list(&status)) {
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
                s.set_komi(k);
            });
        }
        if let Some(situational) = self.situational_superko {
            self.session_do(|s| {
                s.set_superko(situational);
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
        let option = options::lookup(name)?;
        let value = option.check(value)?;
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
            "ponder" | "multipv" | "show_wdl" => {
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

    /// The budget of the next move of `player`, within `maxmovetime`.
    fn budget(&self, player: usize, moves_left: Option<u32>) -> Budget {
        let b = self.clock_budget(player, moves_left);
        match self.max_move_time {
            Some(cap) => Budget {
                soft: b.soft.min(cap),
                hard: b.hard.min(cap),
            },
            None => b,
        }
    }

    /// A clock with our pace (`Slow Mover`), to be filled in.
    fn clock(&self) -> Clock {
        Clock {
            slow_mover: self.slow_mover,
            ..Clock::default()
        }
    }

    /// The budget the time settings give the next move of `player`, who has at most
    /// `moves_left` moves still to play (the game's bound) in sudden death.
    fn clock_budget(&self, player: usize, moves_left: Option<u32>) -> Budget {
        let left = self.time_left[player];
        match self.time {
            TimeSystem::Unset => Budget::fixed(self.move_time, Duration::ZERO),
            TimeSystem::NoLimit => Budget::fixed(self.move_time, Duration::ZERO),
            TimeSystem::Absolute => {
                let remaining = left.map_or(self.main_time, |(t, _)| t);
                Budget::from_clock(
                    &Clock {
                        remaining,
                        moves_left,
                        ..self.clock()
                    },
                    self.overhead,
                )
            }
            TimeSystem::Canadian { period, stones } => match left {
                // In byo-yomi: `t` for the `s` stones still to play in this period.
                Some((t, s)) if s > 0 => Budget::from_clock(
                    &Clock {
                        remaining: t,
                        moves_to_go: Some(s),
                        ..self.clock()
                    },
                    self.overhead,
                ),
                other => {
                    let main = other.map_or(self.main_time, |(t, _)| t);
                    // Main time, then at least the byo-yomi's share per stone.
                    let share = period / stones.max(1);
                    Budget::from_clock(
                        &Clock {
                            remaining: main,
                            byoyomi: if main.is_zero() {
                                share
                            } else {
                                Duration::ZERO
                            },
                            ..self.clock()
                        },
                        self.overhead,
                    )
                }
            },
            TimeSystem::Byoyomi { period } => match left {
                // In byo-yomi (KGS reports periods left): the period's time is ours every move.
                Some((t, p)) if p > 0 => Budget::from_clock(
                    &Clock {
                        byoyomi: t.min(period),
                        ..self.clock()
                    },
                    self.overhead,
                ),
                other => Budget::from_clock(
                    &Clock {
                        remaining: other.map_or(self.main_time, |(t, _)| t),
                        byoyomi: period,
                        ..self.clock()
                    },
                    self.overhead,
                ),
            },
        }
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
        let result = searchmoves.and_then(|moves| self.generate(player, play, moves));
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
    /// `play`.
    fn generate(
        &mut self,
        player: usize,
        play: bool,
        searchmoves: Vec<String>,
    ) -> Result<String, String> {
        let control = Arc::new(SearchControl::new());
        let moves_left = self.conductor.session().and_then(|s| s.moves_left_bound());
        control.set_budget(Some(self.budget(player, moves_left)));
        let job = SearchJob {
            dialect: Dialect::Gtp,
            searchmoves,
            ..SearchJob::default()
        };
        self.conductor.start(job, control, false);
        let info = self.finish_search();
        if resigns(&info, self.resign_threshold) {
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
        let info = self.finish_search();
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
    /// and `boardsize`, which abandon the game the search is for.
    fn finish_search(&mut self) -> SearchInfo {
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
                Some(w) => {
                    if let Outcome::Finished(info) = self.conductor.on_worker(w) {
                        return info;
                    }
                }
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
                s.player_scores().as_deref(),
                &outcome,
            ));
        }
        // Games scored by points (Go) count the board as it stands, as GTP engines do when
        // the controller ends a game.
        if let Some(score) = s.score_text() {
            return Ok(score);
        }
        let outcome = s.outcome().ok_or("cannot score: the game is not over")?;
        Ok(match outcome.winner() {
            Some(Player(0)) => "B+1".to_string(),
            Some(_) => "W+1".to_string(),
            None => "0".to_string(),
        })
    }

    fn time_settings(&mut self, args: &[&str]) -> Result<String, String> {
        let n: Vec<u64> = args
            .iter()
            .map(|a| a.parse::<u64>())
            .collect::<Result<_, _>>()
            .map_err(|_| "syntax error")?;
        let [main, period, stones] = n[..] else {
            return Err("syntax error".to_string());
        };
        self.main_time = Duration::from_secs(main);
        self.time = match (period, stones) {
            (0, _) => TimeSystem::Absolute,
            (_, 0) => TimeSystem::NoLimit,
            (p, s) => TimeSystem::Canadian {
                period: Duration::from_secs(p),
                stones: s as u32,
            },
        };
        self.time_left = [None; MAX_PLAYERS];
        Ok(String::new())
    }

    fn kgs_time_settings(&mut self, args: &[&str]) -> Result<String, String> {
        let num = |k: usize| -> Result<u64, String> {
            args.get(k)
                .and_then(|a| a.parse().ok())
                .ok_or("syntax error".to_string())
        };
        let system = args
            .first()
            .map(|s| s.to_ascii_lowercase())
            .unwrap_or_default();
        self.time = match system.as_str() {
            "none" => TimeSystem::NoLimit,
            "absolute" => {
                self.main_time = Duration::from_secs(num(1)?);
                TimeSystem::Absolute
            }
            "byoyomi" => {
                self.main_time = Duration::from_secs(num(1)?);
                num(3)?;
                TimeSystem::Byoyomi {
                    period: Duration::from_secs(num(2)?),
                }
            }
            "canadian" => {
                self.main_time = Duration::from_secs(num(1)?);
                TimeSystem::Canadian {
                    period: Duration::from_secs(num(2)?),
                    stones: num(3)? as u32,
                }
            }
            _ => return Err("syntax error".to_string()),
        };
        self.time_left = [None; MAX_PLAYERS];
        Ok(String::new())
    }

    fn time_left(&mut self, args: &[&str]) -> Result<String, String> {
        let player = self.player_arg(args.first())?;
        let secs: f64 = args
            .get(1)
            .and_then(|t| t.parse::<f64>().ok())
            .filter(|t| t.is_finite())
            .ok_or("syntax error")?;
        // Anything beyond a year is as good as unlimited (and keeps the arithmetic finite).
        let secs = secs.clamp(0.0, 365.0 * 86_400.0);
        let stones: u32 = args
            .get(2)
            .and_then(|s| s.parse().ok())
            .ok_or("syntax error")?;
        self.time_left[player] = Some((Duration::from_secs_f64(secs), stones));
        Ok(String::new())
    }

    /// `lz-analyze` / `kata-analyze` (`kata`) `[colour] [interval] [key value ...]`: `=` at
    /// once, then one `info` line per interval with every searched move, until the next input
    /// line ends it (with the blank line). Bad arguments are answered `?` before anything runs.
    fn analyze(&mut self, id: &Option<String>, args: &[&str], kata: bool) {
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
            Some(s) if kata => s.line_scorer(Dialect::Gtp),
            _ => None,
        };
        // The position does not change while it is analysed: its ownership estimate is made
        // once, before the search starts (games without one: no `ownership` field).
        let ownership_field = match self.conductor.session() {
            Some(s) if kata && ownership => s.ownership().map(|own| {
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

/// The keys of KataGo's and Leela Zero's analysis commands that take one value and that gpn
/// accepts without acting on them (it has no ownership deviation, move filters or root info).
const IGNORED_ANALYZE_KEYS: &[&str] = &[
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
struct AnalyzeArgs {
    /// The colour to analyse for (`None`: the side to move).
    player: Option<usize>,
    /// Centiseconds between lines.
    interval_cs: u64,
    /// `ownership true`: `kata-analyze` lines end with the ownership estimate.
    ownership: bool,
}

/// The analysis arguments `[colour] [interval] [key value ...]`: the colour to analyse for
/// (`colour` reads the game's colour names), the interval in centiseconds (default 100;
/// `interval N` also sets it) and `ownership`.
fn analyze_args(
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
fn winrate(value: f32) -> f64 {
    ((f64::from(value) + 1.0) / 2.0).clamp(0.0, 1.0)
}

/// One `kata-analyze` line as KataGo writes it, all values for the side to move: `info move V
/// visits N utility U winrate W scoreMean S scoreLead S prior P lcb L order K pv ...` per
/// move (winrate, prior and lcb in 0..1, utility in -1..1); `score` gives the lead in points
/// of a line (0 in games without points).
fn kata_line(info: &SearchInfo, score: impl Fn(&[String]) -> f32) -> String {
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
fn analysis_line(info: &SearchInfo) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preprocessing_follows_the_spec() {
        let c = preprocess("12 play\tb D5 # comment").unwrap();
        assert_eq!(c.id.as_deref(), Some("12"));
        assert_eq!(c.name, "play");
        assert_eq!(c.args, vec!["b", "D5"]);
        assert!(preprocess("   # only a comment").is_none());
        assert!(preprocess("\u{7}").is_none());
    }

    #[test]
    fn frames_have_one_blank_line_and_none_inside() {
        assert_eq!(frame(true, &Some("3".into()), "2"), "=3 2\n\n");
        assert_eq!(
            frame(false, &None, "unknown command"),
            "? unknown command\n\n"
        );
        assert_eq!(frame(true, &None, "a\n\nb\n"), "= a\nb\n\n");
        assert_eq!(frame(true, &None, ""), "=\n\n");
        assert_eq!(frame(true, &None, "\n1 x\n2 o"), "=\n1 x\n2 o\n\n");
    }

    /// A search snapshot with one line per `(move, value, visits, proof)`.
    fn info(lines: &[(&str, f32, u32, Option<Proven>)]) -> SearchInfo {
        SearchInfo {
            lines: lines
                .iter()
                .map(|&(mv, value, visits, proven)| crate::engine::InfoLine {
                    pv: vec![mv.to_string(), "pass".to_string()],
                    value,
                    wdl: [0, 0, 0],
                    proven,
                    visits,
                })
                .collect(),
            best: lines.first().map(|l| l.0.to_string()),
            ..SearchInfo::default()
        }
    }

    #[test]
    fn analysis_arguments_take_colour_interval_and_katago_keys() {
        let parsed = |player, interval_cs, ownership| {
            Ok(AnalyzeArgs {
                player,
                interval_cs,
                ownership,
            })
        };
        assert_eq!(analyze_args(&[], &colour), parsed(None, 100, false));
        assert_eq!(
            analyze_args(&["w", "10"], &colour),
            parsed(Some(1), 10, false)
        );
        assert_eq!(analyze_args(&["50"], &colour), parsed(None, 50, false));
        assert_eq!(
            analyze_args(&["B", "interval", "20", "ownership", "true"], &colour),
            parsed(Some(0), 20, true)
        );
        assert_eq!(
            analyze_args(&["ownership", "false", "pvVisits", "true"], &colour),
            parsed(None, 100, false)
        );
        assert!(analyze_args(&["ownership", "yes"], &colour).is_err());
        assert_eq!(analyze_args(&["0"], &colour), parsed(None, 1, false));
        assert!(analyze_args(&["b", "frobnicate", "1"], &colour).is_err());
        assert!(analyze_args(&["interval"], &colour).is_err());
        assert!(analyze_args(&["interval", "x"], &colour).is_err());
        assert!(analyze_args(&["99999999999999999999999"], &colour).is_err());
        assert_eq!(
            analyze_args(&["4294967296000"], &colour),
            parsed(None, 8_640_000, false)
        );
    }

    #[test]
    fn kata_lines_write_katago_fields_for_the_side_to_move() {
        let snapshot = info(&[("D4", 0.5, 30, None), ("C3", -1.0, 10, None)]);
        let line = kata_line(&snapshot, |pv| if pv[0] == "D4" { 2.5 } else { -1.0 });
        assert_eq!(
            line,
            "info move D4 visits 30 utility 0.500000 winrate 0.750000 scoreMean 2.50 \
             scoreLead 2.50 prior 0.500000 lcb 0.750000 order 0 pv D4 pass \
             info move C3 visits 10 utility -1.000000 winrate 0.000000 scoreMean -1.00 \
             scoreLead -1.00 prior 0.500000 lcb 0.000000 order 1 pv C3 pass"
        );
        assert_eq!(kata_line(&SearchInfo::default(), |_| 0.0), "");
    }

    #[test]
    fn resignation_needs_the_option_and_a_loss_or_a_low_winrate_with_visits() {
        let loss = Some(Proven::Loss { plies: 3 });
        assert!(!resigns(&info(&[("D4", -1.0, 1, loss)]), 0.0));
        assert!(resigns(&info(&[("D4", -1.0, 1, loss)]), 0.01));
        assert!(resigns(&info(&[("D4", -0.9, 100, None)]), 0.1));
        assert!(!resigns(&info(&[("D4", -0.9, 99, None)]), 0.1));
        assert!(!resigns(&info(&[("D4", -0.7, 500, None)]), 0.1));
        let draw = Some(Proven::Draw { plies: 2 });
        assert!(!resigns(&info(&[("D4", 0.0, 5, draw)]), 0.6));
        assert!(!resigns(&SearchInfo::default(), 0.5));
    }

    #[test]
    fn colours_of_more_players_are_names_or_unambiguous_first_letters() {
        let four = ["red", "yellow", "green", "blue"];
        assert_eq!(player_index(&four, "red"), Some(0));
        assert_eq!(player_index(&four, "Yellow"), Some(1));
        assert_eq!(player_index(&four, "G"), Some(2));
        assert_eq!(player_index(&four, "b"), Some(3));
        assert_eq!(player_index(&four, "black"), None);
        assert_eq!(player_index(&four, "re"), None);
        assert_eq!(player_index(&four, ""), None);
        // A letter two colours start with names neither.
        assert_eq!(player_index(&["red", "rose", "green"], "r"), None);
        assert_eq!(player_index(&["red", "rose", "green"], "rose"), Some(1));
        // Two-player games keep black and white.
        assert_eq!(player_in(&["black", "white"], "b"), Some(0));
        assert_eq!(player_in(&["black", "white"], "red"), None);
        assert_eq!(player_in(&four[..3], "b"), None);
        assert_eq!(player_in(&four[..3], "y"), Some(1));
    }

    #[test]
    fn multi_player_scores_list_points_then_ranks_in_seat_order() {
        let names = ["red", "yellow", "green", "blue"];
        let points = [20, 15, 14, 15];
        let outcome = crate::game::Outcome::by_scores(&points);
        assert_eq!(
            multi_player_score(&names, Some(&points), &outcome),
            "red 20 yellow 15 green 14 blue 15 ranks 1 2 4 2"
        );
        let outcome = crate::game::Outcome::by_scores(&[3, 3, 1]);
        assert_eq!(
            multi_player_score(&names[..3], None, &outcome),
            "ranks 1 1 3"
        );
    }

    #[test]
    fn boardsize_in_rolit_keeps_the_player_count() {
        let info = |name: &str| *GAMES.iter().find(|g| g.name == name).unwrap();
        let size = |game: &str, n| multi_player_of_size(&info(game), n).map(|g| g.name);
        assert_eq!(size("rolit", 6), Some("rolit6-4p"));
        assert_eq!(size("rolit", 4), Some("rolit4-4p"));
        assert_eq!(size("rolit-3p", 6), Some("rolit6-3p"));
        assert_eq!(size("rolit4-3p", 8), Some("rolit-3p"));
        assert_eq!(size("rolit6-4p", 8), Some("rolit"));
        assert_eq!(size("rolit-3p", 5), None);
    }

    #[test]
    fn colours_and_sizes() {
        assert_eq!(colour("B"), Some(0));
        assert_eq!(colour("white"), Some(1));
        assert_eq!(colour("red"), None);
        assert_eq!(board_size("8x8"), Some(8));
        assert_eq!(board_size("7x6"), Some(7));
        assert_eq!(family_of("go13"), "go");
        assert_eq!(family_of("go"), "go");
        assert_eq!(family_of("breakthrough7x7"), "breakthrough");
        assert_eq!(family_of("loa7"), "loa");
        assert_eq!(family_of("ataxx"), "ataxx");
        assert_eq!(family_of("gomoku"), "gomoku");
    }
}
