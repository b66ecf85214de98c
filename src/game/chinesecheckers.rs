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

use super::{
    fen, zobrist, Dialects, GameError, GameInfo, Heuristics, Move, MoveList, Outcome, Player,
    Rules, Territory,
};

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

impl<const P: usize> Rules for ChineseCheckers<P> {
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

    fn territory(&self) -> Option<&dyn Territory> {
        Some(self)
    }

    fn territory_mut(&mut self) -> Option<&mut dyn Territory> {
        Some(self)
    }
}

impl<const P: usize> Heuristics for ChineseCheckers<P> {
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

impl<const P: usize> Dialects for ChineseCheckers<P> {}

impl<const P: usize> Territory for ChineseCheckers<P> {
    /// Pieces each player has in its target triangle.
    fn player_scores(&self) -> Option<Vec<i32>> {
        Some((0..P).map(|p| self.home(p) as i32).collect())
    }
}

/// Chinese Checkers for three players.
pub type ChineseCheckers3 = ChineseCheckers<3>;
/// Chinese Checkers for four players.
pub type ChineseCheckers4 = ChineseCheckers<4>;

#[cfg(test)]
mod tests;
