"""The job-sync suite's reading of a case (jobmodel/conformance/job_sync.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jobmodel.conformance import job_sync
from jobmodel.errors import InputError

VECTORS = Path(__file__).resolve().parents[2] / "jobmodel" / "conformance" / "vectors"


def a_case() -> dict[str, Any]:
    for path in sorted(VECTORS.glob("job_sync*.json")):
        for case in json.loads(path.read_text())["cases"]:
            if case.get("pods"):
                return dict(case)
    raise AssertionError("no job-sync vector with pods")


@pytest.mark.parametrize("pods", [{}, 0, "", False])
def test_pods_that_are_not_a_list_are_refused(pods: object) -> None:
    """encoding/json refuses a non-list for []*v1.Pod; only null is an empty list."""
    with pytest.raises(InputError, match="pods"):
        job_sync.model_outcome({**a_case(), "pods": pods})


def test_null_pods_are_no_pods() -> None:
    case = a_case()
    assert job_sync.model_outcome({**case, "pods": None}) == job_sync.model_outcome({**case, "pods": []})


# --- the finished-Job mark (1.34+) and the consistency store (1.36+), jobmodel's own keys ----

UID = "5f1d7c3e-2b4a-4c6d-8e9f-0a1b2c3d4e5f"


def starting_job(release: str, **controller: Any) -> dict[str, Any]:
    """A Job of parallelism 2 with no pods yet (upstream's "job start"): a sync creates two."""
    job = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "foobar", "namespace": "default", "uid": UID},
        "spec": {
            "selector": {"matchLabels": {"foo": "bar"}},
            "template": {"metadata": {"labels": {"foo": "bar"}}, "spec": {"containers": [{"image": "foo/bar"}]}},
            "completions": 5,
            "parallelism": 2,
            "backoffLimit": 6,
        },
        "status": {},
    }
    case: dict[str, Any] = {"name": "start", "kubeVersion": release, "now": "2024-06-01T12:00:00Z", "job": job, "pods": []}
    if controller:
        case["controller"] = controller
    return case


@pytest.mark.parametrize(("release", "skipped"), [("1.33", False), ("1.34", True), ("1.37", True)])
def test_a_running_job_marked_finished_is_not_synced_from_1_34(release: str, skipped: bool) -> None:
    """syncJob skips a Job whose uid finishedJobExpectations holds (1.34+); 1.33 has no mark."""
    outcome = job_sync.model_outcome(starting_job(release, finishedJob=UID))
    assert outcome["creations"] == (0 if skipped else 2)
    assert outcome["controller"].get("finishedJob") == (UID if skipped else None)


def test_a_predecessors_finished_mark_does_not_stop_the_sync() -> None:
    outcome = job_sync.model_outcome(starting_job("1.37", finishedJob="another-uid"))
    assert outcome["creations"] == 2 and outcome["controller"]["finishedJob"] == "another-uid"


@pytest.mark.parametrize(
    ("release", "features", "waits"),
    [("1.35", {}, False), ("1.36", {}, True), ("1.37", {}, True), ("1.37", {"StaleControllerConsistencyJob": False}, False)],
)
def test_a_write_the_informer_has_not_caught_up_with_holds_the_sync_back(release: str, features: dict[str, bool], waits: bool) -> None:
    """EnsureReady: the pods informer at version 5, the controller's last pod write at 7."""
    case = starting_job(release, consistency={"ownerUid": UID, "pods": 7}, informers={"pods": 5, "jobs": 9}, writeVersion=10)
    if features:
        case["features"] = features
    outcome = job_sync.model_outcome(case)
    assert outcome["error"] is waits
    assert outcome["creations"] == (0 if waits else 2)
    if waits:
        assert "read version: 5 is not as new as written version: 7 for group resource pods" in outcome["errorMessage"]
    # Held back, the record stays; without a store (1.35, the gate off) there is none.
    assert outcome["controller"].get("consistency") == ({"ownerUid": UID, "pods": 7} if waits else None)


@pytest.mark.parametrize(("written", "read"), [(7, 0), (7, -1), (0, 5)])
def test_versions_upstream_cannot_compare_hold_nothing_back(written: int, read: int) -> None:
    """resourceversion.CompareResourceVersion refuses 0 and negatives (not well formed), and
    EnsureReady then skips the resource: the sync goes on, and its writes replace the record's."""
    case = starting_job("1.37", consistency={"ownerUid": UID, "pods": written}, informers={"pods": read}, writeVersion=10)
    outcome = job_sync.model_outcome(case)
    assert not outcome["error"] and outcome["creations"] == 2
    assert outcome["controller"]["consistency"] == {"ownerUid": UID, "pods": 10, "jobs": 10}


def test_a_sync_past_the_store_records_its_writes_at_the_write_version() -> None:
    """Caught up (the informers at 7 and 9), the record is cleared; the two creations and the
    status write are recorded at the version the API server gave them."""
    case = starting_job("1.37", consistency={"ownerUid": UID, "pods": 7}, informers={"pods": 7, "jobs": 9}, writeVersion=10)
    outcome = job_sync.model_outcome(case)
    assert outcome["creations"] == 2 and not outcome["error"]
    assert outcome["controller"]["consistency"] == {"ownerUid": UID, "pods": 10, "jobs": 10}


def test_a_predecessors_record_is_replaced_by_the_jobs_own() -> None:
    case = starting_job("1.37", consistency={"ownerUid": "another-uid", "pods": 7}, informers={"pods": 7}, writeVersion=10)
    assert job_sync.model_outcome(case)["controller"]["consistency"] == {"ownerUid": UID, "pods": 10, "jobs": 10}


@pytest.mark.parametrize(
    ("controller", "path"),
    [
        ({"consistency": {"pods": 3}}, "controller.consistency.ownerUid"),
        ({"consistency": {"ownerUid": UID, "secrets": 3}}, "controller.consistency"),
        ({"consistency": {"ownerUid": UID, "pods": "7"}}, "controller.consistency"),
        ({"informers": {"nodes": 3}}, "controller.informers"),
        ({"informers": []}, "controller.informers"),
        ({"writeVersion": "10"}, "controller"),
        ({"finishedJob": 1}, "controller"),
    ],
)
def test_a_malformed_record_is_refused_naming_the_field(controller: dict[str, Any], path: str) -> None:
    with pytest.raises(InputError) as err:
        job_sync.model_outcome(starting_job("1.37", **controller))
    assert err.value.field.startswith(path)
