//! Unit tests of the minishogi game: rules, notation, invariants and bad input.

use super::*;
use crate::game::check::random_games;
use crate::game::perft::perft;

fn pos(text: &str) -> Minishogi {
    Minishogi::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves(p: &Minishogi) -> Vec<String> {
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut v: Vec<String> = list.iter().map(|&m| p.format_move(m)).collect();
    v.sort();
    v
}

#[test]
fn start_position_round_trips() {
    let s = Minishogi::start();
    assert_eq!(s.to_position(), Minishogi::INFO.start);
    assert_eq!(pos(Minishogi::INFO.start), s);
    assert_eq!(s.hash(), s.compute_hash());
    assert_eq!(pos("rbsgk/4p/5/P4/KGSBR[-] w - 1"), s);
    assert_eq!(pos("rbsgk/4p/5/P4/KGSBR[-] w 0 1"), s);
    assert_eq!(pos("rbsgk/4p/5/P4/KGSBR w"), s);
}

#[test]
fn shallow_perft() {
    let s = Minishogi::start();
    assert_eq!(perft(&s, 1), 14);
    assert_eq!(perft(&s, 2), 181);
    assert_eq!(perft(&s, 3), 2512);
}

#[test]
fn random_games_keep_invariants() {
    let stats = random_games(&Minishogi::start(), 2000, 1);
    assert_eq!(stats.games, 2000);
    assert!(stats.decisive > 0);
}

#[test]
fn random_games_from_a_middlegame() {
    let p = pos("r2gk/G3p/2s1R/P3B/K1S2[B] w - - 1 6");
    random_games(&p, 1000, 2);
}

#[test]
fn slider_tables_match_stepping() {
    let occ = bit(7) | bit(17) | bit(11) | bit(13);
    // Rook on c3 (12): blocked at c2 (7), c4 (17), b3 (11), d3 (13).
    assert_eq!(rook_attacks(12, occ), occ);
    // Bishop on a1 sees b2 c3 d4 e5 on an empty board.
    assert_eq!(bishop_attacks(0, 0), bit(6) | bit(12) | bit(18) | bit(24));
    assert_eq!(bishop_attacks(0, bit(12)), bit(6) | bit(12));
    // Bishop on e1 (4) along the anti-diagonal to a5 (20).
    assert_eq!(bishop_attacks(4, 0), bit(8) | bit(12) | bit(16) | bit(20));
    assert_eq!(rook_attacks(24, 0), (RANK_5 | (FILE_A << 4)) & !bit(24));
}

#[test]
fn pawn_promotion_is_forced_on_the_last_rank() {
    let p = pos("k4/2P2/5/5/4K[-] w");
    let m = moves(&p);
    assert!(m.contains(&"c4c5+".to_string()));
    assert!(!m.contains(&"c4c5".to_string()));
    assert!(p.parse_move("c4c5").is_err());
}

#[test]
fn silver_promotion_is_optional_into_within_and_out_of_the_zone() {
    let p = pos("k4/2S2/5/5/4K[-] w");
    let m = moves(&p);
    for s in [
        "c4b5", "c4b5+", "c4c5", "c4c5+", "c4d5", "c4d5+", "c4b3", "c4d3",
    ] {
        assert!(m.contains(&s.to_string()), "{s} missing from {m:?}");
    }
    assert!(!m.contains(&"c4b3+".to_string()));
    // Out of the zone: a silver on c5 may promote stepping back to b4.
    let p = pos("k1S2/5/5/5/4K[-] w");
    let m = moves(&p);
    assert!(m.contains(&"c5b4+".to_string()) && m.contains(&"c5b4".to_string()));
    // Gote's zone is rank 1.
    let p = pos("4k/5/5/2s2/K4[-] b");
    let m = moves(&p);
    assert!(m.contains(&"c2c1+".to_string()) && m.contains(&"c2c1".to_string()));
    assert!(!m.contains(&"c2b3+".to_string()));
}

#[test]
fn gold_and_promoted_pieces_do_not_promote() {
    let p = pos("k4/2G2/5/5/4K[-] w");
    assert!(moves(&p).iter().all(|m| !m.ends_with('+')));
    let p = pos("k4/2+R2/5/5/4K[-] w");
    assert!(moves(&p).iter().all(|m| !m.ends_with('+')));
}

#[test]
fn nifu_forbids_a_second_pawn_on_a_file() {
    let p = pos("k4/5/5/2P2/4K[P] w");
    let m = moves(&p);
    assert!(!m.iter().any(|s| s.starts_with("P@c")));
    assert!(m.contains(&"P@a2".to_string()));
    // A promoted pawn does not count.
    let p = pos("k4/5/5/2+P2/4K[P] w");
    assert!(moves(&p).contains(&"P@c3".to_string()));
}

#[test]
fn pawns_cannot_be_dropped_on_the_last_rank() {
    let p = pos("2k2/5/5/5/4K[P] w");
    assert!(!moves(&p)
        .iter()
        .any(|s| s.starts_with("P@") && s.ends_with('5')));
    let p = pos("2k2/5/5/5/4K[p] b");
    assert!(!moves(&p)
        .iter()
        .any(|s| s.starts_with("P@") && s.ends_with('1')));
    assert!(moves(&p).contains(&"P@a2".to_string()));
}

#[test]
fn pawn_drop_mate_is_illegal_but_pawn_drop_check_is_not() {
    // Gote king a5 boxed in by its own rook and bishop (neither reaches a4), sente gold on b3
    // guards a4: P@a4 would mate.
    let p = pos("kr3/1b3/1G3/5/3K1[P] w");
    assert!(!moves(&p).contains(&"P@a4".to_string()));
    assert!(matches!(
        p.parse_move("P@a4"),
        Err(GameError::IllegalMove { .. })
    ));
    // Without the gold the king captures the pawn: a legal check.
    let p = pos("kr3/1b3/5/5/3K1[P] w");
    assert!(moves(&p).contains(&"P@a4".to_string()));
    // A gold drop mating there is fine.
    let p = pos("kr3/1b3/1G3/5/3K1[G] w");
    let mut q = p.clone();
    q.play_text("G@a4").unwrap();
    assert_eq!(q.outcome(), Some(Outcome::loss(Player(1), 2)));
}

#[test]
fn pawn_drop_mate_accounts_for_pins() {
    // Gote gold d4 could take a pawn on e4 but is pinned by the bishop on b2: P@e4 mates.
    let p = pos("3rk/3g1/4G/1B3/K4[P] w");
    assert!(!moves(&p).contains(&"P@e4".to_string()));
    // Without the pin the gold takes the pawn.
    let p = pos("3rk/3g1/4G/5/K4[P] w");
    assert!(moves(&p).contains(&"P@e4".to_string()));
    // The rook on e3 is pinned along the e-file but takes on e4 along that same file.
    let p = pos("3pk/3b1/3Sr/5/1K2R[P] w");
    assert!(moves(&p).contains(&"P@e4".to_string()));
    let mut q = p.clone();
    q.play_text("P@e4").unwrap();
    assert_eq!(moves(&q), vec!["e3e4".to_string()]);
}

#[test]
fn pinned_piece_moves_only_along_the_pin() {
    // Sente rook c3 pinned on the c-file by gote rook c5 against king c1.
    let p = pos("2r1k/5/2R2/5/2K2[-] w");
    let m = moves(&p);
    assert!(m.contains(&"c3c4".to_string()) && m.contains(&"c3c5".to_string()));
    assert!(!m.contains(&"c3b3".to_string()));
}

#[test]
fn king_may_not_step_along_the_checking_line() {
    let p = pos("2r1k/5/5/5/2K2[-] w");
    let m = moves(&p);
    assert!(!m.contains(&"c1c2".to_string()));
    assert!(m.contains(&"c1b1".to_string()));
    assert!(p.in_check());
}

#[test]
fn drops_block_checks() {
    let p = pos("2r1k/5/5/5/2K2[G] w");
    let m = moves(&p);
    assert!(m.contains(&"G@c2".to_string()) && m.contains(&"G@c4".to_string()));
    assert!(!m.contains(&"G@a3".to_string()));
}

#[test]
fn checkmate_loses_for_the_side_to_move() {
    // Gote king a5, sente gold b4 protected by pawn b3: mate.
    let p = pos("k4/1G3/1P3/5/4K[-] b");
    assert_eq!(p.count_moves(), 0);
    assert_eq!(p.outcome(), Some(Outcome::loss(Player(1), 2)));
    assert!(p.in_check());
}

#[test]
fn captured_pieces_go_to_hand_unpromoted() {
    let mut p = pos("k4/5/2+b2/2R2/4K[-] w");
    p.play_text("c2c3").unwrap();
    assert_eq!(p.to_position(), "k4/5/2R2/5/4K[B] b");
    assert_eq!(p.hash(), p.compute_hash());
}

#[test]
fn repetition_rules() {
    let p = Minishogi::start();
    let rep = |count, by| Repetition {
        count,
        perpetual_check_by: by,
    };
    assert_eq!(p.repetition_outcome(&rep(3, None)), None);
    assert_eq!(
        p.repetition_outcome(&rep(4, None)),
        Some(Outcome::loss(Player(0), 2))
    );
    assert_eq!(
        p.repetition_outcome(&rep(4, Some(Player(1)))),
        Some(Outcome::loss(Player(1), 2))
    );
    assert_eq!(
        p.repetition_outcome(&rep(4, Some(Player(0)))),
        Some(Outcome::loss(Player(0), 2))
    );
}

#[test]
fn fourfold_repetition_in_a_record_makes_sente_lose() {
    use crate::game::record::Record;
    let mut r = Record::new(Minishogi::start(), 1000);
    for _ in 0..3 {
        for m in ["a1b2", "e5d4", "b2a1", "d4e5"] {
            let m = r.position().parse_move(m).unwrap();
            r.play(m);
        }
    }
    assert_eq!(r.outcome(), Some(Outcome::loss(Player(0), 2)));
}

#[test]
fn move_notation() {
    let p = Minishogi::start();
    let m = p.parse_move("b1b2").unwrap();
    assert_eq!(p.format_move(m), "b1b2");
    let p = pos("r2gk/G3p/2s1R/P3B/K1S2[B] w");
    let d = p.parse_move("B@c2").unwrap();
    assert_eq!(p.parse_move("B*c2"), Ok(d));
    assert_eq!(p.format_move(d), "B@c2");
    let pr = p.parse_move("e2b5+").unwrap();
    assert_eq!(p.format_move(pr), "e2b5+");
}

#[test]
fn bad_moves_give_errors() {
    let p = Minishogi::start();
    for bad in [
        "",
        "x",
        "a1",
        "a1b",
        "a1b2c3",
        "f1f2",
        "a0a1",
        "a1b2=",
        "Q@c3",
        "P@f3",
        "é1é2",
        "P@",
        "0000",
        "99999999999999999999",
    ] {
        assert!(
            matches!(p.parse_move(bad), Err(GameError::MoveSyntax { .. })),
            "{bad}"
        );
    }
    for illegal in ["a1a2", "b1b3", "P@c3", "a2a3+", "c3c4", "e1e5"] {
        assert!(
            matches!(p.parse_move(illegal), Err(GameError::IllegalMove { .. })),
            "{illegal}"
        );
    }
}

fn position_error(text: &str) -> &'static str {
    match Minishogi::parse_position(text) {
        Err(GameError::Position { field, .. }) => field,
        other => panic!("{text}: expected a position error, got {other:?}"),
    }
}

