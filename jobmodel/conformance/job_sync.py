"""Suite `job-sync`: one `syncJob` of the Job controller (FORMAT.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jobmodel.actions import CreatePod, DeletePod, PatchPod, RecordEvent
from jobmodel.api.schema import I32, I64, OBJ, STR, TIME, check_known, member, obj
from jobmodel.api.wire import job_from_json, job_status_to_json, pod_from_json, pod_to_json
from jobmodel.errors import InputError
from jobmodel.features import DEFAULT_GATES
from jobmodel.state import (
    BackoffRecord,
    Expectations,
    Faults,
    JobControllerState,
    JobStatus,
    JobSyncInput,
)
from jobmodel.timeutil import parse_time
from jobmodel.transitions.sync_job import sync_job
from jobmodel.util.jsondiff import (
    conditions_diff,
    exact_diff,
    list_subset_diff,
    status_diff,
)

# The shapes of the `expect` keys whose values are read as more than JSON to compare.
EXPECT_SHAPES = {
    "createdPods": ("list", OBJ),
    "status": OBJ,
    "conditions": ("list", OBJ),
    "conditionsInclude": ("list", OBJ),
    "statusSet": ("list", STR),
}
CASE_KEYS = frozenset({"name", "origin", "now", "features", "job", "pods", "controller", "expect"})
CONTROLLER_KEYS = frozenset(
    {"expectations", "backoff", "podControlError", "statusUpdateError", "podCreateLimit"}
)
EXPECT_KEYS = frozenset(
    {
        "error",
        "creations",
        "acceptedCreations",
        "createdPods",
        "createdIndexes",
        "deletions",
        "podPatches",
        "status",
        "conditions",
        "conditionsInclude",
        "statusSet",
        "requeueAfterSeconds",
        "events",
    }
)


def sync_input_from_case(case: Mapping[str, Any]) -> JobSyncInput:
    """The case's inputs as a JobSyncInput."""
    check_known(case, CASE_KEYS, "case")
    now = parse_time(case.get("now"), "now")
    features = DEFAULT_GATES.with_overrides(obj(case.get("features"), "features"))
    job = None if case.get("job") is None else job_from_json(case["job"], "job")
    pods_value = case.get("pods") or []
    if not isinstance(pods_value, list):
        raise InputError("pods", "expected a list of Pods")
    pods = tuple(pod_from_json(p, f"pods[{i}]") for i, p in enumerate(pods_value))
    controller = obj(case.get("controller"), "controller")
    check_known(controller, CONTROLLER_KEYS, "controller")
    expectations = None
    if controller.get("expectations") is not None:
        e = obj(controller["expectations"], "controller.expectations")
        check_known(e, {"add", "del"}, "controller.expectations")
        expectations = Expectations(
            add=member(e, "add", I64, "controller.expectations") or 0,
            delete=member(e, "del", I64, "controller.expectations") or 0,
            timestamp=now,
        )
    backoff = None
    if controller.get("backoff") is not None:
        b = obj(controller["backoff"], "controller.backoff")
        check_known(b, {"failuresAfterLastSuccess", "lastFailureTime"}, "controller.backoff")
        last_failure = member(b, "lastFailureTime", TIME, "controller.backoff")
        backoff = BackoffRecord(
            failures_after_last_success=member(b, "failuresAfterLastSuccess", I64, "controller.backoff") or 0,
            last_failure_time=None if last_failure is None else parse_time(last_failure, "controller.backoff.lastFailureTime"),
        )
    faults = Faults(
        pod_control_error=member(controller, "podControlError", STR, "controller"),
        status_update_error=member(controller, "statusUpdateError", STR, "controller"),
        pod_create_limit=member(controller, "podCreateLimit", I32, "controller"),
    )
    return JobSyncInput(
        job=job,
        pods=pods,
        now=now,
        controller=JobControllerState(expectations=expectations, backoff=backoff),
        features=features,
        faults=faults,
    )


def model_outcome(case: Mapping[str, Any]) -> dict[str, Any]:
    """Run the case through `sync_job` and report it in the shape `expect` uses."""
    inp = sync_input_from_case(case)
    result = sync_job(inp)
    creates = [a for a in result.actions if isinstance(a, CreatePod)]
    accepted = [a for a in creates if a.accepted]
    status = result.status
    if status is None:
        status = inp.job.status if inp.job is not None else JobStatus()
    status_json = job_status_to_json(status)
    return {
        "error": result.error is not None,
        "errorMessage": result.error,
        "creations": len(creates),
        "acceptedCreations": len(accepted),
        "createdPods": [pod_to_json(a.pod) for a in accepted],
        "createdIndexes": sorted(a.index for a in accepted if a.index is not None),
        "deletions": sum(1 for a in result.actions if isinstance(a, DeletePod)),
        "podPatches": sum(1 for a in result.actions if isinstance(a, PatchPod)),
        "status": status_json,
        "conditions": status_json.get("conditions", []),
        "requeueAfterSeconds": result.requeue_after_seconds,
        "events": [a.reason for a in result.actions if isinstance(a, RecordEvent)],
    }


def compare(case: Mapping[str, Any], outcome: Mapping[str, Any]) -> list[str]:
    """Differences between the case's `expect` and an outcome."""
    expect = dict(case["expect"])
    check_known(expect, EXPECT_KEYS, "expect")
    for key, typ in EXPECT_SHAPES.items():
        if key in expect:
            # Decoded: a null item of a list is its zero value, as Go's decoder makes it.
            value = member(expect, key, typ, "expect")
            expect[key] = value
            if value is None:
                del expect[key]  # null: no expectation
    out: list[str] = []
    if "error" in expect:
        out.extend(exact_diff(expect["error"], outcome.get("error"), "error"))
        if expect["error"] != outcome.get("error") and outcome.get("errorMessage"):
            out.append(f"  (the step's error: {outcome['errorMessage']})")
    for key in ("creations", "acceptedCreations", "deletions", "podPatches", "createdIndexes", "events"):
        if key in expect:
            out.extend(exact_diff(expect[key], outcome.get(key), key))
    if "createdPods" in expect:
        out.extend(list_subset_diff(expect["createdPods"], outcome.get("createdPods", []), "createdPods"))
    status = outcome.get("status") or {}
    if "status" in expect:
        out.extend(status_diff(expect["status"], status, "status"))
    conditions = outcome.get("conditions", [])
    if "conditions" in expect:
        out.extend(conditions_diff(expect["conditions"], conditions, "conditions", exact=True))
    if "conditionsInclude" in expect:
        out.extend(conditions_diff(expect["conditionsInclude"], conditions, "conditionsInclude", exact=False))
    for field in expect.get("statusSet") or []:
        if field not in status:
            out.append(f"statusSet: status.{field} expected to be set, but it is absent")
    if "requeueAfterSeconds" in expect:
        want, got = expect["requeueAfterSeconds"], outcome.get("requeueAfterSeconds")
        if want is None or got is None:
            if want != got:
                out.append(f"requeueAfterSeconds: expected {want!r}, got {got!r}")
        else:
            out.extend(exact_diff(want, got, "requeueAfterSeconds"))
    return out
