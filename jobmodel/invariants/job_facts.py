"""The facts the Job's laws read: a Job's conditions and indexes, the pods of a world, what a
controller sync wrote, and when a sync counts as settled.

A step's `before` and `after` worlds may name the same pod differently (the checkers store
worlds renamed by symmetry, jobmodel.transitions.job_symmetry), so facts about single pods
across a step are read in the sync's own naming: the `before` world (what the controller was
given) and the sync's actions (what it did), never a pod name of `after`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import NamedTuple, TypeVar

from jobmodel.actions import CreatePod, DeletePod, PatchPod, Requeue, UpdateJobStatus
from jobmodel.features import FeatureGates
from jobmodel.frozen import evolve
from jobmodel.invariants import laws
from jobmodel.state import (
    COMPLETE,
    FAILED,
    FAILED_CONDITION,
    FAILURE_TARGET,
    JOB_TRACKING_FINALIZER,
    SUCCEEDED,
    SUCCESS_CRITERIA_MET,
    Job,
    JobCondition,
    JobStatus,
    Pod,
    SuccessPolicy,
)
from jobmodel.transitions import indexes as ix
from jobmodel.transitions.job_environment import World
from jobmodel.transitions.pod_failure_policy import FAIL_INDEX, FAIL_JOB, match_pod_failure_policy
from jobmodel.transitions.pod_utils import (
    has_job_tracking_finalizer,
    is_pod_ready,
)
from jobmodel.transitions.sync_job import JobSyncResult, is_pod_failed

Transition = laws.Transition[World, JobSyncResult]  # a step of the Job's environment
T = TypeVar("T")

ALL_INDEXES = 1 << 31  # parse a completedIndexes string without dropping any index
SYNC_MOVES = frozenset(
    {"sync", "sync-stale", "sync-stale-patches", "sync-stale-deletions", "sync-stale-status", "sync-pod-error", "sync-status-error"}
)
CLEAN_SYNC_MOVES = frozenset({"sync", "sync-stale", "sync-stale-patches", "sync-stale-deletions", "sync-stale-status"})


# --- conditions ------------------------------------------------------------------------------------


def condition_true(job: Job, ctype: str) -> bool:
    return ctype in true_conditions(job)


@lru_cache(maxsize=8192)  # a pure function of the Job, read by most laws on every sync
def true_conditions(job: Job) -> frozenset[str]:
    """The condition types whose first condition (findConditionByType) has status True."""
    first: dict[str, str] = {}
    for c in job.status.conditions:
        first.setdefault(c.type, c.status)
    return frozenset(ctype for ctype, status in first.items() if status == "True")


# Pure functions of the Job that most laws read on every sync: remembered (a Job's hash is cached).
JOB_MEMO_SIZE = 1 << 16


@lru_cache(maxsize=JOB_MEMO_SIZE)
def finished(job: Job) -> bool:
    """Complete or Failed (the controller no longer acts on the Job)."""
    return condition_true(job, COMPLETE) or condition_true(job, FAILED_CONDITION)


@lru_cache(maxsize=JOB_MEMO_SIZE)
def failing(job: Job) -> bool:
    """FailureTarget or Failed: the Job is failing or failed."""
    return condition_true(job, FAILURE_TARGET) or condition_true(job, FAILED_CONDITION)


@lru_cache(maxsize=JOB_MEMO_SIZE)
def succeeding(job: Job) -> bool:
    """SuccessCriteriaMet or Complete: the Job met its success criteria."""
    return condition_true(job, SUCCESS_CRITERIA_MET) or condition_true(job, COMPLETE)


@lru_cache(maxsize=JOB_MEMO_SIZE)
def decided(job: Job) -> bool:
    """failing or succeeding: the Job's outcome is decided."""
    return failing(job) or succeeding(job)


def newly_true(t: Transition, ctype: str) -> JobCondition | None:
    """The condition of that type when the step made it True."""
    if ctype not in newly_true_types(t):
        return None
    after = t.after.job()
    assert after is not None
    return after.status.condition(ctype)


@laws.transition_fact
def newly_true_types(t: Transition) -> frozenset[str]:
    """The condition types the step made True (true after it, not before)."""
    before, after = t.before.job(), t.after.job()
    if after is None:
        return frozenset()
    if before is None:
        return true_conditions(after)
    if before is after:
        return frozenset()
    return true_conditions(after) - true_conditions(before)


