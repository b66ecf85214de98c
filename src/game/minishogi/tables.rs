//! Minishogi board geometry: square masks and the attack tables, built at compile time.

pub(super) const SQUARES: usize = 25;
pub(super) const FULL: u32 = (1 << SQUARES) - 1;
pub(super) const RANK_1: u32 = 0x1F;
pub(super) const RANK_5: u32 = 0x1F << 20;
pub(super) const FILE_A: u32 = 0x0010_8421;
/// The promotion zone (the last rank) of each color.
pub(super) const ZONE: [u32; 2] = [RANK_5, RANK_1];
/// Gathers the five bits of file `a` (ranks 0..4 at bits 0, 5, .., 20) into bits 20..24.
pub(super) const FILE_GATHER: u32 = (1 << 20) | (1 << 16) | (1 << 12) | (1 << 8) | (1 << 4);
/// Gathers bits in five distinct files (a diagonal) into bits 20..24, indexed by file.
pub(super) const DIAG_GATHER: u32 = FILE_A;

#[inline]
pub(super) const fn bit(sq: usize) -> u32 {
    1 << sq
}

/// The square at rank `r`, file `f`, if it is on the board.
pub(super) const fn square_at(r: i32, f: i32) -> Option<usize> {
    if r >= 0 && r < 5 && f >= 0 && f < 5 {
        Some((r * 5 + f) as usize)
    } else {
        None
    }
}

/// Steps as (rank, file) deltas for sente; gote's are the same with the rank delta negated.
pub(super) const PAWN_STEPS: &[(i32, i32)] = &[(1, 0)];
pub(super) const SILVER_STEPS: &[(i32, i32)] = &[(1, -1), (1, 0), (1, 1), (-1, -1), (-1, 1)];
pub(super) const GOLD_STEPS: &[(i32, i32)] = &[(1, -1), (1, 0), (1, 1), (0, -1), (0, 1), (-1, 0)];
pub(super) const KING_STEPS: &[(i32, i32)] = &[
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
pub(super) const fn step_table(steps: &[(i32, i32)]) -> [[u32; SQUARES]; 2] {
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

pub(super) const PAWN_ATTACKS: [[u32; SQUARES]; 2] = step_table(PAWN_STEPS);
pub(super) const SILVER_ATTACKS: [[u32; SQUARES]; 2] = step_table(SILVER_STEPS);
pub(super) const GOLD_ATTACKS: [[u32; SQUARES]; 2] = step_table(GOLD_STEPS);
pub(super) const KING_ATTACKS: [u32; SQUARES] = step_table(KING_STEPS)[0];

/// The four lines a slider moves along: rank, file, diagonal (a1-e5 way), anti-diagonal.
pub(super) const LINE_DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// Which bit of a line's 5-bit occupancy index stands for the square at (r, f): the rank on a
/// file, the file on every other line (the files along a rank or a diagonal are distinct).
pub(super) const fn line_index_bit(line: usize, r: i32, f: i32) -> u32 {
    if line == 1 {
        1 << r
    } else {
        1 << f
    }
}

/// Attacks along one line from every square for every 5-bit occupancy index of that line.
pub(super) const fn line_attack_table(line: usize) -> [[u32; 32]; SQUARES] {
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
pub(super) const fn diagonal_masks(line: usize) -> [u32; SQUARES] {
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

pub(super) static RANK_ATTACKS: [[u32; 32]; SQUARES] = line_attack_table(0);
pub(super) static FILE_ATTACKS: [[u32; 32]; SQUARES] = line_attack_table(1);
pub(super) static DIAG_ATTACKS: [[u32; 32]; SQUARES] = line_attack_table(2);
pub(super) static ANTI_ATTACKS: [[u32; 32]; SQUARES] = line_attack_table(3);
pub(super) const DIAG_MASKS: [u32; SQUARES] = diagonal_masks(2);
pub(super) const ANTI_MASKS: [u32; SQUARES] = diagonal_masks(3);
pub(super) const ROOK_EMPTY: [u32; SQUARES] = empty_board_attacks(0, 1);
pub(super) const BISHOP_EMPTY: [u32; SQUARES] = empty_board_attacks(2, 3);

pub(super) const fn empty_board_attacks(a: usize, b: usize) -> [u32; SQUARES] {
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
pub(super) fn rook_attacks(sq: usize, occ: u32) -> u32 {
    let (rank, file) = (sq / 5, sq % 5);
    let rank_idx = (occ >> (5 * rank)) & 31;
    let file_idx = (((occ >> file) & FILE_A).wrapping_mul(FILE_GATHER) >> 20) & 31;
    RANK_ATTACKS[sq][rank_idx as usize] | FILE_ATTACKS[sq][file_idx as usize]
}

#[inline]
pub(super) fn bishop_attacks(sq: usize, occ: u32) -> u32 {
    let diag_idx = ((occ & DIAG_MASKS[sq]).wrapping_mul(DIAG_GATHER) >> 20) & 31;
    let anti_idx = ((occ & ANTI_MASKS[sq]).wrapping_mul(DIAG_GATHER) >> 20) & 31;
    DIAG_ATTACKS[sq][diag_idx as usize] | ANTI_ATTACKS[sq][anti_idx as usize]
}

/// `BETWEEN[a][b]`: the squares strictly between two aligned squares; `LINE[a][b]`: the whole
/// line through them (both empty when they are not aligned).
pub(super) const fn between_and_line() -> ([[u32; SQUARES]; SQUARES], [[u32; SQUARES]; SQUARES]) {
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

pub(super) static BETWEEN_LINE: ([[u32; SQUARES]; SQUARES], [[u32; SQUARES]; SQUARES]) =
    between_and_line();

#[inline]
pub(super) fn between(a: usize, b: usize) -> u32 {
    BETWEEN_LINE.0[a][b]
}

#[inline]
pub(super) fn line_through(a: usize, b: usize) -> u32 {
    BETWEEN_LINE.1[a][b]
}
