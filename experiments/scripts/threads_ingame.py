#!/usr/bin/env python3
"""In-game speed-up of search threads: replays the first game of a `gpn match --json` file and,
at every ply, lets each engine (every binary given, with Threads 1 and with Threads 2, tree reuse
on as in a game) search `go movetime MS` in turn, so that the machine's slow drifts hit every
engine alike. Prints each binary's 2-thread/1-thread node ratio per ply, then over the game.

Usage: experiments/scripts/threads_ingame.py GAME MATCH.json MS BINARY [BINARY ...]
e.g.   experiments/scripts/threads_ingame.py breakthrough experiments/data/threads/breakthrough-t2vt1batch-100ms.part1.json 100 target/release/gpn
"""
import json
import re
import subprocess
import sys


def start(binary, game, threads):
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    for c in ["uci", f"setoption name UCI_Variant value {game}", f"setoption name Threads value {threads}"]:
        p.stdin.write(c + "\n")
    p.stdin.flush()
    return p


def search(p, moves, ms):
    p.stdin.write("position startpos moves " + " ".join(moves) + f"\ngo movetime {ms}\n")
    p.stdin.flush()
    nodes = 0
    while True:
        line = p.stdout.readline()
        if not line:
            raise SystemExit("engine exited")
        m = re.search(r" nodes (\d+)", line)
        if m:
            nodes = int(m.group(1))
        if line.startswith("bestmove"):
            return nodes


def main():
    if len(sys.argv) < 5:
        raise SystemExit(__doc__)
    game, path, ms, binaries = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    moves = json.load(open(path))["games"][0]["moves"]
    engines = [(b, t, start(b, game, t)) for b in binaries for t in (1, 2)]
    total = {(b, t): 0 for b, t, _ in engines}
    print("ply " + " ".join(f"ratio[{k}]" for k in range(len(binaries))))
    for ply in range(len(moves) - 1):
        nodes = {}
        for b, t, p in engines:
            nodes[(b, t)] = search(p, moves[:ply], ms)
            total[(b, t)] += nodes[(b, t)]
        print(ply, " ".join(f"{nodes[(b, 2)] / max(nodes[(b, 1)], 1):.2f}" for b in binaries), flush=True)
    for k, b in enumerate(binaries):
        print(f"[{k}] {b}: 1 thread {total[(b, 1)]} nodes, 2 threads {total[(b, 2)]}, "
              f"ratio {total[(b, 2)] / max(total[(b, 1)], 1):.3f}")
    for _, _, p in engines:
        p.stdin.write("quit\n")
        p.stdin.flush()


if __name__ == "__main__":
    main()
