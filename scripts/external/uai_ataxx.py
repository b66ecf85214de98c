#!/usr/bin/env python3
"""gpn driven by a real UAI client: python-ataxx's `ataxx.uai.Engine` (PyPI `ataxx`).

Plays games of gpn against itself (two processes) or against one of python-ataxx's simple
players, through the package's UAI wrapper. Every move gpn sends is checked by python-ataxx's
board (it must be one of `board.legal_moves()`), the clocks are kept here (a side more than
`--margin-ms` late forfeits; the clock runs from `go` to `bestmove`), and every line gpn writes is checked: an `info string error`, a line no UAI
client expects, a missing `bestmove` or an illegal one is a protocol error. At the end of each
game gpn is asked to move in the final position and must answer `bestmove (none)` (it agrees
that the game is over). Half of the games send positions as cuteataxx does (a bare
`position fen <fen>` every move), the other half as a start FEN plus the moves played.

Exit status: 0 when every game finished without an error, 1 otherwise.

    scripts/external/uai_ataxx.py --engine target/release/gpn --games 20
    scripts/external/uai_ataxx.py --engine target/release/gpn --opponent greedy --games 4
"""

import argparse
import random
import shlex
import signal
import sys
import time
import warnings

import ataxx
import ataxx.players
import ataxx.uai

# python-ataxx opens the engine's pipes with bufsize=1 in binary mode (harmless warning).
warnings.filterwarnings("ignore", message="line buffering", category=RuntimeWarning)

# Start positions: python-ataxx's standard ones (with and without gaps).
OPENINGS = [ataxx.FEN_STARTPOS, ataxx.FEN_4CORNERS, ataxx.FEN_4SIDES]
# What a UAI engine may write (first word of a line).
KNOWN = {"id", "option", "uaiok", "readyok", "info", "bestmove"}


class Timeout(Exception):
    pass


def on_alarm(signum, frame):
    raise Timeout("the game took too long (engine hung?)")


class CheckedEngine(ataxx.uai.Engine):
    """The package's UAI engine, with every line gpn writes recorded and checked."""

    def __init__(self, command, label):
        super().__init__(command)
        self.label = label
        self.errors = []
        self.lines = 0
        # The `time` of the last `info` line: the search's own account of a late move.
        self.last_info_time = None

    def recv_line(self, line):
        if line:
            self.lines += 1
            words = line.split()
            if not words or words[0] not in KNOWN:
                self.errors.append(f"{self.label}: unexpected line {line!r}")
            elif line.startswith("info string error"):
                self.errors.append(f"{self.label}: {line}")
            elif words[0] == "info" and "time" in words:
                k = words.index("time")
                if k + 1 < len(words) and words[k + 1].isdigit():
                    self.last_info_time = int(words[k + 1])
        super().recv_line(line)


def start_engine(command, label, seed):
    engine = CheckedEngine(shlex.split(command), label)
    engine.uai()
    if engine.name is None or not engine.name.startswith("gpn"):
        engine.errors.append(f"{label}: no 'id name gpn' in the handshake ({engine.name!r})")
    engine.setoption("Seed", seed)
    engine.isready()
    return engine


