//! Parallel solving (`threads` > 1): a job-level split of the solve over worker threads.
//!
//! The one-thread solvers answer "win?" and, when that is disproved, "not-loss?" one after the
//! other (sb-gpn answers both with one search). Here they become jobs, each an ordinary
//! one-thread solve with its own tree or table (`memory / threads` each; a worker keeps its DFPN
//! table from job to job), taken in order by `threads` workers. The root's own solve comes first; then, one ply down, "can the root
//! player win through move m?" is "does the opponent, to move after m, fail to reach not-loss?",
//! and "can they avoid losing through m?" is "does the opponent fail to win?", asked with the
//! child position's side to move as root player, so the solvers run unchanged (where the same
//! player moves again after m, as the coalition of a paranoid solve can, the child's question is
//! the root's own):
//! * proof-number solvers: with 2 threads, the two root questions side by side (a draw or a loss
//!   costs the longer of the two proofs instead of their sum); with more, after them both
//!   questions per root move;
//! * sb-gpn: the root's value, then the value of each root move's position (which answers both
//!   questions through that move).
//!
//! Every value is a conjunction of exact sub-answers (a win needs one move whose opponent loses;
//! a loss needs every move's "opponent wins" proven), so it equals the one-thread value; only
//! which proofs run, and when, depend on timing. Answers imply others and cancel the jobs they
//! make useless: a proven win ends everything (it also proves not-loss), a disproved not-loss
//! ends everything (it also disproves win), and "the opponent wins after m" also settles "the
//! opponent does not lose after m".
//!
//! Node and time limits, the stop flag and the progress counter are those of the whole solve: the
//! calling thread watches the jobs' published node counts and stops them all at a limit.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

use super::{
    prove_in, Algo, Budget, Goal, Progress, ProofRun, Scratch, SolveConfig, SolveResult, Value,
};
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

/// What a job asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ask {
    /// A binary proof of `goal` at the job's position (about its side to move), serving the root
    /// question `target`.
    Proof { goal: Goal, target: Goal },
    /// The position's value (the sb-gpn solver), serving both root questions.
    Value,
}

/// One solve to run.
struct Job<G> {
    pos: G,
    ask: Ask,
    /// The root move leading to `pos` (`None`: `pos` is the root and the proof's goal is its
    /// target).
    via: Option<(usize, Move)>,
    /// Another player than the root's moves at `pos`, so its answers are the opponent's: the
    /// root question succeeds through `via` when the job's question fails. False at the root
    /// and where the root player moves again.
    opponent: bool,
    /// Raised to cancel the job (its answer is no longer needed) or to stop the solve.
    stop: Arc<AtomicBool>,
    progress: Arc<Progress>,
}

/// A finished job's answer to one question about its position.
struct SubAnswer {
    /// `Some(true)`: proven, `Some(false)`: disproved, `None`: not settled.
    result: Option<bool>,
    best_move: Option<Move>,
    proof_size: Option<u64>,
    by_pr: bool,
    stopped_by: Option<&'static str>,
}

/// A proven line (value jobs) of the root or of a root move's position: the value for the side to
/// move there, the proven distance and the principal variation.
type ChildLine = (Value, Option<u32>, Vec<Move>);

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

fn add_sizes(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    a.zip(b).map(|(a, b)| a + b)
}

/// The shared state of the workers, behind one lock (taken only between jobs).
struct State {
    targets: [TargetState; 2],
    /// Per root move, what a value job proved there.
    lines: Vec<Option<ChildLine>>,
    /// What the root's own value job proved.
    root_line: Option<ChildLine>,
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

    /// Whether root question `target` still wants an answer through move `via`.
    fn open(&self, target: Goal, via: Option<(usize, Move)>) -> bool {
        let t = &self.targets[index(target)];
        t.decided.is_none() && via.map_or(true, |(i, _)| !t.failed[i])
    }

    /// Whether job `job`'s answer can still matter.
    fn needed<G>(&self, job: &Job<G>) -> bool {
        self.value().is_none()
            && match job.ask {
                Ask::Proof { target, .. } => self.open(target, job.via),
                Ask::Value => self.open(Goal::Win, job.via) || self.open(Goal::NotLoss, job.via),
            }
    }

