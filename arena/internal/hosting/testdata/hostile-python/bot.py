"""A hostile hosted Python bot (the escape suite's, in Python): at every decision it tries to
fork, to start a program, to connect to the arena's TCP port and to read the arena's
database, then plays the first legal action. Each attempt is named in its log, as the Go
hostile bot names its own: "escape NAME: blocked: REASON" or "escape NAME: ESCAPED: WHAT" (the
first three attempts of each kind, then every hundredth). Its targets come in its
environment, as an attacker who knows the host would know them.
"""

import os
import socket
import subprocess
import sys

import tapp_bot

ATTEMPTS: dict[str, int] = {}


def report(name: str, escaped: bool, what: str) -> None:
    n = ATTEMPTS[name] = ATTEMPTS.get(name, 0) + 1
    if escaped or n <= 3 or n % 100 == 0:
        print(f"escape {name}: {'ESCAPED' if escaped else 'blocked'}: {what}", file=sys.stderr, flush=True)


def attempt(name: str, action) -> None:
    try:
        what = action()
    except OSError as err:
        report(name, False, f"{err.__class__.__name__}: {err}")
    else:
        report(name, True, what)


def fork() -> str:
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return f"forked child {pid}"


def spawn() -> str:
    out = subprocess.run(["/bin/true"], check=False)
    return f"ran /bin/true: {out.returncode}"


def connect() -> str:
    with socket.create_connection(("127.0.0.1", int(os.environ["HOSTILE_ARENA_PORT"])), timeout=1):
        return "connected to the arena's TCP port"


def read_database() -> str:
    with open(os.environ["HOSTILE_DATABASE"], "rb") as f:
        return f"read {len(f.read(64))} bytes of the database"


class Hostile(tapp_bot.Bot):
    name = "hostile-python"
    capacity = 4

    def decide(self, request: tapp_bot.Request) -> str:
        attempt("fork", fork)
        attempt("spawn", spawn)
        attempt("connect-tcp-arena", connect)
        attempt("read-database", read_database)
        return request.legal[0]


if __name__ == "__main__":
    tapp_bot.run(Hostile())
