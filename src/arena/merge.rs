//! Putting a run back together: the JSON Lines games files of its shards into one match report.
//!
//! Every line carries its run id and the settings the id hashes, so the merge rebuilds the
//! match's [`MatchConfig`] from the lines themselves, checks that each line's id is the hash of
//! its own settings and that all lines share one id, and then hands the games to the same
//! report, JSON and statistics code as `gpn match` (`output`, `stats`). Games are keyed by their
//! index: a game seen twice with the same result is counted once and reported, with different
//! results it is an error. Pairs the run planned but no file holds are reported as missing.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use crate::game::registry;
use crate::game::{Game, GameVisitor, Player};

use super::lines::GameLine;
use super::shard::match_run_id;
use super::{GameRecord, MatchConfig, MatchReport, SprtReport};

/// One input: a name for messages (the file's path) and its text.
pub struct Source {
    pub name: String,
    pub text: String,
}

/// The merged run with what the merge found on the way.
#[derive(Debug)]
pub struct MergedMatch {
    /// The report over every distinct game, as `gpn match` would give for them.
    pub report: MatchReport,
    /// The run id all lines share.
    pub run: String,
    /// Game lines read (duplicates included).
    pub lines: usize,
    /// The shards seen (`K/N`, or `all` for an unsharded match), in order.
    pub shards: Vec<String>,
    /// Games found more than once with the same result (counted once), with their count.
    pub duplicates: Vec<(u32, usize)>,
    /// Pairs of the run with no game in any file.
    pub missing_pairs: Vec<u32>,
    /// Pairs with one of their two games only.
    pub incomplete_pairs: Vec<u32>,
    /// Unterminated last lines that are not JSON (`file:line`), skipped: a shard killed while
    /// writing a game leaves one.
    pub truncated: Vec<String>,
}

/// A line's place, for messages: `file:line`.
fn at(source: &Source, line: usize) -> String {
    format!("{}:{}", source.name, line + 1)
}

/// What a line says about its run: the game, the agents and the settings.
struct RunSettings {
    game: &'static str,
    names: (String, String),
    config: MatchConfig,
    shard: String,
}

fn read_settings(line: &GameLine) -> Result<RunSettings, String> {
    let name = &line.game;
    let game = registry::canonical_name(name).ok_or_else(|| format!("unknown game '{name}'"))?;
    let m = line.settings.as_ref().ok_or("no \"match\" field")?;
    let config = MatchConfig {
        games: m.games,
        budget: m.budget,
        odds: m.odds,
        opening_plies: m.opening_plies,
        concurrency: m.concurrency,
        seed: line.seed,
        max_plies: m.max_plies,
        sprt: m.sprt,
        progress: false,
        stop: None,
        shard: None,
        done: BTreeSet::new(),
    };
    Ok(RunSettings {
        game,
        names: (line.engine_a.clone(), line.engine_b.clone()),
        config,
        shard: line.shard.clone().flatten().unwrap_or_else(|| "all".into()),
    })
}

/// A game's seat names, seat by seat (the registry knows the game by name only).
struct SeatNames;

impl GameVisitor for SeatNames {
    type Output = Vec<&'static str>;
    fn visit<G: Game>(self) -> Vec<&'static str> {
        (0..G::NUM_PLAYERS)
            .map(|s| G::player_name(Player(s as u8)))
            .collect()
    }
}

