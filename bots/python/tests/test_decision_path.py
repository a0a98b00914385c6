"""The decision path's shortcuts (docs/BENCHMARKS.md, "Python bots"): answers written by hand are
the bytes protobuf writes, events are kept once each without an event hook too, the bot's legal
list is its own, and an inline call that only waits stays inline."""

from __future__ import annotations

import itertools
import time

import pytest
from conftest import bid_event, decision
from test_guard_clock import FakeClock, Manual, drain, run_bot

import tapp_bot
from tapp_bot.client import encode_answer
from tapp_bot.proto.tapp.v1 import bot_pb2


def protobufs_answer(game_id: str, request_id: str, action: str, think_ns: int | None) -> bytes:
    answer = bot_pb2.Answer(game_id=game_id, request_id=request_id, action=action)
    if think_ns is not None:
        answer.think_time.FromNanoseconds(think_ns)
    return bot_pb2.ConnectRequest(answer=answer).SerializeToString()


@pytest.mark.parametrize(
    ("game_id", "request_id", "action"),
    list(itertools.product(["", "m1/3", "g" * 200, "Spiel-ä"], ["", "r17", "r" * 130], ["", "HA", "pass", "ü" * 70])),
)
def test_an_answer_is_the_bytes_protobuf_writes(game_id: str, request_id: str, action: str) -> None:
    for think_ns in (None, 0, 1, 999, 123_456_789, 1_000_000_000, 12_000_000_005, 2**40):
        assert encode_answer(game_id, request_id, action, think_ns) == protobufs_answer(game_id, request_id, action, think_ns)


def client_of(bot: tapp_bot.Bot | tapp_bot.bot.DecideFunc, clock: FakeClock, **options: object) -> tapp_bot.Client:
    return tapp_bot.Client(bot, arena="unused:1", token="t", clock=clock, executor=Manual(), **options)  # type: ignore[arg-type]


def test_events_sent_again_are_kept_once_by_a_bot_without_an_event_hook() -> None:
    clock = FakeClock()
    client = client_of(lambda request: request.legal[0], clock)
    batches = [(0, 1), (1, 2), (3,), (2, 3, 4)]  # the second and the last repeat events, as after a resume
    for k, batch in enumerate(batches):
        client._on_decision(decision("g1", f"r{k}", ["C7"], clock.wall + 5, events=tuple(bid_event(i) for i in batch)))
        run_bot(client)
    assert [event.index for event in client.games["g1"].events] == [0, 1, 2, 3, 4]


def test_the_legal_list_a_bot_is_given_is_its_own() -> None:
    clock = FakeClock()

    def decide(request: tapp_bot.Request) -> str:
        request.legal[:] = ["XX"]  # a bot that mangles its list does not make its answer legal
        return "XX"

    client = client_of(decide, clock)
    client._on_decision(decision("g1", "r1", ["C7", "D6"], clock.wall + 5))
    run_bot(client)
    assert [m.answer.action for m in drain(client)] == ["C7"]


def test_an_inline_call_that_waits_longer_than_the_limit_but_computes_little_stays_inline() -> None:
    """The limit is of CPU time: a call that takes longer in real time (as any call does when the
    host stalls it) is measured, and kept inline when its CPU was within the limit."""
    clock = FakeClock()

    def decide(request: tapp_bot.Request) -> str:
        time.sleep(0.05)  # ten times the limit in real time, next to nothing of CPU
        return request.legal[-1]

    client = client_of(decide, clock, inline=True, inline_limit=0.005)
    client._on_decision(decision("g1", "r1", ["C7", "D6"], clock.wall + 5))
    assert [m.answer.action for m in drain(client)] == ["D6"]
    assert client.inline
