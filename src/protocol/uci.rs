//! UCI, USI and UAI: the controller (the only stdout writer) reading commands, driving the
//! search through the [`Conductor`], and writing `info`, `bestmove` and `checkmate` lines.
//!
//! UAI (Ataxx) is UCI with `uai`/`uaiok`/`uainewgame`, the game fixed to ataxx, and `btime` the
//! clock of the first player `x` (as in USI, and as cuteataxx and python-ataxx send it).

use crossbeam_channel::Receiver;
use std::sync::Arc;
use std::time::Duration;

use super::conductor::{Conductor, Outcome};
use super::{Event, Output, Protocol, Settings};
use crate::engine::time::{Budget, Clock, DEFAULT_SLOW_MOVER};
use crate::engine::worker::Worker;
use crate::engine::{
    centipawns, mate_moves, new_session, PerftCounts, SearchControl, SearchInfo, SearchJob,
    Session, SolveJob, SolveMode, Verdict,
};
use crate::game::perft::MAX_DEPTH as MAX_PERFT_DEPTH;
use crate::game::{registry, Dialect};
use crate::options::{self, Scope, MAX_MULTIPV};
use crate::search::{Proven, SearchParams, UserParams};
use crate::solve::Algo;

/// A session of `game` with `params` for the UCI family, which plays two-player games only (a
/// UCI score and `bestmove` have one opponent): a game of more players is refused, with where
/// it can be played.
fn two_player_session(game: &str, params: SearchParams) -> Result<Box<dyn Session>, String> {
    if let Some(n) = registry::num_players(game).filter(|&n| n != 2) {
        let name = registry::canonical_name(game).unwrap_or(game);
        return Err(format!(
            "{name} has {n} players: UCI, USI and UAI play two-player games only (GTP plays it)"
        ));
    }
    new_session(game, params).map_err(|e| e.to_string())
}

/// The `go` keywords; `searchmoves` takes moves until the next one of these.
const GO_KEYWORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "byoyomi",
    "perft",
];

/// The parameters of one `go`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Go {
    /// Clocks of the first and the second player (UCI `wtime`/`btime`, USI and UAI
    /// `btime`/`wtime`).
    pub time: [Option<Duration>; 2],
    pub inc: [Duration; 2],
    pub movestogo: Option<u32>,
    pub movetime: Option<Duration>,
    pub byoyomi: Duration,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// UCI `mate N` (moves); USI `go mate` (a time in ms, or infinite) sets `usi_mate`.
    pub mate: Option<u32>,
    pub usi_mate: Option<Option<Duration>>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
    /// `go perft N`: count move sequences instead of searching (Stockfish's debugging command).
    pub perft: Option<u32>,
    /// Not a word of `go`: the game's bound on the mover's moves left, set from the position.
    pub moves_left: Option<u32>,
}

impl Go {
    /// Reads the words after `go`; unknown words are skipped (with their values), bad numbers
    /// are errors. `usi`: USI's meaning of `btime` (the first player's) and of `mate`.
    pub fn parse(words: &[&str], usi: bool) -> Result<Go, String> {
        Go::parse_in(words, if usi { Protocol::Usi } else { Protocol::Uci })
    }

