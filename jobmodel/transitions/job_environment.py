"""The Job controller's environment for the checkers: the moves that happen between syncs.

The rules (Stateright style):
- a `World` is the simulated `Cluster` of `jobmodel.transitions.cluster` plus what the checkers
  need beside it: the Job they follow, the controller's informer lag (`hidden`: pods the API
  server holds but the controller's cache has not seen yet) and a `Budget` of hostile moves;
- `enabled_moves(world)` lists the moves possible in a state (the guards), `apply_move(world,
  move, impl)` carries one out; both are pure, and every move is a cluster move of
  `cluster.py` (syncs, pod writes, deletes, restarts, clock, Job edits and creates), never a second copy;
- the controller step under check is passed in (`impl`, the signature of `sync_job`).

The informer lag is modelled on the controller's own pod writes, where upstream's expectations
cover it, and on everyone else's: a sync made with a lagging cache (`sync-stale`) creates
pods that the cache does not show until `cache-catch-up`, their creation observed
(controller_utils.go `ControllerExpectations`, `CreationObserved`) only then; a sync whose
tracking-finalizer removals lag (`sync-stale-patches`) leaves the cache showing the pods with
the finalizer (`lagging`) until `cache-catch-up`, the removals observed (job_controller.go
`uidTrackingExpectations`, `finalizerRemovalObserved`) only then, or when a later write of the
pod is delivered (informers deliver a pod's writes in order); a sync whose pod deletions lag
(`sync-stale-deletions`) leaves the cache showing the pods as they were, not being deleted, the
deletions observed (`DeletionObserved`) only then; a pod move of the kubelet, the pod garbage
collector or someone else made as `KIND-stale` leaves the cache showing the pod as it was, the
change observed only then. A write of a pod that lags, the controller's too, is delivered after
what lags. A restarted controller lists pods afresh, so a restart also ends the lag.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, TypeVar

import attrs

from jobmodel.errors import InputError, quote
from jobmodel.features import DEFAULT_GATES, FeatureGates
from jobmodel.frozen import FrozenDict, evolve, evolver, freeze, identity_first_eq, interned, thaw
from jobmodel.state import (
    EXPECTATIONS_TIMEOUT_SECONDS,
    FAILED,
    JOB_TRACKING_FINALIZER,
    PENDING,
    RUNNING,
    SUCCEEDED,
    ContainerStatus,
    Faults,
    InformerVersions,
    Job,
    JobControllerTunables,
    JobSyncInput,
    Pod,
    PodCondition,
)
from jobmodel.timeutil import add_seconds, format_time
from jobmodel.transitions import backoff as bo
from jobmodel.transitions import cluster as cl
from jobmodel.transitions.move import Move, less_budget
from jobmodel.transitions.pod_endings import (
    SIGTERM_EXIT_CODE,
    Failure,
    container_names,
    failure_conditions,
    failure_modes,
    parse_failure,
    terminated_statuses,
)
from jobmodel.transitions.pod_utils import is_pod_ready, restarts_on_failure
from jobmodel.transitions.sync_job import JobSyncResult, is_job_finished, sync_job

SyncImpl = Callable[[JobSyncInput], JobSyncResult]

POD_ERROR = "injected: the API server refused the pod call"
STATUS_ERROR = "injected: the API server refused the status update"
EXPIRY_JUMP_SECONDS = EXPECTATIONS_TIMEOUT_SECONDS + 1
NO_FAULTS = Faults()  # made once: a sync move compared its faults with a new Faults()

# Moves of a well-behaved environment: no failures, no faults, no lag, no restarts, no edits.
WELL_BEHAVED = frozenset(
    {"sync", "cache-catch-up", "start", "ready", "succeed", "terminate", "timer-fires", "orphan-cleanup"}
)
NODE_NAME = "node-1"  # where the kubelet runs a started pod (so that its deletion is graceful)
EDIT_FIELDS = ("parallelism", "completions", "suspend")
EDIT_STALE = "edit-stale"  # an edit the Job informer delivers late (`--stale-edits`)
DELETE_STALE = "delete-job-stale"  # a deletion of the Job the Job informer delivers late (the same budget)
RESTART_CONTAINER = "restart-container"  # the kubelet restarts a failed container (restartPolicy OnFailure)
POD_MEMO_SIZE = 1 << 16  # entries of each memo of pure functions of a pod


@identity_first_eq
@attrs.frozen(cache_hash=True)
class Budget:
    """How many hostile moves the environment may still make (bounds the state space).
    `edits` are Job edits, each `field=value` (`completions=N` is an elastic edit of an Indexed
    Job: completions and parallelism both become N); each may happen once."""

    failures: int = 0
    evictions: int = 0
    deletions: int = 0
    stale: int = 0
    faults: int = 0
    restarts: int = 0
    expiries: int = 0
    job_deletions: int = 0
    recreations: int = 0
    gc: int = 0
    stale_patches: int = 0
    stale_deletions: int = 0
    stale_pod_writes: int = 0
    stale_status: int = 0
    stale_edits: int = 0
    edits: tuple[str, ...] = ()

    def spend(self, name: str) -> Budget:
        return evolve(self, **{name: getattr(self, name) - 1})


@identity_first_eq
@attrs.frozen(cache_hash=True)
class World:
    """The cluster, the Job under check (its key and uid, kept once it is gone), the pods the
    controller's cache has not seen yet (`hidden`, by name) or shows in an older version, before
    a write it has not delivered (`lagging`), the Job as its Job informer still shows it before a
    write it has not delivered, a status write of its own or a user's edit or deletion
    (`job_shown`; None: current), the hostile
    moves left, and when the controller asked to see the Job again (queue.AddAfter: back-off,
    active deadline). `template` is the
    manifest the Job was created from, which a user creates again once it is gone
    (`recreate-job`): the same in every world of one check, so no part of a world's value."""

    cluster: cl.Cluster
    job_key: str
    job_uid: str
    budget: Budget = Budget()
    hidden: frozenset[str] = frozenset()
    wake_at: datetime | None = None
    lagging: tuple[Pod, ...] = ()
    job_shown: Job | None = None
    template: FrozenDict | None = attrs.field(default=None, eq=False, hash=False, repr=False)

    # A world is immutable: what the laws and moves read of it again and again is computed once,
    # into fields that are no part of its value (plain slots: a cached_property of a slotted
    # class costs a failed lookup and a __getattr__ call the first time).
    _job_read: tuple[Job | None] | None = attrs.field(default=None, init=False, eq=False, hash=False, repr=False)
    _pods_read: tuple[Pod, ...] | None = attrs.field(default=None, init=False, eq=False, hash=False, repr=False)

    def job(self) -> Job | None:
        read = self._job_read
        if read is None:
            namespace, name = self.job_key.split("/", 1)
            read = (self.cluster.job(namespace, name),)
            object.__setattr__(self, "_job_read", read)
        return read[0]

    def pods(self) -> list[Pod]:
        """The pods the Job controls, as the API server holds them."""
        return list(self.own_pods())

    def own_pods(self) -> tuple[Pod, ...]:
        """`pods()`, without the copy."""
        read = self._pods_read
        if read is None:
            uid = self.job_uid
            read = tuple(p for p in self.cluster.pods if _owned_by(p, uid))
            object.__setattr__(self, "_pods_read", read)
        return read

    def knowing(self, job: Job | None, pods: tuple[Pod, ...]) -> World:
        """The world, told its Job and pods by a caller that built them (canonical renaming)."""
        object.__setattr__(self, "_job_read", (job,))
        object.__setattr__(self, "_pods_read", pods)
        return self

    def visible_pods(self) -> tuple[Pod, ...]:
        """The Job's pods as the controller's cache shows them (`own_pods` when none is hidden
        or lagging)."""
        hidden, pods, lagging = self.hidden, self.own_pods(), self.lagging
        if hidden:
            pods = tuple(p for p in pods if p.metadata.name not in hidden)
        if lagging:
            # A Job created again under its name does not own its predecessor's lagging pods.
            pods = cl.cache_view(pods, tuple(p for p in lagging if _owned_by(p, self.job_uid)))
        return pods


