//! Property tests of every parser over arbitrary and mutated input: position
//! strings and moves of every registered game in every dialect, the protocol's position and move
//! handling of a session, `go` words and option values, SGF, network files, sample files and the
//! JSON Lines records of matches and solve batches. Each must answer with an error, never a panic, and what it accepts must
//! round-trip through its writer.
//!
//! Every property runs [`CASES`] cases (`PROPTEST_CASES` overrides) from a fixed seed
//! (`PROPTEST_RNG_SEED` overrides), so that CI is repeatable; each prints its count on stderr
//! (`cargo test --test parsers_prop -- --nocapture` shows them; CI's fuzz stage does).

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use gpn::arena::merge::{finished_games, merge_match, Source};
use gpn::arena::seats;
use gpn::engine::new_session;
use gpn::game::registry::{self, GameVisitor, GAMES};
use gpn::game::{sgf, Dialect, Game, MoveList};
use gpn::nn::data::{read_samples, GameRecord, SampleWriter};
use gpn::nn::sample::{Episode, Sample};
use gpn::nn::{Network, Shape};
use gpn::options::OPTIONS;
use gpn::protocol::uci::Go;
use gpn::protocol::{clip, Protocol, MAX_ERROR_CHARS};
use gpn::search::SearchParams;
use gpn::solve::merge::merge_solves;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};

/// Cases per property unless `PROPTEST_CASES` says otherwise.
const CASES: u32 = 1024;

const DIALECTS: [Dialect; 3] = [Dialect::Native, Dialect::Usi, Dialect::Gtp];

fn config() -> Config {
    let mut c = Config::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        c.cases = CASES;
    }
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        c.rng_seed = RngSeed::Fixed(0x6770_6e40);
    }
    // A failure prints its shrunk input; nothing is written into the source tree.
    c.failure_persistence = None;
    c
}

/// Runs `test` over `strategy` and prints the case count (`per_case`: what each case covers).
fn check<S: Strategy>(
    name: &str,
    per_case: &str,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) {
    let cfg = config();
    let cases = cfg.cases;
    let result = TestRunner::new(cfg).run(&strategy, test);
    eprintln!("parsers_prop: {name}: {cases} cases{per_case}");
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
}

/// A failure with a message (the shrunk input is printed by the runner).
fn fail(message: String) -> TestCaseError {
    TestCaseError::fail(message)
}

macro_rules! ensure {
    ($cond:expr, $($fmt:tt)*) => {
        if !$cond {
            return Err(fail(format!($($fmt)*)));
        }
    };
}

/// One edit of a seed text: where (taken modulo the length), which kind, and a character.
type Edit = (u32, u8, char);

/// Numbers that overflow, underflow or sit at a boundary: inserted whole by one kind of edit.
const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "10",
    "99",
    "255",
    "256",
    "65536",
    "4294967296",
    "18446744073709551616",
    "1e400",
    "nan",
];

/// `seed` with `edits` applied: replace, insert or delete a character, delete or duplicate a
/// run (rows too long), insert a boundary number.
fn mutate(seed: &str, edits: &[Edit]) -> String {
    let mut s: Vec<char> = seed.chars().collect();
    for &(at, op, c) in edits {
        let n = s.len();
        let at = at as usize;
        match op % 6 {
            0 if n > 0 => s[at % n] = c,
            1 => s.insert(at % (n + 1), c),
            2 if n > 0 => {
                s.remove(at % n);
            }
            3 if n > 0 => {
                let i = at % n;
                let j = (i + 1 + c as usize % 8).min(n);
                s.drain(i..j);
            }
            4 if n > 0 => {
                let i = at % n;
                let j = (i + 1 + c as usize % 8).min(n);
                let run: Vec<char> = s[i..j].to_vec();
                s.splice(i..i, run);
            }
            5 => {
                let number = NUMBERS[c as usize % NUMBERS.len()];
                s.splice(at % (n + 1)..at % (n + 1), number.chars());
            }
            _ => {}
        }
    }
    s.into_iter().collect()
}

