//! The per-game default search settings (one table, chosen by measurement) and the options a
//! user set over them.
//!
//! The table is data keyed by the registry's game names; the search itself never reads it. Each
//! row is a spec applied over [`SearchParams::default`]; `experiments/defaults.md` has the
//! matches that chose every row and the rule they must meet (at least 50 % against `sb-uct`, and
//! against `sb-uct` with the same knowledge, at 2,000 iterations, 100 ms and 1 s per move).

use super::params::{ParamError, SearchParams};

/// One game's default settings.
#[derive(Clone, Copy, Debug)]
pub struct GameDefaults {
    /// The registered game name.
    pub game: &'static str,
    /// Options applied over the generic defaults (`name=value`, space-separated).
    pub spec: &'static str,
}

/// Every game's defaults. A game without a row plays the generic defaults.
/// Every game's defaults, in the registry's order (a game without a row would play the generic
/// defaults). `experiments/defaults.md` has the measurements behind each row.
pub const GAME_DEFAULTS: &[GameDefaults] = &[
    // Any lasting bias loses with the budget (constant 2 %, on exploration 39 % at 100 ms): the
    // bias only guides a child's first visits. The embedded network (docs/learned.md) wins
    // against the same row without it at equal time.
    GameDefaults {
        game: "breakthrough",
        spec: "pn_explore=true pn_decay=10 network=builtin",
    },
    // as breakthrough
    GameDefaults {
        game: "breakthrough7x7",
        spec: "pn_explore=true pn_decay=10",
    },
    // as breakthrough
    GameDefaults {
        game: "breakthrough6x6",
        spec: "pn_explore=true pn_decay=10",
    },
    // As breakthrough (constant 5 %, on exploration 13 % at 100 ms).
    GameDefaults {
        game: "knightthrough",
        spec: "pn_explore=true pn_decay=10",
    },
    // proof numbers reward forcing moves; every strong bias loses. The embedded network scores
    // 72 % against the row without it at 100 ms a move (docs/learned.md).
    GameDefaults {
        game: "cfour",
        spec: "c=1 c_pn=0.1 pn_decay=10 network=builtin",
    },
    // The papers' best reversi cell: a constant sum-bias that keeps its lead at 100 ms (86 %),
    // where the bias on exploration falls to 48 %.
    // With the embedded network (docs/learned.md): 99 % against the same row without it at
    // 50 ms a move.
    GameDefaults {
        game: "reversi",
        spec: "bias=sum c_pn=2 network=builtin",
    },
    // the papers' constant bias: 96 % at 2,000 iterations
    GameDefaults {
        game: "loa",
        spec: "",
    },
    // the papers' constant bias: 90.5 % at 2,000 iterations
    GameDefaults {
        game: "loa7",
        spec: "",
    },
    GameDefaults {
        game: "awari",
        spec: "pn_explore=true",
    },
    GameDefaults {
        game: "kalah",
        spec: "pn_explore=true",
    },
    // the constant bias scores 28 % at 2,000 iterations; with the embedded network the row wins
    // 200-0 against itself without it at 50 ms a move (docs/learned.md); the threat search
    // (mates in one) 64.5 % against the row without it at 100 ms a move
    // (experiments/threats.md); the quiescence step 54.5 % against the row without it over
    // 400 games at 100 ms a move (experiments/quiescence.md)
    GameDefaults {
        game: "minishogi",
        spec: "pn_explore=true network=builtin threats=1 quiescence=2",
    },
    // Threat sequences make proof numbers informative: the constant bias 57.5 % at 2,000
    // iterations, on exploration 45 % (freestyle: 48.5 % and 46.5 %).
    GameDefaults {
        game: "gomoku",
        spec: "",
    },
    GameDefaults {
        game: "gomokufreestyle",
        spec: "",
    },
    GameDefaults {
        game: "surakarta",
        spec: "pn_explore=true",
    },
    // the constant bias scores 42.5 % at 2,000 iterations; with the embedded network the row
    // scores 97 % against itself without it at 50 ms a move (docs/learned.md)
    // The threat search (mates in one) 57.5 % against the row without it at 100 ms a move
    // (experiments/threats.md).
    GameDefaults {
        game: "losalamos",
        spec: "pn_explore=true network=builtin threats=1",
    },
    GameDefaults {
        game: "reachchess",
        spec: "pn_explore=true",
    },
    GameDefaults {
        game: "skirmish",
        spec: "pn_explore=true",
    },
    // the papers' constant bias: 68 % at 2,000 iterations
    GameDefaults {
        game: "ataxx",
        spec: "",
    },
    // The proof-number bias loses in Go (25-45 % against sb-uct at 2,000 iterations, every
    // form); the playout knowledge wins 86.7 % and c=0.6 another 75 %; Go's priors with RAVE
    // win 91 % against that with c=0.2, and c=0 another 79 % (docs/go.md, "Knowledge in the
    // tree").
    GameDefaults {
        game: "go",
        spec: "algorithm=sb-uct policy=game c=0 prior=20 rave=3000",
    },
    // The other sizes take 9x9's row: measured on 9x9 only, but neither the bias's loss nor the
    // knowledge's gain there depends on the board's size (experiments/defaults.md).
    GameDefaults {
        game: "go5",
        spec: "algorithm=sb-uct policy=game c=0 prior=20 rave=3000",
    },
    GameDefaults {
        game: "go7",
        spec: "algorithm=sb-uct policy=game c=0 prior=20 rave=3000",
    },
    GameDefaults {
        game: "go13",
        spec: "algorithm=sb-uct policy=game c=0 prior=20 rave=3000",
    },
    GameDefaults {
        game: "go19",
        spec: "algorithm=sb-uct policy=game c=0 prior=20 rave=3000",
    },
];