# The hottest evolve of all (every move makes a world): the class's own, without the dispatch.
with_world = evolver(World)


# The world less its budget: all that a move's effect and the laws read (transitions.move).
without_budget = less_budget(World)


def _owned_by(pod: Pod, uid: str) -> bool:
    ref = pod.metadata.controller_ref()
    return ref is not None and ref.uid == uid


def validate_edit(edit: str) -> tuple[str, str]:
    """`field=value` of a Job edit in a budget; a bad one is an InputError naming it."""
    field, sep, value = edit.partition("=")
    if not sep or field not in EDIT_FIELDS:
        raise InputError("edits", f"{quote(edit)}: expected one of {', '.join(f + '=VALUE' for f in EDIT_FIELDS)}")
    if field == "suspend" and value not in ("true", "false"):
        raise InputError("edits", f"{quote(edit)}: suspend is true or false")
    if field != "suspend" and not (value.isascii() and value.isdigit() and len(value) <= 10 and int(value) < 2**31):
        raise InputError("edits", f"{quote(edit)}: {field} is a non-negative int32")
    return field, value


def initial_world(
    manifest: Mapping[str, Any],
    budget: Budget = Budget(),
    *,
    now: datetime,
    uid: str = "job-uid",
    features: FeatureGates = DEFAULT_GATES,
    tunables: JobControllerTunables = JobControllerTunables(),
) -> World:
    """A cluster holding just the Job (created through the API: defaulted and validated)."""
    for edit in budget.edits:
        validate_edit(edit)
    cluster = cl.Cluster(now=now, features=features, tunables=tunables)
    cluster, errors = cl.create_job(cluster, manifest, uid)
    if errors:
        raise InputError("manifest", "the API server rejects the Job: " + "; ".join(str(e) for e in errors))
    job = cluster.jobs[-1]
    return World(cluster, job.key, job.uid, budget, template=freeze(manifest))


# --- which moves are enabled ---------------------------------------------------------------------


def enabled_moves(world: World) -> list[Move]:
    """The moves possible in this state, in a fixed order (controller first, then pods, then the rest)."""
    b = world.budget
    job = world.job()
    moves = [_SYNC]
    if job is not None:
        if b.stale > 0:
            moves.append(_SYNC_STALE)
        if b.stale_patches > 0:
            moves.append(_SYNC_STALE_PATCHES)
        if b.stale_deletions > 0:
            moves.append(_SYNC_STALE_DELETIONS)
        if b.stale_status > 0 and world.job_shown is None:
            moves.append(_SYNC_STALE_STATUS)
        if b.faults > 0:
            moves += _SYNC_FAULTS
    if world.hidden or world.lagging or world.job_shown is not None:
        moves.append(_CACHE_CATCH_UP)
    modes = failure_modes(job)
    # The kubelet's moves act on the API's pods (a lagging one as it is now), those the
    # controller has seen.
    hidden = world.hidden
    for pod in world.own_pods():
        if not hidden or pod.metadata.name not in hidden:
            moves += _pod_moves(pod, b, modes)
    if b.restarts > 0:
        moves.append(_RESTART)
    if b.expiries > 0 and _expectations_pending(world):
        moves.append(_EXPIRE_EXPECTATIONS)
    if world.wake_at is not None:
        moves.append(_TIMER_FIRES)
    if job is not None and deadline_ahead(world, job) is not None:
        moves.append(_DEADLINE_PASSES)
    if job is not None:
        moves.extend(Move("edit", arg=e) for e in b.edits)
        if b.stale_edits > 0:
            moves.extend(Move(EDIT_STALE, arg=e) for e in b.edits)
        if b.job_deletions > 0:
            moves.append(_DELETE_JOB)
            # (Not behind a lagging status write of the controller's: once the Job is gone, the
            # laws could no longer tell that lag from the deletion's, `status_write_lags`.)
            if b.stale_edits > 0 and not status_write_lags(world):
                moves.append(_DELETE_JOB_STALE)
    elif b.recreations > 0 and world.template is not None:
        moves.append(_RECREATE_JOB)
    if _orphan_cleanup_needed(world):
        moves.append(_ORPHAN_CLEANUP)
    return moves


# The moves without a pod or argument, made once (a Move is a value).
_SYNC = Move("sync")
_SYNC_STALE = Move("sync-stale")
_SYNC_STALE_PATCHES = Move("sync-stale-patches")
_SYNC_STALE_DELETIONS = Move("sync-stale-deletions")
_SYNC_STALE_STATUS = Move("sync-stale-status")
_SYNC_FAULTS = (Move("sync-pod-error"), Move("sync-status-error"))
_CACHE_CATCH_UP = Move("cache-catch-up")
_RESTART = Move("restart")
_EXPIRE_EXPECTATIONS = Move("expire-expectations")
_TIMER_FIRES = Move("timer-fires")
_DEADLINE_PASSES = Move("deadline-passes")
_DELETE_JOB = Move("delete-job")
_DELETE_JOB_STALE = Move(DELETE_STALE)
_RECREATE_JOB = Move("recreate-job")
_ORPHAN_CLEANUP = Move("orphan-cleanup")


