//! Matches in games of more than two players: two agents over every seating, in groups of games
//! that share a random opening, with results per game, per seat and per number of seats held.
//!
//! With `P` seats and two agents there are `2^P - 2` seatings in which both agents play (agent A
//! in a non-empty proper subset of the seats, B in the others): 6 for three players, 14 for
//! four. Game `g` is seating `g % S` of group `g / S` (`S` seatings); every game of a group
//! starts from the group's opening, so each agent meets the same positions from every seat, as in
//! Nijssen & Winands' multi-player MCTS experiments. Every seat is played by its own agent, built
//! afresh for the game by its agent's factory (two seats of A are two independent searches).
//!
//! A game counts for A as a win when A alone holds first place (in any of its seats), a loss when
//! B alone does, and a draw when they share it (or the game is drawn): with both agents equal
//! the expected score is 1/2, whatever the number of seats. Per seat the report gives the share
//! of first place each agent took from it (1/k for a first place shared by k seats) and its
//! mean points where the game counts them ([`crate::game::Territory::player_scores`]).

use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::game::record::Record;
use crate::game::{Game, MoveList, Outcome, Player};
use crate::json::Json;

use super::play::{derive_seed, random_opening, termination_of};
use super::records::json_budget;
use super::stats::{score_interval, Interval};
use super::{AgentFactory, GameResult, MatchConfig, StopFlag, Termination, Wdl};
use crate::json::{json_number, json_string};

/// Seed streams (those of the two-player arena are 1 to 3).
const STREAM_OPENING: u64 = 11;
const STREAM_AGENT: u64 = 12;

/// The seatings in which both agents play, in increasing order: bit `i` set = agent A in seat
/// `i`. `2^players - 2` of them.
pub fn seatings(players: usize) -> Vec<u8> {
    (1..(1u8 << players) - 1).collect()
}

/// A seating as letters, seat by seat: `ABB` = A in the first seat, B in the other two.
pub fn seating_text(seating: u8, players: usize) -> String {
    (0..players)
        .map(|s| if seating >> s & 1 == 1 { 'A' } else { 'B' })
        .collect()
}

/// One game as played.
#[derive(Clone, Debug, PartialEq)]
pub struct MultiRecord {
    /// 0-based game index: seating `index % S` of opening group `index / S`.
    pub index: u32,
    /// Bit `i` set: agent A sat in seat `i`.
    pub seating: u8,
    /// Every move from the start, the opening included (its first `opening_plies`); an illegal
    /// move ends the list as `illegal:0x<code>`.
    pub moves: Vec<String>,
    pub opening_plies: u32,
    /// Each seat's rank (0 = first; equal ranks share a place).
    pub ranks: Vec<u8>,
    /// Each seat's points at the end, for games that count them.
    pub scores: Option<Vec<i32>>,
    /// The result from agent A's point of view (see the module doc).
    pub result: GameResult,
    pub plies: u32,
    pub termination: Termination,
    /// Total think time (ms) and moves chosen, per agent: `[A, B]`.
    pub think_ms: [f64; 2],
    pub think_moves: [u32; 2],
}

impl MultiRecord {
    /// The agent (0 = A, 1 = B) in `seat`.
    pub fn agent_in(&self, seat: usize) -> usize {
        usize::from(self.seating >> seat & 1 == 0)
    }

    /// The share of first place that `seat` took: 1/k when k seats share it, else 0.
    pub fn first_share(&self, seat: usize) -> f64 {
        if self.ranks[seat] != 0 {
            return 0.0;
        }
        1.0 / self.ranks.iter().filter(|&&r| r == 0).count() as f64
    }

    /// How many seats agent A held.
    pub fn a_seats(&self) -> u32 {
        self.seating.count_ones()
    }

