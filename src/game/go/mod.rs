//! Go on N x N boards (5, 7, 9, 13 and 19): area scoring with komi, suicide illegal, simple ko
//! and positional (or, as an option, situational) superko, two passes in a row end the game.
//!
//! # Rules
//! Tromp-Taylor / Chinese area scoring: a player's score is their stones plus the empty points
//! that reach only their stones; Black's score minus White's minus komi decides (a whole-number
//! komi can draw). A move may not leave its own chain without liberties (suicide) and may not
//! recreate an earlier whole-board position (positional superko, which includes simple ko). With
//! the situational rule (AGA, New Zealand; the position field `superko situational`) a move is
//! illegal only when it recreates an earlier board with the same side to move. The
//! superko check looks back over the last [`HISTORY`] positions of the game: cycles longer than
//! that (which need several captures each way and do not occur in real games) are not caught.
//! A position read from a string has no history: only its simple-ko point (the `ko` field) is
//! known.
//!
//! # Board
//! A padded array of `(N + 2)^2` points, the frame marked as edge, so that neighbours never
//! need a bounds check. Stones form chains kept incrementally: each stone names its chain's
//! representative, the stones of a chain form a circular list, and the representative holds the
//! chain's pseudo-liberties (empty neighbours counted once per adjacent stone). Pseudo-liberties
//! are enough to decide captures and suicide exactly: a chain is captured when its count reaches
//! zero, and a chain adjacent to point `p` keeps a liberty other than `p` exactly when its count
//! exceeds its number of stones next to `p`.

use super::{
    fen, gogui_rows, zobrist, Dialect, Dialects, GameError, GameInfo, GoGuiBoard, Heuristics, Move,
    MoveList, Outcome, Player, Rules, Territory,
};
use crate::rng::Rng;

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const EDGE: u8 = 3;

/// The pass move: point 0 is a corner of the frame, never a stone.
pub const PASS: Move = Move(0);
/// No simple-ko point.
const NO_KO: u16 = 0;
/// Positions the superko check looks back over.
pub const HISTORY: usize = 64;
/// Points of the largest padded board (19 x 19 in a frame).
const MAX_CELLS: usize = 21 * 21;
/// Playouts of the dead-stone estimate of `final_score` and `final_status_list`.
const DEAD_STONE_PLAYOUTS: u32 = 256;
/// Random tries for a playout move before a scan of the whole board.
const RANDOM_TRIES: u32 = 24;

const ZOBRIST_STONE: [[u64; MAX_CELLS]; 2] = [zobrist::keys(0x6001), zobrist::keys(0x6002)];
const ZOBRIST_KO: [u64; MAX_CELLS] = zobrist::keys(0x6003);
const ZOBRIST_MISC: [u64; 3] = zobrist::keys(0x6004);
/// Killall-Go's opening plies left (entry 0 is zero, so Go's hashes are unchanged).
const ZOBRIST_OPENING: [u64; 8] = {
    let mut k: [u64; 8] = zobrist::keys(0x6005);
    k[0] = 0;
    k
};
use super::sgf::GTP_COLUMNS as COLUMNS;

/// Go on an `N` x `N` board; `CELLS` is `(N + 2)^2`, the padded array's length.
#[derive(Clone, Debug)]
pub struct Go<const N: usize, const CELLS: usize, const KILLALL: bool = false> {
    board: [u8; CELLS],
    /// Each stone's chain representative.
    chain: [u16; CELLS],
    /// The next stone of the same chain (a circular list).
    next: [u16; CELLS],
    /// Pseudo-liberties, at the representative.
    libs: [u16; CELLS],
    /// The point the side to move may not play by simple ko, or [`NO_KO`].
    ko: u16,
    /// 0: Black, 1: White.
    to_move: u8,
    /// Passes in a row just played.
    passes: u8,
    /// Komi in half points.
    komi2: i16,
    /// Stones captured by Black, by White.
    captures: [u16; 2],
    /// Stones only (the superko key).
    board_hash: u64,
    /// The superko rule is situational: a board repeats only with the same side to move.
    situational: bool,
    /// Superko keys of the last positions, the current one included: entry `i % HISTORY` for
    /// the `i`-th position of the game ([`Go::superko_key`]).
    history: [u64; HISTORY],
    /// Positions recorded in `history` so far.
    recorded: u32,
    /// The index in `history` of the position the last capture made (0 without one): a move
    /// that captures nothing adds a stone, so it can only repeat a position from before then.
    capture_index: u32,
    /// The point of the last move, 0 after a pass or in a position read from a string (what
    /// the playout policy answers; not part of the position).
    last: u16,
    /// Killall-Go: plies of the opening still to play (Black places stones, White may only
    /// pass); 0 in Go.
    opening: u8,
    /// Killall-Go: some white chain is unconditionally alive (Benson): White has won.
    white_alive: bool,
    /// Killall-Go 7x7: Black's unconditionally alive chains and their regions cover the whole
    /// board (minizero's early end): Black has won.
    black_safe: bool,
}

/// Equal boards, side to move, ko point, passes, komi and prisoners (the history is not part of
/// the position, as in a position string).
impl<const N: usize, const CELLS: usize, const K: bool> PartialEq for Go<N, CELLS, K> {
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
            && self.ko == other.ko
            && self.to_move == other.to_move
            && self.passes == other.passes
            && self.komi2 == other.komi2
            && self.captures == other.captures
            && self.opening == other.opening
            && self.situational == other.situational
    }
}

