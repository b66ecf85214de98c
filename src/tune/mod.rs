//! `gpn tune`: SPSA over the registry's tunable search options, playing game pairs in the arena.
//!
//! The parameters, their ranges and steps come from [`crate::options`] (`tune`), their starting
//! values from the game's defaults with the base spec; each step plays game pairs (same opening,
//! colours swapped) between the base engine at `theta + c_k delta` and at `theta - c_k delta`
//! with the arena of `gpn match` ([`crate::arena::run_match`]). The state is written after every
//! step (a temporary file, then a rename), so a Ctrl-C or a crash loses at most the step in
//! progress and a rerun with the same output directory continues where it stopped.
//!
//! Shards (`--shard K/N`): SPSA is sequential, every step needs the theta the previous one
//! left, so shards cannot run ahead of each other. Shard K plays the pairs `p` of each step with
//! `p % N == K`, appends its step result to `steps-K-of-N.jsonl` in the shared output directory,
//! and waits for every other shard's line of that step; all shards then sum the same results
//! and compute the same theta. Useful when a step has many pairs (`--pairs-per-step`), as
//! OpenBench's workers share a batch.

pub mod spsa;
pub mod svg;

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::arena::spec::{agent_factory, parse_agent_spec, AgentSpec};
use crate::arena::{derive_seed, run_match, Budget, MatchConfig, Shard, StopFlag};
use crate::game::registry::{self, GameVisitor, PlayersVisitor};
use crate::game::Game;
use crate::options::{self, Kind, SPIN_PREFIX, SPIN_SCALE};
use crate::search::SearchParams;
use spsa::{Param, RunSpec, SpsaState, StepResult};

/// Why a tuning run could not start or go on.
#[derive(Debug)]
pub enum TuneError {
    /// Settings that do not fit (the message says which).
    Usage(String),
    /// A file could not be read or written.
    Io(String),
}

impl std::fmt::Display for TuneError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TuneError::Usage(m) | TuneError::Io(m) => f.write_str(m),
        }
    }
}

/// The tunable options of the registry named by `keys` (any of their names; all of them when
/// `keys` is empty), as SPSA parameters.
pub fn tunable_params(keys: &[String]) -> Result<Vec<Param>, String> {
    let param = |o: &options::EngineOption| {
        o.tune.map(|t| Param {
            key: o.key.to_string(),
            int: matches!(o.kind, Kind::Int { .. }),
            min: t.min,
            max: t.max,
            c_end: t.c_end,
            r_end: t.r_end,
        })
    };
    if keys.is_empty() {
        return Ok(options::OPTIONS.iter().filter_map(param).collect());
    }
    let mut out: Vec<Param> = Vec::new();
    for key in keys {
        let option = options::lookup(key)?;
        let p = param(option).ok_or_else(|| format!("'{key}' is not a tunable option"))?;
        if out.iter().any(|q| q.key == p.key) {
            return Err(format!("'{key}' is named twice"));
        }
        out.push(p);
    }
    Ok(out)
}

/// The search parameters of `base` (an agent spec: `default ...` or an algorithm with options)
/// for `game`.
pub fn base_params(game: &str, base: &str) -> Result<SearchParams, String> {
    match parse_agent_spec(base)? {
        AgentSpec::Random => Err("the base engine must be a search, not 'random'".into()),
        AgentSpec::Search(p) => Ok(p),
        AgentSpec::Defaults(extra) => {
            let mut p = SearchParams::for_game(game);
            p.apply_spec(&extra).map_err(|e| e.to_string())?;
            Ok(p)
        }
    }
}

