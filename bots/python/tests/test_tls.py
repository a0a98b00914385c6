"""TLS: the client reaches an arena that serves TLS with the CA file it is given (ca= or
$TAPP_CA), and does not talk to it in plain text."""

from __future__ import annotations

import itertools
import pathlib
import queue
import shutil
import subprocess
from collections.abc import Iterator
from concurrent import futures

import grpc
import pytest
from conftest import TOKEN, BotRunner, Conn, FakeArena

import tapp_bot
from tapp_bot.proto.tapp.v1 import bot_pb2_grpc

# Every test here runs on both transports (conftest.transport).
pytestmark = pytest.mark.usefixtures("transport")

REPO = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def cert(tmp_path_factory: pytest.TempPathFactory) -> tuple[pathlib.Path, pathlib.Path]:
    """A fresh self-signed certificate for localhost and 127.0.0.1, made by the repository's
    Go helper (arena/internal/testcert/gencert) or, without Go, by openssl."""
    out = tmp_path_factory.mktemp("cert")
    cert, key = out / "cert.pem", out / "key.pem"
    if shutil.which("go"):
        subprocess.run(["go", "run", "./arena/internal/testcert/gencert", str(out)], cwd=REPO, check=True)
    elif shutil.which("openssl"):
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
             "-days", "1", "-subj", "/CN=tapp test arena", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
             "-keyout", str(key), "-out", str(cert)],
            check=True, capture_output=True,
        )
    else:
        pytest.skip("neither go nor openssl to make a test certificate")
    return cert, key


class TLSArena(FakeArena):
    """The scripted fake arena, serving TLS."""

    def __init__(self, cert: pathlib.Path, key: pathlib.Path) -> None:
        self.connections: queue.Queue[Conn] = queue.Queue()
        self.seq = itertools.count(1)
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
        bot_pb2_grpc.add_BotServiceServicer_to_server(self, self.server)
        creds = grpc.ssl_server_credentials([(key.read_bytes(), cert.read_bytes())])
        self.port = self.server.add_secure_port("127.0.0.1:0", creds)
        self.address = f"127.0.0.1:{self.port}"
        self.server.start()


@pytest.fixture
def tls_arena(cert: tuple[pathlib.Path, pathlib.Path]) -> Iterator[TLSArena]:
    fake = TLSArena(*cert)
    yield fake
    fake.stop()


def _run(client: tapp_bot.Client) -> BotRunner:
    return BotRunner(client)


@pytest.mark.parametrize("via_env", [False, True])
def test_client_reaches_a_tls_arena_with_its_ca(tls_arena, cert, monkeypatch, via_env):
    ca = str(cert[0])
    if via_env:
        monkeypatch.setenv("TAPP_CA", ca)
        client = tapp_bot.Client(lambda request: request.legal[0], tls_arena.address, token=TOKEN)
    else:
        client = tapp_bot.Client(lambda request: request.legal[0], tls_arena.address, token=TOKEN, ca=ca)
    runner = _run(client)
    try:
        conn = tls_arena.accept(timeout=10)
        conn.recv_hello()
        assert conn.metadata["authorization"] == f"Bearer {TOKEN}"
    finally:
        client.close()
        runner.thread.join(5)


def test_plain_text_client_does_not_reach_a_tls_arena(tls_arena, monkeypatch):
    monkeypatch.delenv("TAPP_CA", raising=False)
    monkeypatch.delenv("TAPP_TLS", raising=False)
    client = tapp_bot.Client(lambda request: request.legal[0], tls_arena.address, token=TOKEN)
    runner = _run(client)
    try:
        with pytest.raises(AssertionError, match="no bot connected"):
            tls_arena.accept(timeout=1.5)
    finally:
        client.close()
        runner.thread.join(5)


def test_bad_tapp_tls_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("TAPP_TLS", "yes please")
    with pytest.raises(ValueError, match="TAPP_TLS"):
        tapp_bot.Client(lambda request: request.legal[0], "localhost:1", token=TOKEN)