#[test]
fn bad_positions_name_the_field() {
    assert_eq!(position_error(""), "board");
    assert_eq!(position_error("   "), "board");
    assert_eq!(position_error("rbsgk/4p/5/P4 w"), "board");
    assert_eq!(position_error("rbsgk/4p/5/P4/KGSBR/5 w"), "board");
    assert_eq!(position_error("rbsgk/4p/6/P4/KGSBR w"), "board");
    assert_eq!(position_error("rbsgk/4p/4/P4/KGSBR w"), "board");
    assert_eq!(position_error("rbsgkp/4p/5/P4/KGSBR w"), "board");
    assert_eq!(position_error("rbsgx/4p/5/P4/KGSBR w"), "board");
    assert_eq!(position_error("rbsgé/4p/5/P4/KGSBR w"), "board");
    assert_eq!(position_error("rbs+gk/4p/5/P4/KGSBR w"), "board");
    assert_eq!(position_error("rbsgk/4p/5/P4/KGSB+ w"), "board");
    assert_eq!(position_error("rbsg1/4p/5/P4/KGSBR w"), "board");
    assert_eq!(position_error("rbsgk/4p/5/P4/KGSBK w"), "board");
    assert_eq!(position_error("rbsgk/4p/5/PP3/KGSBR w"), "board");
    assert_eq!(position_error("rbsgk/4p/5/P4/KGSBR[P] w"), "board");
    assert_eq!(position_error("Pbsgk/4p/5/4r/KGSBR w"), "board");
    assert_eq!(position_error("rbsgk/4p/5/P4/KGSBR[X] w"), "hand");
    assert_eq!(position_error("rbsgk/4p/5/P4/KGSBR[K] w"), "hand");
    assert_eq!(position_error("rbsgk/4p/5/P4/KGSBR[- w"), "hand");
    assert_eq!(position_error("rbsgk/4p/5/P4/KGSBR[-]x w"), "hand");
    assert_eq!(position_error("rbsgk/4p/5/P4/KGSBR[-]"), "side to move");
    assert_eq!(position_error("rbsgk/4p/5/P4/KGSBR[-] x"), "side to move");
    assert_eq!(
        position_error("rbsgk/4p/5/P4/KGSBR[-] white"),
        "side to move"
    );
    assert_eq!(
        position_error("rbsgk/4p/5/P4/KGSBR[-] 99999999999999999999"),
        "side to move"
    );
    // Gote's king is in check with sente to move.
    assert_eq!(position_error("4k/5/5/5/K3R[-] w"), "side to move");
}

