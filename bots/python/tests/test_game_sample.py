"""Determinization (tapp_bot.game.Sampler): consistent with the observation, uniform, seeded."""

from __future__ import annotations

import json
import math
import random
import subprocess
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from gamedata import RULE_SETS, TIMEOUT, build_go, deals
from google.protobuf import json_format

from tapp_bot.game import (
    Observation,
    RuleSet,
    SampleError,
    Sampler,
    State,
    random_deal,
)
from tapp_bot.game.cards import SUIT_OF
from tapp_bot.proto.tapp.v1 import game_pb2


def _engine_observations(tmp: Path, n: int) -> list[dict[str, Any]]:
    gen = build_go(tmp, "./arena/internal/enginegames", "enginegames")
    out = subprocess.run([str(gen), "-rules", ";".join(RULE_SETS), "-deals", str(n), "-seed", "7"],
                         capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.timeout(TIMEOUT)
def test_every_sample_is_consistent_with_the_engine_observation(tmp_path: Path) -> None:
    checked = 0
    for rec in _engine_observations(tmp_path, deals(260, 2600)):
        po = json_format.Parse(json.dumps(rec["observation"]), game_pb2.Observation())
        obs = Observation.from_proto(po)
        assert obs.to_proto() == po
        sampler = Sampler(obs, random.Random(checked))
        for k in range(4):
            st = sampler.sample()
            # What the seat sees of the sample is exactly what it was shown.
            assert st.observe(obs.seat).to_proto() == po, f"deal {rec['deal_number']}, sample {k}"
            # A cheap (patched) sample is the same state as replaying the history on its deal.
            aside = st.discards if obs.contract == 1 else st.deal_tapp
            full = sampler._replay(st.deal, aside, st.given)
            assert st == full, f"deal {rec['deal_number']}, sample {k}: patched state differs from the replay"
            checked += 1
    assert checked > 0


def test_samples_are_seeded() -> None:
    rules = RuleSet.parse("modern players=3")
    st = State(rules, random_deal(rules, random.Random(3)))
    for a in ("pass", "pass", "pass"):
        st.apply(a)
    obs = st.observe(0)
    first = [Sampler(obs, random.Random(5)).sample().deal for _ in range(3)]
    again = [Sampler(obs, random.Random(5)).sample().deal for _ in range(3)]
    assert first == again


def _chi2_pvalue(stat: float, df: int) -> float:
    """P(chi2_df >= stat), the regularized upper incomplete gamma Q(df/2, stat/2)."""
    a, x = df / 2.0, stat / 2.0
    if x < a + 1:  # series for P, then Q = 1 - P
        term = total = 1.0 / a
        k = a
        while abs(term) > 1e-15 * abs(total):
            k += 1
            term *= x / k
            total += term
        return 1.0 - total * math.exp(-x + a * math.log(x) - math.lgamma(a))
    b, c, d = x + 1 - a, 1e300, 1 / (x + 1 - a)
    h = d
    for i in range(1, 1000):  # continued fraction for Q
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return h * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _consistent_splits(sampler: Sampler) -> list[tuple[int, ...]]:
    """Brute force: every way the hidden cards can lie among the places, voids respected."""
    caps, allow, cards = sampler._caps, sampler._allow, sampler._ucards
    out = []

    def rec(j: int, left: list[int], acc: list[int]) -> None:
        if j == len(caps) - 1:
            m = sum(1 << c for c in left)
            if all(allow[j] >> SUIT_OF[c] & 1 for c in left):
                out.append(tuple([*acc, m]))
            return
        for pick in combinations(left, caps[j]):
            if all(allow[j] >> SUIT_OF[c] & 1 for c in pick):
                rest = [c for c in left if c not in pick]
                rec(j + 1, rest, [*acc, sum(1 << c for c in pick)])

    rec(0, cards, [])
    return out


def _endgame_with_voids() -> Observation:
    """A late modern Ramsch position where the seat to move has seen voids (found by seeded play)."""
    rules = RuleSet.parse("modern players=3")
    for seed in range(1000):
        rng = random.Random(seed)
        st = State(rules, random_deal(rules, rng))
        for _ in range(3):
            st.apply("pass")
        while not st.terminal and st.n_tricks < 8:
            st.play_code(rng.choice(st.legal_codes()))
        if st.terminal or st.trick:
            continue
        obs = st.observe(st.to_move)
        s = Sampler(obs)
        if not s._free and len(set(map(tuple, s._table[(0, tuple(s._caps))][1]))) > 1 and 20 <= s.count() <= 200:
            return obs
    raise AssertionError("no endgame with voids found")


class _ForgetsWeights(Sampler):
    """A deliberately biased sampler: picks a per-suit split uniformly, ignoring how many deals it allows."""

    def _assign(self) -> list[int]:
        rng = self.rng
        out = [0] * len(self._caps)
        rem = tuple(self._caps)
        for i, (_, cards) in enumerate(self._by_suit):
            _, ys = self._table[(i, rem)]
            y = rng.choice(ys)
            cards = cards[:]
            rng.shuffle(cards)
            pos = 0
            for j, take in enumerate(y):
                for card in cards[pos:pos + take]:
                    out[j] |= 1 << card
                pos += take
            rem = tuple(a - b for a, b in zip(rem, y, strict=True))
        return out


def _chi2_of(sampler: Sampler, support: list[tuple[int, ...]], draws: int) -> float:
    index = {s: i for i, s in enumerate(support)}
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(draws):
        key = tuple(sampler._assign())
        assert key in index, "a sample outside the consistent deals"
        counts[key] += 1
    expected = draws / len(support)
    return _chi2_pvalue(sum((counts[s] - expected) ** 2 / expected for s in support), len(support) - 1)


def test_small_endgame_samples_are_uniform_and_a_biased_sampler_is_caught() -> None:
    obs = _endgame_with_voids()
    support = _consistent_splits(Sampler(obs))
    assert len(support) == Sampler(obs).count()
    draws = 200 * len(support)
    p_good = _chi2_of(Sampler(obs, random.Random(1)), support, draws)
    p_bad = _chi2_of(_ForgetsWeights(obs, random.Random(1)), support, draws)
    assert p_good > 1e-4, f"uniform sampler rejected: p = {p_good}"
    assert p_bad < 1e-4, f"the biased sampler was not caught: p = {p_bad}"


def test_an_impossible_observation_is_refused() -> None:
    rules = RuleSet.parse("modern players=3")
    st = State(rules, random_deal(rules, random.Random(1)))
    for a in ("pass", "pass", "pass"):
        st.apply(a)
    obs = st.observe(0)
    obs.voids = [0, 0xF, 0xF]  # both others void in every suit: nowhere to put their cards
    with pytest.raises(SampleError, match="no deal fits"):
        Sampler(obs)


def test_a_finished_deal_samples_to_the_revealed_deal() -> None:
    rules = RuleSet.parse("modern frage=on")
    for seed in range(40):
        rng = random.Random(seed)
        st = State(rules, random_deal(rules, rng))
        st.playout(rng)
        for seat in range(3):
            s = Sampler(st.observe(seat)).sample()
            assert s.deal == st.deal and s.outcome is not None and st.outcome is not None
            assert s.outcome.to_json() == st.outcome.to_json()
