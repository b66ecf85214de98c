//! Unit tests of the loa game: rules, notation, invariants and bad input.

use super::*;
use crate::game::check::random_games;
use crate::game::perft::perft;

type Loa8 = Loa<8>;
type Loa7 = Loa<7>;

fn pos<const N: usize>(text: &str) -> Loa<N> {
    Loa::<N>::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn move_names<const N: usize>(p: &Loa<N>) -> Vec<String> {
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut names: Vec<String> = list.iter().map(|&m| p.format_move(m)).collect();
    names.sort();
    names
}

fn sorted(names: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn start_positions() {
    let p = Loa8::start();
    assert_eq!(p.to_position(), Loa8::INFO.start);
    assert_eq!(p.count_moves(), 36);
    assert_eq!(p.pieces[0].count_ones(), 12);
    assert_eq!(p.pieces[1].count_ones(), 12);
    let q = Loa7::start();
    assert_eq!(q.to_position(), Loa7::INFO.start);
    assert_eq!(q.pieces[0].count_ones(), 10);
    assert_eq!(q.pieces[1].count_ones(), 10);
    assert!(p.outcome().is_none() && q.outcome().is_none());
}

#[test]
fn random_games_keep_invariants() {
    let s8 = random_games(&Loa8::start(), 700, 1);
    let s7 = random_games(&Loa7::start(), 700, 2);
    for s in [s8, s7] {
        assert!(s.decisive > 0);
        assert_eq!(s.capped + s.decisive + s.draws, s.games);
    }
}

#[test]
fn distance_counts_every_piece_on_the_line() {
    // d4 alone on its row, column and anti-diagonal (1 square); the a1-h8 diagonal holds
    // a1, d4 and h8 (3 squares: d4g7, but d4a1 would land on an own piece).
    let p = pos::<8>("7o/8/8/8/3x4/8/8/x6o x");
    let expected = [
        "d4c4", "d4e4", "d4d3", "d4d5", "d4g7", "d4c5", "d4e3", "a1c1", "a1a2",
    ];
    assert_eq!(move_names(&p), sorted(&expected));
}

#[test]
fn jumps_own_pieces_not_enemy_ones_and_captures_by_landing() {
    // Rank 1 holds a1, b1 (x) and d1 (o): 3 pieces.
    let p = pos::<8>("7x/8/8/7o/8/8/8/xx1o4 x");
    assert!(
        p.parse_move("a1d1").is_ok(),
        "a1 jumps its own b1 and captures on d1"
    );
    assert!(
        matches!(p.parse_move("b1e1"), Err(GameError::IllegalMove { .. })),
        "d1 blocks"
    );
    let mut q = p.clone();
    q.play_text("a1xd1").unwrap();
    assert_eq!(q.pieces[1].count_ones(), 1);
    // The capture leaves o a single piece, which is connected: o wins although x moved.
    assert_eq!(q.outcome(), Some(Outcome::win(Player(1), 2)));
    assert!(q.count_moves() == 0);
}

#[test]
fn connecting_wins() {
    let mut p = pos::<8>("7o/8/8/8/8/1x6/8/x6o x");
    assert!(p.outcome().is_none());
    p.play_text("a1a2").unwrap();
    assert_eq!(p.outcome(), Some(Outcome::win(Player(0), 2)));
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    assert!(list.is_empty());
    assert!(matches!(
        p.parse_move("h1h2"),
        Err(GameError::IllegalMove { .. })
    ));
}

#[test]
fn mover_wins_when_both_sides_connect() {
    // x b1 captures on b3: x b3+c3 connected, o g8+h8 connected too; the mover wins.
    let mut p = pos::<8>("6oo/8/8/8/8/1ox5/8/1x6 x");
    p.play_text("b1b3").unwrap();
    assert_eq!(p.outcome(), Some(Outcome::win(Player(0), 2)));
    let mut q = pos::<8>("6xx/8/8/8/8/1xo5/8/1o6 o");
    q.play_text("b1b3").unwrap();
    assert_eq!(q.outcome(), Some(Outcome::win(Player(1), 2)));
    // Parsed positions follow the same rule: the player not to move made the last move.
    let both = pos::<8>("6oo/8/8/8/8/1xx5/8/8 o");
    assert_eq!(both.outcome(), Some(Outcome::win(Player(0), 2)));
    let both = pos::<8>("6oo/8/8/8/8/1xx5/8/8 x");
    assert_eq!(both.outcome(), Some(Outcome::win(Player(1), 2)));
}

#[test]
fn blocked_player_passes() {
    // x on a1 and h1 is boxed in by o on every line: only a pass remains.
    let p = pos::<8>("8/8/8/8/8/8/oo4oo/xo4ox x");
    assert!(p.outcome().is_none());
    assert_eq!(move_names(&p), vec!["pass".to_string()]);
    assert_eq!(p.count_moves(), 1);
    let m = p.parse_move("0000").unwrap();
    let mut q = p.clone();
    q.play(m);
    assert_eq!(q.to_move(), Player(1));
    assert!(q.outcome().is_none() && q.count_moves() > 0);
    assert!(matches!(
        q.parse_move("pass"),
        Err(GameError::IllegalMove { .. })
    ));
    assert!(matches!(
        Loa8::start().parse_move("pass"),
        Err(GameError::IllegalMove { .. })
    ));
    let mut rng = Rng::new(3);
    let mut buf = MoveList::new();
    assert_eq!(p.random_move(&mut rng, &mut buf), Some(PASS));
}

#[test]
fn notation_variants() {
    let p = Loa8::start();
    let m = p.parse_move("b1b3").unwrap();
    assert_eq!(p.parse_move("b1-b3").unwrap(), m);
    assert_eq!(p.parse_move(" B1xB3 ").unwrap(), m);
    assert_eq!(p.format_move(m), "b1b3");
    let q = Loa7::start();
    assert_eq!(q.format_move(q.parse_move("b1b3").unwrap()), "b1b3");
    assert!(matches!(
        q.parse_move("h1h3"),
        Err(GameError::MoveSyntax { .. })
    ));
}

#[test]
fn bad_moves_are_reported() {
    let p = Loa8::start();
    for text in [
        "",
        "b1",
        "b1b",
        "b1b9",
        "i1a1",
        "b1b3 x",
        "b1=b3",
        "é1b3",
        "b1é3",
        "99999999999999999999",
        "b0b3",
        "pas",
    ] {
        match p.parse_move(text) {
            Err(GameError::MoveSyntax { text: t, .. }) => assert_eq!(t, text),
            other => panic!("'{text}': expected a syntax error, got {other:?}"),
        }
    }
    for text in ["b1b4", "a2a3", "d4d5", "b1b1", "pass", "0000"] {
        match p.parse_move(text) {
            Err(GameError::IllegalMove { text: t, .. }) => assert_eq!(t, text),
            other => panic!("'{text}': expected an illegal-move error, got {other:?}"),
        }
    }
    let err = p.parse_move("a2a3").unwrap_err();
    assert!(err.to_string().contains("no x piece on a2"), "{err}");
}

#[test]
fn bad_positions_are_reported() {
    let start = Loa8::INFO.start;
    let cases: &[(&str, &str)] = &[
        ("", "board"),
        ("   ", "board"),
        ("1xxxxxx1/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x", "board"), // 7 rows
        ("1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x", "board"), // 9 rows
        ("1xxxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x", "board"), // wide
        ("1xxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x", "board"), // narrow
        ("1xxxxxk1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x", "board"), // bad char
        ("1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1/ x", "board"), // trailing slash
        ("0xxxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x", "board"), // zero run
        ("9/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x", "board"),
        ("11xxxxxx/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 x", "board"), // two digits
        ("1xxxxxx1/o6o/o6é/o6o/o6o/o6o/o6o/1xxxxxx1 x", "board"), // unicode
        ("8/o6o/o6o/o6o/o6o/o6o/o6o/8 x", "board"),               // no x pieces
        ("1xxxxxx1/8/8/8/8/8/8/1xxxxxx1 x", "board"),             // no o pieces
        ("1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1", "side to move"),
        (
            "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 w",
            "side to move",
        ),
        (
            "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 xo",
            "side to move",
        ),
        (
            "1xxxxxx1/o6o/o6o/o6o/o6o/o6o/o6o/1xxxxxx1 99999999999999999999",
            "side to move",
        ),
        ("1xxxxx1/o5o/o5o/o5o/o5o/o5o/1xxxxx1 x", "board"), // a 7x7 string
    ];
    for &(text, field) in cases {
        match Loa8::parse_position(text) {
            Err(GameError::Position { field: f, message }) => {
                assert_eq!(f, field, "'{text}': {message}");
                assert!(!message.is_empty());
            }
            other => panic!("'{text}': expected a {field} error, got {other:?}"),
        }
    }
    // Trailing fields we do not use are ignored.
    assert_eq!(pos::<8>(&format!("{start} 0 1")), Loa8::start());
    assert!(matches!(
        Loa7::parse_position(start),
        Err(GameError::Position { field: "board", .. })
    ));
}

// ---- An independent, naive generator on plain arrays, for cross-checking ----

/// A board as rows of cells (row 0 = rank 1): 0 empty, 1 x, 2 o; and the side to move.
#[derive(Clone)]
struct Naive {
    n: usize,
    cells: Vec<Vec<u8>>,
    side: u8,
}

impl Naive {
    /// Reads our position string with its own code (not `parse_position`).
    fn read(text: &str) -> Naive {
        let (board, side) = text.split_once(' ').unwrap();
        let mut cells: Vec<Vec<u8>> = board
            .split('/')
            .map(|row| {
                let mut out = Vec::new();
                for ch in row.chars() {
                    match ch {
                        'x' => out.push(1),
                        'o' => out.push(2),
                        d => {
                            out.extend(std::iter::repeat(0).take(d.to_digit(10).unwrap() as usize))
                        }
                    }
                }
                out
            })
            .collect();
        cells.reverse();
        Naive {
            n: cells.len(),
            cells,
            side: if side == "x" { 1 } else { 2 },
        }
    }

    fn write(&self) -> String {
        let rows: Vec<String> = self
            .cells
            .iter()
            .rev()
            .map(|row| {
                let mut s = String::new();
                let mut empty = 0;
                for &c in row {
                    if c == 0 {
                        empty += 1;
                        continue;
                    }
                    if empty > 0 {
                        s += &empty.to_string();
                        empty = 0;
                    }
                    s.push(if c == 1 { 'x' } else { 'o' });
                }
                if empty > 0 {
                    s += &empty.to_string();
                }
                s
            })
            .collect();
        format!(
            "{} {}",
            rows.join("/"),
            if self.side == 1 { 'x' } else { 'o' }
        )
    }

    fn at(&self, r: i32, c: i32) -> Option<u8> {
        let n = self.n as i32;
        (r >= 0 && r < n && c >= 0 && c < n).then(|| self.cells[r as usize][c as usize])
    }

    fn name(r: i32, c: i32) -> String {
        format!("{}{}", (b'a' + c as u8) as char, r + 1)
    }

    /// Moves as `(from_r, from_c, to_r, to_c)`, walking each line square by square.
    fn moves(&self) -> Vec<(i32, i32, i32, i32)> {
        let mut out = Vec::new();
        let dirs = [
            (0, 1),
            (0, -1),
            (1, 0),
            (-1, 0),
            (1, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
        ];
        for r in 0..self.n as i32 {
            for c in 0..self.n as i32 {
                if self.at(r, c) != Some(self.side) {
                    continue;
                }
                for &(dr, dc) in &dirs {
                    // Count the pieces on the whole line: both ways from (r, c), plus itself.
                    let mut count = 1;
                    for s in [1, -1] {
                        let mut k = 1;
                        while let Some(v) = self.at(r + s * k * dr, c + s * k * dc) {
                            count += (v != 0) as i32;
                            k += 1;
                        }
                    }
                    let (tr, tc) = (r + count * dr, c + count * dc);
                    let Some(target) = self.at(tr, tc) else {
                        continue;
                    };
                    let blocked = (1..count).any(|k| {
                        let v = self.at(r + k * dr, c + k * dc).unwrap();
                        v != 0 && v != self.side
                    });
                    if !blocked && target != self.side {
                        out.push((r, c, tr, tc));
                    }
                }
            }
        }
        out
    }

    fn move_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .moves()
            .iter()
            .map(|&(r, c, tr, tc)| Self::name(r, c) + &Self::name(tr, tc))
            .collect();
        if v.is_empty() && self.winner().is_none() {
            v.push("pass".into());
        }
        if self.winner().is_some() {
            v.clear();
        }
        v.sort();
        v
    }

    /// Breadth-first search over the 8-neighbours of one piece of `who`.
    fn connected(&self, who: u8) -> bool {
        let n = self.n as i32;
        let all: Vec<(i32, i32)> = (0..n)
            .flat_map(|r| (0..n).map(move |c| (r, c)))
            .filter(|&(r, c)| self.at(r, c) == Some(who))
            .collect();
        let mut seen = vec![all[0]];
        let mut i = 0;
        while i < seen.len() {
            let (r, c) = seen[i];
            for dr in -1..=1 {
                for dc in -1..=1 {
                    let q = (r + dr, c + dc);
                    if self.at(q.0, q.1) == Some(who) && !seen.contains(&q) {
                        seen.push(q);
                    }
                }
            }
            i += 1;
        }
        seen.len() == all.len()
    }

    /// The winner (1 or 2): the player who just moved if connected, else the other.
    fn winner(&self) -> Option<u8> {
        let mover = 3 - self.side;
        if self.connected(mover) {
            Some(mover)
        } else if self.connected(self.side) {
            Some(self.side)
        } else {
            None
        }
    }

    fn play(&mut self, (r, c, tr, tc): (i32, i32, i32, i32)) {
        self.cells[r as usize][c as usize] = 0;
        self.cells[tr as usize][tc as usize] = self.side;
        self.side = 3 - self.side;
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.winner().is_some() {
            return 0;
        }
        let moves = self.moves();
        if moves.is_empty() {
            let mut next = self.clone();
            next.side = 3 - next.side;
            return next.perft(depth - 1);
        }
        moves
            .into_iter()
            .map(|m| {
                let mut next = self.clone();
                next.play(m);
                next.perft(depth - 1)
            })
            .sum()
    }
}

/// Compares the bitboard position with the naive one: moves, outcome, and every child.
fn cross_check<const N: usize>(p: &Loa<N>) {
    let text = p.to_position();
    let naive = Naive::read(&text);
    assert_eq!(naive.write(), text);
    assert_eq!(move_names(p), naive.move_names(), "moves differ in {text}");
    let expected = naive.winner().map(|w| Outcome::win(Player(w - 1), 2));
    assert_eq!(p.outcome(), expected, "outcome differs in {text}");
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    for &m in &list {
        let mut child = p.clone();
        child.play(m);
        let mut naive_child = naive.clone();
        if m == PASS {
            naive_child.side = 3 - naive_child.side;
        } else {
            let name = p.format_move(m);
            let b = name.as_bytes();
            let sq = |i: usize| ((b[i + 1] - b'1') as i32, (b[i] - b'a') as i32);
            let ((r, c), (tr, tc)) = (sq(0), sq(2));
            naive_child.play((r, c, tr, tc));
        }
        assert_eq!(
            child.to_position(),
            naive_child.write(),
            "play differs in {text}"
        );
        let winner = naive_child.winner().map(|w| Outcome::win(Player(w - 1), 2));
        assert_eq!(
            child.outcome(),
            winner,
            "outcome after {} in {text}",
            p.format_move(m)
        );
        assert_eq!(child.hash(), child.compute_hash());
    }
}

/// A random position: each square empty, x or o with densities drawn per position.
fn random_position<const N: usize>(rng: &mut Rng) -> Loa<N> {
    loop {
        let density = 5 + rng.below(60);
        let mut pieces = [0u64; 2];
        for sq in 0..N * N {
            if rng.below(100) < density {
                pieces[rng.below(2) as usize] |= 1 << sq;
            }
        }
        if pieces[0] != 0 && pieces[1] != 0 {
            return Loa::from_parts(pieces, rng.below(2) as u8);
        }
    }
}

fn cross_check_size<const N: usize>(seed: u64) {
    let mut rng = Rng::new(seed);
    for _ in 0..3000 {
        cross_check(&random_position::<N>(&mut rng));
    }
    // Positions of random games (mostly sparse middle and end games).
    let mut buf = MoveList::new();
    for _ in 0..60 {
        let mut p = Loa::<N>::start();
        while let Some(m) = p.random_move(&mut rng, &mut buf) {
            cross_check(&p);
            p.play(m);
        }
        cross_check(&p);
    }
}

#[test]
fn bitboards_agree_with_naive_generator_8x8() {
    cross_check_size::<8>(11);
}

#[test]
fn bitboards_agree_with_naive_generator_7x7() {
    cross_check_size::<7>(12);
    // The 7x7 perft data is self-computed: check its shallow depths against the naive code.
    let naive = Naive::read(Loa7::INFO.start);
    for depth in 1..=3 {
        assert_eq!(
            perft(&Loa7::start(), depth),
            naive.perft(depth),
            "depth {depth}"
        );
    }
}

#[test]
#[ignore = "slow naive perft; run with: cargo test --release --lib loa -- --ignored"]
fn naive_generator_confirms_7x7_depth_4() {
    let naive = Naive::read(Loa7::INFO.start);
    assert_eq!(naive.perft(4), perft(&Loa7::start(), 4));
    assert_eq!(naive.perft(4), 698_880);
}

#[test]
fn naive_generator_matches_peer_perft() {
    // The naive generator itself reproduces OpenSpiel's 8x8 counts (d1-d3), so its
    // agreement with the bitboards on 7x7 means something.
    let naive = Naive::read(Loa8::INFO.start);
    assert_eq!([1, 2, 3].map(|d| naive.perft(d)), [36, 1244, 44952]);
}

#[test]
fn random_move_is_uniform() {
    // Chi-square-like sanity check on the start position: every move drawn about equally.
    let p = Loa8::start();
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut counts = vec![0u32; list.len()];
    let mut rng = Rng::new(5);
    let mut buf = MoveList::new();
    let draws = 36_000;
    for _ in 0..draws {
        let m = p.random_move(&mut rng, &mut buf).unwrap();
        counts[list.iter().position(|&x| x == m).unwrap()] += 1;
    }
    let mean = draws as f64 / list.len() as f64;
    let chi2: f64 = counts
        .iter()
        .map(|&c| (c as f64 - mean).powi(2) / mean)
        .sum();
    // 35 degrees of freedom: the 99.99% quantile is about 72.
    assert!(chi2 < 72.0, "chi2 {chi2}, counts {counts:?}");
}

#[test]
fn diagram_shows_board_and_side() {
    let d = Loa8::start().diagram();
    assert!(d.starts_with("8  . x x x x x x ."), "{d}");
    assert!(
        d.contains("a b c d e f g h") && d.contains("x to move"),
        "{d}"
    );
    let d = Loa7::start().diagram();
    assert!(d.starts_with("7  . x x x x x ."), "{d}");
}

/// The colour-swapped twin of a position: the board transposed (x's rows become o's columns, as
/// in the start position), colours and the side to move exchanged.
fn colour_mirror<const N: usize>(text: &str) -> String {
    let p = Loa::<N>::parse_position(text).unwrap();
    let transpose = |bb: u64| {
        let mut out = 0u64;
        for sq in 0..N * N {
            if bb & (1 << sq) != 0 {
                out |= 1 << ((sq % N) * N + sq / N);
            }
        }
        out
    };
    let twin = Loa::<N>::from_parts([transpose(p.pieces[1]), transpose(p.pieces[0])], p.side ^ 1);
    twin.to_position()
}

#[test]
fn evaluation_invariants_hold() {
    crate::game::check::evaluation_invariants(&Loa8::start(), 60, 101);
    crate::game::check::evaluation_invariants(&Loa7::start(), 60, 102);
    assert_eq!(Loa8::start().evaluate(Player(0)), 0.0);
    assert_eq!(Loa7::start().evaluate(Player(0)), 0.0);
}

#[test]
fn evaluation_is_colour_symmetric() {
    use crate::game::check::assert_mirrored_evaluation;
    for text in [
        "1xxxxxx1/o6o/o2x3o/o6o/o6o/o6o/o6o/1xx1xxx1 o",
        "8/8/2xx4/2xo4/3o4/8/o7/7x x",
    ] {
        assert_mirrored_evaluation::<Loa8>(text, &colour_mirror::<8>(text));
    }
    let text = "1xxxxx1/o5o/o5o/o1x3o/o5o/o5o/1xxx1x1 o";
    assert_mirrored_evaluation::<Loa7>(text, &colour_mirror::<7>(text));
}

#[test]
fn concentrated_and_central_groups_evaluate_higher() {
    use crate::game::check::evaluation_of;
    // x's pieces in one central clump (nearly connected) against o's scattered ones.
    let v = evaluation_of::<Loa8>("o7/8/8/3xx3/3x1x2/8/8/7o o", Player(0));
    assert!(v > 0.3, "{v}");
    // The same three x pieces: two groups in the centre beat three corners.
    let centre = evaluation_of::<Loa8>("o6o/8/8/3xx3/8/3x4/8/o6o o", Player(0));
    let corners = evaluation_of::<Loa8>("o6o/x7/8/8/8/8/8/x5xo o", Player(0));
    assert!(centre > corners, "{centre} <= {corners}");
}

#[test]
fn captures_are_flagged() {
    let p = pos_of("7o/8/8/8/8/o7/8/x6x x");
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    for &m in list.iter() {
        let to = (m.0 >> 6 & 63) as usize;
        assert_eq!(p.is_capture(m), p.pieces[1] & (1 << to) != 0);
    }
    assert!(list.iter().any(|&m| p.is_capture(m)));
}

fn pos_of(text: &str) -> Loa8 {
    Loa8::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}
