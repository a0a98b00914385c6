"""Code generated from proto/tapp (make generate). This file is hand-written."""
