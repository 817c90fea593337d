"""The CronJob catalogue: every property a correct CronJob controller keeps, stated once, over
the worlds of `jobmodel.transitions.cron_environment` (see `jobmodel.invariants.laws` for what
an entry is; docs/invariants.md is the catalogue in prose).
"""

from __future__ import annotations

from jobmodel.invariants.laws import Laws, Transition
from jobmodel.state import (
    COMPLETE,
    CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION,
    FAILED_CONDITION,
    FORBID_CONCURRENT,
)
from jobmodel.transitions.cron_environment import CronWorld
from jobmodel.transitions.sync_cronjob import CronJobSyncResult, is_job_finished

CronTransition = Transition[CronWorld, CronJobSyncResult]
CRON_LAWS: Laws[CronWorld, CronJobSyncResult] = Laws()
SYNC_MOVES = frozenset({"sync", "sync-stale", "sync-crash"})


def _running(world: CronWorld) -> list[str]:
    return [j.metadata.name for j in world.owned() if not is_job_finished(j)[0]]


@CRON_LAWS.state_invariant("cron-one-job-per-scheduled-time", "cronjob_controllerv2.go syncCronJob, getJobFromTemplate2 (getJobName)")
def one_job_per_scheduled_time(world: CronWorld) -> str | None:
    """The CronJob never has two Jobs for the same scheduled time: Job names are derived from the
    scheduled time (getJobName), so a second create of a run gets AlreadyExists."""
    seen: dict[str, str] = {}
    for job in world.owned():
        when = str(job.metadata.annotations.get(CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION, job.metadata.name))
        if when in seen:
            return f"Jobs {seen[when]} and {job.metadata.name} both run the schedule time {when}"
        seen[when] = job.metadata.name
    return None


@CRON_LAWS.step_invariant("cron-forbid-never-two-active", "cronjob_controllerv2.go syncCronJob (ForbidConcurrent)")
def forbid_never_two_active(t: CronTransition) -> str | None:
    """With concurrencyPolicy Forbid a sync never leaves two unfinished Jobs. Assumption: every
    running Job is in the status.active the sync sees (the cache is current, and no crash came
    between a create and its status write): status.active is how the controller knows what runs.
    Upstream says as much in syncCronJob's Forbid branch ("it is theoretically possible to have
    concurrency with Forbid"); tests/checkers/test_cron.py shows the trace."""
    if t.move.kind not in ("sync", "sync-crash") or t.before.cached is not None:
        return None
    listed = {ref.uid for ref in t.before.cron_job.status.active}
    if any(not is_job_finished(j)[0] and j.metadata.uid not in listed for j in t.before.owned()):
        return None  # outside the assumption
    if t.after.cron_job.spec.concurrency_policy != FORBID_CONCURRENT:
        return None
    running = _running(t.after)
    return f"Forbid, yet {running} run together" if len(running) > 1 else None


@CRON_LAWS.step_invariant("cron-history-limits", "cronjob_controllerv2.go cleanupFinishedJobs")
def history_limits_hold(t: CronTransition) -> str | None:
    """After a sync, at most successfulJobsHistoryLimit complete and failedJobsHistoryLimit failed
    Jobs remain (cleanupFinishedJobs runs first in every sync)."""
    if t.move.kind not in SYNC_MOVES:
        return None
    spec = t.after.cron_job.spec
    for ctype, limit in ((COMPLETE, spec.successful_jobs_history_limit), (FAILED_CONDITION, spec.failed_jobs_history_limit)):
        count = sum(1 for j in t.after.owned() if is_job_finished(j) == (True, ctype))
        if limit is not None and count > limit:
            return f"{count} {ctype} Jobs kept, the limit is {limit}"
    return None


@CRON_LAWS.step_invariant("cron-last-schedule-time-never-goes-back", "cronjob_controllerv2.go syncCronJob (status.lastScheduleTime = scheduledTime)")
def last_schedule_time_never_goes_back(t: CronTransition) -> str | None:
    """status.lastScheduleTime only moves forward (the controller only sets it to the time it
    just scheduled, which is after the last one)."""
    old, new = t.before.cron_job.status.last_schedule_time, t.after.cron_job.status.last_schedule_time
    if old is not None and (new is None or new < old):
        return f"lastScheduleTime went back from {old} to {new}"
    return None


@CRON_LAWS.sometimes_property("a CronJob run is created")
def run_created(world: CronWorld) -> bool:
    """The CronJob has a Job."""
    return bool(world.owned())


@CRON_LAWS.sometimes_property("a finished run is cleaned up")
def finished_run_cleaned_up(world: CronWorld) -> bool:
    """A run succeeded, and no finished Job is left (history limit 0)."""
    return world.cron_job.status.last_successful_time is not None and not any(
        is_job_finished(j)[0] for j in world.owned()
    )
