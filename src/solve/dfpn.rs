//! Nagai's depth-first proof-number search (df-pn) with a transposition table and the 1+epsilon trick.
//!
//! The table is a fixed array of two-entry buckets sized by the memory option: an entry holds the
//! full 64-bit Zobrist hash of the position (verified on every probe; the bucket index uses the
//! low bits) with its proof and disproof numbers and the work (MID calls) spent on it. A full
//! bucket drops its entry of least work, so a small table slows the search but never breaks it.
//! With `epsilon > 0` the second-best child's bound becomes ceil(second * (1 + epsilon))
//! (Pawlewicz and Lew), which cuts the thrashing between siblings.
//!
//! A table can serve several proofs in turn ([`prove_in`]: the two proofs of a solve, a parallel
//! worker's jobs). Each entry's key is salted with its question (goal and root player), because
//! a position's numbers answer one question only, and stamped with the proof that wrote it: a
//! full bucket drops entries of earlier proofs first. Reuse saves the table's allocation and the
//! first touch of its pages, which cost more than a short proof itself (docs/threads.md), and a
//! later proof of the same question (one root move after another) finds the earlier one's
//! solved positions.

use std::collections::HashSet;

use super::guide::Guide;
use super::{terminal, Budget, Goal, ProofRun, SolveConfig, TIME_CHECK};
use crate::game::{Game, Move, MoveList, Player};

/// Infinity; open nodes' sums saturate at `INF - 1`.
pub const INF: u32 = u32::MAX;

const WAYS: usize = 2;

/// Bytes per table entry: key, numbers, and work with the proof stamp.
const ENTRY_BYTES: usize = 8 + 8 + 4;

/// The largest work an entry records (24 bits); more counts as this much.
const WORK_MAX: u32 = (1 << 24) - 1;

/// The table as three plain arrays (zero-initialised, so the allocator hands out lazily zeroed
/// pages): the salted hash, the numbers packed `pn | dn << 32` (0 = empty slot: a stored entry
/// never has pn = dn = 0), and `stamp << 24 | work`: the stamp of the proof that wrote the entry
/// and the work spent on it (in one word, so that a store touches no fourth array).
pub struct Table {
    keys: Vec<u64>,
    vals: Vec<u64>,
    work: Vec<u32>,
    mask: usize,
    /// The current proof's stamp (wrapping: after 256 proofs an old entry may pass for a current
    /// one, which only changes which entry a full bucket drops).
    current: u8,
}

#[inline]
fn pack(pn: u32, dn: u32) -> u64 {
    pn as u64 | (dn as u64) << 32
}

impl Table {
    /// The number of buckets for `memory_mb` and a search of at most `max_nodes` nodes: a power
    /// of two.
    fn buckets(memory_mb: usize, max_nodes: Option<u64>) -> usize {
        let bytes = memory_mb.saturating_mul(1 << 20);
        let mut entries = (bytes / ENTRY_BYTES).max(64);
        if let Some(n) = max_nodes {
            // No point in a table much larger than the positions the search may generate.
            entries = entries.min((n as usize).saturating_mul(2).max(1 << 12));
        }
        // Round down to a power of two buckets.
        let buckets = (entries / WAYS).max(1);
        1usize << (usize::BITS - 1 - buckets.leading_zeros())
    }

    fn new(buckets: usize) -> Table {
        Table {
            keys: vec![0; buckets * WAYS],
            vals: vec![0; buckets * WAYS],
            work: vec![0; buckets * WAYS],
            mask: buckets - 1,
            current: 0,
        }
    }

    /// `slot`'s table when it has `buckets` buckets, else a new one; stamped for a new proof.
    fn take(slot: &mut Option<Table>, buckets: usize) -> Table {
        let mut table = match slot.take() {
            Some(t) if t.mask + 1 == buckets => t,
            // The old one is freed before the new one's (lazily zeroed) pages are touched.
            _ => Table::new(buckets),
        };
        table.current = table.current.wrapping_add(1);
        table
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((key as usize) & self.mask) * WAYS
    }

    #[inline]
    fn get(&self, key: u64) -> Option<(u32, u32)> {
        let b = self.bucket(key);
        (b..b + WAYS)
            .find(|&i| self.vals[i] != 0 && self.keys[i] == key)
            .map(|i| (self.vals[i] as u32, (self.vals[i] >> 32) as u32))
    }