    /// [`Go::parse`] for `protocol`: USI and UAI give the first player's clock as `btime`.
    pub fn parse_in(words: &[&str], protocol: Protocol) -> Result<Go, String> {
        let usi = protocol == Protocol::Usi;
        let black_first = protocol != Protocol::Uci;
        let mut go = Go::default();
        let mut i = 0;
        let ms = |w: Option<&&str>, name: &str| -> Result<Duration, String> {
            let text = w.ok_or(format!("go {name}: a value is needed"))?;
            let v: i64 = text
                .parse()
                .map_err(|_| format!("go {name}: '{text}' is not a number"))?;
            Ok(Duration::from_millis(v.max(0) as u64))
        };
        let count = |w: Option<&&str>, name: &str| -> Result<u64, String> {
            let text = w.ok_or(format!("go {name}: a value is needed"))?;
            text.parse()
                .map_err(|_| format!("go {name}: '{text}' is not a count"))
        };
        // USI: btime is the first player's (Sente's) clock; UAI: btime is x's (cuteataxx and
        // python-ataxx call x black); UCI: wtime is the first player's.
        let (first, second) = if black_first {
            ("btime", "wtime")
        } else {
            ("wtime", "btime")
        };
        let (first_inc, second_inc) = if black_first {
            ("binc", "winc")
        } else {
            ("winc", "binc")
        };
        while i < words.len() {
            let w = words[i];
            let next = words.get(i + 1);
            let mut used = 2;
            match w {
                _ if w == first => go.time[0] = Some(ms(next, w)?),
                _ if w == second => go.time[1] = Some(ms(next, w)?),
                _ if w == first_inc => go.inc[0] = ms(next, w)?,
                _ if w == second_inc => go.inc[1] = ms(next, w)?,
                "movestogo" => go.movestogo = Some(count(next, w)?.min(u32::MAX as u64) as u32),
                "movetime" => go.movetime = Some(ms(next, w)?),
                "byoyomi" => go.byoyomi = ms(next, w)?,
                "depth" => go.depth = Some(count(next, w)?.min(u32::MAX as u64) as u32),
                "nodes" => go.nodes = Some(count(next, w)?),
                "perft" => go.perft = Some(count(next, w)?.min(u32::MAX as u64) as u32),
                "mate" if usi => match next {
                    Some(&"infinite") | None => {
                        go.usi_mate = Some(None);
                        used = if next.is_some() { 2 } else { 1 };
                    }
                    Some(_) => go.usi_mate = Some(Some(ms(next, w)?)),
                },
                "mate" => go.mate = Some(count(next, w)?.min(u32::MAX as u64) as u32),
                "infinite" => {
                    go.infinite = true;
                    used = 1;
                }
                "ponder" => {
                    go.ponder = true;
                    used = 1;
                }
                "searchmoves" => {
                    let mut j = i + 1;
                    while j < words.len() && !GO_KEYWORDS.contains(&words[j]) {
                        go.searchmoves.push(words[j].to_string());
                        j += 1;
                    }
                    used = j - i;
                }
                _ => used = 1, // unknown word (or a stray value): skip it
            }
            i += used;
        }
        Ok(go)
    }

    /// The time budget of this move for `side` (`None`: no time limit).
    pub fn budget(&self, side: usize, overhead: Duration, slow_mover: u32) -> Option<Budget> {
        if let Some(t) = self.movetime {
            return Some(Budget::fixed(t, overhead));
        }
        if let Some(Some(t)) = self.usi_mate {
            return Some(Budget::fixed(t, overhead));
        }
        let remaining = self.time[side]?;
        Some(Budget::from_clock(
            &Clock {
                remaining,
                increment: self.inc[side],
                moves_to_go: self.movestogo,
                byoyomi: self.byoyomi,
                moves_left: self.moves_left,
                slow_mover,
            },
            overhead,
        ))
    }
}

/// The search that is running, as the controller sees it.
struct Current {
    go: Go,
    side: usize,
    /// Still pondering (no `ponderhit` yet).
    pondering: bool,
    /// What `d` prints about the searched position (the session is the worker's meanwhile).
    shown: String,
}

struct Controller {
    protocol: Protocol,
    usi: bool,
    dialect: Dialect,
    out: Output,
    conductor: Conductor,
    /// The search parameters of the game being played: its defaults row plus `user`.
    params: SearchParams,
    /// The search options set with `setoption`, re-applied over each game's defaults.
    user: UserParams,
    ponder: bool,
    overhead: Duration,
    /// The `Slow Mover` option: the optimum time of a move in per cent of the usual.
    slow_mover: u32,
    multipv: usize,
    show_wdl: bool,
    /// `UCI_AnalyseMode`: searches are analysis ([`SearchJob::analyse`]).
    analyse: bool,
    /// `VerboseMoveStats`: every root move's statistics before `bestmove`.
    verbose_move_stats: bool,
    /// The best move of the last `info` sent in the running search, for `info currmove`.
    last_best: Option<String>,
    /// The solver of `go mate`.
    solver: Algo,
    current: Option<Current>,
}

