"""The Job controller's pod event handlers (addPod, updatePod, deletePod: the model's
`cluster.observe_pod_change`) and its Job delete handler (deleteJob: `cluster.delete_job_observed`)
against upstream's own, run by the harness's `--pod-events` (harness/upstream/podevents.go): the
same event delivered to a controller holding the same Jobs and bookkeeping leaves the same
bookkeeping (expectations, awaited finalizer removals, back-off record, finished-Job mark,
consistency record)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from jobmodel.api.wire import job_from_json, pod_from_json
from jobmodel.conformance.job_sync import controller_to_json, sync_input_from_case
from jobmodel.features import parse_kube_version
from jobmodel.frozen import FrozenDict
from jobmodel.state import JOB_TRACKING_FINALIZER, JobSyncInput
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
def bookkeeping(draw: st.DrawFn) -> dict[str, Any]:
    """What the controller holds for the key: expectations, awaited removals, now and then a
    back-off record, the finished-Job mark and the consistency record (of the Job's uid or
    another's)."""
    controller: dict[str, Any] = {}
    if draw(st.integers(0, 3)):
        controller["expectations"] = {"add": draw(st.integers(0, 2)), "del": draw(st.integers(0, 2))}
    awaited = st.sets(st.sampled_from([POD_UID, "another-pod-uid"]))
    removals = sorted(draw(st.one_of(st.just({POD_UID}), awaited)))
    if removals:
        controller["expectedFinalizerRemovals"] = removals
    if draw(st.booleans()):
        controller["backoff"] = {"failuresAfterLastSuccess": draw(st.integers(0, 3)), "lastFailureTime": NOW}
    uids = st.sampled_from([JOB_UID, JOB_UID, "other-uid"])
    if draw(st.booleans()):
        controller["finishedJob"] = draw(uids)
    if draw(st.booleans()):
        versions = {k: draw(st.integers(1, 9)) for k in sorted(draw(st.sets(st.sampled_from(["pods", "jobs"]), min_size=1)))}
        controller["consistency"] = {"ownerUid": draw(uids), **versions}
    return controller


@st.composite
def requests(draw: st.DrawFn) -> dict[str, Any]:
    """A pod added, updated (the update may remove the finalizer, start the deletion or change
    the controller reference) or finally deleted, with the Job (or a successor of its name, or
    none) in the cache; or the Job deleted (it or a predecessor of its name); some bookkeeping
    held for its key."""
    kind = draw(st.sampled_from(["add", "update", "delete", "delete Job"]))
    controller = draw(bookkeeping())
    if kind == "delete Job":
        deleted = job(draw(st.sampled_from([JOB_UID, JOB_UID, "other-uid"])), draw(st.booleans()))
        event(kind)
        return {"jobKey": KEY, "jobs": [], "old": None, "new": None, "deletedJob": deleted, "controller": controller}
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
    event(f"{kind}, {len(jobs)} Job(s)")
    return {"jobKey": KEY, "jobs": jobs, "old": old, "new": new, "controller": controller}


def model_answer(release: str, request: dict[str, Any]) -> dict[str, Any]:
    """What the model's handlers leave for the key (`cluster.observe_pod_change`,
    `cluster.delete_job_observed`), in the shape of the request's `controller`."""
    inp = held(release, request)
    cluster = cl.Cluster(
        now=inp.now,
        jobs=tuple(job_from_json(j) for j in request["jobs"]),
        controller=FrozenDict({KEY: inp.controller}),
        features=inp.features,
    )
    if request.get("deletedJob") is not None:
        cluster = cl.delete_job_observed(cluster, job_from_json(request["deletedJob"]))
    else:
        old = pod_from_json(request["old"]) if request["old"] is not None else None
        new = pod_from_json(request["new"]) if request["new"] is not None else None
        cluster = cl.observe_pod_change(cluster, old, new)
    return controller_to_json(cluster.controller_state(KEY))


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
    changed: dict[str, int] = {"pod": 0, "Job": 0}
    for request, answer in zip(batch, answers, strict=True):
        assert "error" not in answer, (request, answer["error"])
        ours = model_answer(release, request)
        assert ours == answer["controller"], json.dumps(request)
        kind = "Job" if request.get("deletedJob") is not None else "pod"
        changed[kind] += ours != before(release, request)
    # The handlers changed something in a good share of the events (deleteJob only from 1.33:
    # before, it only queues the key and the orphan sweep).
    assert changed["pod"] > len(batch) // 10, changed
    assert (changed["Job"] > len(batch) // 20) is (parse_kube_version(release) >= 33), changed


def held(release: str, request: dict[str, Any]) -> JobSyncInput:
    """The request's bookkeeping as the release holds it (what it does not have left out), read
    as a job-sync case's `controller`, with the release's gates and the clock."""
    return sync_input_from_case({"kubeVersion": release, "now": NOW, "job": None, "controller": request["controller"]})


def before(release: str, request: dict[str, Any]) -> dict[str, Any]:
    """The request's bookkeeping before the event, in the shape of the answer."""
    return controller_to_json(held(release, request).controller)