def opening(rng, index):
    """The start FEN and two random plies (the same for both colour assignments of a pair)."""
    board = ataxx.Board(OPENINGS[(index // 2) % len(OPENINGS)])
    moves = []
    for _ in range(2):
        move = rng.choice(board.legal_moves())
        board.makemove(move)
        moves.append(move)
    return board, moves


def play_game(index, engines, opponent, tc, bare_fen, seed, errors):
    """One game; `engines[0]` plays x (the first player). Returns the result string."""
    base, inc, margin = tc
    board, _ = opening(random.Random(index // 2 + 1000 * seed), index)
    start_fen = board.get_fen()
    played = []
    clocks = [base, base]  # ms, x then o
    for engine in engines:
        if engine is not None:
            engine.uainewgame()
            engine.isready()
    while not board.gameover():
        side = 0 if board.turn == ataxx.BLACK else 1
        engine = engines[side]
        if engine is None:
            move = opponent(board)
        else:
            if bare_fen:
                engine.position(board.get_fen())
            else:
                engine.position(start_fen, " ".join(str(m) for m in played) or None)
            engine.last_info_time = None
            t0 = time.monotonic()
            best, _ = engine.go(
                times=(max(0, int(clocks[0])), max(0, int(clocks[1])), inc, inc),
                maxwait=base / 1000 + 10,
            )
            used = (time.monotonic() - t0) * 1000
            clocks[side] -= used
            if clocks[side] < -margin:
                errors.append(
                    f"game {index + 1}: {engine.label} lost on time at ply {len(played) + 1}: "
                    f"{clocks[side] + used:.0f} ms left, {used:.0f} ms used "
                    f"(gpn's search reported {engine.last_info_time} ms)"
                )
                return "time"
            clocks[side] += inc
            if best is None:
                errors.append(f"game {index + 1}: {engine.label} sent no bestmove")
                return "error"
            try:
                move = ataxx.Move.from_san(best)
            except Exception:
                errors.append(f"game {index + 1}: {engine.label} sent unreadable move {best!r}")
                return "error"
            if move not in board.legal_moves():
                errors.append(
                    f"game {index + 1}: {engine.label} illegal move {best} in {board.get_fen()}"
                )
                return "error"
        board.makemove(move)
        played.append(move)
    # gpn must agree that the game is over.
    for engine in engines:
        if engine is not None:
            engine.position(board.get_fen())
            best, _ = engine.go(movetime=10, maxwait=10)
            if best != "(none)":
                errors.append(
                    f"game {index + 1}: {engine.label} answered {best!r} in the finished "
                    f"position {board.get_fen()}"
                )
    return f"{board.result()} ({len(played)} plies)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default="target/release/gpn", help="gpn command line")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument(
        "--opponent",
        default="gpn",
        choices=["gpn", "greedy", "random"],
        help="gpn (a second gpn process) or a python-ataxx player",
    )
    ap.add_argument("--tc", default="3+0.05", help="seconds per side + increment in seconds")
    ap.add_argument(
        "--margin-ms",
        type=int,
        default=50,
        help="lateness tolerated before a time loss (cutechess timemargin, match.py)",
    )
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    base_s, _, inc_s = args.tc.partition("+")
    tc = (int(float(base_s) * 1000), int(float(inc_s or 0) * 1000), args.margin_ms)

    command = args.engine
    if "--protocol" not in command:
        command += " --protocol uai"
    a = start_engine(command, "gpn-a", 1)
    b = start_engine(command, "gpn-b", 2) if args.opponent == "gpn" else None
    player = {"greedy": ataxx.players.greedy, "random": ataxx.players.random_move}.get(
        args.opponent
    )
    signal.signal(signal.SIGALRM, on_alarm)
    errors = []
    score = {"1-0": 0, "0-1": 0, "1/2-1/2": 0}
    a_points = 0.0
    t0 = time.monotonic()
    for index in range(args.games):
        # gpn-a plays x in even games and o in odd ones.
        engines = [a, b] if index % 2 == 0 else [b, a]
        bare = (index // 2) % 2 == 0
        signal.alarm(int(2 * tc[0] / 1000 + 300))
        try:
            result = play_game(index, engines, player, tc, bare, args.seed, errors)
        except Timeout as e:
            errors.append(f"game {index + 1}: {e}")
            result = "error"
        signal.alarm(0)
        outcome = result.split()[0]
        if outcome in score:
            score[outcome] += 1
            if outcome == "1/2-1/2":
                a_points += 0.5
            elif (outcome == "1-0") == (index % 2 == 0):
                a_points += 1
        print(
            f"game {index + 1}: gpn-a as {'x' if index % 2 == 0 else 'o'} vs {args.opponent}, "
            f"{'bare fen' if bare else 'fen+moves'}: {result}",
            flush=True,
        )
    for engine in (a, b):
        if engine is not None:
            errors.extend(engine.errors)
            engine.quit()
    print(
        f"{args.games} games in {time.monotonic() - t0:.0f} s: x won {score['1-0']}, "
        f"o won {score['0-1']}, drawn {score['1/2-1/2']}; gpn-a scored {a_points}"
    )
    print(f"lines read from gpn: {a.lines + (b.lines if b else 0)}; errors: {len(errors)}")
    for e in errors:
        print("ERROR", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
