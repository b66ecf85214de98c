//! The value parsers of the subcommands' arguments: counts, shares, threads, solver settings.

use std::str::FromStr;
use std::time::Duration;

use crate::solve::{Algo, Pcn};

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

/// `--algo`: a solving algorithm.
pub fn parse_algo(text: &str) -> Result<Algo, String> {
    Algo::parse(text).ok_or_else(|| "expected pns, dfpn, ppns, mcpns or sb-gpn".to_string())
}

/// A positive number of seconds (`--max-time`).
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 => Duration::try_from_secs_f64(s)
            .map_err(|_| format!("{s} seconds is more than a duration can hold")),
        _ => Err("not a positive number of seconds".to_string()),
    }
}

/// `--memory` (`gpn solve`): at least 1 MB, and at most what this machine can give one table
/// (half of it; a solver's table is allocated when the solve starts, so more would be an
/// abort, not an answer).
pub fn parse_memory(text: &str) -> Result<usize, String> {
    let mb: usize = positive(text)?;
    let limit = crate::machine::table_limit_mb();
    if mb > limit {
        return Err(format!(
            "{mb} MB is more than this machine can give one table ({limit} MB, half of its memory)"
        ));
    }
    Ok(mb)
}

/// `--pcn`: how a network initialises proof numbers.
pub fn parse_pcn(text: &str) -> Result<Pcn, String> {
    Pcn::parse(text).ok_or_else(|| "expected b_max, b_heur or off".to_string())
}

/// A number in [0, 0.5) (`--theta`, `--pr`).
pub fn parse_half(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if (0.0..0.5).contains(&x) => Ok(x),
        _ => Err("not a number in [0, 0.5)".to_string()),
    }
}

/// A finite number >= 0 (`--epsilon`, `--focus`).
pub fn parse_epsilon(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x >= 0.0 && x.is_finite() => Ok(x),
        _ => Err("not a number >= 0".to_string()),
    }
}
