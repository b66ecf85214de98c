#!/usr/bin/env python3
"""Merges the JSON reports of several `gpn match` runs between the same two engines (chunks of one
long match, played with different seeds) into one report on stdout: summed wins/draws/losses,
score and Elo with the same 95 % interval as `gpn match` (src/arena/stats.rs), summed seconds.

    experiments/scripts/merge_matches.py part1.json part2.json ... > merged.json
"""
import json
import math
import sys

Z95 = 1.959963984540054


def wdl_block(w, d, l):
    n = w + d + l
    return {"wins": w, "draws": d, "losses": l, "score": (w + d / 2) / n if n else 0.5}


def interval(w, d, l):
    n = w + d + l
    if n == 0:
        return {"value": 0.5, "low": 0.0, "high": 1.0}
    s = (w + d / 2) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s * s) / n
    half = Z95 * math.sqrt(var / n)
    return {"value": s, "low": max(s - half, 0.0), "high": min(s + half, 1.0)}


def elo(s):
    if s <= 0:
        return float("-inf")
    if s >= 1:
        return float("inf")
    return -400 * math.log10(1 / s - 1)


def main(paths):
    reports = [json.load(open(p)) for p in paths]
    first = reports[0]
    for r in reports[1:]:
        if (r["game"], r["engine_a"], r["engine_b"]) != (first["game"], first["engine_a"], first["engine_b"]):
            sys.exit(f"merge_matches: {r['game']} {r['engine_a']} vs {r['engine_b']} differs from the first part")
    out = dict(first)
    for key in ("results", "a_first", "a_second", "first_player"):
        w = sum(r[key]["wins"] for r in reports)
        d = sum(r[key]["draws"] for r in reports)
        l = sum(r[key]["losses"] for r in reports)
        out[key] = wdl_block(w, d, l)
    res = out["results"]
    out["played"] = sum(r["played"] for r in reports)
    out["games"] = out["played"]
    out["score"] = interval(res["wins"], res["draws"], res["losses"])
    out["elo"] = {k: elo(v) for k, v in out["score"].items()}
    out["endings"] = {k: sum(r["endings"].get(k, 0) for r in reports) for k in first["endings"]}
    out["seconds"] = sum(r["seconds"] for r in reports)
    games = out["played"] or 1
    out["think_ms"] = {side: sum(r["think_ms"][side] * r["played"] for r in reports) / games
                       for side in first["think_ms"]}
    out["config"] = dict(first["config"], games=out["played"],
                         seeds=[r["config"]["seed"] for r in reports])
    out["parts"] = paths
    json.dump(out, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main(sys.argv[1:])
