#!/usr/bin/env python3
"""Checks that cutechess-cli read a `gpn match --games-file` PGN back exactly.

Usage: check_pgn_records.py OURS.pgn CUTECHESS.pgn

OURS is what gpn wrote; CUTECHESS is the -pgnout of a cutechess-cli run that used OURS as its
openings (`-openings file=OURS format=pgn order=sequential plies=10000`). cutechess parses every
move with its own move generator and keeps all but the game's last ply as book moves (the last
would leave no game to play), then its engines play on from there. So, game by game: cutechess
kept at least plies - 1 book moves and, where gpn's game ended by the rules (not by gpn's
repetition or length-cap referee), exactly plies - 1, and its game ended with the same result
and the same length. Python 3 standard library only.
"""
import re
import sys


def games(path):
    text = open(path, encoding="utf-8").read()
    return [g for g in re.split(r"(?m)^(?=\[Event )", text) if g.strip()]


def tag(game, name):
    m = re.search(r'^\[%s "([^"]*)"\]' % name, game, re.M)
    return m.group(1) if m else None


def main():
    ours, theirs = games(sys.argv[1]), games(sys.argv[2])
    errors = []
    if len(ours) != len(theirs) or not ours:
        errors.append(f"{len(ours)} games written, {len(theirs)} read back by cutechess")
    for i, (a, b) in enumerate(zip(ours, theirs)):
        plies = int(tag(a, "PlyCount"))
        book = b.count("{book}")
        if book < plies - 1:
            errors.append(f"game {i + 1}: {plies} plies written, cutechess kept {book} as book")
        if "{game over by the rules}" not in a:
            # A repetition or the game-length cap is gpn's referee's ending; cutechess plays on.
            continue
        if book != plies - 1:
            errors.append(f"game {i + 1}: {plies} plies written, cutechess kept {book} as book")
        elif (tag(a, "Result"), tag(a, "PlyCount")) != (tag(b, "Result"), tag(b, "PlyCount")):
            errors.append(
                f"game {i + 1}: gpn {tag(a, 'Result')} in {tag(a, 'PlyCount')} plies, "
                f"cutechess {tag(b, 'Result')} in {tag(b, 'PlyCount')}"
            )
    for e in errors:
        print("check_pgn_records:", e, file=sys.stderr)
    print(f"check_pgn_records: {len(ours)} games, {len(errors)} mismatches")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
