"""A Python SDK bot for the tests of package botcheck whose card() always raises: the SDK
answers for it, and the check must say so."""

import logging

import tapp_bot


class Broken(tapp_bot.Bot):
    name = "broken"

    def card(self, request):
        raise ValueError("no idea which card")


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    tapp_bot.run(Broken())
