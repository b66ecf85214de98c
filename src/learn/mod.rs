//! Learning from self-play: the games, the training of a network, and the loop of generations;
//! and learning from a stronger engine: positions labelled by a UCI engine ([`crate::learn::label`]).
//!
//! Each entry point ([`crate::learn::selfplay::play`], [`crate::learn::train::train`],
//! [`crate::learn::generations::run`]) takes a plain
//! config, a [`crate::arena::StopFlag`] (raised by Ctrl-C in the command line: the run stops cleanly and keeps
//! what it finished) and a progress callback. The library never prints: what the command line
//! shows as a run goes comes through the callback as [`crate::learn::Progress`], whose `Display` is the line
//! shown, and the result comes back typed. The callback's error (stdout closed by its reader)
//! ends the run as [`crate::learn::Error::Output`].

pub mod generations;
pub mod label;
pub mod selfplay;
pub mod train;
pub mod uci;

use std::fmt;
use std::io;
use std::path::PathBuf;

pub use crate::arena::StopFlag;
use crate::game::{Game, GameError};

pub use generations::{Generation, LearnConfig, LearnReport};
pub use label::{LabelConfig, LabelReport, LabelledGame, TeacherLimit};
pub use selfplay::{GameSummary, SelfplayConfig, SelfplayReport};
pub use train::{EpochReport, Measurement, TestPosition, TestPositions, TrainConfig, Trained};

/// The progress callback: shows one [`Progress`] event; an error ends the run.
pub type OnProgress<'a> = dyn FnMut(Progress) -> io::Result<()> + 'a;

/// An event of a run, in the order it happens. Notes ([`Progress::is_note`]) are asides for the
/// user (the command line's stderr); the other events are lines of the run's report (stdout).
#[derive(Clone, Debug)]
pub enum Progress {
    /// Self-play wrote a game to its file (a note).
    GameWritten(GameSummary),
    /// Labelling wrote a game's labelled positions to its file (a note).
    Labelled(label::LabelledGame),
    /// Self-play (or labelling) was stopped in game `number`, which is dropped: a rerun plays
    /// it (a note).
    GameDropped { number: u32 },
    /// Training left out the incomplete last game of a sample file (a note).
    IncompleteFile(PathBuf),
    /// Training read its data and built its network.
    TrainingStarted(train::Started),
    /// A training of 0 epochs measured its initial network.
    Measured(Measurement),
    /// Training finished an epoch and wrote the network.
    Epoch(EpochReport),
    /// Training was stopped; `out` holds the last finished epoch (a note).
    TrainingStopped { out: PathBuf },
    /// The loop found `done` generations in its log `log` and goes on after them (a note).
    Resuming { log: PathBuf, done: usize },
    /// The loop trained generation `generation`'s network; `last` is its last epoch (a note).
    Trained { generation: u32, last: EpochReport },
    /// The loop finished a generation and logged it.
    GenerationDone(Generation),
    /// The loop was stopped in `generation`; a rerun in `dir` redoes it (a note).
    GenerationStopped { generation: u32, dir: PathBuf },
}

impl Progress {
    /// Whether the event is an aside for the user rather than a line of the run's report.
    pub fn is_note(&self) -> bool {
        matches!(
            self,
            Progress::GameWritten(_)
                | Progress::Labelled(_)
                | Progress::GameDropped { .. }
                | Progress::IncompleteFile(_)
                | Progress::TrainingStopped { .. }
                | Progress::Resuming { .. }
                | Progress::Trained { .. }
                | Progress::GenerationStopped { .. }
        )
    }
}

impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Progress::GameWritten(game) => write!(f, "{game}"),
            Progress::Labelled(game) => write!(f, "{game}"),
            Progress::GameDropped { number } => write!(
                f,
                "interrupted: game {number} dropped, the file holds every finished game"
            ),
            Progress::IncompleteFile(path) => write!(
                f,
                "{}: an incomplete last game was left out",
                path.display()
            ),
            Progress::TrainingStarted(started) => write!(f, "{started}"),
            Progress::Measured(measured) => write!(f, "{measured}"),
            Progress::Epoch(epoch) => write!(f, "{epoch}"),
            Progress::TrainingStopped { out } => write!(
                f,
                "interrupted: {} holds the last finished epoch",
                out.display()
            ),
            Progress::Resuming { log, done } => write!(
                f,
                "{}: generations 1 to {done} done, going on",
                log.display()
            ),
            Progress::Trained { generation, last } => write!(f, "generation {generation}: {last}"),
            Progress::GenerationDone(generation) => write!(f, "{generation}"),
            Progress::GenerationStopped { generation, dir } => write!(
                f,
                "interrupted: generation {generation} is redone by a rerun with --dir {} (its self-play resumed)",
                dir.display()
            ),
        }
    }
}

/// Why a run failed.
#[derive(Debug)]
pub enum Error {
    /// Settings or data that do not fit (the command line reports them as usage errors).
    Invalid(String),
    /// An unknown game or a bad position.
    Game(GameError),
    /// A file could not be read or written: which, and why.
    Io(String),
    /// The progress callback failed (stdout closed by its reader, say).
    Output(io::Error),
    /// The stop flag was raised before the run had a result to report.
    Stopped,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Invalid(m) | Error::Io(m) => write!(f, "{m}"),
            Error::Game(e) => write!(f, "{e}"),
            Error::Output(e) => write!(f, "cannot write output: {e}"),
            Error::Stopped => write!(f, "stopped"),
        }
    }
}

impl std::error::Error for Error {}

impl From<GameError> for Error {
    fn from(e: GameError) -> Self {
        Error::Game(e)
    }
}

/// Refuses a game without a network encoding ([`crate::game::Features`]): nothing here can
/// learn it.
pub fn require_encoding<G: Game>() -> Result<(), Error> {
    if G::INPUTS == 0 {
        return Err(Error::Invalid(format!(
            "{} has no network encoding yet (games with one: {})",
            G::INFO.name,
            crate::game::registry::network_games()
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(())
}
