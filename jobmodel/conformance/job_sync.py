"""Suite `job-sync`: one `syncJob` of the Job controller (FORMAT.md)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from jobmodel.actions import (
    Action,
    CreatePod,
    DeletePod,
    PatchPod,
    RecordEvent,
    Requeue,
    UpdateJobStatus,
)
from jobmodel.api.schema import I32, I64, OBJ, STR, TIME, check_known, member, obj
from jobmodel.api.wire import (
    job_from_json,
    job_status_to_json,
    job_to_json,
    pod_from_json,
    pod_to_json,
)
from jobmodel.conformance.suites import case_at, case_gates, check_names_unique
from jobmodel.errors import InputError, Unsupported
from jobmodel.simulation.scenario import TUNABLE_KEYS, tunables_from, tunables_to_json
from jobmodel.state import (
    BackoffRecord,
    ConsistencyRecord,
    Expectations,
    Faults,
    InformerVersions,
    Job,
    JobControllerState,
    JobStatus,
    JobSyncInput,
    Pod,
    selector_matches,
)
from jobmodel.timeutil import format_time, parse_time
from jobmodel.transitions.sync_job import JobSyncResult, sync_job
from jobmodel.util.jsondiff import (
    conditions_diff,
    exact_diff,
    list_subset_diff,
    names_diff,
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
CASE_KEYS = frozenset({"name", "origin", "kubeVersion", "now", "features", "job", "pods", "controller", "expect"})
CONTROLLER_KEYS = frozenset(
    {
        "expectations",
        "backoff",
        "expectedFinalizerRemovals",
        "podControlError",
        "statusUpdateError",
        "podCreateLimit",
        "finishedJob",
        "consistency",
        "informers",
        "writeVersion",
        *TUNABLE_KEYS,
    }
)
# A resource version as a case gives it: a whole number (the API server's are decimal strings
# of one, compared as numbers by the consistency store).
RESOURCE_VERSION = I64
EXPECT_KEYS = frozenset(
    {
        "error",
        "creations",
        "acceptedCreations",
        "createdPods",
        "createdIndexes",
        "deletions",
        "podPatches",
        "deletedPods",
        "patchedPods",
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
    features = case_gates({**case, "features": obj(case.get("features"), "features")})
    job = None if case.get("job") is None else job_from_json(case["job"], "job")
    # null is an empty list to encoding/json; any other non-list is its unmarshal error.
    pods_value = [] if case.get("pods") is None else case["pods"]
    if not isinstance(pods_value, list):
        raise InputError("pods", "expected a list of Pods")
    pods = tuple(pod_from_json(p, f"pods[{i}]") for i, p in enumerate(pods_value))
    check_names_unique([(p.namespace, p.name) for p in pods], "pods", "pod")
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
            failures_after_last_success=member(b, "failuresAfterLastSuccess", I32, "controller.backoff") or 0,
            last_failure_time=None if last_failure is None else parse_time(last_failure, "controller.backoff.lastFailureTime"),
        )
    removals = member(controller, "expectedFinalizerRemovals", ("list", STR), "controller") or ()
    finished_uid = member(controller, "finishedJob", STR, "controller")
    consistency = consistency_from_json(controller.get("consistency"))
    informers = informers_from_json(controller.get("informers"))
    write_version = member(controller, "writeVersion", RESOURCE_VERSION, "controller")
    # What a release does not have it does not hold: finishedJobExpectations is 1.34's, the
    # consistency store 1.36's (with its gate).
    if not features.at_least(34):
        finished_uid = None
    if not features.StaleControllerConsistencyJob:
        consistency, informers = None, InformerVersions()
    faults = Faults(
        pod_control_error=member(controller, "podControlError", STR, "controller"),
        status_update_error=member(controller, "statusUpdateError", STR, "controller"),
        pod_create_limit=member(controller, "podCreateLimit", I32, "controller"),
    )
    return JobSyncInput(
        job=job,
        pods=pods,
        now=now,
        controller=JobControllerState(
            expectations=expectations,
            backoff=backoff,
            expected_finalizer_removals=frozenset(removals),
            consistency=consistency,
            finished_uid=finished_uid,
        ),
        features=features,
        faults=faults,
        informers=informers,
        write_version=1 if write_version is None else write_version,
        tunables=tunables_from({k: v for k, v in controller.items() if k in TUNABLE_KEYS}, "controller"),
    )


def consistency_from_json(value: Any) -> ConsistencyRecord | None:
    """A case's `controller.consistency`: the consistency store's record for the Job."""
    if value is None:
        return None
    path = "controller.consistency"
    record = obj(value, path)
    check_known(record, {"ownerUid", "pods", "jobs"}, path)
    owner = member(record, "ownerUid", STR, path)
    if not owner:
        raise InputError(f"{path}.ownerUid", "required: the uid of the Job the record is for")
    return ConsistencyRecord(owner, member(record, "pods", RESOURCE_VERSION, path), member(record, "jobs", RESOURCE_VERSION, path))


def informers_from_json(value: Any) -> InformerVersions:
    """A case's `controller.informers`: the resource versions the informers have caught up with."""
    if value is None:
        return InformerVersions()
    path = "controller.informers"
    versions = obj(value, path)
    check_known(versions, {"pods", "jobs"}, path)
    return InformerVersions(member(versions, "pods", RESOURCE_VERSION, path), member(versions, "jobs", RESOURCE_VERSION, path))


