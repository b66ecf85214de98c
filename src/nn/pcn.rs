//! Proof-cost labels and the cost heads' bins (the Proof Cost Network paper, §3.2-3.3).
//!
//! A proof cost estimates the size of the proof tree of a player's win. From one self-play game
//! the paper labels every position backwards from the end: the winner's cost is 1 at the end;
//! at a position where the winner moves it is the next position's (one move suffices); where
//! the other side moves it is `b` times the next position's (every reply must be answered), `b`
//! being that position's branching factor; the loser's cost, and both after a draw, is the cap
//! (the paper's "infinity": 1,600 in Gomoku, 500 in Killall-Go). `b` is the whole action space
//! (b_max) or the moves the rules and their forcing rule leave (b_heur).
//!
//! The paper fixes one OR player; gpn labels the cost of both players from the side to move's
//! view (its own win, the opponent's), so one network serves either side as the prover: a
//! solver proving for the side to move reads (v_n, v_m) = (own, opponent's) there, and the
//! other way round where the opponent moves. The network predicts ln(cost) as a distribution
//! over [`BINS`] bins `BIN_STEP` apart (two-hot targets, as MuZero's categorical values), and
//! [`decode`] turns one back into a cost.

use super::sample::Sample;

/// Bins of a cost head: ln(cost) = 0, 0.5, ..., 8 (cost 1 to about 2,981).
pub const BINS: usize = 17;
/// The bins' spacing in ln(cost).
pub const BIN_STEP: f32 = 0.5;

/// Which branching factor multiplies the cost where the other side moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branching {
    /// The whole action space (the policy's width: 225 in Gomoku, 82 in 9x9 Killall-Go).
    Max,
    /// The moves left by the rules and the game's forcing rule (Gomoku's four threat: 1).
    Heur,
}

impl Branching {
    pub fn name(self) -> &'static str {
        match self {
            Branching::Max => "b_max",
            Branching::Heur => "b_heur",
        }
    }

    pub fn parse(text: &str) -> Option<Branching> {
        match text.trim().to_ascii_lowercase().replace('-', "_").as_str() {
            "b_max" | "bmax" | "max" => Some(Branching::Max),
            "b_heur" | "bheur" | "heur" => Some(Branching::Heur),
            _ => None,
        }
    }
}

/// Sets the cost targets of one game's positions (in order, each with its episode) from the
/// game's end; positions without an episode end the labelled stretch (their game is unknown)
/// and get none. With b_heur, a position a solver proved (its episode's `proof`, its value
/// target a win or a loss) gets its proof's size instead. `b_max` is the action space's size,
/// `cap` the largest cost.
pub fn label_game(samples: &mut [Sample], branching: Branching, b_max: u16, cap: f32) {
    let cap = cap.max(1.0);
    // The costs of the game's winner and loser at the position after the current one.
    let (mut winner, mut loser) = (1.0f32, cap);
    for s in samples.iter_mut().rev() {
        let Some(e) = s.episode else {
            s.cost = None;
            // Earlier positions belong to an unknown stretch: labels restart from scratch.
            (winner, loser) = (1.0, cap);
            continue;
        };
        let b = match branching {
            Branching::Max => b_max,
            Branching::Heur => e.forced.max(1),
        } as f32;
        let (own, other) = match e.outcome {
            0 => {
                // The winner moves: one move suffices for it, the loser's cost is multiplied.
                loser = (loser * b).min(cap);
                (winner, loser)
            }
            2 => {
                winner = (winner * b).min(cap);
                (loser, winner)
            }
            _ => (cap, cap),
        };
        // A solver's proof of this position, where there is one, is its exact cost (b_heur
        // labels only: a proof's size counts the moves the rules leave, not the action space).
        let (own, other) = match (branching, e.proof, s.wdl) {
            (Branching::Heur, size @ 1.., [w, _, l]) if w > 0.5 || l > 0.5 => {
                let size = (size as f32).min(cap);
                if w > 0.5 {
                    (size, cap)
                } else {
                    (cap, size)
                }
            }
            _ => (own, other),
        };
        s.cost = Some([ln_cost(own), ln_cost(other)]);
    }
}

/// ln(cost) clamped to the bins' range.
pub fn ln_cost(cost: f32) -> f32 {
    cost.max(1.0).ln().min(BIN_STEP * (BINS - 1) as f32)
}

/// The two-hot distribution over the bins whose mean is `ln` (clamped to the range), into
/// `out` (length [`BINS`]).
pub fn two_hot(ln: f32, out: &mut [f32]) {
    out.iter_mut().for_each(|x| *x = 0.0);
    let x = (ln / BIN_STEP).clamp(0.0, (BINS - 1) as f32);
    let lo = (x.floor() as usize).min(BINS - 2);
    let frac = x - lo as f32;
    out[lo] = 1.0 - frac;
    out[lo + 1] = frac;
}

/// The cost a head's bin probabilities stand for: exp of their mean ln(cost).
pub fn decode(probs: &[f32]) -> f32 {
    let mean: f32 = probs
        .iter()
        .enumerate()
        .map(|(i, &p)| p * i as f32 * BIN_STEP)
        .sum();
    mean.exp()
}

