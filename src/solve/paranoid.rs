//! Paranoid solving as a two-player game: one player (the prover) against the others together.
//!
//! A paranoid proof (Sturtevant & Korf; Saito & Winands) treats every player but the prover as
//! one coalition that plays against it. The proof-number solvers build that in (the prover's
//! nodes are OR nodes, everyone else's AND nodes), but sb-gpn's score bounds and the parallel
//! split of the root's questions into the opponent's are two-player: with three players a
//! non-mover's optimistic bound is the best the others could hand it, so a root's bounds never
//! meet (experiments/multiplayer.md). Rather than a second, paranoid pair of bounds in
//! every node of the playing search, those solvers search [`Paranoid<G>`]: the same positions
//! and moves, with two players, the prover (player 0) and the coalition (player 1), and the
//! prover's result as the game's (a sole first place a win, a shared one a draw, anything else
//! a loss). The coalition may move several times in a row; the search and the solvers key every
//! node by its own mover, so nothing assumes alternation.

use std::fmt;

use super::{Goal, ProofRun, SolveConfig, SolveResult, Value};
use crate::game::{
    record, Dialect, Dialects, Game, GameError, GameInfo, Heuristics, Move, MoveList, Outcome,
    Player, Rules,
};
use crate::rng::Rng;

/// The prover: player 0 of [`Paranoid<G>`].
const PROVER: Player = Player(0);
/// Every other player of `G`, as one: player 1 of [`Paranoid<G>`].
const COALITION: Player = Player(1);

/// `G` seen as a two-player game between `prover` and the other players together.
#[derive(Clone, PartialEq)]
pub struct Paranoid<G: Game> {
    pub position: G,
    prover: Player,
}

impl<G: Game> fmt::Debug for Paranoid<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Paranoid({:?}, prover {})", self.position, self.prover.0)
    }
}

impl<G: Game> Paranoid<G> {
    pub fn new(position: G, prover: Player) -> Paranoid<G> {
        Paranoid { position, prover }
    }

    /// The player of the two-player game who stands for `p` of `G`.
    fn side(&self, p: Player) -> Player {
        if p == self.prover {
            PROVER
        } else {
            COALITION
        }
    }

    /// `G`'s result for the prover as a two-player result.
    fn paranoid_outcome(&self, o: Outcome) -> Outcome {
        if o.winner() == Some(self.prover) {
            Outcome::win(PROVER, 2)
        } else if o.rank(self.prover) == 0 {
            Outcome::draw(2)
        } else {
            Outcome::win(COALITION, 2)
        }
    }
}

/// The paranoid solvers play without a network.
impl<G: Game> crate::game::Features for Paranoid<G> {}

impl<G: Game> Rules for Paranoid<G> {
    const INFO: GameInfo = G::INFO;
    const MAX_PLIES: u32 = G::MAX_PLIES;
    const HAS_REPETITION_RULE: bool = G::HAS_REPETITION_RULE;

    fn start() -> Self {
        let position = G::start();
        let prover = position.to_move();
        Paranoid { position, prover }
    }

    fn to_move(&self) -> Player {
        self.side(self.position.to_move())
    }

    fn legal_moves(&self, out: &mut MoveList) {
        self.position.legal_moves(out);
    }

    fn count_moves(&self) -> usize {
        self.position.count_moves()
    }

    fn play(&mut self, m: Move) {
        self.position.play(m);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.position.outcome().map(|o| self.paranoid_outcome(o))
    }

    fn hash(&self) -> u64 {
        self.position.hash()
    }

    fn compute_hash(&self) -> u64 {
        self.position.compute_hash()
    }

    fn format_move(&self, m: Move) -> String {
        self.position.format_move(m)
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        self.position.parse_move(text)
    }

    fn to_position(&self) -> String {
        self.position.to_position()
    }

    /// The prover of a parsed position is its side to move.
    fn parse_position(text: &str) -> Result<Self, GameError> {
        let position = G::parse_position(text)?;
        let prover = position.to_move();
        Ok(Paranoid { position, prover })
    }

    fn diagram(&self) -> String {
        self.position.diagram()
    }

    fn random_move(&self, rng: &mut Rng, buf: &mut MoveList) -> Option<Move> {
        self.position.random_move(rng, buf)
    }

    fn progress(&self) -> u32 {
        self.position.progress()
    }

    fn repetition_outcome(&self, rep: &record::Repetition) -> Option<Outcome> {
        self.position
            .repetition_outcome(rep)
            .map(|o| self.paranoid_outcome(o))
    }
}

impl<G: Game> Heuristics for Paranoid<G> {
    const HAS_EVALUATION: bool = G::HAS_EVALUATION;

    fn playout_move(&self, rng: &mut Rng, buf: &mut MoveList) -> Option<Move> {
        self.position.playout_move(rng, buf)
    }

