"""The CronJob controller's environment for the checkers: the moves that happen between syncs,
built like the Job's (`jobmodel.transitions.job_environment`) but smaller.

The world is the CronJob and its Jobs as the API server holds them, the controller's cached
CronJob when its cache lags (`cached`), the clock and a budget of hostile moves. The Job
controller is abstracted: Jobs finish by environment moves. Moves: `sync`; `sync-stale` (the
controller's cache misses this sync's status write); `cache-catch-up`; `sync-crash` (the
controller dies after its Job calls and before its status write, then restarts with a fresh
cache); `tick` (a minute passes); `late` (the next sync comes 5 or 40 seconds late: the clock
moves that much); `outage` (the controller is down for 10 minutes); `dst` (the clock jumps to a
minute before the next daylight-saving change of the CronJob's timeZone, `dst [change]`, or to a
minute before the first schedule time after it, `dst [run]`, so that ticks cross it);
`sync-create-error`, `sync-delete-error`, `sync-get-error`, `sync-status-error` (the API server
refuses the sync's Job creates, its Job deletes, its Job reads, or its status write, with a server
error); `sync-cronjob-get-error` (it refuses the read of the CronJob that a sync makes when it
meets a running Job of its own that the cached status.active lacks; enabled only then);
`job-completes NAME`, `job-fails NAME`. The API server answers a create of an existing name with
AlreadyExists, and rejects a status write made from a stale CronJob (resourceVersion conflict).
`enabled_cron_moves(world)` lists the moves possible in a state, `apply_cron_move(world, move,
impl)` carries one out; both are pure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import attrs

from jobmodel.actions import CreateJob, DeleteJob, UpdateCronJobStatus
from jobmodel.api import strategy as api_strategy
from jobmodel.api.wire import cron_job_from_json
from jobmodel.errors import InputError, quote
from jobmodel.features import DEFAULT_GATES, FeatureGates
from jobmodel.schedule.cron import CronParseError, parse_standard
from jobmodel.schedule.gotime import LocationError, load_location
from jobmodel.state import (
    COMPLETE,
    FAILED_CONDITION,
    CronJob,
    CronJobFaults,
    CronJobSyncInput,
    Job,
    JobCondition,
)
from jobmodel.timeutil import add_seconds, format_time
from jobmodel.transitions.move import Move, less_budget
from jobmodel.transitions.sync_cronjob import (
    ALREADY_EXISTS,
    CronJobSyncResult,
    assigned_uid,
    deleted_jobs,
    is_job_finished,
)

CronSyncImpl = Callable[[CronJobSyncInput], CronJobSyncResult]
START = datetime(2025, 1, 1, tzinfo=UTC)
OUTAGE_SECONDS = 600
LATE_SECONDS = ("5", "40")  # a sync a few seconds late; one later than a short startingDeadlineSeconds
DST_SEARCH_DAYS = 400  # how far ahead the next offset change of a zone is looked for
DST_TARGETS = ("change", "run")  # a minute before the change, or before the first run after it
CREATE_ERROR = "injected: the API server refused the Job create"
DELETE_ERROR = "injected: the API server refused the Job delete"
GET_ERROR = "injected: the API server refused the Job read"
STATUS_ERROR = "injected: the API server refused the CronJob status write"
CRON_JOB_GET_ERROR = "injected: the API server refused the CronJob read"
NO_INJECTED_FAULTS = CronJobFaults()
# The syncs whose Job calls of one kind the API server refuses (a budget's `faults`).
FAULTY_SYNCS = {
    "sync-create-error": CronJobFaults(job_create_error=CREATE_ERROR),
    "sync-delete-error": CronJobFaults(job_delete_error=DELETE_ERROR),
    "sync-get-error": CronJobFaults(job_get_error=GET_ERROR),
    "sync-status-error": CronJobFaults(status_update_error=STATUS_ERROR),
    # Only a sync that reads the CronJob meets it (`reads_cron_job`).
    "sync-cronjob-get-error": CronJobFaults(cron_job_get_error=CRON_JOB_GET_ERROR),
}


@attrs.frozen
class CronBudget:
    """How many hostile moves the environment may still make."""

    ticks: int = 0
    stale: int = 0
    crashes: int = 0
    outages: int = 0
    failures: int = 0
    late: int = 0
    dst: int = 0
    faults: int = 0  # syncs whose Job creates, deletes, reads, CronJob read or status write the API server refuses (FAULTY_SYNCS)


@attrs.frozen
class CronWorld:
    now: datetime
    cron_job: CronJob
    jobs: tuple[Job, ...] = ()
    cached: CronJob | None = None  # the controller's lagging copy; None: the cache is current
    budget: CronBudget = CronBudget()
    gates: FeatureGates = DEFAULT_GATES

    def owned(self) -> list[Job]:
        """The Jobs the CronJob controls."""
        return [j for j in self.jobs if _owned(j, self.cron_job)]


# The world less its budget: all that a move's effect and the laws read (transitions.move).
without_budget = less_budget(CronWorld)


def _owned(job: Job, cj: CronJob) -> bool:
    ref = job.metadata.controller_ref()
    return ref is not None and ref.uid == cj.metadata.uid


def initial_cron_world(
    manifest: Mapping[str, Any],
    budget: CronBudget = CronBudget(),
    start: datetime = START,
    gates: FeatureGates = DEFAULT_GATES,
) -> CronWorld:
    """The CronJob created through the API (defaulted and validated) at `start`, and no Jobs."""
    manifest = dict(manifest)
    if isinstance(manifest.get("metadata"), Mapping):
        manifest["metadata"] = {"namespace": "default", **manifest["metadata"]}  # as kubectl's context would
    stored, errors = api_strategy.create_cron_job(api_strategy.handler_request("CronJob", manifest, gates.release)[0], "cronjob-uid", gates)
    if errors:
        raise InputError("manifest", "the API server rejects the CronJob: " + "; ".join(str(e) for e in errors))
    stored.setdefault("metadata", {}).setdefault("namespace", "default")
    stored["metadata"]["creationTimestamp"] = format_time(start)
    return CronWorld(start, cron_job_from_json(stored, "cronJob"), budget=budget, gates=gates)


# --- which moves are enabled ---------------------------------------------------------------------


def enabled_cron_moves(world: CronWorld) -> list[Move]:
    """The moves possible in this state, in a fixed order."""
    b = world.budget
    moves = [Move("sync")]
    if b.stale > 0:
        moves.append(Move("sync-stale"))
    if b.crashes > 0:
        moves.append(Move("sync-crash"))
    if b.faults > 0:
        moves.extend(Move(kind) for kind in FAULTY_SYNCS if kind != "sync-cronjob-get-error" or reads_cron_job(world))
    if world.cached is not None:
        moves.append(Move("cache-catch-up"))
    if b.ticks > 0:
        moves.append(Move("tick"))
    if b.late > 0:
        moves.extend(Move("late", arg=seconds) for seconds in LATE_SECONDS)
    if b.outages > 0:
        moves.append(Move("outage"))
    if b.dst > 0 and next_offset_change(world) is not None:
        moves.extend(Move("dst", arg=target) for target in DST_TARGETS)
    for job in world.owned():
        if not is_job_finished(job)[0]:
            moves.append(Move("job-completes", job.metadata.name))
            if b.failures > 0:
                moves.append(Move("job-fails", job.metadata.name))
    return moves


def reads_cron_job(world: CronWorld) -> bool:
    """Whether a sync reads the CronJob from the API server: the cache lists a running Job of the
    CronJob's that the cached status.active lacks (syncCronJob: GetCronJob before it reports an
    UnexpectedJob). A refused read changes nothing in any other sync, so only these get the move."""
    seen = world.cached or world.cron_job
    listed = {ref.uid for ref in seen.status.active}
    return any(_owned(j, seen) and j.metadata.uid not in listed and not is_job_finished(j)[0] for j in world.jobs)


# --- what a move does ---------------------------------------------------------------------------


def apply_cron_move(world: CronWorld, move: Move, impl: CronSyncImpl) -> tuple[CronWorld, CronJobSyncResult | None]:
    """Carry out one move; a controller sync also returns its result."""
    b = world.budget
    injected = FAULTY_SYNCS.get(move.kind)
    if injected is not None:
        world, result = controller_sync(world, impl, injected=injected)
        return attrs.evolve(world, budget=attrs.evolve(b, faults=b.faults - 1)), result
    if move.kind in ("sync", "sync-stale", "sync-crash"):
        before = world.cached or world.cron_job
        world, result = controller_sync(world, impl, write_status=move.kind != "sync-crash")
        if move.kind == "sync-stale":
            world = attrs.evolve(world, cached=before, budget=attrs.evolve(b, stale=b.stale - 1))
        if move.kind == "sync-crash":
            world = attrs.evolve(world, cached=None, budget=attrs.evolve(b, crashes=b.crashes - 1))
        return world, result
    if move.kind == "cache-catch-up":
        return attrs.evolve(world, cached=None), None
    if move.kind == "tick":
        return attrs.evolve(world, now=add_seconds(world.now, 60), budget=attrs.evolve(b, ticks=b.ticks - 1)), None
    if move.kind == "late":
        if move.arg not in LATE_SECONDS:
            raise InputError("move.arg", f"late takes one of {', '.join(LATE_SECONDS)} seconds, not {move.arg!r}")
        return attrs.evolve(world, now=add_seconds(world.now, int(move.arg)), budget=attrs.evolve(b, late=b.late - 1)), None
    if move.kind == "dst":
        change = next_offset_change(world)
        if change is None:
            raise InputError("move", "the CronJob's timeZone has no daylight-saving change ahead")
        if move.arg not in DST_TARGETS:
            raise InputError("move.arg", f"dst takes one of {', '.join(DST_TARGETS)}, not {move.arg!r}")
        if move.arg == "run":
            change = _first_run_after(world.cron_job, change) or change
        jump_to: datetime = max(add_seconds(change, -60), world.now)
        return attrs.evolve(world, now=jump_to, budget=attrs.evolve(b, dst=b.dst - 1)), None
    if move.kind == "outage":
        later = attrs.evolve(world, now=add_seconds(world.now, OUTAGE_SECONDS), cached=None)
        return attrs.evolve(later, budget=attrs.evolve(b, outages=b.outages - 1)), None
    if move.kind in ("job-completes", "job-fails"):
        return _finish_job(world, move), None
    raise InputError("move", f"unknown CronJob move {quote(move.kind)} (known: {', '.join(CRON_MOVE_KINDS)})")


CRON_MOVE_KINDS = (
    "sync", "sync-stale", "sync-crash", *FAULTY_SYNCS, "cache-catch-up", "tick", "late", "outage", "dst",
    "job-completes", "job-fails",
)


def _first_run_after(cj: CronJob, t: datetime) -> datetime | None:
    """The CronJob's first schedule time at or after `t`, in its timeZone (None if it does not parse)."""
    try:
        schedule = parse_standard(f"TZ={cj.spec.time_zone} {cj.spec.schedule}")
    except (CronParseError, LocationError):
        return None
    return schedule.next(add_seconds(t, -1))