def new_decision(t: Transition, interim: str, final: str) -> JobCondition | None:
    """The outcome the step decided: a new interim condition, or a new final one without it
    (terminal conditions not delayed)."""
    first = newly_true(t, interim)
    if first is not None:
        return first
    job = t.after.job()
    if job is not None and not condition_true(job, interim):
        return newly_true(t, final)
    return None


@laws.transition_fact
def new_failure(t: Transition) -> JobCondition | None:
    """The failure the step decided: a new FailureTarget, or a new Failed without one."""
    return new_decision(t, FAILURE_TARGET, FAILED_CONDITION) if newly_true_types(t) else None


@laws.transition_fact
def new_success(t: Transition) -> JobCondition | None:
    """The success the step decided: a new SuccessCriteriaMet, or a new Complete without one."""
    return new_decision(t, SUCCESS_CRITERIA_MET, COMPLETE) if newly_true_types(t) else None


# --- indexes ---------------------------------------------------------------------------------------


def expand(intervals: ix.Intervals) -> frozenset[int]:
    return frozenset(i for first, last in intervals for i in range(first, last + 1))


@lru_cache(maxsize=JOB_MEMO_SIZE)  # a pure function of the text, read by several laws on every step
def indexes_of(text: str) -> frozenset[int]:
    """The indexes an index list (completedIndexes, failedIndexes) names."""
    return expand(ix.parse_indexes_from_string(text, ALL_INDEXES))


def completed_indexes(job: Job) -> frozenset[int]:
    return indexes_of(job.status.completed_indexes)


def failed_indexes(job: Job) -> frozenset[int]:
    return indexes_of(job.status.failed_indexes or "")


def valid_index(job: Job, pod: Pod) -> int | None:
    """The pod's completion index when it is one of the Job's (`index_of_job`)."""
    index = ix.pod_index(pod)
    return index if index_of_job(job, index) else None


def index_of_job(job: Job, index: int) -> bool:
    """A completion index of the Job: 0 <= index < completions."""
    return 0 <= index < (job.spec.completions or 0)


def success_policy_met(policy: SuccessPolicy | None, completions: int, completed: frozenset[int]) -> bool:
    """Some rule of the successPolicy holds for these completed indexes: all of its
    succeededIndexes completed, or at least succeededCount of them (of any index when the rule
    names none)."""
    if policy is None or not completed:
        return False
    for rule in policy.rules:
        if rule.succeeded_indexes is not None:
            # Intervals, not a set: a rule may name up to 2^31 indexes, of which few complete.
            required = ix.parse_indexes_from_string(rule.succeeded_indexes, completions)
            if not required:
                continue
            done = sum(1 for i in completed if any(first <= i <= last for first, last in required))
            if done == ix.total(required) or (rule.succeeded_count is not None and done >= rule.succeeded_count):
                return True
        elif rule.succeeded_count is not None and len(completed) >= rule.succeeded_count:
            return True
    return False


# --- pods ------------------------------------------------------------------------------------------


# Pure functions of the world, read by several laws on every sync (of the world before and after
# it): remembered for the worlds read last (`per_world`).
WORLD_MEMO_SIZE = 1 << 12


def per_world(compute: Callable[[World], T]) -> Callable[[World], T]:
    """`compute`, remembered for the last WORLD_MEMO_SIZE world objects read (by identity: a
    world's hash is a Python call, and the laws of one transition read the same two objects;
    the entry holds the world, so that its id names no other object while it is remembered;
    nothing is kept on the worlds, which the explorer stores by the million)."""
    memo: dict[int, tuple[World, T]] = {}

    def read(world: World) -> T:
        entry = memo.get(id(world))
        if entry is not None and entry[0] is world:
            return entry[1]
        value = compute(world)
        if len(memo) >= WORLD_MEMO_SIZE:
            memo.clear()
        memo[id(world)] = (world, value)
        return value

    read.__doc__ = compute.__doc__
    read.__name__ = compute.__name__
    read.__qualname__ = compute.__qualname__
    return read


class Census(NamedTuple):
    """The Job's pods of one world, as the laws read them (as the API server holds them)."""

    active: tuple[Pod, ...]  # neither terminal nor being deleted
    active_indexes: tuple[int, ...]  # the completion index of each active pod (pod_index)
    terminating: tuple[Pod, ...]  # being deleted, not terminal yet
    ready: int  # active pods with Ready=True
    finished_tracked: tuple[Pod, ...]  # Succeeded or Failed, still holding the tracking finalizer
    succeeded_tracked_indexes: frozenset[int]  # the completion indexes of the Succeeded ones


