//! GTP for games of more than two players (protocol/gtp-multiplayer.md) against the real
//! binary: Rolit for three and four players driven by colour names, out-of-turn refusals,
//! searched moves, `undo`, `boardsize`, games played to the end with `final_score` per player,
//! docs/protocols.md's example, and the UCI family's refusal of such games.

use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(30);

mod common;
use common::Engine;

impl Engine {
    /// A GTP engine whose moves search 5 ms (the tests' bound on every search).
    fn gtp() -> Engine {
        Engine::start(&["--protocol", "gtp", "--option", "movetime=5"])
    }

    fn line(&mut self) -> String {
        self.lines.recv_timeout(TIMEOUT).expect("a line in time")
    }

    /// The response to a GTP command: its lines without the blank line that ends it.
    fn gtp_lines(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        let mut lines = Vec::new();
        loop {
            let line = self.line();
            if line.is_empty() {
                break;
            }
            lines.push(line);
        }
        assert!(
            lines
                .first()
                .is_some_and(|l| l.starts_with('=') || l.starts_with('?')),
            "{command}: {lines:?}"
        );
        lines
    }

    /// A one-line response (`= ...` or `? ...`).
    fn ask(&mut self, command: &str) -> String {
        let lines = self.gtp_lines(command);
        assert_eq!(lines.len(), 1, "{command}: {lines:?}");
        lines[0].clone()
    }

    /// The result of a command that must succeed, without `= `.
    fn ok(&mut self, command: &str) -> String {
        let answer = self.ask(command);
        assert!(answer.starts_with('='), "{command}: {answer}");
        answer.trim_start_matches('=').trim().to_string()
    }

    fn legal(&mut self) -> Vec<String> {
        self.ok("gpn-legal_moves")
            .split_whitespace()
            .map(str::to_string)
            .collect()
    }

    fn board(&mut self) -> Vec<String> {
        let lines = self.gtp_lines("showboard");
        assert_eq!(lines[0], "=");
        lines[1..].to_vec()
    }

