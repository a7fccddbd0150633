"""Probes of what a counter's staff read, through the built binary end to end: every line an 80-column terminal
shows fits it (errors, notes and warnings wrapped at spaces or between CJK characters, never broken mid-word by
the terminal), and the words a cashier reads say one thing each."""
import fcntl
import os
import pty
import re
import select
import struct
import termios
import time
import unicodedata

ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def columns(line):
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 0 if unicodedata.combining(c) else 1 for c in line)


def on_terminal(ctx, arguments, env, typed=(), width=80, seconds=20):
    """Runs the binary on a pseudo-terminal `width` columns wide; returns what it drew."""
    pid, terminal = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, width, 0, 0))
        os.execve(ctx.binary, [ctx.binary, *arguments], env)
    output = b""

    def read_for(limit):
        nonlocal output
        until = time.time() + limit
        while time.time() < until:
            ready, _, _ = select.select([terminal], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(terminal, 65536)
                except OSError:
                    return False
                if not chunk:
                    return False
                output += chunk
        return True

    if typed:
        read_for(3)
        for line in typed:
            os.write(terminal, line.encode() + b"\r")
            read_for(3)
    else:
        read_for(seconds)
    try:
        os.kill(pid, 9)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
    return output.decode(errors="replace")


def wide_lines(text, width):
    lines = []
    for raw in text.replace("\r\n", "\n").split("\n"):
        # What the line editor redraws in place (a carriage return, a line cleared) is not a printed line.
        line = ESCAPE.sub("", raw.split("\r")[-1])
        if columns(line) > width:
            lines.append(line)
    return lines


def probe_messages_fit_80_columns(ctx):
    env = dict(ctx.env)
    env.update({"TERM": "xterm", "AIRTABLE_TOKEN": "pat" + "x" * 20, "AIRTABLE_BASE_ID": "appAAAAAAAAAAAAAA",
                "AIRTABLE_ENDPOINT_URL": "http://127.0.0.1:9", "DRINKSHOP_OUTBOX": ctx.path("outbox") + ".sqlite"})
    failures = []
    one_shot = on_terminal(ctx, ["orders"], env)
    repl = on_terminal(ctx, [], env, typed=["orders", "pay #7 cash 500", "quit"])
    for name, text in (("one-shot orders", one_shot), ("the prompt", repl)):
        if "is the server running?" not in text.replace("\r\n  ", " ").replace("\r\n", " "):
            failures.append(f"{name}: the error about the store is not shown whole: {text[:300]!r}")
        for line in wide_lines(text, 80):
            failures.append(f"{name}: a line of {columns(line)} columns, which the terminal breaks mid-word: {line[:120]!r}")
    figure = f"{len(failures)} lines or messages not fitted to 80 columns"
    return (not failures, figure, failures)


PROBES = [
    ("words-fit-80", "errors, notes and questions fit an 80-column terminal, wrapped at spaces or between CJK characters",
     probe_messages_fit_80_columns),
]
