//! Parallel proof-number solving (`threads` > 1): a job-level split of the two binary proofs.
//!
//! [`super::solve`] answers "win?" and, when that is disproved, "not-loss?" one after the other.
//! Here the questions become jobs run by `threads` workers, each job an ordinary one-thread proof
//! with its own transposition table (`memory / threads` each):
//! * with 2 threads, the two questions of the root run side by side, so a draw or a loss costs
//!   the longer of the two proofs instead of their sum;
//! * with more, the questions are split over the root's moves: "can the root player win through
//!   move m?" is "does the opponent, to move after m, fail to reach not-loss?", and "can they
//!   avoid losing through m?" is "does the opponent fail to win?" — one job each, with the
//!   goals of the child position's side to move, so the solvers run unchanged.
//!
//! Every value is the conjunction of exact sub-answers (a win needs one move whose job is
//! disproved; a loss needs every move's "opponent wins" proven), so it equals the one-thread
//! value; only which proofs run, and when, depend on timing. Answers imply others and cancel the
//! jobs they make useless: a proven win ends everything (it also proves not-loss), a disproved
//! not-loss ends everything (it also disproves win), and "the opponent wins after m" also settles
//! "the opponent does not lose after m".
//!
//! Node and time limits, the stop flag and the progress counter are those of the whole solve: the
//! calling thread watches the jobs' published node counts and stops them all at a limit.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

use super::{prove, Budget, Goal, Progress, ProofRun, SolveConfig, SolveResult, Value};
use crate::game::{Game, Move, MoveList};

/// How often the calling thread checks the limits and publishes progress.
const WATCH_PERIOD: Duration = Duration::from_millis(5);

/// The other player's goal that answers `goal` for the root through one of its moves: the root
/// player wins through m when the opponent fails to avoid losing, and avoids losing through m
/// when the opponent fails to win.
fn opponent_goal(goal: Goal) -> Goal {
    match goal {
        Goal::Win => Goal::NotLoss,
        Goal::NotLoss => Goal::Win,
    }
}

fn index(goal: Goal) -> usize {
    match goal {
        Goal::Win => 0,
        Goal::NotLoss => 1,
    }
}

/// One proof to run.
struct Job<G> {
    pos: G,
    /// The question asked at `pos`, about its side to move.
    goal: Goal,
    /// The root question it serves.
    target: Goal,
    /// The root move leading to `pos` (`None`: `pos` is the root and `goal` is `target`).
    via: Option<(usize, Move)>,
    /// Raised to cancel the job (its answer is no longer needed) or to stop the solve.
    stop: Arc<AtomicBool>,
    progress: Arc<Progress>,
}

/// What is known about one root question.
#[derive(Default)]
struct TargetState {
    /// `Some(true)`: proven, `Some(false)`: disproved.
    decided: Option<bool>,
    best_move: Option<Move>,
    /// Per root move (child-level split): whether that move is known to fail for the question.
    failed: Vec<bool>,
    nodes: u64,
    /// Summed proof sizes of the sub-proofs that decided the question, where all are known.
    proof_size: Option<u64>,
    stopped_by: Option<&'static str>,
    /// A PPNS precision-rate conclusion (not a proof) went into the answer.
    by_pr: bool,
}

/// The shared state of the workers, behind one lock (taken only between jobs).
struct State {
    targets: [TargetState; 2],
    /// Index of the next job to hand out.
    next: usize,
    /// Jobs running now.
    running: usize,
}

impl State {
    /// Whether the root value is settled (or can no longer be).
    fn value(&self) -> Option<Value> {
        match (self.targets[0].decided, self.targets[1].decided) {
            (Some(true), _) => Some(Value::Win),
            (_, Some(false)) => Some(Value::Loss),
            (Some(false), Some(true)) => Some(Value::Draw),
            _ => None,
        }
    }

    /// Whether job `job`'s answer can still matter.
    fn needed<G>(&self, job: &Job<G>) -> bool {
        let t = &self.targets[index(job.target)];
        self.value().is_none() && t.decided.is_none() && job.via.map_or(true, |(i, _)| !t.failed[i])
    }

