#!/usr/bin/env python3
"""Makes a tactical "only move" suite for one variant with Fairy-Stockfish.

Games start with a few uniformly random legal plies (2-10, FSF `go perft 1` lists the moves),
then Fairy-Stockfish plays on at a low depth (MultiPV 3 at a depth of 4-6 drawn per move, one of
the moves within --near cp of the best picked at random) to reach realistic middlegames. Some
positions on the way (each with probability --probe-prob) are probed with `MultiPV 2` +
`go depth D` from a cleared hash (`ucinewgame`, `position fen`). A position is kept as an
"only move" when:

  * it has at least two legal moves;
  * it is not decided whatever is played: the second move is not a mate for the mover and scores
    below --decided cp (400), and the best move is neither mated nor at or below -400 cp;
  * the best move is a mate for the mover (the second is not, by the rule above), or the second
    move is mated while the best is not ("escape"), or best_cp - second_cp >= --margin (250).

Positions are deduplicated (FEN without the move counters), at most --per-game of a game's
candidates are kept (drawn at random) so that games differ, and games go on until --count
positions are kept. Everything is seeded (--seed): the same engine and arguments give the same
suite. Output: JSON lines, one per position, with the variant, FEN, best and second move (UCI),
depth, both scores, the margin, the number of legal moves and how the position was made.

    python3 scripts/tactics/make_suite.py --variant minishogi --depth 11 --count 120 \\
        --seed 1 --out experiments/tactics/minishogi.jsonl
    python3 scripts/tactics/make_suite.py --variant cfour --variant-path scripts/external/fsf_cfour.ini \\
        --depth 14 --out /tmp/cfour.jsonl     # a variant FSF reads from an ini (VariantPath)

Progress goes to stderr. Stdlib only.
"""
import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci import Engine, EngineError, multipv, score_value  # noqa: E402


class Fsf:
    def __init__(self, path, variant, variant_path=None):
        self.e = Engine(path)
        if variant_path:
            self.e.setoption("VariantPath", os.path.abspath(variant_path))
        self.e.setoption("UCI_Variant", variant)
        self.e.setoption("Threads", 1)
        self.e.setoption("Hash", 16)
        self.e.ready()
        self.mpv = None

    def position(self, fen=None, moves=()):
        base = f"position fen {fen}" if fen else "position startpos"
        self.e.send(base + (" moves " + " ".join(moves) if moves else ""))

    def fen(self):
        self.e.send("d")
        fen = None
        for line in self.e.wait(lambda l: l.startswith("Checkers:"), 10):
            if line.startswith("Fen:"):
                fen = line[4:].strip()
        return fen

    def legal(self):
        self.e.send("go perft 1")
        lines = self.e.wait(lambda l: l.startswith("Nodes searched"), 30)
        return [l.split(":")[0] for l in lines[:-1]
                if l.endswith(": 1") and " " not in l.split(":")[0]]

    def search(self, depth, k):
        if self.mpv != k:
            self.e.setoption("MultiPV", k)
            self.mpv = k
        self.e.send(f"go depth {depth}")
        lines = self.e.wait(lambda l: l.startswith("bestmove"), 600)
        return multipv(lines)


def fmt(score):
    return {"cp": score[1]} if score[0] == "cp" else {"mate": score[1]}


def classify(best, second, margin, decided):
    """The reason a probe is an only move, or None."""
    (bk, bn), (sk, sn) = best, second
    if sk == "mate" and sn > 0:
        return None  # decided: even the second move mates
    if sk == "cp" and sn >= decided:
        return None  # decided: the second move wins anyway
    if bk == "mate":
        return "mate" if bn > 0 else None
    if bn <= -decided:
        return None  # decided: lost whatever is played
    if sk == "mate":  # second is mated (sn <= 0), best is not
        return "escape"
    return "cp-margin" if bn - sn >= margin else None


