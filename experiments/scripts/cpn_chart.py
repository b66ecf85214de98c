#!/usr/bin/env python3
"""Draws the C_pn sweep (experiments/scripts/cpn_sweep.sh) as an SVG chart: sb-gpn's score against sb-uct per
C_pn, one line per game, with the 95 % intervals. Standard library only.

Usage: experiments/scripts/cpn_chart.py [data_dir] [out.svg] [game ...]
"""
import json
import os
import sys

CPNS = ["0", "0.1", "0.5", "1", "2", "5"]
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]
W, H = 640, 400
LEFT, RIGHT, TOP, BOTTOM = 60, 150, 40, 50


def load(data_dir, game):
    points = []
    for k, c in enumerate(CPNS):
        path = os.path.join(data_dir, f"cpn-{game}-{c}.json")
        if not os.path.exists(path):
            continue
        try:
            d = json.load(open(path))
        except json.JSONDecodeError:
            continue  # a run still in progress
        s = d["score"]
        budget = d["config"]["budget"]
        points.append((k, 100 * s["value"], 100 * s["low"], 100 * s["high"], d["played"], budget))
    return points


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    data_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "../data")
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "../cpn-sweep.svg")
    games = sys.argv[3:] or ["breakthrough", "loa7"]
    series = [(g, load(data_dir, g)) for g in games]
    series = [(g, p) for g, p in series if p]
    if not series:
        sys.exit("no cpn-<game>-<c>.json files found")
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM
    x = lambda k: LEFT + pw * (k + 0.5) / len(CPNS)
    y = lambda pct: TOP + ph * (1 - pct / 100)
    budget = series[0][1][0][5]
    budget_text = (f"{budget['iterations']} iterations/move" if "iterations" in budget
                   else f"{budget.get('time_ms')} ms/move")
    games_n = series[0][1][0][4]
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W / 2}" y="20" text-anchor="middle" font-size="14">'
           f'sb-gpn (rank) vs sb-uct: score by C_pn ({games_n} games, {budget_text})</text>']
    for pct in range(0, 101, 10):
        style = 'stroke="#888" stroke-dasharray="4 3"' if pct == 50 else 'stroke="#e5e5e5"'
        svg.append(f'<line x1="{LEFT}" x2="{LEFT + pw}" y1="{y(pct)}" y2="{y(pct)}" {style}/>')
        svg.append(f'<text x="{LEFT - 6}" y="{y(pct) + 4}" text-anchor="end">{pct}%</text>')
    for k, c in enumerate(CPNS):
        svg.append(f'<text x="{x(k)}" y="{TOP + ph + 18}" text-anchor="middle">{c}</text>')
    svg.append(f'<text x="{LEFT + pw / 2}" y="{H - 10}" text-anchor="middle">C_pn</text>')
    svg.append(f'<text transform="translate(16 {TOP + ph / 2}) rotate(-90)" '
               f'text-anchor="middle">score of sb-gpn (95 % interval)</text>')
    svg.append(f'<rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="none" stroke="#444"/>')
    for i, (game, points) in enumerate(series):
        colour = COLOURS[i % len(COLOURS)]
        dx = (i - (len(series) - 1) / 2) * 6  # side by side, so the intervals do not overlap
        path = " ".join(f"{'M' if j == 0 else 'L'}{x(k) + dx:.1f},{y(v):.1f}"
                        for j, (k, v, _, _, _, _) in enumerate(points))
        svg.append(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for k, v, lo, hi, _, _ in points:
            cx = x(k) + dx
            svg.append(f'<line x1="{cx}" x2="{cx}" y1="{y(hi):.1f}" y2="{y(lo):.1f}" '
                       f'stroke="{colour}"/>')
            svg.append(f'<circle cx="{cx:.1f}" cy="{y(v):.1f}" r="3.5" fill="{colour}"/>')
        ly = TOP + 20 + 20 * i
        svg.append(f'<line x1="{LEFT + pw + 15}" x2="{LEFT + pw + 40}" y1="{ly}" y2="{ly}" '
                   f'stroke="{colour}" stroke-width="2"/>')
        svg.append(f'<text x="{LEFT + pw + 46}" y="{ly + 4}">{game}</text>')
    svg.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(svg) + "\n")
    for game, points in series:
        for k, v, lo, hi, n, _ in points:
            print(f"{game} C_pn {CPNS[k]}: {v:.1f} % [{lo:.1f}, {hi:.1f}] ({n} games)")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