/// Merges the games files of one run's shards (any number of files, any split, in any order).
///
/// Errors: a line that is not a game record of `gpn match --games-file` in JSON Lines with a run
/// id, lines of different runs, a line whose id is not that of its own settings, a game index
/// outside the run, and a game found twice with different results.
pub fn merge_match(sources: &[Source]) -> Result<MergedMatch, String> {
    let mut first: Option<(RunSettings, String, String)> = None;
    let mut games: BTreeMap<u32, (GameRecord, String)> = BTreeMap::new();
    let mut seen: BTreeMap<u32, usize> = BTreeMap::new();
    let mut shards: BTreeSet<String> = BTreeSet::new();
    let mut concurrency: BTreeMap<String, usize> = BTreeMap::new();
    let mut lines = 0;
    let mut truncated = Vec::new();
    for source in sources {
        let last = source.text.lines().count().saturating_sub(1);
        let unterminated = !source.text.ends_with('\n');
        for (n, line) in source.text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let place = at(source, n);
            let v: serde_json::Value = match serde_json::from_str(line) {
                Ok(v) => v,
                Err(_) if n == last && unterminated && n > 0 => {
                    truncated.push(place);
                    continue;
                }
                Err(e) => {
                    return Err(format!(
                        "{place}: not a JSON line ({e}); merge reads the JSON Lines games files \
                         of --shard"
                    ))
                }
            };
            let run = v.get("run").and_then(|r| r.as_str()).ok_or_else(|| {
                format!(
                    "{place}: no run id: not a games file of `gpn match --games-file` in JSON \
                     Lines (PGN cannot be merged; --shard writes JSON Lines)"
                )
            })?;
            let parsed = GameLine::deserialize(&v).map_err(|e| format!("{place}: {e}"))?;
            let settings = read_settings(&parsed).map_err(|e| format!("{place}: {e}"))?;
            let id = match_run_id(
                settings.game,
                (&settings.names.0, &settings.names.1),
                &settings.config,
            );
            if id != run {
                return Err(format!(
                    "{place}: run id {run} is not the id of the line's own settings ({id}): \
                     the line was edited or written by another version of gpn"
                ));
            }
            if let Some((_, first_run, first_place)) = &first {
                if first_run != run {
                    return Err(format!(
                        "{place} is from run {run}, {first_place} from run {first_run}: \
                         lines of different runs are not merged"
                    ));
                }
            }
            shards.insert(settings.shard.clone());
            concurrency.insert(settings.shard.clone(), settings.config.concurrency);
            if first.is_none() {
                first = Some((settings, run.to_string(), place.clone()));
            }
            let game = parsed
                .fields
                .record()
                .map_err(|e| format!("{place}: {e}"))?;
            let total = first.as_ref().map_or(0, |(s, _, _)| s.config.games);
            if game.index >= total {
                return Err(format!(
                    "{place}: game {} is outside the run's {total} games",
                    game.index
                ));
            }
            lines += 1;
            *seen.entry(game.index).or_default() += 1;
            match games.get(&game.index) {
                Some((kept, kept_place)) if kept.result != game.result => {
                    return Err(format!(
                        "game {} conflicts: {kept_place} says A's {}, {place} says A's {}",
                        game.index, kept.result, game.result
                    ))
                }
                Some(_) => {}
                None => {
                    games.insert(game.index, (game, place));
                }
            }
        }
    }
    let Some((settings, run, _)) = first else {
        return Err("no game records in the input".into());
    };
    let total = settings.config.games;
    let pairs = total.div_ceil(2);
    let mut missing_pairs = Vec::new();
    let mut incomplete_pairs = Vec::new();
    for pair in 0..pairs {
        let planned = if 2 * pair + 1 < total { 2 } else { 1 };
        let found = (2 * pair..(2 * pair + planned).min(total))
            .filter(|g| games.contains_key(g))
            .count();
        if found == 0 {
            missing_pairs.push(pair);
        } else if found < planned as usize {
            incomplete_pairs.push(pair);
        }
    }
    let duplicates = seen.into_iter().filter(|&(_, n)| n > 1).collect();
    let games: Vec<GameRecord> = games.into_values().map(|(g, _)| g).collect();
    // The lines hold think times, not the shards' wall times: the time of the merged run is
    // the time its games took, one after another.
    let seconds = games
        .iter()
        .map(|g| (g.think_ms[0] + g.think_ms[1]) / 1e3)
        .sum();
    let mut config = settings.config;
    config.concurrency = concurrency.values().sum();
    let sprt = config.sprt.map(|cfg| {
        let wdl = super::Wdl::from_results(games.iter().map(|g| g.result));
        SprtReport {
            config: cfg,
            status: cfg.status(&wdl),
            decided: None,
        }
    });
    Ok(MergedMatch {
        report: MatchReport {
            game: settings.game,
            seat_names: registry::visit(settings.game, SeatNames).unwrap_or_default(),
            names: settings.names,
            config,
            games,
            sprt,
            seconds,
            interrupted: false,
        },
        run,
        lines,
        shards: shards.into_iter().collect(),
        duplicates,
        missing_pairs,
        incomplete_pairs,
        truncated,
    })
}

