//! Match statistics as pure functions: W/D/L, score and Elo with 95% intervals, and the SPRT.
//!
//! * Score `s = (W + D/2) / N`; its interval is the normal approximation `s ± 1.96·σ/√N` with
//!   `σ²` the per-game score variance `(W(1-s)² + D(1/2-s)² + L·s²) / N` — cutechess's
//!   `Elo` class (`projects/lib/src/elo.cpp`), except that we use the exact quantile 1.959964
//!   where cutechess approximates it (1.9572), so our margins are about 0.15% wider.
//! * Elo `= -400·log10(1/s - 1)` (logistic Elo); its interval maps the score interval through the
//!   same function. Scores of exactly 0 or 1 give `-inf`/`+inf` (never NaN), printed as such.
//! * SPRT: the generalised log-likelihood ratio of the trinomial model in logistic Elo, exactly as
//!   fishtest's `LLR_logistic` (`server/fishtest/stats/LLRcalc.py`, M. Van den Bergh,
//!   "support_MLE_multinomial.pdf", Proposition 1.1): under each hypothesis `s = s0` or `s = s1`
//!   the W/D/L distribution is the maximum-likelihood one with that expected score, and
//!   `LLR = N·Σ p̂ᵢ·ln(p1ᵢ/p0ᵢ)`. Zero counts are replaced by 1e-3 first (fishtest's
//!   `regularize`), so games without draws (Breakthrough) work. Bounds are Wald's:
//!   `ln(β/(1-α))` and `ln((1-β)/α)`. cutechess's BayesElo LLR ([`llr_bayeselo`]) is provided for
//!   comparison; it stays 0 until there is at least one win, one draw and one loss.

use std::fmt;

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Fishtest's pseudo-count for an outcome never observed.
const REGULARIZE: f64 = 1e-3;

/// One game's result from agent A's point of view; `win`, `draw` or `loss` in the files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameResult {
    Win,
    Draw,
    Loss,
}

impl GameResult {
    /// 1, 1/2 or 0.
    pub fn score(self) -> f64 {
        match self {
            GameResult::Win => 1.0,
            GameResult::Draw => 0.5,
            GameResult::Loss => 0.0,
        }
    }

    /// "win", "draw" or "loss".
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::Win => "win",
            GameResult::Draw => "draw",
            GameResult::Loss => "loss",
        }
    }

    /// The result seen from the other side.
    pub fn flip(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Draw => GameResult::Draw,
            GameResult::Loss => GameResult::Win,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Win, draw and loss counts (from agent A's point of view).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn new(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// Counts a list of results.
    pub fn from_results(results: impl IntoIterator<Item = GameResult>) -> Wdl {
        let mut wdl = Wdl::default();
        for r in results {
            wdl.add(r);
        }
        wdl
    }

    pub fn add(&mut self, r: GameResult) {
        match r {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// `(W + D/2) / N`; 1/2 when no game was played.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.5
        } else {
            (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
        }
    }

    /// The per-game variance of the score (population variance; 0 when no game was played).
    pub fn variance(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n as f64
    }
}

/// An estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// The score with its 95% interval (normal approximation, clamped to [0, 1]). With no games it
/// is 1/2 in [0, 1]; when every game had the same result the interval is that single point.
pub fn score_interval(wdl: &Wdl) -> Interval {
    let n = wdl.games();
    if n == 0 {
        return Interval {
            value: 0.5,
            low: 0.0,
            high: 1.0,
        };
    }
    let s = wdl.score();
    let half = Z95 * (wdl.variance() / n as f64).sqrt();
    Interval {
        value: s,
        low: (s - half).max(0.0),
        high: (s + half).min(1.0),
    }
}

/// Logistic Elo difference of an expected score: `-400·log10(1/s - 1)`; `-inf` at 0 and below,
/// `+inf` at 1 and above (never NaN).
pub fn elo_from_score(s: f64) -> f64 {
    if s.is_nan() || s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        // `+ 0.0` turns the -0 of an even score into +0.
        -400.0 * (1.0 / s - 1.0).log10() + 0.0
    }
}

/// Expected score of a logistic Elo difference: `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference with its 95% interval: the score interval mapped through
/// [`elo_from_score`].
pub fn elo_interval(wdl: &Wdl) -> Interval {
    let s = score_interval(wdl);
    Interval {
        value: elo_from_score(s.value),
        low: elo_from_score(s.low),
        high: elo_from_score(s.high),
    }
}

/// cutechess's "+/-" figure: half the width of the Elo interval (may be infinite).
pub fn elo_margin(wdl: &Wdl) -> f64 {
    let e = elo_interval(wdl);
    if e.low == e.high {
        0.0
    } else {
        (e.high - e.low) / 2.0
    }
}

/// An Elo figure with one decimal and a sign, or `+inf` / `-inf`.
pub fn format_elo(elo: f64) -> String {
    if elo == f64::INFINITY {
        "+inf".to_string()
    } else if elo == f64::NEG_INFINITY {
        "-inf".to_string()
    } else if elo.is_nan() {
        "nan".to_string()
    } else {
        format!("{elo:+.1}")
    }
}

/// Parameters of a sequential probability ratio test: H0 "Elo = elo0" against H1 "Elo = elo1"
/// (logistic Elo of A over B), with error rates alpha (false H1) and beta (false H0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtConfig {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    Continue,
    AcceptH0,
    AcceptH1,
}

