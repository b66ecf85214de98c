//! [`GameSession`]: the [`Session`] of one concrete game — its position and history (a
//! [`Record`]), and its search with the tree kept across the moves of a game.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::time::BestMoveWatch;
use super::{
    InfoLine, LineScorer, PerftCounts, SearchControl, SearchInfo, SearchJob, Session,
    SessionTerritory, SolveJob, SolveMode, Solved, Verdict,
};
use crate::game::record::Record;
use crate::game::registry::{self, GameVisitor, PlayersVisitor};
use crate::game::{
    Dialect, Game, GameError, GameInfo, GoGuiBoard, Move, MoveList, Outcome, Player,
};
use crate::search::{Limits, Proven, Search, SearchParams, SearchReport};
use crate::solve::checks::Checks;
use crate::solve::mate::{mate_search, MateAnswer};
use crate::solve::{Algo, SolveConfig, Value};

/// The longest game a session records before declaring a draw (the protocols' games are
/// bounded by the game rules first; this only stops endless shuffling).
const MAX_PLIES: u32 = 10_000;
/// Iterations of the search that picks the move after a `go mate` without a win, when the `go`
/// gave no time (with time, the search gets what the solver left of it).
const MATE_FALLBACK_ITERATIONS: u64 = 50_000;
/// Below this many iterations, early stops are not considered (estimates are noise).
const MIN_ITERATIONS_FOR_EARLY_STOP: u64 = 256;
/// An early stop (the best move cannot be overtaken) comes after 1/this of the target time.
const EARLY_STOP_FLOOR: u32 = 2;
/// A forced move (one legal move) still searches this long at most, so that its score is the
/// best gpn knows (a reused tree's value or proof) rather than a blank.
const FORCED_MOVE_TIME: Duration = Duration::from_millis(2);
const FORCED_MOVE_ITERATIONS: u64 = 512;
/// `go depth` is judged on at least this many iterations (and four per legal move), so that the
/// first iterations through a reused, deep tree do not end it at once.
const MIN_ITERATIONS_FOR_DEPTH: u64 = 64;
/// A snapshot is sent early (before the heartbeat interval) when the best move changed, but not
/// more often than this.
const MIN_INFO_GAP: Duration = Duration::from_millis(100);

/// A new session of the game called `name` (any alias), with `params`: games of any number of
/// players (the protocols that play two-player games only check [`Session::num_players`]).
pub fn new_session(name: &str, params: SearchParams) -> Result<Box<dyn Session>, GameError> {
    registry::visit(name, NewSession { params })
}

struct NewSession {
    params: SearchParams,
}

impl GameVisitor for NewSession {
    type Output = Box<dyn Session>;
    fn visit<G: Game>(self) -> Self::Output {
        // The search is built for the game's player count only (`Search<G, P>`).
        G::with_players(WithPlayers(self.params))
    }
}

struct WithPlayers(SearchParams);

impl PlayersVisitor for WithPlayers {
    type Output = Box<dyn Session>;
    fn visit<G: Game, const P: usize>(self) -> Self::Output {
        Box::new(GameSession::<G, P>::new(self.0))
    }
}

/// The session of game `G` of `P` players (`P` = `G::NUM_PLAYERS`).
pub struct GameSession<G: Game, const P: usize> {
    /// The start position and the moves since, as the protocol gave them.
    start: G,
    moves: Vec<Move>,
    record: Record<G>,
    search: Search<G, P>,
    /// Moves played since the search root that the tree has not followed yet (at most the
    /// last one played). Following a move compacts the tree, a pass over it (a tenth of a
    /// second for a big tree), so `play` leaves its move to the next `play` or search.
    unfollowed: Vec<Move>,
    /// Our last search's choice and value, for the time manager of the next one.
    last_value: Option<LastValue>,
}

