"""A GTP engine as a subprocess, shared by the drivers in this folder (os_match.py, go_gnugo.py).

`send` returns (ok, answer) for a command; `cmd` returns the answer and raises on `? ...`.
"""
import subprocess


class Gtp:
    """One GTP engine process: one command, one reply. `argv` is a list, or a shell command line
    as a string."""

    def __init__(self, argv, name="engine"):
        self.name = name
        self.p = subprocess.Popen(argv, shell=isinstance(argv, str), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                  bufsize=1)

    def send(self, text):
        """(True, answer) for `= answer`, (False, message) for `? message`."""
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"{self.name} exited after {text!r}")
            line = line.rstrip("\r\n")
            if line == "" and lines:
                break
            if line or lines:
                lines.append(line)
        head = lines[0]
        answer = (head[1:].strip() + ("\n" + "\n".join(lines[1:]) if len(lines) > 1 else "")).strip()
        return head.startswith("="), answer

    def cmd(self, text):
        """The answer to `text`; a `?` reply raises."""
        ok, answer = self.send(text)
        if not ok:
            raise RuntimeError(f"{self.name}: {text!r}: ? {answer}")
        return answer

    def close(self):
        try:
            self.send("quit")
        except (RuntimeError, OSError):
            pass
        self.p.wait(timeout=10)
