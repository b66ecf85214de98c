//! The option tables of the documents (protocol/UCI.md, USI.md, GTP.md, docs/search.md,
//! docs/tuning.md), generated from the registry; a test fails when a document drifts from it
//! (`GPN_WRITE_OPTION_TABLES=1 cargo test --lib options` rewrites them).

use std::fmt::Write as _;

use super::{Kind, Scope, OPTIONS, SPIN_PREFIX, SPIN_SCALE};

/// The UCI option table of protocol/UCI.md.
pub fn uci_table() -> String {
    let mut t = String::from("| name | key | type | default | what |\n|---|---|---|---|---|\n");
    for o in OPTIONS.iter().filter(|o| !o.uci.is_empty()) {
        let _ = writeln!(
            t,
            "| `{}` | `{}` | {} | `{}` | {} |",
            o.uci,
            o.key,
            o.type_text(),
            o.default,
            o.help
        );
        if let (Kind::Real { min, max }, true) = (o.kind, o.spin_scaled()) {
            let _ = writeln!(
                t,
                "| `{SPIN_PREFIX}{}` | `{}` | spin {}..{} | `{}` | `{}` in 1/{SPIN_SCALE}: the same option for tuners that only speak `spin` (docs/tuning.md) |",
                o.uci,
                o.key,
                (min * SPIN_SCALE).round(),
                (max * SPIN_SCALE).round(),
                (o.default.parse::<f64>().unwrap_or(0.0) * SPIN_SCALE).round(),
                o.uci
            );
        }
    }
    t
}

/// The tunable options (docs/tuning.md): range, SPSA steps, spin form.
pub fn tune_table() -> String {
    let mut t = String::from(
        "| option | type | tuning range | c_end | r_end | spin form |\n|---|---|---|---|---|---|\n",
    );
    for o in OPTIONS {
        let Some(tune) = o.tune else { continue };
        let (kind, spin) = if o.spin_scaled() {
            ("float", format!("`{SPIN_PREFIX}{}`", o.usi))
        } else {
            ("int", "(spin already)".to_string())
        };
        let _ = writeln!(
            t,
            "| `{}` (`{}`) | {kind} | {}..{} | {} | {} | {spin} |",
            o.key, o.usi, tune.min, tune.max, tune.c_end, tune.r_end
        );
    }
    t
}

/// The search-option table of docs/search.md (the names of `gpn match` specs).
pub fn spec_table() -> String {
    key_table("| option | type | default | meaning |", Scope::Search)
}

/// A table of the options of `scope` by key, under `header`.
fn key_table(header: &str, scope: Scope) -> String {
    let mut t = format!("{header}\n|---|---|---|---|\n");
    for o in OPTIONS.iter().filter(|o| o.scope == scope) {
        let _ = writeln!(
            t,
            "| `{}` | {} | `{}` | {} |",
            o.key,
            o.type_text(),
            o.default,
            o.help
        );
    }
    t
}

/// The USI names, as protocol/USI.md lists them.
pub fn usi_names() -> String {
    let mut names: Vec<String> = Vec::new();
    for o in OPTIONS.iter().filter(|o| !o.usi.is_empty()) {
        names.push(format!("`{}`", o.usi));
        if o.spin_scaled() {
            names.push(format!("`{SPIN_PREFIX}{}`", o.usi));
        }
    }
    names.join(", ") + "\n"
}

/// The GTP-only options, as protocol/GTP.md lists them.
pub fn gtp_table() -> String {
    key_table("| name | type | default | what |", Scope::Gtp)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The documents show the registry's tables between `<!-- options:NAME -->` and
    /// `<!-- options:end -->` markers; regenerate them with
    /// `GPN_WRITE_OPTION_TABLES=1 cargo test --lib options`.
    #[test]
    fn the_documented_tables_are_the_registry() {
        let root = env!("CARGO_MANIFEST_DIR");
        let write = std::env::var_os("GPN_WRITE_OPTION_TABLES").is_some();
        for (file, name, table) in [
            ("protocol/UCI.md", "uci", uci_table()),
            ("protocol/USI.md", "usi", usi_names()),
            ("protocol/GTP.md", "gtp", gtp_table()),
            ("docs/search.md", "spec", spec_table()),
            ("docs/tuning.md", "tune", tune_table()),
        ] {
            let path = format!("{root}/{file}");
            let text = std::fs::read_to_string(&path).expect("document");
            let begin = format!("<!-- options:{name} -->\n");
            let end = "<!-- options:end -->";
            let start = text
                .find(&begin)
                .unwrap_or_else(|| panic!("{file}: no {begin}"))
                + begin.len();
            let stop = start + text[start..].find(end).expect("end marker");
            if write {
                let new = format!("{}{table}{}", &text[..start], &text[stop..]);
                std::fs::write(&path, new).expect("write");
            } else {
                assert_eq!(
                    text[start..stop],
                    table,
                    "{file} drifted from src/options.rs; run GPN_WRITE_OPTION_TABLES=1 cargo test --lib options"
                );
            }
        }
    }
}
