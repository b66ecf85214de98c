//! Search configuration: the algorithm, its constants, and the one table of tunable options.

use std::fmt;

/// The search algorithms (ALGORITHM.md section 5).
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

/// How a child's proof number becomes a selection bonus (ALGORITHM.md 1.7).
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
}

impl Policy {
    pub fn name(self) -> &'static str {
        match self {
            Policy::Random => "random",
            Policy::Informed => "ipp",
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
    /// Seed of the search's random numbers (ties, playouts).
    pub seed: u64,
    /// Memory for the tree, in MiB.
    pub hash_mb: usize,
    /// Search threads on the one tree (1: the deterministic single-threaded search).
    pub threads: usize,
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
            seed: 1,
            hash_mb: 256,
            threads: 1,
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
        }
    }
}

impl SearchParams {
    /// Whether nodes need their evaluation (implicit minimax, progressive bias or node priors).
    pub fn uses_node_evaluation(&self) -> bool {
        self.im > 0.0 || self.pb > 0.0 || self.np > 0
    }

    /// Whether playouts are anything but uniform, uncut random games.
    pub fn uses_informed_playouts(&self) -> bool {
        self.policy != Policy::Random || self.ege > 0.0 || self.fet > 0 || self.det > 0.0
    }
}

/// One tunable option: its name, default and range, shown to users and protocols.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    pub name: &'static str,
    pub default: &'static str,
    /// Allowed values: a range `min..max` for numbers, a list for choices.
    pub allowed: &'static str,
    pub help: &'static str,
}

/// The search options, in one table (protocol options and `gpn match` specs read it).
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "algorithm",
        default: "sb-gpn",
        allowed: "uct sb-uct gpn sb-gpn pn-mcts",
        help: "search algorithm",
    },
    OptionSpec {
        name: "bias",
        default: "rank",
        allowed: "rank max sum",
        help: "proof-number bias formula",
    },
    OptionSpec {
        name: "c",
        default: "1.4142",
        allowed: "0..100",
        help: "UCB exploration constant",
    },
    OptionSpec {
        name: "c_pn",
        default: "1",
        allowed: "0..1000",
        help: "weight of the proof-number bias",
    },
    OptionSpec {
        name: "pn_decay",
        default: "0",
        allowed: "0..100000000",
        help: "proof-number bias halves at this many child visits (0 = constant bias)",
    },
    OptionSpec {
        name: "pn_explore",
        default: "false",
        allowed: "true false",
        help: "proof-number bias scales the exploration term: (c + c_pn*bias)*sqrt(ln N/n)",
    },
    OptionSpec {
        name: "playout_cap",
        default: "200",
        allowed: "1..100000",
        help: "playout length cap in plies (capped playout = draw)",
    },
    OptionSpec {
        name: "mobility",
        default: "true",
        allowed: "true false",
        help: "initialise proof numbers by mobility",
    },
    OptionSpec {
        name: "im",
        default: "0",
        allowed: "0..1",
        help: "implicit minimax weight alpha (0 = off)",
    },
    OptionSpec {
        name: "policy",
        default: "random",
        allowed: "random ipp",
        help: "playout policy (ipp: decisive/anti-decisive moves, captures preferred)",
    },
    OptionSpec {
        name: "ege",
        default: "0",
        allowed: "0..1",
        help: "epsilon-greedy playouts on the evaluation (0 = off)",
    },
    OptionSpec {
        name: "fet",
        default: "0",
        allowed: "0..100000",
        help: "fixed early termination after x playout plies (0 = off)",
    },
    OptionSpec {
        name: "det",
        default: "0",
        allowed: "0..1",
        help: "dynamic early termination threshold (0 = off)",
    },
    OptionSpec {
        name: "pb",
        default: "0",
        allowed: "0..100",
        help: "progressive bias weight on the minimax value (0 = off)",
    },
    OptionSpec {
        name: "np",
        default: "0",
        allowed: "0..100000",
        help: "node priors: virtual visits at the evaluation for a new node (0 = off)",
    },
    OptionSpec {
        name: "seed",
        default: "1",
        allowed: "0..18446744073709551615",
        help: "random seed",
    },
    OptionSpec {
        name: "hash",
        default: "256",
        allowed: "1..1048576",
        help: "tree memory in MiB",
    },
    OptionSpec {
        name: "threads",
        default: "1",
        allowed: "1..256",
        help: "search threads on one shared tree (1 = deterministic per seed)",
    },
];

/// The most search threads an option accepts.
pub const MAX_THREADS: usize = 256;

/// A rejected option or value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError(pub String);

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParamError {}

