#!/usr/bin/env python3
"""Random protocol sessions against the gpn binary: UCI, USI, UAI and GTP.

Each session starts `gpn --protocol P`, and with a fixed seed mixes valid commands, played as
a GUI would (moves taken from the engine's own `d` / `gpn-legal_moves` output and from its
`bestmove` answers, searches started and stopped, options set in and out of range), with
mutated and garbage lines (random bytes, non-UTF-8, huge numbers, empty tokens). It fails on:

* an abort or crash: exit by a signal, status 101 or 134, a `panicked` message on stderr, or
  stdout closed before `quit`;
* a hang: `isready` not answered `readyok` (UCI family), or a GTP command not answered, within
  --timeout seconds; `quit` not obeyed within it;
* a malformed answer: a UCI-family line that does not start with a known keyword, a `bestmove`
  of the wrong shape, more `bestmove`s than `go`s or a `go` taken without error and never
  answered; a GTP response not starting with `=` or `?`, not ended by a blank line, answered
  twice, or with another command's id; output that is not UTF-8.

Each failure leaves a reproducer in --out: the exact bytes sent (`gpn --protocol P < file`) with
the engine's arguments and the failure in a `.txt` beside it.

    fuzz_protocol.py target/release/gpn --seconds 180 --seed 1 --out target/fuzz
"""

import argparse
import json
import os
import queue
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unicodedata

# Not defects, but commands whose documented time is longer than the hang limit (`gpn-solve`
# without a time takes 60 s; the GTP move-time options are only ever set small by the
# generator), or whose answer is not a protocol line this checker reads (`go perft` prints its
# counts, one per root move, and no `bestmove`).
SLOW = {
    "gpn-solve-default-time": lambda words: bool(words) and "gpn-solve" in words[:2],
    "move-time-options": lambda words: bool(words)
    and "gpn-setoption" in words[:2]
    and any(w.lower() in ("movetime", "maxmovetime", "move_overhead") for w in words),
    "perft": lambda words: "perft" in words,
}


UCI_KEYWORDS = {"id", "option", "uciok", "usiok", "uaiok", "readyok", "info", "bestmove",
                "checkmate"}

NUMBERS = ["0", "-1", "1", "2", "10", "255", "256", "65536", "2147483647", "2147483648",
           "4294967296", "9223372036854775807", "18446744073709551616", "-9223372036854775809",
           "1e308", "1e999", "nan", "inf", "-inf", "0.5", "-0", "00000000000000000000001"]

NOISE = ["", " ", "  ", "\t", "moves", "fen", "sfen", "startpos", "value", "name", "pass",
         "0000", "a1", "e2e4", "P*3c", "P@a1", "/", "[", "]", "#", "é", "\u202e", "\ufffd",
         "-", "+", "b", "w", "x", "o", "none", "resign", "searchmoves", "infinite", "ponder"]


class Failure(Exception):
    pass


class Quit(Exception):
    """A garbage line that happened to be `quit`: the session ends there, as it should."""


class Engine:
    """A running gpn with a thread that reads stdout into a queue."""

    def __init__(self, binary, args, cwd, log):
        self.log = log  # every byte sent, for the reproducer
        self.stderr = open(os.path.join(cwd, "stderr.txt"), "wb")
        self.proc = subprocess.Popen([binary] + args, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.stderr, cwd=cwd)
        self.lines = queue.Queue()
        self.closed = False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            self.lines.put(raw)
        self.lines.put(None)

    def send(self, data):
        """Sends one line (bytes or text; a newline is added)."""
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogateescape")
        data = data.replace(b"\n", b" ") + b"\n"
        self.log.append(data)
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise Failure("stdin closed: the engine is gone (%s)" % self.status())

    def line(self, timeout):
        """The next line without its line end, or raises Failure on a timeout or end of output."""
        try:
            raw = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise Failure("hang: nothing for %.0f s" % timeout)
        if raw is None:
            self.closed = True
            time.sleep(0.2)
            raise Failure("stdout closed before quit (%s)" % self.status())
        try:
            return raw.decode("utf-8").rstrip("\n").rstrip("\r")
        except UnicodeDecodeError:
            raise Failure("output not UTF-8: %r" % raw[:200])

    def status(self):
        code = self.proc.poll()
        if code is None:
            return "still running"
        if code < 0:
            return "killed by signal %d" % -code
        return "exit status %d" % code

    def close(self, timeout, eof):
        """Sends quit (or closes stdin) and checks a clean, prompt exit."""
        try:
            if not eof:
                self.send("quit")
            self.proc.stdin.close()
        except (Failure, OSError):
            pass
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise Failure("hang: no exit within %.0f s of %s" % (timeout, "EOF" if eof else "quit"))
        self.stderr.close()
        if code != 0:
            raise Failure("exit: %s" % self.status())

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if not self.stderr.closed:
            self.stderr.close()