const fn info(n: usize, killall: bool) -> GameInfo {
    let notation =
        "GTP vertices (columns A-T without I, rows from 1 at the bottom), as in D4; pass";
    if killall {
        return match n {
            7 => GameInfo {
                name: "killallgo7",
                aliases: &["killallgo7x7", "kag7"],
                board: "7x7",
                notation,
                start: "7/7/7/7/7/7/7 b opening 3",
            },
            9 => GameInfo {
                name: "killallgo",
                aliases: &["killallgo9", "killallgo9x9", "kag"],
                board: "9x9",
                notation,
                start: "9/9/9/9/9/9/9/9/9 b opening 7",
            },
            _ => panic!("unsupported Killall-Go board size"),
        };
    }
    match n {
        5 => GameInfo {
            name: "go5",
            aliases: &["go5x5"],
            board: "5x5",
            notation,
            start: "5/5/5/5/5 b komi 7.5",
        },
        7 => GameInfo {
            name: "go7",
            aliases: &["go7x7"],
            board: "7x7",
            notation,
            start: "7/7/7/7/7/7/7 b komi 7.5",
        },
        9 => GameInfo {
            name: "go",
            aliases: &["go9", "go9x9", "baduk", "weiqi"],
            board: "9x9",
            notation,
            start: "9/9/9/9/9/9/9/9/9 b komi 7.5",
        },
        13 => GameInfo {
            name: "go13",
            aliases: &["go13x13"],
            board: "13x13",
            notation,
            start: "13/13/13/13/13/13/13/13/13/13/13/13/13 b komi 7.5",
        },
        19 => GameInfo {
            name: "go19",
            aliases: &["go19x19"],
            board: "19x19",
            notation,
            start: "19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19 b komi 7.5",
        },
        _ => panic!("unsupported Go board size"),
    }
}

impl<const N: usize, const CELLS: usize, const K: bool> Go<N, CELLS, K> {
    /// The padded row length.
    const W: usize = N + 2;
    const CHECK: () = assert!(
        CELLS == (N + 2) * (N + 2) && N >= 2 && N <= 19 && (!K || N * N <= MAX_BENSON_POINTS)
    );
    /// Plies of the Killall-Go opening: Black places four stones on 9x9 (the PCN paper), two on
    /// 7x7 (minizero), White passing in between.
    const OPENING_PLIES: u8 = match (K, N) {
        (false, _) => 0,
        (true, 7) => 3,
        (true, _) => 7,
    };

    /// Planes of N x N input features of the network encoding: stones by side (Killall-Go),
    /// or by side and liberties, 1, 2, 3 and more (Go).
    const PLANES: usize = if K { 2 } else { 6 };

    /// The point of `row` (0 at the bottom) and `col` (0 at the left).
    #[inline]
    fn point(row: usize, col: usize) -> usize {
        (row + 1) * Self::W + col + 1
    }

    #[inline]
    fn neighbours(p: usize) -> [usize; 4] {
        [p - 1, p + 1, p - Self::W, p + Self::W]
    }

    /// The empty board with Black to move and komi 7.5.
    fn empty_board() -> Self {
        #[allow(clippy::let_unit_value)]
        let () = Self::CHECK;
        let mut board = [EDGE; CELLS];
        for row in 0..N {
            for col in 0..N {
                board[Self::point(row, col)] = EMPTY;
            }
        }
        let mut g = Go {
            board,
            chain: [0; CELLS],
            next: [0; CELLS],
            libs: [0; CELLS],
            ko: NO_KO,
            to_move: 0,
            passes: 0,
            komi2: 15,
            captures: [0; 2],
            board_hash: 0,
            situational: false,
            history: [0; HISTORY],
            recorded: 0,
            capture_index: 0,
            last: 0,
            opening: Self::OPENING_PLIES,
            white_alive: false,
            black_safe: false,
        };
        g.record();
        g
    }

    /// The stone colour of the side to move.
    #[inline]
    fn colour(&self) -> u8 {
        self.to_move + 1
    }

    /// Komi in points.
    pub fn komi(&self) -> f32 {
        self.komi2 as f32 / 2.0
    }

    /// Komi in half points, rounded, within +/- 1000 points.
    fn komi_half_points(komi: f32) -> i16 {
        (komi.clamp(-1000.0, 1000.0) * 2.0).round() as i16
    }

    /// Stones plus empty points whose neighbours are all of one colour, for Black and White:
    /// the cheap area estimate of [`Heuristics::evaluate`] (every new tree node calls it).
    #[inline]
    fn estimated_area(&self) -> (i32, i32) {
        let (mut black, mut white) = (0i32, 0i32);
        for row in 0..N {
            for col in 0..N {
                let p = Self::point(row, col);
                let owner = match self.board[p] {
                    s @ (BLACK | WHITE) => s,
                    _ => {
                        let mut seen = 0u8;
                        for q in Self::neighbours(p) {
                            seen |= match self.board[q] {
                                BLACK => 1,
                                WHITE => 2,
                                _ => 0,
                            };
                        }
                        seen
                    }
                };
                match owner {
                    BLACK => black += 1,
                    WHITE => white += 1,
                    _ => {}
                }
            }
        }
        (black, white)
    }

    /// Stones captured by Black and by White.
    pub fn captures(&self) -> [u16; 2] {
        self.captures
    }

    /// The board hash from scratch.
    fn stones_hash(&self) -> u64 {
        self.board
            .iter()
            .enumerate()
            .filter(|(_, &s)| s == BLACK || s == WHITE)
            .fold(0, |h, (p, &s)| h ^ ZOBRIST_STONE[s as usize - 1][p])
    }

    /// What the superko rule compares of the board with hash `board` and `to_move` to play:
    /// the board alone (positional), or the board and the side to move (situational).
    #[inline]
    fn superko_key(&self, board: u64, to_move: u8) -> u64 {
        if self.situational && to_move == 1 {
            board ^ ZOBRIST_MISC[0]
        } else {
            board
        }
    }

    /// Records the current position in the history.
    #[inline]
    fn record(&mut self) {
        self.history[self.recorded as usize % HISTORY] =
            self.superko_key(self.board_hash, self.to_move);
        self.recorded += 1;
    }

