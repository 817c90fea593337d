"""Run the CronJob controller model through a time window: Jobs that take a given time to
finish, controller outages, and a log of what the controller did and why.

The cluster is the smallest one the controller needs: a Job exists from its creation until it
is deleted, starts at once, and finishes (Complete, or Failed) `job_seconds` later. The
controller syncs the CronJob when it asked to be woken (its requeue), when one of its Jobs
finishes, is created or deleted (upstream's Job informer enqueues the owner), right after its
status changes (the CronJob informer enqueues it), and when it comes back from an outage (the
informers' initial list queues every CronJob); it does nothing while it is down.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import attrs

from jobmodel.actions import CreateJob, DeleteJob, RecordEvent, Requeue, UpdateCronJobStatus
from jobmodel.features import DEFAULT_GATES, FeatureGates
from jobmodel.state import COMPLETE, FAILED_CONDITION, CronJob, CronJobSyncInput, Job, JobCondition
from jobmodel.transitions.sync_cronjob import assigned_uid, sync_cronjob

# A window needing more syncs than this is cut short (the simulation says where).
MAX_SYNCS = 5_000_000
# How long a simulated Job may run: ten years.
MAX_JOB_SECONDS = 10 * 365 * 24 * 3600


@attrs.frozen
class Outage:
    """The controller is down from `start` until `end`."""

    start: datetime
    end: datetime


@attrs.frozen
class LogEntry:
    """One thing the controller did: `what` is `create`, `delete`, `event` or `sync`."""

    at: datetime
    what: str
    name: str
    why: str


@attrs.frozen
class Simulation:
    """The log and the final state."""

    log: tuple[LogEntry, ...]
    cron_job: CronJob
    jobs: tuple[Job, ...]
    syncs: int
    # Where the simulation stopped when the window needed more than MAX_SYNCS syncs.
    cut_short: datetime | None = None


def _down(at: datetime, outages: tuple[Outage, ...]) -> Outage | None:
    for outage in outages:
        if outage.start <= at < outage.end:
            return outage
    return None


def _finish_jobs(jobs: dict[str, Job], at: datetime, job_seconds: float, fail: bool) -> None:
    """Jobs whose run time is over by `at` get their final condition and completion time."""
    for name, job in list(jobs.items()):
        start = job.status.start_time
        if start is None or job.status.conditions:
            continue
        end = start + timedelta(seconds=job_seconds)
        if end <= at:
            ctype = FAILED_CONDITION if fail else COMPLETE
            status = attrs.evolve(
                job.status,
                conditions=(JobCondition(type=ctype, status="True"),),
                completion_time=None if fail else end,
            )
            jobs[name] = attrs.evolve(job, status=status)


def _next_finish(jobs: dict[str, Job], job_seconds: float) -> datetime | None:
    ends = [
        j.status.start_time + timedelta(seconds=job_seconds)
        for j in jobs.values()
        if j.status.start_time is not None and not j.status.conditions
    ]
    return min(ends) if ends else None


def simulate(
    cron_job: CronJob,
    start: datetime,
    end: datetime,
    job_seconds: float = 60.0,
    fail: bool = False,
    outages: tuple[Outage, ...] = (),
    jobs: tuple[Job, ...] = (),
    gates: FeatureGates = DEFAULT_GATES,
    max_syncs: int = MAX_SYNCS,
    on_sync: Callable[[datetime], None] | None = None,
) -> Simulation:
    """Sync the CronJob through [start, end) and log its Job creations, deletions and events;
    `on_sync` hears the clock of every sync (for a progress display)."""
    cluster = {j.metadata.name: j for j in jobs}
    log: list[LogEntry] = []
    wake: datetime | None = start
    syncs = 0
    while wake is not None and wake < end and syncs < max_syncs:
        outage = _down(wake, outages)
        if outage is not None:
            wake = outage.end
            log.append(LogEntry(outage.start, "outage", "", f"controller down until {outage.end.isoformat()}"))
            continue
        now = wake
        if on_sync is not None:
            on_sync(now)
        _finish_jobs(cluster, now, job_seconds, fail)
        syncs += 1
        result = sync_cronjob(CronJobSyncInput(cron_job=cron_job, jobs=tuple(cluster.values()), now=now, gates=gates))
        requeue: datetime | None = None
        changed = False
        for action in result.actions:
            if isinstance(action, CreateJob) and action.accepted:
                created = action.job
                meta = attrs.evolve(created.metadata, uid=assigned_uid(created), creation_timestamp=now)
                cluster[created.metadata.name] = attrs.evolve(
                    created, metadata=meta, status=attrs.evolve(created.status, start_time=now)
                )
                changed = True
                scheduled = created.metadata.creation_timestamp
                log.append(LogEntry(now, "create", created.metadata.name, f"scheduled for {scheduled.isoformat() if scheduled else '?'}"))
            elif isinstance(action, DeleteJob) and action.accepted:
                changed = True
                gone = cluster.pop(action.name, None)
                why = "history limit" if gone is not None and gone.status.conditions else "Replace: still running at the next start"
                log.append(LogEntry(now, "delete", action.name, why))
            elif isinstance(action, RecordEvent) and action.reason not in ("SuccessfulCreate", "SuccessfulDelete"):
                log.append(LogEntry(now, "event", action.reason, f"{action.type}: {action.message}"))
            elif isinstance(action, UpdateCronJobStatus):
                changed = changed or action.status != cron_job.status
                cron_job = attrs.evolve(cron_job, status=action.status)
            elif isinstance(action, Requeue):
                requeue = now + timedelta(seconds=action.after_seconds)
        if result.error is not None:
            log.append(LogEntry(now, "error", "", result.error))
        if changed:
            # The informers see the change at once and queue the CronJob again.
            continue
        finish = _next_finish(cluster, job_seconds)
        candidates = [t for t in (requeue, finish) if t is not None and t > now]
        wake = min(candidates) if candidates else None
    cut_short = wake if wake is not None and wake < end and syncs >= max_syncs else None
    return Simulation(tuple(log), cron_job, tuple(cluster.values()), syncs, cut_short)
