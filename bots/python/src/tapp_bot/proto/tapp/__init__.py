"""tapp_bot.proto.tapp: generated from proto/tapp by make generate (tools/protoc-gen-tapp-python.py)."""
