//! Batch solving: batch files, their run id, and every position solved with every algorithm.

use super::report::{stop_text, BatchFields, BatchTotals, SolveLine, SolvedPosition};
use super::run::{solve_position, SetupError, Watch};
use super::{Algo, SolveConfig, Value};
use crate::game::registry::{self, GameVisitor};
use crate::game::{Game, GameError, MoveList};

/// A batch line: `<game> <position string|start> [| <expected value>] [# comment]`, as
/// (game, position, expected value, whether an expected value was given but not read);
/// `None` for a blank or comment line.
pub fn parse_batch_line(text: &str) -> Option<(String, String, Option<Value>, bool)> {
    let body = text.split('#').next().unwrap_or("").trim();
    if body.is_empty() {
        return None;
    }
    let (main, expected) = match body.split_once('|') {
        Some((m, e)) => (m.trim(), Some(e.trim())),
        None => (body, None),
    };
    let (game, position) = main
        .split_once(char::is_whitespace)
        .unwrap_or((main, "start"));
    let want = expected.map(Value::parse);
    let bad_expected = matches!(want, Some(None));
    Some((
        game.to_string(),
        position.trim().to_string(),
        want.flatten(),
        bad_expected,
    ))
}

/// A position of a batch.
#[derive(Clone, Debug, PartialEq)]
pub struct BatchJob {
    /// Its index in the whole batch (0-based), whichever shard solves it.
    pub index: usize,
    /// Its line in the file (1-based).
    pub line: usize,
    pub game: String,
    pub position: String,
    pub expected: Option<Value>,
}

/// Why a batch could not be read or solved.
#[derive(Debug)]
pub enum BatchError {
    /// A line that is not a batch line (`file:line: why`).
    BadLine(String),
    /// An unknown game, named with its place (`cfour (file:3)`), or a game not registered.
    Game(GameError),
    /// A position of the file that did not set up (`file:line: why`).
    Position(String),
    /// The solve's settings do not fit a position's game (the prover, the network).
    Setup(SetupError),
}

/// Reads every line of a batch file first (`file` names it in errors), so that a bad file fails
/// before any solving.
pub fn read_batch(text: &str, file: &str) -> Result<Vec<BatchJob>, BatchError> {
    let mut jobs = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let Some((game, position, want, bad)) = parse_batch_line(line) else {
            continue;
        };
        if bad {
            return Err(BatchError::BadLine(format!(
                "{file}:{}: the expected value must be win, draw or loss",
                n + 1
            )));
        }
        if registry::canonical_name(&game).is_none() {
            return Err(BatchError::Game(GameError::UnknownGame(format!(
                "{game} ({file}:{})",
                n + 1
            ))));
        }
        jobs.push(BatchJob {
            index: jobs.len(),
            line: n + 1,
            game,
            position,
            expected: want,
        });
    }
    Ok(jobs)
}

/// What defines a batch run, as the text its run id hashes: every position with its expected
/// value, the algorithms and every solver setting of `cfg` (not the shard); `net` is the network
/// as it was named.
pub fn batch_description(
    jobs: &[BatchJob],
    algos: &[Algo],
    cfg: &SolveConfig,
    net: Option<&str>,
) -> String {
    let positions: Vec<String> = jobs
        .iter()
        .map(|j| {
            format!(
                "{} {} | {}",
                j.game,
                j.position,
                j.expected.map_or("-", |w| w.name())
            )
        })
        .collect();
    let names: Vec<&str> = algos.iter().map(|x| x.name()).collect();
    format!(
        "gpn solve v1|algos={}|max_nodes={:?}|max_time={:?}|memory={}|threads={}|playouts={}|\
         theta={}|pr={:?}|epsilon={}|eval_init={}|mobility={}|net={:?}|pcn={}|focus={}|4t={}|\
         seed={}|positions={}",
        names.join(","),
        cfg.max_nodes,
        cfg.max_time.map(|d| d.as_nanos()),
        cfg.memory_mb,
        cfg.threads,
        cfg.playouts,
        cfg.theta,
        cfg.pr,
        cfg.epsilon,
        cfg.eval_init,
        cfg.mobility,
        net,
        cfg.pcn.name(),
        cfg.focus,
        cfg.forcing,
        cfg.seed,
        positions.join("\n")
    ) + &cfg
        .prover
        .map_or(String::new(), |p| format!("|player={}", p.index() + 1))
        // Appended only when set, so that the run ids of older batches stay valid.
        + &(if cfg.prior_init > 0 {
            format!("|prior_init={}", cfg.prior_init)
        } else {
            String::new()
        })
}

