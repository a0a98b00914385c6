"""The PettingZoo environment (tapp_bot.env) against PettingZoo's own tests and the engine it wraps.

* pettingzoo.test.api_test and seed_test, over every rule set of the matrix.
* Episodes are the engine's deals and rules: the deal of reset(seed=s) is the arena's deal 0 of
  seed s (and the next resets the next deals), and every episode, written as a replay export
  line, re-simulates with the Go engine (`tapp replay verify`), rewards included.
* Observations hold only what the seat may know: the vector is the one encoded from the
  observation as the arena sends it to that seat.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from gamedata import RULE_SETS, TIMEOUT, build_go
from pettingzoo.test import api_test, seed_test

from tapp_bot.encoding import encode_observation, observation_size
from tapp_bot.env import TappEnv, env
from tapp_bot.game import Observation, RuleError, RuleSet, State, deal_from_seed
from tapp_bot.game.export import deal_record, dumps


# A Dict space of observation and action mask is PettingZoo's own convention for masked
# actions (its classic games use it), though api_test warns about it.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("rules", RULE_SETS)
def test_pettingzoo_api_and_seed_tests(rules: str) -> None:
    for _ in range(3):
        api_test(TappEnv(rules), num_cycles=200)
    api_test(env(rules), num_cycles=200)
    for _ in range(3):
        seed_test(lambda: TappEnv(rules), num_cycles=200)


def _play(e: TappEnv, rng: random.Random) -> list[tuple[int, int]]:
    moves = []
    for agent in e.agent_iter():
        obs, _, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        st = e.state_
        assert st is not None and st.legal_codes() == list(legal) and info["legal"] == st.legal_actions()
        code = int(legal[rng.randrange(len(legal))])
        moves.append((e.possible_agents.index(agent), code))
        e.step(code)
    return moves


@pytest.fixture(scope="module")
def tapp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_go(tmp_path_factory.mktemp("gobin"), "./cmd/tapp", "tapp")


@pytest.mark.timeout(TIMEOUT)
@pytest.mark.parametrize("rules_text", RULE_SETS)
def test_episodes_are_the_engines_deals_and_verify(tapp: Path, tmp_path: Path, rules_text: str) -> None:
    rules = RuleSet.parse(rules_text)
    e = TappEnv(rules)
    rng = random.Random(3)
    out = tmp_path / "env.jsonl"
    with out.open("w") as f:
        for k in range(12):
            if k == 0:
                e.reset(seed=99)
            else:
                e.reset()
            assert e.deal_number == k
            st0 = e.state_
            assert st0 is not None and st0.deal == deal_from_seed(rules, 99, k)  # R-DEAL-2: the arena's deal
            final = _play(e, rng)
            st = State(rules, deal_from_seed(rules, 99, k))
            for _, code in final:
                st.apply(code)
            assert st.terminal and st.outcome is not None
            bots = [f"seat_{s}" for s in range(rules.players)]
            f.write(dumps(deal_record(st, match=f"env-{k}", deal=0, bots=bots)) + "\n")
    res = subprocess.run([str(tapp), "replay", "verify", str(out)], capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stdout[-3000:]
    assert "12 deal(s)" in res.stdout and "every action and settlement checks out" in res.stdout


def test_rewards_are_the_payoffs_in_the_rule_sets_unit() -> None:
    for rules_text in ("modern players=4", "classic tout=3 pot=on"):
        e = TappEnv(rules_text)
        e.reset(seed=5, options={"pot": 20} if "pot=on" in rules_text else None)
        rng = random.Random(1)
        totals = {a: 0.0 for a in e.possible_agents}
        for agent in e.agent_iter():
            obs, reward, terminated, _truncated, info = e.last()
            totals[agent] += 0 if terminated else reward
            if terminated:
                assert reward == info["outcome"]["payoff"][e.possible_agents.index(agent)]
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
        assert all(v == 0 for v in totals.values())  # nothing before the end


def test_observation_is_the_seats_view_as_the_arena_sends_it() -> None:
    rules = RuleSet.parse("modern players=3 frage=on")
    e = TappEnv(rules)
    e.reset(seed=8)
    rng = random.Random(2)
    size = observation_size(rules)
    for _agent in e.agent_iter():
        obs, _, terminated, _, _ = e.last()
        if terminated:
            e.step(None)
            continue
        st = e.state_
        assert st is not None
        for seat in range(rules.players):
            wire = st.observe(seat).to_proto()
            legal = st.legal_actions() if seat == st.to_move else []
            want = np.zeros(size, np.float32)
            encode_observation(Observation.from_proto(wire, legal), want)  # type: ignore[arg-type]
            assert np.array_equal(e.observe(f"seat_{seat}")["observation"], want)
        mask = np.flatnonzero(obs["action_mask"])
        e.step(int(mask[rng.randrange(len(mask))]))


def test_an_illegal_action_names_the_rule_and_changes_nothing() -> None:
    e = TappEnv("modern players=3")
    e.reset(seed=1)
    before = e.state_.copy() if e.state_ else None
    with pytest.raises(RuleError) as err:
        e.step(0)  # a card while bidding
    assert err.value.rule == "R-MOD-BID-1"
    assert e.state_ == before


def test_render() -> None:
    e = TappEnv("classic", render_mode="ansi")
    e.reset(seed=4)
    text = e.render()
    assert text is not None and "seed 4 deal 0" in text and "bid for seat 0" in text
    assert json.dumps(e.infos)  # infos are plain data


def test_the_example_evaluates_an_agent() -> None:
    example = Path(__file__).resolve().parents[1] / "examples" / "pettingzoo_eval.py"
    res = subprocess.run([sys.executable, str(example), "--rules", "modern players=4", "--deals", "10"],
                         capture_output=True, text=True, timeout=120, check=False)
    assert res.returncode == 0, res.stderr
    assert "simple agent vs random, 10 deals x 4 seats" in res.stdout and "cents per deal" in res.stdout
