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
from datetime import datetime, timedelta, timezone

import attrs

from jobmodel.actions import CreateJob, DeleteJob, RecordEvent, Requeue, UpdateCronJobStatus
from jobmodel.features import DEFAULT_GATES, FeatureGates
from jobmodel.schedule.cron import CronParseError, parse_standard
from jobmodel.schedule.gotime import LocationError, load_location
from jobmodel.simulation import cron_shift
from jobmodel.simulation.cron_shift import State
from jobmodel.state import COMPLETE, FAILED_CONDITION, CronJob, CronJobSyncInput, Job, JobCondition
from jobmodel.transitions.sync_cronjob import assigned_uid, formatted_schedule, sync_cronjob

# A window needing more syncs than this is cut short (the simulation says where).
MAX_SYNCS = 5_000_000
# The fast path forgets the states it keeps when they have more shapes than this.
MAX_SHAPES = 10_000
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


@attrs.frozen
class _Mark:
    """Where the simulation was at the top of one loop: its state, log length and syncs."""

    state: State
    logged: int
    syncs: int


def _shape(state: State) -> tuple[object, ...]:
    """A cheap summary that every time shift keeps: states with different shapes are never
    shifts of each other (equal shapes are only candidates, checked by `_jump`)."""
    now = state.now
    status = state.cron_job.status

    def rel(t: datetime | None) -> float | None:
        return None if t is None else (t - now).total_seconds()

    jobs = tuple((rel(j.status.start_time), j.status.conditions) for j in state.jobs)
    return (now.second, now.microsecond, rel(status.last_schedule_time), rel(status.last_successful_time), len(status.active), jobs)


@attrs.frozen
class _Jump:
    """Whole periods copied by the fast path: the state after them, their log and syncs."""

    state: State
    log: list[LogEntry]
    syncs: int


def _jump(
    marks: list[_Mark], here: _Mark, log: list[LogEntry], end: datetime, outages: tuple[Outage, ...], syncs_left: int
) -> _Jump | None:
    """Copy the period from the last mark to `here` as often as it provably repeats (module
    docstring of jobmodel.simulation.cron_shift); None when that cannot be shown."""
    if len(marks) < 2:
        return None
    a, b = marks[-2], marks[-1]
    delta = here.state.now - b.state.now
    per_period = here.syncs - b.syncs
    if not isinstance(here.state.now.tzinfo, timezone):
        return None  # the copies add times directly: only exact for a fixed offset
    if delta <= timedelta(0) or b.state.now - a.state.now != delta or b.syncs - a.syncs != per_period or per_period <= 0:
        return None
    # An outage in or after the observed periods bounds the copy (and the period must not hold one).
    limit = min([end, *(o.start for o in outages if o.end > a.state.now)])
    if limit <= here.state.now:
        return None
    if cron_shift.shift_state(b.state, delta) != here.state:
        return None
    period, previous = log[b.logged : here.logged], log[a.logged : b.logged]
    if len(period) != len(previous):
        return None
    prefix = cron_shift.job_name_prefix(here.state.cron_job)
    texts = []
    for old, new in zip(previous, period, strict=True):
        name, why = cron_shift.text_of(new.name, prefix), cron_shift.text_of(new.why, prefix)
        if name is None or why is None or new.what == "outage":
            return None
        shifted = LogEntry(cron_shift.shift_time(old.at, delta), old.what, cron_shift.shift_text(old.name, delta, prefix) or "", cron_shift.shift_text(old.why, delta, prefix) or "")
        if shifted != new:
            return None
        texts.append((new, name, why))
    cj = here.state.cron_job
    try:
        schedule = parse_standard(formatted_schedule(cj))
        # The Jobs' scheduled-time annotation is written in the CronJob's timeZone.
        annotation_zone = load_location(cj.spec.time_zone or "")
    except (CronParseError, LocationError):
        return None
    zone = here.state.now.tzinfo
    until = cron_shift.periodic_until(schedule, delta, cron_shift.lookback(b.state), limit + delta, zone, (annotation_zone,))
    # A period's syncs run at times from its start up to its end inclusive (the syncs at the
    # next mark's time come before that mark): the last copy must end before `limit`; and its
    # syncs ask the schedule about at most one period beyond it.
    room = min(until - delta, limit) - here.state.now - timedelta(microseconds=1)
    periods = min(room // delta if room > timedelta(0) else 0, syncs_left // per_period)
    if periods <= 0:
        return None
    state = cron_shift.shift_state(here.state, delta * periods)
    if state is None:
        return None
    minutes = int(delta.total_seconds()) // 60
    copied: list[LogEntry] = []
    for k in range(1, periods + 1):
        shift, moved = delta * k, minutes * k
        copied.extend(
            LogEntry(entry.at + shift, entry.what, name.render_minutes(shift, moved), why.render_minutes(shift, moved))
            for entry, name, why in texts
        )
    return _Jump(state, copied, per_period * periods)


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
    fast: bool = True,
) -> Simulation:
    """Sync the CronJob through [start, end) and log its Job creations, deletions and events;
    `on_sync` hears the clock of every sync (for a progress display; of a copied stretch, its
    end). `fast`: copy periods that provably repeat (jobmodel.simulation.cron_shift) instead of
    running them; False runs every sync (the same result, the oracle of the tests)."""
    cluster = {j.metadata.name: j for j in jobs}
    log: list[LogEntry] = []
    wake: datetime | None = start
    syncs = 0
    marks: dict[tuple[object, ...], list[_Mark]] = {}
    while wake is not None and wake < end and syncs < max_syncs:
        outage = _down(wake, outages)
        if outage is not None:
            wake = outage.end
            log.append(LogEntry(outage.start, "outage", "", f"controller down until {outage.end.isoformat()}"))
            continue
        if fast:
            here = _Mark(State(cron_job, tuple(cluster.values()), wake), len(log), syncs)
            seen = marks.setdefault(_shape(here.state), [])
            jump = _jump(seen, here, log, end, outages, max_syncs - syncs)
            if jump is not None:
                log.extend(jump.log)
                syncs += jump.syncs
                cron_job, wake = jump.state.cron_job, jump.state.now
                cluster = {j.metadata.name: j for j in jump.state.jobs}
                marks.clear()
                if on_sync is not None:
                    on_sync(wake)
                continue
            seen[:] = [*seen[-2:], here]
            if len(marks) > MAX_SHAPES:
                marks.clear()  # a run that does not repeat: bound the memory
        now = wake
        if on_sync is not None:
            on_sync(now)
        _finish_jobs(cluster, now, job_seconds, fail)
        syncs += 1
        inp = CronJobSyncInput(cron_job=cron_job, jobs=tuple(cluster.values()), now=now, gates=gates)
        result = sync_cronjob(inp)
        requeue: datetime | None = None
        changed = False
        for action in result.actions:
            if isinstance(action, CreateJob) and action.accepted:
                created = action.job
                meta = attrs.evolve(created.metadata, uid=assigned_uid(created, inp, result.actions), creation_timestamp=now)
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
