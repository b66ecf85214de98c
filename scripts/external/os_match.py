#!/usr/bin/env python3
"""gpn (over GTP) against OpenSpiel's C++ MCTS bot with solver, at equal time per move.

The OpenSpiel state is the referee: every gpn move must be one of its legal actions, and the game
ends when OpenSpiel says so. Seats alternate; each pair of games starts from the same random
opening plies. Needs an interpreter with `open_spiel` (see README.md in this folder).

  os_match.py --game breakthrough --gpn "target/release/gpn --protocol gtp" \
      --movetime 200 --games 40 [--gpn-option "Algorithm=sb-uct"] [--json out.json]

Scores are gpn's: win 1, draw 1/2; the interval is 95 % (normal approximation, as cutechess).
"""
import argparse
import json
import math
import random
import sys
import time

import pyspiel

from gtp_client import Gtp

# gpn game name, OpenSpiel game name, OpenSpiel action string -> gpn's notation
GAMES = {
    "breakthrough": ("breakthrough", "breakthrough"),
    "cfour": ("cfour", "connect_four"),
    "othello": ("reversi", "othello"),
    "awari": ("awari", "oware"),
    "kalah": ("kalah", "mancala"),
    "loa": ("loa", "lines_of_action"),
}


def to_gpn(game, text):
    """OpenSpiel's action string in the notation gpn's GTP reads and writes (lower case)."""
    t = text.strip().rstrip("*").lower()
    if game == "breakthrough":
        # OpenSpiel puts the first player at the top: rank r is gpn's rank 9 - r.
        return f"{t[0]}{9 - int(t[1])}{t[2]}{9 - int(t[3])}"
    if game == "cfour":
        return "abcdefg"[int(t[1:])]
    if game == "kalah":
        n = int(t)
        return "abcdef"[n - 1].upper() if n <= 6 else "abcdef"[n - 8]
    if game == "awari":
        return text.strip()  # case tells the owner: A-F first player, a-f second
    if game == "loa":
        return t.replace("-", "").replace("x", "")
    return t  # othello: same squares, row 1 at the top; "pass"


def gpn_key(game, move):
    """gpn's reply normalised to what to_gpn() produces."""
    m = move.strip()
    if game == "cfour":
        return m[0].lower()
    if game in ("awari", "kalah"):
        return m  # A-F / a-f: the case says whose pit
    return m.lower()


def play_game(args, game, os_game, opening, gpn_first, seed):
    engine = Gtp(args.gpn)
    try:
        engine.cmd(f"set_game {GAMES[game][0]}")
        engine.cmd(f"gpn-setoption movetime {args.movetime}")
        for opt in args.gpn_option:
            name, value = opt.split("=", 1)
            engine.cmd(f"gpn-setoption {name} {value}")
        engine.cmd("clear_board")
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        bot = pyspiel.MCTSBot(os_game, evaluator, args.uct, 10**9, args.memory_mb, True, seed, False,
                              pyspiel.ChildSelectionPolicy.UCT, args.movetime / 1000.0)
        state = os_game.new_initial_state()
        moves, think = [], {"gpn": 0.0, "os": 0.0}
        for act in opening:
            p = state.current_player()
            mv = to_gpn(game, state.action_to_string(p, act))
            engine.cmd(f"play {'bw'[p]} {mv}")
            state.apply_action(act)
            moves.append(mv)
        while not state.is_terminal() and len(moves) < args.max_plies:
            p = state.current_player()
            colour = "bw"[p]
            gpn_to_move = (p == 0) == gpn_first
            if gpn_to_move:
                t0 = time.monotonic()
                reply = engine.cmd(f"genmove {colour}")
                think["gpn"] += time.monotonic() - t0
                legal = {to_gpn(game, state.action_to_string(p, a)): a for a in state.legal_actions()}
                act = legal.get(gpn_key(game, reply))
                if act is None:
                    return {"error": f"gpn played {reply!r}, not legal for OpenSpiel: {sorted(legal)}",
                            "moves": moves}
                moves.append(reply)
            else:
                t0 = time.monotonic()
                act = bot.step(state)
                think["os"] += time.monotonic() - t0
                mv = to_gpn(game, state.action_to_string(p, act))
                engine.cmd(f"play {colour} {mv}")
                moves.append(mv)
            state.apply_action(act)
        if not state.is_terminal():
            score = 0.5
        else:
            r = state.returns()[0 if gpn_first else 1]
            score = 1.0 if r > 0 else 0.0 if r < 0 else 0.5
        return {"score": score, "gpn_first": gpn_first, "moves": moves, "plies": len(moves),
                "think_s": think}
    finally:
        engine.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", required=True, choices=sorted(GAMES))
    ap.add_argument("--gpn", required=True, help="command line of gpn speaking GTP")
    ap.add_argument("--gpn-option", action="append", default=[], help="NAME=VALUE, via gpn-setoption")
    ap.add_argument("--movetime", type=int, default=200, help="ms per move, both engines")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--openings", type=int, default=2, help="random plies shared by each pair")
    ap.add_argument("--uct", type=float, default=2.0, help="OpenSpiel's exploration constant")
    ap.add_argument("--memory-mb", type=int, default=1000)
    ap.add_argument("--max-plies", type=int, default=1000, help="adjudicated a draw beyond")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json")
    args = ap.parse_args()
    os_game = pyspiel.load_game(GAMES[args.game][1])
    rng = random.Random(args.seed)
    results, errors = [], 0
    opening = []
    for i in range(args.games):
        if i % 2 == 0:
            state, opening = os_game.new_initial_state(), []
            for _ in range(args.openings):
                if state.is_terminal():
                    break
                a = rng.choice(state.legal_actions())
                opening.append(a)
                state.apply_action(a)
        res = play_game(args, args.game, os_game, opening, i % 2 == 0, args.seed * 1000 + i)
        res["game"] = i + 1
        results.append(res)
        if "error" in res:
            errors += 1
            print(f"game {i + 1}: ERROR {res['error']}", flush=True)
            continue
        done = [r["score"] for r in results if "score" in r]
        print(f"game {i + 1}: gpn {'first' if res['gpn_first'] else 'second'} "
              f"score {res['score']} plies {res['plies']}  total {sum(done)}/{len(done)}", flush=True)
    scores = [r["score"] for r in results if "score" in r]
    n = len(scores)
    mean = sum(scores) / n if n else 0.0
    var = sum((s - mean) ** 2 for s in scores) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n) if n else 0.0
    w = sum(1 for s in scores if s == 1.0)
    d = sum(1 for s in scores if s == 0.5)
    summary = {"game": args.game, "movetime_ms": args.movetime, "gpn_options": args.gpn_option,
               "opponent": f"OpenSpiel MCTSBot uct_c={args.uct} solve=True random rollouts",
               "games": n, "wins": w, "draws": d, "losses": n - w - d, "score": mean,
               "interval95": [max(0.0, mean - half), min(1.0, mean + half)], "errors": errors}
    print(f"{args.game}: gpn {w}-{d}-{n - w - d}  score {100 * mean:.1f} % "
          f"[{100 * summary['interval95'][0]:.1f}, {100 * summary['interval95'][1]:.1f}]  errors {errors}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"summary": summary, "games": results}, f, indent=1)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
