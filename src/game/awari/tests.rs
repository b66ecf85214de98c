//! Unit tests of the awari game: rules, notation, invariants and bad input.

use super::*;
use crate::game::check::random_games;
use crate::game::record::Record;

fn pos(text: &str) -> Awari {
    Awari::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves_of(p: &Awari) -> Vec<String> {
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    list.iter().map(|&m| p.format_move(m)).collect()
}

/// Plays `moves` from `start` and returns the resulting position string.
fn after(start: &str, moves: &[&str]) -> String {
    let mut p = pos(start);
    for m in moves {
        p.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    p.to_position()
}

fn field_of(result: Result<Awari, GameError>) -> &'static str {
    match result {
        Err(GameError::Position { field, .. }) => field,
        other => panic!("expected a position error, got {other:?}"),
    }
}

/// The rules written out seed by seed, as OpenSpiel states them: the slow, obvious version
/// of `play` on the byte layout of [`Awari::state`].
fn reference_play(mut cells: [u8; 16], origin: usize) -> [u8; 16] {
    let side = cells[SIDE] as usize;
    let opponent_row = ROW * (1 - side)..ROW * (2 - side);
    let mut left = cells[origin];
    cells[origin] = 0;
    let mut house = origin;
    while left > 0 {
        house = (house + 1) % HOUSES;
        if house != origin {
            cells[house] += 1;
            left -= 1;
        }
    }
    let takeable = |seeds: u8| seeds == 2 || seeds == 3;
    if opponent_row.contains(&house) {
        let nothing_beyond = (house + 1..opponent_row.end).all(|h| cells[h] == 0);
        let all_taken = (opponent_row.start..=house).all(|h| takeable(cells[h]));
        if !(nothing_beyond && all_taken) {
            for h in (opponent_row.start..=house).rev() {
                if !takeable(cells[h]) {
                    break;
                }
                cells[STORE[side]] += cells[h];
                cells[h] = 0;
            }
        }
    }
    cells[SIDE] ^= 1;
    cells
}

/// Legal moves by the rules as stated (houses, in order).
fn reference_moves(cells: [u8; 16]) -> Vec<usize> {
    let (s0, s1) = (cells[STORE[0]], cells[STORE[1]]);
    if s0 > 24 || s1 > 24 || (s0 == 24 && s1 == 24) {
        return Vec::new();
    }
    let side = cells[SIDE] as usize;
    let own = ROW * side..ROW * (side + 1);
    let starved = cells[ROW * (1 - side)..ROW * (2 - side)]
        .iter()
        .all(|&s| s == 0);
    own.clone()
        .filter(|&h| cells[h] > 0 && (!starved || cells[h] as usize > own.end - 1 - h))
        .collect()
}

/// A random legal-looking position: random stores, the other seeds scattered over a random
/// subset of the houses (so that sparse rows, starved sides and big houses all occur).
fn random_position(rng: &mut Rng) -> Awari {
    let mut cells = [0u8; 16];
    cells[STORE[0]] = rng.below(26) as u8;
    cells[STORE[1]] = rng.below(23) as u8;
    cells[SIDE] = rng.below(2) as u8;
    let used = 1 + rng.below(4095) as u16;
    let houses: Vec<usize> = (0..HOUSES).filter(|h| used >> h & 1 != 0).collect();
    let on_board = TOTAL_SEEDS - cells[STORE[0]] as u32 - cells[STORE[1]] as u32;
    for _ in 0..on_board {
        cells[houses[rng.below(houses.len() as u32) as usize]] += 1;
    }
    Awari::from_cells(cells)
}

#[test]
fn packed_play_matches_the_rules_seed_by_seed() {
    let mut rng = Rng::new(99);
    for _ in 0..100_000 {
        let p = random_position(&mut rng);
        let moves: Vec<usize> = {
            let mut list = MoveList::new();
            p.legal_moves(&mut list);
            list.iter().map(|m| m.0 as usize).collect()
        };
        assert_eq!(moves, reference_moves(p.cells()), "{}", p.to_position());
        for &m in &moves {
            let mut q = p.clone();
            q.play(Move(m as u16));
            let expected = Awari::from_cells(reference_play(p.cells(), m));
            assert_eq!(
                q,
                expected,
                "{} after {}",
                p.to_position(),
                p.format_move(Move(m as u16))
            );
        }
    }
}

#[test]
fn random_games_keep_the_invariants() {
    let stats = random_games(&Awari::start(), 3000, 1);
    assert_eq!(stats.games, 3000);
    assert!(stats.decisive > 0 && stats.draws > 0, "{stats:?}");
    assert_eq!(
        stats.capped, 0,
        "random games end long before the length cap"
    );
    // From unusual positions too: a starved side, laps, a near-decided score.
    for (i, start) in [
        "0,0,0,0,0,0/1,0,9,0,0,1 23 14 S",
        "1,1,1,1,1,1/12,0,0,0,0,0 15 15 S",
        "0,0,0,0,3,0/0,0,22,0,0,0 13 10 S",
    ]
    .iter()
    .enumerate()
    {
        random_games(&pos(start), 300, i as u64 + 2);
    }
}

#[test]
fn start_position_and_notation() {
    let start = Awari::start();
    assert_eq!(start.to_position(), Awari::INFO.start);
    assert_eq!(pos(Awari::INFO.start), start);
    assert_eq!(moves_of(&start), ["A", "B", "C", "D", "E", "F"]);
    // Either case and the digits name the mover's own houses.
    for text in ["C", "c", "3", " 3 "] {
        assert_eq!(start.format_move(start.parse_move(text).unwrap()), "C");
    }
    let mut north = start.clone();
    north.play_text("A").unwrap();
    assert_eq!(moves_of(&north), ["a", "b", "c", "d", "e", "f"]);
    for text in ["F", "f", "6"] {
        assert_eq!(north.format_move(north.parse_move(text).unwrap()), "f");
    }
    // Sowing order: A..F, then a..f (a is at the top right of the diagram).
    assert_eq!(
        after(Awari::INFO.start, &["F"]),
        "4,4,5,5,5,5/4,4,4,4,4,0 0 0 N"
    );
    assert_eq!(
        after(Awari::INFO.start, &["F", "f"]),
        "0,4,5,5,5,5/5,5,5,5,4,0 0 0 S"
    );
}

#[test]
fn sowing_skips_the_origin_on_laps() {
    // 12 seeds: 11 go round, the 12th skips A and lands in B.
    let p = "1,1,1,1,1,1/12,0,0,0,0,0 15 15 S";
    assert_eq!(after(p, &["A"]), "2,2,2,2,2,2/0,2,1,1,1,1 15 15 N");
    // 11 seeds end in the house before the origin (f) without touching A.
    let p = "0,0,0,0,0,0/11,0,0,0,0,0 19 18 S";
    assert_eq!(after(p, &["A"]), "1,1,1,1,1,1/0,1,1,1,1,1 19 18 N");
}

#[test]
fn captures_chain_backwards_through_twos_and_threes() {
    // OpenSpiel CaptureMostOpponentHousesTest: C ends in e (3); e, d, c, b are taken,
    // a (4 seeds) stops the chain.
    let p = "0,2,1,1,1,3/0,0,8,0,0,1 12 19 S";
    assert_eq!(after(p, &["C"]), "0,0,0,0,0,4/0,0,0,1,1,2 21 19 N");
    // The chain stops at the start of the opponent's row, never entering the mover's row:
    // E sows F and a; a (2) is taken, F (3) is the mover's own house.
    let p = "0,0,1,1,2,1/0,0,0,0,2,2 20 19 S";
    assert_eq!(after(p, &["E"]), "0,0,1,1,2,0/0,0,0,0,0,3 22 19 N");
    // Two full laps from C end in the mover's own B: nothing is captured although every
    // opponent house then holds 2 or more.
    let p = "0,0,0,0,2,0/0,0,22,0,0,0 12 12 S";
    assert_eq!(after(p, &["C"]), "2,2,2,2,4,2/2,2,0,2,2,2 12 12 N");
}

#[test]
fn captures_reaching_more_than_half_end_the_game() {
    // OpenSpiel CaptureOpponentHousesTillBeginTest with 48 seeds: C takes a..e (11 seeds),
    // f keeps 3 so it is no grand slam.
    let p = pos("3,2,1,1,1,1/0,0,8,0,0,1 15 15 S");
    let mut q = p.clone();
    q.play_text("C").unwrap();
    assert_eq!(q.to_position(), "3,0,0,0,0,0/0,0,0,1,1,2 26 15 N");
    assert_eq!(q.outcome(), Some(Outcome::win(Player(0), 2)));
    assert_eq!(q.count_moves(), 0);
    // Exactly 24 each is a draw.
    let draw = pos("0,0,0,0,0,0/0,0,0,0,0,0 24 24 S");
    assert_eq!(draw.outcome(), Some(Outcome::draw(2)));
}

#[test]
fn grand_slam_captures_nothing() {
    // OpenSpiel NoCaptureBecauseGrandSlamTest (player 1 sows c onto A..E), 48 seeds.
    let p = "1,0,0,8,0,0/1,1,1,1,1,0 14 20 N";
    assert_eq!(after(p, &["c"]), "2,1,1,0,0,0/2,2,2,2,2,0 14 20 S");
    // Two laps from A leave every opponent house with 2: all would be taken, so none is.
    let p = "0,0,0,0,0,0/22,0,0,0,0,0 13 13 S";
    assert_eq!(after(p, &["A"]), "2,2,2,2,2,2/0,2,2,2,2,2 13 13 N");
    // The same with b = 2 first: b ends with 4, so c..f are captured normally.
    let p = "0,0,0,0,2,0/22,0,0,0,0,0 12 12 S";
    assert_eq!(after(p, &["A"]), "0,0,0,0,4,2/0,2,2,2,2,2 20 12 N");
}

#[test]
fn too_few_or_too_many_seeds_capture_nothing() {
    // OpenSpiel NoCaptureBecauseTooFewSeedsTest / TooManySeedsTest, with 48 seeds.
    assert_eq!(
        after("1,0,0,8,0,0/3,1,1,1,0,0 16 17 N", &["c"]),
        "2,1,1,0,0,0/4,2,2,2,1,0 16 17 S"
    );
    assert_eq!(
        after("0,3,1,1,1,3/0,0,8,0,0,1 15 15 S", &["C"]),
        "0,4,2,2,2,4/0,0,0,1,1,2 15 15 N"
    );
}

#[test]
fn a_starved_opponent_must_be_fed() {
    // OpenSpiel LegalActionsNoConstraintsTest and LegalActionsLeaveTheOpponentSeedsTest.
    assert_eq!(
        moves_of(&pos("0,0,0,0,0,1/1,0,9,0,0,1 20 16 S")),
        ["A", "C", "F"]
    );
    let starved = pos("0,0,0,0,0,0/1,0,0,0,0,1 23 23 S");
    assert_eq!(moves_of(&starved), ["F"]);
    assert!(matches!(
        starved.parse_move("A"),
        Err(GameError::IllegalMove { .. })
    ));
    // Each house needs enough seeds to reach the opponent's row.
    let p = pos("0,0,0,0,0,0/5,4,3,2,1,0 17 16 S");
    assert_eq!(p.outcome(), Some(Outcome::win(Player(0), 2)));
    let p = pos("0,0,0,0,0,0/6,4,4,2,1,0 16 15 S");
    assert_eq!(moves_of(&p), ["A", "C"]);
    // The rule holds for the north player too.
    let p = pos("0,2,0,0,4,6/0,0,0,0,0,0 19 17 N");
    assert_eq!(moves_of(&p), ["a", "e"]);
}

#[test]
fn unable_to_feed_ends_the_game_with_each_side_taking_its_row() {
    // South cannot reach the empty north row: south takes its 4 seeds, 26-22.
    let p = pos("0,0,0,0,0,0/3,1,0,0,0,0 22 22 S");
    assert_eq!(moves_of(&p), Vec::<String>::new());
    assert_eq!(p.outcome(), Some(Outcome::win(Player(0), 2)));
    // ... and a 24-24 split that way is a draw.
    let p = pos("0,0,0,0,0,0/1,0,0,0,0,0 23 24 S");
    assert_eq!(p.outcome(), Some(Outcome::draw(2)));
    // The move that starves the opponent is legal; the opponent then cannot feed it back.
    let mut p = pos("0,0,0,0,0,1/0,0,0,0,0,0 23 24 N");
    assert_eq!(p.outcome(), Some(Outcome::win(Player(1), 2)));
    p = pos("0,0,0,0,0,1/0,0,0,0,1,0 22 24 S");
    p.play_text("E").unwrap();
    assert_eq!(p.to_position(), "0,0,0,0,0,1/0,0,0,0,0,1 22 24 N");
    assert!(p.outcome().is_none());
    p.play_text("a").unwrap();
    assert_eq!(p.to_position(), "0,0,0,0,1,0/0,0,0,0,0,1 22 24 S");
}

#[test]
fn first_repetition_ends_the_game_with_each_side_taking_its_row() {
    // OpenSpiel GameEndsByRepetitionTest: the two single seeds chase each other round.
    let start = pos("0,0,0,0,0,1/1,0,0,0,0,0 23 23 S");
    let mut record = Record::new(start.clone(), Awari::MAX_PLIES);
    for (i, m) in ["A", "a", "B", "b", "C", "c", "D", "d", "E", "e", "F", "f"]
        .iter()
        .enumerate()
    {
        assert!(record.outcome().is_none(), "over before ply {i}");
        let mv = record.position().parse_move(m).unwrap();
        record.play(mv);
    }
    assert_eq!(record.position(), &start);
    assert_eq!(record.outcome(), Some(Outcome::draw(2)));
    // Uneven rows: the side with more seeds on its row wins at the repetition.
    let p = pos("0,0,0,0,0,1/3,0,0,0,0,0 22 22 S");
    let rep = Repetition {
        count: 2,
        perpetual_check_by: None,
    };
    assert_eq!(p.repetition_outcome(&rep), Some(Outcome::win(Player(0), 2)));
}

#[test]
fn a_side_without_seeds_to_move_ends_the_game() {
    let p = pos("0,0,0,0,0,5/0,0,0,0,0,0 20 23 S");
    assert_eq!(p.count_moves(), 0);
    assert_eq!(p.outcome(), Some(Outcome::win(Player(1), 2)));
    assert!(matches!(
        p.parse_move("A"),
        Err(GameError::IllegalMove { .. })
    ));
}

#[test]
fn random_move_is_uniform_over_legal_moves() {
    let p = pos("0,0,0,0,0,1/1,0,9,0,3,1 20 13 S");
    let legal = moves_of(&p);
    assert_eq!(legal, ["A", "C", "E", "F"]);
    let mut rng = Rng::new(5);
    let mut buf = MoveList::new();
    let mut seen = std::collections::HashMap::new();
    for _ in 0..4000 {
        let m = p.random_move(&mut rng, &mut buf).unwrap();
        *seen.entry(p.format_move(m)).or_insert(0) += 1;
    }
    assert_eq!(seen.len(), 4);
    assert!(seen.values().all(|&n| (850..1150).contains(&n)), "{seen:?}");
}

#[test]
fn position_strings_round_trip_and_ignore_trailing_fields() {
    let text = "13,1,1,5,0,8/0,0,12,0,3,0 3 2 S";
    assert_eq!(pos(text).to_position(), text);
    assert_eq!(
        pos("13,1,1,5,0,8/0,0,12,0,3,0 3 2 s 40 -").to_position(),
        text
    );
    assert_eq!(
        pos("  13,1,1,5,0,8/0,0,12,0,3,0   3 2 N").to_position(),
        text.replace('S', "N")
    );
    assert!(pos(text)
        .diagram()
        .contains(" 13  1  1  5  0  8\n  0  0 12  0  3  0"));
}

#[test]
fn bad_position_strings_name_the_field() {
    let board = [
        "",
        "   ",
        "4,4,4,4,4,4",
        "4,4,4,4,4,4/4,4,4,4,4,4/4 0 0 S",
        "4,4,4,4,4/4,4,4,4,4,4,4 0 0 S",
        "4,4,4,4,4,4,4/4,4,4,4,4 0 0 S",
        "4,4,x,4,4,4/4,4,4,4,4,4 0 0 S",
        "4,4,-4,4,4,4/4,4,4,4,4,4 0 0 S",
        "4,4,+4,4,4,4/4,4,4,4,4,4 0 0 S",
        "4,4,,4,4,4/4,4,4,4,4,4 0 0 S",
        "4,4,99999999999999999999999,4,4,4/4,4,4,4,4,4 0 0 S",
        "4,4,49,4,4,4/4,4,4,4,4,4 0 0 S",
        "4,4,４,4,4,4/4,4,4,4,4,4 0 0 S",
        "4;4;4;4;4;4/4,4,4,4,4,4 0 0 S",
        "4,4,4,4,4,4/4,4,4,4,4,4 1 0 S",
        "4,4,4,4,4,4/4,4,4,4,4,3 0 0 S",
        "0,0,0,0,0,0/0,0,0,0,0,0 24 23 S",
    ];
    for text in board {
        assert_eq!(field_of(Awari::parse_position(text)), "board", "{text}");
    }
    let p = "4,4,4,4,4,4/4,4,4,4,4,4";
    assert_eq!(field_of(Awari::parse_position(p)), "store of player 1");
    assert_eq!(
        field_of(Awari::parse_position(&format!("{p} x 0 S"))),
        "store of player 1"
    );
    assert_eq!(
        field_of(Awari::parse_position(&format!("{p} 0"))),
        "store of player 2"
    );
    assert_eq!(
        field_of(Awari::parse_position(&format!("{p} 0 -1 S"))),
        "store of player 2"
    );
    assert_eq!(
        field_of(Awari::parse_position(&format!("{p} 0 1000 S"))),
        "store of player 2"
    );
    for side in ["", "W", "0", "south", "ś"] {
        let text = format!("{p} 0 0 {side}");
        assert_eq!(
            field_of(Awari::parse_position(&text)),
            "side to move",
            "{text}"
        );
    }
}

#[test]
fn bad_moves_are_rejected_with_the_right_error() {
    let start = Awari::start();
    for text in [
        "",
        " ",
        "G",
        "g",
        "0",
        "7",
        "AB",
        "A1",
        "pass",
        "é",
        "１",
        "-1",
        "99999999999",
    ] {
        match start.parse_move(text) {
            Err(GameError::MoveSyntax { text: t, .. }) => assert_eq!(t, text),
            other => panic!("'{text}': expected a syntax error, got {other:?}"),
        }
    }
    let p = pos("0,0,0,0,0,1/1,0,9,0,0,1 20 16 S");
    match p.parse_move("B") {
        Err(GameError::IllegalMove { message, .. }) => assert!(message.contains("empty")),
        other => panic!("expected an illegal move, got {other:?}"),
    }
    let over = pos("0,0,0,0,0,0/0,0,0,0,0,0 24 24 S");
    match over.parse_move("A") {
        Err(GameError::IllegalMove { message, .. }) => assert!(message.contains("over")),
        other => panic!("expected an illegal move, got {other:?}"),
    }
    // The position is untouched when play_text fails.
    let mut q = p.clone();
    assert!(q.play_text("B").is_err());
    assert_eq!(q, p);
}

#[test]
fn evaluation_invariants_hold() {
    crate::game::check::evaluation_invariants(&Awari::start(), 300, 51);
    assert_eq!(Awari::start().evaluate(Player(0)), 0.0);
}

#[test]
fn evaluation_is_colour_symmetric() {
    crate::game::check::assert_mirrored_evaluation::<Awari>(
        "0,1,2,3,4,5/6,5,4,3,2,1 8 4 S",
        "1,2,3,4,5,6/5,4,3,2,1,0 4 8 N",
    );
}

#[test]
fn the_bigger_store_evaluates_higher() {
    use crate::game::check::evaluation_of;
    let v = evaluation_of::<Awari>("0,1,2,3,4,5/6,5,4,3,2,1 8 4 S", Player(0));
    assert_eq!(v, 4.0 / 48.0);
    assert!(evaluation_of::<Awari>("0,1,2,3,4,5/6,5,4,3,2,1 4 8 S", Player(0)) < 0.0);
}

#[test]
fn captures_are_flagged() {
    // North's a holds one seed: South's F (one seed) and C (four, the last on a) make it 2 and
    // capture it; A, B and D (ending on b, which then holds 5) capture nothing.
    let g = Awari::parse_position("4,4,4,4,4,1/4,4,4,4,0,1 4 6 S").unwrap();
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    let caps: Vec<String> = list
        .iter()
        .filter(|&&m| g.is_capture(m))
        .map(|&m| g.format_move(m))
        .collect();
    assert_eq!(caps.len(), 2, "{caps:?}");
}
