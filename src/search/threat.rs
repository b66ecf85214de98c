//! The threat search: a small exhaustive AND/OR search run at each new tree node that proves a
//! win or a loss of the side to move within a few plies (a mate in one for it, a mate in two
//! against it, a mate in three for it), so that the tree never walks into a short mate it could
//! have seen. What it proves is exact; what it cannot prove within its budget it leaves to the
//! Monte-Carlo search.
//!
//! The budget counts positions, so a probe costs at most a few hundred moves played. Deeper
//! wins are tried only through forcing moves: in games with checks ([`Rules::HAS_CHECKS`]) the
//! attacker's moves before its last must give check; elsewhere every move is tried until the
//! budget runs out. A line of two plies or more can end by a repetition rule, which only the
//! game's history tells: without a history such games are probed for wins in one ply only.

use crate::game::record::{repetition_end, Seen};
#[cfg(doc)]
use crate::game::Rules;
use crate::game::{Game, MoveList, Player};

pub use crate::options::MAX_THREAT_PLIES;

/// What a probe proved for the side to move, with the plies to the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threat {
    Win(u16),
    Loss(u16),
}

/// One thread's threat-search scratch: a move list per ply and the line's history.
#[derive(Default)]
pub struct ThreatSearch {
    lists: Vec<MoveList>,
    history: Vec<Seen>,
    /// Positions the current probe may still visit.
    left: u32,
    /// Whether the game's history is known (a repetition can then be seen).
    with_history: bool,
}

impl ThreatSearch {
    /// Proves the result of `position` (not over) for its side to move within `plies` plies, by
    /// visiting at most `budget` positions. `history`: the game's positions before this one
    /// (since the last irreversible move), for games with a repetition rule.
    pub fn probe<G: Game>(
        &mut self,
        position: &G,
        plies: u32,
        budget: u32,
        history: Option<&[Seen]>,
    ) -> Option<Threat> {
        if plies == 0 || G::NUM_PLAYERS != 2 {
            return None;
        }
        let plies = plies.min(MAX_THREAT_PLIES);
        let plies = if G::HAS_REPETITION_RULE && history.is_none() {
            1
        } else {
            plies
        };
        while self.lists.len() <= plies as usize {
            self.lists.push(MoveList::new());
        }
        self.with_history = G::HAS_REPETITION_RULE && history.is_some();
        self.history.clear();
        if let (true, Some(h)) = (self.with_history, history) {
            self.history.extend_from_slice(h);
            self.history.push(Seen::of(position));
        }
        self.left = budget;
        // A win in one first: the cheapest test.
        if self.wins(position, 1, 0).is_some() {
            return Some(Threat::Win(1));
        }
        if plies >= 2 {
            if let Some(n) = self.loses(position, plies & !1, 0) {
                return Some(Threat::Loss(n));
            }
        }
        if plies >= 3 {
            if let Some(n) = self.deep_wins(position, (plies - 1) | 1, 0) {
                return Some(Threat::Win(n));
            }
        }
        None
    }

    /// Takes one position from the budget; false when it is spent.
    #[inline]
    fn spend(&mut self) -> bool {
        if self.left == 0 {
            return false;
        }
        self.left -= 1;
        true
    }

    /// The position after move `i` of ply `ply`'s list, taken from the budget (`None` when it
    /// is spent).
    #[inline]
    fn play_nth<G: Game>(&mut self, position: &G, ply: usize, i: usize) -> Option<G> {
        if !self.spend() {
            return None;
        }
        let mut child = position.clone();
        child.play(self.lists[ply][i]);
        Some(child)
    }

    /// `child`, one move below the line's last position, entered into the history: the outcome
    /// the repetition rule gives it, if any (then it is not entered).
    #[inline]
    fn enter<G: Game>(&mut self, child: &G) -> Option<crate::game::Outcome> {
        if !self.with_history {
            return None;
        }
        self.history.push(Seen::of(child));
        let end = repetition_end(&self.history, child);
        if end.is_some() {
            self.history.pop();
        }
        end
    }

    #[inline]
    fn leave(&mut self) {
        if self.with_history {
            self.history.pop();
        }
    }