@functools.lru_cache(maxsize=POD_MEMO_SIZE)
def _pod_moves(pod: Pod, b: Budget, failure_args: tuple[str, ...]) -> tuple[Move, ...]:
    """The moves of one pod (a pure function of the pod, the budget and the Job's failure modes,
    met again in many states: remembered); with `stale_pod_writes` left, each also as a write
    that reaches the controller's cache late (`-stale`)."""
    moves = _own_pod_moves(pod, b, failure_args)
    if b.stale_pod_writes > 0:
        moves = (*moves, *(Move(m.kind + STALE_SUFFIX, m.pod, m.arg) for m in moves))
    return moves


def _own_pod_moves(pod: Pod, b: Budget, failure_args: tuple[str, ...]) -> tuple[Move, ...]:
    deleting = pod.metadata.deletion_timestamp is not None
    if pod.phase in (SUCCEEDED, FAILED):
        if b.gc > 0 and not pod.metadata.finalizers:
            return (Move("pod-gc", pod.name),)
        return ()
    out: list[Move] = []
    if pod.phase == PENDING and not deleting:
        out.append(Move("start", pod.name))
    if pod.phase == RUNNING:
        if not is_pod_ready(pod) and not deleting:
            out.append(Move("ready", pod.name))
        out.append(Move("succeed", pod.name))
        if b.failures > 0 and not restarts_on_failure(pod):
            out.extend(Move("fail", pod.name, arg) for arg in failure_args)
        elif b.failures > 0 and not deleting:
            # The kubelet restarts a failed container of an OnFailure pod in place, and the pod
            # does not fail (nor are a terminating pod's containers restarted).
            out.append(Move(RESTART_CONTAINER, pod.name))
        if b.evictions > 0 and not deleting:
            out.append(Move("evict", pod.name))
    if deleting:
        out.append(Move("terminate", pod.name))
    if b.deletions > 0 and not deleting:
        out.append(Move("delete-pod", pod.name))
    return tuple(out)


def deadline_ahead(world: World, job: Job) -> datetime | None:
    """The instant the running Job's activeDeadlineSeconds runs out, when that is still ahead."""
    ads, start = job.spec.active_deadline_seconds, job.status.start_time
    if ads is None or start is None or job.spec.suspend or is_job_finished(job):
        return None
    deadline = add_seconds(start, ads)
    return deadline if deadline > world.cluster.now else None


def _expectations_pending(world: World) -> bool:
    exp = world.cluster.controller_state(world.job_key).expectations
    return exp is not None and not exp.fulfilled() and not exp.expired(world.cluster.now)


def expectations_expired(world: World) -> bool:
    """The controller's expectations for the Job are unfulfilled but past ExpectationsTimeout."""
    exp = world.cluster.controller_state(world.job_key).expectations
    return exp is not None and not exp.fulfilled() and exp.expired(world.cluster.now)


# The environment's resourceVersions, abstracted to what the consistency store compares: every
# write of the controller is WRITTEN; the pod informer has caught up with it unless some pod
# write is still undelivered (hidden or lagging). Informers deliver in resourceVersion order, so
# a controller write made while another write lags is undelivered too; and the record of a write
# made with nothing lagging is dropped at once (`without_spent_marks`: the informer has it), so
# a record that stands while something lags is one the informer is behind; the informer behind
# is at WRITTEN - 1, a version upstream can compare (a positive number). The Job informer is
# current but after a sync whose status writes it delivers late or a user's edit it delivers late
# (`job_shown`), and the same holds of it: a sync's status writes while it lags conflict, so none
# is made; behind an edit only, the record of the controller's Job writes is spent
# (`edit_job_seen_late`). One simplification: after
# `recreate-job` the hidden pods may be the predecessor's, older than the new Job's creations,
# which the cache shows at once where a real informer would hold them back behind the older ones
# (the consistency store, reading versions, does see that lag; docs/invariants.md).
WRITTEN = 2


def informer_versions(behind: bool, job_behind: bool) -> InformerVersions:
    """What the informers have caught up with while some pod write is not delivered (`behind`:
    a creation hidden, a pod write lagging) or a status write of the Job (`job_behind`)."""
    return InformerVersions(pods=WRITTEN - 1 if behind else WRITTEN, jobs=WRITTEN - 1 if job_behind else WRITTEN)


def consistency_guarded(world: World) -> bool:
    """The controller waits for its own writes to reach the cache (the consistency store, 1.36+)."""
    return world.cluster.features.StaleControllerConsistencyJob


def cache_behind_own_writes(world: World) -> bool:
    """The controller's cache has not caught up with a write of its own (a record stands and a
    creation is hidden, a finalizer removal or deletion lagging, or a status write of the Job),
    so that from 1.36 a sync waits for it (consistencyStore.EnsureReady)."""
    if not (world.hidden or world.lagging or world.job_shown is not None) or not consistency_guarded(world):
        return False
    record = world.cluster.controller_state(world.job_key).consistency
    if record is None:
        return False
    return (record.pods is not None and bool(world.hidden or world.lagging)) or (
        record.jobs is not None and world.job_shown is not None
    )


def status_write_lags(world: World) -> bool:
    """The controller's cache shows the Job before a status write of its own (`sync-stale-status`),
    not just before a user's edit (`edit-stale`, which leaves the status as it was)."""
    shown, job = world.job_shown, world.job()
    return shown is not None and job is not None and shown.status != job.status


def lag_covered(world: World) -> bool:
    """Every pod missing from the controller's cache is covered by unexpired creation
    expectations (so the controller waits instead of trusting the stale list)."""
    if not world.hidden:
        return True
    exp = world.cluster.controller_state(world.job_key).expectations
    return exp is not None and not exp.expired(world.cluster.now) and exp.add >= len(world.hidden)


def backoff_remaining(world: World) -> float:
    """Seconds left of the Job's pod-recreation back-off, by the controller's record."""
    record = world.cluster.controller_state(world.job_key).backoff
    if record is None:
        return 0.0
    t = world.cluster.tunables
    return bo.remaining_time(record, world.cluster.now, t.pod_failure_backoff_seconds, t.max_pod_failure_backoff_seconds)