/// One solve of a batch, as it is handed to the caller.
pub struct BatchSolve<'a> {
    pub job: &'a BatchJob,
    /// The algorithm's place in the batch's list.
    pub algo: usize,
    /// The settings it ran with (the algorithm set).
    pub cfg: &'a SolveConfig,
    pub solved: &'a SolvedPosition,
    /// `ok` or `MISMATCH` against the expected value, empty when there is nothing to check
    /// (no expected value, or an unknown result).
    pub verdict: &'static str,
}

impl BatchSolve<'_> {
    /// One solve of a batch as its `--json` line: run `run` of `positions` positions, in
    /// `shard` (`K/N`) if the batch is sharded.
    pub fn json_line(&self, run: &str, positions: usize, shard: Option<&str>) -> SolveLine {
        let batch = BatchFields {
            run: run.to_string(),
            index: self.job.index as u64,
            positions: positions as u64,
            shard: shard.map(str::to_string),
            line: self.job.line as u64,
            game: self.job.game.clone(),
            expected: self.job.expected.map(|v| v.name().to_string()),
            matches: BatchFields::matches(self.verdict),
        };
        SolveLine::new(self.solved, self.cfg, Some(batch))
    }

    /// One solve of a batch as a CSV row (no newline).
    pub fn csv_row(&self) -> String {
        let (line, r, verdict) = (self.solved, &self.solved.result, self.verdict);
        let expected = self.job.expected.map_or("", |w| w.name());
        let proof = r.proof_size.map_or(String::new(), |s| s.to_string());
        format!(
            "{},{},\"{}\",{},{},{expected},{verdict},{},{},{:.4},{:.0},{proof},{},{}",
            self.job.line,
            self.job.game,
            line.position,
            self.cfg.algo.name(),
            r.value.name(),
            line.best_move,
            r.nodes,
            r.elapsed.as_secs_f64(),
            r.nodes_per_second(),
            r.proofs_text(),
            r.by_pr
        )
    }

    /// One solve of a batch as a text line, and a second one saying why when it stopped at a
    /// limit (no final newline).
    pub fn text_row(&self) -> String {
        let (line, r, verdict) = (self.solved, &self.solved.result, self.verdict);
        let expected = self.job.expected.map_or("", |w| w.name());
        let proof = r.proof_size.map_or(String::new(), |s| s.to_string());
        let mut text = format!(
            "{:>4} {:<6} {:<7} {:<8} {:<9} best {:<7} nodes {:>10} time {:>8.3} s nodes/s {:>9.0} proof {:<8} [{}] {}",
            self.job.line,
            self.cfg.algo.name(),
            r.value.name(),
            if expected.is_empty() { "-" } else { expected },
            if verdict.is_empty() { "-" } else { verdict },
            line.best_move,
            r.nodes,
            r.elapsed.as_secs_f64(),
            r.nodes_per_second(),
            if proof.is_empty() { "-" } else { &proof },
            r.proofs_text(),
            line.position
        );
        if let Some(why) = r.stopped_by(self.cfg) {
            text += &format!("\n     {}", stop_text(Some(why)).trim());
        }
        text
    }
}

/// The header of `gpn solve --batch --csv`.
pub const BATCH_CSV_HEADER: &str = "line,game,position,algo,value,expected,match,best_move,nodes,time_s,nodes_per_s,proof_size,proofs,by_pr";

/// What a batch run did.
#[derive(Clone, Debug, PartialEq)]
pub struct BatchOutcome {
    /// Per algorithm, in the batch's order.
    pub totals: Vec<BatchTotals>,
    /// Positions solved with every algorithm (fewer than given when stopped).
    pub done: usize,
}

