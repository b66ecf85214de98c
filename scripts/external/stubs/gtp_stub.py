#!/usr/bin/env python3
"""A GTP Othello engine that plays random legal moves (OpenSpiel othello) and misbehaves on
purpose, to show that match.py catches each kind of fault.

  gtp_stub.py --mode MODE [--at N] [--seed S]

Coordinates as gtp-rhino: Othello style, row 1 at the top, answers in upper case. Passes are
implicit like gtp-rhino's ('play C pass' is accepted only when the pass is forced).
Modes (the fault happens at the N-th genmove, default N = 3):
  good               behaves
  illegal            answers a move that is not legal (an occupied square)
  unforced-pass      answers 'pass' although it has legal moves
  late               sleeps past its time_left (+ 1.5 s: time_left is whole seconds)
  crash              exits with status 3 instead of answering
  extra-blank        ends the genmove response with two empty lines
  blank-in-response  its (multi-line) showboard response contains an empty line
"""
import argparse
import random
import sys
import time

import pyspiel


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", default="good",
                    choices=["good", "illegal", "unforced-pass", "late", "crash",
                             "extra-blank", "blank-in-response"])
    ap.add_argument("--at", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    game = pyspiel.load_game("othello")
    state = game.new_initial_state()
    n_gen = 0
    time_left = {0: 1e9, 1: 1e9}

    def reply(cid, ok, text="", tail="\n\n"):
        sys.stdout.write(("=" if ok else "?") + cid + (" " + text if text else "") + tail)
        sys.stdout.flush()

    def legal():
        p = state.current_player()
        return {state.action_to_string(p, x): x for x in state.legal_actions()}

    def catch_up(colour):
        """Apply an implicit forced pass when the other colour is asked to move."""
        if state.is_terminal():
            return
        if state.current_player() != colour and list(legal()) == ["pass"]:
            state.apply_action(legal()["pass"])

    commands = ["protocol_version", "name", "version", "known_command", "list_commands", "quit",
                "boardsize", "clear_board", "komi", "play", "genmove", "time_settings",
                "time_left", "showboard", "set_game", "list_games"]
    for raw in sys.stdin:
        line = raw.split("#")[0].strip()
        if not line:
            continue
        tok = line.split()
        cid = ""
        if tok[0].isdigit():
            cid = tok.pop(0)
        if not tok:
            continue
        cmd, args = tok[0], tok[1:]
        if cmd == "protocol_version":
            reply(cid, True, "2")
        elif cmd == "name":
            reply(cid, True, f"gtp-stub-{a.mode}")
        elif cmd == "version":
            reply(cid, True, "0")
        elif cmd == "known_command":
            reply(cid, True, "true" if args and args[0] in commands else "false")
        elif cmd == "list_commands":
            reply(cid, True, "\n".join(commands))
        elif cmd == "quit":
            reply(cid, True)
            break
        elif cmd == "list_games":
            reply(cid, True, "Othello")
        elif cmd == "set_game":
            ok = bool(args) and args[0].lower() in ("othello", "reversi")
            reply(cid, ok, "" if ok else "unsupported game")
        elif cmd == "boardsize":
            ok = args == ["8"]
            reply(cid, ok, "" if ok else "unacceptable size")
        elif cmd == "clear_board":
            state = game.new_initial_state()
            reply(cid, True)
        elif cmd in ("komi", "time_settings"):
            reply(cid, True)
        elif cmd == "time_left":
            try:
                time_left[0 if args[0].lower().startswith("b") else 1] = float(args[1])
                reply(cid, True)
            except (IndexError, ValueError):
                reply(cid, False, "syntax error")
        elif cmd == "showboard":
            board = str(state).rstrip("\n")
            if a.mode == "blank-in-response":
                board = board.replace("\n", "\n\n", 1)
            reply(cid, True, "\n" + board)
        elif cmd == "play":
            if len(args) != 2:
                reply(cid, False, "syntax error")
                continue
            colour = 0 if args[0].lower().startswith("b") else 1
            catch_up(colour)
            mv = args[1].lower()
            lg = legal() if not state.is_terminal() else {}
            if state.is_terminal() or state.current_player() != colour or mv not in lg:
                reply(cid, False, "illegal move")
                continue
            state.apply_action(lg[mv])
            reply(cid, True)
        elif cmd == "genmove":
            colour = 0 if args and args[0].lower().startswith("b") else 1
            n_gen += 1
            hit = n_gen == a.at
            catch_up(colour)
            if state.is_terminal() or state.current_player() != colour:
                reply(cid, True, "pass")
                continue
            lg = legal()
            mv = rng.choice(sorted(lg))
            state.apply_action(lg[mv])
            if hit and a.mode == "crash":
                sys.exit(3)
            if hit and a.mode == "late":
                time.sleep(time_left[colour] + 1.5)
            if hit and a.mode == "illegal":
                mv = "d4"     # a start square: always occupied
            if hit and a.mode == "unforced-pass" and mv != "pass":
                mv = "pass"
            reply(cid, True, mv.upper() if mv != "pass" else "pass",
                  "\n\n\n" if hit and a.mode == "extra-blank" else "\n\n")
        else:
            reply(cid, False, "unknown command")


if __name__ == "__main__":
    main()