/// The OpenBench SPSA list of `params` with their values in `base` for `game`: one line
/// `name, int|float, value, min, max, c_end, r_end` each. `spin`: the real options in their
/// spin form (`Tune_C`, values and steps times [`SPIN_SCALE`], `r_end` divided by it, which is
/// the same learning rate in the scaled units) for tuners that only speak `spin`.
pub fn openbench_list(
    game: &str,
    base: &str,
    params: &[Param],
    spin: bool,
) -> Result<String, String> {
    let values = base_params(game, base)?;
    let mut text = String::new();
    for p in params {
        let option = options::lookup(&p.key)?;
        let value = p.clamp(values.tunable_value(&p.key).unwrap_or(p.min));
        let line = if p.int {
            format!(
                "{}, int, {}, {}, {}, {}, {}",
                option.usi,
                value.round(),
                p.min,
                p.max,
                p.c_end,
                p.r_end
            )
        } else if spin {
            let s = |x: f64| (x * SPIN_SCALE).round();
            format!(
                "{SPIN_PREFIX}{}, int, {}, {}, {}, {}, {}",
                option.usi,
                s(value),
                s(p.min),
                s(p.max),
                s(p.c_end),
                p.r_end / SPIN_SCALE
            )
        } else {
            format!(
                "{}, float, {}, {}, {}, {}, {}",
                option.usi, value, p.min, p.max, p.c_end, p.r_end
            )
        };
        text.push_str(&line);
        text.push('\n');
    }
    Ok(text)
}

/// What a tuning run plays and where it writes.
#[derive(Clone, Debug)]
pub struct TuneSettings {
    pub game: String,
    /// The engine spec both sides start from.
    pub base: String,
    pub params: Vec<Param>,
    /// The schedules' iterations `N`, in game pairs.
    pub pairs: u32,
    pub pairs_per_step: u32,
    pub budget: Budget,
    pub openings: u32,
    pub seed: u64,
    pub concurrency: usize,
    /// `None`: the game's own length cap.
    pub max_plies: Option<u32>,
    /// The directory of the state, the path (CSV, SVG) and the shards' step files.
    pub out: PathBuf,
    pub shard: Option<Shard>,
    pub stop: Option<StopFlag>,
}

impl TuneSettings {
    fn run_spec(&self, game: &str) -> RunSpec {
        RunSpec {
            game: game.to_string(),
            base: self.base.split_whitespace().collect::<Vec<_>>().join(" "),
            budget: match self.budget {
                Budget::Iterations(n) => format!("iterations:{n}"),
                Budget::Time(d) => format!("movetime:{}", d.as_millis()),
            },
            openings: self.openings,
            pairs: self.pairs,
            pairs_per_step: self.pairs_per_step.max(1),
            seed: self.seed,
            params: self.params.clone(),
        }
    }

    /// The state file of this process (one per shard: each keeps its own copy of theta).
    pub fn state_path(&self) -> PathBuf {
        self.out.join(match self.shard {
            Some(s) => format!("state-{}-of-{}.json", s.index, s.count),
            None => "state.json".into(),
        })
    }

    fn steps_path(&self, shard: Shard) -> PathBuf {
        self.out
            .join(format!("steps-{}-of-{}.jsonl", shard.index, shard.count))
    }

    /// Whether this process writes the path and the chart (the only or the first shard).
    fn writes_path(&self) -> bool {
        !matches!(self.shard, Some(s) if s.index != 0)
    }
}

/// One shard's result of one step, a line of its steps file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct StepLine {
    run: String,
    step: u32,
    shard: u32,
    result: StepResult,
}

/// Writes `text` to `path` atomically: a temporary file beside it, then a rename, so that a
/// reader or an interruption never sees half a file.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
    }
    fs::rename(&tmp, path)
}

/// What a run did: its state when it stopped and whether a Ctrl-C stopped it.
pub struct TuneOutcome {
    pub state: SpsaState,
    pub interrupted: bool,
    pub seconds: f64,
}

/// Runs (or continues) the SPSA run of `settings`; `progress` gets a line per step.
pub fn run(
    settings: &TuneSettings,
    progress: &mut dyn FnMut(&str),
) -> Result<TuneOutcome, TuneError> {
    let canonical = registry::canonical_name(&settings.game)
        .ok_or_else(|| TuneError::Usage(format!("unknown game '{}'", settings.game)))?;
    if settings.params.is_empty() {
        return Err(TuneError::Usage("no parameters to tune".into()));
    }
    if settings.pairs == 0 {
        return Err(TuneError::Usage("--pairs must be at least 1".into()));
    }
    let visitor = Tune { settings, progress };
    registry::visit(canonical, visitor).map_err(|e| TuneError::Usage(e.to_string()))?
}

struct Tune<'a> {
    settings: &'a TuneSettings,
    progress: &'a mut dyn FnMut(&str),
}

impl GameVisitor for Tune<'_> {
    type Output = Result<TuneOutcome, TuneError>;
    fn visit<G: Game>(self) -> Self::Output {
        G::with_players(self)
    }
}

