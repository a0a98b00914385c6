"""Example bots that ship with the SDK (``python -m tapp_bot.examples.random``)."""
