#!/usr/bin/env python3
"""Clock use and score of match.py JSON files (experiments/scripts/time_matches.sh, scripts/external/match.py).

For every file group (variant and time control), per engine: games, mean clock use (the think
time of a game over the time it had: base + increment x its moves), the share of games that left
more than half the clock unused, the longest move, the least time left, time losses; and engine
A's score with a 95 % interval. Standard library only.

go_gnugo.py's JSON Lines files (gpn on a sudden-death clock against GNU Go) are read too: one
row per file, with gpn's clock use (its time spent over the game's time).

Usage: experiments/scripts/clock_use.py FILE.json|FILE.jsonl [...]   (each may be gzip-compressed: .gz)
"""
import collections
import gzip
import json
import math
import sys


def opened(path):
    """A text file, gzip-compressed when its name ends in .gz (the committed data)."""
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def go_rows(path):
    """gpn's clock use and score over one go_gnugo.py file."""
    with opened(path) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    rows = [r for r in rows if "spent" in r]
    if not rows:
        return
    use = []
    for r in rows:
        spent = sum(r["spent"])
        if spent + r["clock_left"] > 0:
            use.append(spent / (spent + r["clock_left"]))
    score = sum(r["gpn_score"] for r in rows) / len(rows)
    losses = sum(1 for r in rows if r.get("end") == "time" and r.get("by", "").startswith("gpn"))
    print(f"| {path.split('/')[-1]} | {len(rows)} games vs GNU Go | gpn score {100 * score:.0f} % "
          f"| gpn clock use {100 * sum(use) / len(use):.0f} % | time losses {losses} |")


def main(paths):
    groups = collections.OrderedDict()
    for path in paths:
        if path.endswith((".jsonl", ".jsonl.gz")):
            go_rows(path)
            continue
        with opened(path) as f:
            d = json.load(f)
        cfg = d["config"]
        game = cfg["variant"] if cfg["mode"] == "uci" else cfg["gtp_game"]
        key = (game, f'{cfg["base_ms"] / 1000:g}+{cfg["inc_ms"] / 1000:g}')
        g = groups.setdefault(key, {"scores": [], "use": {"A": [], "B": []},
                                    "max_ms": {"A": 0.0, "B": 0.0},
                                    "min_left": {"A": math.inf, "B": math.inf},
                                    "time_losses": {"A": 0, "B": 0}, "plies": []})
        for cause in d.get("failures", []):
            if cause.get("cause") == "time loss":
                g["time_losses"][cause.get("engine", "A")] += 1
        for game_rec in d["games"]:
            g["scores"].append(game_rec["score_a"])
            g["plies"].append(game_rec["plies"])
            for e in "AB":
                times = [t for t in game_rec["times"] if t["engine"] == e]
                if not times:
                    continue
                think = sum(t["ms"] for t in times)
                had = cfg["base_ms"] + cfg["inc_ms"] * len(times)
                g["use"][e].append(think / had)
                g["max_ms"][e] = max(g["max_ms"][e], max(t["ms"] for t in times))
                left = min(t["remaining_ms"] - t["ms"] for t in times)
                g["min_left"][e] = min(g["min_left"][e], left)
    print("| game | tc | games | A score (95 %) | A clock use | B clock use | A/B games with > half unused | A/B longest move | A/B least left | time losses A/B | mean plies |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for (game, tc), g in groups.items():
        n = len(g["scores"])
        if n == 0:
            continue
        mean = sum(g["scores"]) / n
        var = sum((s - mean) ** 2 for s in g["scores"]) / max(1, n - 1)
        half = 1.96 * math.sqrt(var / n)
        use = {e: sum(v) / len(v) if v else float("nan") for e, v in g["use"].items()}
        lazy = {e: sum(1 for u in v if u < 0.5) for e, v in g["use"].items()}
        w = sum(1 for s in g["scores"] if s == 1.0)
        dr = sum(1 for s in g["scores"] if s == 0.5)
        lo = n - w - dr
        print(f"| {game} | {tc} | {n} | {100 * mean:.1f} % ± {100 * half:.1f} (+{w} ={dr} -{lo}) "
              f"| {100 * use['A']:.0f} % | {100 * use['B']:.0f} % | {lazy['A']}/{lazy['B']} "
              f"| {g['max_ms']['A'] / 1000:.2f}/{g['max_ms']['B'] / 1000:.2f} s "
              f"| {g['min_left']['A'] / 1000:.2f}/{g['min_left']['B'] / 1000:.2f} s "
              f"| {g['time_losses']['A']}/{g['time_losses']['B']} | {sum(g['plies']) / n:.0f} |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
