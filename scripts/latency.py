#!/usr/bin/env python3
"""Latency of a UCI/USI engine during a search: `isready` -> `readyok` and `stop` -> `bestmove`.

Each trial: `position startpos`, `go infinite`, wait half a random search time (`--search-ms`),
send `isready` and time the `readyok`, wait the other half, send `stop` and time the `bestmove`. Prints min / median / p95 / max
in milliseconds per engine, so that gpn can be compared with a peer (Fairy-Stockfish) in the same
run. Standard library only.

    scripts/latency.py --trials 200 target/release/gpn /usr/games/fairy-stockfish
    scripts/latency.py --variant minishogi --usi target/release/gpn
"""
import argparse
import random
import shlex
import statistics
import subprocess
import sys
import threading
import queue
import time


class Engine:
    def __init__(self, command):
        self.proc = subprocess.Popen(
            shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put((time.perf_counter(), line.rstrip("\n")))
        self.lines.put((time.perf_counter(), None))

    def send(self, text):
        sent = time.perf_counter()
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()
        return sent

    def until(self, prefix, timeout=30.0):
        """The arrival time of the first line starting with prefix."""
        deadline = time.perf_counter() + timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise RuntimeError(f"no '{prefix}' within {timeout} s")
            stamp, line = self.lines.get(timeout=left)
            if line is None:
                raise RuntimeError("the engine exited")
            if line.startswith(prefix):
                return stamp

    def close(self):
        try:
            self.send("quit")
        except OSError:
            pass
        self.proc.wait(timeout=10)


def summary(ms):
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]
    return (f"min {ms[0]:.2f}  median {statistics.median(ms):.2f}  "
            f"p95 {p95:.2f}  max {ms[-1]:.2f}")


def measure(command, trials, variant, usi, rng, lo, hi):
    e = Engine(command)
    hello, ok = ("usi", "usiok") if usi else ("uci", "uciok")
    e.send(hello)
    e.until(ok)
    if variant:
        name = "USI_Variant" if usi else "UCI_Variant"
        e.send(f"setoption name {name} value {variant}")
    e.send("isready")
    e.until("readyok")
    ready, stop = [], []
    for _ in range(trials):
        e.send("position startpos")
        e.send("go infinite")
        time.sleep(rng.uniform(lo, hi) / 2000)
        t = e.send("isready")
        ready.append((e.until("readyok") - t) * 1000)
        time.sleep(rng.uniform(lo, hi) / 2000)
        t = e.send("stop")
        stop.append((e.until("bestmove") - t) * 1000)
    e.close()
    return ready, stop


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engines", nargs="+", help="engine command lines")
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--variant", default="breakthrough")
    ap.add_argument("--usi", action="store_true", help="speak USI instead of UCI")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--search-ms", default="100-600",
                    help="range of the search time before stop, ms (isready comes halfway)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    lo, hi = (float(x) for x in args.search_ms.split("-"))
    for command in args.engines:
        ready, stop = measure(command, args.trials, args.variant, args.usi, rng, lo, hi)
        print(f"{command}  ({args.trials} trials, {args.variant}, searches of {args.search_ms} ms)")
        print(f"  isready -> readyok during search (ms): {summary(ready)}")
        print(f"  stop -> bestmove (ms):                 {summary(stop)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
