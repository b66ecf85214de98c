//! The explicit-tree best-first engine that PNS, PPNS and MCPNS share: select, expand, back up.
//!
//! A node keeps two numbers whose meaning belongs to the [`Rule`] (proof and disproof numbers for
//! PNS and MCPNS; the probability-based proof number and an exact solved flag for PPNS). Children
//! of a node are contiguous in one arena; positions are not stored but replayed from the root on
//! each descent. The arena never grows past the memory budget: when an expansion would not fit,
//! the proof stops with "unknown" (`stopped_by = "memory"`). A rule that takes a network's
//! advice (PNS) gets each expanded node's children in the policy's order, so that ties go to the
//! likelier move, and their first numbers from the network (`solve::guide::Guide`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::guide::Guide;
use super::{terminal, Budget, Goal, ProofRun, SolveConfig, TIME_CHECK};
use crate::game::{Game, Move, MoveList, Player};
use crate::rng::Rng;

const NO_CHILD: u32 = u32::MAX;

/// One tree node (32 bytes; the memory budget divides by its size).
#[derive(Clone, Copy, Debug)]
pub struct Node {
    pub a: f64,
    pub b: f64,
    parent: u32,
    first: u32,
    count: u16,
    pub mv: Move,
    /// The root player is to move here (an OR node).
    pub or: bool,
}

const _: () = assert!(std::mem::size_of::<Node>() == 32);

/// What a rule may use to value a new leaf.
pub struct LeafCtx {
    pub goal: Goal,
    pub root: Player,
    pub rng: Rng,
    pub buf: MoveList,
    pub playouts: u32,
    /// See [`SolveConfig::cap`].
    pub cap: u32,
    /// The solve's deadline and stop request, read before each playout: one expansion of a
    /// long game (Chinese Checkers: tens of children, ten playouts of up to 2000 plies each)
    /// takes seconds, far more than the checks between expansions allow.
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    /// Set once the deadline passed or the stop was raised: the playouts of the leaf in hand
    /// are cut, and its expansion must be dropped.
    out: bool,
}

impl LeafCtx {
    /// Fraction of `playouts` random games from `pos` that reach the goal. Once the solve is
    /// out of time (or stopped) the rate is meaningless: see `LeafCtx::out`.
    pub fn win_rate<G: Game>(&mut self, pos: &G, depth: u32) -> f64 {
        let k = self.playouts.max(1);
        let mut wins = 0u32;
        for _ in 0..k {
            if self.out() {
                break;
            }
            if super::playout(
                pos,
                self.goal,
                self.root,
                depth,
                self.cap,
                &mut self.rng,
                &mut self.buf,
            ) {
                wins += 1;
            }
        }
        wins as f64 / k as f64
    }

    /// Whether the solve's time is up or it was stopped (sticky: one late look is enough).
    fn out(&mut self) -> bool {
        if !self.out {
            self.out = self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
                || self.deadline.is_some_and(|d| Instant::now() >= d);
        }
        self.out
    }
}

/// How a best-first solver values, combines and selects.
///
/// Every method but `leaf` defaults to proof and disproof numbers (Allis): PNS and MCPNS differ
/// only in their leaves; PPNS overrides them all.
pub trait Rule {
    /// The numbers of a finished position (`success`: the goal is reached).
    fn terminal(&self, success: bool) -> (f64, f64) {
        terminal_pn(success)
    }
    /// The numbers of a new, unfinished leaf.
    fn leaf<G: Game>(&self, pos: &G, depth: u32, ctx: &mut LeafCtx) -> (f64, f64);
    /// A node's numbers from its children.
    fn combine(&self, or: bool, children: &[Node]) -> (f64, f64) {
        combine_min_sum(or, children)
    }
    /// The child to descend into (among unsolved children).
    fn select(&self, or: bool, children: &[Node]) -> usize {
        select_min(or, children)
    }
    /// `Some(true)` proven, `Some(false)` disproved, `None` open.
    fn solved(&self, a: f64, b: f64) -> Option<bool> {
        solved_pn(a, b)
    }
    /// A conclusion short of a proof (PPNS's precision rate); `None` by default.
    fn concluded(&self, _a: f64, _b: f64) -> Option<bool> {
        None
    }
    /// Whether a network may order the children and set the numbers of new leaves in place of
    /// [`Rule::leaf`] (its numbers must then be proof and disproof numbers).
    fn takes_advice(&self) -> bool {
        false
    }
}