impl SprtDecision {
    pub fn as_str(self) -> &'static str {
        match self {
            SprtDecision::Continue => "continue",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
        }
    }
}

/// The log-likelihood ratio with the test's bounds and the resulting decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStatus {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub decision: SprtDecision,
}

impl SprtConfig {
    /// Checks the parameters: finite Elos with `elo0 < elo1`, `alpha` and `beta` in (0, 1) with
    /// `alpha + beta < 1` (otherwise the bounds do not bracket 0).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<SprtConfig, String> {
        if !elo0.is_finite() || !elo1.is_finite() || elo0 >= elo1 {
            return Err(format!(
                "SPRT needs finite elo0 < elo1 (got {elo0}, {elo1})"
            ));
        }
        let unit = |x: f64| x > 0.0 && x < 1.0;
        if !unit(alpha) || !unit(beta) || alpha + beta >= 1.0 {
            return Err(format!(
                "SPRT needs alpha and beta in (0, 1) with alpha + beta < 1 (got {alpha}, {beta})"
            ));
        }
        Ok(SprtConfig {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Wald's lower bound `ln(beta / (1 - alpha))`: at or below it, H0 is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Wald's upper bound `ln((1 - beta) / alpha)`: at or above it, H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The test's state after the games counted in `wdl` (logistic-Elo LLR, [`llr_logistic`]).
    pub fn status(&self, wdl: &Wdl) -> SprtStatus {
        let llr = llr_logistic(wdl, self.elo0, self.elo1);
        let (lower, upper) = (self.lower_bound(), self.upper_bound());
        let decision = if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        };
        SprtStatus {
            llr,
            lower,
            upper,
            decision,
        }
    }
}

/// The maximum-likelihood distribution over outcomes worth `values` with expected value `s`,
/// given the observed frequencies `probs` (all > 0): `pᵢ / (1 + x·(aᵢ - s))` with `x` the root of
/// the secular equation `Σ pᵢ(aᵢ - s) / (1 + x(aᵢ - s)) = 0` (Van den Bergh, Proposition 1.1).
/// Needs `min(values) < s < max(values)`.
fn mle_expected(values: &[f64; 3], probs: &[f64; 3], s: f64) -> [f64; 3] {
    let d = values.map(|a| a - s);
    let dmax = d.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let dmin = d.iter().copied().fold(f64::INFINITY, f64::min);
    // Every denominator is positive exactly for x in (-1/dmax, -1/dmin); the function is
    // decreasing there, from +inf to -inf, so bisection finds the root.
    let f = |x: f64| -> f64 {
        probs
            .iter()
            .zip(&d)
            .map(|(p, di)| p * di / (1.0 + x * di))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / dmax, -1.0 / dmin);
    for _ in 0..300 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    let mut out = [0.0; 3];
    for i in 0..3 {
        out[i] = probs[i] / (1.0 + x * d[i]);
    }
    out
}

/// The generalised log-likelihood ratio of H1 "expected score = score(elo1)" against H0
/// "expected score = score(elo0)" for the trinomial W/D/L results, in logistic Elo: fishtest's
/// `LLR_logistic` (see the module documentation). 0 when no game was played.
pub fn llr_logistic(wdl: &Wdl, elo0: f64, elo1: f64) -> f64 {
    if wdl.games() == 0 {
        return 0.0;
    }
    let reg = |c: u32| if c == 0 { REGULARIZE } else { c as f64 };
    let counts = [reg(wdl.losses), reg(wdl.draws), reg(wdl.wins)];
    let n: f64 = counts.iter().sum();
    let probs = counts.map(|c| c / n);
    let values = [0.0, 0.5, 1.0];
    let p0 = mle_expected(&values, &probs, score_from_elo(elo0));
    let p1 = mle_expected(&values, &probs, score_from_elo(elo1));
    n * (0..3)
        .map(|i| probs[i] * (p1[i].ln() - p0[i].ln()))
        .sum::<f64>()
}

/// The normal approximation of [`llr_logistic`] (fishtest's `LLR_alt2`, Van den Bergh,
/// "GSPRT_approximation.pdf"): `N·(s1 - s0)·(2ŝ - s0 - s1) / (2σ²)`, on regularised counts.
pub fn llr_logistic_approx(wdl: &Wdl, elo0: f64, elo1: f64) -> f64 {
    if wdl.games() == 0 {
        return 0.0;
    }
    let reg = |c: u32| if c == 0 { REGULARIZE } else { c as f64 };
    let (w, d, l) = (reg(wdl.wins), reg(wdl.draws), reg(wdl.losses));
    let n = w + d + l;
    let s = (w + 0.5 * d) / n;
    let var = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s * s) / n;
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
}