@per_world
def census(world: World) -> Census:
    return pods_census(world.own_pods())


@lru_cache(maxsize=JOB_MEMO_SIZE)  # worlds that differ elsewhere (budget, clock, Job) share their pods
def pods_census(pods: tuple[Pod, ...]) -> Census:
    """The census of these pods (the Job's pods of a world)."""
    active: list[Pod] = []
    indexes: list[int] = []
    terminating: list[Pod] = []
    finished_tracked: list[Pod] = []
    succeeded: list[int] = []
    ready = 0
    # is_pod_terminal, is_pod_terminating, is_pod_active and has_job_tracking_finalizer, written out.
    for p in pods:
        phase = p.status.phase
        if phase in (SUCCEEDED, FAILED):
            if JOB_TRACKING_FINALIZER in p.metadata.finalizers:
                finished_tracked.append(p)
                if phase == SUCCEEDED:
                    succeeded.append(ix.pod_index(p))
        elif p.metadata.deletion_timestamp is not None:
            terminating.append(p)
        else:
            active.append(p)
            indexes.append(ix.pod_index(p))
            if is_pod_ready(p):
                ready += 1
    return Census(tuple(active), tuple(indexes), tuple(terminating), ready, tuple(finished_tracked), frozenset(succeeded))


def active_pods(world: World) -> tuple[Pod, ...]:
    """The Job's pods that are neither terminal nor being deleted, as the API server holds them."""
    return census(world).active


def terminating_pods(world: World) -> tuple[Pod, ...]:
    """The Job's pods being deleted that have not reached a terminal phase."""
    return census(world).terminating


def ready_active_pods(world: World) -> int:
    """How many of the active pods have Ready=True."""
    return census(world).ready


# The Job's pods as the controller's cache shows them, for the laws reading a world several times.
visible_pods = per_world(World.visible_pods)


@per_world
def pods_by_uid(world: World) -> dict[str, Pod]:
    """The Job's pods by uid (not to be changed: shared by the laws)."""
    return _pods_by_uid(world.own_pods())


@per_world
def visible_pods_by_uid(world: World) -> dict[str, Pod]:
    """The Job's pods by uid as the controller's cache shows them (`pods_by_uid` when it is
    current): what a sync's decisions are judged by."""
    return _pods_by_uid(visible_pods(world))


@lru_cache(maxsize=JOB_MEMO_SIZE)
def _pods_by_uid(pods: tuple[Pod, ...]) -> dict[str, Pod]:
    return by_uid(pods)


def finished_pod(pod: Pod) -> bool:
    return pod.phase in (SUCCEEDED, FAILED)


def policy_counts(job: Job, pod: Pod, gates: FeatureGates) -> bool:
    """The pod's failure counts (towards backoffLimit, failed): no podFailurePolicy rule ignores it."""
    return match_pod_failure_policy(job.spec.pod_failure_policy, pod, gates).count_failed


def policy_action(job: Job, pod: Pod, gates: FeatureGates) -> str | None:
    """The action of the first podFailurePolicy rule the pod's failure matches."""
    return match_pod_failure_policy(job.spec.pod_failure_policy, pod, gates).action


def matches_fail_job(job: Job, pod: Pod, gates: FeatureGates) -> bool:
    return is_pod_failed(pod, job, gates) and policy_action(job, pod, gates) == FAIL_JOB


def index_failed_for_good(job: Job, pod: Pod, gates: FeatureGates) -> bool:
    """The pod's failure fails its index: a FailIndex rule matched, or its index used up
    backoffLimitPerIndex (the pod's failure-count annotation counts the failures before it)."""
    if not is_pod_failed(pod, job, gates):
        return False
    action = policy_action(job, pod, gates)
    if action == FAIL_INDEX and gates.JobBackoffLimitPerIndex:
        return True
    limit = job.spec.backoff_limit_per_index
    return limit is not None and policy_counts(job, pod, gates) and ix.index_failure_count(pod) >= limit


def succeeded_so_far(world: World, job: Job) -> int:
    """Succeeded pods accounted for anywhere: in the counter, in uncountedTerminatedPods, or still
    holding the tracking finalizer (not yet recorded)."""
    uncounted = job.status.uncounted_terminated_pods
    listed = set(uncounted.succeeded) if uncounted is not None else set()
    pending = sum(
        1 for p in world.own_pods() if p.phase == SUCCEEDED and has_job_tracking_finalizer(p) and p.uid not in listed
    )
    return job.status.succeeded + len(listed) + pending


