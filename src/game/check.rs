//! Randomised invariant checks every game must pass (OpenSpiel's RandomSimTest, adapted).
//!
//! Lives in the library rather than `tests/` so that each game's own unit tests and the
//! integration tests run exactly the same checks.

use super::record::Record;
use super::{Dialect, Game, MoveList, Player};
use crate::rng::Rng;

/// Totals from [`random_games`], for the caller's sanity assertions.
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckStats {
    pub games: u64,
    pub plies: u64,
    pub decisive: u64,
    pub draws: u64,
    pub capped: u64,
}

/// Plays `games` uniformly random games from `start` and panics with a precise message at the
/// first broken invariant. Every position gets [`check_position`]'s checks, the dialects' in
/// the first [`DIALECT_GAMES`].
pub fn random_games<G: Game>(start: &G, games: u32, seed: u64) -> CheckStats {
    let mut rng = Rng::new(seed);
    let mut list = MoveList::new();
    let mut stats = CheckStats::default();
    let mut record = Record::new(start.clone(), G::MAX_PLIES);
    for game in 0..games {
        record.reset(start.clone());
        let dialects = game < DIALECT_GAMES;
        loop {
            let pos = record.position().clone();
            check_native(&pos, &mut list);
            if dialects {
                check_dialects(&pos, &mut list);
            }
            if let Some(outcome) = record.outcome() {
                assert_eq!(outcome.num_players(), G::NUM_PLAYERS);
                let total: f32 = (0..G::NUM_PLAYERS)
                    .map(|p| outcome.utility(Player(p as u8)))
                    .sum();
                assert!(
                    total.abs() < 1e-4,
                    "utilities of {outcome:?} do not sum to 0"
                );
                if pos.outcome().is_none() && record.plies() >= record.max_plies() {
                    stats.capped += 1;
                }
                if outcome.is_draw() {
                    stats.draws += 1;
                } else {
                    stats.decisive += 1;
                }
                break;
            }
            let m = pos
                .random_move(&mut rng, &mut list)
                .unwrap_or_else(|| panic!("no random move in live position {}", pos.to_position()));
            pos.legal_moves(&mut list);
            assert!(
                list.contains(m),
                "random_move gave an illegal move in {}",
                pos.to_position()
            );
            record.play(m);
            stats.plies += 1;
        }
        stats.games += 1;
    }
    stats
}

/// Every protocol dialect, each checked like the native notation.
const DIALECTS: [Dialect; 3] = [Dialect::Native, Dialect::Usi, Dialect::Gtp];

/// [`random_games`] checks the dialects in every position of its first this many games only:
/// they read every move three more times, which over thousands of games would double the time of
/// the random tests, while twenty games (per call; tests/games_random.rs makes one per game) still
/// read thousands of moves in each dialect.
pub const DIALECT_GAMES: u32 = 20;

/// Checks one position: move list vs outcome, uniqueness, notation and position round trips
/// (native and in every dialect), incremental hash.
pub fn check_position<G: Game>(pos: &G, list: &mut MoveList) {
    check_native(pos, list);
    check_dialects(pos, list);
}

/// [`check_position`] without the dialects.
fn check_native<G: Game>(pos: &G, list: &mut MoveList) {
    let text = pos.to_position();
    assert_eq!(
        pos.hash(),
        pos.compute_hash(),
        "incremental hash differs from scratch in {text}"
    );
    let reread = G::parse_position(&text)
        .unwrap_or_else(|e| panic!("own position string does not parse: {text}: {e}"));
    assert_eq!(&reread, pos, "position string does not round-trip: {text}");
    assert_eq!(reread.to_position(), text);
    assert_eq!(
        reread.hash(),
        pos.hash(),
        "hash differs after re-reading {text}"
    );

    pos.legal_moves(list);
    assert_eq!(
        list.is_empty(),
        pos.outcome().is_some(),
        "moves/outcome disagree in {text}: {} moves, outcome {:?}",
        list.len(),
        pos.outcome()
    );
    assert_eq!(
        pos.count_moves(),
        list.len(),
        "count_moves differs in {text}"
    );
    let moves: Vec<_> = list.iter().copied().collect();
    for (i, &m) in moves.iter().enumerate() {
        assert!(
            !moves[..i].contains(&m),
            "duplicate move {} in {text}",
            pos.format_move(m)
        );
        let written = pos.format_move(m);
        let parsed = pos.parse_move(&written).unwrap_or_else(|e| {
            panic!("own move notation '{written}' does not parse in {text}: {e}")
        });
        assert_eq!(
            parsed, m,
            "move notation '{written}' does not round-trip in {text}"
        );
        if written == "pass" {
            assert_eq!(
                pos.parse_move("0000"),
                Ok(m),
                "UCI's null move 0000 is not the pass in {text}"
            );
        }
    }
}

/// The dialect round trips of one position: in every dialect, the position and every legal move
/// read back exactly, and the native position and moves are read as well. GTP writes a pass as
/// `pass`.
fn check_dialects<G: Game>(pos: &G, list: &mut MoveList) {
    let text = pos.to_position();
    for d in DIALECTS {
        let spoken = pos.to_position_in(d);
        let reread = G::parse_position_in(&spoken, d)
            .unwrap_or_else(|e| panic!("{d:?} position '{spoken}' does not parse: {e}"));
        assert_eq!(
            &reread, pos,
            "{d:?} position '{spoken}' does not round-trip"
        );
        assert_eq!(reread.to_position_in(d), spoken);
        if spoken != text {
            let native = G::parse_position_in(&text, d)
                .unwrap_or_else(|e| panic!("{d:?} does not read the native position {text}: {e}"));
            assert_eq!(&native, pos, "{d:?} misreads the native position {text}");
        }
    }
    pos.legal_moves(list);
    for &m in list.iter() {
        let written = pos.format_move(m);
        for d in DIALECTS {
            let spoken = pos.format_move_in(m, d);
            assert_eq!(
                pos.parse_move_in(&spoken, d),
                Ok(m),
                "{d:?} move '{spoken}' does not round-trip in {text}"
            );
            if spoken != written {
                assert_eq!(
                    pos.parse_move_in(&written, d),
                    Ok(m),
                    "{d:?} does not read the native move '{written}' in {text}"
                );
            }
            if written == "pass" && d == Dialect::Gtp {
                assert_eq!(spoken, "pass", "GTP writes a pass as 'pass' in {text}");
            }
        }
    }
}