def _orphan_cleanup_needed(world: World) -> bool:
    """Some pod the controller's cache shows holds the tracking finalizer although its Job is
    gone or finished (the orphan worker reads the cache: a pod it has not seen waits)."""
    unfinished: set[str] | None = None  # the uids of the Jobs not finished, once some pod asks
    # (A pod whose finalizer removal lags is shown with the finalizer, but holds none: the
    # worker's patch would change nothing, so it is left out.)
    for pod in world.cluster.pods:
        if JOB_TRACKING_FINALIZER not in pod.metadata.finalizers:  # has_job_tracking_finalizer, inline
            continue
        if pod.name in world.hidden:
            continue
        if unfinished is None:
            unfinished = {j.uid for j in _cached_jobs(world.cluster, world.job_shown) if not is_job_finished(j)}
        ref = pod.metadata.controller_ref()
        if ref is None or ref.uid not in unfinished:
            return True
    return False


def _cached_jobs(cluster: cl.Cluster, shown: Job | None) -> tuple[Job, ...]:
    """The Jobs as the controller's Job informer shows them (`shown` in place of the current, or
    still there when the Job's deletion lags)."""
    if shown is None:
        return cluster.jobs
    if all(j.uid != shown.uid for j in cluster.jobs):
        return (*cluster.jobs, shown)
    return tuple(shown if j.uid == shown.uid else j for j in cluster.jobs)


# --- what a move does ---------------------------------------------------------------------------


def apply_move(world: World, move: Move, impl: SyncImpl = sync_job) -> tuple[World, JobSyncResult | None]:
    """Carry out one move; a controller sync also returns its result."""
    kind = move.kind
    if kind in _SYNCS:
        faults, late = _SYNCS[kind]
        return controller_sync_with(world, impl, faults, late)
    handler = _MOVES.get(kind)
    seen_late = handler is None and kind in STALE_POD_MOVES
    if seen_late:
        kind = kind[: -len(STALE_SUFFIX)]
        handler, move = _MOVES[kind], Move(kind, move.pod, move.arg)
    if handler is None:
        raise InputError("move", f"unknown move {quote(kind)} (known: {', '.join(MOVE_KINDS)})")
    if world.lagging and kind != "cache-catch-up" and _writes_lagging_pod(world, move):
        # The informer delivers a pod's writes in order: the lagging ones before this one.
        world = deliver_lagging(world)
    if world.job_shown is not None and kind in _JOB_WRITES:
        # ... and a Job's: the lagging writes (the controller's status, earlier edits, the
        # deletion) before a user's edit, deletion or creation again that the cache shows at once.
        world = deliver_job(world)
    if seen_late:
        return _written_late(world, move, handler), None
    if world.job_shown is not None and kind in _POD_WRITES:
        return _reading_job_cache(world, lambda w: handler(w, move)), None
    return handler(world, move), None


def _reading_job_cache(world: World, change: Callable[[World], World]) -> World:
    """`change` (pod writes) with the controller's handlers reading the Job cache (`_handlers_on_cached_jobs`)."""
    if world.job_shown is None:
        return change(world)

    def on(cluster: cl.Cluster) -> tuple[cl.Cluster, World]:
        after = change(with_world(world, cluster=cluster))
        return after.cluster, after

    cluster, after = _handlers_on_cached_jobs(world.cluster, world.job_shown, on)
    return with_world(after, cluster=cluster)


T = TypeVar("T")


def _handlers_on_cached_jobs(
    cluster: cl.Cluster, shown: Job | None, write: Callable[[cl.Cluster], tuple[cl.Cluster, T]]
) -> tuple[cl.Cluster, T]:
    """`write`, which writes pods and no Job, with the controller reading the Jobs from its cache
    (resolveControllerRef and the orphan worker read the Job lister): while a write of the Job
    lags (`shown`), deletePod finds the Job as it was, unfinished though a status write finished
    it. The API server's Jobs stay as they are."""
    if shown is None:
        return write(cluster)
    after, extra = write(cl.with_cluster(cluster, jobs=_cached_jobs(cluster, shown)))
    return cl.with_cluster(after, jobs=cluster.jobs), extra


def _written_late(world: World, move: Move, handler: Callable[[World, Move], World]) -> World:
    """A pod move whose write the informer delivers late (`start-stale`, ...): the cache keeps
    showing the pod as it was (`lagging`; gone since, if the move removed it), and the
    controller's handlers observe the change only when it is delivered (`deliver_lagging`)."""
    shown = _pod(world, move.pod)
    after = handler(world, move)
    cluster = cl.with_cluster(after.cluster, controller=world.cluster.controller)
    return with_world(after, cluster=cluster, lagging=(*after.lagging, shown), budget=after.budget.spend("stale_pod_writes"))


def _writes_lagging_pod(world: World, move: Move) -> bool:
    return any(p.name == move.pod for p in world.lagging)


def controller_sync_with(
    world: World, impl: SyncImpl, faults: Faults = NO_FAULTS, late: str | None = None
) -> tuple[World, JobSyncResult]:
    """One sync of the Job by `impl` over the controller's cache (the API's pods less the hidden
    ones, the lagging ones as it still shows them), its accepted calls applied as
    `cluster.controller_sync` does. Which of its writes reach the cache late (`late`):
    "creations", whose pods are hidden and their creation not observed until `cache-catch-up`;
    "patches" or "deletions", its removals of the tracking finalizer or its pod deletions, shown
    as before and observed then (`lagging`); "status", its status writes, the Job shown as before
    (`job_shown`). Unlike `cluster.controller_sync`, status writes are
    not checked by the API server here, so that the status invariants see every status the
    controller sends."""
    late_writes = None if late in ("creations", "status") else late
    cluster, result, shown = synced_cluster(
        world.cluster, world.job_key, world.hidden, impl, faults, world.lagging, late_writes, world.job_shown
    )
    before = world.cluster.pods
    job_before = world.job() if late == "status" and world.job_shown is None else None
    world = with_world(world, cluster=cluster, wake_at=_wake_at(world, result))
    if job_before is not None and world.job() != job_before:
        world = with_world(world, job_shown=job_before, budget=world.budget.spend("stale_status"))
    if late == "creations":
        names = {p.name for p in before}
        created = frozenset(p.name for p in cluster.pods if p.name not in names)
        if created:
            world = _unobserve_creations(world, created)
            world = with_world(world, budget=world.budget.spend("stale"))
    if shown:
        # (A write of a pod already lagging lags behind it, at no cost: only `late_writes` add pods.)
        world = with_world(world, lagging=(*world.lagging, *shown), budget=world.budget.spend(f"stale_{late_writes}"))
    if faults is not NO_FAULTS and faults != NO_FAULTS:
        world = with_world(world, budget=world.budget.spend("faults"))
    return without_spent_marks(_forget_gone(world)), result


