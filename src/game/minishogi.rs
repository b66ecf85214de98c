//! Minishogi (5x5 shogi with drops) as played by Fairy-Stockfish and cutechess, on 25-bit bitboards.
//!
//! Squares are numbered `rank * 5 + file`, rank 0 being rank 1 (sente's home row) and file 0 file
//! `a`. Sente is player 0 (`w`, uppercase) and moves towards rank 5; gote is player 1 (`b`).
//!
//! Move generation is fully legal: it finds checkers and pinned pieces first, so that no move has
//! to be played to test it; a checking pawn drop is tested for mate (uchifuzume) from attack
//! tables too. Perft's last ply only counts moves (`count_moves`), with popcounts.

use std::fmt::Write as _;

use super::record::Repetition;
use super::{find_legal, zobrist, Game, GameError, GameInfo, Move, MoveList, Outcome, Player};

// ---------------------------------------------------------------------------------------------
// Pieces

/// Piece kinds. The four promotable kinds come first so that promotion adds `PROMOTED`, and the
/// five kinds that can be in hand are `0..HAND_KINDS`.
const PAWN: usize = 0;
const SILVER: usize = 1;
const BISHOP: usize = 2;
const ROOK: usize = 3;
const GOLD: usize = 4;
const KING: usize = 5;
const TOKIN: usize = 6;
const PSILVER: usize = 7;
const HORSE: usize = 8;
const DRAGON: usize = 9;
const KINDS: usize = 10;
const PROMOTED: usize = 6;
const HAND_KINDS: usize = 5;

/// Uppercase letters of the kinds (promoted kinds print as `+` and their base letter).
const LETTERS: [u8; 6] = *b"PSBRGK";

/// Hand kinds in the order positions print them (Fairy-Stockfish 11.1 prints hands this way).
const HAND_ORDER: [usize; HAND_KINDS] = [GOLD, PAWN, SILVER, ROOK, BISHOP];

/// How many pieces of each base kind the game has in all (both sides, board and hands).
const SET_SIZE: u8 = 2;

#[inline]
const fn unpromoted(kind: usize) -> usize {
    if kind >= PROMOTED {
        kind - PROMOTED
    } else {
        kind
    }
}

/// Board cells: 0 is empty, otherwise `1 + kind + 16 * color`.
const EMPTY: u8 = 0;

#[inline]
const fn cell(color: usize, kind: usize) -> u8 {
    (1 + kind + 16 * color) as u8
}

#[inline]
const fn cell_kind(c: u8) -> usize {
    ((c & 15) - 1) as usize
}

#[inline]
const fn cell_color(c: u8) -> usize {
    (c >> 4) as usize
}

// ---------------------------------------------------------------------------------------------
// Board geometry and attack tables, built at compile time

const SQUARES: usize = 25;
const FULL: u32 = (1 << SQUARES) - 1;
const RANK_1: u32 = 0x1F;
const RANK_5: u32 = 0x1F << 20;
const FILE_A: u32 = 0x0010_8421;
/// The promotion zone (the last rank) of each color.
const ZONE: [u32; 2] = [RANK_5, RANK_1];
/// Gathers the five bits of file `a` (ranks 0..4 at bits 0, 5, .., 20) into bits 20..24.
const FILE_GATHER: u32 = (1 << 20) | (1 << 16) | (1 << 12) | (1 << 8) | (1 << 4);
/// Gathers bits in five distinct files (a diagonal) into bits 20..24, indexed by file.
const DIAG_GATHER: u32 = FILE_A;

#[inline]
const fn bit(sq: usize) -> u32 {
    1 << sq
}

/// The square at rank `r`, file `f`, if it is on the board.
const fn square_at(r: i32, f: i32) -> Option<usize> {
    if r >= 0 && r < 5 && f >= 0 && f < 5 {
        Some((r * 5 + f) as usize)
    } else {
        None
    }
}