    /// The game as one JSON line (`run` ties it to its match for `--resume`).
    pub fn to_json_line(&self, run: &str, players: usize) -> String {
        let list = |items: Vec<String>| items.join(",");
        let scores = match &self.scores {
            Some(s) => format!("[{}]", list(s.iter().map(i32::to_string).collect())),
            None => "null".into(),
        };
        format!(
            "{{\"run\":{},\"game\":{},\"seating\":{},\"moves\":[{}],\"opening_plies\":{},\
             \"ranks\":[{}],\"scores\":{scores},\"result\":{},\"plies\":{},\"termination\":{},\
             \"think_ms\":[{},{}],\"think_moves\":[{},{}]}}",
            json_string(run),
            self.index,
            json_string(&seating_text(self.seating, players)),
            list(self.moves.iter().map(|m| json_string(m)).collect()),
            self.opening_plies,
            list(self.ranks.iter().map(u8::to_string).collect()),
            json_string(self.result.as_str()),
            self.plies,
            json_string(self.termination.as_str()),
            json_number(self.think_ms[0]),
            json_number(self.think_ms[1]),
            self.think_moves[0],
            self.think_moves[1],
        )
    }

    /// Reads a line written by [`MultiRecord::to_json_line`]: `Ok(None)` for a line of another
    /// run, an error for a line that is not such a record.
    pub fn from_json_line(line: &str, run: &str) -> Result<Option<MultiRecord>, String> {
        let json = Json::parse(line)?;
        if json.get("run").and_then(Json::as_str) != Some(run) {
            return Ok(None);
        }
        let field = |key: &str| json.get(key).ok_or_else(|| format!("no field '{key}'"));
        let number = |key: &str| {
            field(key)?
                .as_u64()
                .ok_or_else(|| format!("'{key}' is not a count"))
        };
        let numbers = |key: &str| -> Result<Vec<f64>, String> {
            field(key)?
                .as_array()
                .ok_or_else(|| format!("'{key}' is not a list"))?
                .iter()
                .map(|x| {
                    x.as_f64()
                        .ok_or_else(|| format!("'{key}' holds a non-number"))
                })
                .collect()
        };
        let text = |key: &str| {
            field(key)?
                .as_str()
                .ok_or_else(|| format!("'{key}' is not a string"))
        };
        let seating =
            text("seating")?
                .chars()
                .enumerate()
                .try_fold(0u8, |bits, (i, c)| match c {
                    'A' if i < 8 => Ok(bits | 1 << i),
                    'B' if i < 8 => Ok(bits),
                    _ => Err("bad 'seating'".to_string()),
                })?;
        let moves = field("moves")?
            .as_array()
            .ok_or("'moves' is not a list")?
            .iter()
            .map(|m| {
                m.as_str()
                    .map(str::to_string)
                    .ok_or("a move is not a string")
            })
            .collect::<Result<Vec<_>, _>>()?;
        let result = match text("result")? {
            "win" => GameResult::Win,
            "draw" => GameResult::Draw,
            "loss" => GameResult::Loss,
            other => return Err(format!("bad result '{other}'")),
        };
        let termination = Termination::ALL
            .into_iter()
            .find(|t| t.as_str() == text("termination").unwrap_or(""))
            .ok_or("bad 'termination'")?;
        let scores = match field("scores")? {
            s if s.is_null() => None,
            _ => Some(numbers("scores")?.into_iter().map(|x| x as i32).collect()),
        };
        let think_ms = numbers("think_ms")?;
        let think_moves = numbers("think_moves")?;
        if think_ms.len() != 2 || think_moves.len() != 2 {
            return Err("think times are not per agent".into());
        }
        Ok(Some(MultiRecord {
            index: number("game")? as u32,
            seating,
            moves,
            opening_plies: number("opening_plies")? as u32,
            ranks: numbers("ranks")?.into_iter().map(|x| x as u8).collect(),
            scores,
            result,
            plies: number("plies")? as u32,
            termination,
            think_ms: [think_ms[0], think_ms[1]],
            think_moves: [think_moves[0] as u32, think_moves[1] as u32],
        }))
    }
}

