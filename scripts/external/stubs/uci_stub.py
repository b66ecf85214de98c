#!/usr/bin/env python3
"""A UCI engine that plays random legal moves (pyffish) and misbehaves on purpose, to show
that match.py catches each kind of fault.

  uci_stub.py --mode MODE [--at N] [--think-ms MS] [--seed S]

Modes (the fault happens at the N-th 'go', counting 'go ponder' too; default N = 3):
  good            behaves: info pv + bestmove X ponder Y, waits in 'go ponder' for ponderhit/stop
  illegal         bestmove a1a1
  late            sleeps past its own clock (wtime/btime + 400 ms) before answering
  ponder-early    answers the first 'go ponder' from the N-th go on at once with a bestmove
                  (before ponderhit/stop)
  no-readyok      stops answering isready once N-1 go's were seen (N = 0: never answers)
  stall           prints nothing at all for the N-th go, not even after stop
  double-bestmove prints its bestmove twice
  crash           exits with status 3 instead of answering
  illegal-pv      its info pv contains a1a1
  illegal-ponder  bestmove X ponder a1a1
"""
import argparse
import random
import sys
import time

import pyffish


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", default="good",
                    choices=["good", "illegal", "late", "ponder-early", "no-readyok", "stall",
                             "double-bestmove", "crash", "illegal-pv", "illegal-ponder"])
    ap.add_argument("--at", type=int, default=3)
    ap.add_argument("--think-ms", type=float, default=10)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    variant = "breakthrough"
    moves = []
    n_go = 0
    pondering = False
    go_tokens = []

    def answer():
        """Reply to the current go (or to ponderhit/stop of go ponder)."""
        start = pyffish.start_fen(variant)
        legal = sorted(pyffish.legal_moves(variant, start, moves))
        hit = n_go == a.at
        if hit and a.mode == "crash":
            sys.exit(3)
        if hit and a.mode == "stall":
            return
        if hit and a.mode == "late":
            fen = pyffish.get_fen(variant, start, moves)
            key = "wtime" if fen.split()[1] == "w" else "btime"
            own = int(go_tokens[go_tokens.index(key) + 1]) if key in go_tokens else 1000
            time.sleep((own + 400) / 1000.0)
        else:
            time.sleep(a.think_ms / 1000.0)
        if not legal:
            out("bestmove (none)")
            return
        best = rng.choice(legal)
        replies = sorted(pyffish.legal_moves(variant, start, moves + [best]))
        ponder = rng.choice(replies) if replies else None
        pv = [best] + ([ponder] if ponder else [])
        if hit and a.mode == "illegal-pv":
            pv = [best, "a1a1"]
        out(f"info depth 1 score cp 0 nodes 1 time 1 pv {' '.join(pv)}")
        if hit and a.mode == "illegal":
            best = "a1a1"
        if hit and a.mode == "illegal-ponder":
            ponder = "a1a1"
        line = f"bestmove {best}" + (f" ponder {ponder}" if ponder else "")
        out(line)
        if hit and a.mode == "double-bestmove":
            out(line)

    for raw in sys.stdin:
        tok = raw.split()
        if not tok:
            continue
        cmd = tok[0]
        if cmd == "uci":
            out(f"id name uci-stub-{a.mode}")
            out("id author gpn selftest")
            out("option name UCI_Variant type combo default breakthrough var breakthrough "
                "var minishogi")
            out("option name Ponder type check default false")
            out("uciok")
        elif cmd == "isready":
            if a.mode == "no-readyok" and n_go >= a.at - 1:
                continue
            out("readyok")
        elif cmd == "setoption" and len(tok) >= 5 and tok[2] == "UCI_Variant":
            variant = tok[4]
        elif cmd == "position":
            moves = tok[tok.index("moves") + 1:] if "moves" in tok else []
        elif cmd == "go":
            n_go += 1
            go_tokens = tok
            if "ponder" in tok:
                pondering = True
                if n_go >= a.at and a.mode == "ponder-early":
                    pondering = False
                    answer()
            else:
                answer()
        elif cmd in ("ponderhit", "stop"):
            if pondering:
                pondering = False
                answer()
        elif cmd == "quit":
            break


if __name__ == "__main__":
    main()