    /// Whether a board with hash `h`, made by a move of the side to move that captures
    /// (`captures`) or not, occurred within the history (with the opponent to move, under the
    /// situational rule). Stones are only ever added between captures, so a move that captures
    /// nothing can only repeat a position older than the last capture.
    #[inline]
    fn repeats(&self, h: u64, captures: bool) -> bool {
        if K {
            // Killall-Go repeats only by simple ko (the PCN paper, as van der Werf's solvers).
            return false;
        }
        let h = self.superko_key(h, self.to_move ^ 1);
        let end = if captures {
            self.recorded
        } else {
            self.capture_index.min(self.recorded)
        };
        let start = self.recorded.saturating_sub(HISTORY as u32);
        (start..end).any(|i| self.history[i as usize % HISTORY] == h)
    }

    /// How many stones of chain `r` touch point `p`.
    #[inline]
    fn touching(&self, p: usize, r: u16) -> u16 {
        Self::neighbours(p)
            .iter()
            .filter(|&&q| matches!(self.board[q], BLACK | WHITE) && self.chain[q] == r)
            .count() as u16
    }

    /// The xor of the stone keys of chain `r` (of colour `c`).
    fn chain_hash(&self, r: u16, c: u8) -> u64 {
        let mut h = 0;
        let mut s = r as usize;
        loop {
            h ^= ZOBRIST_STONE[c as usize - 1][s];
            s = self.next[s] as usize;
            if s == r as usize {
                return h;
            }
        }
    }

    /// Whether the game is over: two passes in a row, or (Killall-Go) a side's unconditional
    /// life decided it.
    #[inline]
    fn is_over(&self) -> bool {
        self.passes >= 2 || self.white_alive || self.black_safe
    }

    /// A Killall-Go opening move: a uniformly drawn empty point for Black, the pass for White.
    fn opening_move(&self, rng: &mut Rng, buf: &mut MoveList) -> Option<Move> {
        if self.to_move == 1 {
            return Some(PASS);
        }
        self.legal_moves(buf);
        (!buf.is_empty()).then(|| buf[rng.below(buf.len() as u32) as usize])
    }

    /// The board hash after colour `c` plays on the empty point `p` and whether the move
    /// captures, or `None` when the move is suicide.
    fn board_after(&self, p: usize, c: u8) -> Option<(u64, bool)> {
        let mut h = self.board_hash ^ ZOBRIST_STONE[c as usize - 1][p];
        let mut safe = false;
        let mut captures = false;
        let mut seen = [u16::MAX; 4];
        for (k, q) in Self::neighbours(p).into_iter().enumerate() {
            let s = self.board[q];
            if s == EMPTY {
                safe = true;
                continue;
            }
            if s == EDGE {
                continue;
            }
            let r = self.chain[q];
            if seen[..k].contains(&r) {
                continue;
            }
            seen[k] = r;
            let left = self.libs[r as usize] - self.touching(p, r);
            if s == c {
                safe |= left > 0;
            } else if left == 0 {
                safe = true;
                captures = true;
                h ^= self.chain_hash(r, s);
            }
        }
        safe.then_some((h, captures))
    }

    /// Whether colour `c` playing on empty point `p` would leave its chain without liberties
    /// and capture nothing (what `board_after` answers, without the hashing).
    #[inline]
    fn is_suicide(&self, p: usize, c: u8) -> bool {
        !Self::neighbours(p).iter().any(|&q| match self.board[q] {
            EMPTY => true,
            EDGE => false,
            s => {
                let r = self.chain[q];
                let left = self.libs[r as usize] - self.touching(p, r);
                (s == c) == (left > 0)
            }
        })
    }

    /// Whether the side to move may play on point `p` (in Killall-Go, not in its own eye).
    /// Killall-Go repeats only by simple ko, so it needs no board hash: the suicide test alone.
    #[inline]
    fn legal_point(&self, p: usize) -> bool {
        let c = self.colour();
        self.board[p] == EMPTY
            && p != self.ko as usize
            && if K {
                !self.is_eye(p, c) && !self.is_suicide(p, c)
            } else {
                self.board_after(p, c)
                    .is_some_and(|(h, captures)| !self.repeats(h, captures))
            }
    }

    /// Whether empty point `p` is an eye of colour `c`: its neighbours are `c` or the edge, and
    /// at most one diagonal is the opponent's (none on the edge).
    fn is_eye(&self, p: usize, c: u8) -> bool {
        if Self::neighbours(p)
            .iter()
            .any(|&q| self.board[q] != c && self.board[q] != EDGE)
        {
            return false;
        }
        let w = Self::W;
        let mut opponent = 0;
        let mut edge = false;
        for q in [p - w - 1, p - w + 1, p + w - 1, p + w + 1] {
            match self.board[q] {
                EDGE => edge = true,
                s if s == 3 - c => opponent += 1,
                _ => {}
            }
        }
        opponent == 0 || (!edge && opponent == 1)
    }

    /// Puts a stone of colour `c` on empty point `p` (a legal move), merging and capturing.
    fn place(&mut self, p: usize, c: u8) {
        let o = 3 - c;
        self.board[p] = c;
        self.board_hash ^= ZOBRIST_STONE[c as usize - 1][p];
        self.chain[p] = p as u16;
        self.next[p] = p as u16;
        let nb = Self::neighbours(p);
        self.libs[p] = nb.iter().filter(|&&q| self.board[q] == EMPTY).count() as u16;
        for &q in &nb {
            if matches!(self.board[q], BLACK | WHITE) {
                let r = self.chain[q] as usize;
                self.libs[r] -= 1;
            }
        }
        for &q in &nb {
            if self.board[q] == c && self.chain[q] != self.chain[p] {
                // The new stone joins the first chain it touches (one relabel); a second chain
                // touched is relabelled into it.
                let (keep, gone) = if self.next[p] == p as u16 {
                    (self.chain[q], self.chain[p])
                } else {
                    (self.chain[p], self.chain[q])
                };
                self.merge(keep, gone);
            }
        }
        let mut taken = 0u16;
        let mut last = 0usize;
        for &q in &nb {
            if self.board[q] == o && self.libs[self.chain[q] as usize] == 0 {
                taken += self.remove(self.chain[q], o);
                last = q;
            }
        }
        // Saturating: an endless ko fight in a search must not overflow the count.
        self.captures[c as usize - 1] = self.captures[c as usize - 1].saturating_add(taken);
        let single = self.next[p] == p as u16;
        self.ko = if taken == 1 && single && self.libs[p] == 1 {
            last as u16
        } else {
            NO_KO
        };
    }

