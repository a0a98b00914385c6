"""The Python game model against the Go engine, both ways, over every rule set of the matrix.

* Engine -> Python: a Go program (arena/internal/enginegames) plays random games with the engine and
  writes every legal list, every move, the settlement and one seat's observation (as the wire
  sends it); the model replays them and must agree on every list, move, settlement and
  observation, and deal the same seeded cards (R-DEAL-2).
* Python -> engine: the model's random self-play (python -m tapp_bot.game selfplay) is checked
  by `tapp replay verify`, the arena's own re-simulation.
* Arena -> Python: real matches (`tapp match`, bots over gRPC) exported with every request as
  sent replay in the model with the same legal lists, observations and settlements.

Quick by default; TAPP_GAME_DIFF=full plays 100,000 deals each way (docs/BENCHMARKS.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from gamedata import RULE_SETS, TIMEOUT, build_go, deals
from google.protobuf import json_format

from tapp_bot.game import Deal, RuleError, RuleSet, State, deal_from_seed
from tapp_bot.game.export import replay_record
from tapp_bot.proto.tapp.v1 import game_pb2


@pytest.fixture(scope="module")
def bins(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("gobin")
    return {
        "tapp": build_go(tmp, "./cmd/tapp", "tapp"),
        "enginegames": build_go(tmp, "./arena/internal/enginegames", "enginegames"),
    }


def _check_probes(rules: RuleSet, deal: Deal, rec: dict[str, Any]) -> None:
    """Illegal actions the engine refused: the model refuses them with the same rule id and message."""
    if not rec["probes"]:
        return
    st = State(rules, deal, rec["pot"], rec["forced_ramsch"])
    done = 0
    for p in rec["probes"]:
        while done < p["move"]:
            st.apply(rec["moves"][done].split(":", 1)[1])
            done += 1
        before = st.copy()
        with pytest.raises(RuleError) as err:
            st.apply(p["action"])
        assert str(err.value) == p["error"], f"deal {rec['deal_number']}, before move {p['move']}: {p['action']}"
        assert st == before


@pytest.mark.timeout(TIMEOUT)
def test_engine_games_replay_identically_in_python(bins: dict[str, Path]) -> None:
    n = deals(1300, 100_000)
    proc = subprocess.Popen(
        [str(bins["enginegames"]), "-rules", ";".join(RULE_SETS), "-deals", str(n), "-seed", "19"],
        stdout=subprocess.PIPE, text=True,
    )
    assert proc.stdout is not None
    seen = 0
    names: set[str] = set()
    for line in proc.stdout:
        rec = json.loads(line)
        rules = RuleSet.parse(rec["rules"])
        assert str(rules) == rec["rules"]
        deal = Deal.from_names(rec["hands"], rec["tapp"])
        if seen % 10 == 0:  # the engine's PCG in Python is slow; every tenth deal is plenty
            assert deal_from_seed(rules, int(rec["seed"]), rec["deal_number"]) == deal, f"deal {seen}: R-DEAL-2"
        replay_record(rec, rec["legal"])
        _check_probes(rules, deal, rec)
        if seen % 4 == 0:  # parsing protobuf JSON dominates; a quarter of the deals
            st = State(rules, deal, rec["pot"], rec["forced_ramsch"])
            for text in rec["moves"][: rec["obs_move"]]:
                st.apply(text.split(":", 1)[1])
            want = json_format.Parse(json.dumps(rec["observation"]), game_pb2.Observation())
            assert st.observe(rec["obs_seat"]).to_proto() == want, f"deal {seen}: observation of seat {rec['obs_seat']}"
        names.add(rec["outcome"]["contract"])
        seen += 1
    assert proc.wait() == 0
    assert seen == n
    # The random games reach every contract of every variant (and throw-ins, Ramsch).
    assert {"frage", "solo", "heartsolo", "bettel", "rufer", "heartrufer", "ouvert", "durch", "heartdurch", "ramsch", ""} <= names


@pytest.mark.timeout(TIMEOUT)
@pytest.mark.parametrize("rules", RULE_SETS)
def test_python_selfplay_verifies_with_the_engine(bins: dict[str, Path], tmp_path: Path, rules: str) -> None:
    n = deals(100, 100_000 // len(RULE_SETS) + 1)
    out = tmp_path / "selfplay.jsonl"
    forced = ["--forced-ramsch", "0.1"] if rules.startswith("modern") else []
    subprocess.run(
        [sys.executable, "-m", "tapp_bot.game", "selfplay", "--rules", rules, "--deals", str(n), "--seed", "19", *forced,
         "--out", str(out)],
        check=True,
    )
    res = subprocess.run([str(bins["tapp"]), "replay", "verify", str(out)], capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    assert f"{n} deal(s)" in res.stdout and "every action and settlement checks out" in res.stdout, res.stdout


ARENA_MATCHES = [
    "modern players=3 pack=36 frage=on",
    "modern players=4 pack=32 frage=on",
    "classic tout=2 pot=on",
    "wuerttemberg tout=3 pot=on",
]


@pytest.mark.timeout(TIMEOUT)
@pytest.mark.parametrize("rules", ARENA_MATCHES)
def test_arena_match_exports_replay_in_python(bins: dict[str, Path], tmp_path: Path, rules: str) -> None:
    """A real match (bots over gRPC) exported with the requests as sent: every legal list and
    every observation the arena sent is the model's, and so is every settlement."""
    db = tmp_path / "m.db"
    bots = "random,heuristic,random" + (",heuristic" if "players=4" in rules else "")
    subprocess.run([str(bins["tapp"]), "match", "--bots", bots, "--rules", rules, "--deals", str(deals(8, 60)),
                    "--seed", "19", "--db", str(db)], check=True, capture_output=True, cwd=tmp_path)
    listing = subprocess.run([str(bins["tapp"]), "matches", "--db", str(db)], capture_output=True, text=True, check=True)
    match_id = listing.stdout.splitlines()[1].split()[0]  # under the header, the first column
    export = tmp_path / "m.jsonl"
    subprocess.run([str(bins["tapp"]), "replay", "export", match_id, "--db", str(db), "--out", str(export)],
                   check=True, capture_output=True)
    lines = export.read_text().splitlines()
    assert lines
    for line in lines:
        rec = json.loads(line)
        assert all(d.get("sent") for d in rec["decisions"]), "the export should carry the requests as sent"
        replay_record(rec)