impl<G: Game, const P: usize> GameSession<G, P> {
    pub fn new(params: SearchParams) -> GameSession<G, P> {
        GameSession {
            start: G::start(),
            moves: Vec::new(),
            record: Record::new(G::start(), MAX_PLIES),
            search: Search::new(params, G::start()),
            unfollowed: Vec::new(),
            last_value: None,
        }
    }

    /// Moves the search root along the moves played since it was set ([`Self::unfollowed`]).
    fn follow_moves(&mut self) {
        if !self.unfollowed.is_empty() {
            let moves = std::mem::take(&mut self.unfollowed);
            self.sync_search(Some(&moves));
        }
    }

    fn position(&self) -> &G {
        self.record.position()
    }

    /// The record of `moves` (legal) played from `start`.
    fn record_of(start: &G, moves: &[Move]) -> Record<G> {
        let mut record = Record::new(start.clone(), MAX_PLIES);
        for &m in moves {
            record.play(m);
        }
        record
    }

    /// Changes the start position with `change` (false: the game has no such rule, nothing
    /// changes) and replays the moves since; a changed start drops the tree, whose values were
    /// for the other rule. The moves are not checked again: they were legal when played.
    fn change_start(&mut self, change: impl FnOnce(&mut G) -> bool) -> bool {
        let mut start = self.start.clone();
        if !change(&mut start) {
            return false;
        }
        if start != self.start {
            self.record = Self::record_of(&start, &self.moves);
            self.start = start;
            self.unfollowed.clear();
            self.search.set_position(self.position().clone());
        }
        true
    }

    /// Reads `moves` from `start`, checking each; the record of the result.
    fn replay(
        start: &G,
        moves: &[&str],
        dialect: Dialect,
    ) -> Result<(Record<G>, Vec<Move>), GameError> {
        let mut record = Record::new(start.clone(), MAX_PLIES);
        let mut played = Vec::with_capacity(moves.len());
        for text in moves {
            if record.outcome().is_some() {
                return Err(GameError::illegal(text, "the game is already over"));
            }
            let m = record.position().parse_move_in(text, dialect)?;
            record.play(m);
            played.push(m);
        }
        Ok((record, played))
    }

    /// Brings the search root to the current position, keeping the tree when the position is
    /// reachable from the old root by the moves `extra` (or, for a bare position, within two
    /// plies of it: UAI's cuteataxx sends only `position fen <fen>` every move, so the
    /// position after our move and the opponent's reply is found by comparing positions).
    fn sync_search(&mut self, extra: Option<&[Move]>) {
        let target = self.record.position().clone();
        if let Some(extra) = extra {
            for &m in extra {
                self.search.advance(m);
            }
            if *self.search.position() == target {
                return;
            }
        } else if let Some(path) = self.path_from_root(&target) {
            for m in path {
                self.search.advance(m);
            }
            return;
        }
        self.search.set_position(target);
    }

    /// One or two moves that lead from the search root to `target`, if any. Positions are
    /// compared by hash first (cheap), then by equality (hashes may collide). Counters that a
    /// position string carries (Ataxx's halfmove clock and fullmove number) must match too.
    fn path_from_root(&self, target: &G) -> Option<Vec<Move>> {
        let root = self.search.position();
        let hash = target.hash();
        let same = |p: &G| p.hash() == hash && p == target;
        if same(root) {
            return Some(Vec::new());
        }
        let (mut first, mut second) = (MoveList::new(), MoveList::new());
        root.legal_moves(&mut first);
        for &a in first.iter() {
            let mut p = root.clone();
            p.play(a);
            if same(&p) {
                return Some(vec![a]);
            }
            p.legal_moves(&mut second);
            for &b in second.iter() {
                let mut q = p.clone();
                q.play(b);
                if same(&q) {
                    return Some(vec![a, b]);
                }
            }
        }
        None
    }