/// Characters of position strings, moves and protocol words, and a few hostile ones.
fn text_char() -> impl Strategy<Value = char> {
    const ALPHABET: &str = "0123456789/ -+*@_[]()<>,.;:|~#\"'\\PNBRQKSGLpnbrqksglxoXOwWbBE\
                            abcdefghijklmnopqrstuvwxyz\té\u{0}\u{7f}１\u{202e}\u{fffd}";
    let chars: Vec<char> = ALPHABET.chars().collect();
    prop_oneof![4 => proptest::sample::select(chars), 1 => any::<char>()]
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    proptest::collection::vec((any::<u32>(), any::<u8>(), text_char()), 0..8)
}

/// An arbitrary text: any Unicode, printable ASCII, or characters of the alphabet above.
fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[ -~]{0,120}",
        proptest::collection::vec(text_char(), 0..120).prop_map(|v| v.into_iter().collect()),
    ]
}

/// Either an arbitrary text (`Err`) or edits of a seed the test chooses (`Ok`).
#[derive(Clone, Debug)]
enum Input {
    Text(String),
    Mutated(Vec<Edit>),
}

impl Input {
    fn apply(&self, seed: &str) -> String {
        match self {
            Input::Text(t) => t.clone(),
            Input::Mutated(e) => mutate(seed, e),
        }
    }
}

fn input() -> impl Strategy<Value = Input> {
    prop_oneof![1 => any_text().prop_map(Input::Text), 3 => edits().prop_map(Input::Mutated)]
}

// ---- games ---------------------------------------------------------------------------------

/// The moves chosen by `picks` (indexes modulo the legal moves) from `pos`, at most `plies`.
fn walk<G: Game>(mut pos: G, picks: &[u16], plies: usize) -> G {
    let mut list = MoveList::new();
    for &k in picks.iter().take(plies) {
        pos.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        pos.play(list[k as usize % list.len()]);
    }
    pos
}

/// Mutated position strings and moves that were accepted (and so exercised): printed, to show
/// that the mutations reach past the first check.
static POSITIONS_READ: AtomicUsize = AtomicUsize::new(0);
static MOVES_READ: AtomicUsize = AtomicUsize::new(0);

/// Everything a protocol does with a position it accepted: round-trips, the hash, a few plies
/// with their moves' notation, the diagram.
fn exercise<G: Game>(pos: &G, text: &str, dialect: Dialect, picks: &[u16]) -> Result<(), String> {
    POSITIONS_READ.fetch_add(1, Ordering::Relaxed);
    let written = pos.to_position_in(dialect);
    let again = G::parse_position_in(&written, dialect)
        .map_err(|e| format!("{text:?} read, written as {written:?}, not read back: {e}"))?;
    if again.to_position_in(dialect) != written {
        return Err(format!("{text:?}: {written:?} is written back differently"));
    }
    let native = pos.to_position();
    match G::parse_position(&native) {
        Ok(p) if p == *pos => {}
        Ok(_) => {
            return Err(format!(
                "{text:?}: {native:?} reads back as another position"
            ))
        }
        Err(e) => return Err(format!("{text:?}: {native:?} is not read back: {e}")),
    }
    let mut pos = pos.clone();
    let mut list = MoveList::new();
    for &k in picks.iter().take(4) {
        if pos.hash() != pos.compute_hash() {
            return Err(format!("{text:?}: hash differs from compute_hash"));
        }
        pos.legal_moves(&mut list);
        if pos.outcome().is_some() != list.is_empty() {
            return Err(format!(
                "{text:?}: outcome {:?} with {} legal moves at {}",
                pos.outcome(),
                list.len(),
                pos.to_position()
            ));
        }
        if list.is_empty() {
            break;
        }
        // The notation of a few moves, not all: Minishogi has about 200.
        for j in 0..list.len().min(4) {
            let m = list[(k as usize + j * 7) % list.len()];
            for d in DIALECTS {
                let t = pos.format_move_in(m, d);
                match pos.parse_move_in(&t, d) {
                    Ok(back) if back == m => {}
                    other => {
                        return Err(format!(
                            "{text:?}: move {t:?} ({d:?}) reads back as {other:?} at {}",
                            pos.to_position()
                        ))
                    }
                }
            }
        }
        pos.play(list[k as usize % list.len()]);
    }
    let _ = pos.diagram();
    Ok(())
}

/// Position strings of one game: a mutated or arbitrary text in each dialect.
struct Positions<'a> {
    input: &'a Input,
    picks: &'a [u16],
}

