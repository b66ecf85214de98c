#!/usr/bin/env python3
"""gpn and GNU Go over GTP on 9x9: gnugo as referee of gpn's self-play, or as opponent.

Every move either program makes is played into the other (and, in self-play, into a gnugo
referee), so gnugo checks the legality of every gpn move. At the end both programs' `final_score`
are recorded. Results go to a JSON Lines file, one line per finished game, written as each game
ends; a rerun with the same file skips the games it holds (resumable).

  # gnugo referees gpn's self-play: every move legal, final_score equal
  scripts/external/go_gnugo.py selfplay --games 100 --movetime 200 --out results.jsonl
  # gpn against gnugo --level L, colours alternating, gpn at 1 s per move
  scripts/external/go_gnugo.py match --level 10 --games 50 --movetime 1000 --out results.jsonl
  # the same with 30 s per game, sudden death, for gpn (gnugo plays at its level, untimed)
  scripts/external/go_gnugo.py match --level 10 --games 50 --game-time 30 --out results.jsonl

With --game-time, gpn gets `time_settings S 0 0` (absolute time) and, before each of its moves,
`time_left <colour> <seconds left> 0`; the driver keeps gpn's clock by the wall time of each
`genmove` (the GTP round trip included), and a move that ends past the clock loses the game on
time (end "time"), as cutechess-cli rules.

gnugo runs as `gnugo --mode gtp --chinese-rules --capture-all-dead --positional-superko`
(area scoring, the rules gpn plays), komi 7 unless --komi says otherwise. Needs gnugo
(Debian package `gnugo`) and gpn built (`cargo build --release`).
"""
import argparse
import json
import math
import os
import sys
import time

from gtp_client import Gtp

GNUGO = ["gnugo", "--mode", "gtp", "--chinese-rules", "--capture-all-dead",
         "--positional-superko"]


def gpn(args):
    engine = Gtp([args.gpn, "--protocol", "gtp", "--game", "go"], "gpn")
    if args.game_time is None:
        engine.cmd(f"gpn-setoption movetime {args.movetime}")
    for option in args.gpn_option:
        name, _, value = option.partition("=")
        engine.cmd(f"gpn-setoption {name} {value}")
    return engine


def gnugo(level):
    return Gtp(GNUGO + ["--level", str(level)], f"gnugo-{level}")


def points(score):
    """'B+3.5' -> 3.5, 'W+7.0' -> -7.0, '0' -> 0.0; None when unreadable."""
    try:
        if score[:2] == "B+":
            return float(score[2:])
        if score[:2] == "W+":
            return -float(score[2:])
        return float(score)
    except (ValueError, TypeError):
        return None


def winner_of(score):
    """'B+3' -> 'B', 'W+0.5' -> 'W', '0' -> None."""
    return score[0] if score[:2] in ("B+", "W+") else None


def play_game(black, white, referee, komi, max_moves, clock=None):
    """One game; `clock` = (engine, seconds) puts that engine on a sudden-death clock."""
    engines = [black, white]
    seen = {id(black): black, id(white): white}
    if referee is not None:
        seen[id(referee)] = referee
    everyone = list(seen.values())
    for e in everyone:
        e.cmd("boardsize 9")
        e.cmd("clear_board")
        e.cmd(f"komi {komi}")
    left = None
    if clock is not None:
        clock[0].cmd(f"time_settings {clock[1]} 0 0")
        left = float(clock[1])
    moves, passes, end = [], 0, "passes"
    resigned = None
    spent = []
    while passes < 2:
        if len(moves) >= max_moves:
            end = "cap"
            break
        colour = "bw"[len(moves) % 2]
        mover = engines[len(moves) % 2]
        timed = clock is not None and mover is clock[0]
        if timed:
            mover.cmd(f"time_left {colour} {max(0, int(left))} 0")
        started = time.monotonic()
        move = mover.cmd(f"genmove {colour}")
        if timed:
            took = time.monotonic() - started
            spent.append(round(took, 3))
            left -= took
            if left < 0:
                return {"moves": moves + [move], "end": "time", "by": mover.name,
                        "winner": "W" if colour == "b" else "B", "spent": spent}
        if move.lower() == "resign":
            end, resigned = "resign", colour
            break
        for e in everyone:
            if e is mover:
                continue
            ok, answer = e.send(f"play {colour} {move}")
            if not ok:
                return {"moves": moves + [move], "end": "illegal", "by": mover.name,
                        "refused_by": e.name, "why": answer}
        moves.append(move)
        passes = passes + 1 if move.lower() == "pass" else 0
    scores = {}
    for e in everyone:
        ok, answer = e.send("final_score")
        scores[e.name] = answer if ok else f"? {answer}"
    if resigned:
        winner = "W" if resigned == "b" else "B"
    else:
        winner = winner_of(scores.get("gnugo-ref") or next(
            v for k, v in scores.items() if k.startswith("gnugo")))
    row = {"moves": moves, "end": end, "scores": scores, "winner": winner}
    if clock is not None:
        row["spent"], row["clock_left"] = spent, round(left, 3)
    return row


