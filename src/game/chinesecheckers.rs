//! Chinese Checkers for 3 or 4 players on the reduced 73-hole star of multi-player MCTS research
//! (Sturtevant 2008; Nijssen & Winands 2011): a hexagon of side 4 (37 holes) with a triangle of
//! 6 holes on each of its six sides, and 6 pieces per player.
//!
//! Rules, as gpn plays them:
//! * The six triangles are named clockwise from the top: top, upper right, lower right, bottom,
//!   lower left, upper left. Each player starts with its 6 pieces filling one triangle (its
//!   home) and races to fill the opposite one (its target). Three players sit in alternating
//!   triangles, so every target starts empty: red top, yellow lower right, green lower left.
//!   Four players sit in two opposite pairs, leaving top and bottom empty: red upper right,
//!   yellow lower right, green lower left, blue upper left (each one's target is the home of
//!   the player two seats on). Turns go in that order, cyclically.
//! * A move takes one of the mover's pieces either one step to an adjacent empty hole, or
//!   through one or more jumps, each over one adjacent piece (any colour) into the empty hole
//!   straight beyond it; a jump sequence may stop after any jump. Nothing is captured. A move is
//!   its origin and destination: several paths to the same hole are one move.
//! * A move may end only in the hexagon, the mover's home or the mover's target (pieces pass
//!   through, but never stop in, the other triangles). A piece in its target may move only
//!   within the target (Sturtevant's rule against endless games).
//! * A player whose target triangle is full, with at least one of its own pieces in it (the
//!   anti-blocking rule: pieces parked in someone's target do not stop them), wins at once, even
//!   if another player's move filled it; everybody else shares second place. A player with no
//!   move passes (the explicit move `pass`, legal only then). A game of 600 plies is a draw.
//!
//! Holes are numbered 0..73 row by row from the top, left to right, and named by the row letter
//! `a`-`m` and the position in the row from the left (`a1` the top tip, `d1`-`d10` the first
//! long row). Sets of holes are `u128` bitboards; the geometry is computed at compile time.

use std::fmt::Write as _;

use super::{fen, zobrist, Game, GameError, GameInfo, Move, MoveList, Outcome, Player};

/// Holes of the star.
const HOLES: usize = 73;
/// Rows of the star, top to bottom, and their lengths.
const ROWS: usize = 13;
const ROW_LEN: [usize; ROWS] = [1, 2, 3, 10, 9, 8, 7, 8, 9, 10, 3, 2, 1];
/// Pieces per player, and holes per triangle.
const PIECES: u32 = 6;
/// No hole (off the board).
const NONE: u8 = u8::MAX;
/// The forced pass.
const PASS: Move = Move(u16::MAX);

/// Colours in turn order (the first P play), their letters and their names.
const COLOURS: usize = 4;
const LETTERS: [char; COLOURS] = ['r', 'y', 'g', 'b'];
const NAMES: [&str; COLOURS] = ["red", "yellow", "green", "blue"];
/// The six triangles, clockwise from the top; the hexagon is region 6.
const TRIANGLE_NAMES: [&str; 6] = [
    "top",
    "upper right",
    "lower right",
    "bottom",
    "lower left",
    "upper left",
];
const HEXAGON_REGION: u8 = 6;

/// Each player's home triangle, in turn order.
const fn homes(players: usize) -> [usize; COLOURS] {
    match players {
        3 => [0, 2, 4, 0],
        4 => [1, 2, 4, 5],
        _ => panic!("Chinese Checkers is for 3 or 4 players"),
    }
}

/// Directions in doubled coordinates (row, column; neighbours in a row are 2 columns apart):
/// east, north-east, north-west, west, south-west, south-east.
const DIRECTIONS: [(i32, i32); 6] = [(0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1)];
/// The tip (far corner) of each triangle, in doubled coordinates.
const TIPS: [(i32, i32); 6] = [(0, 0), (3, 9), (9, 9), (12, 0), (9, -9), (3, -9)];

const fn row_start(r: usize) -> usize {
    let mut s = 0;
    let mut i = 0;
    while i < r {
        s += ROW_LEN[i];
        i += 1;
    }
    s
}

/// The hole at doubled coordinates (row, column), or [`NONE`]. Row `r` of length `n` spans
/// columns `-(n - 1) ..= n - 1` in steps of 2.
const fn hole_at(r: i32, c: i32) -> u8 {
    if r < 0 || r >= ROWS as i32 {
        return NONE;
    }
    let len = ROW_LEN[r as usize] as i32;
    let twice = c + len - 1;
    if twice < 0 || twice % 2 != 0 || twice > 2 * (len - 1) {
        return NONE;
    }
    (row_start(r as usize) as i32 + twice / 2) as u8
}

/// Which triangle (0-5) a hole lies in, or [`HEXAGON_REGION`].
const fn region_at(r: i32, c: i32) -> u8 {
    if r <= 2 {
        return 0;
    }
    if r >= 10 {
        return 3;
    }
    let half_width = 6 - (r - 6).abs();
    if c.abs() <= half_width {
        HEXAGON_REGION
    } else if c > 0 {
        if r < 6 {
            1
        } else {
            2
        }
    } else if r < 6 {
        5
    } else {
        4
    }
}

/// Steps between two holes of the hexagonal grid, in doubled coordinates.
const fn distance(a: (i32, i32), b: (i32, i32)) -> u8 {
    let dr = (a.0 - b.0).abs();
    let dc = (a.1 - b.1).abs();
    let extra = if dc > dr { (dc - dr) / 2 } else { 0 };
    (dr + extra) as u8
}

