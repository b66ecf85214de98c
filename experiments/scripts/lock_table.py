#!/usr/bin/env python3
"""Markdown table of thread scaling from `gpn bench --threads 1,2 --engine ...` outputs.

Each file is one bench run whose engines come in (1 thread, 2 threads) pairs, as `--threads 1,2`
makes them. For every game and pair: the 2-thread/1-thread iterations/s ratio, the serial
fraction of the 2-thread run and its projected speed-ups at 16 threads (Amdahl / queue).

Usage: lock_table.py LABEL=FILE [LABEL=FILE ...]
"""
import re
import sys

ROW = re.compile(r"^(\S+)\s+(\d+)\s+(\d+)")
PROFILE = re.compile(r"^\s+e(\d+): serial ([\d.]+) %, waiting ([\d.]+) %.*? 16:([\d.]+)/([\d.]+)")


def read(path):
    """{game: {pair index: (ratio, serial %, wait %, amdahl16, queue16)}}"""
    games, game, rates = {}, None, []
    for line in open(path):
        m = PROFILE.match(line)
        if m and game:
            k = int(m.group(1))  # the 2-thread engine of pair (k // 2 - 1)
            pair = k // 2 - 1
            ratio = rates[k - 1] / max(rates[k - 2], 1e-9)
            games[game][pair] = (ratio, float(m.group(2)), float(m.group(3)),
                                 float(m.group(4)), float(m.group(5)))
            continue
        m = ROW.match(line)
        if m and not line.startswith(("game", "search", "bench")):
            fields = line.split()
            game = fields[0]
            # rates are the integer columns before the ratio columns
            rates = []
            for f in fields[1:]:
                if re.fullmatch(r"\d+", f):
                    rates.append(float(f))
                else:
                    break
            games.setdefault(game, {})
    return games


def main():
    runs = []
    for arg in sys.argv[1:]:
        label, path = arg.split("=", 1)
        runs.append((label, read(path)))
    header = ["game"]
    for label, games in runs:
        pairs = max((len(v) for v in games.values()), default=0)
        for p in range(pairs):
            name = label if pairs == 1 else f"{label} #{p + 1}"
            header += [f"{name}: 2t/1t", "serial", "16t Amdahl/queue"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    order = list(runs[0][1].keys())
    for game in order:
        cells = [game]
        for _, games in runs:
            for p in sorted(games.get(game, {})):
                ratio, serial, _, amdahl, queue = games[game][p]
                cells += [f"{ratio:.2f}x", f"{serial:.1f} %", f"{amdahl:.1f}x / {queue:.1f}x"]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
