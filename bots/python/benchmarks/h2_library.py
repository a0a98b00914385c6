"""What h2's HTTP/2 state machine (``H2Connection``) costs per frame, the measurement behind
the SDK's own framing (tapp_bot.h2transport, docs/BENCHMARKS.md "Python bots").

h2 is not a dependency of the SDK: ``pip install h2==4.4.1`` first, then

    python bots/python/benchmarks/h2_library.py

It prints the CPU time of receiving one 700-byte DATA frame (about a decision request) with
the flow-control acknowledgement the client owes, and of sending one 60-byte DATA frame
(about an answer), each with ``data_to_send``, over a connection already open.
"""

from __future__ import annotations

import time

import h2.config
import h2.connection
import h2.events
import hyperframe.frame


def main(n: int = 20_000) -> None:
    client = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    server = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
    client.initiate_connection()
    client.send_headers(1, [(":method", "POST"), (":scheme", "http"), (":path", "/x"), (":authority", "a")])
    server.initiate_connection()
    server.receive_data(client.data_to_send())
    client.receive_data(server.data_to_send())
    server.send_headers(1, [(":status", "200")])
    client.receive_data(server.data_to_send())
    data = hyperframe.frame.DataFrame(1)
    data.data = b"x" * 700
    raw = data.serialize()

    start = time.process_time()
    for _ in range(n):
        for event in client.receive_data(raw):
            if isinstance(event, h2.events.DataReceived):
                client.acknowledge_received_data(event.flow_controlled_length, 1)
        client.data_to_send()
    received = (time.process_time() - start) / n

    sends = 1000  # within the peer's default window (65,535 bytes)
    start = time.process_time()
    for _ in range(sends):
        client.send_data(1, b"y" * 60)
        client.data_to_send()
    sent = (time.process_time() - start) / sends
    print(f"h2 {h2.__version__}: {received * 1e6:.1f} CPU-µs per DATA frame received, {sent * 1e6:.1f} per frame sent")


if __name__ == "__main__":
    main()
