//! Nakade for the playouts: a self-atari inside an enemy eye space is a good move when its
//! capture leaves a dead shape, so the playouts' self-atari rule lets it through (as Pachi's
//! moggy playouts do). Playing the vital point of every small enclosed space next to the last
//! move, Pachi's other nakade rule, made the playouts weaker here (docs/go.md).
//!
//! An eye space of three points always holds a single eye once the attacker, moving first,
//! takes its middle; so do the pyramid four, the crossed and bulky fives and the rabbity six
//! when the attacker takes their vital point, and the square four whoever moves. The straight
//! and bent fours and every other five and six make two eyes if the defender answers.

use super::{Go, EDGE, EMPTY};

/// The most points of an eye space these rules look at.
const MAX_AREA: usize = 6;

/// A set of at most [`MAX_AREA`] points of a padded board whose rows are `w` points long.
struct Area {
    cells: [usize; MAX_AREA],
    len: usize,
    w: usize,
}

impl Area {
    fn new(w: usize) -> Area {
        Area {
            cells: [0; MAX_AREA],
            len: 0,
            w,
        }
    }

    fn points(&self) -> &[usize] {
        &self.cells[..self.len]
    }

    fn contains(&self, p: usize) -> bool {
        self.points().contains(&p)
    }

    /// Adds `p` unless present; false when the area is full.
    fn add(&mut self, p: usize) -> bool {
        if self.contains(p) {
            return true;
        }
        if self.len == MAX_AREA {
            return false;
        }
        self.cells[self.len] = p;
        self.len += 1;
        true
    }

    /// The neighbours of `p` inside the area.
    fn degree(&self, p: usize) -> usize {
        [p - 1, p + 1, p - self.w, p + self.w]
            .iter()
            .filter(|&&q| self.contains(q))
            .count()
    }

    /// Whether the area holds a 2x2 block.
    fn has_block(&self) -> bool {
        let w = self.w;
        self.points()
            .iter()
            .any(|&p| self.contains(p + 1) && self.contains(p + w) && self.contains(p + w + 1))
    }

    /// The point with the most neighbours in the area and that number, when one point alone
    /// has that many.
    fn hub(&self) -> Option<(usize, usize)> {
        let mut best = (0, 0);
        let mut ties = 0;
        for &p in self.points() {
            let d = self.degree(p);
            if d > best.1 {
                best = (p, d);
                ties = 1;
            } else if d == best.1 {
                ties += 1;
            }
        }
        (ties == 1).then_some(best)
    }

    /// The vital point of a killable shape of three to six points: the straight or bent three's
    /// middle, the pyramid four's, crossed five's and rabbity six's centre, the bulky five's
    /// point of three neighbours.
    fn vital_point(&self) -> Option<usize> {
        let (hub, degree) = self.hub()?;
        let killable = match self.len {
            3 => degree == 2,
            4 => degree == 3,
            5 => degree == 4 || (degree == 3 && self.has_block()),
            6 => degree == 4 && self.has_block(),
            _ => false,
        };
        killable.then_some(hub)
    }

    /// Whether a group whose only eye space is this area has one eye when the attacker moves
    /// first.
    fn is_dead_shape(&self) -> bool {
        self.len <= 3 || (self.len == 4 && self.has_block()) || self.vital_point().is_some()
    }
}