    /// The answer without searching: the only legal move, or nothing at a finished game.
    fn immediate(&self, job: &SearchJob, legal: &MoveList) -> SearchInfo {
        let best = legal
            .iter()
            .next()
            .map(|&m| self.position().format_move_in(m, job.dialect));
        SearchInfo {
            lines: best
                .iter()
                .map(|b| InfoLine::sole(vec![b.clone()], 0.0, [0, 1000, 0], None))
                .collect(),
            best,
            ..SearchInfo::default()
        }
    }
}

/// `moves` from the game's current position (`record`, the search root), written in
/// `dialect`, cut after a move that ends the game by the record's rules (the search does not
/// see the length cap), and before a later move that loses by the repetition rule for the
/// player who makes it: Minishogi's fourth repetition of a perpetual check, which
/// Fairy-Stockfish and cutechess treat as an illegal move. The search avoids such moves; a line
/// shows one only where every move of its first position loses.
fn format_line<G: Game>(record: &Record<G>, moves: &[Move], dialect: Dialect) -> Vec<String> {
    let mut line = record.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        if line.outcome().is_some() {
            break;
        }
        let mover = line.position().to_move();
        let text = line.position().format_move_in(m, dialect);
        line.play(m);
        let self_loss =
            line.ended_by_repetition() && line.outcome().is_some_and(|o| o.utility(mover) < 0.0);
        if self_loss && !out.is_empty() {
            break;
        }
        out.push(text);
    }
    out
}

/// The snapshot of `search` as it is now (`report` is its current report) in the game of
/// `record`.
fn snapshot<G: Game, const P: usize>(
    search: &Search<G, P>,
    record: &Record<G>,
    report: &SearchReport,
    job: &SearchJob,
) -> SearchInfo {
    let lines = search
        .root_lines(job.multipv.max(1))
        .into_iter()
        .enumerate()
        .map(|(k, line)| {
            // The first line is the report's: its value and WDL use the whole run.
            let (value, wdl, proven) = if k == 0 {
                (report.value, report.wdl, report.proven.or(line.proven))
            } else {
                (line.value, wdl_of(line.value, line.proven), line.proven)
            };
            // A proven first line (the report may know it when the line does not) is as sure
            // as its value.
            let lcb = if proven.is_some() { value } else { line.lcb };
            InfoLine {
                pv: format_line(record, &line.pv, job.dialect),
                value,
                lcb,
                prior: line.prior,
                prior_source: line.prior_source,
                wdl: per_mille(wdl),
                proven,
                visits: line.visits,
                move_number: line.index as u32 + 1,
            }
        })
        .collect::<Vec<_>>();
    let best = lines.first().and_then(|l| l.pv.first().cloned());
    let ponder = lines.first().and_then(|l| l.pv.get(1).cloned());
    SearchInfo {
        lines,
        depth: report.avg_depth.round() as u32,
        seldepth: report.max_depth,
        iterations: report.iterations,
        tree_nodes: report.nodes as u64,
        time: report.elapsed,
        hashfull: (report.memory_bytes as u64 * 1000 / report.memory_budget.max(1) as u64) as u32,
        best,
        ponder,
        solved: None,
        perft: None,
    }
}

/// The WDL of a root line from its value (no draw estimate per move).
fn wdl_of(value: f32, proven: Option<Proven>) -> [f32; 3] {
    match proven {
        Some(Proven::Win { .. }) => [1.0, 0.0, 0.0],
        Some(Proven::Loss { .. }) => [0.0, 0.0, 1.0],
        Some(Proven::Draw { .. }) => [0.0, 1.0, 0.0],
        None => {
            let w = ((1.0 + value) / 2.0).clamp(0.0, 1.0);
            [w, 0.0, 1.0 - w]
        }
    }
}

/// Per-mille integers that sum to exactly 1000.
fn per_mille(wdl: [f32; 3]) -> [u32; 3] {
    let w = (wdl[0].clamp(0.0, 1.0) * 1000.0).round() as u32;
    let l = ((wdl[2].clamp(0.0, 1.0) * 1000.0).round() as u32).min(1000 - w);
    [w, 1000 - w - l, l]
}