/// Steps as (rank, file) deltas for sente; gote's are the same with the rank delta negated.
const PAWN_STEPS: &[(i32, i32)] = &[(1, 0)];
const SILVER_STEPS: &[(i32, i32)] = &[(1, -1), (1, 0), (1, 1), (-1, -1), (-1, 1)];
const GOLD_STEPS: &[(i32, i32)] = &[(1, -1), (1, 0), (1, 1), (0, -1), (0, 1), (-1, 0)];
const KING_STEPS: &[(i32, i32)] = &[
    (1, -1),
    (1, 0),
    (1, 1),
    (0, -1),
    (0, 1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// Squares reached by one step from every square, for each color.
const fn step_table(steps: &[(i32, i32)]) -> [[u32; SQUARES]; 2] {
    let mut out = [[0u32; SQUARES]; 2];
    let mut color = 0;
    while color < 2 {
        let sign = if color == 0 { 1 } else { -1 };
        let mut sq = 0;
        while sq < SQUARES {
            let (r, f) = ((sq / 5) as i32, (sq % 5) as i32);
            let mut i = 0;
            while i < steps.len() {
                if let Some(to) = square_at(r + sign * steps[i].0, f + steps[i].1) {
                    out[color][sq] |= bit(to);
                }
                i += 1;
            }
            sq += 1;
        }
        color += 1;
    }
    out
}

const PAWN_ATTACKS: [[u32; SQUARES]; 2] = step_table(PAWN_STEPS);
const SILVER_ATTACKS: [[u32; SQUARES]; 2] = step_table(SILVER_STEPS);
const GOLD_ATTACKS: [[u32; SQUARES]; 2] = step_table(GOLD_STEPS);
const KING_ATTACKS: [u32; SQUARES] = step_table(KING_STEPS)[0];

/// The four lines a slider moves along: rank, file, diagonal (a1-e5 way), anti-diagonal.
const LINE_DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// Which bit of a line's 5-bit occupancy index stands for the square at (r, f): the rank on a
/// file, the file on every other line (the files along a rank or a diagonal are distinct).
const fn line_index_bit(line: usize, r: i32, f: i32) -> u32 {
    if line == 1 {
        1 << r
    } else {
        1 << f
    }
}

/// Attacks along one line from every square for every 5-bit occupancy index of that line.
const fn line_attack_table(line: usize) -> [[u32; 32]; SQUARES] {
    let mut out = [[0u32; 32]; SQUARES];
    let (dr, df) = LINE_DIRS[line];
    let mut sq = 0;
    while sq < SQUARES {
        let (r0, f0) = ((sq / 5) as i32, (sq % 5) as i32);
        let mut idx = 0;
        while idx < 32 {
            let mut attacks = 0u32;
            let mut sign = -1;
            while sign <= 1 {
                let (mut r, mut f) = (r0 + sign * dr, f0 + sign * df);
                while let Some(to) = square_at(r, f) {
                    attacks |= bit(to);
                    if idx as u32 & line_index_bit(line, r, f) != 0 {
                        break;
                    }
                    r += sign * dr;
                    f += sign * df;
                }
                sign += 2;
            }
            out[sq][idx] = attacks;
            idx += 1;
        }
        sq += 1;
    }
    out
}

/// Every square of the (anti-)diagonal through each square, the square itself included.
const fn diagonal_masks(line: usize) -> [u32; SQUARES] {
    let mut out = [0u32; SQUARES];
    let (dr, df) = LINE_DIRS[line];
    let mut sq = 0;
    while sq < SQUARES {
        let (r0, f0) = ((sq / 5) as i32, (sq % 5) as i32);
        let mut k = -4;
        while k <= 4 {
            if let Some(s) = square_at(r0 + k * dr, f0 + k * df) {
                out[sq] |= bit(s);
            }
            k += 1;
        }
        sq += 1;
    }
    out
}

static RANK_ATTACKS: [[u32; 32]; SQUARES] = line_attack_table(0);
static FILE_ATTACKS: [[u32; 32]; SQUARES] = line_attack_table(1);
static DIAG_ATTACKS: [[u32; 32]; SQUARES] = line_attack_table(2);
static ANTI_ATTACKS: [[u32; 32]; SQUARES] = line_attack_table(3);
const DIAG_MASKS: [u32; SQUARES] = diagonal_masks(2);
const ANTI_MASKS: [u32; SQUARES] = diagonal_masks(3);
const ROOK_EMPTY: [u32; SQUARES] = empty_board_attacks(0, 1);
const BISHOP_EMPTY: [u32; SQUARES] = empty_board_attacks(2, 3);

const fn empty_board_attacks(a: usize, b: usize) -> [u32; SQUARES] {
    let ta = line_attack_table(a);
    let tb = line_attack_table(b);
    let mut out = [0u32; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        out[sq] = ta[sq][0] | tb[sq][0];
        sq += 1;
    }
    out
}

#[inline]
fn rook_attacks(sq: usize, occ: u32) -> u32 {
    let (rank, file) = (sq / 5, sq % 5);
    let rank_idx = (occ >> (5 * rank)) & 31;
    let file_idx = (((occ >> file) & FILE_A).wrapping_mul(FILE_GATHER) >> 20) & 31;
    RANK_ATTACKS[sq][rank_idx as usize] | FILE_ATTACKS[sq][file_idx as usize]
}

#[inline]
fn bishop_attacks(sq: usize, occ: u32) -> u32 {
    let diag_idx = ((occ & DIAG_MASKS[sq]).wrapping_mul(DIAG_GATHER) >> 20) & 31;
    let anti_idx = ((occ & ANTI_MASKS[sq]).wrapping_mul(DIAG_GATHER) >> 20) & 31;
    DIAG_ATTACKS[sq][diag_idx as usize] | ANTI_ATTACKS[sq][anti_idx as usize]
}

/// `BETWEEN[a][b]`: the squares strictly between two aligned squares; `LINE[a][b]`: the whole
/// line through them (both empty when they are not aligned).
const fn between_and_line() -> ([[u32; SQUARES]; SQUARES], [[u32; SQUARES]; SQUARES]) {
    let mut between = [[0u32; SQUARES]; SQUARES];
    let mut line = [[0u32; SQUARES]; SQUARES];
    let mut a = 0;
    while a < SQUARES {
        let (r0, f0) = ((a / 5) as i32, (a % 5) as i32);
        let mut d = 0;
        while d < 8 {
            let (dr, df) = KING_STEPS[d];
            // The whole line through `a` in this direction, both ways.
            let mut full = bit(a);
            let mut k = 1;
            while k < 5 {
                if let Some(s) = square_at(r0 + k * dr, f0 + k * df) {
                    full |= bit(s);
                }
                if let Some(s) = square_at(r0 - k * dr, f0 - k * df) {
                    full |= bit(s);
                }
                k += 1;
            }
            let mut gap = 0u32;
            let (mut r, mut f) = (r0 + dr, f0 + df);
            while let Some(b) = square_at(r, f) {
                between[a][b] = gap;
                line[a][b] = full;
                gap |= bit(b);
                r += dr;
                f += df;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static BETWEEN_LINE: ([[u32; SQUARES]; SQUARES], [[u32; SQUARES]; SQUARES]) = between_and_line();

#[inline]
fn between(a: usize, b: usize) -> u32 {
    BETWEEN_LINE.0[a][b]
}

#[inline]
fn line_through(a: usize, b: usize) -> u32 {
    BETWEEN_LINE.1[a][b]
}

// ---------------------------------------------------------------------------------------------
// Zobrist keys

/// Keys: piece-square `(color * KINDS + kind) * 25 + sq`, then hand `(color * 5 + kind) * 2 + i`
/// for the (i+1)-th piece of a kind in hand, then the side to move.
const PIECE_KEYS: usize = 2 * KINDS * SQUARES;
const HAND_KEYS: usize = 2 * HAND_KINDS * SET_SIZE as usize;
const KEYS: [u64; PIECE_KEYS + HAND_KEYS + 1] =
    zobrist::keys::<{ PIECE_KEYS + HAND_KEYS + 1 }>(0x6D69_6E69_7368_6F67);
const SIDE_KEY: u64 = KEYS[PIECE_KEYS + HAND_KEYS];

#[inline]
fn piece_key(color: usize, kind: usize, sq: usize) -> u64 {
    KEYS[(color * KINDS + kind) * SQUARES + sq]
}

/// The key toggled when the `count`-th piece (1-based) of a kind enters or leaves a hand.
#[inline]
fn hand_key(color: usize, kind: usize, count: u8) -> u64 {
    KEYS[PIECE_KEYS + (color * HAND_KINDS + kind) * SET_SIZE as usize + count as usize - 1]
}

// ---------------------------------------------------------------------------------------------
// Moves: bits 0-4 destination, 5-9 origin (the hand kind for drops), 10 promotion, 11 drop.

const PROMOTE_FLAG: u16 = 1 << 10;
const DROP_FLAG: u16 = 1 << 11;

#[inline]
fn board_move(from: usize, to: usize, promote: bool) -> Move {
    Move(to as u16 | (from as u16) << 5 | if promote { PROMOTE_FLAG } else { 0 })
}

#[inline]
fn drop_move(kind: usize, to: usize) -> Move {
    Move(to as u16 | (kind as u16) << 5 | DROP_FLAG)
}

#[inline]
fn move_to(m: Move) -> usize {
    (m.0 & 31) as usize
}

#[inline]
fn move_from(m: Move) -> usize {
    ((m.0 >> 5) & 31) as usize
}

/// How a piece may promote when it moves.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Promotion {
    /// Gold, king and promoted pieces.
    Never,
    /// A pawn reaching the last rank must promote.
    Forced,
    /// Silver, bishop and rook moving into, within or out of the zone choose.
    Optional,
}

/// Receives the legal moves from the generator: a list or a counter.
trait MoveSink {
    fn king_move(&mut self, from: usize, to: usize);
    fn piece_moves(&mut self, from: usize, targets: u32, promotion: Promotion, zone: u32);
    fn drops(&mut self, kind: usize, targets: u32);
}

impl MoveSink for MoveList {
    #[inline]
    fn king_move(&mut self, from: usize, to: usize) {
        self.push(board_move(from, to, false));
    }

    #[inline]
    fn piece_moves(&mut self, from: usize, mut targets: u32, promotion: Promotion, zone: u32) {
        let from_zone = zone & bit(from) != 0;
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            let into_zone = zone & bit(to) != 0;
            match promotion {
                Promotion::Never => self.push(board_move(from, to, false)),
                Promotion::Forced => self.push(board_move(from, to, into_zone)),
                Promotion::Optional => {
                    self.push(board_move(from, to, false));
                    if from_zone || into_zone {
                        self.push(board_move(from, to, true));
                    }
                }
            }
        }
    }

    #[inline]
    fn drops(&mut self, kind: usize, mut targets: u32) {
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            self.push(drop_move(kind, to));
        }
    }
}

/// Counts moves with popcounts instead of listing them.
struct Counter(u32);

impl MoveSink for Counter {
    #[inline]
    fn king_move(&mut self, _from: usize, _to: usize) {
        self.0 += 1;
    }

    #[inline]
    fn piece_moves(&mut self, from: usize, targets: u32, promotion: Promotion, zone: u32) {
        self.0 += targets.count_ones();
        if promotion == Promotion::Optional {
            let promoting = if zone & bit(from) != 0 {
                targets
            } else {
                targets & zone
            };
            self.0 += promoting.count_ones();
        }
    }

    #[inline]
    fn drops(&mut self, _kind: usize, targets: u32) {
        self.0 += targets.count_ones();
    }
}

// ---------------------------------------------------------------------------------------------
// The position

/// A Minishogi position: board, hands and side to move, with bitboards and the Zobrist hash
/// kept in step with the board (all derived from the position, so `==` means the same position).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Minishogi {
    board: [u8; SQUARES],
    by_color: [u32; 2],
    by_kind: [u32; KINDS],
    hand: [[u8; HAND_KINDS]; 2],
    side: u8,
    hash: u64,
}

impl Minishogi {
    fn empty() -> Minishogi {
        Minishogi {
            board: [EMPTY; SQUARES],
            by_color: [0; 2],
            by_kind: [0; KINDS],
            hand: [[0; HAND_KINDS]; 2],
            side: 0,
            hash: 0,
        }
    }

    #[inline]
    fn put(&mut self, color: usize, kind: usize, sq: usize) {
        self.board[sq] = cell(color, kind);
        self.by_color[color] |= bit(sq);
        self.by_kind[kind] |= bit(sq);
        self.hash ^= piece_key(color, kind, sq);
    }

    #[inline]
    fn remove(&mut self, color: usize, kind: usize, sq: usize) {
        self.board[sq] = EMPTY;
        self.by_color[color] &= !bit(sq);
        self.by_kind[kind] &= !bit(sq);
        self.hash ^= piece_key(color, kind, sq);
    }

    #[inline]
    fn add_to_hand(&mut self, color: usize, kind: usize) {
        self.hand[color][kind] += 1;
        self.hash ^= hand_key(color, kind, self.hand[color][kind]);
    }

    #[inline]
    fn take_from_hand(&mut self, color: usize, kind: usize) {
        self.hash ^= hand_key(color, kind, self.hand[color][kind]);
        self.hand[color][kind] -= 1;
    }

    #[inline]
    fn occupied(&self) -> u32 {
        self.by_color[0] | self.by_color[1]
    }

    #[inline]
    fn king_square(&self, color: usize) -> usize {
        (self.by_kind[KING] & self.by_color[color]).trailing_zeros() as usize
    }

    /// Pieces of `by` that attack `sq` when the board's occupancy is `occ`.
    #[inline]
    fn attackers_to(&self, sq: usize, by: usize, occ: u32) -> u32 {
        let k = &self.by_kind;
        // A stepper of `by` attacks `sq` from where the same stepper of the other color would
        // step to from `sq`.
        let other = by ^ 1;
        let golds = k[GOLD] | k[TOKIN] | k[PSILVER];
        let kings = k[KING] | k[HORSE] | k[DRAGON];
        let steppers = (PAWN_ATTACKS[other][sq] & k[PAWN])
            | (SILVER_ATTACKS[other][sq] & k[SILVER])
            | (GOLD_ATTACKS[other][sq] & golds)
            | (KING_ATTACKS[sq] & kings);
        let sliders = (bishop_attacks(sq, occ) & (k[BISHOP] | k[HORSE]))
            | (rook_attacks(sq, occ) & (k[ROOK] | k[DRAGON]));
        (steppers | sliders) & self.by_color[by]
    }

    /// Pieces of the side to move that the opponent's sliders pin to its king on `ksq`.
    #[inline]
    fn pinned(&self, ksq: usize, us: usize, occ: u32) -> u32 {
        let k = &self.by_kind;
        let mut snipers = ((ROOK_EMPTY[ksq] & (k[ROOK] | k[DRAGON]))
            | (BISHOP_EMPTY[ksq] & (k[BISHOP] | k[HORSE])))
            & self.by_color[us ^ 1];
        let mut pinned = 0;
        while snipers != 0 {
            let s = snipers.trailing_zeros() as usize;
            snipers &= snipers - 1;
            let blockers = between(ksq, s) & occ;
            if blockers.count_ones() == 1 {
                pinned |= blockers & self.by_color[us];
            }
        }
        pinned
    }

    /// Squares a piece of `kind` and `color` on `sq` attacks.
    #[inline]
    fn attacks(kind: usize, color: usize, sq: usize, occ: u32) -> u32 {
        match kind {
            PAWN => PAWN_ATTACKS[color][sq],
            SILVER => SILVER_ATTACKS[color][sq],
            GOLD | TOKIN | PSILVER => GOLD_ATTACKS[color][sq],
            BISHOP => bishop_attacks(sq, occ),
            ROOK => rook_attacks(sq, occ),
            HORSE => bishop_attacks(sq, occ) | KING_ATTACKS[sq],
            DRAGON => rook_attacks(sq, occ) | KING_ATTACKS[sq],
            _ => KING_ATTACKS[sq],
        }
    }

    /// Feeds every legal move of the side to move to `sink`.
    #[inline]
    fn generate<S: MoveSink>(&self, sink: &mut S) {
        let us = self.side as usize;
        let them = us ^ 1;
        let ours = self.by_color[us];
        let occ = self.occupied();
        let ksq = self.king_square(us);
        let checkers = self.attackers_to(ksq, them, occ);

        // The king may not step onto an attacked square; its own square stops blocking sliders.
        let occ_without_king = occ ^ bit(ksq);
        let mut king_targets = KING_ATTACKS[ksq] & !ours;
        while king_targets != 0 {
            let to = king_targets.trailing_zeros() as usize;
            king_targets &= king_targets - 1;
            if self.attackers_to(to, them, occ_without_king) == 0 {
                sink.king_move(ksq, to);
            }
        }
        if checkers.count_ones() > 1 {
            return;
        }

        // Other pieces must capture a lone checker or block it; drops may only block.
        let (targets, drop_targets) = if checkers != 0 {
            let block = between(ksq, checkers.trailing_zeros() as usize);
            (block | checkers, block)
        } else {
            (!ours & FULL, !occ & FULL)
        };
        let pinned = self.pinned(ksq, us, occ);
        let zone = ZONE[us];
        for kind in [
            PAWN, SILVER, BISHOP, ROOK, GOLD, TOKIN, PSILVER, HORSE, DRAGON,
        ] {
            let promotion = match kind {
                PAWN => Promotion::Forced,
                SILVER | BISHOP | ROOK => Promotion::Optional,
                _ => Promotion::Never,
            };
            let mut pieces = self.by_kind[kind] & ours;
            while pieces != 0 {
                let from = pieces.trailing_zeros() as usize;
                pieces &= pieces - 1;
                let mut to = Self::attacks(kind, us, from, occ) & targets;
                if pinned & bit(from) != 0 {
                    to &= line_through(ksq, from);
                }
                if to != 0 {
                    sink.piece_moves(from, to, promotion, zone);
                }
            }
        }

        if drop_targets != 0 {
            self.generate_drops(sink, drop_targets);
        }
    }

    #[inline]
    fn generate_drops<S: MoveSink>(&self, sink: &mut S, drop_targets: u32) {
        let us = self.side as usize;
        let hand = &self.hand[us];
        for kind in [SILVER, BISHOP, ROOK, GOLD] {
            if hand[kind] != 0 {
                sink.drops(kind, drop_targets);
            }
        }
        if hand[PAWN] != 0 {
            let pawn_targets = self.pawn_drop_targets(drop_targets);
            if pawn_targets != 0 {
                sink.drops(PAWN, pawn_targets);
            }
        }
    }

    /// Where a pawn may be dropped: not on the last rank, not on a file holding one of our
    /// unpromoted pawns (nifu), and not where it would checkmate (uchifuzume).
    #[inline]
    fn pawn_drop_targets(&self, drop_targets: u32) -> u32 {
        let us = self.side as usize;
        let mut pawn_files = 0;
        let mut pawns = self.by_kind[PAWN] & self.by_color[us];
        while pawns != 0 {
            let sq = pawns.trailing_zeros() as usize;
            pawns &= pawns - 1;
            pawn_files |= FILE_A << (sq % 5);
        }
        let mut targets = drop_targets & !ZONE[us] & !pawn_files;
        // The one square where a dropped pawn checks: in front of the enemy king.
        let checking = PAWN_ATTACKS[us ^ 1][self.king_square(us ^ 1)] & targets;
        if checking != 0 && self.pawn_drop_mates(checking.trailing_zeros() as usize) {
            targets &= !checking;
        }
        targets
    }

    /// Whether a pawn dropped on `sq`, right in front of the enemy king, mates. The check is a
    /// contact check by the only checker (the enemy king was not in check with us to move), so
    /// the only answers are a king move or a capture of the pawn; drops cannot block it.
    #[inline]
    fn pawn_drop_mates(&self, sq: usize) -> bool {
        let mates = self.pawn_drop_mates_by_attacks(sq);
        debug_assert_eq!(mates, {
            let mut after = self.clone();
            after.play(drop_move(PAWN, sq));
            !after.has_legal_move()
        });
        mates
    }

    fn pawn_drop_mates_by_attacks(&self, sq: usize) -> bool {
        let us = self.side as usize;
        let them = us ^ 1;
        let eksq = self.king_square(them);
        let occ = self.occupied() | bit(sq);
        // King steps (capturing the pawn included) onto squares we do not attack; the king's
        // own square stops blocking our sliders. The pawn attacks only the king's square.
        let occ_without_king = occ ^ bit(eksq);
        let mut escapes = KING_ATTACKS[eksq] & !self.by_color[them];
        while escapes != 0 {
            let to = escapes.trailing_zeros() as usize;
            escapes &= escapes - 1;
            if self.attackers_to(to, us, occ_without_king) == 0 {
                return false;
            }
        }
        // Another piece captures the pawn, unless that exposes the king to one of our sliders.
        let k = &self.by_kind;
        let our_rooks = (k[ROOK] | k[DRAGON]) & self.by_color[us];
        let our_bishops = (k[BISHOP] | k[HORSE]) & self.by_color[us];
        let mut capturers = self.attackers_to(sq, them, occ) & !bit(eksq);
        while capturers != 0 {
            let from = capturers.trailing_zeros() as usize;
            capturers &= capturers - 1;
            let occ_after = occ ^ bit(from);
            let exposed = (rook_attacks(eksq, occ_after) & our_rooks)
                | (bishop_attacks(eksq, occ_after) & our_bishops);
            if exposed == 0 {
                return false;
            }
        }
        true
    }

    /// Whether the side to move has any legal move (cheap shortcuts before a full count).
    #[inline]
    fn has_legal_move(&self) -> bool {
        let us = self.side as usize;
        let hand = &self.hand[us];
        let ours = self.by_color[us];
        let occ = self.occupied();
        let ksq = self.king_square(us);
        if self.attackers_to(ksq, us ^ 1, occ) == 0 {
            // Out of check, any drop other than a pawn's is legal.
            let has_piece_drop = hand[SILVER] | hand[BISHOP] | hand[ROOK] | hand[GOLD] != 0;
            if has_piece_drop && occ != FULL {
                return true;
            }
            // A piece on no line through our king cannot be pinned: any step of it is legal.
            let mut unpinnable = ours & !(ROOK_EMPTY[ksq] | BISHOP_EMPTY[ksq] | bit(ksq));
            while unpinnable != 0 {
                let from = unpinnable.trailing_zeros() as usize;
                unpinnable &= unpinnable - 1;
                let kind = cell_kind(self.board[from]);
                if Self::attacks(kind, us, from, occ) & !ours != 0 {
                    return true;
                }
            }
        }
        let mut counter = Counter(0);
        self.generate(&mut counter);
        counter.0 != 0
    }

    fn letter_of(kind: usize, color: usize) -> String {
        let base = LETTERS[unpromoted(kind)];
        let letter = if color == 0 {
            base
        } else {
            base.to_ascii_lowercase()
        } as char;
        if kind >= PROMOTED {
            format!("+{letter}")
        } else {
            letter.to_string()
        }
    }

    fn board_string(&self) -> String {
        let mut s = String::new();
        for rank in (0..5).rev() {
            let mut empties = 0;
            for file in 0..5 {
                let c = self.board[rank * 5 + file];
                if c == EMPTY {
                    empties += 1;
                    continue;
                }
                if empties > 0 {
                    let _ = write!(s, "{empties}");
                    empties = 0;
                }
                s.push_str(&Self::letter_of(cell_kind(c), cell_color(c)));
            }
            if empties > 0 {
                let _ = write!(s, "{empties}");
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s
    }

    fn hand_string(&self) -> String {
        let mut s = String::new();
        for color in 0..2 {
            for kind in HAND_ORDER {
                for _ in 0..self.hand[color][kind] {
                    s.push_str(&Self::letter_of(kind, color));
                }
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }
}

fn square_name(sq: usize) -> String {
    format!("{}{}", (b'a' + (sq % 5) as u8) as char, sq / 5 + 1)
}

fn parse_square(text: &[u8]) -> Option<usize> {
    match text {
        [f @ b'a'..=b'e', r @ b'1'..=b'5'] => Some((r - b'1') as usize * 5 + (f - b'a') as usize),
        _ => None,
    }
}

fn hand_kind_of_letter(c: u8) -> Option<usize> {
    match c.to_ascii_uppercase() {
        b'P' => Some(PAWN),
        b'S' => Some(SILVER),
        b'B' => Some(BISHOP),
        b'R' => Some(ROOK),
        b'G' => Some(GOLD),
        _ => None,
    }
}

/// Parses the board field (rows top first) into `pos`.
fn parse_board(pos: &mut Minishogi, text: &str) -> Result<(), GameError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != 5 {
        return Err(GameError::position(
            "board",
            format!("expected 5 rows separated by '/', found {}", rows.len()),
        ));
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = 4 - i;
        let mut file = 0usize;
        let mut promoted = false;
        for ch in row.chars() {
            let width_error =
                || GameError::position("board", format!("row {} ('{row}') is wider than 5", i + 1));
            if promoted && !matches!(ch.to_ascii_uppercase(), 'P' | 'S' | 'B' | 'R') {
                return Err(GameError::position(
                    "board",
                    format!(
                        "'+' must precede p, s, b or r, found '{ch}' in row {}",
                        i + 1
                    ),
                ));
            }
            match ch {
                '1'..='5' => {
                    file += ch as usize - '0' as usize;
                    if file > 5 {
                        return Err(width_error());
                    }
                }
                '+' => promoted = true,
                _ => {
                    let kind = match ch.to_ascii_uppercase() {
                        'K' => KING,
                        c if c.is_ascii() => hand_kind_of_letter(c as u8).ok_or_else(|| {
                            GameError::position("board", format!("unknown piece '{ch}'"))
                        })?,
                        _ => {
                            return Err(GameError::position(
                                "board",
                                format!("unknown piece '{ch}'"),
                            ))
                        }
                    };
                    if file >= 5 {
                        return Err(width_error());
                    }
                    let color = if ch.is_ascii_uppercase() { 0 } else { 1 };
                    let kind = if promoted { kind + PROMOTED } else { kind };
                    promoted = false;
                    pos.put(color, kind, rank * 5 + file);
                    file += 1;
                }
            }
        }
        if promoted {
            return Err(GameError::position(
                "board",
                format!("row {} ends with '+'", i + 1),
            ));
        }
        if file != 5 {
            return Err(GameError::position(
                "board",
                format!("row {} ('{row}') has {file} squares, not 5", i + 1),
            ));
        }
    }
    Ok(())
}

/// Parses the hand (`-` or letters, uppercase for sente) into `pos`.
fn parse_hand(pos: &mut Minishogi, text: &str) -> Result<(), GameError> {
    if text == "-" || text.is_empty() {
        return Ok(());
    }
    for ch in text.chars() {
        let kind = if ch.is_ascii() {
            hand_kind_of_letter(ch as u8)
        } else {
            None
        }
        .ok_or_else(|| GameError::position("hand", format!("'{ch}' cannot be in hand")))?;
        let color = if ch.is_ascii_uppercase() { 0 } else { 1 };
        if pos.hand[color][kind] >= SET_SIZE {
            return Err(GameError::position(
                "hand",
                format!("too many '{ch}' in hand"),
            ));
        }
        pos.add_to_hand(color, kind);
    }
    Ok(())
}

/// Rejects piece counts and placements that no game can reach and the generator cannot handle.
fn validate(pos: &Minishogi) -> Result<(), GameError> {
    for (color, &last_rank) in ZONE.iter().enumerate() {
        let kings = (pos.by_kind[KING] & pos.by_color[color]).count_ones();
        if kings != 1 {
            let who = if color == 0 { "sente (K)" } else { "gote (k)" };
            return Err(GameError::position(
                "board",
                format!("{who} has {kings} kings, not 1"),
            ));
        }
        let stuck = pos.by_kind[PAWN] & pos.by_color[color] & last_rank;
        if stuck != 0 {
            return Err(GameError::position(
                "board",
                format!(
                    "unpromoted pawn on its last rank at {}",
                    square_name(stuck.trailing_zeros() as usize)
                ),
            ));
        }
    }
    for (kind, &letter) in LETTERS.iter().enumerate().take(HAND_KINDS) {
        let promoted = if kind + PROMOTED < KINDS {
            pos.by_kind[kind + PROMOTED]
        } else {
            0
        };
        let on_board = (pos.by_kind[kind] | promoted).count_ones();
        let in_hands = (pos.hand[0][kind] + pos.hand[1][kind]) as u32;
        if on_board + in_hands > SET_SIZE as u32 {
            return Err(GameError::position(
                "board",
                format!(
                    "{} pieces of kind '{}' on the board and in hand; the set has {SET_SIZE}",
                    on_board + in_hands,
                    letter as char
                ),
            ));
        }
    }
    let them = (pos.side ^ 1) as usize;
    if pos.attackers_to(pos.king_square(them), them ^ 1, pos.occupied()) != 0 {
        return Err(GameError::position(
            "side to move",
            "the side not to move is in check",
        ));
    }
    Ok(())
}

impl Game for Minishogi {
    const INFO: GameInfo = GameInfo {
        name: "minishogi",
        aliases: &[],
        board: "5x5",
        notation: "UCI squares a1-e5, rank 1 at the bottom: b1b2, promotion b3d5+, drop P@c3 (P*c3 accepted)",
        start: "rbsgk/4p/5/P4/KGSBR[-] w",
    };
    const HAS_REPETITION_RULE: bool = true;

    fn start() -> Self {
        let mut pos = Minishogi::empty();
        for (color, rank, row) in [
            (0, 0, [KING, GOLD, SILVER, BISHOP, ROOK]),
            (1, 4, [ROOK, BISHOP, SILVER, GOLD, KING]),
        ] {
            for (file, kind) in row.into_iter().enumerate() {
                pos.put(color, kind, rank * 5 + file);
            }
        }
        pos.put(0, PAWN, 5);
        pos.put(1, PAWN, 19);
        pos
    }

    #[inline]
    fn to_move(&self) -> Player {
        Player(self.side)
    }

    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        self.generate(out);
    }

    fn count_moves(&self) -> usize {
        let mut counter = Counter(0);
        self.generate(&mut counter);
        counter.0 as usize
    }

    fn play(&mut self, m: Move) {
        let us = self.side as usize;
        let to = move_to(m);
        if m.0 & DROP_FLAG != 0 {
            let kind = move_from(m);
            self.take_from_hand(us, kind);
            self.put(us, kind, to);
        } else {
            let from = move_from(m);
            let captured = self.board[to];
            if captured != EMPTY {
                let kind = cell_kind(captured);
                self.remove(us ^ 1, kind, to);
                self.add_to_hand(us, unpromoted(kind));
            }
            let kind = cell_kind(self.board[from]);
            self.remove(us, kind, from);
            let kind = if m.0 & PROMOTE_FLAG != 0 {
                kind + PROMOTED
            } else {
                kind
            };
            self.put(us, kind, to);
        }
        self.side ^= 1;
        self.hash ^= SIDE_KEY;
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.has_legal_move() {
            None
        } else {
            Some(Outcome::loss(Player(self.side), 2))
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let mut h = if self.side == 1 { SIDE_KEY } else { 0 };
        for (sq, &c) in self.board.iter().enumerate() {
            if c != EMPTY {
                h ^= piece_key(cell_color(c), cell_kind(c), sq);
            }
        }
        for color in 0..2 {
            for kind in 0..HAND_KINDS {
                for n in 1..=self.hand[color][kind] {
                    h ^= hand_key(color, kind, n);
                }
            }
        }
        h
    }

    fn format_move(&self, m: Move) -> String {
        let to = square_name(move_to(m));
        if m.0 & DROP_FLAG != 0 {
            format!("{}@{to}", LETTERS[move_from(m)] as char)
        } else {
            let promote = if m.0 & PROMOTE_FLAG != 0 { "+" } else { "" };
            format!("{}{to}{promote}", square_name(move_from(m)))
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        let bytes = text.trim().as_bytes();
        let candidate = match bytes {
            [piece, b'@' | b'*', sq @ ..] => {
                let kind = hand_kind_of_letter(*piece)
                    .ok_or_else(|| GameError::syntax(text, "a drop starts with P, S, G, B or R"))?;
                let to = parse_square(sq)
                    .ok_or_else(|| GameError::syntax(text, "a drop ends with a square a1-e5"))?;
                drop_move(kind, to)
            }
            [from @ .., b'+'] if from.len() == 4 => squares_move(text, from, true)?,
            _ if bytes.len() == 4 => squares_move(text, bytes, false)?,
            _ => {
                return Err(GameError::syntax(
                    text,
                    "expected a move like b1b2, b3d5+ or a drop like P@c3",
                ))
            }
        };
        find_legal(self, text, candidate)
    }

    fn to_position(&self) -> String {
        let side = if self.side == 0 { 'w' } else { 'b' };
        format!("{}[{}] {side}", self.board_string(), self.hand_string())
    }

    fn parse_position(text: &str) -> Result<Self, GameError> {
        let mut fields = text.split_whitespace();
        let first = fields
            .next()
            .ok_or_else(|| GameError::position("board", "empty position"))?;
        let (board, hand) = match first.split_once('[') {
            Some((board, rest)) => {
                let hand = rest.strip_suffix(']').ok_or_else(|| {
                    GameError::position(
                        "hand",
                        "the hand must be written [..] right after the board",
                    )
                })?;
                (board, hand)
            }
            None => (first, "-"),
        };
        let mut pos = Minishogi::empty();
        parse_board(&mut pos, board)?;
        parse_hand(&mut pos, hand)?;
        pos.side = match fields.next() {
            Some("w") => 0,
            Some("b") => 1,
            Some(other) => {
                return Err(GameError::position(
                    "side to move",
                    format!("expected 'w' or 'b', found '{other}'"),
                ))
            }
            None => return Err(GameError::position("side to move", "missing (w or b)")),
        };
        if pos.side == 1 {
            pos.hash ^= SIDE_KEY;
        }
        validate(&pos)?;
        // Trailing fields (move counters, '-' placeholders) are not used.
        Ok(pos)
    }

    fn diagram(&self) -> String {
        let mut s = String::new();
        for rank in (0..5).rev() {
            let _ = write!(s, "{} |", rank + 1);
            for file in 0..5 {
                let c = self.board[rank * 5 + file];
                if c == EMPTY {
                    s.push_str("  .");
                } else {
                    let _ = write!(s, "{:>3}", Self::letter_of(cell_kind(c), cell_color(c)));
                }
            }
            s.push('\n');
        }
        s.push_str("  +---------------\n     a  b  c  d  e\n");
        let _ = write!(
            s,
            "hand: {}   to move: {}",
            self.hand_string(),
            if self.side == 0 {
                "sente (w)"
            } else {
                "gote (b)"
            }
        );
        s
    }

    #[inline]
    fn in_check(&self) -> bool {
        let us = self.side as usize;
        self.attackers_to(self.king_square(us), us ^ 1, self.occupied()) != 0
    }

    /// Fourfold repetition ends the game: a player giving perpetual check loses, otherwise sente.
    fn repetition_outcome(&self, rep: &Repetition) -> Option<Outcome> {
        if rep.count < 4 {
            return None;
        }
        let loser = rep.perpetual_check_by.unwrap_or(Player(0));
        Some(Outcome::loss(loser, 2))
    }
}

/// A board move from two squares (`from` holds four bytes).
fn squares_move(text: &str, squares: &[u8], promote: bool) -> Result<Move, GameError> {
    match (parse_square(&squares[..2]), parse_square(&squares[2..])) {
        (Some(from), Some(to)) => Ok(board_move(from, to, promote)),
        _ => Err(GameError::syntax(
            text,
            "squares are a1-e5 (file a-e, rank 1-5)",
        )),
    }
}

#[cfg(test)]
mod tests {
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
}
