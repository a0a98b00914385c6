"""The OpenSpiel game (tapp_bot.openspiel) against OpenSpiel's own checks and the engine it wraps.

* pyspiel.random_sim_test (OpenSpiel's C++ game checks: legal actions, chance outcomes,
  returns, observation and information-state tensors and strings, and the serialization round
  trip) over every rule set of the matrix.
* Random games played through pyspiel re-simulate with the Go engine (`tapp replay verify`).
* resample_from_infostate keeps the player's information state, and an information-state string
  names exactly one view of the seat (as the arena would send it).
* The ISMCTS example bot plays a real league match through the Python SDK without a fallback.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from gamedata import REPO, RULE_SETS, TIMEOUT, build_go  # noqa: E402

import tapp_bot.openspiel as tsp  # noqa: E402
from tapp_bot.game import RuleSet  # noqa: E402
from tapp_bot.game.export import deal_record, dumps  # noqa: E402

sys.path.insert(0, str(REPO / "bots" / "python" / "examples"))
from openspiel_ismcts_bot import game_params  # noqa: E402


def load(rules_text: str, pot: int = 0, forced: bool = False) -> Any:
    return pyspiel.load_game(tsp.GAME_NAME, game_params(RuleSet.parse(rules_text), pot, forced))


def test_parameters_name_the_rule_set() -> None:
    for rules_text in RULE_SETS:
        game = load(rules_text)
        assert str(game.rules) == str(RuleSet.parse(rules_text))
        assert str(pyspiel.load_game(str(game)).rules) == str(game.rules)  # the game string round trips
    classic = pyspiel.load_game("python_tapp(variant=classic,tout=3,pot=True)")
    assert str(classic.rules) == "classic players=3 pack=36 tout=3 pot=on"
    with pytest.raises(Exception, match="players=4"):
        pyspiel.load_game("python_tapp(variant=classic,players=4)")


@pytest.mark.parametrize("rules_text", RULE_SETS)
def test_openspiel_random_simulation_and_serialization(rules_text: str) -> None:
    game = load(rules_text, pot=8 if "pot=on" in rules_text else 0)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    if rules_text.startswith("modern"):
        pyspiel.random_sim_test(load(rules_text, forced=True), num_sims=1, serialize=True, verbose=False)


def _random_game(game: Any, rng: random.Random) -> Any:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=False)
            assert abs(sum(probs) - 1) < 1e-9
            state.apply_action(rng.choice(outcomes))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_serialized_states_come_back_the_same() -> None:
    game = load("modern players=4 pack=32 frage=on")
    rng = random.Random(4)
    state = game.new_initial_state()
    for _ in range(60):
        if state.is_terminal():
            break
        acts = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(rng.choice(acts))
        text = pyspiel.serialize_game_and_state(game, state)
        game2, back = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game) and back.history() == state.history() and str(back) == str(state)
        if not back.is_chance_node():
            for p in range(game.num_players()):
                assert back.information_state_string(p) == state.information_state_string(p)
                assert back.information_state_tensor(p) == state.information_state_tensor(p)


@pytest.fixture(scope="module")
def tapp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_go(tmp_path_factory.mktemp("gobin"), "./cmd/tapp", "tapp")


@pytest.mark.timeout(TIMEOUT)
def test_games_played_through_pyspiel_verify_with_the_engine(tapp: Path, tmp_path: Path) -> None:
    out = tmp_path / "spiel.jsonl"
    rng = random.Random(9)
    count = 0
    with out.open("w") as f:
        for rules_text in RULE_SETS:
            game = load(rules_text)
            for _k in range(6):
                state = _random_game(game, rng)
                st = state.tapp
                assert st is not None and st.outcome is not None
                assert state.returns() == [float(x) for x in st.outcome.payoff]
                assert len(st.history) <= game.max_game_length()
                assert all(game.min_utility() <= r <= game.max_utility() for r in state.returns())
                bots = [f"p{s}" for s in range(game.num_players())]
                f.write(dumps(deal_record(st, match=f"spiel-{count}", deal=0, bots=bots)) + "\n")
                count += 1
    res = subprocess.run([str(tapp), "replay", "verify", str(out)], capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stdout[-3000:]
    assert f"{count} deal(s)" in res.stdout and "every action and settlement checks out" in res.stdout


def test_resampled_states_keep_the_information_state() -> None:
    for rules_text in ("modern players=3 frage=on", "modern players=4", "classic"):
        game = load(rules_text)
        rng = random.Random(6)
        for _ in range(8):
            state = game.new_initial_state()
            target = rng.randrange(5, 40)
            while not state.is_terminal() and state.move_number() < target + 36:
                acts = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
                state.apply_action(rng.choice(acts))
            if state.is_terminal() or state.is_chance_node():
                continue
            p = state.current_player()
            for _i in range(5):
                other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.information_state_tensor(p) == state.information_state_tensor(p)
                assert other.observation_tensor(p) == state.observation_tensor(p)
                assert other.legal_actions() == state.legal_actions()


def test_an_information_state_string_is_one_view_of_the_seat() -> None:
    game = load("modern players=3 frage=on")
    rng = random.Random(12)
    views: dict[str, bytes] = {}
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            for p in range(game.num_players()):
                wire = state.tapp.observe(p).to_proto().SerializeToString(deterministic=True)
                assert views.setdefault(state.information_state_string(p), wire) == wire
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.timeout(TIMEOUT)
def test_the_ismcts_bot_plays_in_the_arena(tapp: Path, tmp_path: Path) -> None:
    league = tmp_path / "ismcts.yaml"
    league.write_text(f"""name: ismcts-smoke
rules: modern players=3
format: round-robin
deals: 1
duplicate: true
seed: 5
time_control:
  per_decision: 5s
bots:
  - name: ismcts
    command: [{sys.executable}, {REPO / 'bots/python/examples/openspiel_ismcts_bot.py'}, --simulations, "10"]
  - {{name: heuristic, builtin: heuristic}}
  - {{name: random, builtin: random}}
""")
    cmd = [str(tapp), "league", "run", str(league), "--db", str(tmp_path / "l.db"), "--logs", str(tmp_path / "logs")]
    res = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, check=False)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    assert "6 deals played" in res.stdout, res.stdout
    log = (tmp_path / "logs" / "ismcts.stderr.log").read_text()
    assert "the bot raised" not in log and "fallback" not in res.stdout.lower(), log[-3000:] + res.stdout