    /// The plies of a win of the side to move within `plies` (odd) plies, if one is found.
    fn wins<G: Game>(&mut self, position: &G, plies: u32, ply: usize) -> Option<u16> {
        if !self.spend() {
            return None;
        }
        if self.wins_at_once(position, ply) {
            return Some(1);
        }
        if plies < 3 {
            return None;
        }
        self.deep_wins(position, plies, ply)
    }

    /// Whether the side to move has a move that wins at once. In games with checks only the
    /// checking moves are tried (the others would each cost a search for the opponent's
    /// replies, and mates are what matters): a win without check, Minishogi's stalemate or a
    /// Reach Chess piece on the last rank, is left to the tree, which sees it when it gets
    /// there. Elsewhere the game's own test.
    fn wins_at_once<G: Game>(&mut self, position: &G, ply: usize) -> bool {
        if !G::HAS_CHECKS {
            return position.winning_move(&mut self.lists[ply]).is_some();
        }
        let me = position.to_move();
        position.legal_moves(&mut self.lists[ply]);
        self.lists[ply].iter().any(|&m| {
            let mut child = position.clone();
            child.play(m);
            child.in_check() && child.outcome().is_some_and(|o| o.winner() == Some(me))
        })
    }

    /// [`ThreatSearch::wins`] without its test of a win in one (done already): a move after
    /// which the opponent loses within `plies - 1` plies.
    fn deep_wins<G: Game>(&mut self, position: &G, plies: u32, ply: usize) -> Option<u16> {
        position.legal_moves(&mut self.lists[ply]);
        for i in 0..self.lists[ply].len() {
            let child = self.play_nth(position, ply, i)?;
            if child.outcome().is_some() {
                continue; // a win in one was tested; a loss or a draw proves nothing
            }
            if G::HAS_CHECKS && !child.in_check() {
                continue;
            }
            if self.enter(&child).is_some() {
                continue;
            }
            let lost = self.loses(&child, plies - 1, ply + 1);
            self.leave();
            if let Some(n) = lost {
                return Some(n + 1);
            }
            if self.left == 0 {
                return None;
            }
        }
        None
    }

