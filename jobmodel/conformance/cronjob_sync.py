"""Conformance suite `cronjob-sync`: one `sync` of the CronJob controller (v2)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jobmodel.actions import CreateJob, DeleteJob, RecordEvent, Requeue, UpdateCronJobStatus
from jobmodel.api.schema import OBJ, member, obj
from jobmodel.api.wire import (
    cron_job_from_json,
    cron_job_to_json,
    job_from_json,
    job_to_json,
    time_to_json,
)
from jobmodel.conformance.suites import COMMON_CASE_KEYS, case_at, case_gates, check_names_unique
from jobmodel.errors import InputError, describe
from jobmodel.state import CronJob, CronJobFaults, CronJobStatus, CronJobSyncInput, Job
from jobmodel.timeutil import format_time, parse_time
from jobmodel.transitions.sync_cronjob import CronJobSyncResult, sync_cronjob
from jobmodel.util.jsondiff import exact_diff, list_subset_diff, subset_diff

# jobDeleteError, statusUpdateError and cronJobGetError are jobmodel's own (the shared format's
# cronjob-sync suite has no failing delete, status update or read of the CronJob).
_CONTROLLER_KEYS = frozenset(
    {"apiCronJob", "apiJobs", "jobCreateError", "jobGetError", "jobDeleteError", "statusUpdateError", "cronJobGetError"}
)


CASE_KEYS = COMMON_CASE_KEYS | {"cronJob", "jobs", "controller"}
EXPECT_KEYS = frozenset(
    {"error", "jobsCreated", "creations", "jobsDeleted", "deletions", "status", "statusUpdated",
     "requeueAfterSeconds", "warnings", "events"}
)  # fmt: skip


def _jobs(value: object, path: str) -> tuple[Job, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise InputError(path, "expected a list of Jobs")
    jobs = tuple(job_from_json(item, f"{path}[{i}]") for i, item in enumerate(value))
    check_names_unique([(j.metadata.namespace, j.metadata.name) for j in jobs], path, "Job")
    return jobs


def _opt_message(m: Mapping[str, Any], key: str) -> str | None:
    """A fault's message; "" is the harness's string zero value, no fault."""
    value = m.get(key)
    if value is not None and not isinstance(value, str):
        raise InputError(f"controller.{key}", "expected a message string")
    return value or None


def sync_input(case: Mapping[str, Any]) -> CronJobSyncInput:
    """The case's inputs as a snapshot."""
    ctl = obj(case.get("controller"), "controller")
    for key in ctl:
        if key not in _CONTROLLER_KEYS:
            raise InputError(f"controller.{key}", "not supported by the cronjob-sync suite")
    features = obj(case.get("features"), "features")
    if case.get("cronJobKey") is not None and not isinstance(case["cronJobKey"], str):
        raise InputError("cronJobKey", "expected a string")
    raw_cj = case.get("cronJob")
    api_cj = ctl.get("apiCronJob")
    faults = CronJobFaults(
        api_cron_job=None if api_cj is None else cron_job_from_json(api_cj, "controller.apiCronJob"),
        # null is the harness's nil pointer: the API server holds the cache's Jobs.
        api_jobs=None if ctl.get("apiJobs") is None else _jobs(ctl["apiJobs"], "controller.apiJobs"),
        job_create_error=_opt_message(ctl, "jobCreateError"),
        job_get_error=_opt_message(ctl, "jobGetError"),
        job_delete_error=_opt_message(ctl, "jobDeleteError"),
        status_update_error=_opt_message(ctl, "statusUpdateError"),
        cron_job_get_error=_opt_message(ctl, "cronJobGetError"),
    )
    return CronJobSyncInput(
        cron_job=None if raw_cj is None else cron_job_from_json(raw_cj, "cronJob"),
        jobs=_jobs(case.get("jobs"), "jobs"),
        now=parse_time(case.get("now"), "now"),
        gates=case_gates({**case, "features": features}),
        faults=faults,
    )


