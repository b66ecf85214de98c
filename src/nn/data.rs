//! Training positions on disk: a compact, versioned, append-only binary format.
//!
//! A file is a header (magic `GPNS`, format version, game name) followed by records, one per
//! game (a labelled position alone is a game of one position), each complete in itself:
//!
//! | field | type |
//! |---|---|
//! | game number (self-play: its seed index) | u32 |
//! | positions | u16 |
//! | per position: result for the side to move (0 win, 1 draw, 2 loss) | u8 |
//! | per position: features, count then each index | u16, u16 x count |
//! | per position: policy, count then (policy index, probability x 65535) | u16, (u16, u16) x count |
//! | per position (version 2): 0, or 1 then the game's result for the side to move (0 win, 1 draw, 2 loss, 3 none), legal moves, moves the forcing rule leaves, a solver's proof size (0: none) | u8 [u8, u16, u16, u32] |
//! | per position (version 3): 0 (the result above is the value target), or 1 then a soft value target: win, draw, loss probabilities x 65535 | u8 [u16 x 3] |
//!
//! In version 3 the result byte of a position with a soft target is its most likely class
//! (readers of the hard result keep working); the soft target is what training uses. Version 1
//! and 2 files are still read and appended to in their own version, which cannot hold a soft
//! target: writing one there is refused rather than rounded to a result.
//!
//! all little-endian. Games are appended as they end, so a run that is stopped loses at most
//! the game it was writing: a reader drops an incomplete last record and says so, and a writer
//! reopening the file cuts it off before appending (resumable self-play). Whole games also let
//! training hold out games, not positions, for validation (positions of one game are alike).

use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;

use super::sample::{Episode, Sample};

const MAGIC: &[u8; 4] = b"GPNS";
/// The version new files get; versions 1 (no episodes) and 2 (no soft value targets) are
/// still read and appended to.
const VERSION: u32 = 3;

/// Whether `wdl` is a one-hot result (what the result byte alone stores).
fn is_one_hot(wdl: &[f32; 3]) -> bool {
    let ones = wdl.iter().filter(|&&p| p == 1.0).count();
    let zeros = wdl.iter().filter(|&&p| p == 0.0).count();
    ones == 1 && zeros == 2
}

/// One game's positions with their targets.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub number: u32,
    pub samples: Vec<Sample>,
}

/// What a file holds.
#[derive(Clone, Debug, PartialEq)]
pub struct SampleFile {
    pub game: String,
    pub games: Vec<GameRecord>,
    /// An incomplete last record was dropped (a writer was stopped in the middle of it).
    pub cut: bool,
}

/// Appends games of one game kind to a file.
pub struct SampleWriter {
    out: BufWriter<File>,
    /// Game numbers in the file, those found when it was opened included.
    numbers: Vec<u32>,
    /// The file's format version (an older file is appended to in its own).
    version: u32,
    /// Positions in the file, those found when it was opened included.
    positions: usize,
}

/// The header's bytes for `game`.
fn header(game: &str, version: u32) -> Vec<u8> {
    let mut h = Vec::new();
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&version.to_le_bytes());
    h.extend_from_slice(&(game.len() as u16).to_le_bytes());
    h.extend_from_slice(game.as_bytes());
    h
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

impl SampleWriter {
    /// Opens `path` for appending games of `game`: creates it with its header, or checks the
    /// header of an existing file and cuts off an incomplete last record.
    pub fn append(path: &Path, game: &str) -> io::Result<SampleWriter> {
        let exists = path.exists() && std::fs::metadata(path)?.len() > 0;
        let mut numbers = Vec::new();
        let mut positions = 0;
        let mut version = VERSION;
        if exists {
            let (file, complete_bytes, file_version) = read_with(path)?;
            version = file_version;
            if file.game != game {
                return Err(invalid(format!(
                    "{} holds {} positions, not {game}",
                    path.display(),
                    file.game
                )));
            }
            OpenOptions::new()
                .write(true)
                .open(path)?
                .set_len(complete_bytes)?;
            numbers = file.games.iter().map(|g| g.number).collect();
            positions = file.games.iter().map(|g| g.samples.len()).sum();
        } else {
            File::create(path)?.write_all(&header(game, VERSION))?;
        }
        let f = OpenOptions::new().append(true).open(path)?;
        Ok(SampleWriter {
            out: BufWriter::new(f),
            numbers,
            version,
            positions,
        })
    }

