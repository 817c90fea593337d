"""Writes tests/conformance/vectors/job_scenario_newer_extra.json: the tests of upstream's
test/integration/job/job_test.go that a release after v1.32.3 added, each pinned (`kubeVersion`)
to the earliest harness release whose test has it in that form, in job_scenario_extra.json's
style (its helpers). The expectations are the tests' own assertions; where a test checks that
`status.startTime` is set, the scenario's clock stands still, so it is the clock at the Job's
creation.

    .venv/bin/python -m tests.conformance.gen.job_scenario_newer_extra [SHARED_CONFORMANCE_DIR]
"""

from __future__ import annotations

import copy
import json
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conformance.gen import shared_dir_argument
from tests.conformance.gen.job_scenario_extra import (
    DEFAULT_TEMPLATE,
    START,
    Step,
    case,
    condition,
    set_phase,
    settle,
)
from tests.conformance.gen.job_scenario_extra import (
    OUT as EXTRA_OUT,
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


def pods_by_status(active: int = 0, failed: int = 0, succeeded: int = 0) -> Step:
    """validateJobsPodsStatusOnly: the five counts of podsByStatus, Ready and Terminating 0."""
    return status_only(active, failed=failed, succeeded=succeeded)


def immediate_job_recreation() -> dict[str, Any]:
    """TestImmediateJobRecreation (added in v1.33, v1.32.13): a Job whose pod failed, deleted in
    the background and created again at once; the replacement gets its pod at once, not after the
    first Job's pod-failure back-off (set to 2*ForeverTestTimeout, 60 s). The test makes three
    such Jobs only to make its race likely; one stands for them. `createJobWithDefaults` gives
    the template restartPolicy Never."""
    spec = {"completions": 1, "parallelism": 1, "template": {"spec": {
        "containers": [{"name": "main-container", "image": "foo"}], "restartPolicy": "Never"}}}
    recreate: Step = {"do": "createJob", "jobUid": str(
        uuid.uuid5(uuid.NAMESPACE_URL, "jobmodel/job-scenario-extra/TestImmediateJobRecreation/replacement"))}
    c = pinned("1.33", "TestImmediateJobRecreation", "recreate-job-immediately", spec, [
        settle(), pods_by_status(active=1),
        set_phase("Failed", 1, START), settle(), pods_by_status(failed=1),
        {"do": "deleteJob", "propagationPolicy": "Background"}, recreate,
        settle(), pods_by_status(active=1),
    ])
    c["job"]["metadata"]["name"] = "test-job-0"
    recreate["job"] = copy.deepcopy(c["job"])  # the same Job again
    c["controller"] = {"podFailureBackOffSeconds": 60}
    return c


RESOURCES = {"requests": {"cpu": "200m", "memory": "256Mi"}, "limits": {"cpu": "400m", "memory": "512Mi"}}


def update_job_pod_resources(release: str) -> list[dict[str, Any]]:
    """TestUpdateJobPodResources (added in v1.35), its four subtests: an update of the container's
    resources is accepted only where the test expects it (an unexpected failure fails the test;
    otherwise the pod shows the update did not happen); the one pod then has the resources or none.
    v1.36 changed the three subtests with a suspended Job: before the update they wait for the
    Suspended condition too (the non-suspended one reads as at v1.35 and is not repeated)."""
    container = {"name": "test-container", "image": "busybox"}
    template = {"spec": {"containers": [container], "restartPolicy": "Never"}}
    resources = {"spec": {"template": {"spec": {"containers": [{**container, "resources": RESOURCES}]}}}}
    # (subtest, gate, suspend, startThenSuspend, expectUpdate)
    rows = [
        ("suspended job, feature gate enabled, update resources", True, True, False, True),
        ("non-suspended job, feature gate enabled, update resources", True, False, False, False),
        ("suspended job, feature gate disabled, update resources", False, True, False, False),
        ("started then suspended job, feature gate enabled, update resources", True, False, True, True),
    ]
    out = []
    for subtest, gate, suspend_at_start, start_then_suspend, expect_update in rows:
        if release != "1.35" and not (suspend_at_start or start_then_suspend):
            continue
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
        if release != "1.35" and (suspend_at_start or start_then_suspend):
            steps.append(condition("Suspended"))  # validateJobCondition(JobSuspended)
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
            release, f"TestUpdateJobPodResources: {subtest}", "update-job-pod-resources",
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


# --- tests whose v1.32.3 translation (shared job_scenario.json or job_scenario_extra.json) a newer
# release changed: the translation, pinned, with exactly the changes upstream made.


def _same(case: dict[str, Any]) -> None:
    """The entry changed only in how the test sets the gates (an emulation version, as `features`
    sets a gate the release locks): the case's gates are the same."""


def _without_gates(case: dict[str, Any]) -> None:
    """v1.37 removed the gates JobSuccessPolicy, JobBackoffLimitPerIndex and JobPodReplacementPolicy
    (always on); the test no longer sets them, and sets no other."""
    case.pop("features", None)


def _node_selector_waits(case: dict[str, Any]) -> None:
    """v1.36: before the update, waitForPodsToBeActive(0) and validateJobCondition(JobSuspended)."""
    waits = [{"do": "expect", "status": {"active": 0}}, {"do": "expect", "conditionsInclude": [{"type": "Suspended", "status": "True"}]}]
    case["steps"][1:1] = waits


def _delay_terminal_137(interim: dict[str, Any], reason: str | None) -> Callable[[dict[str, Any]], None]:
    """v1.37: the test sets only JobManagedBy (on); the interim and terminal statuses expect
    `terminating` (`interim` the interim's) and, where given, the conditions' reason."""

    def edit(case: dict[str, Any]) -> None:
        case["features"] = {"JobManagedBy": True}
        checks = [s for s in case["steps"] if s["do"] == "expect" and "conditions" in s]
        assert len(checks) == 2
        checks[0]["status"].update(interim)
        checks[1]["status"]["terminating"] = 0
        if reason is not None:
            for check in checks:
                for cond in check["conditions"]:
                    cond["reason"] = reason

    return edit


def _managed_by_off_137(case: dict[str, Any]) -> None:
    """v1.37: the test sets only JobManagedBy, off, at emulation version 1.34 (the other gates it set
    are gone, always on); `features` turns it off there too."""
    case["features"] = {"JobManagedBy": False}


def _managed_by_reenabling_137(case: dict[str, Any]) -> None:
    """v1.37: the whole test runs at emulation version 1.34, JobManagedBy on, then off, then on.
    `features` with JobManagedBy off is at 1.34; with it on, at 1.37 itself, so the case also turns
    off the gates the v1.37 code reads that are PreAlpha (off) at 1.34: StaleControllerConsistencyJob
    and the Mutable* gates (a later step's JobManagedBy off keeps them off: PreAlpha there)."""
    case["features"] = {
        "JobManagedBy": True,
        "StaleControllerConsistencyJob": False,
        "MutableSchedulingDirectivesForSuspendedJobs": False,
        "MutablePodResourcesForSuspendedJobs": False,
    }


def _replacement_default_137(case: dict[str, Any]) -> None:
    """v1.37 (JobPodReplacementPolicy gone, always on): the Indexed Job without podReplacementPolicy
    (TerminatingOrFailed by default) counts its deleted pods as terminating, 2, then 0 once they
    failed; 2 new pods and 2 replacements are created, 4 in all as before."""
    case.pop("features")
    checks = [s for s in case["steps"] if s["do"] == "expect" and "terminating" in s.get("status", {})]
    assert len(checks) == 2
    checks[0]["status"]["terminating"] = 2
    checks[1]["status"]["terminating"] = 0


PRP = "TestJobPodReplacementPolicy: {}, delete & fail pods, recreate {} pods, and verify job status counters"
SP_SOME_PENDING = "job with successPolicy with {}; job has SuccessCriteriaMet and Complete conditions even if some indexes remain pending"
# (release, the test's name at the release, the v1.32.3 translation's name, the changes)
DERIVED: list[tuple[str, str, str, Callable[[dict[str, Any]], None]]] = [
    ("1.33", "TestSuccessPolicy_ReEnabling", "TestSuccessPolicy_ReEnabling", _same),
    ("1.33", "TestBackoffLimitPerIndex_Reenabling", "TestBackoffLimitPerIndex_Reenabling", _same),
    ("1.34", "TestJobPodReplacementPolicyFeatureToggling", "TestJobPodReplacementPolicyFeatureToggling", _same),
    ("1.35", "TestManagedBy_Reenabling", "TestManagedBy_Reenabling", _same),
    ("1.36", "TestNodeSelectorUpdate", "TestNodeSelectorUpdate", _node_selector_waits),
    ("1.37", "TestSuccessPolicy: all indexes succeeded", "TestSuccessPolicy: all indexes succeeded; JobSuccessPolicy is enabled",
     _without_gates),
    *[
        ("1.37", f"TestSuccessPolicy: {name}", f"TestSuccessPolicy: {name}", _without_gates)
        for name in (
            "job without successPolicy; incremented the jobs_finished_total metric with CompletionsReached reason",
            SP_SOME_PENDING.format("succeededIndexes"),
            SP_SOME_PENDING.format("succeededCount"),
            "job with successPolicy and backoffLimitPerIndex; job has a Failed condition if job meets backoffLimitPerIndex",
        )
    ],
    # Renamed from "feature flag off, ..." (the gate is gone).
    ("1.37", "TestJobPodReplacementPolicy: delete & fail pods, recreate terminating pods, and verify job status counters",
     PRP.format("feature flag off", "terminating"), _replacement_default_137),
    *[
        ("1.37", PRP.format(name, pods), PRP.format(f"feature flag true{old}", pods), _without_gates)
        for name, old, pods in (
            ("IndexedJob, TerminatingOrFailed policy", " with IndexedJob, TerminatingOrFailed policy", "terminating"),
            ("NonIndexedJob, TerminatingOrFailed policy", " with NonIndexedJob, TerminatingOrFailed policy", "terminating"),
            ("Failed policy", ", Failed policy", "failed"),
            ("NonIndexedJob, Failed policy", " with NonIndexedJob, Failed policy", "failed"),
        )
    ],
    ("1.37", "TestBackoffLimitPerIndex_DelayedPodDeletion", "TestBackoffLimitPerIndex_DelayedPodDeletion", _without_gates),
    ("1.37", "TestBackoffLimitPerIndex_JobPodsCreatedWithExponentialBackoff",
     "TestBackoffLimitPerIndex_JobPodsCreatedWithExponentialBackoff", _without_gates),
    ("1.37", "TestDelayTerminalPhaseCondition: job backoff limit exceeded; JobManagedBy enabled",
     "TestDelayTerminalPhaseCondition: job backoff limit exceeded; JobManagedBy enabled",
     _delay_terminal_137({"terminating": 1}, None)),
    ("1.37", "TestDelayTerminalPhaseCondition: job scale down to meet completions; JobManagedBy enabled",
     "TestDelayTerminalPhaseCondition: job scale down to meet completions; JobManagedBy enabled",
     _delay_terminal_137({"terminating": 1}, "CompletionsReached")),
    # Renamed from the entries with JobPodReplacementPolicy (and JobSuccessPolicy) enabled, their
    # gate fields dropped (the conditions' messages added, which the test's comparison ignores).
    ("1.37", "TestDelayTerminalPhaseCondition: job backoff limit exceeded; JobManagedBy disabled",
     "TestDelayTerminalPhaseCondition: job backoff limit exceeded; JobPodReplacementPolicy enabled", _managed_by_off_137),
    ("1.37", "TestDelayTerminalPhaseCondition: job scale down to meet completions; JobManagedBy disabled",
     "TestDelayTerminalPhaseCondition: job scale down to meet completions; JobPodReplacementPolicy and JobSuccessPolicy are enabled",
     _managed_by_off_137),
    ("1.37", "TestManagedBy_Reenabling", "TestManagedBy_Reenabling", _managed_by_reenabling_137),
]


def derived(shared_dir: Path) -> list[dict[str, Any]]:
    """The DERIVED cases, from the shared job_scenario.json and job_scenario_extra.json."""
    older: dict[str, dict[str, Any]] = {}
    for path in (shared_dir / "job_scenario.json", EXTRA_OUT):
        older.update((c["name"], c) for c in json.loads(path.read_text())["cases"])
    out = []
    for release, name, since, edit in DERIVED:
        c = copy.deepcopy(older[since])
        edit(c)
        head = {"name": f"{name} ({release})", "origin": f"kubernetes {TEST_FILE} at {PINS[release]} {name}",
                "kubeVersion": release}
        out.append({**head, **{k: v for k, v in c.items() if k not in head}})
    return out


def build(shared_dir: Path) -> dict[str, Any]:
    return {
        "format": "jobmodel-conformance/1",
        "suite": "job-scenario",
        "source": (
            "kubernetes/kubernetes test/integration/job/job_test.go at the releases each case's kubeVersion "
            "names: the tests added or changed after v1.32.3 that the format can state (a changed one built "
            "from its v1.32.3 translation); generated by "
            "tests/conformance/gen/job_scenario_newer_extra.py"
        ),
        "cases": [
            suspend_zero_completions(),
            start_time_update_on_resume(),
            mutable_scheduling_directives(),
            *update_job_pod_resources("1.35"),
            *update_job_pod_resources("1.36"),
            *not_yet_started(),
            immediate_job_recreation(),
            *derived(shared_dir),
        ],
    }


def render(shared_dir: Path) -> str:
    return json.dumps(build(shared_dir), indent=1) + "\n"


if __name__ == "__main__":
    OUT.write_text(render(shared_dir_argument()))
