//! Splitting one run over processes: a shard `K/N` and the run id that ties the shards together.
//!
//! A match shard plays the game pairs `p` with `p % N == K` (both games of a pair, so a pair is
//! never split); a solve shard takes every N-th position of a batch from the K-th. Every game
//! keeps the seeds and opening of its index (`play::play_game` derives them from the match seed
//! and the index alone), so the union of the N shards is the single-process run game for game.
//! The run id is a hash of everything that defines the run except the split, so that `gpn merge`
//! can refuse lines of different runs.

use std::fmt;

use crate::rng::mix64;

use super::{Budget, MatchConfig};

/// Shard `index` of `count` (`0 <= index < count`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// Reads `K/N` with `0 <= K < N`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("'{text}' is not K/N with 0 <= K < N (e.g. 0/4)");
        let (k, n) = text.trim().split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether pair (match) or position (solve) number `item` belongs to this shard.
    pub fn owns(&self, item: u64) -> bool {
        item % self.count as u64 == self.index as u64
    }

    /// The game indexes of a `games`-game match this shard plays, in order: both games of each
    /// of its pairs (the last pair of an odd count has one game).
    pub fn games(&self, games: u32) -> Vec<u32> {
        (0..games).filter(|&g| self.owns((g / 2) as u64)).collect()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A run id: 16 hex digits of a 64-bit hash of `description` (FNV-1a, then SplitMix64's mixer so
/// that similar descriptions give unrelated ids). Not cryptographic: it tells runs apart, it
/// does not authenticate them.
pub fn run_id(description: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in description.as_bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{:016x}", mix64(h))
}

/// What defines a match, as the text its run id hashes: the game, both agents as labelled, the
/// number of games, the budget, odds, openings, seed, length cap and SPRT bounds. Not the
/// shard, the concurrency or the date: they change how the games are scheduled, not the games.
pub fn match_description(game: &str, names: (&str, &str), cfg: &MatchConfig) -> String {
    let budget = match cfg.budget {
        Budget::Iterations(n) => format!("iterations:{n}"),
        Budget::Time(d) => format!("time_ns:{}", d.as_nanos()),
    };
    let sprt = match &cfg.sprt {
        Some(s) => format!("{},{},{},{}", s.elo0, s.elo1, s.alpha, s.beta),
        None => "none".to_string(),
    };
    format!(
        "gpn match v1|game={}|a={}|b={}|games={}|budget={budget}|odds={}|openings={}|seed={}|\
         max_plies={}|sprt={sprt}",
        json_string(game),
        json_string(names.0),
        json_string(names.1),
        cfg.games,
        cfg.odds,
        cfg.opening_plies,
        cfg.seed,
        cfg.max_plies
    )
}

/// A string as a JSON literal, as the run id's text has always quoted it. Not serde_json's
/// escaping: that writes backspace and form feed as `\b` and `\f` where this text has `\u0008`
/// and `\u000c`, which would change the ids of existing runs (and break their resume and merge).
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The run id of a match ([`match_description`] hashed).
pub fn match_run_id(game: &str, names: (&str, &str), cfg: &MatchConfig) -> String {
    run_id(&match_description(game, names, cfg))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::SprtConfig;
    use crate::game::connect4::ConnectFour;

    #[test]
    fn shards_parse_and_refuse_bad_splits() {
        assert_eq!(Shard::parse("1/4"), Ok(Shard { index: 1, count: 4 }));
        assert_eq!(Shard::parse(" 0 / 1 "), Ok(Shard { index: 0, count: 1 }));
        for bad in ["4/4", "1/0", "1", "a/3", "-1/3", "1/2/3", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Shard::parse("2/3").unwrap().to_string(), "2/3");
    }

    #[test]
    fn shards_split_pairs_and_cover_every_game_once() {
        // 11 games: pairs 0..=5, the last one a single game.
        let shards: Vec<Vec<u32>> = (0..4)
            .map(|k| Shard { index: k, count: 4 }.games(11))
            .collect();
        assert_eq!(shards[0], [0, 1, 8, 9]);
        assert_eq!(shards[1], [2, 3, 10]);
        assert_eq!(shards[2], [4, 5]);
        assert_eq!(shards[3], [6, 7]);
        let mut all: Vec<u32> = shards.concat();
        all.sort_unstable();
        assert_eq!(all, (0..11).collect::<Vec<_>>());
    }

    #[test]
    fn the_run_id_changes_with_the_run_but_not_with_the_split() {
        let cfg = MatchConfig::for_game::<ConnectFour>();
        let id = match_run_id("cfour", ("a", "b"), &cfg);
        assert_eq!(id.len(), 16);
        let scheduled = MatchConfig {
            concurrency: 7,
            progress: false,
            ..cfg.clone()
        };
        assert_eq!(match_run_id("cfour", ("a", "b"), &scheduled), id);
        let changes = [
            MatchConfig {
                games: 99,
                ..cfg.clone()
            },
            MatchConfig {
                seed: 2,
                ..cfg.clone()
            },
            MatchConfig {
                odds: 2,
                ..cfg.clone()
            },
            MatchConfig {
                opening_plies: 2,
                ..cfg.clone()
            },
            MatchConfig {
                budget: Budget::Iterations(999),
                ..cfg.clone()
            },
            MatchConfig {
                max_plies: 10,
                ..cfg.clone()
            },
            MatchConfig {
                sprt: SprtConfig::new(0.0, 5.0, 0.05, 0.05).ok(),
                ..cfg.clone()
            },
        ];
        for changed in &changes {
            assert_ne!(
                match_run_id("cfour", ("a", "b"), changed),
                id,
                "{changed:?}"
            );
        }
        assert_ne!(match_run_id("cfour", ("b", "a"), &cfg), id);
        assert_ne!(match_run_id("gomoku", ("a", "b"), &cfg), id);
        // The quoting the ids hash is the one the hand-written JSON writer had.
        assert_eq!(json_string("a\"b\\c\n\u{8}é"), r#""a\"b\\c\n\u0008é""#);
    }
}