/// The board's geometry, computed once at compile time.
struct Geometry {
    /// Doubled coordinates of each hole.
    coords: [(i32, i32); HOLES],
    /// The neighbour in each direction, or [`NONE`].
    step: [[u8; 6]; HOLES],
    /// The triangle (0-5) of each hole, or [`HEXAGON_REGION`].
    region: [u8; HOLES],
    /// The holes of each triangle.
    triangle: [u128; 6],
    /// The hexagon's holes.
    hexagon: u128,
    /// Steps from each hole to the tip of each triangle.
    to_tip: [[u8; HOLES]; 6],
}

const fn geometry() -> Geometry {
    let mut g = Geometry {
        coords: [(0, 0); HOLES],
        step: [[NONE; 6]; HOLES],
        region: [0; HOLES],
        triangle: [0; 6],
        hexagon: 0,
        to_tip: [[0; HOLES]; 6],
    };
    let mut r = 0;
    while r < ROWS {
        let len = ROW_LEN[r];
        let mut i = 0;
        while i < len {
            let h = row_start(r) + i;
            let (row, col) = (r as i32, 2 * i as i32 - (len as i32 - 1));
            g.coords[h] = (row, col);
            let mut d = 0;
            while d < 6 {
                g.step[h][d] = hole_at(row + DIRECTIONS[d].0, col + DIRECTIONS[d].1);
                d += 1;
            }
            let region = region_at(row, col);
            g.region[h] = region;
            if region == HEXAGON_REGION {
                g.hexagon |= 1 << h;
            } else {
                g.triangle[region as usize] |= 1 << h;
            }
            let mut t = 0;
            while t < 6 {
                g.to_tip[t][h] = distance((row, col), TIPS[t]);
                t += 1;
            }
            i += 1;
        }
        r += 1;
    }
    g
}

const GEO: Geometry = geometry();

/// The least total distance to its target's tip that a player's six pieces can have (all six in
/// the target: 0 + 1 + 1 + 2 + 2 + 2).
const HOME_DISTANCE: i32 = 8;

/// Zobrist keys: 73 per colour, then one per player to move.
const KEYS: [u64; COLOURS * HOLES + COLOURS] =
    zobrist::keys::<{ COLOURS * HOLES + COLOURS }>(0xC4EC_4E25);

const fn info(p: usize) -> GameInfo {
    let notation = "holes are a row letter a-m from the top and a number from the left (a1 the \
                    top tip, d1-d10); a move is from-to, `c1-d4`; `pass` only when forced";
    match p {
        3 => GameInfo {
            name: "chinesecheckers",
            aliases: &["chinesecheckers-3p", "chinese-checkers"],
            board: "73-hole star",
            notation,
            start: "r/rr/rrr/10/9/8/7/g6y/gg5yy/ggg4yyy/3/2/1 r",
        },
        4 => GameInfo {
            name: "chinesecheckers-4p",
            aliases: &[],
            board: "73-hole star",
            notation,
            start: "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyy/3/2/1 r",
        },
        _ => panic!("Chinese Checkers is for 3 or 4 players"),
    }
}

/// A Chinese Checkers position for `P` players (3 or 4).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ChineseCheckers<const P: usize> {
    /// Each player's pieces, in turn order (entries from `P` on stay empty).
    pieces: [u128; COLOURS],
    /// The player to move (below `P`).
    mover: u8,
    /// Incremental Zobrist hash (derived).
    hash: u64,
}

impl<const P: usize> ChineseCheckers<P> {
    /// Each player's home triangle.
    const HOMES: [usize; COLOURS] = homes(P);

    /// The triangle player `p` races to fill.
    #[inline]
    fn target_region(p: usize) -> usize {
        (Self::HOMES[p] + 3) % 6
    }

    #[inline]
    fn target(p: usize) -> u128 {
        GEO.triangle[Self::target_region(p)]
    }

    fn occupied(&self) -> u128 {
        self.pieces.iter().fold(0, |a, &b| a | b)
    }

