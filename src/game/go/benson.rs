//! Benson's unconditional life (D. B. Benson, "Life in the game of Go", 1976), which ends a
//! Killall-Go game: White wins once any white chain is alive even if White passes forever.
//!
//! The regions of colour `c` are the maximal connected sets of points that are not `c` stones
//! (empty points and enemy stones). A region is *vital* to a chain of `c` when every empty point
//! of the region is a liberty of that chain. Start from every chain and every region; repeatedly
//! drop the chains with fewer than two vital regions among the regions whose bordering chains
//! are all still kept. The chains left are unconditionally alive. Chains and regions are
//! numbered and held as `u128` sets, so boards up to [`MAX_BENSON_POINTS`] points (Killall-Go's
//! 9x9 and 7x7) need no allocation.

use super::{Go, EDGE, EMPTY, WHITE};

/// The most points on a board that [`Go::benson`] handles (chains and regions as u128 sets).
pub(super) const MAX_BENSON_POINTS: usize = 81;

/// What Benson's algorithm found for one colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Benson {
    /// Unconditionally alive stones.
    pub alive_stones: u32,
    /// The alive stones and the regions enclosed by alive chains only and vital to one of them
    /// cover the whole board (minizero's "all Benson" end of 7x7 Killall-Go).
    pub covers_board: bool,
}

impl<const N: usize, const CELLS: usize, const K: bool> Go<N, CELLS, K> {
    /// Recomputes who has won by unconditional life after a Killall-Go move: White by any alive
    /// chain; on 7x7 (minizero's rules) Black by covering the whole board.
    pub(super) fn update_life(&mut self) {
        self.white_alive = self.benson(WHITE).alive_stones > 0;
        if N == 7 {
            self.black_safe = self.benson(super::BLACK).covers_board;
        }
    }

    /// [`Go::update_life`] after a move of colour `c` at `p` that captured stones or not.
    /// Benson's test after every move took a third of df-pn's time; most moves need none.
    /// White was not alive before the move (the game would be over), so only what the move
    /// changed can have brought White to life:
    /// - A White move: every region it changed (split by the stone, or grown by a capture)
    ///   borders the stone's chain, and a region enclosed by an alive set of chains has all its
    ///   bordering chains in the set. An alive set without that chain would use only regions
    ///   and chains the move left alone, and would have lived before. So that chain must live,
    ///   which takes two regions around it whose every empty point is one of its liberties.
    /// - A Black move that captures nothing leaves White's chains and the regions as they were
    ///   and only fills an empty point of one region: White can have come alive only if that
    ///   region turned vital, which needs every empty point of it next to a white stone.
    /// - A Black capture merges regions: Benson's test.
    pub(super) fn update_life_after(&mut self, p: usize, c: u8, captured: bool) {
        let may_live = if c == WHITE {
            self.hugging_regions(p, 2) >= 2
        } else {
            captured || self.region_hugs(p, WHITE)
        };
        if may_live {
            self.white_alive = self.benson(WHITE).alive_stones > 0;
        }
        if N == 7 {
            self.black_safe = self.benson(super::BLACK).covers_board;
        }
    }

    /// Floods the region of `start` (connected points that are not `c` stones; `seen` marks
    /// them) while every empty point passes `ok`. Returns whether all did, false at the first
    /// that does not (the region left half-flooded fails again whenever it is entered anew),
    /// and whether the region flooded so far holds an empty point.
    fn flood_while(
        &self,
        start: usize,
        c: u8,
        seen: &mut [bool; CELLS],
        ok: impl Fn(usize) -> bool,
    ) -> (bool, bool) {
        let mut stack = [0u16; CELLS];
        seen[start] = true;
        stack[0] = start as u16;
        let (mut top, mut has_empty) = (1, false);
        while top > 0 {
            top -= 1;
            let s = stack[top] as usize;
            if self.board[s] == EMPTY {
                has_empty = true;
                if !ok(s) {
                    return (false, true);
                }
            }
            for q in Self::neighbours(s) {
                if !seen[q] && self.board[q] != c && self.board[q] != EDGE {
                    seen[q] = true;
                    stack[top] = q as u16;
                    top += 1;
                }
            }
        }
        (true, has_empty)
    }

    /// Whether every empty point of the region of `p` (a point that is not a `c` stone) is
    /// next to a `c` stone.
    fn region_hugs(&self, p: usize, c: u8) -> bool {
        let next_to_c = |s: usize| Self::neighbours(s).iter().any(|&q| self.board[q] == c);
        self.flood_while(p, c, &mut [false; CELLS], next_to_c).0
    }

