//! Search configuration: the algorithm, its constants, and the one table of tunable options.

use std::fmt;
use std::fmt::Write as _;

pub use crate::nn::NetworkFile;

/// The search algorithms (`docs/design.md`, "Search algorithms").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Plain UCT: UCB1 selection, random playouts, no solver.
    Uct,
    /// Score-Bounded MCTS (Cazenave & Saffidine): UCT plus exact score bounds.
    SbUct,
    /// GPN-MCTS: UCT biased by per-player proof numbers.
    Gpn,
    /// Score-Bounded GPN-MCTS: GPN-MCTS plus score bounds (the default).
    SbGpn,
    /// PN-MCTS (Kowalski et al.): proof and disproof numbers relative to the root player, all
    /// children expanded at once, with the F, S and U enhancements of `pn_flags`.
    PnMcts,
}

impl Algorithm {
    pub const ALL: [Algorithm; 5] = [
        Algorithm::Uct,
        Algorithm::SbUct,
        Algorithm::Gpn,
        Algorithm::SbGpn,
        Algorithm::PnMcts,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Uct => "uct",
            Algorithm::SbUct => "sb-uct",
            Algorithm::Gpn => "gpn",
            Algorithm::SbGpn => "sb-gpn",
            Algorithm::PnMcts => "pn-mcts",
        }
    }

    /// Whether proof numbers are maintained and bias the selection.
    pub fn uses_proof_numbers(self) -> bool {
        matches!(self, Algorithm::Gpn | Algorithm::SbGpn)
    }

    /// Whether score bounds are maintained (solving, pruning, exact values).
    pub fn uses_bounds(self) -> bool {
        matches!(self, Algorithm::SbUct | Algorithm::SbGpn)
    }
}

/// How a child's proof number becomes a selection bonus (`docs/design.md`, "The proof-number
/// bonus").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bias {
    /// The paper's PNRank: `1 - rank / n` with competition ranking.
    Rank,
    /// Min-max normalisation.
    Max,
    /// Share of the sum.
    Sum,
}

impl Bias {
    pub fn name(self) -> &'static str {
        match self {
            Bias::Rank => "rank",
            Bias::Max => "max",
            Bias::Sum => "sum",
        }
    }
}

/// How a playout picks its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Uniformly at random.
    Random,
    /// The implicit-minimax paper's improved playout policy ("ipp"): a move that wins at once is
    /// always played, a move after which the opponent wins at once is avoided where possible,
    /// and captures are four times as likely as other moves.
    Informed,
    /// The game's own playout knowledge ([`crate::game::Heuristics::playout_move`]; uniform in
    /// games without any).
    Game,
}

impl Policy {
    pub fn name(self) -> &'static str {
        match self {
            Policy::Random => "random",
            Policy::Informed => "ipp",
            Policy::Game => "game",
        }
    }
}

