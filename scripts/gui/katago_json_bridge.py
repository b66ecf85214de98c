#!/usr/bin/env python3
"""KataGo's JSON analysis protocol on stdin/stdout, answered by gpn's GTP `kata-analyze`.

KaTrain (and other tools written for `katago analysis`) send one JSON query a line and read one
JSON answer a line; gpn speaks GTP. This bridge starts `gpn --protocol gtp --game go`, replays
each query's position with `boardsize`, `clear_board`, `komi` and `play`, runs
`kata-analyze <colour> 10 ownership true` until the query's maxVisits or maxTime, stops it with
`protocol_version`, and answers KataGo's JSON (`moveInfos`, `rootInfo`, `ownership`, values from
Black's side as KaTrain asks with reportAnalysisWinratesAs=BLACK). Partial answers are sent every
`reportDuringSearchEvery` seconds. `prior` and `lcb` are gpn's (the Go 9x9 network's policy, Leela
Zero's lower confidence bound), and `policy` (includePolicy) is built from the priors of every
legal root move, which gpn's lines name. `query_version`, `terminate`, `terminate_all` and
`clear_cache` are answered as KataGo does. Queries run one at a time, newest priority first.

    katago_json_bridge.py [--gpn PATH] [--max-time S] [--log FILE]

Stdlib only. Use as KaTrain's engine command (General and Engine settings, "KataGo command
override": `python3 scripts/gui/katago_json_bridge.py --gpn /path/to/gpn`).
"""
import argparse
import json
import queue
import subprocess
import sys
import threading
import time

COLS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


class Gtp:
    def __init__(self, cmd, log):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.log = log

    def send(self, line):
        if self.log:
            self.log.write(">> " + line + "\n")
            self.log.flush()
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def readline(self):
        line = self.p.stdout.readline()
        if self.log and line.strip():
            self.log.write("<< " + line.rstrip("\n")[:300] + "\n")
            self.log.flush()
        return line

    def response(self):
        """Reads one GTP response: lines up to the blank line; returns (ok, text)."""
        lines = []
        while True:
            line = self.readline()
            if line == "":
                raise EOFError("gpn closed its output")
            line = line.rstrip("\n")
            if not line and lines:
                break
            if line:
                lines.append(line)
        text = "\n".join(lines)
        return text.startswith("="), text[1:].strip()

    def cmd(self, line):
        self.send(line)
        return self.response()


def parse_info(line, size, to_move):
    """One `kata-analyze` line -> (moveInfos, ownership or None), values from Black's side."""
    sign = 1.0 if to_move == "B" else -1.0
    moves, ownership = [], None
    parts = line.split()
    i = 0
    cur = None
    while i < len(parts):
        tok = parts[i]
        if tok == "info":
            cur = {}
            moves.append(cur)
            i += 1
        elif tok == "pv":
            j = i + 1
            pv = []
            while j < len(parts) and parts[j] not in ("info", "ownership"):
                pv.append(parts[j])
                j += 1
            cur["pv"] = pv
            i = j
        elif tok == "ownership":
            vals = [float(x) * sign for x in parts[i + 1:i + 1 + size * size]]
            ownership = vals
            i += 1 + size * size
        else:
            val = parts[i + 1] if i + 1 < len(parts) else ""
            if cur is not None:
                cur[tok] = val
            i += 2
    infos = []
    for m in moves:
        if "move" not in m:
            continue
        wr = float(m.get("winrate", 0.5))
        lead = float(m.get("scoreLead", 0.0))
        util = float(m.get("utility", 0.0))
        # gpn's lcb: Leela Zero's lower confidence bound of the winrate, for the side to move
        lcb = float(m.get("lcb", wr))
        util_lcb = 2.0 * lcb - 1.0
        if sign < 0:  # as KataGo turns them to Black's side: 1 - x, and -x for utilities
            wr, lead, util, lcb, util_lcb = 1.0 - wr, -lead, -util, 1.0 - lcb, -util_lcb
        infos.append({
            "move": m["move"], "visits": int(m.get("visits", 0)), "winrate": wr,
            "scoreLead": lead, "scoreMean": lead, "scoreSelfplay": lead, "scoreStdev": 0.0,
            "utility": util, "lcb": lcb, "utilityLcb": util_lcb,
            # the network's policy in Go 9x9 (the share of the root's visits without one)
            "prior": float(m.get("prior", 0.0)), "order": int(m.get("order", len(infos))),
            "pv": m.get("pv", [m["move"]]),
        })
    return infos, ownership