    /// The prover's evaluation, and its negation for the coalition.
    fn evaluate(&self, player: Player) -> f32 {
        let v = self.position.evaluate(self.prover);
        if player == PROVER {
            v
        } else {
            -v
        }
    }

    fn is_capture(&self, m: Move) -> bool {
        self.position.is_capture(m)
    }

    fn moves_left_bound(&self) -> Option<u32> {
        self.position.moves_left_bound()
    }
}

impl<G: Game> Dialects for Paranoid<G> {
    fn format_move_in(&self, m: Move, dialect: Dialect) -> String {
        self.position.format_move_in(m, dialect)
    }

    fn to_position_in(&self, dialect: Dialect) -> String {
        self.position.to_position_in(dialect)
    }
}

/// Whether [`super::solve`] answers `cfg` for `G` through [`Paranoid<G>`]: sb-gpn and the
/// parallel solver with more than two players. A constant per game, so the two-player games
/// never build the adapter's solvers.
pub(super) struct Route<G>(std::marker::PhantomData<G>);

impl<G: Game> Route<G> {
    pub(super) const MANY_PLAYERS: bool = G::NUM_PLAYERS > 2;
}

/// Whether `cfg` needs the adapter (given more than two players), or, with two players and
/// another prover than the side to move, the side to move's result turned round: the solvers
/// that answer for the side to move only (sb-gpn, and the parallel split).
pub(super) fn needed(cfg: &SolveConfig) -> bool {
    cfg.algo == super::Algo::SbGpn || cfg.threads > 1
}

/// Solves `root` (not finished) for `cfg.prover` (default: the side to move) against the other
/// players together, with the two-player solvers on [`Paranoid<G>`].
pub(super) fn solve<G: Game>(root: &G, cfg: &SolveConfig) -> SolveResult {
    let prover = cfg.prover.unwrap_or(root.to_move());
    let game = Paranoid::new(root.clone(), prover);
    let r = super::solve_direct(&game, &for_side_to_move(cfg));
    if game.to_move() == PROVER {
        r
    } else {
        turned_round(r)
    }
}

/// `cfg` asking about the side to move (the solvers that answer for it alone).
pub(super) fn for_side_to_move(cfg: &SolveConfig) -> SolveConfig {
    SolveConfig {
        prover: None,
        ..cfg.clone()
    }
}

/// The prover's result from its opponent's (the side to move of a two-player game, or the
/// coalition of a paranoid one): the prover's win is the opponent's loss, its "win?" the
/// opponent's failed "not-loss?", and no best move is given (the move is the opponent's), as
/// with the proof-number solvers' `--player`.
pub(super) fn turned_round(mut r: SolveResult) -> SolveResult {
    r.value = match r.value {
        Value::Win => Value::Loss,
        Value::Loss => Value::Win,
        other => other,
    };
    r.best_move = None;
    r.proofs = r.proofs.iter().map(turned).collect();
    // The prover's "win?" first, as the solvers ask it.
    r.proofs.sort_by_key(|p| p.goal != Goal::Win);
    let settled = |goal: Goal, result: bool| {
        r.proofs
            .iter()
            .any(|p| p.goal == goal && p.result == Some(result))
    };
    r.note = if r.value != Value::Unknown {
        None
    } else if settled(Goal::Win, false) {
        Some("not a win")
    } else if settled(Goal::NotLoss, true) {
        Some("not a loss")
    } else {
        None
    };
    r
}

/// The prover's proof from the coalition's proof of the complementary question: the coalition
/// wins exactly when the prover fails to avoid losing, and avoids losing exactly when the prover
/// fails to win.
fn turned(coalition: &ProofRun) -> ProofRun {
    let goal = match coalition.goal {
        Goal::Win => Goal::NotLoss,
        Goal::NotLoss => Goal::Win,
    };
    ProofRun {
        goal,
        result: coalition.result.map(|r| !r),
        best_move: None,
        ..coalition.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rolit::Rolit;

    #[test]
    fn the_prover_plays_alone_against_the_others_together() {
        let start = Rolit::<4, 3>::start();
        for prover in (0..3).map(Player) {
            let mut p = Paranoid::new(start.clone(), prover);
            let mut buf = MoveList::new();
            let mut rng = Rng::new(7 + prover.0 as u64);
            while p.outcome().is_none() {
                let side = if p.position.to_move() == prover {
                    PROVER
                } else {
                    COALITION
                };
                assert_eq!(p.to_move(), side);
                let m = p.random_move(&mut rng, &mut buf).expect("a move");
                p.play(m);
            }
            let o = p.position.outcome().expect("over");
            let want = if o.winner() == Some(prover) {
                Some(PROVER)
            } else if o.rank(prover) == 0 {
                None
            } else {
                Some(COALITION)
            };
            let got = p.outcome().expect("over");
            assert_eq!(got.num_players(), 2);
            assert_eq!(got.winner(), want, "{o:?}");
            assert_eq!(got.is_draw(), want.is_none());
        }
    }
}
