"""Shared helpers of the game-model tests: the rule-set matrix, the Go binaries, deal counts."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]

#: Every variant, player count, pack and option of the engine (engine/rules.go).
RULE_SETS = [
    "modern players=3 pack=36 frage=off",
    "modern players=3 pack=36 frage=on",
    "modern players=3 pack=32 frage=off",
    "modern players=3 pack=32 frage=on",
    "modern players=4 pack=36 frage=off",
    "modern players=4 pack=36 frage=on",
    "modern players=4 pack=32 frage=off",
    "modern players=4 pack=32 frage=on",
    "modern players=3 stakes=solo:7,bettel:11,ramsch:3",
    "classic tout=2 pot=off",
    "classic tout=3 pot=on",
    "wuerttemberg tout=3 pot=off",
    "wuerttemberg tout=2 pot=on",
]

#: TAPP_GAME_DIFF=full runs the full differential test (100,000 deals each way); the default
#: quick mode keeps `make test` short.
FULL = os.environ.get("TAPP_GAME_DIFF", "quick") == "full"


#: Per-test timeout (s): building the Go binaries from a cold cache and the full run take long.
TIMEOUT = 7200 if FULL else 900


def deals(quick: int, full: int) -> int:
    return full if FULL else quick


def build_go(tmp: Path, package: str, name: str) -> Path:
    """Build a Go main package of the repository into tmp (the go build cache keeps it quick)."""
    go = shutil.which("go")
    if go is None:
        import pytest

        pytest.skip("the differential test needs the Go toolchain (go) to build the engine")
    out = tmp / name
    subprocess.run([go, "build", "-o", str(out), package], cwd=REPO, check=True)
    return out
