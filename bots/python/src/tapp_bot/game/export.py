"""Deal records in the JSON Lines format of ``tapp replay export`` (docs/replay.md).

:func:`deal_record` writes a finished :class:`State` as one export line, so that
``tapp replay verify FILE.jsonl`` re-simulates it with the Go engine. :func:`replay_record`
goes the other way: it replays an export line (from the arena, or from this module) with the
Python model and raises :class:`ReplayMismatch` where the model and the record disagree.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .actions import ACTION_NAMES, parse_move
from .cards import names_of
from .deal import Deal
from .rules import RuleSet
from .state import PHASE_DECISION, State

FORMAT_VERSION = "tapp-replay/1"


class ReplayMismatch(AssertionError):
    """The Python model disagrees with a record: the message names the deal, the move and the field."""


def deal_record(
    st: State,
    *,
    match: str,
    deal: int,
    bots: Sequence[str],
    seating: Sequence[str] | None = None,
    started: str = "2026-01-01T00:00:00Z",
) -> dict[str, Any]:
    """A finished deal as an export line (a dict; ``json.dumps`` it), with one decision per move.

    Every decision is recorded as answered at once by the seat's bot (one accepted attempt,
    no strike, no fallback, no request as sent).
    """
    if not st.terminal:
        raise ValueError("deal_record: the deal is not over")
    seating = list(seating if seating is not None else bots)
    n = st.n
    replay = State(st.rules, st.deal, st.pot_in, st.forced_ramsch)
    decisions = []
    for i, (seat, code) in enumerate(st.history):
        text = ACTION_NAMES[code]
        decisions.append({
            "index": i, "seat": seat, "bot": seating[seat], "decision": PHASE_DECISION[replay.phase],
            "action": text, "latency_us": 0, "strike": False, "fallback": False,
            "attempts": [{"text": text, "after_us": 0}],
        })
        replay.play_code(code)
    out = st.outcome
    assert out is not None
    return {
        "format": FORMAT_VERSION, "match": match, "rules": str(st.rules), "bots": list(bots),
        "duplicate": False, "time_control": {"per_decision_us": 0, "overage_us": 0, "max_strikes": 0},
        "deal": deal, "group": deal, "seating": seating,
        "hands": [names_of(h) for h in st.deal_hands], "tapp": names_of(st.deal_tapp),
        "options": {"pot": st.pot_in, "forced_ramsch": st.forced_ramsch},
        "moves": st.moves(), "decisions": decisions, "outcome": out.to_json(),
        "results": [
            {"seat": s, "bot": seating[s], "payoff": out.payoff[s], "points": out.points[s], "tricks": out.tricks[s],
             "declarer": out.declarer == s}
            for s in range(n)
        ],
        "started": started, "duration_us": 0,
    }


def replay_record(rec: dict[str, Any], legal: Sequence[Sequence[str]] | None = None) -> State:
    """Replay an export line (or any dict with ``rules``, ``hands``, ``tapp``, ``options``,
    ``moves``, ``outcome``) with the Python model and return the final state.

    Checks every move's seat and legality, the legal list before each move (from ``legal``, or
    from each decision's request as sent when the record has it), the observation sent with
    each request, that the deal ends with the last move, and the settlement. Raises :class:`ReplayMismatch` on the first disagreement.
    """
    rules = RuleSet.parse(rec["rules"])
    deal = Deal.from_names(rec["hands"], rec["tapp"])
    opts = rec.get("options", {})
    where = f"deal {rec.get('deal', rec.get('deal_number', '?'))}"
    st = State(rules, deal, opts.get("pot", rec.get("pot", 0)), opts.get("forced_ramsch", rec.get("forced_ramsch", False)))
    sent: dict[int, Any] = {d["index"]: d["sent"] for d in rec.get("decisions", []) if d.get("sent")}
    if legal is None and rec.get("moves") and len(sent) == len(rec["moves"]):
        legal = [sent[i].get("legal", []) for i in range(len(rec["moves"]))]
    for i, text in enumerate(rec["moves"]):
        seat, code = parse_move(text)
        if i in sent:
            _check_sent(st, seat, sent[i], f"{where}, move {i} ({text})")
        if st.terminal:
            raise ReplayMismatch(f"{where}, move {i} ({text}): the model's deal is already over")
        if legal is not None and st.legal_actions() != list(legal[i]):
            raise ReplayMismatch(f"{where}, move {i} ({text}): legal {st.legal_actions()}, the record has {list(legal[i])}")
        if seat != st.to_move:
            raise ReplayMismatch(f"{where}, move {i} ({text}): the model has seat {st.to_move} to move")
        try:
            st.apply(code)
        except ValueError as err:
            raise ReplayMismatch(f"{where}, move {i} ({text}): the model refuses it: {err}") from None
    if not st.terminal:
        raise ReplayMismatch(f"{where}: the moves end but the model's deal goes on ({st.decision} for seat {st.to_move})")
    got = st.outcome.to_json() if st.outcome else {}
    want = rec["outcome"]
    if got != want:
        diff = {k: (got.get(k), want.get(k)) for k in want if got.get(k) != want.get(k)}
        raise ReplayMismatch(f"{where}: settlement differs (model, record): {diff}")
    return st


def _check_sent(st: State, seat: int, sent: dict[str, Any], where: str) -> None:
    """The observation the arena sent before a move is the model's observation of that seat."""
    from google.protobuf import json_format

    from tapp_bot.proto.tapp.v1 import bot_pb2

    req = json_format.ParseDict(sent, bot_pb2.DecisionRequest(), ignore_unknown_fields=True)
    got = st.observe(seat).to_proto()
    if got != req.observation:
        raise ReplayMismatch(f"{where}: the observation sent differs from the model's:\n{req.observation}\nmodel:\n{got}")


def dumps(rec: dict[str, Any]) -> str:
    """One compact JSON line."""
    return json.dumps(rec, separators=(",", ":"))