def excluded(line):
    if isinstance(line, bytes):
        line = line.decode("utf-8", "replace")
    words = line.split()
    return any(f(words) for f in SLOW.values())


def mutate(rng, text):
    """`text` with a few characters replaced, dropped, doubled or turned into odd bytes."""
    b = bytearray(text.encode("utf-8"))
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(6)
        at = rng.randrange(len(b) + 1)
        if op == 0 and b:
            b[at % len(b)] = rng.randrange(256)
        elif op == 1:
            b[at:at] = bytes([rng.randrange(256)])
        elif op == 2 and b:
            del b[at % len(b)]
        elif op == 3:
            b[at:at] = (" " + rng.choice(NUMBERS) + " ").encode()
        elif op == 4 and b:
            i = at % len(b)
            b[i:i] = b[i:i + rng.randint(1, 12)]
        elif op == 5:
            b[at:at] = rng.choice(NOISE).encode()
    return bytes(b)


def garbage(rng, vocabulary):
    """A line of noise: random bytes, words of the vocabulary with noise, or a long line."""
    kind = rng.randrange(5)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 80)))
    if kind == 1:
        return " ".join(rng.choice(vocabulary + NOISE + NUMBERS) for _ in range(rng.randint(1, 8)))
    if kind == 2:
        return rng.choice(vocabulary) + " " + " ".join(
            rng.choice(NUMBERS) for _ in range(rng.randint(1, 6)))
    if kind == 3:
        return (rng.choice(vocabulary) + " ") * rng.randint(1, 3) + "x" * rng.randint(1, 20000)
    return mutate(rng, rng.choice(vocabulary))