def next_offset_change(world: CronWorld) -> datetime | None:
    """The next instant (to the second) at which the CronJob's timeZone changes its UTC offset
    (a daylight-saving change), within DST_SEARCH_DAYS; None without a timeZone or a change."""
    name = world.cron_job.spec.time_zone
    if name is None:
        return None
    try:
        zone = load_location(name)
    except LocationError:
        return None
    now = world.now

    def offset(seconds: int) -> object:
        return add_seconds(now, seconds).astimezone(zone).utcoffset()

    here = offset(0)
    day = 86400
    low = next((d * day for d in range(1, DST_SEARCH_DAYS + 1) if offset(d * day) != here), None)
    if low is None:
        return None
    lo, hi = low - day, low  # offset(lo) == here != offset(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if offset(mid) == here else (lo, mid)
    return add_seconds(now, hi)


def _finish_job(world: CronWorld, move: Move) -> CronWorld:
    ctype = COMPLETE if move.kind == "job-completes" else FAILED_CONDITION
    jobs = []
    for job in world.jobs:
        if job.metadata.name == move.pod:
            status = attrs.evolve(
                job.status,
                conditions=(JobCondition(ctype, "True", last_transition_time=world.now),),
                start_time=job.status.start_time or job.metadata.creation_timestamp,
                completion_time=world.now if ctype == COMPLETE else None,
            )
            job = attrs.evolve(job, status=status)
        jobs.append(job)
    world = attrs.evolve(world, jobs=tuple(jobs))
    if ctype == FAILED_CONDITION:
        world = attrs.evolve(world, budget=attrs.evolve(world.budget, failures=world.budget.failures - 1))
    return world


