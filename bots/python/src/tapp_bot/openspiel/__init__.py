"""Tapp as an OpenSpiel game (the ``openspiel`` extra: ``pip install 'tapp-bot[openspiel]'``).

Importing this module registers ``python_tapp`` with ``pyspiel``; every OpenSpiel algorithm
that takes a game (CFR, information-set MCTS, policy gradients, …) can then load it:

    import pyspiel
    import tapp_bot.openspiel  # registers python_tapp
    game = pyspiel.load_game("python_tapp(variant=modern,players=4,pack=32,frage=True)")
    state = game.new_initial_state()         # chance nodes deal the cards one by one

Parameters (the rule set, docs/rules.md): ``variant`` (modern, classic, wuerttemberg),
``players`` (3, 4), ``pack`` (36, 32), ``frage`` (modern's option; the older variants always
play it), ``tout`` (the Tout factor, 0 = the variant's default), ``pot`` (classic and
wuerttemberg), ``stakes`` (modern's stake table, ``solo:10+bettel:20``: OpenSpiel's game strings
keep commas for themselves; "" = the default), and
the deal's options ``pot_in`` (the pot carried in) and ``forced_ramsch``.

* Chance: the deal, one card per chance node (each remaining card equally likely): seat 0's
  hand, then seat 1's, …, then the tapp.
* Actions: the codes of :mod:`tapp_bot.game.actions` (0..201); ``action_to_string`` gives the
  engine's notation (``HA``, ``solo:C``, ``discard:DT``, …).
* Returns: each seat's payoff in the rule set's unit (cents, or game points).
* Observations: the seat's view (:func:`tapp_bot.encoding.encode_observation`) and, with perfect
  recall, every move as the seat saw it (``encode_information_state``); the strings likewise.
  Nothing hidden from the seat is in either (R-INFO-1..5).
* ``resample_from_infostate``: a state drawn uniformly from the deals consistent with what the
  seat knows (:class:`tapp_bot.game.Sampler`) — what information-set MCTS needs.
* Serialization: OpenSpiel's own (``pyspiel.serialize_game_and_state``), by the history.

The state wraps :class:`tapp_bot.game.State` (``state.tapp``), the model checked against the
arena's engine; ``game.state_from(model_state)`` goes the other way.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from ..encoding import (
    NUM_ACTIONS,
    encode_information_state,
    encode_observation,
    information_state_size,
    max_moves,
    observation_size,
)
from ..game import Observation, RuleSet, Sampler, State
from ..game.actions import ACTION_NAMES
from ..game.cards import CARD_NAMES, cards_of, names_of
from ..game.deal import Deal
from ..game.rules import MODERN, OUVERT
from ..game.state import MAX_POT

__all__ = ["GAME_NAME", "TappGame", "TappState", "rules_of"]

GAME_NAME = "python_tapp"
_NUM_CARDS = 36

_DEFAULTS: dict[str, Any] = {
    "variant": "modern", "players": 3, "pack": 36, "frage": False, "tout": 0, "pot": False, "stakes": "",
    "pot_in": 0, "forced_ramsch": False,
}


def _game_type(utility: Any) -> Any:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Tapp (Württemberg Tarock)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=3,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULTS),
    )


def rules_of(params: dict[str, Any]) -> RuleSet:
    """The rule set the game parameters name (RuleSetError, a ValueError, if they name none)."""
    p = {**_DEFAULTS, **params}
    variant = str(p["variant"]).lower()
    text = [variant]
    if variant == "modern":
        text += [f"players={p['players']}", f"pack={p['pack']}", f"frage={'on' if p['frage'] else 'off'}"]
        if p["stakes"]:
            text.append("stakes=" + str(p["stakes"]).replace("+", ","))
    else:
        if int(p["players"]) != 3 or int(p["pack"]) != 36:
            text += [f"players={p['players']}", f"pack={p['pack']}"]  # refused by the rule set, with its reason
        if p["tout"]:
            text.append(f"tout={p['tout']}")
        text.append(f"pot={'on' if p['pot'] else 'off'}")
    return RuleSet.parse(" ".join(text))


def _utility_bound(rules: RuleSet) -> float:
    """The most a seat can win or lose in one deal (a loose bound, as GameInfo wants one)."""
    n = rules.players
    if rules.variant == MODERN:
        most = max(rules.stakes)
        return float((n - 1) * 2 * most)
    value = 120 * rules.tout_factor  # the largest base value (a wuerttemberg Solo: 2 × 60), times Tout
    return float((n - 1) * value + (MAX_POT + 2 if rules.pot else 0))


class TappGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type hints
    """Tapp under one rule set (see the module doc for the parameters)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.params = {**_DEFAULTS, **(params or {})}
        self.rules = rules_of(self.params)
        self.pot_in = int(self.params["pot_in"])
        self.forced_ramsch = bool(self.params["forced_ramsch"])
        zero_sum = not self.rules.pot
        bound = _utility_bound(self.rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=_NUM_CARDS,
            num_players=self.rules.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=max_moves(self.rules),
        )
        utility = pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        super().__init__(_game_type(utility), info, self.params)
        self._samplers: dict[tuple[int, str], Sampler] = {}

    def new_initial_state(self) -> TappState:
        return TappState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TappObserver:
        return TappObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)

    def state_from(self, st: State) -> TappState:
        """The OpenSpiel state of a model state (its deal dealt by chance, then its moves)."""
        if st.rules != self.rules or st.pot_in != self.pot_in or st.forced_ramsch != self.forced_ramsch:
            raise ValueError(f"state_from: a state of {st.rules} (pot {st.pot_in}) in a game of {self.rules} (pot {self.pot_in})")
        out = self.new_initial_state()
        for hand in st.deal_hands:
            for c in cards_of(hand):
                out.apply_action(c)
        for c in cards_of(st.deal_tapp):
            out.apply_action(c)
        for _, code in st.history:
            out.apply_action(code)
        return out

    def sampler(self, obs: Observation, key: str, rng: random.Random) -> Sampler:
        """A determinizer for one information state, kept while searches use it."""
        s = self._samplers.get((obs.seat, key))
        if s is None:
            if len(self._samplers) > 64:
                self._samplers.clear()
            s = Sampler(obs, rng)
            self._samplers[(obs.seat, key)] = s
        s.rng = rng
        return s