def successes_seen(world: World, job: Job) -> int:
    """The successes a sync counts (manageJob's succeeded): those the status records, and the
    Succeeded pods holding the tracking finalizer that it lists nowhere (the MaxUncountedPods
    cut-off left them for a later sync); an Indexed Job's, as distinct indexes within completions.
    Not a pod listed as failed (see catalogue.succeeded_yet_recorded_failed)."""
    uncounted = job.status.uncounted_terminated_pods
    listed = {*uncounted.succeeded, *uncounted.failed} if uncounted is not None else set()
    pending = [p for p in world.own_pods() if p.phase == SUCCEEDED and has_job_tracking_finalizer(p) and p.uid not in listed]
    if not ix.is_indexed_job(job):
        return counted_successes(job) + len(pending)
    indexes = {ix.pod_index(p) for p in pending}
    return len(completed_indexes(job) | {i for i in indexes if 0 <= i < (job.spec.completions or 0)})


def may_reach_max_uncounted(t: Transition) -> bool:
    """Whether the sync may have stopped recording finished pods at MaxUncountedPods
    (trackJobStatusAndRemoveFinalizers' reachedMaxUncountedPods, which leaves the rest, finalizers
    and all, to a later sync): the UIDs the status listed and the pods the sync could record
    (finished or being deleted, every one once the Job is decided) reach it."""
    before, after = t.before.job(), t.after.job()
    if before is None:
        return False
    uncounted = before.status.uncounted_terminated_pods
    listed = {*uncounted.succeeded, *uncounted.failed} if uncounted is not None else set()
    decided_after = after is not None and decided(after)
    recordable = sum(
        1
        for p in visible_pods(t.before)
        if has_job_tracking_finalizer(p)
        and p.uid not in listed
        and (decided_after or p.phase in (SUCCEEDED, FAILED) or p.metadata.deletion_timestamp is not None)
    )
    return len(listed) + recordable >= t.before.cluster.tunables.max_uncounted_pods


def failed_so_far(world: World, job: Job, gates: FeatureGates) -> int:
    """As succeeded_so_far, for pods that count as failed (isPodFailed, and no podFailurePolicy
    rule ignores the failure: nonIgnoredFailedPodsCount)."""
    uncounted = job.status.uncounted_terminated_pods
    listed = set(uncounted.failed) if uncounted is not None else set()
    pending = sum(
        1
        for p in world.own_pods()
        if has_job_tracking_finalizer(p) and p.uid not in listed and is_pod_failed(p, job, gates) and policy_counts(job, p, gates)
    )
    return job.status.failed + len(listed) + pending


def valid_pods(world: World, job: Job) -> list[Pod]:
    """getValidPodsWithFilter before its filter and uncounted set: the pods the controller's
    cache shows holding the tracking finalizer, whose removal it does not await, and, of an
    Indexed Job, of one of its indexes (getNewFinishedPods reads its new finished pods there)."""
    awaited = world.cluster.controller_state(world.job_key).expected_finalizer_removals
    indexed = ix.is_indexed_job(job)
    return [
        p
        for p in visible_pods(world)
        if has_job_tracking_finalizer(p) and p.uid not in awaited and (not indexed or index_of_job(job, ix.pod_index(p)))
    ]


def failures_seen(world: World, job: Job, gates: FeatureGates) -> int:
    """The failures a sync of the Job counts (syncJob's jobCtx.failed, which exceedsBackoffLimit
    reads): those its status records and the failed pods new to it (valid_pods, not yet listed),
    the MaxUncountedPods cut-off leaving some of them unrecorded after it."""
    listed = set(job.status.uncounted_terminated_pods.failed) if job.status.uncounted_terminated_pods else set()
    new = sum(1 for p in valid_pods(world, job) if p.uid not in listed and is_pod_failed(p, job, gates))
    return counted_failures(job) + new


def counted_failures(job: Job) -> int:
    """Failures the Job's status records: the counter and uncountedTerminatedPods.failed."""
    uncounted = job.status.uncounted_terminated_pods
    return job.status.failed + (len(uncounted.failed) if uncounted is not None else 0)


def counted_successes(job: Job) -> int:
    """Successes the status records (Indexed: the completed indexes)."""
    if ix.is_indexed_job(job):
        return len(completed_indexes(job))
    uncounted = job.status.uncounted_terminated_pods
    return job.status.succeeded + (len(uncounted.succeeded) if uncounted is not None else 0)


# --- what a sync did ------------------------------------------------------------------------------