/// Solves one position string (`start`: the start position) of the game visited.
struct SolveAt<'a> {
    position: &'a str,
    cfg: SolveConfig,
    watch: Option<&'a Watch<'a>>,
}

impl GameVisitor for SolveAt<'_> {
    type Output = Result<SolvedPosition, SetupError>;
    fn visit<G: Game>(self) -> Result<SolvedPosition, SetupError> {
        let position = self.position;
        let setup = || match position {
            "start" => Ok(G::start()),
            text => G::parse_position(text),
        };
        solve_position::<G>(setup, self.cfg, self.watch)
    }
}

/// Solves each of `jobs` with each of `algos` (in that order, `cfg` otherwise), handing every
/// result to `on_solve` as it comes; an error of `on_solve` ends the batch. `cfg.stop`, once
/// raised, ends it before the next solve (the solve in progress ends with what it has).
pub fn solve_batch<E: From<BatchError>>(
    jobs: &[&BatchJob],
    algos: &[Algo],
    cfg: &SolveConfig,
    file: &str,
    watch: Option<&Watch<'_>>,
    on_solve: &mut dyn FnMut(&BatchSolve<'_>) -> Result<(), E>,
) -> Result<BatchOutcome, E> {
    let stopped = || {
        cfg.stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::SeqCst))
    };
    let mut totals: Vec<BatchTotals> = algos.iter().map(|_| BatchTotals::default()).collect();
    let mut done = 0;
    'positions: for job in jobs {
        for (k, &algo) in algos.iter().enumerate() {
            if stopped() {
                break 'positions;
            }
            let cfg = SolveConfig {
                algo,
                ..cfg.clone()
            };
            let visitor = SolveAt {
                position: &job.position,
                cfg: cfg.clone(),
                watch,
            };
            let solved = registry::visit(&job.game, visitor)
                .map_err(BatchError::Game)?
                .map_err(|e| match e {
                    SetupError::Game(g) => {
                        BatchError::Position(format!("{file}:{}: {g}", job.line))
                    }
                    other => BatchError::Setup(other),
                })?;
            let r = &solved.result;
            let verdict = match (job.expected, r.value) {
                (None, _) | (Some(_), Value::Unknown) => "",
                (Some(w), v) if w == v => "ok",
                (Some(_), _) => "MISMATCH",
            };
            totals[k].add(
                r.value,
                r.proofs.first().and_then(|p| p.result),
                r.by_pr,
                r.nodes,
                r.elapsed.as_secs_f64(),
                verdict,
            );
            on_solve(&BatchSolve {
                job,
                algo: k,
                cfg: &cfg,
                solved: &solved,
                verdict,
            })?;
        }
        done += 1;
    }
    Ok(BatchOutcome { totals, done })
}

/// `count` distinct positions of `G` that are not over after `plies` seeded random plies from
/// the start, as batch lines (`<game> <position> # moves <moves>`), found in at most `count`
/// times 1000 random games: fewer when the game ends too soon or has too few such positions.
pub struct RandomPositions {
    pub count: usize,
    pub plies: u32,
    pub seed: u64,
}

