"""Writes job_scenario_extra.json: the subtests of upstream's test/integration/job/job_test.go
(commit 003e86297d18a8538c9da3619871393f9703bf70; these tests read the same at v1.32.3) that the
shared job_scenario.json withholds, translated in its style. Each helper below is one upstream
test helper; the expectations are the tests' own assertions.

Run `.venv/bin/python -m tests.conformance.gen.job_scenario_extra` to rewrite the file.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

Step = dict[str, Any]

OUT = Path(__file__).parents[1] / "vectors" / "job_scenario_extra.json"
START = "2024-06-01T12:00:00Z"
ACTIVE = ["Pending", "Running"]
JOB_NAME = "test-jobx7k2p"
BLOCK = "fake.example.com/blockDeletion"
FAST = {"podFailureBackOffSeconds": 0.1}  # fastPodFailureBackoff (100 ms)
MAIN_CONTAINER_TEMPLATE = {
    "spec": {
        "containers": [
            {
                "name": "main-container",
                "image": "foo",
                "imagePullPolicy": "IfNotPresent",
                "terminationMessagePolicy": "FallbackToLogsOnError",
            }
        ],
        "restartPolicy": "Never",
    }
}
DEFAULT_TEMPLATE: dict[str, Any] = {"spec": {"containers": [{"name": "foo", "image": "bar"}], "restartPolicy": "Never"}}  # createJobWithDefaults


def at(seconds: int) -> str:
    return f"2024-06-01T12:00:{seconds:02d}Z"


def case(
    name: str,
    namespace: str,
    spec: dict[str, Any],
    steps: list[Step],
    *,
    features: dict[str, bool] | None = None,
    controller: dict[str, float] | None = None,
    gc: bool = False,
    test_file: str = "test/integration/job/job_test.go",
) -> dict[str, Any]:
    c: dict[str, Any] = {"name": name, "origin": f"kubernetes {test_file} {name}"}
    if features:
        c["features"] = features
    c["start"] = START
    c["job"] = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": JOB_NAME, "namespace": namespace}, "spec": spec}
    c["jobUid"] = str(uuid.uuid5(uuid.NAMESPACE_URL, "jobmodel/job-scenario-extra/" + name))
    if controller:
        c["controller"] = controller
    if gc:
        c["garbageCollector"] = True
    c["steps"] = steps
    return c


def settle() -> Step:
    return {"do": "settle"}


def advance(seconds: int = 1) -> Step:
    return {"do": "advance", "seconds": seconds}


def restart() -> Step:
    return {"do": "restartController"}


def pods_status(active: int, *, succeeded: int = 0, failed: int = 0, terminating: int | None = 0) -> Step:
    """validateJobPodsStatus: the status counters, then the active pods, each with the tracking finalizer."""
    status = {"active": active, "ready": 0, "succeeded": succeeded, "failed": failed, "terminating": terminating}
    return {
        "do": "expect",
        "status": status,
        "podCount": [
            {"where": {"phase": ACTIVE}, "count": active},
            {"where": {"phase": ACTIVE, "finalizer": False}, "count": 0},
        ],
    }


def status_only(active: int, *, failed: int, terminating: int | None) -> Step:
    """validateJobsPodsStatusOnly."""
    return {"do": "expect", "status": {"active": active, "ready": 0, "succeeded": 0, "failed": failed, "terminating": terminating}}


def indexed_pods(step: Step, active: list[int], completed: str, failed: str | None) -> Step:
    """validateIndexedJobPods, merged into the validateJobPodsStatus expect before it."""
    step["status"]["completedIndexes"] = completed
    step["status"]["failedIndexes"] = failed
    step["activeIndexes"] = active
    if active:
        step["podsMatch"] = [
            {
                "where": {"phase": ACTIVE, "index": ix},
                "match": {
                    "metadata": {"labels": {"batch.kubernetes.io/job-completion-index": str(ix)}},
                    "spec": {"hostname": f"{JOB_NAME}-{ix}"},
                },
            }
            for ix in active
        ]
    return step


def condition(ctype: str) -> Step:
    """validateJobCondition (validateJobComplete, validateJobFailed)."""
    return {"do": "expect", "conditionsInclude": [{"type": ctype, "status": "True"}]}


def finished_metric(ctype: str, reason: str) -> Step:
    """validateCounterMetric(JobFinishedNum, [mode, result, reason]): recordJobFinished labels the
    metric with the reason of the Job's finished condition."""
    return {"do": "expect", "conditionsInclude": [{"type": ctype, "status": "True", "reason": reason}]}


def pods_created(n: int) -> Step:
    """validateCounterMetric(JobPodsCreationTotal) summed: n pods created, none gone (the test's
    blocking finalizer keeps the deleted ones)."""
    return {"do": "expect", "podCount": [{"where": {}, "count": n}]}