    /// Joins chain `gone` into chain `keep`.
    fn merge(&mut self, keep: u16, gone: u16) {
        let mut s = gone as usize;
        loop {
            self.chain[s] = keep;
            s = self.next[s] as usize;
            if s == gone as usize {
                break;
            }
        }
        self.next.swap(keep as usize, gone as usize);
        self.libs[keep as usize] += self.libs[gone as usize];
    }

    /// Takes chain `r` (colour `c`) off the board; returns its size.
    fn remove(&mut self, r: u16, c: u8) -> u16 {
        let mut n = 0;
        let mut s = r as usize;
        loop {
            self.board[s] = EMPTY;
            self.board_hash ^= ZOBRIST_STONE[c as usize - 1][s];
            n += 1;
            for q in Self::neighbours(s) {
                if matches!(self.board[q], BLACK | WHITE) {
                    let rq = self.chain[q] as usize;
                    self.libs[rq] += 1;
                }
            }
            s = self.next[s] as usize;
            if s == r as usize {
                return n;
            }
        }
    }

    /// The owner of every point by area ([`BLACK`], [`WHITE`], or [`EMPTY`] for none): a stone
    /// owns its point, an empty region is owned by the one colour it reaches, if only one.
    fn owners(&self) -> [u8; CELLS] {
        let mut owner = [EMPTY; CELLS];
        let mut seen = [false; CELLS];
        let mut region = Vec::with_capacity(N * N);
        for p in 0..CELLS {
            match self.board[p] {
                s @ (BLACK | WHITE) => owner[p] = s,
                EMPTY if !seen[p] => {
                    // Flood the empty region; note which colours it reaches.
                    let mut reaches = 0u8;
                    seen[p] = true;
                    region.clear();
                    region.push(p);
                    let mut next = 0;
                    while next < region.len() {
                        let s = region[next];
                        next += 1;
                        for q in Self::neighbours(s) {
                            match self.board[q] {
                                EMPTY if !seen[q] => {
                                    seen[q] = true;
                                    region.push(q);
                                }
                                BLACK => reaches |= 1,
                                WHITE => reaches |= 2,
                                _ => {}
                            }
                        }
                    }
                    if reaches == 1 || reaches == 2 {
                        for &s in &region {
                            owner[s] = reaches;
                        }
                    }
                }
                _ => {}
            }
        }
        owner
    }

    /// Area scores (stones plus empty points reaching only that colour) of Black and White.
    pub fn area(&self) -> (i32, i32) {
        let owner = self.owners();
        let count = |c: u8| owner.iter().filter(|&&o| o == c).count() as i32;
        (count(BLACK), count(WHITE))
    }

    /// Per point, the playouts (of `playouts`, games of the playout policy from here to two
    /// passes: captures, atari escapes, shapes, no own-eye fills or self-ataris; the last of a
    /// finished game's passes undone, so that both sides play on) that ended with Black owning it, minus those with White
    /// owning it.
    pub fn ownership(&self, playouts: u32, seed: u64) -> [i32; CELLS] {
        let mut own = [0i32; CELLS];
        let mut rng = Rng::new(seed);
        let mut buf = MoveList::new();
        for _ in 0..playouts {
            let mut g = self.clone();
            g.passes = 0;
            let mut plies = 0;
            while g.passes < 2 && plies < Self::MAX_PLIES {
                let m = g.policy_move(&mut rng, &mut buf).unwrap_or(PASS);
                g.play(m);
                plies += 1;
            }
            for (o, owner) in own.iter_mut().zip(g.owners()) {
                match owner {
                    BLACK => *o += 1,
                    WHITE => *o -= 1,
                    _ => {}
                }
            }
        }
        own
    }

    /// The stones judged dead: those whose point the opponent owned at the end of more of
    /// `DEAD_STONE_PLAYOUTS` playouts than their own side did (a fixed seed: the same
    /// position, the same answer). Playouts are a fallible judge (uniform ones let a dead
    /// intruder in a large territory be owned by the territory's side in only about 60 % of
    /// them; the playout policy's atari answers and no self-ataris sharpen that), so the rule
    /// is the majority.
    pub fn dead_stones(&self) -> Vec<usize> {
        let own = self.ownership(DEAD_STONE_PLAYOUTS, 0x5EED_DEAD);
        (0..CELLS)
            .filter(|&p| match self.board[p] {
                BLACK => own[p] < 0,
                WHITE => own[p] > 0,
                _ => false,
            })
            .collect()
    }

    /// The position with the dead stones ([`Go::dead_stones`]) taken off (chains are not
    /// rebuilt: for counting only).
    fn without_dead(&self) -> Self {
        let mut g = self.clone();
        for p in self.dead_stones() {
            g.board[p] = EMPTY;
        }
        g
    }

    /// GTP's `final_status_list`: the vertices of the stones of status `dead`, `alive` or
    /// `seki` (no stone is judged seki), sorted; `None` for another status.
    pub fn status_list(&self, status: &str) -> Option<Vec<String>> {
        let dead = self.dead_stones();
        let stones = (0..CELLS).filter(|&p| matches!(self.board[p], BLACK | WHITE));
        let list: Vec<usize> = match status {
            "dead" => dead,
            "alive" => stones.filter(|p| !dead.contains(p)).collect(),
            "seki" => Vec::new(),
            _ => return None,
        };
        Some(list.into_iter().map(Self::vertex).collect())
    }

    /// The score with dead stones removed, as GTP's `final_score` (and GNU Go's) writes it.
    pub fn final_score_text(&self) -> String {
        self.without_dead().area_text()
    }