impl GameVisitor for Positions<'_> {
    type Output = Result<(), String>;
    fn visit<G: Game>(self) -> Result<(), String> {
        let seed = walk(G::start(), self.picks, self.picks.len() % 24);
        for d in DIALECTS {
            let text = self.input.apply(&seed.to_position_in(d));
            if let Ok(pos) = G::parse_position_in(&text, d) {
                exercise(&pos, &text, d, self.picks)?;
            }
            if d == Dialect::Native {
                if let Ok(pos) = G::parse_position(&text) {
                    exercise(&pos, &text, d, self.picks)?;
                }
            }
        }
        Ok(())
    }
}

/// Moves of one game: a mutated legal move or an arbitrary text, in each dialect.
struct Moves<'a> {
    input: &'a Input,
    picks: &'a [u16],
}

impl GameVisitor for Moves<'_> {
    type Output = Result<(), String>;
    fn visit<G: Game>(self) -> Result<(), String> {
        let pos = walk(G::start(), self.picks, self.picks.len() % 24);
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        for d in DIALECTS {
            let seed = match list.is_empty() {
                true => String::from("pass"),
                false => pos.format_move_in(list[self.picks.len() % list.len()], d),
            };
            let text = self.input.apply(&seed);
            if let Ok(m) = pos.parse_move_in(&text, d) {
                MOVES_READ.fetch_add(1, Ordering::Relaxed);
                if !list.contains(m) {
                    return Err(format!("{text:?} ({d:?}) read as an illegal move {m:?}"));
                }
                let t = pos.format_move_in(m, d);
                if pos.parse_move_in(&t, d).ok() != Some(m) {
                    return Err(format!("{text:?} ({d:?}): {t:?} does not read back"));
                }
            }
        }
        Ok(())
    }
}

fn picks() -> impl Strategy<Value = Vec<u16>> {
    proptest::collection::vec(any::<u16>(), 0..40)
}

fn each_game(visit: impl Fn(&str) -> Result<(), String>) -> Result<(), TestCaseError> {
    for info in GAMES {
        visit(info.name).map_err(|e| fail(format!("{}: {e}", info.name)))?;
    }
    Ok(())
}

#[test]
fn position_strings_of_every_game_are_read_or_refused() {
    let per_case = format!(" x {} games x 3 dialects", GAMES.len());
    check(
        "positions",
        &per_case,
        (input(), picks()),
        |(input, picks)| {
            each_game(|name| {
                let v = Positions {
                    input: &input,
                    picks: &picks,
                };
                registry::visit(name, v).map_err(|e| e.to_string())?
            })
        },
    );
    let read = POSITIONS_READ.load(Ordering::Relaxed);
    eprintln!("parsers_prop: positions: {read} read and exercised");
}

#[test]
fn moves_of_every_game_are_read_only_when_legal() {
    let per_case = format!(" x {} games x 3 dialects", GAMES.len());
    check("moves", &per_case, (input(), picks()), |(input, picks)| {
        each_game(|name| {
            let v = Moves {
                input: &input,
                picks: &picks,
            };
            registry::visit(name, v).map_err(|e| e.to_string())?
        })
    });
    let read = MOVES_READ.load(Ordering::Relaxed);
    eprintln!("parsers_prop: moves: {read} read as legal moves");
}

