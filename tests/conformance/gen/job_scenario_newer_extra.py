"""Writes tests/conformance/vectors/job_scenario_newer_extra.json: the tests of upstream's
test/integration/job/job_test.go that a release after v1.32.3 added, each pinned (`kubeVersion`)
to the earliest harness release whose test has it in that form, in job_scenario_extra.json's
style (its helpers). The expectations are the tests' own assertions; where a test checks that
`status.startTime` is set, the scenario's clock stands still, so it is the clock at the Job's
creation.

    .venv/bin/python -m tests.conformance.gen.job_scenario_newer_extra
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conformance.gen.job_scenario_extra import (
    DEFAULT_TEMPLATE,
    START,
    Step,
    case,
    condition,
    settle,
)

OUT = Path(__file__).parents[1] / "vectors" / "job_scenario_newer_extra.json"
TEST_FILE = "test/integration/job/job_test.go"
PINS = {"1.33": "v1.33.13", "1.34": "v1.34.4", "1.35": "v1.35.4", "1.36": "v1.36.3", "1.37": "v1.37.2"}
# createJobWithDefaults' container as the API server defaults it (SetDefaults_Container).
CONTAINER_DEFAULTS = {"terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}


def pinned(release: str, name: str, namespace: str, spec: dict[str, Any], steps: list[Step],
           features: dict[str, bool] | None = None) -> dict[str, Any]:
    """A job_scenario_extra case of `release`'s test `name`."""
    c = case(name, namespace, spec, steps, features=features)
    head = {"name": f"{name} ({release})", "origin": f"kubernetes {TEST_FILE} at {PINS[release]} {name}",
            "kubeVersion": release}
    return {**head, **{k: v for k, v in c.items() if k not in head}}


def status_only(active: int, **more: Any) -> Step:
    """validateJobsPodsStatusOnly with Ready and Terminating 0, and further status fields."""
    return {"do": "expect", "status": {"active": active, "ready": 0, "terminating": 0, **more}}


def suspended(status: str) -> Step:
    """getJobConditionStatus(JobSuspended)."""
    return {"do": "expect", "conditionsInclude": [{"type": "Suspended", "status": status}]}


def update(patch: dict[str, Any], *, rejected: bool = False) -> Step:
    step: Step = {"do": "updateJob", "patch": patch}
    if rejected:
        step["rejected"] = True
    return step


def suspend(value: bool) -> Step:
    return update({"spec": {"suspend": value}})


def suspend_zero_completions() -> dict[str, Any]:
    """TestSuspendJobWithZeroCompletions (added in v1.33)."""
    return pinned(
        "1.33", "TestSuspendJobWithZeroCompletions", "suspended-with-zero-completions",
        {"completions": 0, "suspend": True, "template": DEFAULT_TEMPLATE},
        [settle(), condition("SuccessCriteriaMet"), condition("Complete")],
    )


def start_time_update_on_resume() -> dict[str, Any]:
    """TestStartTimeUpdateOnResume (added in v1.33; v1.37 changed only a helper's signature)."""
    return pinned(
        "1.33", "TestStartTimeUpdateOnResume", "suspend-starttime-validation",
        {"parallelism": 1, "completions": 2, "suspend": False, "template": DEFAULT_TEMPLATE},
        [
            settle(), status_only(1, startTime=START),
            suspend(True), settle(), status_only(0), suspended("True"),
            suspend(False), settle(), status_only(1, startTime=START), suspended("False"),
        ],
        features={"JobManagedBy": True},
    )


def mutable_scheduling_directives() -> dict[str, Any]:
    """TestMutableSchedulingDirectivesForSuspendedJobs (added in v1.35): with the gate on,
    suspending a started Job clears startTime, and its nodeSelector may then change."""
    node_selector = {"spec": {"template": {"spec": {"nodeSelector": {"key": "value"}}}}}
    return pinned(
        "1.35", "TestMutableSchedulingDirectivesForSuspendedJobs", "mutable-scheduling-directives-for-suspended-jobs",
        {"parallelism": 1, "completions": 2, "suspend": False, "template": DEFAULT_TEMPLATE},
        [
            settle(), status_only(1, startTime=START),
            update(node_selector, rejected=True),
            suspend(True), settle(), status_only(0, startTime=None), suspended("True"),
            update(node_selector),
            suspend(False), settle(), status_only(1, startTime=START), suspended("False"),
        ],
        features={"MutableSchedulingDirectivesForSuspendedJobs": True},
    )


RESOURCES = {"requests": {"cpu": "200m", "memory": "256Mi"}, "limits": {"cpu": "400m", "memory": "512Mi"}}


