"""The SDK against the real arena (`tapp serve`, built from this repository), on both
transports: a match played in plain text and over TLS, a wrong token refused with a clear
error, a cut connection resumed with the match going on, an arena killed and started again,
and an arena that shuts down."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import BotRunner
from gamedata import TIMEOUT, build_go
from test_tls import cert  # noqa: F401 (a fixture)

import tapp_bot
from tapp_bot.proto.tapp.v1 import bot_pb2, game_pb2

# The first test also waits for the module's build of tapp (seconds on a warm cache, a
# minute or more beside another `make test`): TIMEOUT, as the other modules that build it.
pytestmark = [pytest.mark.usefixtures("transport"), pytest.mark.timeout(TIMEOUT)]

ADMIN = "test-admin-token"
DEALS = 8
WAIT = 60.0  # seconds a failing test waits before it says so


@pytest.fixture(scope="module")
def tapp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_go(tmp_path_factory.mktemp("gobin"), "./cmd/tapp", "tapp")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Arena:
    """`tapp serve` on a port of its own, with bots registered in its store."""

    def __init__(self, tapp: Path, tmp: Path, tls: tuple[Path, Path] | None = None) -> None:
        self.tapp, self.tmp, self.tls = tapp, tmp, tls
        self.db = tmp / "arena.db"
        self.port = free_port()
        self.address = f"{'localhost' if tls else '127.0.0.1'}:{self.port}"
        self.env = dict(os.environ, TAPP_ADMIN_TOKEN=ADMIN)
        self.proc: subprocess.Popen[bytes] | None = None

    def add_bot(self, name: str) -> str:
        out = subprocess.run([str(self.tapp), "bots", "add", name, "--db", str(self.db)],
                             capture_output=True, text=True, check=True).stdout
        return out.split()[0]

    def start(self) -> None:
        args = [str(self.tapp), "serve", "--db", str(self.db), "--listen", f"127.0.0.1:{self.port}"]
        if self.tls:
            args += ["--tls-cert", str(self.tls[0]), "--tls-key", str(self.tls[1])]
        log = open(self.tmp / "arena.log", "ab")  # noqa: SIM115 (the process keeps it)
        self.proc = subprocess.Popen(args, env=self.env, stdout=log, stderr=log, cwd=self.tmp)
        deadline = time.monotonic() + WAIT
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                assert self.proc.poll() is None, f"tapp serve exited: {(self.tmp / 'arena.log').read_text()}"
                assert time.monotonic() < deadline, "tapp serve did not listen"
                time.sleep(0.05)

    def kill(self, sig: int = signal.SIGKILL) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)
        self.proc.wait(WAIT)

    def match(self, bots: list[str], deals: int = DEALS) -> subprocess.Popen[str]:
        args = [str(self.tapp), "match", "--arena", self.address, "--bots", ",".join(bots), "--deals", str(deals),
                "--db", str(self.tmp / "match.db"), "--json"]
        if self.tls:
            args += ["--ca", str(self.tls[0])]
        return subprocess.Popen(args, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def play(self, bots: list[str], deals: int = DEALS) -> dict[str, Any]:
        proc = self.match(bots, deals)
        out, err = proc.communicate(timeout=WAIT * 2)
        assert proc.returncode == 0, f"tapp match failed: {err}"
        return json.loads(out)  # type: ignore[no-any-return]

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(WAIT)


class Counter(tapp_bot.Bot):
    """A random bot that counts the games it finished and the fallbacks played for it."""

    inline = True

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.ended = 0
        self.fallbacks: list[bot_pb2.Fallback] = []

    def decide(self, request: tapp_bot.Request) -> str:
        return request.legal[len(request.legal) // 2]

    def game_ended(self, game: tapp_bot.Game, settlement: game_pb2.Settlement) -> None:
        with self.lock:
            self.ended += 1

    def fallback(self, game: tapp_bot.Game, fallback: bot_pb2.Fallback) -> None:
        self.fallbacks.append(fallback)


class Table:
    """Three Python bots connected to an arena."""

    def __init__(self, arena: Arena, address: str | None = None, **options: Any) -> None:
        self.names = ["p1", "p2", "p3"]
        self.bots = [Counter() for _ in self.names]
        self.runners = []
        for name, bot in zip(self.names, self.bots, strict=True):
            client = tapp_bot.Client(bot, address or arena.address, arena.add_bot(name), name=name, capacity=4,
                                     **options)
            self.runners.append(BotRunner(client))
        self.wait_connected(arena)

    def wait_connected(self, arena: Arena) -> None:
        deadline = time.monotonic() + WAIT
        while not all(r.client.session_id for r in self.runners):
            for r in self.runners:
                assert r.error is None, f"a bot stopped: {r.error!r}"
            assert time.monotonic() < deadline, "the bots did not connect"
            time.sleep(0.05)

    def close(self) -> None:
        for r in self.runners:
            r.client.close()
        for r in self.runners:
            r.thread.join(10)


@pytest.fixture
def arena(tapp: Path, tmp_path: Path) -> Iterator[Arena]:
    a = Arena(tapp, tmp_path)
    a.start()
    yield a
    a.stop()


@pytest.mark.parametrize("tls", [False, True])
def test_python_bots_play_a_match(tapp, tmp_path, cert, tls):  # noqa: F811
    arena = Arena(tapp, tmp_path, cert if tls else None)
    arena.start()
    table = None
    try:
        table = Table(arena, ca=str(cert[0])) if tls else Table(arena)
        arena.play(table.names)
        for bot in table.bots:
            assert bot.ended == DEALS
            assert bot.fallbacks == []
        for runner in table.runners:
            assert runner.error is None and runner.thread.is_alive()
    finally:
        if table is not None:
            table.close()
        arena.stop()


def test_a_wrong_token_is_a_clear_error(arena):
    arena.add_bot("p1")
    client = tapp_bot.Client(Counter(), arena.address, "tapp_not-the-token", name="p1")
    with pytest.raises(tapp_bot.AuthError, match=r"refused the bot: UNAUTHENTICATED"):
        client.run()


class Proxy:
    """A TCP relay to the arena whose connections the test can cut."""

    def __init__(self, port: int) -> None:
        self.upstream = port
        self.server = socket.create_server(("127.0.0.1", 0))
        self.address = f"127.0.0.1:{self.server.getsockname()[1]}"
        self.lock = threading.Lock()
        self.open: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                down, _ = self.server.accept()
            except OSError:
                return
            up = socket.create_connection(("127.0.0.1", self.upstream))
            with self.lock:
                self.open += [down, up]
            for a, b in ((down, up), (up, down)):
                threading.Thread(target=self._copy, args=(a, b), daemon=True).start()

    @staticmethod
    def _copy(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(1 << 16):
                dst.sendall(data)
        except OSError:
            pass  # cut
        for s in (src, dst):
            with contextlib.suppress(OSError):  # closed already
                s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        with self.lock:
            cut, self.open = self.open, []
        for s in cut:
            with contextlib.suppress(OSError):  # closed already
                s.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.server.close()
        self.cut()


@pytest.mark.timeout(180)
def test_a_cut_connection_resumes_the_session_and_the_match_goes_on(arena, caplog):
    caplog.set_level(logging.INFO, logger="tapp_bot")
    proxy = Proxy(arena.port)
    table = Table(arena, proxy.address)
    try:
        sessions = [r.client.session_id for r in table.runners]
        deals = 40
        match = arena.match(table.names, deals)
        deadline = time.monotonic() + WAIT
        while table.bots[0].ended < 3:
            assert time.monotonic() < deadline and match.poll() is None, "the match did not start"
            time.sleep(0.01)
        proxy.cut()  # every bot's connection, mid-match
        _, err = match.communicate(timeout=WAIT * 2)
        assert match.returncode == 0, err
        assert [r.client.session_id for r in table.runners] == sessions  # the same sessions, resumed
        assert caplog.text.count("resumed session") >= 3
        # A game that ended while its bot was cut off is not in the resume's snapshot, and its
        # GameEnded went down the cut stream: the SDK drops it (and says so). Every other game
        # of every bot ends as usual.
        dropped = caplog.text.count("is no longer running after the resume; dropping it")
        assert sum(bot.ended for bot in table.bots) + dropped == deals * len(table.bots)
        assert all(bot.ended >= deals - 4 for bot in table.bots)  # at most a capacity's games cut
        for runner in table.runners:
            assert runner.error is None and runner.thread.is_alive()
    finally:
        table.close()
        proxy.close()


@pytest.mark.timeout(240)
def test_the_bots_reconnect_to_an_arena_killed_and_started_again(arena, caplog):
    caplog.set_level(logging.INFO, logger="tapp_bot")
    table = Table(arena)
    try:
        match = arena.match(table.names, 500)
        deadline = time.monotonic() + WAIT
        while table.bots[0].ended < 3:
            assert time.monotonic() < deadline and match.poll() is None, "the match did not start"
            time.sleep(0.01)
        sessions = [r.client.session_id for r in table.runners]
        arena.kill()  # mid-match, no goodbye
        match.kill()  # it would wait for the arena to come back
        match.wait(WAIT)
        before = [bot.ended for bot in table.bots]
        arena.start()  # on the same port and store: the bots find it by themselves
        deadline = time.monotonic() + WAIT
        while any(r.client.session_id in sessions for r in table.runners):  # a new arena, new sessions
            for r in table.runners:
                assert r.error is None, f"a bot stopped: {r.error!r}"
            assert time.monotonic() < deadline, "the bots did not reconnect"
            time.sleep(0.05)
        assert "connection to" in caplog.text and "lost" in caplog.text
        arena.play(table.names)
        for bot, was in zip(table.bots, before, strict=True):
            assert bot.ended - was >= DEALS
        for runner in table.runners:
            assert runner.error is None and runner.thread.is_alive()
    finally:
        table.close()


def test_run_returns_when_the_arena_shuts_down(arena):
    table = Table(arena)
    try:
        arena.kill(signal.SIGTERM)
        for runner in table.runners:
            runner.join(WAIT)
            assert runner.error is None
    finally:
        table.close()
