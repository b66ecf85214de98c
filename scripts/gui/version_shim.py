#!/usr/bin/env python3
"""Runs a GTP engine and rewrites its answer to `version` (and nothing else).

Lizzie 0.7.4 reads the engine's `version` as Leela Zero's: a second number below 15 ("0.1.0",
gpn's) pops up "Lizzie requires version 0.15 or later of Leela Zero for analysis (found 0.1.0)"
from its engine-reading thread while it holds a lock, and Lizzie can then hang. This shim
answers `version` with VERSION (default "0.17 (gpn)") and passes every other line through.

    version_shim.py [--version V] -- ENGINE ARGS...
"""
import subprocess
import sys
import threading


def main():
    args = sys.argv[1:]
    version = "0.17 (gpn)"
    if args[:1] == ["--version"]:
        version, args = args[1], args[2:]
    if args[:1] == ["--"]:
        args = args[1:]
    p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    pending = []  # ids of `version` commands in flight, in order (None: no id)
    lock = threading.Lock()

    def pump_in():
        for line in sys.stdin:
            words = line.split()
            cid = words[0] if words and words[0].isdigit() else None
            cmd = words[1 if cid else 0] if len(words) > (1 if cid else 0) else ""
            if cmd == "version":
                with lock:
                    pending.append(cid)
            p.stdin.write(line)
            p.stdin.flush()
        p.stdin.close()

    threading.Thread(target=pump_in, daemon=True).start()
    for line in p.stdout:
        with lock:
            if pending and line.startswith("="):
                head = line.split(None, 1)[0]
                cid = pending[0]
                if head == "=" + (cid or ""):
                    pending.pop(0)
                    line = f"{head} {version}\n"
        sys.stdout.write(line)
        sys.stdout.flush()
    sys.exit(p.wait())


if __name__ == "__main__":
    main()