impl GameVisitor for RandomPositions {
    type Output = Vec<String>;
    fn visit<G: Game>(self) -> Vec<String> {
        let mut rng = crate::rng::Rng::new(self.seed);
        let mut buf = MoveList::new();
        let mut lines = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut tries = 0;
        while lines.len() < self.count && tries < self.count.saturating_mul(1000) {
            tries += 1;
            let mut g = G::start();
            let mut moves = Vec::new();
            for _ in 0..self.plies {
                match g.random_move(&mut rng, &mut buf) {
                    Some(m) => {
                        moves.push(g.format_move(m));
                        g.play(m);
                    }
                    None => break,
                }
            }
            if moves.len() as u32 == self.plies && g.outcome().is_none() && seen.insert(g.hash()) {
                lines.push(format!(
                    "{} {} # moves {}",
                    G::INFO.name,
                    g.to_position(),
                    moves.join(",")
                ));
            }
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_lines() {
        assert_eq!(parse_batch_line("  # only a comment"), None);
        assert_eq!(
            parse_batch_line("cfour start | win # c"),
            Some(("cfour".into(), "start".into(), Some(Value::Win), false))
        );
        assert_eq!(
            parse_batch_line("ttt"),
            Some(("ttt".into(), "start".into(), None, false))
        );
        assert!(parse_batch_line("cfour start | maybe").is_some_and(|l| l.3));
    }

    #[test]
    fn a_bad_batch_fails_before_solving() {
        assert!(matches!(
            read_batch("cfour start | maybe\n", "f"),
            Err(BatchError::BadLine(m)) if m == "f:1: the expected value must be win, draw or loss"
        ));
        assert!(matches!(
            read_batch("# c\nnosuchgame start\n", "f"),
            Err(BatchError::Game(GameError::UnknownGame(m))) if m == "nosuchgame (f:2)"
        ));
        let jobs = read_batch("# c\ncfour start | loss\ncfour start\n", "f").unwrap();
        assert_eq!(jobs.len(), 2);
        assert_eq!((jobs[1].index, jobs[1].line), (1, 3));
    }

    /// A solve error of a batch, in tests.
    #[derive(Debug)]
    struct Failed;

    impl From<BatchError> for Failed {
        fn from(_: BatchError) -> Self {
            Failed
        }
    }

    #[test]
    fn a_batch_hands_each_solve_over_and_counts_it() {
        // A win in one move for the side to move, checked against a wrong and a right value.
        let text = "cfour 7/7/7/P6/Pp5/Ppp4 w | loss\ncfour 7/7/7/P6/Pp5/Ppp4 w | win\n";
        let jobs = read_batch(text, "t").unwrap();
        let mine: Vec<&BatchJob> = jobs.iter().collect();
        let cfg = SolveConfig {
            max_nodes: Some(100_000),
            ..SolveConfig::default()
        };
        let mut seen = Vec::new();
        let outcome = solve_batch::<Failed>(&mine, &[Algo::Pns], &cfg, "t", None, &mut |s| {
            seen.push((s.job.line, s.verdict, s.solved.result.value));
            Ok(())
        })
        .unwrap();
        assert_eq!(
            seen,
            vec![(1, "MISMATCH", Value::Win), (2, "ok", Value::Win)]
        );
        assert_eq!(outcome.done, 2);
        assert_eq!(
            (outcome.totals[0].wins, outcome.totals[0].mismatches),
            (2, 1)
        );
    }

    #[test]
    fn a_raised_stop_flag_ends_the_batch_and_a_bad_position_names_its_line() {
        let jobs = read_batch("cfour start\ncfour not-a-position\n", "t").unwrap();
        let mine: Vec<&BatchJob> = jobs.iter().collect();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let cfg = SolveConfig {
            max_nodes: Some(10),
            stop: Some(stop),
            ..SolveConfig::default()
        };
        let mut on_solve = |_: &BatchSolve<'_>| -> Result<(), Failed> { Ok(()) };
        let outcome = solve_batch(&mine, &[Algo::Pns], &cfg, "t", None, &mut on_solve).unwrap();
        assert_eq!(outcome.done, 0);
        let cfg = SolveConfig {
            max_nodes: Some(10),
            ..SolveConfig::default()
        };
        let mut on_solve = |_: &BatchSolve<'_>| -> Result<(), BatchError> { Ok(()) };
        let err = solve_batch(&mine, &[Algo::Pns], &cfg, "t", None, &mut on_solve).unwrap_err();
        assert!(matches!(err, BatchError::Position(m) if m.starts_with("t:2: ")));
    }

    #[test]
    fn random_positions_are_distinct_and_seeded() {
        let visit = |seed| {
            let generate = RandomPositions {
                count: 5,
                plies: 4,
                seed,
            };
            registry::visit("cfour", generate).unwrap()
        };
        let lines = visit(7);
        assert_eq!(lines.len(), 5);
        assert!(lines.iter().all(|l| l.starts_with("cfour ")));
        assert_eq!(lines, visit(7));
    }
}
