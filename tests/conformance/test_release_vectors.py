"""The project's own vectors of what changed between releases (docs/versions.md): each case names
its release (`kubeVersion`) and holds in that release's model and, for the releases the
differential tests run (every release by default;
JOBMODEL_KUBE_VERSIONS), in that
release's upstream code."""

from __future__ import annotations

import io
import json
import os
import shutil
from pathlib import Path

import pytest

from jobmodel.adapters.upstream import UpstreamEngine
from jobmodel.conformance.engines import ModelEngine
from jobmodel.conformance.runner import run_document, run_files
from tests.differential.conftest import differential_releases

VECTORS = sorted((Path(__file__).parent / "vectors").glob("*_releases.json"))


def test_every_release_vector_holds_in_its_release_of_the_model() -> None:
    out = io.StringIO()
    passed, failed = run_files(VECTORS, out, ModelEngine())
    assert failed == 0, out.getvalue()
    assert passed >= 9


def test_a_release_vector_fails_at_the_release_before_its_change() -> None:
    """The cases come in pairs (one upstream change, its last release without and its first
    with): run at the other release of its pair, each case's expectation fails."""
    doc = json.loads(VECTORS[0].read_text())
    releases: dict[str, set[str]] = {}
    for case in doc["cases"]:
        releases.setdefault(case["origin"], set()).add(case["kubeVersion"])
    for case in doc["cases"]:
        (other_release,) = releases[case["origin"]] - {case["kubeVersion"]}
        other = {**case, "kubeVersion": other_release}
        (result,) = run_document(VECTORS[0], {**doc, "cases": [other]}, ModelEngine())
        assert result.differences, case["name"]


@pytest.mark.parametrize("release", differential_releases())
def test_release_vectors_agree_with_upstream(release: str) -> None:
    if shutil.which("go") is None and os.environ.get("CI") != "true":
        pytest.skip("Go is not installed: the upstream harness cannot be built")
    with UpstreamEngine(kube_version=release) as engine:
        for path in VECTORS:
            doc = json.loads(path.read_text())
            cases = [c for c in doc["cases"] if c["kubeVersion"] == release]
            stripped = [{k: v for k, v in c.items() if k != "kubeVersion"} for c in cases]
            for case, result in zip(cases, run_document(path, {**doc, "cases": stripped}, engine), strict=True):
                assert not result.differences, (case["name"], result.differences)
