//! A game as played: the current position plus what the position alone cannot know — how often
//! it occurred before (repetition rules) and how many plies were played (the length cap).

use super::{Move, Outcome, Player, Rules};

/// Facts about a repeated position, given to [`crate::game::Rules::repetition_outcome`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repetition {
    /// How many times the current position has occurred, this time included (>= 2).
    pub count: u32,
    /// A player who gave check in every position of the cycle since the first occurrence
    /// (perpetual check), if one did.
    pub perpetual_check_by: Option<Player>,
}

/// One position of a game's history, as repetition rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seen {
    hash: u64,
    progress: u32,
    to_move: Player,
    in_check: bool,
}

impl Seen {
    /// What repetition rules need of `position`.
    #[inline]
    pub fn of<G: Rules>(position: &G) -> Seen {
        Seen {
            hash: position.hash(),
            progress: position.progress(),
            to_move: position.to_move(),
            in_check: position.in_check(),
        }
    }

    /// The position's progress ([`crate::game::Rules::progress`]): positions of different progress
    /// never repeat each other.
    pub fn progress(&self) -> u32 {
        self.progress
    }
}

/// The outcome the repetition rule of `G` gives the last position of `history` (the current
/// one, `position`), or `None` to play on. The search calls it for the positions of its tree,
/// with the game's history up to the root in front of the tree's path.
#[inline]
pub fn repetition_end<G: Rules>(history: &[Seen], position: &G) -> Option<Outcome> {
    if !G::HAS_REPETITION_RULE || position.outcome().is_some() {
        return None;
    }
    repetition::<G>(history).and_then(|rep| position.repetition_outcome(&rep))
}

/// Repetition facts for the last position of `history`, or `None` if it is new.
fn repetition<G: Rules>(history: &[Seen]) -> Option<Repetition> {
    let (now, earlier) = history.split_last()?;
    let mut count = 1;
    let mut first = earlier.len();
    for (i, e) in earlier.iter().enumerate().rev() {
        if e.progress != now.progress {
            break;
        }
        if e.hash == now.hash {
            count += 1;
            first = i;
        }
    }
    if count < 2 {
        return None;
    }
    // A player gives perpetual check if every position of the cycle with the opponent to
    // move has the opponent in check.
    let cycle = &history[first..];
    let perpetual_check_by = (0..G::NUM_PLAYERS as u8).map(Player).find(|&p| {
        let mut victim_entries = cycle.iter().filter(|e| e.to_move != p).peekable();
        victim_entries.peek().is_some() && victim_entries.all(|e| e.in_check)
    });
    Some(Repetition {
        count,
        perpetual_check_by,
    })
}

/// A position with its history, the ply count and the game-length cap.
#[derive(Clone, Debug)]
pub struct Record<G: Rules> {
    position: G,
    history: Vec<Seen>,
    plies: u32,
    max_plies: u32,
    repetition_end: Option<Outcome>,
    /// A 1024-bit filter of the hashes since the last progress change: a position whose bit is
    /// clear is new, so the history scan runs only for likely repetitions.
    seen: [u64; 16],
}

impl<G: Rules> Record<G> {
    /// A record starting at `position`, ending in a draw after `max_plies` plies.
    pub fn new(position: G, max_plies: u32) -> Record<G> {
        let mut r = Record {
            position,
            history: Vec::with_capacity(256),
            plies: 0,
            max_plies,
            repetition_end: None,
            seen: [0; 16],
        };
        r.push_current();
        r
    }

    /// Starts over from `position`, keeping the history buffer's allocation.
    pub fn reset(&mut self, position: G) {
        self.position = position;
        self.history.clear();
        self.plies = 0;
        self.repetition_end = None;
        self.seen = [0; 16];
        self.push_current();
    }

    pub fn position(&self) -> &G {
        &self.position
    }

    /// The positions since the start, the current one last, for the repetition rule (empty in
    /// games without one).
    pub fn history(&self) -> &[Seen] {
        &self.history
    }

    /// Plies played since the record started.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    pub fn max_plies(&self) -> u32 {
        self.max_plies
    }

    /// Plays a legal move and applies the repetition rule of the game.
    pub fn play(&mut self, m: Move) {
        self.position.play(m);
        self.plies += 1;
        let maybe_repeated = self.push_current();
        if maybe_repeated && self.position.outcome().is_none() {
            self.repetition_end = repetition_end(&self.history, &self.position);
        }
    }

    /// The result if the game is over: by the rules of the position, by repetition, or drawn
    /// at the length cap.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position
            .outcome()
            .or(self.repetition_end)
            .or_else(|| (self.plies >= self.max_plies).then(|| Outcome::draw(G::NUM_PLAYERS)))
    }

    /// True when the game ended by repetition or the length cap (not by the position's rules).
    /// Playouts call this and let `random_move` find the rules' end, so the position's move
    /// generation runs once per ply.
    #[inline]
    pub fn ended_by_history(&self) -> bool {
        self.repetition_end.is_some() || self.plies >= self.max_plies
    }

    /// True when the game ended by the repetition rule (the match arena reports the reason).
    pub fn ended_by_repetition(&self) -> bool {
        self.repetition_end.is_some()
    }

    /// Appends the current position to the history; returns whether its hash may have occurred
    /// before (false means it certainly did not).
    fn push_current(&mut self) -> bool {
        if !G::HAS_REPETITION_RULE {
            return false;
        }
        let entry = Seen::of(&self.position);
        if self
            .history
            .last()
            .is_some_and(|last| last.progress != entry.progress)
        {
            self.seen = [0; 16];
        }
        let bit = (entry.hash >> 54) as usize;
        let maybe_seen = self.seen[bit / 64] & (1 << (bit % 64)) != 0;
        self.seen[bit / 64] |= 1 << (bit % 64);
        self.history.push(entry);
        maybe_seen
    }
}
