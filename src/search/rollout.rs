//! Playouts: uniformly random, or under the heuristic options of the implicit-minimax paper
//! (decisive and anti-decisive moves, preferred captures, epsilon-greedy moves, fixed and dynamic
//! early terminations). A [`Rollout`] is one thread's random stream and move buffers, so that
//! threads can run playouts at the same time without touching the tree.

use super::netleaf::NetLeaf;
use super::params::{Policy, SearchParams};
use super::threat::ThreatSearch;
use crate::game::{Game, Move, MoveList, Player};
use crate::rng::Rng;

/// How much likelier a capture is than another move under the informed policy (the paper's 4).
const CAPTURE_WEIGHT: u32 = 4;
/// Under the informed policy, moves drawn before one that does not hand the opponent an
/// immediate win is accepted (then the last one is played anyway).
const ANTI_DECISIVE_TRIES: u32 = 4;

/// One thread's playout state: its random numbers (also the selection's tie-breaks in a
/// one-thread search) and its move buffers.
pub(super) struct Rollout {
    pub rng: Rng,
    /// Network evaluation buffers (used only with a network).
    pub net: NetLeaf,
    /// Threat search scratch, for the nodes this thread prepares.
    pub threats: ThreatSearch,
    moves: MoveList,
    /// The opponent's replies, for the informed policy.
    replies: MoveList,
    /// Whether playouts record their moves in `trace` (RAVE).
    tracing: bool,
    /// The last playout's moves with their players, when `tracing`.
    trace: Vec<(Move, u8)>,
}

impl Rollout {
    pub fn new(seed: u64) -> Rollout {
        Rollout {
            rng: Rng::new(seed),
            net: NetLeaf::default(),
            threats: ThreatSearch::default(),
            moves: MoveList::new(),
            replies: MoveList::new(),
            tracing: false,
            trace: Vec::new(),
        }
    }

    /// Makes playouts record their moves (for RAVE), or stop recording them.
    pub fn set_tracing(&mut self, on: bool) {
        self.tracing = on;
        self.trace.clear();
    }

    /// The moves of the playouts since the last [`Rollout::clear_trace`], with their players.
    pub fn trace(&self) -> &[(Move, u8)] {
        &self.trace
    }

    pub fn clear_trace(&mut self) {
        self.trace.clear();
    }

    /// The trace's buffer, handed out so that a caller may read it while changing the search
    /// (give it back with [`Rollout::put_trace`], so that no playout allocates).
    pub fn take_trace(&mut self) -> Vec<(Move, u8)> {
        std::mem::take(&mut self.trace)
    }

    /// Gives back the buffer of [`Rollout::take_trace`].
    pub fn put_trace(&mut self, trace: Vec<(Move, u8)>) {
        self.trace = trace;
    }

    /// Plays `m` in `position`, recording it when tracing.
    #[inline]
    fn play<G: Game>(&mut self, position: &mut G, m: Move) {
        if self.tracing {
            self.trace.push((m, position.to_move().0));
        }
        position.play(m);
    }

    /// A playout from `position`, capped at `playout_cap` plies (a draw): uniformly random, or
    /// as the heuristic options say ([`Rollout::informed_playout`]); with a network, its value
    /// instead.
    pub fn playout<G: Game, const P: usize>(
        &mut self,
        params: &SearchParams,
        mut position: G,
    ) -> [f32; P] {
        if let Some(net) = params.network.as_ref().filter(|_| params.uses_network()) {
            // The network's value instead of a playout (exact where the game is over).
            return match position.outcome() {
                Some(outcome) => std::array::from_fn(|p| outcome.utility(Player(p as u8))),
                None => NetLeaf::utilities(self.net.value(net.net(), &position)),
            };
        }
        if params.uses_informed_playouts() {
            return self.informed_playout(params, position);
        }
        let knowledge = params.policy == Policy::Game;
        for _ in 0..params.playout_cap {
            let next = if knowledge {
                position.playout_move(&mut self.rng, &mut self.moves)
            } else {
                position.random_move(&mut self.rng, &mut self.moves)
            };
            match next {
                Some(m) => self.play(&mut position, m),
                None => break,
            }
        }
        match position.outcome() {
            Some(outcome) => std::array::from_fn(|p| outcome.utility(Player(p as u8))),
            None => [0.0; P],
        }
    }

