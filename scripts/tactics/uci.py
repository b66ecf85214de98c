"""A small UCI engine driver shared by the tactics scripts (make_suite.py, run_suite.py, ladder.py).

Not run on its own. Stdlib only: the engine's output is read by a thread into a queue so that
every wait has a timeout, and an engine that dies or hangs raises EngineError instead of
blocking the caller.
"""
import queue
import re
import shlex
import subprocess
import threading
import time


class EngineError(Exception):
    """The engine died, could not be started, or did not answer in time."""


class Engine:
    def __init__(self, cmd, timeout=10.0):
        self.cmd = cmd
        argv = shlex.split(cmd) if isinstance(cmd, str) else list(cmd)
        try:
            self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except OSError as e:
            raise EngineError(f"cannot start {cmd!r}: {e}") from e
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.options = {}
        self.name = None
        try:
            self.send("uci")
            lines = self.wait(lambda l: l == "uciok", timeout)
        except EngineError:
            self.close()
            raise
        for line in lines:
            m = re.match(r"option name (.+?) type (\S+)", line)
            if m:
                self.options[m.group(1).lower()] = m.group(1)
            elif line.startswith("id name "):
                self.name = line[8:].strip()

    def _read(self):
        try:
            for line in self.p.stdout:
                self.q.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        self.q.put(None)

    def has_option(self, name):
        return name.lower() in self.options

    def send(self, line):
        try:
            self.p.stdin.write(line + "\n")
            self.p.stdin.flush()
        except (OSError, ValueError) as e:
            raise EngineError(f"engine gone ({e})") from e

    def wait(self, done, timeout):
        """Lines up to and including the first one for which done(line) is true."""
        lines, end = [], time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise EngineError(f"no answer within {timeout:.1f} s")
            try:
                line = self.q.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise EngineError(f"engine exited (code {self.p.poll()})")
            lines.append(line)
            if done(line):
                return lines

    def setoption(self, name, value):
        self.send(f"setoption name {name} value {value}")

    def ready(self, timeout=10.0):
        self.send("isready")
        self.wait(lambda l: l == "readyok", timeout)

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=2)
        except (EngineError, subprocess.TimeoutExpired):
            pass
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()


def parse_score(line):
    """('cp', n) or ('mate', n) from an info line, None when it has no exact score."""
    if "lowerbound" in line or "upperbound" in line:
        return None
    m = re.search(r" score (cp|mate) (-?\d+)", line)
    return (m.group(1), int(m.group(2))) if m else None


def score_value(score):
    """A number ordering scores: mates for the mover above every cp, mates against below."""
    kind, n = score
    if kind == "cp":
        return n
    return 100000 - n if n > 0 else -100000 - n


def multipv(lines):
    """{k: (depth, score, pv)} from a search's info lines: the deepest exact line per multipv k."""
    out = {}
    for line in lines:
        if not line.startswith("info ") or " pv " not in line:
            continue
        score = parse_score(line)
        d = re.search(r" depth (\d+)", line)
        k = re.search(r" multipv (\d+)", line)
        if score is None or not d:
            continue
        k = int(k.group(1)) if k else 1
        depth = int(d.group(1))
        pv = line.split(" pv ", 1)[1].split()
        if k not in out or depth >= out[k][0]:
            out[k] = (depth, score, pv)
    return out


def norm_move(m):
    """Move text compared across engines: drops as P@c3 (P*c3 read too)."""
    return (m or "").strip().replace("*", "@")
