//! A match's output files: created before the match, and a games file resumed after a kill.

use std::fs::{File, OpenOptions};
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use super::{seats, GameRecord};

/// Why an output file could not be used.
#[derive(Debug, PartialEq)]
pub enum GamesFileError {
    /// It could not be read or written (the message names it).
    Io(String),
    /// It is not a games file of this program (the message names it and the line).
    Bad(String),
}

/// Creates an output file before the match starts, so a bad path fails at once.
pub fn create(path: &Option<PathBuf>) -> Result<Option<BufWriter<File>>, GamesFileError> {
    path.as_ref()
        .map(|p| {
            File::create(p)
                .map(BufWriter::new)
                .map_err(|e| GamesFileError::Io(format!("cannot write '{}': {e}", p.display())))
        })
        .transpose()
}

/// A games file's text to resume from (empty when it does not exist yet).
fn read_games_file(path: &Path) -> Result<String, GamesFileError> {
    crate::files::read_text_or_empty(path, crate::files::RECORDS_LIMIT)
        .map_err(|e| GamesFileError::Io(format!("cannot read '{}': {e}", path.display())))
}

/// Opens a games file of `len` bytes to append after its first `keep` (the finished games; a
/// half-written last line after them is cut off).
fn append_after(path: &Path, keep: u64, len: u64) -> Result<File, GamesFileError> {
    let cannot =
        |e: std::io::Error| GamesFileError::Io(format!("cannot write '{}': {e}", path.display()));
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(cannot)?;
    if keep < len {
        file.set_len(keep).map_err(cannot)?;
    }
    Ok(file)
}

/// Opens a games file to append to it, after the finished games of run `run` it already holds
/// (a half-written last line is cut off, and its game played again): returns the writer and
/// those games. A two-player file is read as `gpn merge` reads it (every line must be of this
/// run); a larger table's lines of other runs are kept and ignored.
pub fn resume(
    path: &Path,
    run: &str,
    players: usize,
) -> Result<(BufWriter<File>, Vec<GameRecord>), GamesFileError> {
    let name = path.display().to_string();
    let text = read_games_file(path)?;
    let (previous, keep) = if players == 2 {
        super::merge::finished_games(&name, &text, run).map_err(GamesFileError::Bad)?
    } else {
        seat_lines(&name, &text, run)?
    };
    let file = append_after(path, keep, text.len() as u64)?;
    Ok((BufWriter::new(file), previous))
}

/// The finished games of run `run` in a larger table's games file, and the bytes to keep.
fn seat_lines(name: &str, text: &str, run: &str) -> Result<(Vec<GameRecord>, u64), GamesFileError> {
    let mut previous = Vec::new();
    let mut keep = 0u64;
    let mut offset = 0usize;
    for (number, line) in text.split_inclusive('\n').enumerate() {
        offset += line.len();
        if !line.ends_with('\n') {
            break;
        }
        match seats::read_json_line(line.trim_end(), run) {
            Ok(record) => {
                previous.extend(record);
                keep = offset as u64;
            }
            Err(e) => {
                return Err(GamesFileError::Bad(format!(
                    "'{name}' line {}: {e} (not a games file of gpn match)",
                    number + 1
                )))
            }
        }
    }
    Ok((previous, keep))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_games_file_resumes_empty() {
        let dir = std::env::temp_dir().join(format!("gpn-games-file-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join("multi.jsonl");
        let _ = std::fs::remove_file(&path);
        for players in [2, 3] {
            let _ = std::fs::remove_file(&path);
            let (_, previous) = resume(&path, "run", players).unwrap();
            assert!(previous.is_empty());
            std::fs::write(&path, "not json\n").unwrap();
            assert!(matches!(
                resume(&path, "run", players),
                Err(GamesFileError::Bad(_))
            ));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
