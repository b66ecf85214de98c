//! Shortest forced wins ("mate in N") on top of the binary proofs: iterative deepening over a
//! ply limit, and the mating line read back by further bounded proofs.
//!
//! A proof-number solver proves *that* the side to move wins, not *how fast*. Asking "win within
//! d plies?" for d = 1, 3, 5, … (the positions at the limit count as draws, so they are not
//! wins) finds the shortest win exactly. The line then follows the winner's fastest move and the
//! loser's longest resistance, each found the same way. sb-gpn proves distances itself: its
//! proven line is taken as it is (the shortest the search has seen, not necessarily the
//! shortest there is).

use std::time::Duration;

use super::{prove, sbgpn, Algo, Budget, Goal, SolveConfig};
use crate::game::{Game, Move, MoveList, Player};

/// What a mate search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateAnswer {
    /// A forced win in `plies` plies (`None`: proven, but the distance search ran out of
    /// budget), with the line as far as it was read back.
    Mate { plies: Option<u32>, pv: Vec<Move> },
    /// No forced win (within the asked number of moves, if any).
    NoMate,
    /// A limit or a stop ended the search first.
    Unknown,
}

/// The result of [`mate_search`].
#[derive(Clone, Debug)]
pub struct MateResult {
    pub answer: MateAnswer,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Looks for a forced win of the side to move: within `max_moves` of its own moves (plies
/// `2 * max_moves - 1`, as UCI's `go mate N`), or at any distance when `None`, with the
/// shortest distance and line where the budget allows.
pub fn mate_search<G: Game>(root: &G, cfg: &SolveConfig, max_moves: Option<u32>) -> MateResult {
    let mut budget = Budget::of(cfg);
    let answer = if root.outcome().is_some() {
        MateAnswer::NoMate
    } else if cfg.algo == Algo::SbGpn {
        let r = sbgpn::solve(root, cfg, &mut budget);
        match (r.value, r.plies) {
            (super::Value::Win, Some(p)) if max_moves.map_or(true, |n| p < 2 * n) => {
                MateAnswer::Mate {
                    plies: Some(p),
                    pv: r.pv,
                }
            }
            (super::Value::Unknown, _) => MateAnswer::Unknown,
            (super::Value::Win, _) => MateAnswer::Unknown,
            _ => MateAnswer::NoMate,
        }
    } else {
        let mut m = Mater {
            cfg: cfg.clone(),
            budget: &mut budget,
            me: root.to_move(),
            moves: MoveList::new(),
            first: None,
        };
        m.run(root, max_moves)
    };
    MateResult {
        answer,
        nodes: budget.nodes,
        elapsed: budget.elapsed(),
    }
}

struct Mater<'a> {
    cfg: SolveConfig,
    budget: &'a mut Budget,
    me: Player,
    moves: MoveList,
    /// The winning move of the unbounded proof.
    first: Option<Move>,
}

impl Mater<'_> {
    fn run<G: Game>(&mut self, root: &G, max_moves: Option<u32>) -> MateAnswer {
        let limit = match max_moves {
            Some(n) => n.saturating_mul(2).saturating_sub(1),
            None => {
                // Unbounded first: it alone can say "no mate at all".
                let cfg = SolveConfig {
                    max_plies: None,
                    ..self.cfg.clone()
                };
                let run = prove(root, Goal::Win, &cfg, self.budget);
                match run.result {
                    Some(true) => self.first = run.best_move,
                    Some(false) => return MateAnswer::NoMate,
                    None => return MateAnswer::Unknown,
                }
                super::depth_cap::<G>()
            }
        };
        match self.shortest(root, limit) {
            Some(Some(plies)) => MateAnswer::Mate {
                plies: Some(plies),
                pv: self.line(root, plies),
            },
            Some(None) if max_moves.is_some() => MateAnswer::NoMate,
            // Proven unbounded, but no distance within the cap or the budget.
            _ if max_moves.is_none() => MateAnswer::Mate {
                plies: None,
                pv: self.first.into_iter().collect(),
            },
            _ => MateAnswer::Unknown,
        }
    }

    /// Whether the root player wins from `pos` within `plies` (`None`: unbounded); `None` when
    /// the budget ran out. Positions where the opponent moves are opened here, one level, so
    /// that every proof starts with the root player to move.
    fn wins_within<G: Game>(&mut self, pos: &G, plies: Option<u32>) -> Option<bool> {
        if let Some(o) = pos.outcome() {
            return Some(o.winner() == Some(self.me));
        }
        if plies == Some(0) {
            return Some(false);
        }
        if pos.to_move() == self.me {
            let cfg = SolveConfig {
                max_plies: plies,
                ..self.cfg.clone()
            };
            return prove(pos, Goal::Win, &cfg, self.budget).result;
        }
        pos.legal_moves(&mut self.moves);
        let replies: Vec<Move> = self.moves.iter().copied().collect();
        let mut answer = Some(true);
        for r in replies {
            let mut c = pos.clone();
            c.play(r);
            match self.wins_within(&c, plies.map(|p| p - 1)) {
                Some(true) => {}
                Some(false) => return Some(false),
                None => answer = None,
            }
        }
        answer
    }

    /// The fewest plies (at most `limit`) in which the root player wins from `pos`:
    /// `Some(None)` when there is no win within `limit`, `None` when the budget ran out.
    fn shortest<G: Game>(&mut self, pos: &G, limit: u32) -> Option<Option<u32>> {
        if let Some(o) = pos.outcome() {
            return Some((o.winner() == Some(self.me)).then_some(0));
        }
        // One ply at a time: games with extra turns (Kalah) do not alternate, so every length
        // is possible.
        for d in 1..=limit {
            if self.wins_within(pos, Some(d))? {
                return Some(Some(d));
            }
        }
        Some(None)
    }

    /// The line of a win in exactly `plies`: the winner's fastest moves, the loser's longest
    /// resistance; shorter when the budget runs out.
    fn line<G: Game>(&mut self, root: &G, plies: u32) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut pos = root.clone();
        let mut left = plies;
        while left > 0 && pos.outcome().is_none() {
            pos.legal_moves(&mut self.moves);
            let moves: Vec<Move> = self.moves.iter().copied().collect();
            let mut next = None;
            if pos.to_move() == self.me {
                for m in moves {
                    let mut c = pos.clone();
                    c.play(m);
                    match self.wins_within(&c, Some(left - 1)) {
                        Some(true) => {
                            next = Some((m, left - 1));
                            break;
                        }
                        Some(false) => {}
                        None => return pv,
                    }
                }
            } else {
                let mut longest = 0;
                for m in moves {
                    let mut c = pos.clone();
                    c.play(m);
                    match self.shortest(&c, left - 1) {
                        Some(Some(d)) if next.is_none() || d > longest => {
                            longest = d;
                            next = Some((m, d));
                        }
                        Some(_) => {}
                        None => return pv,
                    }
                }
            }
            let Some((m, d)) = next else {
                return pv;
            };
            pv.push(m);
            pos.play(m);
            left = d;
        }
        pv
    }
}