impl<const N: usize, const CELLS: usize, const K: bool> Go<N, CELLS, K> {
    /// Whether colour `c`'s self-atari on empty point `p` fills an enemy eye space so that its
    /// capture leaves a dead shape: the chain it makes and its last liberty are surrounded by
    /// enemy stones and the edge only, and the chain's points form a dead shape.
    pub(super) fn is_nakade_self_atari(&self, p: usize, c: u8) -> bool {
        let mut chain = Area::new(Self::W);
        chain.add(p);
        for q in Self::neighbours(p) {
            if self.board[q] != c {
                continue;
            }
            let r = self.chain[q] as usize;
            let mut s = r;
            loop {
                if !chain.add(s) {
                    return false;
                }
                s = self.next[s] as usize;
                if s == r {
                    break;
                }
            }
        }
        // The region: the chain and its liberty; nothing but enemy stones and the edge around.
        let mut liberty = 0;
        for &s in chain.points() {
            for q in Self::neighbours(s) {
                match self.board[q] {
                    EMPTY if q != p && q != liberty => {
                        if liberty != 0 {
                            return false;
                        }
                        liberty = q;
                    }
                    _ => {}
                }
            }
        }
        if liberty == 0 {
            return false;
        }
        // The chain's other neighbours are enemy stones or the edge: a second empty one returned
        // above, and the mover's stones next to it are in the chain.
        let enemy = 3 - c;
        Self::neighbours(liberty)
            .iter()
            .all(|&q| self.board[q] == EDGE || self.board[q] == enemy || chain.contains(q))
            && chain.is_dead_shape()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::go::Go9;
    use crate::game::Rules;

    fn area(points: &[(usize, usize)]) -> Area {
        let mut a = Area::new(Go9::W);
        for &(r, c) in points {
            assert!(a.add(Go9::point(r, c)));
        }
        a
    }

    #[test]
    fn the_killable_shapes_and_their_vital_points() {
        let at = |r, c| Some(Go9::point(r, c));
        // Threes: straight and bent, the middle.
        assert_eq!(area(&[(2, 2), (2, 3), (2, 4)]).vital_point(), at(2, 3));
        assert_eq!(area(&[(2, 2), (2, 3), (3, 3)]).vital_point(), at(2, 3));
        // Fours: the pyramid's centre; the square is dead without one; straight, bent and
        // zigzag fours live.
        assert_eq!(
            area(&[(2, 2), (2, 3), (2, 4), (3, 3)]).vital_point(),
            at(2, 3)
        );
        let square = area(&[(2, 2), (2, 3), (3, 2), (3, 3)]);
        assert_eq!(square.vital_point(), None);
        assert!(square.is_dead_shape());
        for alive in [
            [(2, 2), (2, 3), (2, 4), (2, 5)],
            [(2, 2), (3, 2), (4, 2), (4, 3)],
            [(2, 2), (2, 3), (3, 3), (3, 4)],
        ] {
            let a = area(&alive);
            assert_eq!(a.vital_point(), None, "{alive:?}");
            assert!(!a.is_dead_shape(), "{alive:?}");
        }
        // Fives: crossed and bulky are killable, the T and the straight are not.
        assert_eq!(
            area(&[(2, 3), (3, 2), (3, 3), (3, 4), (4, 3)]).vital_point(),
            at(3, 3)
        );
        assert_eq!(
            area(&[(2, 2), (2, 3), (3, 2), (3, 3), (4, 2)]).vital_point(),
            at(3, 2)
        );
        assert_eq!(
            area(&[(2, 2), (2, 3), (2, 4), (3, 3), (4, 3)]).vital_point(),
            None
        );
        assert_eq!(
            area(&[(2, 1), (2, 2), (2, 3), (2, 4), (2, 5)]).vital_point(),
            None
        );
        // Sixes: the rabbity six, but not the rectangle or a cross with a longer arm.
        assert_eq!(
            area(&[(2, 3), (3, 2), (3, 3), (3, 4), (4, 3), (4, 4)]).vital_point(),
            at(3, 3)
        );
        assert_eq!(
            area(&[(2, 2), (2, 3), (2, 4), (3, 2), (3, 3), (3, 4)]).vital_point(),
            None
        );
        assert_eq!(
            area(&[(1, 3), (2, 3), (3, 2), (3, 3), (3, 4), (4, 3)]).vital_point(),
            None
        );
    }

    /// A 9x9 position whose bottom rows are `rows` (written top first), the rest empty.
    fn corner(rows: &[&str], to_move: &str) -> Go9 {
        let empty = vec!["9"; 9 - rows.len()];
        let text = [empty.as_slice(), rows].concat().join("/");
        Go9::parse_position(&format!("{text} {to_move}")).expect("a valid position")
    }

    const BLACK: u8 = 1;

    #[test]
    fn a_self_atari_inside_an_enemy_eye_space_is_a_nakade_only_when_its_capture_leaves_one_eye() {
        let at = Go9::point;
        // Capture from within a two-point eye (A1-B1 inside White's wall).
        let g = corner(&["OO7", "2O6"], "b");
        assert!(g.is_self_atari(at(0, 0), BLACK));
        assert!(g.is_nakade_self_atari(at(0, 0), BLACK));
        assert!(g.is_nakade_self_atari(at(0, 1), BLACK));
        // The same stone when its liberty opens outward (C1 empty) is a plain self-atari.
        let g = corner(&["OO7", "9"], "b");
        assert!(g.is_self_atari(at(0, 0), BLACK));
        assert!(!g.is_nakade_self_atari(at(0, 0), BLACK));
        // Three black stones in White's straight four leave a three-point space: a nakade.
        let g = corner(&["OOOO5", "XX2O4"], "b");
        assert!(g.is_self_atari(at(0, 2), BLACK));
        assert!(g.is_nakade_self_atari(at(0, 2), BLACK));
        // Four in White's straight five leave a straight four, which lives: not a nakade.
        let g = corner(&["OOOOO4", "XXX2O3"], "b");
        assert!(g.is_self_atari(at(0, 3), BLACK));
        assert!(!g.is_nakade_self_atari(at(0, 3), BLACK));
        // Four in a T inside White's five-point space leave a pyramid four: a nakade.
        let g = corner(&["1O7", "OXOO5", "XX2O4"], "b");
        assert!(g.is_self_atari(at(0, 2), BLACK));
        assert!(g.is_nakade_self_atari(at(0, 2), BLACK));
    }
}
