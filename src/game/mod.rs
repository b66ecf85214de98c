//! The `Game` traits (the rules core and its capability groups) and the small types every game
//! and every search share.
//!
//! A game is a copyable position (copy-make: `play` mutates a copy, there is no undo). The search
//! knows games only through these traits and is monomorphised over them, so nothing here may
//! allocate on the hot path: moves are 16-bit codes, legal moves go into a caller-owned
//! fixed-size [`MoveList`].

pub mod ataxx;
pub mod awari;
pub mod breakthrough;
pub mod check;
pub mod chess;
pub mod chinesecheckers;
pub mod connect4;
pub mod features;
pub mod fen;
pub mod go;
pub mod gomoku;
pub mod kalah;
pub mod knightthrough;
pub mod loa;
pub mod minishogi;
pub mod perft;
pub mod record;
pub mod registry;
pub mod reversi;
pub mod rolit;
pub mod sgf;
pub mod sowing;
pub mod surakarta;
pub mod zobrist;

pub use features::{square_symmetry, Features};

use std::fmt;

use crate::rng::Rng;

/// The most players any game may have; per-player arrays are sized by it.
pub const MAX_PLAYERS: usize = 4;

/// The most legal moves any position of any registered game can have (Minishogi peaks near 200).
pub const MAX_MOVES: usize = 512;

/// A player, numbered from 0 in turn order: player 0 moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Player(pub u8);