    /// The holes the piece on `from` can reach by one step or a chain of jumps over
    /// `others` (every piece but the moving one), before the rules on where a move may end.
    #[inline]
    fn reach(from: usize, others: u128) -> u128 {
        let mut steps = 0u128;
        for &n in &GEO.step[from] {
            if n != NONE && others >> n & 1 == 0 {
                steps |= 1 << n;
            }
        }
        let mut visited = 1u128 << from;
        let mut stack = [0u8; HOLES];
        stack[0] = from as u8;
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let h = stack[len] as usize;
            for d in 0..6 {
                let over = GEO.step[h][d];
                if over == NONE || others >> over & 1 == 0 {
                    continue;
                }
                let land = GEO.step[over as usize][d];
                if land == NONE || (others | visited) >> land & 1 != 0 {
                    continue;
                }
                visited |= 1 << land;
                stack[len] = land;
                len += 1;
            }
        }
        (steps | visited) & !(1u128 << from)
    }

    /// The legal destinations of the mover's piece on `from` (`occupied`: every piece).
    #[inline]
    fn destinations(&self, from: usize, occupied: u128) -> u128 {
        let me = self.mover as usize;
        let target = Self::target(me);
        let allowed = if target >> from & 1 != 0 {
            target
        } else {
            GEO.hexagon | GEO.triangle[Self::HOMES[me]] | target
        };
        Self::reach(from, occupied & !(1u128 << from)) & allowed
    }

    /// Whether the mover has a move other than the pass.
    fn can_move(&self) -> bool {
        let occupied = self.occupied();
        let mut own = self.pieces[self.mover as usize];
        while own != 0 {
            if self.destinations(own.trailing_zeros() as usize, occupied) != 0 {
                return true;
            }
            own &= own - 1;
        }
        false
    }

    /// The player whose target is full with at least one of its own pieces in it, if any (the
    /// first in turn order; a position read from text may have no more than one).
    fn finished(&self) -> Option<usize> {
        let occupied = self.occupied();
        (0..P).find(|&p| {
            let target = Self::target(p);
            occupied & target == target && self.pieces[p] & target != 0
        })
    }

    /// Steps `p`'s pieces still have to go: their total distance to the tip of `p`'s target,
    /// less the least such total (0 once all six fill the target).
    fn to_go(&self, p: usize) -> i32 {
        let tips = &GEO.to_tip[Self::target_region(p)];
        let mut b = self.pieces[p];
        let mut total = 0i32;
        while b != 0 {
            total += tips[b.trailing_zeros() as usize] as i32;
            b &= b - 1;
        }
        total - HOME_DISTANCE
    }

    /// Pieces of player `p` in its target.
    fn home(&self, p: usize) -> u32 {
        (self.pieces[p] & Self::target(p)).count_ones()
    }

    fn from_pieces(pieces: [u128; COLOURS], mover: u8) -> Self {
        let mut pos = ChineseCheckers {
            pieces,
            mover,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    fn encode(from: usize, to: usize) -> Move {
        Move((from << 7 | to) as u16)
    }

    fn decode(m: Move) -> (usize, usize) {
        ((m.0 >> 7) as usize, (m.0 & 0x7F) as usize)
    }

    fn hole_name(h: usize) -> String {
        let r = GEO.coords[h].0 as usize;
        let letter = (b'a' + r as u8) as char;
        format!("{letter}{}", h - row_start(r) + 1)
    }

    fn parse_hole(text: &str) -> Option<usize> {
        let bytes = text.as_bytes();
        let r = bytes.first()?.to_ascii_lowercase().wrapping_sub(b'a') as usize;
        let digits = text.get(1..)?;
        if r >= ROWS || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let i: usize = digits.parse().ok()?;
        (1..=ROW_LEN[r]).contains(&i).then(|| row_start(r) + i - 1)
    }

    fn colour_of(&self, h: usize) -> Option<usize> {
        self.pieces.iter().position(|&b| b >> h & 1 != 0)
    }

    fn parse_board(board: &str) -> Result<[u128; COLOURS], GameError> {
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != ROWS {
            return Err(GameError::position(
                "board",
                format!(
                    "expected {ROWS} rows separated by '/', found {}",
                    rows.len()
                ),
            ));
        }
        let players = &LETTERS[..P];
        let mut pieces = [0u128; COLOURS];
        for (r, row) in rows.iter().enumerate() {
            let len = ROW_LEN[r];
            let letter = (b'a' + r as u8) as char;
            let mut i = 0usize;
            let mut chars = row.chars().peekable();
            while let Some(ch) = chars.next() {
                if let Some(d) = ch.to_digit(10) {
                    if d == 0 {
                        return Err(GameError::position(
                            "board",
                            format!("row {letter}: a run of empty holes starts with 0"),
                        ));
                    }
                    let mut run = d as usize;
                    while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                        run = run * 10 + d as usize;
                        chars.next();
                        if run > len {
                            break;
                        }
                    }
                    i += run;
                } else if let Some(c) = players.iter().position(|&l| l == ch) {
                    if i < len {
                        pieces[c] |= 1u128 << (row_start(r) + i);
                    }
                    i += 1;
                } else {
                    return Err(GameError::position(
                        "board",
                        format!(
                            "unexpected character '{ch}' in row {letter} (use {}, or digits for \
                             empty holes)",
                            players.iter().collect::<String>()
                        ),
                    ));
                }
                if i > len {
                    return Err(GameError::position(
                        "board",
                        format!("row {letter} is longer than its {len} holes"),
                    ));
                }
            }
            if i != len {
                return Err(GameError::position(
                    "board",
                    format!("row {letter} has {i} holes, expected {len}"),
                ));
            }
        }
        for (p, &b) in pieces[..P].iter().enumerate() {
            if b.count_ones() != PIECES {
                return Err(GameError::position(
                    "board",
                    format!(
                        "{} has {} pieces, expected {PIECES}",
                        NAMES[p],
                        b.count_ones()
                    ),
                ));
            }
        }
        Ok(pieces)
    }
}

impl<const P: usize> crate::game::Features for ChineseCheckers<P> {}

impl<const P: usize> Game for ChineseCheckers<P> {
    const INFO: GameInfo = info(P);
    const NUM_PLAYERS: usize = P;
    /// 200 moves each with three players, 150 with four: far more than a race takes.
    const MAX_PLIES: u32 = 600;

    fn with_players<V: super::PlayersVisitor>(visitor: V) -> V::Output {
        visitor.visit::<Self, P>()
    }

    fn start() -> Self {
        let mut pieces = [0u128; COLOURS];
        for (p, b) in pieces.iter_mut().enumerate().take(P) {
            *b = GEO.triangle[Self::HOMES[p]];
        }
        Self::from_pieces(pieces, 0)
    }