/// cutechess's SPRT log-likelihood ratio (`projects/lib/src/sprt.cpp`): the draw Elo is
/// estimated from the sample in the BayesElo model, elo0/elo1 (logistic) are converted to
/// BayesElo by dividing by the draw-dependent scale `4x/(1+x)²`, `x = 10^(-drawElo/400)`, and
/// `LLR = W·ln(pw1/pw0) + L·ln(pl1/pl0) + D·ln(pd1/pd0)`. 0 until W, D and L are all positive.
pub fn llr_bayeselo(wdl: &Wdl, elo0: f64, elo1: f64) -> f64 {
    if wdl.wins == 0 || wdl.draws == 0 || wdl.losses == 0 {
        return 0.0;
    }
    let n = wdl.games() as f64;
    let (pw, pl) = (wdl.wins as f64 / n, wdl.losses as f64 / n);
    let draw_elo = 200.0 * ((1.0 - pl) / pl * (1.0 - pw) / pw).log10();
    let x = 10f64.powf(-draw_elo / 400.0);
    let scale = 4.0 * x / ((1.0 + x) * (1.0 + x));
    let probs = |bayes_elo: f64| {
        let w = 1.0 / (1.0 + 10f64.powf((draw_elo - bayes_elo) / 400.0));
        let l = 1.0 / (1.0 + 10f64.powf((draw_elo + bayes_elo) / 400.0));
        (w, l, 1.0 - w - l)
    };
    let (w0, l0, d0) = probs(elo0 / scale);
    let (w1, l1, d1) = probs(elo1 / scale);
    wdl.wins as f64 * (w1 / w0).ln()
        + wdl.losses as f64 * (l1 / l0).ln()
        + wdl.draws as f64 * (d1 / d0).ln()
}

/// Pentanomial counts, as fishtest and OpenBench report them: the games of a pair (the same
/// opening with the seats swapped, games `2k` and `2k + 1`) are scored together from A's point
/// of view, and `counts[i]` is the number of pairs that scored `i / 2` (0, 0.5, 1, 1.5, 2).
/// Games whose partner was not played (an odd count, an SPRT stop, a Ctrl-C) are `unpaired`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub counts: [u32; 5],
    pub unpaired: u32,
}

impl Pentanomial {
    /// From `(game index, result for A)` of the finished games, in any order.
    pub fn from_games(games: impl IntoIterator<Item = (u32, GameResult)>) -> Pentanomial {
        let mut by_pair: std::collections::BTreeMap<u32, Vec<GameResult>> = Default::default();
        for (index, result) in games {
            by_pair.entry(index / 2).or_default().push(result);
        }
        let mut p = Pentanomial::default();
        for results in by_pair.values() {
            match results.as_slice() {
                [x, y] => p.counts[(half_points(*x) + half_points(*y)) as usize] += 1,
                other => p.unpaired += other.len() as u32,
            }
        }
        p
    }

    /// Complete pairs.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }
}

/// A game's score in half points: 2, 1 or 0.
fn half_points(r: GameResult) -> u32 {
    match r {
        GameResult::Win => 2,
        GameResult::Draw => 1,
        GameResult::Loss => 0,
    }
}

