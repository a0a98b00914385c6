"""A throwaway floor, not a bot to use: random answers over a hand-written HTTP/2 stream on one
thread (docs/BENCHMARKS.md, "Python bots").

grpcio's synchronous stream hands every message between three or four threads (its channel
thread, the reading thread, its request-consumer thread), and those thread switches are most of
a Python bot's CPU. This loop speaks the arena's gRPC stream itself — the HTTP/2 frames over a
plain socket, one thread, answering each request before it reads the next — to measure what a
Python bot would cost without them. It does no TLS, resume, guard, flow control of its own
sends or error handling: a measurement, run by BenchmarkArenaPythonBots with

    TAPP_BENCH_PYTHON_BOT=h2_floor   (a file of bots/python/benchmarks, run as a script)
"""

from __future__ import annotations

import argparse
import random
import socket
import struct

from tapp_bot.proto.tapp.v1 import bot_pb2

DATA, HEADERS, SETTINGS, PING, GOAWAY, WINDOW_UPDATE = 0, 1, 4, 6, 7, 8
END_STREAM, ACK, END_HEADERS = 0x1, 0x1, 0x4
WINDOW = 1 << 24  # what this side lets the arena send ahead, per stream and per connection


def frame(kind: int, flags: int, stream: int, payload: bytes) -> bytes:
    return struct.pack(">I", len(payload))[1:] + bytes((kind, flags)) + struct.pack(">I", stream) + payload


def literal(name: str, value: str) -> bytes:
    """An HPACK literal header field without indexing, no Huffman (names and values < 127 bytes)."""
    n, v = name.encode(), value.encode()
    return b"\x00" + bytes((len(n),)) + n + bytes((len(v),)) + v


def grpc_message(message: bot_pb2.ConnectRequest) -> bytes:
    body = message.SerializeToString()
    return b"\x00" + struct.pack(">I", len(body)) + body


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--arena", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--capacity", type=int, default=1)
    parser.add_argument("--log-level", default="")
    args = parser.parse_args()
    host, port = args.arena.rsplit(":", 1)
    sock = socket.create_connection((host, int(port)))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    headers = b"".join(literal(k, v) for k, v in (
        (":method", "POST"), (":scheme", "http"), (":path", "/tapp.v1.BotService/Connect"),
        (":authority", args.arena), ("content-type", "application/grpc"), ("te", "trailers"),
        ("authorization", f"Bearer {args.token}"),
    ))
    hello = bot_pb2.ConnectRequest(hello=bot_pb2.Hello(name=args.name, version="floor", capacity=args.capacity))
    sock.sendall(
        b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
        + frame(SETTINGS, 0, 0, struct.pack(">HI", 4, WINDOW))  # SETTINGS_INITIAL_WINDOW_SIZE
        + frame(WINDOW_UPDATE, 0, 0, struct.pack(">I", WINDOW - 65535))
        + frame(HEADERS, END_HEADERS, 1, headers)
        + frame(DATA, 0, 1, grpc_message(hello))
    )
    rng = random.Random(1)
    buf = bytearray()
    messages = bytearray()  # the stream's DATA, gRPC's length-prefixed messages
    received = 0
    recv = sock.recv
    while True:
        chunk = recv(1 << 16)
        if not chunk:
            return
        buf += chunk
        out: list[bytes] = []
        while len(buf) >= 9:
            length = int.from_bytes(buf[0:3], "big")
            if len(buf) < 9 + length:
                break
            kind, flags = buf[3], buf[4]
            payload = bytes(buf[9 : 9 + length])
            del buf[: 9 + length]
            if kind == DATA:
                messages += payload
                received += length
                if flags & END_STREAM:
                    return
            elif kind == SETTINGS and not flags & ACK:
                out.append(frame(SETTINGS, ACK, 0, b""))
            elif kind == PING and not flags & ACK:
                out.append(frame(PING, ACK, 0, payload))
            elif kind == GOAWAY or (kind == HEADERS and flags & END_STREAM):
                return
        while len(messages) >= 5:
            size = int.from_bytes(messages[1:5], "big")
            if len(messages) < 5 + size:
                break
            message = bot_pb2.ConnectResponse.FromString(bytes(messages[5 : 5 + size]))
            del messages[: 5 + size]
            if message.WhichOneof("message") == "decision_request":
                request = message.decision_request
                answer = bot_pb2.Answer(game_id=request.game_id, request_id=request.request_id,
                                        action=rng.choice(request.legal))
                out.append(frame(DATA, 0, 1, grpc_message(bot_pb2.ConnectRequest(answer=answer))))
        if received > WINDOW // 2:
            increment = struct.pack(">I", received)
            out.append(frame(WINDOW_UPDATE, 0, 0, increment) + frame(WINDOW_UPDATE, 0, 1, increment))
            received = 0
        if out:
            sock.sendall(b"".join(out))


if __name__ == "__main__":
    main()
