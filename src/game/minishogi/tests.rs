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