def written_statuses(t: Transition) -> tuple[JobStatus, ...]:
    """The statuses the sync wrote and the API server accepted, in order."""
    return _accepted(t)[0]


def created(t: Transition) -> tuple[CreatePod, ...]:
    """The pods the sync created (accepted by the API server)."""
    return _accepted(t)[1]


def deleted_uids(t: Transition) -> set[str]:
    return set(_accepted(t)[2])


def finalizer_removed_uids(t: Transition) -> frozenset[str]:
    """The pods whose tracking finalizer the sync removed (accepted by the API server)."""
    return _accepted(t)[3]


NOTHING_ACCEPTED: tuple[tuple[JobStatus, ...], tuple[CreatePod, ...], frozenset[str], frozenset[str]] = (
    (),
    (),
    frozenset(),
    frozenset(),
)


@laws.transition_fact
def _accepted(t: Transition) -> tuple[tuple[JobStatus, ...], tuple[CreatePod, ...], frozenset[str], frozenset[str]]:
    """What the API server accepted of the sync's actions, in one pass over them: the statuses
    written, the pods created, the uids deleted, the uids whose tracking finalizer was removed."""
    if t.sync is None:
        return NOTHING_ACCEPTED
    written: list[JobStatus] = []
    made: list[CreatePod] = []
    deleted: list[str] = []
    released: list[str] = []
    for a in t.sync.actions:
        if isinstance(a, UpdateJobStatus):
            if a.accepted:
                written.append(a.status)
        elif isinstance(a, CreatePod):
            if a.accepted:
                made.append(a)
        elif isinstance(a, DeletePod):
            if a.accepted:
                deleted.append(a.uid)
        elif isinstance(a, PatchPod) and a.kind == "remove-finalizer" and a.accepted:
            released.append(a.uid)
    if not (written or made or deleted or released):
        return NOTHING_ACCEPTED
    return tuple(written), tuple(made), frozenset(deleted), frozenset(released)


def waited_for_backoff(t: Transition) -> bool:
    """The sync asked to be woken later and created nothing (manageJob deferring creations for
    the pod-failure back-off)."""
    return t.sync is not None and not created(t) and any(isinstance(a, Requeue) for a in t.sync.actions)


def clean_sync(t: Transition) -> bool:
    """A controller sync without injected API failures (also the guard of the laws about
    settled and clean syncs): not one over a Job cache behind a status write, whose own status
    writes conflict."""
    return t.move.kind in CLEAN_SYNC_MOVES and t.before.job_shown is None


# --- guards: when a law can fail at all (laws.Invariant.when) --------------------------------------


def a_sync(t: Transition) -> bool:
    """A controller sync: only a sync has a result, creates or deletes pods, removes finalizers
    or writes the status."""
    return t.sync is not None or t.move.kind in SYNC_MOVES


def a_sync_or_a_job_change(t: Transition) -> bool:
    """A controller sync, or a step that left a different Job object: every other guard implies
    it (the catalogue's `any_guard`; most steps are pod moves, for which it fails)."""
    return a_sync(t) or job_changed(t)


def job_changed(t: Transition) -> bool:
    """The step left a different Job object (equal Jobs can be distinct objects: then the laws
    that compare the Job before and after run, and find nothing)."""
    return t.before.job() is not t.after.job()


def a_sync_changed_the_job(t: Transition) -> bool:
    """A sync that left a different Job object."""
    return job_changed(t) and a_sync(t)


def finalizers_removed(t: Transition) -> bool:
    """A sync that removed tracking finalizers."""
    return t.sync is not None and bool(finalizer_removed_uids(t))


def a_new_failure(t: Transition) -> bool:
    """The step decided a failure (new_failure)."""
    return job_changed(t) and new_failure(t) is not None


def a_new_success(t: Transition) -> bool:
    """The step decided a success (new_success)."""
    return job_changed(t) and new_success(t) is not None


def pods_created(t: Transition) -> bool:
    """A sync that created pods, or tried to (the API server refused them)."""
    return creations_tried(t) > 0


def creations_tried(t: Transition) -> int:
    """The pods the sync tried to create, the API server's refusals included."""
    return 0 if t.sync is None else sum(1 for a in t.sync.actions if isinstance(a, CreatePod))


def deletions_tried(t: Transition) -> int:
    """The pods the sync tried to delete, the API server's refusals included."""
    return 0 if t.sync is None else sum(1 for a in t.sync.actions if isinstance(a, DeletePod))


