"""The subtests of upstream's other syncJob-level tests (pkg/controller/job/job_controller_test.go at
commit 003e86297d18) that the shared job_sync_policies.json withholds.

Each test of that file builds its Job and pods its own way, and the shared file follows each
test's way (pod names, uids, which fields are set). So each case here starts from a shared case
of the same upstream test whose table row differs from it in a few fields, and changes exactly
those fields, as the upstream row gives them (`_edit` functions, one per case, say which). The
expectations are the upstream row's own, never an engine's answer.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

Json = dict[str, Any]
TEST_FILE = "kubernetes pkg/controller/job/job_controller_test.go"
INDEX = "batch.kubernetes.io/job-completion-index"
FAILURE_COUNT = "batch.kubernetes.io/job-index-failure-count"
BACKOFF_EXCEEDED = {
    "status": "True", "reason": "BackoffLimitExceeded", "message": "Job has reached the specified backoff limit",
}
FAILED_INDEXES = {"status": "True", "reason": "FailedIndexes", "message": "Job has failed indexes"}
PFP_EXIT_5 = "Container main-container for pod default/mypod-0 failed with exit code 5 matching FailJob rule at index 1"
PFP_DELETED_POD = (
    "Container main-container for pod default/already-deleted-pod failed with exit code 5 matching FailJob rule at index 1"
)
SUCCESS_POLICY = {"status": "True", "reason": "SuccessPolicy", "message": "Matched rules at index 0"}
COMPLETIONS_REACHED = {
    "status": "True", "reason": "CompletionsReached", "message": "Reached expected number of succeeded pods",
}


def _cond(type_: str, fields: Json) -> Json:
    return {"type": type_, **fields}


def _pfp_failure(type_: str, message: str) -> Json:
    return {"type": type_, "status": "True", "reason": "PodFailurePolicy", "message": message}


def _set_pod(case: Json, n: int, *, status: Json | None = None, annotations: Json | None = None) -> None:
    pod = case["pods"][n]
    if status is not None:
        pod["status"] = status
    if annotations is not None:
        pod["metadata"]["annotations"] = annotations


def _bare_pod(case: Json, name: str, uid: str) -> Json:
    """A pod of the case's Job built as the first shared pod is (labels, owner, finalizer)."""
    pod: Json = copy.deepcopy(case["pods"][0])
    pod["metadata"]["name"] = name
    pod["metadata"]["uid"] = uid
    pod["metadata"].pop("annotations", None)
    pod["metadata"].pop("deletionTimestamp", None)
    return pod


def indexed_pod(case: Json, n: int, uid: str, index: int, failures: int, phase: str) -> Json:
    """buildPod().uid(uid).index(index).phase(phase).indexFailureCount(failures), named mypod-n."""
    pod = _bare_pod(case, f"mypod-{n}", uid)
    pod["metadata"]["annotations"] = {INDEX: str(index), FAILURE_COUNT: str(failures)}
    pod["status"] = {"phase": phase}
    return pod


def phase_pods(case: Json, phase: str, restart_counts: list[int]) -> list[Json]:
    """newPodList(len(restartCounts), phase, job) with ContainerStatuses = [{RestartCount}]
    (TestJobBackoffForOnFailure)."""
    pods = []
    for i, count in enumerate(restart_counts):
        name = f"pod-{phase.lower()}-{i}"
        pod = _bare_pod(case, name, name)
        pod["status"] = {"phase": phase, "containerStatuses": [{"restartCount": count}]}
        pods.append(pod)
    return pods


def never_pods(case: Json, failed: int, active: int, active_phase: str) -> list[Json]:
    """TestJobBackoffOnRestartPolicyNever: `failed` failed pods, then `active` pods of active_phase,
    each with a terminated container finished at testFinishedAt."""
    statuses = [{"state": {"terminated": {"exitCode": 0, "finishedAt": "0001-01-01T00:00:01Z"}}}]
    pods = []
    for phase, count in (("Failed", failed), (active_phase, active)):
        for i in range(count):
            name = f"pod-{phase.lower()}-{i}"
            pod = _bare_pod(case, name, name)
            pod["status"] = {"phase": phase, "containerStatuses": copy.deepcopy(statuses)}
            pods.append(pod)
    return pods


