"""The wheel installs one top-level package, tapp_bot: nothing that could clash with a user's
own `tapp` or with the arena's names (its generated code lives under tapp_bot.proto)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

SDK = Path(__file__).resolve().parent.parent


def test_wheel_holds_only_tapp_bot(tmp_path: Path) -> None:
    # Built from a copy: a build in the checkout would leave build/ behind, and two test runs
    # at once would share it.
    src = tmp_path / "sdk"
    shutil.copytree(SDK, src, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", ".pytest_cache", "tests"))
    out = tmp_path / "wheel"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--disable-pip-version-check", "--wheel-dir", str(out), str(src)],
        check=True,
        capture_output=True,
        cwd=tmp_path,
    )
    wheels = list(out.glob("tapp_bot-*.whl"))
    assert len(wheels) == 1, wheels
    with zipfile.ZipFile(wheels[0]) as whl:
        names = whl.namelist()
    top = {name.split("/", 1)[0] for name in names}
    dist_info = {t for t in top if t.endswith(".dist-info")}
    assert top - dist_info == {"tapp_bot"}, sorted(top)
    assert "tapp_bot/proto/tapp/v1/bot_pb2.py" in names
    assert "tapp_bot/py.typed" in names