def done_games(path):
    games = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line:
                    row = json.loads(line)
                    games[row["game"]] = row
    return games


def wilson(wins, n, z=1.96):
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    r = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, (c - r) / d), min(1.0, (c + r) / d))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["selfplay", "match"])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--level", type=int, default=0, help="gnugo's level (match)")
    ap.add_argument("--movetime", type=int, default=1000, help="gpn's ms per move")
    ap.add_argument("--game-time", type=int, default=None,
                    help="gpn's seconds per game, sudden death (match; replaces --movetime)")
    ap.add_argument("--komi", default="7")
    ap.add_argument("--max-moves", type=int, default=400)
    ap.add_argument("--gpn", default="target/release/gpn")
    ap.add_argument("--gpn-option", action="append", default=[],
                    help="name=value, sent as gpn-setoption (repeatable)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    done = done_games(args.out)
    with open(args.out, "a") as out:
        for i in range(args.games):
            if i in done:
                continue
            if args.mode == "selfplay":
                a = gpn(args)
                ref = gnugo(0)
                ref.name = "gnugo-ref"
                row = play_game(a, a, ref, args.komi, args.max_moves)
                a.close()
                ref.close()
                scores = row.get("scores", {})
                mine, ref = points(scores.get("gpn")), points(scores.get("gnugo-ref"))
                row["agree"] = mine is not None and mine == ref
            else:
                a, b = gpn(args), gnugo(args.level)
                gpn_black = i % 2 == 0
                black, white = (a, b) if gpn_black else (b, a)
                clock = None if args.game_time is None else (a, args.game_time)
                row = play_game(black, white, None, args.komi, args.max_moves, clock)
                a.close()
                b.close()
                row["gpn_colour"] = "B" if gpn_black else "W"
                row["gpn_score"] = (1.0 if row.get("winner") == row["gpn_colour"]
                                    else 0.5 if row.get("winner") is None and
                                    row["end"] != "illegal" else 0.0)
            row["game"] = i
            row["mode"], row["level"], row["movetime"], row["komi"] = (
                args.mode, args.level, args.movetime, args.komi)
            if args.game_time is not None:
                row["movetime"], row["game_time"] = None, args.game_time
            out.write(json.dumps(row) + "\n")
            out.flush()
            done[i] = row
            print(f"game {i}: {row['end']} {row.get('scores', '')} "
                  f"{'agree' if row.get('agree') else ''}", file=sys.stderr)

    rows = [done[i] for i in sorted(done) if i < args.games]
    illegal = sum(r["end"] == "illegal" for r in rows)
    on_time = sum(r["end"] == "time" for r in rows)
    print(f"games {len(rows)}, illegal moves {illegal}, lost on time {on_time}")
    clocks = [r["clock_left"] for r in rows if "clock_left" in r]
    if clocks:
        longest = max(max(r["spent"], default=0) for r in rows)
        print(f"gpn's clock left at the end: lowest {min(clocks):.2f} s; longest move {longest:.2f} s")
    if args.mode == "selfplay":
        scored = [r for r in rows if r["end"] == "passes"]
        for r in scored:
            mine = points(r["scores"].get("gpn"))
            r["agree"] = mine is not None and mine == points(r["scores"].get("gnugo-ref"))
        agree = sum(r["agree"] for r in scored)
        same_winner = sum(winner_of(r["scores"].get("gpn", "")) ==
                          winner_of(r["scores"].get("gnugo-ref", "")) for r in scored)
        print(f"finished by two passes {len(scored)}, final_score equal {agree}, "
              f"same winner {same_winner}")
        for r in scored:
            if not r.get("agree"):
                print(f"  game {r['game']}: {r['scores']}")
    else:
        score = sum(r["gpn_score"] for r in rows)
        lo, hi = wilson(score, len(rows))
        print(f"gpn vs gnugo level {args.level}: {score}/{len(rows)} = "
              f"{score / max(1, len(rows)):.3f} [{lo:.3f}, {hi:.3f}] (95 %, Wilson)")


if __name__ == "__main__":
    main()