def finished_pods_no_finalizer() -> Step:
    """validateFinishedPodsNoFinalizer (it looks at the Job's Pending and Running pods)."""
    return {"do": "expect", "podCount": [{"where": {"phase": ACTIVE, "finalizer": True}, "count": 0}]}


def no_orphan_pods_with_finalizers() -> Step:
    """validateNoOrphanPodsWithFinalizers."""
    return {"do": "expect", "podCount": [{"where": {"finalizer": True}, "count": 0}]}


def set_phase(phase: str, count: int | None, now: str, index: int | None = None) -> Step:
    """setJobPodsPhase / setJobPhaseForIndex: the phase and, when terminal, a container finished now."""
    where: dict[str, Any] = {"phase": ACTIVE}
    if index is not None:
        where["index"] = index
    status: dict[str, Any] = {"phase": phase}
    if phase in ("Failed", "Succeeded"):
        status["containerStatuses"] = [{"name": "", "state": {"terminated": {"exitCode": 0, "finishedAt": now}}}]
    step: Step = {"do": "setPods", "where": where, "status": status}
    if count is not None:
        step["count"] = count
    return step


def set_status(status: dict[str, Any], index: int | None = None) -> Step:
    """updateJobPodsStatus(op, 1) / getActivePodForIndex + UpdateStatus: one pod's status replaced."""
    where: dict[str, Any] = {"phase": ACTIVE}
    if index is not None:
        where["index"] = index
    return {"do": "setPods", "where": where, "count": 1, "status": status}


def exit_code(code: int) -> dict[str, Any]:
    return {"phase": "Failed", "containerStatuses": [{"name": "main-container", "state": {"terminated": {"exitCode": code}}}]}


def pod_failure_policy() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    spec = {
        "template": MAIN_CONTAINER_TEMPLATE,
        "podFailurePolicy": {
            "rules": [
                {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]},
                {"action": "Count", "onExitCodes": {"operator": "In", "values": [10]}},
                {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [5, 6, 7]}},
            ]
        },
    }
    cases.append(
        case(
            "TestJobPodFailurePolicy: pod status matching the configured Count rule on exit codes; pod failure counted",
            "pod-failure-policy",
            spec,
            [
                settle(),
                pods_status(1),
                set_status(exit_code(10)),
                settle(),
                advance(),
                settle(),
                pods_status(1, failed=1),
                set_phase("Succeeded", 1, at(1)),
                settle(),
                condition("Complete"),
                finished_metric("Complete", "CompletionsReached"),
                finished_pods_no_finalizer(),
            ],
            controller=FAST,
        )
    )
    windows = {
        "template": MAIN_CONTAINER_TEMPLATE,
        "podFailurePolicy": {"rules": [{"action": "FailJob", "onExitCodes": {"operator": "In", "values": [-1073741510, 137]}}]},
    }
    cases.append(
        case(
            "TestJobPodFailurePolicy: pod status matching the configured FailJob rule on a negative exit code - needed for Windows support",
            "pod-failure-policy",
            windows,
            [
                settle(),
                pods_status(1),
                set_status(exit_code(-1073741510)),
                settle(),
                pods_status(0, failed=1),
                condition("Failed"),
                finished_metric("Failed", "PodFailurePolicy"),
                finished_pods_no_finalizer(),
            ],
            controller=FAST,
        )
    )
    return cases


def success_policy() -> list[dict[str, Any]]:
    features = {"JobSuccessPolicy": True, "JobBackoffLimitPerIndex": False}

    def spec(n: int, rule: dict[str, str] | None) -> dict[str, Any]:
        s: dict[str, Any] = {"parallelism": n, "completions": n, "completionMode": "Indexed", "template": MAIN_CONTAINER_TEMPLATE}
        if rule is not None:
            s["successPolicy"] = {"rules": [rule]}
        return s

    cases = [
        case(
            name,
            "success-policy",
            spec(1, rule),
            [
                settle(),
                pods_status(1),
                set_status({"phase": "Succeeded"}, index=0),
                settle(),
                indexed_pods(pods_status(0, succeeded=1), [], "0", None),
                condition("SuccessCriteriaMet"),
                condition("Complete"),
                finished_metric("Complete", reason),
                finished_pods_no_finalizer(),
            ],
            features=features,
        )
        for name, rule, reason in [
            ("TestSuccessPolicy: all indexes succeeded; JobSuccessPolicy is enabled", {"succeededIndexes": "0"}, "SuccessPolicy"),
            (
                "TestSuccessPolicy: job without successPolicy; incremented the jobs_finished_total metric with CompletionsReached reason",
                None,
                "CompletionsReached",
            ),
        ]
    ]
    cases.append(
        case(
            "TestSuccessPolicy: job with successPolicy with succeededIndexes; job has SuccessCriteriaMet and Complete conditions even if some indexes remain pending",
            "success-policy",
            spec(2, {"succeededIndexes": "1"}),
            [
                settle(),
                pods_status(2),
                set_status({"phase": "Pending"}, index=0),
                settle(),
                indexed_pods(pods_status(2), [0, 1], "", None),
                set_status({"phase": "Succeeded"}, index=1),
                settle(),
                indexed_pods(pods_status(0, succeeded=1), [], "1", None),
                condition("SuccessCriteriaMet"),
                condition("Complete"),
                finished_metric("Complete", "SuccessPolicy"),
                finished_pods_no_finalizer(),
            ],
            features=features,
        )
    )
    return cases