    /// Black's area minus White's minus komi, in half points.
    pub fn score2(&self) -> i32 {
        let (b, w) = self.area();
        2 * (b - w) - self.komi2 as i32
    }

    /// The area count as GTP's `final_score` writes it: `B+3.5`, `W+0.5`, `0`.
    pub fn area_text(&self) -> String {
        let s = self.score2();
        let points = |h: i32| {
            if h % 2 == 0 {
                format!("{}", h / 2)
            } else {
                format!("{:.1}", h as f32 / 2.0)
            }
        };
        match s.cmp(&0) {
            std::cmp::Ordering::Greater => format!("B+{}", points(s)),
            std::cmp::Ordering::Less => format!("W+{}", points(-s)),
            std::cmp::Ordering::Equal => "0".to_string(),
        }
    }

    fn vertex(p: usize) -> String {
        let (row, col) = (p / Self::W - 1, p % Self::W - 1);
        format!("{}{}", COLUMNS[col] as char, row + 1)
    }

    /// Reads a vertex (`D4`, any case) or `pass` to a point (0 for pass).
    fn read_vertex(text: &str) -> Result<usize, GameError> {
        let t = text.trim();
        // UCI's null move is the pass too.
        if t.eq_ignore_ascii_case("pass") || t == "0000" {
            return Ok(0);
        }
        let err = || {
            GameError::syntax(
                text,
                format!(
                    "expected a vertex A1-{}{N} (columns skip I) or pass",
                    COLUMNS[N - 1] as char
                ),
            )
        };
        let mut chars = t.chars();
        let letter = chars.next().ok_or_else(err)?.to_ascii_uppercase();
        let col = COLUMNS[..N]
            .iter()
            .position(|&c| c as char == letter)
            .ok_or_else(err)?;
        let row: usize = chars.as_str().parse().map_err(|_| err())?;
        if !(1..=N).contains(&row) {
            return Err(err());
        }
        Ok(Self::point(row - 1, col))
    }

    /// The move on point `p` (0: pass) if legal, else why not.
    fn move_on(&self, text: &str, p: usize) -> Result<Move, GameError> {
        if self.is_over() {
            return Err(GameError::illegal(text, "the game is over"));
        }
        if self.opening > 0 {
            match (self.to_move, p) {
                (0, 0) => {
                    return Err(GameError::illegal(
                        text,
                        "Black places its opening stones first",
                    ))
                }
                (1, 0) => return Ok(PASS),
                (1, _) => return Err(GameError::illegal(text, "White passes in the opening")),
                _ => {}
            }
        }
        if p == 0 {
            return Ok(PASS);
        }
        if self.board[p] != EMPTY {
            return Err(GameError::illegal(text, "the point is occupied"));
        }
        if p == self.ko as usize {
            return Err(GameError::illegal(text, "ko: retake elsewhere first"));
        }
        if K && self.is_eye(p, self.colour()) {
            return Err(GameError::illegal(
                text,
                "Killall-Go forbids filling one's own eye",
            ));
        }
        match self.board_after(p, self.colour()) {
            None => Err(GameError::illegal(text, "suicide")),
            Some((h, captures)) if self.repeats(h, captures) => Err(GameError::illegal(
                text,
                "superko: the move repeats an earlier position",
            )),
            Some(_) => Ok(Move(p as u16)),
        }
    }
}

/// The network's view. Killall-Go: the mover's stones (features `row * N + column`), the
/// opponent's (from N x N on). Go: each stone by its chain's liberties, 1, 2 or 3 and more (the
/// mover's stones in planes 0-2, the opponent's in 3-5, `plane * N * N + row * N + column`):
/// ataris and weak chains are what a move's worth turns on, and a network over bare stones
/// cannot count liberties. Then feature `PLANES * N * N` when White is to move (Killall-Go's
/// sides have different goals, and Go's komi favours White). A move's policy index is its
/// point's `row * N + column`, the pass N x N; the eight symmetries of the square keep the
/// rules.
impl<const N: usize, const CELLS: usize, const K: bool> crate::game::Features for Go<N, CELLS, K> {
    const INPUTS: usize = Self::PLANES * N * N + 1;
    const POLICY: usize = N * N + 1;
    const SYMMETRIES: usize = 8;

    fn features(&self, out: &mut Vec<u16>) {
        out.clear();
        let own = if self.to_move == 0 { BLACK } else { WHITE };
        // Liberty classes (0-2) by chain representative, each chain counted once.
        let mut class = [u8::MAX; CELLS];
        for row in 0..N {
            for col in 0..N {
                let p = Self::point(row, col);
                let c = self.board[p];
                if c != BLACK && c != WHITE {
                    continue;
                }
                let side = if c == own { 0 } else { 1 };
                let plane = if K {
                    side
                } else {
                    let r = self.chain[p] as usize;
                    if class[r] == u8::MAX {
                        class[r] = if self.liberties_at_most(r as u16, 1) {
                            0
                        } else if self.liberties_at_most(r as u16, 2) {
                            1
                        } else {
                            2
                        };
                    }
                    3 * side + class[r] as usize
                };
                out.push((plane * N * N + row * N + col) as u16);
            }
        }
        if self.to_move == 1 {
            out.push((Self::PLANES * N * N) as u16);
        }
    }

    fn policy_index(&self, m: Move) -> usize {
        if m == PASS {
            N * N
        } else {
            let p = m.0 as usize;
            (p / Self::W - 1) * N + p % Self::W - 1
        }
    }

    fn map_feature(s: usize, f: u16) -> u16 {
        let f = f as usize;
        if f == Self::PLANES * N * N {
            return f as u16;
        }
        (f / (N * N) * (N * N) + Self::map_policy(s, f % (N * N))) as u16
    }

    fn map_policy(s: usize, p: usize) -> usize {
        if p == N * N {
            return p;
        }
        let (row, col) = crate::game::square_symmetry(s, p / N, p % N, N);
        row * N + col
    }
}