/// Plays game `index` of a `P`-player match: the group's opening, then one agent per seat.
/// `None` when `config.stop` is raised before the game ends (the game is abandoned).
pub fn play_multi_game<G: Game>(
    config: &MatchConfig,
    index: u32,
    a: &AgentFactory<G>,
    b: &AgentFactory<G>,
) -> Option<MultiRecord> {
    let players = G::NUM_PLAYERS;
    let all = seatings(players);
    let seating = all[index as usize % all.len()];
    let group = index / all.len() as u32;
    let opening = random_opening::<G>(
        config.opening_plies,
        config.max_plies,
        derive_seed(config.seed, STREAM_OPENING, group as u64),
    );
    let agent_of = |seat: usize| usize::from(seating >> seat & 1 == 0);
    let mut agents: Vec<_> = (0..players)
        .map(|seat| {
            let seed = derive_seed(
                config.seed,
                STREAM_AGENT,
                index as u64 * players as u64 + seat as u64,
            );
            if agent_of(seat) == 0 {
                a(seed)
            } else {
                b(seed)
            }
        })
        .collect();
    let start = G::start();
    for agent in agents.iter_mut() {
        agent.new_game(&start);
        if let Some(stop) = &config.stop {
            agent.set_stop(stop);
        }
    }
    let mut record = Record::new(start, config.max_plies);
    let mut moves = Vec::new();
    for &m in &opening {
        moves.push(record.position().format_move(m));
        record.play(m);
        for agent in agents.iter_mut() {
            agent.observe(m);
        }
    }
    let budgets = [config.budget.times(config.odds), config.budget];
    let mut think_ms = [0.0; 2];
    let mut think_moves = [0; 2];
    let mut legal = MoveList::new();
    let (outcome, termination) = loop {
        if let Some(outcome) = record.outcome() {
            break (outcome, termination_of(&record));
        }
        if config.stop.as_ref().is_some_and(StopFlag::is_raised) {
            return None;
        }
        let mover = record.position().to_move();
        let seat = mover.index();
        let who = agent_of(seat);
        let t0 = Instant::now();
        let m = agents[seat].choose(&record, &budgets[who]);
        if config.stop.as_ref().is_some_and(StopFlag::is_raised) {
            // The search was cut short: its move, and so the game, do not count.
            return None;
        }
        think_ms[who] += t0.elapsed().as_secs_f64() * 1e3;
        think_moves[who] += 1;
        record.position().legal_moves(&mut legal);
        if !legal.contains(m) {
            moves.push(format!("illegal:{:#06x}", m.0));
            break (Outcome::loss(mover, players), Termination::IllegalMove);
        }
        moves.push(record.position().format_move(m));
        record.play(m);
        for agent in agents.iter_mut() {
            agent.observe(m);
        }
    };
    let ranks: Vec<u8> = (0..players)
        .map(|s| outcome.rank(Player(s as u8)))
        .collect();
    let first = |agent: usize| (0..players).any(|s| ranks[s] == 0 && agent_of(s) == agent);
    let result = match (first(0), first(1)) {
        (true, false) => GameResult::Win,
        (false, true) => GameResult::Loss,
        _ => GameResult::Draw,
    };
    Some(MultiRecord {
        index,
        seating,
        moves,
        opening_plies: opening.len() as u32,
        ranks,
        scores: record
            .position()
            .territory()
            .and_then(|t| t.player_scores()),
        result,
        plies: record.plies(),
        termination,
        think_ms,
        think_moves,
    })
}

/// A finished multi-player match.
#[derive(Clone, Debug)]
pub struct MultiReport {
    pub game: &'static str,
    /// Each seat's colour.
    pub seat_names: Vec<&'static str>,
    /// Names of agent A and agent B.
    pub names: (String, String),
    pub config: MatchConfig,
    /// Every finished game (resumed ones included), by index.
    pub games: Vec<MultiRecord>,
    pub seconds: f64,
    /// Whether `config.stop` ended the match early.
    pub interrupted: bool,
}

/// A mean with its 95% interval (normal approximation) over `n` samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mean {
    pub n: usize,
    pub mean: f64,
    /// Half the width of the 95% interval (0 with fewer than two samples).
    pub margin: f64,
}