/// The one game UAI plays.
const UAI_GAME: &str = "ataxx";

/// Runs UCI (or USI, or UAI) until `quit` or end of input.
pub fn run(protocol: Protocol, settings: Settings, input: Receiver<Event>, first: Option<String>) {
    let usi = protocol == Protocol::Usi;
    let out = Output::new();
    let game = match protocol {
        Protocol::Uai => {
            if settings.game.as_deref().is_some_and(|g| g != UAI_GAME) {
                out.send("info string error UAI plays ataxx only; playing ataxx");
            }
            UAI_GAME.to_string()
        }
        _ => settings
            .game
            .clone()
            .unwrap_or_else(|| if usi { "minishogi" } else { "breakthrough" }.to_string()),
    };
    let session = match two_player_session(&game, SearchParams::for_game(&game)) {
        Ok(s) => s,
        Err(e) => {
            out.send(&format!("info string error {e}; playing breakthrough"));
            match new_session("breakthrough", SearchParams::for_game("breakthrough")) {
                Ok(s) => s,
                Err(_) => return,
            }
        }
    };
    let params = session.params().clone();
    let worker = Worker::spawn();
    let mut c = Controller {
        protocol,
        usi,
        dialect: if usi { Dialect::Usi } else { Dialect::Native },
        out,
        conductor: Conductor::new(session, worker, input, first),
        params,
        user: UserParams::default(),
        ponder: false,
        overhead: Duration::from_millis(50),
        slow_mover: DEFAULT_SLOW_MOVER,
        multipv: 1,
        show_wdl: false,
        analyse: false,
        verbose_move_stats: false,
        last_best: None,
        solver: Algo::Dfpn,
        current: None,
    };
    for (name, value) in &settings.options {
        c.set_option(name, value);
    }
    loop {
        match c.conductor.next_event() {
            Event::Line(line) => {
                if !c.command(&line) {
                    break;
                }
            }
            Event::Worker(w) => match c.conductor.on_worker(w) {
                Outcome::Info(info) => c.send_info(&info),
                Outcome::Finished(info) => c.finish(info),
                Outcome::Quiet => {}
            },
            Event::TooLong => c.error(&format!(
                "a line of more than {} bytes, ignored",
                super::MAX_LINE
            )),
            Event::Eof => {
                // As Stockfish does: a search still running is stopped and answered, so that a
                // pipe (`printf 'go movetime 500' | gpn`) gets its bestmove (after a short search).
                c.settle();
                break;
            }
        }
    }
    if let Some(control) = c.conductor.control() {
        control.stop();
    }
}

impl Controller {
    fn error(&self, message: &str) {
        self.out
            .send(&format!("info string error {}", super::clip(message)));
    }

    /// Handles one line; false to quit.
    fn command(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else {
            return true;
        };
        let args = &words[1..];
        match cmd {
            "uci" | "usi" | "uai" => self.handshake(),
            "isready" => self.out.send("readyok"),
            "quit" => return false,
            "stop" => {
                if let Some(info) = self.conductor.stop() {
                    self.finish(info);
                }
            }
            "ponderhit" => self.ponderhit(),
            "setoption" => {
                self.settle();
                self.setoption(line);
            }
            "ucinewgame" | "usinewgame" | "uainewgame" => {
                self.settle();
                if let Some(s) = self.conductor.session() {
                    s.new_game();
                }
            }
            "position" => {
                self.settle();
                self.position(args);
            }
            "go" => {
                self.settle();
                self.go(args);
            }
            "gameover" => self.settle(),
            "debug" | "register" => {}
            // Read-only: a running search (or perft) goes on, as with `isready`.
            "d" | "show" => self.show(),
            _ => self.error(&format!("unknown command '{cmd}'")),
        }
        true
    }