def update_job_pod_resources() -> list[dict[str, Any]]:
    """TestUpdateJobPodResources (added in v1.35), its four subtests: an update of the container's
    resources is accepted only where the test expects it (an unexpected failure fails the test;
    otherwise the pod shows the update did not happen); the one pod then has the resources or none."""
    container = {"name": "test-container", "image": "busybox"}
    template = {"spec": {"containers": [container], "restartPolicy": "Never"}}
    resources = {"spec": {"template": {"spec": {"containers": [{**container, "resources": RESOURCES}]}}}}
    # (subtest, namespace, gate, suspend, startThenSuspend, expectUpdate)
    rows = [
        ("suspended job, feature gate enabled, update resources", True, True, False, True),
        ("non-suspended job, feature gate enabled, update resources", True, False, False, False),
        ("suspended job, feature gate disabled, update resources", False, True, False, False),
        ("started then suspended job, feature gate enabled, update resources", True, False, True, True),
    ]
    out = []
    for subtest, gate, suspend_at_start, start_then_suspend, expect_update in rows:
        steps: list[Step] = []
        if start_then_suspend:
            steps += [settle(), {"do": "expect", "status": {"active": 1}}, suspend(True), settle()]
        elif suspend_at_start:
            # v1.35 allows the change only once the Job has the Suspended condition (strategy.go
            # PrepareForUpdate: AllowMutablePodResources); the test passes when the controller has
            # synced the new Job before its update, as it is here (v1.36 added
            # TestMutablePodResourcesForSuspendedJobsNotYetStarted for the other order).
            steps.append(settle())
        # waitForPodsToBeActive(0): a running Job before its first sync, or a suspended one.
        steps.append({"do": "expect", "status": {"active": 0}})
        steps.append(update(resources, rejected=not expect_update))
        if suspend_at_start or start_then_suspend:
            steps.append(suspend(False))
        want = {**container, **CONTAINER_DEFAULTS, "imagePullPolicy": "Always",
                "resources": RESOURCES if expect_update else {}}
        steps += [
            settle(),
            {
                "do": "expect",
                "status": {"active": 1},
                "podCount": [{"where": {}, "count": 1}],
                "podsMatch": [{"where": {}, "match": {"spec": {"containers": [want]}}}],
            },
        ]
        out.append(pinned(
            "1.35", f"TestUpdateJobPodResources: {subtest}", "update-job-pod-resources",
            {"parallelism": 1, "completions": 1, "suspend": suspend_at_start, "template": template},
            steps, features={"MutablePodResourcesForSuspendedJobs": gate},
        ))
    return out


def not_yet_started() -> list[dict[str, Any]]:
    """TestMutableSchedulingDirectivesForSuspendedJobsNotYetStarted and
    TestMutablePodResourcesForSuspendedJobsNotYetStarted (added in v1.36): a suspended Job updated
    at once, before the controller has synced it, accepts the change."""
    spec = {"parallelism": 1, "completions": 1, "suspend": True, "template": DEFAULT_TEMPLATE}
    container = DEFAULT_TEMPLATE["spec"]["containers"][0]
    resources = {"requests": {"cpu": "200m", "memory": "256Mi"}}
    return [
        pinned(
            "1.36", "TestMutableSchedulingDirectivesForSuspendedJobsNotYetStarted", "mutable-scheduling-directives-not-started",
            spec, [update({"spec": {"template": {"spec": {"nodeSelector": {"foo": "bar"}}}}})],
            features={"MutableSchedulingDirectivesForSuspendedJobs": True},
        ),
        pinned(
            "1.36", "TestMutablePodResourcesForSuspendedJobsNotYetStarted", "mutable-pod-resources-not-started",
            spec, [update({"spec": {"template": {"spec": {"containers": [{**container, "resources": resources}]}}}})],
            features={"MutablePodResourcesForSuspendedJobs": True},
        ),
    ]


def build() -> dict[str, Any]:
    return {
        "format": "jobmodel-conformance/1",
        "suite": "job-scenario",
        "source": (
            "kubernetes/kubernetes test/integration/job/job_test.go at the releases each case's kubeVersion "
            "names: the tests added after v1.32.3 that the format can state; generated by "
            "tests/conformance/gen/job_scenario_newer_extra.py"
        ),
        "cases": [
            suspend_zero_completions(),
            start_time_update_on_resume(),
            mutable_scheduling_directives(),
            *update_job_pod_resources(),
            *not_yet_started(),
        ],
    }


def render() -> str:
    return json.dumps(build(), indent=1) + "\n"


if __name__ == "__main__":
    OUT.write_text(render())
