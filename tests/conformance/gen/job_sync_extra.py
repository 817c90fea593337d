"""Writes tests/conformance/vectors/job_sync_extra.json: the cases of upstream's syncJob-level unit
tests (pkg/controller/job/job_controller_test.go at commit 003e86297d18) that the shared
job_sync_core.json and job_sync_policies.json withhold, in those files' conventions.

The TestControllerSyncJob rows are built here field by field from upstream's table (`core_case`
writes shared rows exactly as the shared file has them: tests/conformance/test_job_sync_extra.py
checks it); the other tests' subtests come from job_sync_policies_extra.py. The expectations are
the upstream tables' own fields, never an engine's answer.

    .venv/bin/python -m tests.conformance.gen.job_sync_extra [SHARED_CONFORMANCE_DIR]
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from tests.conformance.gen import shared_dir_argument, write_vectors
from tests.conformance.gen.job_sync_policies_extra import derived_cases

NOW = "2024-06-01T12:00:00Z"
UID = "5f1d7c3e-2b4a-4c6d-8e9f-0a1b2c3d4e5f"
TEST_FILE = "kubernetes pkg/controller/job/job_controller_test.go"
FINISHED_AT = "0001-01-01T00:00:01Z"  # testFinishedAt
INDEX_KEY = "batch.kubernetes.io/job-completion-index"
OUT = Path(__file__).parent.parent / "vectors" / "job_sync_extra.json"
Json = dict[str, Any]


@attrs.frozen
class Tc:
    """One row of TestControllerSyncJob's table, its fields named as upstream's."""

    parallelism: int
    completions: int
    backoff_limit: int = 0
    deleting: bool = False
    pod_limit: int = 0
    completion_mode: str = ""
    was_suspended: bool = False
    suspend: bool = False
    pod_replacement_policy: str | None = None
    pod_failure_policy: Json | None = None
    initial_status: Json | None = None  # active, succeed, failed, startTime (bool), conditions
    backoff_failures: int | None = None  # backoffRecord at referenceTime
    pod_controller_error: str | None = None
    pending_pods: int = 0
    active_pods: int = 0
    ready_pods: int = 0
    succeeded_pods: int = 0
    failed_pods: int = 0
    terminating_pods: int = 0
    pods_with_indexes: tuple[tuple[str, str], ...] = ()
    fake_expectation_at_creation: int = 0
    expected_creations: int = 0
    expected_deletions: int = 0
    expected_active: int = 0
    expected_ready: int | None = None
    expected_succeeded: int = 0
    expected_completed_idxs: str = ""
    expected_failed: int = 0
    expected_terminating: int | None = None
    expected_conditions: tuple[Json, ...] = ()
    expected_created_indexes: tuple[int, ...] = ()
    expected_pod_patches: int = 0
    pod_index_label_disabled: bool = False
    job_pod_replacement_policy: bool = False
    job_success_policy: bool = False
    job_managed_by: bool = False


def cond(type_: str, status: str, reason: str = "", message: str = "") -> Json:
    return {"type": type_, "status": status, "reason": reason, "message": message}


BACKOFF_EXCEEDED = ("BackoffLimitExceeded", "Job has reached the specified backoff limit")
SUSPENDED = cond("Suspended", "True", "JobSuspended", "Job suspended")

# The cases of TestControllerSyncJob that job_sync_core.json does not hold, field for field.
EXTRA: dict[str, Tc] = {
    "too few active pods": Tc(
        parallelism=2, completions=5, backoff_limit=6, active_pods=1, succeeded_pods=1,
        expected_creations=1, expected_active=2, expected_succeeded=1, expected_pod_patches=1,
        expected_ready=0,
    ),
    "WQ job: turn on PodReplacementPolicy but not set PodReplacementPolicy": Tc(
        parallelism=1, completions=1, backoff_limit=6, active_pods=1, failed_pods=1,
        job_pod_replacement_policy=True, expected_terminating=1, expected_ready=0,
        terminating_pods=1, expected_active=1, expected_pod_patches=2, expected_failed=2,
    ),
    "WQ job: recreate pods when terminating or failed": Tc(
        parallelism=1, completions=-1, backoff_limit=6, active_pods=1, failed_pods=1,
        pod_replacement_policy="TerminatingOrFailed", job_pod_replacement_policy=True,
        terminating_pods=1, expected_terminating=1, expected_ready=0, expected_active=1,
        expected_pod_patches=2, expected_failed=2,
    ),
    "too few active pods and no back-offs": Tc(
        parallelism=1, completions=1, backoff_limit=6, backoff_failures=0,
        expected_creations=1, expected_active=1, expected_ready=0,
    ),
    "too many active pods, with controller error": Tc(
        parallelism=2, completions=5, backoff_limit=6, pod_controller_error="fake error",
        active_pods=3, expected_deletions=0, expected_pod_patches=1, expected_active=3,
        expected_ready=0,
    ),
    "new failed pod": Tc(
        parallelism=2, completions=5, backoff_limit=6, active_pods=1, failed_pods=1,
        expected_creations=1, expected_active=2, expected_failed=1, expected_pod_patches=1,
        expected_ready=0,
    ),
    "WQ job all finished": Tc(
        parallelism=2, completions=-1, backoff_limit=6, succeeded_pods=2, expected_succeeded=2,
        expected_conditions=(cond("Complete", "True"),), expected_pod_patches=2, expected_ready=0,
    ),
    "more active pods than remaining completions": Tc(
        parallelism=3, completions=4, backoff_limit=6, active_pods=3, succeeded_pods=2,
        expected_deletions=1, expected_active=2, expected_succeeded=2, expected_pod_patches=3,
        expected_ready=0,
    ),
    "job failures, unsatisfied expectations": Tc(
        parallelism=2, completions=5, deleting=True, failed_pods=1, fake_expectation_at_creation=1,
        expected_failed=1, expected_pod_patches=1, expected_ready=0,
    ),
    "indexed job start": Tc(
        parallelism=2, completions=5, backoff_limit=6, completion_mode="Indexed",
        expected_creations=2, expected_active=2, expected_created_indexes=(0, 1), expected_ready=0,
    ),
    "indexed job completed": Tc(
        parallelism=2, completions=3, backoff_limit=6, completion_mode="Indexed",
        pods_with_indexes=(("0", "Succeeded"), ("1", "Failed"), ("1", "Succeeded"), ("2", "Succeeded")),
        expected_succeeded=3, expected_failed=1, expected_completed_idxs="0-2",
        expected_conditions=(cond("Complete", "True"),), expected_pod_patches=4, expected_ready=0,
    ),
    "count terminating pods when indexed job fails and PodReplacementPolicy enabled": Tc(
        parallelism=2, completions=3, backoff_limit=0, completion_mode="Indexed",
        pods_with_indexes=(("0", "Succeeded"), ("1", "Failed"), ("2", "Running")),
        job_pod_replacement_policy=True, expected_succeeded=1, expected_failed=2,
        expected_completed_idxs="0",
        expected_conditions=(cond("FailureTarget", "True", *BACKOFF_EXCEEDED),),
        expected_pod_patches=3, expected_ready=0, expected_deletions=1, expected_terminating=1,
    ),
    "count ready pods when job fails": Tc(
        parallelism=2, completions=3, backoff_limit=0, active_pods=2, ready_pods=2, failed_pods=1,
        expected_failed=3, expected_conditions=(cond("Failed", "True", *BACKOFF_EXCEEDED),),
        expected_pod_patches=3, expected_ready=0, expected_deletions=2,
    ),
    "indexed job some running and completed pods": Tc(
        parallelism=8, completions=20, backoff_limit=6, completion_mode="Indexed",
        pods_with_indexes=(
            ("0", "Running"), ("2", "Succeeded"), ("3", "Pending"), ("4", "Succeeded"),
            ("5", "Succeeded"), ("7", "Succeeded"), ("8", "Succeeded"), ("9", "Succeeded"),
        ),
        expected_creations=6, expected_active=8, expected_succeeded=6,
        expected_completed_idxs="2,4,5,7-9", expected_created_indexes=(1, 6, 10, 11, 12, 13),
        expected_pod_patches=6, expected_ready=0,
    ),
    "indexed job with indexes outside of range": Tc(
        parallelism=2, completions=5, backoff_limit=6, completion_mode="Indexed",
        pods_with_indexes=(
            ("0", "Succeeded"), ("5", "Running"), ("6", "Succeeded"), ("7", "Pending"), ("8", "Failed"),
        ),
        expected_creations=0, expected_succeeded=1, expected_deletions=2,
        expected_completed_idxs="0", expected_active=0, expected_failed=0,
        expected_pod_patches=5, expected_ready=0,
    ),
    "count ready pods when suspending a job with satisfied expectations": Tc(
        suspend=True, parallelism=2, active_pods=2, ready_pods=2, completions=4, backoff_limit=6,
        expected_creations=0, expected_deletions=2, expected_active=0,
        expected_conditions=(SUSPENDED,), expected_pod_patches=2, expected_ready=0,
    ),
    "suspending a job with unsatisfied expectations; PodReplacementPolicy enabled": Tc(
        suspend=True, parallelism=2, active_pods=3, fake_expectation_at_creation=-1,
        completions=4, backoff_limit=6, job_pod_replacement_policy=True, expected_creations=0,
        expected_deletions=0, expected_active=3, expected_ready=0, expected_terminating=0,
    ),
    "suspending a deleted job": Tc(
        suspend=True, deleting=True, parallelism=2, active_pods=2, completions=4, backoff_limit=6,
        expected_creations=0, expected_deletions=0, expected_active=2, expected_pod_patches=2,
        expected_ready=0,
    ),
    "FailureTarget=False condition added manually is ignored": Tc(
        parallelism=1, completions=1, active_pods=1, ready_pods=1,
        initial_status={
            "active": 1, "startTime": True,
            "conditions": [cond("FailureTarget", "False", "ConditionAddedManually", "Testing")],
        },
        expected_active=1, expected_ready=1,
        expected_conditions=(cond("FailureTarget", "False", "ConditionAddedManually", "Testing"),),
    ),
}


def _owner(block: bool) -> Json:
    ref: Json = {"apiVersion": "batch/v1", "kind": "Job", "name": "foobar", "uid": UID, "controller": True}
    if block:
        ref["blockOwnerDeletion"] = True
    return ref


def _terminated_statuses() -> list[Json]:
    return [{"state": {"terminated": {"exitCode": 0, "finishedAt": FINISHED_AT}}}]


def _pod(n: int, phase: str, *, ready: bool = False, terminating: bool = False, index: str | None = None) -> Json:
    """newPod + the status setPodsStatuses / setPodsStatusesWithIndexes give it."""
    meta: Json = {
        "name": f"pod-{n}", "namespace": "default", "uid": f"pod-{n}", "labels": {"foo": "bar"},
        "ownerReferences": [_owner(True)], "finalizers": ["batch.kubernetes.io/job-tracking"],
    }
    spec: Json = {}
    status: Json = {"phase": phase}
    if index is None or phase in ("Failed", "Succeeded"):
        status["containerStatuses"] = _terminated_statuses()
    if index is not None:
        meta["annotations"] = {INDEX_KEY: index}
        spec["hostname"] = f"foobar-{index}"
    if ready:
        status["conditions"] = [{"type": "Ready", "status": "True"}]
    if terminating:
        meta["deletionTimestamp"] = NOW
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec, "status": status}


def _pods(tc: Tc) -> list[Json]:
    """setPodsStatuses then setPodsStatusesWithIndexes, in their order."""
    rows: list[tuple[str, bool, bool, str | None]] = []
    rows += [("Pending", False, False, None)] * tc.pending_pods
    rows += [("Running", i < tc.ready_pods, False, None) for i in range(tc.active_pods)]
    rows += [("Succeeded", False, False, None)] * tc.succeeded_pods
    rows += [("Failed", False, False, None)] * tc.failed_pods
    rows += [("Running", False, True, None)] * tc.terminating_pods
    rows += [(phase, False, False, index) for index, phase in tc.pods_with_indexes]
    return [
        _pod(n, phase, ready=ready, terminating=term, index=index)
        for n, (phase, ready, term, index) in enumerate(rows)
    ]


def _features(tc: Tc) -> Json:
    out: Json = {}
    if tc.pod_index_label_disabled:
        out["PodIndexLabel"] = False
    if not tc.job_pod_replacement_policy:
        out["JobPodReplacementPolicy"] = False
    if not tc.job_success_policy:
        out["JobSuccessPolicy"] = False
    out["JobManagedBy"] = tc.job_managed_by
    return out


def _job(tc: Tc) -> Json:
    meta: Json = {"name": "foobar", "namespace": "default", "uid": UID}
    if tc.deleting:
        meta["deletionTimestamp"] = NOW
    spec: Json = {
        "selector": {"matchLabels": {"foo": "bar"}},
        "template": {"metadata": {"labels": {"foo": "bar"}}, "spec": {"containers": [{"image": "foo/bar"}]}},
    }
    if tc.completion_mode:
        spec["completionMode"] = tc.completion_mode
    if tc.completions >= 0:
        spec["completions"] = tc.completions
    if tc.parallelism >= 0:
        spec["parallelism"] = tc.parallelism
    spec["backoffLimit"] = tc.backoff_limit
    spec["suspend"] = tc.suspend
    if tc.job_pod_replacement_policy and tc.pod_replacement_policy is not None:
        spec["podReplacementPolicy"] = tc.pod_replacement_policy
    if tc.pod_failure_policy is not None:
        spec["podFailurePolicy"] = tc.pod_failure_policy
    status: Json = {}
    if tc.initial_status is not None:
        status["startTime"] = NOW
        for key, name in (("active", "active"), ("succeed", "succeeded"), ("failed", "failed")):
            if tc.initial_status.get(key):
                status[name] = tc.initial_status[key]
        if tc.initial_status.get("conditions"):
            status["conditions"] = list(tc.initial_status["conditions"])
    if tc.was_suspended:
        cond = {**SUSPENDED, "lastProbeTime": NOW, "lastTransitionTime": NOW}
        status["conditions"] = [*status.get("conditions", []), cond]
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": meta, "spec": spec, "status": status}


def _created_pod(tc: Tc, index: int | None) -> Json:
    if index is None:
        return {"metadata": {"ownerReferences": [_owner(False)]}, "spec": {"hostname": None}}
    source = "annotations" if tc.pod_index_label_disabled else "labels"
    meta: Json = {"generateName": f"foobar-{index}-"}
    if not tc.pod_index_label_disabled:
        meta["labels"] = {INDEX_KEY: str(index)}
    meta["annotations"] = {INDEX_KEY: str(index)}
    meta["ownerReferences"] = [_owner(False)]
    env = {
        "name": "JOB_COMPLETION_INDEX",
        "valueFrom": {"fieldRef": {"fieldPath": f"metadata.{source}['{INDEX_KEY}']"}},
    }
    return {"metadata": meta, "spec": {"hostname": f"foobar-{index}", "containers": [{"env": [env]}]}}


def _slow_start_calls(want: int, limit: int) -> int:
    """The create calls slowStartBatch makes when every call past `limit` fails."""
    calls, batch = 0, 1
    while calls < want:
        size = min(batch, want - calls)
        calls += size
        if calls > limit:
            break
        batch *= 2
    return calls


def _expect(tc: Tc, want_creations: int) -> Json:
    creations = tc.expected_creations
    accepted = creations
    if tc.pod_limit:
        creations = _slow_start_calls(want_creations, tc.pod_limit)
    if tc.pod_controller_error is not None:
        accepted = 0
    exp: Json = {"error": tc.pod_controller_error is not None or (tc.pod_limit != 0 and creations > tc.pod_limit)}
    exp["creations"] = creations
    if tc.pod_limit:
        exp["acceptedCreations"] = accepted
    if accepted:
        indexes: list[int | None] = (
            list(tc.expected_created_indexes) if tc.completion_mode == "Indexed" else [None] * accepted
        )
        exp["createdPods"] = [_created_pod(tc, i) for i in indexes]
    exp["deletions"] = tc.expected_deletions
    exp["podPatches"] = tc.expected_pod_patches
    if not tc.suspend:
        exp["statusSet"] = ["startTime"]
    status: Json = {
        "active": tc.expected_active, "ready": tc.expected_ready, "succeeded": tc.expected_succeeded,
        "failed": tc.expected_failed, "terminating": tc.expected_terminating,
        "completedIndexes": tc.expected_completed_idxs,
    }
    if tc.suspend:
        status["startTime"] = None
    exp["status"] = status
    exp["conditions"] = list(tc.expected_conditions)
    if tc.completion_mode == "Indexed":
        exp["createdIndexes"] = list(tc.expected_created_indexes)
    return exp


def core_case(name: str, tc: Tc, want_creations: int = 0) -> Json:
    """One TestControllerSyncJob row as a `job-sync` vector (want_creations: what manageJob asks
    for, needed only with a pod limit)."""
    case: Json = {
        "name": name,
        "origin": f"{TEST_FILE} TestControllerSyncJob: {name}",
        "now": NOW,
        "features": _features(tc),
        "job": _job(tc),
        "pods": _pods(tc),
    }
    controller: Json = {}
    if tc.backoff_failures is not None:
        controller["backoff"] = {"failuresAfterLastSuccess": tc.backoff_failures, "lastFailureTime": NOW}
    if tc.fake_expectation_at_creation > 0:
        controller["expectations"] = {"add": tc.fake_expectation_at_creation, "del": 0}
    elif tc.fake_expectation_at_creation < 0:
        controller["expectations"] = {"add": 0, "del": -tc.fake_expectation_at_creation}
    if tc.pod_controller_error is not None:
        controller["podControlError"] = tc.pod_controller_error
    if tc.pod_limit:
        controller["podCreateLimit"] = tc.pod_limit
    if controller:
        case["controller"] = controller
    case["expect"] = _expect(tc, want_creations)
    return case


def document(shared_dir: Path) -> Json:
    """The file's document; shared_dir holds the shared job_sync_policies.json."""
    return {
        "format": "jobmodel-conformance/1",
        "suite": "job-sync",
        "source": (
            "kubernetes/kubernetes pkg/controller/job/job_controller_test.go at commit "
            "003e86297d18a8538c9da3619871393f9703bf70: the TestControllerSyncJob cases and the "
            "subtests of the other syncJob-level tests that ../shared/conformance/job_sync_core.json "
            "and job_sync_policies.json withhold, translated from the upstream tables' own fields; "
            "generated by tests/conformance/gen/job_sync_extra.py"
        ),
        "cases": [core_case(name, tc) for name, tc in EXTRA.items()]
        + derived_cases(shared_dir / "job_sync_policies.json"),
    }


def main() -> None:
    write_vectors(OUT, document(shared_dir_argument()))


if __name__ == "__main__":
    main()
