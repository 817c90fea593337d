"""The project's own translations of upstream test cases that the shared vectors leave out
(`tests/conformance/vectors/*_extra.json`, each case's `origin` names the upstream test): every
case holds in the model and, for the suites the harness serves, in upstream's own code of its
release (`kubeVersion`, else the vectors' line, 1.32) when the differential tests run that release
(JOBMODEL_KUBE_VERSIONS); for the controllers' suites the model also agrees with upstream on the
whole outcome, not only on what the test asserts."""

from __future__ import annotations

import functools
import io
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from jobmodel.adapters.upstream import UpstreamEngine
from jobmodel.conformance.agreement import judge
from jobmodel.conformance.engines import ModelEngine
from jobmodel.conformance.runner import run_case, run_files, with_release
from jobmodel.conformance.suites import suite_module
from tests.differential.conftest import differential_releases

VECTORS = sorted((Path(__file__).parent / "vectors").glob("*_extra.json"))
# A Job's life against an API server: the harness runs controllers' syncs, not a cluster.
NOT_SERVED_BY_THE_HARNESS = frozenset({"job-scenario"})
WHOLE_OUTCOME_JUDGED = frozenset({"job-sync", "cronjob-sync"})


def test_every_extra_vector_holds_in_the_model() -> None:
    out = io.StringIO()
    passed, failed = run_files(VECTORS, out, ModelEngine())
    assert failed == 0, out.getvalue()
    assert passed >= 406


def _cases_at(release: str) -> list[tuple[str, str, dict[str, Any]]]:
    """(file, suite, case) of every case whose release is `release`."""
    found = []
    for path in VECTORS:
        doc = json.loads(path.read_text())
        if doc["suite"] in NOT_SERVED_BY_THE_HARNESS:
            continue
        for case in doc["cases"]:
            at_release = dict(with_release(case, doc, None))
            if at_release["kubeVersion"] == release:
                found.append((path.name, doc["suite"], at_release))
    return found


@pytest.mark.upstream
@pytest.mark.parametrize("release", differential_releases())
def test_extra_vectors_hold_in_upstream_and_the_model_agrees(release: str) -> None:
    """Upstream's own code passes each case (a translation error shows here, not as a model bug)."""
    if shutil.which("go") is None and os.environ.get("CI") != "true":
        pytest.skip("Go is not installed: the upstream harness cannot be built")
    with UpstreamEngine(kube_version=release) as engine:
        for name, suite, case in _cases_at(release):
            assert run_case(suite, case, engine) == (), (name, case["name"])
            if suite in WHOLE_OUTCOME_JUDGED:
                request = {k: v for k, v in case.items() if k not in ("name", "origin", "expect")}
                module = suite_module(suite)
                assert module is not None
                model = module.model_outcome(request)
                verdict = judge(suite, request, model, functools.partial(engine.outcome, suite))
                assert verdict.agrees, (name, case["name"], verdict.differences)