impl Player {
    /// The player after this one in a game of `num_players`.
    #[inline]
    pub fn next(self, num_players: usize) -> Player {
        Player(((self.0 as usize + 1) % num_players) as u8)
    }

    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A move, packed by each game into 16 bits (the search tree stores exactly these bits).
///
/// The packing is private to the game that produced it; only that game may interpret it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Move(pub u16);

/// Legal moves of one position, in a fixed-size buffer owned by the caller (no allocation).
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; MAX_MOVES],
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    pub fn new() -> Self {
        MoveList {
            len: 0,
            moves: [Move(0); MAX_MOVES],
        }
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends a move. Every game bounds its branching factor below [`MAX_MOVES`].
    #[inline]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES, "MoveList overflow");
        self.moves[self.len] = m;
        self.len += 1;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    #[inline]
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl std::ops::Index<usize> for MoveList {
    type Output = Move;
    #[inline]
    fn index(&self, i: usize) -> &Move {
        &self.as_slice()[i]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// How a finished game ended, as a rank per player (0 = best; equal ranks are ties).
///
/// Ranks rather than a winner so that games of three or four players need no new type.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    num_players: u8,
    ranks: [u8; MAX_PLAYERS],
}

impl Outcome {
    /// `winner` first, everybody else shares last place.
    pub fn win(winner: Player, num_players: usize) -> Outcome {
        let mut ranks = [1; MAX_PLAYERS];
        ranks[winner.index()] = 0;
        Outcome {
            num_players: num_players as u8,
            ranks,
        }
    }

    /// `loser` last, everybody else shares first place (in two-player games: the other wins).
    pub fn loss(loser: Player, num_players: usize) -> Outcome {
        let mut ranks = [0; MAX_PLAYERS];
        ranks[loser.index()] = 1;
        Outcome {
            num_players: num_players as u8,
            ranks,
        }
    }

    /// Everybody ties.
    pub fn draw(num_players: usize) -> Outcome {
        Outcome {
            num_players: num_players as u8,
            ranks: [0; MAX_PLAYERS],
        }
    }

    /// Two-player outcome from a score difference seen by player 0 (> 0: player 0 wins).
    pub fn by_score(diff_for_first: i32) -> Outcome {
        match diff_for_first.cmp(&0) {
            std::cmp::Ordering::Greater => Outcome::win(Player(0), 2),
            std::cmp::Ordering::Less => Outcome::win(Player(1), 2),
            std::cmp::Ordering::Equal => Outcome::draw(2),
        }
    }

    /// Ranks by score, highest first; equal scores share a rank (one score per player).
    pub fn by_scores(scores: &[i32]) -> Outcome {
        debug_assert!(scores.len() <= MAX_PLAYERS);
        let mut ranks = [0; MAX_PLAYERS];
        for (rank, s) in ranks.iter_mut().zip(scores) {
            *rank = scores.iter().filter(|&t| t > s).count() as u8;
        }
        Outcome {
            num_players: scores.len() as u8,
            ranks,
        }
    }

    pub fn num_players(&self) -> usize {
        self.num_players as usize
    }

    /// The rank of `p` (0 = best).
    pub fn rank(&self, p: Player) -> u8 {
        self.ranks[p.index()]
    }

    /// The sole player ranked first, if exactly one is.
    pub fn winner(&self) -> Option<Player> {
        let n = self.num_players();
        let mut best = None;
        for i in 0..n {
            if self.ranks[i] == 0 {
                if best.is_some() {
                    return None;
                }
                best = Some(Player(i as u8));
            }
        }
        best
    }

    /// True when every player has the same rank.
    pub fn is_draw(&self) -> bool {
        let n = self.num_players();
        self.ranks[..n].iter().all(|&r| r == self.ranks[0])
    }

    /// Utility of `p` in [-1, 1]: 1 for a sole first place, -1 for a sole last place, ties average
    /// the ranks they span (so a two-player draw is 0).
    pub fn utility(&self, p: Player) -> f32 {
        let n = self.num_players();
        if n < 2 {
            return 0.0;
        }
        let mine = self.ranks[p.index()];
        let better = self.ranks[..n].iter().filter(|&&r| r < mine).count();
        let tied = self.ranks[..n].iter().filter(|&&r| r == mine).count();
        // Places `better .. better + tied - 1` are shared: average their utilities.
        let mean_place = better as f32 + (tied as f32 - 1.0) / 2.0;
        1.0 - 2.0 * mean_place / (n as f32 - 1.0)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_draw() {
            write!(f, "draw")
        } else if let Some(w) = self.winner() {
            write!(f, "player {} wins", w.0 + 1)
        } else {
            let ranks: Vec<String> = self.ranks[..self.num_players()]
                .iter()
                .map(|r| (r + 1).to_string())
                .collect();
            write!(f, "ranks {}", ranks.join(" "))
        }
    }
}

/// What went wrong with text given to a game: which field of a position, or which move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum GameError {
    /// A position string is malformed; `field` names the part (e.g. "board", "side to move").
    Position {
        field: &'static str,
        message: String,
    },
    /// A move string does not parse in this game's notation.
    MoveSyntax { text: String, message: String },
    /// A move string parses but is not legal in the position.
    IllegalMove { text: String, message: String },
    /// No game of this name is registered.
    UnknownGame(String),
}

impl GameError {
    pub fn position(field: &'static str, message: impl Into<String>) -> GameError {
        GameError::Position {
            field,
            message: message.into(),
        }
    }

    pub fn syntax(text: &str, message: impl Into<String>) -> GameError {
        GameError::MoveSyntax {
            text: text.to_string(),
            message: message.into(),
        }
    }

    pub fn illegal(text: &str, message: impl Into<String>) -> GameError {
        GameError::IllegalMove {
            text: text.to_string(),
            message: message.into(),
        }
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Position { field, message } => {
                write!(f, "invalid position ({field}): {message}")
            }
            GameError::MoveSyntax { text, message } => {
                write!(f, "cannot read move '{text}': {message}")
            }
            GameError::IllegalMove { text, message } => {
                write!(f, "illegal move '{text}': {message}")
            }
            GameError::UnknownGame(name) => write!(f, "unknown game '{name}' (see `gpn games`)"),
        }
    }
}

impl std::error::Error for GameError {}

