"""The CronJob controller under check: its environment, invariants, Hypothesis machine and
explorer configuration, built like the Job ones (jobmodel.transitions.job_environment,
jobmodel.invariants.catalogue) but smaller.

The world is the CronJob and its Jobs as the API server holds them, the controller's cached
CronJob when its cache lags (`cached`), the clock and a budget of hostile moves. The Job
controller is abstracted: Jobs finish by environment moves. Moves: `sync`; `sync-stale` (the
controller's cache misses this sync's status write); `cache-catch-up`; `sync-crash` (the
controller dies after its Job calls and before its status write, then restarts with a fresh
cache); `tick` (a minute passes); `outage` (the controller is down for 10 minutes);
`job-completes NAME`, `job-fails NAME`. The API server answers a create of an existing name with
AlreadyExists, and rejects a status write made from a stale CronJob (resourceVersion conflict).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from datetime import UTC, datetime
from typing import Any, cast

import attrs
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from jobmodel.actions import CreateJob, DeleteJob, UpdateCronJobStatus
from jobmodel.api import strategy as api_strategy
from jobmodel.api.wire import cron_job_from_json
from jobmodel.checkers.explorer import ExploreResult, breadth_first
from jobmodel.checkers.trace import load_impl
from jobmodel.errors import InputError
from jobmodel.features import DEFAULT_GATES
from jobmodel.frozen import FrozenDict, thaw
from jobmodel.invariants.catalogue import Violation
from jobmodel.state import (
    COMPLETE,
    CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION,
    FAILED_CONDITION,
    FORBID_CONCURRENT,
    CronJob,
    CronJobFaults,
    CronJobSyncInput,
    Job,
    JobCondition,
)
from jobmodel.timeutil import add_seconds, format_time
from jobmodel.transitions.job_environment import Move
from jobmodel.transitions.sync_cronjob import (
    ALREADY_EXISTS,
    CronJobSyncResult,
    assigned_uid,
    sync_cronjob,
)

CronSyncImpl = Callable[[CronJobSyncInput], CronJobSyncResult]
DEFAULT_CRON_IMPL = "jobmodel.transitions.sync_cronjob:sync_cronjob"
START = datetime(2025, 1, 1, tzinfo=UTC)
OUTAGE_SECONDS = 600


@attrs.frozen
class CronBudget:
    ticks: int = 0
    stale: int = 0
    crashes: int = 0
    outages: int = 0
    failures: int = 0


@attrs.frozen
class CronWorld:
    now: datetime
    cron_job: CronJob
    jobs: tuple[Job, ...] = ()
    cached: CronJob | None = None  # the controller's lagging copy; None: the cache is current
    budget: CronBudget = CronBudget()

    def owned(self) -> list[Job]:
        return [j for j in self.jobs if _owned(j, self.cron_job)]


def _owned(job: Job, cj: CronJob) -> bool:
    ref = job.metadata.controller_ref()
    return ref is not None and ref.uid == cj.metadata.uid


def finished(job: Job) -> str | None:
    for cond in job.status.conditions:
        if cond.type in (COMPLETE, FAILED_CONDITION) and cond.status == "True":
            return cond.type
    return None


@attrs.frozen
class CronConfig:
    """A CronJob manifest (frozen JSON), the budget, the implementation by import path."""

    manifest: FrozenDict
    budget: CronBudget = CronBudget()
    impl: str = DEFAULT_CRON_IMPL

    def initial_world(self) -> CronWorld:
        manifest = thaw(self.manifest)
        if isinstance(manifest.get("metadata"), dict):
            manifest["metadata"].setdefault("namespace", "default")  # as kubectl's context would
        stored, errors = api_strategy.create_cron_job(manifest, "cronjob-uid", DEFAULT_GATES)
        if errors:
            raise InputError("manifest", "the API server rejects the CronJob: " + "; ".join(str(e) for e in errors))
        stored.setdefault("metadata", {}).setdefault("namespace", "default")
        stored["metadata"]["creationTimestamp"] = format_time(START)
        return CronWorld(START, cron_job_from_json(stored, "cronJob"), budget=self.budget)

    def sync_impl(self) -> CronSyncImpl:
        if self.impl == DEFAULT_CRON_IMPL:
            return sync_cronjob
        return cast(CronSyncImpl, load_impl(self.impl))


# --- moves --------------------------------------------------------------------------------------


def enabled_cron_moves(world: CronWorld) -> list[Move]:
    b = world.budget
    moves = [Move("sync")]
    if b.stale > 0:
        moves.append(Move("sync-stale"))
    if b.crashes > 0:
        moves.append(Move("sync-crash"))
    if world.cached is not None:
        moves.append(Move("cache-catch-up"))
    if b.ticks > 0:
        moves.append(Move("tick"))
    if b.outages > 0:
        moves.append(Move("outage"))
    for job in world.owned():
        if finished(job) is None:
            moves.append(Move("job-completes", job.metadata.name))
            if b.failures > 0:
                moves.append(Move("job-fails", job.metadata.name))
    return moves


def apply_cron_move(world: CronWorld, move: Move, impl: CronSyncImpl) -> tuple[CronWorld, CronJobSyncResult | None]:
    b = world.budget
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
    if move.kind == "outage":
        later = attrs.evolve(world, now=add_seconds(world.now, OUTAGE_SECONDS), cached=None)
        return attrs.evolve(later, budget=attrs.evolve(b, outages=b.outages - 1)), None
    if move.kind in ("job-completes", "job-fails"):
        return _finish_job(world, move), None
    raise InputError("move", f"unknown CronJob move {move.kind!r}")


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


def controller_sync(world: CronWorld, impl: CronSyncImpl, write_status: bool = True) -> tuple[CronWorld, CronJobSyncResult]:
    """One sync over the cache, with the API server's answers: AlreadyExists for a name taken,
    a conflict for a status write from a stale CronJob."""
    seen = world.cached or world.cron_job
    inp = CronJobSyncInput(cron_job=seen, jobs=world.jobs, now=world.now, faults=CronJobFaults(api_cron_job=world.cron_job))
    result = impl(inp)
    names = {j.metadata.name for j in world.jobs}
    if any(isinstance(a, CreateJob) and a.accepted and a.job.metadata.name in names for a in result.actions):
        inp = attrs.evolve(inp, faults=attrs.evolve(inp.faults, job_create_error=ALREADY_EXISTS))
        result = impl(inp)
    jobs = list(world.jobs)
    cron_job = world.cron_job
    for action in result.actions:
        if isinstance(action, CreateJob) and action.accepted:
            meta = attrs.evolve(action.job.metadata, uid=assigned_uid(action.job), creation_timestamp=world.now)
            jobs.append(attrs.evolve(action.job, metadata=meta))
        elif isinstance(action, DeleteJob) and action.accepted:
            jobs = [j for j in jobs if j.metadata.name != action.name]
        elif isinstance(action, UpdateCronJobStatus) and action.accepted and write_status and seen == world.cron_job:
            cron_job = attrs.evolve(cron_job, status=action.status)
    return attrs.evolve(world, cron_job=cron_job, jobs=tuple(jobs)), result


# --- invariants ---------------------------------------------------------------------------------


def one_job_per_scheduled_time(world: CronWorld) -> str | None:
    """The CronJob never has two Jobs for the same scheduled time: Job names are derived from the
    scheduled time (getJobName), so a second create of a run gets AlreadyExists
    (cronjob_controllerv2.go syncCronJob, getJobFromTemplate2)."""
    seen: dict[str, str] = {}
    for job in world.owned():
        when = str(job.metadata.annotations.get(CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION, job.metadata.name))
        if when in seen:
            return f"Jobs {seen[when]} and {job.metadata.name} both run the schedule time {when}"
        seen[when] = job.metadata.name
    return None


def forbid_never_two_active(before: CronWorld, move: Move, after: CronWorld) -> str | None:
    """With concurrencyPolicy Forbid a sync never leaves two unfinished Jobs. Assumption: every
    running Job is in the status.active the sync sees (the cache is current, and no crash came
    between a create and its status write): status.active is how the controller knows what runs.
    Upstream says as much in syncCronJob's Forbid branch ("it is theoretically possible to have
    concurrency with Forbid"); tests/invariants/test_cron.py shows the trace."""
    if move.kind not in ("sync", "sync-crash") or before.cached is not None:
        return None
    listed = {ref.uid for ref in before.cron_job.status.active}
    if any(finished(j) is None and j.metadata.uid not in listed for j in before.owned()):
        return None  # outside the assumption
    if after.cron_job.spec.concurrency_policy != FORBID_CONCURRENT:
        return None
    running = [j.metadata.name for j in after.owned() if finished(j) is None]
    return f"Forbid, yet {running} run together" if len(running) > 1 else None


