"""Writes tests/conformance/vectors/validation_newer_extra.json: the `validation` cases upstream
added or changed after v1.32.3 in the batch API's unit tests, each pinned (`kubeVersion`) to the
earliest pinned release whose test has it in that form, its `origin` naming the test and release.

The cases of TestStatusStrategy_ValidateUpdate whose entry changed only in the gates the test sets
(JobSuccessPolicy and JobPodReplacementPolicy gone at 1.37, the test emulating 1.33 when it turns
JobManagedBy off: `features` does it at 1.34, the newest emulation version that allows it) are the
v1.32.3 translations (tests/conformance/gen/validation_status_extra.py)
with the newer release's gates. Upstream's `metav1.Now()` is NOW.

    .venv/bin/python -m tests.conformance.gen.validation_newer_extra [SHARED_CONFORMANCE_DIR]
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conformance.gen import shared_dir_argument, write_vectors
from tests.conformance.gen import validation_status_extra as status

Json = dict[str, Any]

OUT = Path(__file__).parent.parent / "vectors" / "validation_newer_extra.json"
PINS = {"1.33": "v1.33.13", "1.34": "v1.34.4", "1.35": "v1.35.4", "1.36": "v1.36.3", "1.37": "v1.37.2"}
JOB_STRATEGY = "pkg/registry/batch/job/strategy_test.go"
CRONJOB_STRATEGY_DV = "pkg/registry/batch/cronjob/declarative_validation_test.go"
VALIDATION = "pkg/apis/batch/validation/validation_test.go"
NOW = status.NOW
NOW_PLUS_MINUTE = status.NOW_PLUS_MINUTE


def origin(path: str, release: str, test: str, name: str) -> str:
    return f"kubernetes {path} {PINS[release]} {test}: {name}"


def case(path: str, release: str, test: str, name: str, body: Json, suffix: str = "") -> Json:
    """A case named after its upstream test case (`suffix` tells two translations of one apart)."""
    return {
        "name": f"{test}: {name}{suffix}",
        "origin": origin(path, release, test, name),
        **body,
        "kubeVersion": release,
    }


def expect(errors: list[Json] | None = None, *, include: bool = False) -> Json:
    if not errors:
        return {"valid": True}
    return {"valid": False, ("errorsInclude" if include else "errors"): errors}


def err(field: str, etype: str = "FieldValueInvalid", detail: str | None = None) -> Json:
    out = {"field": field, "type": etype}
    if detail is not None:
        out["detail"] = detail
    return out


# --- TestStatusStrategy_ValidateUpdate (pkg/registry/batch/job/strategy_test.go) ---

STATUS_TEST = "TestStatusStrategy_ValidateUpdate"


def _status_case(release: str, name: str, old: Json, new: Json, errors: list[Json] | None, gates: Json) -> Json:
    return case(
        JOB_STRATEGY,
        release,
        STATUS_TEST,
        name,
        {
            "kind": "Job",
            "operation": "update",
            "subresource": "status",
            "object": new,
            "oldObject": old,
            "features": gates,
            "expect": expect(errors),
        },
    )


def _v132_status_case(name: str) -> Json:
    return next(c for c in status.status_strategy_cases() if c["name"] == f"{STATUS_TEST}: {name}")


def _regated(release: str, name: str, gates: Json, errors: list[Json] | None = None, since: str | None = None) -> Json:
    """A v1.32.3 case (named `since` there, when renamed) whose entry changed in the gates it sets
    (or, given, its expected errors)."""
    old = _v132_status_case(since or name)
    want = old["expect"].get("errors") if errors is None else errors
    return _status_case(release, name, old["oldObject"], old["object"], want, gates)


# v1.37: entries whose only change is the gates (enableJobSuccessPolicy, and in the renamed
# ones enableJobPodReplacementPolicy, dropped): (name at v1.37, name at v1.32.3).
STATUS_137_REGATED: tuple[tuple[str, str], ...] = (
    *(
        (name, name)
        for name in (
            "invalid addition of SuccessCriteriaMet for Job with Failed",
            "invalid addition of Failed for Job with SuccessCriteriaMet",
            "invalid addition of SuccessCriteriaMet for Job with FailureTarget",
            "invalid addition of FailureTarget for Job with SuccessCriteriaMet",
            "invalid addition of SuccessCriteriaMet for Job with Complete",
            "valid addition of Complete for Job with SuccessCriteriaMet",
            "invalid addition of Complete for Job with SuccessPolicy unless SuccessCriteriaMet",
            "invalid disabling of SuccessCriteriaMet for Job",
            "invalid removing of SuccessCriteriaMet for Job",
        )
    ),
    (
        "valid update of Job if SuccessCriteriaMet already present for NonIndexed Jobs; JobManagedBy disabled",
        "valid update of Job if SuccessCriteriaMet already present for NonIndexed Jobs; JobSuccessPolicy enabled, while "
        "JobManagedBy and JobPodReplacementPolicy disabled",
    ),
    ("valid addition of SuccessCriteriaMet", "valid addition of SuccessCriteriaMet when JobPodReplacementPolicy is enabled"),
)


# v1.33 and v1.36: the test emulates 1.32 where it turns JobSuccessPolicy off (all these cases
# do); `features` reaches 1.32 too (the newest emulation version where JobSuccessPolicy is not
# locked).
GATES_MANAGED_BY_AT_132 = {"JobManagedBy": True, "JobSuccessPolicy": False, "JobPodReplacementPolicy": False}
# v1.37: the test emulates 1.33 to turn JobManagedBy off (its cases without enableJobManagedBy);
# `features` puts it at 1.34, where the gates the v1.37 strategy reads (JobManagedBy, the Mutable*
# gates) are as at 1.33.
GATES_137_MANAGED_BY_OFF = {"JobManagedBy": False}


def status_strategy_cases() -> list[Json]:
    meta = status.meta()
    job = status.job
    cond = status.cond
    return [
        _status_case(
            "1.33",
            "verify startTime can be updated when resuming job (JobSuspended: True -> False)",
            job({"startTime": NOW, "conditions": [cond("Suspended")]}, metadata=meta),
            job({"startTime": NOW_PLUS_MINUTE, "conditions": [cond("Suspended", "False")]}, metadata=meta),
            None,
            GATES_MANAGED_BY_AT_132,
        ),
        _status_case(
            "1.33",
            "valid transition to Complete for suspended Job with completions=0; without startTime",
            job(spec={"completions": 0, "suspend": True}, metadata=meta),
            job(
                {"completionTime": NOW, "conditions": [cond("SuccessCriteriaMet"), cond("Complete")]},
                spec={"completions": 0, "suspend": True},
                metadata=meta,
            ),
            None,
            GATES_MANAGED_BY_AT_132,
        ),
        # v1.36: a changed startTime of an unsuspended Job is Invalid (was Required)
        *(
            _regated("1.36", name, GATES_MANAGED_BY_AT_132, [err("status.startTime")])
            for name in (
                "verify startTime cannot be removed for unsuspended job",
                "verify startTime cannot be updated for unsuspended job",
            )
        ),
        *(_regated("1.37", name, GATES_137_MANAGED_BY_OFF, since=since) for name, since in STATUS_137_REGATED),
    ]


# --- TestValidateJobUpdateStatus (pkg/apis/batch/validation/validation_test.go), v1.36 ---

UPDATE_STATUS_TEST = "TestValidateJobUpdateStatus"
IMMUTABLE_START = "field is immutable for unsuspended job once set"


def validate_job_update_status_cases() -> list[Json]:
    """The options RejectStartTimeUpdateForUnsuspendedJob: through the status subresource,
    JobManagedBy on (getStatusValidationOptions sets it when the startTime changes)."""
    meta = {"name": "abc", "namespace": "default", "resourceVersion": "1"}
    spec = {"suspend": False}
    old = status.job({"startTime": NOW, "active": 1}, spec=spec, metadata=meta)

    def one(name: str, new_status: Json) -> Json:
        return case(
            VALIDATION,
            "1.36",
            UPDATE_STATUS_TEST,
            name,
            {
                "kind": "Job",
                "operation": "update",
                "subresource": "status",
                "object": status.job(new_status, spec=spec, metadata=meta),
                "oldObject": old,
                "features": {"JobManagedBy": True},
                "expect": expect([err("status.startTime", detail=IMMUTABLE_START)]),
            },
        )

    return [
        one("immutable startTime for unsuspended job: with non-nil startTime", {"startTime": "2024-06-01T12:00:01Z", "active": 1}),
        one("immutable startTime for unsuspended job: with nil startTime", {"active": 1}),
    ]


# --- CronJob schedules: TestValidateScheduleFormat* (v1.35) and the declarative tests (v1.36) ---

CONTAINER = {
    "name": "ctr",
    "image": "image",
    "imagePullPolicy": "IfNotPresent",
    "terminationMessagePolicy": "File",
    "terminationMessagePath": "/dev/termination-log",
}
POD_SPEC = {  # podtest.MakePodSpec(SetRestartPolicy(OnFailure))
    "containers": [CONTAINER],
    "dnsPolicy": "ClusterFirst",
    "restartPolicy": "OnFailure",
    "terminationGracePeriodSeconds": 30,
}


def cronjob(spec: Json, name: str = "mycronjob", namespace: str = "default", resource_version: str | None = None) -> Json:
    metadata: Json = {"name": name, "namespace": namespace}
    if resource_version is not None:
        metadata["resourceVersion"] = resource_version
    return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": metadata, "spec": spec}


def schedule_spec(schedule: str, time_zone: str | None = None) -> Json:
    spec: Json = {"schedule": schedule, "concurrencyPolicy": "Allow"}
    if time_zone is not None:
        spec["timeZone"] = time_zone
    spec["jobTemplate"] = {"spec": {"template": {"spec": POD_SPEC}}}
    return spec


INVALID_FORMAT = "invalid schedule format"


def schedule_format_cases() -> list[Json]:
    """validateScheduleFormat(schedule, allowTZInSchedule, timeZone) through a CronJob's validation:
    a create when TZ in the schedule is not allowed, an update of a CronJob whose schedule already
    has it when it is. The tests check the first error (its type and a part of its message)."""
    panic_test = "TestValidateScheduleFormatPanicRecovery"
    normal_test = "TestValidateScheduleFormatNormalCases"

    def create(test: str, name: str, spec: Json, errors: list[Json] | None, include: bool) -> Json:
        body = {"kind": "CronJob", "operation": "create", "object": cronjob(spec), "expect": expect(errors, include=include)}
        return case(VALIDATION, "1.35", test, name, body)

    def update(test: str, name: str, spec: Json, errors: list[Json] | None) -> Json:
        body = {
            "kind": "CronJob",
            "operation": "update",
            "object": cronjob(spec, resource_version="1"),
            "oldObject": cronjob(schedule_spec("TZ=UTC 0 0 * * *"), resource_version="1"),
            "expect": expect(errors),
        }
        return case(VALIDATION, "1.35", test, name, body)

    bad = [err("spec.schedule", detail=INVALID_FORMAT)]
    return [
        *(
            create(panic_test, name, schedule_spec(schedule), bad, True)
            for name, schedule in (
                ("TZ=0 without space should not panic", "TZ=0"),
                ("TZ= without value should not panic", "TZ="),
                ("CRON_TZ= without space should not panic", "CRON_TZ=UTC"),
                ("malformed timezone spec should not panic", "TZ=Invalid/Timezone"),
            )
        ),
        create(normal_test, "valid schedule without timezone", schedule_spec("0 0 * * *"), None, False),
        create(normal_test, "valid schedule with timezone field", schedule_spec("0 0 * * *", "UTC"), None, False),
        create(
            normal_test,
            "TZ in schedule when not allowed",
            schedule_spec("TZ=UTC 0 0 * * *"),
            [err("spec.schedule", detail="cannot use TZ or CRON_TZ in schedule")],
            False,
        ),
        update(normal_test, "TZ in schedule when allowed", schedule_spec("TZ=UTC 0 0 * * *"), None),
        update(
            normal_test,
            "TZ in schedule with timezone field",
            schedule_spec("TZ=UTC 0 0 * * *", "UTC"),
            [err("spec.schedule", detail="cannot use both timeZone field and TZ or CRON_TZ in schedule")],
        ),
    ]


def declarative_cases() -> list[Json]:
    """pkg/registry/batch/cronjob/declarative_validation_test.go (v1.36 only): Strategy.Validate and
    ValidateUpdate of mkCronJob (validCronjobSpec of strategy_test.go) through batch/v1."""
    spec = {
        "schedule": "5 5 * * ?",
        "concurrencyPolicy": "Allow",
        "timeZone": "Asia/Shanghai",
        "jobTemplate": {
            "spec": {"template": {"spec": POD_SPEC}, "completionMode": "Indexed", "completions": 10, "parallelism": 10}
        },
    }
    empty = {**spec, "schedule": ""}

    def mk(s: Json, rv: str | None = None) -> Json:
        return cronjob(s, name="test-class", namespace="test-namespace", resource_version=rv)

    create_test = "TestDeclarativeValidateForDeclarative"
    update_test = "TestValidateUpdateForDeclarative"
    required = [err("spec.schedule", "FieldValueRequired")]
    return [
        case(CRONJOB_STRATEGY_DV, "1.36", create_test, "valid", {"kind": "CronJob", "operation": "create", "object": mk(spec), "expect": expect()}),
        case(
            CRONJOB_STRATEGY_DV,
            "1.36",
            create_test,
            "schedule: empty",
            {"kind": "CronJob", "operation": "create", "object": mk(empty), "expect": expect(required)},
        ),
        case(
            CRONJOB_STRATEGY_DV,
            "1.36",
            update_test,
            "valid (no changes)",
            {"kind": "CronJob", "operation": "update", "object": mk(spec, "2"), "oldObject": mk(spec, "1"), "expect": expect()},
        ),
        case(
            CRONJOB_STRATEGY_DV,
            "1.36",
            update_test,
            "schedule: updated to empty",
            {
                "kind": "CronJob",
                "operation": "update",
                "object": mk(empty, "2"),
                "oldObject": mk(spec, "1"),
                "expect": expect(required),
            },
        ),
    ]


# --- TestJobStrategy_ValidateUpdate_MutablePodResources / _MutableSchedulingDirectives (v1.35, v1.36) ---

RESOURCES_TEST = "TestJobStrategy_ValidateUpdate_MutablePodResources"
DIRECTIVES_TEST = "TestJobStrategy_ValidateUpdate_MutableSchedulingDirectives"
SUSPENDED = "Suspended"


def _mutable_job(suspend: bool, active: int, started: bool, suspended_condition: str | None) -> Json:
    """The test's Job: manual selector a=b, the template podtest.MakePodSpec(OnFailure), parallelism 1."""
    job_status: Json = {"active": active} if active else {}
    if started:
        job_status["startTime"] = NOW
    if suspended_condition is not None:
        job_status["conditions"] = [status.cond(SUSPENDED, suspended_condition)]
    return status.job(
        job_status or None,
        spec={
            "selector": {"matchLabels": {"a": "b"}},
            "template": {"metadata": {"labels": {"a": "b"}}, "spec": POD_SPEC},
            "manualSelector": True,
            "parallelism": 1,
            "suspend": suspend,
        },
        metadata={"name": "myjob", "namespace": "default", "resourceVersion": "0"},
    )


