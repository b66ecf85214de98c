#!/usr/bin/env python3
"""Elo ladder: the Fairy-Stockfish `Skill Level` (0-20) at which gpn scores 50 %, by bisection.

Each step is a short cutechess-cli match, gpn against Fairy-Stockfish at one Skill Level
(default 12 games at 5+0.05, seats swapped per opening, `-repeat`), from varied openings: a PGN
of positions after a few uniformly random plies (FSF `go perft 1`, UCI moves, which cutechess
reads; cutechess 1.5.1 does not read FSF's minishogi FENs from an EPD), made once per variant
and seed. Bisection on [--lo, --hi] keeps score(lo) >= 50 % > score(hi); the endpoints are
played too when the bisection ends on them untested, and the crossing is interpolated linearly
between the last two levels. Every step (its command line and result) is appended to --results
as a JSON line as soon as it ends; a rerun with the same file reuses the steps already played
(same variant, time control and gpn command), so an interrupted ladder resumes.

    python3 scripts/tactics/ladder.py --variant minishogi --gpn /work/bin/gpn-base \\
        --results experiments/tactics/results/ladder-minishogi.jsonl
    python3 scripts/tactics/ladder.py --variant losalamos --gpn /work/bin/gpn-base \\
        --games 12 --tc 5+0.05 --results experiments/tactics/results/ladder-losalamos.jsonl

cutechess-cli talks UCI to both engines (`-variant VARIANT`; it sets UCI_Variant itself);
--variant-path passes an ini to Fairy-Stockfish (`initstr=setoption name VariantPath ...`) for
variants it lacks. Prints one line per step and `VARIANT: gpn ~ FSF skill N` at the end.
Stdlib only.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci import Engine, EngineError  # noqa: E402


def make_openings(args, path):
    """A PGN of --openings-count positions after --opening-plies random plies (UCI moves)."""
    e = Engine(args.fsf)
    if args.variant_path:
        e.setoption("VariantPath", os.path.abspath(args.variant_path))
    e.setoption("UCI_Variant", args.variant)
    e.ready()
    rng = random.Random(f"{args.seed}/{args.variant}/openings")
    seen, games = set(), []
    for _ in range(args.openings_count * 20):
        if len(games) >= args.openings_count:
            break
        moves = []
        for _ in range(args.opening_plies):
            e.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
            e.send("go perft 1")
            lines = e.wait(lambda l: l.startswith("Nodes searched"), 30)
            legal = [l.split(":")[0] for l in lines[:-1]
                     if l.endswith(": 1") and " " not in l.split(":")[0]]
            if not legal:
                break
            moves.append(rng.choice(legal))
        if len(moves) == args.opening_plies and tuple(moves) not in seen:
            seen.add(tuple(moves))
            games.append(moves)
    e.close()
    with open(path, "w") as f:
        for k, moves in enumerate(games):
            text = " ".join((f"{i // 2 + 1}. " if i % 2 == 0 else "") + m
                            for i, m in enumerate(moves))
            f.write(f'[Event "opening {k}"]\n[Variant "{args.variant}"]\n\n{text} *\n\n')


def play(args, skill, openings):
    games = args.games + args.games % 2
    cmd = [args.cutechess, "-variant", args.variant,
           "-engine", "name=gpn", f"cmd={args.gpn}", "proto=uci"]
    cmd += [f"option.{o}" for o in args.gpn_option]
    cmd += ["-engine", "name=fsf", f"cmd={args.fsf}", "proto=uci", f"option.Skill Level={skill}",
            "option.Threads=1"]
    if args.variant_path:
        cmd.append(f"initstr=setoption name VariantPath value {os.path.abspath(args.variant_path)}")
    cmd += ["-each", f"tc={args.tc}", "timemargin=50",
            "-openings", f"file={openings}", "format=pgn", "order=random",
            "-repeat", "-games", "2", "-rounds", str(games // 2), "-concurrency", "1",
            "-recover", "-srand", str(args.seed * 100 + skill)]
    t = time.time()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=args.step_timeout)
        out, rc = p.stdout, p.returncode
    except subprocess.TimeoutExpired as e:
        out, rc = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), "timeout"
    except OSError as e:
        out, rc = str(e), "cannot start"
    scores = re.findall(r"Score of gpn vs fsf: (\d+) - (\d+) - (\d+)", out)
    w, l, d = map(int, scores[-1]) if scores else (0, 0, 0)
    n = w + l + d
    ends = {}
    for m in re.finditer(r"Finished game \d+ \((\w+) vs (\w+)\): (\S+) \{([^}]*)\}", out):
        ends[m.group(4)] = ends.get(m.group(4), 0) + 1
    return {"variant": args.variant, "skill": skill, "tc": args.tc, "gpn": args.gpn,
            "gpn_options": args.gpn_option, "games": n, "w": w, "l": l, "d": d,
            "score": round((w + d / 2) / n, 4) if n else None, "rc": rc,
            "endings": ends, "warnings": len(re.findall(r"Warning", out)),
            "seconds": round(time.time() - t, 1),
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t)),
            "cmd": cmd}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", required=True)
    ap.add_argument("--gpn", required=True, help="gpn's command line (UCI)")
    ap.add_argument("--gpn-option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    ap.add_argument("--cutechess", default="/work/bin/cutechess-cli")
    ap.add_argument("--variant-path", help="ini for FSF's VariantPath")
    ap.add_argument("--tc", default="5+0.05")
    ap.add_argument("--games", type=int, default=12, help="games per step (even)")
    ap.add_argument("--lo", type=int, default=0)
    ap.add_argument("--hi", type=int, default=20)
    ap.add_argument("--results", required=True, help="JSON lines, appended (resumes)")
    ap.add_argument("--openings", help="PGN of openings (default: made next to --results)")
    ap.add_argument("--opening-plies", type=int, default=4)
    ap.add_argument("--openings-count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--step-timeout", type=float, default=3600)
    args = ap.parse_args()
    if not 0 <= args.lo < args.hi <= 20 or args.games < 2:
        ap.error("need 0 <= lo < hi <= 20 and --games >= 2")
    for path in (args.cutechess, args.fsf):
        if not os.access(path, os.X_OK):
            print(f"error: {path} is not executable", file=sys.stderr)
            return 3
    openings = args.openings or os.path.join(
        os.path.dirname(os.path.abspath(args.results)),
        f"openings-{args.variant}-{args.opening_plies}ply-s{args.seed}.pgn")
    os.makedirs(os.path.dirname(os.path.abspath(args.results)), exist_ok=True)
    if not os.path.exists(openings):
        try:
            make_openings(args, openings)
        except EngineError as e:
            print(f"error: making openings: {e}", file=sys.stderr)
            return 3
    done = {}
    if os.path.exists(args.results):
        with open(args.results) as f:
            for line in f:
                try:
                    r = json.loads(line)
                except ValueError:
                    continue
                if (r.get("variant"), r.get("tc"), r.get("gpn"), r.get("gpn_options")) == \
                        (args.variant, args.tc, args.gpn, args.gpn_option) and r.get("games"):
                    done[r["skill"]] = r

    def score(skill):
        if skill not in done:
            r = play(args, skill, openings)
            with open(args.results, "a") as f:
                f.write(json.dumps(r) + "\n")
            print(f"{args.variant} skill {skill}: gpn +{r['w']} ={r['d']} -{r['l']} "
                  f"({r['score']}) in {r['seconds']} s, rc {r['rc']}", flush=True)
            if not r["games"]:
                raise SystemExit(f"error: no game finished at skill {skill} (rc {r['rc']})")
            done[skill] = r
        else:
            r = done[skill]
            print(f"{args.variant} skill {skill}: gpn +{r['w']} ={r['d']} -{r['l']} "
                  f"({r['score']}) [from {args.results}]", flush=True)
        return done[skill]["score"]

    lo, hi = args.lo, args.hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if score(mid) >= 0.5:
            lo = mid
        else:
            hi = mid
    s_lo = score(lo)
    if s_lo < 0.5:
        print(f"{args.variant}: gpn ~ FSF skill < {lo} (scores {s_lo:.3f} at skill {lo})")
        return 0
    s_hi = score(hi)
    if s_hi >= 0.5:
        print(f"{args.variant}: gpn ~ FSF skill >= {hi} (scores {s_hi:.3f} at skill {hi})")
        return 0
    x = lo + (s_lo - 0.5) / (s_lo - s_hi) * (hi - lo)
    print(f"{args.variant}: gpn ~ FSF skill {x:.1f} (between {lo}: {s_lo:.3f} and "
          f"{hi}: {s_hi:.3f}; {sum(r['games'] for r in done.values())} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