def history_limits_hold(before: CronWorld, move: Move, after: CronWorld) -> str | None:
    """After a sync, at most successfulJobsHistoryLimit complete and failedJobsHistoryLimit failed
    Jobs remain (cleanupFinishedJobs runs first in every sync)."""
    if move.kind not in ("sync", "sync-stale", "sync-crash"):
        return None
    spec = after.cron_job.spec
    for ctype, limit in ((COMPLETE, spec.successful_jobs_history_limit), (FAILED_CONDITION, spec.failed_jobs_history_limit)):
        count = sum(1 for j in after.owned() if finished(j) == ctype)
        if limit is not None and count > limit:
            return f"{count} {ctype} Jobs kept, the limit is {limit}"
    return None


def last_schedule_time_never_goes_back(before: CronWorld, move: Move, after: CronWorld) -> str | None:
    """status.lastScheduleTime only moves forward (the controller only sets it to the time it
    just scheduled, which is after the last one)."""
    old, new = before.cron_job.status.last_schedule_time, after.cron_job.status.last_schedule_time
    if old is not None and (new is None or new < old):
        return f"lastScheduleTime went back from {old} to {new}"
    return None


CRON_STATE_INVARIANTS: dict[str, Callable[[CronWorld], str | None]] = {
    "cron-one-job-per-scheduled-time": one_job_per_scheduled_time,
}
CRON_STEP_INVARIANTS: dict[str, Callable[[CronWorld, Move, CronWorld], str | None]] = {
    "cron-forbid-never-two-active": forbid_never_two_active,
    "cron-history-limits": history_limits_hold,
    "cron-last-schedule-time-never-goes-back": last_schedule_time_never_goes_back,
}
CRON_SOMETIMES: dict[str, Callable[[CronWorld], bool]] = {
    "a CronJob run is created": lambda w: bool(w.owned()),
    "a finished run is cleaned up": lambda w: w.cron_job.status.last_successful_time is not None
    and not any(finished(j) for j in w.owned()),
}