class TappState(pyspiel.State):  # type: ignore[misc]
    """A deal in progress: chance nodes while dealing, then the model's :class:`State`."""

    def __init__(self, game: TappGame) -> None:
        super().__init__(game)
        self._game = game
        self._rules = game.rules
        self._dealt: list[int] = []  # the cards dealt so far, in slot order
        self._dealt_mask = 0
        self.tapp: State | None = None  # the model's state once the cards are dealt

    # --- the state machine ----------------------------------------------------------------

    def current_player(self) -> int:
        if self.tapp is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.tapp.terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.tapp.to_move

    def _legal_actions(self, player: int) -> list[int]:
        assert self.tapp is not None and player == self.tapp.to_move
        return self.tapp.legal_codes()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = cards_of(self._rules.pack & ~self._dealt_mask)
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        if self.tapp is None:
            if not (self._rules.pack & ~self._dealt_mask) >> action & 1:
                raise pyspiel.SpielError(f"chance: card {action} is dealt already or not in the pack")
            self._dealt.append(action)
            self._dealt_mask |= 1 << action
            if len(self._dealt) == self._rules.players * self._rules.hand_size + self._rules.tapp_size:
                self._start()
            return
        self.tapp.apply(action)  # RuleError names the rule; legal actions never raise

    def _start(self) -> None:
        h = self._rules.hand_size
        hands = []
        for s in range(self._rules.players):
            m = 0
            for c in self._dealt[s * h:(s + 1) * h]:
                m |= 1 << c
            hands.append(m)
        tapp = 0
        for c in self._dealt[self._rules.players * h:]:
            tapp |= 1 << c
        self.tapp = State(self._rules, Deal(tuple(hands), tapp), self._game.pot_in, self._game.forced_ramsch)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal:{CARD_NAMES[action]}"
        return ACTION_NAMES[action]

    def is_terminal(self) -> bool:
        return self.tapp is not None and self.tapp.terminal

    def returns(self) -> list[float]:
        if self.tapp is None or self.tapp.outcome is None:
            return [0.0] * self._rules.players
        return [float(x) for x in self.tapp.outcome.payoff]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TappState:
        """A state the player cannot tell from this one, drawn uniformly over the consistent deals."""
        assert self.tapp is not None, "resample after the deal"
        obs = self.tapp.observe(player_id)
        seed = int(probability_sampler() * 2**53)
        key = self.information_state_string(player_id)
        sample = self._game.sampler(obs, key, random.Random(seed)).sample()
        return self._game.state_from(sample)

    def __str__(self) -> str:
        if self.tapp is None:
            return f"dealing: {' '.join(CARD_NAMES[c] for c in self._dealt)}"
        st = self.tapp
        hands = " | ".join(" ".join(names_of(h)) for h in st.hands)
        return f"{st.rules} · {st.decision} for seat {st.to_move} · hands {hands} · moves {' '.join(st.moves())}"


def _info_string(o: Observation) -> str:
    """Every fact of the seat's information state, in one line (equal strings: one information set)."""
    moves = " ".join(f"{s}:{ACTION_NAMES[a]}" for s, a in o.history)
    parts = [f"p{o.seat}", "dealt " + " ".join(names_of(o.dealt))]
    if o.tapp:
        parts.append("tapp " + " ".join(names_of(o.tapp)))
    if o.contract == OUVERT and o.declarer >= 0 and o.played[o.declarer]:  # laid open (R-MOD-OUVERT)
        parts.append("open " + " ".join(names_of(o.exposed | o.played[o.declarer])))
    if o.called >= 0:
        parts.append(f"held {o.called_holder}")
    parts.append("moves " + moves)
    return " | ".join(parts)


def _obs_string(o: Observation) -> str:
    trick = " ".join(CARD_NAMES[c] for c in o.current)
    return (f"p{o.seat} {o.decision} to {o.to_move} | hand {' '.join(names_of(o.hand))} | contract {o.contract} "
            f"declarer {o.declarer} trump {o.trump} | trick {trick} | taken {o.tricks_taken} | played "
            + ",".join(" ".join(names_of(m)) for m in o.played))


class TappObserver:
    """OpenSpiel's observer: the seat's view as a tensor and a string (perfect recall or not)."""

    def __init__(self, game: TappGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; got {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError("python_tapp observes one player's view (public and private information)")
        size = information_state_size(game.rules) if self.perfect_recall else observation_size(game.rules)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TappState, player: int) -> None:
        self.tensor.fill(0)
        if state.tapp is None:
            return
        o = state.tapp.observe(player)
        if self.perfect_recall:
            encode_information_state(o, self.tensor)  # type: ignore[arg-type]
        else:
            encode_observation(o, self.tensor)  # type: ignore[arg-type]

    def string_from(self, state: TappState, player: int) -> str:
        if state.tapp is None:
            mine = state._dealt[player * state._rules.hand_size:(player + 1) * state._rules.hand_size]
            return f"p{player} dealing {' '.join(CARD_NAMES[c] for c in mine)}"
        o = state.tapp.observe(player)
        return _info_string(o) if self.perfect_recall else _obs_string(o)


pyspiel.register_game(_game_type(pyspiel.GameType.Utility.GENERAL_SUM), TappGame)
