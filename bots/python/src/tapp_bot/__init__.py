"""Tapp Arena bot SDK: write a bot as one class (or two functions) and let the SDK play it.

    import tapp_bot

    class MyBot(tapp_bot.Bot):
        name = "my-bot"

        def card(self, request):
            return request.legal[-1]

    tapp_bot.run(MyBot(), arena="localhost:7000", token="...")  # or set TAPP_TOKEN / TAPP_ARENA
"""

from . import cards
from .bot import DECISION_NAMES, Bot, DecisionClock, FunctionBot, Game, Request
from .cards import Card, parse_card, points, trick_winner
from .client import AuthError, Client, ConnectError, ConnectionLost, run

__version__ = "0.1.0"

__all__ = [
    "DECISION_NAMES",
    "AuthError",
    "Bot",
    "Card",
    "Client",
    "ConnectError",
    "ConnectionLost",
    "DecisionClock",
    "FunctionBot",
    "Game",
    "Request",
    "cards",
    "parse_card",
    "points",
    "run",
    "trick_winner",
]