# --- TestSyncJobPastDeadline


def _deadline_managed_by(case: Json) -> None:
    # Row as "...; JobPodReplacementPolicy enabled" but with JobManagedBy instead of
    # JobPodReplacementPolicy on; the same expectations (FailureTarget only).
    case["features"] = {"JobPodReplacementPolicy": False, "JobManagedBy": True}


# --- TestSyncJobWithJobPodFailurePolicy


def _pfp_container_name(case: Json) -> None:
    # The rules of onExitCodeRules restricted to containerName main-container; the pod's
    # monitoring-container exited with 5 and main-container with 42: default handling.
    case["job"]["spec"]["podFailurePolicy"] = {
        "rules": [
            {"action": "Ignore", "onExitCodes": {"containerName": "main-container", "operator": "In", "values": [1, 2, 3]}},
            {"action": "FailJob", "onExitCodes": {"containerName": "main-container", "operator": "In", "values": [5, 6, 7]}},
        ]
    }
    _set_pod(case, 0, status={
        "phase": "Failed",
        "containerStatuses": [
            {"name": "monitoring-container", "state": {"terminated": {"exitCode": 5}}},
            {"name": "main-container", "state": {"terminated": {"exitCode": 42, "finishedAt": "0001-01-01T00:00:01Z"}}},
        ],
    })
    case["expect"]["status"] = {"active": 1, "succeeded": 0, "failed": 1}
    case["expect"]["conditions"] = []


def _pfp_already_failure_target(message: str) -> Callable[[Json], None]:
    def edit(case: Json) -> None:
        # Row as "fail job based on OnExitCodes" with the Job already holding FailureTarget.
        case["job"]["status"] = {"conditions": [_pfp_failure("FailureTarget", message)]}
        case["expect"]["conditions"] = [_pfp_failure("FailureTarget", message), _pfp_failure("Failed", message)]

    return edit


def _pfp_multiple_managed_by(case: Json) -> None:
    # Row as "fail job with multiple pods" with JobManagedBy on: only FailureTarget.
    case["features"] = {"JobPodReplacementPolicy": False, "JobManagedBy": True}
    message = PFP_EXIT_5.replace("mypod-0", "mypod-1")
    case["expect"]["conditions"] = [_pfp_failure("FailureTarget", message)]


def _pfp_not_in_fails(case: Json) -> None:
    # Row as "default handling ... NotIn operator" with the container exiting 42 (no finishedAt).
    _set_pod(case, 0, status={
        "phase": "Failed",
        "containerStatuses": [{"name": "main-container", "state": {"terminated": {"exitCode": 42}}}],
    })
    message = "Container main-container for pod default/mypod-0 failed with exit code 42 matching FailJob rule at index 0"
    case["expect"]["status"] = {"active": 0, "succeeded": 0, "failed": 1}
    case["expect"]["conditions"] = [_pfp_failure("FailureTarget", message), _pfp_failure("Failed", message)]


def _pfp_default_job(case: Json) -> None:
    # Row as "default job based on OnExitCodes; JobManagedBy enabled ..." with JobManagedBy off.
    case["features"] = {"JobPodReplacementPolicy": False, "JobManagedBy": False}
    case["expect"]["conditions"] = [_cond("Failed", BACKOFF_EXCEEDED)]


# --- TestSyncJobWithJobSuccessPolicy


def _sp_replacement_disabled(case: Json) -> None:
    # Row as "...; jobPodReplacementPolicy feature enabled; ... some indexes fail" with that gate off.
    case["features"] = {"JobBackoffLimitPerIndex": False, "JobPodReplacementPolicy": False, "JobManagedBy": False}
    case["expect"]["status"]["terminating"] = None
    case["expect"]["conditions"] = [_cond("SuccessCriteriaMet", SUCCESS_POLICY), _cond("Complete", SUCCESS_POLICY)]


