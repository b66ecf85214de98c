#!/usr/bin/env python3
"""Peak resident memory of gpn against its Hash option (docs/memory.md).

For each game and Hash value: a `go infinite` of SECONDS (the tree fills and is recycled), and
a self-play game of PLIES plies at MOVETIME ms per move with the tree reused between moves (new
games are started from the same process when one ends). The peak is the kernel's VmHWM of the
engine process, read from /proc just before it quits. One JSON line per measurement is
appended to the output file as it finishes; measurements already there are skipped, so an
interrupted run resumes.

    scripts/memory.py [--seconds 60] [--plies 300] [--movetime 200] [--hash 16 64 256 1024]
                      [--games cfour breakthrough] [--out experiments/data/memory.jsonl]
"""
import argparse
import json
import os
import random
import subprocess
import sys
import threading
import time


def vm(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])  # kB
    return None


class Engine:
    def __init__(self, binary, game, hash_mb):
        self.p = subprocess.Popen([binary, "--protocol", "uci"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)
        self.lines = []
        self.cv = threading.Condition()
        threading.Thread(target=self.read, daemon=True).start()
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name UCI_Variant value {game}")
        self.send(f"setoption name Hash value {hash_mb}")
        self.send("isready")
        self.wait("readyok")

    def read(self):
        for line in self.p.stdout:
            with self.cv:
                self.lines.append(line.strip())
                self.cv.notify_all()

    def send(self, text):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()

    def wait(self, prefix, timeout=120):
        end = time.time() + timeout
        with self.cv:
            while True:
                for i, line in enumerate(self.lines):
                    if line.startswith(prefix):
                        found = self.lines[i]
                        del self.lines[: i + 1]
                        return found
                left = end - time.time()
                if left <= 0:
                    raise TimeoutError(prefix)
                self.cv.wait(left)

    def last_info(self):
        with self.cv:
            infos = [l for l in self.lines if l.startswith("info depth")]
            return infos[-1] if infos else ""

    def peak_kb(self):
        return vm(self.p.pid, "VmHWM")

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=30)


def field(info, key):
    tok = info.split()
    return int(tok[tok.index(key) + 1]) if key in tok else None


def infinite(binary, game, hash_mb, seconds):
    e = Engine(binary, game, hash_mb)
    e.send("position startpos")
    e.send("go infinite")
    time.sleep(seconds)
    info = e.last_info()
    e.send("stop")
    e.wait("bestmove")
    peak = e.peak_kb()
    e.quit()
    return {"nodes": field(info, "nodes"), "hashfull": field(info, "hashfull"), "peak_kb": peak}


def selfplay(binary, game, hash_mb, plies, movetime):
    e = Engine(binary, game, hash_mb)
    moves, games, played = [], 1, 0
    while played < plies:
        e.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        e.send(f"go movetime {movetime}")
        best = e.wait("bestmove").split()[1]
        if best == "(none)":
            e.send("ucinewgame")
            moves, games = [], games + 1
            continue
        moves.append(best)
        played += 1
    peak = e.peak_kb()
    e.quit()
    return {"games": games, "peak_kb": peak}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="target/release/gpn")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--plies", type=int, default=300)
    ap.add_argument("--movetime", type=int, default=200)
    ap.add_argument("--hash", type=int, nargs="+", default=[16, 64, 256, 1024])
    ap.add_argument("--games", nargs="+", default=["cfour", "breakthrough"])
    ap.add_argument("--out", default="experiments/data/memory.jsonl")
    args = ap.parse_args()
    done = set()
    if os.path.exists(args.out):
        with open(args.out) as f:
            for line in f:
                r = json.loads(line)
                done.add((r["game"], r["hash_mb"], r["kind"]))
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    for game in args.games:
        for h in args.hash:
            for kind in ("infinite", "selfplay"):
                if (game, h, kind) in done:
                    continue
                t0 = time.time()
                if kind == "infinite":
                    r = infinite(args.binary, game, h, args.seconds)
                    r["seconds"] = args.seconds
                else:
                    r = selfplay(args.binary, game, h, args.plies, args.movetime)
                    r["plies"], r["movetime_ms"] = args.plies, args.movetime
                r.update(game=game, hash_mb=h, kind=kind, wall_s=round(time.time() - t0, 1))
                r["peak_mib"] = round(r["peak_kb"] / 1024, 1)
                r["over_hash_mib"] = round(r["peak_mib"] - h, 1)
                print(json.dumps(r), flush=True)
                with open(args.out, "a") as f:
                    f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    sys.exit(main())