    #[inline]
    fn put(&mut self, key: u64, pn: u32, dn: u32, work: u32) {
        let b = self.bucket(key);
        let solved = |v: u64| v as u32 == 0 || (v >> 32) as u32 == 0;
        let i = (b..b + WAYS)
            .find(|&i| self.vals[i] != 0 && self.keys[i] == key)
            .or_else(|| (b..b + WAYS).find(|&i| self.vals[i] == 0))
            .unwrap_or_else(|| {
                // Evict the least valuable: an earlier proof's before this one's, open before
                // solved, then the least work.
                (b..b + WAYS)
                    .min_by_key(|&i| {
                        let this_proof = (self.work[i] >> 24) as u8 == self.current;
                        (this_proof, solved(self.vals[i]), self.work[i] & WORK_MAX)
                    })
                    .unwrap_or(b)
            });
        self.keys[i] = key;
        self.vals[i] = pack(pn, dn);
        self.work[i] = (self.current as u32) << 24 | work.min(WORK_MAX);
    }
}

struct Dfpn<G: Game> {
    table: Table,
    /// Mixed into every key: this proof's question.
    salt: u64,
    goal: Goal,
    me: Player,
    epsilon: f64,
    /// See [`SolveConfig::eval_init`].
    eval_init: u32,
    /// See [`SolveConfig::mobility`].
    mobility: bool,
    /// See [`SolveConfig::prior_init`] (0 with a network: its policy orders instead).
    prior_init: u32,
    /// The network's advice (focused DFPN), if any.
    guide: Option<Guide>,
    /// See [`SolveConfig::focus`] (0 without a network).
    focus: f64,
    /// See [`SolveConfig::forcing`].
    forcing: bool,
    /// Child positions per depth, reused (no allocation once warm); with a network, in the
    /// policy's order.
    levels: Vec<Vec<(G, Move)>>,
    /// The children's numbers per depth in the current pass, reused.
    numbers: Vec<Vec<(u32, u32)>>,
    /// Per depth, each child's numbers from the rules or the heuristics once worked out in this
    /// visit (`None` before): a child the table does not hold would otherwise be evaluated
    /// again in every pass over the children, and most children are never entered.
    fresh: Vec<Vec<Option<(u32, u32)>>>,
    /// Each child's weight per depth in the current pass, reused (empty: all 1): its number that
    /// the parent minimises is seen multiplied by it ([`SolveConfig::prior_init`]).
    weights: Vec<Vec<f32>>,
    /// Scratch of the policy order: (prior, move index).
    order: Vec<(f32, u16)>,
    /// Scratch of the game's move priors.
    priors: Vec<u16>,
    moves: MoveList,
    since_check: u64,
    stop: Option<&'static str>,
    /// See [`SolveConfig::cap`].
    cap: u32,
    /// A ply limit was asked for: a position's numbers depend on the plies left, so they are
    /// part of the table key.
    bounded: bool,
}

impl<G: Game> Dfpn<G> {
    /// The table key of `pos` met `depth` plies from the root.
    #[inline]
    fn key(&self, pos: &G, depth: u32) -> u64 {
        let key = pos.hash() ^ self.salt;
        if self.bounded {
            let left = self.cap.saturating_sub(depth) as u64 + 1;
            key ^ left.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        } else {
            key
        }
    }

    /// The moves searched at `pos` into `out`: the forcing rule's where asked for and it
    /// applies, else every legal move.
    #[inline]
    fn moves_of(&self, pos: &G, out: &mut MoveList) {
        if !(self.forcing && pos.forcing_moves(out)) {
            pos.legal_moves(out);
        }
    }

    /// The numbers of a child: from the table, else from the rules (storing finished ones),
    /// else `init` (the network's, from the parent) or the heuristics'. `fresh` keeps what the
    /// rules or the heuristics gave for the next pass (it depends on the position alone).
    #[inline]
    fn child_numbers(
        &mut self,
        child: &G,
        depth: u32,
        init: Option<(u32, u32)>,
        fresh: &mut Option<(u32, u32)>,
    ) -> (u32, u32) {
        let key = self.key(child, depth);
        if let Some(v) = self.table.get(key) {
            return v;
        }
        if let Some(v) = *fresh {
            return v;
        }
        let v = match terminal(child, self.goal, self.me, depth, self.cap) {
            Some(s) => {
                let v = if s { (0, INF) } else { (INF, 0) };
                self.table.put(key, v.0, v.1, u32::MAX);
                v
            }
            None => init.unwrap_or_else(|| self.initial(child)),
        };
        *fresh = Some(v);
        v
    }

