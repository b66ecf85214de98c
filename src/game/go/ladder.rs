//! A ladder reader: whether a chain that escapes from atari by extending is still caught, the
//! attacker giving atari at every turn until it is captured (the ladder works) or it reaches
//! three liberties, captures its way out or joins a friendly stone (a ladder breaker). Pachi's
//! moggy playouts and priors check escapes this way; gpn's priors and playouts do too.

use super::{Go, EMPTY};
use crate::game::{Move, MoveList, Rules};

/// The longest ladder read, in attacker moves (a ladder crosses the board at most once).
const MAX_LADDER_STEPS: u32 = 48;

impl<const N: usize, const CELLS: usize, const K: bool> Go<N, CELLS, K> {
    /// Whether the side to move, extending at `p` (the liberty of one of its chains in atari),
    /// is caught in a working ladder there. A move that is not legal is caught too.
    pub(super) fn escape_is_caught(&self, p: usize) -> bool {
        if !self.legal_point(p) {
            return true;
        }
        let mut after = self.clone();
        after.play(Move(p as u16));
        after.ladder_works(p, 0)
    }

    /// With the attacker to move: whether the chain through stone `s` (the defender's) is
    /// captured by a ladder, the attacker taking each of its two liberties in turn.
    fn ladder_works(&self, s: usize, steps: u32) -> bool {
        if steps > MAX_LADDER_STEPS || self.board[s] == EMPTY {
            return false;
        }
        let r = self.chain[s];
        let libs = self.liberties2(r);
        if libs[0] == 0 {
            return false;
        }
        if libs[1] == 0 {
            // In atari with the attacker to move: captured if the capture is legal.
            return self.legal_point(libs[0]);
        }
        if !self.liberties_at_most(r, 2) {
            return false;
        }
        let mut captures = MoveList::new();
        for a in libs {
            if !self.legal_point(a) {
                continue;
            }
            let mut next = self.clone();
            next.play(Move(a as u16));
            let r = next.chain[s];
            let Some(e) = next.atari_liberty(r) else {
                continue;
            };
            // The defender captures a chain of the attacker's in atari: out of the ladder.
            captures.clear();
            next.push_captures_next_to(r, &mut captures);
            if !captures.is_empty() {
                continue;
            }
            if !next.legal_point(e) {
                return true;
            }
            next.play(Move(e as u16));
            if next.ladder_works(s, steps + 1) {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::Go9;
    use crate::game::Rules;

    /// White's stone D4 in atari (Black C4, D5, E5, D3), White to move, with `row2` as the
    /// second row: extending at E4 runs a ladder down to the first line.
    fn ladder(row2: &str) -> Go9 {
        let rows = ["9", "9", "9", "9", "3XX4", "2XO5", "3X5", row2, "9"];
        Go9::parse_position(&format!("{} w", rows.join("/"))).unwrap()
    }

    fn point(pos: &Go9, text: &str) -> usize {
        pos.parse_move(text).unwrap().0 as usize
    }

    #[test]
    fn a_working_ladder_catches_the_escape_and_a_breaker_frees_it() {
        let working = ladder("9");
        assert!(working.escape_is_caught(point(&working, "E4")));
        // A white stone on the ladder's path (G2) breaks it.
        let broken = ladder("6O2");
        assert!(!broken.escape_is_caught(point(&broken, "E4")));
        // A white stone far from the path does not.
        let far = ladder("O8");
        assert!(far.escape_is_caught(point(&far, "E4")));
    }

    #[test]
    fn an_escape_to_three_liberties_or_by_capture_is_not_a_ladder() {
        // Without Black's E5 the extension at E4 has three liberties.
        let rows = ["9", "9", "9", "9", "3X5", "2XO5", "3X5", "9", "9"];
        let open = Go9::parse_position(&format!("{} w", rows.join("/"))).unwrap();
        assert!(!open.escape_is_caught(point(&open, "E4")));
        // Black's D3 stone is itself in atari (White C3, E3): White may capture it or join E3,
        // and the ladder reader leaves such fights to the search.
        let rows = ["9", "9", "9", "9", "3XX4", "2XO5", "2OXO4", "9", "9"];
        let capture = Go9::parse_position(&format!("{} w", rows.join("/"))).unwrap();
        assert!(!capture.escape_is_caught(point(&capture, "E4")));
    }

    #[test]
    fn the_priors_mark_a_running_escape_down_and_a_ladder_atari_up() {
        let priors = |pos: &Go9, moves: &[&str]| {
            let moves: Vec<crate::game::Move> =
                moves.iter().map(|m| pos.parse_move(m).unwrap()).collect();
            let mut out = Vec::new();
            crate::game::Heuristics::move_priors(pos, &moves, &mut out);
            out
        };
        let working = priors(&ladder("9"), &["E4"])[0];
        let broken = priors(&ladder("6O2"), &["E4"])[0];
        assert!(working < broken, "{working} vs {broken}");
        // Black to play the atari at D3 (before it is played): a working ladder.
        let rows = ["9", "9", "9", "9", "3XX4", "2XO5", "9", "9", "9"];
        let before = Go9::parse_position(&format!("{} b", rows.join("/"))).unwrap();
        let [d3, j9] = priors(&before, &["D3", "E7"])[..] else {
            panic!()
        };
        assert!(d3 > j9, "{d3} vs {j9}");
    }
}
