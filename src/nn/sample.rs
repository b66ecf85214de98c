//! A labelled training position ([`Sample`]) and the self-play facts its proof-cost labels come
//! from ([`Episode`]): what self-play writes, the data files store and training reads.

/// One training position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sample {
    /// Active features (see [`super::Features`]).
    pub features: Vec<u16>,
    /// Target probabilities of a win, a draw and a loss for the side to move.
    pub wdl: [f32; 3],
    /// Every legal move's policy index with its target probability (the targets sum to 1);
    /// empty when the position has no policy target.
    pub policy: Vec<(u16, f32)>,
    /// What its self-play game says for proof-cost labels; `None` where unknown.
    pub episode: Option<Episode>,
    /// Proof-cost targets: ln of the cost for the side to move to prove a win and for the
    /// opponent ([`super::pcn::label_game`]); `None`: no cost loss for this position.
    pub cost: Option<[f32; 2]>,
}

/// A self-play position's facts from which proof-cost labels are made (the PCN paper's
/// episode): the game's end and the position's branching factors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Episode {
    /// The game's result for the side to move: 0 win, 1 draw, 2 loss, 3 none (a length cap).
    pub outcome: u8,
    /// Legal moves here.
    pub legal: u16,
    /// Moves the game's forcing rule leaves here ([`crate::game::Heuristics::forcing_moves`]: 1 or
    /// 2 under Gomoku's four-threat rule); `legal` where no such rule applies.
    pub forced: u16,
    /// The size of a solver's proof of this position's value (win or loss, as the value
    /// target says), 0 when none: an exact proof cost for the b_heur labels.
    pub proof: u32,
}