    /// Records a finished job's answer (`nodes` is its whole cost; `cancelled`: it was stopped
    /// on purpose, so an unsettled answer says nothing).
    fn record<G>(
        &mut self,
        job: &Job<G>,
        answers: &[(Goal, SubAnswer)],
        nodes: u64,
        cancelled: bool,
    ) {
        if let Some((target, _)) = answers.first() {
            self.targets[index(*target)].nodes += nodes;
        }
        for (target, answer) in answers {
            self.settle(*target, job.via, job.opponent, answer, cancelled);
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

    /// One sub-answer for root question `target`: about the root itself (`via` = `None`), or
    /// about the position after root move `via`, the opponent's question there when
    /// `opponent`, else the root player's own.
    fn settle(
        &mut self,
        target: Goal,
        via: Option<(usize, Move)>,
        opponent: bool,
        a: &SubAnswer,
        cancelled: bool,
    ) {
        let t = &mut self.targets[index(target)];
        if t.decided.is_some() {
            return;
        }
        let Some(answer) = a.result else {
            // A cancelled or stopped job says "stop"; one that ran out of memory says so.
            if !cancelled {
                t.stopped_by = t.stopped_by.or(a.stopped_by);
            }
            return;
        };
        t.by_pr |= a.by_pr;
        match via {
            None => {
                t.decided = Some(answer);
                t.best_move = a.best_move;
                t.proof_size = a.proof_size;
            }
            // The opponent failed, or the root player succeeded: the root question succeeds
            // through this move.
            Some((_, mv)) if answer != opponent => {
                t.decided = Some(true);
                t.best_move = Some(mv);
                t.proof_size = a.proof_size.map(|s| s + 1);
            }
            Some((i, _)) => {
                fail(t, i, a);
                if target == Goal::NotLoss {
                    // The root player loses through this move, so it does not win through it
                    // either: the move fails for the win question too.
                    let w = &mut self.targets[0];
                    if w.decided.is_none() && !w.failed[i] {
                        fail(w, i, a);
                    }
                }
            }
        }
    }
}

/// Root move `i` is known to fail for question `t`; the question is disproved when all have.
fn fail(t: &mut TargetState, i: usize, a: &SubAnswer) {
    t.failed[i] = true;
    t.by_pr |= a.by_pr;
    t.proof_size = add_sizes(t.proof_size, a.proof_size);
    if t.failed.iter().all(|&f| f) {
        t.decided = Some(false);
        t.proof_size = t.proof_size.map(|s| s + 1);
    }
}

/// The jobs of a solve with `threads` workers, in the order they start. The root's own solve
/// comes first (so N threads are never much slower than one), then the root moves'. sb-gpn: the
/// root's value, then the value of every root move's position. The proof-number solvers: the
/// two root questions, then, with more than 2 threads, both questions per root move (the
/// "opponent wins" job, or the root player's "not-loss?" where it moves again, first: it
/// settles both).
fn jobs<G: Game>(root: &G, algo: Algo, threads: usize, moves: &[Move]) -> Vec<Job<G>> {
    let job = |pos: G, ask, via: Option<(usize, Move)>| Job {
        opponent: via.is_some() && pos.to_move() != root.to_move(),
        pos,
        ask,
        via,
        stop: Arc::new(AtomicBool::new(false)),
        progress: Arc::new(Progress::default()),
    };
    let child = |m: Move| {
        let mut c = root.clone();
        c.play(m);
        c
    };
    if algo == Algo::SbGpn {
        return std::iter::once(job(root.clone(), Ask::Value, None))
            .chain(
                moves
                    .iter()
                    .enumerate()
                    .map(|(i, &m)| job(child(m), Ask::Value, Some((i, m)))),
            )
            .collect();
    }
    let mut out: Vec<Job<G>> = [Goal::Win, Goal::NotLoss]
        .into_iter()
        .map(|g| job(root.clone(), Ask::Proof { goal: g, target: g }, None))
        .collect();
    if threads <= 2 {
        return out;
    }
    for (i, &m) in moves.iter().enumerate() {
        let pos = child(m);
        let opponent = pos.to_move() != root.to_move();
        for target in [Goal::NotLoss, Goal::Win] {
            let ask = Ask::Proof {
                goal: if opponent {
                    opponent_goal(target)
                } else {
                    target
                },
                target,
            };
            out.push(job(pos.clone(), ask, Some((i, m))));
        }
    }
    out
}

/// The per-job settings: a share of the memory, no node or time limit of its own (the watcher
/// keeps the solve's), its own stop flag and progress counter, and, for a job one ply down, a
/// path cap one ply shorter.
fn job_config<G>(cfg: &SolveConfig, threads: usize, job: &Job<G>) -> SolveConfig {
    SolveConfig {
        max_nodes: None,
        max_time: None,
        memory_mb: (cfg.memory_mb / threads).max(1),
        threads: 1,
        max_plies: cfg.max_plies.map(|m| {
            if job.via.is_some() {
                m.saturating_sub(1)
            } else {
                m
            }
        }),
        stop: Some(job.stop.clone()),
        progress: Some(job.progress.clone()),
        ..cfg.clone()
    }
}

/// Nodes of the one-thread attempt that comes first: most positions of a batch are settled in
/// a few thousand nodes, faster than the workers and their tables can start.
pub(crate) const WARM_NODES: u64 = 20_000;

/// The least memory a job gets: DFPN in a table of 8 MB failed to finish a Connect Four
/// position that one thread in 16 MB solves in a second (docs/threads.md), so a small `--memory`
/// runs fewer workers rather than starving each.
const MIN_JOB_MB: usize = 16;

/// Solves `root` (not a finished position) with `cfg.threads` workers (fewer when `--memory`
/// cannot give each `MIN_JOB_MB`); see the module doc.
pub fn solve<G: Game>(root: &G, cfg: &SolveConfig) -> SolveResult {
    let start = Instant::now();
    let workers = cfg.threads.min(cfg.memory_mb / MIN_JOB_MB);
    if workers < cfg.threads {
        log::debug!(
            "solve: {workers} workers instead of {} ({} MB, at least {MIN_JOB_MB} MB each)",
            cfg.threads,
            cfg.memory_mb
        );
    }
    if workers <= 1 {
        return super::solve_direct(
            root,
            &SolveConfig {
                threads: 1,
                ..cfg.clone()
            },
        );
    }
    let cfg = &SolveConfig {
        threads: workers,
        ..cfg.clone()
    };
    let warm_cfg = SolveConfig {
        threads: 1,
        max_nodes: Some(cfg.max_nodes.map_or(WARM_NODES, |n| n.min(WARM_NODES))),
        memory_mb: cfg.memory_mb.min(16),
        ..cfg.clone()
    };
    let warm = super::solve_direct(root, &warm_cfg);
    if warm.value != Value::Unknown || cfg.max_nodes.is_some_and(|n| n <= WARM_NODES) {
        return warm;
    }
    let mut result = split(root, cfg, start, warm.nodes);
    result.nodes += warm.nodes;
    if let Some(first) = result.proofs.first_mut() {
        first.nodes += warm.nodes;
    }
    result
}

/// The parallel part of [`solve`], after `warm_nodes` nodes of the one-thread attempt.
pub(crate) fn split<G: Game>(
    root: &G,
    cfg: &SolveConfig,
    start: Instant,
    warm_nodes: u64,
) -> SolveResult {
    let threads = cfg.threads.max(2);
    let mut list = MoveList::new();
    root.legal_moves(&mut list);
    let moves: Vec<Move> = list.iter().copied().collect();
    let jobs = jobs(root, cfg.algo, threads, &moves);
    let target = || TargetState {
        failed: vec![false; moves.len()],
        proof_size: Some(0),
        ..TargetState::default()
    };
    let state = Mutex::new(State {
        targets: [target(), target()],
        lines: vec![None; moves.len()],
        root_line: None,
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
    result(cfg, &s, &moves, stopped_by, start.elapsed())
}

/// Runs one job in the worker's `scratch` (its DFPN table, kept from job to job): its
/// question's answers by root question, its nodes, and its child line (value jobs).
fn run_job<G: Game>(
    job: &Job<G>,
    cfg: &SolveConfig,
    threads: usize,
    scratch: &mut Scratch,
) -> (Vec<(Goal, SubAnswer)>, u64, Option<ChildLine>) {
    let job_cfg = job_config(cfg, threads, job);
    let mut budget = Budget::of(&job_cfg);
    match job.ask {
        Ask::Proof { goal, target } => {
            let run = prove_in(&job.pos, goal, &job_cfg, &mut budget, scratch);
            let answer = SubAnswer {
                result: run.result,
                best_move: run.best_move,
                proof_size: run.proof_size,
                by_pr: run.by_pr,
                stopped_by: run.stopped_by,
            };
            (vec![(target, answer)], run.nodes, None)
        }
        Ask::Value => {
            let r = super::solve_direct(&job.pos, &job_cfg);
            // The opponent's value after a root move answers both root questions through it:
            // the root player wins through the move when the opponent loses, and avoids losing
            // when the opponent does not win.
            let known = r.value != Value::Unknown;
            let answer = |result: bool| SubAnswer {
                result: known.then_some(result),
                best_move: r.best_move,
                proof_size: None,
                by_pr: false,
                stopped_by: (!known).then(|| r.stopped_by(&job_cfg)).flatten(),
            };
            let answers = if job.opponent {
                vec![
                    (Goal::Win, answer(r.value != Value::Loss)),
                    (Goal::NotLoss, answer(r.value == Value::Win)),
                ]
            } else {
                // The root's own value (or the root player's after a move of its own) answers
                // its questions directly.
                vec![
                    (Goal::Win, answer(r.value == Value::Win)),
                    (Goal::NotLoss, answer(r.value != Value::Loss)),
                ]
            };
            let line = known.then(|| (r.value, r.plies, r.pv.clone()));
            (answers, r.nodes, line)
        }
    }
}

/// One worker: take the next needed job, run it, record it, until none is left.
fn worker<G: Game>(
    state: &Mutex<State>,
    changed: &Condvar,
    jobs: &[Job<G>],
    cfg: &SolveConfig,
    threads: usize,
) {
    let mut scratch = Scratch::default();
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
        let (answers, nodes, line) = run_job(job, cfg, threads, &mut scratch);
        let mut s = state.lock();
        let cancelled = job.stop.load(Ordering::Relaxed);
        s.record(job, &answers, nodes, cancelled);
        if let Some(line) = line {
            match job.via {
                Some((i, _)) => s.lines[i] = Some(line),
                None => s.root_line = Some(line),
            }
        }
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
    moves: &[Move],
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
    let best_move = match value {
        Value::Win | Value::Draw => decider.best_move,
        _ => None,
    };
    // sb-gpn: the proven line through the deciding move, or, at a loss, the longest resistance.
    let mut pv = Vec::new();
    let mut plies = None;
    let root_line = s
        .root_line
        .as_ref()
        .filter(|l| l.0 == value && (best_move.is_none() || l.2.first() == best_move.as_ref()));
    if let Some((_, root_plies, root_pv)) = root_line {
        plies = *root_plies;
        pv = root_pv.clone();
    } else if cfg.algo == Algo::SbGpn && value != Value::Unknown {
        let through = |i: usize| s.lines[i].as_ref().map(|l| (i, l));
        let chosen = match best_move {
            Some(m) => moves.iter().position(|&x| x == m).and_then(through),
            None => (0..moves.len())
                .filter_map(through)
                .max_by_key(|(_, l)| l.1.unwrap_or(0)),
        };
        if let Some((i, (_, child_plies, child_pv))) = chosen {
            plies = child_plies.map(|p| p + 1);
            pv = std::iter::once(moves[i])
                .chain(child_pv.iter().copied())
                .collect();
        }
    }
    let nodes = win.nodes + not_loss.nodes;
    SolveResult {
        algo: cfg.algo,
        value,
        best_move,
        nodes,
        elapsed,
        proof_size: decider.proof_size.filter(|_| value != Value::Unknown),
        by_pr: s.targets.iter().any(|t| t.by_pr) && value != Value::Unknown,
        note: (value == Value::Unknown && win.result == Some(false)).then_some("not a win"),
        pv,
        plies,
        // sb-gpn answers without binary proofs, as on one thread.
        proofs: if cfg.algo == Algo::SbGpn {
            Vec::new()
        } else {
            vec![win, not_loss]
        },
    }
}
