"""The Job controller's pod event handlers (addPod, updatePod, deletePod: the model's
`cluster.observe_pod_change`) against upstream's own, run by the harness's `--pod-events`
(harness/upstream/podevents.go): the same pod change delivered to a controller holding the same
Jobs and bookkeeping leaves the same expectations and the same awaited finalizer removals."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from jobmodel.api.wire import job_from_json, pod_from_json
from jobmodel.frozen import FrozenDict
from jobmodel.state import JOB_TRACKING_FINALIZER, Expectations, JobControllerState
from jobmodel.timeutil import parse_time
from jobmodel.transitions import cluster as cl
from tests.differential.conftest import differential_releases, harness_answers

KEY = "default/j"
JOB_UID = "job-uid"
POD_UID = "pod-uid"
NOW = "2025-01-01T00:00:00Z"


def job(uid: str, finished: bool) -> dict[str, Any]:
    status: dict[str, Any] = {}
    if finished:
        status = {"conditions": [{"type": "Complete", "status": "True"}], "succeeded": 1}
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "j", "namespace": "default", "uid": uid},
        "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox"}]}}},
        "status": status,
    }


def owner(uid: str, controller: bool, block: bool) -> dict[str, Any]:
    ref: dict[str, Any] = {"apiVersion": "batch/v1", "kind": "Job", "name": "j", "uid": uid}
    if controller:
        ref["controller"] = True
    if block:
        ref["blockOwnerDeletion"] = True
    return ref


# Mostly the Job's own pods (where the handlers have something to observe), now and then an
# orphan, a pod of another uid or one the Job owns without controlling it.
owners = st.one_of(
    st.builds(lambda block: [owner(JOB_UID, True, block)], st.booleans()),
    st.builds(lambda block: [owner(JOB_UID, True, block)], st.booleans()),
    st.just([]),
    st.builds(lambda uid, controller, block: [owner(uid, controller, block)], st.sampled_from([JOB_UID, "other-uid"]), st.booleans(), st.booleans()),
)


@st.composite
def pods(draw: st.DrawFn, version: str) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": "j-0", "namespace": "default", "uid": POD_UID, "resourceVersion": version, "ownerReferences": draw(owners)}
    if draw(st.booleans()):
        meta["finalizers"] = [JOB_TRACKING_FINALIZER]
    if draw(st.booleans()):
        meta["deletionTimestamp"] = NOW
        meta["deletionGracePeriodSeconds"] = draw(st.sampled_from([0, 30]))
    phase = draw(st.sampled_from(["Pending", "Running", "Succeeded", "Failed"]))
    return {"metadata": meta, "spec": {}, "status": {"phase": phase}}


@st.composite
def requests(draw: st.DrawFn) -> dict[str, Any]:
    """A pod added, updated (the update may remove the finalizer, start the deletion or change
    the controller reference) or finally deleted, with the Job (or a successor of its name, or
    none) in the cache and some bookkeeping held for its key."""
    kind = draw(st.sampled_from(["add", "update", "delete"]))
    old = None if kind == "add" else draw(pods("1"))
    new = None if kind == "delete" else draw(pods("2"))
    if kind == "update" and draw(st.booleans()):
        # Mostly the same pod, one thing changed, as a real update is.
        assert old is not None and new is not None
        new = json.loads(json.dumps(old))
        new["metadata"]["resourceVersion"] = "2"
        change = draw(st.sampled_from(["finalizer removed", "deletion", "phase"]))
        if change == "finalizer removed":
            new["metadata"].pop("finalizers", None)
        elif change == "deletion":
            new["metadata"]["deletionTimestamp"] = NOW
        else:
            new["status"]["phase"] = draw(st.sampled_from(["Succeeded", "Failed"]))
    jobs = draw(st.sampled_from([[job(JOB_UID, False)], [job(JOB_UID, False)], [], [job(JOB_UID, True)], [job("other-uid", False)]]))
    controller: dict[str, Any] = {}
    if draw(st.integers(0, 3)):
        controller["expectations"] = {"add": draw(st.integers(0, 2)), "del": draw(st.integers(0, 2))}
    awaited = st.sets(st.sampled_from([POD_UID, "another-pod-uid"]))
    controller["expectedFinalizerRemovals"] = sorted(draw(st.one_of(st.just({POD_UID}), awaited)))
    event(f"{kind}, {len(jobs)} Job(s)")
    return {"jobKey": KEY, "jobs": jobs, "old": old, "new": new, "controller": controller}


def model_answer(request: dict[str, Any]) -> dict[str, Any]:
    """What the model's handlers leave for the key: `cluster.observe_pod_change`."""
    exp = request["controller"].get("expectations")
    state = JobControllerState(
        expectations=Expectations(exp["add"], exp["del"]) if exp is not None else None,
        expected_finalizer_removals=frozenset(request["controller"]["expectedFinalizerRemovals"]),
    )
    cluster = cl.Cluster(
        now=parse_time(NOW, "now"),
        jobs=tuple(job_from_json(j) for j in request["jobs"]),
        controller=FrozenDict({KEY: state}),
    )
    old = pod_from_json(request["old"]) if request["old"] is not None else None
    new = pod_from_json(request["new"]) if request["new"] is not None else None
    after = cl.observe_pod_change(cluster, old, new).controller_state(KEY)
    answer: dict[str, Any] = {"expectedFinalizerRemovals": sorted(after.expected_finalizer_removals)}
    if after.expectations is not None:
        answer["expectations"] = {"add": after.expectations.add, "del": after.expectations.delete}
    return answer


@pytest.mark.parametrize("release", differential_releases())
def test_the_pod_handlers_leave_the_bookkeeping_upstreams_leave(release: str) -> None:
    batch: list[dict[str, Any]] = []

    # Hypothesis draws the requests; upstream answers them in one process afterwards.
    @settings(max_examples=max(settings().max_examples, 300), deadline=None, database=None)
    @given(requests())
    def collect(request: dict[str, Any]) -> None:
        batch.append(request)

    collect()
    answers = harness_answers(release, "--pod-events", batch)
    assert len(answers) == len(batch)
    observed = 0
    for request, answer in zip(batch, answers, strict=True):
        assert "error" not in answer, (request, answer["error"])
        ours = model_answer(request)
        assert ours == answer["controller"], json.dumps(request)
        before = request["controller"]
        observed += ours.get("expectations") != before.get("expectations") or ours["expectedFinalizerRemovals"] != before["expectedFinalizerRemovals"]
    assert observed > len(batch) // 10  # the handlers changed something in a good share of them
