#!/usr/bin/env python3
"""The tables of experiments/multiplayer.md from the match summaries that
experiments/scripts/multiplayer_matches.sh writes (experiments/data/multiplayer/*.json).

Usage: experiments/scripts/multiplayer_report.py [DIR]   (prints Markdown on stdout)
"""
import glob
import json
import os
import sys


def interval(r):
    return f"{r['score']:.3f} [{r['low']:.3f}, {r['high']:.3f}]"


def mean(m, digits=3):
    if m["n"] == 0 or m["mean"] is None:
        return "-"
    return f"{m['mean']:.{digits}f} ± {m['margin']:.{digits}f}"


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "experiments/data/multiplayer"
    runs = []
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        with open(path) as f:
            text = f.read().strip()
        if not text:
            continue  # a run in progress writes its summary at the end
        run = json.loads(text)
        if "players" in run:  # the two-player control has its own format
            runs.append(run)
    runs.sort(key=lambda r: (r["game"], r["engine1"], r["budget"].get("iterations", 0)))
    print("| game | players | A | B | iterations/move | games | A's score (W-D-L) | A alone | A in all seats but one | A's first-place share per seat | B's |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in runs:
        p = r["players"]
        res = r["result"]
        alone = r["by_seats_held"]["1"]
        most = r["by_seats_held"][str(p - 1)]
        print(
            f"| {r['game']} | {p} | {r['engine1']} | {r['engine2']} | "
            f"{r['budget'].get('iterations', '-')} | {r['games']} | "
            f"{interval(res)} ({res['wins']}-{res['draws']}-{res['losses']}) | "
            f"{interval(alone)} | {interval(most)} | {mean(r['a_first_share'])} | "
            f"{mean(r['b_first_share'])} |"
        )
    print()
    for r in runs:
        print(f"**{r['game']}, A = {r['engine1']}, B = {r['engine2']}, "
              f"{r['budget'].get('iterations', '-')} iterations/move** "
              f"({r['games']} games): share of first place and mean points per seat")
        print()
        print("| seat | A's share | B's share | A's points | B's points |")
        print("|---|---|---|---|---|")
        for s in r["seats"]:
            print(f"| {s['seat']}. {s['colour']} | {mean(s['a_share'])} (n {s['a_share']['n']}) | "
                  f"{mean(s['b_share'])} (n {s['b_share']['n']}) | {mean(s['a_points'], 1)} | "
                  f"{mean(s['b_points'], 1)} |")
        print()


if __name__ == "__main__":
    main()