def without_spent_marks(world: World) -> World:
    """The world less the controller's marks that the next sync drops unread: while the Job's
    cache is current, the finished mark (the cache shows the finished Job), and while nothing
    lags, the consistency record (every informer has caught up with it). Fewer states for the
    checkers, the same behaviour."""
    state = world.cluster.controller_state(world.job_key)
    if state.finished_uid is None and state.consistency is None:
        return world
    job_current = world.job_shown is None
    keep_record = state.consistency is not None and bool(world.hidden or world.lagging or not job_current)
    keep_mark = state.finished_uid is None or not job_current
    if keep_mark and (state.consistency is None or keep_record):
        return world
    state = evolve(
        state,
        finished_uid=state.finished_uid if keep_mark else None,
        consistency=state.consistency if keep_record else None,
    )
    return with_world(world, cluster=cl.with_controller_state(world.cluster, world.job_key, state))


# Per implementation (forgotten with it): (cluster, key, hidden, faults, lagging, late_writes,
# job_shown) -> synced_cluster's result.
_SYNCED: weakref.WeakKeyDictionary[Any, dict[tuple[Any, ...], tuple[cl.Cluster, JobSyncResult, tuple[Pod, ...]]]] = (
    weakref.WeakKeyDictionary()
)
SYNCED_LIMIT = 1 << 17  # cleared when full: 1 << 14 was full at depth 13 of indexed.yaml


def synced_cluster(
    cluster: cl.Cluster,
    key: str,
    hidden: frozenset[str],
    impl: SyncImpl,
    faults: Faults,
    lagging: tuple[Pod, ...] = (),
    late_writes: str | None = None,
    job_shown: Job | None = None,
) -> tuple[cl.Cluster, JobSyncResult, tuple[Pod, ...]]:
    """The cluster after one sync over the cache (the API's pods less `hidden`, `lagging` in
    their older version, the Job as `job_shown` when that is older: its status writes then
    conflict; with `late_writes` its finalizer removals or deletions not observed),
    the sync's result, and the pods its late writes leave the cache showing (each as it was
    before them): a pure function of its arguments, met again in worlds that differ in
    what the checkers keep beside the cluster (the budget, a stale sync's aftermath), so
    remembered."""
    try:
        memo = _SYNCED.setdefault(impl, {})
    except TypeError:  # an implementation that cannot be weakly referenced is not remembered
        return _sync_over_cache(cluster, key, hidden, impl, faults, lagging, late_writes, job_shown)
    args = (cluster, key, hidden, faults, lagging, late_writes, job_shown)
    found = memo.get(args)
    if found is None:
        if len(memo) >= SYNCED_LIMIT:
            memo.clear()  # only costs time
        found = memo[args] = _sync_over_cache(cluster, key, hidden, impl, faults, lagging, late_writes, job_shown)
    return found


def _sync_over_cache(
    cluster: cl.Cluster,
    key: str,
    hidden: frozenset[str],
    impl: SyncImpl,
    faults: Faults,
    lagging: tuple[Pod, ...],
    late_writes: str | None,
    job_shown: Job | None,
) -> tuple[cl.Cluster, JobSyncResult, tuple[Pod, ...]]:
    namespace, name = key.split("/", 1)
    current = cluster.job(namespace, name)
    job = current if job_shown is None else job_shown
    if job_shown is not None and faults.status_update_error is None:
        # UpdateStatus sends the cached Job's resourceVersion, older than the API server's; a
        # Job the cache still shows after its deletion is not found.
        error = conflict_error(name) if current is not None else not_found_error(name)
        faults = evolve(faults, status_update_error=error)
    informers = informer_versions(bool(hidden or lagging), job_shown is not None)
    inp = cl.job_sync_input(cluster, job, key, faults, unseen=hidden, cached=lagging, informers=informers, write_version=WRITTEN)
    result = impl(inp)
    cluster = cl.with_controller_state(cluster, key, result.controller)
    lagging_names = frozenset(p.metadata.name for p in lagging)

    def apply(c: cl.Cluster) -> tuple[cl.Cluster, tuple[Pod, ...]]:
        return cl.apply_job_sync_actions_late(c, key, result, late_writes, lagging_names)

    # Over a lagging Job its status writes conflicted: it writes pods only.
    cluster, late = _handlers_on_cached_jobs(cluster, job_shown, apply)
    return cluster, result, late


def _wake_at(world: World, result: JobSyncResult) -> datetime | None:
    """The earliest pending queue.AddAfter once this sync's requeue is added."""
    after = result.requeue_after_seconds
    if after is None:
        return world.wake_at
    at = add_seconds(world.cluster.now, after)
    return at if world.wake_at is None or at < world.wake_at else world.wake_at


def _unobserve_creations(world: World, names: frozenset[str]) -> World:
    """The cache has not seen these creations: hide the pods and undo CreationObserved."""
    state = world.cluster.controller_state(world.job_key)
    if state.expectations is not None:
        exp = state.expectations
        state = evolve(state, expectations=evolve(exp, add=exp.add + len(names)))
    cluster = cl.with_controller_state(world.cluster, world.job_key, state)
    return with_world(world, cluster=cluster, hidden=world.hidden | names)


def conflict_error(name: str) -> str:
    """The API server's answer to an update that carries an older resourceVersion (Conflict)."""
    return (
        f'Operation cannot be fulfilled on jobs.batch "{name}": the object has been modified; '
        "please apply your changes to the latest version and try again"
    )


def not_found_error(name: str) -> str:
    """The API server's answer to a write of a Job that is gone (NotFound)."""
    return f'jobs.batch "{name}" not found'


def cache_catch_up(world: World, move: Move | None = None) -> World:
    """The informers deliver the pending writes: the Job's status (`deliver_job`), the lagging
    pod finalizer removals and deletions (`deliver_lagging`), then the creations: the cache shows them, and each pod whose owner the
    controller finds (a Job of that name and uid: resolveControllerRef) lowers that
    Job's creation expectations (Controller.addPod -> CreationObserved). A pod of a deleted
    Job, or of the one its successor of the same name replaced, is observed by no one."""
    world = deliver_lagging(deliver_job(world))
    if not world.hidden:
        return world
    state = world.cluster.controller_state(world.job_key)
    if state.expectations is not None:
        exp = state.expectations
        state = evolve(state, expectations=evolve(exp, add=exp.add - _creations_observed(world)))
    cluster = cl.with_controller_state(world.cluster, world.job_key, state)
    return with_world(world, cluster=cluster, hidden=frozenset())


def deliver_job(world: World) -> World:
    """The Job informer delivers the lagging write of the Job (the controller's status write, a
    user's edit or deletion): the cache shows the Job as it is
    (Controller.updateJob only queues the Job, and the orphan sweep for a finished one; on a
    deletion Controller.deleteJob acts: `cluster.delete_job_observed`), and the
    marks the next sync would drop unread go (`without_spent_marks`)."""
    shown = world.job_shown
    if shown is None:
        return world
    if world.job() is None:
        world = with_world(world, cluster=cl.delete_job_observed(world.cluster, shown))
    return without_spent_marks(with_world(world, job_shown=None))


