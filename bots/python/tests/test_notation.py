"""Tapp Portable Notation in Python (tapp_bot.game.notation) against the arena's own (Go).

* Round trips over every rule set: text and JSON twin, full and every seat's redacted record.
* Arena -> Python: a real match exported by ``tapp replay export --format tpn`` (full, its JSON
  twin, and every seat's view) reads, replays and settles in the model, and Python writes and
  redacts it back byte for byte as the arena did.
* Python -> arena: records the model wrote verify with ``tapp replay verify FILE.tpn`` and import
  with ``tapp replay import``.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from gamedata import RULE_SETS, TIMEOUT, build_go

from tapp_bot.game import RuleSet, State, deal_from_seed, notation
from tapp_bot.game.notation import NotationError


def _games(rules: RuleSet, count: int, seed: int) -> list[notation.Record]:
    rng = random.Random(seed)
    out = []
    pot = 0
    table = ["alpha", "bravo", "charlie", "delta"][: rules.players]
    for k in range(count):
        st = State(rules, deal_from_seed(rules, seed, k), pot, rules.variant == 2 and k % 10 == 9)
        st.playout(rng)
        assert st.outcome is not None
        if rules.pot:
            pot = st.outcome.pot_after
        dealer = k % rules.players
        seating = [table[(dealer + 1 + s) % rules.players] for s in range(rules.players)]
        out.append(notation.from_state(st, seating, match=f"py-{seed}", deal=k, table=table, dealer=dealer,
                                       match_format="deals", deals=count, duplicate=False, seed=seed))
    return out


@pytest.mark.parametrize("rules_text", RULE_SETS)
def test_round_trip_every_rule_set(rules_text: str) -> None:
    rules = RuleSet.parse(rules_text)
    for rec in _games(rules, 30, 11):
        for r in [rec] + [notation.redact(rec, s) for s in range(rules.players)]:
            text = notation.write(r)
            assert notation.parse(text) == r, text
            line = notation.to_json(r)
            assert notation.parse(line) == r, line
            assert notation.write(notation.parse(line)) == text
        rec.state()  # the model replays it and agrees with the result


def test_redacted_record_shows_only_the_seats_view() -> None:
    rules = RuleSet.parse("modern players=3 frage=on")
    seen_hidden = 0
    for rec in _games(rules, 200, 5):
        for seat in range(rules.players):
            red = notation.redact(rec, seat)
            assert red.seed is None and not red.nonce and red.outcome is None
            assert red.hands[seat] == rec.hands[seat]
            for s, h in enumerate(red.hands):
                assert h is None or h == rec.hands[s]
            for (ms, code), (fs, fcode) in zip(red.moves, rec.moves, strict=False):
                assert ms == fs
                if code != fcode:  # only another seat's lay-away or give is hidden
                    seen_hidden += 1
                    assert ms != seat and code in (202, 203)
    assert seen_hidden > 0


@pytest.mark.parametrize(
    "text, want",
    [
        ('[Rules "modern"]\n', "starts with [TPN"),
        ('[TPN "2"]\n', "TPN version"),
        ('[TPN "1"]\n[Rules "modern"]\n[Seating "a b c"]\n', "no Hands tag"),
        ('[TPN "1"]\n[Rules "modern"]\n[Seating "a b c"]\n[Hands "C6 | ? | ? | ?"]\n[View "0"]\n', "R-DEAL-1"),
        ('{"format":"tapp-replay/1"}', "format"),
    ],
)
def test_bad_records_are_refused(text: str, want: str) -> None:
    with pytest.raises(NotationError, match=want.replace("[", r"\[")):
        list(notation.read(text))


@pytest.fixture(scope="module")
def tapp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_go(tmp_path_factory.mktemp("gobin"), "./cmd/tapp", "tapp")


def _run(*args: object, cwd: Path | None = None) -> str:
    res = subprocess.run([str(a) for a in args], capture_output=True, text=True, cwd=cwd, check=False)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    return res.stdout


ARENA_MATCHES = [
    "modern players=3 pack=36 frage=on", "modern players=4 pack=32 frage=on", "classic tout=2 pot=on", "wuerttemberg tout=3",
]


@pytest.mark.timeout(TIMEOUT)
@pytest.mark.parametrize("rules_text", ARENA_MATCHES)
def test_arena_tpn_reads_replays_and_writes_back_identically(tapp: Path, tmp_path: Path, rules_text: str) -> None:
    db = tmp_path / "m.db"
    players = RuleSet.parse(rules_text).players
    bots = ",".join(["heuristic", "random", "random", "heuristic"][:players])
    _run(tapp, "match", "--bots", bots, "--rules", rules_text, "--deals", 16, "--seed", 23, "--db", db, cwd=tmp_path)
    match_id = _run(tapp, "matches", "--db", db).splitlines()[1].split()[0]
    full = tmp_path / "m.tpn"
    _run(tapp, "replay", "export", match_id, "--db", db, "--format", "tpn", "--out", full)
    _run(tapp, "replay", "export", match_id, "--db", db, "--format", "tpn-jsonl", "--out", tmp_path / "m.tpn.jsonl")
    text = full.read_text()
    recs = list(notation.read(text))
    assert len(recs) == 16
    assert "".join(notation.write(r) for r in recs) == text
    lines = (tmp_path / "m.tpn.jsonl").read_text().splitlines()
    assert [notation.to_json(r) for r in recs] == lines
    for r in recs:
        r.state()
    for seat in range(players):
        out = tmp_path / f"seat{seat}.tpn"
        _run(tapp, "replay", "export", match_id, "--db", db, "--format", "tpn", "--seat", seat, "--out", out)
        assert "".join(notation.write(notation.redact(r, seat)) for r in recs) == out.read_text()


@pytest.mark.timeout(TIMEOUT)
@pytest.mark.parametrize("rules_text", RULE_SETS)
def test_python_tpn_verifies_and_imports_in_the_arena(tapp: Path, tmp_path: Path, rules_text: str) -> None:
    rules = RuleSet.parse(rules_text)
    path = tmp_path / "py.tpn"
    path.write_text("".join(notation.write(r) for r in _games(rules, 40, 29)))
    out = _run(tapp, "replay", "verify", path)
    assert "40 deal(s)" in out and "every action and settlement checks out" in out, out
    out = _run(tapp, "replay", "import", path, "--db", tmp_path / "i.db")
    assert "imported match py-29: 40 deal(s)" in out, out
    out = _run(tapp, "replay", "verify", "py-29", "--db", tmp_path / "i.db")
    assert "every action and settlement checks out" in out, out


def test_the_sdk_and_the_model_need_no_extra() -> None:
    """The extras cost nothing to users who do not install them: the SDK, the model and TPN
    import none of their libraries."""
    code = ("import sys, tapp_bot, tapp_bot.game, tapp_bot.game.notation, tapp_bot.encoding; "
            "print(sorted(m for m in ('numpy', 'pyspiel', 'pettingzoo', 'gymnasium', 'pyarrow') if m in sys.modules))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert res.stdout.strip() == "[]", res.stdout
