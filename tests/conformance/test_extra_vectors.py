"""The project's own translations of upstream test cases that the shared vectors leave out
(`tests/conformance/vectors/*_extra.json`, each case's `origin` names the upstream test): every
case holds in the model and, for the suites the harness serves, in upstream's code of the
releases the differential tests run (JOBMODEL_KUBE_VERSIONS)."""

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
from jobmodel.conformance.suites import case_at_release
from tests.differential.conftest import differential_releases

VECTORS = sorted((Path(__file__).parent / "vectors").glob("*_extra.json"))
# A Job's life against an API server: the harness runs controllers' syncs, not a cluster.
NOT_SERVED_BY_THE_HARNESS = frozenset({"job-scenario"})


def test_every_extra_vector_holds_in_the_model() -> None:
    out = io.StringIO()
    passed, failed = run_files(VECTORS, out, ModelEngine())
    assert failed == 0, out.getvalue()
    assert passed >= 79


@pytest.mark.upstream
@pytest.mark.parametrize("release", differential_releases())
def test_extra_vectors_agree_with_upstream(release: str) -> None:
    """Upstream's own code passes each case: a translation error shows here, not as a model bug."""
    if shutil.which("go") is None and os.environ.get("CI") != "true":
        pytest.skip("Go is not installed: the upstream harness cannot be built")
    with UpstreamEngine(kube_version=release) as engine:
        for path in VECTORS:
            doc = json.loads(path.read_text())
            if doc["suite"] in NOT_SERVED_BY_THE_HARNESS:
                continue
            # A case pinned to a release (`kubeVersion`) holds there only.
            cases = [case_at_release(c, release) for c in doc["cases"] if c.get("kubeVersion", release) == release]
            for case, result in zip(cases, run_document(path, {**doc, "cases": cases}, engine), strict=True):
                assert not result.differences, (path.name, case["name"], result.differences)