def _sp_criteria_met_then_pfp(case: Json) -> None:
    # Row as "... and backoffLimit; ... never been transitioned ... even if job meets backoffLimit",
    # with backoffLimit MaxInt32, successPolicy {succeededCount: 1}, a FailJob rule on
    # DisruptionTarget, and the failed pod carrying that condition.
    spec = case["job"]["spec"]
    spec["backoffLimit"] = 2147483647
    spec["successPolicy"] = {"rules": [{"succeededCount": 1}]}
    spec["podFailurePolicy"] = {
        "rules": [{"action": "FailJob", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]}]
    }
    _set_pod(case, 0, status={"phase": "Failed", "conditions": [{"type": "DisruptionTarget", "status": "True"}]})


def _sp_gate_disabled(case: Json) -> None:
    # Row with every gate of the test off; pods a2 (index 0, Running), b (1, Succeeded),
    # c (2, Running): no SuccessCriteriaMet.
    case["features"] = {
        "JobBackoffLimitPerIndex": False, "JobSuccessPolicy": False, "JobPodReplacementPolicy": False,
        "JobManagedBy": False,
    }
    case["pods"] = case["pods"][1:]
    for n, pod in enumerate(case["pods"]):
        pod["metadata"]["name"] = f"mypod-{n}"
    case["expect"]["status"] = {
        "active": 2, "succeeded": 1, "failed": 0, "terminating": None, "completedIndexes": "1",
        "failedIndexes": None, "uncountedTerminatedPods": {},
    }
    case["expect"]["conditions"] = []


# --- TestSyncJobWithJobBackoffLimitPerIndex


def _blpi_status(**fields: Any) -> Json:
    status: Json = {
        "active": 0, "succeeded": 0, "failed": 0, "terminating": 0, "completedIndexes": "", "failedIndexes": None,
        "uncountedTerminatedPods": {},
    }
    status.update(fields)
    return status


def _blpi_pods(*pods: tuple[str, int, int, str]) -> Callable[[Json], list[Json]]:
    return lambda case: [indexed_pod(case, n, *pod) for n, pod in enumerate(pods)]


def _blpi(pods: Callable[[Json], list[Json]], status: Json, conditions: list[Json],
          **spec: Any) -> Callable[[Json], None]:
    """A row of the "successful job after a single failure within index" kind (parallelism and
    completions 2, backoffLimit MaxInt32, backoffLimitPerIndex 1, gates BackoffLimitPerIndex and
    PodReplacementPolicy on) with these pods, spec changes and expected status."""

    def edit(case: Json) -> None:
        case["job"]["spec"].update(spec)
        case["pods"] = pods(case)
        case["expect"]["status"] = status
        case["expect"]["conditions"] = conditions

    return edit


def _blpi_fail_job(case: Json) -> None:
    # "job failed index due to FailJob action": backoffLimit 6, a FailJob rule on exit code 3,
    # the pod's container x exited with 3.
    case["job"]["spec"]["backoffLimit"] = 6
    case["job"]["spec"]["podFailurePolicy"] = {
        "rules": [{"action": "FailJob", "onExitCodes": {"operator": "In", "values": [3]}}]
    }
    pod = indexed_pod(case, 0, "a", 0, 0, "Failed")
    pod["status"]["containerStatuses"] = [{"name": "x", "state": {"terminated": {"exitCode": 3}}}]
    case["pods"] = [pod]
    message = "Container x for pod default/mypod-0 failed with exit code 3 matching FailJob rule at index 0"
    case["expect"]["status"] = _blpi_status(failed=1, failedIndexes="")
    case["expect"]["conditions"] = [_pfp_failure("FailureTarget", message), _pfp_failure("Failed", message)]


def _blpi_gate_disabled(case: Json) -> None:
    # "job with finished indexes; failedIndexes are cleaned when JobBackoffLimitPerIndex disabled".
    case["features"] = {"JobBackoffLimitPerIndex": False, "JobManagedBy": False}
    case["job"]["spec"].update(parallelism=3, completions=3)
    case["job"]["status"] = {"failedIndexes": "0", "completedIndexes": "1"}
    case["pods"] = [indexed_pod(case, 0, "c", 2, 1, "Pending")]
    case["expect"]["status"] = _blpi_status(active=2, succeeded=1, completedIndexes="1")
    case["expect"]["conditions"] = []