impl<const N: usize, const CELLS: usize, const K: bool> Rules for Go<N, CELLS, K> {
    const INFO: GameInfo = info(N, K);
    /// Four plies per point. OpenSpiel ends its games at two, but weak players (a search of a
    /// few hundred iterations) that do not pass in time reached that in real matches, and a game
    /// at the cap is a draw.
    const MAX_PLIES: u32 = 4 * (N * N) as u32;

    fn start() -> Self {
        Self::empty_board()
    }

    #[inline]
    fn to_move(&self) -> Player {
        Player(self.to_move)
    }

    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.is_over() {
            return;
        }
        if self.opening > 0 && self.to_move == 1 {
            out.push(PASS);
            return;
        }
        for row in 0..N {
            for col in 0..N {
                let p = Self::point(row, col);
                if self.legal_point(p) {
                    out.push(Move(p as u16));
                }
            }
        }
        if self.opening == 0 {
            out.push(PASS);
        }
    }

    fn play(&mut self, m: Move) {
        self.last = m.0;
        if m == PASS {
            // White's forced passes of the Killall-Go opening do not count towards the end.
            if self.opening == 0 {
                self.passes += 1;
            }
            self.ko = NO_KO;
        } else {
            self.passes = 0;
            let captured = self.captures;
            let colour = self.colour();
            self.place(m.0 as usize, colour);
            let capturing = self.captures != captured;
            if capturing {
                self.capture_index = self.recorded;
            }
            if K {
                self.update_life_after(m.0 as usize, colour, capturing);
            }
        }
        self.opening = self.opening.saturating_sub(1);
        self.to_move ^= 1;
        self.record();
    }

    fn outcome(&self) -> Option<Outcome> {
        if K {
            // White wins by unconditional life; Black wins by its own unconditional safety of
            // the whole board (7x7) or by having no white stone left when the game ends.
            if self.white_alive {
                return Some(Outcome::win(Player(1), 2));
            }
            if self.black_safe {
                return Some(Outcome::win(Player(0), 2));
            }
            return (self.passes >= 2).then(|| {
                let white_left = self.board.contains(&WHITE);
                Outcome::win(Player(u8::from(white_left)), 2)
            });
        }
        (self.passes >= 2).then(|| Outcome::by_score(self.score2()))
    }

    #[inline]
    fn hash(&self) -> u64 {
        let mut h = self.board_hash ^ ZOBRIST_KO[self.ko as usize];

        if self.to_move == 1 {
            h ^= ZOBRIST_MISC[0];
        }
        h ^= ZOBRIST_OPENING[self.opening as usize];
        match self.passes {
            0 => h,
            1 => h ^ ZOBRIST_MISC[1],
            _ => h ^ ZOBRIST_MISC[2],
        }
    }

    fn compute_hash(&self) -> u64 {
        let mut g = self.clone();
        g.board_hash = self.stones_hash();
        g.hash()
    }

    fn format_move(&self, m: Move) -> String {
        if m == PASS {
            "pass".to_string()
        } else {
            Self::vertex(m.0 as usize)
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        let p = Self::read_vertex(text)?;
        self.move_on(text, p)
    }

    fn to_position(&self) -> String {
        let rows = (0..N).rev().map(|row| {
            (0..N).map(move |col| match self.board[Self::point(row, col)] {
                BLACK => Some('X'),
                WHITE => Some('O'),
                _ => None,
            })
        });
        let mut out = format!(
            "{} {}",
            fen::board_field(rows),
            if self.to_move == 0 { 'b' } else { 'w' }
        );
        if !K {
            out += &format!(" komi {}", self.komi2 as f32 / 2.0);
        }
        if self.situational {
            out += " superko situational";
        }
        if self.opening > 0 {
            out += &format!(" opening {}", self.opening);
        }
        if self.ko != NO_KO {
            out += &format!(" ko {}", Self::vertex(self.ko as usize));
        }
        if self.passes > 0 {
            out += &format!(" passes {}", self.passes);
        }
        if self.captures != [0, 0] {
            out += &format!(" captures {} {}", self.captures[0], self.captures[1]);
        }
        out
    }

    /// Reads `<N rows top to bottom: X black, O white, digits or dots empty> <b|w> [komi K]
    /// [superko positional|situational] [ko V] [passes N] [captures B W]`; a chain without
    /// liberties is refused.
    fn parse_position(text: &str) -> Result<Self, GameError> {
        let (rows, mut fields) = fen::board_rows(text, N)?;
        let mut g = Self::empty_board();
        // The opening is over unless the string says otherwise.
        g.opening = 0;
        for (i, row_text) in rows.iter().enumerate() {
            let row = N - 1 - i;
            let mut col = 0usize;
            let mut run = 0usize;
            let bad = |m: String| GameError::position("board", m);
            for ch in row_text.chars() {
                if let Some(d) = ch.to_digit(10) {
                    run = run * 10 + d as usize;
                    if run == 0 || run > N {
                        return Err(bad(format!("bad run of empty points on row {}", row + 1)));
                    }
                    continue;
                }
                col += run;
                run = 0;
                if ch == '.' {
                    col += 1;
                    continue;
                }
                let stone = match ch {
                    'X' | 'x' | 'B' | 'b' => BLACK,
                    'O' | 'o' | 'W' | 'w' => WHITE,
                    _ => return Err(bad(format!("unknown point '{ch}' on row {}", row + 1))),
                };
                if col >= N {
                    return Err(bad(format!("row {} is longer than {N}", row + 1)));
                }
                g.board[Self::point(row, col)] = stone;
                col += 1;
            }
            col += run;
            if col != N {
                return Err(bad(format!("row {} has {col} points, not {N}", row + 1)));
            }
        }
        g.to_move = match fields.next() {
            None | Some("b") | Some("B") => 0,
            Some("w") | Some("W") => 1,
            Some(s) => return Err(GameError::position("side", format!("'{s}' is not b or w"))),
        };
        while let Some(key) = fields.next() {
            let mut value = |what: &'static str| {
                fields
                    .next()
                    .ok_or_else(|| GameError::position(what, "missing value"))
            };
            match key {
                "komi" => {
                    let k: f32 = value("komi")?
                        .parse()
                        .map_err(|_| GameError::position("komi", "not a number"))?;
                    if !k.is_finite() || k.abs() > 1000.0 {
                        return Err(GameError::position("komi", "out of range"));
                    }
                    g.komi2 = Self::komi_half_points(k);
                }
                "superko" if !K => {
                    g.situational = match value("superko")? {
                        "positional" => false,
                        "situational" => true,
                        _ => {
                            return Err(GameError::position(
                                "superko",
                                "expected positional or situational",
                            ))
                        }
                    };
                }
                "ko" => {
                    let p = Self::read_vertex(value("ko")?)?;
                    if p == 0 || g.board[p] != EMPTY {
                        return Err(GameError::position("ko", "not an empty point"));
                    }
                    g.ko = p as u16;
                }
                "opening" if K => {
                    g.opening = match value("opening")?.parse::<u8>() {
                        Ok(n) if n <= Self::OPENING_PLIES => n,
                        _ => {
                            return Err(GameError::position(
                                "opening",
                                format!("expected 0-{} plies", Self::OPENING_PLIES),
                            ))
                        }
                    };
                }
                "passes" => {
                    g.passes = match value("passes")? {
                        "0" => 0,
                        "1" => 1,
                        "2" => 2,
                        _ => return Err(GameError::position("passes", "expected 0, 1 or 2")),
                    };
                }
                "captures" => {
                    let mut read = |what| {
                        value(what)?
                            .parse::<u16>()
                            .map_err(|_| GameError::position(what, "not a count"))
                    };
                    g.captures = [read("captures")?, read("captures")?];
                }
                other => {
                    return Err(GameError::position(
                        "fields",
                        if K {
                            format!("unknown field '{other}' (opening, ko, passes, captures)")
                        } else {
                            format!("unknown field '{other}' (komi, superko, ko, passes, captures)")
                        },
                    ))
                }
            }
        }
        // Chains and their pseudo-liberties, from scratch.
        for p in 0..CELLS {
            if matches!(g.board[p], BLACK | WHITE) {
                g.chain[p] = p as u16;
                g.next[p] = p as u16;
                g.libs[p] = Self::neighbours(p)
                    .iter()
                    .filter(|&&q| g.board[q] == EMPTY)
                    .count() as u16;
            }
        }
        for p in 0..CELLS {
            if matches!(g.board[p], BLACK | WHITE) {
                for q in Self::neighbours(p) {
                    if g.board[q] == g.board[p] && g.chain[q] != g.chain[p] {
                        g.merge(g.chain[p], g.chain[q]);
                    }
                }
            }
        }
        for p in 0..CELLS {
            if matches!(g.board[p], BLACK | WHITE) && g.libs[g.chain[p] as usize] == 0 {
                return Err(GameError::position(
                    "board",
                    format!("the chain at {} has no liberty", Self::vertex(p)),
                ));
            }
        }
        if g.opening > 0 && (g.to_move == 1) != (g.opening % 2 == 0) {
            return Err(GameError::position(
                "opening",
                "Black moves on odd opening plies left, White on even ones",
            ));
        }
        g.board_hash = g.stones_hash();
        g.recorded = 0;
        g.capture_index = 0;
        g.record();
        if K {
            g.update_life();
        }
        Ok(g)
    }

    fn diagram(&self) -> String {
        let mut out = String::new();
        for row in (0..N).rev() {
            out += &format!("{:>2} ", row + 1);
            for col in 0..N {
                let p = Self::point(row, col);
                out.push(match self.board[p] {
                    BLACK => 'X',
                    WHITE => 'O',
                    _ if p == self.ko as usize => '*',
                    _ => '.',
                });
                out.push(' ');
            }
            out.push('\n');
        }
        out += "   ";
        for &c in &COLUMNS[..N] {
            out.push(c as char);
            out.push(' ');
        }
        let [b, w] = self.captures;
        if K {
            out + &format!("\ncaptures B {b} W {w}")
        } else {
            out + &format!("\nkomi {} captures B {b} W {w}", self.komi())
        }
    }

    /// A uniformly drawn empty point that is legal and not one of the mover's own eyes (random
    /// tries, then a scan); a pass when there is none.
    fn random_move(&self, rng: &mut Rng, buf: &mut MoveList) -> Option<Move> {
        if self.is_over() {
            return None;
        }
        if self.opening > 0 {
            return self.opening_move(rng, buf);
        }
        let c = self.colour();
        let good = |p: usize| self.board[p] == EMPTY && !self.is_eye(p, c) && self.legal_point(p);
        for _ in 0..RANDOM_TRIES {
            let i = rng.below((N * N) as u32) as usize;
            let p = Self::point(i / N, i % N);
            if good(p) {
                return Some(Move(p as u16));
            }
        }
        buf.clear();
        for row in 0..N {
            for col in 0..N {
                let p = Self::point(row, col);
                if good(p) {
                    buf.push(Move(p as u16));
                }
            }
        }
        if buf.is_empty() {
            Some(PASS)
        } else {
            Some(buf[rng.below(buf.len() as u32) as usize])
        }
    }

    fn territory(&self) -> Option<&dyn Territory> {
        Some(self)
    }

    fn territory_mut(&mut self) -> Option<&mut dyn Territory> {
        Some(self)
    }
}