    /// Appends one game and writes it out. Probabilities are stored in steps of 1/65535.
    pub fn write(&mut self, record: &GameRecord) -> io::Result<()> {
        let mut rec = Vec::new();
        rec.extend_from_slice(&record.number.to_le_bytes());
        let n = u16::try_from(record.samples.len())
            .map_err(|_| invalid("more than 65535 positions in a game".into()))?;
        rec.extend_from_slice(&n.to_le_bytes());
        for s in &record.samples {
            let soft = !is_one_hot(&s.wdl);
            if soft && self.version < 3 {
                return Err(invalid(format!(
                    "a soft value target cannot be stored in a version {} sample file (a new \
                     file gets version {VERSION})",
                    self.version
                )));
            }
            let result = if s.wdl[0] >= s.wdl[1] && s.wdl[0] >= s.wdl[2] {
                0u8
            } else if s.wdl[1] >= s.wdl[2] {
                1
            } else {
                2
            };
            rec.push(result);
            let n =
                u16::try_from(s.features.len()).map_err(|_| invalid("too many features".into()))?;
            rec.extend_from_slice(&n.to_le_bytes());
            for f in &s.features {
                rec.extend_from_slice(&f.to_le_bytes());
            }
            let n = u16::try_from(s.policy.len()).map_err(|_| invalid("too many moves".into()))?;
            rec.extend_from_slice(&n.to_le_bytes());
            for &(p, q) in &s.policy {
                rec.extend_from_slice(&p.to_le_bytes());
                let q = (q.clamp(0.0, 1.0) * 65535.0).round() as u16;
                rec.extend_from_slice(&q.to_le_bytes());
            }
            if self.version >= 2 {
                match s.episode {
                    None => rec.push(0),
                    Some(e) => {
                        rec.push(1);
                        rec.push(e.outcome.min(3));
                        rec.extend_from_slice(&e.legal.to_le_bytes());
                        rec.extend_from_slice(&e.forced.to_le_bytes());
                        rec.extend_from_slice(&e.proof.to_le_bytes());
                    }
                }
            }
            if self.version >= 3 {
                if soft {
                    rec.push(1);
                    for p in s.wdl {
                        let q = (p.clamp(0.0, 1.0) * 65535.0).round() as u16;
                        rec.extend_from_slice(&q.to_le_bytes());
                    }
                } else {
                    rec.push(0);
                }
            }
        }
        self.out.write_all(&rec)?;
        self.out.flush()?;
        self.numbers.push(record.number);
        self.positions += record.samples.len();
        Ok(())
    }

    /// The numbers of the games in the file.
    pub fn numbers(&self) -> &[u32] {
        &self.numbers
    }

    /// The positions of the games in the file.
    pub fn positions(&self) -> usize {
        self.positions
    }
}

/// Reads every complete game of a file.
pub fn read_samples(path: &Path) -> io::Result<SampleFile> {
    Ok(read_with(path)?.0)
}

