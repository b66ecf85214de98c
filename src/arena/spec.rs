//! Agent specs: the text that names an agent (`random`, `default [key=value ...]`, or a search
//! algorithm with options), read into an [`AgentSpec`], checked against a game, and turned into
//! the factory that builds the agent for each game of a match.

use super::agents::RandomAgent;
use super::search_agent::SearchAgent;
use super::AgentFactory;
use crate::game::Game;
use crate::search::SearchParams;

/// An agent as a spec names it (`gpn match --engine1`, `gpn selfplay --engine`, `gpn learn`).
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSpec {
    /// Uniformly random legal moves ([`RandomAgent`]).
    Random,
    /// The search with these parameters ([`SearchAgent`]).
    Search(SearchParams),
    /// The search with the game's row of the defaults table, then these options
    /// (`default [key=value ...]`).
    Defaults(String),
}

/// Reads an agent spec: a kind followed by optional space-separated `key=value` options (one
/// quoted argument, e.g. `"sb-gpn c_pn=1 bias=rank"`). This and [`agent_factory`] are the one
/// place where agent kinds are added.
pub fn parse_agent_spec(text: &str) -> Result<AgentSpec, String> {
    let mut tokens = text.split_whitespace();
    let kind = tokens
        .next()
        .ok_or("an empty spec (give an algorithm, e.g. sb-gpn, default or random)")?;
    let mut options: Vec<(&str, &str)> = Vec::new();
    for token in tokens {
        match token.split_once('=') {
            Some((key, value)) if !key.is_empty() && !value.is_empty() => {
                options.push((key, value))
            }
            _ => return Err(format!("agent option '{token}' is not key=value")),
        }
    }
    match kind.to_ascii_lowercase().as_str() {
        "random" => match options.first() {
            Some((key, _)) => Err(format!("agent 'random' has no option '{key}'")),
            None => Ok(AgentSpec::Random),
        },
        "default" => {
            let extra = text.trim_start()[kind.len()..].trim().to_string();
            let mut check = SearchParams::default();
            check
                .apply_spec(&extra)
                .map_err(|e| format!("agent '{text}': {e}"))?;
            Ok(AgentSpec::Defaults(extra))
        }
        _ => SearchParams::parse(text).map(AgentSpec::Search).map_err(|e| {
            format!("agent '{text}': {e} (agents: random, default, or uct / sb-uct / gpn / sb-gpn / pn-mcts with key=value options)")
        }),
    }
}

/// Whether `spec` can play `G`: a network in it must be one of `G`'s encoding.
pub fn check_agent<G: Game>(spec: &AgentSpec) -> Result<(), String> {
    match spec.params_for(G::INFO.name)? {
        None => Ok(()),
        Some(params) => params.check_network_for::<G>().map_err(|e| e.to_string()),
    }
}

impl AgentSpec {
    /// The search parameters this agent plays `game` with: the spec's own, or the game's row of
    /// the defaults table with the spec's options on top; `None` for the random agent.
    pub fn params_for(&self, game: &str) -> Result<Option<SearchParams>, String> {
        match self {
            AgentSpec::Random => Ok(None),
            AgentSpec::Search(params) => Ok(Some(params.clone())),
            AgentSpec::Defaults(extra) => {
                let mut params = SearchParams::for_game(game);
                params
                    .apply_spec(extra)
                    .map_err(|e| format!("default {extra} in {game}: {e}"))?;
                Ok(Some(params))
            }
        }
    }

    /// The same agent searching with `threads` threads (the random agent stays as it is).
    pub fn with_threads(&self, threads: usize) -> AgentSpec {
        match self {
            AgentSpec::Random => AgentSpec::Random,
            AgentSpec::Search(params) => AgentSpec::Search(SearchParams {
                threads,
                ..params.clone()
            }),
            AgentSpec::Defaults(extra) => {
                AgentSpec::Defaults(format!("{extra} threads={threads}").trim().to_string())
            }
        }
    }
}

/// The factory that builds `spec`'s agent for each game of `G`, a game of `P` players.
pub fn agent_factory<G: Game, const P: usize>(spec: &AgentSpec) -> Box<AgentFactory<G>> {
    let params = match spec.params_for(G::INFO.name) {
        Ok(None) => return Box::new(|seed| Box::new(RandomAgent::new(seed))),
        Ok(Some(params)) => params,
        Err(e) => {
            // Checked by `parse_agent_spec`.
            log::warn!("agent {e}");
            SearchParams::for_game(G::INFO.name)
        }
    };
    Box::new(move |seed| Box::new(SearchAgent::<G, P>::new(&params, seed)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_specs() {
        assert_eq!(parse_agent_spec("random"), Ok(AgentSpec::Random));
        assert_eq!(parse_agent_spec("  Random "), Ok(AgentSpec::Random));
        assert!(parse_agent_spec("").unwrap_err().contains("empty"));
        assert_eq!(
            parse_agent_spec(" default  c_pn=0.5"),
            Ok(AgentSpec::Defaults("c_pn=0.5".into()))
        );
        assert_eq!(
            parse_agent_spec("default"),
            Ok(AgentSpec::Defaults("".into()))
        );
        assert!(parse_agent_spec("default frob=1")
            .unwrap_err()
            .contains("unknown search option"));
        let err = parse_agent_spec("alphazero").unwrap_err();
        assert!(
            err.contains("agent 'alphazero'") && err.contains("algorithm"),
            "{err}"
        );
        assert_eq!(
            parse_agent_spec("sb-gpn c_pn=2 bias=max"),
            Ok(AgentSpec::Search(
                SearchParams::parse("sb-gpn c_pn=2 bias=max").unwrap()
            ))
        );
        assert!(parse_agent_spec("gpn c_pn=x").unwrap_err().contains("c_pn"));
        assert!(parse_agent_spec("random seed=3")
            .unwrap_err()
            .contains("no option 'seed'"));
        assert!(parse_agent_spec("random c_pn")
            .unwrap_err()
            .contains("not key=value"));
    }
}
