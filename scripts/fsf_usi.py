#!/usr/bin/env python3
"""Writes tests/data/minishogi-fsf-usi.txt, the Fairy-Stockfish reference data of the minishogi USI dialect test.

Plays random minishogi games in lockstep with two Fairy-Stockfish processes, one spoken to in UCI
and one in USI (`setoption name UCI_Variant value minishogi`: 11.1 has no USI_Variant option),
and records for every position the FEN (UCI `d`), the SFEN (USI `d`) and the legal moves of both
(`go perft 1`, paired by generation order). A greedy set cover then keeps the few positions that
show every distinct move pair, hand token, promoted piece and side to move seen.

    python3 scripts/fsf_usi.py [fairy-stockfish] > tests/data/minishogi-fsf-usi.txt

Stdlib only; deterministic for a given engine (seeded moves, perft order).
"""
import random
import re
import subprocess
import sys

SEED, GAMES, PLIES = 7, 60, 80


class Engine:
    def __init__(self, path, proto):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send(proto)
        self.wait(proto + "ok")
        self.send("setoption name UCI_Variant value minishogi")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("engine exited")
            lines.append(line.rstrip("\n"))
            if lines[-1].startswith(prefix):
                return lines

    def state(self, moves):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send("d")
        shown = dict(l.split(":", 1) for l in self.wait("Checkers:") if ":" in l)
        self.send("go perft 1")
        legal = [l.split(":")[0] for l in self.wait("Nodes searched")[:-1] if l.endswith(": 1")]
        return {k.strip(): v.strip() for k, v in shown.items()}, legal


def features(sfen, pairs):
    board, side, hand = sfen.split()[:3]
    f = set(pairs) | {"side " + side}
    f |= {"hand " + t for t in re.findall(r"\d*[A-Za-z]", hand)}
    f |= {"board " + t for t in re.findall(r"\+[A-Za-z]", board)}
    return f if pairs else f | {"no moves"}


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "/usr/games/fairy-stockfish"
    rng = random.Random(SEED)
    uci, usi = Engine(path, "uci"), Engine(path, "usi")
    records = []
    for _ in range(GAMES):
        played_uci, played_usi = [], []
        for _ in range(PLIES):
            (shown_uci, a), (shown_usi, b) = uci.state(played_uci), usi.state(played_usi)
            assert len(a) == len(b), (shown_uci, a, b)
            pairs = [f"{x}={y}" for x, y in zip(a, b)]
            records.append((shown_uci["Fen"], shown_usi["Sfen"], pairs,
                            features(shown_usi["Sfen"], pairs)))
            if not a:
                break
            i = rng.randrange(len(a))
            played_uci.append(a[i])
            played_usi.append(b[i])
    for e in (uci, usi):
        e.send("quit")
    wanted = set().union(*(r[3] for r in records))
    covered = set()
    print("# Fairy-Stockfish 11.1 minishogi, UCI and USI side by side; written by scripts/fsf_usi.py.")
    print("# pos <FEN as UCI `d` prints it> | <SFEN as USI `d` prints it>")
    print("# moves <UCI>=<USI> for every legal move")
    while covered != wanted:
        fen, sfen, pairs, f = max(records, key=lambda r: len(r[3] - covered))
        covered |= f
        print(f"pos {fen} | {sfen}")
        print("moves " + " ".join(pairs))


main()
