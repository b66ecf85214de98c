//! A game defined by an explicit, hand-built tree, for testing the search on exact vectors.

use crate::game::{
    Dialects, GameError, GameInfo, Heuristics, Move, MoveList, Outcome, Player, Rules,
};

/// One node of a hand-built game tree.
#[derive(Clone, Copy, Debug)]
pub enum Spec {
    /// The player to move and the children (indices into the tree).
    Inner(u8, &'static [u16]),
    /// A finished game: the winner, or `None` for a draw.
    End(Option<u8>),
    /// A finished game of any number of players: each player's rank (0 = best; equal ranks
    /// tie).
    Ranks(&'static [u8]),
}

/// The tree used by every `TreeGame` (set per test thread).
pub type TreeSpec = &'static [Spec];

thread_local! {
    static TREE: std::cell::Cell<TreeSpec> = const { std::cell::Cell::new(&[Spec::End(None)]) };
    static EVALS: std::cell::Cell<&'static [f32]> = const { std::cell::Cell::new(&[]) };
}

/// Installs `tree` for `TreeGame` on this thread (with no evaluations: all 0).
pub fn use_tree(tree: TreeSpec) {
    TREE.with(|t| t.set(tree));
    EVALS.with(|e| e.set(&[]));
}

/// Installs evaluations for the first player, per node of the tree (missing ones are 0).
pub fn use_evals(evals: &'static [f32]) {
    EVALS.with(|e| e.set(evals));
}

fn tree() -> TreeSpec {
    TREE.with(|t| t.get())
}

/// A position of the hand-built tree for `P` players: the index of its node. Move `i` goes to
/// child `i`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TreeGame<const P: usize = 2>(pub u16);

/// No network encoding yet.
impl<const P: usize> crate::game::Features for TreeGame<P> {}

impl<const P: usize> Rules for TreeGame<P> {
    const INFO: GameInfo = GameInfo {
        name: "testtree",
        aliases: &[],
        board: "-",
        notation: "child index",
        start: "0",
    };
    const NUM_PLAYERS: usize = P;

    fn with_players<V: crate::game::registry::PlayersVisitor>(visitor: V) -> V::Output {
        visitor.visit::<Self, P>()
    }

    fn start() -> Self {
        TreeGame(0)
    }

    fn to_move(&self) -> Player {
        match tree()[self.0 as usize] {
            Spec::Inner(p, _) => Player(p),
            Spec::End(_) | Spec::Ranks(_) => Player(0),
        }
    }

    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if let Spec::Inner(_, children) = tree()[self.0 as usize] {
            for i in 0..children.len() {
                out.push(Move(i as u16));
            }
        }
    }

    fn play(&mut self, m: Move) {
        if let Spec::Inner(_, children) = tree()[self.0 as usize] {
            self.0 = children[m.0 as usize];
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        match tree()[self.0 as usize] {
            Spec::Inner(..) => None,
            Spec::End(Some(w)) => Some(Outcome::win(Player(w), P)),
            Spec::End(None) => Some(Outcome::draw(P)),
            Spec::Ranks(ranks) => {
                let scores: Vec<i32> = ranks.iter().map(|&r| -(r as i32)).collect();
                Some(Outcome::by_scores(&scores))
            }
        }
    }

    fn hash(&self) -> u64 {
        self.0 as u64
    }

    fn compute_hash(&self) -> u64 {
        self.0 as u64
    }

    fn format_move(&self, m: Move) -> String {
        m.0.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        text.parse()
            .map(Move)
            .map_err(|_| GameError::syntax(text, "expected a child index"))
    }

    fn to_position(&self) -> String {
        self.0.to_string()
    }

    fn parse_position(text: &str) -> Result<Self, GameError> {
        text.parse()
            .map(TreeGame::<P>)
            .map_err(|_| GameError::position("node", "expected an index"))
    }

    fn diagram(&self) -> String {
        format!("node {}", self.0)
    }
}

impl<const P: usize> Heuristics for TreeGame<P> {
    const HAS_EVALUATION: bool = true;

    fn evaluate(&self, player: Player) -> f32 {
        let first = EVALS.with(|e| e.get().get(self.0 as usize).copied().unwrap_or(0.0));
        crate::game::zero_sum(first, player)
    }
}

impl<const P: usize> Dialects for TreeGame<P> {}
