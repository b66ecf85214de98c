#!/usr/bin/env python3
"""Match driver: plays an engine against a real opponent engine with real clocks and an
independent rules referee, and fails (exit 1) on any forfeit cause.

Modes
  uci  Both engines speak UCI (e.g. gpn --protocol uci vs /usr/games/fairy-stockfish).
       Variants: breakthrough, minishogi (anything pyffish knows works the same way).
       Referee: pyffish (awari and cfour, which pyffish lacks: OpenSpiel's oware and
       connect_four). Time control and
       ponder flow as cutechess-cli does them.
  gtp  Both engines speak GTP and play Othello (e.g. gpn --protocol gtp vs gtp-rhino).
       Referee: OpenSpiel 'othello'. Absolute time via time_settings/time_left.

Failure causes (each is counted; any of them gives exit code 1 unless --allow-forfeits):
  illegal move, illegal PV, illegal ponder move, time loss, protocol error, crash.
  The first two of the list below end the game with a loss for the culprit:
    illegal move, time loss, protocol error, crash          -> game forfeited
    illegal PV, illegal ponder move                         -> counted, game goes on
                                                              (cutechess only warns)
Exit codes: 0 all games clean, 1 failures, 2 usage error, 3 an engine could not be set up
(not found / no uciok / does not offer the variant / Ponder option missing).

Only the Python standard library plus pyffish (uci mode) or open_spiel (gtp mode).
"""
import argparse
import collections
import json
import os
import queue
import random
import re
import shlex
import signal
import statistics
import subprocess
import sys
import threading
import time

CAUSES = ["illegal move", "illegal PV", "illegal ponder move", "time loss",
          "protocol error", "crash"]

_now = time.perf_counter
_T0 = _now()
_ALL_PROCS = []


# --------------------------------------------------------------------------- errors

class SetupError(Exception):
    """An engine could not be started/initialised (exit code 3)."""


class Forfeit(Exception):
    """A game-ending failure by one engine (label 'A' or 'B')."""

    def __init__(self, label, cause, detail):
        super().__init__(f"{label}: {cause}: {detail}")
        self.label, self.cause, self.detail = label, cause, detail


class Died(Exception):
    """The engine's stdout hit EOF or its stdin broke."""


# --------------------------------------------------------------------------- logging

class Log:
    def __init__(self, path):
        self.f = open(path, "w", encoding="utf-8") if path else None
        self.lock = threading.Lock()

    def __call__(self, who, arrow, text, t=None):
        if not self.f:
            return
        t = _now() if t is None else t
        with self.lock:
            self.f.write(f"{t - _T0:10.4f} {who}{arrow} {text}\n")
            self.f.flush()

    def note(self, text):
        self("--", "", text)


# --------------------------------------------------------------------------- process