impl Mean {
    pub fn of(samples: impl IntoIterator<Item = f64>) -> Mean {
        let (mut n, mut sum, mut sq) = (0usize, 0.0, 0.0);
        for x in samples {
            n += 1;
            sum += x;
            sq += x * x;
        }
        if n == 0 {
            return Mean {
                n,
                mean: f64::NAN,
                margin: f64::NAN,
            };
        }
        let mean = sum / n as f64;
        let margin = if n < 2 {
            0.0
        } else {
            let var = ((sq - n as f64 * mean * mean) / (n - 1) as f64).max(0.0);
            1.96 * (var / n as f64).sqrt()
        };
        Mean { n, mean, margin }
    }
}

impl MultiReport {
    pub fn players(&self) -> usize {
        self.seat_names.len()
    }

    /// Results from A's point of view.
    pub fn wdl(&self) -> Wdl {
        Wdl::from_results(self.games.iter().map(|g| g.result))
    }

    /// Results from A's point of view in the games where A held `k` seats.
    pub fn wdl_holding(&self, k: u32) -> Wdl {
        Wdl::from_results(
            self.games
                .iter()
                .filter(|g| g.a_seats() == k)
                .map(|g| g.result),
        )
    }

    /// The share of first place `agent` took from `seat`, over the games it sat there.
    pub fn seat_share(&self, agent: usize, seat: usize) -> Mean {
        Mean::of(
            self.games
                .iter()
                .filter(|g| g.agent_in(seat) == agent)
                .map(|g| g.first_share(seat)),
        )
    }

    /// The mean points of `agent` in `seat`, where the game counts points.
    pub fn seat_points(&self, agent: usize, seat: usize) -> Mean {
        Mean::of(
            self.games
                .iter()
                .filter(|g| g.agent_in(seat) == agent)
                .filter_map(|g| g.scores.as_ref().map(|s| s[seat] as f64)),
        )
    }

    /// The share of first place `agent` took per seat it held, over every seat and game (1/P
    /// when both agents are equal).
    pub fn first_share(&self, agent: usize) -> Mean {
        let players = self.players();
        Mean::of(self.games.iter().flat_map(|g| {
            (0..players)
                .filter(move |&s| g.agent_in(s) == agent)
                .map(move |s| g.first_share(s))
        }))
    }

    /// Mean think time per move of `agent` in ms, and the moves it chose.
    pub fn mean_think_ms(&self, agent: usize) -> (f64, u32) {
        let ms: f64 = self.games.iter().map(|g| g.think_ms[agent]).sum();
        let n: u32 = self.games.iter().map(|g| g.think_moves[agent]).sum();
        (if n == 0 { 0.0 } else { ms / n as f64 }, n)
    }

