#!/usr/bin/env python3
"""The tables of experiments/pcn.md from the JSON Lines files that experiments/scripts/pcn_problems.sh
writes (experiments/data/pcn/<set>-<algo>[-TAG]-<seconds>s.jsonl), and of
experiments/killallgo.md from experiments/scripts/killallgo_problems.sh's: per run, the problems proved
(the side to move wins: Black in Gomoku, White in Killall-Go), disproved, unknown, the median
time and nodes of the proved ones, and their numbers.

  experiments/scripts/pcn_report.py [files...]     # default: every run in the data folder
"""
import glob
import json
import sys


def main():
    files = sys.argv[1:] or sorted(glob.glob("experiments/data/pcn/*.jsonl"))
    print("| run | problems | proved (win) | disproved | unknown | median s / nodes of the proved | proved |")
    print("|---|---|---|---|---|---|---|")
    for f in files:
        rows = [json.loads(line) for line in open(f) if line.strip()]
        wins = sorted(r["problem"] for r in rows if r["value"] == "win")
        losses = sorted(r["problem"] for r in rows if r["value"] == "loss")
        unknown = len(rows) - len(wins) - len(losses)
        done = [r for r in rows if r["value"] in ("win", "loss")]
        times = sorted(r["time_s"] for r in done)
        nodes = sorted(r["nodes"] for r in done)
        median = f"{times[len(times) // 2]:.2f} / {nodes[len(nodes) // 2]:,}" if done else "-"
        name = f.rsplit("/", 1)[-1].removesuffix(".jsonl")
        proved = ", ".join(map(str, wins + losses))
        print(f"| `{name}` | {len(rows)} | **{len(wins)}** | {len(losses)} | {unknown} | {median} | {proved} |")


if __name__ == "__main__":
    main()