/// The protocol's `position` and move handling: a refused position or move leaves the session
/// as it was; an accepted one is written back in a form that is read again.
#[test]
fn session_positions_and_moves_keep_the_state_on_error() {
    let strategy = (
        0..GAMES.len(),
        0..3usize,
        input(),
        proptest::collection::vec(input(), 0..4),
        picks(),
    );
    check(
        "session",
        " (a game and dialect each)",
        strategy,
        |(g, d, position, moves, picks)| {
            let name = GAMES[g].name;
            let d = DIALECTS[d];
            let mut s = new_session(name, SearchParams::default())
                .map_err(|e| fail(format!("{name}: {e}")))?;
            for &k in picks.iter().take(picks.len() % 12) {
                let legal = s.legal_moves(d);
                if legal.is_empty() {
                    break;
                }
                s.play(&legal[k as usize % legal.len()], d)
                    .map_err(|e| fail(format!("{name}: a legal move refused: {e}")))?;
            }
            let before = s.position_text(Dialect::Native);
            let seed = s.position_text(d);
            let legal = s.legal_moves(d);
            let move_seed = legal.first().cloned().unwrap_or_else(|| "pass".into());
            let text = position.apply(&seed);
            let words: Vec<String> = moves.iter().map(|m| m.apply(&move_seed)).collect();
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            let _ = s.parse_moves(&words, d);
            match s.set_position(Some(text.as_str()), &words, d) {
                Err(_) => ensure!(
                    s.position_text(Dialect::Native) == before,
                    "{name} ({d:?}): position {text:?} moves {words:?} refused but the position changed"
                ),
                Ok(()) => {
                    let now = s.position_text(d);
                    ensure!(
                        s.set_position(Some(now.as_str()), &[], d).is_ok(),
                        "{name} ({d:?}): position {text:?} moves {words:?} gave {now:?}, not read back"
                    );
                }
            }
            let before = s.position_text(Dialect::Native);
            let plies = s.plies();
            let text = moves.first().map_or(String::new(), |m| m.apply(&move_seed));
            match s.play(&text, d) {
                Err(_) => ensure!(
                    s.position_text(Dialect::Native) == before,
                    "{name} ({d:?}): move {text:?} refused but the position changed"
                ),
                Ok(_) => {
                    ensure!(
                        s.plies() == plies + 1,
                        "{name}: {text:?} played, plies not one more"
                    );
                    ensure!(s.undo(), "{name}: {text:?} played but cannot be undone");
                    ensure!(
                        s.position_text(Dialect::Native) == before,
                        "{name} ({d:?}): move {text:?} undone to another position"
                    );
                }
            }
            Ok(())
        },
    );
}

// ---- protocol words ------------------------------------------------------------------------

fn go_word() -> impl Strategy<Value = String> {
    const WORDS: &[&str] = &[
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "depth",
        "nodes",
        "mate",
        "movetime",
        "infinite",
        "ponder",
        "searchmoves",
        "perft",
        "byoyomi",
        "simulations",
        "e2e4",
        "",
        "0",
        "-1",
        "-9223372036854775808",
        "9223372036854775807",
        "18446744073709551616",
        "4294967296",
        "1e3",
        "nan",
    ];
    prop_oneof![
        3 => proptest::sample::select(WORDS).prop_map(str::to_string),
        1 => any_text(),
        1 => any::<i64>().prop_map(|n| n.to_string()),
    ]
}

#[test]
fn go_words_are_read_or_refused() {
    let strategy = proptest::collection::vec(go_word(), 0..12);
    check("go", " x 3 protocols", strategy, |words| {
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        for p in [Protocol::Uci, Protocol::Usi, Protocol::Uai] {
            if let Ok(go) = Go::parse_in(&words, p) {
                for side in 0..2 {
                    let _ = go.budget(side, std::time::Duration::from_millis(30), 100);
                }
            }
        }
        Ok(())
    });
}

#[test]
fn option_names_and_values_are_checked() {
    let per_case = format!(" x {} options", OPTIONS.len());
    check(
        "options",
        &per_case,
        (any_text(), input()),
        |(name, value)| {
            let _ = gpn::options::lookup(&name);
            let _ = Protocol::detect(&name);
            let clipped = clip(&name);
            ensure!(
                clipped.chars().count() <= MAX_ERROR_CHARS + 32,
                "clip left {} characters",
                clipped.chars().count()
            );
            for o in OPTIONS {
                let text = value.apply(o.default);
                if let Ok(v) = o.check(&text) {
                    ensure!(
                        o.check(&v).ok().as_ref() == Some(&v),
                        "{}: {text:?} accepted as {v:?}, which is not accepted as itself",
                        o.key
                    );
                }
            }
            Ok(())
        },
    );
}

// ---- SGF -----------------------------------------------------------------------------------

const SGF_SEEDS: &[&str] = &[
    "(;FF[4]GM[1]SZ[9]KM[6.5]AB[aa][bb]AW[cc];B[dd];W[ee](;B[ff];W[])(;B[gg]))",
    "(;GM[1]SZ[19]C[a comment with \\] an escaped bracket]PB[x];B[pd];W[dp];B[tt];W[qq])",
    "(;SZ[13:13]AB[aa:cc]KM[-0.5];B[];W[mm])",
    include_str!("data/killallgo-pcn-26.sgf"),
];