impl PlayersVisitor for Tune<'_> {
    type Output = Result<TuneOutcome, TuneError>;
    fn visit<G: Game, const P: usize>(self) -> Self::Output {
        let settings = self.settings;
        if P != 2 {
            return Err(TuneError::Usage(format!(
                "gpn tune plays two-player games; {} has {P} players",
                G::INFO.name
            )));
        }
        let t0 = Instant::now();
        let usage = TuneError::Usage;
        let io = |what: &Path, e: std::io::Error| {
            TuneError::Io(format!("cannot write {}: {e}", what.display()))
        };
        let base = base_params(G::INFO.name, &settings.base).map_err(usage)?;
        base.check_network_for::<G>()
            .map_err(|e| TuneError::Usage(e.to_string()))?;
        fs::create_dir_all(&settings.out).map_err(|e| io(&settings.out, e))?;
        let spec = settings.run_spec(G::INFO.name);
        let run_id = crate::arena::shard::run_id(
            &serde_json::to_string(&spec).map_err(|e| TuneError::Io(e.to_string()))?,
        );
        let state_path = settings.state_path();
        let mut state = load_state(&state_path, &spec)?.unwrap_or_else(|| {
            let start = spec
                .params
                .iter()
                .map(|p| base.tunable_value(&p.key).unwrap_or(p.min))
                .collect();
            SpsaState::new(spec.clone(), start)
        });
        if state.steps > 0 {
            (self.progress)(&format!(
                "resuming {}: step {}, {} of {} pairs played",
                state_path.display(),
                state.steps,
                state.pairs_done,
                spec.pairs
            ));
        }
        let user_stop = || settings.stop.as_ref().is_some_and(StopFlag::is_raised);
        let mut interrupted = false;
        while !state.finished() {
            if user_stop() {
                interrupted = true;
                break;
            }
            let pairs = state.next_pairs();
            let plan = state.plan();
            let own = match settings.shard {
                Some(shard) => read_step(&settings.steps_path(shard), &run_id, plan.step)?,
                None => None,
            };
            let mine = match own {
                Some(r) => r,
                None => {
                    let engine = |point: &[f64]| -> Result<SearchParams, TuneError> {
                        let mut p = base.clone();
                        for (param, &x) in spec.params.iter().zip(point) {
                            let value = options::format_real(param.engine_value(x));
                            p.set(&param.key, &value)
                                .map_err(|e| TuneError::Usage(e.to_string()))?;
                        }
                        Ok(p)
                    };
                    let plus = AgentSpec::Search(engine(&plan.plus)?);
                    let minus = AgentSpec::Search(engine(&plan.minus)?);
                    let config = MatchConfig {
                        games: 2 * pairs,
                        budget: settings.budget,
                        odds: 1,
                        opening_plies: settings.openings,
                        concurrency: settings.concurrency,
                        // Every step gets its own openings and engine seeds.
                        seed: derive_seed(settings.seed, 300, plan.step as u64),
                        max_plies: settings.max_plies.unwrap_or(G::MAX_PLIES),
                        sprt: None,
                        progress: false,
                        stop: settings.stop.clone(),
                        shard: settings.shard,
                        done: Default::default(),
                    };
                    let report = run_match::<G>(
                        &config,
                        &*agent_factory::<G, P>(&plus),
                        &*agent_factory::<G, P>(&minus),
                        ("plus", "minus"),
                    );
                    if report.interrupted || user_stop() {
                        interrupted = true;
                        break;
                    }
                    let wdl = report.wdl();
                    let r = StepResult {
                        wins: wdl.wins,
                        draws: wdl.draws,
                        losses: wdl.losses,
                    };
                    if let Some(shard) = settings.shard {
                        let line = StepLine {
                            run: run_id.clone(),
                            step: plan.step,
                            shard: shard.index,
                            result: r,
                        };
                        append_line(&settings.steps_path(shard), &line)?;
                    }
                    r
                }
            };
            let result = match settings.shard {
                Some(shard) => {
                    match wait_for_shards(settings, shard, &run_id, plan.step, mine, &user_stop)? {
                        Some(r) => r,
                        None => {
                            interrupted = true;
                            break;
                        }
                    }
                }
                None => mine,
            };
            state.apply(&plan, pairs, result);
            save(settings, &state, state.finished() || state.steps % 25 == 0)?;
            (self.progress)(&progress_line(&state, &plan, result));
        }
        save(settings, &state, true)?;
        Ok(TuneOutcome {
            state,
            interrupted,
            seconds: t0.elapsed().as_secs_f64(),
        })
    }
}