#[test]
fn hands_print_in_a_fixed_order_and_round_trip() {
    let p = pos("4k/5/5/5/K4[BRSPGgsrpb] w");
    assert_eq!(p.to_position(), "4k/5/5/5/K4[GPSRBgpsrb] w");
    assert_eq!(pos(&p.to_position()), p);
}

#[test]
fn diagram_shows_the_board() {
    let d = Minishogi::start().diagram();
    assert!(d.contains("a  b  c  d  e"));
    assert!(d.starts_with("5 |  r  b  s  g  k"));
}

// ---------------------------------------------------------------------------------------------
// The USI dialect

#[test]
fn usi_coordinates_map_the_native_squares() {
    let p = Minishogi::start();
    let m = p.parse_move("d1c2").unwrap();
    assert_eq!(p.format_move_in(m, Dialect::Usi), "2e3d");
    assert_eq!(p.parse_move_in("2e3d", Dialect::Usi), Ok(m));
    // The native notation is read in every dialect.
    assert_eq!(p.parse_move_in("d1c2", Dialect::Usi), Ok(m));
    for d in [Dialect::Native, Dialect::Gtp] {
        assert_eq!(p.format_move_in(m, d), "d1c2");
        assert_eq!(p.parse_move_in("d1c2", d), Ok(m));
        assert!(p.parse_move_in("2e3d", d).is_err());
    }
    // Corners: a1 = 5e (sente's left), e1 = 1e, a5 = 5a, e5 = 1a.
    for (native, usi) in [(0, "5e"), (4, "1e"), (20, "5a"), (24, "1a"), (12, "3c")] {
        assert_eq!(usi_square_name(native), usi);
        assert_eq!(parse_usi_square(usi.as_bytes()), Some(native));
    }
    let p = pos("r2gk/G3p/2s1R/P3B/K1S2[B] w");
    let drop = p.parse_move("B@c2").unwrap();
    assert_eq!(p.format_move_in(drop, Dialect::Usi), "B*3d");
    assert_eq!(p.parse_move_in("B*3d", Dialect::Usi), Ok(drop));
    assert_eq!(p.parse_move_in("B@3d", Dialect::Usi), Ok(drop));
    assert_eq!(p.parse_move_in("B*c2", Dialect::Usi), Ok(drop));
    let promotion = p.parse_move("e2b5+").unwrap();
    assert_eq!(p.format_move_in(promotion, Dialect::Usi), "1d4a+");
    assert_eq!(p.parse_move_in("1d4a+", Dialect::Usi), Ok(promotion));
}