/// Runs one binary proof with `rule`.
pub fn prove<G: Game, R: Rule>(
    root: &G,
    goal: Goal,
    cfg: &SolveConfig,
    budget: &mut Budget,
    rule: &R,
) -> ProofRun {
    let mut run = ProofRun::new(goal);
    let me = cfg.prover.unwrap_or(root.to_move());
    let mut ctx = LeafCtx {
        goal,
        root: me,
        rng: Rng::new(cfg.seed ^ 0x05EE_D0F5_017E),
        buf: MoveList::new(),
        playouts: cfg.playouts,
        cap: cfg.cap::<G>(),
        deadline: budget.deadline,
        stop: budget.stop.clone(),
        out: false,
    };
    if let Some(r) = terminal(root, goal, me, 0, ctx.cap) {
        run.result = Some(r);
        run.proof_size = Some(1);
        return run;
    }
    let cap = (cfg.memory_mb.saturating_mul(1 << 20) / std::mem::size_of::<Node>())
        .clamp(1, u32::MAX as usize - 1);
    let mut tree: Vec<Node> = Vec::new();
    let (a, b) = rule.leaf(root, 0, &mut ctx);
    tree.push(Node {
        a,
        b,
        parent: NO_CHILD,
        first: NO_CHILD,
        count: 0,
        mv: Move(0),
        or: root.to_move() == me,
    });
    budget.nodes += 1;
    let mut moves = MoveList::new();
    let mut guide = if rule.takes_advice() {
        Guide::new::<G>(cfg)
    } else {
        None
    };
    let mut order: Vec<(f32, u16)> = Vec::new();
    let mut ordered = MoveList::new();
    let mut since_check = 0u64;
    loop {
        let r = &tree[0];
        if let Some(s) = rule.solved(r.a, r.b) {
            run.result = Some(s);
            break;
        }
        if let Some(s) = rule.concluded(r.a, r.b) {
            run.result = Some(s);
            run.by_pr = true;
            break;
        }
        if budget.nodes_out() {
            run.stopped_by = Some("nodes");
            break;
        }
        // The clock also runs out during playouts (`ctx.out`), not only between checks.
        if since_check >= TIME_CHECK || ctx.out {
            since_check = 0;
            budget.publish_root(tree[0].a, tree[0].b);
            if let Some(why) = budget.time_out() {
                run.stopped_by = Some(why);
                break;
            }
        }
        // Selection: replay the moves from the root down to a leaf.
        let mut pos = root.clone();
        let mut id = 0usize;
        let mut depth = 0u32;
        while tree[id].first != NO_CHILD {
            let n = tree[id];
            let first = n.first as usize;
            let kids = &tree[first..first + n.count as usize];
            let i = rule.select(n.or, kids);
            pos.play(kids[i].mv);
            id = first + i;
            depth += 1;
        }
        // Expansion: every child at once, valued by the rule or the network.
        if !(cfg.forcing && pos.forcing_moves(&mut moves)) {
            pos.legal_moves(&mut moves);
        }
        let mut advice = None;
        if let Some(guide) = &mut guide {
            advice = guide.advise(&pos, moves.as_slice(), me);
            guide.move_order(&mut order);
            ordered.clear();
            for &(_, i) in &order {
                ordered.push(moves[i as usize]);
            }
            std::mem::swap(&mut moves, &mut ordered);
        }
        if tree.len() + moves.len() > cap {
            run.stopped_by = Some("memory");
            break;
        }
        let first = tree.len();
        for &m in moves.iter() {
            if ctx.out {
                break;
            }
            let mut child = pos.clone();
            child.play(m);
            let or = child.to_move() == me;
            let (a, b) = match (terminal(&child, goal, me, depth + 1, ctx.cap), advice) {
                (Some(s), _) => rule.terminal(s),
                (None, Some((pn, dn))) => (pn.max(1.0), dn.max(1.0)),
                (None, None) => rule.leaf(&child, depth + 1, &mut ctx),
            };
            tree.push(Node {
                a,
                b,
                parent: id as u32,
                first: NO_CHILD,
                count: 0,
                mv: m,
                or,
            });
        }
        if ctx.out {
            // Some children's playouts were cut: drop the expansion, the tree stays as it was.
            tree.truncate(first);
            run.stopped_by = Some(budget.time_out().unwrap_or("time"));
            break;
        }
        let added = moves.len() as u64;
        budget.nodes += added;
        since_check += added;
        tree[id].first = first as u32;
        tree[id].count = moves.len() as u16;
        // Backup: recompute up the path, stopping where nothing changes.
        let mut cur = id;
        loop {
            let n = tree[cur];
            let f = n.first as usize;
            let (a, b) = rule.combine(n.or, &tree[f..f + n.count as usize]);
            let same = a == n.a && b == n.b;
            tree[cur].a = a;
            tree[cur].b = b;
            if same || cur == 0 {
                break;
            }
            cur = n.parent as usize;
        }
    }
    if let Some(s) = run.result {
        let root_node = tree[0];
        let f = root_node.first as usize;
        let kids = if root_node.first == NO_CHILD {
            &tree[0..0]
        } else {
            &tree[f..f + root_node.count as usize]
        };
        // A best move only where the prover chooses.
        if s && root_node.or {
            run.best_move = if run.by_pr {
                kids.get(rule.select(true, kids)).map(|k| k.mv)
            } else {
                kids.iter()
                    .find(|k| rule.solved(k.a, k.b) == Some(true))
                    .map(|k| k.mv)
            };
        }
        if !run.by_pr {
            run.proof_size = Some(proof_size(&tree, rule, s));
        }
    }
    run
}