def _with_cpu_request(job: Json) -> Json:
    new: Json = json.loads(json.dumps(job))
    new["spec"]["template"]["spec"]["containers"][0]["resources"] = {"requests": {"cpu": "200m"}}
    return new


def _with_image(job: Json) -> Json:
    new: Json = json.loads(json.dumps(job))
    new["spec"]["template"]["spec"]["containers"][0]["image"] = "different-image"
    return new


def _with_node_selector(job: Json) -> Json:
    new: Json = json.loads(json.dumps(job))
    new["spec"]["template"]["spec"]["nodeSelector"] = {"key": "value"}
    return new


def mutable_template_cases() -> list[Json]:
    """Each test sets its gate and, from v1.36, emulates 1.35, where the other gate is off (alpha):
    both gates are in `features`."""

    def one(test: str, release: str, name: str, gate: bool, old: Json, change: Any, errors: list[Json] | None) -> Json:
        own, other = (
            ("MutablePodResourcesForSuspendedJobs", "MutableSchedulingDirectivesForSuspendedJobs")
            if test == RESOURCES_TEST
            else ("MutableSchedulingDirectivesForSuspendedJobs", "MutablePodResourcesForSuspendedJobs")
        )
        body = {
            "kind": "Job",
            "operation": "update",
            "object": change(old),
            "oldObject": old,
            "features": {own: gate, other: False},
            "expect": expect(errors),
        }
        return case(JOB_STRATEGY, release, test, name, body)

    template = [err("spec.template")]
    template_spec = [err("spec.template.spec")]
    r, d = RESOURCES_TEST, DIRECTIVES_TEST
    cpu, image, nodes = _with_cpu_request, _with_image, _with_node_selector
    mj = _mutable_job
    return [
        one(r, "1.35", "feature gate disabled - pod resource updates rejected", False, mj(True, 0, False, "True"), cpu, template),
        one(
            r,
            "1.35",
            "feature gate enabled - job suspended, but with remaining active Pods  resource updates rejected",
            True,
            mj(True, 1, False, "False"),
            cpu,
            template,
        ),
        one(
            r,
            "1.35",
            "feature gate enabled - job suspended, with the suspended condition, but pods remain active - reject",
            True,
            mj(True, 1, False, "True"),
            cpu,
            template,
        ),
        one(r, "1.35", "feature gate enabled - unsuspended job resource updates rejected", True, mj(False, 1, False, "False"), cpu, template),
        one(r, "1.35", "feature gate enabled - suspended but started job resource updates allowed", True, mj(True, 0, True, "True"), cpu, None),
        one(r, "1.35", "feature gate enabled - suspended and not started job resource updates allowed", True, mj(True, 0, False, "True"), cpu, None),
        one(r, "1.35", "feature gate enabled - non-resource field updates still rejected", True, mj(True, 0, False, "True"), image, template_spec),
        one(
            r,
            "1.36",
            "feature gate enabled - pod resource update allowed for suspended Job without Suspended condition but never started",
            True,
            mj(True, 0, False, None),
            cpu,
            None,
        ),
        one(
            r,
            "1.36",
            "feature gate enabled - job resuming (suspend=false) but JobSuspended condition still true - resource updates rejected",
            True,
            mj(False, 0, False, "True"),
            cpu,
            template,
        ),
        one(d, "1.35", "feature gate disabled - scheduling directives update allowed for suspended job never started", False, mj(True, 0, False, "True"), nodes, None),
        one(d, "1.35", "feature gate enabled - scheduling directives update allowed for suspended job never started", True, mj(True, 0, False, "True"), nodes, None),
        one(d, "1.35", "feature gate disabled - scheduling directives update rejected for unsuspended Job", False, mj(True, 1, True, None), nodes, template),
        one(d, "1.35", "feature gate enabled - scheduling directives update rejected for unsuspended Job", True, mj(False, 1, True, None), nodes, template),
        one(
            d,
            "1.35",
            "feature gate disabled - scheduling directives update rejected for suspended Job which was running in the past",
            False,
            mj(True, 0, True, "True"),
            nodes,
            template,
        ),
        one(
            d,
            "1.35",
            "feature gate enabled - scheduling directives update allowed for suspended Job which was running in the past",
            True,
            mj(True, 0, True, "True"),
            nodes,
            None,
        ),
        one(
            d,
            "1.35",
            "feature gate enabled - scheduling directives update rejected for suspended Job still have active pods",
            True,
            mj(True, 1, True, "True"),
            nodes,
            template,
        ),
        one(
            d,
            "1.35",
            "feature gate enabled - scheduling directives update rejected for suspended Job without Suspended condition",
            True,
            mj(True, 1, True, "False"),
            nodes,
            template,
        ),
        one(
            d,
            "1.36",
            "feature gate enabled - job resuming (suspend=false) but JobSuspended condition still true - scheduling directives update rejected",
            True,
            mj(False, 0, False, "True"),
            nodes,
            template,
        ),
        one(
            d,
            "1.36",
            "feature gate enabled - scheduling directives update allowed for suspended Job without Suspended condition but never started",
            True,
            mj(True, 0, False, None),
            nodes,
            None,
        ),
    ]


