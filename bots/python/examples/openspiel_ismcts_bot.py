"""OpenSpiel's information-set MCTS bot playing in the arena as a Tapp bot (the Python SDK).

Every decision the arena asks is handed to ``open_spiel.python.algorithms.ismcts.ISMCTSBot``
on the ``python_tapp`` game (tapp_bot.openspiel): the request's observation is turned into a
state of that game (the hidden cards drawn by ``tapp_bot.game.Sampler``, consistent with what
the seat knows), the bot searches — each simulation draws another world with the game's
``resample_from_infostate`` and plays it out at random — and its action goes back to the arena.
OpenSpiel is not told anything the seat may not know: a determinization is built from the
observation alone.

    .venv/bin/python bots/python/examples/openspiel_ismcts_bot.py --arena localhost:7000 --token TOKEN
    # or launched by a league (bots/python/benchmarks/ismcts-vs-heuristic.yaml):
    tapp league run bots/python/benchmarks/ismcts-vs-heuristic.yaml --db /tmp/ismcts.db
"""

from __future__ import annotations

import argparse
import logging
import random
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import tapp_bot
import tapp_bot.openspiel
from tapp_bot.game import Observation, RuleSet, Sampler
from tapp_bot.game.actions import ACTION_NAMES
from tapp_bot.game.rules import MODERN, VARIANT_NAMES

log = logging.getLogger("ismcts_bot")


def game_params(rules: RuleSet, pot: int, forced_ramsch: bool) -> dict[str, Any]:
    """The python_tapp parameters of a rule set and a deal's options."""
    p: dict[str, Any] = {"variant": VARIANT_NAMES[rules.variant], "players": rules.players, "pack": rules.pack_size,
                         "pot_in": pot, "forced_ramsch": forced_ramsch}
    if rules.variant == MODERN:
        p["frage"] = rules.frage
        p["stakes"] = str(rules).split("stakes=", 1)[1].replace(",", "+")
    else:
        p["tout"], p["pot"] = rules.tout_factor, rules.pot
    return p


class ISMCTSTappBot(tapp_bot.Bot):
    """Answers every decision with OpenSpiel's ISMCTS (``simulations`` per decision)."""

    name = "ismcts"
    version = "openspiel-2"

    def __init__(self, simulations: int = 100, uct_c: float = 20.0, seed: int = 0) -> None:
        self.simulations = simulations
        self.uct_c = uct_c
        self.rng = random.Random(seed)
        self.np_rng = np.random.RandomState(seed)
        self._games: dict[tuple[str, int, bool], tuple[Any, ismcts.ISMCTSBot]] = {}

    def _searcher(self, obs: Observation) -> tuple[Any, ismcts.ISMCTSBot]:
        key = (str(obs.rules), obs.pot, obs.forced_ramsch)
        if key not in self._games:
            game = pyspiel.load_game(tapp_bot.openspiel.GAME_NAME, game_params(obs.rules, obs.pot, obs.forced_ramsch))
            evaluator = mcts.RandomRolloutEvaluator(1, self.np_rng)
            bot = ismcts.ISMCTSBot(game, evaluator, self.uct_c, self.simulations, random_state=self.np_rng)
            self._games[key] = (game, bot)
        return self._games[key]

    def decide(self, request: tapp_bot.Request) -> str:
        legal = request.legal
        if len(legal) == 1:
            return legal[0]
        obs = Observation.from_proto(request.observation, legal)
        game, bot = self._searcher(obs)
        state = game.state_from(Sampler(obs, random.Random(self.rng.getrandbits(63))).sample())
        action = ACTION_NAMES[int(bot.step(state))]
        return action if action in legal else legal[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arena", default=None, help="host:port (default $TAPP_ARENA or localhost:7000)")
    parser.add_argument("--token", default=None, help="the bot's token (default $TAPP_TOKEN)")
    parser.add_argument("--name", default="ismcts")
    parser.add_argument("--simulations", type=int, default=100, help="ISMCTS simulations per decision (default 100)")
    parser.add_argument("--uct-c", type=float, default=20.0, help="UCT exploration constant, in payoff units (default 20)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    tapp_bot.run(ISMCTSTappBot(args.simulations, args.uct_c, args.seed), arena=args.arena, token=args.token, name=args.name)


if __name__ == "__main__":
    main()
