"""harness/controlplane/build.py: its options (the builds themselves run in tests/adapters/test_live.py)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from jobmodel.adapters.controlplane import CONTROL_PLANE_RELEASES
from jobmodel.features import SUPPORTED_MINORS

SCRIPT = Path(__file__).resolve().parents[1] / "harness" / "controlplane" / "build.py"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kube-version"], "argument --kube-version: expected one argument"),
        (["--kube-version", "1.31"], "argument --kube-version: invalid choice: '1.31' (choose from '1.32', '1.33', '1.34', '1.35', '1.36', '1.37')"),
        (["--fast"], "unrecognized arguments: --fast"),
    ],
)
def test_bad_options_are_one_line_before_any_build(args: list[str], message: str) -> None:
    proc = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[-1] == f"build.py: error: {message}"
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_a_control_plane_is_built_for_every_supported_release() -> None:
    """build.py's releases (go.mod and one releases/<pin>.mod each) are those the model supports,
    each pinned to the k8s.io/kubernetes the upstream harness pins for it."""
    spec = importlib.util.spec_from_file_location("controlplane_build", SCRIPT)
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    assert tuple(build.RELEASES) == CONTROL_PLANE_RELEASES == tuple(f"1.{m}" for m in SUPPORTED_MINORS)
    harness_pins = {build.release_of(p): p.stem for p in (SCRIPT.parents[1] / "upstream" / "releases").glob("v*.mod")}
    for release, modfile in build.RELEASES.items():
        if modfile is not None:
            assert modfile.stem == harness_pins[release]
            assert f"\tk8s.io/kubernetes {modfile.stem}\n" in modfile.read_text()
