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

/// Plays `games` uniformly random games from `start` and checks
/// [`crate::game::Heuristics::evaluate`] at every position on the way (finished ones included):
/// finite, inside [-1, 1], and zero-sum in two-player games (`evaluate(Player(0)) ==
/// -evaluate(Player(1))`). Returns the number of positions checked.
pub fn evaluation_invariants<G: Game>(start: &G, games: usize, seed: u64) -> u64 {
    let mut rng = Rng::new(seed);
    let mut list = MoveList::new();
    let mut checked = 0u64;
    for _ in 0..games {
        let mut pos = start.clone();
        let mut plies = 0u32;
        loop {
            check_evaluation(&pos);
            checked += 1;
            if plies >= G::MAX_PLIES {
                break;
            }
            match pos.random_move(&mut rng, &mut list) {
                Some(m) => pos.play(m),
                None => break,
            }
            plies += 1;
        }
    }
    checked
}

/// [`evaluation_invariants`]' checks of one position.
pub fn check_evaluation<G: Game>(pos: &G) {
    let text = pos.to_position();
    let mut sum = 0.0f32;
    for p in 0..G::NUM_PLAYERS {
        let v = pos.evaluate(Player(p as u8));
        assert!(v.is_finite(), "evaluation {v} is not finite in {text}");
        assert!(
            (-1.0..=1.0).contains(&v),
            "evaluation {v} is outside [-1, 1] in {text}"
        );
        sum += v;
    }
    if G::NUM_PLAYERS == 2 {
        assert_eq!(
            pos.evaluate(Player(0)),
            -pos.evaluate(Player(1)),
            "evaluation is not zero-sum in {text}"
        );
    }
    assert!(sum.abs() < 1e-4, "evaluations sum to {sum} in {text}");
}

/// Asserts that two positions, each the colour-swapped mirror of the other, evaluate to
/// negations of each other (within 1e-6), and that the evaluation is not trivially zero there.
pub fn assert_mirrored_evaluation<G: Game>(pos: &str, mirrored: &str) {
    let a = G::parse_position(pos).unwrap_or_else(|e| panic!("{pos}: {e}"));
    let b = G::parse_position(mirrored).unwrap_or_else(|e| panic!("{mirrored}: {e}"));
    for p in [Player(0), Player(1)] {
        let (va, vb) = (a.evaluate(p), b.evaluate(p));
        assert!(
            (va + vb).abs() < 1e-6,
            "{pos} evaluates {va} for {p:?}, its mirror {mirrored} {vb}: not negations"
        );
    }
    assert!(
        a.evaluate(Player(0)) != 0.0,
        "{pos} evaluates exactly 0: pick a position that tests something"
    );
}

/// The evaluation of a position string for `player`.
pub fn evaluation_of<G: Game>(pos: &str, player: Player) -> f32 {
    G::parse_position(pos)
        .unwrap_or_else(|e| panic!("{pos}: {e}"))
        .evaluate(player)
}

/// An ASCII letter in the other case (a piece of the other colour in FEN-like strings).
pub fn swap_case(c: char) -> char {
    if c.is_ascii_uppercase() {
        c.to_ascii_lowercase()
    } else {
        c.to_ascii_uppercase()
    }
}

/// The colour-swapped mirror of a FEN-like `<rows top to bottom> <side> [rest]` string: rows in
/// reverse order, letter case swapped, the side field's two letters `a`/`b` exchanged (for
/// example `w`/`b` or `x`/`o`); further fields are kept. For symmetry tests of games whose
/// board is symmetric under a flip of the ranks.
pub fn flip_fen(text: &str, sides: (&str, &str)) -> String {
    let mut fields = text.split_whitespace();
    let board = fields.next().unwrap_or("");
    let rows: Vec<String> = board
        .split('/')
        .rev()
        .map(|row| row.chars().map(swap_case).collect())
        .collect();
    let mut out = rows.join("/");
    if let Some(side) = fields.next() {
        out.push(' ');
        out.push_str(if side == sides.0 {
            sides.1
        } else if side == sides.1 {
            sides.0
        } else {
            side
        });
    }
    for f in fields {
        out.push(' ');
        out.push_str(f);
    }
    out
}