#[test]
fn bad_usi_moves_give_errors() {
    let p = Minishogi::start();
    for bad in [
        "", "x", "2e", "2e3", "6e3d", "2f3d", "0e1e", "2e3d=", "Q*3c", "P*3f", "P*", "0000",
        "pass", "2e3d++", "é1é2",
    ] {
        assert!(
            matches!(
                p.parse_move_in(bad, Dialect::Usi),
                Err(GameError::MoveSyntax { .. })
            ),
            "{bad}"
        );
    }
    // Legal in shape, not here: a1a2 (own piece), a drop with an empty hand, a promotion
    // outside the zone.
    for illegal in ["5e5d", "P*3c", "5d5c+", "d1c2+"] {
        assert!(
            matches!(
                p.parse_move_in(illegal, Dialect::Usi),
                Err(GameError::IllegalMove { .. })
            ),
            "{illegal}"
        );
    }
}

#[test]
fn sfen_round_trips_and_flips_the_side_letters() {
    let s = Minishogi::start();
    assert_eq!(s.to_position_in(Dialect::Usi), "rbsgk/4p/5/P4/KGSBR b - 1");
    for text in [
        "rbsgk/4p/5/P4/KGSBR b - 1",
        "rbsgk/4p/5/P4/KGSBR b -",
        "rbsgk/4p/5/P4/KGSBR b",
        // A `[...]` hand marks a native FEN, read with its own side letters.
        "rbsgk/4p/5/P4/KGSBR[-] w - 1",
        "rbsgk/4p/5/P4/KGSBR[-] w 0 1",
        "rbsgk/4p/5/P4/KGSBR[] w - - 0 1",
    ] {
        assert_eq!(
            Minishogi::parse_position_in(text, Dialect::Usi),
            Ok(s.clone()),
            "{text}"
        );
    }
    let gote = Minishogi::parse_position_in("rbsgk/4p/5/P4/KGSBR w - 2", Dialect::Usi).unwrap();
    assert_eq!(gote.to_move(), Player(1));
    assert_eq!(gote.to_position(), "rbsgk/4p/5/P4/KGSBR[-] b");
    assert_eq!(
        gote.to_position_in(Dialect::Usi),
        "rbsgk/4p/5/P4/KGSBR w - 1"
    );

    // Counts before letters, sente's pieces first, in the order of the native FEN's hand.
    let p = pos("4k/5/5/5/K4[BRGPssrpbg] w");
    assert_eq!(p.to_position_in(Dialect::Usi), "4k/5/5/5/K4 b GPRBgp2srb 1");
    for text in ["4k/5/5/5/K4 b GPRBgp2srb 1", "4k/5/5/5/K4 b bB1G1gsPrRps"] {
        assert_eq!(
            Minishogi::parse_position_in(text, Dialect::Usi),
            Ok(p.clone()),
            "{text}"
        );
    }
    // Other dialects write and read the native FEN.
    for d in [Dialect::Native, Dialect::Gtp] {
        assert_eq!(s.to_position_in(d), Minishogi::INFO.start);
        assert_eq!(
            Minishogi::parse_position_in(Minishogi::INFO.start, d),
            Ok(s.clone())
        );
    }
}