    /// A playout under the heuristic options: the policy's moves, cut short by fixed or dynamic
    /// early termination (scored by the evaluation), capped at `playout_cap` plies (a draw).
    pub fn informed_playout<G: Game, const P: usize>(
        &mut self,
        params: &SearchParams,
        mut position: G,
    ) -> [f32; P] {
        let (fet, det) = (params.fet, params.det);
        let mut plies = 0u32;
        loop {
            if let Some(outcome) = position.outcome() {
                return std::array::from_fn(|p| outcome.utility(Player(p as u8)));
            }
            if plies >= params.playout_cap {
                return [0.0; P];
            }
            if P > 2 && fet > 0 && plies >= fet {
                // Each player's own evaluation: with more than two players they need not sum
                // to zero (Rolit's and Chinese Checkers' are leads over the best other player).
                return std::array::from_fn(|p| position.evaluate(Player(p as u8)));
            }
            if P == 2 && (fet > 0 || det > 0.0) {
                let v = position.evaluate(Player(0));
                if fet > 0 && plies >= fet {
                    return std::array::from_fn(|p| if p == 0 { v } else { -v });
                }
                if det > 0.0 && v.abs() >= det {
                    let s = v.signum();
                    return std::array::from_fn(|p| if p == 0 { s } else { -s });
                }
            }
            match self.playout_move(params, &position) {
                Some(m) => self.play(&mut position, m),
                None => return [0.0; P],
            }
            plies += 1;
        }
    }

    /// The next playout move under the policy (`None` only when there is no legal move).
    pub fn playout_move<G: Game>(&mut self, params: &SearchParams, position: &G) -> Option<Move> {
        if params.policy == Policy::Game {
            // The game's knowledge, or with probability `1 - ege` the greediest move.
            if !self.greedy_turn(params.ege) {
                return position.playout_move(&mut self.rng, &mut self.moves);
            }
            position.legal_moves(&mut self.moves);
            return (!self.moves.is_empty()).then(|| self.greediest(position));
        }
        position.legal_moves(&mut self.moves);
        let n = self.moves.len();
        if n == 0 {
            return None;
        }
        let two_players = G::NUM_PLAYERS == 2;
        let informed = params.policy == Policy::Informed && two_players;
        if informed {
            // Decisive: a move that wins at once is always played.
            if let Some(m) = position.winning_move(&mut self.replies) {
                return Some(m);
            }
        }
        // Greedy for the mover's own evaluation, whatever the number of players.
        if self.greedy_turn(params.ege) {
            return Some(self.greediest(position));
        }
        if !informed {
            return Some(self.moves[self.rng.below(n as u32) as usize]);
        }
        // Captures preferred; anti-decisive: redraw a move that lets the opponent win at once.
        let mut pick = self.moves[0];
        for _ in 0..ANTI_DECISIVE_TRIES {
            pick = self.weighted_move(position);
            let mut next = position.clone();
            next.play(pick);
            if !self.wins_at_once(&next) {
                break;
            }
        }
        Some(pick)
    }

    /// Whether epsilon-greedy playouts (`ege` > 0) play the greediest move this turn: with
    /// probability `1 - ege` (no random number is drawn when `ege` is 0).
    fn greedy_turn(&mut self, ege: f32) -> bool {
        ege > 0.0 && self.rng.below(1 << 20) as f32 >= ege * (1 << 20) as f32
    }

    /// A move of `self.moves` at random, captures [`CAPTURE_WEIGHT`] times as likely.
    fn weighted_move<G: Game>(&mut self, position: &G) -> Move {
        let weight = |m: Move| {
            if position.is_capture(m) {
                CAPTURE_WEIGHT
            } else {
                1
            }
        };
        let total: u32 = self.moves.iter().map(|&m| weight(m)).sum();
        let mut r = self.rng.below(total.max(1));
        for &m in self.moves.iter() {
            let w = weight(m);
            if r < w {
                return m;
            }
            r -= w;
        }
        self.moves[self.moves.len() - 1]
    }

    /// Whether the player to move in `position` has a move that wins at once.
    fn wins_at_once<G: Game>(&mut self, position: &G) -> bool {
        position.winning_move(&mut self.replies).is_some()
    }

    /// The move of `self.moves` whose position evaluates best for the mover (ties at random).
    fn greediest<G: Game>(&mut self, position: &G) -> Move {
        let mover = position.to_move();
        let mut best = f32::NEG_INFINITY;
        let mut pick = self.moves[0];
        let mut ties = 0u32;
        for i in 0..self.moves.len() {
            let m = self.moves[i];
            let mut next = position.clone();
            next.play(m);
            let v = match next.outcome() {
                Some(o) => o.utility(mover) * 2.0,
                None => next.evaluate(mover),
            };
            if v > best {
                best = v;
                pick = m;
                ties = 1;
            } else if v == best {
                ties += 1;
                if self.rng.below(ties) == 0 {
                    pick = m;
                }
            }
        }
        pick
    }
}