/// Nodes of the proof (`proven`) or disproof tree in the final search tree: at a node where the
/// prover chooses, one child with the result; where the opponent chooses, every child.
fn proof_size<R: Rule>(tree: &[Node], rule: &R, proven: bool) -> u64 {
    let mut stack = vec![0usize];
    let mut size = 0u64;
    while let Some(id) = stack.pop() {
        size += 1;
        let n = tree[id];
        if n.first == NO_CHILD {
            continue;
        }
        let f = n.first as usize;
        let kids = f..f + n.count as usize;
        // The side that needs just one child: the prover at OR nodes when proving, the opponent
        // at AND nodes when disproving.
        if n.or == proven {
            if let Some(k) = kids
                .clone()
                .find(|&k| rule.solved(tree[k].a, tree[k].b) == Some(proven))
            {
                stack.push(k);
            }
        } else {
            stack.extend(kids);
        }
    }
    size
}

/// Proof and disproof numbers as f64 (exact for integers below 2^53); infinity is `INFINITY`.
pub const INF: f64 = f64::INFINITY;

/// The MIN/SUM rules of PNS, shared with MCPNS (which differs only in its leaf values).
pub(crate) fn combine_min_sum(or: bool, children: &[Node]) -> (f64, f64) {
    let mut min = INF;
    let mut sum = 0.0;
    for c in children {
        // OR: pn = min pn, dn = sum dn; AND: pn = sum pn, dn = min dn.
        let (m, s) = if or { (c.a, c.b) } else { (c.b, c.a) };
        if m < min {
            min = m;
        }
        sum += s;
    }
    if or {
        (min, sum)
    } else {
        (sum, min)
    }
}

/// The most-proving child: least proof number at OR nodes, least disproof number at AND nodes.
pub(crate) fn select_min(or: bool, children: &[Node]) -> usize {
    let mut best = 0;
    let mut best_v = INF;
    for (i, c) in children.iter().enumerate() {
        let v = if or { c.a } else { c.b };
        if v < best_v {
            best_v = v;
            best = i;
        }
    }
    best
}

pub(crate) fn terminal_pn(success: bool) -> (f64, f64) {
    if success {
        (0.0, INF)
    } else {
        (INF, 0.0)
    }
}

pub(crate) fn solved_pn(pn: f64, dn: f64) -> Option<bool> {
    if pn == 0.0 {
        Some(true)
    } else if dn == 0.0 {
        Some(false)
    } else {
        None
    }
}
