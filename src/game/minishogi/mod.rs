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
use super::{
    find_legal, zobrist, Dialect, Dialects, GameError, GameInfo, Heuristics, Move, MoveList,
    Outcome, Player, Rules,
};

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

mod tables;
use tables::*;

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

    /// The hands as SFEN writes them: sente's first, a count before a letter held twice, `-`
    /// when both are empty (Fairy-Stockfish 11.1's order, the same as in its FEN).
    fn sfen_hand(&self) -> String {
        let mut s = String::new();
        for color in 0..2 {
            for kind in HAND_ORDER {
                let n = self.hand[color][kind];
                if n > 1 {
                    let _ = write!(s, "{n}");
                }
                if n > 0 {
                    s.push_str(&Self::letter_of(kind, color));
                }
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }

    /// Sets the side to move of a freshly read position and checks that it can occur.
    fn finish(mut self, side: u8) -> Result<Minishogi, GameError> {
        self.side = side;
        if side == 1 {
            self.hash ^= SIDE_KEY;
        }
        validate(&self)?;
        Ok(self)
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

/// The square in USI's shogi coordinates: file digit `5`..`1` for native files `a`..`e` (files
/// count from sente's right), rank letter `a`..`e` for native ranks 5..1 (rank `a` is gote's side).
fn usi_square_name(sq: usize) -> String {
    format!(
        "{}{}",
        (b'5' - (sq % 5) as u8) as char,
        (b'e' - (sq / 5) as u8) as char
    )
}

fn parse_usi_square(text: &[u8]) -> Option<usize> {
    match text {
        [f @ b'1'..=b'5', r @ b'a'..=b'e'] => Some((b'e' - r) as usize * 5 + (b'5' - f) as usize),
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

/// Piece values in tenths of a pawn by kind (P S B R G K +P +S +B +R): the usual minishogi
/// scale, where the bishop and the rook are strong and a tokin or promoted silver moves like a
/// gold; the king is not material.
const BOARD_VALUES: [i32; KINDS] = [10, 50, 80, 100, 60, 0, 60, 60, 110, 130];
/// In hand a piece is worth a tenth more than its unpromoted value on the board.
const HAND_VALUES: [i32; HAND_KINDS] = [11, 55, 88, 110, 66];

/// Network inputs, from the side to move (gote's board turned by half a turn, so both move up):
/// one feature per piece on the board, `(side * 10 + kind) * 25 + square`, side 0 the mover's,
/// kinds P S B R G K +P +S +B +R; then the hands, `500 + (side * 5 + kind) * 2 + i` for the
/// (i+1)-th piece of a kind in hand (P S B R G). Policy: board moves `(from * 25 + to) * 2 +
/// promotion`, drops `1250 + kind * 25 + to`. Symmetry: the left-right mirror (the rules keep it;
/// the start position does not). Repetitions are not inputs.
impl crate::game::Features for Minishogi {
    const INPUTS: usize = 2 * KINDS * SQUARES + 2 * HAND_KINDS * SET_SIZE as usize;
    const POLICY: usize = SQUARES * SQUARES * 2 + HAND_KINDS * SQUARES;
    const SYMMETRIES: usize = 2;
    /// The twelve pieces, each on the board or in a hand.
    const MAX_ACTIVE: usize = 12;

    fn features(&self, out: &mut Vec<u16>) {
        out.clear();
        let mover = self.side as usize;
        for (side, color) in [mover, 1 - mover].into_iter().enumerate() {
            for kind in 0..KINDS {
                let mut set = self.by_color[color] & self.by_kind[kind];
                while set != 0 {
                    let sq = set.trailing_zeros() as usize;
                    set &= set - 1;
                    out.push(((side * KINDS + kind) * SQUARES + turned(mover, sq)) as u16);
                }
            }
        }
        for (side, color) in [mover, 1 - mover].into_iter().enumerate() {
            for kind in 0..HAND_KINDS {
                let base = 2 * KINDS * SQUARES + (side * HAND_KINDS + kind) * SET_SIZE as usize;
                out.extend((0..self.hand[color][kind] as usize).map(|i| (base + i) as u16));
            }
        }
    }

    fn policy_index(&self, m: Move) -> usize {
        let mover = self.side as usize;
        let to = turned(mover, move_to(m));
        if m.0 & DROP_FLAG != 0 {
            SQUARES * SQUARES * 2 + move_from(m) * SQUARES + to
        } else {
            let from = turned(mover, move_from(m));
            (from * SQUARES + to) * 2 + usize::from(m.0 & PROMOTE_FLAG != 0)
        }
    }

    fn map_feature(s: usize, f: u16) -> u16 {
        let f = f as usize;
        if s == 0 || f >= 2 * KINDS * SQUARES {
            return f as u16;
        }
        (f / SQUARES * SQUARES + mirrored(f % SQUARES)) as u16
    }

    fn map_policy(s: usize, p: usize) -> usize {
        let board = SQUARES * SQUARES * 2;
        if s == 0 {
            p
        } else if p < board {
            let (from, to, promotion) = (p / 2 / SQUARES, p / 2 % SQUARES, p % 2);
            (mirrored(from) * SQUARES + mirrored(to)) * 2 + promotion
        } else {
            let (kind, to) = ((p - board) / SQUARES, (p - board) % SQUARES);
            board + kind * SQUARES + mirrored(to)
        }
    }
}

/// Square `sq` seen by `player` (gote sees the board turned by half a turn).
#[inline]
fn turned(player: usize, sq: usize) -> usize {
    if player == 0 {
        sq
    } else {
        SQUARES - 1 - sq
    }
}

/// Square `sq` mirrored left to right.
#[inline]
fn mirrored(sq: usize) -> usize {
    sq / 5 * 5 + 4 - sq % 5
}

impl Rules for Minishogi {
    const INFO: GameInfo = GameInfo {
        name: "minishogi",
        aliases: &[],
        board: "5x5",
        notation: "UCI squares a1-e5, rank 1 at the bottom: b1b2, promotion b3d5+, drop P@c3 (P*c3 accepted)",
        start: "rbsgk/4p/5/P4/KGSBR[-] w",
    };
    const HAS_REPETITION_RULE: bool = true;
    const HAS_CHECKS: bool = true;

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
        find_legal(self, text, read_move(text, Coords::Native)?)
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
        let side = match fields.next() {
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
        // Trailing fields (move counters, '-' placeholders) are not used.
        pos.finish(side)
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

impl Heuristics for Minishogi {
    const HAS_EVALUATION: bool = true;

    /// Material, pieces in hand included (worth a tenth more than on the board: a drop goes
    /// anywhere), promoted pieces at their promoted values; through tanh into (-1, 1).
    #[inline]
    fn evaluate(&self, player: Player) -> f32 {
        let mut score = 0i32;
        for (kind, &value) in BOARD_VALUES.iter().enumerate() {
            let bb = self.by_kind[kind];
            score += value
                * ((bb & self.by_color[0]).count_ones() as i32
                    - (bb & self.by_color[1]).count_ones() as i32);
        }
        for (kind, &value) in HAND_VALUES.iter().enumerate() {
            score += value * (self.hand[0][kind] as i32 - self.hand[1][kind] as i32);
        }
        let v = (score as f32 / 150.0).tanh();
        crate::game::zero_sum(v, player)
    }

    #[inline]
    fn is_capture(&self, m: Move) -> bool {
        m.0 & DROP_FLAG == 0 && self.board[move_to(m)] != EMPTY
    }
}

impl Dialects for Minishogi {
    /// USI writes shogi coordinates (`2e3d`, `4c2a+`, `P*3c`); UCI and GTP the native squares.
    fn format_move_in(&self, m: Move, dialect: Dialect) -> String {
        if dialect != Dialect::Usi {
            return self.format_move(m);
        }
        let to = usi_square_name(move_to(m));
        if m.0 & DROP_FLAG != 0 {
            format!("{}*{to}", LETTERS[move_from(m)] as char)
        } else {
            let promote = if m.0 & PROMOTE_FLAG != 0 { "+" } else { "" };
            format!("{}{to}{promote}", usi_square_name(move_from(m)))
        }
    }

    /// USI reads shogi coordinates and, failing those, the native notation (the two square forms,
    /// digit-letter and letter-digit, cannot be confused).
    fn parse_move_in(&self, text: &str, dialect: Dialect) -> Result<Move, GameError> {
        if dialect != Dialect::Usi {
            return self.parse_move(text);
        }
        let candidate = read_move(text, Coords::Usi)
            .or_else(|usi_error| read_move(text, Coords::Native).map_err(|_| usi_error))?;
        find_legal(self, text, candidate)
    }

    /// USI writes SFEN: the same board field, `b` for sente (the first player) to move and `w`
    /// for gote, the hands with counts (`2Pb`, `-`), and a move number (always 1: positions do
    /// not count plies).
    fn to_position_in(&self, dialect: Dialect) -> String {
        if dialect != Dialect::Usi {
            return self.to_position();
        }
        let side = if self.side == 0 { 'b' } else { 'w' };
        format!("{} {side} {} 1", self.board_string(), self.sfen_hand())
    }

    /// USI reads SFEN; a board field carrying a `[...]` hand is a native (Fairy-Stockfish) FEN and
    /// is read as such, with its own side letters.
    fn parse_position_in(text: &str, dialect: Dialect) -> Result<Self, GameError> {
        let board = text.split_whitespace().next().unwrap_or("");
        if dialect != Dialect::Usi || board.is_empty() || board.contains('[') {
            return Self::parse_position(text);
        }
        parse_sfen(text)
    }
}

/// The square coordinates a move is written in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Coords {
    /// Chess-style `a1`..`e5` (UCI, cutechess, Fairy-Stockfish).
    Native,
    /// Shogi-style `1a`..`5e` (USI).
    Usi,
}

impl Coords {
    fn square(self, text: &[u8]) -> Option<usize> {
        match self {
            Coords::Native => parse_square(text),
            Coords::Usi => parse_usi_square(text),
        }
    }
}

/// Reads a move's syntax (legality is checked by the caller): `b1b2`, `b3d5+`, `P@c3` or `P*c3`
/// in native coordinates; `2e3d`, `4c2a+`, `P*3c` or `P@3c` in USI's.
fn read_move(text: &str, coords: Coords) -> Result<Move, GameError> {
    let (squares, example) = match coords {
        Coords::Native => (
            "squares are a1-e5 (file a-e, rank 1-5)",
            "expected a move like b1b2, b3d5+ or a drop like P@c3",
        ),
        Coords::Usi => (
            "USI squares are 1a-5e (file 1-5, rank a-e)",
            "expected a USI move like 2e3d, 4c2a+ or a drop like P*3c (or UCI's d1c2, P@c3)",
        ),
    };
    let bytes = text.trim().as_bytes();
    match bytes {
        [piece, b'@' | b'*', sq @ ..] => {
            let kind = hand_kind_of_letter(*piece)
                .ok_or_else(|| GameError::syntax(text, "a drop starts with P, S, G, B or R"))?;
            let to = coords.square(sq).ok_or_else(|| {
                GameError::syntax(text, format!("a drop ends with a square: {squares}"))
            })?;
            Ok(drop_move(kind, to))
        }
        [from @ .., b'+'] if from.len() == 4 => board_squares(text, coords, from, true, squares),
        _ if bytes.len() == 4 => board_squares(text, coords, bytes, false, squares),
        _ => Err(GameError::syntax(text, example)),
    }
}

/// A board move from two squares (`squares` holds four bytes).
fn board_squares(
    text: &str,
    coords: Coords,
    squares: &[u8],
    promote: bool,
    message: &str,
) -> Result<Move, GameError> {
    match (coords.square(&squares[..2]), coords.square(&squares[2..])) {
        (Some(from), Some(to)) => Ok(board_move(from, to, promote)),
        _ => Err(GameError::syntax(text, message)),
    }
}

/// Reads an SFEN: `<board> <b|w> [<hand>] [<move number>]`, `b` being sente (the first player),
/// hands like `2Pb` or `-`. Trailing fields are not used.
fn parse_sfen(text: &str) -> Result<Minishogi, GameError> {
    let mut fields = text.split_whitespace();
    let mut pos = Minishogi::empty();
    parse_board(&mut pos, fields.next().unwrap_or(""))?;
    let side = match fields.next() {
        Some("b") => 0,
        Some("w") => 1,
        Some(other) => {
            return Err(GameError::position(
                "side to move",
                format!("expected 'b' (sente) or 'w' (gote) in an SFEN, found '{other}'"),
            ))
        }
        None => {
            return Err(GameError::position(
                "side to move",
                "missing (b for sente, w for gote)",
            ))
        }
    };
    parse_sfen_hand(&mut pos, fields.next().unwrap_or("-"))?;
    pos.finish(side)
}

/// Reads SFEN hands: `-`, or letters (uppercase for sente) each preceded by an optional count.
fn parse_sfen_hand(pos: &mut Minishogi, text: &str) -> Result<(), GameError> {
    if text == "-" {
        return Ok(());
    }
    let mut count: Option<u32> = None;
    for ch in text.chars() {
        if let Some(d) = ch.to_digit(10) {
            count = Some(count.unwrap_or(0).saturating_mul(10).saturating_add(d));
            continue;
        }
        let kind = if ch.is_ascii() {
            hand_kind_of_letter(ch as u8)
        } else {
            None
        }
        .ok_or_else(|| GameError::position("hand", format!("'{ch}' cannot be in hand")))?;
        let color = if ch.is_ascii_uppercase() { 0 } else { 1 };
        let n = count.take().unwrap_or(1);
        if n == 0 || n + pos.hand[color][kind] as u32 > SET_SIZE as u32 {
            return Err(GameError::position(
                "hand",
                format!("cannot hold {n} more '{ch}'"),
            ));
        }
        for _ in 0..n {
            pos.add_to_hand(color, kind);
        }
    }
    if count.is_some() {
        return Err(GameError::position(
            "hand",
            format!("'{text}' ends with a count and no piece"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
