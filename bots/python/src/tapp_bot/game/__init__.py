"""A Python model of Tapp: simulate and search with the rules the arena enforces.

``tapp_bot.game`` is a pure-Python re-implementation of the Go engine (engine/), checked against
it by a differential test: the same rule sets in the same canonical text, the same legal
actions in the same order and notation, the same rule ids in errors, the same settlement.

* :class:`RuleSet` — ``RuleSet.parse("modern players=4 pack=32 frage=on")``.
* :class:`Deal`, :func:`deal_from_seed` (the engine's seeded deals), :func:`random_deal`.
* :class:`State` — one deal: ``decision``, ``to_move``, ``legal_actions()``, ``apply(text)``
  (raises :class:`RuleError` with ``.rule``), ``copy()``, ``trick_winner()``, ``outcome``.
* :class:`Observation` — one seat's view: ``state.observe(seat)`` or
  ``Observation.from_proto(request.observation)``.
* :class:`Sampler` — determinization: full states consistent with an observation, uniformly
  over the consistent deals, seeded.
* ``python -m tapp_bot.game selfplay --rules R --deals N --seed S --out F.jsonl`` — random
  self-play in the format of ``tapp replay export`` (``tapp replay verify F.jsonl`` checks it).

Cards are ints 0..35 (``suit * 9 + rank``), card sets int bitmasks, actions int codes
(:mod:`tapp_bot.game.actions`); strings only at the notation boundary.
"""

from .actions import ActionSyntaxError, action_name, parse_action
from .cards import CARD_NAMES, card_name, cards_of, names_of, parse_card, set_points
from .deal import PCG, Deal, DealError, deal_from_seed, random_deal
from .observation import Observation
from .rules import CONTRACT_NAMES, RuleSet, RuleSetError
from .sample import SampleError, Sampler
from .state import MAX_POT, Outcome, RuleError, State, Trick, trick_winner

__all__ = [
    "CARD_NAMES", "CONTRACT_NAMES", "MAX_POT", "PCG", "ActionSyntaxError", "Deal", "DealError", "Observation", "Outcome",
    "RuleError", "RuleSet", "RuleSetError", "SampleError", "Sampler", "State", "Trick", "action_name", "card_name",
    "cards_of", "deal_from_seed", "names_of", "parse_action", "parse_card", "random_deal", "set_points", "trick_winner",
]