impl<G: Game, const P: usize> GameSession<G, P> {
    /// Runs the solver of `solve` on the current position, within the control's hard deadline
    /// (none when unlimited) and until `stop`.
    /// Root moves outside `allowed` (`searchmoves`; empty: all) are not answers: a win the solver
    /// found through one is reported as unknown, and a solve without a move to play answers the
    /// first allowed move.
    fn solve(
        &mut self,
        job: &SearchJob,
        solve: &SolveJob,
        control: &SearchControl,
        allowed: &[Move],
    ) -> SearchInfo {
        if let Some(why) = solve.refusal(P) {
            // The protocols refuse such a solve before it starts; this answers one that came
            // through anyway with nothing proven.
            return SearchInfo {
                solved: Some(Solved {
                    algo: solve.algo,
                    verdict: Verdict::Unknown,
                    plies: None,
                    detail: why,
                }),
                ..SearchInfo::default()
            };
        }
        let root = self.position().clone();
        // Hash is advertised up to a terabyte; the solvers' tables are allocated up front.
        let (memory_mb, memory_note) = crate::machine::fit_table_mb(solve.memory_mb);
        let cfg = SolveConfig {
            algo: solve.algo,
            max_nodes: solve.max_nodes,
            max_time: if control.unlimited() {
                None
            } else {
                control.time_left().1
            },
            memory_mb,
            threads: solve.threads,
            stop: Some(control.stop_flag()),
            ..SolveConfig::default()
        };
        let (verdict, plies, pv, best, nodes, time, detail) = match solve.mode {
            SolveMode::Mate(max_moves) => {
                // USI's mate is a tsume: a mate by checks alone (a quiet move or a stalemate
                // does not solve it).
                let r = if job.dialect == Dialect::Usi && G::HAS_CHECKS {
                    mate_search(&Checks::new(root.clone()), &cfg, max_moves)
                } else {
                    mate_search(&root, &cfg, max_moves)
                };
                let within = max_moves.map_or(String::new(), |n| format!(" within {n} moves"));
                let (verdict, plies, pv, detail) = match r.answer {
                    MateAnswer::Mate { plies, pv } => {
                        // The proof-number solvers deepen to the shortest win; sb-gpn reports
                        // the shortest its tree has proven.
                        let how = if solve.algo == Algo::SbGpn {
                            "proven by the search"
                        } else {
                            "shortest"
                        };
                        let detail = match plies {
                            Some(p) => format!("mate in {} ({how})", p.div_ceil(2)),
                            None => "forced win, distance not found within the limits".into(),
                        };
                        (Verdict::Win, plies, pv, detail)
                    }
                    MateAnswer::NoMate => (
                        Verdict::NoWin,
                        None,
                        Vec::new(),
                        format!("no forced win{within}"),
                    ),
                    MateAnswer::Unknown => (
                        Verdict::Unknown,
                        None,
                        Vec::new(),
                        format!("mate search{within}"),
                    ),
                };
                let best = pv.first().copied();
                (verdict, plies, pv, best, r.nodes, r.elapsed, detail)
            }
            SolveMode::Value => {
                let r = crate::solve::solve(&root, &cfg);
                let verdict = match r.value {
                    Value::Win => Verdict::Win,
                    Value::Draw => Verdict::Draw,
                    Value::Loss => Verdict::Loss,
                    Value::Unknown => Verdict::Unknown,
                };
                let mut detail = r.proofs_text();
                if r.by_pr {
                    detail += " (precision-rate conclusion, not a proof)";
                }
                let best = r.best_move.or(r.pv.first().copied());
                (verdict, r.plies, r.pv, best, r.nodes, r.elapsed, detail)
            }
        };
        // The solvers search every root move; a win by a move the `go` excluded answers a
        // question that was not asked (whether one of the allowed moves wins is unknown).
        let (verdict, plies, pv, best, detail) = match pv.first().copied().or(best) {
            Some(m) if !allowed.is_empty() && !allowed.contains(&m) => (
                Verdict::Unknown,
                None,
                Vec::new(),
                None,
                format!(
                    "{detail} by {}, a move outside searchmoves",
                    root.format_move_in(m, job.dialect)
                ),
            ),
            _ => (verdict, plies, pv, best, detail),
        };
        let proven = match (verdict, plies) {
            (Verdict::Win, Some(plies)) => Some(Proven::Win { plies }),
            (Verdict::Loss, Some(plies)) => Some(Proven::Loss { plies }),
            (Verdict::Draw, _) => Some(Proven::Draw {
                plies: plies.unwrap_or(0),
            }),
            _ => None,
        };
        let value = match verdict {
            Verdict::Win => 1.0,
            Verdict::Loss => -1.0,
            _ => 0.0,
        };
        let wdl = match verdict {
            Verdict::Win => [1000, 0, 0],
            Verdict::Draw => [0, 1000, 0],
            Verdict::Loss => [0, 0, 1000],
            _ => [0, 1000, 0],
        };
        // The move to play: the proven one, else the first allowed move (a solve that proved
        // nothing has no preference).
        let mut legal = MoveList::new();
        root.legal_moves(&mut legal);
        let first = allowed.first().or(legal.iter().next()).copied();
        let pv = if pv.is_empty() {
            best.or(first).into_iter().collect()
        } else {
            pv
        };
        let pv_text = format_line(&self.record, &pv, job.dialect);
        let lines = if pv_text.is_empty() {
            Vec::new()
        } else {
            vec![InfoLine::sole(pv_text.clone(), value, wdl, proven)]
        };
        SearchInfo {
            lines,
            depth: plies.unwrap_or(1),
            seldepth: plies.unwrap_or(1),
            iterations: nodes,
            tree_nodes: nodes,
            time,
            hashfull: 0,
            best: pv_text.first().cloned(),
            ponder: pv_text.get(1).cloned(),
            solved: Some(Solved {
                algo: solve.algo,
                verdict,
                plies,
                detail: match memory_note {
                    Some(note) => format!("{detail} (Hash: {note})"),
                    None => detail,
                },
            }),
            perft: None,
        }
    }
}