# --- TestValidateJobUpdate: AllowMutablePodResources (v1.35) ---

JOB_UPDATE_TEST = "TestValidateJobUpdate"
GENERATED_LABELS = {
    "batch.kubernetes.io/controller-uid": "1a2b3c",
    "controller-uid": "1a2b3c",
    "batch.kubernetes.io/job-name": "myjob",
    "job-name": "myjob",
}


def container(name: str, resources: Json | None = None) -> Json:
    """podtest.MakeContainer(name[, SetContainerResources(resources)])."""
    return {**CONTAINER, "name": name, **({"resources": resources} if resources is not None else {})}


def _requests(cpu: str, memory: str) -> Json:
    return {"cpu": cpu, "memory": memory}


def _generated_job(containers: list[Json] | None = None, init_containers: list[Json] | None = None) -> Json:
    """A suspended Job (condition Suspended=True) with getValidPodTemplateSpecForGenerated's template (`ctr`, init `def`),
    named and identified as the shared TestValidateJobUpdate vectors are (the update also runs
    ValidateJob, whose generated-selector check needs the uid)."""
    pod_spec = {
        **POD_SPEC,
        "containers": containers or [container("ctr")],
        "initContainers": init_containers or [container("def")],
    }
    return status.job(
        {"conditions": [status.cond(SUSPENDED)]},
        spec={
            "selector": {"matchLabels": dict(GENERATED_LABELS)},
            "template": {"metadata": {"labels": dict(GENERATED_LABELS)}, "spec": pod_spec},
            "suspend": True,
        },
        metadata={"name": "myjob", "namespace": "default", "uid": "1a2b3c", "resourceVersion": "1"},
    )