fn number<T: std::str::FromStr + PartialOrd + fmt::Display>(
    name: &str,
    value: &str,
    min: T,
    max: T,
) -> Result<T, ParamError> {
    let v: T = value
        .trim()
        .parse()
        .map_err(|_| ParamError(format!("{name}: '{value}' is not a number")))?;
    // Written so that NaN, which compares false with everything, is refused too.
    if !(v >= min && v <= max) {
        return Err(ParamError(format!(
            "{name}: '{value}' is outside {min}..{max}"
        )));
    }
    Ok(v)
}

fn boolean(name: &str, value: &str) -> Result<bool, ParamError> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "1" | "on" | "yes" => Ok(true),
        "false" | "0" | "off" | "no" => Ok(false),
        _ => Err(ParamError(format!(
            "{name}: '{value}' is not true or false"
        ))),
    }
}

impl SearchParams {
    /// Sets one option by name (names are case-insensitive; `-` and `_` are interchangeable).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
        let key = name.trim().to_ascii_lowercase().replace('-', "_");
        let value = value.trim();
        match key.as_str() {
            "algorithm" | "algo" => {
                self.algorithm = Algorithm::ALL
                    .into_iter()
                    .find(|a| a.name().eq_ignore_ascii_case(value))
                    .ok_or_else(|| {
                        ParamError(format!(
                            "algorithm: '{value}' is not one of uct sb-uct gpn sb-gpn pn-mcts"
                        ))
                    })?
            }
            "bias" => {
                self.bias = match value.to_ascii_lowercase().as_str() {
                    "rank" | "pnrank" => Bias::Rank,
                    "max" | "pnmax" => Bias::Max,
                    "sum" | "pnsum" => Bias::Sum,
                    _ => {
                        return Err(ParamError(format!(
                            "bias: '{value}' is not rank, max or sum"
                        )))
                    }
                }
            }
            "c" => self.c = number("c", value, 0.0, 100.0)?,
            "c_pn" | "cpn" => self.c_pn = number("c_pn", value, 0.0, 1000.0)?,
            "pn_decay" | "decay" => self.pn_decay = number("pn_decay", value, 0, 100_000_000)?,
            "pn_explore" => self.pn_explore = boolean("pn_explore", value)?,
            "playout_cap" => self.playout_cap = number("playout_cap", value, 1, 100_000)?,
            "mobility" => self.mobility_init = boolean("mobility", value)?,
            "draw_layer" | "l2" => self.draw_layer = boolean("draw_layer", value)?,
            "contempt" => self.contempt = number("contempt", value, -100.0, 100.0)?,
            "seed" => self.seed = number("seed", value, 0, u64::MAX)?,
            "hash" => self.hash_mb = number("hash", value, 1, 1 << 20)?,
            "threads" => self.threads = number("threads", value, 1, MAX_THREADS)?,
            "pn_flags" | "flags" => self.pn_flags = PnFlags::parse(value)?,
            "im" | "alpha" => self.im = number("im", value, 0.0, 1.0)?,
            "policy" | "playout" => {
                self.policy = match value.to_ascii_lowercase().as_str() {
                    "random" | "uniform" => Policy::Random,
                    "ipp" | "informed" => Policy::Informed,
                    _ => {
                        return Err(ParamError(format!(
                            "policy: '{value}' is not random or ipp"
                        )))
                    }
                }
            }
            "ege" => self.ege = number("ege", value, 0.0, 1.0)?,
            "fet" => self.fet = number("fet", value, 0, 100_000)?,
            "det" => self.det = number("det", value, 0.0, 1.0)?,
            "pb" => self.pb = number("pb", value, 0.0, 100.0)?,
            "np" | "priors" => self.np = number("np", value, 0, 100_000)?,
            "solver_visits" | "t" => {
                self.solver_visits = number("solver_visits", value, 0, u32::MAX)?
            }
            _ => return Err(ParamError(format!("unknown search option '{name}'"))),
        }
        Ok(())
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
        format!(
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
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_round_trips() {
        let p = SearchParams::parse(
            "gpn bias=max c_pn=2.5 pn_decay=300 pn_explore=true c=0.7 playout_cap=50 seed=9 hash=8 threads=3 im=0.4 policy=ipp ege=0.1 \
             fet=4 det=0.5 pb=2 np=10",
        )
        .unwrap();
        assert_eq!((p.np, p.pn_decay), (10, 300));
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

    #[test]
    fn every_option_in_the_table_is_settable_with_its_default() {
        for opt in OPTIONS {
            let mut p = SearchParams::default();
            p.set(opt.name, opt.default)
                .unwrap_or_else(|e| panic!("{}: {e}", opt.name));
        }
    }
}