/// The row of `game`, a registered name or alias ("" when the table has none).
pub fn defaults_spec(game: &str) -> &'static str {
    let Some(name) = crate::game::registry::canonical_name(game) else {
        return "";
    };
    GAME_DEFAULTS
        .iter()
        .find(|d| d.game == name)
        .map_or("", |d| d.spec)
}

impl SearchParams {
    /// The defaults for `game` (a registered name or alias): the generic defaults with its row.
    pub fn for_game(game: &str) -> SearchParams {
        let mut params = SearchParams::default();
        if let Err(e) = params.apply_spec(defaults_spec(game)) {
            // Unreachable while the table test passes; never abort an engine over it.
            log::error!("defaults table row of {game}: {e}");
            return SearchParams::default();
        }
        params
    }
}

/// The search options a user set explicitly, in order, kept apart from the game's defaults so
/// that a variant change starts from the new game's row and then re-applies them.
#[derive(Clone, Debug, Default)]
pub struct UserParams {
    /// (registry key, value); one entry per option, the last value set.
    set: Vec<(String, String)>,
}

impl UserParams {
    /// Records `name = value` after checking it on `current`; on error nothing changes.
    pub fn set(
        &mut self,
        current: &SearchParams,
        name: &str,
        value: &str,
    ) -> Result<(), ParamError> {
        current.clone().set(name, value)?;
        // One entry per option, whichever of its names (or its spin form) was used.
        let (key, value) = match crate::options::lookup_value(name, value) {
            Ok((o, v)) => (o.key.to_string(), v),
            Err(_) => (name.to_string(), value.to_string()),
        };
        self.set.retain(|(k, _)| *k != key);
        self.set.push((key, value.trim().to_string()));
        Ok(())
    }

    /// The parameters for `game`: its defaults with every option the user set.
    pub fn resolve(&self, game: &str) -> SearchParams {
        let mut params = SearchParams::for_game(game);
        for (name, value) in &self.set {
            // Checked when set; a value can only fail here if the table changed meanwhile.
            if let Err(e) = params.set(name, value) {
                log::warn!("option {name}: {e}");
            }
        }
        params
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::registry::canonical_name;

    #[test]
    fn every_row_names_a_game_once_and_parses() {
        for (i, row) in GAME_DEFAULTS.iter().enumerate() {
            assert_eq!(canonical_name(row.game), Some(row.game), "{}", row.game);
            assert!(
                GAME_DEFAULTS[..i].iter().all(|r| r.game != row.game),
                "{} twice",
                row.game
            );
            let mut p = SearchParams::default();
            p.apply_spec(row.spec)
                .unwrap_or_else(|e| panic!("{}: {e}", row.game));
            assert_eq!(SearchParams::for_game(row.game), p);
        }
        assert_eq!(
            SearchParams::for_game("no-such-game"),
            SearchParams::default()
        );
        // `--game connect4` gets cfour's row.
        assert_eq!(
            SearchParams::for_game("Connect4"),
            SearchParams::for_game("cfour")
        );
        assert_ne!(SearchParams::for_game("cfour"), SearchParams::default());
    }

    /// A row's network (`network=builtin`) is one the game has and can read.
    #[test]
    fn every_rows_network_fits_its_game() {
        struct Check(SearchParams);
        impl crate::game::registry::GameVisitor for Check {
            type Output = Result<(), ParamError>;
            fn visit<G: crate::game::Game>(self) -> Result<(), ParamError> {
                self.0.check_network_for::<G>()
            }
        }
        for row in GAME_DEFAULTS {
            let params = SearchParams::for_game(row.game);
            crate::game::registry::visit(row.game, Check(params))
                .unwrap()
                .unwrap_or_else(|e| panic!("{}: {e}", row.game));
        }
    }

    #[test]
    fn user_options_survive_a_game_change_and_bad_values_change_nothing() {
        let mut user = UserParams::default();
        let base = SearchParams::for_game("breakthrough");
        user.set(&base, "c_pn", "0.5").unwrap();
        user.set(&base, "C_PN", "0.25").unwrap();
        assert!(user.set(&base, "c_pn", "x").is_err());
        assert!(user.set(&base, "frob", "1").is_err());
        for game in ["breakthrough", "cfour", "reversi"] {
            let p = user.resolve(game);
            assert_eq!(p.c_pn, 0.25, "{game}");
            let mut expected = SearchParams::for_game(game);
            expected.c_pn = 0.25;
            assert_eq!(p, expected, "{game}");
        }
    }
}
