"""Hypothesis strategies for differential testing: realistic `job-sync` cases in the vector format
(`jobmodel-conformance/1`), so that every generated case can go to the model and to upstream's
code alike, and a divergence can be saved as a vector.

Jobs are generated within API validation (as the API server would store them, defaulted);
pods in every phase, with indexes (valid, repeated, out of range, missing), exit codes,
disruption conditions, deletion timestamps and finalizers; the controller's expectations and
back-off records; injected API failures; feature gates turned off.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import strategies as st

from jobmodel.timeutil import format_time

NOW = datetime(2024, 6, 1, 12, 0, 0, tzinfo=UTC)
JOB_UID = "11111111-2222-3333-4444-555555555555"
LABELS = {"batch.kubernetes.io/controller-uid": JOB_UID, "batch.kubernetes.io/job-name": "job"}
MAX_INT32 = 2**31 - 1
GATES = ("JobPodReplacementPolicy", "JobSuccessPolicy", "JobManagedBy", "JobBackoffLimitPerIndex", "PodIndexLabel")


def ago(seconds: int) -> str:
    return format_time(NOW - timedelta(seconds=seconds))


@st.composite
def pod_failure_policies(draw: st.DrawFn, indexed_per_index: bool) -> dict[str, Any]:
    actions = ["FailJob", "Ignore", "Count"] + (["FailIndex"] if indexed_per_index else [])
    rules = []
    for _ in range(draw(st.integers(1, 3))):
        action = draw(st.sampled_from(actions))
        if draw(st.booleans()):
            values = sorted(draw(st.sets(st.integers(1, 5), min_size=1, max_size=3)))
            operator = draw(st.sampled_from(["In", "NotIn"]))
            if action == "Count" and operator == "NotIn":
                operator = "In"
            rule: dict[str, Any] = {"action": action, "onExitCodes": {"operator": operator, "values": values}}
            if draw(st.booleans()):
                rule["onExitCodes"]["containerName"] = draw(st.sampled_from(["main", "other"]))
        else:
            rule = {"action": action, "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]}
        rules.append(rule)
    return {"rules": rules}


@st.composite
def jobs(draw: st.DrawFn) -> dict[str, Any]:
    indexed = draw(st.booleans())
    completions = draw(st.integers(1, 5)) if indexed else draw(st.one_of(st.none(), st.integers(0, 5)))
    per_index = indexed and draw(st.booleans())
    restart_policy = "Never" if per_index else draw(st.sampled_from(["Never", "Never", "OnFailure"]))
    spec: dict[str, Any] = {
        "parallelism": draw(st.integers(0, 4)),
        "backoffLimit": MAX_INT32 if per_index else draw(st.integers(0, 6)),
        "completionMode": "Indexed" if indexed else "NonIndexed",
        "suspend": draw(st.booleans()) and draw(st.booleans()),
        "manualSelector": False,
        "selector": {"matchLabels": dict(LABELS)},
        "template": {
            "metadata": {"labels": dict(LABELS)},
            "spec": {"containers": [{"name": "main", "image": "busybox"}], "restartPolicy": restart_policy},
        },
    }
    if completions is not None:
        spec["completions"] = completions
    if per_index:
        spec["backoffLimitPerIndex"] = draw(st.integers(0, 2))
        if draw(st.booleans()):
            spec["maxFailedIndexes"] = draw(st.integers(0, completions or 0))
    pfp = restart_policy == "Never" and draw(st.booleans())
    if pfp:
        spec["podFailurePolicy"] = draw(pod_failure_policies(per_index))
        spec["podReplacementPolicy"] = "Failed"
    else:
        spec["podReplacementPolicy"] = draw(st.sampled_from(["TerminatingOrFailed", "Failed"]))
    if indexed and draw(st.booleans()):
        rule: dict[str, Any] = {}
        if draw(st.booleans()):
            rule["succeededIndexes"] = draw(st.sampled_from(["0", "0-1", "1,3", "2-4"]))
        if not rule or draw(st.booleans()):
            rule["succeededCount"] = draw(st.integers(1, max(1, completions or 1)))
        spec["successPolicy"] = {"rules": [rule]}
    if draw(st.booleans()) and not draw(st.booleans()):
        spec["activeDeadlineSeconds"] = draw(st.sampled_from([10, 60, 600]))
    if draw(st.integers(0, 9)) == 0:
        spec["managedBy"] = draw(st.sampled_from(["kubernetes.io/job-controller", "example.com/other"]))
    metadata: dict[str, Any] = {"name": "job", "namespace": "default", "uid": JOB_UID, "labels": dict(LABELS)}
    if draw(st.integers(0, 9)) == 0:
        metadata["deletionTimestamp"] = ago(1)
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": metadata, "spec": spec, "status": draw(statuses(spec))}


@st.composite
def statuses(draw: st.DrawFn, spec: dict[str, Any]) -> dict[str, Any]:
    status: dict[str, Any] = {}
    if draw(st.booleans()):
        status["startTime"] = ago(draw(st.sampled_from([5, 30, 120, 900])))
    status["active"] = draw(st.integers(0, 3))
    if draw(st.booleans()):
        status["ready"] = draw(st.integers(0, status["active"]))
    if draw(st.booleans()):
        status["terminating"] = draw(st.integers(0, 2))
    indexed = spec["completionMode"] == "Indexed"
    if indexed and draw(st.booleans()):
        done = sorted(draw(st.sets(st.integers(0, spec["completions"] - 1), max_size=3)))
        status["completedIndexes"] = ",".join(map(str, done))
        status["succeeded"] = len(done)
    elif not indexed:
        status["succeeded"] = draw(st.integers(0, 2))
    status["failed"] = draw(st.integers(0, 1))
    if "backoffLimitPerIndex" in spec and draw(st.booleans()):
        status["failedIndexes"] = draw(st.sampled_from(["", "0", "1"]))
    conditions = []
    if (spec["suspend"] and draw(st.booleans())) or draw(st.integers(0, 5)) == 0:
        conditions.append({"type": "Suspended", "status": "True", "reason": "JobSuspended", "message": "Job suspended"})
    if draw(st.integers(0, 7)) == 0:
        conditions.append(
            {"type": "FailureTarget", "status": "True", "reason": "BackoffLimitExceeded", "message": "Job has reached the specified backoff limit"}
        )
    elif draw(st.integers(0, 7)) == 0:
        conditions.append(
            {"type": "SuccessCriteriaMet", "status": "True", "reason": "CompletionsReached", "message": "Reached expected number of succeeded pods"}
        )
    if conditions:
        status["conditions"] = [{**c, "lastProbeTime": ago(50), "lastTransitionTime": ago(50)} for c in conditions]
    return status


@st.composite
def pods(draw: st.DrawFn, job: dict[str, Any]) -> list[dict[str, Any]]:
    spec = job["spec"]
    indexed = spec["completionMode"] == "Indexed"
    count = draw(st.integers(0, 6))
    out = []
    for i in range(count):
        phase = draw(st.sampled_from(["Pending", "Running", "Running", "Succeeded", "Failed"]))
        meta: dict[str, Any] = {
            "name": f"pod-{i}",
            "namespace": "default",
            "uid": f"pod-uid-{i}",
            "labels": dict(LABELS) if draw(st.integers(0, 9)) else {"other": "x"},
            "creationTimestamp": ago(300 - 10 * i),
        }
        owner = draw(st.sampled_from(["job", "job", "job", "job", "none", "other"]))
        if owner != "none":
            meta["ownerReferences"] = [
                {
                    "apiVersion": "batch/v1",
                    "kind": "Job",
                    "name": "job",
                    "uid": JOB_UID if owner == "job" else "other-uid",
                    "controller": True,
                    "blockOwnerDeletion": True,
                }
            ]
        if draw(st.integers(0, 5)):
            meta["finalizers"] = ["batch.kubernetes.io/job-tracking"]
        annotations: dict[str, str] = {}
        if indexed:
            choice = draw(st.integers(0, 9))
            if choice < 8:
                annotations["batch.kubernetes.io/job-completion-index"] = str(draw(st.integers(0, spec["completions"])))
            elif choice == 8:
                annotations["batch.kubernetes.io/job-completion-index"] = "x"
            if "backoffLimitPerIndex" in spec and draw(st.booleans()):
                annotations["batch.kubernetes.io/job-index-failure-count"] = str(draw(st.integers(0, 2)))
                if draw(st.booleans()):
                    annotations["batch.kubernetes.io/job-index-ignored-failure-count"] = str(draw(st.integers(0, 2)))
        if annotations:
            meta["annotations"] = annotations
        if draw(st.integers(0, 5)) == 0:
            meta["deletionTimestamp"] = ago(draw(st.sampled_from([0, 5, 40])))
            if draw(st.booleans()):
                meta["deletionGracePeriodSeconds"] = 30
        status: dict[str, Any] = {"phase": phase}
        conditions = []
        if phase == "Running" and draw(st.booleans()):
            conditions.append({"type": "Ready", "status": "True", "lastTransitionTime": ago(100 - i)})
        if phase in ("Succeeded", "Failed"):
            finished = ago(draw(st.sampled_from([1, 8, 25, 400])) + i)
            code = 0 if phase == "Succeeded" else draw(st.integers(1, 5))
            status["containerStatuses"] = [
                {"name": "main", "restartCount": 0, "state": {"terminated": {"exitCode": code, "finishedAt": finished}}}
            ]
            if phase == "Failed" and draw(st.integers(0, 3)) == 0:
                conditions.append({"type": "DisruptionTarget", "status": "True", "lastTransitionTime": finished})
        elif spec["template"]["spec"]["restartPolicy"] == "OnFailure" and draw(st.booleans()):
            status["containerStatuses"] = [
                {"name": "main", "restartCount": draw(st.integers(0, 3)), "state": {"running": {"startedAt": ago(60)}}}
            ]
        if conditions:
            status["conditions"] = conditions
        pod_spec: dict[str, Any] = {"containers": [{"name": "main", "image": "busybox"}]}
        if draw(st.booleans()):
            pod_spec["nodeName"] = f"node-{i % 2}"
        out.append({"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": pod_spec, "status": status})
    return out


@st.composite
def job_sync_cases(draw: st.DrawFn) -> dict[str, Any]:
    job = draw(jobs())
    case: dict[str, Any] = {
        "name": "generated",
        "origin": "tests/differential/strategies.py",
        "now": format_time(NOW),
        "job": job,
        "pods": draw(pods(job)),
        "expect": {},
    }
    uids = [p["metadata"]["uid"] for p in case["pods"]]
    if uids and job["spec"]["completionMode"] == "NonIndexed" and draw(st.integers(0, 4)) == 0:
        uncounted = draw(st.sets(st.sampled_from(uids), max_size=2))
        key = draw(st.sampled_from(["succeeded", "failed"]))
        job["status"]["uncountedTerminatedPods"] = {key: sorted(uncounted)}
    features = {g: False for g in draw(st.sets(st.sampled_from(GATES), max_size=2))}
    if features:
        case["features"] = features
    controller: dict[str, Any] = {}
    if draw(st.integers(0, 4)) == 0:
        controller["expectations"] = {"add": draw(st.integers(0, 1)), "del": draw(st.integers(0, 1))}
    if draw(st.integers(0, 2)) == 0:
        controller["backoff"] = {
            "failuresAfterLastSuccess": draw(st.integers(1, 4)),
            "lastFailureTime": ago(draw(st.sampled_from([1, 15, 70]))),
        }
    fault = draw(st.integers(0, 11))
    if fault == 0:
        controller["podControlError"] = "fake pod control error"
    elif fault == 1:
        controller["podCreateLimit"] = draw(st.integers(1, 2))
    elif fault == 2:
        controller["statusUpdateError"] = "fake status update error"
    if controller:
        case["controller"] = controller
    return case
