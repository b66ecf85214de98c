#!/usr/bin/env python3
"""Plays random Los Alamos games and compares gpn's legal moves with Fairy-Stockfish's at every
position (FSF `go perft 1` against `gpn perft losalamos 1 --moves ...`).

Usage: experiments/scripts/fsf_losalamos.py [games] [seed]   (gpn from $GPN, default target/release/gpn)
"""
import os
import random
import subprocess
import sys

GPN = os.environ.get("GPN", "target/release/gpn")
FSF = "/usr/games/fairy-stockfish"


def fsf_moves(proc, moves):
    proc.stdin.write(f"position startpos moves {' '.join(moves)}\ngo perft 1\n")
    proc.stdin.flush()
    out = []
    while True:
        line = proc.stdout.readline()
        if line.startswith("Nodes searched"):
            return sorted(out)
        if ":" in line and not line.startswith("info"):
            out.append(line.split(":")[0].strip())


def gpn_moves(moves):
    args = [GPN, "perft", "losalamos", "1"] + (["--moves", *moves] if moves else [])
    r = subprocess.run(args, capture_output=True, text=True, check=True)
    return sorted(l.split(":")[0] for l in r.stdout.splitlines() if ":" in l)


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    proc = subprocess.Popen([FSF], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proc.stdin.write("uci\nsetoption name UCI_Variant value losalamos\n")
    positions = mismatches = 0
    for _ in range(games):
        moves = []
        while len(moves) < 300:
            f, g = fsf_moves(proc, moves), gpn_moves(moves)
            positions += 1
            if f != g:
                # gpn ends the game by the fifty-move rule or insufficient material; FSF's perft
                # does not.
                if not g:
                    break
                mismatches += 1
                print("MISMATCH", moves, sorted(set(f) ^ set(g)))
                break
            if not f:
                break
            moves.append(rng.choice(f))
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    print(f"{positions} positions, {mismatches} mismatches")
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