    /// How many of the regions next to the chain of the stone at `p`, up to `enough`, have
    /// empty points and every one of them a liberty of that chain (Benson's vital regions,
    /// before the test of which chains enclose them).
    fn hugging_regions(&self, p: usize, enough: usize) -> usize {
        let c = self.board[p];
        let chain = self.chain[p];
        let liberty_of_chain = |s: usize| {
            Self::neighbours(s)
                .iter()
                .any(|&q| self.board[q] == c && self.chain[q] == chain)
        };
        let mut seen = [false; CELLS];
        let mut found = 0;
        let mut stone = p;
        loop {
            for start in Self::neighbours(stone) {
                if seen[start] || self.board[start] == c || self.board[start] == EDGE {
                    continue;
                }
                if self.flood_while(start, c, &mut seen, liberty_of_chain) == (true, true) {
                    found += 1;
                    if found >= enough {
                        return found;
                    }
                }
            }
            stone = self.next[stone] as usize;
            if stone == p {
                return found;
            }
        }
    }

    /// Benson's algorithm for the stones of colour `c`.
    pub(super) fn benson(&self, c: u8) -> Benson {
        debug_assert!(N * N <= MAX_BENSON_POINTS);
        // Number the chains of `c` by representative.
        let mut index = [u8::MAX; CELLS];
        let mut chains = 0u32;
        for p in 0..CELLS {
            if self.board[p] == c {
                let r = self.chain[p] as usize;
                if index[r] == u8::MAX {
                    index[r] = chains as u8;
                    chains += 1;
                }
            }
        }
        if chains == 0 {
            return Benson::default();
        }
        // Flood the regions; note the chains each borders and those it is vital to.
        let mut region = [u8::MAX; CELLS];
        let mut borders = [0u128; MAX_BENSON_POINTS];
        let mut vital = [0u128; MAX_BENSON_POINTS];
        let mut stack = [0u16; MAX_BENSON_POINTS];
        let mut regions = 0usize;
        for p in 0..CELLS {
            if self.board[p] == c || self.board[p] == EDGE || region[p] != u8::MAX {
                continue;
            }
            let id = regions;
            regions += 1;
            let (mut border, mut vital_to, mut has_empty) = (0u128, !0u128, false);
            region[p] = id as u8;
            stack[0] = p as u16;
            let mut top = 1;
            while top > 0 {
                top -= 1;
                let s = stack[top] as usize;
                let mut touching = 0u128;
                for q in Self::neighbours(s) {
                    match self.board[q] {
                        EDGE => {}
                        x if x == c => touching |= 1 << index[self.chain[q] as usize],
                        _ if region[q] == u8::MAX => {
                            region[q] = id as u8;
                            stack[top] = q as u16;
                            top += 1;
                        }
                        _ => {}
                    }
                }
                border |= touching;
                if self.board[s] == EMPTY {
                    vital_to &= touching;
                    has_empty = true;
                }
            }
            // A region without an empty point cannot occur (enemy stones need a liberty), but
            // it would be no eye.
            borders[id] = border;
            vital[id] = if has_empty { vital_to } else { 0 };
        }
        // Drop chains with fewer than two vital regions among the regions still enclosed by
        // kept chains, until nothing changes.
        let mut alive: u128 = if chains == 128 { !0 } else { (1 << chains) - 1 };
        loop {
            let (mut once, mut twice) = (0u128, 0u128);
            for r in 0..regions {
                if borders[r] & !alive == 0 {
                    let v = vital[r] & alive;
                    twice |= once & v;
                    once |= v;
                }
            }
            let kept = alive & twice;
            if kept == alive {
                break;
            }
            alive = kept;
        }
        if alive == 0 {
            return Benson::default();
        }
        let mut alive_stones = 0;
        let mut covered = 0usize;
        for p in 0..CELLS {
            match self.board[p] {
                EDGE => {}
                x if x == c => {
                    if alive >> index[self.chain[p] as usize] & 1 != 0 {
                        alive_stones += 1;
                        covered += 1;
                    }
                }
                _ => {
                    let r = region[p] as usize;
                    if borders[r] != 0 && borders[r] & !alive == 0 && vital[r] & alive != 0 {
                        covered += 1;
                    }
                }
            }
        }
        Benson {
            alive_stones,
            covers_board: covered == N * N,
        }
    }
}