def model_outcome(case: Mapping[str, Any], sync: Callable[[JobSyncInput], JobSyncResult] = sync_job) -> dict[str, Any]:
    """Run the case through `sync_job` (or another step of the same type) and report it in the
    shape `expect` uses."""
    inp = sync_input_from_case(case)
    result = sync(inp)
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
        "deletedPods": [a.name for a in result.actions if isinstance(a, DeletePod)],
        "podPatches": sum(1 for a in result.actions if isinstance(a, PatchPod)),
        "patchedPods": [a.name for a in result.actions if isinstance(a, PatchPod)],
        "controller": controller_to_json(result.controller),
        "status": status_json,
        "statusUpdates": [job_status_to_json(a.status) for a in result.actions if isinstance(a, UpdateJobStatus)],
        "conditions": status_json.get("conditions", []),
        "requeueAfterSeconds": result.requeue_after_seconds,
        "events": [a.reason for a in result.actions if isinstance(a, RecordEvent)],
    }


def controller_to_json(state: JobControllerState) -> dict[str, Any]:
    """The controller's bookkeeping for a Job in the shape of a case's `controller` (expectations,
    back-off record, the finalizer removals it awaits, the finished-Job mark and the consistency
    record, each absent when none is held)."""
    out: dict[str, Any] = {}
    if state.finished_uid is not None:
        out["finishedJob"] = state.finished_uid
    if state.consistency is not None:
        record = state.consistency
        out["consistency"] = {"ownerUid": record.owner_uid} | {k: v for k, v in (("pods", record.pods), ("jobs", record.jobs)) if v is not None}
    if state.expected_finalizer_removals:
        out["expectedFinalizerRemovals"] = sorted(state.expected_finalizer_removals)
    if state.expectations is not None:
        out["expectations"] = {"add": state.expectations.add, "del": state.expectations.delete}
    if state.backoff is not None:
        last = state.backoff.last_failure_time
        out["backoff"] = {
            "failuresAfterLastSuccess": state.backoff.failures_after_last_success,
            "lastFailureTime": None if last is None else format_time(last),
        }
    return out


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
    for key in ("deletedPods", "patchedPods"):
        # Upstream makes these calls from one goroutine per pod (deleteJobPods,
        # removeTrackingFinalizerFromPods): which pods is defined, their order is not.
        if key in expect:
            out.extend(names_diff(expect[key], outcome.get(key), key))
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


def case_from_sync_input(inp: JobSyncInput) -> dict[str, Any]:
    """A JobSyncInput as a job-sync case's inputs (the inverse of `sync_input_from_case`), so
    that another implementation can take the step through the oracle protocol. Raises
    Unsupported for what a case cannot carry (an API server check of status writes)."""
    if inp.faults.status_check is not None:
        raise Unsupported("a job-sync case carries no API server check of status writes")
    case = case_at(
        inp.features,
        format_time(inp.now),
        job=None if inp.job is None else job_to_json(inp.job),
        pods=[pod_to_json(p) for p in inp.pods],
    )
    controller = controller_to_json(inp.controller)
    faults = inp.faults
    for key, value in (("podControlError", faults.pod_control_error), ("statusUpdateError", faults.status_update_error), ("podCreateLimit", faults.pod_create_limit)):
        if value is not None:
            controller[key] = value
    if inp.features.StaleControllerConsistencyJob:
        # What the consistency store (1.36+) compares the record with, and what it records.
        informers = {k: v for k, v in (("pods", inp.informers.pods), ("jobs", inp.informers.jobs)) if v is not None}
        if informers:
            controller["informers"] = informers
        controller["writeVersion"] = inp.write_version
    # The package variables upstream's tests override, under a job-scenario case's keys.
    controller.update(tunables_to_json(inp.tunables))
    if controller:
        case["controller"] = controller
    return case