/// The notation family a protocol speaks. `Native` is the game's own notation (`gpn perft`,
/// `gpn show`, UCI and UAI, which follow cutechess and Fairy-Stockfish); `Usi` writes shogi
/// coordinates and SFEN; `Gtp` writes GTP vertices (Othello-style coordinates for reversi).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Native,
    Usi,
    Gtp,
}

/// Static facts about a game, for the registry, `gpn games` and the protocols.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// The registered name (cutechess / Fairy-Stockfish name where one exists).
    pub name: &'static str,
    /// Other accepted names.
    pub aliases: &'static [&'static str],
    /// Board size in words, e.g. "8x8".
    pub board: &'static str,
    /// How moves are written, with an example.
    pub notation: &'static str,
    /// The start position in this game's position-string format.
    pub start: &'static str,
}

/// Something to do with a concrete game type.
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self) -> Self::Output;
}

/// Something to do with a concrete game type and its player count as a constant `P`
/// (= `G::NUM_PLAYERS`), through [`Rules::with_players`].
pub trait PlayersVisitor {
    type Output;
    fn visit<G: Game, const P: usize>(self) -> Self::Output;
}

/// Everything the search, the solvers and the arena need of a game: the umbrella over the rules
/// core and the capability groups, implemented for every type that has all four (nothing
/// implements it by hand), so that `G: Game` bounds stay one word.
pub trait Game: Rules + Heuristics + Dialects + Features {}

impl<G: Rules + Heuristics + Dialects + Features> Game for G {}