    /// Records a finished job's proof.
    fn record<G>(&mut self, job: &Job<G>, run: &ProofRun) {
        let t = &mut self.targets[index(job.target)];
        t.nodes += run.nodes;
        if t.decided.is_some() {
            return;
        }
        let Some(answer) = run.result else {
            // A cancelled or stopped job says "stop"; a job that ran out of memory says so.
            if !job.stop.load(Ordering::Relaxed) {
                t.stopped_by = t.stopped_by.or(run.stopped_by);
            }
            return;
        };
        t.by_pr |= run.by_pr;
        match job.via {
            None => {
                t.decided = Some(answer);
                t.best_move = run.best_move;
                t.proof_size = run.proof_size;
            }
            // The opponent failed: the root question succeeds through this move.
            Some((_, mv)) if !answer => {
                t.decided = Some(true);
                t.best_move = Some(mv);
                t.proof_size = run.proof_size.map(|s| s + 1);
            }
            Some((i, _)) => {
                t.failed[i] = true;
                t.proof_size = match (t.proof_size, run.proof_size) {
                    (Some(a), Some(b)) => Some(a + b),
                    _ => None,
                };
                if t.failed.iter().all(|&f| f) {
                    t.decided = Some(false);
                    t.proof_size = t.proof_size.map(|s| s + 1);
                }
                if job.target == Goal::NotLoss {
                    // The opponent wins after this move, so it does not lose after it either:
                    // the move fails for the win question too.
                    let w = &mut self.targets[0];
                    if w.decided.is_none() && !w.failed[i] {
                        w.failed[i] = true;
                        w.by_pr |= run.by_pr;
                        w.proof_size = match (w.proof_size, run.proof_size) {
                            (Some(a), Some(b)) => Some(a + b),
                            _ => None,
                        };
                        if w.failed.iter().all(|&f| f) {
                            w.decided = Some(false);
                            w.proof_size = w.proof_size.map(|s| s + 1);
                        }
                    }
                }
            }
        }
        // Implications between the questions: a win is also a not-loss; a loss is also not a win.
        if self.targets[0].decided == Some(true) && self.targets[1].decided.is_none() {
            self.targets[1].decided = Some(true);
            self.targets[1].best_move = self.targets[0].best_move;
        }
        if self.targets[1].decided == Some(false) && self.targets[0].decided.is_none() {
            self.targets[0].decided = Some(false);
        }
    }
}

/// The jobs of a solve with `threads` workers: the two root questions, or, with more than two
/// threads, both questions per root move (the "opponent wins" job first: it settles both).
fn jobs<G: Game>(root: &G, threads: usize, moves: &[Move]) -> Vec<Job<G>> {
    let job = |pos: G, goal, target, via| Job {
        pos,
        goal,
        target,
        via,
        stop: Arc::new(AtomicBool::new(false)),
        progress: Arc::new(Progress::default()),
    };
    if threads <= 2 {
        return [Goal::Win, Goal::NotLoss]
            .into_iter()
            .map(|g| job(root.clone(), g, g, None))
            .collect();
    }
    let mut out = Vec::with_capacity(2 * moves.len());
    for (i, &m) in moves.iter().enumerate() {
        let mut child = root.clone();
        child.play(m);
        for target in [Goal::NotLoss, Goal::Win] {
            out.push(job(
                child.clone(),
                opponent_goal(target),
                target,
                Some((i, m)),
            ));
        }
    }
    out
}

/// The per-job settings: a share of the memory, no node or time limit of its own (the watcher
/// keeps the solve's), and, for a job one ply down, a path cap one ply shorter.
fn job_config(
    cfg: &SolveConfig,
    threads: usize,
    child: bool,
    stop: &Arc<AtomicBool>,
) -> SolveConfig {
    SolveConfig {
        max_nodes: None,
        max_time: None,
        memory_mb: (cfg.memory_mb / threads).max(1),
        threads: 1,
        max_plies: cfg
            .max_plies
            .map(|m| if child { m.saturating_sub(1) } else { m }),
        stop: Some(stop.clone()),
        progress: None,
        ..cfg.clone()
    }
}

/// Nodes of the one-thread attempt that comes first: most positions of a batch are settled in
/// a few thousand nodes, faster than the workers and their tables can start.
const WARM_NODES: u64 = 20_000;

/// Solves `root` (not a finished position) with `cfg.threads` workers; see the module doc.
pub fn solve<G: Game>(root: &G, cfg: &SolveConfig) -> SolveResult {
    let start = Instant::now();
    let warm_cfg = SolveConfig {
        threads: 1,
        max_nodes: Some(cfg.max_nodes.map_or(WARM_NODES, |n| n.min(WARM_NODES))),
        memory_mb: cfg.memory_mb.min(16),
        ..cfg.clone()
    };
    let warm = super::solve(root, &warm_cfg);
    if warm.value != Value::Unknown || cfg.max_nodes.is_some_and(|n| n <= WARM_NODES) {
        return warm;
    }
    let mut result = split(root, cfg, start, warm.nodes);
    result.nodes += warm.nodes;
    result.proofs[0].nodes += warm.nodes;
    result
}