def status_written(t: Transition) -> bool:
    """A sync that wrote a status the API server accepted."""
    return t.sync is not None and bool(written_statuses(t))


def settled_with_options(t: Transition) -> bool:
    """A settled sync of a Job whose spec (before or after the step) sets one of the options that
    the laws enforcing them read (suspend, activeDeadlineSeconds, podFailurePolicy,
    backoffLimitPerIndex, maxFailedIndexes, successPolicy): without any, those laws hold."""
    return settled(t) and (spec_options(t.after.job()) or spec_options(t.before.job()))


@lru_cache(maxsize=JOB_MEMO_SIZE)
def spec_options(job: Job | None) -> bool:
    """The Job's spec sets one of the options of settled_with_options."""
    if job is None:
        return False
    spec = job.spec
    return (
        bool(spec.suspend)
        or spec.active_deadline_seconds is not None
        or spec.pod_failure_policy is not None
        or spec.backoff_limit_per_index is not None
        or spec.max_failed_indexes is not None
        or spec.success_policy is not None
    )


def expectations_satisfied(world: World) -> bool:
    exp = world.cluster.controller_state(world.job_key).expectations
    return exp is None or exp.fulfilled() or exp.expired(world.cluster.now)


@laws.transition_fact
def settled(t: Transition) -> bool:
    """A settled sync: clean, over a cache that showed every pod, with the controller's
    expectations satisfied (so that manageJob ran), of a Job that exists and had not finished.
    The converse laws ("the facts demand this status") are stated after settled syncs."""
    if not clean_sync(t) or t.before.hidden or t.before.lagging:
        return False  # most steps: decided without looking the Job up (lagging: writes awaited)
    before, after = t.before.job(), t.after.job()
    return (
        expectations_satisfied(t.before)
        and before is not None
        and after is not None
        and not finished(before)
        and before.metadata.deletion_timestamp is None
    )


def by_uid(pods: Iterable[Pod]) -> dict[str, Pod]:
    return {p.uid: p for p in pods}


# --- what most laws read first ---------------------------------------------------------------------


class SyncStep(NamedTuple):
    """What most laws read first of a transition, read once (`sync_step`)."""

    before: Job | None  # the Job before the step
    after: Job | None  # and after it
    sync: bool  # a controller sync (move kind in SYNC_MOVES)
    settled: bool  # settled(t)
    created: tuple[CreatePod, ...]  # created(t)
    pods: Census  # census(t.after): the Job's pods after the step
    # Of the Job after the step (False, empty or 0 without one):
    indexed: bool  # is_indexed_job
    decided: bool  # decided: failing or succeeding
    completed: frozenset[int]  # completed_indexes
    failed: frozenset[int]  # failed_indexes
    succeeded: int  # counted_successes


@laws.transition_fact
def sync_step(t: Transition) -> SyncStep:
    """What most laws read first of the transition (SyncStep); a sync's Job with the spec it read
    (`spec_read`)."""
    before, after = t.before.job(), t.after.job()
    shown = t.before.job_shown
    if shown is not None and t.move.kind in SYNC_MOVES:
        before, after = spec_read(before, shown), spec_read(after, shown)
    return SyncStep(
        before, after, t.move.kind in SYNC_MOVES, settled(t), created(t), census(t.after), *job_summary(after)
    )


def spec_read(job: Job | None, shown: Job) -> Job | None:
    """The Job with the spec of the one the controller's cache shows (`shown`), when that is the
    same Job with an older spec (a user's edit not delivered: `edit-stale`): a sync acts on the
    spec it reads, so its pod calls are judged by that spec. The status stays the API server's
    (the sync's status writes conflicted). A Job whose deletion the cache has not delivered
    (`delete-job-stale`) is the one shown: its syncs' pod calls are judged by it."""
    if job is None:
        return shown
    if job.uid != shown.uid or job.spec == shown.spec:
        return job
    return evolve(job, spec=shown.spec)


NO_JOB = (False, False, frozenset[int](), frozenset[int](), 0)


@lru_cache(maxsize=JOB_MEMO_SIZE)
def job_summary(job: Job | None) -> tuple[bool, bool, frozenset[int], frozenset[int], int]:
    """What SyncStep reads of the Job after the step (NO_JOB without one)."""
    if job is None:
        return NO_JOB
    completed = completed_indexes(job)
    indexed = ix.is_indexed_job(job)
    return indexed, decided(job), completed, failed_indexes(job), len(completed) if indexed else counted_successes(job)