    /// The numbers of a new, unfinished leaf (see [`SolveConfig::eval_init`]).
    #[inline]
    fn initial(&self, leaf: &G) -> (u32, u32) {
        let (pn, dn) = if self.eval_init == 0 || !G::HAS_EVALUATION {
            (1, 1)
        } else {
            let v = leaf.evaluate(self.me).clamp(-1.0, 1.0);
            let k = self.eval_init as f32;
            (
                1 + (k * (1.0 - v)).round() as u32,
                1 + (k * (1.0 + v)).round() as u32,
            )
        };
        if !self.mobility {
            return (pn, dn);
        }
        let n = leaf.count_moves().max(1) as u32;
        if leaf.to_move() == self.me {
            (pn, dn.saturating_mul(n).min(INF - 1))
        } else {
            (pn.saturating_mul(n).min(INF - 1), dn)
        }
    }

    /// A child's numbers `v` as its parent sees them: the number the parent minimises (pn at an
    /// OR node, dn at an AND node) times the child's `weight`; 0 and infinity stay as they are.
    #[inline]
    fn weigh(v: (u32, u32), weight: f32, or: bool) -> (u32, u32) {
        let grow = |x: u32| {
            if x == 0 || x == INF || weight == 1.0 {
                x
            } else {
                (x as f64 * weight as f64)
                    .round()
                    .clamp(1.0, (INF - 1) as f64) as u32
            }
        };
        if or {
            (grow(v.0), v.1)
        } else {
            (v.0, grow(v.1))
        }
    }

    /// The order of `moves` at `pos` and their weights from the game's knowledge priors (see
    /// [`SolveConfig::prior_init`]) into `self.order`, the weight in place of the prior.
    fn prior_order(&mut self, pos: &G, moves: &[Move]) {
        pos.move_priors(moves, &mut self.priors);
        if self.priors.len() != moves.len() {
            return;
        }
        let k = self.prior_init as f32;
        self.order.extend(
            self.priors
                .iter()
                .enumerate()
                .map(|(i, &p)| (1.0 + k * (1.0 - p as f32 / 65535.0), i as u16)),
        );
        // Stable: equal priors keep the move generator's order.
        self.order.sort_by(|a, b| a.0.total_cmp(&b.0));
    }