/// The parallel part of [`solve`], after `warm_nodes` nodes of the one-thread attempt.
fn split<G: Game>(root: &G, cfg: &SolveConfig, start: Instant, warm_nodes: u64) -> SolveResult {
    let threads = cfg.threads.max(2);
    let mut list = MoveList::new();
    root.legal_moves(&mut list);
    let moves: Vec<Move> = list.iter().copied().collect();
    let jobs = jobs(root, threads, &moves);
    let split = jobs.iter().any(|j| j.via.is_some());
    let failed = if split {
        vec![false; moves.len()]
    } else {
        Vec::new()
    };
    let state = Mutex::new(State {
        targets: [
            TargetState {
                failed: failed.clone(),
                proof_size: Some(0),
                ..TargetState::default()
            },
            TargetState {
                failed,
                proof_size: Some(0),
                ..TargetState::default()
            },
        ],
        next: 0,
        running: 0,
    });
    let changed = Condvar::new();
    let mut stopped_by: Option<&'static str> = None;
    std::thread::scope(|scope| {
        for k in 0..threads.min(jobs.len()) {
            let (state, changed, jobs) = (&state, &changed, &jobs);
            let spawned = std::thread::Builder::new()
                .name(format!("solve-{k}"))
                .stack_size(super::STACK_BYTES)
                .spawn_scoped(scope, move || worker(state, changed, jobs, cfg, threads));
            if let Err(e) = spawned {
                log::warn!("solve: could not start thread {k}: {e}");
                break;
            }
        }
        // The watcher: limits, the outside stop flag, progress, and cancelling useless jobs.
        let mut s = state.lock();
        loop {
            let finished = s.value().is_some() || (s.next >= jobs.len() && s.running == 0);
            let nodes: u64 = warm_nodes
                + s.targets.iter().map(|t| t.nodes).sum::<u64>()
                + jobs
                    .iter()
                    .map(|j| j.progress.nodes.load(Ordering::Relaxed))
                    .sum::<u64>();
            if let Some(p) = &cfg.progress {
                p.nodes.store(nodes, Ordering::Relaxed);
            }
            if stopped_by.is_none() && !finished {
                stopped_by = if cfg.stop.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
                    Some("stop")
                } else if cfg.max_time.is_some_and(|t| start.elapsed() >= t) {
                    Some("time")
                } else if cfg.max_nodes.is_some_and(|n| nodes >= n) {
                    Some("nodes")
                } else {
                    None
                };
                if stopped_by.is_some() {
                    // No new job starts; running ones end at their next check.
                    s.next = jobs.len();
                }
            }
            for job in &jobs {
                if stopped_by.is_some() || finished || !s.needed(job) {
                    job.stop.store(true, Ordering::Relaxed);
                }
            }
            if s.running == 0 && (finished || stopped_by.is_some()) {
                break;
            }
            changed.wait_for(&mut s, WATCH_PERIOD);
        }
    });
    let s = state.into_inner();
    result(cfg, &s, stopped_by, start.elapsed())
}

/// One worker: take the next needed job, run it, record it, until none is left.
fn worker<G: Game>(
    state: &Mutex<State>,
    changed: &Condvar,
    jobs: &[Job<G>],
    cfg: &SolveConfig,
    threads: usize,
) {
    loop {
        let job = {
            let mut s = state.lock();
            loop {
                if s.next >= jobs.len() {
                    changed.notify_all();
                    return;
                }
                let job = &jobs[s.next];
                s.next += 1;
                if s.needed(job) {
                    s.running += 1;
                    break job;
                }
            }
        };
        let job_cfg = job_config(cfg, threads, job.via.is_some(), &job.stop);
        let mut budget = Budget {
            progress: Some(job.progress.clone()),
            ..Budget::of(&job_cfg)
        };
        let run = prove(&job.pos, job.goal, &job_cfg, &mut budget);
        let mut s = state.lock();
        s.record(job, &run);
        // Its nodes are in the target's count now.
        job.progress.nodes.store(0, Ordering::Relaxed);
        s.running -= 1;
        changed.notify_all();
    }
}

/// The solve's result from what the jobs settled.
fn result(
    cfg: &SolveConfig,
    s: &State,
    stopped_by: Option<&'static str>,
    elapsed: Duration,
) -> SolveResult {
    let value = s.value().unwrap_or(Value::Unknown);
    let proof = |goal: Goal| {
        let t = &s.targets[index(goal)];
        let mut run = ProofRun::new(goal);
        run.result = t.decided;
        run.best_move = t.best_move.filter(|_| t.decided == Some(true));
        run.nodes = t.nodes;
        run.elapsed = elapsed;
        run.proof_size = t.proof_size.filter(|_| t.decided.is_some());
        if t.decided.is_none() {
            run.stopped_by = stopped_by.or(t.stopped_by).or(Some("memory"));
        }
        run
    };
    let (win, not_loss) = (proof(Goal::Win), proof(Goal::NotLoss));
    let decider = match value {
        Value::Win => &win,
        _ => &not_loss,
    };
    SolveResult {
        algo: cfg.algo,
        value,
        best_move: match value {
            Value::Win | Value::Draw => decider.best_move,
            _ => None,
        },
        nodes: win.nodes + not_loss.nodes,
        elapsed,
        proof_size: decider.proof_size.filter(|_| value != Value::Unknown),
        by_pr: s.targets.iter().any(|t| t.by_pr) && value != Value::Unknown,
        note: (value == Value::Unknown && win.result == Some(false)).then_some("not a win"),
        pv: Vec::new(),
        plies: None,
        proofs: vec![win, not_loss],
    }
}