impl<const N: usize, const CELLS: usize, const K: bool> Heuristics for Go<N, CELLS, K> {
    const HAS_EVALUATION: bool = true;

    /// Go: an area estimate (stones, plus empty points whose neighbours are all one colour,
    /// minus komi) through tanh over a scale of N^2 / 16 points. Killall-Go: White's life
    /// potential, its eyes against the two it needs: tanh(E - 1.5 + (W - B) / N^2) for White,
    /// E the empty points whose neighbours are all White (or the edge), W and B the area
    /// estimates (a tie-break); a decided game is +/-1.
    fn evaluate(&self, player: Player) -> f32 {
        if K && self.is_over() {
            let winner = self.outcome().and_then(|o| o.winner());
            return if winner == Some(player) { 1.0 } else { -1.0 };
        }
        let (black, white) = self.estimated_area();
        let v = if K {
            let eyes = (0..N * N)
                .map(|i| Self::point(i / N, i % N))
                .filter(|&p| {
                    self.board[p] == EMPTY
                        && Self::neighbours(p)
                            .iter()
                            .all(|&q| matches!(self.board[q], WHITE | EDGE))
                })
                .count() as f32;
            let area = (white - black) as f32 / (N * N) as f32;
            -(eyes - 1.5 + area)
        } else {
            let scale = (N * N) as f32 / 16.0;
            ((2 * (black - white) - self.komi2 as i32) as f32 / 2.0) / scale
        };
        crate::game::zero_sum(v.tanh(), player)
    }

