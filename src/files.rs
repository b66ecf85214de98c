//! Reading files that come from outside (networks, samples, SGF, position and record files):
//! regular files only, and never more than a stated number of bytes.
//!
//! A path can name something that is not a file at all: a FIFO blocks `open` until a writer
//! comes, and a device such as `/dev/zero` never ends. Both are refused before opening, from
//! the path's metadata, and a file is read through a length cap, so one that is too big (or
//! grows while it is read) is an error rather than an allocation the machine cannot make.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The cap for text files a person writes or a tool exports one at a time (SGF records,
/// position lists, batch files).
pub const TEXT_LIMIT: u64 = 64 << 20;

/// The cap for records gpn appends to over long runs (games files, JSON Lines of matches and
/// solves, the learning log), which a large sharded experiment can make big.
pub const RECORDS_LIMIT: u64 = 1 << 30;

/// Opens `path` for reading if it is a regular file (symbolic links followed) of at most
/// `limit` bytes; returns the file and its length.
pub fn open_regular(path: &Path, limit: u64) -> io::Result<(File, u64)> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is {}, not a regular file", path.display(), kind(&meta)),
        ));
    }
    if meta.len() > limit {
        return Err(too_big(path, limit));
    }
    Ok((File::open(path)?, meta.len()))
}

/// The bytes of the regular file `path`, at most `limit` of them.
pub fn read_bytes(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let (file, len) = open_regular(path, limit)?;
    let mut bytes = Vec::with_capacity(len as usize);
    // One byte past the limit tells a file that grew while it was read from one that fits.
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_big(path, limit));
    }
    Ok(bytes)
}

/// The text of the regular file `path` (UTF-8), at most `limit` bytes of it.
pub fn read_text(path: &Path, limit: u64) -> io::Result<String> {
    String::from_utf8(read_bytes(path, limit)?).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} is not UTF-8 text", path.display()),
        )
    })
}

/// As [`read_text`], but a file that does not exist reads as empty (a record not begun yet).
pub fn read_text_or_empty(path: &Path, limit: u64) -> io::Result<String> {
    match read_text(path, limit) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(String::new()),
        other => other,
    }
}

fn too_big(path: &Path, limit: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "{} is larger than {} MiB, the most gpn reads from such a file",
            path.display(),
            limit >> 20
        ),
    )
}

/// What a path that is not a regular file names, in words.
fn kind(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "something else"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("gpn-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn devices_and_directories_are_refused_before_reading() {
        let e = read_text(Path::new("/dev/zero"), TEXT_LIMIT).unwrap_err();
        assert!(e.to_string().contains("a device"), "{e}");
        let e = read_text(&std::env::temp_dir(), TEXT_LIMIT).unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let path = scratch("fifo");
        let _ = std::fs::remove_file(&path);
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo on this system: nothing to check
        }
        // Opening a FIFO with no writer blocks; the check must answer without opening it.
        let e = read_bytes(&path, TEXT_LIMIT).unwrap_err();
        assert!(e.to_string().contains("a FIFO"), "{e}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_file_over_the_limit_is_an_error_and_one_within_reads() {
        let path = scratch("big");
        std::fs::write(&path, vec![b'x'; 100]).unwrap();
        assert!(read_bytes(&path, 99).is_err());
        assert_eq!(read_bytes(&path, 100).unwrap().len(), 100);
        assert!(read_text_or_empty(&scratch("absent"), 10)
            .unwrap()
            .is_empty());
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        assert!(read_text(&path, 10).is_err());
    }
}