    /// Multiple iterative deepening at `pos` (not finished) until its pn or dn reaches its
    /// threshold; returns the final numbers.
    fn mid(
        &mut self,
        pos: &G,
        depth: u32,
        th_pn: u32,
        th_dn: u32,
        budget: &mut Budget,
    ) -> (u32, u32) {
        let start_nodes = budget.nodes;
        let or = pos.to_move() == self.me;
        if self.levels.len() <= depth as usize {
            self.levels.resize_with(depth as usize + 1, Vec::new);
        }
        if self.numbers.len() <= depth as usize {
            self.numbers.resize_with(depth as usize + 1, Vec::new);
            self.fresh.resize_with(depth as usize + 1, Vec::new);
        }
        let mut kids = std::mem::take(&mut self.levels[depth as usize]);
        let mut numbers = std::mem::take(&mut self.numbers[depth as usize]);
        let mut fresh = std::mem::take(&mut self.fresh[depth as usize]);
        if self.weights.len() <= depth as usize {
            self.weights.resize_with(depth as usize + 1, Vec::new);
        }
        let mut weights = std::mem::take(&mut self.weights[depth as usize]);
        weights.clear();
        kids.clear();
        let mut moves = std::mem::take(&mut self.moves);
        self.moves_of(pos, &mut moves);
        // With a network: the children in the policy's order, and their first numbers.
        let mut init = None;
        self.order.clear();
        if let Some(guide) = &mut self.guide {
            let wide = |x: f64| x.round().clamp(1.0, (INF - 1) as f64) as u32;
            init = guide
                .advise(pos, moves.as_slice(), self.me)
                .map(|(pn, dn)| (wide(pn), wide(dn)));
            guide.move_order(&mut self.order);
        } else if self.prior_init > 0 && G::HAS_MOVE_PRIORS {
            self.prior_order(pos, moves.as_slice());
            weights.extend(self.order.iter().map(|&(w, _)| w));
        }
        // Without a network or priors (no order) the children keep the move generator's order.
        for k in 0..moves.len() {
            let m = match self.order.get(k) {
                Some(&(_, i)) => moves[i as usize],
                None => moves[k],
            };
            let mut c = pos.clone();
            c.play(m);
            kids.push((c, m));
        }
        self.moves = moves;
        fresh.clear();
        fresh.resize(kids.len(), None);
        // Nodes are generated positions, as for the tree solvers.
        budget.nodes += kids.len() as u64;
        self.since_check += kids.len() as u64;
        let (mut pn, mut dn);
        loop {
            // In this node's view: `m` is the number it minimises over its children (pn at an
            // OR node, dn at an AND node), `s` the one it sums.
            let mut min1 = INF;
            let mut min2 = INF;
            let mut best = 0usize;
            let mut best_s = 0u32;
            let mut sum: u64 = 0;
            let mut infinite = false;
            numbers.clear();
            let mut unsolved = 0usize;
            for (i, (c, _)) in kids.iter().enumerate() {
                let mut v = self.child_numbers(c, depth + 1, init, &mut fresh[i]);
                if let Some(&w) = weights.get(i) {
                    v = Self::weigh(v, w, or);
                }
                unsolved += usize::from(v.0 != 0 && v.1 != 0);
                numbers.push(v);
            }
            // Progressive widening: the unsolved children beyond the window (in the policy's
            // order) wait until some before them are solved.
            let mut window = if self.focus > 0.0 {
                1 + (self.focus * unsolved as f64).ceil() as usize
            } else {
                usize::MAX
            };
            for (i, &(cpn, cdn)) in numbers.iter().enumerate() {
                if cpn != 0 && cdn != 0 {
                    if window == 0 {
                        continue;
                    }
                    window -= 1;
                }
                let (cm, cs) = if or { (cpn, cdn) } else { (cdn, cpn) };
                if cm < min1 {
                    min2 = min1;
                    min1 = cm;
                    best = i;
                    best_s = cs;
                } else if cm < min2 {
                    min2 = cm;
                }
                if cs == INF {
                    infinite = true;
                } else {
                    sum += cs as u64;
                }
            }
            // Open sums saturate below INF: only an infinite child makes the sum infinite.
            let sum = if infinite {
                INF
            } else {
                sum.min(INF as u64 - 1) as u32
            };
            if or {
                pn = min1;
                dn = sum;
            } else {
                dn = min1;
                pn = sum;
            }
            if pn >= th_pn || dn >= th_dn || pn == 0 || dn == 0 || self.stop.is_some() {
                break;
            }
            if budget.nodes_out() {
                self.stop = Some("nodes");
                break;
            }
            if self.since_check >= TIME_CHECK {
                self.since_check = 0;
                if depth == 0 {
                    let wide = |x| {
                        if x == INF {
                            f64::INFINITY
                        } else {
                            f64::from(x)
                        }
                    };
                    budget.publish_root(wide(pn), wide(dn));
                }
                if let Some(why) = budget.time_out() {
                    self.stop = Some(why);
                    break;
                }
            }
            // Thresholds of the most proving child, in this node's view.
            let (th_m, th_s) = if or { (th_pn, th_dn) } else { (th_dn, th_pn) };
            let second = if self.epsilon > 0.0 && min2 < INF - 1 {
                let grown = (min2 as f64 * (1.0 + self.epsilon)).ceil() as u64;
                grown.max(min2 as u64 + 1).min(INF as u64) as u32
            } else {
                min2.saturating_add(1)
            };
            let mut child_m = th_m.min(second);
            if let Some(&w) = weights.get(best) {
                // The child sees its own numbers, unweighted: it stops where its weighted
                // number reaches the threshold.
                if child_m != INF && w != 1.0 {
                    child_m = ((child_m as f64 / w as f64).ceil() as u32).max(1);
                }
            }
            let child_s = (th_s as u64 + best_s as u64 - sum as u64).min(INF as u64) as u32;
            let (child_th_pn, child_th_dn) = if or {
                (child_m, child_s)
            } else {
                (child_s, child_m)
            };
            self.mid(&kids[best].0, depth + 1, child_th_pn, child_th_dn, budget);
        }
        let work = (budget.nodes - start_nodes + 1).min(u32::MAX as u64 - 1) as u32;
        self.table.put(self.key(pos, depth), pn, dn, work);
        self.levels[depth as usize] = kids;
        self.numbers[depth as usize] = numbers;
        self.fresh[depth as usize] = fresh;
        self.weights[depth as usize] = weights;
        (pn, dn)
    }
}

/// The key salt of the question "can `me` reach `goal`?".
fn salt(goal: Goal, me: Player) -> u64 {
    let question = match goal {
        Goal::Win => 0u64,
        Goal::NotLoss => 1,
    } << 8
        | me.0 as u64;
    crate::rng::mix64(0xD1B5_4A32_D192_ED03 ^ question)
}

