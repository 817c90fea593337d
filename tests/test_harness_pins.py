"""The local control plane (harness/controlplane) is the release the upstream harness runs as a library."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT


def resolved_versions(module_dir: Path) -> dict[str, str]:
    """Each required module's version after go.mod's replace directives (a local path keeps the required one)."""
    mod = json.loads(subprocess.run(["go", "mod", "edit", "-json"], cwd=module_dir, capture_output=True, text=True, check=True).stdout)
    versions = {req["Path"]: req["Version"] for req in mod.get("Require") or []}
    for rep in mod.get("Replace") or []:
        if rep["New"].get("Version") and rep["Old"]["Path"] in versions:
            versions[rep["Old"]["Path"]] = rep["New"]["Version"]
    return versions


def test_the_control_plane_pins_the_upstream_harnesss_modules() -> None:
    if shutil.which("go") is None:
        pytest.skip("Go is not installed")
    upstream = resolved_versions(REPO_ROOT / "harness" / "upstream")
    controlplane = resolved_versions(REPO_ROOT / "harness" / "controlplane")
    assert controlplane["k8s.io/kubernetes"] == upstream["k8s.io/kubernetes"]
    shared = upstream.keys() & controlplane.keys()
    assert {m for m in shared if m.startswith("k8s.io/")} >= {"k8s.io/api", "k8s.io/apimachinery", "k8s.io/client-go"}
    assert {m: (upstream[m], controlplane[m]) for m in shared if upstream[m] != controlplane[m]} == {}