def delay_terminal_phase_condition() -> dict[str, Any]:
    terminal = {
        "do": "expect",
        "status": {"active": 0, "ready": 0, "succeeded": 0, "failed": 2, "terminating": None, "completedIndexes": "", "failedIndexes": None},
        "conditions": [{"type": "Failed", "status": "True", "reason": "BackoffLimitExceeded"}],
    }
    return case(
        "TestDelayTerminalPhaseCondition: job backoff limit exceeded; JobPodReplacementPolicy and JobManagedBy disabled",
        "delay-terminal-condition",
        {"parallelism": 2, "completions": 2, "backoffLimit": 0, "template": {**MAIN_CONTAINER_TEMPLATE, "metadata": {"finalizers": [BLOCK]}}},
        [settle(), {"do": "expect", "status": {"active": 2}}, set_phase("Failed", 1, at(0)), settle(), terminal],
        features={"JobPodReplacementPolicy": False, "JobManagedBy": False, "ElasticIndexedJob": True, "JobSuccessPolicy": False},
        controller=FAST,
    )


def backoff_limit_per_index() -> dict[str, Any]:
    return case(
        "TestBackoffLimitPerIndex: job continues execution after a failed index, the job is marked Failed due to the failed index",
        "backoff-limit-per-index",
        {"parallelism": 2, "completions": 2, "completionMode": "Indexed", "backoffLimitPerIndex": 0, "template": MAIN_CONTAINER_TEMPLATE},
        [
            settle(),
            pods_status(2),
            set_status({"phase": "Failed"}, index=0),
            settle(),
            indexed_pods(pods_status(1, failed=1), [1], "", "0"),
            set_status({"phase": "Succeeded"}, index=1),
            settle(),
            indexed_pods(pods_status(0, succeeded=1, failed=1), [], "1", "0"),
            condition("Failed"),
            finished_pods_no_finalizer(),
        ],
        features={"JobBackoffLimitPerIndex": True},
        controller=FAST,
    )


def managed_by() -> list[dict[str, Any]]:
    untouched = {
        "do": "expect",
        "status": {
            "active": 0,
            "succeeded": 0,
            "failed": 0,
            "ready": None,
            "terminating": None,
            "completedIndexes": "",
            "failedIndexes": None,
            "startTime": None,
            "completionTime": None,
            "uncountedTerminatedPods": None,
        },
        "conditions": [],
    }
    template = {"spec": {"containers": [{"name": "main-container", "image": "foo"}], "restartPolicy": "Never"}}
    return [
        case(
            f"TestManagedBy: the Job controller does not reconcile {which} with the custom value of managedBy",
            "managed-by",
            {"suspend": suspend, "template": template, "managedBy": "example.com/custom-job-controller"},
            [settle(), untouched],
            features={"JobManagedBy": True},
        )
        for suspend, which in [(False, "an unsuspended"), (True, "a suspended")]
    ]


def non_parallel_job() -> dict[str, Any]:
    return case(
        "TestNonParallelJob",
        "simple",
        {"template": DEFAULT_TEMPLATE},
        [
            settle(),
            pods_status(1),
            restart(),
            set_phase("Failed", 1, at(0)),
            settle(),
            advance(),
            settle(),
            pods_status(1, failed=1),
            restart(),
            set_phase("Succeeded", 1, at(1)),
            settle(),
            condition("Complete"),
            pods_status(0, succeeded=1, failed=1),
            finished_pods_no_finalizer(),
            finished_metric("Complete", "CompletionsReached"),
        ],
        controller=FAST,
    )