    /// Captures, atari escapes, Mogo's shapes and no self-atari (`playout`).
    fn playout_move(&self, rng: &mut Rng, buf: &mut MoveList) -> Option<Move> {
        self.policy_move(rng, buf)
    }

    const HAS_MOVE_PRIORS: bool = true;

    /// Captures, escapes, shapes and the last move's neighbourhood high, self-ataris and the
    /// first line low, own-eye fills 0 (`priors`).
    fn move_priors(&self, moves: &[Move], out: &mut Vec<u16>) {
        self.knowledge_priors(moves, out);
    }

    const AMAF_MOVES: usize = CELLS;

    fn amaf_index(m: Move) -> Option<usize> {
        (m != PASS).then_some(m.0 as usize)
    }

    fn is_capture(&self, m: Move) -> bool {
        if m == PASS {
            return false;
        }
        let p = m.0 as usize;
        let o = 3 - self.colour();
        Self::neighbours(p).iter().any(|&q| {
            self.board[q] == o && {
                let r = self.chain[q];
                self.libs[r as usize] == self.touching(p, r)
            }
        })
    }
}

impl<const N: usize, const CELLS: usize, const K: bool> Dialects for Go<N, CELLS, K> {
    fn format_move_in(&self, m: Move, _dialect: Dialect) -> String {
        self.format_move(m)
    }

    fn parse_move_in(&self, text: &str, _dialect: Dialect) -> Result<Move, GameError> {
        self.parse_move(text)
    }
}

impl<const N: usize, const CELLS: usize, const K: bool> Territory for Go<N, CELLS, K> {
    /// Go: [`Heuristics::evaluate`]'s area estimate as points, Black's minus White's minus komi (a
    /// local count: the inside of a large territory is not counted); Killall-Go has no score.
    fn score_estimate(&self) -> Option<f32> {
        if K {
            return None;
        }
        let (black, white) = self.estimated_area();
        Some((2 * (black - white) - self.komi2 as i32) as f32 / 2.0)
    }

    /// The board rows of the position string (`X` Black, `O` White) and the prisoners.
    fn gogui_board(&self) -> Option<GoGuiBoard> {
        Some(GoGuiBoard {
            rows: gogui_rows(&self.to_position(), ['X', 'O'], false),
            captured: self.captures.map(u32::from),
        })
    }

    /// Komi rounded to half points (within +/- 1000); Killall-Go has none (refused).
    fn set_komi(&mut self, komi: f32) -> bool {
        if K {
            return false;
        }
        self.komi2 = Self::komi_half_points(komi);
        true
    }

    /// Killall-Go has simple ko only (refused). The history restarts at the current position,
    /// so that no key of the other rule is compared.
    fn set_situational_superko(&mut self, situational: bool) -> bool {
        if K {
            return false;
        }
        self.situational = situational;
        self.recorded = 0;
        self.capture_index = 0;
        self.record();
        true
    }

    /// The area count once the stones judged dead are removed ([`Go::dead_stones`]), also
    /// before the game is over (GTP's `final_score` of a game the controller ended). Killall-Go
    /// has no score, only a winner: `B+R`-like `B+1` / `W+1` once the game is over.
    fn score_text(&self) -> Option<String> {
        if K {
            return self
                .outcome()
                .and_then(|o| o.winner())
                .map(|w| if w == Player(0) { "B+1" } else { "W+1" }.to_string());
        }
        Some(self.final_score_text())
    }

    fn status_list(&self, status: &str) -> Option<Vec<String>> {
        if K {
            return None;
        }
        Go::status_list(self, status)
    }

    /// The share of `DEAD_STONE_PLAYOUTS` playouts in which the side to move owned each
    /// point, less the share in which the opponent did (a fixed seed: the same position, the
    /// same answer).
    fn ownership(&self) -> Option<Vec<f32>> {
        let own = Go::ownership(self, DEAD_STONE_PLAYOUTS, 0x5EED_0A4E);
        let sign = if self.to_move == 0 { 1.0 } else { -1.0 };
        let scale = sign / DEAD_STONE_PLAYOUTS as f32;
        Some(
            (0..N)
                .rev()
                .flat_map(|row| (0..N).map(move |col| Self::point(row, col)))
                .map(|p| own[p] as f32 * scale)
                .collect(),
        )
    }
}

/// Go on 5x5.
pub type Go5 = Go<5, 49>;
/// Go on 7x7.
pub type Go7 = Go<7, 81>;
/// Go on 9x9.
pub type Go9 = Go<9, 121>;
/// Go on 13x13.
pub type Go13 = Go<13, 225>;
/// Go on 19x19.
pub type Go19 = Go<19, 441>;
/// Killall-Go on 9x9 (the PCN paper's rules).
pub type KillallGo = Go<9, 121, true>;
/// Killall-Go on 7x7 (minizero's rules).
pub type KillallGo7 = Go<7, 81, true>;

mod benson;
#[cfg(test)]
mod killall_tests;
mod ladder;
mod nakade;
mod playout;
mod priors;
use benson::MAX_BENSON_POINTS;
#[cfg(test)]
mod tests;
