#!/usr/bin/env python3
"""Reports the share of a tactics suite's only moves an engine finds at a fixed time per position.

For every position of the suite (JSON lines from make_suite.py) the engine gets `ucinewgame`,
`isready`, `position fen FEN` and `go movetime T`, and its `bestmove` is compared with the
suite's best move (drops compared as P@c3; P*c3 read too). UCI_Variant is set from the suite when
the engine has that option, and VariantPath (the suite's ini, relative to the repository) when
the engine has that one (Fairy-Stockfish). Any UCI engine works: the same script measures gpn
and Fairy-Stockfish.

    python3 scripts/tactics/run_suite.py --engine /work/bin/gpn-base --movetime 100 \\
        experiments/tactics/minishogi.jsonl
    python3 scripts/tactics/run_suite.py --engine /usr/games/fairy-stockfish --name fsf \\
        --movetime 10 --option Threads=1 --out results.jsonl --json experiments/tactics/losalamos.jsonl

Prints `VARIANT NAME Tms: found/n = P %` (plus timeouts and engine failures, which count as not
found); --out writes one JSON line per position, --json a JSON summary line on stdout. An engine
that hangs (no bestmove within the movetime + --grace seconds) or dies is restarted and the run
goes on. Exit codes: 0 done, 2 bad arguments or unreadable suite, 3 the engine cannot be started.
Stdlib only.
"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci import Engine, EngineError, norm_move  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def start(args, variant, variant_path):
    e = Engine(args.engine, timeout=args.grace + 10)
    for name, value in args.option:
        e.setoption(name, value)
    if variant_path and e.has_option("VariantPath"):
        path = variant_path if os.path.isabs(variant_path) else os.path.join(REPO, variant_path)
        e.setoption("VariantPath", path)
    if e.has_option("UCI_Variant"):
        e.setoption("UCI_Variant", variant)
    e.ready(args.grace + 10)
    return e


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("suite")
    ap.add_argument("--engine", required=True, help="command line of a UCI engine")
    ap.add_argument("--name", help="name in the report (default: the command's base name)")
    ap.add_argument("--movetime", type=int, required=True, help="ms per position")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--limit", type=int, help="first N positions only")
    ap.add_argument("--grace", type=float, default=5.0, help="s past the movetime before a timeout")
    ap.add_argument("--out", help="per-position results (JSON lines)")
    ap.add_argument("--json", action="store_true", help="print a JSON summary line too")
    args = ap.parse_args()
    if args.movetime <= 0 or (args.limit is not None and args.limit <= 0):
        ap.error("--movetime and --limit must be positive")
    opts = []
    for o in args.option:
        if "=" not in o:
            ap.error(f"--option {o!r}: expected NAME=VALUE")
        opts.append(tuple(s.strip() for s in o.split("=", 1)))
    args.option = opts
    try:
        with open(args.suite) as f:
            suite = [json.loads(l) for l in f if l.strip()]
    except (OSError, ValueError) as e:
        print(f"error: cannot read suite {args.suite}: {e}", file=sys.stderr)
        return 2
    if not suite or any("fen" not in p or "best" not in p for p in suite):
        print(f"error: {args.suite}: no positions, or a line without fen/best", file=sys.stderr)
        return 2
    if args.limit:
        suite = suite[:args.limit]
    variant = suite[0]["variant"]
    variant_path = suite[0].get("variant_path")
    name = args.name or os.path.basename(args.engine.split()[0])
    try:
        eng = start(args, variant, variant_path)
    except EngineError as e:
        print(f"error: engine {args.engine!r}: {e}", file=sys.stderr)
        return 3
    out = open(args.out, "w") if args.out else None
    found = timeouts = failures = 0
    times = []
    for i, pos in enumerate(suite):
        rec = {"i": i, "fen": pos["fen"], "best": pos["best"]}
        if eng is None:
            try:
                eng = start(args, variant, variant_path)
            except EngineError as e:
                rec.update(status="engine-error", error=str(e))
        if eng is not None:
            try:
                eng.send("ucinewgame")
                eng.ready(args.grace + 10)
                eng.send(f"position fen {pos['fen']}")
                t = time.monotonic()
                eng.send(f"go movetime {args.movetime}")
                lines = eng.wait(lambda l: l.startswith("bestmove"),
                                 args.movetime / 1000 + args.grace)
                dt = time.monotonic() - t
                words = lines[-1].split()
                move = words[1] if len(words) > 1 else ""
                ok = norm_move(move) == norm_move(pos["best"])
                found += ok
                times.append(dt)
                rec.update(status="ok", move=move, found=ok, ms=round(dt * 1000, 1))
            except EngineError as e:
                timeout = "no answer" in str(e)
                timeouts += timeout
                rec.update(status="timeout" if timeout else "engine-error", error=str(e))
                eng.close()
                eng = None
        if rec["status"] == "engine-error":
            failures += 1
        if out:
            out.write(json.dumps(rec) + "\n")
            out.flush()
    if eng is not None:
        eng.close()
    if out:
        out.close()
    n = len(suite)
    pct = 100.0 * found / n
    extra = ""
    if timeouts or failures:
        extra = f" ({timeouts} timeouts, {failures} engine failures)"
    print(f"{variant} {name} {args.movetime}ms: {found}/{n} = {pct:.1f} %{extra}")
    if args.json:
        times.sort()
        print(json.dumps({
            "variant": variant, "engine": args.engine, "name": name,
            "options": dict(args.option), "movetime_ms": args.movetime, "positions": n,
            "found": found, "share": round(found / n, 4), "timeouts": timeouts,
            "engine_failures": failures, "suite": args.suite,
            "mean_ms": round(1000 * sum(times) / len(times), 1) if times else None,
            "max_ms": round(1000 * times[-1], 1) if times else None,
        }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