#[test]
fn sgf_records_are_read_or_refused_and_written_back() {
    let strategy = (0..SGF_SEEDS.len(), input(), 0usize..30, any_text());
    check("sgf", "", strategy, |(seed, input, size, vertex)| {
        let text = input.apply(SGF_SEEDS[seed]);
        if let Ok(record) = sgf::parse(&text) {
            if let Ok(written) = sgf::write(&record) {
                let again = sgf::parse(&written)
                    .map_err(|e| fail(format!("{text:?} written as {written:?}: {e}")))?;
                ensure!(
                    sgf::write(&again).ok().as_ref() == Some(&written),
                    "{text:?}: {written:?} is not written back the same"
                );
            }
        }
        if let Ok(Some(v)) = sgf::vertex(&vertex, size) {
            if let Ok(p) = sgf::point(&v, size) {
                ensure!(
                    sgf::vertex(&p, size).ok() == Some(Some(v.clone())),
                    "{vertex:?} on {size}: {v} -> {p} does not read back"
                );
            }
        }
        let _ = sgf::point(&vertex, size);
        Ok(())
    });
}

/// Reproducer: a record nested a million parentheses deep.
#[test]
fn sgf_nested_a_million_deep_is_read_without_overflow() {
    // Trees nested directly (`((`) are read as the old recursive parser read them: the main
    // line is the first child's.
    let text = "(".repeat(1_000_000) + ";B[aa]" + &")".repeat(1_000_000);
    assert_eq!(sgf::parse(&text).unwrap().moves.len(), 1);
    // Valid nesting, a node before each variation, as deep.
    let text = "(;B[aa]".repeat(1_000_000) + &")".repeat(1_000_000);
    let _ = sgf::parse(&text);
}

// ---- networks ------------------------------------------------------------------------------

/// A header of gpn's network format with the given sizes, then `body`.
fn network_bytes(version: u32, name: &[u8], sizes: &[u32], hidden: &[u32], body: &[u8]) -> Vec<u8> {
    let mut b = b"GPNN".to_vec();
    b.extend_from_slice(&version.to_le_bytes());
    b.extend_from_slice(&(name.len() as u32).to_le_bytes());
    b.extend_from_slice(name);
    // The cost field exists from version 2 on.
    let fields = if version >= 2 { 3 } else { 2 };
    for s in sizes.iter().take(fields) {
        b.extend_from_slice(&s.to_le_bytes());
    }
    b.extend_from_slice(&(hidden.len() as u32).to_le_bytes());
    for h in hidden {
        b.extend_from_slice(&h.to_le_bytes());
    }
    b.extend_from_slice(body);
    b
}

/// A width or size field: small, at a limit, past it, or anything.
fn size_field() -> impl Strategy<Value = u32> {
    prop_oneof![
        4 => 1u32..20,
        2 => proptest::sample::select(vec![0u32, 17, 255, 256, 65535, 65536, 65537, u32::MAX]),
        1 => any::<u32>(),
    ]
}

/// `(version, name, [inputs, policy, cost], hidden widths, body)` of a network file.
type NetHeader = (u32, Vec<u8>, Vec<u32>, Vec<u32>, Vec<u8>);

/// Mostly headers that pass every check but the sizes', so that the sizes are what is tested.
fn network_header() -> impl Strategy<Value = NetHeader> {
    (
        prop_oneof![8 => 1u32..=2, 1 => any::<u32>()],
        prop_oneof![
            4 => Just(b"cfour".to_vec()),
            1 => Just(vec![b'x'; 64]),
            1 => Just(vec![b'x'; 65]),
            1 => proptest::collection::vec(any::<u8>(), 0..70),
        ],
        (
            size_field(),
            size_field(),
            prop_oneof![4 => Just(0u32), 4 => Just(17u32), 1 => any::<u32>()],
        )
            .prop_map(|(i, p, c)| vec![i, p, c]),
        prop_oneof![
            8 => proptest::collection::vec(size_field(), 1..=8),
            1 => proptest::collection::vec(size_field(), 0..=12),
        ],
        proptest::collection::vec(any::<u8>(), 0..256),
    )
}