/// A mean with its 95% interval (normal approximation) over `n` samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mean {
    pub n: usize,
    pub mean: f64,
    /// Half the width of the 95% interval (0 with fewer than two samples).
    pub margin: f64,
}

impl Mean {
    pub fn of(samples: impl IntoIterator<Item = f64>) -> Mean {
        let (mut n, mut sum, mut sq) = (0usize, 0.0, 0.0);
        for x in samples {
            n += 1;
            sum += x;
            sq += x * x;
        }
        if n == 0 {
            return Mean {
                n,
                mean: f64::NAN,
                margin: f64::NAN,
            };
        }
        let mean = sum / n as f64;
        let margin = if n < 2 {
            0.0
        } else {
            let var = ((sq - n as f64 * mean * mean) / (n - 1) as f64).max(0.0);
            1.96 * (var / n as f64).sqrt()
        };
        Mean { n, mean, margin }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pentanomial_counts_complete_pairs_only() {
        use GameResult::*;
        // Pairs 0..=4 score 2, 1.5, 1 (win + loss), 1 (two draws), 0; pair 5 lost its second game
        // (Ctrl-C), game 12 is the odd last game; the order of arrival does not matter.
        let games = [
            (1, Win),
            (0, Win),
            (2, Win),
            (3, Draw),
            (4, Win),
            (5, Loss),
            (6, Draw),
            (7, Draw),
            (9, Loss),
            (8, Loss),
            (10, Win),
            (12, Draw),
        ];
        let p = Pentanomial::from_games(games);
        assert_eq!(p.counts, [1, 0, 2, 1, 1]);
        assert_eq!(p.unpaired, 2);
        assert_eq!(p.pairs(), 5);
        assert_eq!(Pentanomial::from_games([]), Pentanomial::default());
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn sixty_twenty_twenty_by_hand() {
        // 60 W / 20 D / 20 L: s = (60 + 10) / 100 = 0.7.
        let wdl = Wdl::new(60, 20, 20);
        assert_eq!(wdl.games(), 100);
        assert!(close(wdl.score(), 0.7, 1e-12));
        // Per-game variance: 0.6·0.3² + 0.2·0.2² + 0.2·0.7² = 0.054 + 0.008 + 0.098 = 0.16.
        assert!(close(wdl.variance(), 0.16, 1e-12));
        // Standard error sqrt(0.16 / 100) = 0.04; half-width 1.959964·0.04 = 0.0783986.
        let s = score_interval(&wdl);
        assert!(close(s.low, 0.7 - 0.078_398_6, 1e-6), "{s:?}");
        assert!(close(s.high, 0.7 + 0.078_398_6, 1e-6), "{s:?}");
        // Elo = -400·log10(1/0.7 - 1) = -400·log10(3/7) = 147.19.
        let e = elo_interval(&wdl);
        assert!(close(e.value, -400.0 * (3.0f64 / 7.0).log10(), 1e-9));
        assert!(close(e.value, 147.19, 0.01), "{e:?}");
        // Interval ends: -400·log10(1/0.6216014 - 1) = 86.225, -400·log10(1/0.7783986 - 1) =
        // 218.252; cutechess's "+/-" is half the width, 66.013.
        assert!(close(e.low, 86.225, 0.001), "{e:?}");
        assert!(close(e.high, 218.252, 0.001), "{e:?}");
        assert!(close(elo_margin(&wdl), 66.013, 0.001));
    }

    #[test]
    fn matches_a_published_cutechess_result() {
        // talkchess.com/viewtopic.php?t=84211, cutechess-cli 1.3.1 with
        // `-sprt elo0=0 elo1=10 alpha=0.05 beta=0.05`:
        //   Score of New vs checks: 364 - 346 - 218 [0.510] 928        (W - L - D)
        //   Elo difference: 6.7 +/- 19.5, LOS: 75.0 %, DrawRatio: 23.5 %
        //   SPRT: llr 0.174 (5.9%), lbound -2.94, ubound 2.94
        let wdl = Wdl::new(364, 218, 346);
        assert!(close(wdl.score(), 0.510, 0.0005));
        assert!(close(elo_interval(&wdl).value, 6.7, 0.05));
        // cutechess's approximate quantile (1.9572 instead of 1.96) makes its margin 19.548; ours
        // with the exact quantile is 19.576.
        let margin = elo_margin(&wdl);
        assert!(close(margin, 19.576, 0.01), "{margin}");
        assert!(close(margin * 1.957_162 / Z95, 19.5, 0.05), "{margin}");
        let llr = llr_bayeselo(&wdl, 0.0, 10.0);
        assert!(close(llr, 0.174, 0.001), "{llr}");
        let cfg = SprtConfig::new(0.0, 10.0, 0.05, 0.05).unwrap();
        assert!(close(cfg.lower_bound(), -2.94, 0.005));
        assert!(close(cfg.upper_bound(), 2.94, 0.005));
        // The logistic GSPRT on the same data lies close to cutechess's figure.
        let logistic = llr_logistic(&wdl, 0.0, 10.0);
        assert!(close(logistic, llr, 0.05), "{logistic} vs {llr}");
    }

    #[test]
    fn degenerate_samples_give_no_nan() {
        let empty = Wdl::default();
        assert_eq!(empty.score(), 0.5);
        let s = score_interval(&empty);
        assert_eq!((s.value, s.low, s.high), (0.5, 0.0, 1.0));
        let e = elo_interval(&empty);
        assert_eq!(e.value, 0.0);
        assert_eq!((e.low, e.high), (f64::NEG_INFINITY, f64::INFINITY));
        assert_eq!(llr_logistic(&empty, 0.0, 5.0), 0.0);

        let all_wins = Wdl::new(7, 0, 0);
        let e = elo_interval(&all_wins);
        assert_eq!(
            (e.value, e.low, e.high),
            (f64::INFINITY, f64::INFINITY, f64::INFINITY)
        );
        assert_eq!(elo_margin(&all_wins), 0.0);
        assert_eq!(format_elo(e.value), "+inf");

        let all_losses = Wdl::new(0, 0, 3);
        assert_eq!(format_elo(elo_interval(&all_losses).value), "-inf");
        let all_draws = Wdl::new(0, 4, 0);
        let e = elo_interval(&all_draws);
        assert_eq!((e.value, e.low, e.high), (0.0, 0.0, 0.0));

        let one_win = Wdl::new(1, 0, 0);
        let s = score_interval(&one_win);
        assert_eq!((s.low, s.high), (1.0, 1.0));
        for wdl in [all_wins, all_losses, all_draws, one_win, Wdl::new(1, 0, 1)] {
            for f in [llr_logistic, llr_logistic_approx, llr_bayeselo] {
                assert!(f(&wdl, 0.0, 5.0).is_finite(), "{wdl:?}");
            }
        }
        // A wide interval reaching past 0 or 1 is clamped, so its Elo end is infinite.
        let s = score_interval(&Wdl::new(1, 0, 1));
        assert_eq!((s.low, s.high), (0.0, 1.0));
        assert_eq!(format_elo(elo_from_score(s.low)), "-inf");
        assert_eq!(format_elo(12.345), "+12.3");
        assert_eq!(format_elo(elo_from_score(0.5)), "+0.0");
        assert_eq!(format_elo(-0.04), "-0.0");
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-600.0, -35.5, 0.0, 3.0, 147.19, 800.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
        }
        assert!(close(score_from_elo(0.0), 0.5, 1e-15));
        assert!(close(score_from_elo(400.0), 10.0 / 11.0, 1e-12));
    }

    #[test]
    fn sprt_bounds_are_walds() {
        let cfg = SprtConfig::new(0.0, 5.0, 0.05, 0.05).unwrap();
        assert!(close(cfg.lower_bound(), (0.05f64 / 0.95).ln(), 1e-15));
        assert!(close(cfg.upper_bound(), (0.95f64 / 0.05).ln(), 1e-15));
        assert!(close(cfg.upper_bound(), 2.944_439, 1e-6));
        let cfg = SprtConfig::new(0.0, 5.0, 0.05, 0.10).unwrap();
        assert!(close(cfg.lower_bound(), (0.10f64 / 0.95).ln(), 1e-15));
        assert!(close(cfg.upper_bound(), (0.90f64 / 0.05).ln(), 1e-15));
        assert!(SprtConfig::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(SprtConfig::new(0.0, 5.0, 0.0, 0.05).is_err());
        assert!(SprtConfig::new(0.0, 5.0, 0.6, 0.5).is_err());
        assert!(SprtConfig::new(f64::NAN, 5.0, 0.05, 0.05).is_err());
    }

    #[test]
    fn llr_without_draws_is_the_binomial_ratio() {
        // With no draws the MLE under "expected score s" is P(win) = s (up to the 1e-3 draw
        // pseudo-count), so LLR = W·ln(s1/s0) + L·ln((1-s1)/(1-s0)).
        let (w, l) = (60u32, 40u32);
        let (s0, s1) = (score_from_elo(0.0), score_from_elo(20.0));
        let exact = w as f64 * (s1 / s0).ln() + l as f64 * ((1.0 - s1) / (1.0 - s0)).ln();
        let llr = llr_logistic(&Wdl::new(w, 0, l), 0.0, 20.0);
        assert!(close(llr, exact, 1e-3), "{llr} vs {exact}");
    }

    #[test]
    fn llr_sign_and_symmetry() {
        // Results at the middle of [elo0, elo1] give LLR near 0, better ones positive, worse
        // ones negative, and the LLR grows with the sample.
        let cfg = SprtConfig::new(-10.0, 10.0, 0.05, 0.05).unwrap();
        let mid = Wdl::new(400, 200, 400);
        assert!(close(llr_logistic(&mid, -10.0, 10.0), 0.0, 1e-9));
        let better = Wdl::new(450, 200, 350);
        let worse = Wdl::new(350, 200, 450);
        assert!(llr_logistic(&better, -10.0, 10.0) > 0.0);
        assert!(llr_logistic(&worse, -10.0, 10.0) < 0.0);
        let bigger = Wdl::new(900, 400, 700);
        assert!(llr_logistic(&bigger, -10.0, 10.0) > llr_logistic(&better, -10.0, 10.0));
        assert_eq!(cfg.status(&better).decision, SprtDecision::AcceptH1);
        assert_eq!(cfg.status(&worse).decision, SprtDecision::AcceptH0);
        assert_eq!(cfg.status(&mid).decision, SprtDecision::Continue);
        // Swapping wins and losses mirrors the hypotheses: LLR(e0, e1; W, D, L) =
        // LLR(-e0, -e1; L, D, W).
        let a = llr_logistic(&Wdl::new(30, 11, 17), 0.0, 25.0);
        let b = llr_logistic(&Wdl::new(17, 11, 30), 0.0, -25.0);
        assert!(close(a, b, 1e-9), "{a} {b}");
        // Swapping the hypotheses negates the LLR.
        let c = llr_logistic(&Wdl::new(30, 11, 17), 25.0, 0.0);
        assert!(close(a, -c, 1e-9));
    }

    #[test]
    fn sweeps_are_weak_evidence_for_small_elo_gaps() {
        // Only wins: under either hypothesis the likeliest law puts P(win) = s, so each win is
        // worth ln(s1/s0) and 20 wins do not decide 0 against 5 Elo (the normal approximation
        // would, which is why the exact MLE is used).
        let wdl = Wdl::new(20, 0, 0);
        let per_win = (score_from_elo(5.0) / score_from_elo(0.0)).ln();
        let llr = llr_logistic(&wdl, 0.0, 5.0);
        assert!(close(llr, 20.0 * per_win, 1e-3), "{llr}");
        let cfg = SprtConfig::new(0.0, 5.0, 0.05, 0.05).unwrap();
        assert_eq!(cfg.status(&wdl).decision, SprtDecision::Continue);
        assert!(llr_logistic_approx(&wdl, 0.0, 5.0) > cfg.upper_bound());
        // ...but they do decide 0 against 200 Elo.
        let cfg = SprtConfig::new(0.0, 200.0, 0.05, 0.05).unwrap();
        assert_eq!(cfg.status(&wdl).decision, SprtDecision::AcceptH1);
    }

    #[test]
    fn exact_and_approximate_llr_agree_on_large_samples() {
        let wdl = Wdl::new(2100, 1800, 2000);
        let exact = llr_logistic(&wdl, 0.0, 5.0);
        let approx = llr_logistic_approx(&wdl, 0.0, 5.0);
        assert!(
            close(exact, approx, 0.02 * approx.abs().max(1.0)),
            "{exact} {approx}"
        );
    }

    #[test]
    fn results_count_and_flip() {
        use GameResult::*;
        let wdl = Wdl::from_results([Win, Draw, Loss, Win]);
        assert_eq!(wdl, Wdl::new(2, 1, 1));
        assert_eq!(Win.flip(), Loss);
        assert_eq!(Draw.flip(), Draw);
        assert_eq!(Loss.score(), 0.0);
    }
}