    /// The plies of the longest loss when every move of the side to move loses within `plies`
    /// (even) plies, if that is proven.
    fn loses<G: Game>(&mut self, position: &G, plies: u32, ply: usize) -> Option<u16> {
        // With checks, a defender not in check has too many moves to refute for the budget;
        // elsewhere the budget decides.
        if G::HAS_CHECKS && !position.in_check() {
            return None;
        }
        let me = position.to_move();
        let them = Player(1 - me.0);
        position.legal_moves(&mut self.lists[ply]);
        if self.lists[ply].is_empty() || self.lists[ply].len() as u32 > self.left {
            return None;
        }
        let mut longest = 0u16;
        for i in 0..self.lists[ply].len() {
            let child = self.play_nth(position, ply, i)?;
            let n = match child.outcome() {
                Some(o) if o.winner() == Some(them) => 1,
                Some(_) => return None,
                None => match self.enter(&child) {
                    Some(o) if o.winner() == Some(them) => 1,
                    Some(_) => return None,
                    None => {
                        let won = self.wins(&child, plies - 1, ply + 1);
                        self.leave();
                        won? + 1
                    }
                },
            };
            longest = longest.max(n);
        }
        Some(longest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::breakthrough::Breakthrough;
    use crate::game::chess::losalamos::LosAlamos;
    use crate::game::connect4::ConnectFour;
    use crate::game::minishogi::Minishogi;
    use crate::game::Rules;
    use crate::rng::Rng;

    /// A plain full-width negamax over `plies` plies, with no budget and no forcing moves:
    /// +1 when the side to move wins within them whatever the opponent does, -1 when it loses
    /// within them whatever it does, 0 otherwise.
    fn within<G: Game>(pos: &G, plies: u32) -> i8 {
        if let Some(o) = pos.outcome() {
            return o.utility(pos.to_move()).round() as i8;
        }
        if plies == 0 {
            return 0;
        }
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let mut best = -1;
        for &m in list.iter() {
            let mut child = pos.clone();
            child.play(m);
            best = best.max(-within(&child, plies - 1));
            if best == 1 {
                break;
            }
        }
        best
    }

    /// Probes positions of random games and checks every claim against [`within`] at the
    /// claimed distance; returns the claims (wins, losses) made.
    fn check_claims<G: Game>(games: usize, plies: u32, budget: u32, seed: u64) -> (usize, usize) {
        let mut rng = Rng::new(seed);
        let mut list = MoveList::new();
        let mut threats = ThreatSearch::default();
        let (mut wins, mut losses) = (0, 0);
        for _ in 0..games {
            let mut pos = G::start();
            while pos.outcome().is_none() {
                // No history: every position counts as new, as `within` sees it.
                match threats.probe(&pos, plies, budget, Some(&[])) {
                    Some(Threat::Win(n)) => {
                        assert!(n as u32 <= plies && n % 2 == 1);
                        assert_eq!(
                            within(&pos, n as u32),
                            1,
                            "win in {n}: {}",
                            pos.to_position()
                        );
                        wins += 1;
                    }
                    Some(Threat::Loss(n)) => {
                        assert!(n as u32 <= plies && n % 2 == 0);
                        assert_eq!(
                            within(&pos, n as u32),
                            -1,
                            "loss in {n}: {}",
                            pos.to_position()
                        );
                        losses += 1;
                    }
                    None => {}
                }
                let Some(m) = pos.random_move(&mut rng, &mut list) else {
                    break;
                };
                pos.play(m);
            }
        }
        (wins, losses)
    }

    #[test]
    fn every_claim_holds_against_a_full_width_search() {
        let (w, l) = check_claims::<ConnectFour>(30, 3, 400, 1);
        assert!(
            w > 20 && l > 5,
            "connect four: {w} wins, {l} losses claimed"
        );
        let (w, l) = check_claims::<Breakthrough<6>>(8, 3, 400, 2);
        assert!(w > 5 && l > 0, "breakthrough: {w} wins, {l} losses claimed");
        let (w, l) = check_claims::<Minishogi>(6, 3, 300, 3);
        assert!(w + l > 0, "minishogi: nothing claimed");
    }

    #[test]
    fn a_mate_in_three_plies_by_checks_is_found() {
        // Los Alamos: the rooks on a3 and b4 drive the king on f5 up the board, Ra5+ then Rb6#
        // (a ladder mate); there is no mate in one.
        let pos = LosAlamos::parse_position("6/5k/1R4/R5/6/4K1 w - - 0 1").unwrap();
        assert_eq!((within(&pos, 1), within(&pos, 3)), (0, 1));
        let mut t = ThreatSearch::default();
        // Los Alamos has a repetition rule: without the game's history, wins in one only.
        assert_eq!(t.probe(&pos, 3, 1000, None), None);
        let history = [];
        assert_eq!(t.probe(&pos, 3, 1000, Some(&history)), Some(Threat::Win(3)));
        assert_eq!(t.probe(&pos, 1, 1000, Some(&history)), None);
        assert_eq!(t.probe(&pos, 2, 1000, Some(&history)), None);
        // After Ra5+ the king is lost in two plies whatever it does.
        let mut after = pos.clone();
        after.play(pos.parse_move("a3a5").unwrap());
        let history = [Seen::of(&pos)];
        assert_eq!(
            t.probe(&after, 2, 1000, Some(&history)),
            Some(Threat::Loss(2))
        );
        assert_eq!(within(&after, 2), -1);
    }

    #[test]
    fn a_spent_budget_proves_nothing_and_zero_plies_probe_nothing() {
        // The first player completes a row of four in the middle of the bottom row.
        let pos = ConnectFour::parse_position("7/7/7/7/7/PPP1ppp w").unwrap();
        let mut t = ThreatSearch::default();
        assert_eq!(t.probe(&pos, 0, 1000, None), None);
        assert_eq!(t.probe(&pos, 3, 0, None), None);
        assert_eq!(t.probe(&pos, 1, 1, None), Some(Threat::Win(1)));
    }
}