/// The bytes the header claims for its parameters, when its shape is one `read` accepts.
fn claimed_bytes(h: &NetHeader) -> Option<usize> {
    let (version, _, sizes, hidden, _) = h;
    let w = |x: u32| x as usize;
    let widths = sizes.iter().take(2).chain(hidden.iter());
    if hidden.is_empty() || hidden.len() > 8 || widths.into_iter().any(|&x| x == 0 || x > 65536) {
        return None;
    }
    let shape = Shape {
        inputs: w(sizes[0]),
        hidden: hidden.iter().map(|&x| w(x)).collect(),
        policy: w(sizes[1]),
        cost: if *version >= 2 && sizes[2] == 17 {
            17
        } else {
            0
        },
    };
    Some(shape.params() * 4)
}

fn read_network(bytes: &[u8]) {
    let _ = Network::read(&mut &bytes[..]);
}

#[test]
fn network_files_of_arbitrary_bytes_are_refused() {
    let strategy = prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..300),
        proptest::collection::vec(any::<u8>(), 0..300).prop_map(|mut v| {
            v.splice(0..0, *b"GPNN\x01\0\0\0");
            v
        }),
    ];
    check("network bytes", "", strategy, |bytes| {
        read_network(&bytes);
        Ok(())
    });
}

/// Headers whose sizes are hostile but claim at most 64 MiB of parameters (more: the test
/// below), over short bodies.
#[test]
fn network_headers_with_hostile_sizes_are_refused() {
    let shaped = AtomicUsize::new(0);
    let skipped = AtomicUsize::new(0);
    check(
        "network headers",
        " (those claiming over 64 MiB: network huge headers)",
        network_header(),
        |h| {
            match claimed_bytes(&h) {
                Some(b) if b > 64 << 20 => {
                    skipped.fetch_add(1, Ordering::Relaxed);
                    return Ok(());
                }
                Some(_) => {
                    shaped.fetch_add(1, Ordering::Relaxed);
                }
                None => {}
            }
            let (version, name, sizes, hidden, body) = &h;
            read_network(&network_bytes(*version, name, sizes, hidden, body));
            Ok(())
        },
    );
    eprintln!(
        "parsers_prop: network headers: {} with widths in range, {} skipped",
        shaped.into_inner(),
        skipped.into_inner()
    );
}

#[test]
fn network_headers_claiming_huge_sizes_are_refused() {
    check("network huge headers", "", network_header(), |h| {
        let (version, name, sizes, hidden, body) = &h;
        read_network(&network_bytes(*version, name, sizes, hidden, body));
        Ok(())
    });
}

/// Reproducer: 8 hidden layers of width 65536 claim 137 GB of parameters in a 65-byte file.
#[test]
fn network_header_of_eight_wide_layers_is_refused() {
    let bytes = network_bytes(1, b"cfour", &[65536, 65536], &[65536; 8], b"");
    assert!(Network::read(&mut &bytes[..]).is_err());
}

#[test]
fn networks_round_trip_and_their_mutations_are_refused_or_read() {
    let strategy = (
        proptest::collection::vec(1usize..12, 1..4),
        1usize..20,
        1usize..20,
        any::<bool>(),
        proptest::collection::vec((any::<u32>(), any::<u8>()), 0..6),
    );
    check(
        "network round trip",
        "",
        strategy,
        |(hidden, inputs, policy, cost, flips)| {
            let shape = Shape {
                inputs,
                hidden,
                policy,
                cost: if cost { 17 } else { 0 },
            };
            let net = Network::new("cfour", shape, 7).map_err(|e| fail(e.to_string()))?;
            let mut bytes = Vec::new();
            net.write(&mut bytes).map_err(|e| fail(e.to_string()))?;
            let back = Network::read(&mut &bytes[..]).map_err(|e| fail(e.to_string()))?;
            ensure!(
                back.shape() == net.shape() && back.params() == net.params(),
                "a network does not read back as written"
            );
            for (at, byte) in flips {
                let n = bytes.len();
                bytes[at as usize % n] = byte;
            }
            read_network(&bytes);
            Ok(())
        },
    );
}

// ---- sample files --------------------------------------------------------------------------

static FILES: AtomicUsize = AtomicUsize::new(0);

/// A fresh path in the temporary directory, removed when dropped.
struct TempPath(PathBuf);

