//! What a game shows a network: binary input features and a policy index per move.

use super::Move;

/// A game's encoding for [`crate::nn::Network`]s; every [`crate::game::Game`] has one, and a game
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
    /// The most features any position activates (the pieces a board can hold): a quantised
    /// network is as precise as this bound allows. `usize::MAX`: no bound known.
    const MAX_ACTIVE: usize = usize::MAX;

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

/// Point (`row`, `col`) of an `n` x `n` board under symmetry `s` of the square (0-7): bit 0
/// mirrors the columns, bit 1 the rows, bit 2 swaps rows and columns after the mirrors.
#[inline]
pub fn square_symmetry(s: usize, row: usize, col: usize, n: usize) -> (usize, usize) {
    let col = if s & 1 != 0 { n - 1 - col } else { col };
    let row = if s & 2 != 0 { n - 1 - row } else { row };
    if s & 4 != 0 {
        (col, row)
    } else {
        (row, col)
    }
}

/// A check every game's encoding test runs (`check_encoding`).
#[cfg(test)]
pub(crate) mod check {
    use crate::game::{Game, MoveList};
    use crate::rng::Rng;

    /// A position's image under a transformation of the board, built by the game's test from the
    /// position itself (not through the encoding), with the symmetry it should equal: 0 for a
    /// colour flip (colours and the side to move swapped, the board turned towards the new mover:
    /// the network must see exactly the same position).
    pub type Image<'a, G> = (usize, &'a dyn Fn(&G) -> G);

    /// Plays `games` random games and, at every position, checks that the features are distinct
    /// and below `INPUTS`, that the legal moves' policy indices are distinct and below `POLICY`,
    /// and that every image's features and legal moves' indices are the position's mapped by the
    /// image's symmetry. Each symmetry must be a permutation of the features and of the policy
    /// indices, and every symmetry above 0 must have an image.
    pub fn check_encoding<G: Game>(seed: u64, games: usize, images: &[Image<'_, G>]) {
        assert!(G::INPUTS > 0 && G::INPUTS <= 1 << 16 && G::POLICY > 0);
        for s in 0..G::SYMMETRIES {
            let mut f: Vec<u16> = (0..G::INPUTS as u16)
                .map(|f| G::map_feature(s, f))
                .collect();
            f.sort_unstable();
            assert!(
                f.iter().enumerate().all(|(i, &x)| i == x as usize),
                "symmetry {s}: features"
            );
            let mut p: Vec<usize> = (0..G::POLICY).map(|p| G::map_policy(s, p)).collect();
            p.sort_unstable();
            assert!(
                p.iter().enumerate().all(|(i, &x)| i == x),
                "symmetry {s}: policy"
            );
            assert!(
                s == 0 || images.iter().any(|&(t, _)| t == s),
                "symmetry {s}: no image"
            );
        }
        let mut rng = Rng::new(seed);
        let (mut buf, mut moves) = (MoveList::new(), MoveList::new());
        let (mut f, mut g) = (Vec::new(), Vec::new());
        let mut positions = 0;
        for _ in 0..games {
            let mut pos = G::start();
            for _ in 0..400 {
                if pos.outcome().is_some() {
                    break;
                }
                positions += 1;
                pos.features(&mut f);
                assert!(
                    f.iter().all(|&x| (x as usize) < G::INPUTS),
                    "{}",
                    pos.to_position()
                );
                let mut sorted = f.clone();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(
                    sorted.len(),
                    f.len(),
                    "repeated feature: {}",
                    pos.to_position()
                );
                pos.legal_moves(&mut moves);
                let indices = |p: &G, moves: &MoveList| {
                    let mut v: Vec<usize> = moves.iter().map(|&m| p.policy_index(m)).collect();
                    v.sort_unstable();
                    v
                };
                let own = indices(&pos, &moves);
                assert!(own.iter().all(|&p| p < G::POLICY));
                assert!(own.windows(2).all(|w| w[0] < w[1]), "{}", pos.to_position());
                for &(s, image) in images {
                    let img = image(&pos);
                    img.features(&mut g);
                    g.sort_unstable();
                    let mut mapped: Vec<u16> = f.iter().map(|&x| G::map_feature(s, x)).collect();
                    mapped.sort_unstable();
                    assert_eq!(
                        mapped,
                        g,
                        "symmetry {s}: {} / {}",
                        pos.to_position(),
                        img.to_position()
                    );
                    let mut mapped: Vec<usize> = own.iter().map(|&p| G::map_policy(s, p)).collect();
                    mapped.sort_unstable();
                    img.legal_moves(&mut buf);
                    assert_eq!(
                        mapped,
                        indices(&img, &buf),
                        "symmetry {s}: {}",
                        pos.to_position()
                    );
                }
                let Some(m) = pos.random_move(&mut rng, &mut buf) else {
                    break;
                };
                pos.play(m);
            }
        }
        assert!(positions > games * 5);
    }
}
