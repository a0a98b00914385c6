"""Tapp as a PettingZoo AEC environment (the ``pettingzoo`` extra: ``pip install 'tapp-bot[pettingzoo]'``).

    from tapp_bot.env import TappEnv
    env = TappEnv("modern players=4 pack=32 frage=on")
    env.reset(seed=7)                       # deal 0 of seed 7, the arena's deal (R-DEAL-2)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

* Agents ``seat_0`` … ``seat_{n-1}``: seat 0 is forehand (R-SEAT-1). Whose turn it is follows
  the rules (the trick's winner leads), as ``agent_selection`` says.
* Actions: ``Discrete(202)``, the codes of :mod:`tapp_bot.game.actions` (a card, ``discard:XX``,
  ``call:XX``, ``give:XX``, ``pass``, ``play``, ``tout``, ``notout``, ``trump:X``, a bid);
  ``obs["action_mask"]`` marks the legal ones. An illegal action raises
  :class:`tapp_bot.game.RuleError` naming the rule.
* Observations: ``{"observation": Box(0, 1), "action_mask": Box(0, 1, int8)}``, the seat's
  view encoded by :func:`tapp_bot.encoding.encode_observation` — never a card hidden from it.
  ``info["legal"]`` lists the legal actions in the engine's notation for the agent to move.
* Rewards: at the end of the deal each seat's payoff in the rule set's unit (cents in modern,
  game points in classic and wuerttemberg; :attr:`RuleSet.unit`), 0 before; ``info["outcome"]``
  is the settlement as the replay export writes it.
* Seeds: ``reset(seed=s)`` deals deal 0 of seed ``s`` exactly as the arena deals it
  (:func:`tapp_bot.game.deal_from_seed`); each later ``reset()`` without a seed deals the next
  deal of that seed; ``options={"deal": k}`` picks deal ``k``. ``options={"pot": 10,
  "forced_ramsch": True}`` sets the deal's options.
* ``render()``: ``"ansi"`` returns the table as text (every hand: it is the environment's view,
  not a seat's), ``"human"`` prints it.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..encoding import NUM_ACTIONS, encode_observation, observation_size
from ..game import RuleSet, State, deal_from_seed
from ..game.actions import ACTION_NAMES
from ..game.cards import names_of
from ..game.rules import CONTRACT_NAMES

__all__ = ["TappEnv", "env", "raw_env"]

_RENDER_MODES = ("human", "ansi")


class TappEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type hints
    """One deal of Tapp per episode, for every variant and table size (see the module doc)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(_RENDER_MODES), "name": "tapp_v0", "is_parallelizable": False}

    def __init__(self, rules: str | RuleSet = "modern players=3", render_mode: str | None = None) -> None:
        super().__init__()
        self.rules = rules if isinstance(rules, RuleSet) else RuleSet.parse(rules)
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r}: one of human, ansi")
        self.render_mode = render_mode
        n = self.rules.players
        self.possible_agents = [f"seat_{s}" for s in range(n)]
        self._size = observation_size(self.rules)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, (self._size,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._seed: int | None = None
        self._number = 0
        self.state_: State | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the episode -------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed, self._number = seed, 0
            for i, a in enumerate(self.possible_agents):
                self.action_spaces[a].seed(seed + i)
        elif self._seed is None:
            self._seed, self._number = random.SystemRandom().getrandbits(63), 0
        else:
            self._number += 1
        opts = options or {}
        if "deal" in opts:
            self._number = int(opts["deal"])
        assert self._seed is not None
        deal = deal_from_seed(self.rules, self._seed, self._number)
        self.state_ = State(self.rules, deal, int(opts.get("pot", 0)), bool(opts.get("forced_ramsch", False)))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    @property
    def deal_number(self) -> int:
        """Which deal of the seed this episode plays (0 after ``reset(seed=…)``)."""
        return self._number

    @property
    def seed_value(self) -> int | None:
        """The seed of the deals (set by ``reset(seed=…)``, else drawn once)."""
        return self._seed

    def _select(self) -> None:
        st = self.state_
        assert st is not None
        for a in self.agents:
            self.infos[a] = {}
        if st.terminal:
            assert st.outcome is not None
            for s, a in enumerate(self.agents):
                self.rewards[a] = st.outcome.payoff[s]
                self.terminations[a] = True
                self.infos[a] = {"outcome": st.outcome.to_json()}
            self.agent_selection = self.agents[0]
            return
        self.agent_selection = self.possible_agents[st.to_move]
        self.infos[self.agent_selection] = {"legal": st.legal_actions()}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        st = self.state_
        assert st is not None, "reset() first"
        seat = self.possible_agents.index(agent)
        vec = np.zeros(self._size, np.float32)
        encode_observation(st.observe(seat), vec)  # type: ignore[arg-type]
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if not st.terminal and seat == st.to_move:
            mask[st.legal_codes()] = 1
        return {"observation": vec, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.state_
        assert st is not None
        if action is None:
            raise ValueError(f"{agent} is to move: give an action (one of {st.legal_actions()})")
        self._cumulative_rewards[agent] = 0
        st.apply(int(action))  # RuleError (with the rule id) if illegal; the state is unchanged
        for a in self.agents:
            self.rewards[a] = 0
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # --- showing it --------------------------------------------------------------------

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _text(self) -> str:
        st = self.state_
        if st is None:
            return "(reset() first)"
        lines = [f"{st.rules} · seed {self._seed} deal {self._number}"]
        for s in range(st.n):
            mark = " <" if s == st.to_move else ""
            lines.append(f"  seat {s}: {' '.join(names_of(st.hands[s]))}{mark}")
        if st.contract:
            decl = f" by seat {st.declarer}" if st.declarer >= 0 else ""
            lines.append(f"  contract {CONTRACT_NAMES[st.contract]}{decl}")
        if st.trick:
            lines.append(f"  trick: {' '.join(ACTION_NAMES[c] for c in st.trick)} (led by seat {st.leader})")
        if st.terminal and st.outcome is not None:
            lines.append(f"  payoff {st.outcome.payoff} ({st.rules.unit})")
        else:
            lines.append(f"  {st.decision} for seat {st.to_move}: {' '.join(st.legal_actions())}")
        return "\n".join(lines)

    def close(self) -> None:
        pass


def raw_env(rules: str = "modern players=3", render_mode: str | None = None) -> TappEnv:
    """The environment without wrappers."""
    return TappEnv(rules, render_mode)


def env(rules: str = "modern players=3", render_mode: str | None = None) -> Any:
    """The environment with PettingZoo's order-enforcing wrapper (as PettingZoo's own envs)."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(raw_env(rules, render_mode))
