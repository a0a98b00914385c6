"""A search bot built on tapp_bot.game: determinized samples, rollouts, and an exact endgame.

Card play (the part that searches): for every decision it draws full deals consistent with
what its seat knows (tapp_bot.game.Sampler: its hand, the cards seen, the voids shown, what
Frage and Rufer told it), and on each sample tries every legal card: it plays the card on a
copy of the state, then finishes the deal — by uniformly random legal play while more than
``--exact`` tricks remain, else by an exhaustive search of the last tricks in which every
seat maximises its own payoff (max^n: the defenders, who share a payoff, play as a team).
The card with the best average payoff over the samples is played. It works to a time budget
per decision (``--budget``, and never more than half of what the arena's clock leaves).

Bidding and the declaration use a small hand evaluation (the card-point model of the built-in
heuristic bot, bots/heuristic/eval.go): it declares only point contracts (Frage, Solo, Heart
Solo) when they look worth it and never announces Tout.

    .venv/bin/python bots/python/examples/search_bot.py --arena localhost:7000 --token TOKEN
    # or launched by a league: command: [.venv/bin/python, bots/python/examples/search_bot.py]
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import random
import time

import tapp_bot
from tapp_bot.game import (
    Observation,
    RuleSet,
    SampleError,
    Sampler,
    State,
    parse_action,
)
from tapp_bot.game.cards import (
    ACE,
    HEARTS,
    SUIT_OF,
    SUIT_SETS,
    TEN,
    cards_of,
    set_points,
)
from tapp_bot.game.rules import CLASSIC, FRAGE, HEARTSOLO, MODERN, SOLO, parse_contract
from tapp_bot.game.state import PH_PLAY

log = logging.getLogger("search_bot")

# --- bidding: the heuristic bot's point model (bots/heuristic/eval.go) -------------------

# Weights: 1, trumps, top trumps, trump points, side aces, guarded tens, bare tens, side
# points, voids, singletons; then the logistic centre and scale of P(61 points).
_MODELS = {
    (3, False): ((12.57, 3.42, 0.93, 0.98, 13.60, 6.00, 5.50, -0.20, 10.54, 1.04), 60.5, 7.0),
    (3, True): ((21.65, 3.66, 0.67, 0.93, 6.09, 1.39, 2.04, 0.27, 6.25, 3.80), 62.0, 7.7),
    (4, False): ((16.29, 3.46, 1.56, 1.06, 12.43, 2.34, 2.38, -0.25, 11.29, -0.82), 61.0, 8.5),
    (4, True): ((29.90, 3.61, 1.07, 1.03, 4.22, 1.25, 1.63, 0.30, 6.84, 3.33), 62.0, 8.8),
}


def _top_tricks(pack: int, hand: int, trump: int) -> int:
    count = held = missing = 0
    for c in reversed(cards_of(pack & SUIT_SETS[trump])):
        if hand >> c & 1:
            held += 1
            if missing <= held - 1:
                count += 1
        else:
            missing += 1
    return count


def expected_points(rules: RuleSet, hand: int, trump: int, frage: bool) -> float:
    """The card points a declarer with this hand and trump can expect (the heuristic's model)."""
    f = [1.0] + [0.0] * 9
    trumps = hand & SUIT_SETS[trump]
    t = trumps.bit_count()
    f[1], f[2], f[3] = t, _top_tricks(rules.pack, hand, trump), set_points(trumps)
    for s in range(4):
        if s == trump:
            continue
        cs = hand & SUIT_SETS[s]
        n = cs.bit_count()
        has_a, has_t = cs >> (9 * s + ACE) & 1, cs >> (9 * s + TEN) & 1
        f[4] += has_a
        if has_t:
            if has_a or n >= 3:
                f[5] += 1
            else:
                f[6] += 1
        f[7] += set_points(cs)
        if n == 0 or (n == 1 and not has_a):
            f[8 if n == 0 else 9] += min(t, 3) / 3
    w, _, _ = _MODELS[(4 if rules.players == 4 else 3, frage)]
    return max(0.0, min(120.0, sum(a * b for a, b in zip(w, f, strict=True))))


def contract_value(rules: RuleSet, hand: int, contract: int, suit: int) -> float:
    """What declaring a point contract is worth per deal; -inf for the contracts it never plays."""
    n_def = rules.players - 1
    if contract == FRAGE:
        trump, frage = HEARTS, True
    elif contract == HEARTSOLO:
        trump, frage = HEARTS, False
    elif contract == SOLO:
        if rules.variant == MODERN:
            trump = suit
        elif rules.variant == CLASSIC:
            trump = max((0, 1, 3), key=lambda s: expected_points(rules, hand, s, False))
        else:
            trump = HEARTS  # R-WT-1
        frage = False
    else:
        return -math.inf
    est = expected_points(rules, hand, trump, frage)
    if rules.variant != MODERN:
        factor = {(CLASSIC, FRAGE): 0.25, (CLASSIC, SOLO): 0.5, (CLASSIC, HEARTSOLO): 1.0}.get(
            (rules.variant, contract), 2.0 if contract == SOLO else 1.0)
        return factor * (est - 60) * n_def
    _, centre, scale = _MODELS[(4 if rules.players == 4 else 3, frage)]
    p = 1 / (1 + math.exp(-(est - centre) / scale))
    return rules.stakes[contract] * (2 * p - 1) * n_def


def choose_bid(obs: Observation, legal: list[str]) -> str:
    rules, hand = obs.rules, obs.hand
    best, best_v = None, 1.0  # a contract must be worth at least a cent (a game point) a deal
    candidates = legal
    if "play" in legal:  # modern round one: would any point contract be worth it?
        candidates = [f"{c}:{s}" if c == "solo" else c for c in ("frage", "solo", "heartsolo") for s in "CSD"]
    for a in candidates:
        name, _, s = a.partition(":")
        try:
            c = parse_contract(name)
        except ValueError:
            continue
        if not rules.biddable(c):
            continue
        v = contract_value(rules, hand, c, "CSHD".index(s) if s else -1)
        if v > best_v:
            best, best_v = a, v
    if "play" in legal:
        return "play" if best is not None else "pass"
    if best is not None and best in legal:
        return best
    if "pass" in legal:
        return "pass"
    # Modern round two after "play": name the best contract we can.
    return max(legal, key=lambda a: contract_value(rules, hand, parse_contract(a.partition(":")[0]),
                                                   "CSHD".index(a[-1]) if ":" in a else -1))


def choose_discard(obs: Observation, legal: list[str]) -> str:
    """Lay away points from short side suits, never a trump (the heuristic's rule, simplified)."""
    hand = obs.hand
    trump = obs.trump if obs.trump >= 0 else HEARTS

    def score(a: str) -> float:
        c = parse_action(a) - 36
        s = SUIT_OF[c]
        if s == trump:
            return -1000 - c
        n = (hand & SUIT_SETS[s]).bit_count()
        return 2 * set_points(1 << c) - n + (16 - 4 * n if n <= 2 else 0)

    return max(legal, key=score)


# --- card play: determinized search ------------------------------------------------------


def _random_finish(st: State, rng: random.Random) -> None:
    choice = rng.choice
    while st.phase:
        st.play_code(choice(st.legal_codes()))


def _exact(st: State) -> list[int]:
    """The payoffs at the end under max^n play of the remaining tricks."""
    if not st.phase:
        assert st.outcome is not None
        return st.outcome.payoff
    mover = st.to_move
    best: list[int] | None = None
    for code in st.legal_codes():
        child = st.copy()
        child.play_code(code)
        v = _exact(child)
        if best is None or v[mover] > best[mover]:
            best = v
    assert best is not None
    return best


class SearchBot(tapp_bot.Bot):
    name = "py-search"
    version = "1"

    def __init__(self, budget: float = 0.08, exact_tricks: int = 2, seed: int = 0) -> None:
        self.budget = budget
        self.exact_tricks = exact_tricks
        self.rng = random.Random(seed)

    def bid(self, request: tapp_bot.Request) -> str:
        return choose_bid(Observation.from_proto(request.observation), request.legal)

    contract = bid

    def discard(self, request: tapp_bot.Request) -> str:
        return choose_discard(Observation.from_proto(request.observation), request.legal)

    def trump(self, request: tapp_bot.Request) -> str:
        obs = Observation.from_proto(request.observation)
        return max(request.legal, key=lambda a: expected_points(obs.rules, obs.hand, "CSHD".index(a[-1]), False))

    def tout(self, request: tapp_bot.Request) -> str:
        return "notout" if "notout" in request.legal else request.legal[0]

    def card(self, request: tapp_bot.Request) -> str:
        legal = request.legal
        if len(legal) == 1:
            return legal[0]
        budget = min(self.budget, request.time_left() / 2)
        return self.search(Observation.from_proto(request.observation, legal), legal, budget)

    def search(self, obs: Observation, legal: list[str], budget: float, max_samples: int | None = None) -> str:
        """The legal card with the best mean payoff over determinized samples within the budget
        (or over exactly ``max_samples`` samples when given, for reproducible tests)."""
        deadline = time.monotonic() + budget
        try:
            sampler = Sampler(obs, self.rng)
        except SampleError as err:
            log.warning("no sample: %s", err)
            return legal[0]
        codes = [parse_action(a) for a in legal]
        totals = [0.0] * len(codes)
        me = obs.seat
        samples = 0
        rng = self.rng
        while True:
            st = sampler.sample()
            left = st.hand_size - st.n_tricks
            exact = st.phase == PH_PLAY and left <= self.exact_tricks
            for i, code in enumerate(codes):
                child = st.copy()
                child.play_code(code)
                if exact:
                    totals[i] += _exact(child)[me]
                else:
                    _random_finish(child, rng)
                    assert child.outcome is not None
                    totals[i] += child.outcome.payoff[me]
            samples += 1
            if max_samples is not None:
                if samples >= max_samples:
                    break
            elif time.monotonic() >= deadline or (exact and samples >= 24):
                break
        best = max(range(len(codes)), key=lambda i: totals[i])
        log.debug("%d samples: %s -> %s", samples, dict(zip(legal, totals, strict=True)), legal[best])
        return legal[best]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arena", default=None, help="host:port (default $TAPP_ARENA or localhost:7000)")
    parser.add_argument("--token", default=None, help="the bot's token (default $TAPP_TOKEN)")
    parser.add_argument("--name", default=os.environ.get("TAPP_BOT_NAME", "py-search"))
    parser.add_argument("--budget", type=float, default=0.08, help="seconds of search per card decision (default 0.08)")
    parser.add_argument("--exact", type=int, default=2, help="search the last N tricks exhaustively (default 2)")
    parser.add_argument("--seed", type=int, default=int(os.environ.get("TAPP_SEED", "0")), help="seed of the samples")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    tapp_bot.run(SearchBot(args.budget, args.exact, args.seed), arena=args.arena, token=args.token, name=args.name)


if __name__ == "__main__":
    main()