    /// The text report (for stdout).
    pub fn format(&self) -> String {
        let players = self.players();
        let groups = seatings(players).len();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Match: {}, {} players, {} games ({} seatings per opening), {}{}",
            self.game,
            players,
            self.games.len(),
            groups,
            self.config.budget,
            if self.config.odds > 1 {
                format!(", engine 1 at {}x", self.config.odds)
            } else {
                String::new()
            }
        );
        let _ = writeln!(out, "  A: {}", self.names.0);
        let _ = writeln!(out, "  B: {}", self.names.1);
        if self.interrupted {
            let _ = writeln!(out, "Interrupted: the finished games only.");
        }
        let wdl = self.wdl();
        let _ = writeln!(
            out,
            "First place, A vs B: W {} D {} L {}, score {}",
            wdl.wins,
            wdl.draws,
            wdl.losses,
            format_interval(&score_interval(&wdl))
        );
        for k in 1..players as u32 {
            let w = self.wdl_holding(k);
            let _ = writeln!(
                out,
                "  A in {k} of {players} seats: W {} D {} L {}, score {}",
                w.wins,
                w.draws,
                w.losses,
                format_interval(&score_interval(&w))
            );
        }
        for (agent, name) in [(0, "A"), (1, "B")] {
            let _ = writeln!(
                out,
                "  {name}'s share of first place per seat held: {} (1/{players} when even)",
                format_mean(&self.first_share(agent), 3)
            );
        }
        let points = self.games.iter().any(|g| g.scores.is_some());
        let _ = writeln!(
            out,
            "Per seat (share of first place, mean points; 95% intervals):"
        );
        for (seat, colour) in self.seat_names.iter().enumerate() {
            let mut line = format!("  {}. {colour:<7}", seat + 1);
            for (agent, name) in [(0, "A"), (1, "B")] {
                let share = self.seat_share(agent, seat);
                let _ = write!(
                    line,
                    "  {name} {} in {:>4}",
                    format_mean(&share, 3),
                    share.n
                );
                if points {
                    let _ = write!(line, ", {}", format_mean(&self.seat_points(agent, seat), 1));
                }
            }
            let _ = writeln!(out, "{line}");
        }
        let ended: Vec<String> = Termination::ALL
            .iter()
            .map(|&t| (t, self.games.iter().filter(|g| g.termination == t).count()))
            .filter(|&(_, n)| n > 0)
            .map(|(t, n)| format!("{t} {n}"))
            .collect();
        let _ = writeln!(out, "Ended: {}", ended.join(", "));
        let plies = Mean::of(self.games.iter().map(|g| g.plies as f64));
        let (ta, na) = self.mean_think_ms(0);
        let (tb, nb) = self.mean_think_ms(1);
        let _ = writeln!(
            out,
            "Plies per game: {:.1}; think: A {ta:.2} ms/move ({na} moves), B {tb:.2} ms/move \
             ({nb} moves); {:.1} s",
            plies.mean, self.seconds
        );
        out
    }

    /// The summary as JSON (the games themselves go to the games file).
    pub fn to_json(&self) -> String {
        let players = self.players();
        let wdl_json = |w: &Wdl| {
            let i = score_interval(w);
            format!(
                "{{\"wins\":{},\"draws\":{},\"losses\":{},\"score\":{},\"low\":{},\"high\":{}}}",
                w.wins,
                w.draws,
                w.losses,
                json_number(i.value),
                json_number(i.low),
                json_number(i.high)
            )
        };
        let mean_json = |m: &Mean| {
            format!(
                "{{\"n\":{},\"mean\":{},\"margin\":{}}}",
                m.n,
                json_number(m.mean),
                json_number(m.margin)
            )
        };
        let holding: Vec<String> = (1..players as u32)
            .map(|k| format!("\"{k}\":{}", wdl_json(&self.wdl_holding(k))))
            .collect();
        let seats: Vec<String> = (0..players)
            .map(|s| {
                format!(
                    "{{\"seat\":{},\"colour\":{},\"a_share\":{},\"b_share\":{},\"a_points\":{},\
                     \"b_points\":{}}}",
                    s + 1,
                    json_string(self.seat_names[s]),
                    mean_json(&self.seat_share(0, s)),
                    mean_json(&self.seat_share(1, s)),
                    mean_json(&self.seat_points(0, s)),
                    mean_json(&self.seat_points(1, s)),
                )
            })
            .collect();
        format!(
            "{{\"game\":{},\"players\":{players},\"engine1\":{},\"engine2\":{},\"budget\":{},\
             \"odds\":{},\"openings\":{},\"seed\":{},\"games\":{},\"interrupted\":{},\
             \"seconds\":{},\"result\":{},\"by_seats_held\":{{{}}},\"a_first_share\":{},\
             \"b_first_share\":{},\"seats\":[{}]}}\n",
            json_string(self.game),
            json_string(&self.names.0),
            json_string(&self.names.1),
            json_budget(self.config.budget),
            self.config.odds,
            self.config.opening_plies,
            self.config.seed,
            self.games.len(),
            self.interrupted,
            json_number(self.seconds),
            wdl_json(&self.wdl()),
            holding.join(","),
            mean_json(&self.first_share(0)),
            mean_json(&self.first_share(1)),
            seats.join(",")
        )
    }
}

fn format_interval(i: &Interval) -> String {
    format!("{:.3} [{:.3}, {:.3}]", i.value, i.low, i.high)
}