    /// Ends a running search first (an implicit `stop`), announcing its result.
    fn settle(&mut self) {
        if let Some(info) = self.conductor.wait() {
            self.finish(info);
        }
    }

    fn handshake(&self) {
        let (proto_ok, usi) = match self.protocol {
            Protocol::Usi => ("usiok", true),
            Protocol::Uai => ("uaiok", false),
            _ => ("uciok", false),
        };
        let mut text = format!(
            "id name gpn {}\nid author the gpn developers\n",
            env!("CARGO_PKG_VERSION")
        );
        for option in options::OPTIONS {
            // UAI plays one game: no variant option.
            if self.protocol == Protocol::Uai && option.key == "variant" {
                continue;
            }
            // USI starts in minishogi, its one shogi game.
            let default = if usi && option.key == "variant" {
                "minishogi"
            } else {
                option.default
            };
            if let Some(line) = option.option_line(usi, default) {
                text.push_str(&line);
                text.push('\n');
            }
            // The real options' spin forms for tuners that only speak `spin` (docs/tuning.md).
            if let Some(line) = option.spin_line(usi, default) {
                text.push_str(&line);
                text.push('\n');
            }
        }
        text.push_str(proto_ok);
        self.out.send(&text);
    }

    /// `setoption name <id> [value <x>]`: the name may contain spaces; it ends at ` value `.
    fn setoption(&mut self, line: &str) {
        let rest = line
            .trim_start()
            .strip_prefix("setoption")
            .unwrap_or("")
            .trim();
        let Some(rest) = rest.strip_prefix("name") else {
            return self.error("setoption: expected 'name'");
        };
        let rest = rest.trim();
        let (name, value) = match rest.find(" value ") {
            Some(k) => (rest[..k].trim(), rest[k + 7..].trim()),
            None => (rest.strip_suffix(" value").unwrap_or(rest).trim(), ""),
        };
        self.set_option(name, value);
    }

    fn set_option(&mut self, name: &str, value: &str) {
        // A spin form (`Tune_C`) arrives as its real option with the value unscaled.
        let (option, value) = match options::lookup_value(name, value) {
            Ok((o, _)) if o.scope == Scope::Gtp => {
                return self.error(&format!("{} is a GTP option", o.key))
            }
            Ok(found) => found,
            Err(e) => return self.error(&e),
        };
        let value = match option.check(&value) {
            Ok(v) => v,
            Err(e) => return self.error(&e),
        };
        // The registry has checked the value: the parses below cannot fail.
        match option.key {
            "variant" if self.protocol == Protocol::Uai => {
                if value != UAI_GAME {
                    self.error(&format!("UAI plays ataxx only, not '{value}'"));
                }
            }
            "variant" => {
                let same = self
                    .conductor
                    .session()
                    .is_some_and(|s| s.game().name == value);
                if !same {
                    let params = self.user.resolve(&value);
                    match two_player_session(&value, params.clone()) {
                        Ok(s) => {
                            if let Err(e) = s.check_params(&params) {
                                self.error(&format!("{e}: searching without it"));
                            }
                            self.conductor.replace_session(s);
                            self.params = params;
                        }
                        Err(e) => self.error(&e),
                    }
                }
            }
            "ponder" => self.ponder = value == "true",
            "move_overhead" => self.overhead = Duration::from_millis(value.parse().unwrap_or(50)),
            "slow_mover" => self.slow_mover = value.parse().unwrap_or(DEFAULT_SLOW_MOVER),
            "multipv" => self.multipv = value.parse().unwrap_or(1),
            "show_wdl" => self.show_wdl = value == "true",
            "analyse_mode" => self.analyse = value == "true",
            "log_file" => {
                if let Err(e) = super::logfile::open(&value) {
                    self.error(&e);
                }
            }
            "verbose_move_stats" => self.verbose_move_stats = value == "true",
            "solver" => self.solver = Algo::parse(&value).unwrap_or(Algo::Dfpn),
            key => self.set_param(key, &value),
        }
    }