/// One binary proof by df-pn, in a table of its own.
pub fn prove<G: Game>(root: &G, goal: Goal, cfg: &SolveConfig, budget: &mut Budget) -> ProofRun {
    prove_in(root, goal, cfg, budget, &mut None)
}

/// One binary proof by df-pn in `slot`'s table when it has the size this proof's memory and
/// node limits give (a new one otherwise); the table is left in `slot` for the next proof.
pub fn prove_in<G: Game>(
    root: &G,
    goal: Goal,
    cfg: &SolveConfig,
    budget: &mut Budget,
    slot: &mut Option<Table>,
) -> ProofRun {
    let mut run = ProofRun::new(goal);
    let me = cfg.prover.unwrap_or(root.to_move());
    let cap = cfg.cap::<G>();
    if let Some(r) = terminal(root, goal, me, 0, cap) {
        run.result = Some(r);
        run.proof_size = Some(1);
        return run;
    }
    let remaining = budget.max_nodes.map(|m| m.saturating_sub(budget.nodes));
    let mut s = Dfpn {
        table: Table::take(slot, Table::buckets(cfg.memory_mb, remaining)),
        salt: salt(goal, me),
        goal,
        me,
        epsilon: cfg.epsilon,
        eval_init: cfg.eval_init,
        mobility: cfg.mobility,
        prior_init: cfg.prior_init,
        guide: Guide::new::<G>(cfg),
        focus: 0.0,
        forcing: cfg.forcing,
        levels: Vec::new(),
        numbers: Vec::new(),
        fresh: Vec::new(),
        weights: Vec::new(),
        order: Vec::new(),
        priors: Vec::new(),
        moves: MoveList::new(),
        since_check: 0,
        stop: None,
        cap,
        bounded: cfg.max_plies.is_some(),
    };
    if s.guide.is_some() {
        s.focus = cfg.focus;
    }
    budget.nodes += 1;
    let (pn, dn) = s.mid(root, 0, INF, INF, budget);
    if pn == 0 {
        run.result = Some(true);
    } else if dn == 0 {
        run.result = Some(false);
    } else {
        run.stopped_by = Some(s.stop.unwrap_or("nodes"));
        *slot = Some(s.table);
        return run;
    }
    let proven = pn == 0;
    let mut moves = MoveList::new();
    s.moves_of(root, &mut moves);
    // A best move only where the prover chooses.
    if proven && root.to_move() == me {
        run.best_move = moves.iter().copied().find(|&m| {
            let mut c = root.clone();
            c.play(m);
            s.child_numbers(&c, 1, None, &mut None).0 == 0
        });
    }
    run.proof_size = s.proof_size(root, proven);
    *slot = Some(s.table);
    run
}

impl<G: Game> Dfpn<G> {
    /// Distinct positions of the proof (or disproof) graph read back from the table; `None` when
    /// a needed entry was overwritten (or the graph is larger than ten million positions).
    fn proof_size(&mut self, root: &G, proven: bool) -> Option<u64> {
        let mut seen: HashSet<u64> = HashSet::new();
        let mut stack: Vec<(G, u32)> = vec![(root.clone(), 0)];
        let mut moves = MoveList::new();
        let want = |v: (u32, u32)| if proven { v.0 == 0 } else { v.1 == 0 };
        while let Some((pos, depth)) = stack.pop() {
            if !seen.insert(self.key(&pos, depth)) {
                continue;
            }
            if seen.len() > 10_000_000 {
                return None;
            }
            if terminal(&pos, self.goal, self.me, depth, self.cap).is_some() {
                continue;
            }
            self.moves_of(&pos, &mut moves);
            let or = pos.to_move() == self.me;
            let mut found = false;
            for &m in moves.iter() {
                let mut c = pos.clone();
                c.play(m);
                let v = match terminal(&c, self.goal, self.me, depth + 1, self.cap) {
                    Some(s) => {
                        if s {
                            (0, INF)
                        } else {
                            (INF, 0)
                        }
                    }
                    None => self.table.get(self.key(&c, depth + 1)).unwrap_or((1, 1)),
                };
                if or == proven {
                    // One child suffices: the prover's choice.
                    if want(v) {
                        stack.push((c, depth + 1));
                        found = true;
                        break;
                    }
                } else {
                    if !want(v) {
                        return None;
                    }
                    stack.push((c, depth + 1));
                    found = true;
                }
            }
            if !found {
                return None;
            }
        }
        Some(seen.len() as u64)
    }
}
