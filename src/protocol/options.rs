//! The engine options of the UCI-family protocols: one table with names, types, defaults and
//! ranges, from which `option` lines are written and `setoption` is applied.

use crate::game::registry::GAMES;

/// What an option sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Variant,
    Hash,
    Ponder,
    MoveOverhead,
    MultiPv,
    ShowWdl,
    /// The solver of `go mate` and `gpn-solve`.
    Solver,
    /// A search parameter, by its name in [`crate::search::params::OPTIONS`].
    Param(&'static str),
}

/// The type of an option as UCI writes it.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Check,
    Spin {
        min: i64,
        max: i64,
    },
    /// A choice among `vars`; the variant combo lists the games instead.
    Combo {
        vars: &'static [&'static str],
    },
    /// Free text (used for real numbers, as lc0 does).
    Text,
}

/// One option.
#[derive(Clone, Copy, Debug)]
pub struct EngineOption {
    /// The UCI name; USI gets it without spaces, with `USI_` where USI has a standard name.
    pub uci: &'static str,
    pub usi: &'static str,
    pub kind: Kind,
    pub default: &'static str,
    pub target: Target,
}

/// Every option, in the order `uci` lists them.
pub static ENGINE_OPTIONS: &[EngineOption] = &[
    EngineOption {
        uci: "UCI_Variant",
        usi: "USI_Variant",
        kind: Kind::Combo { vars: &[] },
        default: "breakthrough",
        target: Target::Variant,
    },
    EngineOption {
        uci: "Hash",
        usi: "USI_Hash",
        kind: Kind::Spin { min: 1, max: 65536 },
        default: "256",
        target: Target::Hash,
    },
    EngineOption {
        uci: "Threads",
        usi: "Threads",
        kind: Kind::Spin { min: 1, max: 256 },
        default: "1",
        target: Target::Param("threads"),
    },
    EngineOption {
        uci: "Ponder",
        usi: "USI_Ponder",
        kind: Kind::Check,
        default: "false",
        target: Target::Ponder,
    },
    EngineOption {
        uci: "Move Overhead",
        usi: "MoveOverhead",
        kind: Kind::Spin { min: 0, max: 10000 },
        default: "50",
        target: Target::MoveOverhead,
    },
    EngineOption {
        uci: "MultiPV",
        usi: "MultiPV",
        kind: Kind::Spin { min: 1, max: 256 },
        default: "1",
        target: Target::MultiPv,
    },
    EngineOption {
        uci: "UCI_ShowWDL",
        usi: "USI_ShowWDL",
        kind: Kind::Check,
        default: "false",
        target: Target::ShowWdl,
    },
    EngineOption {
        uci: "Solver",
        usi: "Solver",
        kind: Kind::Combo {
            vars: &["dfpn", "pns", "ppns", "mcpns", "sb-gpn"],
        },
        default: "dfpn",
        target: Target::Solver,
    },
    EngineOption {
        uci: "Algorithm",
        usi: "Algorithm",
        kind: Kind::Combo {
            vars: &["sb-gpn", "gpn", "sb-uct", "uct", "pn-mcts"],
        },
        default: "sb-gpn",
        target: Target::Param("algorithm"),
    },
    EngineOption {
        uci: "Bias",
        usi: "Bias",
        kind: Kind::Combo {
            vars: &["rank", "max", "sum"],
        },
        default: "rank",
        target: Target::Param("bias"),
    },
    EngineOption {
        uci: "C",
        usi: "C",
        kind: Kind::Text,
        default: "1.4142",
        target: Target::Param("c"),
    },
    EngineOption {
        uci: "C_pn",
        usi: "C_pn",
        kind: Kind::Text,
        default: "1",
        target: Target::Param("c_pn"),
    },
    EngineOption {
        uci: "PN Decay",
        usi: "PnDecay",
        kind: Kind::Spin {
            min: 0,
            max: 100_000_000,
        },
        default: "0",
        target: Target::Param("pn_decay"),
    },
    EngineOption {
        uci: "PN Explore",
        usi: "PnExplore",
        kind: Kind::Check,
        default: "false",
        target: Target::Param("pn_explore"),
    },
    EngineOption {
        uci: "Playout Cap",
        usi: "PlayoutCap",
        kind: Kind::Spin {
            min: 1,
            max: 100_000,
        },
        default: "200",
        target: Target::Param("playout_cap"),
    },
    EngineOption {
        uci: "Mobility Init",
        usi: "MobilityInit",
        kind: Kind::Check,
        default: "true",
        target: Target::Param("mobility"),
    },
    EngineOption {
        uci: "Implicit Minimax",
        usi: "ImplicitMinimax",
        kind: Kind::Text,
        default: "0",
        target: Target::Param("im"),
    },
    EngineOption {
        uci: "Playout Policy",
        usi: "PlayoutPolicy",
        kind: Kind::Combo {
            vars: &["random", "ipp"],
        },
        default: "random",
        target: Target::Param("policy"),
    },
    EngineOption {
        uci: "Playout Epsilon Greedy",
        usi: "PlayoutEpsilonGreedy",
        kind: Kind::Text,
        default: "0",
        target: Target::Param("ege"),
    },
    EngineOption {
        uci: "Playout Fixed Termination",
        usi: "PlayoutFixedTermination",
        kind: Kind::Spin {
            min: 0,
            max: 100_000,
        },
        default: "0",
        target: Target::Param("fet"),
    },
    EngineOption {
        uci: "Playout Dynamic Termination",
        usi: "PlayoutDynamicTermination",
        kind: Kind::Text,
        default: "0",
        target: Target::Param("det"),
    },
    EngineOption {
        uci: "Progressive Bias",
        usi: "ProgressiveBias",
        kind: Kind::Text,
        default: "0",
        target: Target::Param("pb"),
    },
    EngineOption {
        uci: "Node Priors",
        usi: "NodePriors",
        kind: Kind::Spin {
            min: 0,
            max: 100_000,
        },
        default: "0",
        target: Target::Param("np"),
    },
    EngineOption {
        uci: "Seed",
        usi: "Seed",
        kind: Kind::Spin {
            min: 0,
            max: 2_147_483_647,
        },
        default: "1",
        target: Target::Param("seed"),
    },
];