#[test]
fn bad_sfens_name_the_field() {
    let field = |text: &str| match Minishogi::parse_position_in(text, Dialect::Usi) {
        Err(GameError::Position { field, .. }) => field,
        other => panic!("{text}: expected a position error, got {other:?}"),
    };
    assert_eq!(field(""), "board");
    assert_eq!(field("rbsgk/4p/5/P4 b - 1"), "board");
    assert_eq!(field("rbsgk/4p/5/P4/KGSBR"), "side to move");
    assert_eq!(field("rbsgk/4p/5/P4/KGSBR x - 1"), "side to move");
    assert_eq!(field("rbsgk/4p/5/P4/KGSBR B - 1"), "side to move");
    assert_eq!(field("4k/5/5/5/K4 b 3P 1"), "hand");
    assert_eq!(field("4k/5/5/5/K4 b 0P 1"), "hand");
    assert_eq!(field("4k/5/5/5/K4 b P2 1"), "hand");
    assert_eq!(field("4k/5/5/5/K4 b K 1"), "hand");
    assert_eq!(field("4k/5/5/5/K4 b 99999999999999999999P 1"), "hand");
    assert_eq!(field("4k/5/5/5/K4 b Pé 1"), "hand");
    assert_eq!(field("rbsgk/4p/5/P4/KGSBR b P 1"), "board");
    // Gote's king is in check with sente to move.
    assert_eq!(field("4k/5/5/5/K3R b - 1"), "side to move");
}