def pod_replacement_policy() -> list[dict[str, Any]]:
    prefix = "TestJobPodReplacementPolicy: "
    suffix = ", delete & fail pods, recreate terminating pods, and verify job status counters"
    table: list[tuple[str, bool, str, str | None, int | None, int | None]] = [
        ("feature flag off", False, "Indexed", None, None, None),
        ("feature flag true with IndexedJob, TerminatingOrFailed policy", True, "Indexed", "TerminatingOrFailed", 2, 0),
        ("feature flag true with NonIndexedJob, TerminatingOrFailed policy", True, "NonIndexed", "TerminatingOrFailed", 2, 0),
    ]
    cases = []
    for name, enabled, mode, policy, terminating_after_deletion, terminating_after_failure in table:
        spec: dict[str, Any] = {
            "parallelism": 2,
            "completions": 2,
            "completionMode": mode,
            "template": {"metadata": {"finalizers": [BLOCK]}, **DEFAULT_TEMPLATE},
        }
        if policy:
            spec["podReplacementPolicy"] = policy
        steps = [
            settle(),
            {"do": "expect", "status": {"active": 2}},  # waitForPodsToBeActive
            {"do": "deletePods"},
            settle(),
            advance(),
            settle(),
            status_only(2, failed=2, terminating=terminating_after_deletion),
            {"do": "setPods", "where": {"terminating": True}, "status": {"phase": "Failed"}},  # failTerminatingPods
            settle(),
            advance(),
            settle(),
            status_only(2, failed=2, terminating=terminating_after_failure),
            pods_created(4),
        ]
        cases.append(case(prefix + name + suffix, "pod-replacement-policy", spec, steps, features={"JobPodReplacementPolicy": enabled}, controller=FAST))
    return cases


def elastic_indexed_job() -> dict[str, Any]:
    return case(
        "TestElasticIndexedJob: scale down to 0, verify that the job succeeds",
        "indexed",
        {"parallelism": 3, "completions": 3, "completionMode": "Indexed", "template": DEFAULT_TEMPLATE},
        [
            settle(),
            {"do": "expect", "status": {"active": 3}},
            {"do": "updateJob", "patch": {"spec": {"completions": 0, "parallelism": 0}}},
            settle(),
            indexed_pods(pods_status(0), [], "", None),
            condition("Complete"),
        ],
    )


def orphan_pods_finalizers_cleared_with_gc() -> list[dict[str, Any]]:
    return [
        case(
            f"TestOrphanPodsFinalizersClearedWithGC: {policy}",
            "orphan-pod-finalizers",
            {"parallelism": 2, "template": DEFAULT_TEMPLATE},
            [settle(), pods_status(2), {"do": "deleteJob", "propagationPolicy": policy}, settle(), no_orphan_pods_with_finalizers()],
            gc=True,
        )
        for policy in ("Orphan", "Foreground")
    ]


def past_deadline_job_finished() -> list[dict[str, Any]]:
    """TestPastDeadlineJobFinished, a unit test that runs the controller with a fake clock against a
    fake clientset: the start time is set, then DeadlineExceeded comes no earlier than
    activeDeadlineSeconds after it. The API server drops a status given at create (the fake
    clientset keeps it), so both subtests read the same."""
    return [
        case(
            f"TestPastDeadlineJobFinished: {name}",
            "default",
            {"parallelism": 1, "completions": 1, "backoffLimit": 6, "activeDeadlineSeconds": 1, "template": DEFAULT_TEMPLATE},
            [
                settle(),
                {"do": "expect", "status": {"startTime": START}, "conditions": []},
                advance(),
                settle(),
                {"do": "expect", "conditionsInclude": [{"type": "Failed", "status": "True", "reason": "DeadlineExceeded"}]},
            ],
            test_file="pkg/controller/job/job_controller_test.go",
        )
        for name in ("New job created without start time being set", "New job created with start time being set")
    ]


def build() -> dict[str, Any]:
    cases = [
        *pod_failure_policy(),
        *success_policy(),
        delay_terminal_phase_condition(),
        backoff_limit_per_index(),
        *managed_by(),
        non_parallel_job(),
        *pod_replacement_policy(),
        elastic_indexed_job(),
        *orphan_pods_finalizers_cleared_with_gc(),
        *past_deadline_job_finished(),
    ]
    return {
        "format": "jobmodel-conformance/1",
        "suite": "job-scenario",
        "source": (
            "kubernetes/kubernetes test/integration/job/job_test.go at commit 003e86297d18a8538c9da3619871393f9703bf70 "
            "(these tests read the same at v1.32.3): the 16 translated (sub)tests that the shared job_scenario.json "
            "does not hold, in its style, and pkg/controller/job/job_controller_test.go TestPastDeadlineJobFinished (v1.32.3), which "
            "runs the controller against a fake clientset; the expectations are the tests' own assertions. Metric assertions are left out, "
            "but for jobs_finished_total, whose reason label is the reason of the Job's finished condition "
            "(recordJobFinished), and jobs_pods_creation_total, whose sum is the number of pods (none goes away: the "
            "test's blocking finalizer). Generated by tests/conformance/vectors/job_scenario_extra.py."
        ),
        "cases": cases,
    }


def render() -> str:
    return json.dumps(build(), indent=1) + "\n"


if __name__ == "__main__":
    OUT.write_text(render())
