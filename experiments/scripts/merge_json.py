#!/usr/bin/env python3
"""Totals of several `gpn match --json` files of one pairing (e.g. the chunks of
experiments/scripts/time_odds.sh): W/D/L from A's view, the score with its 95 % interval (normal
approximation, as gpn match reports it), mean think time per move of each side.

    experiments/scripts/merge_json.py experiments/data/odds/cfour-hash4-100ms-s*.json
"""
import json
import math
import sys


def main(paths):
    w = d = l = 0
    think = [0.0, 0.0]
    for p in paths:
        with open(p) as f:
            r = json.load(f)
        w, d, l = w + r["results"]["wins"], d + r["results"]["draws"], l + r["results"]["losses"]
        n = r["played"]
        think[0] += r["think_ms"]["a"] * n
        think[1] += r["think_ms"]["b"] * n
    n = w + d + l
    if n == 0:
        sys.exit("no games")
    score = (w + d / 2) / n
    var = (w * (1 - score) ** 2 + d * (0.5 - score) ** 2 + l * score ** 2) / n
    half = 1.96 * math.sqrt(var / n)
    print(f"games {n}  W {w} D {d} L {l}  score {score:.3f} [{max(0, score - half):.3f}, "
          f"{min(1, score + half):.3f}]  think A {think[0] / n:.0f} ms, B {think[1] / n:.0f} ms")


if __name__ == "__main__":
    main(sys.argv[1:])