class UciSession:
    """One UCI, USI or UAI session."""

    def __init__(self, rng, engine, protocol, timeout, stats):
        self.rng, self.e, self.protocol, self.timeout = rng, engine, protocol, timeout
        self.stats = stats
        self.gos = 0  # lines whose first word is go
        self.clean_gos = 0  # of those, answered without an error before the next readyok
        self.answers = 0  # bestmove and checkmate lines
        self.bestmoves = []
        self.errors = 0
        self.options = {}  # name -> (type, words after type)
        self.moves = []
        self.fen = None
        self.legal = []
        self.variants = []

    def check(self, line):
        words = line.split()
        # `go perft N` answers as Stockfish does: `move: count` lines, a blank line, a total.
        if line == "" or re.fullmatch(r"\S+: \d+", line) or re.fullmatch(
                r"Nodes searched: \d+", line):
            return words
        if not words or words[0] not in UCI_KEYWORDS:
            raise Failure("malformed line: %r" % line[:300])
        if words[0] in ("bestmove", "checkmate"):
            self.answers += 1
            if words[0] == "bestmove":
                if len(words) not in (2, 4) or (len(words) == 4 and words[2] != "ponder"):
                    raise Failure("malformed bestmove: %r" % line)
                self.bestmoves.append(words[1])
            if self.answers > self.gos:
                raise Failure("%d answers to %d go commands: %r" % (self.answers, self.gos, line))
        if line.startswith("info string error"):
            self.errors += 1
        return words

    def until(self, predicate):
        seen = []
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure("hang: no answer within %.0f s (last lines %r)"
                              % (self.timeout, seen[-3:]))
            line = self.e.line(left)
            words = self.check(line)
            seen.append(line)
            if predicate(words):
                return seen

    def sync(self):
        self.send("isready", sync=False)
        return self.until(lambda w: w == ["readyok"])

    def send(self, line, sync=None):
        self.stats["commands"] += 1
        self.e.send(line)
        text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
        words = text.split()
        if words and words[0] == "quit":
            raise Quit()
        if words and words[0] == "go":
            self.gos += 1
            # Whether the go was taken cleanly shows before the readyok that follows it.
            errors = self.errors
            self.sync()
            if self.errors == errors:
                self.clean_gos += 1
        elif sync or (sync is None and self.rng.random() < 0.3):
            self.sync()

    def handshake(self):
        word = {"uci": "uci", "usi": "usi", "uai": "uai"}[self.protocol]
        ok = word + "ok"
        self.send(word, sync=False)
        for line in self.until(lambda w: w == [ok]):
            w = line.split()
            if w[:2] == ["option", "name"] and "type" in w:
                t = w.index("type")
                self.options[" ".join(w[2:t])] = w[t + 1:]
        for name, spec in self.options.items():
            if name in ("UCI_Variant", "USI_Variant") and spec[0] == "combo":
                self.variants = [spec[i + 1] for i, x in enumerate(spec) if x == "var"]

    def show(self):
        """`d` (after stopping any search): the position and the legal moves."""
        self.send("stop", sync=True)
        self.send("d", sync=False)
        for line in self.until(lambda w: w[:3] == ["info", "string", "legal"]):
            w = line.split()
            if w[:3] == ["info", "string", "game"] and "position" in w:
                self.fen = " ".join(w[w.index("position") + 1:])
            if w[:3] == ["info", "string", "legal"]:
                self.legal = w[3:]

    def position(self):
        base = "position startpos" if self.fen is None or self.rng.random() < 0.5 else (
            "position %s %s" % ("sfen" if self.protocol == "usi" else "fen", self.fen))
        if base.startswith("position startpos"):
            self.fen = None
        line = base + (" moves " + " ".join(self.moves) if self.moves else "")
        self.send(line)

    def setoption(self):
        if not self.options:
            return
        name = self.rng.choice(sorted(self.options))
        spec = self.options[name]
        kind = spec[0] if spec else "string"
        value = "x"
        if kind == "spin" and "min" in spec and "max" in spec:
            lo, hi = int(spec[spec.index("min") + 1]), int(spec[spec.index("max") + 1])
            if "hash" in name.lower():
                hi = min(hi, 64)
            value = str(rng_pick(self.rng, [lo, hi, self.rng.randint(lo, hi), lo - 1, hi + 1,
                                            2 ** 64, -2 ** 63]))
        elif kind == "check":
            value = self.rng.choice(["true", "false", "1", "maybe", ""])
        elif kind == "combo":
            vars_ = [spec[i + 1] for i, x in enumerate(spec) if x == "var"]
            value = self.rng.choice(vars_ + ["nonsense", ""]) if vars_ else "x"
        elif kind == "string":
            value = self.rng.choice(["0.5", "-1", "1e9", "nan", "", "none", "<empty>",
                                     "/nonexistent/net.gpnn", "abc"])
        elif kind == "button":
            self.send("setoption name %s" % name)
            return
        line = "setoption name %s value %s" % (name, value)
        if excluded(line):
            return
        self.send(line)
        if name in ("UCI_Variant", "USI_Variant"):
            self.moves, self.fen, self.legal = [], None, []

    def step(self):
        rng = self.rng
        r = rng.random()
        if r < 0.12:
            self.show()
            if self.legal and rng.random() < 0.8:
                self.moves.append(rng.choice(self.legal))
                self.position()
        elif r < 0.22:
            self.position()
        elif r < 0.27 and self.fen:
            self.send("position %s %s" % ("sfen" if self.protocol == "usi" else "fen",
                                          mutate(rng, self.fen).decode("utf-8", "replace")))
        elif r < 0.42:
            budget = rng.choice(["nodes %d" % rng.randint(1, 3000), "movetime %d" % rng.randint(1, 80),
                                 "depth %d" % rng.randint(1, 3),
                                 "wtime %d btime %d winc 5 binc 5" % (rng.randint(10, 500),
                                                                       rng.randint(10, 500)),
                                 "infinite", "ponder"])
            if self.protocol == "usi" and rng.random() < 0.1:
                budget = rng.choice(["mate 100", "mate infinite", "byoyomi 30",
                                     "btime 100 wtime 100 byoyomi 10"])
            if self.protocol == "uci" and rng.random() < 0.05:
                budget = "mate %d" % rng.randint(1, 3)
            self.send("go " + budget)
            if budget in ("infinite", "ponder") or budget.startswith("mate"):
                time.sleep(rng.random() * 0.05)
                self.send(rng.choice(["stop", "stop", "ponderhit"]) if budget == "ponder"
                          else "stop")
        elif r < 0.48:
            self.send("stop")
        elif r < 0.55:
            self.setoption()
        elif r < 0.58:
            self.send({"uci": "ucinewgame", "usi": "usinewgame", "uai": "uainewgame"}[
                self.protocol])
            self.moves, self.fen = [], None
        elif r < 0.62 and self.bestmoves:
            # Play the engine's own answer, as a GUI does.
            best = self.bestmoves[-1]
            if best not in ("(none)", "resign", "win", "0000"):
                self.moves.append(best)
            self.position()
        elif r < 0.66:
            self.send("isready")
        else:
            vocabulary = ["uci", "isready", "position", "position startpos moves",
                          "position fen", "position sfen", "go", "go nodes", "go movetime",
                          "go depth", "go wtime", "stop", "ponderhit", "setoption name",
                          "setoption name MultiPV value", "setoption name Threads value",
                          "ucinewgame", "debug", "register", "gameover", "usinewgame",
                          "go infinite", "go ponder", "go mate", "position startpos moves "
                          + " ".join(self.moves[:6]), "setoption name UCI_Variant value"]
            vocabulary += ["setoption name %s value" % n for n in self.options]
            # Once defects of their own: `d` mid-search, searchmoves with mate, a hash past
            # what the machine holds.
            vocabulary += ["d", "show", "go searchmoves",
                           "go mate 3 searchmoves", "setoption name Hash value 131072"]
            vocabulary += self.legal[:5] + self.variants[:10]
            line = garbage(rng, vocabulary)
            if excluded(line):
                return
            self.stats["garbage"] += 1
            self.send(line)
            words = (line.decode("utf-8", "replace") if isinstance(line, bytes) else line).split()
            if words and words[0] == "go":
                self.send("stop")

    def run(self, steps):
        self.handshake()
        self.sync()
        for _ in range(steps):
            self.step()
        self.send("stop", sync=True)
        # A `bestmove` may follow the `readyok` of an `isready` sent right after `stop`: wait
        # for every go that was taken.
        if self.answers < self.clean_gos:
            self.until(lambda w: self.answers >= self.clean_gos)
        if not self.clean_gos <= self.answers <= self.gos:
            raise Failure("%d bestmove/checkmate answers to %d go commands, %d taken cleanly"
                          % (self.answers, self.gos, self.clean_gos))


