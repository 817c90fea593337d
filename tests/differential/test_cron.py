"""The model's `schedule` and `cronjob-sync` suites against upstream's own code (harness/upstream:
mostRecentScheduleTime, nextScheduleTimeDuration and ControllerV2.sync of Kubernetes v1.32),
on generated cases in the vector format.

A divergence fails the test and is written to tests/differential/found/ as a vector file whose
`expect` is upstream's outcome. Upstream's Job lister returns Jobs in a Go map's order: where
its result depends on it, upstream is asked again with the Jobs in other orders and the model
must give one of its answers (jobmodel.conformance.agreement).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given, settings

from jobmodel.conformance import cronjob_sync, schedule
from jobmodel.conformance.agreement import judge
from jobmodel.strategies.cron import cronjob_sync_cases, schedule_cases
from tests.differential.conftest import EveryRelease, ReleaseUpstream

HERE = Path(__file__).resolve().parent
LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"
SCHEDULE_EXAMPLES = 10_000 if LONG else 3000
SYNC_EXAMPLES = 15_000 if LONG else 2000

def save(suite: str, case: Mapping[str, Any], expected: Mapping[str, Any]) -> Path:
    found = HERE / "found"
    found.mkdir(exist_ok=True)
    vector = dict(case, name=f"differential: {suite} divergence", expect=dict(expected))
    path = found / f"{suite}-divergence.json"
    doc = {"format": "jobmodel-conformance/1", "suite": suite, "source": "tests/differential", "cases": [vector]}
    path.write_text(json.dumps(doc, indent=1))
    return path


def _check(suite: str, case: dict[str, Any], model: Mapping[str, Any], upstream: ReleaseUpstream) -> None:
    verdict = judge(suite, case, model, lambda c: upstream.outcome(suite, c))
    event(f"{suite}: {verdict.path}")
    if not verdict.agrees:
        path = save(suite, case, verdict.reference)
        pytest.fail(f"model != upstream ({verdict.path}): {list(verdict.differences)}; case saved in {path}")


@settings(max_examples=SCHEDULE_EXAMPLES)
@given(schedule_cases())
def test_schedule_agrees_with_upstream(upstreams: EveryRelease, generated: dict[str, Any]) -> None:
    for upstream in upstreams:
        case = upstream.case(generated)
        _check("schedule", case, schedule.model_outcome(case), upstream)


@settings(max_examples=SYNC_EXAMPLES)
@given(cronjob_sync_cases())
def test_cronjob_sync_agrees_with_upstream(upstreams: EveryRelease, generated: dict[str, Any]) -> None:
    for upstream in upstreams:
        case = upstream.case(generated)
        _check("cronjob-sync", case, cronjob_sync.model_outcome(case), upstream)