/// A value in (-1, 1) for the side to move from its predicted proof costs: positive where its
/// own win looks cheaper to prove than the opponent's. The PCN paper's MCTS solver averages
/// the prover's cost as its Q; this is the two-sided, zero-sum form of it (ln costs apart by 2
/// give 0.76), so a value-based search can use it where it would use a value head.
pub fn cost_value(own: f32, other: f32) -> f32 {
    ((ln_cost(other) - ln_cost(own)) * 0.5).tanh()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::sample::Episode;

    #[test]
    fn cost_values_favour_the_side_with_the_cheaper_proof() {
        assert_eq!(cost_value(40.0, 40.0), 0.0);
        let quick_win = cost_value(1.0, 1600.0);
        assert!(quick_win > 0.99, "{quick_win}");
        assert!((cost_value(1600.0, 1.0) + quick_win).abs() < 1e-6);
        assert!((cost_value(1.0, (2.0f32).exp()) - 1f32.tanh()).abs() < 1e-6);
        assert!(cost_value(10.0, 20.0) > cost_value(10.0, 15.0));
    }

    /// A game of `outcomes` (per position, for its side to move) and forced-move counts.
    fn game(steps: &[(u8, u16)]) -> Vec<Sample> {
        steps
            .iter()
            .map(|&(outcome, forced)| Sample {
                episode: Some(Episode {
                    outcome,
                    legal: 50,
                    forced,
                    proof: 0,
                }),
                ..Sample::default()
            })
            .collect()
    }

    fn costs(samples: &[Sample]) -> Vec<[f32; 2]> {
        samples
            .iter()
            .map(|s| s.cost.map_or([-1.0, -1.0], |c| [c[0].exp(), c[1].exp()]))
            .collect()
    }

    fn close(a: &[[f32; 2]], b: &[[f32; 2]]) -> bool {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| (0..2).all(|k| (x[k] - y[k]).abs() <= 1e-3 * y[k].max(1.0)))
    }

    /// The paper's Figure 2: s0 .. s3 with branching b0 .. b3, the winner (the OR player)
    /// moving at s1 and s3: n(s3) = 1, n(s2) = n(s1) = b2, n(s0) = b0 b2.
    #[test]
    fn labels_follow_the_papers_episode() {
        // Positions 0 and 2: the loser (AND) moves; 1 and 3: the winner (OR).
        let mut g = game(&[(2, 3), (0, 5), (2, 7), (0, 11)]);
        label_game(&mut g, Branching::Heur, 225, 1600.0);
        let cap = 1600.0;
        assert!(close(
            &costs(&g),
            &[
                [cap, 21.0], // loser to move: (own, other) = (loser's, winner's b0 b2)
                [7.0, cap],  // winner to move: n = b2
                [cap, 7.0],
                [1.0, cap], // the winning move
            ]
        ));
        // b_max multiplies by the action space, capped.
        label_game(&mut g, Branching::Max, 225, 1600.0);
        assert!(close(
            &costs(&g),
            &[[cap, cap], [225.0, cap], [cap, 225.0], [1.0, cap]]
        ));
    }

    #[test]
    fn a_solvers_proof_size_replaces_the_b_heur_label() {
        let mut g = game(&[(2, 3), (0, 5)]);
        g[0].episode.as_mut().unwrap().proof = 40;
        g[0].wdl = [0.0, 0.0, 1.0];
        label_game(&mut g, Branching::Heur, 225, 1600.0);
        assert!(close(&costs(&g), &[[1600.0, 40.0], [1.0, 1600.0]]));
        // b_max labels keep the episode's.
        label_game(&mut g, Branching::Max, 225, 1600.0);
        assert!(close(&costs(&g), &[[1600.0, 225.0], [1.0, 1600.0]]));
    }

    #[test]
    fn draws_and_unknown_stretches_get_the_cap_or_nothing() {
        let mut g = game(&[(1, 4), (1, 4)]);
        label_game(&mut g, Branching::Heur, 82, 500.0);
        assert!(close(&costs(&g), &[[500.0, 500.0], [500.0, 500.0]]));
        let mut g = game(&[(0, 4), (2, 4), (0, 9)]);
        g[1].episode = None;
        label_game(&mut g, Branching::Heur, 82, 500.0);
        // Position 2 wins at once; position 1 is unknown; position 0 starts over from 1.
        assert!(close(
            &costs(&g),
            &[[1.0, 500.0], [-1.0, -1.0], [1.0, 500.0]]
        ));
    }

    #[test]
    fn two_hot_targets_decode_to_their_cost() {
        let mut bins = [0.0; BINS];
        for cost in [1.0f32, 2.0, 7.0, 225.0, 1600.0] {
            two_hot(ln_cost(cost), &mut bins);
            assert!((bins.iter().sum::<f32>() - 1.0).abs() < 1e-6);
            let back = decode(&bins);
            assert!((back - cost).abs() < 1e-3 * cost, "{cost} -> {back}");
        }
        // Beyond the last bin the cost is clamped.
        two_hot(ln_cost(1e9), &mut bins);
        assert!((decode(&bins) - (BIN_STEP * 16.0).exp()).abs() < 1.0);
    }
}