    fn set_param(&mut self, name: &str, value: &str) {
        // Checked on a copy first, so that a value the game refuses (another game's network)
        // changes nothing.
        let mut user = self.user.clone();
        if let Err(e) = user.set(&self.params, name, value) {
            return self.error(&e.to_string());
        }
        if let Some(s) = self.conductor.session() {
            let params = user.resolve(s.game().name);
            if let Err(e) = s.check_params(&params) {
                return self.error(&e.to_string());
            }
            s.set_params(params.clone());
            self.params = params;
        }
        self.user = user;
    }

    /// `position startpos|fen <fen>|sfen <sfen> [moves <m>...]`; on error the old position stays.
    fn position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&w| w == "moves");
        let (head, moves) = match moves_at {
            Some(k) => (&args[..k], &args[k + 1..]),
            None => (args, &args[args.len()..]),
        };
        let start = match head.first() {
            Some(&"startpos") => None,
            Some(&"fen") | Some(&"sfen") => {
                if head.len() < 2 {
                    return self.error("position: the position string is missing");
                }
                Some(head[1..].join(" "))
            }
            Some(other) => {
                return self.error(&format!("position: '{other}' is not startpos, fen or sfen"))
            }
            None => return self.error("position: expected startpos, fen or sfen"),
        };
        let dialect = self.dialect;
        let Some(session) = self.conductor.session() else {
            return;
        };
        if let Err(e) = session.set_position(start.as_deref(), moves, dialect) {
            self.error(&format!("{e}; position unchanged"));
        }
    }

    fn go(&mut self, args: &[&str]) {
        let go = match Go::parse_in(args, self.protocol) {
            Ok(go) => go,
            Err(e) => {
                // A go must still be answered: search with the default limits is wrong, so
                // reply with a move at once.
                self.error(&e);
                Go {
                    movetime: Some(Duration::from_millis(1)),
                    ..Go::default()
                }
            }
        };
        let dialect = self.dialect;
        if let Some(depth) = go.perft {
            return self.perft(go, depth);
        }
        let Some(session) = self.conductor.session() else {
            return;
        };
        let side = session.side_to_move();
        let legal = session.legal_moves(dialect);
        let mut go = go;
        go.moves_left = session.moves_left_bound();
        // Every notation `position ... moves` accepts, written as the legal moves are.
        let mut searchmoves = Vec::new();
        let mut refused = Vec::new();
        for text in &go.searchmoves {
            match session.parse_moves(&[text.as_str()], dialect) {
                Ok(mut m) => searchmoves.append(&mut m),
                Err(e) => match legal.iter().find(|l| l.eq_ignore_ascii_case(text)) {
                    // GUIs differ in letter case; a legal move in either is meant.
                    Some(l) => searchmoves.push(l.clone()),
                    None => refused.push(e.to_string()),
                },
            }
        }
        for e in refused {
            self.error(&format!("searchmoves: {e}"));
        }
        if !go.searchmoves.is_empty() && searchmoves.is_empty() && !legal.is_empty() {
            self.error("searchmoves: no legal move given; searching all moves");
        }
        // `go mate` is a job for the solver: a shortest win within N moves (UCI) or at any
        // distance (USI), with `nodes` as its node limit.
        let mate = match (go.mate, go.usi_mate) {
            (Some(n), _) => Some(Some(n)),
            (None, Some(_)) => Some(None),
            (None, None) => None,
        };
        let solve = mate.map(|moves| SolveJob {
            algo: self.solver,
            mode: SolveMode::Mate(moves),
            max_nodes: go.nodes,
            memory_mb: self.params.hash_mb,
            threads: self.params.threads,
        });
        let job = SearchJob {
            dialect,
            iterations: go.nodes,
            depth: go.depth,
            // Move statistics cover every root move; `info` lines still show `MultiPV`.
            multipv: if self.verbose_move_stats {
                MAX_MULTIPV
            } else {
                self.multipv
            },
            searchmoves,
            solve,
            analyse: self.analyse,
            ..SearchJob::default()
        };
        let control = Arc::new(SearchControl::new());
        let unlimited = go.ponder || go.infinite || go.usi_mate == Some(None);
        control.set_unlimited(unlimited && go.usi_mate.is_none());
        if !go.ponder {
            control.set_budget(go.budget(side, self.overhead, self.slow_mover));
        }
        let hold = go.ponder || go.infinite;
        self.begin(go, side, job, control, hold);
    }

    /// Hands `job` to the worker; the position's `d` text is kept first, for a `d` read while
    /// the session is away.
    fn begin(
        &mut self,
        go: Go,
        side: usize,
        job: SearchJob,
        control: Arc<SearchControl>,
        hold: bool,
    ) {
        let shown = self.show_text().unwrap_or_default();
        self.last_best = None;
        self.current = Some(Current {
            pondering: go.ponder,
            go,
            side,
            shown,
        });
        self.conductor.start(job, control, hold);
    }

    fn ponderhit(&mut self) {
        let (overhead, slow_mover) = (self.overhead, self.slow_mover);
        let Some(cur) = self.current.as_mut().filter(|c| c.pondering) else {
            return;
        };
        cur.pondering = false;
        let infinite = cur.go.infinite;
        if let Some(control) = self.conductor.control() {
            // The clock starts now, from the limits of the `go ponder`.
            control.set_budget(cur.go.budget(cur.side, overhead, slow_mover));
            control.set_unlimited(infinite);
        }
        if !infinite {
            if let Some(info) = self.conductor.release() {
                self.finish(info);
            }
        }
    }

    /// The `info` lines of a snapshot (one per MultiPV line).
    fn info_text(&self, info: &SearchInfo) -> String {
        let mut text = String::new();
        let ms = info.time.as_millis();
        for (k, line) in info.lines.iter().take(self.multipv).enumerate() {
            let score = match line.proven.and_then(mate_moves) {
                Some(n) => format!("mate {n}"),
                None if matches!(line.proven, Some(Proven::Draw { .. })) => "cp 0".to_string(),
                None => format!("cp {}", centipawns(line.value)),
            };
            text.push_str(&format!(
                "info depth {} seldepth {} multipv {} score {score}",
                info.depth.max(1),
                info.seldepth.max(1),
                k + 1
            ));
            if self.show_wdl {
                let [w, d, l] = line.wdl;
                text.push_str(&format!(" wdl {w} {d} {l}"));
            }
            text.push_str(&format!(
                " nodes {} nps {} hashfull {} time {ms} pv {}\n",
                info.iterations,
                info.nps(),
                info.hashfull.min(1000),
                line.pv.join(" ")
            ));
        }
        if let Some(solved) = &info.solved {
            text.push_str(&format!(
                "info string solve {} {} {}\n",
                solved.algo.name(),
                solved.verdict.name(),
                solved.detail
            ));
        }
        text
    }

    /// A snapshot during the search: `info currmove` when the best move changed, then the
    /// `info` lines.
    fn send_info(&mut self, info: &SearchInfo) {
        let mut text = self.currmove_text(info);
        text.push_str(&self.info_text(info));
        if !text.is_empty() {
            self.out.send(&text);
        }
    }

    /// `info currmove M currmovenumber K` when the best root move is not the one of the last
    /// snapshot (K: the move's number in the position's move order, from 1).
    fn currmove_text(&mut self, info: &SearchInfo) -> String {
        let Some(line) = info.lines.first() else {
            return String::new();
        };
        let best = line.pv.first().cloned();
        if best.is_none() || best == self.last_best {
            return String::new();
        }
        self.last_best = best;
        format!(
            "info currmove {} currmovenumber {}\n",
            line.pv[0], line.move_number
        )
    }

    /// `VerboseMoveStats`: one `info string` per root line, least visited first (the best
    /// last, next to `bestmove`), as lc0 writes its move statistics.
    fn move_stats_text(info: &SearchInfo) -> String {
        let mut text = String::new();
        for line in info.lines.iter().rev() {
            let Some(mv) = line.pv.first() else { continue };
            let proof = match line.proven {
                Some(Proven::Win { plies }) => format!(" (proven: win in {plies} plies)"),
                Some(Proven::Loss { plies }) => format!(" (proven: loss in {plies} plies)"),
                Some(Proven::Draw { plies }) => format!(" (proven: draw in {plies} plies)"),
                None => String::new(),
            };
            text.push_str(&format!(
                "info string {mv:<6} (N: {:>8}) (P: {:>6.2}%) (P-source: {}) (Q: {:>8.5}) (LCB: {:>8.5}){proof}\n",
                line.visits,
                100.0 * line.prior,
                line.prior_source.name(),
                line.value,
                line.lcb,
            ));
        }
        text
    }

    /// Announces a finished search: the final `info` and exactly one `bestmove` (or, for USI
    /// `go mate`, one `checkmate`).
    fn finish(&mut self, info: SearchInfo) {
        let cur = self.current.take();
        if let Some(counts) = &info.perft {
            return self.out.send(&perft_text(counts));
        }
        let mut text = self.info_text(&info);
        if self.verbose_move_stats {
            text.push_str(&Self::move_stats_text(&info));
        }
        if let Some(mate) = cur.as_ref().and_then(|c| c.go.usi_mate) {
            let verdict = info.solved.as_ref().map(|s| s.verdict);
            let reply = match verdict {
                Some(Verdict::Win) if !info.lines.is_empty() => {
                    format!("checkmate {}", info.lines[0].pv.join(" "))
                }
                Some(Verdict::Unknown) if mate.is_some() => "checkmate timeout".to_string(),
                _ => "checkmate nomate".to_string(),
            };
            text.push_str(&reply);
            return self.out.send(&text);
        }
        match &info.best {
            Some(best) => {
                text.push_str(&format!("bestmove {best}"));
                if let Some(p) = &info.ponder {
                    text.push_str(&format!(" ponder {p}"));
                }
            }
            None if self.usi => text.push_str("bestmove resign"),
            None => text.push_str("bestmove (none)"),
        }
        self.out.send(&text);
    }

    /// `go perft N`: one `move: count` line per legal move, then `Nodes searched: total`, as
    /// Stockfish answers it (no `bestmove`: nothing was searched). It counts on the worker, so
    /// `isready` and `d` are answered meanwhile, and `stop` (or `quit`, or the end of input)
    /// cuts it short (see [`perft_text`]).
    fn perft(&mut self, go: Go, depth: u32) {
        if depth > MAX_PERFT_DEPTH {
            return self.error(&format!(
                "go perft: depth {depth} is above {MAX_PERFT_DEPTH}, the deepest gpn counts"
            ));
        }
        if depth == 0 {
            return self.out.send("\nNodes searched: 1");
        }
        let Some(side) = self.conductor.session().map(|s| s.side_to_move()) else {
            return;
        };
        let job = SearchJob {
            dialect: self.dialect,
            perft: Some(depth),
            ..SearchJob::default()
        };
        self.begin(go, side, job, Arc::new(SearchControl::new()), false);
    }

    /// The text of `d`: the diagram, the search settings, the position and its legal moves;
    /// `None` while the session is the worker's.
    fn show_text(&mut self) -> Option<String> {
        let dialect = self.dialect;
        let s = self.conductor.session()?;
        let mut text = String::new();
        for line in s.diagram().lines() {
            // Trailing blanks are invisible in a GUI log and fragile in transcripts.
            text.push_str(&format!("info string {}\n", line.trim_end()));
        }
        // The settings that will search: the game's defaults row plus the options set.
        text.push_str(&format!("info string search {}\n", s.params().spec()));
        text.push_str(&format!(
            "info string game {} position {}\ninfo string legal",
            s.game().name,
            s.position_text(dialect),
        ));
        for m in s.legal_moves(dialect) {
            text.push(' ');
            text.push_str(&m);
        }
        if let Some(outcome) = s.outcome() {
            // A finished game, by the rules or by gpn's repetition and length rules.
            text.push_str(&format!("\ninfo string result {outcome}"));
        }
        Some(text)
    }

    /// `d`: the position, also while a search runs (the text kept when it started).
    fn show(&mut self) {
        let text = match self.show_text() {
            Some(text) => text,
            None => match &self.current {
                Some(cur) => cur.shown.clone(),
                None => return,
            },
        };
        self.out.send(&text);
    }
}