/// The file's games, the byte length of its complete part and its format version.
fn read_with(path: &Path) -> io::Result<(SampleFile, u64, u32)> {
    // Records are read one at a time, each bounded by its u16 counts: no cap on the length.
    let (file, len) = crate::files::open_regular(path, u64::MAX)?;
    let mut r = BufReader::new(file);
    let mut magic = [0u8; 4];
    r.read_exact(&mut magic)?;
    if &magic != MAGIC {
        return Err(invalid(format!(
            "{} is not a gpn sample file",
            path.display()
        )));
    }
    let version = u32::from_le_bytes(take(&mut r)?);
    if !(1..=VERSION).contains(&version) {
        return Err(invalid(format!(
            "{}: sample format version {version}, this gpn reads 1 to {VERSION}",
            path.display()
        )));
    }
    let n = u16::from_le_bytes(take(&mut r)?) as usize;
    let mut name = vec![0u8; n];
    r.read_exact(&mut name)?;
    let game = String::from_utf8(name).map_err(|_| invalid("game name not UTF-8".into()))?;
    let mut at = (4 + 4 + 2 + n) as u64;
    let mut games = Vec::new();
    loop {
        match read_record(&mut r, version) {
            Ok(Some((g, bytes))) => {
                games.push(g);
                at += bytes;
            }
            Ok(None) => break,
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => break,
            Err(e) => return Err(e),
        }
    }
    let file = SampleFile {
        game,
        games,
        cut: at < len,
    };
    Ok((file, at, version))
}

fn take<const N: usize>(r: &mut impl Read) -> io::Result<[u8; N]> {
    let mut b = [0u8; N];
    r.read_exact(&mut b)?;
    Ok(b)
}