    #[inline]
    fn to_move(&self) -> Player {
        Player(self.mover)
    }

    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.finished().is_some() {
            return;
        }
        let occupied = self.occupied();
        let mut own = self.pieces[self.mover as usize];
        while own != 0 {
            let from = own.trailing_zeros() as usize;
            let mut dests = self.destinations(from, occupied);
            while dests != 0 {
                out.push(Self::encode(from, dests.trailing_zeros() as usize));
                dests &= dests - 1;
            }
            own &= own - 1;
        }
        if out.is_empty() {
            out.push(PASS);
        }
    }

    fn count_moves(&self) -> usize {
        if self.finished().is_some() {
            return 0;
        }
        let occupied = self.occupied();
        let mut own = self.pieces[self.mover as usize];
        let mut count = 0;
        while own != 0 {
            count += self
                .destinations(own.trailing_zeros() as usize, occupied)
                .count_ones() as usize;
            own &= own - 1;
        }
        count.max(1)
    }

    fn play(&mut self, m: Move) {
        let me = self.mover as usize;
        if m != PASS {
            let (from, to) = Self::decode(m);
            debug_assert!(
                self.pieces[me] >> from & 1 != 0
                    && self.destinations(from, self.occupied()) >> to & 1 != 0,
                "illegal move {m:?}"
            );
            self.pieces[me] ^= 1u128 << from | 1u128 << to;
            self.hash ^= KEYS[me * HOLES + from] ^ KEYS[me * HOLES + to];
        }
        let next = (me + 1) % P;
        self.hash ^= KEYS[COLOURS * HOLES + me] ^ KEYS[COLOURS * HOLES + next];
        self.mover = next as u8;
    }

    fn outcome(&self) -> Option<Outcome> {
        self.finished().map(|p| Outcome::win(Player(p as u8), P))
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let mut h = KEYS[COLOURS * HOLES + self.mover as usize];
        for (colour, &pieces) in self.pieces.iter().enumerate() {
            let mut b = pieces;
            while b != 0 {
                h ^= KEYS[colour * HOLES + b.trailing_zeros() as usize];
                b &= b - 1;
            }
        }
        h
    }

    fn format_move(&self, m: Move) -> String {
        if m == PASS {
            return "pass".to_string();
        }
        let (from, to) = Self::decode(m);
        format!("{}-{}", Self::hole_name(from), Self::hole_name(to))
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        let t = text.trim();
        let over = || GameError::illegal(text, "the game is over");
        if t.eq_ignore_ascii_case("pass") || t == "0000" {
            if self.finished().is_some() {
                return Err(over());
            }
            if self.can_move() {
                return Err(GameError::illegal(
                    text,
                    "a player may pass only when it has no move",
                ));
            }
            return Ok(PASS);
        }
        let holes = t
            .split_once('-')
            .and_then(|(a, b)| Some((Self::parse_hole(a)?, Self::parse_hole(b)?)));
        let Some((from, to)) = holes else {
            return Err(GameError::syntax(
                text,
                "expected from-to with holes a1-m1 (row a-m from the top, then the hole's \
                 number from the left), e.g. c1-d4, or pass",
            ));
        };
        if self.finished().is_some() {
            return Err(over());
        }
        let me = self.mover as usize;
        if self.pieces[me] >> from & 1 == 0 {
            return Err(GameError::illegal(
                text,
                format!("no {} piece on {}", NAMES[me], Self::hole_name(from)),
            ));
        }
        if self.destinations(from, self.occupied()) >> to & 1 == 0 {
            return Err(GameError::illegal(
                text,
                format!(
                    "the piece on {} cannot end a move on {}",
                    Self::hole_name(from),
                    Self::hole_name(to)
                ),
            ));
        }
        Ok(Self::encode(from, to))
    }

    fn to_position(&self) -> String {
        let rows = (0..ROWS).map(|r| {
            (row_start(r)..row_start(r) + ROW_LEN[r])
                .map(|h| self.colour_of(h).map(|colour| LETTERS[colour]))
        });
        format!(
            "{} {}",
            fen::board_field(rows),
            LETTERS[self.mover as usize]
        )
    }

    fn parse_position(text: &str) -> Result<Self, GameError> {
        let mut fields = text.split_whitespace();
        let board = fields
            .next()
            .ok_or_else(|| GameError::position("board", "empty position"))?;
        let pieces = Self::parse_board(board)?;
        let players = &LETTERS[..P];
        let mover = fen::side_to_move(fields.next(), players)?;
        let pos = Self::from_pieces(pieces, mover as u8);
        let occupied = pos.occupied();
        let done: Vec<&str> = (0..P)
            .filter(|&p| {
                let target = Self::target(p);
                occupied & target == target && pieces[p] & target != 0
            })
            .map(|p| NAMES[p])
            .collect();
        if done.len() > 1 {
            return Err(GameError::position(
                "board",
                format!("more than one player has finished: {}", done.join(", ")),
            ));
        }
        Ok(pos)
    }

    fn diagram(&self) -> String {
        let mut out = String::new();
        for (r, &len) in ROW_LEN.iter().enumerate() {
            let mut line = vec![' '; 19];
            for h in row_start(r)..row_start(r) + len {
                let ch = self.colour_of(h).map_or('.', |c| LETTERS[c]);
                line[(GEO.coords[h].1 + 9) as usize] = ch;
            }
            let line: String = line.into_iter().collect();
            let _ = writeln!(out, "{} {}", (b'a' + r as u8) as char, line.trim_end());
        }
        for p in 0..P {
            let _ = writeln!(
                out,
                "{} ({}): {} -> {}, {} of {PIECES} home",
                NAMES[p],
                LETTERS[p],
                TRIANGLE_NAMES[Self::HOMES[p]],
                TRIANGLE_NAMES[Self::target_region(p)],
                self.home(p)
            );
        }
        let status = match self.outcome() {
            Some(o) => format!("game over: {o}"),
            None => format!("{} to move", NAMES[self.mover as usize]),
        };
        let _ = writeln!(out, "{status}");
        out
    }

    fn player_name(p: Player) -> &'static str {
        NAMES.get(p.index()).copied().unwrap_or("?")
    }

    /// Pieces each player has in its target triangle.
    fn player_scores(&self) -> Option<Vec<i32>> {
        Some((0..P).map(|p| self.home(p) as i32).collect())
    }

    const HAS_EVALUATION: bool = true;

    /// `player`'s lead in the race over the best other player: the steps that player still has
    /// to go (summed over its pieces, to the far tip of its target) less `player`'s own, scaled
    /// so that a lead of 12 steps gives tanh(1), about 0.76; 0 when level, as at the start.
    fn evaluate(&self, player: Player) -> f32 {
        let me = player.index();
        let mine = self.to_go(me);
        let best_other = (0..P)
            .filter(|&p| p != me)
            .map(|p| self.to_go(p))
            .min()
            .unwrap_or(mine);
        ((best_other - mine) as f32 / 12.0).tanh()
    }
}