/// Every line pair of `tests/data/minishogi-fsf-usi.txt` (written by `scripts/fsf_usi.py` from
/// Fairy-Stockfish 11.1): the FEN and the SFEN describe the same position, which gpn writes
/// exactly so (up to the counters), and the legal moves in UCI and USI notation are gpn's legal
/// moves in the native and USI dialects.
#[test]
fn usi_dialect_agrees_with_fairy_stockfish() {
    let data = include_str!("../../../tests/data/minishogi-fsf-usi.txt");
    let mut lines = data.lines().filter(|l| !l.starts_with('#'));
    let mut positions = 0;
    while let (Some(pos_line), Some(moves_line)) = (lines.next(), lines.next()) {
        let (fen, sfen) = pos_line
            .strip_prefix("pos ")
            .and_then(|s| s.split_once(" | "))
            .unwrap_or_else(|| panic!("bad line {pos_line}"));
        let p = Minishogi::parse_position(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(
            Minishogi::parse_position_in(sfen, Dialect::Usi),
            Ok(p.clone()),
            "{sfen}"
        );
        let fields = |s: &str, n: usize| s.split_whitespace().take(n).collect::<Vec<_>>().join(" ");
        assert_eq!(fields(&p.to_position_in(Dialect::Usi), 3), fields(sfen, 3));
        assert_eq!(p.to_position(), fields(fen, 2).replace("[]", "[-]"));
        let pairs: Vec<&str> = moves_line
            .strip_prefix("moves")
            .unwrap_or_else(|| panic!("bad line {moves_line}"))
            .split_whitespace()
            .collect();
        assert_eq!(p.count_moves(), pairs.len(), "{fen}");
        for pair in pairs {
            let (uci, usi) = pair
                .split_once('=')
                .unwrap_or_else(|| panic!("bad pair {pair}"));
            let m = p.parse_move(uci).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(p.parse_move_in(usi, Dialect::Usi), Ok(m), "{fen}: {usi}");
            assert_eq!(p.format_move(m), uci);
            assert_eq!(p.format_move_in(m, Dialect::Usi), usi);
        }
        positions += 1;
    }
    assert!(
        positions > 50,
        "only {positions} positions in minishogi-fsf-usi.txt"
    );
}

/// The colour-swapped twin of a position string: the board turned half a turn, letter case
/// (colour) swapped in the board and the hands, the side to move exchanged.
fn colour_mirror(text: &str) -> String {
    let mut fields = text.split_whitespace();
    let first = fields.next().unwrap();
    let (board, hand) = match first.find('[') {
        Some(i) => (&first[..i], &first[i..]),
        None => (first, ""),
    };
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let rows: Vec<String> = board
        .split('/')
        .rev()
        .map(|row| {
            // Tokens: a digit run, or a piece letter with its '+'.
            let mut tokens: Vec<String> = Vec::new();
            let mut plus = false;
            for c in row.chars() {
                if c == '+' {
                    plus = true;
                } else {
                    let mut t = String::new();
                    if plus {
                        t.push('+');
                        plus = false;
                    }
                    t.push(swap(c));
                    tokens.push(t);
                }
            }
            tokens.reverse();
            tokens.concat()
        })
        .collect();
    let hand: String = hand.chars().map(swap).collect();
    let side = if fields.next() == Some("w") { "b" } else { "w" };
    format!("{}{hand} {side}", rows.join("/"))
}

#[test]
fn evaluation_invariants_hold() {
    crate::game::check::evaluation_invariants(&Minishogi::start(), 40, 121);
    assert_eq!(Minishogi::start().evaluate(Player(0)), 0.0);
}

#[test]
fn evaluation_is_colour_symmetric() {
    use crate::game::check::assert_mirrored_evaluation;
    for text in [
        "r2gk/G3p/2s1R/P3B/K1S2[B] w",
        "rbsgk/5/5/P3+P/KGSBR[-] b",
        "rbsgk/4p/5/P4/KGSB1[R] b",
    ] {
        let mirrored = colour_mirror(text);
        assert_mirrored_evaluation::<Minishogi>(text, &mirrored);
    }
}

#[test]
fn material_and_hand_evaluate_higher() {
    use crate::game::check::evaluation_of;
    // Sente has captured gote's rook: a rook in hand.
    let up = evaluation_of::<Minishogi>("1bsgk/4p/5/P4/KGSBR[R] w", Player(0));
    assert!(up > 0.05, "{up}");
    // The same pawn counts more in hand than on the board, and a tokin more than a pawn.
    let hand = evaluation_of::<Minishogi>("rbsgk/4p/5/5/KGSBR[P] w", Player(0));
    let board = evaluation_of::<Minishogi>("rbsgk/4p/5/P4/KGSBR[-] w", Player(0));
    let tokin = evaluation_of::<Minishogi>("rbsgk/4p/5/+P4/KGSBR[-] w", Player(0));
    assert!(hand > board && tokin > board, "{hand} {board} {tokin}");
}

#[test]
fn captures_are_flagged() {
    let p = pos("rbsgk/4p/4P/5/KGSB1[-] w");
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    for &m in list.iter() {
        let text = p.format_move(m);
        assert_eq!(p.is_capture(m), text.starts_with("e3e4"), "{text}");
    }
}

#[test]
fn network_encoding_follows_the_mover_and_the_mirror() {
    // Positions rebuilt from their text ("board[hand] side ..."): tokens are a piece letter with
    // an optional '+', or one digit (a run of empty squares, at most 5).
    fn tokens(row: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut plus = false;
        for c in row.chars() {
            if c == '+' {
                plus = true;
            } else {
                out.push(if plus { format!("+{c}") } else { c.to_string() });
                plus = false;
            }
        }
        out
    }
    fn swap(t: &str) -> String {
        t.chars().map(crate::game::check::swap_case).collect()
    }
    fn parts(p: &Minishogi) -> (Vec<Vec<String>>, String, Vec<String>) {
        let text = p.to_position();
        let mut words = text.split(' ').map(str::to_string);
        let first = words.next().unwrap();
        let (board, hand) = first.split_once('[').unwrap();
        let rows = board.split('/').map(tokens).collect();
        (
            rows,
            hand.trim_end_matches(']').to_string(),
            words.collect(),
        )
    }
    fn join(rows: &[Vec<String>], hand: &str, rest: &[String]) -> Minishogi {
        let board: Vec<String> = rows.iter().map(|r| r.concat()).collect();
        pos(&format!("{}[{hand}] {}", board.join("/"), rest.join(" ")))
    }
    let flip = |p: &Minishogi| {
        let (rows, hand, mut rest) = parts(p);
        let rows: Vec<Vec<String>> = rows
            .iter()
            .rev()
            .map(|r| r.iter().rev().map(|t| swap(t)).collect())
            .collect();
        rest[0] = if rest[0] == "w" { "b" } else { "w" }.to_string();
        join(&rows, &swap(&hand), &rest)
    };
    let mirror = |p: &Minishogi| {
        let (rows, hand, rest) = parts(p);
        let rows: Vec<Vec<String>> = rows
            .iter()
            .map(|r| r.iter().rev().cloned().collect())
            .collect();
        join(&rows, &hand, &rest)
    };
    crate::game::features::check::check_encoding::<Minishogi>(8, 40, &[(0, &flip), (1, &mirror)]);
}
