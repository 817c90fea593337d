"""An implementer's test suite asking jobmodel what upstream would do (docs/oracle-protocol.md).

    pip install jobmodel
    pytest docs/examples/oracle_pytest                          # the model answers
    pytest docs/examples/oracle_pytest --jobmodel-engine upstream   # upstream's own code answers

`my_sync` stands for your controller's reconcile step, reporting what it did in the shape of a
job-sync `expect` (FORMAT.md). This one starts a new Job's pods and nothing else.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

NOW = "2024-06-01T12:00:00Z"
UID = "5f1d7c3e-2b4a-4c6d-8e9f-0a1b2c3d4e5f"
LABELS = {"batch.kubernetes.io/controller-uid": UID, "batch.kubernetes.io/job-name": "work"}


def new_job(parallelism: int, completions: int) -> dict[str, Any]:
    template = {"metadata": {"labels": LABELS}, "spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox"}]}}
    spec = {"parallelism": parallelism, "completions": completions, "backoffLimit": 6, "completionMode": "NonIndexed",
            "suspend": False, "manualSelector": False, "podReplacementPolicy": "TerminatingOrFailed",
            "selector": {"matchLabels": LABELS}, "template": template}
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "work", "namespace": "default", "uid": UID, "labels": LABELS},
            "spec": spec, "status": {}}


def my_sync(case: dict[str, Any]) -> dict[str, Any]:
    """The controller under test: a new Job gets min(parallelism, completions) pods."""
    spec = case["job"]["spec"]
    start = min(spec["parallelism"], spec["completions"])
    return {
        "error": False, "creations": start, "acceptedCreations": start, "deletions": 0, "podPatches": 0,
        "deletedPods": [], "patchedPods": [], "events": [],
        "createdPods": [{"metadata": {"generateName": "work-", "labels": LABELS, "finalizers": ["batch.kubernetes.io/job-tracking"],
                                      "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": "work", "uid": UID,
                                                           "controller": True, "blockOwnerDeletion": True}]}}] * start,
        "status": {"active": start, "ready": 0, "terminating": 0, "startTime": NOW, "uncountedTerminatedPods": {}},
        "requeueAfterSeconds": None,
    }


def test_a_new_job_starts_its_pods(jobmodel_oracle: Any) -> None:
    case = {"now": NOW, "job": new_job(2, 5), "pods": []}
    assert jobmodel_oracle.outcome("job-sync", case)["creations"] == 2
    jobmodel_oracle.assert_agrees("job-sync", case, my_sync(case))


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4))
def test_every_small_new_job(jobmodel_oracle: Any, parallelism: int, completions: int) -> None:
    case = {"now": NOW, "job": new_job(parallelism, completions), "pods": []}
    jobmodel_oracle.assert_agrees("job-sync", case, my_sync(case))