    fn close(mut self) {
        self.stdin = None;
        for _ in 0..200 {
            if self.child.try_wait().expect("wait").is_some() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        panic!("gpn did not exit at the end of input");
    }
}

/// The pieces per colour letter of a Rolit diagram's last line (`r 20, y 15, g 14, b 15
/// (neutral); ...`).
fn diagram_counts(board: &[String]) -> Vec<(char, i32)> {
    let last = board.last().expect("a diagram");
    let counts = last.split(';').next().unwrap();
    counts
        .split(',')
        .map(|part| {
            let mut words = part.split_whitespace();
            let letter = words.next().unwrap().chars().next().unwrap();
            (letter, words.next().unwrap().parse().unwrap())
        })
        .collect()
}

/// Plays the game to its end with `genmove` for the colour to move, checking each move
/// against the legal moves; then reads `final_score` (`NAME POINTS ... ranks R ...`) and checks
/// it against the diagram, and returns the points per colour.
fn play_out(e: &mut Engine, colours: &[&str], squares: i32) -> Vec<i32> {
    let mut plies = 0;
    loop {
        let legal = e.legal();
        if legal.is_empty() {
            break;
        }
        let side = e.ok("gpn-side_to_move");
        assert_eq!(side, colours[plies % colours.len()], "turn order");
        assert_eq!(e.ask("final_score"), "? cannot score: the game is not over");
        let reply = e.ok(&format!("genmove {side}"));
        assert!(legal.contains(&reply), "{reply} not in {legal:?}");
        plies += 1;
        assert!(plies <= 64, "the game does not end");
    }
    // The board starts with 4 pieces and every move places one.
    assert_eq!(plies as i32, squares - 4);
    assert_eq!(e.ask(&format!("genmove {}", colours[0])), "? game is over");
    let score = e.ok("final_score");
    let words: Vec<&str> = score.split_whitespace().collect();
    let n = colours.len();
    assert_eq!(words.len(), 3 * n + 1, "{score}");
    assert_eq!(words[2 * n], "ranks", "{score}");
    let mut points = Vec::new();
    for (k, colour) in colours.iter().enumerate() {
        assert_eq!(words[2 * k], *colour, "{score}");
        points.push(words[2 * k + 1].parse::<i32>().unwrap());
    }
    let ranks: Vec<usize> = words[2 * n + 1..]
        .iter()
        .map(|r| r.parse().unwrap())
        .collect();
    for k in 0..n {
        let better = points.iter().filter(|&&p| p > points[k]).count();
        assert_eq!(ranks[k], better + 1, "{score}");
    }
    // The points are the pieces of each colour; with a neutral colour they and its pieces
    // fill the board.
    let board = e.board();
    let counts = diagram_counts(&board);
    for (k, colour) in colours.iter().enumerate() {
        assert_eq!(
            counts[k],
            (colour.chars().next().unwrap(), points[k]),
            "{board:?}"
        );
    }
    let total: i32 = counts.iter().map(|&(_, c)| c).sum();
    assert_eq!(total, squares, "{board:?}");
    assert!(board.last().unwrap().contains("game over"), "{board:?}");
    points
}

#[test]
fn three_player_rolit_by_colour_names() {
    let mut e = Engine::gtp();
    assert_eq!(e.ok("set_game rolit-3p"), "");
    assert_eq!(e.ok("gpn-players"), "red yellow green");
    assert_eq!(e.ok("gpn-side_to_move"), "red");
    assert_eq!(e.legal(), ["f4", "d6", "f6"]);
    let start = e.board();
    assert!(start.last().unwrap().ends_with("red to move"), "{start:?}");
    // Out of turn, unknown colours and bad squares are refused; nothing changes.
    assert_eq!(e.ask("play yellow f4"), "? illegal move: it is red's turn");
    assert_eq!(e.ask("genmove green"), "? illegal move: it is red's turn");
    let unknown = "(this game's colours: red, yellow, green)";
    assert_eq!(
        e.ask("play black f4"),
        format!("? syntax error: unknown colour 'black' {unknown}")
    );
    assert_eq!(
        e.ask("play b f4"),
        format!("? syntax error: unknown colour 'b' {unknown}")
    );
    assert!(e.ask("play red z9").starts_with("? illegal move"));
    assert!(e.ask("play red a1").starts_with("? illegal move"));
    assert_eq!(e.ask("play"), "? syntax error");
    assert_eq!(e.board(), start);
    // Full names and first letters, any case.
    assert_eq!(e.ok("play R F4"), "");
    assert_eq!(e.ok("gpn-side_to_move"), "yellow");
    let before = e.board();
    assert!(
        before.last().unwrap().ends_with("yellow to move"),
        "{before:?}"
    );
    let legal = e.legal();
    let reply = e.ok("genmove Yellow");
    assert!(legal.contains(&reply), "{reply} not in {legal:?}");
    assert_eq!(e.ok("gpn-side_to_move"), "green");
    assert_eq!(e.ok("undo"), "");
    assert_eq!(e.board(), before);
    assert_eq!(e.ok(&format!("play y {reply}")), "");
    // A missing vertex is a pass, and nobody passes in Rolit.
    assert!(e.ask("play green").starts_with("? illegal move"));
    assert_eq!(e.ok("gpn-side_to_move"), "green");
    assert_eq!(e.ask("final_score"), "? cannot score: the game is not over");
    // boardsize keeps the player count: 6 is rolit6-3p, 5 does not exist, 8 is back.
    assert_eq!(e.ok("boardsize 6"), "");
    assert_eq!(e.ok("gpn-players"), "red yellow green");
    assert_eq!(e.board().len(), 9, "a 6x6 diagram");
    assert_eq!(e.ask("boardsize 5"), "? unacceptable size");
    assert_eq!(e.board().len(), 9, "the game is kept");
    assert_eq!(e.ok("boardsize 8"), "");
    assert_eq!(e.board(), start);
    // A whole game of searched moves; blue's centre piece is neutral.
    let points = play_out(&mut e, &["red", "yellow", "green"], 64);
    assert!(points.iter().sum::<i32>() <= 64);
    assert_eq!(e.legal(), Vec::<String>::new());
    assert!(e.ask("play red a1").starts_with("? illegal move"));
    // undo takes back the last move of a finished game; clear_board starts again.
    assert_eq!(e.ok("undo"), "");
    assert_eq!(e.legal().len(), 1);
    assert_eq!(e.ok("clear_board"), "");
    assert_eq!(e.board(), start);
    assert_eq!(e.ok("quit"), "");
    e.close();
}

#[test]
fn four_player_rolit_to_the_end() {
    let mut e = Engine::gtp();
    assert_eq!(e.ok("set_game rolit"), "");
    assert_eq!(e.ok("gpn-players"), "red yellow green blue");
    // With blue playing, `b` is blue; `black` and `white` are no colours here.
    assert_eq!(e.ask("play b f4"), "? illegal move: it is red's turn");
    assert!(e
        .ask("play white f4")
        .starts_with("? syntax error: unknown colour 'white'"));
    for colour in ["r", "y", "g", "b"] {
        let first = e.legal()[0].clone();
        assert_eq!(
            e.ok(&format!("play {colour} {first}")),
            "",
            "{colour} {first}"
        );
    }
    assert_eq!(e.ok("gpn-side_to_move"), "red");
    let legal = e.legal();
    let reply = e.ok("genmove red");
    assert!(legal.contains(&reply), "{reply} not in {legal:?}");
    for _ in 0..5 {
        assert_eq!(e.ok("undo"), "");
    }
    assert_eq!(e.ask("undo"), "? cannot undo");
    assert_eq!(e.ok("boardsize 4"), "");
    let points = play_out(&mut e, &["red", "yellow", "green", "blue"], 16);
    assert_eq!(points.iter().sum::<i32>(), 16);
    // gpn-solve proves paranoid values, with the proof-number solvers and with sb-gpn (its
    // score bounds on the colour to move against the others together): the same value.
    assert_eq!(e.ok("clear_board"), "");
    let solved = e.ok("gpn-solve dfpn 20");
    let value = solved.split_whitespace().next().unwrap_or("");
    assert!(["win", "draw", "loss"].contains(&value), "{solved}");
    let by_bounds = e.ok("gpn-solve sb-gpn 20");
    assert_eq!(
        by_bounds.split_whitespace().next(),
        Some(value),
        "{by_bounds}"
    );
    // Back to a two-player game: black and white again.
    assert_eq!(e.ok("set_game Othello"), "");
    assert_eq!(e.ok("gpn-players"), "black white");
    assert_eq!(e.ok("play b d3"), "");
    assert_eq!(e.ok("gpn-side_to_move"), "white");
    e.close();
}

#[test]
fn the_uci_family_refuses_games_of_more_players() {
    let mut e = Engine::start(&["--protocol", "uci"]);
    e.send("setoption name UCI_Variant value rolit-3p");
    e.send("isready");
    assert_eq!(
        e.line(),
        "info string error rolit-3p has 3 players: UCI, USI and UAI play two-player games only \
         (GTP plays it)"
    );
    assert_eq!(e.line(), "readyok");
    // The game is kept (Breakthrough) and still searched.
    e.send("position startpos");
    e.send("go nodes 50");
    loop {
        let line = e.line();
        if line.starts_with("bestmove") {
            assert!(!line.contains("none"), "{line}");
            break;
        }
    }
    e.close();
    let mut e = Engine::start(&["--protocol", "uci", "--game", "rolit"]);
    assert_eq!(
        e.line(),
        "info string error rolit has 4 players: UCI, USI and UAI play two-player games only \
         (GTP plays it); playing breakthrough"
    );
    e.close();
}

/// The multi-player GTP example of docs/protocols.md (the `$ printf 'set_game rolit-3p...`
/// line) answers as the document shows it, but for the searched move.
#[test]
fn the_documented_example_runs() {
    let doc = include_str!("../docs/protocols.md");
    let at = doc
        .find("$ printf 'set_game rolit-3p")
        .expect("docs/protocols.md has the multi-player example");
    let block = &doc[at..];
    let block = &block[..block.find("```").expect("the example's block ends")];
    let mut lines = block.lines();
    let command = lines.next().unwrap();
    assert!(command.ends_with("| gpn --protocol gtp"), "{command}");
    let script = command
        .trim_start_matches("$ printf '")
        .split('\'')
        .next()
        .unwrap()
        .replace("\\n", "\n");
    let expected: Vec<&str> = lines.collect();
    let mut e = Engine::start(&["--protocol", "gtp"]);
    for command in script.lines() {
        e.send(command);
    }
    e.stdin = None;
    let mut got = Vec::new();
    while let Ok(line) = e.lines.recv_timeout(TIMEOUT) {
        got.push(line);
    }
    // The document leaves out the blank line that ends the last answer.
    assert_eq!(got.pop().as_deref(), Some(""));
    assert_eq!(got.len(), expected.len(), "{got:#?}");
    // A searched move (`= e3`) is whatever the search found: any square.
    let square = |l: &str| {
        let b = l.as_bytes();
        l.len() == 4 && l.starts_with("= ") && b[2].is_ascii_lowercase() && b[3].is_ascii_digit()
    };
    for (g, x) in got.iter().zip(&expected) {
        assert!(g == x || (square(g) && square(x)), "{g:?} vs {x:?}");
    }
    e.close();
}

/// Random commands of the multi-player dialect, good and bad, in three- and four-player
/// Rolit: every one is answered `=` or `?`, and the engine goes on answering.
#[test]
fn random_commands_never_break_a_multi_player_session() {
    let vocabulary = [
        "play red",
        "play yellow",
        "play green",
        "play blue",
        "play b",
        "play w",
        "play x",
        "genmove red",
        "genmove y",
        "genmove green",
        "genmove blue",
        "reg_genmove r",
        "undo",
        "showboard",
        "final_score",
        "gpn-legal_moves",
        "gpn-side_to_move",
        "gpn-players",
        "boardsize 4",
        "boardsize 6",
        "boardsize 8",
        "boardsize 7",
        "clear_board",
        "time_left green 5 0",
        "time_left purple 5 0",
        "set_game rolit-3p",
        "set_game rolit4",
        "set_game rolit6-4p",
        "gpn-solve pns 0.05",
    ];
    let squares = [
        "a1", "c3", "d3", "f4", "c5", "d6", "f6", "h8", "z0", "", "pass",
    ];
    let mut e = Engine::start(&[
        "--protocol",
        "gtp",
        "--game",
        "rolit-3p",
        "--option",
        "movetime=1",
    ]);
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    for _ in 0..400 {
        let mut line = vocabulary[next(vocabulary.len())].to_string();
        if line.starts_with("play") {
            line = format!("{line} {}", squares[next(squares.len())]);
        }
        // Every answer starts with `=` or `?` (checked by `gtp_lines`).
        e.gtp_lines(&line);
    }
    assert_eq!(e.ok("name"), "gpn");
    let players = e.ok("gpn-players");
    let side = e.ok("gpn-side_to_move");
    assert!(players.split(' ').any(|p| p == side), "{side} in {players}");
    e.close();
}
