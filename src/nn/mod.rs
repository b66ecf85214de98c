//! Small learned networks: a multilayer perceptron over a game's binary input features, with a
//! win/draw/loss value head and a policy head over the game's moves.
//!
//! - [`Features`]: what a game exposes to a network (active input features from the side to
//!   move's view, a policy index per move, the board's symmetries).
//! - [`Network`]: the weights in one flat vector, the fast forward pass the search calls, and the
//!   versioned binary file format.
//! - [`NetworkFile`]: a loaded network shared by searches and threads.
//! - [`QuantNetwork`] (module `quant`): the value path in int16 fixed point with integer dot
//!   products; [`Accumulator`] (module `accumulator`): its first layer kept incrementally from
//!   a position to the next (NNUE style), with [`FeatureDiff`] finding what a move changed.
//! - [`builtin`]: the networks embedded in the binary (`network=builtin`).
//! - [`data`]: training positions on disk (versioned, append-only, resumable).
//! - [`train`]: Adam on mini-batches, a plain dense forward and backward pass of its own (so a
//!   test can hold the search's forward pass against it).
//!
//! The first layer takes sparse binary features: its pre-activations are a sum of weight rows,
//! one per active feature (as NNUE accumulators and Monty's value nets do), so a Connect Four
//! position of 20 stones costs 20 row additions of the hidden width, far less than a playout.

mod accumulator;
pub mod builtin;
pub mod data;
mod file;
mod net;
pub mod pcn;
mod quant;
pub mod sample;
pub mod train;

pub use crate::game::{square_symmetry, Features};
pub use accumulator::{Accumulator, FeatureDiff};
pub use file::{NetworkFile, BUILTIN};
pub use net::{Network, NetworkError, Scratch, Shape, Wdl};
pub use quant::{QuantNetwork, QuantScratch, UNBOUNDED_TOLERANCE, VALUE_TOLERANCE};
