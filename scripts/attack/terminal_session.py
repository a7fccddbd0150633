"""A pseudo-terminal session with the built binary, for the probes that read what staff see at a terminal."""
import fcntl
import os
import pty
import select
import struct
import termios
import time


def on_terminal(ctx, arguments, env, typed=(), width=80, seconds=20, pause=3):
    """Runs the binary on a pseudo-terminal `width` columns wide, typing `typed` a line at a time (`pause` seconds
    after each), or waiting `seconds` when nothing is typed; returns what it drew. The process is then killed."""
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
            read_for(pause)
    else:
        read_for(seconds)
    try:
        os.kill(pid, 9)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
    return output.decode(errors="replace")
