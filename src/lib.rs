//! gpn: a game-playing engine for many board games, built on proof-number-biased MCTS.

pub mod arena;
pub mod bench;
pub mod cli;
pub mod game;
pub mod rng;
pub mod search;
