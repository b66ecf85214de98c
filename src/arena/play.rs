//! One arena game at a table of any size: the seatings, the seeds, the random opening of its
//! group, and the move loop with legality checks and think times.

use std::time::Instant;

use crate::game::record::Record;
use crate::game::{Game, Move, MoveList, Outcome, Player};
use crate::rng::{mix64, Rng};

use super::{AgentFactory, GameRecord, GameResult, MatchConfig, StopFlag, Termination};

/// Redraws of an opening that ended the game before it falls back to a shorter one.
const OPENING_ATTEMPTS: u32 = 100;

/// A seed for `(stream, index)` derived from the match seed (SplitMix64 mixing, so nearby
/// indices give unrelated seeds).
pub fn derive_seed(seed: u64, stream: u64, index: u64) -> u64 {
    mix64(seed ^ mix64(stream.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ mix64(index)))
}

/// `plies` uniformly random moves from the start (fewer if the game-length cap comes first).
///
/// An opening that ends the game is redrawn from the same stream; after
/// `OPENING_ATTEMPTS` failures the longest drawn prefix that leaves the game open is used.
pub fn random_opening<G: Game>(plies: u32, max_plies: u32, seed: u64) -> Vec<Move> {
    let mut rng = Rng::new(seed);
    let mut buf = MoveList::new();
    let mut best: Vec<Move> = Vec::new();
    let mut record = Record::new(G::start(), max_plies);
    for _ in 0..OPENING_ATTEMPTS {
        record.reset(G::start());
        let mut moves = Vec::with_capacity(plies as usize);
        while moves.len() < plies as usize && record.outcome().is_none() {
            let Some(m) = record.position().random_move(&mut rng, &mut buf) else {
                break;
            };
            record.play(m);
            moves.push(m);
        }
        if record.outcome().is_none() {
            return moves;
        }
        // The position before the last move was still open.
        moves.pop();
        if moves.len() > best.len() {
            best = moves;
        }
    }
    best
}

/// The seatings in which both agents play, in increasing order: bit `i` set = agent A in seat
/// `i`. `2^players - 2` of them: for two players `[0b01, 0b10]`, A first then A second, which
/// is the colour swap of a pair.
pub fn seatings(players: usize) -> Vec<u8> {
    (1..(1u8 << players) - 1).collect()
}

/// A seating as letters, seat by seat: `ABB` = A in the first seat, B in the other two.
pub fn seating_text(seating: u8, players: usize) -> String {
    (0..players)
        .map(|s| if seating >> s & 1 == 1 { 'A' } else { 'B' })
        .collect()
}

/// Where a game's seeds come from. Two-player matches keep the streams of the original arena
/// (agent seeds per agent and game) and larger tables those of the original multi-player arena
/// (per game and seat), so that a seed replays the games it gave before the arenas were one.
struct Seeds {
    seed: u64,
    players: usize,
}

impl Seeds {
    /// The opening shared by the `group`-th set of seatings (a pair for two players).
    fn opening(&self, group: u32) -> u64 {
        let stream = if self.players == 2 { 1 } else { 11 };
        derive_seed(self.seed, stream, group as u64)
    }

    /// The seed of the agent (`0` = A, `1` = B) sitting in `seat` in game `index`.
    fn agent(&self, index: u32, seat: usize, agent: usize) -> u64 {
        if self.players == 2 {
            derive_seed(self.seed, 2 + agent as u64, index as u64)
        } else {
            let slot = index as u64 * self.players as u64 + seat as u64;
            derive_seed(self.seed, 12, slot)
        }
    }
}

/// Plays game `index` of the match described by `config`: seating `index % S` of group
/// `index / S` (`S` = [`seatings`]), from the group's opening, one agent per seat built by its
/// agent's factory with its own derived seed (two seats of A are two independent searches).
///
/// A move that is not legal ends the game as a loss for the seat that chose it. Returns `None`
/// when `config.stop` is raised before the game ends: the game is abandoned between moves, so a
/// Ctrl-C does not wait for a long game to finish.
pub fn play_game<G: Game>(
    config: &MatchConfig,
    index: u32,
    a: &AgentFactory<G>,
    b: &AgentFactory<G>,
) -> Option<GameRecord> {
    let players = G::NUM_PLAYERS;
    let all = seatings(players);
    let seating = all[index as usize % all.len()];
    let group = index / all.len() as u32;
    let seeds = Seeds {
        seed: config.seed,
        players,
    };
    let opening = random_opening::<G>(config.opening_plies, config.max_plies, seeds.opening(group));
    let agent_of = |seat: usize| usize::from(seating >> seat & 1 == 0);
    let mut agents: Vec<_> = (0..players)
        .map(|seat| {
            let agent = agent_of(seat);
            let seed = seeds.agent(index, seat, agent);
            if agent == 0 {
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
    let opening_text = moves.clone();

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
    Some(GameRecord {
        index,
        seating,
        opening: opening_text,
        moves,
        result: result_for_a(&ranks, seating),
        ranks,
        scores: record
            .position()
            .territory()
            .and_then(|t| t.player_scores()),
        plies: record.plies(),
        termination,
        think_ms,
        think_moves,
    })
}

/// The result for agent A: a win when A alone holds first place (in any of its seats), a loss
/// when B alone does, a draw when they share it. With two seats this is A's rank against B's.
pub fn result_for_a(ranks: &[u8], seating: u8) -> GameResult {
    let first = |agent: usize| {
        (0..ranks.len()).any(|s| ranks[s] == 0 && usize::from(seating >> s & 1 == 0) == agent)
    };
    match (first(0), first(1)) {
        (true, false) => GameResult::Win,
        (false, true) => GameResult::Loss,
        _ => GameResult::Draw,
    }
}

/// Why a finished record ended: the position's rules first, as [`Record::outcome`] decides.
pub(super) fn termination_of<G: Game>(record: &Record<G>) -> Termination {
    if record.position().outcome().is_some() {
        Termination::Rules
    } else if record.ended_by_repetition() {
        Termination::Repetition
    } else {
        Termination::LengthCap
    }
}