def _name_taken(jobs: tuple[Job, ...], actions: Sequence[object], index: int) -> bool:
    """Whether the create at `index` meets a Job of its name on the API server: one that exists
    and that no earlier delete of the same sync removed (deleteJob deletes with background
    propagation, so a Job, which carries no finalizer, is gone before the next call)."""
    action = actions[index]
    if not isinstance(action, CreateJob) or not action.accepted:
        return False
    name = action.job.metadata.name
    return (action.job.metadata.namespace, name) not in deleted_jobs(actions[:index]) and any(j.metadata.name == name for j in jobs)


def conflict(cj: CronJob) -> str:
    """The API server's answer to an update from an outdated copy (apierrors.NewConflict, as
    the registry's optimistic concurrency words it)."""
    return (
        f'Operation cannot be fulfilled on cronjobs.batch "{cj.metadata.name}": the object has been modified; '
        "please apply your changes to the latest version and try again"
    )


def controller_sync(
    world: CronWorld, impl: CronSyncImpl, write_status: bool = True, injected: CronJobFaults = NO_INJECTED_FAULTS
) -> tuple[CronWorld, CronJobSyncResult]:
    """One sync over the cache, with the API server's answers: AlreadyExists for a name taken,
    a conflict for a status write from a stale CronJob; with `injected` errors, every call of
    their kinds refused with them (a server error, which the API server answers before it looks
    at the name or the resourceVersion)."""
    seen = world.cached or world.cron_job
    faults = attrs.evolve(injected, api_cron_job=world.cron_job)
    if write_status and seen != world.cron_job and faults.status_update_error is None:
        faults = attrs.evolve(faults, status_update_error=conflict(seen))
    inp = CronJobSyncInput(cron_job=seen, jobs=world.jobs, now=world.now, gates=world.gates, faults=faults)
    result = impl(inp)
    if injected.job_create_error is None and any(_name_taken(world.jobs, result.actions, i) for i in range(len(result.actions))):
        inp = attrs.evolve(inp, faults=attrs.evolve(inp.faults, job_create_error=ALREADY_EXISTS))
        result = impl(inp)
    jobs = list(world.jobs)
    cron_job = world.cron_job
    for action in result.actions:
        if isinstance(action, CreateJob) and action.accepted:
            meta = attrs.evolve(action.job.metadata, uid=assigned_uid(action.job, inp, result.actions), creation_timestamp=world.now)
            jobs.append(attrs.evolve(action.job, metadata=meta))
        elif isinstance(action, DeleteJob) and action.accepted:
            jobs = [j for j in jobs if j.metadata.name != action.name]
        elif isinstance(action, UpdateCronJobStatus) and write_status and faults.status_update_error is None:
            cron_job = attrs.evolve(cron_job, status=action.status)
    return attrs.evolve(world, cron_job=cron_job, jobs=tuple(jobs)), result
