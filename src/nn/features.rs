//! What a game shows a network: binary input features and a policy index per move.

use crate::game::Move;

/// A game's encoding for [`super::Network`]s; every [`crate::game::Game`] has one, and a game
/// without a network keeps the defaults (`INPUTS` = 0: no encoding). Features are seen from the
/// side to move (its pieces and the opponent's, not white's and black's), so one network plays
/// both colours.
pub trait Features {
    /// Number of distinct input features; every feature index is below it. 0: the game has no
    /// encoding.
    const INPUTS: usize = 0;
    /// Number of policy outputs; every move's index is below it.
    const POLICY: usize = 0;
    /// Board symmetries that keep the rules (1: the identity only). Training may augment a
    /// position with any of them.
    const SYMMETRIES: usize = 1;

    /// The active (value 1) features of this position, each once; `out` is cleared first.
    fn features(&self, out: &mut Vec<u16>) {
        out.clear();
    }

    /// The policy output of the legal move `m` here; distinct legal moves have distinct indices.
    fn policy_index(&self, _m: Move) -> usize {
        0
    }

    /// Feature `f` under symmetry `s` (0 is the identity).
    fn map_feature(_s: usize, f: u16) -> u16 {
        f
    }

    /// Policy index `p` under symmetry `s` (0 is the identity).
    fn map_policy(_s: usize, p: usize) -> usize {
        p
    }
}
