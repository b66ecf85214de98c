#!/usr/bin/env python3
"""Minishogi mate problems (tsume: the attacker checks with every move) with answers from
Fairy-Stockfish, for the USI `go mate` test (tests/data/usi_mates.txt).

Positions come from seeded random games (pyffish for the rules). Fairy-Stockfish searches each
one; a position is kept when it reports `score mate N` (1 <= N <= 3) for the side to move and
every attacker move of its mating line gives check (pyffish), so the shortest mate is a
checking sequence and its length is the tsume answer. Fairy-Stockfish's mate search is not
restricted to checks, so a problem whose shortest mate has a quiet move is left out (its tsume
length is unknown to FSF).

    target/ext-venv/bin/python scripts/external/usi_mate_problems.py \
        --engine /usr/games/fairy-stockfish --count 24 --seed 1 > tests/data/usi_mates.txt
"""
import argparse
import random
import subprocess
import sys

import pyffish as sf

VARIANT = "minishogi"


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name UCI_Variant value {VARIANT}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, token):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine ended")
            lines.append(line.strip())
            if line.startswith(token):
                return lines

    def mate(self, fen, depth):
        self.send(f"position fen {fen}")
        self.send(f"go depth {depth}")
        lines = self.wait("bestmove")
        last = None
        for line in lines:
            w = line.split()
            if "score" in w and "pv" in w:
                last = w
        if last is None:
            return None
        i = last.index("score")
        if last[i + 1] != "mate":
            return None
        n = int(last[i + 2])
        return n, last[last.index("pv") + 1:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    ap.add_argument("--count", type=int, default=24)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--depth", type=int, default=14)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    eng = Engine(a.engine)
    print("# minishogi tsume problems: <FEN> | <mate in N moves> | <Fairy-Stockfish's line>")
    print("# " + " ".join(sys.argv))
    seen = set()
    found = 0
    while found < a.count:
        fen = sf.start_fen(VARIANT)
        moves = []
        for _ in range(rng.randint(10, 60)):
            legal = sf.legal_moves(VARIANT, fen, moves)
            if not legal:
                break
            moves.append(rng.choice(legal))
        if not sf.legal_moves(VARIANT, fen, moves):
            continue
        pos = sf.get_fen(VARIANT, fen, moves)
        if pos in seen:
            continue
        seen.add(pos)
        r = eng.mate(pos, a.depth)
        if r is None or not 1 <= r[0] <= 3:
            continue
        n, pv = r
        if len(pv) < 2 * n - 1:
            continue
        pv = pv[:2 * n - 1]
        if not all(sf.gives_check(VARIANT, pos, pv[:k + 1]) for k in range(0, len(pv), 2)):
            continue
        print(f"{pos} | {n} | {' '.join(pv)}", flush=True)
        found += 1


if __name__ == "__main__":
    main()
