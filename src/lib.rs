//! gpn: a game-playing engine for many board games, built on proof-number-biased MCTS.

pub mod arena;
pub mod bench;
pub mod calendar;
pub mod cli;
pub mod engine;
pub mod files;
pub mod game;
/// Learning from self-play: self-play games, network training and the generations loop.
pub mod learn;
pub mod machine;
pub mod nn;
pub mod options;
pub mod protocol;
pub mod rng;
pub mod search;
pub mod solve;
pub mod tune;