def _edit(job: Json, *edits: tuple[str, int, str, Any]) -> Json:
    """A copy with, for each (list, index, key, value), template.spec.<list>[index].<key> = value."""
    new: Json = json.loads(json.dumps(job))
    pod_spec = new["spec"]["template"]["spec"]
    for lst, index, key, value in edits:
        if index == len(pod_spec[lst]):
            pod_spec[lst].append(value)
        else:
            pod_spec[lst][index] = {**pod_spec[lst][index], key: value} if key else value
    return new


def mutable_resources_update_cases() -> list[Json]:
    """The test passes AllowMutablePodResources itself; here the gate (alpha, off at 1.35) is set and
    the update's options come from the old Job as the API server derives them: suspended, with the
    `Suspended` condition (which v1.35 requires) and no active pods."""

    def one(name: str, old: Json, new: Json, errors: list[Json] | None, gate: bool = True) -> Json:
        body = {
            "kind": "Job",
            "operation": "update",
            "object": new,
            "oldObject": old,
            "features": {"MutablePodResourcesForSuspendedJobs": gate},
            "expect": expect(errors),
        }
        return case(VALIDATION, "1.35", JOB_UPDATE_TEST, name, body)

    plain = _generated_job()
    big = {"requests": _requests("200m", "256Mi"), "limits": _requests("500m", "512Mi")}
    small = {"requests": _requests("100m", "64Mi")}
    with_init = _generated_job(init_containers=[container("init-container", small)])
    template = [err("spec.template")]
    template_spec = [err("spec.template.spec")]
    two_inits = _generated_job(init_containers=[container("init-container", small), container("init-container-2", small)])
    two_ctrs = _generated_job(containers=[container("container", small), container("container-2", small)])
    return [
        one("allow container resource updates only", plain, _edit(plain, ("containers", 0, "resources", big)), None),
        one(
            "reject container resource updates only with feature gate off",
            plain,
            _edit(plain, ("containers", 0, "resources", big)),
            template,
            gate=False,
        ),
        one(
            "allow init container resource updates only",
            with_init,
            _edit(
                with_init,
                ("initContainers", 0, "resources", {"requests": _requests("200m", "128Mi"), "limits": _requests("400m", "256Mi")}),
            ),
            None,
        ),
        one(
            "allow both container and init container resource updates",
            with_init,
            _edit(
                with_init,
                ("containers", 0, "resources", {"requests": _requests("200m", "256Mi")}),
                ("initContainers", 0, "resources", {"requests": _requests("150m", "128Mi")}),
            ),
            None,
        ),
        one(
            "reject container resource update with other field changes",
            plain,
            _edit(plain, ("containers", 0, "resources", {"requests": _requests("200m", "256Mi")}), ("containers", 0, "image", "nginx:latest")),
            template_spec,
        ),
        one(
            "reject non-resource field updates when AllowMutablePodResources is true",
            plain,
            _edit(plain, ("containers", 0, "image", "nginx:latest")),
            template_spec,
        ),
        one(
            "reject pod spec changes when container count differs",
            plain,
            _edit(plain, ("containers", 1, "", container("sidecar"))),
            template_spec,
        ),
        one(
            "reject pod spec changes when init container count differs",
            plain,
            _edit(plain, ("initContainers", 0, "", container("init-container"))),
            template_spec,
        ),
        one(
            "reject pod spec changes if update reorders init containers",
            two_inits,
            _edit(
                two_inits,
                ("initContainers", 0, "", container("init-container-2", small)),
                ("initContainers", 1, "", container("init-container", small)),
            ),
            template_spec,
        ),
        one(
            "reject pod spec changes if update reorders containers",
            two_ctrs,
            _edit(two_ctrs, ("containers", 0, "", container("container-2", small)), ("containers", 1, "", container("container", small))),
            template_spec,
        ),
    ]


