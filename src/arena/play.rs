//! One arena game: the seeds, the random opening of its pair, and the move loop with legality
//! checks and think times.

use std::time::Instant;

use crate::game::record::Record;
use crate::game::{Game, Move, MoveList, Outcome, Player};
use crate::rng::{mix64, Rng};

use super::{AgentFactory, GameRecord, GameResult, MatchConfig, StopFlag, Termination};

/// Seed streams, so that openings and the two agents never share a seed.
const STREAM_OPENING: u64 = 1;
const STREAM_AGENT_A: u64 = 2;
const STREAM_AGENT_B: u64 = 3;

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

/// Plays game `index` of the match described by `config`: the pair's opening, then the agents
/// (A in seat `index % 2`), each built by its factory with its own derived seed.
///
/// A move that is not legal ends the game as a loss for the agent that chose it. Returns `None`
/// when `config.stop` is raised before the game ends: the game is abandoned between moves, so a
/// Ctrl-C does not wait for a long game to finish.
pub fn play_game<G: Game>(
    config: &MatchConfig,
    index: u32,
    a: &AgentFactory<G>,
    b: &AgentFactory<G>,
) -> Option<GameRecord> {
    let pair = index / 2;
    let a_seat = Player((index % 2) as u8);
    let opening = random_opening::<G>(
        config.opening_plies,
        config.max_plies,
        derive_seed(config.seed, STREAM_OPENING, pair as u64),
    );
    let mut agents = [
        a(derive_seed(config.seed, STREAM_AGENT_A, index as u64)),
        b(derive_seed(config.seed, STREAM_AGENT_B, index as u64)),
    ];
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
    let mut think = [Vec::new(), Vec::new()];
    let mut legal = MoveList::new();
    let (outcome, termination) = loop {
        if let Some(outcome) = record.outcome() {
            break (outcome, termination_of(&record));
        }
        if config.stop.as_ref().is_some_and(StopFlag::is_raised) {
            return None;
        }
        let mover = record.position().to_move();
        let who = usize::from(mover != a_seat);
        let t0 = Instant::now();
        let m = agents[who].choose(&record, &budgets[who]);
        if config.stop.as_ref().is_some_and(StopFlag::is_raised) {
            // The search was cut short: its move, and so the game, do not count.
            return None;
        }
        think[who].push(t0.elapsed());
        record.position().legal_moves(&mut legal);
        if !legal.contains(m) {
            moves.push(format!("illegal:{:#06x}", m.0));
            break (
                Outcome::loss(mover, G::NUM_PLAYERS),
                Termination::IllegalMove,
            );
        }
        moves.push(record.position().format_move(m));
        record.play(m);
        for agent in agents.iter_mut() {
            agent.observe(m);
        }
    };

    let b_seat = Player(1 - a_seat.0);
    let result = match outcome.rank(a_seat).cmp(&outcome.rank(b_seat)) {
        std::cmp::Ordering::Less => GameResult::Win,
        std::cmp::Ordering::Equal => GameResult::Draw,
        std::cmp::Ordering::Greater => GameResult::Loss,
    };
    Some(GameRecord {
        index,
        a_seat,
        opening: opening_text,
        moves,
        outcome,
        result,
        plies: record.plies(),
        termination,
        think,
    })
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