def check_cron_state(world: CronWorld) -> list[Violation]:
    return [Violation(n, m) for n, fn in CRON_STATE_INVARIANTS.items() if (m := fn(world)) is not None]


def check_cron_step(before: CronWorld, move: Move, after: CronWorld) -> list[Violation]:
    out = [Violation(n, m) for n, fn in CRON_STEP_INVARIANTS.items() if (m := fn(before, move, after)) is not None]
    return out + check_cron_state(after)


def cron_step(world: CronWorld, move: Move, impl: CronSyncImpl) -> tuple[CronWorld, list[Violation]]:
    after, _ = apply_cron_move(world, move, impl)
    return after, check_cron_step(world, move, after)


# --- checkers -----------------------------------------------------------------------------------


def explore_cron(config: CronConfig, depth: int) -> ExploreResult:
    """Breadth-first over every interleaving, every CronJob invariant checked."""
    impl = config.sync_impl()

    def expand(world: CronWorld) -> Iterator[tuple[Move, CronWorld, list[Violation]]]:
        for move in enabled_cron_moves(world):
            after, violations = cron_step(world, move, impl)
            yield move, after, violations

    root = config.initial_world()
    return breadth_first(root, check_cron_state(root), depth, expand, lambda _w: [], list(CRON_SOMETIMES.items()))


class CronInvariantViolation(AssertionError):
    def __init__(self, violation: Violation, moves: list[Move]) -> None:
        super().__init__(f"{violation}\nmoves: {', '.join(str(m) for m in moves)}")
        self.violation = violation


def cron_machine(config: CronConfig) -> type[RuleBasedStateMachine]:
    """A Hypothesis state machine interleaving CronJob syncs with its environment."""
    impl = config.sync_impl()

    class CronMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.world = config.initial_world()
            self.moves: list[Move] = []

        @rule(data=st.data())
        def move(self, data: st.DataObject) -> None:
            chosen = data.draw(st.sampled_from(enabled_cron_moves(self.world)), label="move")
            self.moves.append(chosen)
            self.world, violations = cron_step(self.world, chosen, impl)
            if violations:
                raise CronInvariantViolation(violations[0], self.moves)

        @invariant()
        def state_invariants(self) -> None:
            violations = check_cron_state(self.world)
            if violations:
                raise CronInvariantViolation(violations[0], self.moves)

    CronMachine.__name__ = CronMachine.__qualname__ = "CronMachine"
    return CronMachine


def cron_manifest(schedule: str, policy: str = "Allow", **spec: Any) -> dict[str, Any]:
    """A small CronJob manifest for the checkers' configurations."""
    job_spec = {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "main", "image": "busybox"}]}}}
    body: Mapping[str, Any] = {"schedule": schedule, "concurrencyPolicy": policy, "jobTemplate": {"spec": job_spec}, **spec}
    return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "cj", "namespace": "default"}, "spec": body}