/// Chinese Checkers for three players.
pub type ChineseCheckers3 = ChineseCheckers<3>;
/// Chinese Checkers for four players.
pub type ChineseCheckers4 = ChineseCheckers<4>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::perft::perft;
    use crate::rng::Rng;
    use std::collections::{HashMap, HashSet};

    /// An independent model of the game: the star built from scratch in cube coordinates
    /// (x + y + z = 0), a `Vec` board, `HashSet`s of named moves, the rules as the module
    /// documentation states them.
    type Cube = (i32, i32, i32);
    const CUBE_DIRECTIONS: [Cube; 6] = [
        (1, -1, 0),
        (-1, 1, 0),
        (1, 0, -1),
        (0, 1, -1),
        (0, -1, 1),
        (-1, 0, 1),
    ];

    struct Star {
        holes: Vec<Cube>,
        at: HashMap<Cube, usize>,
        names: Vec<String>,
    }

    /// The star is the union of two big triangles of side 10: every coordinate at least -3,
    /// or every coordinate at most 3. Rows are constant z (z = -6 at the top), x grows to the
    /// right.
    fn star() -> Star {
        let mut holes = Vec::new();
        let mut names = Vec::new();
        for z in -6..=6 {
            let mut in_row = 0;
            for x in -6..=6 {
                let y = -x - z;
                let low = x >= -3 && y >= -3 && z >= -3;
                let high = x <= 3 && y <= 3 && z <= 3;
                if low || high {
                    in_row += 1;
                    holes.push((x, y, z));
                    names.push(format!("{}{in_row}", (b'a' + (z + 6) as u8) as char));
                }
            }
        }
        let at = holes.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        Star { holes, at, names }
    }

    /// The triangle of a hole, clockwise from the top (0), or `None` in the hexagon.
    fn triangle((x, y, z): Cube) -> Option<usize> {
        if z < -3 {
            Some(0)
        } else if x > 3 {
            Some(1)
        } else if y < -3 {
            Some(2)
        } else if z > 3 {
            Some(3)
        } else if x < -3 {
            Some(4)
        } else if y > 3 {
            Some(5)
        } else {
            None
        }
    }

    #[derive(Clone)]
    struct Naive {
        homes: Vec<usize>,
        board: Vec<Option<usize>>,
        mover: usize,
    }

    impl Naive {
        fn start(star: &Star, players: usize) -> Naive {
            let homes = if players == 3 {
                vec![0, 2, 4]
            } else {
                vec![1, 2, 4, 5]
            };
            let board = star
                .holes
                .iter()
                .map(|&c| triangle(c).and_then(|t| homes.iter().position(|&h| h == t)))
                .collect();
            Naive {
                homes,
                board,
                mover: 0,
            }
        }

        fn target(&self, p: usize) -> usize {
            (self.homes[p] + 3) % 6
        }

        fn winner(&self, star: &Star) -> Option<usize> {
            (0..self.homes.len()).find(|&p| {
                let cells: Vec<Option<usize>> = (0..star.holes.len())
                    .filter(|&i| triangle(star.holes[i]) == Some(self.target(p)))
                    .map(|i| self.board[i])
                    .collect();
                cells.iter().all(Option::is_some) && cells.contains(&Some(p))
            })
        }

        fn moves(&self, star: &Star) -> HashSet<String> {
            let mut out = HashSet::new();
            if self.winner(star).is_some() {
                return out;
            }
            let me = self.mover;
            let empty = |board: &Vec<Option<usize>>, c: Cube| {
                star.at.get(&c).is_some_and(|&i| board[i].is_none())
            };
            let add = |a: Cube, b: Cube| (a.0 + b.0, a.1 + b.1, a.2 + b.2);
            for from in 0..star.holes.len() {
                if self.board[from] != Some(me) {
                    continue;
                }
                let origin = star.holes[from];
                let mut board = self.board.clone();
                board[from] = None;
                let mut ends: HashSet<Cube> = HashSet::new();
                for d in CUBE_DIRECTIONS {
                    if empty(&board, add(origin, d)) {
                        ends.insert(add(origin, d));
                    }
                }
                let mut seen: HashSet<Cube> = HashSet::from([origin]);
                let mut queue = vec![origin];
                while let Some(c) = queue.pop() {
                    for d in CUBE_DIRECTIONS {
                        let over = add(c, d);
                        let land = add(over, d);
                        let occupied = star.at.get(&over).is_some_and(|&i| board[i].is_some());
                        if occupied && empty(&board, land) && seen.insert(land) {
                            ends.insert(land);
                            queue.push(land);
                        }
                    }
                }
                ends.remove(&origin);
                let target = self.target(me);
                for end in ends {
                    let ok = if triangle(origin) == Some(target) {
                        triangle(end) == Some(target)
                    } else {
                        match triangle(end) {
                            None => true,
                            Some(t) => t == target || t == self.homes[me],
                        }
                    };
                    if ok {
                        out.insert(format!(
                            "{}-{}",
                            star.names[from], star.names[star.at[&end]]
                        ));
                    }
                }
            }
            if out.is_empty() {
                out.insert("pass".to_string());
            }
            out
        }

        fn play(&mut self, star: &Star, m: &str) {
            if let Some((a, b)) = m.split_once('-') {
                let from = star.names.iter().position(|n| n == a).unwrap();
                let to = star.names.iter().position(|n| n == b).unwrap();
                assert_eq!(self.board[from], Some(self.mover));
                assert_eq!(self.board[to], None);
                self.board[from] = None;
                self.board[to] = Some(self.mover);
            }
            self.mover = (self.mover + 1) % self.homes.len();
        }

        fn perft(&self, star: &Star, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            self.moves(star)
                .iter()
                .map(|m| {
                    let mut next = self.clone();
                    next.play(star, m);
                    next.perft(star, depth - 1)
                })
                .sum()
        }

        /// The board as text, row by row, to compare with the game's position string.
        fn rows(&self, star: &Star) -> Vec<String> {
            let mut rows: Vec<String> = vec![String::new(); 13];
            for (i, &(_, _, z)) in star.holes.iter().enumerate() {
                let ch = self.board[i].map_or('.', |p| ['r', 'y', 'g', 'b'][p]);
                rows[(z + 6) as usize].push(ch);
            }
            rows
        }
    }

    /// The game's rows with empty runs spelt out as dots.
    fn rows_of<const P: usize>(pos: &ChineseCheckers<P>) -> Vec<String> {
        let position = pos.to_position();
        let board = position.split_whitespace().next().unwrap();
        board
            .split('/')
            .map(|row| {
                let mut out = String::new();
                let mut run = 0;
                for ch in row.chars() {
                    match ch.to_digit(10) {
                        Some(d) => run = run * 10 + d as usize,
                        None => {
                            out.extend(std::iter::repeat('.').take(run));
                            run = 0;
                            out.push(ch);
                        }
                    }
                }
                out.extend(std::iter::repeat('.').take(run));
                out
            })
            .collect()
    }

    fn move_set<const P: usize>(pos: &ChineseCheckers<P>) -> HashSet<String> {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let set: HashSet<String> = list.iter().map(|&m| pos.format_move(m)).collect();
        assert_eq!(
            set.len(),
            list.len(),
            "duplicate moves in {}",
            pos.to_position()
        );
        set
    }

    fn same_perft<const P: usize>(depth: u32) -> Vec<u64> {
        let star = star();
        let start = ChineseCheckers::<P>::start();
        let naive = Naive::start(&star, P);
        assert_eq!(rows_of(&start), naive.rows(&star));
        (1..=depth)
            .map(|d| {
                let fast = perft(&start, d);
                assert_eq!(fast, naive.perft(&star, d), "{P} players, perft {d}");
                fast
            })
            .collect()
    }

    #[test]
    fn the_star_has_73_holes_in_seven_regions() {
        let star = star();
        assert_eq!(star.holes.len(), HOLES);
        assert_eq!(GEO.hexagon.count_ones(), 37);
        for t in 0..6 {
            assert_eq!(GEO.triangle[t].count_ones(), 6);
        }
        for (i, &c) in star.holes.iter().enumerate() {
            let game_region = GEO.region[i];
            assert_eq!(
                triangle(c).map_or(HEXAGON_REGION, |t| t as u8),
                game_region,
                "{}",
                star.names[i]
            );
            assert_eq!(ChineseCheckers::<3>::hole_name(i), star.names[i]);
            assert_eq!(ChineseCheckers::<3>::parse_hole(&star.names[i]), Some(i));
        }
    }

    #[test]
    fn perft_matches_an_independent_generator() {
        // tests/data/chinesecheckers.perft has these counts and deeper ones.
        assert_eq!(same_perft::<3>(5), [10, 100, 1000, 17200, 295930]);
        assert_eq!(same_perft::<4>(5), [10, 101, 1010, 10201, 175639]);
    }

    /// Plays games with both models side by side, mostly greedy (the move that brings the
    /// mover nearest its target) so that many games end by the rules: the same move sets, the
    /// same boards, the same winner, and a hash kept equal to the one computed from scratch.
    fn games<const P: usize>(games: u64) -> u64 {
        let star = star();
        let mut rng = Rng::new(0xCC + P as u64);
        let mut list = MoveList::new();
        let mut won = 0;
        for _ in 0..games {
            let mut pos = ChineseCheckers::<P>::start();
            let mut naive = Naive::start(&star, P);
            for _ in 0..ChineseCheckers::<P>::MAX_PLIES {
                let moves = move_set(&pos);
                assert_eq!(moves, naive.moves(&star), "{}", pos.to_position());
                assert_eq!(
                    pos.outcome().and_then(|o| o.winner()).map(Player::index),
                    naive.winner(&star),
                    "{}",
                    pos.to_position()
                );
                if pos.outcome().is_some() {
                    won += 1;
                    break;
                }
                pos.legal_moves(&mut list);
                let me = pos.mover as usize;
                let m = if rng.below(4) == 0 {
                    list[rng.below(list.len() as u32) as usize]
                } else {
                    let after = |m: Move| {
                        let mut next = pos.clone();
                        next.play(m);
                        next.to_go(me)
                    };
                    let best = list.iter().map(|&m| after(m)).min().unwrap();
                    let bests: Vec<Move> =
                        list.iter().copied().filter(|&m| after(m) == best).collect();
                    bests[rng.below(bests.len() as u32) as usize]
                };
                naive.play(&star, &pos.format_move(m));
                pos.play(m);
                assert_eq!(pos.hash(), pos.compute_hash());
                assert_eq!(rows_of(&pos), naive.rows(&star));
                assert_eq!(
                    ChineseCheckers::<P>::parse_position(&pos.to_position()).unwrap(),
                    pos
                );
            }
        }
        won
    }

    #[test]
    fn games_agree_with_the_independent_generator() {
        assert!(
            games::<3>(12) >= 6,
            "most greedy games should end by the rules"
        );
        assert!(
            games::<4>(12) >= 6,
            "most greedy games should end by the rules"
        );
    }

    fn moves_from<const P: usize>(pos: &ChineseCheckers<P>, from: &str) -> Vec<String> {
        let mut out: Vec<String> = move_set(pos)
            .into_iter()
            .filter_map(|m| m.strip_prefix(&format!("{from}-")).map(str::to_string))
            .collect();
        out.sort();
        out
    }

    #[test]
    fn the_start_and_the_first_moves_follow_the_rules() {
        let start = ChineseCheckers3::start();
        assert_eq!(start.to_position(), ChineseCheckers3::INFO.start);
        assert_eq!(
            ChineseCheckers4::start().to_position(),
            ChineseCheckers4::INFO.start
        );
        // Red (top): each of the front row's pieces steps to two holes of d4-d7, and each of
        // the middle row's jumps over the front row to two more.
        let mut names: Vec<String> = move_set(&start).into_iter().collect();
        names.sort();
        assert_eq!(
            names,
            [
                "b1-d4", "b1-d6", "b2-d5", "b2-d7", "c1-d4", "c1-d5", "c2-d5", "c2-d6", "c3-d6",
                "c3-d7"
            ]
        );
        assert_eq!(start.player_scores(), Some(vec![0, 0, 0]));
        let mut p = start.clone();
        p.play_text("b1-d6").unwrap();
        assert_eq!(
            p.to_position(),
            "r/1r/rrr/5r4/9/8/7/g6y/gg5yy/ggg4yyy/3/2/1 y"
        );
        assert_eq!(p.to_move(), Player(1));
        assert_eq!(ChineseCheckers3::player_name(Player(2)), "green");
        assert_eq!(ChineseCheckers4::player_name(Player(3)), "blue");
        assert!(p.diagram().contains("red (r): top -> bottom, 0 of 6 home"));
    }

    #[test]
    fn jumps_chain_and_may_stop_after_any_jump() {
        // Red on g4 jumps over yellow's h4 to i4, over i5 to i6, over h6 to g6; it may also stop
        // on i4 or i6, or step to any empty neighbour.
        let pos =
            ChineseCheckers3::parse_position("r/rr/rr1/10/9/8/3r3/g2y1y1y/gg2y2yy/ggg7/3/2/1 r")
                .unwrap();
        assert_eq!(
            moves_from(&pos, "g4"),
            ["f4", "f5", "g3", "g5", "g6", "h5", "i4", "i6"]
        );
        let mut p = pos.clone();
        p.play_text("g4-g6").unwrap();
        assert_eq!(
            p.to_position(),
            "r/rr/rr1/10/9/8/5r1/g2y1y1y/gg2y2yy/ggg7/3/2/1 y"
        );
        // One step or one chain per move: g4 cannot go on from i6 to i7 in the same move.
        assert!(pos.parse_move("g4-i7").is_err());
    }

    #[test]
    fn pieces_stay_in_their_target_and_out_of_other_triangles() {
        // Red's piece on k2 (its target, the bottom) moves only within the bottom triangle.
        let pos = ChineseCheckers3::parse_position("1/rr/rrr/10/9/8/7/g6y/gg5yy/ggg4yyy/1r1/2/1 r")
            .unwrap();
        assert_eq!(moves_from(&pos, "k2"), ["k1", "k3", "l1", "l2"]);
        assert_eq!(pos.player_scores(), Some(vec![1, 0, 0]));
        // Red on d4 may not stop in the upper-left triangle (d3), nobody's home or target of
        // red's.
        let pos = ChineseCheckers3::parse_position("r/rr/rr1/3r6/9/8/7/g6y/gg5yy/ggg4yyy/3/2/1 r")
            .unwrap();
        assert_eq!(moves_from(&pos, "d4"), ["d5", "e3", "e4"]);
        assert!(matches!(
            pos.parse_move("d4-d3"),
            Err(GameError::IllegalMove { .. })
        ));
    }

    #[test]
    fn a_full_target_wins_with_one_own_piece_in_it() {
        // Four players: red's target (lower left) is green's home, full of green at the start,
        // and that is no win for red.
        let start = ChineseCheckers4::start();
        assert_eq!(start.outcome(), None);
        // Green has left j3; red fills it from j4 and wins with one piece home.
        let pos = ChineseCheckers4::parse_position(
            "1/2/3/bbb5rr/bb5rr/b6r/3g3/g6y/gg5yy/gg1r3yyy/3/2/1 r",
        )
        .unwrap();
        assert_eq!(pos.outcome(), None);
        let mut buf = MoveList::new();
        let win = pos.winning_move(&mut buf).unwrap();
        assert_eq!(pos.format_move(win), "j4-j3");
        let mut p = pos.clone();
        p.play(win);
        let outcome = p.outcome().unwrap();
        assert_eq!(outcome.winner(), Some(Player(0)));
        assert_eq!([0, 1, 2, 3].map(|q| outcome.rank(Player(q))), [0, 1, 1, 1]);
        assert_eq!(p.player_scores(), Some(vec![1, 0, 0, 0]));
        p.legal_moves(&mut buf);
        assert!(buf.is_empty());
        assert!(p.parse_move("g4-g3").is_err());
        // A move by green into its own home that fills red's target also wins for red.
        let mut p = ChineseCheckers4::parse_position(
            "1/2/3/bbb5rr/bb5rr/b6r/7/1g5y/gg5yy/ggrg3yyy/3/2/1 g",
        )
        .unwrap();
        assert_eq!(p.outcome(), None);
        p.play_text("h2-h1").unwrap();
        assert_eq!(p.outcome().and_then(|o| o.winner()), Some(Player(0)));
    }

    #[test]
    fn a_player_without_a_move_passes() {
        // Red's home is walled in by two full rows: its only move is the pass.
        let pos = ChineseCheckers3::parse_position("r/rr/rrr/3yyyy3/2yyggg2/8/7/g7/gg7/10/3/2/1 r")
            .unwrap();
        let moves: Vec<String> = move_set(&pos).into_iter().collect();
        assert_eq!(moves, ["pass"]);
        assert_eq!(pos.count_moves(), 1);
        assert_eq!(pos.parse_move("0000"), Ok(PASS));
        let mut p = pos.clone();
        p.play_text("pass").unwrap();
        assert_eq!(p.to_move(), Player(1));
        assert_eq!(p.hash(), p.compute_hash());
        // Nobody passes while it has a move.
        assert!(ChineseCheckers3::start().parse_move("pass").is_err());
    }

    #[test]
    fn the_evaluation_favours_the_player_further_ahead() {
        for p in 0..3 {
            assert_eq!(ChineseCheckers3::start().evaluate(Player(p)), 0.0);
        }
        // Red has brought all six pieces to row h: 34 steps ahead of yellow and green.
        let pos = ChineseCheckers3::parse_position("1/2/3/10/9/8/7/grrrrrry/gg5yy/ggg4yyy/3/2/1 y")
            .unwrap();
        assert_eq!(pos.to_go(0), 22);
        assert_eq!(pos.to_go(1), 56);
        assert!(pos.evaluate(Player(0)) > 0.9);
        assert!(pos.evaluate(Player(1)) < -0.9);
        // Along random games the evaluation stays inside [-1, 1].
        let mut rng = Rng::new(7);
        let mut buf = MoveList::new();
        let mut p = ChineseCheckers4::start();
        for _ in 0..300 {
            for q in 0..4 {
                assert!((-1.0..=1.0).contains(&p.evaluate(Player(q))));
            }
            let Some(m) = p.random_move(&mut rng, &mut buf) else {
                break;
            };
            p.play(m);
        }
    }

    #[test]
    fn bad_positions_and_moves_are_refused() {
        let field = |text: &str| match ChineseCheckers4::parse_position(text) {
            Err(GameError::Position { field, .. }) => field,
            other => panic!("{text:?} gave {other:?}"),
        };
        for bad in [
            "",
            "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyy/3/2 r",
            "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyyy/3/2/1 r",
            "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg3yyy/3/2/1 r",
            "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyx/3/2/1 r",
            "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg04yyy/3/2/1 r",
            "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyy/3/2/r r",
            "1/2/3/bbb5rr/bb5rr/y6r/3gb2/g6y/gg5yy/ggr4yy1/3/2/1 r",
            "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyy/3/2/1/1 r",
            "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyy/3/2/1/ r",
            "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyy/3/2/99999999999999999999 r",
        ] {
            assert_eq!(field(bad), "board", "{bad:?}");
        }
        for bad in [
            "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyy/3/2/1",
            "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyy/3/2/1 x",
            "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyy/3/2/1 ry",
        ] {
            assert_eq!(field(bad), "side to move", "{bad:?}");
        }
        // Blue does not play in the three-player game.
        assert!(ChineseCheckers3::parse_position(
            "1/2/3/bbb4rrr/bb5rr/b6r/7/g6y/gg5yy/ggg4yyy/3/2/1 r"
        )
        .is_err());
        assert!(
            ChineseCheckers3::parse_position("r/rr/rrr/10/9/8/7/g6y/gg5yy/ggg4yyy/3/2/1 b")
                .is_err()
        );
        let start = ChineseCheckers3::start();
        for bad in [
            "", "c1", "c1d4", "c1-", "-d4", "c4-d4", "n1-d4", "c0-d4", "c1-d11", "c1-d+4",
        ] {
            assert!(
                matches!(start.parse_move(bad), Err(GameError::MoveSyntax { .. })),
                "{bad:?}"
            );
        }
        for bad in ["c1-d9", "d4-e4", "c1-c1", "a1-b1", "pass", "0000", "h1-h2"] {
            assert!(
                matches!(start.parse_move(bad), Err(GameError::IllegalMove { .. })),
                "{bad:?}"
            );
        }
        assert_eq!(
            start.parse_move(" C1-D4 ").map(|m| start.format_move(m)),
            Ok("c1-d4".into())
        );
    }
}
