"""harness/upstream/build.py: one harness per supported release, with its module file and tags."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from jobmodel.features import RELEASE_PINS, SUPPORTED_MINORS

HARNESS = Path(__file__).resolve().parents[1] / "harness" / "upstream"


def load_build() -> ModuleType:
    spec = importlib.util.spec_from_file_location("upstream_build", HARNESS / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("upstream_build", module)
    spec.loader.exec_module(module)
    return module


build = load_build()


def test_the_harness_builds_every_release_the_model_follows() -> None:
    assert {f"1.{m}": RELEASE_PINS[m] for m in SUPPORTED_MINORS} == {k: v[0] for k, v in build.RELEASES.items()}
    assert f"1.{SUPPORTED_MINORS[-1]}" == build.NEWEST


def test_build_tags_name_every_release_reached() -> None:
    assert build.build_tags("1.32") == ""
    assert build.build_tags("1.35") == "jobmodel_k8s_1_33,jobmodel_k8s_1_34,jobmodel_k8s_1_35"


def test_each_module_file_pins_its_release_and_staging_modules() -> None:
    for release, (pin, go_line) in build.RELEASES.items():
        mod = build.modfile(release)
        text = (HARNESS / "go.mod" if mod is None else mod).read_text()
        staging = "v0." + pin.removeprefix("v1.")
        assert re.search(rf"^\s*k8s\.io/kubernetes {re.escape(pin)}$", text, re.M), release
        assert re.search(rf"^go {re.escape(go_line)}$", text, re.M), release
        replaced = re.findall(r"^\s*(k8s\.io/[\w-]+) => k8s\.io/[\w-]+ (v[\w.]+)$", text, re.M)
        assert len(replaced) > 25 and {v for _, v in replaced} == {staging}, release
        if mod is not None:
            assert mod.with_suffix(".sum").is_file(), release


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kube-version"], "argument --kube-version: expected one argument"),
        (["--kube-version", "1.99"], "argument --kube-version: invalid choice: '1.99'"),
        (["--all", "--kube-version", "1.33"], "argument --kube-version: not allowed with argument --all"),
        (["--fast"], "unrecognized arguments: --fast"),
    ],
)
def test_bad_options_are_one_line_before_any_build(args: list[str], message: str) -> None:
    proc = subprocess.run([sys.executable, str(HARNESS / "build.py"), *args], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[-1].startswith(f"build.py: error: {message}")
    assert "Traceback" not in proc.stderr and proc.stdout == ""
