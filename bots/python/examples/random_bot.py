"""The smallest useful bot: a uniformly random legal action, written as plain functions.

Run it against an arena (the token comes from registering the bot):

    .venv/bin/python bots/python/examples/random_bot.py --arena localhost:7000 --token TOKEN

A class-based version with per-decision methods is the module tapp_bot.examples.random
(bots/python/src/tapp_bot/examples/random.py, the command `tapp-python-random`); see
docs/python-bot.md.
"""

import argparse
import logging
import os
import random

import tapp_bot
from tapp_bot.proto.tapp.v1 import game_pb2


def decide(request: tapp_bot.Request) -> str:
    # request.decision is "bid", "contract", "card", ...; request.legal lists the legal actions;
    # request.observation is everything this seat may know now.
    return random.choice(request.legal)


def game_ended(game: tapp_bot.Game, settlement: game_pb2.Settlement) -> None:
    if game.seat < len(settlement.payoff):
        print(f"game {game.game_id}: seat {game.seat} won {settlement.payoff[game.seat]}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arena", default=None, help="host:port (default $TAPP_ARENA or localhost:7000)")
    parser.add_argument("--token", default=None, help="the bot's token (default $TAPP_TOKEN)")
    parser.add_argument("--name", default=os.environ.get("TAPP_BOT_NAME", "random-example"),
                        help="bot name (default $TAPP_BOT_NAME or random-example)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    tapp_bot.run(decide, arena=args.arena, token=args.token, name=args.name, game_ended=game_ended)
