#!/usr/bin/env python3
"""Nodes a UCI engine searches per move in a real game, tree reuse included.

Replays one game of a `gpn match --json` file and asks the engine for a move every other ply
(`position startpos moves ...`, `go movetime`), as a match would, then prints `ply:nodes/nps`
from each move's last info line and the total. In Connect Four gpn gives the first half of a
timed move to its exact solver, so the search's nodes are those of the other half: compare runs,
not totals with the move time. Run it for Threads 1 and 2 in turn to see what a second thread
buys in play rather than from the start position. Standard library only.

    scripts/ingame_nodes.py target/release/gpn cfour match.json --threads 2 --plies 30
"""
import argparse
import json
import re
import subprocess


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine")
    ap.add_argument("game")
    ap.add_argument("match_json")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--plies", type=int, default=30, help="the last ply to ask a move at")
    ap.add_argument("--index", type=int, default=0, help="which game of the file")
    ap.add_argument("--movetime", type=int, default=1000, help="milliseconds a move")
    args = ap.parse_args()
    with open(args.match_json) as f:
        moves = json.load(f)["games"][args.index]["moves"]
    engine = subprocess.Popen(
        [args.engine, "--protocol", "uci", "--game", args.game],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True, bufsize=1)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def until(prefix):
        lines = []
        for line in engine.stdout:
            lines.append(line)
            if line.startswith(prefix):
                break
        return lines

    send("uci")
    until("uciok")
    send(f"setoption name Threads value {args.threads}")
    send("isready")
    until("readyok")
    send("ucinewgame")
    rows = []
    for ply in range(2, min(args.plies, len(moves)) + 1, 2):
        send("position startpos moves " + " ".join(moves[:ply]))
        send(f"go movetime {args.movetime}")
        info = [l for l in until("bestmove") if " nodes " in l]
        last = info[-1] if info else ""
        nodes = re.search(r" nodes (\d+)", last)
        nps = re.search(r" nps (\d+)", last)
        rows.append((ply, int(nodes.group(1)) if nodes else 0, int(nps.group(1)) if nps else 0))
    send("quit")
    engine.wait()
    print(args.threads, " ".join(f"{p}:{n}/{s}" for p, n, s in rows))
    print("total nodes", sum(n for _, n, _ in rows))


if __name__ == "__main__":
    main()