def deliver_lagging(world: World) -> World:
    """The informer delivers the lagging pod writes (the controller's finalizer removals and
    deletions, the kubelet's and others' writes): the cache shows the pods as they are now, and
    the controller's handlers observe each change (updatePod, or deletePod for a pod being
    deleted or gone since: finalizerRemovalObserved, DeletionObserved)."""
    if not world.lagging:
        return world
    return _reading_job_cache(world, _observe_lagging)


def _observe_lagging(world: World) -> World:
    cluster = world.cluster
    namespace = world.job_key.split("/", 1)[0]
    for old in world.lagging:
        cluster = cl.observe_pod_change(cluster, old, cluster.pod(namespace, old.name))
    return with_world(world, cluster=cluster, lagging=())


def _creations_observed(world: World) -> int:
    """How many of the hidden pods, once the cache shows them, count against the expectations
    of the Job under the world's key."""
    cluster, (namespace, _name) = world.cluster, world.job_key.split("/", 1)
    observed = 0
    for name in world.hidden:
        pod = cluster.pod(namespace, name)
        job = cl.resolve_controller_ref(cluster, namespace, pod.metadata.controller_ref()) if pod is not None else None
        observed += job is not None and job.key == world.job_key
    return observed


def _forget_gone(world: World) -> World:
    if not world.hidden:
        return world
    names = {p.name for p in world.cluster.pods}
    return with_world(world, hidden=frozenset(n for n in world.hidden if n in names))


def _pod(world: World, name: str) -> Pod:
    namespace = world.job_key.split("/", 1)[0]
    pod = world.cluster.pod(namespace, name)
    if pod is None:
        raise InputError("move.pod", f"no pod {quote(name)}")
    return pod


def _write_status(world: World, pod: Pod, **changes: Any) -> World:
    new = Pod(pod.metadata, pod.spec, evolve(pod.status, **changes))
    return _write(world, pod, new)


def _write(world: World, pod: Pod, new: Pod) -> World:
    return _with_pods_changed(world, cl.update_pod(world.cluster, pod, new))


def _with_pods_changed(world: World, cluster: cl.Cluster) -> World:
    """The world over `cluster`, whose Jobs are the world's: its Job, if read, is known already."""
    after = with_world(world, cluster=cluster)
    if cluster.jobs is world.cluster.jobs:
        object.__setattr__(after, "_job_read", world._job_read)
    return after


# The pods a pod move makes are pure functions of the pod and the clock, met again in many
# states (the same pod started at the same instant beside other pods, budgets, caches): made
# once and interned, so that the checkers meet one object (hashed once, compared by identity).


def start_pod(world: World, move: Move) -> World:
    """The scheduler binds the pod to a node and the kubelet starts it: Running (a pod on a
    node is deleted gracefully: cluster.pod_deletion_grace_period)."""
    pod = _pod(world, move.pod)
    if pod.metadata.deletion_timestamp is not None:
        # The controller sees each write of a pod being deleted as a deletion: two writes.
        scheduled = Pod(pod.metadata, pod.spec.set("nodeName", NODE_NAME), pod.status)
        world = _write(world, pod, scheduled)
        return _write_status(world, scheduled, phase=RUNNING, start_time=world.cluster.now)
    # Otherwise what it observes of the binding and of the status write is the same as of both
    # at once (the pod's finalizers, unchanged): one write.
    return _write(world, pod, _started(pod, world.cluster.now))


@functools.lru_cache(maxsize=POD_MEMO_SIZE)
def _started(pod: Pod, now: datetime) -> Pod:
    """The pod bound to the node and Running since `now`."""
    return interned(Pod(pod.metadata, pod.spec.set("nodeName", NODE_NAME), evolve(pod.status, phase=RUNNING, start_time=now)))


def ready_pod(world: World, move: Move) -> World:
    """The pod's readiness probe passes: Ready=True."""
    pod = _pod(world, move.pod)
    return _write(world, pod, _made_ready(pod, world.cluster.now))


@functools.lru_cache(maxsize=POD_MEMO_SIZE)
def _made_ready(pod: Pod, now: datetime) -> Pod:
    """The pod Ready since `now`."""
    ready = PodCondition("Ready", "True", last_transition_time=now)
    others = tuple(c for c in pod.status.conditions if c.type != "Ready")
    return interned(Pod(pod.metadata, pod.spec, evolve(pod.status, conditions=(*others, ready))))


def _terminated(
    world: World,
    pod: Pod,
    phase: str,
    failure: Failure | None = None,
    extra: tuple[PodCondition, ...] = (),
    all_code: int = 0,
) -> World:
    """The pod ends in `phase`: every container terminated (`failure` names the failing one),
    not Ready, with the given conditions."""
    return _write(world, pod, _ended(pod, world.job(), world.cluster.now, phase, failure, extra, all_code))


@functools.lru_cache(maxsize=POD_MEMO_SIZE)
def _ended(
    pod: Pod, job: Job | None, now: datetime, phase: str, failure: Failure | None, extra: tuple[PodCondition, ...], all_code: int
) -> Pod:
    """The pod as `_terminated` leaves it (the Job names its containers)."""
    inits, containers = terminated_statuses(job, now, failure, all_code)
    if not pod.status.container_statuses and pod.phase == PENDING:
        inits, containers = (), ()  # it never started
    elif pod.status.container_statuses:
        containers = _restarts_kept(pod.status.container_statuses, containers)
    conditions = tuple(c for c in pod.status.conditions if c.type != "Ready")
    not_ready = PodCondition("Ready", "False", reason="PodCompleted", last_transition_time=now)
    status = evolve(
        pod.status,
        phase=phase,
        init_container_statuses=inits,
        container_statuses=containers,
        conditions=(*conditions, not_ready, *extra),
    )
    return interned(Pod(pod.metadata, pod.spec, status))


def _restarts_kept(before: tuple[ContainerStatus, ...], ended: tuple[ContainerStatus, ...]) -> tuple[ContainerStatus, ...]:
    """The ended containers' statuses with the restartCount and last state each had (restart_container)."""
    known = {c.name: c for c in before}
    return tuple(
        evolve(c, restart_count=old.restart_count, extra=old.extra) if (old := known.get(c.name)) and old.restart_count else c
        for c in ended
    )


