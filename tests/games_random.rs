//! Randomised invariants for every registered game (OpenSpiel's RandomSimTest): thousands of
//! seeded random games, checking move lists against outcomes, notation and position round
//! trips, incremental hashes and termination. The checks live in `gpn::game::check`.

use gpn::game::check::random_games;
use gpn::game::registry::{visit, GameVisitor, GAMES};
use gpn::game::Game;

struct Invariants {
    games: u32,
    seed: u64,
}

impl GameVisitor for Invariants {
    type Output = (u64, u64);
    fn visit<G: Game>(self) -> (u64, u64) {
        let stats = random_games(&G::start(), self.games, self.seed);
        assert_eq!(stats.games, self.games as u64);
        (stats.games, stats.plies)
    }
}

#[test]
fn every_game_keeps_its_invariants_over_random_games() {
    for (i, info) in GAMES.iter().enumerate() {
        let (games, plies) = visit(
            info.name,
            Invariants {
                games: 300,
                seed: 0xD1CE + i as u64,
            },
        )
        .unwrap();
        assert!(plies >= games, "{}: games ended without a move", info.name);
    }
}