def _blpi_failed_indexes_old_gates(case: Json) -> None:
    # Row as "job failed due to failed indexes; JobManagedBy enabled" with JobManagedBy off too.
    case["features"] = {"JobPodReplacementPolicy": False, "JobManagedBy": False}
    case["expect"]["conditions"] = [_cond("Failed", FAILED_INDEXES)]


# --- TestJobBackoffForOnFailure


def _on_failure(restart_counts: list[int], phase: str, status: Json, conditions: list[Json],
                features: Json | None = None, **spec: Any) -> Callable[[Json], None]:
    def edit(case: Json) -> None:
        if features is not None:
            case["features"] = features
        case["job"]["spec"].update(spec)
        case["pods"] = phase_pods(case, phase, restart_counts)
        case["expect"]["status"] = status
        case["expect"]["conditions"] = conditions

    return edit


def _counts(active: int = 0, succeeded: int = 0, failed: int = 0) -> Json:
    return {"active": active, "succeeded": succeeded, "failed": failed}


# --- TestJobBackoffOnRestartPolicyNever


def _never(failed: int, active: int, active_phase: str, status: Json, conditions: list[Json],
           **spec: Any) -> Callable[[Json], None]:
    def edit(case: Json) -> None:
        case["job"]["spec"].update(spec)
        case["pods"] = never_pods(case, failed, active, active_phase)
        case["expect"]["status"] = status
        case["expect"]["conditions"] = conditions

    return edit


# --- TestSyncJobWhenManagedBy and TestSyncJobUpdateRequeue


def _managed_by(value: str, features: Json) -> Callable[[Json], None]:
    def edit(case: Json) -> None:
        # Same wantStatus as "job without the managedBy; feature enabled; the status is updated".
        case["features"] = features
        case["job"]["spec"]["managedBy"] = value
    return edit


def _update_error(message: str) -> Callable[[Json], None]:
    def edit(case: Json) -> None:
        # The status update fails: processNextWorkItem requeues with rate limit (wantRequeued).
        case["controller"] = {"statusUpdateError": message}
        case["expect"] = {"error": True}
    return edit


def _api_backoff_reset(pod_control_error: str | None) -> Callable[[Json], None]:
    def edit(case: Json) -> None:
        # newJob(1, 1, 2): the first processNextWorkItem fails on the pod control error (the key is
        # requeued, NumRequeues 1); the second, without it, succeeds (the queue is emptied). The
        # second starts as afresh: the failed creation was observed, the cache holds the same Job.
        case["job"]["spec"].update(parallelism=1, completions=1, backoffLimit=2)
        if pod_control_error is not None:
            case["controller"] = {"podControlError": pod_control_error}
        case["expect"] = {"error": pod_control_error is not None}
    return edit


PFP = "TestSyncJobWithJobPodFailurePolicy"
SP = "TestSyncJobWithJobSuccessPolicy"
BLPI = "TestSyncJobWithJobBackoffLimitPerIndex"
ONF = "TestJobBackoffForOnFailure"
NEVER = "TestJobBackoffOnRestartPolicyNever"
SP_SOME_FAIL = (
    "job with successPolicy; jobPodReplacementPolicy feature enabled; job has SuccessCriteriaMet condition if "
    "job meets to successPolicy and some indexes fail"
)
BLPI_BASE = "successful job after a single failure within index"
MAX = 2147483647