/// The rules of a two-or-more-player, perfect-information, deterministic game: what every game
/// must define, and all that move generators, records, perft and notation need.
///
/// Contract, checked for every game by `tests/games_random.rs`:
/// * `outcome()` is `Some` exactly when `legal_moves` yields nothing; a player who must pass
///   gets an explicit pass move, so a non-terminal position always has a move;
/// * `hash()` (kept incrementally) equals `compute_hash()` (from scratch), and equal positions
///   hash equally;
/// * `parse_position(to_position())` and `parse_move(format_move(m))` round-trip exactly.
///
/// The optional knowledge lives in groups beside it, each implemented in the game's own file
/// (an empty impl keeps the defaults): [`Heuristics`], [`Dialects`], [`Features`], and the
/// object-safe [`Territory`] reached through [`Rules::territory`].
pub trait Rules: Clone + PartialEq + Send + Sync + fmt::Debug + 'static {
    /// Name, aliases, board and notation.
    const INFO: GameInfo;
    /// Number of players; the search must not assume two.
    const NUM_PLAYERS: usize = 2;
    /// Default game-length cap in plies; a game that reaches it is a draw.
    const MAX_PLIES: u32 = 1000;
    /// Whether [`Rules::repetition_outcome`] can end a game (repetition is tracked by
    /// [`record::Record`], not by the position).
    const HAS_REPETITION_RULE: bool = false;
    /// Whether the game has checks ([`Rules::in_check`] can be true): USI's `go mate` then asks
    /// for a mate by checks alone.
    const HAS_CHECKS: bool = false;

    /// Hands `visitor` this game with its player count as a constant, so that code generic
    /// over the count (the search, `Search<G, P>`) is built only for the count each game has:
    /// two-player games keep this default, games of more players return `visit::<Self, P>`.
    /// (`Self: Game` because the visitor builds searches, which need every group.)
    fn with_players<V: PlayersVisitor>(visitor: V) -> V::Output
    where
        Self: Game,
    {
        visitor.visit::<Self, 2>()
    }

    /// The start position.
    fn start() -> Self;

    /// The player to move.
    fn to_move(&self) -> Player;

    /// Writes every legal move into `out` (cleared first); empty exactly when the game is over.
    fn legal_moves(&self, out: &mut MoveList);

    /// Number of legal moves; games override it with a cheaper count (perft bulk counting).
    fn count_moves(&self) -> usize {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.len()
    }

    /// Plays a move that `legal_moves` produced. Anything else is a logic error.
    fn play(&mut self, m: Move);

    /// The result when the game is over by the rules of this position alone (no repetition, no
    /// length cap: see [`record::Record`] for those).
    fn outcome(&self) -> Option<Outcome>;

    /// The position's 64-bit hash: Zobrist keys kept incrementally for board games; a game whose
    /// whole state fits in a few words (Awari: 16 bytes) may instead mix that state on demand,
    /// which is cheaper than updating a key per sown house.
    fn hash(&self) -> u64;

    /// The hash recomputed from scratch (tests compare it with [`Rules::hash`]).
    fn compute_hash(&self) -> u64;

    /// The move in this game's canonical notation.
    fn format_move(&self, m: Move) -> String;

    /// Reads a move in this game's notation (and documented aliases); it must be legal here.
    fn parse_move(&self, text: &str) -> Result<Move, GameError>;

    /// The position as a FEN-like string that `parse_position` reads back exactly.
    fn to_position(&self) -> String;

    /// Reads a position string; every error names the field at fault.
    fn parse_position(text: &str) -> Result<Self, GameError>;

    /// A human-readable board diagram (several lines).
    fn diagram(&self) -> String;

    /// A uniformly random legal move, `None` when the game is over. Games may override this with
    /// something faster than generating the whole list, keeping the same distribution.
    fn random_move(&self, rng: &mut Rng, buf: &mut MoveList) -> Option<Move> {
        self.legal_moves(buf);
        if buf.is_empty() {
            None
        } else {
            Some(buf[rng.below(buf.len() as u32) as usize])
        }
    }

    /// Whether the player to move is in check (games with a check rule; used by repetition rules).
    fn in_check(&self) -> bool {
        false
    }

    /// A quantity that never decreases during a game (captured seeds, for example). Positions with
    /// different progress can never be equal, so repetition scans stop where it changes.
    fn progress(&self) -> u32 {
        0
    }

    /// The result when this position has now occurred `rep.count` times (see
    /// [`record::Repetition`]); `None` to play on.
    fn repetition_outcome(&self, _rep: &record::Repetition) -> Option<Outcome> {
        None
    }

    /// The name of player `p` (its colour), as GTP's colour arguments and `gpn match` reports
    /// write it for games of more than two players; two-player games keep "first"/"second"
    /// (their protocols name the sides themselves: black/white, sente/gote).
    fn player_name(p: Player) -> &'static str {
        ["first", "second", "third", "fourth"]
            .get(p.index())
            .copied()
            .unwrap_or("?")
    }

    /// Plays a move given as text: parse, check legality, play. The position is untouched on error.
    fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        let m = self.parse_move(text)?;
        self.play(m);
        Ok(m)
    }

    /// This position's [`Territory`] (scoring, setup and the GoGui board), for the games that
    /// have any of it; `None` by default. One optional accessor rather than a dozen defaulted
    /// methods keeps Go's protocol-level extras out of every other game's rules; it is for
    /// protocol-level calls only (the search never asks).
    fn territory(&self) -> Option<&dyn Territory> {
        None
    }

    /// [`Rules::territory`] for the setters (komi, superko); `None` exactly when it is `None`.
    fn territory_mut(&mut self) -> Option<&mut dyn Territory> {
        None
    }
}

/// What the search's heuristics may know of a game beyond its rules; every default is the
/// knowledge-free answer, so a game without heuristics implements it empty.
pub trait Heuristics: Rules {
    /// Whether [`Heuristics::evaluate`] knows anything about the game (false: it is the constant
    /// 0, and the heuristic search options have nothing to work with).
    const HAS_EVALUATION: bool = false;

    /// A heuristic value of the position for `player`, in [-1, 1] (the scale of the
    /// implicit-minimax paper: +1 a sure win for `player`). Two-player games are zero-sum:
    /// `evaluate(q, Player(0)) == -evaluate(q, Player(1))`, and a position with colours swapped
    /// evaluates to the negation. Called at every new tree node and inside playouts: it must be
    /// cheap and must not allocate. Finished positions are scored by [`Rules::outcome`], not here.
    fn evaluate(&self, player: Player) -> f32 {
        let _ = player;
        0.0
    }