# --- TestJobStrategy_ValidateUpdate: the node-selector cases renamed at v1.35, changed at v1.37 ---

STRATEGY_UPDATE_TEST = "TestJobStrategy_ValidateUpdate"
NODE_SELECTOR_CASES = {  # v1.32.3 name (the shared validation.json) -> v1.35 name
    "updating node selector for unsuspended job disallowed": (
        "updating node selector for unsuspended job disallowed with MutablePodResourcesForSuspendedJobs disabled"
    ),
    "updating node selector for suspended but previously started job disallowed": (
        "updating node selector for suspended but previously started job disallowed with "
        "MutablePodResourcesForSuspendedJobs disabled"
    ),
    "updating node selector for suspended and not previously started job allowed": (
        "updating node selector for suspended and not previously started job allowed with "
        "MutablePodResourcesForSuspendedJobs disabled"
    ),
}


def _shared_case(conformance_dir: Path, name: str) -> Json:
    cases = json.loads((conformance_dir / "validation.json").read_text())["cases"]
    return next(c for c in cases if c["name"] == name)


def node_selector_cases(conformance_dir: Path) -> list[Json]:
    """v1.35 renames the shared cases and sets MutablePodResourcesForSuspendedJobs off (its default
    there); v1.37 gives the not-yet-started Job the Suspended condition."""
    out = []
    for old_name, name in NODE_SELECTOR_CASES.items():
        shared = _shared_case(conformance_dir, f"{STRATEGY_UPDATE_TEST}: {old_name}")
        body = {k: shared[k] for k in ("kind", "operation", "object", "oldObject", "expect")}
        body["features"] = {"MutablePodResourcesForSuspendedJobs": False}
        out.append(case(JOB_STRATEGY, "1.35", STRATEGY_UPDATE_TEST, name, body))
    last = json.loads(json.dumps(out[-1]))
    for side in ("object", "oldObject"):
        last[side]["status"] = {"conditions": [status.cond(SUSPENDED)]}
    name = NODE_SELECTOR_CASES["updating node selector for suspended and not previously started job allowed"]
    body = {k: last[k] for k in ("kind", "operation", "object", "oldObject", "features", "expect")}
    out.append(case(JOB_STRATEGY, "1.37", STRATEGY_UPDATE_TEST, name, body, suffix=" (v1.37)"))
    return out


