//! Simple agents for the arena: uniformly random moves and always the first legal move.
//!
//! They are baselines for users (`gpn match <game> --engine1 random ...`) and fixtures for tests.

use crate::game::record::Record;
use crate::game::{Game, Move, MoveList};
use crate::rng::Rng;

use super::{Agent, Budget};

/// Plays a uniformly random legal move (via [`crate::game::Rules::random_move`]), from its own seeded random
/// stream: the same seed gives the same moves in the same positions. Ignores the budget.
#[derive(Clone)]
pub struct RandomAgent {
    rng: Rng,
    buf: MoveList,
}

impl RandomAgent {
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: Rng::new(seed),
            buf: MoveList::new(),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn new_game(&mut self, _start: &G) {}

    fn choose(&mut self, record: &Record<G>, _budget: &Budget) -> Move {
        // The arena never asks in a finished game; `Move(0)` would be reported as illegal.
        record
            .position()
            .random_move(&mut self.rng, &mut self.buf)
            .unwrap_or_default()
    }

    fn observe(&mut self, _m: Move) {}
}

/// Always plays the first move of [`crate::game::Rules::legal_moves`]: deterministic and weak.
#[derive(Clone, Default)]
pub struct FirstMoveAgent {
    buf: MoveList,
}

impl FirstMoveAgent {
    pub fn new() -> FirstMoveAgent {
        FirstMoveAgent::default()
    }
}

impl<G: Game> Agent<G> for FirstMoveAgent {
    fn new_game(&mut self, _start: &G) {}

    fn choose(&mut self, record: &Record<G>, _budget: &Budget) -> Move {
        record.position().legal_moves(&mut self.buf);
        self.buf.iter().next().copied().unwrap_or_default()
    }

    fn observe(&mut self, _m: Move) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect4::ConnectFour;
    use crate::game::Rules;

    #[test]
    fn random_agent_is_seeded_and_legal() {
        let record = Record::new(ConnectFour::start(), ConnectFour::MAX_PLIES);
        let budget = Budget::Iterations(1);
        let picks = |seed| {
            let mut agent = RandomAgent::new(seed);
            (0..20)
                .map(|_| Agent::<ConnectFour>::choose(&mut agent, &record, &budget))
                .collect::<Vec<Move>>()
        };
        assert_eq!(picks(5), picks(5));
        let mut legal = MoveList::new();
        record.position().legal_moves(&mut legal);
        assert!(picks(5).iter().all(|&m| legal.contains(m)));
        // 20 draws from 7 moves: all the same would mean the seed is ignored.
        let first = picks(5);
        assert!(first.iter().any(|&m| m != first[0]));
    }

    #[test]
    fn first_move_agent_plays_the_first_legal_move() {
        let record = Record::new(ConnectFour::start(), ConnectFour::MAX_PLIES);
        let mut legal = MoveList::new();
        record.position().legal_moves(&mut legal);
        let mut agent = FirstMoveAgent::new();
        let m = Agent::<ConnectFour>::choose(&mut agent, &record, &Budget::Iterations(1));
        assert_eq!(m, legal[0]);
    }
}