/// The progress line of a step: where it stands, the points played, the result, theta.
fn progress_line(state: &SpsaState, plan: &spsa::StepPlan, r: StepResult) -> String {
    let point = |xs: &[f64]| -> String {
        xs.iter()
            .map(|x| format!("{x:.4}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!(
        "step {} pairs {}/{} plus [{}] minus [{}] W {} D {} L {} theta [{}]",
        plan.step + 1,
        state.pairs_done,
        state.spec.pairs,
        point(&plan.plus),
        point(&plan.minus),
        r.wins,
        r.draws,
        r.losses,
        point(&state.theta)
    )
}

/// Writes the state (and, for the first shard, the path CSV; the chart when `chart`).
fn save(settings: &TuneSettings, state: &SpsaState, chart: bool) -> Result<(), TuneError> {
    let io = |what: &Path, e: std::io::Error| {
        TuneError::Io(format!("cannot write {}: {e}", what.display()))
    };
    let path = settings.state_path();
    let text = serde_json::to_string(state).map_err(|e| TuneError::Io(e.to_string()))?;
    write_atomic(&path, &text).map_err(|e| io(&path, e))?;
    if settings.writes_path() {
        let csv = settings.out.join("path.csv");
        write_atomic(&csv, &state.path_csv()).map_err(|e| io(&csv, e))?;
        if chart {
            let file = settings.out.join("path.svg");
            write_atomic(&file, &svg::path_chart(state)).map_err(|e| io(&file, e))?;
        }
    }
    Ok(())
}

/// The state in `path`, if there is one: it must belong to the run `spec` describes.
fn load_state(path: &Path, spec: &RunSpec) -> Result<Option<SpsaState>, TuneError> {
    let text = match crate::files::read_text_or_empty(path, 1 << 30) {
        Ok(t) if t.trim().is_empty() => return Ok(None),
        Ok(t) => t,
        Err(e) => return Err(TuneError::Io(format!("{}: {e}", path.display()))),
    };
    let state: SpsaState = serde_json::from_str(&text)
        .map_err(|e| TuneError::Usage(format!("{}: not a tuning state: {e}", path.display())))?;
    if state.version != spsa::STATE_VERSION {
        return Err(TuneError::Usage(format!(
            "{}: state format {} (this gpn writes {})",
            path.display(),
            state.version,
            spsa::STATE_VERSION
        )));
    }
    if state.spec != *spec {
        return Err(TuneError::Usage(format!(
            "{} belongs to another run (game, base, budget, openings, pairs, seed or parameters \
             differ); choose another --out or delete it",
            path.display()
        )));
    }
    Ok(Some(state))
}

/// Appends one line to a shard's steps file and flushes it.
fn append_line(path: &Path, line: &StepLine) -> Result<(), TuneError> {
    let io = |e: std::io::Error| TuneError::Io(format!("cannot write {}: {e}", path.display()));
    let text = serde_json::to_string(line).map_err(|e| TuneError::Io(e.to_string()))?;
    let mut f = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io)?;
    writeln!(f, "{text}").map_err(io)?;
    f.sync_all().map_err(io)
}

/// The result of `step` of run `run` in a shard's steps file, if it is there yet. A torn last
/// line (a shard killed while writing) is skipped: that shard writes it again.
fn read_step(path: &Path, run: &str, step: u32) -> Result<Option<StepResult>, TuneError> {
    let text = crate::files::read_text_or_empty(path, 1 << 30)
        .map_err(|e| TuneError::Io(format!("{}: {e}", path.display())))?;
    for raw in text.lines().rev() {
        let Ok(line) = serde_json::from_str::<StepLine>(raw) else {
            continue;
        };
        if line.run != run {
            return Err(TuneError::Usage(format!(
                "{} holds another run's steps; give every shard the same settings and a fresh \
                 --out",
                path.display()
            )));
        }
        if line.step == step {
            return Ok(Some(line.result));
        }
    }
    Ok(None)
}

/// Waits until every shard has written its result of `step` and returns their sum (`None`
/// after a Ctrl-C).
fn wait_for_shards(
    settings: &TuneSettings,
    me: Shard,
    run: &str,
    step: u32,
    mine: StepResult,
    stop: &dyn Fn() -> bool,
) -> Result<Option<StepResult>, TuneError> {
    let mut total = mine;
    for index in (0..me.count).filter(|&i| i != me.index) {
        let path = settings.steps_path(Shard {
            index,
            count: me.count,
        });
        loop {
            if let Some(r) = read_step(&path, run, step)? {
                total.add(r);
                break;
            }
            if stop() {
                return Ok(None);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    Ok(Some(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tunable_option_has_a_value_and_a_sane_range() {
        let params = tunable_params(&[]).unwrap();
        assert!(params.len() >= 3);
        let defaults = SearchParams::default();
        for p in &params {
            let option = options::find(&p.key).unwrap();
            assert_eq!(option.scope, options::Scope::Search, "{}", p.key);
            assert!(p.min < p.max && p.c_end > 0.0 && p.r_end > 0.0, "{}", p.key);
            assert!(p.c_end < (p.max - p.min) / 2.0, "{}", p.key);
            match option.kind {
                Kind::Int { min, max } => {
                    assert!(p.min >= min as f64 && p.max <= max as f64, "{}", p.key)
                }
                Kind::Real { min, max } => assert!(p.min >= min && p.max <= max, "{}", p.key),
                _ => panic!("{}: a tunable option is a number", p.key),
            }
            assert!(defaults.tunable_value(&p.key).is_some(), "{}", p.key);
        }
        assert!(tunable_params(&["hash".into()]).is_err());
        assert!(tunable_params(&["c".into(), "C".into()]).is_err());
        let named = tunable_params(&["C".into(), "PN Decay".into()]).unwrap();
        assert_eq!(named[0].key, "c");
        assert!(named[1].int);
    }

    #[test]
    fn the_openbench_list_has_the_games_values() {
        let params = tunable_params(&["c".into(), "c_pn".into(), "pn_decay".into()]).unwrap();
        let list = openbench_list("cfour", "default", &params, false).unwrap();
        let lines: Vec<&str> = list.lines().collect();
        // cfour's row sets c=1 c_pn=0.1 pn_decay=10.
        assert_eq!(lines[0], "C, float, 1, 0.1, 3, 0.1, 0.002");
        assert_eq!(lines[1], "C_pn, float, 0.1, 0, 5, 0.1, 0.002");
        assert_eq!(lines[2], "PnDecay, int, 10, 0, 200, 4, 0.002");
        let spin = openbench_list("cfour", "default", &params, true).unwrap();
        assert!(
            spin.starts_with("Tune_C, int, 1000, 100, 3000, 100, 0.000002\n"),
            "{spin}"
        );
        assert!(spin.contains("PnDecay, int, 10,"));
        let other = openbench_list("reversi", "default c=0.5", &params, false).unwrap();
        assert!(other.starts_with("C, float, 0.5,"), "{other}");
        assert!(openbench_list("cfour", "random", &params, false).is_err());
    }

    #[test]
    fn a_state_file_is_written_whole_and_refused_for_another_run() {
        let dir = std::env::temp_dir().join(format!("gpn-tune-unit-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state.json");
        let params = tunable_params(&["c".into()]).unwrap();
        let spec = RunSpec {
            game: "cfour".into(),
            base: "default".into(),
            budget: "iterations:10".into(),
            openings: 2,
            pairs: 4,
            pairs_per_step: 1,
            seed: 1,
            params,
        };
        let state = SpsaState::new(spec.clone(), vec![1.0]);
        write_atomic(&path, &serde_json::to_string(&state).unwrap()).unwrap();
        assert!(!dir.join("state.json.tmp").exists());
        assert_eq!(load_state(&path, &spec).unwrap(), Some(state));
        let other = RunSpec { seed: 2, ..spec };
        assert!(matches!(
            load_state(&path, &other),
            Err(TuneError::Usage(_))
        ));
        assert_eq!(load_state(&dir.join("none.json"), &other).unwrap(), None);
        let _ = fs::remove_dir_all(&dir);
    }
}