/// The answer of `go perft`: a `move: count` line per root move, a blank line and `Nodes
/// searched: total`. A perft cut short by `stop` lists the moves it finished counting and ends
/// with `info string perft stopped ...` instead of a total, so that a partial sum is never
/// read as the count.
fn perft_text(counts: &PerftCounts) -> String {
    let mut text = String::new();
    for (m, count) in &counts.divide {
        text.push_str(&format!("{m}: {count}\n"));
    }
    if counts.complete {
        text.push_str(&format!("\nNodes searched: {}\n", counts.total()));
    } else {
        text.push_str(&format!(
            "\ninfo string perft stopped: {} of {} moves counted, {} nodes\n",
            counts.divide.len(),
            counts.moves,
            counts.total()
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    #[test]
    fn go_reads_clocks_by_protocol_and_skips_unknown_words() {
        let words: Vec<&str> = "wtime 1000 btime 2000 winc 10 binc 20 movestogo 5 simulations 7"
            .split(' ')
            .collect();
        let uci = Go::parse(&words, false).unwrap();
        assert_eq!(uci.time, [Some(ms(1000)), Some(ms(2000))]);
        assert_eq!(uci.inc, [ms(10), ms(20)]);
        assert_eq!(uci.movestogo, Some(5));
        let usi = Go::parse(&words, true).unwrap();
        assert_eq!(
            usi.time,
            [Some(ms(2000)), Some(ms(1000))],
            "USI: btime is Sente's"
        );
    }

    #[test]
    fn uai_btime_is_the_clock_of_x_the_first_player() {
        let words: Vec<&str> = "btime 1000 wtime 2000 binc 10 winc 20 nodes 5 simulations 5"
            .split(' ')
            .collect();
        let go = Go::parse_in(&words, Protocol::Uai).unwrap();
        assert_eq!(go.time, [Some(ms(1000)), Some(ms(2000))]);
        assert_eq!(go.inc, [ms(10), ms(20)]);
        assert_eq!(go.nodes, Some(5));
    }

    #[test]
    fn go_searchmoves_run_until_the_next_keyword() {
        let words: Vec<&str> = "searchmoves a2a3 b2b3 depth 4 ponder".split(' ').collect();
        let go = Go::parse(&words, false).unwrap();
        assert_eq!(go.searchmoves, vec!["a2a3", "b2b3"]);
        assert_eq!(go.depth, Some(4));
        assert!(go.ponder);
    }

    #[test]
    fn go_reports_bad_numbers() {
        assert!(Go::parse(&["wtime", "soon"], false).is_err());
        assert!(Go::parse(&["nodes"], false).is_err());
    }

    #[test]
    fn usi_go_mate_takes_a_time_or_infinite() {
        assert_eq!(
            Go::parse(&["mate", "infinite"], true).unwrap().usi_mate,
            Some(None)
        );
        assert_eq!(
            Go::parse(&["mate", "500"], true).unwrap().usi_mate,
            Some(Some(ms(500)))
        );
    }
}
