"""A bot on bare grpcio for the tests of package botcheck (no SDK, which would hide its
faults). Usage: pybot.py MODE, MODE one of good, illegal, crash, slow. It does not reconnect
after a dropped stream."""

import os
import queue
import sys
import time

import grpc
from tapp_bot.proto.tapp.v1 import bot_pb2, bot_pb2_grpc

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
requests_seen = 0


def choose(request):
    global requests_seen
    requests_seen += 1
    if MODE == "crash" and requests_seen == 5:
        raise RuntimeError("crashed on purpose")
    if MODE == "slow":
        time.sleep(3)
    if MODE == "illegal":
        return next(a for a in ("tout", "HA", "SA", "pass") if a not in request.legal)
    return request.legal[0]


def main():
    stub = bot_pb2_grpc.BotServiceStub(grpc.insecure_channel(os.environ["TAPP_ARENA"]))
    outbox = queue.Queue()
    outbox.put(bot_pb2.ConnectRequest(hello=bot_pb2.Hello(name=os.environ.get("TAPP_BOT_NAME", ""), version=MODE, capacity=2)))

    def out():
        while True:
            yield outbox.get()

    stream = stub.Connect(out(), metadata=[("authorization", "Bearer " + os.environ["TAPP_TOKEN"])])
    for msg in stream:
        kind = msg.WhichOneof("message")
        if kind == "decision_request":
            req = msg.decision_request
            outbox.put(bot_pb2.ConnectRequest(answer=bot_pb2.Answer(game_id=req.game_id, request_id=req.request_id, action=choose(req))))
        elif kind == "going_away":
            stream.cancel()
            return


if __name__ == "__main__":
    main()