# --- spec.scheduling (v1.37, gate WorkloadWithJob: alpha, off; the model refuses it on) ---

CRONJOB_STRATEGY = "pkg/registry/batch/cronjob/strategy_test.go"


def basic(disruption: str | None = None) -> Json:
    out: Json = {"schedulingPolicy": {"basic": {}}}
    if disruption is not None:
        out["disruptionMode"] = {disruption: {}}
    return out


def gang(min_count: int | None, disruption: str | None = None) -> Json:
    out: Json = {"schedulingPolicy": {"gang": {} if min_count is None else {"minCount": min_count}}}
    if disruption is not None:
        out["disruptionMode"] = {disruption: {}}
    return out


def _generated_spec(parallelism: int | None, scheduling: Json | None, labels: bool = True) -> Json:
    pod_spec = {**POD_SPEC, "initContainers": [container("def")]}
    template: Json = {"spec": pod_spec}
    spec: Json = {}
    if labels:
        spec["selector"] = {"matchLabels": dict(GENERATED_LABELS)}
        template = {"metadata": {"labels": dict(GENERATED_LABELS)}, "spec": pod_spec}
    if parallelism is not None:
        spec["parallelism"] = parallelism
    spec["template"] = template
    if scheduling is not None:
        spec["scheduling"] = scheduling
    return spec


def _job(spec: Json, rv: str | None = None) -> Json:
    metadata: Json = {"name": "myjob", "namespace": "default", "uid": "1a2b3c"}
    if rv is not None:
        metadata["resourceVersion"] = rv
    return status.job(spec=spec, metadata=metadata)


def _cronjob(parallelism: int | None, scheduling: Json | None, rv: str | None = None) -> Json:
    job_spec = _generated_spec(parallelism, scheduling, labels=False)
    spec = {"schedule": "* * * * ?", "concurrencyPolicy": "Allow", "jobTemplate": {"spec": job_spec}}
    out = cronjob(spec, resource_version=rv)
    out["metadata"]["uid"] = "1a2b3c"
    return out


MIN_COUNT = "spec.scheduling.schedulingPolicy.gang.minCount"
CJ_MIN_COUNT = "spec.jobTemplate.spec.scheduling.schedulingPolicy.gang.minCount"