def play_game(fsf, args, rng, game_no, seen):
    random_plies = rng.randint(args.random_min, args.random_max)
    moves, cands = [], []
    for ply in range(args.max_plies):
        fsf.position(moves=moves)
        legal = fsf.legal()
        if not legal:
            break
        if ply >= random_plies and len(legal) >= 2 and rng.random() < args.probe_prob:
            fen = fsf.fen()
            key = " ".join(fen.split()[:-2]) if len(fen.split()) > 4 else fen
            if key not in seen:
                seen.add(key)
                fsf.e.send("ucinewgame")
                fsf.position(fen=fen)
                fsf.e.ready()
                t = time.monotonic()
                lines = fsf.search(args.depth, 2)
                dt = time.monotonic() - t
                if 1 in lines and 2 in lines:
                    (_, best, pv1), (_, second, pv2) = lines[1], lines[2]
                    why = classify(best, second, args.margin, args.decided)
                    if why:
                        margin = (best[1] - second[1]) if best[0] == second[0] == "cp" else None
                        cands.append({
                            "variant": args.variant, "fen": fen, "best": pv1[0],
                            "second": pv2[0], "depth": args.depth,
                            "best_score": fmt(best), "second_score": fmt(second),
                            "margin_cp": margin, "reason": why, "legal_moves": len(legal),
                            "pv": pv1[:8],
                            "made": {"game": game_no, "ply": ply, "random_plies": random_plies,
                                     "seed": args.seed, "probe_s": round(dt, 3),
                                     "moves": list(moves)},
                        })
                        if args.variant_path:
                            cands[-1]["variant_path"] = args.variant_path
        if ply < random_plies:
            move = rng.choice(legal)
        else:
            fsf.position(moves=moves)
            lines = fsf.search(rng.randint(args.play_min, args.play_max), 3)
            if not lines:
                break
            top = score_value(lines[1][1]) if 1 in lines else 0
            near = [v[2][0] for k, v in sorted(lines.items())
                    if score_value(v[1]) >= top - args.near]
            move = rng.choice(near) if near else lines[min(lines)][2][0]
            if move not in legal:
                move = rng.choice(legal)
        moves.append(move)
    return cands, len(moves)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", required=True)
    ap.add_argument("--out", required=True, help="JSON lines file (overwritten)")
    ap.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    ap.add_argument("--variant-path", help="ini file for FSF's VariantPath (repo-relative)")
    ap.add_argument("--depth", type=int, default=10, help="probe depth D")
    ap.add_argument("--margin", type=int, default=250, help="best - second, cp")
    ap.add_argument("--decided", type=int, default=400, help="second >= this cp: decided")
    ap.add_argument("--count", type=int, default=120)
    ap.add_argument("--per-game", type=int, default=3)
    ap.add_argument("--probe-prob", type=float, default=0.5)
    ap.add_argument("--random-min", type=int, default=2)
    ap.add_argument("--random-max", type=int, default=10)
    ap.add_argument("--play-min", type=int, default=4)
    ap.add_argument("--play-max", type=int, default=6)
    ap.add_argument("--near", type=int, default=40, help="cp from the best a played move may be")
    ap.add_argument("--max-plies", type=int, default=120)
    ap.add_argument("--max-games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    try:
        fsf = Fsf(args.fsf, args.variant, args.variant_path)
    except EngineError as e:
        print(f"error: {e}", file=sys.stderr)
        return 3
    seen, kept, t0 = set(), [], time.monotonic()
    with open(args.out, "w") as out:
        for g in range(args.max_games):
            if len(kept) >= args.count:
                break
            rng = random.Random(f"{args.seed}/{args.variant}/{g}")
            try:
                cands, plies = play_game(fsf, args, rng, g, seen)
            except EngineError as e:
                print(f"game {g}: engine error {e}; restarting", file=sys.stderr)
                fsf.e.close()
                fsf = Fsf(args.fsf, args.variant, args.variant_path)
                continue
            if plies == 0:
                print(f"game {g}: no legal move at the start; stopping", file=sys.stderr)
                break
            rng.shuffle(cands)
            take = cands[:min(args.per_game, args.count - len(kept))]
            take.sort(key=lambda c: c["made"]["ply"])
            for c in take:
                out.write(json.dumps(c) + "\n")
            out.flush()
            kept += take
            probes = [c["made"]["probe_s"] for c in take]
            print(f"game {g}: {plies} plies, {len(cands)} candidates, kept {len(take)}, "
                  f"total {len(kept)} ({time.monotonic() - t0:.0f} s"
                  + (f", probe {max(probes):.2f} s max" if probes else "") + ")",
                  file=sys.stderr)
    fsf.e.close()
    print(f"{args.variant}: {len(kept)} positions in {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