fn format_mean(m: &Mean, digits: usize) -> String {
    if m.n == 0 {
        return "-".into();
    }
    format!("{:.*} ± {:.*}", digits, m.mean, digits, m.margin)
}

/// Called with each finished game, under the match's lock (the command line appends it to the
/// games file).
pub type OnMultiGame<'a> = dyn FnMut(&MultiRecord) + Send + 'a;

/// Plays the games of `config` not in `config.done` between the agents built by `a` and `b`
/// over every seating of `G`'s players, on `config.concurrency` threads; `previous` (resumed
/// games) joins the report. Raising `config.stop` abandons the games in progress.
pub fn run_multi_match<G: Game>(
    config: &MatchConfig,
    a: &AgentFactory<G>,
    b: &AgentFactory<G>,
    names: (&str, &str),
    previous: Vec<MultiRecord>,
    on_game: &mut OnMultiGame<'_>,
) -> MultiReport {
    let t0 = Instant::now();
    let indexes = config.game_indexes();
    let planned = indexes.len() as u32;
    let next = AtomicU32::new(0);
    let workers = config.concurrency.clamp(1, planned.max(1) as usize);
    let user_stop = || config.stop.as_ref().is_some_and(StopFlag::is_raised);
    let state = Mutex::new((previous, on_game, Wdl::default()));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                if user_stop() {
                    break;
                }
                let position = next.fetch_add(1, Ordering::SeqCst);
                let Some(&index) = indexes.get(position as usize) else {
                    break;
                };
                let Some(record) = play_multi_game(config, index, a, b) else {
                    break;
                };
                // A poisoned lock means another worker panicked; the scope re-raises that panic.
                let Ok(mut st) = state.lock() else { break };
                let (games, on_game, wdl) = &mut *st;
                wdl.add(record.result);
                if config.progress {
                    let _ = writeln!(
                        std::io::stderr(),
                        "game {} ({}) {}: A {} | this run W {} D {} L {} score {:.3}",
                        record.index + 1,
                        seating_text(record.seating, G::NUM_PLAYERS),
                        record.termination,
                        record.result,
                        wdl.wins,
                        wdl.draws,
                        wdl.losses,
                        wdl.score()
                    );
                }
                on_game(&record);
                games.push(record);
            });
        }
    });
    let (mut games, _, wdl) = state.into_inner().unwrap_or_else(|e| e.into_inner());
    games.sort_by_key(|g| g.index);
    MultiReport {
        game: G::INFO.name,
        seat_names: (0..G::NUM_PLAYERS)
            .map(|s| G::player_name(Player(s as u8)))
            .collect(),
        names: (names.0.to_string(), names.1.to_string()),
        config: config.clone(),
        games,
        seconds: t0.elapsed().as_secs_f64(),
        interrupted: user_stop() && wdl.games() < planned,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::agents::{FirstMoveAgent, RandomAgent};
    use crate::game::rolit::Rolit;

    type Small = Rolit<4, 3>;

    fn config(games: u32) -> MatchConfig {
        MatchConfig {
            games,
            progress: false,
            ..MatchConfig::for_game::<Small>()
        }
    }

    #[test]
    fn seatings_put_both_agents_at_the_table() {
        assert_eq!(seatings(3), vec![1, 2, 3, 4, 5, 6]);
        assert_eq!(seatings(4).len(), 14);
        assert_eq!(seating_text(0b001, 3), "ABB");
        assert_eq!(seating_text(0b110, 3), "BAA");
        for s in seatings(4) {
            assert!(s != 0 && s != 0b1111);
        }
    }

    #[test]
    fn a_match_plays_every_seating_per_opening_and_scores_first_places() {
        let random: &AgentFactory<Small> = &|seed| Box::new(RandomAgent::new(seed));
        let first: &AgentFactory<Small> = &|_| Box::new(FirstMoveAgent::new());
        let mut seen = Vec::new();
        let cfg = MatchConfig {
            opening_plies: 2,
            concurrency: 2,
            ..config(12)
        };
        let report = run_multi_match(&cfg, random, first, ("r", "f"), Vec::new(), &mut |g| {
            seen.push(g.index)
        });
        assert_eq!(report.games.len(), 12);
        assert_eq!(seen.len(), 12);
        for g in &report.games {
            assert_eq!(g.seating, seatings(3)[g.index as usize % 6]);
            // The group's opening is shared by its six games.
            let lead = &report.games[(g.index / 6 * 6) as usize];
            assert_eq!(g.moves[..2], lead.moves[..2]);
            assert_eq!(g.opening_plies, 2);
            // Rolit 4x4 fills its 12 empty squares (nobody passes).
            assert_eq!(g.plies, 12);
            // Every square is some colour's; blue's neutral centre piece counts for nobody
            // unless it was taken.
            let pieces: i32 = g.scores.as_ref().map_or(0, |s| s.iter().sum());
            assert!(pieces == 15 || pieces == 16, "{pieces}");
            let first_a = (0..3).any(|s| g.ranks[s] == 0 && g.agent_in(s) == 0);
            let first_b = (0..3).any(|s| g.ranks[s] == 0 && g.agent_in(s) == 1);
            let expected = match (first_a, first_b) {
                (true, false) => GameResult::Win,
                (false, true) => GameResult::Loss,
                _ => GameResult::Draw,
            };
            assert_eq!(g.result, expected);
            let shares: f64 = (0..3).map(|s| g.first_share(s)).sum();
            assert!((shares - 1.0).abs() < 1e-9);
        }
        // Seeds depend on the game, not on the scheduling.
        let again = run_multi_match(
            &config(12),
            random,
            first,
            ("r", "f"),
            Vec::new(),
            &mut |_| {},
        );
        let once = run_multi_match(
            &MatchConfig {
                concurrency: 1,
                ..config(12)
            },
            random,
            first,
            ("r", "f"),
            Vec::new(),
            &mut |_| {},
        );
        let games = |r: &MultiReport| r.games.iter().map(played).collect::<Vec<_>>();
        assert_eq!(games(&again), games(&once));
        let text = report.format();
        assert!(
            text.contains("A in 1 of 3 seats") && text.contains("3. green"),
            "{text}"
        );
        let json = Json::parse(&report.to_json()).unwrap();
        assert_eq!(json.get("games").and_then(Json::as_u64), Some(12));
    }

    /// A game without its think times (wall-clock, and rounded by printing).
    fn played(g: &MultiRecord) -> MultiRecord {
        MultiRecord {
            think_ms: [0.0; 2],
            ..g.clone()
        }
    }

    #[test]
    fn records_round_trip_through_json_lines_and_resume() {
        let random: &AgentFactory<Small> = &|seed| Box::new(RandomAgent::new(seed));
        let full = run_multi_match(
            &config(6),
            random,
            random,
            ("a", "b"),
            Vec::new(),
            &mut |_| {},
        );
        let lines: Vec<String> = full.games.iter().map(|g| g.to_json_line("r1", 3)).collect();
        let back: Vec<MultiRecord> = lines
            .iter()
            .filter_map(|l| MultiRecord::from_json_line(l, "r1").unwrap())
            .collect();
        assert_eq!(back.len(), 6);
        for (x, y) in back.iter().zip(&full.games) {
            assert_eq!(played(x), played(y));
        }
        assert_eq!(MultiRecord::from_json_line(&lines[0], "other"), Ok(None));
        assert!(MultiRecord::from_json_line("{\"run\":\"r1\"}", "r1").is_err());
        // Resuming with the first three done plays the other three, the same as before.
        let mut cfg = config(6);
        cfg.done = back[..3].iter().map(|g| g.index).collect();
        let rest = run_multi_match(
            &cfg,
            random,
            random,
            ("a", "b"),
            back[..3].to_vec(),
            &mut |_| {},
        );
        assert_eq!(rest.games.len(), 6);
        let games = |r: &MultiReport| r.games.iter().map(played).collect::<Vec<_>>();
        assert_eq!(games(&rest), games(&full));
    }
}