impl TempPath {
    fn new() -> TempPath {
        let k = FILES.fetch_add(1, Ordering::Relaxed);
        TempPath(std::env::temp_dir().join(format!(
            "gpn-parsers-prop-{}-{k}.samples",
            std::process::id()
        )))
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn sample_header(version: u32, name: &[u8]) -> Vec<u8> {
    let mut b = b"GPNS".to_vec();
    b.extend_from_slice(&version.to_le_bytes());
    b.extend_from_slice(&(name.len() as u16).to_le_bytes());
    b.extend_from_slice(name);
    b
}

#[test]
fn sample_files_of_hostile_bytes_are_read_or_refused() {
    let strategy = prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..300),
        (1u32..=3, proptest::collection::vec(any::<u8>(), 0..300)).prop_map(|(v, body)| [
            sample_header(v, b"cfour"),
            body
        ]
        .concat()),
    ];
    check(
        "sample files",
        " (read, then appended to)",
        strategy,
        |bytes| {
            let path = TempPath::new();
            std::fs::write(&path.0, &bytes).map_err(|e| fail(e.to_string()))?;
            let read = read_samples(&path.0);
            // Appending reads the file too, and cuts off an incomplete last record.
            if let Ok(mut w) = SampleWriter::append(&path.0, "cfour") {
                let games = read.as_ref().map_or(0, |f| f.games.len());
                ensure!(
                    w.numbers().len() == games,
                    "append found {} games, read {games}",
                    w.numbers().len()
                );
                let g = GameRecord {
                    number: 9,
                    samples: Vec::new(),
                };
                w.write(&g).map_err(|e| fail(e.to_string()))?;
                drop(w);
                let after = read_samples(&path.0).map_err(|e| fail(e.to_string()))?;
                ensure!(
                    after.games.len() == games + 1 && !after.cut,
                    "after an append: {} games (cut {})",
                    after.games.len(),
                    after.cut
                );
            }
            Ok(())
        },
    );
}

fn sample() -> impl Strategy<Value = Sample> {
    (
        proptest::collection::vec(any::<u16>(), 0..20),
        0usize..4,
        (any::<u16>(), any::<u16>()),
        proptest::collection::vec((any::<u16>(), any::<u16>()), 0..10),
        proptest::option::of((0u8..4, any::<u16>(), any::<u16>(), any::<u32>())),
    )
        .prop_map(|(features, result, (a, b), policy, episode)| {
            let mut wdl = [0.0; 3];
            if result == 3 {
                // A soft target in steps of 1/65535 that sum to 1, as the file stores them.
                let (w, d) = (u32::from(a), u32::from(b) % (65536 - u32::from(a)));
                let l = 65535 - w - d;
                wdl = [w, d, l].map(|x| x as f32 / 65535.0);
            } else {
                wdl[result] = 1.0;
            }
            Sample {
                features,
                wdl,
                // Steps of 1/65535, as the file stores them.
                policy: policy
                    .into_iter()
                    .map(|(p, q)| (p, q as f32 / 65535.0))
                    .collect(),
                episode: episode.map(|(outcome, legal, forced, proof)| Episode {
                    outcome,
                    legal,
                    forced,
                    proof,
                }),
                cost: None,
            }
        })
}

#[test]
fn sample_files_round_trip_and_a_cut_record_is_dropped() {
    let strategy = (
        proptest::collection::vec(
            (any::<u32>(), proptest::collection::vec(sample(), 0..4)),
            0..4,
        ),
        any::<u16>(),
    );
    check("sample round trip", "", strategy, |(games, cut)| {
        let path = TempPath::new();
        let games: Vec<GameRecord> = games
            .into_iter()
            .map(|(number, samples)| GameRecord { number, samples })
            .collect();
        {
            let mut w =
                SampleWriter::append(&path.0, "breakthrough").map_err(|e| fail(e.to_string()))?;
            for g in &games {
                w.write(g).map_err(|e| fail(e.to_string()))?;
            }
        }
        let back = read_samples(&path.0).map_err(|e| fail(e.to_string()))?;
        ensure!(
            back.game == "breakthrough" && !back.cut,
            "header or cut flag wrong"
        );
        ensure!(back.games == games, "games do not read back as written");
        // A file cut anywhere in its records reads as whole games, with the cut said.
        let bytes = std::fs::read(&path.0).map_err(|e| fail(e.to_string()))?;
        let header = sample_header(3, b"breakthrough").len();
        if bytes.len() > header {
            let keep = header + cut as usize % (bytes.len() - header);
            std::fs::write(&path.0, &bytes[..keep]).map_err(|e| fail(e.to_string()))?;
            let part = read_samples(&path.0).map_err(|e| fail(e.to_string()))?;
            ensure!(
                games.starts_with(&part.games),
                "a cut file reads games that were not written"
            );
        }
        Ok(())
    });
}