/// Everything that configures one search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    pub algorithm: Algorithm,
    pub bias: Bias,
    /// UCB exploration constant on the [-1, 1] value scale.
    pub c: f32,
    /// Weight of the proof-number bias term.
    pub c_pn: f32,
    /// Decay of the proof-number bias with the child's visits: the term is weighted by
    /// `pn_decay / (pn_decay + visits)`, so it halves at `pn_decay` visits (0: no decay, the
    /// papers' constant bias).
    pub pn_decay: u32,
    /// The bias scales the exploration term instead of being added to the value:
    /// `(c + c_pn * bias) * sqrt(ln N / n)`. It then shrinks as the UCB term does, so it orders
    /// exploration without overriding what the values say after many visits (the constant bias
    /// overrides them more the longer a search runs).
    pub pn_explore: bool,
    /// Playout length cap in plies; a capped playout scores as a draw.
    pub playout_cap: u32,
    /// Initialise a new node's non-mover proof numbers with its number of moves.
    pub mobility_init: bool,
    /// Score-bounded algorithms: selection reads an unsolved child's mean clipped into its
    /// score bounds (false: the raw mean, as Ludii's Score Bounded MCTS, which clips only in
    /// its GPN-MCTS nodes; experiments/reference.md).
    pub clip: bool,
    /// Play the game's own perfect moves (an opening book, an exact solve that fits the
    /// clock) before searching, in games that have them (Connect Four).
    pub book: bool,
    /// Seed of the search's random numbers (ties, playouts).
    pub seed: u64,
    /// Memory for the tree, in MiB.
    pub hash_mb: usize,
    /// Search threads on the one tree (1: the deterministic single-threaded search).
    pub threads: usize,
    /// From this many threads on, iterations land beside the other threads' selections
    /// (`parallel.rs`): visits and utilities with atomic additions, new nodes through atomic
    /// claims, proof numbers, bounds and minimax values merged (`Search::backup_shared`), except
    /// with PN-MCTS or RAVE; below it, under the exclusive lock. 2 by default (side by side from
    /// two threads on): with each game's defaults on two cores it gives 1.04-1.47x against
    /// 0.50-1.35x in the games whose iterations take a few microseconds, loses up to 9 % of the
    /// iterations in the slower ones, and wins 58.8 % of 120 equal-time games at 200 ms against
    /// the exclusive backup (breakthrough, cfour, reversi; experiments/threads.md, 2026-11-30).
    pub shared_stats: usize,
    /// PN-MCTS enhancements: F (final move: a proven win at once), S (solver: skip solved
    /// children with more than `solver_visits` visits), U (the proof-number term in selection).
    pub pn_flags: PnFlags,
    /// PN-MCTS solver threshold T: solved children with more visits are skipped.
    pub solver_visits: u32,
    /// PN-MCTS second layer for draws: also prove "not a loss" (the paper's PNSMCTS_L2).
    pub draw_layer: bool,
    /// PN-MCTS with the draw layer: take a proven draw when the root's mean value is at most this.
    pub contempt: f32,
    /// Implicit minimax backups: selection uses (1 - im) * mean + im * the child's minimax-backed
    /// evaluation (0: off). Two-player games with an evaluation.
    pub im: f32,
    /// How playouts choose moves.
    pub policy: Policy,
    /// Epsilon-greedy playouts: a random move with probability `ege`, else the move whose
    /// position evaluates best for the mover (0: off).
    pub ege: f32,
    /// Fixed early termination: a playout stops after this many plies and scores the evaluation
    /// (0: off).
    pub fet: u32,
    /// Dynamic early termination: a playout stops as a win (loss) once the evaluation for the
    /// first player reaches `det` (`-det`) (0: off).
    pub det: f32,
    /// Progressive bias: `pb * value / (visits + 1)` added in selection, with the child's
    /// minimax-backed evaluation as the value (0: off).
    pub pb: f32,
    /// Node priors: a new node starts with `np` virtual visits whose mean is its evaluation, so
    /// the first playouts cannot swing it far (0: off; not used by PN-MCTS).
    pub np: u32,
    /// Paranoid play with more than two players: at a node of another player than the root's,
    /// selection picks the child worst for the root player (Sturtevant's paranoid assumption,
    /// as in Nijssen & Winands' paranoid UCT) instead of the mover's own best (max^n), and the
    /// root player's score bounds are paranoid (at another player's node its optimistic bound
    /// is the least over the children), so they meet at its paranoid value. The Monte-Carlo
    /// values, the other players' bounds and the proof numbers (paranoid already) are the same
    /// either way; with threads, the virtual loss still counts against the mover's own value.
    /// With two players it changes nothing.
    pub paranoid: bool,
    /// Threat search at new nodes: plies within which a win or loss of the side to move is
    /// proven there ([`super::threat`]; 0: off). Two-player games, algorithms with score bounds
    /// or proof numbers.
    pub threats: u32,
    /// The most positions one threat search visits.
    pub threat_nodes: u32,
    /// With a network: plies of the quiescence step at new nodes ([`super::quiescence`]; 0:
    /// off): the node's value is the network's after its captures (and promotions) are played
    /// out.
    pub quiescence: u32,
    /// Knowledge priors: in games with move priors ([`crate::game::Heuristics::move_priors`])
    /// and without a network (or with one at `net_prior` > 0, whose policy is blended in), each
    /// edge's value starts as its prior win rate, worth this many
    /// playouts (Pachi's equivalent experience; 0: off).
    pub prior: u32,
    /// RAVE: with moves that mean one action everywhere ([`crate::game::Heuristics::AMAF_MOVES`]),
    /// each edge also keeps all-moves-as-first statistics, mixed into its value with weight
    /// `b = n' / (n' + n + n n' / rave)` (Pachi's equivalence `rave`; 0: off), n' the AMAF
    /// visits and n the child's visits. One-thread searches only.
    pub rave: u32,
    /// A network for the game (two-player games): its value replaces the playouts and is the
    /// nodes' evaluation, its policy the edges' priors for PUCT selection (None: playouts);
    /// with `net_prior` > 0 only its policy is read, into the knowledge priors.
    pub network: Option<NetworkFile>,
    /// With a network and knowledge priors (`prior` > 0): the network gives move priors only,
    /// this share (percent) of each edge's prior win rate, the game's own knowledge the rest;
    /// playouts, RAVE and UCT selection stay (Pachi's use of its DCNN). 0: the network replaces
    /// the playouts and gives PUCT's priors.
    pub net_prior: u32,
    /// With a network: the PUCT constant, `cpuct * prior * sqrt(N) / (1 + n)`.
    pub cpuct: f32,
    /// With a network that has proof-cost heads: a new node's per-player proof numbers are its
    /// predicted proof costs (the side to move's and the opponent's) instead of the mobility
    /// initialisation. Set by `gpn solve --algo sb-gpn --pcn` only; not a search option.
    pub pcn_init: bool,
    /// A node's edges are the moves of the game's forcing rule where it applies
    /// ([`crate::game::Heuristics::forcing_moves`]: Gomoku's four-threat rule). Set by `gpn solve
    /// --algo sb-gpn --4t` only; not a search option.
    pub forcing: bool,
}

