"""The SDK's own transport: the arena's gRPC stream spoken over HTTP/2 on one socket.

grpcio's synchronous stream hands every message between three or four threads (its channel
thread, the thread that reads the stream, its request-consumer thread that sends), and those
thread switches were most of a fast Python bot's CPU (docs/BENCHMARKS.md, "Python bots"). Here
the thread that iterates the call reads the socket, and whichever thread has an answer — the
reading thread for an inline bot, a bot's thread, the guard's thread — writes it at once under
one lock, so a decision costs one ``recv`` and one ``send`` and no thread switch.

The frames are read and written here, for the one stream a bot has: h2's general state
machine (``H2Connection``) cost 48 CPU-µs per frame received and 24 per frame sent on the
benchmark's machine, several times what the whole decision costs without it
(docs/BENCHMARKS.md). Header blocks (once per stream) are HPACK, Huffman and dynamic tables
included, through the ``hpack`` library. What is handled: SETTINGS (the arena's window and
frame size, acknowledged), PING (acknowledged; sent as keepalive on a quiet connection), flow
control both ways, CONTINUATION, padding, RST_STREAM and GOAWAY; gRPC's length-prefixed
messages and its status in the trailers (``grpc-status``, ``grpc-message``), surfaced as
:class:`StreamError`, which has grpcio's ``code()`` and ``details()``. TLS goes through ``ssl``
with ALPN ``h2``, on memory BIOs so that the reading thread and the writers never use one
OpenSSL object at once (it is not thread-safe).

Answers never wait for the arena's flow-control window: what the window does not admit yet is
kept and sent by the reading thread when the arena's WINDOW_UPDATE comes, so a writer — the
reading thread itself, for an inline bot — never blocks on it.
"""

from __future__ import annotations

import contextlib
import socket
import ssl
import struct
import threading
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from typing import Generic, TypeVar

import grpc

try:
    import hpack
except ImportError:  # an SDK copied without its dependency: grpcio then carries the stream
    hpack = None  # type: ignore[assignment]

T = TypeVar("T")

_STREAM = 1  # the one stream of a connection
# What this side lets the arena send ahead, per stream and per connection: a few large
# snapshots, so that the arena never waits for a WINDOW_UPDATE in play.
_WINDOW = 1 << 24
_CODES = {code.value[0]: code for code in grpc.StatusCode}
# gRPC's mapping of an HTTP status without grpc-status (a proxy's answer) to a code.
_HTTP_CODES = {
    400: grpc.StatusCode.INTERNAL,
    401: grpc.StatusCode.UNAUTHENTICATED,
    403: grpc.StatusCode.PERMISSION_DENIED,
    404: grpc.StatusCode.UNIMPLEMENTED,
    429: grpc.StatusCode.UNAVAILABLE,
    502: grpc.StatusCode.UNAVAILABLE,
    503: grpc.StatusCode.UNAVAILABLE,
    504: grpc.StatusCode.UNAVAILABLE,
}
# HTTP/2's error codes (RFC 9113, section 7) by number, and the gRPC code grpcio reports for a
# stream reset with one.
_ERRORS = ("NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT",
           "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR",
           "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED")
_RESET_CODES = {
    0: grpc.StatusCode.INTERNAL,
    7: grpc.StatusCode.UNAVAILABLE,
    8: grpc.StatusCode.CANCELLED,
    11: grpc.StatusCode.RESOURCE_EXHAUSTED,
    12: grpc.StatusCode.PERMISSION_DENIED,
}

# Frame types and flags (RFC 9113, section 6).
DATA, HEADERS, PRIORITY, RST_STREAM, SETTINGS, PUSH_PROMISE, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION = range(10)
END_STREAM = ACK = 0x1
END_HEADERS = 0x4
PADDED = 0x8
PRIORITY_FLAG = 0x20
_HEADER_TABLE_SIZE, _ENABLE_PUSH, _INITIAL_WINDOW_SIZE, _MAX_FRAME_SIZE, _MAX_HEADER_LIST_SIZE = 1, 2, 4, 5, 6
_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
_MAX_FRAME = 16384  # the largest frame this side accepts (HTTP/2's default; not raised)
_FRAME_HEAD = struct.Struct(">BHBBI")


def frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    """One HTTP/2 frame."""
    n = len(payload)
    return _FRAME_HEAD.pack(n >> 16, n & 0xFFFF, kind, flags, stream) + payload