/// What a two-player games file already holds, to resume it: its finished games of run `run`,
/// and how many bytes of `text` to keep (all but a half-written last line). An empty text holds
/// nothing; lines of another run, or lines that are not game records, are an error.
pub fn finished_games(name: &str, text: &str, run: &str) -> Result<(Vec<GameRecord>, u64), String> {
    let keep = match text.rfind('\n') {
        Some(at) => at + 1,
        None => 0,
    };
    if text[..keep].trim().is_empty() {
        return Ok((Vec::new(), keep as u64));
    }
    let source = Source {
        name: name.to_string(),
        text: text[..keep].to_string(),
    };
    let merged = merge_match(std::slice::from_ref(&source))?;
    if merged.run != run {
        return Err(format!(
            "{name} holds games of run {}, not of this run ({run}): give each run its own file",
            merged.run
        ));
    }
    Ok((merged.report.games, keep as u64))
}

/// A list of numbers for a report line, the first `limit` of them and a count of the rest.
fn list(items: &[u32], limit: usize) -> String {
    let shown: Vec<String> = items.iter().take(limit).map(u32::to_string).collect();
    let rest = items.len().saturating_sub(limit);
    if rest > 0 {
        format!("{} and {rest} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// The merge's own lines, printed after the match report: the run, the shards, the lines read,
/// then missing and incomplete pairs and duplicated games (`none` when there are none).
pub fn format_merge_lines(m: &MergedMatch, files: usize) -> String {
    let games = m.report.config.games;
    let mut out = format!(
        "merged: run {}, {} files, shards {}, {} lines, {} distinct games of {}\n",
        m.run,
        files,
        m.shards.join(" "),
        m.lines,
        m.report.games.len(),
        games
    );
    out += &format!(
        "missing pairs: {}\n",
        if m.missing_pairs.is_empty() {
            "none".to_string()
        } else {
            format!(
                "{} of {} ({})",
                m.missing_pairs.len(),
                games.div_ceil(2),
                list(&m.missing_pairs, 20)
            )
        }
    );
    out += &format!(
        "incomplete pairs: {}\n",
        if m.incomplete_pairs.is_empty() {
            "none".to_string()
        } else {
            format!(
                "{} ({})",
                m.incomplete_pairs.len(),
                list(&m.incomplete_pairs, 20)
            )
        }
    );
    if !m.truncated.is_empty() {
        out += &format!("truncated last lines skipped: {}\n", m.truncated.join(", "));
    }
    let dup: Vec<String> = m
        .duplicates
        .iter()
        .take(20)
        .map(|(g, n)| format!("game {g} x{n}"))
        .collect();
    out += &format!(
        "duplicate games (same result, counted once): {}\n",
        if dup.is_empty() {
            "none".to_string()
        } else {
            let rest = m.duplicates.len().saturating_sub(20);
            let more = if rest > 0 {
                format!(" and {rest} more")
            } else {
                String::new()
            };
            format!("{} ({}{more})", m.duplicates.len(), dup.join(", "))
        }
    );
    out
}

/// One line per pair: its opening, both games' results for A and the pair's score
/// (`pair 3 [d1 e1]: A first win, A second draw, 1.5`).
pub fn format_pairs(report: &MatchReport) -> String {
    let mut by_pair: BTreeMap<u32, Vec<&GameRecord>> = BTreeMap::new();
    for g in &report.games {
        by_pair.entry(g.pair()).or_default().push(g);
    }
    let mut out = String::new();
    for (pair, games) in by_pair {
        let seat = |g: &GameRecord| {
            if g.a_seat() == Player(0) {
                "A first"
            } else {
                "A second"
            }
        };
        let results: Vec<String> = games
            .iter()
            .map(|g| format!("{} {}", seat(g), g.result))
            .collect();
        let score: f64 = games.iter().map(|g| g.result.score()).sum();
        let complete = if games.len() == 2 { "" } else { " (one game)" };
        let opening = if games[0].opening.is_empty() {
            "start".to_string()
        } else {
            games[0].opening.join(" ")
        };
        out += &format!(
            "pair {pair} [{opening}]: {}, {score}{complete}\n",
            results.join(", ")
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::agents::RandomAgent;
    use crate::arena::records::{json_line, MatchHeader, RunTag};
    use crate::arena::{run_match, Agent, AgentFactory, Budget, GameResult, Shard, SprtConfig};
    use crate::game::connect4::ConnectFour;

    fn random() -> Box<AgentFactory<ConnectFour>> {
        Box::new(|seed| Box::new(RandomAgent::new(seed)) as Box<dyn Agent<ConnectFour>>)
    }

    /// The games file of `config`'s games, as `gpn match --games-file` writes it.
    fn games_file(config: &MatchConfig) -> Source {
        let report = run_match(config, &*random(), &*random(), ("a", "b"));
        let header = MatchHeader {
            game: "cfour",
            names: ("a", "b"),
            seed: config.seed,
            budget: config.budget,
            date: "2026.11.25".to_string(),
            run: Some(RunTag {
                id: match_run_id("cfour", ("a", "b"), config),
                config,
            }),
        };
        let text: String = report
            .games
            .iter()
            .map(|g| json_line(&header, g).unwrap() + "\n")
            .collect();
        Source {
            name: format!("{:?}", config.shard),
            text,
        }
    }

    fn config(shard: Option<Shard>) -> MatchConfig {
        MatchConfig {
            games: 9,
            budget: Budget::Iterations(1),
            opening_plies: 2,
            progress: false,
            shard,
            ..MatchConfig::for_game::<ConnectFour>()
        }
    }

    #[test]
    fn shards_merge_into_the_whole_match() {
        let whole = merge_match(&[games_file(&config(None))]).unwrap();
        let shards: Vec<Source> = (0..4)
            .map(|k| games_file(&config(Some(Shard { index: k, count: 4 }))))
            .collect();
        let merged = merge_match(&shards).unwrap();
        assert_eq!(merged.run, whole.run);
        assert_eq!(merged.report.games.len(), 9);
        let key = |r: &MatchReport| -> Vec<(u32, Vec<String>, GameResult)> {
            r.games
                .iter()
                .map(|g| (g.index, g.moves.clone(), g.result))
                .collect()
        };
        assert_eq!(key(&merged.report), key(&whole.report));
        assert_eq!(merged.report.wdl(), whole.report.wdl());
        assert_eq!(merged.report.pentanomial(), whole.report.pentanomial());
        assert!(merged.missing_pairs.is_empty() && merged.duplicates.is_empty());
        assert_eq!(merged.shards, ["0/4", "1/4", "2/4", "3/4"]);
        assert_eq!(merged.report.config.concurrency, 4);
        let pairs = format_pairs(&merged.report);
        let lines: Vec<&str> = pairs.lines().collect();
        assert_eq!(lines.len(), 5, "{pairs}");
        let first = &merged.report.games[0];
        assert!(
            lines[0].starts_with(&format!(
                "pair 0 [{}]: A first {}, A second ",
                first.opening.join(" "),
                first.result
            )),
            "{pairs}"
        );
        assert!(lines[4].ends_with(" (one game)"), "{pairs}");
    }

    /// A hostile count or time in a line is an error, not an abort: a count of choices used to
    /// size a vector before anything checked it (1e12 choices: a 16 TB allocation) and a time
    /// of 1e300 ms made `Duration::from_secs_f64` panic.
    #[test]
    fn hostile_counts_and_times_are_errors() {
        let file = games_file(&config(None));
        let first = file.text.lines().next().unwrap().to_string();
        let swap = |key: &str, value: &str| {
            let at = first.find(&format!("\"{key}\":")).unwrap() + key.len() + 3;
            let end = at + first[at..].find(',').unwrap();
            Source {
                name: "hostile".into(),
                text: format!("{}{value}{}\n", &first[..at], &first[end..]),
            }
        };
        assert!(merge_match(&[swap("choices_a", "0")]).is_ok());
        for (key, value) in [
            ("choices_a", "1000000000000"),
            ("choices_b", "18446744073709551615"),
            ("think_ms_a", "1e300"),
            ("think_ms_b", "1e25"),
        ] {
            let err = merge_match(&[swap(key, value)]).unwrap_err();
            assert!(err.contains(key), "{key} {value}: {err}");
        }
    }

    #[test]
    fn the_sprt_is_computed_on_the_merged_totals() {
        let sprt = SprtConfig::new(-400.0, -300.0, 0.05, 0.05).ok();
        let shard = |k| {
            games_file(&MatchConfig {
                sprt,
                ..config(Some(Shard { index: k, count: 2 }))
            })
        };
        let merged = merge_match(&[shard(0), shard(1)]).unwrap();
        let report = &merged.report;
        let s = report.sprt.expect("the run's SPRT bounds");
        assert_eq!(Some(s.config), sprt);
        assert_eq!(s.status, s.config.status(&report.wdl()));
        assert!(s.decided.is_none());
        assert_eq!(report.games.len(), 9);
        let text = crate::arena::output::format_report(report);
        assert!(text.contains("sprt: elo0 -400 elo1 -300 "), "{text}");
        // Without bounds, no SPRT line.
        let plain = merge_match(&[games_file(&config(None))]).unwrap();
        assert!(plain.report.sprt.is_none());
    }

    #[test]
    fn missing_pairs_and_duplicates_are_found() {
        let shard = |k| games_file(&config(Some(Shard { index: k, count: 3 })));
        // Shard 1 of 3 holds pairs 1 and 4 (games 2, 3 and 8).
        let merged = merge_match(&[shard(0), shard(2), shard(0)]).unwrap();
        assert_eq!(merged.missing_pairs, [1, 4]);
        assert!(merged.incomplete_pairs.is_empty());
        assert_eq!(merged.duplicates, [(0, 2), (1, 2), (6, 2), (7, 2)]);
        assert_eq!(merged.report.games.len(), 6);
        let text = format_merge_lines(&merged, 3);
        assert!(text.contains("missing pairs: 2 of 5 (1, 4)\n"), "{text}");
        let other = games_file(&MatchConfig {
            seed: 5,
            ..config(Some(Shard { index: 1, count: 3 }))
        });
        let err = merge_match(&[shard(0), other]).unwrap_err();
        assert!(err.contains("different runs"), "{err}");
        assert!(merge_match(&[]).unwrap_err().contains("no game records"));
        // A shard killed while writing leaves half a line at the end: skipped and reported.
        let mut cut = shard(1);
        let keep = cut.text.len() - 40;
        cut.text.truncate(keep);
        let merged = merge_match(&[shard(0), cut]).unwrap();
        assert_eq!(merged.truncated, ["Some(Shard { index: 1, count: 3 }):3"]);
        assert_eq!(merged.report.games.len(), 6);
        assert!(format_merge_lines(&merged, 2).contains("truncated last lines skipped: "));
        // Anywhere else, a broken line is an error.
        let mut broken = shard(1);
        broken.text.insert(1, '#');
        assert!(merge_match(&[broken])
            .unwrap_err()
            .contains(":1: not a JSON line"));
    }
}
