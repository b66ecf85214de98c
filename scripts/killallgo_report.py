#!/usr/bin/env python3
"""The table of docs/experiments/killallgo.md from the JSON Lines files that
scripts/killallgo_problems.sh writes (docs/experiments/data/killallgo/*.jsonl): per run, the
problems proved (White lives), disproved, unknown, and the proved problems' numbers.

  scripts/killallgo_report.py [files...]     # default: every run in the data folder
"""
import glob
import json
import sys


def main():
    files = sys.argv[1:] or sorted(glob.glob("docs/experiments/data/killallgo/*.jsonl"))
    print("| run | problems | White lives (win) | Black kills (loss) | unknown | median s of the proved | proved |")
    print("|---|---|---|---|---|---|---|")
    for f in files:
        rows = [json.loads(line) for line in open(f) if line.strip()]
        wins = sorted(r["problem"] for r in rows if r["value"] == "win")
        losses = sorted(r["problem"] for r in rows if r["value"] == "loss")
        unknown = len(rows) - len(wins) - len(losses)
        times = sorted(r["time_s"] for r in rows if r["value"] in ("win", "loss"))
        median = f"{times[len(times) // 2]:.2f}" if times else "-"
        name = f.rsplit("/", 1)[-1].removesuffix(".jsonl")
        proved = ", ".join(map(str, wins + losses))
        print(f"| `{name}` | {len(rows)} | **{len(wins)}** | {len(losses)} | {unknown} | {median} | {proved} |")


if __name__ == "__main__":
    main()
