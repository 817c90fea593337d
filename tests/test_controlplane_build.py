"""harness/controlplane/build.py: its options (the builds themselves run in tests/adapters/test_live.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "harness" / "controlplane" / "build.py"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kube-version"], "argument --kube-version: expected one argument"),
        (["--kube-version", "1.35"], "argument --kube-version: invalid choice: '1.35' (choose from '1.32', '1.37')"),
        (["--fast"], "unrecognized arguments: --fast"),
    ],
)
def test_bad_options_are_one_line_before_any_build(args: list[str], message: str) -> None:
    proc = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[-1] == f"build.py: error: {message}"
    assert "Traceback" not in proc.stderr and proc.stdout == ""