def rng_pick(rng, items):
    return rng.choice(items)


def gtp_preprocess(line):
    """The command gpn reads from a GTP line (its preprocessing, GTP 2 section 3.1), or None."""
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    text = "".join(" " if c == "\t" else c for c in text if c == "\t" or
                   unicodedata.category(c) != "Cc")
    text = text.split("#")[0]
    words = text.split()
    return words or None


class GtpSession:
    """One GTP session: every line is followed by a numbered probe, so that each response is
    tied to its command."""

    def __init__(self, rng, engine, timeout, stats):
        self.rng, self.e, self.timeout, self.stats = rng, engine, timeout, stats
        self.next_id = 1000
        self.games = []
        self.commands = []
        self.colours = ["b", "w"]
        self.legal = []

    def frame(self):
        """One response: its lines (first `=`/`?`, then the body), up to the blank line."""
        lines = []
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure("hang: response unfinished after %.0f s: %r"
                              % (self.timeout, lines[:3]))
            line = self.e.line(left)
            if line == "":
                if not lines:
                    raise Failure("a blank line where a response should start")
                return lines
            if not lines and not line[:1] in ("=", "?"):
                raise Failure("malformed response: %r" % line[:300])
            lines.append(line)

    def send(self, line, own_id=None):
        """Sends `line` and a probe; returns the response to `line` (None when it had none)."""
        self.stats["commands"] += 1
        self.e.send(line)
        words = gtp_preprocess(line) or []
        if words[:1] == ["quit"] or (words[:1] and words[0].isdigit() and words[1:2] == ["quit"]):
            f = self.frame()
            if not f[0].startswith("="):
                raise Failure("quit answered %r" % f)
            raise Quit()
        probe = self.next_id
        self.next_id += 1
        self.e.send("%d protocol_version" % probe)
        responses = []
        while True:
            f = self.frame()
            if f[0] == "=%d 2" % probe:
                break
            responses.append(f)
        expected = gtp_preprocess(line)
        if len(responses) > 1:
            raise Failure("%d responses to one command %r: %r" % (len(responses), line, responses))
        if expected and not responses:
            raise Failure("no response to %r" % line)
        if responses and own_id is not None and responses[0][0][1:].split(" ")[0] != str(own_id):
            raise Failure("response %r to command id %d" % (responses[0][0], own_id))
        return responses[0] if responses else None

    def command(self, text):
        """A valid command, numbered at random; its response's body lines when it succeeded."""
        own_id = None
        if self.rng.random() < 0.5:
            own_id = self.rng.randint(0, 999)
            text = "%d %s" % (own_id, text)
        r = self.send(text, own_id)
        if r is None or not r[0].startswith("="):
            return None
        first = r[0].split(" ", 1)
        return ([first[1]] if len(first) > 1 else []) + r[1:]

    def refresh(self):
        body = self.command("gpn-legal_moves")
        self.legal = " ".join(body).split() if body else []
        body = self.command("gpn-players")
        if body:
            self.colours = " ".join(body).split() or ["b", "w"]

    def start(self):
        body = self.command("list_games") or []
        self.games = [l.split()[0] for l in body if l.split()]
        self.commands = self.command("list_commands") or []

    def step(self):
        rng = self.rng
        r = rng.random()
        colour = rng.choice(self.colours + ["b", "w", "black", "white"])
        if r < 0.06 and self.games:
            self.command("set_game %s" % rng.choice(self.games))
            self.refresh()
        elif r < 0.25:
            if not self.legal or rng.random() < 0.3:
                self.refresh()
            if self.legal:
                body = self.command("gpn-side_to_move")
                side = body[0] if body else colour
                self.command("play %s %s" % (side, rng.choice(self.legal)))
                self.refresh()
        elif r < 0.35:
            self.command(rng.choice(["genmove", "reg_genmove", "kgs-genmove_cleanup"]) + " "
                         + colour)
            self.refresh()
        elif r < 0.40:
            self.command("undo")
            self.refresh()
        elif r < 0.45:
            self.command("boardsize %s" % rng.choice(["5", "7", "9", "13", "19", "8", "6",
                                                      "0", "-1", "26", "99999999999", "x"]))
            self.refresh()
        elif r < 0.48:
            self.command("lz-analyze %s 10" % colour)
        elif r < 0.50:
            self.command("kata-analyze %s interval 10 ownership true" % colour)
        elif r < 0.52:
            self.command("gpn-solve %s" % rng.choice(["0.05", "0.1 100", "pns 0.05", "x",
                                                      "1e300 100", "dfpn 1e-300"]))
        elif r < 0.56:
            self.command("time_settings %s" % rng.choice(["0 1 1", "1 0 0", "10 1 5", "-1 0 0",
                                                          "x y z", "99999999999 1 1"]))
        elif r < 0.60:
            self.command("gpn-setoption %s" % rng.choice([
                "C_pn 0.5", "C_pn -3", "resign_threshold 0.99", "ponder true", "multipv 3",
                "movetime 5", "maxmovetime 40", "threads 2", "hash 16", "hash 99999999",
                "nonsense 1", "solver pns", "Threads 0"]))
        elif r < 0.70:
            self.command(rng.choice([
                "showboard", "list_commands", "final_score", "final_status_list dead",
                "clear_board", "komi %s" % rng.choice(["6.5", "-1e9", "nan", "x"]),
                "known_command play", "gogui-rules_board", "gogui-rules_legal_moves",
                "gogui-rules_final_result", "gogui-rules_side_to_move", "time_left b 10 1",
                "fixed_handicap 2", "place_free_handicap 3", "printsgf", "name", "version",
                "gogui-rules_captured_count", "gogui-rules_game_id", "gpn-gfx_dead_stones"]))
            if self.rng.random() < 0.3:
                self.refresh()
        else:
            vocabulary = self.commands + ["play", "genmove", "set_game", "boardsize",
                                          "12 play", "undo", "komi", "time_left"]
            vocabulary += ["play %s %s" % (c, m) for c in self.colours for m in self.legal[:4]]
            vocabulary += self.games[:8]
            line = garbage(rng, vocabulary)
            if excluded(line):
                return
            self.stats["garbage"] += 1
            self.send(line)

    def run(self, steps):
        self.start()
        self.refresh()
        for _ in range(steps):
            self.step()