impl<G: Game, const P: usize> Session for GameSession<G, P> {
    fn game(&self) -> &'static GameInfo {
        &G::INFO
    }

    fn params(&self) -> &SearchParams {
        self.search.params()
    }

    fn check_params(&self, params: &SearchParams) -> Result<(), crate::search::params::ParamError> {
        params.check_network_for::<G>()
    }

    fn set_params(&mut self, params: SearchParams) {
        if params != *self.search.params() {
            self.search = Search::new(params, self.position().clone());
            self.unfollowed.clear();
        }
    }

    fn new_game(&mut self) {
        self.start = G::start();
        self.moves.clear();
        self.record = Record::new(G::start(), MAX_PLIES);
        self.unfollowed.clear();
        self.last_value = None;
        self.search.set_position(G::start());
    }

    fn set_position(
        &mut self,
        start: Option<&str>,
        moves: &[&str],
        dialect: Dialect,
    ) -> Result<(), GameError> {
        let start = match start {
            None => G::start(),
            Some(text) => G::parse_position_in(text, dialect)?,
        };
        let (record, played) = Self::replay(&start, moves, dialect)?;
        self.follow_moves();
        // Same start and the old moves a prefix of the new ones: advance the tree along the
        // extra moves. Otherwise look for the position near the old root.
        let extends = start == self.start
            && played.len() >= self.moves.len()
            && played[..self.moves.len()] == self.moves[..];
        let extra = extends.then(|| played[self.moves.len()..].to_vec());
        self.start = start;
        self.moves = played;
        self.record = record;
        self.sync_search(extra.as_deref());
        Ok(())
    }

    fn play(&mut self, text: &str, dialect: Dialect) -> Result<String, GameError> {
        if self.record.outcome().is_some() {
            return Err(GameError::illegal(text, "the game is already over"));
        }
        let m = self.position().parse_move_in(text, dialect)?;
        let written = self.position().format_move_in(m, dialect);
        // The move before is followed now, the latest one later: GTP's `genmove` answers
        // without the tree's pass, and the opponent's `play` after it (off our clock) pays
        // for both.
        self.follow_moves();
        self.record.play(m);
        self.moves.push(m);
        self.unfollowed.push(m);
        Ok(written)
    }

    fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        self.record = Self::record_of(&self.start, &self.moves);
        self.unfollowed.clear();
        self.search.set_position(self.position().clone());
        true
    }

    fn moves_left_bound(&self) -> Option<u32> {
        self.position().moves_left_bound()
    }

    fn side_to_move(&self) -> usize {
        self.position().to_move().0 as usize
    }

    fn num_players(&self) -> usize {
        P
    }

    fn player_name(&self, p: usize) -> &'static str {
        G::player_name(Player(p as u8))
    }

    fn legal_moves(&self, dialect: Dialect) -> Vec<String> {
        if self.record.outcome().is_some() {
            return Vec::new();
        }
        let mut list = MoveList::new();
        self.position().legal_moves(&mut list);
        list.iter()
            .map(|&m| self.position().format_move_in(m, dialect))
            .collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.record.outcome()
    }

    fn position_text(&self, dialect: Dialect) -> String {
        self.position().to_position_in(dialect)
    }

    fn diagram(&self) -> String {
        self.position().diagram()
    }

    fn plies(&self) -> usize {
        self.moves.len()
    }

    fn history(&self, dialect: Dialect) -> Vec<String> {
        // Each move is written from the position before it (notations can depend on it).
        let mut position = self.start.clone();
        self.moves
            .iter()
            .map(|&m| {
                let text = position.format_move_in(m, dialect);
                position.play(m);
                text
            })
            .collect()
    }

    fn parse_moves(&self, moves: &[&str], dialect: Dialect) -> Result<Vec<String>, GameError> {
        if let Some(text) = moves.first().filter(|_| self.record.outcome().is_some()) {
            return Err(GameError::illegal(text, "the game is already over"));
        }
        let position = self.position();
        moves
            .iter()
            .map(|text| {
                let m = position.parse_move_in(text, dialect)?;
                Ok(position.format_move_in(m, dialect))
            })
            .collect()
    }

    fn perft(&self, depth: u32, dialect: Dialect, stop: &AtomicBool) -> PerftCounts {
        let position = self.position();
        let mut list = MoveList::new();
        position.legal_moves(&mut list);
        let mut counts = PerftCounts {
            moves: list.len(),
            complete: true,
            ..PerftCounts::default()
        };
        for &m in list.iter() {
            let mut child = position.clone();
            child.play(m);
            match crate::game::perft::perft_until(&child, depth.saturating_sub(1), stop) {
                Some(count) => counts
                    .divide
                    .push((position.format_move_in(m, dialect), count)),
                None => {
                    counts.complete = false;
                    break;
                }
            }
        }
        counts
    }

    fn territory(&self) -> Option<&dyn SessionTerritory> {
        self.position().territory()?;
        Some(self)
    }

    fn territory_mut(&mut self) -> Option<&mut dyn SessionTerritory> {
        self.position().territory()?;
        Some(self)
    }

    fn search(
        &mut self,
        job: &SearchJob,
        control: &SearchControl,
        emit: &mut dyn FnMut(SearchInfo),
    ) -> SearchInfo {
        if let Some(depth) = job.perft {
            let t0 = Instant::now();
            let counts = self.perft(depth, job.dialect, &control.stop_flag());
            return SearchInfo {
                iterations: counts.total(),
                time: t0.elapsed(),
                perft: Some(counts),
                ..SearchInfo::default()
            };
        }
        self.follow_moves();
        let mut legal = MoveList::new();
        if self.record.outcome().is_none() {
            self.position().legal_moves(&mut legal);
        }
        let mut allowed: Vec<Move> = job
            .searchmoves
            .iter()
            .filter_map(|t| self.position().parse_move_in(t, job.dialect).ok())
            .collect();
        allowed.dedup();
        if legal.is_empty() {
            return self.immediate(job, &legal);
        }
        if let Some(solve) = &job.solve {
            let solved = self.solve(job, solve, control, &allowed);
            // UCI's `go mate` must still answer a move to play. Without a win to play, that
            // move comes from a real search of what is left of the budget (USI's `go mate`
            // answers `checkmate nomate` instead, and a `stop` wants the answer now). A value
            // solve (GTP's `gpn-solve`) plays nothing and reports the solver's own nodes and
            // time, which a fallback search would replace.
            let no_win = matches!(solve.mode, SolveMode::Mate(_))
                && solved
                    .solved
                    .as_ref()
                    .is_some_and(|s| s.verdict != Verdict::Win);
            if !(no_win && job.dialect != Dialect::Usi && !control.stopped()) {
                return solved;
            }
            let mut fallback = SearchJob {
                solve: None,
                ..job.clone()
            };
            if control.time_left() == (None, None) && !control.unlimited() {
                fallback.iterations = Some(job.iterations.unwrap_or(MATE_FALLBACK_ITERATIONS));
            }
            let mut info = self.search(&fallback, control, emit);
            info.solved = solved.solved;
            return info;
        }
        if let Some(info) = self.perfect(job, control, &allowed, legal.len()) {
            return info;
        }
        // One legal move: a very short search (pondering and infinite searches search as
        // usual), which reports the reused tree's value or proof for it.
        let forced = legal.len() == 1 && !control.unlimited() && !job.analyse;
        // A `go nodes` search is reproducible (one thread, a fixed seed), so its forced move is
        // cut by iterations only: the clock would make the count depend on the machine's load.
        let forced_by_clock = forced && job.iterations.is_none();
        let depth_sample = MIN_ITERATIONS_FOR_DEPTH.max(4 * legal.len() as u64);
        self.search.restrict_root(&allowed);
        self.search.set_history(self.record.history());
        let limits = Limits {
            stop: Some(control.stop_flag()),
            // Exact when known at the start (the hook checks only every few iterations); a
            // ponder search learns its limits at `ponderhit` and is checked by the hook.
            iterations: job.iterations.filter(|_| !control.unlimited()),
            ..Limits::default()
        };
        let mut last_info = Instant::now();
        let mut last_best = None;
        let mover = self.position().to_move();
        let plies = self.record.plies();
        // The value of our previous move's search, when it was the move before this one of
        // ours: how far the position fell since is worth more time.
        let previous_value = self
            .last_value
            .filter(|v| v.player == mover && plies.checked_sub(v.plies) == Some(P as u32))
            .map(|v| v.value);
        let mut watch = BestMoveWatch::default();
        let record = &self.record;
        let report = self.search.run_with(&limits, |search, progress| {
            if !control.unlimited() {
                let iterations = progress.iterations;
                if job.iterations.is_some_and(|n| iterations >= n)
                    || job.nodes.is_some_and(|n| search.tree_nodes() as u64 >= n)
                    || search.root_solved()
                {
                    return false;
                }
                if forced
                    && (iterations >= FORCED_MOVE_ITERATIONS
                        || (forced_by_clock && progress.elapsed >= FORCED_MOVE_TIME))
                {
                    return false;
                }
                if let Some(depth) = job.depth {
                    if iterations >= depth_sample && search.mean_depth() >= depth as f32 {
                        return false;
                    }
                }
                if let Some((budget, spent)) = control.budget() {
                    if spent >= budget.hard || budget.soft.is_zero() {
                        return false;
                    }
                    let (first, second) = search.root_top_two_visits();
                    if watch.due(progress.elapsed) {
                        watch.look(search.best_move_value(), progress.elapsed, previous_value);
                    }
                    let shape = watch.shape(first, search.root_visits(), progress.elapsed);
                    let target = budget.target(&shape);
                    if spent >= target {
                        return false;
                    }
                    // The leader cannot be overtaken in the iterations left before the
                    // target: stop now (the time saved stays on the clock). Not before half
                    // the target: a reused tree's leader is often out of reach at once, and
                    // a move searched for almost nothing leaves the clock unspent and the
                    // tree shallow for the moves after it. A fixed move time (`movetime`:
                    // no clock to save for) is searched whole, as UCI asks: a proof can
                    // still overturn a leader that visits alone cannot.
                    if !job.analyse
                        && iterations >= MIN_ITERATIONS_FOR_EARLY_STOP
                        && budget.soft < budget.hard
                        && spent >= target / EARLY_STOP_FLOOR
                    {
                        let rate = iterations as f64 / progress.elapsed.as_secs_f64().max(1e-6);
                        let left = (target - spent).as_secs_f64();
                        if f64::from(first - second) > rate * left {
                            return false;
                        }
                    }
                }
            }
            let now = Instant::now();
            let since = now - last_info;
            if since >= MIN_INFO_GAP {
                let best = search.best_move();
                if since >= job.info_interval || best != last_best {
                    last_best = best;
                    last_info = now;
                    let report = search.report();
                    emit(snapshot(search, record, &report, job));
                }
            }
            true
        });
        if let Some((_, value)) = self.search.best_move_value() {
            self.last_value = Some(LastValue {
                plies,
                player: mover,
                value,
            });
        }
        snapshot(&self.search, &self.record, &report, job)
    }
}