# What a plain-text connection reads from an arena that serves TLS: the first byte of a TLS
# record (handshake or alert), or an HTTP/1 answer. The words are connect_problem's
# (client.py) to name the fix.
_TLS_RECORD = (0x15, 0x16)
ANSWERED_IN_TLS = "the arena answered in TLS"


class StreamError(grpc.RpcError):
    """The stream ended with a gRPC status other than OK, or its connection failed: ``code()``
    and ``details()`` as grpcio's errors have them, so callers handle both alike."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(f"{code.name}: {details}")
        self._code = code
        self._details = details

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details


def unix_path(address: str) -> str | None:
    """The socket's path of gRPC's Unix-socket address ("unix:///run/x.sock", "unix:x.sock"),
    None for another address."""
    if not address.startswith("unix:"):
        return None
    path = address[5:]
    if path.startswith("//"):
        path = path[2:]  # unix:///abs/path: an empty authority
    return path or None


def available() -> bool:
    """Whether hpack, this transport's one dependency, is installed."""
    return hpack is not None


def supports(address: str) -> bool:
    """Whether this transport can dial address: host:port, [v6]:port, host, or unix:PATH (and
    hpack is installed)."""
    return hpack is not None and (unix_path(address) is not None or split_address(address) is not None)


def split_address(address: str) -> tuple[str, int] | None:
    """(host, port) of "host:port", "[v6]:port" or "host" (port 443, as gRPC's default); None
    for what only a gRPC resolver reads ("dns:///…", "unix:…", lists)."""
    if "/" in address or "," in address or address.startswith(("unix:", "dns:", "ipv4:", "ipv6:", "vsock:")):
        return None
    if address.startswith("["):
        host, sep, rest = address[1:].partition("]")
        if not sep or (rest and not rest.startswith(":")):
            return None
        port = rest[1:] or "443"
    elif address.count(":") == 1:
        host, port = address.split(":")
    elif ":" in address:
        return None  # a bare IPv6 address: ambiguous
    else:
        host, port = address, "443"
    if not host or not port.isdigit():
        return None
    return host, int(port)


def tls_context(ca: str | None) -> ssl.SSLContext:
    """A client context checking the arena's certificate against ca (a PEM file) or the
    system's roots, offering HTTP/2 only."""
    context = ssl.create_default_context(cafile=ca)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.set_alpn_protocols(["h2"])
    return context


class _Plain:
    """A socket as it is."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def recv(self, lock: threading.Lock) -> bytes:
        return self.sock.recv(1 << 16)

    def send(self, data: bytes) -> None:
        """Called with the connection's lock held."""
        self.sock.sendall(data)


class _TLS:
    """TLS over the socket through memory BIOs: the OpenSSL object is used only under the
    connection's lock, the socket's reads outside it."""

    def __init__(self, sock: socket.socket, context: ssl.SSLContext, hostname: str) -> None:
        self.sock = sock
        self.incoming = ssl.MemoryBIO()
        self.outgoing = ssl.MemoryBIO()
        self.obj = context.wrap_bio(self.incoming, self.outgoing, server_hostname=hostname)
        while True:
            try:
                self.obj.do_handshake()
                break
            except ssl.SSLWantReadError:
                self._flush()
                data = sock.recv(1 << 16)
                if not data:
                    raise ConnectionError("the connection closed during the TLS handshake (a plain-text arena?)") from None
                self.incoming.write(data)
        self._flush()
        if self.obj.selected_alpn_protocol() != "h2":
            raise ConnectionError("the arena's TLS does not offer HTTP/2 (ALPN h2)")

    def _flush(self) -> None:
        out = self.outgoing.read()
        if out:
            self.sock.sendall(out)

    def recv(self, lock: threading.Lock) -> bytes:
        while True:
            raw = self.sock.recv(1 << 16)
            with lock:
                if raw:
                    self.incoming.write(raw)
                else:
                    self.incoming.write_eof()
                out = bytearray()
                eof = not raw
                try:
                    while True:
                        chunk = self.obj.read(1 << 16)
                        if not chunk:
                            eof = True
                            break
                        out += chunk
                except ssl.SSLWantReadError:
                    pass
                except (ssl.SSLZeroReturnError, ssl.SSLEOFError):
                    eof = True
                self._flush()  # what reading made TLS say (a key update's answer)
            if out:
                return bytes(out)
            if eof:
                return b""

    def send(self, data: bytes) -> None:
        """Called with the connection's lock held."""
        self.obj.write(data)
        self._flush()


