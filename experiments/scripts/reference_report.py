#!/usr/bin/env python3
"""The budget table of experiments/reference.md: for each game, sb-gpn's Table 1 cell against
sb-uct at every iteration budget found, counted both ways: the paper runner's ratio
wins / (games - draws) and the score (wins + draws / 2) / games with its 95 % interval, beside
the paper's figure. A cell "meets" the paper when the score's interval holds the paper's figure
or lies above it.

Usage: experiments/scripts/reference_report.py <data folder> [more folders ...]
The files are table1-<game>-<N>it.json (gpn match --json); a budget found in several folders is
taken from the first."""
import json
import os
import re
import sys

# game: (the paper's best score-bounded cell, its score in %), as experiments/scripts/table1.sh
PAPER = {
    "loa7": ("rank, C_pn 2", 91.8),
    "minishogi": ("rank, C_pn 0.5", 67.8),
    "reachchess": ("rank, C_pn 2", 79.0),
    "ataxx": ("max, C_pn 0.5", 92.4),
    "losalamos": ("rank, C_pn 1", 85.5),
    "losalamos-ludii": ("rank, C_pn 1", 85.5),
    "reversi": ("sum, C_pn 2", 76.7),
    "skirmish": ("max, C_pn 0.5", 65.3),
}


def cells(folders):
    """{(game, iterations): match json}, the first folder winning."""
    found = {}
    pattern = re.compile(r"^table1-(.+)-(\d+)it\.json$")
    for folder in folders:
        for name in sorted(os.listdir(folder)):
            m = pattern.match(name)
            if not m or m.group(1) not in PAPER:
                continue
            key = (m.group(1), int(m.group(2)))
            if key not in found:
                with open(os.path.join(folder, name)) as f:
                    found[key] = json.load(f)
    return found


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    found = cells(sys.argv[1:])
    budgets = sorted({b for (_, b) in found})
    head = " | ".join(f"{b} it" for b in budgets)
    # Table 1: the score and its interval, bold where it meets the paper.
    print(f"| game | paper's cell | paper | {head} |")
    print("|---|---|---|" + "---|" * len(budgets))
    for game, (cell, paper) in PAPER.items():
        if not any((game, b) in found for b in budgets):
            continue
        row = [game, cell, f"{paper:.1f} %"]
        for b in budgets:
            d = found.get((game, b))
            if d is None:
                row.append("-")
                continue
            s = d["score"]
            mark = "**" if 100.0 * s["high"] >= paper else ""
            row.append(f"{mark}{100 * s['value']:.1f}{mark} [{100 * s['low']:.1f}, {100 * s['high']:.1f}]")
        print("| " + " | ".join(row) + " |")
    # Table 2: W-D-L and the paper runner's ratio wins / (games - draws).
    print()
    print(f"| game | {head} |")
    print("|---|" + "---|" * len(budgets))
    for game in PAPER:
        if not any((game, b) in found for b in budgets):
            continue
        row = [game]
        for b in budgets:
            d = found.get((game, b))
            if d is None:
                row.append("-")
                continue
            r = d["results"]
            w, dr, l = r["wins"], r["draws"], r["losses"]
            ratio = 100.0 * w / (w + l) if w + l else float("nan")
            row.append(f"{w}-{dr}-{l}, ratio {ratio:.1f}")
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
