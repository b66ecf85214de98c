#!/usr/bin/env python3
"""The GPN paper's Table 1 rerun (experiments/gpn-table1.md): one markdown row per game from
the table1-<game>-<budget>.json files of a data folder, with the paper's figure and whether the
cell meets it (its interval reaches the paper's score or lies above it).

Usage: experiments/scripts/table1_report.py <data folder> <budget, e.g. 2000it or 100ms> [old folder]
With an old folder, a column with the same cell from it (the run before the fixes)."""
import json
import os
import sys

# game: (the paper's best score-bounded cell, its score in %); None: not in the paper
PAPER = {
    "loa7": ("rank, C_pn 2", 91.8),
    "loa": ("rank, C_pn 1", 87.4),
    "awari": ("sum, C_pn 1", 79.7),
    "minishogi": ("rank, C_pn 0.5", 67.8),
    "reversi": ("sum, C_pn 2", 76.7),
    "breakthrough": ("rank, C_pn 1 (not in the paper)", None),
    "cfour": ("rank, C_pn 0.1 (not in the paper)", None),
    "knightthrough": ("max, C_pn 2", 63.2),
    "reachchess": ("rank, C_pn 2", 79.0),
    "ataxx": ("max, C_pn 0.5", 92.4),
    "losalamos": ("rank, C_pn 1", 85.5),
    "skirmish": ("max, C_pn 0.5", 65.3),
    "surakarta": ("max, C_pn 0.5", 82.0),
}


def cell(folder, game, budget):
    path = os.path.join(folder, f"table1-{game}-{budget}.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        d = json.load(f)
    return d


def score_text(d):
    s = d["score"]
    return f"{100 * s['value']:.1f} % [{100 * s['low']:.1f}, {100 * s['high']:.1f}]"


def main():
    folder, budget = sys.argv[1], sys.argv[2]
    old = sys.argv[3] if len(sys.argv) > 3 else None
    head = "| game | sb-gpn cell | W-D-L | score [95 %] |"
    rule = "|---|---|---|---|"
    if old:
        head += " before the fixes |"
        rule += "---|"
    print(head + " paper | meets the paper |")
    print(rule + "---|---|")
    for game, (settings, paper) in PAPER.items():
        d = cell(folder, game, budget)
        if d is None:
            continue
        r = d["results"]
        row = f"| {game} | {settings} | {r['wins']}-{r['draws']}-{r['losses']} | {score_text(d)} |"
        if old:
            o = cell(old, game, budget)
            row += f" {score_text(o) if o else '-'} |"
        if paper is None:
            verdict = "-"
        elif 100 * d["score"]["low"] > paper:
            verdict = "**above**"
        elif 100 * d["score"]["high"] >= paper:
            verdict = "**met** (interval holds it)"
        else:
            verdict = "not met"
        row += f" {f'{paper:.1f} %' if paper is not None else '-'} | {verdict} |"
        print(row)


if __name__ == "__main__":
    main()
