"""tapp_bot.proto.tapp.v1: generated from proto/tapp/v1 by make generate (tools/protoc-gen-tapp-python.py)."""