def succeed_pod(world: World, move: Move) -> World:
    """The pod's containers exit 0: Succeeded."""
    return _terminated(world, _pod(world, move.pod), SUCCEEDED)


def fail_pod(world: World, move: Move) -> World:
    """The pod fails as the move's argument says (pod_endings: an exit code in a container, a
    pod condition; by default the first container exits 1): Failed."""
    failure = parse_failure(world.job(), move.arg)
    pod = _pod(world, move.pod)
    world = _terminated(world, pod, FAILED, failure, failure_conditions(failure, world.cluster.now))
    return with_world(world, budget=world.budget.spend("failures"))


def restart_container(world: World, move: Move) -> World:
    """A container of a running `restartPolicy: OnFailure` pod exits 1 and the kubelet restarts
    it in place: its restartCount grows by one (pastBackoffLimitOnFailure counts it), its last
    state is the exit, and the pod stays Running. The first of the Job's containers fails; its
    readiness is as before (without a readiness probe a restarted container is ready once it
    runs, so the moment it is not is no write the controller acts on)."""
    pod = _pod(world, move.pod)
    world = _write(world, pod, _with_container_restarted(pod, world.job(), world.cluster.now))
    return with_world(world, budget=world.budget.spend("failures"))


@functools.lru_cache(maxsize=POD_MEMO_SIZE)
def _with_container_restarted(pod: Pod, job: Job | None, now: datetime) -> Pod:
    """The pod with its first container restarted at `now` (each container running: a started
    pod's containers have no status until one of them restarts)."""
    names = container_names(job)[1] if job is not None else ()
    known = {c.name: c for c in pod.status.container_statuses}
    names = tuple(names) or tuple(known) or ("main",)
    since = freeze({"running": {"startedAt": format_time(now)}})
    failed = freeze({"terminated": {"exitCode": 1, "reason": "Error", "finishedAt": format_time(now)}})

    def status(name: str) -> ContainerStatus:
        old = known.get(name) or ContainerStatus(name=name, other_state=since)
        if name != names[0]:
            return old
        return ContainerStatus(
            name=name, restart_count=old.restart_count + 1, other_state=since, extra=old.extra.set("lastState", failed)
        )

    statuses = tuple(status(n) for n in names)
    return interned(Pod(pod.metadata, pod.spec, evolve(pod.status, container_statuses=statuses)))


def evict_pod(world: World, move: Move) -> World:
    """The pod is evicted: Failed with a DisruptionTarget condition, exit code 137."""
    disruption = PodCondition("DisruptionTarget", "True", reason="EvictionByEvictionAPI", last_transition_time=world.cluster.now)
    world = _terminated(world, _pod(world, move.pod), FAILED, Failure(137), (disruption,))
    return with_world(world, budget=world.budget.spend("evictions"))


def terminate_pod(world: World, move: Move) -> World:
    """A pod being deleted ends: the kubelet stops a running pod's containers (SIGTERM, exit 143);
    an unscheduled one is marked Failed by the pod garbage collector (DisruptionTarget,
    DeletionByPodGC). Either way the pod is Failed, its grace period over, and the API server
    removes it once no finalizer holds it."""
    pod = _pod(world, move.pod)
    now = world.cluster.now
    if pod.node_name:
        world = _terminated(world, pod, FAILED, all_code=SIGTERM_EXIT_CODE)
    else:
        gc = PodCondition("DisruptionTarget", "True", reason="DeletionByPodGC", last_transition_time=now)
        world = _terminated(world, pod, FAILED, extra=(gc,))
    pod = _pod(world, move.pod)
    ended = evolve(pod, metadata=evolve(pod.metadata, deletion_grace_period_seconds=0))
    if not pod.metadata.finalizers:
        return _forget_gone(with_world(world, cluster=cl.remove_pod(world.cluster, pod)))
    return with_world(world, cluster=cl.update_pod(world.cluster, pod, ended))


def pod_gc(world: World, move: Move) -> World:
    """The pod garbage collector removes a finished pod that no finalizer holds."""
    cluster = cl.remove_pod(world.cluster, _pod(world, move.pod))
    return _forget_gone(with_world(world, cluster=cluster, budget=world.budget.spend("gc")))


def deadline_passes(world: World, move: Move | None = None) -> World:
    """Time passes up to the running Job's active deadline (whether or not the controller asked
    to be woken then)."""
    job = world.job()
    deadline = deadline_ahead(world, job) if job is not None else None
    if deadline is None:
        raise InputError("move", "the Job has no active deadline ahead")
    return with_world(world, cluster=cl.advance(world.cluster, (deadline - world.cluster.now).total_seconds()))


def delete_pod_move(world: World, move: Move) -> World:
    """Someone else deletes the pod through the API (cluster.delete_pod)."""
    cluster = cl.delete_pod(world.cluster, _pod(world, move.pod))
    return _forget_gone(with_world(world, cluster=cluster, budget=world.budget.spend("deletions")))


def restart(world: World, move: Move | None = None) -> World:
    """The controller restarts: expectations, back-off records and its queue are lost, its
    informers list afresh (and every Job is synced again)."""
    cluster = cl.restart_controller(world.cluster)
    return with_world(
        world, cluster=cluster, hidden=frozenset(), lagging=(), job_shown=None, wake_at=None, budget=world.budget.spend("restarts")
    )


def expire_expectations(world: World, move: Move | None = None) -> World:
    """The clock jumps past ExpectationsTimeout (5 minutes) while expectations are unfulfilled."""
    cluster = cl.advance(world.cluster, EXPIRY_JUMP_SECONDS)
    return with_world(world, cluster=cluster, budget=world.budget.spend("expiries"))


def timer_fires(world: World, move: Move | None = None) -> World:
    """The clock moves to the controller's earliest requested requeue (the end of a back-off,
    an active deadline), which then leaves the queue's waiting set."""
    assert world.wake_at is not None
    seconds = max((world.wake_at - world.cluster.now).total_seconds(), 0.0)
    return with_world(world, cluster=cl.advance(world.cluster, seconds), wake_at=None)


def edit_job(world: World, move: Move) -> World:
    """A user edits the Job through the API (cluster.update_job); a rejected edit changes nothing."""
    field, value = validate_edit(move.arg)
    patch: dict[str, Any]
    if field == "suspend":
        patch = {"spec": {"suspend": value == "true"}}
    elif field == "completions":
        patch = {"spec": {"completions": int(value), "parallelism": int(value)}}
    else:
        patch = {"spec": {"parallelism": int(value)}}
    namespace, name = world.job_key.split("/", 1)
    cluster, _errors = cl.update_job(world.cluster, namespace, name, patch)
    edits = tuple(e for e in world.budget.edits if e != move.arg)
    return with_world(world, cluster=cluster, budget=evolve(world.budget, edits=edits))


