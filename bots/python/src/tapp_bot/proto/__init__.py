"""tapp_bot.proto: generated from proto/ by make generate (tools/protoc-gen-tapp-python.py)."""
