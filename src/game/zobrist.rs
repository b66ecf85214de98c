//! Zobrist keys generated at compile time from a fixed mixer, identical on every build.

use crate::rng::mix64;

/// `N` pseudo-random 64-bit keys for table number `table` (distinct tables never share keys).
pub const fn keys<const N: usize>(table: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] =
            mix64(mix64(table.wrapping_mul(0x1000_0000_01B3) ^ 0x5DEE_CE66_D1CE_4E5B) ^ i as u64);
        i += 1;
    }
    out
}
