"""A bot that plays a uniformly random legal action: the baseline, and a load generator.

    tapp-python-random --arena localhost:7000 --token TOKEN --name py-random --capacity 4
    python -m tapp_bot.examples.random ...   (the same)
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import sys
from collections.abc import Sequence

from tapp_bot import AuthError, Bot, Client, ConnectionLost, Request


class RandomBot(Bot):
    """Chooses uniformly among the legal actions."""

    name = "python-random"
    inline = True  # decides in microseconds: called on the stream's thread (Bot.inline)

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def decide(self, request: Request) -> str:
        return self._rng.choice(request.legal)


def _env_seed() -> int | None:
    """The seed a league gives the bots it launches ($TAPP_SEED), or None."""
    text = os.environ.get("TAPP_SEED", "").strip()
    return int(text) if text.isdigit() else None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tapp-python-random", description=RandomBot.__doc__)
    parser.add_argument("--arena", default=os.environ.get("TAPP_ARENA", "localhost:7000"),
                        help="arena address host:port (default $TAPP_ARENA or localhost:7000)")
    parser.add_argument("--token", default=os.environ.get("TAPP_TOKEN"),
                        help="the bot's token (default $TAPP_TOKEN)")
    parser.add_argument("--name", default=None,
                        help=f"bot name sent in the hello (default $TAPP_BOT_NAME or {RandomBot.name})")
    parser.add_argument("--capacity", type=int, default=None,
                        help="games played at once (default $TAPP_CAPACITY or 1)")
    parser.add_argument("--seed", type=int, default=_env_seed(),
                        help="seed for reproducible choices (default $TAPP_SEED, else none)")
    parser.add_argument("--ca", default=None,
                        help="PEM file of the CA of a TLS arena's certificate (default $TAPP_CA)")
    parser.add_argument("--tls", action="store_true", default=None,
                        help="connect with TLS, checking the certificate against the system's roots (default $TAPP_TLS)")
    parser.add_argument("--log-level", default="INFO", help="DEBUG, INFO, WARNING, ...")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("no token: pass --token or set TAPP_TOKEN")
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    client = Client(RandomBot(args.seed), args.arena, args.token, name=args.name, capacity=args.capacity,
                    tls=args.tls, ca=args.ca)
    try:
        client.run()
    except KeyboardInterrupt:
        client.close()
        return 130
    except (AuthError, ConnectionLost) as err:
        print(f"tapp-python-random: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