/// The Go-only part of the session, reached through [`Session::territory`]: the position's
/// [`crate::game::Territory`], with the setters applied to the start position.
impl<G: Game, const P: usize> SessionTerritory for GameSession<G, P> {
    fn set_komi(&mut self, komi: f32) -> bool {
        self.change_start(|start| start.territory_mut().is_some_and(|t| t.set_komi(komi)))
    }

    fn set_superko(&mut self, situational: bool) -> bool {
        self.change_start(|start| {
            start
                .territory_mut()
                .is_some_and(|t| t.set_situational_superko(situational))
        })
    }

    fn score_text(&self) -> Option<String> {
        self.position().territory()?.score_text()
    }

    fn status_list(&self, status: &str) -> Option<Vec<String>> {
        self.position().territory()?.status_list(status)
    }

    fn ownership(&self) -> Option<Vec<f32>> {
        self.position().territory()?.ownership()
    }

    fn gogui_board(&self) -> Option<GoGuiBoard> {
        self.position().territory()?.gogui_board()
    }

    fn line_scorer(&self, dialect: Dialect) -> Option<LineScorer> {
        let root = self.position().clone();
        root.territory()?.score_estimate()?;
        let mover = root.to_move();
        Some(Box::new(move |line: &[String]| {
            let mut g = root.clone();
            for text in line {
                match g.parse_move_in(text, dialect) {
                    Ok(m) => g.play(m),
                    Err(_) => break,
                }
            }
            let lead = g
                .territory()
                .and_then(|t| t.score_estimate())
                .unwrap_or(0.0);
            if mover.0 == 0 {
                lead
            } else {
                -lead
            }
        }))
    }

    fn player_scores(&self) -> Option<Vec<i32>> {
        self.position().territory()?.player_scores()
    }
}

/// The value the search gave the move it chose, for the next search of the same player.
#[derive(Clone, Copy, Debug)]
struct LastValue {
    /// Plies of the game when that search ran.
    plies: u32,
    player: Player,
    value: f32,
}

mod perfect;
#[cfg(test)]
mod tests;