/// One game record and its size in bytes; `None` at a clean end of file.
fn read_record(r: &mut impl Read, version: u32) -> io::Result<Option<(GameRecord, u64)>> {
    let mut first = [0u8; 4];
    if r.read(&mut first[..1])? == 0 {
        return Ok(None);
    }
    r.read_exact(&mut first[1..])?;
    let number = u32::from_le_bytes(first);
    let positions = u16::from_le_bytes(take(r)?) as usize;
    let mut bytes = 6u64;
    let mut samples = Vec::with_capacity(positions);
    for _ in 0..positions {
        let [result] = take::<1>(r)?;
        let mut wdl = [0.0f32; 3];
        match result {
            0..=2 => wdl[result as usize] = 1.0,
            _ => return Err(invalid(format!("result byte {result}"))),
        }
        let n = u16::from_le_bytes(take(r)?) as usize;
        let mut features = Vec::with_capacity(n);
        for _ in 0..n {
            features.push(u16::from_le_bytes(take(r)?));
        }
        let m = u16::from_le_bytes(take(r)?) as usize;
        let mut policy = Vec::with_capacity(m);
        for _ in 0..m {
            let p = u16::from_le_bytes(take(r)?);
            let q = u16::from_le_bytes(take(r)?) as f32 / 65535.0;
            policy.push((p, q));
        }
        bytes += 1 + 2 + 2 * n as u64 + 2 + 4 * m as u64;
        let mut episode = None;
        if version >= 2 {
            let [flag] = take::<1>(r)?;
            bytes += 1;
            match flag {
                0 => {}
                1 => {
                    let [outcome] = take::<1>(r)?;
                    let legal = u16::from_le_bytes(take(r)?);
                    let forced = u16::from_le_bytes(take(r)?);
                    let proof = u32::from_le_bytes(take(r)?);
                    if outcome > 3 {
                        return Err(invalid(format!("episode result byte {outcome}")));
                    }
                    episode = Some(Episode {
                        outcome,
                        legal,
                        forced,
                        proof,
                    });
                    bytes += 9;
                }
                _ => return Err(invalid(format!("episode flag byte {flag}"))),
            }
        }
        if version >= 3 {
            let [flag] = take::<1>(r)?;
            bytes += 1;
            match flag {
                0 => {}
                1 => {
                    let mut q = [0f32; 3];
                    for x in &mut q {
                        *x = f32::from(u16::from_le_bytes(take(r)?));
                    }
                    bytes += 6;
                    let sum: f32 = q.iter().sum();
                    if sum <= 0.0 {
                        return Err(invalid("a soft value target of zeros".into()));
                    }
                    // Rounding to steps of 1/65535 may leave the sum a step off 1.
                    wdl = q.map(|x| x / sum);
                }
                _ => return Err(invalid(format!("soft value flag byte {flag}"))),
            }
        }
        samples.push(Sample {
            features,
            wdl,
            policy,
            episode,
            cost: None,
        });
    }
    Ok(Some((GameRecord { number, samples }, bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A soft value target exact in steps of 1/65535 (its steps sum to 65535).
    const SOFT: [f32; 3] = [30000.0 / 65535.0, 20000.0 / 65535.0, 15535.0 / 65535.0];

    fn sample(i: u16) -> Sample {
        Sample {
            features: (0..i % 7).map(|k| k * 3 + i).collect(),
            wdl: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], SOFT][i as usize % 4],
            // 0 and 1 are exact in steps of 1/65535.
            policy: vec![(i % 5, 0.0), (i % 5 + 1, 1.0)],
            episode: (i % 2 == 1).then_some(Episode {
                outcome: (i % 4) as u8,
                legal: 200 + i,
                forced: i % 3,
                proof: u32::from(i) * 1000,
            }),
            cost: None,
        }
    }

    fn game(number: u32) -> GameRecord {
        GameRecord {
            number,
            samples: (0..number as u16 % 9 + 1).map(sample).collect(),
        }
    }

    #[test]
    fn games_round_trip_and_a_cut_record_is_dropped_then_overwritten() {
        let dir = std::env::temp_dir().join(format!("gpn-samples-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("cfour.gpns");
        let _ = std::fs::remove_file(&path);
        {
            let mut w = SampleWriter::append(&path, "cfour").unwrap();
            for i in 0..10 {
                w.write(&game(i)).unwrap();
            }
        }
        let back = read_samples(&path).unwrap();
        assert_eq!(back.game, "cfour");
        assert!(!back.cut);
        assert_eq!(back.games, (0..10).map(game).collect::<Vec<_>>());
        // A stopped writer leaves part of a record: readers drop it, a writer cuts it off.
        let len = std::fs::metadata(&path).unwrap().len();
        let f = OpenOptions::new().write(true).open(&path).unwrap();
        f.set_len(len - 3).unwrap();
        let back = read_samples(&path).unwrap();
        assert!(back.cut);
        assert_eq!(back.games.len(), 9);
        {
            let mut w = SampleWriter::append(&path, "cfour").unwrap();
            assert_eq!(w.numbers(), (0..9).collect::<Vec<u32>>().as_slice());
            let positions: usize = (0..9).map(|n| game(n).samples.len()).sum();
            assert_eq!(w.positions(), positions);
            w.write(&game(42)).unwrap();
        }
        let back = read_samples(&path).unwrap();
        assert!(!back.cut);
        assert_eq!(back.games.len(), 10);
        assert_eq!(back.games[9], game(42));
        assert!(SampleWriter::append(&path, "reversi").is_err());
        // Soft targets came back as written (above); the result byte is their likeliest class.
        let soft = &back.games[9].samples[3];
        assert_eq!(soft.wdl, SOFT);
        // Version 1 (before episodes) and 2 (before soft targets) files are read and appended
        // to in their own version; a soft target there is refused, not rounded.
        for version in [1, 2] {
            let _ = std::fs::remove_file(&path);
            std::fs::write(&path, header("cfour", version)).unwrap();
            let mut hard = game(3);
            for s in &mut hard.samples {
                if s.wdl == SOFT {
                    s.wdl = [1.0, 0.0, 0.0];
                }
            }
            {
                let mut w = SampleWriter::append(&path, "cfour").unwrap();
                let err = w.write(&game(3)).unwrap_err();
                assert!(err.to_string().contains("soft value target"), "{err}");
                w.write(&hard).unwrap();
            }
            let back = read_samples(&path).unwrap();
            let mut want = hard.clone();
            for s in &mut want.samples {
                if version == 1 {
                    s.episode = None;
                }
            }
            assert_eq!(back.games, vec![want], "version {version}");
            assert_eq!(read_with(&path).unwrap().2, version);
        }
        std::fs::write(&path, b"GPNN....").unwrap();
        assert!(read_samples(&path).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