    /// Whether `m` (legal here) captures something: the informed playout policy prefers such
    /// moves. False by default (and in games without captures).
    fn is_capture(&self, m: Move) -> bool {
        let _ = m;
        false
    }

    /// Whether `m` (legal here) is a move a quiescence search plays out before it trusts an
    /// evaluation: [`Heuristics::is_capture`] by default; the chess family adds promotions.
    fn is_noisy(&self, m: Move) -> bool {
        self.is_capture(m)
    }

    /// A move that wins at once for the player to move, if any (`buf` is scratch). The default
    /// plays every move and looks; games with a cheap test (a runner one step from the goal)
    /// override it: the informed playout policy asks twice per ply.
    fn winning_move(&self, buf: &mut MoveList) -> Option<Move> {
        first_winning_move(self, buf)
    }

    /// The only moves worth searching here where a rule of thumb that never changes a value
    /// forces them (Gomoku's four-threat rule: complete one's own five, else block the
    /// opponent's, since any other move loses at once or does no better), into `out`; false
    /// when no such rule applies here (search every legal move). The solvers use it on request
    /// (`gpn solve --4t`).
    fn forcing_moves(&self, out: &mut MoveList) -> bool {
        out.clear();
        false
    }

    /// A move of the game's own playout policy (the search's `policy=game`), `None` when the
    /// game is over: games with playout knowledge (Go: captures, atari escapes, shapes)
    /// override it; by default it is [`Rules::random_move`].
    fn playout_move(&self, rng: &mut Rng, buf: &mut MoveList) -> Option<Move> {
        self.random_move(rng, buf)
    }

    /// Whether [`Heuristics::move_priors`] knows anything (false: the search's `prior` option
    /// has nothing to work with).
    const HAS_MOVE_PRIORS: bool = false;

    /// The mover's prior win rate for each of `moves` (legal here), x 65535, into `out` (one per
    /// move, in order): what the game's knowledge expects of the move before any search, as
    /// Pachi's and Fuego's priors do (Go: captures and atari escapes high, self-ataris low).
    /// 0 means "never, unless the search proves it": the tree keeps such a move, so proofs stay
    /// exact, but the final choice skips it while another move is not lost (Go: filling one's
    /// own eye). Called once per new tree node; by default it writes nothing.
    fn move_priors(&self, moves: &[Move], out: &mut Vec<u16>) {
        let _ = moves;
        out.clear();
    }

    /// The size of [`Heuristics::amaf_index`]'s range: 0 when the game's moves mean different
    /// things in different positions (no all-moves-as-first statistics).
    const AMAF_MOVES: usize = 0;

    /// The index below [`Heuristics::AMAF_MOVES`] under which `m` counts in all-moves-as-first
    /// (RAVE) statistics: the same action wherever it is played (Go: a point); `None` for moves
    /// that have none (Go's pass).
    fn amaf_index(m: Move) -> Option<usize> {
        let _ = m;
        None
    }

    /// An upper bound on the moves the side to move still plays, where the rules give one
    /// (Connect Four: half its empty cells, rounded up); time management spreads the clock over
    /// it when it is below the usual guess. `None`: no useful bound.
    fn moves_left_bound(&self) -> Option<u32> {
        None
    }

    /// A move of perfect play from the game's own exact knowledge (an opening book, an exact
    /// solver) within `ask`'s limits, with its value; `None` (the default) when the game has
    /// none, or the solve did not finish in time, or it would only say that every move loses
    /// (the search then picks the move that resists best). The session asks before searching.
    fn perfect_move(&self, ask: &PerfectAsk) -> Option<PerfectMove> {
        let _ = ask;
        None
    }
}

