"""Generated messages and gRPC stubs for tapp.v1 (make generate). This file is hand-written."""