/// The F, S and U switches of PN-MCTS (written as a string such as `FSU` or `xSU`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PnFlags {
    pub final_move: bool,
    pub solver: bool,
    pub uct_pn: bool,
}

impl PnFlags {
    /// Reads a flag string: `F`, `S`, `U` switch on, `x` or `-` stand for an absent flag.
    pub fn parse(text: &str) -> Result<PnFlags, ParamError> {
        let mut flags = PnFlags {
            final_move: false,
            solver: false,
            uct_pn: false,
        };
        for c in text.chars() {
            match c.to_ascii_uppercase() {
                'F' => flags.final_move = true,
                'S' => flags.solver = true,
                'U' => flags.uct_pn = true,
                'X' | '-' => {}
                _ => return Err(ParamError(format!("pn_flags: '{c}' is not F, S, U or x"))),
            }
        }
        Ok(flags)
    }

    pub fn text(self) -> String {
        let f = |on: bool, c: char| if on { c } else { 'x' };
        [
            f(self.final_move, 'F'),
            f(self.solver, 'S'),
            f(self.uct_pn, 'U'),
        ]
        .iter()
        .collect()
    }
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            algorithm: Algorithm::SbGpn,
            bias: Bias::Rank,
            c: std::f32::consts::SQRT_2,
            c_pn: 1.0,
            pn_decay: 0,
            pn_explore: false,
            playout_cap: 200,
            mobility_init: true,
            clip: true,
            book: true,
            seed: 1,
            hash_mb: 256,
            threads: 1,
            shared_stats: 2,
            pn_flags: PnFlags {
                final_move: true,
                solver: true,
                uct_pn: true,
            },
            solver_visits: 5,
            draw_layer: false,
            contempt: -100.0,
            im: 0.0,
            policy: Policy::Random,
            ege: 0.0,
            fet: 0,
            det: 0.0,
            pb: 0.0,
            np: 0,
            paranoid: false,
            threats: 0,
            threat_nodes: 200,
            quiescence: 0,
            prior: 0,
            rave: 0,
            net_prior: 0,
            network: None,
            cpuct: 1.25,
            pcn_init: false,
            forcing: false,
        }
    }
}

impl SearchParams {
    /// Whether nodes need their evaluation (implicit minimax, progressive bias or node priors).
    pub fn uses_node_evaluation(&self) -> bool {
        self.im > 0.0 || self.pb > 0.0 || self.np > 0
    }

    /// Whether new nodes get a threat search: two players, and an algorithm that can hold its
    /// proofs (score bounds or proof numbers; not PN-MCTS, whose numbers are the root's).
    pub fn uses_threats(&self, players: usize) -> bool {
        self.threats > 0
            && players == 2
            && (self.algorithm.uses_bounds() || self.algorithm.uses_proof_numbers())
    }