def case_from_sync_input(inp: CronJobSyncInput) -> dict[str, Any]:
    """A CronJobSyncInput as a cronjob-sync case's inputs (the inverse of `sync_input`), so that
    another engine can take the step through the oracle protocol."""
    case = case_at(
        inp.gates,
        format_time(inp.now),
        cronJob=None if inp.cron_job is None else cron_job_to_json(inp.cron_job),
        jobs=[job_to_json(j) for j in inp.jobs],
    )
    faults = inp.faults
    controller: dict[str, Any] = {}
    if faults.api_cron_job is not None:
        controller["apiCronJob"] = cron_job_to_json(faults.api_cron_job)
    if faults.api_jobs is not None:
        controller["apiJobs"] = [job_to_json(j) for j in faults.api_jobs]
    for key, message in (
        ("jobCreateError", faults.job_create_error),
        ("jobGetError", faults.job_get_error),
        ("jobDeleteError", faults.job_delete_error),
        ("statusUpdateError", faults.status_update_error),
        ("cronJobGetError", faults.cron_job_get_error),
    ):
        if message is not None:
            controller[key] = message
    if controller:
        case["controller"] = controller
    return case


def _status_json(status: CronJobStatus) -> dict[str, Any]:
    out: dict[str, Any] = {"active": [ref.name for ref in status.active]}
    for key, value in (("lastScheduleTime", status.last_schedule_time), ("lastSuccessfulTime", status.last_successful_time)):
        text = time_to_json(value)  # the zero time is null: absent
        if text is not None:
            out[key] = text
    return out


def outcome_of(result: CronJobSyncResult, before: CronJob | None) -> dict[str, Any]:
    """A sync's result in the shape of the suite's `expect`."""
    created = [a.job for a in result.actions if isinstance(a, CreateJob) and a.accepted]
    deleted = [a.name for a in result.actions if isinstance(a, DeleteJob) and a.accepted]
    events = [a for a in result.actions if isinstance(a, RecordEvent)]
    updates = [a for a in result.actions if isinstance(a, UpdateCronJobStatus)]
    requeues = [a.after_seconds for a in result.actions if isinstance(a, Requeue)]
    status = updates[-1].status if updates else (before.status if before is not None else CronJobStatus())
    jobs_created = []
    for job in created:
        entry = job_to_json(job)
        if job.metadata.creation_timestamp is not None:
            entry["scheduledTime"] = format_time(job.metadata.creation_timestamp)
        jobs_created.append(entry)
    return {
        "error": result.error is not None,
        "creations": len(created),
        "jobsCreated": jobs_created,
        "deletions": len(deleted),
        "jobsDeleted": deleted,
        "status": _status_json(status),
        "statusUpdated": bool(updates),
        "requeueAfterSeconds": requeues[-1] if requeues else None,
        "warnings": [e.reason for e in events if e.type == "Warning"],
        "events": [e.reason for e in events],
        # As upstream's FakeRecorder writes them (compared by the differential tests).
        "eventMessages": [f"{e.type} {e.reason} {e.message}" for e in events],
    }


def model_outcome(case: Mapping[str, Any]) -> dict[str, Any]:
    inp = sync_input(case)
    return outcome_of(sync_cronjob(inp), inp.cron_job)


def compare(case: Mapping[str, Any], outcome: Mapping[str, Any]) -> list[str]:
    expect = dict(obj(case.get("expect"), "expect"))
    for key, typ in (("jobsCreated", ("list", OBJ)), ("status", OBJ)):
        if key in expect:
            # Decoded: a null item of a list is an empty object, as Go's decoder makes it.
            value = member(expect, key, typ, "expect")
            expect[key] = value
            if value is None:
                del expect[key]  # null: no expectation
    want_requeue = expect.get("requeueAfterSeconds")
    if want_requeue is not None and (isinstance(want_requeue, bool) or not isinstance(want_requeue, int | float)):
        raise InputError("expect.requeueAfterSeconds", f"expected a number of seconds or null, got {describe(want_requeue)}")
    out: list[str] = []
    for key, want in expect.items():
        got = outcome.get(key)
        if key == "jobsCreated":
            out.extend(list_subset_diff(want, got if isinstance(got, list) else [], key))
        elif key == "status":
            out.extend(subset_diff(want, got, key))
        elif key == "requeueAfterSeconds" and want is not None and got is not None:
            out.extend(exact_diff(round(want, 3), round(got, 3), key))
        else:
            out.extend(exact_diff(want, got, key))
    return out