def edit_job_seen_late(world: World, move: Move) -> World:
    """A user's Job edit that the Job informer delivers late (`edit-stale`): the API server has
    the new spec, the controller's cache shows the Job as it was (`job_shown`) until
    `cache-catch-up`, so its syncs act on the older spec and their status writes conflict
    (`_job_write_seen_late`)."""
    before = world.job()
    after = edit_job(world, move)
    if before is None or after.job() == before:  # refused, or nothing changed: nothing more lags
        return after
    return _job_write_seen_late(after, before)


def _job_write_seen_late(after: World, before: Job) -> World:
    """`after` a user's write of the Job, with the Job informer still showing `before`, or, when
    an earlier write still lags (the controller's status write, an earlier edit), the Job as it
    shows it now: the informer delivers in order. With nothing lagging before it, the
    controller's own status writes are delivered: the consistency store has none to wait for
    (its record of the Job's writes is spent)."""
    if after.job_shown is not None:
        return with_world(after, budget=after.budget.spend("stale_edits"))
    state = after.cluster.controller_state(after.job_key)
    if state.consistency is not None and state.consistency.jobs is not None:
        state = evolve(state, consistency=evolve(state.consistency, jobs=None))
        after = with_world(after, cluster=cl.with_controller_state(after.cluster, after.job_key, state))
    return with_world(after, job_shown=before, budget=after.budget.spend("stale_edits"))


def delete_job_move(world: World, move: Move | None = None) -> World:
    """A user deletes the Job (propagation Background: gone at once, its pods orphaned)."""
    namespace, name = world.job_key.split("/", 1)
    cluster = cl.delete_job(world.cluster, namespace, name, "Background")
    return with_world(world, cluster=cluster, budget=world.budget.spend("job_deletions"))


def delete_job_seen_late(world: World, move: Move | None = None) -> World:
    """A user deletes the Job (Background) and the Job informer delivers the deletion late
    (`delete-job-stale`): the API server has no Job, the controller's cache still shows it
    (`job_shown`) until `cache-catch-up`, so its syncs act on it: they create and delete pods,
    and their status writes are not found; Controller.deleteJob runs on delivery."""
    before = world.job()
    assert before is not None
    cluster = cl.without_job(world.cluster, before)
    after = with_world(world, cluster=cluster, budget=world.budget.spend("job_deletions"))
    return _job_write_seen_late(after, before)


def recreate_job(world: World, move: Move | None = None) -> World:
    """A user creates the deleted Job again, under its name, from the manifest it was created
    from (the API server gives it a new uid, defaults, selector and validation as at first): the
    Job under check from then on. The controller's bookkeeping under the name stays as the
    deletion left it (Controller.addJob only queues the key)."""
    if world.template is None or world.job() is not None:
        raise InputError("move", "recreate-job needs the Job deleted and the manifest it was created from")
    namespace, name = world.job_key.split("/", 1)
    manifest = thaw(world.template)
    meta = manifest.setdefault("metadata", {})
    meta.pop("generateName", None)
    meta.update(name=name, namespace=namespace)
    uid = f"{world.job_uid}-again"
    cluster, errors = cl.create_job(world.cluster, manifest, uid)
    if errors:  # the API server accepted the same manifest at first
        raise InputError("manifest", "the API server rejects the Job created again: " + "; ".join(str(e) for e in errors))
    return with_world(world, cluster=cluster, job_uid=uid, budget=world.budget.spend("recreations"))


def orphan_cleanup(world: World, move: Move | None = None) -> World:
    """The controller's orphan-pod work (cluster.orphan_pod_cleanup) on the pods and the Jobs its
    cache shows; its writes are recorded for the next sync to wait on while a creation is hidden."""

    def clean(cluster: cl.Cluster) -> tuple[cl.Cluster, None]:
        return cl.orphan_pod_cleanup(cluster, unseen=world.hidden, write_version=WRITTEN), None

    cluster, _ = _handlers_on_cached_jobs(world.cluster, world.job_shown, clean)
    return without_spent_marks(_forget_gone(with_world(world, cluster=cluster)))


# Each sync move: its faults, and which of its writes reach the controller's cache late.
_SYNCS: dict[str, tuple[Faults, str | None]] = {
    "sync": (NO_FAULTS, None),
    "sync-stale": (NO_FAULTS, "creations"),
    "sync-stale-patches": (NO_FAULTS, "patches"),
    "sync-stale-deletions": (NO_FAULTS, "deletions"),
    "sync-stale-status": (NO_FAULTS, "status"),
    "sync-pod-error": (Faults(pod_control_error=POD_ERROR), None),
    "sync-status-error": (Faults(status_update_error=STATUS_ERROR), None),
}

# The moves that write the Job (a user's) and that the Job informer delivers at once, after the
# writes that lag (the controller's own status writes, earlier edits); a write it delivers late
# (`edit-stale`, `delete-job-stale`) lags behind those.
_JOB_WRITES = frozenset({"edit", "delete-job", "recreate-job"})

_MOVES: dict[str, Callable[[World, Move], World]] = {
    "cache-catch-up": cache_catch_up,
    "start": start_pod,
    "ready": ready_pod,
    "succeed": succeed_pod,
    "fail": fail_pod,
    RESTART_CONTAINER: restart_container,
    "evict": evict_pod,
    "terminate": terminate_pod,
    "pod-gc": pod_gc,
    "delete-pod": delete_pod_move,
    "restart": restart,
    "expire-expectations": expire_expectations,
    "timer-fires": timer_fires,
    "deadline-passes": deadline_passes,
    "edit": edit_job,
    EDIT_STALE: edit_job_seen_late,
    "delete-job": delete_job_move,
    DELETE_STALE: delete_job_seen_late,
    "recreate-job": recreate_job,
    "orphan-cleanup": orphan_cleanup,
}

# The pod moves whose write can reach the controller's cache late (`--stale-pod-writes`), each
# as `KIND-stale`: the kubelet's writes, the pod garbage collector's removals, others' deletions.
STALE_SUFFIX = "-stale"
# The moves that write a pod (the kubelet's, the pod garbage collector's, a user's).
_POD_WRITES = frozenset({"start", "ready", "succeed", "fail", RESTART_CONTAINER, "evict", "terminate", "pod-gc", "delete-pod"})
STALE_POD_MOVES = frozenset(kind + STALE_SUFFIX for kind in _POD_WRITES)

MOVE_KINDS = (*_SYNCS, *_MOVES, *sorted(STALE_POD_MOVES))
