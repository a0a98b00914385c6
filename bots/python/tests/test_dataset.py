"""`tapp dataset export` read with pyarrow, checked against the Python model of the rules.

A real league (built-in bots over gRPC) is exported as Parquet; every deal's cards and moves
replay in the model to the recorded settlement, and every decision row's observation (hand,
legal actions, history as the seat saw it, trick, voids) is the model's view of that seat at
that moment. The reading code of docs/dataset.md runs as written.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

pq = pytest.importorskip("pyarrow.parquet")

from gamedata import TIMEOUT, build_go  # noqa: E402

from tapp_bot.game import Deal, RuleSet, State  # noqa: E402
from tapp_bot.game.actions import ACTION_NAMES  # noqa: E402
from tapp_bot.game.cards import CARD_NAMES, SUIT_LETTERS, names_of  # noqa: E402

LEAGUE = """name: night
rules: {rules}
format: round-robin
deals: 4
duplicate: true
seed: 17
bots:
  - {{name: heuristic, builtin: heuristic}}
  - {{name: random, builtin: random}}
  - {{name: kibitz, builtin: random}}
{fourth}"""


@pytest.fixture(scope="module")
def tapp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_go(tmp_path_factory.mktemp("gobin"), "./cmd/tapp", "tapp")


def _export(tapp: Path, tmp: Path, rules: str, *flags: str) -> Path:
    league = tmp / "night.yaml"
    fourth = "  - {name: random-4, builtin: random}\n" if "players=4" in rules else ""
    league.write_text(LEAGUE.format(rules=rules, fourth=fourth))
    db = tmp / "night.db"
    subprocess.run([str(tapp), "league", "run", str(league), "--db", str(db)], check=True, capture_output=True, cwd=tmp)
    out = tmp / "ds"
    res = subprocess.run([str(tapp), "dataset", "export", "--league", "night", "--db", str(db), "--out", str(out), *flags],
                         capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stderr[-2000:]
    return out


@pytest.mark.timeout(TIMEOUT)
@pytest.mark.parametrize("rules", ["modern players=4 pack=32 frage=on", "classic tout=3"])  # leagues play without a pot
def test_dataset_replays_in_the_model(tapp: Path, tmp_path: Path, rules: str) -> None:
    out = _export(tapp, tmp_path, rules)
    deals = pq.read_table(out / "deals.parquet").to_pylist()
    decisions = pq.read_table(out / "decisions.parquet").to_pylist()
    meta = pq.read_metadata(out / "deals.parquet").metadata
    assert meta[b"tapp.dataset"] == b"1" and meta[b"tapp.source"] == b"league night"
    players = RuleSet.parse(rules).players
    assert len(deals) == 4 * (6 if players == 3 else 4)  # duplicate: every seating of 3, the 4 rotations of 4
    rows = iter(decisions)
    for d in deals:
        r = RuleSet.parse(d["rules"])
        assert str(r) == str(RuleSet.parse(rules)) and d["seeded"] and d["seed"] == 17
        hands = [d[f"hand_{s}"] for s in range(r.players)]
        st = State(r, Deal.from_names(hands, d["tapp"]), d["pot_before"], d["forced_ramsch"])
        for k, move in enumerate(d["moves"]):
            x = next(rows)
            seat = int(move.split(":", 1)[0])
            obs = st.observe(seat)
            assert (x["match"], x["deal"], x["index"], x["seat"]) == (d["match"], d["deal"], k, seat)
            assert x["decision"] == obs.decision and x["legal"] == st.legal_actions() and x["action"] == move.split(":", 1)[1]
            assert x["hand"] == names_of(obs.hand) and x["dealt"] == names_of(obs.dealt)
            assert x["history"] == [f"{s}:{ACTION_NAMES[a]}" for s, a in obs.history]
            assert x["trick"] == [CARD_NAMES[c] for c in obs.current]
            assert x["voids"] == ["".join(SUIT_LETTERS[s] for s in range(4) if v >> s & 1) for v in obs.voids]
            assert x["tapp_seen"] == names_of(obs.tapp) and x["bot"] == d["seating"][seat]
            st.apply(x["action"])
            assert x["payoff"] == d["payoff"][seat]
        assert st.outcome is not None and st.outcome.payoff == d["payoff"] and st.outcome.points == d["points"]
    assert next(rows, None) is None


@pytest.mark.timeout(TIMEOUT)
def test_the_docs_example_and_anonymised_names(tapp: Path, tmp_path: Path) -> None:
    out = _export(tapp, tmp_path, "modern players=3", "--anonymise")
    import pyarrow.compute as pc

    # docs/dataset.md, "Reading it": the card decisions of one bot with their outcome.
    decisions = pq.read_table(out / "decisions.parquet")
    cards = decisions.filter(pc.equal(decisions["decision"], "card"))
    by_bot = cards.group_by("bot").aggregate([("payoff", "mean"), ("index", "count")])
    bots = set(by_bot.column("bot").to_pylist())
    assert bots == {"bot-1", "bot-2", "bot-3"}
    deals = pq.read_table(out / "deals.parquet", columns=["seating", "payoff", "contract"])
    assert all(set(s) <= bots for s in deals.column("seating").to_pylist())


@pytest.mark.timeout(TIMEOUT)
def test_a_matchs_commitment_is_carried(tapp: Path, tmp_path: Path) -> None:
    """A match that committed to its deals (tapp match) carries its commitment and, once over,
    its nonce into every deal row (league matches commit from issue 27 on)."""
    db = tmp_path / "m.db"
    subprocess.run([str(tapp), "match", "--bots", "heuristic,random,random", "--deals", "3", "--seed", "4", "--db", str(db)],
                   check=True, capture_output=True, cwd=tmp_path)
    match_id = subprocess.run([str(tapp), "matches", "--db", str(db)], capture_output=True, text=True,
                              check=True).stdout.splitlines()[1].split()[0]
    out = tmp_path / "ds"
    subprocess.run([str(tapp), "dataset", "export", "--match", match_id, "--db", str(db), "--out", str(out)], check=True,
                   capture_output=True)
    verify = subprocess.run([str(tapp), "replay", "verify", match_id, "--db", str(db)], capture_output=True, text=True, check=False).stdout
    deals = pq.read_table(out / "deals.parquet").to_pylist()
    assert len(deals) == 3
    for d in deals:
        assert len(d["commitment"]) == 64 and len(d["nonce"]) == 32
        assert f"commitment {d['commitment']} holds" in verify