class H2Call(Generic[T]):
    """One gRPC bidirectional stream on a connection of its own.

    :meth:`connect` opens it (raises :class:`StreamError` when it cannot); :meth:`send` from
    any thread; iterate on one thread to read the arena's messages (``decode`` turns each
    into T) until the stream ends: OK returns, any other end raises StreamError. :meth:`cancel`
    from any thread ends it.
    """

    def __init__(
        self,
        address: str,
        path: str,
        metadata: Sequence[tuple[str, str]],
        decode: Callable[[bytes], T],
        *,
        tls: ssl.SSLContext | None = None,
        keepalive_time: float = 30.0,
        keepalive_timeout: float = 10.0,
        connect_timeout: float = 20.0,
        max_message: int = 16 << 20,
    ) -> None:
        self._unix = unix_path(address)
        where = split_address(address) if self._unix is None else ("localhost", 0)
        if where is None:
            raise ValueError(f"the SDK's HTTP/2 transport needs a host:port or unix:PATH address, not {address!r}")
        self.address = address
        self._host, self._port = where
        self._path = path
        self._metadata = metadata
        self._decode = decode
        self._tls = tls
        self._keepalive_time = keepalive_time
        self._keepalive_timeout = keepalive_timeout
        self._connect_timeout = connect_timeout
        self._max_message = max_message
        # Everything below that writers touch is under _lock: the send side's state, the
        # socket's writes (and the TLS object).
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self._wire: _Plain | _TLS | None = None
        self._encoder = hpack.Encoder()
        self._out = bytearray()  # gRPC messages not yet admitted by the arena's windows
        self._control = bytearray()  # frames to send before any more DATA (acknowledgements)
        self._conn_window = 65535  # what the arena admits: on the connection, on the stream
        self._stream_window = 65535
        self._peer_initial = 65535  # the arena's SETTINGS_INITIAL_WINDOW_SIZE
        self._peer_frame = 16384  # the arena's SETTINGS_MAX_FRAME_SIZE
        self._half_close = False  # END_STREAM asked for: sent once _out is empty
        self._ended_send = False  # END_STREAM or RST_STREAM sent, or the arena ended the stream
        self._broken: str | None = None  # why writing failed
        self._cancelled = False
        # While the reading thread hands a batch of messages to the bot, its own answers are
        # gathered and sent in one write after the batch.
        self._reader: int | None = None
        self._corked = False

    # --- opening ---------------------------------------------------------------------------

    def connect(self) -> None:
        try:
            if self._unix is not None:
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                sock.settimeout(self._connect_timeout)
                try:
                    sock.connect(self._unix)
                except OSError:
                    sock.close()
                    raise
            else:
                sock = socket.create_connection((self._host, self._port), timeout=self._connect_timeout)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError as err:
            raise StreamError(grpc.StatusCode.UNAVAILABLE, f"failed to connect to {self.address}: {_reason(err)}") from None
        try:
            self._sock = sock
            self._wire = _TLS(sock, self._tls, self._host) if self._tls is not None else _Plain(sock)
            sock.settimeout(self._keepalive_time)
            settings = struct.pack(">HIHIHI", _INITIAL_WINDOW_SIZE, _WINDOW, _ENABLE_PUSH, 0, _MAX_HEADER_LIST_SIZE, 1 << 16)
            headers = [
                (":method", "POST"),
                (":scheme", "https" if self._tls is not None else "http"),
                (":path", self._path),
                (":authority", "localhost" if self._unix is not None else self.address),
                ("te", "trailers"),
                ("content-type", "application/grpc"),
                ("user-agent", "tapp-bot-python (h2)"),
                *self._metadata,
            ]
            # The token is never put in HPACK's dynamic table (RFC 7541 section 7.1.3).
            block = self._encoder.encode([hpack.NeverIndexedHeaderTuple(k, v) if k == "authorization" else (k, v)
                                          for k, v in headers])
            with self._lock:
                self._wire.send(
                    _PREFACE
                    + frame(SETTINGS, 0, 0, settings)
                    + frame(WINDOW_UPDATE, 0, 0, struct.pack(">I", _WINDOW - 65535))
                    + frame(HEADERS, END_HEADERS, _STREAM, block)
                )
        except ssl.SSLError as err:
            self._close_socket()
            raise StreamError(grpc.StatusCode.UNAVAILABLE, f"TLS with {self.address} failed: {err}") from None
        except OSError as err:
            self._close_socket()
            raise StreamError(grpc.StatusCode.UNAVAILABLE, f"connection to {self.address} failed: {_reason(err)}") from None

    # --- writing (any thread) --------------------------------------------------------------

    def send(self, message: bytes) -> None:
        """Send one serialized message. After the stream ended or broke it is dropped, as
        grpcio drops what is queued on a dead call."""
        framed = b"\x00" + len(message).to_bytes(4, "big") + message
        with self._lock:
            if self._half_close or self._ended_send or self._broken is not None or self._wire is None:
                return
            self._out += framed
            if self._corked and threading.get_ident() == self._reader:
                return
            self._flush_locked()

    def close_send(self) -> None:
        """Half-close: END_STREAM after what was sent; the arena's messages still come."""
        with self._lock:
            self._half_close = True
            if self._wire is not None and self._broken is None:
                self._flush_locked()

    def cancel(self) -> None:
        """End the stream now (RST_STREAM CANCEL, then the socket): iteration raises CANCELLED."""
        self._cancelled = True
        if self._lock.acquire(timeout=1.0):  # a writer stuck in sendall must not hold this up
            try:
                if self._wire is not None and self._broken is None and not self._ended_send:
                    self._ended_send = True
                    self._out.clear()
                    self._control += frame(RST_STREAM, 0, _STREAM, struct.pack(">I", 8))  # CANCEL
                    self._flush_locked()
            finally:
                self._lock.release()
        self._shutdown()

    def _flush_locked(self) -> None:
        """Send the control frames, what the arena's windows admit of _out, END_STREAM when
        asked and all is out. Lock held."""
        wire = self._wire
        assert wire is not None
        chunks = [bytes(self._control)] if self._control else []
        self._control.clear()
        out = self._out
        if not self._ended_send:
            while out:
                room = min(self._conn_window, self._stream_window, self._peer_frame, len(out))
                if room <= 0:
                    break
                chunks.append(frame(DATA, 0, _STREAM, bytes(out[:room])))
                del out[:room]
                self._conn_window -= room
                self._stream_window -= room
            if self._half_close and not out:
                chunks.append(frame(DATA, END_STREAM, _STREAM))
                self._ended_send = True
        if not chunks:
            return
        try:
            wire.send(chunks[0] if len(chunks) == 1 else b"".join(chunks))
        except (OSError, ssl.SSLError) as err:
            self._broken = _reason(err)
            out.clear()
            self._shutdown()  # the reading thread sees it and ends the call

    def _shutdown(self) -> None:
        sock = self._sock
        if sock is not None:
            with contextlib.suppress(OSError):  # not connected any more
                sock.shutdown(socket.SHUT_RDWR)  # wakes the reading thread

    # --- reading (one thread) --------------------------------------------------------------

    def __iter__(self) -> Iterator[T]:
        wire, sock = self._wire, self._sock
        assert wire is not None and sock is not None, "connect first"
        self._reader = threading.get_ident()
        if self._cancelled:  # cancel() came while connecting
            self._close_socket()
            raise StreamError(grpc.StatusCode.CANCELLED, "the call was cancelled")
        decoder = hpack.Decoder(max_header_list_size=1 << 16)
        buf = bytearray()  # bytes read and not yet parsed into frames
        messages = bytearray()  # the stream's DATA: length-prefixed messages
        blocks: list[dict[str, str]] = []  # the stream's header blocks: headers, then trailers
        block: bytearray | None = None  # a header block continued in CONTINUATION frames
        block_ends = False
        received = 0  # DATA bytes not yet given back in WINDOW_UPDATE
        pinged = False
        first = True
        goaway: tuple[int, int, bytes] | None = None  # last stream id, error code, debug data
        ended = False
        reset: int | None = None
        try:
            while True:
                try:
                    data = wire.recv(self._lock)
                except TimeoutError:
                    if pinged:
                        raise self._lost(f"no answer to a keepalive ping in {self._keepalive_timeout:g} s") from None
                    with self._lock:
                        self._control += frame(PING, 0, 0, b"tappkeep")
                        self._flush_locked()
                    pinged = True
                    sock.settimeout(self._keepalive_timeout)
                    continue
                except (OSError, ssl.SSLError) as err:
                    raise self._lost(_reason(err)) from None
                if not data:
                    if goaway is not None:
                        raise self._goaway(goaway)
                    raise self._lost(self._broken or "the arena closed the connection", first=first)
                if pinged:  # anything read says the connection lives
                    pinged = False
                    sock.settimeout(self._keepalive_time)
                if first and (data[0] in _TLS_RECORD or data.startswith(b"HTTP/")):
                    # A TLS record, or the HTTP/1 "400 Bad Request" a TLS server (Go's) writes to plain text.
                    raise StreamError(grpc.StatusCode.UNAVAILABLE, f"{ANSWERED_IN_TLS} or HTTP/1, not in HTTP/2: it serves TLS")
                first = False
                buf += data
                control = bytearray()
                windows = [0, 0]  # increments of the arena's connection and stream windows
                settings: list[tuple[int, int]] = []
                pos, size = 0, len(buf)
                while size - pos >= 9:
                    length = int.from_bytes(buf[pos : pos + 3], "big")
                    if length > _MAX_FRAME:
                        raise self._protocol(f"a frame of {length} bytes, more than the {_MAX_FRAME} allowed")
                    end = pos + 9 + length
                    if end > size:
                        break
                    kind, flags = buf[pos + 3], buf[pos + 4]
                    stream = int.from_bytes(buf[pos + 5 : pos + 9], "big") & 0x7FFFFFFF
                    payload = buf[pos + 9 : end]
                    pos = end
                    if block is not None and kind != CONTINUATION:
                        raise self._protocol("a header block not continued")
                    if kind == DATA:
                        received += length
                        if stream == _STREAM:
                            messages += _unpad(payload, flags) if flags & PADDED else payload
                            ended = ended or bool(flags & END_STREAM)
                    elif kind in (HEADERS, CONTINUATION):
                        if kind == HEADERS:
                            if flags & PADDED:
                                payload = _unpad(payload, flags)
                            if flags & PRIORITY_FLAG:
                                payload = payload[5:]
                            block, block_ends = bytearray(), bool(flags & END_STREAM)
                        elif block is None:
                            raise self._protocol("CONTINUATION without HEADERS")
                        block += payload
                        if flags & END_HEADERS:
                            try:
                                fields = decoder.decode(bytes(block))
                            except hpack.HPACKError as err:
                                raise self._protocol(f"a header block HPACK cannot decode: {err}") from None
                            block = None
                            if stream == _STREAM:
                                blocks.append(_header_dict(fields))  # type: ignore[arg-type]
                                ended = ended or block_ends
                    elif kind == SETTINGS:
                        if not flags & ACK:
                            settings += [struct.unpack_from(">HI", payload, i) for i in range(0, len(payload) - 5, 6)]
                            control += frame(SETTINGS, ACK, 0)
                    elif kind == PING:
                        if not flags & ACK:
                            control += frame(PING, ACK, 0, bytes(payload))
                    elif kind == WINDOW_UPDATE:
                        increment = int.from_bytes(payload[:4], "big") & 0x7FFFFFFF
                        if stream == 0:
                            windows[0] += increment
                        elif stream == _STREAM:
                            windows[1] += increment
                    elif kind == RST_STREAM:
                        if stream == _STREAM:
                            reset = int.from_bytes(payload[:4], "big")
                    elif kind == GOAWAY:
                        goaway = (int.from_bytes(payload[:4], "big") & 0x7FFFFFFF, int.from_bytes(payload[4:8], "big"),
                                  bytes(payload[8:]))
                    elif kind == PUSH_PROMISE:
                        raise self._protocol("PUSH_PROMISE, which this side disabled")
                    # PRIORITY and unknown frames are ignored, as RFC 9113 asks.
                del buf[:pos]
                if received >= _WINDOW // 2:
                    grant = struct.pack(">I", received)
                    control += frame(WINDOW_UPDATE, 0, 0, grant) + frame(WINDOW_UPDATE, 0, _STREAM, grant)
                    received = 0
                with self._lock:
                    for key, value in settings:
                        if key == _INITIAL_WINDOW_SIZE:
                            self._stream_window += value - self._peer_initial
                            self._peer_initial = value
                        elif key == _MAX_FRAME_SIZE:
                            self._peer_frame = value
                        elif key == _HEADER_TABLE_SIZE:
                            self._encoder.header_table_size = value
                    self._conn_window += windows[0]
                    self._stream_window += windows[1]
                    if ended or reset is not None:
                        self._ended_send = True  # the arena is done with the stream
                    self._control += control
                    if self._broken is None:
                        self._flush_locked()
                    self._corked = True
                try:
                    yield from self._messages(messages)
                finally:
                    with self._lock:
                        self._corked = False
                        if self._out and self._broken is None:
                            self._flush_locked()
                if ended:
                    self._finish(blocks)
                    return
                if reset is not None:
                    code = grpc.StatusCode.CANCELLED if self._cancelled else _RESET_CODES.get(reset, grpc.StatusCode.INTERNAL)
                    raise StreamError(code, f"stream reset by the arena: {_error_name(reset)}")
                if goaway is not None and (goaway[0] < _STREAM or goaway[1] != 0):
                    raise self._goaway(goaway)  # the stream is not finished by the arena
        finally:
            self._close_socket()

    def _messages(self, buf: bytearray) -> Iterator[T]:
        decode, limit = self._decode, self._max_message
        while len(buf) >= 5:
            size = int.from_bytes(buf[1:5], "big")
            if size > limit:
                raise StreamError(
                    grpc.StatusCode.RESOURCE_EXHAUSTED,
                    f"the arena sent a message of {size} bytes, more than the limit of {limit}",
                )
            if len(buf) < 5 + size:
                return
            if buf[0]:
                raise StreamError(grpc.StatusCode.INTERNAL, "the arena sent a compressed message, which was not offered")
            body = bytes(buf[5 : 5 + size])
            del buf[: 5 + size]
            yield decode(body)

    def _finish(self, blocks: list[dict[str, str]]) -> None:
        """The stream ended: return on OK, raise its status otherwise. The status is in the
        trailers, or in the only header block of a trailers-only response."""
        headers = blocks[0] if blocks else {}
        trailers = blocks[-1] if blocks else {}
        status = trailers.get("grpc-status")
        if status is None:
            http = headers.get(":status", "0")
            code = _HTTP_CODES.get(int(http) if http.isdigit() else 0, grpc.StatusCode.UNKNOWN)
            raise StreamError(code, f"the stream ended without a gRPC status (HTTP {http})")
        code = _CODES.get(int(status) if status.isdigit() else -1, grpc.StatusCode.UNKNOWN)
        if code is not grpc.StatusCode.OK:
            raise StreamError(code, urllib.parse.unquote(trailers.get("grpc-message", "")))

    def _lost(self, why: str, first: bool = False) -> StreamError:
        if self._cancelled:
            return StreamError(grpc.StatusCode.CANCELLED, "the call was cancelled")
        if first:
            why += " before its first HTTP/2 frame (a TLS arena, and this bot in plain text?)"
        return StreamError(grpc.StatusCode.UNAVAILABLE, f"connection to {self.address} lost: {why}")

    def _protocol(self, what: str) -> StreamError:
        return StreamError(grpc.StatusCode.INTERNAL, f"HTTP/2 protocol error from {self.address}: {what}")

    def _goaway(self, goaway: tuple[int, int, bytes]) -> StreamError:
        if self._cancelled:
            return StreamError(grpc.StatusCode.CANCELLED, "the call was cancelled")
        debug = goaway[2].decode(errors="replace")
        return StreamError(
            grpc.StatusCode.UNAVAILABLE,
            f"the arena closed the connection (GOAWAY {_error_name(goaway[1])}{': ' + debug if debug else ''})",
        )

    def _close_socket(self) -> None:
        sock = self._sock
        if sock is not None:
            sock.close()


def _unpad(payload: bytearray, flags: int) -> bytearray:
    """A PADDED frame's payload without its pad length byte and padding."""
    pad = payload[0] if payload else 0
    return payload[1 : len(payload) - pad]


def _header_dict(headers: Sequence[tuple[str | bytes, str | bytes]]) -> dict[str, str]:
    out = {}
    for name, value in headers:
        out[name if isinstance(name, str) else name.decode()] = value if isinstance(value, str) else value.decode()
    return out


def _error_name(code: int) -> str:
    return _ERRORS[code] if 0 <= code < len(_ERRORS) else f"error {code}"


def _reason(err: BaseException) -> str:
    return str(err) or type(err).__name__
