//! The small value parsers the subcommands' clap arguments share (counts, shares, threads).

use std::str::FromStr;

/// A value parser: a non-negative integer (a count, a depth, a seed).
pub fn count<T: FromStr>(text: &str) -> Result<T, String> {
    text.trim()
        .parse()
        .map_err(|_| "not a non-negative integer".to_string())
}

/// A value parser: a positive integer.
pub fn positive<T: FromStr + PartialOrd + Default>(text: &str) -> Result<T, String> {
    match text.trim().parse::<T>() {
        Ok(v) if v > T::default() => Ok(v),
        _ => Err("not a positive integer".to_string()),
    }
}

/// A share in [0, 1) (`gpn train --validation`, `gpn selfplay --noise`).
pub fn share(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if (0.0..1.0).contains(&x) => Ok(x),
        _ => Err("not a number in [0, 1)".to_string()),
    }
}

/// A `--threads` (or `--concurrency`) value: a thread count in 1..=[`MAX_THREADS`].
///
/// [`MAX_THREADS`]: crate::search::params::MAX_THREADS
pub fn parse_threads(text: &str) -> Result<usize, String> {
    use crate::search::params::MAX_THREADS;
    text.trim()
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=MAX_THREADS).contains(n))
        .ok_or_else(|| format!("not a thread count in 1..{MAX_THREADS}"))
}
