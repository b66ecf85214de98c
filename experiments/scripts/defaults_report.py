#!/usr/bin/env python3
"""Markdown table of the defaults experiments (experiments/defaults.md): one row per game, one column
per engine label and budget found in experiments/data/defaults/<game>-<label>-<budget>.json,
each cell the score of the engine against its opponent with the 95 % interval and games played.

    experiments/scripts/defaults_report.py [label ...]      (default: every label found)
"""
import json
import os
import re
import sys

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "defaults")
NAME = re.compile(r"^(?P<game>[a-z0-9]+)-(?P<label>[a-z0-9-]+)-(?P<budget>\d+(?:it|ms))\.json$")
ORDER = ["breakthrough", "knightthrough", "minishogi", "losalamos", "ataxx", "loa7", "cfour",
         "reversi", "loa", "awari", "kalah", "surakarta", "reachchess", "skirmish",
         "breakthrough6x6", "breakthrough7x7", "gomoku", "gomokufreestyle", "go"]


def main(labels):
    cells, columns = {}, []
    for name in sorted(os.listdir(DATA)):
        m = NAME.match(name)
        if not m or (labels and m["label"] not in labels):
            continue
        with open(os.path.join(DATA, name)) as f:
            r = json.load(f)
        column = (m["label"], m["budget"])
        if column not in columns:
            columns.append(column)
        s = r["score"]
        mark = "" if s["value"] >= 0.5 else " **<50**"
        cells[(m["game"], column)] = (
            f"{100 * s['value']:.1f} [{100 * s['low']:.1f}, {100 * s['high']:.1f}] "
            f"n={r['played']}{mark}")
    columns.sort(key=lambda c: (c[0], int(re.sub(r"\D", "", c[1])), c[1]))
    print("| game | " + " | ".join(f"{l} {b}" for l, b in columns) + " |")
    print("|---" * (len(columns) + 1) + "|")
    games = [g for g in ORDER if any((g, c) in cells for c in columns)]
    for game in games:
        print(f"| {game} | " + " | ".join(cells.get((game, c), "-") for c in columns) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
