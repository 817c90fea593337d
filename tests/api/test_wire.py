"""Kubernetes JSON to snapshots and back (jobmodel/api/wire.py)."""

from __future__ import annotations

from typing import Any

import pytest

from jobmodel.api.wire import job_from_json, job_to_json, pod_from_json, pod_to_json
from jobmodel.errors import InputError
from tests.builders import job_json, pod_json


def test_job_round_trips_through_the_snapshot() -> None:
    doc = job_json(
        completionMode="Indexed",
        podFailurePolicy={"rules": [{"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]}]},
        successPolicy={"rules": [{"succeededIndexes": "0-2", "succeededCount": 1}]},
        status={"active": 2, "ready": 0, "startTime": "2024-06-01T12:00:00Z", "uncountedTerminatedPods": {"failed": ["a"]}},
    )
    assert job_to_json(job_from_json(doc)) == doc


def test_pod_round_trips_through_the_snapshot() -> None:
    doc = pod_json("p", "Failed", exit_code=3, ready=True, deleted="2024-06-01T12:00:00Z")
    assert pod_to_json(pod_from_json(doc)) == doc


def test_snapshots_are_hashable_values() -> None:
    a = job_from_json(job_json())
    b = job_from_json(job_json())
    assert a == b and hash(a) == hash(b)
    assert len({pod_from_json(pod_json("p")), pod_from_json(pod_json("p"))}) == 1


@pytest.mark.parametrize(
    ("mutate", "field", "reason"),
    [
        (lambda d: d["spec"].update(completions="five"), "spec.completions", "expected an integer"),
        (lambda d: d["spec"].update(paralelism=2), "spec.paralelism", "unknown field"),
        (lambda d: d["spec"].update(suspend="yes"), "spec.suspend", "expected true or false"),
        (lambda d: d["metadata"].update(labels={"a": 1}), "metadata.labels.a", "expected a string"),
        (lambda d: d["status"].update(startTime="yesterday"), "status.startTime", "not an RFC 3339 time"),
        (lambda d: d.update(kind="Pod"), "kind", "expected Job"),
        (
            lambda d: d["spec"].update(podFailurePolicy={"rules": [{"action": "FailJob", "onExitCodes": {"operator": "In", "values": ["1"]}}]}),
            "spec.podFailurePolicy.rules[0].onExitCodes.values[0]",
            "expected an integer",
        ),
    ],
)
def test_malformed_job_names_the_field(mutate: Any, field: str, reason: str) -> None:
    doc = job_json()
    mutate(doc)
    with pytest.raises(InputError) as err:
        job_from_json(doc)
    assert err.value.field == field
    assert reason in err.value.reason


def test_malformed_pod_names_the_field() -> None:
    doc = pod_json("p")
    doc["status"]["containerStatuses"] = [{"name": "c", "state": {"terminated": {"exitCode": "x"}}}]
    with pytest.raises(InputError) as err:
        pod_from_json(doc, "pods[0]")
    assert err.value.field == "pods[0].status.containerStatuses[0].state.terminated.exitCode"


def test_a_job_must_be_an_object() -> None:
    with pytest.raises(InputError, match="expected an object"):
        job_from_json(["not", "a", "job"])