class Proc:
    """A child process with a reader thread per output stream. stdout lines are queued with
    their arrival time, so every wait has a deadline and times are measured at arrival."""

    def __init__(self, label, argv, log):
        self.label, self.argv, self.log = label, argv, log
        self.q = queue.Queue()
        self.stderr_tail = collections.deque(maxlen=30)
        self.dead = False
        try:
            self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, start_new_session=True)
        except OSError as e:
            raise SetupError(f"{label}: cannot start {argv!r}: {e}") from e
        _ALL_PROCS.append(self)
        threading.Thread(target=self._read_out, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read_out(self):
        try:
            for raw in iter(self.p.stdout.readline, b""):
                t = _now()
                line = raw.decode("utf-8", "replace")
                if line.endswith("\n"):
                    line = line[:-1]
                if line.endswith("\r"):
                    line = line[:-1]
                self.log(self.label, "<", line, t)
                self.q.put((t, line))
        except (OSError, ValueError):
            pass    # pipe closed by kill()
        self.q.put((_now(), None))

    def _read_err(self):
        try:
            for raw in iter(self.p.stderr.readline, b""):
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                self.stderr_tail.append(line)
                self.log(self.label, "!", line)
        except (OSError, ValueError):
            pass

    def send(self, text):
        """Write one line; returns the time right after the flush."""
        self.log(self.label, ">", text)
        try:
            self.p.stdin.write((text + "\n").encode())
            self.p.stdin.flush()
        except (BrokenPipeError, OSError, ValueError) as e:
            self.dead = True
            raise Died(f"cannot write to engine ({e}){self.exit_info()}") from e
        return _now()

    def read(self, deadline):
        """Next (time, line) before the deadline, or None on timeout. Died on EOF."""
        if self.dead:
            raise Died("engine output closed" + self.exit_info())
        try:
            t, line = self.q.get(timeout=max(0.0, deadline - _now()))
        except queue.Empty:
            return None
        if line is None:
            self.dead = True
            raise Died("engine output closed" + self.exit_info())
        return t, line

    def drain(self, grace=0.0):
        """All lines that arrived so far (waiting `grace` seconds for more)."""
        out = []
        end = _now() + grace
        while True:
            item = self.read(end)
            if item is None:
                return out
            out.append(item)

    def exit_info(self):
        try:
            rc = self.p.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return ""
        tail = " | ".join(list(self.stderr_tail)[-3:])
        return f" (exit code {rc}{'; stderr: ' + tail if tail else ''})"

    def close(self, quit_cmd="quit", wait=1.0):
        if self.p.poll() is None and not self.dead:
            try:
                self.send(quit_cmd)
            except Died:
                pass
            try:
                self.p.wait(timeout=wait)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def kill(self):
        if self.p.poll() is None:
            try:
                os.killpg(self.p.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                self.p.wait(timeout=2)
            except subprocess.TimeoutExpired:
                pass
        for s in (self.p.stdin, self.p.stdout, self.p.stderr):
            try:
                s.close()
            except Exception:
                pass
        if self in _ALL_PROCS:
            _ALL_PROCS.remove(self)


def kill_all():
    for p in list(_ALL_PROCS):
        p.kill()


# --------------------------------------------------------------------------- statistics

class Stats:
    """Per-engine move times and clock use."""

    def __init__(self):
        self.ms = []
        self.max_frac = 0.0
        self.min_left = None
        self.ponder_hits = 0
        self.ponder_misses = 0

    def add(self, elapsed_ms, remaining_before_ms):
        self.ms.append(elapsed_ms)
        if remaining_before_ms > 0:
            self.max_frac = max(self.max_frac, elapsed_ms / remaining_before_ms)
        left = remaining_before_ms - elapsed_ms
        self.min_left = left if self.min_left is None else min(self.min_left, left)

    def summary(self):
        if not self.ms:
            return {"moves": 0}
        return {"moves": len(self.ms), "mean_ms": round(statistics.mean(self.ms), 1),
                "median_ms": round(statistics.median(self.ms), 1),
                "max_ms": round(max(self.ms), 1), "max_fraction_of_clock": round(self.max_frac, 3),
                "min_remaining_ms": round(self.min_left, 1),
                "ponder_hits": self.ponder_hits, "ponder_misses": self.ponder_misses}


# --------------------------------------------------------------------------- UCI

UCI_INFO_KEYS = {"depth", "seldepth", "time", "nodes", "pv", "multipv", "score", "cp", "mate",
                 "lowerbound", "upperbound", "currmove", "currmovenumber", "hashfull", "nps",
                 "tbhits", "sbhits", "cpuload", "string", "refutation", "currline", "wdl"}


class Referee:
    """What the game loops ask a referee; `pos(moves)` gives (fen, legal moves, end, ...) for the
    start position plus `moves`, where end is None or (value for the side to move: >0 win, <0
    loss, 0 draw, reason)."""

    def fen(self, moves):
        return self.pos(moves)[0]

    def legal(self, moves):
        return self.pos(moves)[1]

    def end(self, moves):
        return self.pos(moves)[2]


class FfishReferee(Referee):
    """pyffish as the rules referee. Every pyffish call costs ~2-3 ms whatever it does, so the
    facts about a position are computed once and cached, and PVs are checked after the game
    with one get_san_moves call each (it raises ValueError on the first illegal move)."""

    def __init__(self, variant):
        try:
            import pyffish
        except ImportError:
            sys.exit("match.py: uci mode needs the 'pyffish' package (pip install pyffish)")
        self.sf = pyffish
        self.variant = variant
        if variant not in pyffish.variants():
            sys.exit(f"match.py: pyffish does not know variant {variant!r}")
        self.start = pyffish.start_fen(variant)
        self._pos = {}
        self._pv_cache = {}

    def pos(self, moves):
        """(fen, set of legal moves, end) for start + moves; end is None or
        (value for the side to move: >0 win, <0 loss, 0 draw, reason)."""
        key = tuple(moves)
        if key not in self._pos:
            if len(self._pos) > 64:
                self._pos.clear()
            v, s, m = self.variant, self.start, list(moves)
            fen = self.sf.get_fen(v, s, m)
            legal = set(self.sf.legal_moves(v, s, m))
            end = None
            imm, val = self.sf.is_immediate_game_end(v, s, m)
            if imm:
                end = (val, "variant rule end")
            elif not legal:
                end = (self.sf.game_result(v, s, m), "no legal moves (mate/stalemate)")
            else:
                opt, val = self.sf.is_optional_game_end(v, s, m)
                if opt:
                    end = (val, "repetition/move-count rule")
            self._pos[key] = (fen, legal, end)
        return self._pos[key]

    def side(self, moves):
        """0 for the first player ('w' in Fairy-Stockfish FENs), 1 for the second."""
        return 0 if self.fen(moves).split()[1] == "w" else 1

    def bad_pv_move(self, fen, pv):
        """Index and move of the first illegal PV move (None if all legal). Limitation: a PV
        that runs on past a game-ending move is only caught if the extra move is not
        pseudo-legal (get_san_moves does not stop at game end)."""
        key = (fen, tuple(pv))
        if key not in self._pv_cache:
            bad = None
            try:
                self.sf.get_san_moves(self.variant, fen, list(pv))
            except ValueError:
                for i, mv in enumerate(pv):
                    if mv not in self.sf.legal_moves(self.variant, fen, list(pv[:i])):
                        bad = (i, mv)
                        break
                else:
                    bad = (len(pv) - 1, pv[-1])
            self._pv_cache[key] = bad
        return self._pv_cache[key]


class SpielReferee(Referee):
    """OpenSpiel as the rules referee of a UCI game that pyffish does not know (awari is
    OpenSpiel's 'oware'; gpn writes its moves as OpenSpiel does). The 'fen' of a position is its
    move list, which is all a UCI engine is sent."""

    def __init__(self, game, notation=None):
        try:
            import pyspiel
        except ImportError:
            sys.exit("match.py: this variant needs the 'open_spiel' package (pip install open_spiel)")
        self.game = pyspiel.load_game(game)
        # notation(moves played, action) -> the UCI move; default: OpenSpiel's own string
        self.notation = notation
        self._pos = {}

    def actions(self, state, moves):
        """The legal moves of `state` (reached by `moves`) in UCI notation, with their actions."""
        p = state.current_player()
        if self.notation is None:
            return {state.action_to_string(p, a): a for a in state.legal_actions()}
        return {self.notation(moves, a): a for a in state.legal_actions()}

    def state(self, moves):
        state = self.game.new_initial_state()
        for i, mv in enumerate(moves):
            actions = self.actions(state, moves[:i])
            if mv not in actions:
                return None
            state.apply_action(actions[mv])
        return state

    def pos(self, moves):
        key = tuple(moves)
        if key not in self._pos:
            if len(self._pos) > 64:
                self._pos.clear()
            state = self.state(moves)
            end, legal, side = None, set(), 0
            if state.is_terminal():
                r = state.returns()
                side = len(moves) % 2   # only the value's sign for the player to move matters
                end = (r[side], "game over (OpenSpiel)")
            else:
                side = state.current_player()
                legal = set(self.actions(state, list(moves)))
            self._pos[key] = (" ".join(moves) or "startpos", legal, end, side)
        return self._pos[key]

    def side(self, moves):
        return self.pos(moves)[3]

    def bad_pv_move(self, fen, pv):
        base = [] if fen == "startpos" else fen.split()
        for i, mv in enumerate(pv):
            if self.end(base + list(pv[:i])) or mv not in self.legal(base + list(pv[:i])):
                return (i, mv)
        return None


def connect_four_move(moves, action):
    """OpenSpiel's connect_four action (a column) as Fairy-Stockfish writes it: P@<file><rank>,
    the rank where the piece lands."""
    file = "abcdefg"[action]
    return f"P@{file}{1 + sum(1 for m in moves if m[2] == file)}"


# UCI variants refereed by OpenSpiel instead of pyffish: (OpenSpiel game, notation).
SPIEL_VARIANTS = {"awari": ("oware", None), "cfour": ("connect_four", connect_four_move)}


class UciEngine:
    def __init__(self, label, cmd, opts, ponder, args, log, failures):
        self.label, self.cmd, self.user_opts, self.ponder = label, cmd, opts, ponder
        self.args, self.log, self.failures = args, log, failures
        self.proc = None
        self.name = label
        self.stats = Stats()
        self.check_pv = True
        self.pending_pvs = []     # (fen, pv, line, game, ply), checked after the game

    # -- lifecycle
    def start(self):
        self.proc = Proc(self.label, shlex.split(self.cmd), self.log)
        options = {}
        try:
            self.proc.send("uci")
            deadline = _now() + self.args.start_timeout
            while True:
                item = self.proc.read(deadline)
                if item is None:
                    raise SetupError(f"{self.label}: no uciok within {self.args.start_timeout} s")
                tok = item[1].split()
                if tok[:2] == ["id", "name"]:
                    self.name = " ".join(tok[2:])
                elif tok[:2] == ["option", "name"]:
                    line = item[1]
                    m = re.match(r"\s*option\s+name\s+(.*?)\s+type\s+(\S+)(.*)$", line)
                    if m:
                        options[m.group(1)] = (m.group(2), m.group(3).split())
                elif tok == ["uciok"]:
                    break
        except Died as e:
            raise SetupError(f"{self.label}: died during uci handshake: {e}") from e
        var = options.get("UCI_Variant")
        if var is None:
            raise SetupError(f"{self.label} ({self.name}) has no UCI_Variant option")
        vars_ = [var[1][i + 1] for i, t in enumerate(var[1][:-1]) if t == "var"]
        if self.args.variant not in vars_:
            raise SetupError(f"{self.label} ({self.name}): UCI_Variant does not list "
                             f"{self.args.variant!r}")
        try:
            if self.ponder:
                if "Ponder" not in options:
                    raise SetupError(f"{self.label} ({self.name}): --ponder but no Ponder option")
                self.proc.send("setoption name Ponder value true")
            for o in self.user_opts:
                name, _, value = o.partition("=")
                self.proc.send(f"setoption name {name} value {value}" if _ else
                               f"setoption name {name}")
            self.isready("after setup")
        except (Died, Forfeit) as e:
            raise SetupError(f"{self.label}: setup failed: {e}") from e

    def stop_process(self):
        if self.proc:
            self.proc.close("quit")
            self.proc = None

    # -- helpers
    def fail(self, cause, detail, game=None, ply=None):
        """Record a non-game-ending failure."""
        rec = {"engine": self.label, "cause": cause, "detail": detail, "game": game, "ply": ply}
        self.failures.append(rec)
        self.log.note(f"FAILURE {rec}")

    def send(self, text):
        try:
            return self.proc.send(text)
        except Died as e:
            raise Forfeit(self.label, "crash", str(e)) from e

    def read(self, deadline):
        try:
            return self.proc.read(deadline)
        except Died as e:
            raise Forfeit(self.label, "crash", str(e)) from e

    def check_idle_output(self, grace=0.0):
        """Lines from an engine that is not searching: a bestmove here is a second/unsolicited
        bestmove (protocol error)."""
        try:
            lines = self.proc.drain(grace)
        except Died as e:
            raise Forfeit(self.label, "crash", str(e)) from e
        for _, line in lines:
            if line.split()[:1] == ["bestmove"]:
                raise Forfeit(self.label, "protocol error",
                              f"unexpected bestmove while not searching: {line!r} "
                              "(more than one bestmove per go?)")

    def isready(self, why):
        self.send("isready")
        deadline = _now() + self.args.ping_timeout
        while True:
            item = self.read(deadline)
            if item is None:
                raise Forfeit(self.label, "protocol error",
                              f"no response to ping: no readyok within "
                              f"{self.args.ping_timeout} s ({why})")
            tok = item[1].split()
            if tok == ["readyok"]:
                return
            if tok[:1] == ["bestmove"]:
                raise Forfeit(self.label, "protocol error",
                              f"unexpected bestmove while waiting for readyok: {item[1]!r}")

    def new_game(self, variant):
        self.check_idle_output()
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("ucinewgame")

    def position(self, moves):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.isready("after position")

    def check_info(self, line, fen, ref, game, ply):
        tok = line.split()
        if "pv" not in tok:
            return
        if "string" in tok and tok.index("string") < tok.index("pv"):
            return
        i = tok.index("pv") + 1
        pv = []
        while i < len(tok) and tok[i] not in UCI_INFO_KEYS:
            pv.append(tok[i])
            i += 1
        if self.check_pv and pv:
            self.pending_pvs.append((fen, pv, line, game, ply))

    def check_pending_pvs(self, ref):
        """Check the PVs collected during the game (off the clock and off the game flow)."""
        n = len(self.pending_pvs)
        reported = set()
        for fen, pv, line, game, ply in self.pending_pvs:
            bad = ref.bad_pv_move(fen, pv)
            if bad is not None and (fen, tuple(pv)) not in reported:
                reported.add((fen, tuple(pv)))   # a repeated PV line is one failure
                self.fail("illegal PV", f"move {bad[0] + 1} ({bad[1]!r}) of the pv is illegal: "
                          f"{line!r} from {fen}", game, ply)
        self.pending_pvs = []
        return n

    def wait_bestmove(self, deadline, fen, ref, game, ply):
        """Read until bestmove or the deadline; info PVs are checked from `fen`."""
        while True:
            item = self.read(deadline)
            if item is None:
                return None
            t, line = item
            tok = line.split()
            if not tok:
                continue
            if tok[0] == "bestmove":
                best = tok[1] if len(tok) > 1 else ""
                ponder = tok[3] if len(tok) > 3 and tok[2] == "ponder" else None
                return t, best, ponder
            if tok[0] == "info":
                self.check_info(line, fen, ref, game, ply)

    def pump_ponder(self, fen, ref, game, ply):
        """Process what a pondering engine printed before time `until`; a bestmove there is
        premature (no ponderhit/stop was sent yet)."""
        try:
            lines = self.proc.drain()
        except Died as e:
            raise Forfeit(self.label, "crash", "while pondering: " + str(e)) from e
        for t, line in lines:
            tok = line.split()
            if tok[:1] == ["bestmove"]:
                raise Forfeit(self.label, "protocol error",
                              f"premature bestmove while pondering (before ponderhit/stop): "
                              f"{line!r}")
            if tok[:1] == ["info"]:
                self.check_info(line, fen, ref, game, ply)


def go_cmd(clock, inc_ms, ponder=False):
    s = "go ponder" if ponder else "go"
    s += f" wtime {max(0, int(clock[0]))} btime {max(0, int(clock[1]))}"
    if inc_ms > 0:
        s += f" winc {int(inc_ms)} binc {int(inc_ms)}"
    return s


def book_think(e, times, ply, elapsed, before, margin_ms, what):
    """Books one move's think time (the engine's stats and the game's times list) and raises a
    time-loss Forfeit when it overran the clock; `what` says what came too late."""
    e.stats.add(elapsed, before)
    times.append({"engine": e.label, "ply": ply, "ms": round(elapsed, 2),
                  "remaining_ms": round(before, 1)})
    if elapsed > before + margin_ms:
        raise Forfeit(e.label, "time loss",
                      f"{what} after {elapsed:.0f} ms with {before:.0f} ms on the clock "
                      f"(margin {margin_ms} ms)")


def book_forfeit(f, seats, gi, plies, failures, log):
    """Records a forfeit; returns the game's result (winner seat, reason)."""
    failures.append({"engine": f.label, "cause": f.cause, "detail": f.detail,
                     "game": gi, "ply": plies})
    log.note(f"FORFEIT {f}")
    loser = 0 if seats[0].label == f.label else 1
    return (1 - loser, f"{f.label} forfeits: {f.cause}: {f.detail}")


def final_score(seats, winner_seat):
    """The PGN result for the first mover (seat 0) and A's score."""
    if winner_seat is None:
        return "1/2-1/2", 0.5
    return ("1-0" if winner_seat == 0 else "0-1",
            1.0 if seats[winner_seat].label == "A" else 0.0)


def play_uci_game(gi, eng, white, opening, ref, args, log, failures):
    """One game. eng = [A, B]; white = index (0 A, 1 B) of the first mover. Returns a record."""
    seats = [eng[white], eng[1 - white]]
    base_ms, inc_ms = args.base_ms, args.inc_ms
    clock = [base_ms + inc_ms, base_ms + inc_ms]   # cutechess: first go already has one inc
    moves = list(opening)
    times = []
    pondering = [None, None]     # per seat: {"moves": line incl. predicted move, "pred": Y}
    result = None                # (winner seat or None for draw, reason)
    forfeit = None
    log.note(f"game {gi + 1}: white={seats[0].label} black={seats[1].label}")
    try:
        for e in seats:
            e.new_game(args.variant)
        while True:
            end = ref.end(moves)
            if end:
                val, why = end
                stm = ref.side(moves)
                result = (None if val == 0 else (stm if val > 0 else 1 - stm), why)
                break
            if len(moves) >= args.max_plies:
                result = (None, f"max plies ({args.max_plies}) reached: adjudicated draw")
                break
            stm = ref.side(moves)
            e = seats[stm]
            fen = ref.fen(moves)
            legal = ref.legal(moves)
            ply = len(moves)
            p = pondering[stm]
            pondering[stm] = None
            started = False
            if p is not None:
                pfen = ref.fen(p["moves"])
                e.pump_ponder(pfen, ref, gi, ply)
                if moves[-1] == p["pred"]:
                    e.stats.ponder_hits += 1
                    t0 = e.send("ponderhit")
                    started = True
                else:
                    e.stats.ponder_misses += 1
                    e.send("stop")
                    got = e.wait_bestmove(_now() + args.ping_timeout, pfen, ref, gi, ply)
                    if got is None:
                        raise Forfeit(e.label, "protocol error",
                                      f"no bestmove within {args.ping_timeout} s after stop "
                                      "during go ponder (connection stalls)")
            if not started:
                e.check_idle_output()
                e.position(moves)
                t0 = e.send(go_cmd(clock, inc_ms))
            before = clock[stm]
            deadline = t0 + (before + args.margin_ms) / 1000.0
            got = e.wait_bestmove(deadline, fen, ref, gi, ply)
            if got is None:
                # cutechess: at expiry send stop, then wait for the move (15 s) before killing
                e.send("stop")
                got = e.wait_bestmove(_now() + args.ping_timeout, fen, ref, gi, ply)
                if got is None:
                    raise Forfeit(e.label, "protocol error",
                                  f"no bestmove within the clock ({before:.0f} ms) nor "
                                  f"{args.ping_timeout} s after stop (connection stalls)")
            tb, best, pmove = got
            elapsed = (tb - t0) * 1000.0
            book_think(e, times, ply, elapsed, before, args.margin_ms, f"bestmove {best}")
            clock[stm] = before - elapsed + inc_ms
            if best not in legal:
                raise Forfeit(e.label, "illegal move",
                              f"bestmove {best!r} is not legal at ply {ply} ({fen})")
            moves.append(best)
            if pmove is not None:
                if ref.end(moves):
                    pass   # game over after the best move: nothing to check
                elif pmove not in ref.legal(moves):
                    e.fail("illegal ponder move",
                           f"ponder {pmove!r} is not legal after {best} ({ref.fen(moves)})",
                           gi, ply)
                elif e.ponder and not ref.end(moves + [pmove]):
                    line = moves + [pmove]
                    e.position(line)
                    e.send(go_cmd(clock, inc_ms, ponder=True))
                    pondering[stm] = {"moves": line, "pred": pmove}
    except Forfeit as f:
        forfeit = f
        result = book_forfeit(f, seats, gi, len(moves), failures, log)
    # wind down: stop ponder searches, look for stray bestmoves
    dirty = {forfeit.label} if forfeit else set()
    for s in (0, 1):
        e = seats[s]
        if e.label in dirty:
            continue
        try:
            if pondering[s] is not None:
                e.send("stop")
                got = e.wait_bestmove(_now() + args.ping_timeout, ref.fen(pondering[s]["moves"]),
                                      ref, gi, len(moves))
                if got is None:
                    raise Forfeit(e.label, "protocol error",
                                  "no bestmove after stop of go ponder at game end")
            e.check_idle_output(grace=0.05)
        except Forfeit as f:
            failures.append({"engine": f.label, "cause": f.cause, "detail": f.detail,
                             "game": gi, "ply": len(moves)})
            log.note(f"FAILURE after game end {f}")
            dirty.add(e.label)
    t_pv = _now()
    pvs_checked = sum(e.check_pending_pvs(ref) for e in seats)
    t_pv = _now() - t_pv
    winner_seat, reason = result
    res, score_a = final_score(seats, winner_seat)
    return {"game": gi + 1, "pvs_checked": pvs_checked, "pv_check_s": round(t_pv, 2),
            "white": seats[0].label, "black": seats[1].label,
            "opening": list(opening), "moves": moves, "plies": len(moves), "result": res,
            "score_a": score_a, "reason": reason, "times": times,
            "final_clock_ms": [round(c, 1) for c in clock], "restart": sorted(dirty)}


# --------------------------------------------------------------------------- GTP

class OthelloReferee:
    def __init__(self):
        try:
            import pyspiel
        except ImportError:
            sys.exit("match.py: gtp mode needs the 'open_spiel' package (pip install open_spiel)")
        self.game = pyspiel.load_game("othello")

    def new(self):
        return self.game.new_initial_state()

    @staticmethod
    def legal(state):
        p = state.current_player()
        return {state.action_to_string(p, a): a for a in state.legal_actions()}


GTP_FIRST = re.compile(r"^([=?])(\d*)(?:[ \t](.*))?$")


class GtpEngine:
    def __init__(self, label, cmd, args, log, failures, lenient_pass):
        self.label, self.cmd, self.args, self.log = label, cmd, args, log
        self.failures, self.lenient_pass = failures, lenient_pass
        self.proc = None
        self.name = label
        self.known = set()
        self.next_id = 1
        self.stats = Stats()
        self.pass_rejections = 0

    def fail(self, cause, detail, game=None, ply=None):
        rec = {"engine": self.label, "cause": cause, "detail": detail, "game": game, "ply": ply}
        self.failures.append(rec)
        self.log.note(f"FAILURE {rec}")

    def command(self, text, timeout=None, deadline=None):
        """Send one command with an id; returns (ok, [result lines], t_end) or None on timeout.
        Framing checks: '='/'?' + the same id, result lines, exactly one empty line."""
        try:
            stray = self.proc.drain()
        except Died as e:
            raise Forfeit(self.label, "crash", str(e)) from e
        if stray:
            raise Forfeit(self.label, "protocol error",
                          f"output outside any response (empty line inside the previous "
                          f"response, or an extra empty line?): {[l for _, l in stray][:5]!r}")
        cid = self.next_id
        self.next_id += 1
        try:
            t0 = self.proc.send(f"{cid} {text}")
        except Died as e:
            raise Forfeit(self.label, "crash", str(e)) from e
        if deadline is None:
            deadline = t0 + (timeout if timeout is not None else self.args.ping_timeout)
        lines = []
        while True:
            try:
                item = self.proc.read(deadline)
            except Died as e:
                raise Forfeit(self.label, "crash", f"during {text!r}: {e}") from e
            if item is None:
                return None
            t, line = item
            if not lines:
                m = GTP_FIRST.match(line)
                if not m:
                    raise Forfeit(self.label, "protocol error",
                                  f"response to {text!r} does not start with '=' or '?': "
                                  f"{line!r}")
                if m.group(2) != str(cid):
                    raise Forfeit(self.label, "protocol error",
                                  f"response to {cid} {text!r} has id {m.group(2)!r}")
                lines.append(line)
                ok = m.group(1) == "="
                body = [(m.group(3) or "").strip()]
                continue
            if line.strip() == "":
                if body == [""]:
                    body = []
                return ok, body, t
            lines.append(line)
            body.append(line)

    def must(self, text, setup=False):
        r = self.command(text)
        if r is None:
            raise Forfeit(self.label, "protocol error",
                          f"no response to {text!r} within {self.args.ping_timeout} s")
        if not r[0]:
            raise (SetupError(f"{self.label}: {text!r} failed: {r[1]}") if setup else
                   Forfeit(self.label, "protocol error", f"{text!r} failed: {r[1]}"))
        return r[1]

    def start(self):
        self.proc = Proc(self.label, shlex.split(self.cmd), self.log)
        try:
            r = self.command("protocol_version", timeout=self.args.start_timeout)
            if r is None:
                raise SetupError(f"{self.label}: no response to protocol_version within "
                                 f"{self.args.start_timeout} s")
            self.name = " ".join(self.must("name", setup=True)) or self.label
            self.known = {c.strip() for c in self.must("list_commands", setup=True)}
            for c in ("genmove", "play", "clear_board"):
                if c not in self.known:
                    raise SetupError(f"{self.label} ({self.name}) lacks GTP command {c}")
        except Forfeit as f:
            # a framing error or crash at start-up is the engine's fault: count it
            self.fail(f.cause, "at start-up: " + f.detail)
            raise SetupError(str(f)) from f

    def stop_process(self):
        if self.proc:
            self.proc.close(f"{self.next_id} quit")
            self.proc = None

    def new_game(self, main_s):
        if "set_game" in self.known:
            self.must(f"set_game {self.args.gtp_game}")
        if "boardsize" in self.known:
            self.must("boardsize 8")
        self.must("clear_board")
        if "time_settings" in self.known:
            self.must(f"time_settings {main_s} 0 0")

    def play(self, colour, vertex, forced_pass):
        r = self.command(f"play {colour} {vertex}")
        if r is None:
            raise Forfeit(self.label, "protocol error",
                          f"no response to play within {self.args.ping_timeout} s")
        if not r[0]:
            if forced_pass and self.lenient_pass:
                self.pass_rejections += 1
                self.log.note(f"{self.label} rejected a forced 'play {colour} pass' "
                              f"(tolerated: {r[1]})")
                return
            raise Forfeit(self.label, "protocol error",
                          f"rejected the legal move 'play {colour} {vertex}': {r[1]}")


def play_gtp_game(gi, eng, black, opening, ref, args, log, failures):
    seats = [eng[black], eng[1 - black]]          # seat 0 = black = first mover
    clock = [float(args.base_ms), float(args.base_ms)]
    main_s = int(args.base_ms // 1000)
    state = ref.new()
    moves = []
    times = []
    result = None
    forfeit = None
    colours = "bw"
    log.note(f"game {gi + 1}: black={seats[0].label} white={seats[1].label}")
    try:
        for e in seats:
            e.new_game(main_s)
        for mv in opening:
            p = state.current_player()
            legal = ref.legal(state)
            state.apply_action(legal[mv])
            moves.append(mv)
            for e in seats:
                e.play(colours[p], mv.upper(), mv == "pass" and len(legal) == 1)
        while not state.is_terminal():
            p = state.current_player()
            e, other = seats[p], seats[1 - p]
            c = colours[p]
            legal = ref.legal(state)
            ply = len(moves)
            if "time_left" in e.known:
                e.must(f"time_left {c} {max(0, int(clock[p] // 1000))} 0")
            before = clock[p]
            t_send = _now()
            r = e.command(f"genmove {c}", deadline=t_send + (before + args.margin_ms) / 1000.0)
            if r is None:
                raise Forfeit(e.label, "time loss",
                              f"no genmove answer within the clock ({before:.0f} ms + margin)")
            ok, body, t_end = r
            elapsed = (t_end - t_send) * 1000.0
            book_think(e, times, ply, elapsed, before, args.margin_ms, "genmove answered")
            clock[p] = before - elapsed
            if not ok:
                raise Forfeit(e.label, "protocol error", f"genmove {c} failed: {body}")
            vertex = (body[0].split() or [""])[0].lower() if body else ""
            if len(body) > 1:
                raise Forfeit(e.label, "protocol error", f"genmove answer has several lines: "
                              f"{body!r}")
            if vertex == "resign":
                result = (1 - p, f"{e.label} resigns")
                moves.append("resign")
                break
            if vertex not in legal:
                why = ("pass while legal moves exist" if vertex == "pass" else "not legal")
                raise Forfeit(e.label, "illegal move", f"genmove {c} -> {body[0]!r}: {why} "
                              f"at ply {ply} (legal: {sorted(legal)})")
            forced_pass = vertex == "pass"
            state.apply_action(legal[vertex])
            moves.append(vertex)
            other.play(c, vertex.upper(), forced_pass)
        if result is None:
            ret = state.returns()
            result = (None if ret[0] == ret[1] else (0 if ret[0] > ret[1] else 1),
                      "board full or no moves for either side")
    except Forfeit as f:
        forfeit = f
        result = book_forfeit(f, seats, gi, len(moves), failures, log)
    dirty = {forfeit.label} if forfeit else set()
    for e in seats:
        if e.label in dirty:
            continue
        try:
            stray = e.proc.drain(0.05)
            if stray:
                raise Forfeit(e.label, "protocol error",
                              f"output outside any response: {[l for _, l in stray][:5]!r}")
            if "showboard" in e.known:
                # a multi-line answer: checks the framing where empty lines creep in
                e.must("showboard")
                stray = e.proc.drain(0.05)
                if stray:
                    raise Forfeit(e.label, "protocol error",
                                  f"output after the showboard response (empty line inside "
                                  f"it?): {[l for _, l in stray][:5]!r}")
        except (Died, Forfeit) as f:
            cause = f.cause if isinstance(f, Forfeit) else "crash"
            failures.append({"engine": e.label, "cause": cause, "detail": str(f),
                             "game": gi, "ply": len(moves)})
            dirty.add(e.label)
    winner_seat, reason = result
    res, score_a = final_score(seats, winner_seat)    # 1-0 = black (the first mover) wins
    discs = None
    if state.is_terminal():
        board = str(state)
        discs = {"black": board.count(" x"), "white": board.count(" o")}
    return {"game": gi + 1, "black": seats[0].label, "white": seats[1].label,
            "opening": list(opening), "moves": moves, "plies": len(moves), "result": res,
            "score_a": score_a, "reason": reason, "discs": discs, "times": times,
            "final_clock_ms": [round(c, 1) for c in clock], "restart": sorted(dirty)}


# --------------------------------------------------------------------------- openings

def uci_opening(ref, plies, rng):
    for _ in range(100):
        moves = []
        while len(moves) < plies and not ref.end(moves):
            moves.append(rng.choice(sorted(ref.legal(moves))))
        if not ref.end(moves):
            return moves
    return []


def gtp_opening(ref, plies, rng):
    state = ref.new()
    moves = []
    while len(moves) < plies and not state.is_terminal():
        legal = ref.legal(state)
        mv = rng.choice(sorted(legal))
        state.apply_action(legal[mv])
        moves.append(mv)
    return moves


# --------------------------------------------------------------------------- main

def parse_tc(s):
    m = re.fullmatch(r"\s*(\d+(?:\.\d*)?)(?:\+(\d+(?:\.\d*)?))?\s*", s)
    if not m:
        raise argparse.ArgumentTypeError(f"time control {s!r}: expected SECONDS[+INCREMENT]")
    return float(m.group(1)) * 1000.0, float(m.group(2) or 0) * 1000.0


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Play engine A against engine B with clocks and a rules referee.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("mode", choices=["uci", "gtp"])
    ap.add_argument("--a", required=True, help="engine A command line (the engine under test)")
    ap.add_argument("--b", help="engine B command line (default: /usr/games/fairy-stockfish in "
                    "uci mode, /usr/games/gtp-rhino in gtp mode)")
    ap.add_argument("--variant", default="breakthrough", help="uci mode: UCI_Variant name")
    ap.add_argument("--gtp-game", default="Othello", help="gtp mode: argument of set_game")
    ap.add_argument("--games", type=int, default=2, help="games; seats swap every game")
    ap.add_argument("--tc", type=parse_tc, default="5+0.05",
                    help="SECONDS+INC (uci, cutechess style) or SECONDS (gtp, absolute)")
    ap.add_argument("--margin-ms", type=float, default=50.0,
                    help="tolerance before a late move is a time loss (cutechess timemargin)")
    ap.add_argument("--ponder", choices=["none", "a", "b", "both"], default="none",
                    help="uci mode: which engines ponder (cutechess ponder flow)")
    ap.add_argument("--a-option", action="append", default=[], metavar="NAME=VALUE",
                    help="uci mode: setoption for A (repeatable)")
    ap.add_argument("--b-option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--check-pv", choices=["none", "a", "b", "both"], default="both",
                    help="uci mode: whose info pv lines are checked for legality (after each "
                    "game; ~2 ms of pyffish per distinct PV)")
    ap.add_argument("--max-plies", type=int, default=400,
                    help="uci mode: adjudicate a draw after this many plies")
    ap.add_argument("--opening-plies", type=int, default=0,
                    help="random legal opening plies (the same for both games of a pair)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ping-timeout", type=float, default=15.0,
                    help="seconds to wait for readyok / a GTP answer / bestmove after stop")
    ap.add_argument("--start-timeout", type=float, default=35.0,
                    help="seconds to wait for uciok / the first GTP answer")
    ap.add_argument("--lenient-pass", choices=["none", "a", "b", "both"], default="b",
                    help="gtp mode: engines for which a rejected 'play C pass' of a forced "
                    "pass is tolerated (gtp-rhino rejects it and infers passes itself)")
    ap.add_argument("--allow-forfeits", action="store_true",
                    help="exit 0 even if there were failures")
    ap.add_argument("--json", help="write everything (config, games, moves, times) here")
    ap.add_argument("--games-file", help="write the moves of every game here")
    ap.add_argument("--log", help="write the full protocol traffic with timestamps here")
    ap.add_argument("--quiet", action="store_true", help="no per-game lines")
    args = ap.parse_args(argv)
    args.base_ms, args.inc_ms = args.tc
    if args.b is None:
        args.b = "/usr/games/fairy-stockfish" if args.mode == "uci" else "/usr/games/gtp-rhino"
    if args.mode == "gtp" and args.inc_ms:
        ap.error("gtp mode: only absolute time (time_settings M 0 0); give --tc SECONDS")
    if args.mode == "gtp" and args.ponder != "none":
        ap.error("gtp mode has no pondering")
    if args.games < 1:
        ap.error("--games must be >= 1")

    def handler(signum, frame):
        raise KeyboardInterrupt(f"signal {signum}")
    signal.signal(signal.SIGTERM, handler)

    log = Log(args.log)
    failures = []
    games = []
    t_start = _now()
    setup_error = None
    try:
        if args.mode == "uci":
            ref = (SpielReferee(*SPIEL_VARIANTS[args.variant]) if args.variant in SPIEL_VARIANTS
                   else FfishReferee(args.variant))
            pond = {"none": "", "a": "A", "b": "B", "both": "AB"}[args.ponder]
            eng = [UciEngine("A", args.a, args.a_option, "A" in pond, args, log, failures),
                   UciEngine("B", args.b, args.b_option, "B" in pond, args, log, failures)]
            cpv = {"none": "", "a": "A", "b": "B", "both": "AB"}[args.check_pv]
            for e in eng:
                e.check_pv = e.label in cpv
            play = play_uci_game
            opening_fn = uci_opening
        else:
            ref = OthelloReferee()
            len_ = {"none": "", "a": "A", "b": "B", "both": "AB"}[args.lenient_pass]
            eng = [GtpEngine("A", args.a, args, log, failures, "A" in len_),
                   GtpEngine("B", args.b, args, log, failures, "B" in len_)]
            play = play_gtp_game
            opening_fn = gtp_opening
        for e in eng:
            e.start()
        rng = random.Random(args.seed)
        opening = []
        print(f"== {args.mode} match: A = {eng[0].name} | B = {eng[1].name} | "
              f"{args.variant if args.mode == 'uci' else 'othello'} | tc {args.base_ms / 1000:g}"
              f"+{args.inc_ms / 1000:g} | {args.games} games | ponder {args.ponder}", flush=True)
        for gi in range(args.games):
            if gi % 2 == 0:
                opening = opening_fn(ref, args.opening_plies, rng) if args.opening_plies else []
            first = gi % 2            # game 1: A moves first, game 2: B moves first, ...
            tg = _now()
            rec = play(gi, eng, first, opening, ref, args, log, failures)
            rec["seconds"] = round(_now() - tg, 2)
            games.append(rec)
            if not args.quiet:
                a_col = ("white" if args.mode == "uci" else "black") if first == 0 else \
                    ("black" if args.mode == "uci" else "white")
                sa = {1.0: "A wins", 0.0: "A loses", 0.5: "draw"}[rec["score_a"]]
                extra = f" discs {rec['discs']['black']}-{rec['discs']['white']}" \
                    if rec.get("discs") else ""
                print(f"game {gi + 1:3d}: A {a_col:5s} {rec['result']:7s} {sa:8s} "
                      f"plies {rec['plies']:3d}  {rec['seconds']:6.1f} s{extra}  "
                      f"{rec['reason']}", flush=True)
            for e in eng:
                if e.label in rec["restart"] and gi + 1 < args.games:
                    e.stop_process()
                    e.start()
    except SetupError as e:
        setup_error = str(e)
        print(f"SETUP ERROR: {e}", file=sys.stderr, flush=True)
    except KeyboardInterrupt as e:
        print(f"interrupted ({e})", file=sys.stderr, flush=True)
        setup_error = "interrupted"
    finally:
        for e in (eng if "eng" in locals() else []):
            try:
                e.stop_process()
            except Exception:
                pass
        kill_all()

    # ---- summary
    w = sum(1 for g in games if g["score_a"] == 1.0)
    d = sum(1 for g in games if g["score_a"] == 0.5)
    lo = sum(1 for g in games if g["score_a"] == 0.0)
    counts = {c: {"A": 0, "B": 0} for c in CAUSES}
    for f in failures:
        counts[f["cause"]][f["engine"]] += 1
    total_fail = len(failures)
    wall = _now() - t_start
    print(f"A: +{w} ={d} -{lo}" + (f"  score {100.0 * (w + d / 2) / len(games):.1f}%"
                                   if games else "") + f"  ({len(games)} games, {wall:.1f} s)")
    print("failures (A/B): " + ", ".join(f"{c} {counts[c]['A']}/{counts[c]['B']}"
                                         for c in CAUSES))
    for f in failures[:20]:
        g = f"game {f['game'] + 1} ply {f['ply']}" if f.get("game") is not None else "setup"
        print(f"  {f['engine']} {f['cause']} ({g}): {f['detail']}")
    if len(failures) > 20:
        print(f"  … {len(failures) - 20} more (all of them are in --json)")
    stats = {}
    if "eng" in locals():
        for e in eng:
            s = e.stats.summary()
            stats[e.label] = s
            if s["moves"]:
                line = (f"time {e.label}: {s['moves']} moves, mean {s['mean_ms']:.1f} ms, median "
                        f"{s['median_ms']:.1f} ms, max {s['max_ms']:.1f} ms, max fraction of "
                        f"clock {s['max_fraction_of_clock']:.3f}, min remaining "
                        f"{s['min_remaining_ms']:.0f} ms")
                if args.mode == "uci" and (s["ponder_hits"] or s["ponder_misses"]):
                    line += f", ponder hits {s['ponder_hits']} misses {s['ponder_misses']}"
                if args.mode == "gtp" and e.pass_rejections:
                    line += f", tolerated 'play pass' rejections {e.pass_rejections}"
                print(line)
    if games:
        secs = [g["seconds"] for g in games]
        print(f"game wall time: mean {statistics.mean(secs):.1f} s, max {max(secs):.1f} s")
    ok = total_fail == 0 and setup_error is None
    print("RESULT: " + ("OK" if ok else
                        f"FAIL ({total_fail} failures" +
                        (f"; setup error: {setup_error}" if setup_error else "") + ")"))
    if args.games_file:
        with open(args.games_file, "w") as f:
            for g in games:
                seat = f"white={g['white']} black={g['black']}" if "white" in g and \
                    args.mode == "uci" else f"black={g['black']} white={g['white']}"
                f.write(f"# game {g['game']} {seat} result {g['result']} plies {g['plies']}: "
                        f"{g['reason']}\n{' '.join(g['moves'])}\n")
    if args.json:
        cfg = {k: v for k, v in vars(args).items() if k not in ("tc",)}
        with open(args.json, "w") as f:
            json.dump({"config": cfg,
                       "engines": {e.label: e.name for e in eng} if "eng" in locals() else {},
                       "score_a": {"win": w, "draw": d, "loss": lo},
                       "failures_by_cause": counts, "failures": failures,
                       "time_stats": stats, "setup_error": setup_error,
                       "wall_seconds": round(wall, 2), "games": games}, f, indent=1)
    if setup_error is not None:
        return 3 if setup_error != "interrupted" else 130
    if total_fail and not args.allow_forfeits:
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        kill_all()