PROTOCOLS = ["uci", "usi", "uai", "gtp"]


def session(binary, protocol, rng, args, stats, work):
    """Runs one session; returns None or (failure text, bytes sent, engine arguments)."""
    extra = ["--protocol", protocol]
    if protocol == "gtp":
        # Searches stay short whatever the time settings say (gpn-setoption may change these
        # only to small values: see SLOW).
        extra += ["--option", "movetime=20", "--option", "maxmovetime=100"]
    log = []
    cwd = tempfile.mkdtemp(dir=work)
    e = Engine(binary, extra, cwd, log)
    steps = rng.randint(10, args.max_steps)
    try:
        if protocol == "gtp":
            GtpSession(rng, e, args.timeout, stats).run(steps)
        else:
            UciSession(rng, e, protocol, args.timeout, stats).run(steps)
        e.close(args.timeout, eof=rng.random() < 0.3)
        failure = None
    except Quit:
        failure = None
        try:
            e.close(args.timeout, eof=True)
        except Failure as f:
            failure = str(f)
    except Failure as f:
        failure = str(f)
    if failure is not None:
        # How it ended, before this script ends it.
        time.sleep(0.2)
        if e.proc.poll() is not None and (e.proc.returncode < 0 or
                                          e.proc.returncode in (101, 134)):
            failure += " [crash: %s]" % e.status()
    e.kill()
    with open(os.path.join(cwd, "stderr.txt"), "rb") as f:
        err = f.read()
    if failure is None and b"panicked" in err:
        failure = "a panic on stderr: %r" % err[err.find(b"panicked") - 200:][:600]
    shutil.rmtree(cwd, ignore_errors=True)
    return None if failure is None else (failure, b"".join(log), extra)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("binary")
    p.add_argument("--seconds", type=float, default=180, help="time budget (default 180)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=float, default=10, help="hang limit per answer, s")
    p.add_argument("--max-steps", type=int, default=120, help="most steps in a session")
    p.add_argument("--out", default="target/fuzz", help="where reproducers are written")
    p.add_argument("--max-failures", type=int, default=5)
    args = p.parse_args()
    # Sessions run in their own folders (printsgf may write files there).
    args.binary = os.path.abspath(args.binary)
    os.makedirs(args.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="gpn-fuzz-")
    rng = random.Random(args.seed)
    stats = {"sessions": 0, "commands": 0, "garbage": 0}
    per_protocol = {p: 0 for p in PROTOCOLS}
    failures = []
    start = time.monotonic()
    print("fuzz_protocol: seed %d, %.0f s, hang limit %.0f s, %s; not sent (too slow by "
          "design, or not a protocol answer): %s"
          % (args.seed, args.seconds, args.timeout, args.binary, ", ".join(SLOW)), flush=True)
    while time.monotonic() - start < args.seconds and len(failures) < args.max_failures:
        k = stats["sessions"]
        protocol = PROTOCOLS[k % len(PROTOCOLS)]
        # Each session's own generator: a failure replays from (seed, session) alone.
        srng = random.Random("%d/%d" % (args.seed, k))
        result = session(args.binary, protocol, srng, args, stats, work)
        stats["sessions"] += 1
        per_protocol[protocol] += 1
        if result is not None:
            text, sent, extra = result
            base = os.path.join(args.out, "fail-%d-%s" % (k, protocol))
            with open(base + ".in", "wb") as f:
                f.write(sent)
            with open(base + ".txt", "w") as f:
                f.write("%s\nsession %d of seed %d\nreproduce: %s %s < %s.in\n"
                        % (text, k, args.seed, args.binary, " ".join(extra), base))
            failures.append((k, protocol, text, base))
            print("FAIL session %d (%s): %s\n  reproducer: %s.in (%d lines)"
                  % (k, protocol, text, base, sent.count(b"\n")), flush=True)
    shutil.rmtree(work, ignore_errors=True)
    summary = {"sessions": stats["sessions"], "commands": stats["commands"],
               "garbage_lines": stats["garbage"], "per_protocol": per_protocol,
               "failures": len(failures), "seconds": round(time.monotonic() - start, 1),
               "seed": args.seed}
    print("fuzz_protocol: %d sessions (%s), %d commands (%d garbage lines), %d failures"
          % (stats["sessions"], ", ".join("%s %d" % kv for kv in per_protocol.items()),
             stats["commands"], stats["garbage"], len(failures)))
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