def sync_result_from_outcome(inp: JobSyncInput, outcome: Mapping[str, Any]) -> JobSyncResult:
    """Another implementation's answer to a job-sync request as the step's JobSyncResult, for the
    environment to carry out: its accepted creations, its deletions and patches (a patch's kind
    told from the pod: adoption of an orphan, release of a pod the selector no longer matches,
    otherwise the tracking finalizer's removal), the status it sent (when it differs from the
    cached one), its events and requeue, and its bookkeeping (`controller`; none given: none held,
    and the back-off record kept)."""
    faults = inp.faults
    pods = {p.name: p for p in inp.pods}
    job = inp.job
    actions: list[Action] = []
    indexes = list(outcome.get("createdIndexes") or [])
    for i, pod_json in enumerate(outcome.get("createdPods") or []):
        pod = pod_from_json(pod_json, f"outcome.createdPods[{i}]")
        actions.append(CreatePod(pod, indexes[i] if i < len(indexes) else None, accepted=True))
    accepted = faults.pod_control_error is None
    for name in outcome.get("deletedPods") or []:
        if name in pods:
            actions.append(DeletePod(name, pods[name].uid, accepted))
    patches = [PatchPod(name, pods[name].uid, _patch_kind(job, pods[name]), accepted) for name in outcome.get("patchedPods") or [] if name in pods]
    status: JobStatus | None = None
    if job is not None:
        sent = outcome.get("statusUpdates")
        if sent is None:  # only the last status: sent if it differs from the cached one
            sent = [outcome["status"]] if isinstance(outcome.get("status"), Mapping) else []
        statuses = [job_from_json({**job_to_json(job), "status": s}, f"outcome.statusUpdates[{i}]").status for i, s in enumerate(sent)]
        if outcome.get("statusUpdates") is None and statuses and statuses[0] == job.status:
            statuses = []
        updates = [UpdateJobStatus(st, accepted=faults.status_update_error is None) for st in statuses]
        # As trackJobStatusWithFinalizers: the first flush records the finished pods, then their
        # finalizers go, then later flushes move them to the counts.
        actions.extend(updates[:1])
        actions.extend(patches)
        actions.extend(updates[1:])
        status = statuses[-1] if statuses else None
    else:
        actions.extend(patches)
    actions.extend(RecordEvent("Normal", str(reason), "") for reason in outcome.get("events") or [])
    if outcome.get("requeueAfterSeconds") is not None:
        actions.append(Requeue(float(outcome["requeueAfterSeconds"])))
    after = outcome.get("controller")
    if isinstance(after, Mapping):
        state = sync_input_from_case({"now": format_time(inp.now), "controller": dict(after)}).controller
        before, now_held = inp.controller.expectations, state.expectations
        if before is not None and now_held is not None and (before.add, before.delete) == (now_held.add, now_held.delete):
            # Unchanged expectations were not set again: they keep their time (and their expiry).
            state = attrs.evolve(state, expectations=before)
    else:
        state = JobControllerState(backoff=inp.controller.backoff)
    written = job
    if job is not None and status is not None and faults.status_update_error is None:
        written = attrs.evolve(job, status=status)
    error = outcome.get("errorMessage") or ("the step failed" if outcome.get("error") else None)
    return JobSyncResult(actions=tuple(actions), error=error, status=status, job=written, controller=state)


def _patch_kind(job: Job | None, pod: Pod) -> str:
    owner = pod.metadata.controller_ref()
    if job is None or owner is None:
        return "adopt"
    if owner.uid == job.uid and not selector_matches(job.spec.selector, pod.metadata.labels):
        return "release"
    return "remove-finalizer"