def policy_of(infos, size):
    """KataGo's `policy`: size*size+1 values, rows from the top, then pass; -1 where illegal.

    gpn's analysis lines name every legal root move (visited or not) with its prior, so a point
    that no line names is illegal (occupied, suicide or ko)."""
    policy = [-1.0] * (size * size + 1)
    for m in infos:
        v = m["move"].upper()
        if v == "PASS":
            policy[-1] = m["prior"]
        elif len(v) >= 2 and v[0] in COLS[:size] and v[1:].isdigit() and 1 <= int(v[1:]) <= size:
            policy[(size - int(v[1:])) * size + COLS.index(v[0])] = m["prior"]
    return policy


class Bridge:
    def __init__(self, args):
        self.log = open(args.log, "a") if args.log else None
        self.gtp = Gtp([args.gpn, "--protocol", "gtp", "--game", "go"], self.log)
        ok, name = self.gtp.cmd("name")
        self.max_time = args.max_time
        self.queue = []  # pending queries
        self.cv = threading.Condition()
        self.terminated = set()
        self.out_lock = threading.Lock()
        self.size = None

    def emit(self, obj):
        with self.out_lock:
            sys.stdout.write(json.dumps(obj) + "\n")
            sys.stdout.flush()

    def reader(self):
        for line in sys.stdin:
            line = line.strip()
            if not line:
                continue
            try:
                q = json.loads(line)
            except json.JSONDecodeError as e:
                self.emit({"error": f"could not parse query: {e}"})
                continue
            action = q.get("action")
            if action == "query_version":
                self.emit({"id": q.get("id"), "action": "query_version", "version": "1.15.3", "git_hash": "gpn-bridge"})
            elif action == "clear_cache":
                self.emit({"id": q.get("id"), "action": "clear_cache"})
            elif action in ("terminate", "terminate_all"):
                with self.cv:
                    tid = q.get("terminateId")
                    if action == "terminate_all":
                        ids = [x["id"] for x in self.queue] + ["*"]
                    else:
                        ids = [tid]
                    self.terminated.update(ids)
                    self.queue = [x for x in self.queue if x["id"] not in self.terminated]
                    self.cv.notify_all()
                self.emit({"id": q.get("id"), "action": action, "terminateId": tid, "turnNumbers": []})
            elif action:
                self.emit({"id": q.get("id"), "error": f"unknown action {action}"})
            else:
                with self.cv:
                    self.queue.append(q)
                    self.cv.notify_all()
        with self.cv:
            self.queue.append(None)
            self.cv.notify_all()

    def setup(self, q, turn):
        size = int(q.get("boardXSize", 19))
        if size != int(q.get("boardYSize", size)):
            return f"gpn plays square boards only, not {size}x{q.get('boardYSize')}"
        ok, msg = self.gtp.cmd(f"boardsize {size}")
        if not ok:
            return f"boardsize {size}: {msg}"
        self.gtp.cmd("clear_board")
        self.gtp.cmd(f"komi {q.get('komi', 7.5)}")
        to_move = (q.get("initialPlayer") or "B").upper()[0]
        for colour, v in q.get("initialStones", []):
            ok, msg = self.gtp.cmd(f"play {colour} {v}")
            if not ok:
                return f"initial stone {colour} {v}: {msg}"
        for colour, v in q.get("moves", [])[:turn]:
            ok, msg = self.gtp.cmd(f"play {colour} {v}")
            if not ok:
                return f"play {colour} {v}: {msg}"
            to_move = "W" if colour.upper()[0] == "B" else "B"
        self.size = size
        return to_move

    def analyse(self, q, turn):
        to_move = self.setup(q, turn)
        if len(to_move) != 1:
            self.emit({"id": q["id"], "error": to_move, "turnNumber": turn})
            return
        max_visits = int(q.get("maxVisits") or 10 ** 9)
        max_time = float((q.get("overrideSettings") or {}).get("maxTime") or self.max_time)
        max_time = min(max_time, self.max_time)
        every = q.get("reportDuringSearchEvery")
        own = bool(q.get("includeOwnership", True))
        self.gtp.send(f"kata-analyze {to_move} 10" + (" ownership true" if own else ""))
        first = self.gtp.readline().strip()  # "=" at once; the blank line comes when it ends
        if not first.startswith("="):
            self.gtp.readline()
            self.emit({"id": q["id"], "error": f"kata-analyze: {first}", "turnNumber": turn})
            return
        start = time.time()
        last_report = start
        infos, ownership = [], None
        while True:
            line = self.gtp.readline()
            if line == "":
                raise EOFError("gpn closed its output")
            line = line.strip()
            if line.startswith("info"):
                infos, o = parse_info(line, self.size, to_move)
                ownership = o if o is not None else ownership
            visits = sum(m["visits"] for m in infos)
            now = time.time()
            with self.cv:
                stop = q["id"] in self.terminated or "*" in self.terminated
            if stop or visits >= max_visits or now - start >= max_time:
                break
            if every and infos and now - last_report >= float(every):
                last_report = now
                self.emit(self.answer(q, turn, infos, ownership, to_move, partial=True))
        self.gtp.send("protocol_version")  # ends the analysis
        while True:  # skip the rest of the analysis up to protocol_version's answer
            line = self.gtp.readline()
            if line == "":
                raise EOFError("gpn closed its output")
            if line.startswith("= 2") or line.strip() == "=2":
                self.gtp.readline()
                break
        if not stop:
            self.emit(self.answer(q, turn, infos, ownership, to_move, partial=False))

    def answer(self, q, turn, infos, ownership, to_move, partial):
        visits = sum(m["visits"] for m in infos)
        best = infos[0] if infos else {"winrate": 0.5, "scoreLead": 0.0, "utility": 0.0}
        out = {
            "id": q["id"], "turnNumber": turn, "isDuringSearch": partial,
            # KataGo lists the moves it searched; gpn's lines also name unvisited ones (their
            # priors go into `policy`)
            "moveInfos": [m for m in infos if m["visits"] > 0],
            "rootInfo": {"visits": visits, "winrate": best["winrate"], "scoreLead": best["scoreLead"],
                         "scoreSelfplay": best["scoreLead"], "scoreStdev": 0.0, "utility": best["utility"],
                         "currentPlayer": to_move, "rawWinrate": best["winrate"], "rawLead": best["scoreLead"]},
        }
        if ownership is not None and q.get("includeOwnership", True):
            out["ownership"] = ownership
        if q.get("includePolicy") and infos:
            out["policy"] = policy_of(infos, self.size)
        return out

    def run(self):
        threading.Thread(target=self.reader, daemon=True).start()
        while True:
            with self.cv:
                while not self.queue:
                    self.cv.wait()
                # newest of the highest priority first, as KaTrain wants the node on screen first
                best = max(range(len(self.queue)),
                           key=lambda i: (-1, 0) if self.queue[i] is None else (self.queue[i].get("priority", 0), i))
                q = self.queue.pop(best)
                self.terminated.discard("*")
            if q is None:
                break
            turns = q.get("analyzeTurns") or [len(q.get("moves", []))]
            for turn in turns:
                try:
                    self.analyse(q, turn)
                except EOFError as e:
                    self.emit({"id": q.get("id"), "error": str(e)})
                    return
        self.gtp.send("quit")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gpn", default="target/release/gpn")
    ap.add_argument("--max-time", type=float, default=5.0, help="seconds a query at most (default 5)")
    ap.add_argument("--log", help="append the GTP stream to this file")
    Bridge(ap.parse_args()).run()


if __name__ == "__main__":
    main()
