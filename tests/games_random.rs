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

/// Over random games, `winning_move` (a game's own fast test, or the generic one) finds a move
/// exactly when some legal move wins at once, and the move it names is legal and wins.
struct WinningMoves {
    seed: u64,
}

impl GameVisitor for WinningMoves {
    type Output = u64;
    fn visit<G: Game>(self) -> u64 {
        use gpn::game::MoveList;
        let mut rng = gpn::rng::Rng::new(self.seed);
        let (mut buf, mut legal) = (MoveList::new(), MoveList::new());
        let mut wins = 0;
        for _ in 0..40 {
            let mut pos = G::start();
            for _ in 0..400 {
                if pos.outcome().is_some() {
                    break;
                }
                let me = pos.to_move();
                pos.legal_moves(&mut legal);
                let winning: Vec<_> = legal
                    .iter()
                    .copied()
                    .filter(|&m| {
                        let mut next = pos.clone();
                        next.play(m);
                        next.outcome().is_some_and(|o| o.winner() == Some(me))
                    })
                    .collect();
                match pos.winning_move(&mut buf) {
                    Some(m) => {
                        assert!(
                            winning.contains(&m),
                            "{}: {} does not win at once in {}",
                            G::INFO.name,
                            pos.format_move(m),
                            pos.to_position()
                        );
                        wins += 1;
                    }
                    None => assert!(
                        winning.is_empty(),
                        "{}: missed a win at once in {}",
                        G::INFO.name,
                        pos.to_position()
                    ),
                }
                let m = pos.random_move(&mut rng, &mut buf).expect("a move");
                pos.play(m);
            }
        }
        wins
    }
}

#[test]
fn winning_move_finds_exactly_the_wins_in_one() {
    for (i, info) in GAMES.iter().enumerate() {
        visit(
            info.name,
            WinningMoves {
                seed: 0x717 + i as u64,
            },
        )
        .unwrap();
    }
}