# (upstream test, new subtest, the shared subtest of the same test it is derived from, or a shared
# case's whole name, the changes)
DERIVED: list[tuple[str, str, str, Callable[[Json], None]]] = [
    ("TestSyncJobPastDeadline", "activeDeadlineSeconds exceeded; JobManagedBy enabled",
     "activeDeadlineSeconds exceeded; JobPodReplacementPolicy enabled", _deadline_managed_by),
    (PFP, "default handling for pod failure if the container matching the exit codes does not match the "
     "containerName restriction", "default handling job based on OnExitCodes with NotIn operator", _pfp_container_name),
    (PFP, "job marked already as failure target with failed pod", "fail job based on OnExitCodes",
     _pfp_already_failure_target(PFP_EXIT_5)),
    (PFP, "job marked already as failure target with failed pod, message based on already deleted pod",
     "fail job based on OnExitCodes", _pfp_already_failure_target(PFP_DELETED_POD)),
    (PFP, "fail job with multiple pods; JobManagedBy enabled delays setting terminal condition",
     "fail job with multiple pods", _pfp_multiple_managed_by),
    (PFP, "fail job based on OnExitCodes with NotIn operator", "default handling job based on OnExitCodes with NotIn operator",
     _pfp_not_in_fails),
    (PFP, "default job based on OnExitCodes",
     "default job based on OnExitCodes; JobManagedBy enabled triggers adding interim condition", _pfp_default_job),
    (SP, SP_SOME_FAIL.replace("feature enabled", "feature disabled"), SP_SOME_FAIL, _sp_replacement_disabled),
    (SP, "job with successPolicy and podFailurePolicy; jobPodReplacementPolicy feature enabled; job with "
     "SuccessCriteriaMet has never been transitioned to FailureTarget and Failed even if job meets podFailurePolicy",
     "job with successPolicy and backoffLimit; jobPodReplacementPolicy feature enabled; job with SuccessCriteriaMet "
     "has never been transitioned to FailureTarget and Failed even if job meets backoffLimit", _sp_criteria_met_then_pfp),
    (SP, "when the JobSuccessPolicy is disabled, the Job never got SuccessCriteriaMet condition even if the Job has "
     "the successPolicy field", SP_SOME_FAIL, _sp_gate_disabled),
    (BLPI, "single failed pod, not counted as the replacement pod creation is delayed", BLPI_BASE,
     _blpi(_blpi_pods(("a", 0, 0, "Failed")), _blpi_status(active=2, failedIndexes=""), [])),
    (BLPI, "single failed pod replaced already", BLPI_BASE,
     _blpi(_blpi_pods(("a", 0, 0, "Failed"), ("b", 0, 1, "Pending")), _blpi_status(active=2, failed=1, failedIndexes=""), [])),
    (BLPI, "single failed index due to exceeding the backoff limit per index, the job continues", BLPI_BASE,
     _blpi(_blpi_pods(("a", 0, 1, "Failed")), _blpi_status(active=1, failed=1, failedIndexes="0"), [])),
    (BLPI, "job failed index due to FailJob action", BLPI_BASE, _blpi_fail_job),
    (BLPI, "job failed due to failed indexes", BLPI_BASE,
     _blpi(_blpi_pods(("a", 0, 1, "Failed"), ("b", 1, 0, "Succeeded")),
           _blpi_status(succeeded=1, failed=1, failedIndexes="0", completedIndexes="1"),
           [_cond("FailureTarget", FAILED_INDEXES), _cond("Failed", FAILED_INDEXES)])),
    (BLPI, "job with finished indexes; failedIndexes are cleaned when JobBackoffLimitPerIndex disabled", BLPI_BASE,
     _blpi_gate_disabled),
    (BLPI, "job failed due to failed indexes; JobPodReplacementPolicy and JobManagedBy disabled",
     "job failed due to failed indexes; JobManagedBy enabled", _blpi_failed_indexes_old_gates),
    (ONF, "backoffLimit 1 with restartCount 0 should have 1 pod active", "backoffLimit 0 should have 1 pod active",
     _on_failure([0], "Running", _counts(active=1), [], backoffLimit=1)),
    (ONF, "backoffLimit 1 with restartCount 1 and podRunning should have 0 pod active",
     "backoffLimit 0 should have 1 pod active",
     _on_failure([1], "Running", _counts(failed=1), [_cond("Failed", BACKOFF_EXCEEDED)], backoffLimit=1)),
    (ONF, "too many job failures with podRunning - multiple pods", "backoffLimit 0 should have 1 pod active",
     _on_failure([1, 1], "Running", _counts(failed=2), [_cond("Failed", BACKOFF_EXCEEDED)],
                 parallelism=2, completions=5, backoffLimit=2)),
    (ONF, "suspending a job", "backoffLimit 0 should have 1 pod active",
     _on_failure([1, 1], "Running", _counts(),
                 [{"type": "Suspended", "status": "True", "reason": "JobSuspended", "message": "Job suspended"}],
                 parallelism=2, completions=4, backoffLimit=6, suspend=True)),
    (ONF, "finished job; JobManagedBy enabled", "finished job",
     _on_failure([1, 1, 2, 0], "Succeeded", _counts(succeeded=4),
                 [_cond("SuccessCriteriaMet", COMPLETIONS_REACHED), _cond("Complete", COMPLETIONS_REACHED)],
                 features={"JobPodReplacementPolicy": False, "JobManagedBy": True})),
    (ONF, "too many job failures with podRunning - multiple pods; JobPodReplacementPolicy enabled",
     "backoffLimit 0 should have 1 pod active",
     _on_failure([1, 1], "Running", _counts(failed=2), [_cond("FailureTarget", BACKOFF_EXCEEDED)],
                 features={"JobManagedBy": False}, parallelism=2, completions=5, backoffLimit=2)),
    (NEVER, "not enough failures with backoffLimit 6 - multiple pods", "not enough failures with backoffLimit 0 - single pod",
     _never(6, 1, "Running", _counts(active=2, failed=6), [], parallelism=2, completions=2, backoffLimit=6)),
    (NEVER, "too many failures with backoffLimit 6 - multiple pods", "not enough failures with backoffLimit 0 - single pod",
     _never(7, 0, "Running", _counts(failed=7), [_cond("FailureTarget", BACKOFF_EXCEEDED), _cond("Failed", BACKOFF_EXCEEDED)],
            parallelism=2, completions=2, backoffLimit=6)),
    ("TestSyncJobWhenManagedBy", "job with well known value of the managedBy; feature enabled; the status is updated",
     "job without the managedBy; feature enabled; the status is updated",
     _managed_by("kubernetes.io/job-controller", {"JobManagedBy": True})),
    ("TestSyncJobWhenManagedBy", "job with custom value of managedBy; feature disabled; the status is updated",
     "job without the managedBy; feature enabled; the status is updated",
     _managed_by("custom-managed-by", {"JobManagedBy": False})),
    ("TestSyncJobUpdateRequeue", "generic error", "no error", _update_error("update error")),
    # apierrors.NewConflict(schema.GroupResource{}, "", nil).Error(); syncJob treats it as any error.
    ("TestSyncJobUpdateRequeue", "conflict error", "no error", _update_error('Operation cannot be fulfilled on  "": <nil>')),
    ("TestJobApiBackoffReset", "(single case) first sync: a pod control error requeues the key",
     "TestSyncJobUpdateRequeue: no error", _api_backoff_reset("Controller error")),
    ("TestJobApiBackoffReset", "(single case) second sync: no error, the queue is emptied",
     "TestSyncJobUpdateRequeue: no error", _api_backoff_reset(None)),
]

# Not translated: TestJobBackoff "failure with pod updates batching" drives the updatePod event
# handler (the requeue delay of a pod update), not syncJob; TestTrackJobStatusAndRemoveFinalizers
# calls trackJobStatusAndRemoveFinalizers on a hand-built syncJobCtx (a Job without a spec, a
# given finishedCondition and expectedRmFinalizers) and checks each status write: one syncJob
# would run manageJob before it and write other statuses.


def derived_cases(shared_policies: Path) -> list[Json]:
    """The DERIVED cases, from the shared job_sync_policies.json."""
    shared = {c["name"]: c for c in json.loads(shared_policies.read_text())["cases"]}
    out = []
    for test, name, sibling, edit in DERIVED:
        # A sibling of another test is given by its whole name.
        case = copy.deepcopy(shared[sibling if sibling.startswith("Test") else f"{test}: {sibling}"])
        case["name"] = f"{test}: {name}"
        case["origin"] = f"{TEST_FILE} {test}: {name}"
        edit(case)
        out.append(case)
    return out