/// What [`Heuristics::perfect_move`] may use, and until when.
#[derive(Clone, Copy, Debug)]
pub struct PerfectAsk<'a> {
    /// Whether an opening book may answer.
    pub book: bool,
    /// Whether an exact solve may be tried, cut by `stop` and `deadline`.
    pub solve: bool,
    pub stop: Option<&'a std::sync::atomic::AtomicBool>,
    pub deadline: Option<std::time::Instant>,
}

/// The game-theoretic value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solution {
    Win,
    Draw,
    Loss,
}

/// A move of perfect play and what it is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerfectMove {
    pub mv: Move,
    /// The value for the side to move, with this move.
    pub value: Solution,
    /// Plies to the end of the game with this move, at most (exact when the source knows it).
    pub plies: u32,
    /// Where it came from: `"book"` or `"solver"`.
    pub source: &'static str,
}

/// The notations of the protocol dialects (see [`Dialect`]); by default every dialect is the
/// game's own notation, so only games that a protocol writes differently implement any of it.
pub trait Dialects: Rules {
    /// A move in the notation of a protocol dialect; by default the game's own.
    fn format_move_in(&self, m: Move, dialect: Dialect) -> String {
        let _ = dialect;
        self.format_move(m)
    }

    /// Reads a move in a protocol dialect's notation; every dialect also accepts the game's own
    /// notation and its aliases.
    fn parse_move_in(&self, text: &str, dialect: Dialect) -> Result<Move, GameError> {
        let _ = dialect;
        self.parse_move(text)
    }

    /// The position as a protocol dialect writes it (USI's SFEN, for example).
    fn to_position_in(&self, dialect: Dialect) -> String {
        let _ = dialect;
        self.to_position()
    }

    /// Reads a position in a protocol dialect's format, leniently: every dialect also accepts the
    /// game's own position strings and the FEN variants of cutechess and Fairy-Stockfish.
    fn parse_position_in(text: &str, dialect: Dialect) -> Result<Self, GameError> {
        let _ = dialect;
        Self::parse_position(text)
    }
}

/// Go's territory scoring and rule setup, and the parts of it other games share (players'
/// points, GoGui's board), for the protocols (GTP, GoGui, KataGo analysis) and the arena: reached
/// through [`Rules::territory`], object-safe so that no game carries it unless it has some of it.
/// Every default is the answer of a game without that part.
pub trait Territory {
    /// Sets the komi of a game that has one (Go); false, and no change, for the others.
    fn set_komi(&mut self, komi: f32) -> bool {
        let _ = komi;
        false
    }

    /// Chooses the situational superko rule (a board repeats only with the same side to move)
    /// or the positional one, in a game that has superko (Go); false, and no change, for the
    /// others. Meant for a start position: the superko history restarts at the current one.
    fn set_situational_superko(&mut self, situational: bool) -> bool {
        let _ = situational;
        false
    }

    /// Each player's points in this position, in seat order, for games that count them (Rolit:
    /// pieces of each colour; Chinese Checkers: pieces home); `None` for the others.
    fn player_scores(&self) -> Option<Vec<i32>> {
        None
    }

    /// The score of a finished game as GTP's `final_score` writes it (`B+3.5`, `W+0.5`, `0`),
    /// for games scored by points (Go); `None` for the others.
    fn score_text(&self) -> Option<String> {
        None
    }

    /// GTP's `final_status_list STATUS` (`dead`, `alive`, `seki`): the stones of that status,
    /// for games with life and death (Go); `None` for the others or another status.
    fn status_list(&self, status: &str) -> Option<Vec<String>> {
        let _ = status;
        None
    }

    /// The board as GoGui's game-ruler commands show it, for games whose board is a square grid
    /// of GTP vertices and whose every move is one vertex or a pass (Go, Killall-Go, Gomoku,
    /// Othello); `None` for the others.
    fn gogui_board(&self) -> Option<GoGuiBoard> {
        None
    }

    /// The final ownership of every point as KataGo's `kata-analyze ... ownership true` writes
    /// it: values in -1..1 from the side to move's view (1: surely its own), the top row first,
    /// left to right; `None` in games without territory. Go: the Monte-Carlo estimate of the
    /// dead-stone judge (playouts of the playout policy).
    fn ownership(&self) -> Option<Vec<f32>> {
        None
    }

