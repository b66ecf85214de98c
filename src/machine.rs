//! What this machine can hold: its physical memory, the bound on tables sized from an option.

use std::sync::OnceLock;

/// Physical memory in MiB (Linux's `MemTotal`); `None` where it cannot be read.
pub fn memory_mb() -> Option<usize> {
    static TOTAL: OnceLock<Option<usize>> = OnceLock::new();
    *TOTAL.get_or_init(|| {
        let text = std::fs::read_to_string("/proc/meminfo").ok()?;
        parse_mem_total(&text)
    })
}

/// The most memory one table sized by an option may take: half the machine, so that a table
/// allocated up front (a solver's) leaves room for everything else and is never refused by the
/// kernel's overcommit check. Unbounded where the machine's memory is unknown.
pub fn table_limit_mb() -> usize {
    memory_mb().map_or(usize::MAX, |m| (m / 2).max(1))
}

/// `requested` MiB, or the table limit when that is smaller, with a sentence saying so.
pub fn fit_table_mb(requested: usize) -> (usize, Option<String>) {
    let limit = table_limit_mb();
    if requested <= limit {
        (requested, None)
    } else {
        (
            limit,
            Some(format!(
                "{requested} MB is more than half of this machine's memory; using {limit} MB"
            )),
        )
    }
}

/// `MemTotal:  24576000 kB` to MiB.
fn parse_mem_total(meminfo: &str) -> Option<usize> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mem_total_is_read_in_mib() {
        let text = "MemTotal:       24576000 kB\nMemFree:        1000 kB\n";
        assert_eq!(parse_mem_total(text), Some(24000));
        assert_eq!(parse_mem_total("MemFree: 1 kB"), None);
    }

    #[test]
    fn a_request_within_the_limit_is_kept_and_one_beyond_it_is_cut() {
        assert_eq!(fit_table_mb(1), (1, None));
        if let Some(total) = memory_mb() {
            let (mb, note) = fit_table_mb(total);
            assert_eq!(mb, table_limit_mb());
            assert!(note.is_some_and(|n| n.contains("half")));
        }
    }
}