/// The `option` lines of the handshake (`usi`: USI names).
pub fn option_lines(usi: bool) -> Vec<String> {
    ENGINE_OPTIONS
        .iter()
        .map(|o| {
            let name = if usi { o.usi } else { o.uci };
            match o.kind {
                Kind::Check => format!("option name {name} type check default {}", o.default),
                Kind::Spin { min, max } => format!(
                    "option name {name} type spin default {} min {min} max {max}",
                    o.default
                ),
                Kind::Combo { vars } => {
                    // USI starts in minishogi, its one shogi game.
                    let default = if usi && o.target == Target::Variant {
                        "minishogi"
                    } else {
                        o.default
                    };
                    let mut line = format!("option name {name} type combo default {default}");
                    if o.target == Target::Variant {
                        for g in GAMES {
                            line.push_str(" var ");
                            line.push_str(g.name);
                        }
                    } else {
                        for v in vars {
                            line.push_str(" var ");
                            line.push_str(v);
                        }
                    }
                    line
                }
                Kind::Text => format!("option name {name} type string default {}", o.default),
            }
        })
        .collect()
}

/// The option called `name` (case-insensitive; UCI or USI name, and spaces optional).
pub fn find(name: &str) -> Option<&'static EngineOption> {
    let key = |s: &str| s.replace(' ', "").to_ascii_lowercase();
    let k = key(name);
    ENGINE_OPTIONS
        .iter()
        .find(|o| key(o.uci) == k || key(o.usi) == k)
}

/// Checks `value` against the option's type; returns the normalised value.
pub fn check_value(option: &EngineOption, value: &str) -> Result<String, String> {
    let v = value.trim();
    match option.kind {
        Kind::Check => match v.to_ascii_lowercase().as_str() {
            "true" | "false" => Ok(v.to_ascii_lowercase()),
            _ => Err(format!("{}: '{v}' is not true or false", option.uci)),
        },
        Kind::Spin { min, max } => match v.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n.to_string()),
            Ok(n) => Err(format!("{}: {n} is outside {min}..{max}", option.uci)),
            Err(_) => Err(format!("{}: '{v}' is not an integer", option.uci)),
        },
        Kind::Combo { vars } if !vars.is_empty() => vars
            .iter()
            .find(|var| var.eq_ignore_ascii_case(v))
            .map(|var| var.to_string())
            .ok_or_else(|| format!("{}: '{v}' is not one of {}", option.uci, vars.join(", "))),
        Kind::Combo { .. } | Kind::Text => {
            if v.is_empty() {
                Err(format!("{}: a value is needed", option.uci))
            } else {
                Ok(v.to_string())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::SearchParams;

    #[test]
    fn every_default_is_accepted_and_names_are_unique() {
        for o in ENGINE_OPTIONS {
            check_value(o, o.default).unwrap_or_else(|e| panic!("{e}"));
            assert!(!o.usi.contains(' '), "USI names have no spaces: {}", o.usi);
            assert!(std::ptr::eq(find(o.uci).unwrap(), o));
            assert!(std::ptr::eq(find(o.usi).unwrap(), o));
            if let Target::Param(p) = o.target {
                let mut params = SearchParams::default();
                params.set(p, o.default).unwrap();
            }
        }
        assert!(find("move overhead").is_some() && find("MOVEOVERHEAD").is_some());
    }

    #[test]
    fn combo_values_must_be_listed() {
        let solver = find("Solver").unwrap();
        assert_eq!(check_value(solver, "PNS").unwrap(), "pns");
        assert!(check_value(solver, "alpha-beta").is_err());
        for algo in crate::solve::Algo::ALL {
            assert!(check_value(solver, algo.name()).is_ok());
        }
    }

    #[test]
    fn the_variant_combo_lists_every_game() {
        let line = &option_lines(false)[0];
        for g in GAMES {
            assert!(line.contains(&format!(" var {}", g.name)), "{line}");
        }
    }
}