    /// Whether playouts are anything but uniform, uncut random games.
    pub fn uses_informed_playouts(&self) -> bool {
        self.policy == Policy::Informed || self.ege > 0.0 || self.fet > 0 || self.det > 0.0
    }
}

/// The most search threads an option accepts (declared with the options, which check it).
pub use crate::options::MAX_THREADS;

/// A rejected option or value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError(pub String);

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParamError {}

/// A value the registry has checked, read into its field's type.
fn read<T: std::str::FromStr>(name: &str, checked: &str) -> Result<T, ParamError> {
    checked
        .parse()
        .map_err(|_| ParamError(format!("{name}: '{checked}' is out of range")))
}

impl SearchParams {
    /// Sets one search option by any of its names (see [`crate::options`], which checks the
    /// value's type and range and gives its canonical form).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
        // A spin form (`Tune_C=1414`) sets its real option (`c=1.414`).
        let (option, value) = crate::options::lookup_value(name, value)
            .map_err(|e| ParamError(e.replacen("option", "search option", 1)))?;
        let value = value.as_str();
        if option.scope != crate::options::Scope::Search {
            return Err(ParamError(format!(
                "'{name}' is not a search option (it belongs to the protocols)"
            )));
        }
        let v = option.check_as(value, option.key).map_err(ParamError)?;
        let key = option.key;
        match key {
            "algorithm" => {
                self.algorithm = Algorithm::ALL
                    .into_iter()
                    .find(|a| a.name() == v)
                    .ok_or_else(|| ParamError(format!("algorithm: '{v}'")))?
            }
            "bias" => {
                self.bias = match v.as_str() {
                    "max" => Bias::Max,
                    "sum" => Bias::Sum,
                    _ => Bias::Rank,
                }
            }
            "policy" => {
                self.policy = match v.as_str() {
                    "ipp" => Policy::Informed,
                    "game" => Policy::Game,
                    _ => Policy::Random,
                }
            }
            "c" => self.c = read(key, &v)?,
            "c_pn" => self.c_pn = read(key, &v)?,
            "pn_decay" => self.pn_decay = read(key, &v)?,
            "pn_explore" => self.pn_explore = read(key, &v)?,
            "playout_cap" => self.playout_cap = read(key, &v)?,
            "mobility" => self.mobility_init = read(key, &v)?,
            "clip" => self.clip = read(key, &v)?,
            "book" => self.book = read(key, &v)?,
            "draw_layer" => self.draw_layer = read(key, &v)?,
            "contempt" => self.contempt = read(key, &v)?,
            "seed" => self.seed = read(key, &v)?,
            "hash" => self.hash_mb = read(key, &v)?,
            "threads" => self.threads = read(key, &v)?,
            "shared_stats" => self.shared_stats = read(key, &v)?,
            "pn_flags" => self.pn_flags = PnFlags::parse(&v)?,
            "im" => self.im = read(key, &v)?,
            "ege" => self.ege = read(key, &v)?,
            "fet" => self.fet = read(key, &v)?,
            "det" => self.det = read(key, &v)?,
            "pb" => self.pb = read(key, &v)?,
            "np" => self.np = read(key, &v)?,
            "paranoid" => self.paranoid = read(key, &v)?,
            "threats" => self.threats = read(key, &v)?,
            "threat_nodes" => self.threat_nodes = read(key, &v)?,
            "quiescence" => self.quiescence = read(key, &v)?,
            "prior" => self.prior = read(key, &v)?,
            "rave" => self.rave = read(key, &v)?,
            "net_prior" => self.net_prior = read(key, &v)?,
            "cpuct" => self.cpuct = read(key, &v)?,
            "network" => {
                self.network = if v.is_empty() {
                    None
                } else {
                    Some(NetworkFile::load(&v).map_err(|e| ParamError(format!("network: {e}")))?)
                }
            }
            "solver_visits" => self.solver_visits = read(key, &v)?,
            // A search option of the registry without a field here is a programming error
            // that the registry's tests catch; refuse it rather than ignore it.
            _ => return Err(ParamError(format!("search option '{key}' is not handled"))),
        }
        Ok(())
    }

    /// The value of a tunable search option (`options::EngineOption::tune`) by its key, as a
    /// number; `None` for any other key.
    pub fn tunable_value(&self, key: &str) -> Option<f64> {
        // An f32 as the f64 that prints as it does (0.1, not 0.10000000149011612).
        let wide = |x: f32| x.to_string().parse().unwrap_or(x as f64);
        Some(match key {
            "c" => wide(self.c),
            "cpuct" => wide(self.cpuct),
            "c_pn" => wide(self.c_pn),
            "pn_decay" => self.pn_decay as f64,
            "im" => wide(self.im),
            "ege" => wide(self.ege),
            "fet" => self.fet as f64,
            "det" => wide(self.det),
            "pb" => wide(self.pb),
            "np" => self.np as f64,
            "prior" => self.prior as f64,
            "rave" => self.rave as f64,
            _ => return None,
        })
    }

    /// Reads a spec such as `sb-gpn c_pn=2 bias=max`: an optional algorithm name first, then
    /// `name=value` pairs, separated by spaces or commas.
    pub fn parse(spec: &str) -> Result<SearchParams, ParamError> {
        let mut params = SearchParams::default();
        params.apply_spec(spec)?;
        Ok(params)
    }

    /// Applies a spec (as [`SearchParams::parse`] reads it) over these parameters; on error
    /// some of its options may have been applied.
    pub fn apply_spec(&mut self, spec: &str) -> Result<(), ParamError> {
        for (i, token) in spec.split([' ', ',']).filter(|t| !t.is_empty()).enumerate() {
            match token.split_once('=') {
                Some((name, value)) => self.set(name, value)?,
                None if i == 0 => self.set("algorithm", token)?,
                None => return Err(ParamError(format!("'{token}' is not name=value"))),
            }
        }
        Ok(())
    }

    /// The spec that [`SearchParams::parse`] reads back to these parameters.
    pub fn spec(&self) -> String {
        let mut spec = format!(
            "{} bias={} c={} c_pn={} pn_decay={} pn_explore={} playout_cap={} mobility={} seed={} hash={} threads={} pn_flags={} \
             solver_visits={} draw_layer={} contempt={} im={} policy={} ege={} fet={} det={} pb={} np={}",
            self.algorithm.name(),
            self.bias.name(),
            self.c,
            self.c_pn,
            self.pn_decay,
            self.pn_explore,
            self.playout_cap,
            self.mobility_init,
            self.seed,
            self.hash_mb,
            self.threads,
            self.pn_flags.text(),
            self.solver_visits,
            self.draw_layer,
            self.contempt,
            self.im,
            self.policy.name(),
            self.ege,
            self.fet,
            self.det,
            self.pb,
            self.np
        );
        // Off by default and for two players; written only when on, as the network is.
        if self.paranoid {
            spec.push_str(" paranoid=true");
        }
        if self.threats > 0 {
            let _ = write!(
                spec,
                " threats={} threat_nodes={}",
                self.threats, self.threat_nodes
            );
        }
        if self.quiescence > 0 {
            let _ = write!(spec, " quiescence={}", self.quiescence);
        }
        if self.prior > 0 {
            let _ = write!(spec, " prior={}", self.prior);
        }
        if self.rave > 0 {
            let _ = write!(spec, " rave={}", self.rave);
        }
        if self.shared_stats != SearchParams::default().shared_stats {
            let _ = write!(spec, " shared_stats={}", self.shared_stats);
        }
        // On by default and for most games nothing: written only when off.
        if !self.book {
            spec.push_str(" book=false");
        }
        if !self.clip {
            spec.push_str(" clip=false");
        }
        if let Some(net) = &self.network {
            if self.net_prior > 0 {
                let _ = write!(spec, " network={} net_prior={}", net.path(), self.net_prior);
            } else {
                let _ = write!(spec, " network={} cpuct={}", net.path(), self.cpuct);
            }
        }
        spec
    }

    /// Whether a network replaces the playouts and gives the priors.
    #[inline]
    pub fn uses_network(&self) -> bool {
        self.network.is_some() && self.net_prior == 0
    }

    /// The network whose policy is blended into the knowledge priors, and its share (0-1):
    /// set when a network is given with `net_prior` > 0 (and used where knowledge priors are).
    #[inline]
    pub fn network_priors(&self) -> Option<(&NetworkFile, f32)> {
        let file = self.network.as_ref().filter(|_| self.net_prior > 0)?;
        Some((file, self.net_prior.min(100) as f32 / 100.0))
    }

    /// Checks that the network, if any, is for `game` (its canonical name) and has `inputs` and
    /// `policy` outputs, the game's encoding; `players` must be 2.
    pub fn check_network(
        &self,
        game: &str,
        players: usize,
        inputs: usize,
        policy: usize,
    ) -> Result<(), ParamError> {
        let Some(file) = &self.network else {
            return Ok(());
        };
        let fits = if players == 2 {
            file.for_game(game)
                .and_then(|net| net.net().check_fits(game, inputs, policy))
        } else {
            Err("networks play two-player games only".to_string())
        };
        fits.map_err(|e| ParamError(format!("network {}: {e}", file.path())))
    }

    /// [`SearchParams::check_network`] for game `G`.
    pub fn check_network_for<G: crate::game::Game>(&self) -> Result<(), ParamError> {
        self.check_network(G::INFO.name, G::NUM_PLAYERS, G::INPUTS, G::POLICY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_round_trips() {
        let p = SearchParams::parse(
            "gpn bias=max c_pn=2.5 pn_decay=300 pn_explore=true c=0.7 playout_cap=50 seed=9 hash=8 threads=3 im=0.4 policy=ipp ege=0.1 \
             fet=4 det=0.5 pb=2 np=10 paranoid=true threats=3 threat_nodes=50 \
             quiescence=2 prior=20 rave=3000 shared_stats=3 clip=false",
        )
        .unwrap();
        assert_eq!(
            (p.np, p.pn_decay, p.paranoid, p.clip),
            (10, 300, true, false)
        );
        assert_eq!((p.threats, p.quiescence), (3, 2));
        assert_eq!((p.prior, p.rave), (20, 3000));
        assert_eq!((p.im, p.policy, p.fet), (0.4, Policy::Informed, 4));
        assert_eq!(p.algorithm, Algorithm::Gpn);
        assert_eq!(p.bias, Bias::Max);
        assert_eq!(SearchParams::parse(&p.spec()).unwrap(), p);
        assert_eq!(SearchParams::parse("").unwrap(), SearchParams::default());
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        for (spec, needle) in [
            ("alphabeta", "algorithm"),
            ("uct c=x", "'x' is not a number"),
            ("uct c=-1", "outside"),
            ("uct frob=1", "unknown search option"),
            ("uct bias=median", "bias"),
            ("uct c_pn", "not name=value"),
            ("uct im=1.5", "outside"),
            ("uct policy=greedy", "policy"),
        ] {
            let err = SearchParams::parse(spec).unwrap_err();
            assert!(err.0.contains(needle), "{spec}: {err}");
        }
    }

    /// The registry's defaults are the generic defaults: setting any of them changes nothing.
    #[test]
    fn every_search_option_of_the_registry_is_settable_and_its_default_is_the_default() {
        use crate::options::{Scope, OPTIONS};
        for opt in OPTIONS.iter().filter(|o| o.scope == Scope::Search) {
            let mut p = SearchParams::default();
            p.set(opt.key, opt.default)
                .unwrap_or_else(|e| panic!("{}: {e}", opt.key));
            assert_eq!(p, SearchParams::default(), "{}", opt.key);
        }
        assert!(SearchParams::default().set("ponder", "true").is_err());
        assert!(SearchParams::default().set("c", "nan").is_err());
    }

    /// A spin form (`Tune_C`, in thousandths) sets its real option; every tunable option has a
    /// value to start tuning from.
    #[test]
    fn spin_forms_set_their_real_option() {
        let p = SearchParams::parse("uct Tune_C=700 tune_c_pn=2500").unwrap();
        assert_eq!((p.c, p.c_pn), (0.7, 2.5));
        assert!(SearchParams::parse("uct Tune_C=200000").is_err());
        let d = SearchParams::default();
        let c = d.tunable_value("c").map(|c| c as f32);
        assert_eq!(c, Some(std::f32::consts::SQRT_2));
        assert_eq!(d.tunable_value("hash"), None);
        for o in crate::options::OPTIONS.iter().filter(|o| o.tune.is_some()) {
            let value = d
                .tunable_value(o.key)
                .unwrap_or_else(|| panic!("{}", o.key));
            assert_eq!(value, o.default.parse::<f64>().unwrap(), "{}", o.key);
        }
    }
}