def scheduling_cases() -> list[Json]:
    """The tests call the hand-written validation alone; through the API server the gate being off
    adds declarative validation's `Forbidden` of a new or changed `spec.scheduling`: a rejected case
    lists the test's error in `errorsInclude`."""

    def create(test: str, name: str, obj: Json, errors: list[Json] | None) -> Json:
        kind = obj["kind"]
        body = {"kind": kind, "operation": "create", "object": obj, "expect": expect(errors, include=True)}
        return case(VALIDATION, "1.37", test, name, body)

    def update(test: str, name: str, old: Json, new: Json, errors: list[Json] | None, path: str = VALIDATION) -> Json:
        body = {"kind": new["kind"], "operation": "update", "object": new, "oldObject": old, "expect": expect(errors, include=True)}
        return case(path, "1.37", test, name, body)

    gmc = "TestValidateJobSchedulingGangMinCount"
    cgmc = "TestValidateCronJobCreateGangMinCount"
    cumc = "TestValidateCronJobUpdateGangMinCount"
    csu = "TestValidateCronJobSchedulingUpdate"
    jsu = "TestValidateJobSchedulingUpdate"
    policy = "spec.scheduling.schedulingPolicy"
    out = [
        create(gmc, "no scheduling", _job(_generated_spec(4, None)), None),
        create(gmc, "basic policy is not subject to the minCount rule", _job(_generated_spec(1, basic())), None),
        create(gmc, "gang minCount below parallelism", _job(_generated_spec(4, gang(2))), None),
        create(gmc, "gang minCount equal to parallelism", _job(_generated_spec(4, gang(4))), None),
        create(gmc, "gang minCount above parallelism is rejected", _job(_generated_spec(2, gang(4))), [err(MIN_COUNT)]),
        create(gmc, "gang minCount unset (zero) is allowed", _job(_generated_spec(2, gang(0))), None),
        create(gmc, "gang minCount unset (nil) defaults to parallelism and is accepted", _job(_generated_spec(4, gang(None))), None),
        create(gmc, "nil parallelism defaults to 1, minCount 1 is allowed", _job(_generated_spec(None, gang(1))), None),
        create(gmc, "nil parallelism defaults to 1, minCount 2 is rejected", _job(_generated_spec(None, gang(2))), [err(MIN_COUNT)]),
        create(gmc, "basic policy with single disruption is allowed", _job(_generated_spec(1, basic("single"))), None),
        create(gmc, "gang policy with all disruption is allowed", _job(_generated_spec(4, gang(2, "all"))), None),
        create(
            gmc,
            "basic policy with all disruption is rejected",
            _job(_generated_spec(1, basic("all"))),
            [err("spec.scheduling.disruptionMode")],
        ),
        create(cgmc, "gang minCount below parallelism", _cronjob(4, gang(2)), None),
        create(cgmc, "gang minCount above parallelism is rejected", _cronjob(2, gang(4)), [err(CJ_MIN_COUNT)]),
        create(cgmc, "nil parallelism defaults to 1, minCount 2 is rejected", _cronjob(None, gang(2)), [err(CJ_MIN_COUNT)]),
        update(cumc, "lowering parallelism below minCount is rejected", _cronjob(4, gang(4), "1"), _cronjob(2, gang(4), "2"), [err(CJ_MIN_COUNT)]),
        update(cumc, "raising parallelism and minCount together is accepted", _cronjob(4, gang(4), "1"), _cronjob(8, gang(8), "2"), None),
        update(cumc, "raising minCount within parallelism is accepted", _cronjob(8, gang(4), "1"), _cronjob(8, gang(6), "2"), None),
    ]
    for name, old_s, new_s, errors in (
        ("unchanged is valid", basic(), basic(), None),
        ("gang minCount change is allowed", gang(4), gang(8), None),
        ("adding scheduling after creation is allowed", None, basic(), None),
        ("removing scheduling is allowed", basic(), None, None),
        ("switching basic to gang is allowed", basic(), gang(4), None),
        ("switching gang to basic is allowed", gang(4), basic(), None),
        ("gang minCount above parallelism is rejected", gang(4), gang(16), [err(CJ_MIN_COUNT)]),
    ):
        out.append(update(csu, name, _cronjob(8, old_s, "1"), _cronjob(8, new_s, "2"), errors))
    for name, old_s, new_s, errors in (
        ("unchanged basic is valid", basic(), basic(), None),
        ("unchanged gang is valid", gang(4), gang(4), None),
        ("gang minCount change is allowed", gang(4), gang(6), None),
        ("adding scheduling after creation is allowed", None, basic(), None),
        ("removing scheduling is allowed", basic(), None, None),
        ("switching basic to gang is rejected", basic(), gang(4), [err(policy)]),
        ("switching gang to basic is rejected", gang(4), basic(), [err(policy)]),
    ):
        out.append(update(jsu, name, _job(_generated_spec(8, old_s), "1"), _job(_generated_spec(8, new_s), "2"), errors))
    for name, par, old_s, new_s, errors in (
        ("unchanged scheduling is valid", None, basic(), basic(), None),
        ("gang minCount change within parallelism is allowed", 8, gang(4), gang(8), None),
        ("switching policy from basic to gang is immutable", None, basic(), gang(1), [err(policy)]),
        ("switching policy from gang to basic is immutable", 4, gang(4), basic(), [err(policy)]),
    ):
        out.append(update(JOB_UPDATE_TEST, name, _job(_generated_spec(par, old_s), "1"), _job(_generated_spec(par, new_s), "1"), errors))
    # the strategies' tests (gate at its default, off, where the case does not turn it on)
    strategy_job = status.job(
        spec={
            "selector": {"matchLabels": {"a": "b"}},
            "template": {"metadata": {"labels": {"a": "b"}}, "spec": POD_SPEC},
            "manualSelector": True,
            "parallelism": 4,
            "scheduling": gang(2),
        },
        metadata={"name": "myjob", "namespace": "default", "resourceVersion": "0"},
    )
    exceeding = json.loads(json.dumps(strategy_job))
    exceeding["spec"]["scheduling"] = gang(8)
    out.append(
        update(
            STRATEGY_UPDATE_TEST,
            "gang minCount update exceeding parallelism is rejected",
            strategy_job,
            exceeding,
            [err(MIN_COUNT)],
            path=JOB_STRATEGY,
        )
    )

    def strategy_cronjob(parallelism: int, min_count: int, rv: str) -> Json:
        spec = {
            "schedule": "* * * * ?",
            "concurrencyPolicy": "Allow",
            "jobTemplate": {"spec": {"parallelism": parallelism, "template": {"spec": POD_SPEC}, "scheduling": gang(min_count)}},
        }
        return cronjob(spec, resource_version=rv)

    gate_off = case(
        CRONJOB_STRATEGY,
        "1.37",
        "TestCronJobStrategy_ValidateUpdate_GangMinCount",
        "gate off, new exceeds parallelism is still rejected",
        {
            "kind": "CronJob",
            "operation": "update",
            "object": strategy_cronjob(2, 4, "2"),
            "oldObject": strategy_cronjob(4, 4, "1"),
            "features": {"WorkloadWithJob": False},
            "expect": expect([err(CJ_MIN_COUNT)]),
        },
    )
    out.append(gate_off)
    return [c for c in out if c["name"] not in SCHEDULING_LEFT_OUT]