    /// An estimate of the first player's lead in points, for games scored by points (Go);
    /// `None` for the others. Protocols report it (GTP `kata-analyze`'s `scoreLead`).
    fn score_estimate(&self) -> Option<f32> {
        None
    }
}

/// A position as GoGui's game-ruler commands (`gogui-rules_board`, `gogui-rules_captured_count`)
/// show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoGuiBoard {
    /// Rows of `X` (the first player's stones), `O` and `.`, the top row first, as GoGui numbers
    /// them: the row whose GTP vertices end in `k` is the `k`-th from the bottom.
    pub rows: Vec<String>,
    /// Stones captured by the first player and by the second (0 in games without captures).
    pub captured: [u32; 2],
}

/// GoGui's rows from the board field of a position string (rows separated by `/`, runs of empty
/// points as numbers, `stones` the two players' letters); `bottom_first`: the field lists the
/// row of the vertices numbered 1 first (Othello), so it is turned over for GoGui.
pub fn gogui_rows(position: &str, stones: [char; 2], bottom_first: bool) -> Vec<String> {
    let field = position.split_whitespace().next().unwrap_or("");
    let mut rows: Vec<String> = field.split('/').map(|row| gogui_row(row, stones)).collect();
    if bottom_first {
        rows.reverse();
    }
    rows
}

/// One row of a board field in GoGui's letters; runs of empty points may have several digits.
fn gogui_row(row: &str, stones: [char; 2]) -> String {
    let mut out = String::new();
    let mut run = 0usize;
    for ch in row.chars() {
        if let Some(d) = ch.to_digit(10) {
            run = run * 10 + d as usize;
            continue;
        }
        out.extend(std::iter::repeat('.').take(run));
        run = 0;
        out.push(match ch {
            c if c == stones[0] => 'X',
            c if c == stones[1] => 'O',
            _ => '.',
        });
    }
    out.extend(std::iter::repeat('.').take(run));
    out
}

/// The value for `player` of a two-player zero-sum value `first` for the first player (what
/// every [`Heuristics::evaluate`] returns: its own score, negated for the second player).
#[inline]
pub fn zero_sum(first: f32, player: Player) -> f32 {
    if player.0 == 0 {
        first
    } else {
        -first
    }
}

/// The first legal move that wins at once for the player to move, by playing each one (the
/// default [`Heuristics::winning_move`]; `buf` is scratch).
pub fn first_winning_move<G: Rules>(game: &G, buf: &mut MoveList) -> Option<Move> {
    if game.outcome().is_some() {
        return None;
    }
    let me = game.to_move();
    game.legal_moves(buf);
    buf.iter().copied().find(|&m| {
        let mut next = game.clone();
        next.play(m);
        next.outcome().is_some_and(|o| o.winner() == Some(me))
    })
}

/// Finds the legal move whose canonical notation is `text`'s canonical form, for games whose
/// `parse_move` first normalises the text. Returns an `IllegalMove` error listing nothing huge.
pub fn find_legal<G: Rules>(game: &G, text: &str, candidate: Move) -> Result<Move, GameError> {
    if game.outcome().is_some() {
        return Err(GameError::illegal(text, "the game is over"));
    }
    let mut list = MoveList::new();
    game.legal_moves(&mut list);
    if list.contains(candidate) {
        Ok(candidate)
    } else {
        Err(GameError::illegal(
            text,
            "not a legal move in this position",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gogui_rows_expand_runs_and_turn_over_on_request() {
        let rows = gogui_rows("2X/O12/3 b komi 7.5", ['X', 'O'], false);
        assert_eq!(rows, ["..X", "O............", "..."]);
        let rows = gogui_rows("x1o/3 x", ['x', 'o'], true);
        assert_eq!(rows, ["...", "X.O"]);
    }
}