// ---- JSON Lines records -------------------------------------------------------------------

/// Two lines of `gpn solve --batch --shard 0/2 --json` (cfour, pns).
const SOLVE_LINES: &str = concat!(
    r#"{"run":"9f3c","index":0,"positions":3,"shard":"0/2","line":1,"game":"cfour","expected":"win","match":true,"position":"7/7/7/7/7/7 w","algo":"pns","value":"win","stopped_by":null,"best_move":"P@d1","nodes":120,"time_s":0.01,"nodes_per_s":12000,"proof_size":40,"proofs":"win?=yes","by_pr":false}"#,
    "\n",
    r#"{"run":"9f3c","index":2,"positions":3,"shard":"0/2","line":3,"game":"cfour","expected":null,"match":null,"position":"7/7/7/7/7/7 w","algo":"pns","value":"unknown","stopped_by":"nodes","best_move":"-","nodes":5000,"time_s":0.2,"nodes_per_s":25000,"proof_size":null,"proofs":"win?=unknown","by_pr":false}"#,
    "\n"
);

#[test]
fn solve_lines_are_merged_or_refused() {
    let seed = merge_solves(&[("seed", SOLVE_LINES)]).expect("the seed lines merge");
    assert_eq!((seed.lines, seed.missing.len()), (2, 1));
    check("solve lines", "", (input(), input()), |(a, b)| {
        let one = a.apply(SOLVE_LINES);
        let two = b.apply(SOLVE_LINES);
        if let Ok(m) = merge_solves(&[("a", &one), ("b", &two)]) {
            // What merges is a batch of at most the lines given, each one of them.
            let given = one.lines().count() + two.lines().count();
            ensure!(
                m.lines().count() <= given,
                "{} lines from {given}",
                m.lines().count()
            );
            for line in m.lines() {
                ensure!(
                    one.lines().chain(two.lines()).any(|l| l == line),
                    "merged a line not given: {line}"
                );
            }
        }
        Ok(())
    });
}

#[test]
fn records_nested_a_million_deep_are_refused() {
    for open in ["[", "{\"a\":", "[{\"b\":"] {
        let text = open.repeat(1_000_000);
        assert!(merge_solves(&[("deep", &text)]).is_err(), "{open}");
        let deep = Source {
            name: "deep".into(),
            text: text.clone(),
        };
        assert!(merge_match(&[deep]).is_err(), "{open}");
    }
}

/// A games file of `gpn match --shard 1/2 --games 2` (cfour), two JSON Lines records.
const RECORDS: &str = include_str!("data/match-records.jsonl");

#[test]
fn json_lines_records_are_merged_or_refused() {
    assert!(merge_match(&[Source {
        name: "seed".into(),
        text: RECORDS.into(),
    }])
    .is_ok());
    check("json lines", "", (input(), input()), |(a, b)| {
        let one = a.apply(RECORDS);
        let two = b.apply(RECORDS);
        let sources = [
            Source {
                name: "a".into(),
                text: one.clone(),
            },
            Source {
                name: "b".into(),
                text: two,
            },
        ];
        let _ = merge_match(&sources);
        let run = serde_json::from_str::<serde_json::Value>(RECORDS.lines().next().unwrap_or(""))
            .ok()
            .and_then(|j| j.get("run").and_then(|r| r.as_str()).map(str::to_string))
            .unwrap_or_default();
        if let Ok((_, keep)) = finished_games("a", &one, &run) {
            ensure!(
                keep as usize <= one.len(),
                "keeps {keep} of {} bytes",
                one.len()
            );
        }
        for line in one.lines() {
            let _ = seats::read_json_line(line, &run);
        }
        Ok(())
    });
}