# The tests expect no error where the API server, its gate off, refuses a new or changed
# `spec.scheduling` (declarative validation: Forbidden; on update NoSet/NoUnset); the unit tests
# call the hand-written validation alone (the strategies' tests run without the request info
# that declarative validation needs), and with the gate on (not modelled) they are the
# hand-written answer. docs/conformance.md lists them.
SCHEDULING_LEFT_OUT = frozenset(
    f"{test}: {name}"
    for test, names in {
        "TestValidateJobSchedulingGangMinCount": (
            "basic policy is not subject to the minCount rule",
            "gang minCount below parallelism",
            "gang minCount equal to parallelism",
            "gang minCount unset (zero) is allowed",
            "gang minCount unset (nil) defaults to parallelism and is accepted",
            "nil parallelism defaults to 1, minCount 1 is allowed",
            "basic policy with single disruption is allowed",
            "gang policy with all disruption is allowed",
        ),
        "TestValidateCronJobCreateGangMinCount": ("gang minCount below parallelism",),
        "TestValidateCronJobUpdateGangMinCount": (
            "raising parallelism and minCount together is accepted",
            "raising minCount within parallelism is accepted",
        ),
        "TestValidateCronJobSchedulingUpdate": (
            "gang minCount change is allowed",
            "adding scheduling after creation is allowed",
            "removing scheduling is allowed",
            "switching basic to gang is allowed",
            "switching gang to basic is allowed",
        ),
        "TestValidateJobSchedulingUpdate": (
            "gang minCount change is allowed",
            "adding scheduling after creation is allowed",
            "removing scheduling is allowed",
        ),
        "TestValidateJobUpdate": ("gang minCount change within parallelism is allowed",),
    }.items()
    for name in names
)


# --- TestJobStrategy_Validate: the FailIndex cases renamed at v1.37 (JobBackoffLimitPerIndex gone) ---

VALIDATE_TEST = "TestJobStrategy_Validate"
FAIL_INDEX_CASES = {  # v1.32.3 name (the shared validation.json) -> v1.37 name, the errors the test counts
    "FailIndex action; when JobBackoffLimitPerIndex is enabled, but not used - validation error": (
        "FailIndex action; not used - validation error",
        [err("spec.podFailurePolicy.rules[0].action")],
    ),
    "FailIndex action; when JobBackoffLimitPerIndex is enabled and used - no error": ("FailIndex action; used - no error", None),
}


def fail_index_cases(conformance_dir: Path) -> list[Json]:
    """The test counts the errors (one, or none): the one error is upstream's."""
    out = []
    for old_name, (name, errors) in FAIL_INDEX_CASES.items():
        shared = _shared_case(conformance_dir, f"{VALIDATE_TEST}: {old_name}")
        body = {"kind": "Job", "operation": "create", "object": shared["object"], "expect": expect(errors)}
        out.append(case(JOB_STRATEGY, "1.37", VALIDATE_TEST, name, body))
    return out


# --- TestValidateJob: v1.34 renders an invalid value as JSON in the message its keys check ---

VALIDATE_JOB_TEST = "TestValidateJob"
RENDERED_AS_JSON = {  # v1.32.3 key (the shared and project vectors) -> v1.34 key
    "spec.successPolicy: Invalid value: batch.SuccessPolicy{Rules:[]batch.SuccessPolicyRule{}}: requires indexed completion mode": (
        'spec.successPolicy: Invalid value: {"Rules":[]}: requires indexed completion mode'
    ),
    "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{19, 11}: must be ordered": (
        "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [19,11]: must be ordered"
    ),
    "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{}: at least one value is required": (
        "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []: at least one value is required"
    ),
    'spec.template.metadata.labels: Invalid value: map[string]string{"y":"z"}: `selector` does not match template `labels`': (
        'spec.template.metadata.labels: Invalid value: {"y":"z"}: `selector` does not match template `labels`'
    ),
    'spec.template.metadata.labels: Invalid value: map[string]string{"controller-uid":"4d5e6f"}: '
    "`selector` does not match template `labels`": (
        'spec.template.metadata.labels: Invalid value: {"controller-uid":"4d5e6f"}: `selector` does not match template `labels`'
    ),
    'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, '
    "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` not auto-generated": (
        'spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` not auto-generated'
    ),
}


def rendered_as_json_cases(conformance_dir: Path) -> list[Json]:
    """The test checks that the first error is at the key's field and that its message contains the
    rest of the key (strings.SplitN(k, ":", 2)): that rest is the error's `detail` here, the
    other errors of the v1.32.3 translation kept."""
    cases: dict[str, Json] = {}
    for path in (conformance_dir / "validation.json", Path(__file__).parent.parent / "vectors" / "validation_extra.json"):
        for c in json.loads(path.read_text())["cases"]:
            cases.setdefault(c["name"], c)
    out = []
    for old_key, key in RENDERED_AS_JSON.items():
        shared = cases[f"{VALIDATE_JOB_TEST}: {old_key}"]
        field, message = key.split(":", 1)
        errors = json.loads(json.dumps(shared["expect"]["errors"]))
        first = next(e for e in errors if e["field"] == field)
        first["detail"] = message.strip()
        body = {"kind": "Job", "operation": "create", "object": shared["object"], "expect": expect(errors)}
        out.append(case(VALIDATION, "1.34", VALIDATE_JOB_TEST, key, body))
    return out


def document(conformance_dir: Path) -> Json:
    return {
        "format": "jobmodel-conformance/1",
        "suite": "validation",
        "source": (
            "validation cases upstream added or changed after v1.32.3 (pkg/apis/batch/validation/validation_test.go, "
            "pkg/registry/batch/job/strategy_test.go, pkg/registry/batch/cronjob/declarative_validation_test.go), "
            "each pinned to the earliest pinned release whose test has it in that form; written by "
            "tests/conformance/gen/validation_newer_extra.py"
        ),
        "cases": [
            *status_strategy_cases(),
            *validate_job_update_status_cases(),
            *schedule_format_cases(),
            *declarative_cases(),
            *mutable_template_cases(),
            *mutable_resources_update_cases(),
            *node_selector_cases(conformance_dir),
            *scheduling_cases(),
            *fail_index_cases(conformance_dir),
            *rendered_as_json_cases(conformance_dir),
        ],
    }


def main() -> None:
    write_vectors(OUT, document(shared_dir_argument()))


if __name__ == "__main__":
    main()
