"""The invariant catalogue: every property a correct Job controller keeps, stated once.

Each entry is a named predicate returning None when it holds, else a message saying how it
fails (`jobmodel.invariants.laws`). `state` invariants read one `World` of
`jobmodel.transitions.job_environment`; `step` invariants read one `Transition` (the world
before, the move, the world after and, for a controller sync, its result). Where a property only
holds under an assumption, the predicate checks the assumption first and says so in its
docstring. `SOMETIMES` lists reachability properties: states the checkers must reach, so that
the invariants are not vacuously true. Every checker (the Hypothesis machines, the explorer,
replay) runs `LAWS` over the Job system (`jobmodel.checkers.job`); docs/invariants.md is the
catalogue in prose.
"""

from __future__ import annotations

from functools import lru_cache

import attrs

from jobmodel.actions import CreatePod, DeletePod, PatchPod, UpdateJobStatus
from jobmodel.api import strategy as api_strategy
from jobmodel.api import validation as bv
from jobmodel.api.wire import job_to_json
from jobmodel.features import FeatureGates
from jobmodel.invariants import laws
from jobmodel.state import (
    COMPLETE,
    FAILED,
    FAILED_CONDITION,
    FAILURE_TARGET,
    SUCCEEDED,
    SUCCESS_CRITERIA_MET,
    Job,
    Pod,
)
from jobmodel.transitions import indexes as ix
from jobmodel.transitions.job_environment import World, lag_covered
from jobmodel.transitions.pod_utils import has_job_tracking_finalizer, is_pod_active
from jobmodel.transitions.sync_job import (
    REASON_BACKOFF_LIMIT_EXCEEDED,
    REASON_DEADLINE_EXCEEDED,
    REASON_FAILED_INDEXES,
    REASON_MAX_FAILED_INDEXES_EXCEEDED,
    REASON_POD_FAILURE_POLICY,
    JobSyncResult,
    is_pod_failed,
)

KNOWN_FAILURE_REASONS = frozenset(
    {
        REASON_BACKOFF_LIMIT_EXCEEDED,
        REASON_DEADLINE_EXCEEDED,
        REASON_MAX_FAILED_INDEXES_EXCEEDED,
        REASON_FAILED_INDEXES,
        REASON_POD_FAILURE_POLICY,
    }
)
ALL_INDEXES = 1 << 31  # parse a completedIndexes string without dropping any index
SYNC_MOVES = frozenset({"sync", "sync-stale", "sync-pod-error", "sync-status-error"})


Transition = laws.Transition[World, JobSyncResult]  # a step of the Job's environment
LAWS: laws.Laws[World, JobSyncResult] = laws.Laws()
STATE_INVARIANTS = LAWS.state
STEP_INVARIANTS = LAWS.step
SOMETIMES = LAWS.sometimes
state_invariant = LAWS.state_invariant
step_invariant = LAWS.step_invariant
sometimes = LAWS.sometimes_property
check_state = LAWS.check_state
check_step = LAWS.check_step


def clean_sync(t: Transition) -> bool:
    """A controller sync without injected API failures."""
    return t.move.kind in ("sync", "sync-stale")


# --- helpers --------------------------------------------------------------------------------------


def condition_true(job: Job, ctype: str) -> bool:
    cond = job.status.condition(ctype)
    return cond is not None and cond.status == "True"


def finished(job: Job) -> bool:
    return condition_true(job, COMPLETE) or condition_true(job, FAILED_CONDITION)


@lru_cache(maxsize=8192)  # a pure function of the Job, read by several laws on every step
def completed_indexes(job: Job) -> frozenset[int]:
    return _expand(ix.parse_indexes_from_string(job.status.completed_indexes, ALL_INDEXES))


@lru_cache(maxsize=8192)
def failed_indexes(job: Job) -> frozenset[int]:
    return _expand(ix.parse_indexes_from_string(job.status.failed_indexes or "", ALL_INDEXES))


def _expand(intervals: ix.Intervals) -> frozenset[int]:
    return frozenset(i for first, last in intervals for i in range(first, last + 1))


def active_pods(world: World) -> list[Pod]:
    """The Job's pods that are neither terminal nor being deleted, as the API server holds them."""
    return [p for p in world.pods() if is_pod_active(p)]


def succeeded_so_far(world: World, job: Job) -> int:
    """Succeeded pods accounted for anywhere: in the counter, in uncountedTerminatedPods, or still
    holding the tracking finalizer (not yet recorded). The controller only moves pods between
    these three places; it must never add or drop one."""
    uncounted = job.status.uncounted_terminated_pods
    listed = set(uncounted.succeeded) if uncounted is not None else set()
    pending = sum(
        1 for p in world.pods() if p.phase == SUCCEEDED and has_job_tracking_finalizer(p) and p.uid not in listed
    )
    return job.status.succeeded + len(listed) + pending


def failed_so_far(world: World, job: Job, gates: FeatureGates) -> int:
    """failed_so_far: as succeeded_so_far, for pods that count as failed (isPodFailed)."""
    uncounted = job.status.uncounted_terminated_pods
    listed = set(uncounted.failed) if uncounted is not None else set()
    pending = sum(
        1
        for p in world.pods()
        if has_job_tracking_finalizer(p) and p.uid not in listed and is_pod_failed(p, job, gates)
    )
    return job.status.failed + len(listed) + pending


@lru_cache(maxsize=8192)
def _status_rule_errors(job: Job) -> tuple[str, ...]:
    errors = bv.validate_job_status(job_to_json(job), "status", STRICT_STATUS_RULES)
    return tuple(str(e) for e in errors if not _known_upstream_bug(job, str(e)))


@lru_cache(maxsize=8192)
def _status_update_errors(new: Job, old: Job, gates: FeatureGates) -> tuple[str, ...]:
    errors = api_strategy.job_status_validate_update(job_to_json(new), job_to_json(old), gates)
    return tuple(str(e) for e in errors if not _known_upstream_bug(new, str(e)))


# Status rules upstream v1.32 itself breaks (the model is faithful to v1.32, so the checkers
# accept exactly these signatures; set ACCEPT_KNOWN_UPSTREAM_BUGS to False, and clear the caches
# with `forget_cached_checks`, to see them; tests/invariants/test_catalogue.py does):
# - kubernetes/kubernetes#139428 (fixed by #139457): manageJob returns active=0 when it defers
#   pod creation for the back-off, while ready keeps the running pods: ready > active.
# - kubernetes/kubernetes#134521 (fixed by #134769, in 1.32 by #135128): a resumed Job gets a
#   new startTime, which the status validation rejected for an unsuspended Job.
# - a Job created suspended with `completions: 0` completes without ever getting a startTime,
#   which v1.32's status validation rejects (later releases allow it).
# - a pod deleted while running is recorded in uncountedTerminatedPods.failed; if removing its
#   finalizer fails and the pod then exits 0, the next sync counts it as a new success
#   (getNewFinishedPods skips only uncounted *succeeded* pods): docs/proofs.md, Findings.
ACCEPT_KNOWN_UPSTREAM_BUGS = True
READY_ABOVE_ACTIVE = "cannot set more ready pods than active"
START_TIME_ON_RESUME = "startTime cannot be removed for unsuspended job"
NO_START_TIME_WHEN_FINISHED = "startTime is required for finished job"


def _known_upstream_bug(job: Job, error: str) -> bool:
    if not ACCEPT_KNOWN_UPSTREAM_BUGS:
        return False
    if READY_ABOVE_ACTIVE in error:
        # Only that early return writes active=0 over running pods (global or per-index back-off).
        return job.status.active == 0
    if START_TIME_ON_RESUME in error:
        suspended = job.status.condition("Suspended")
        return suspended is not None and suspended.status == "False" and suspended.reason == "JobResumed"
    if NO_START_TIME_WHEN_FINISHED in error:
        return bool(job.spec.suspend) and job.spec.completions == 0
    return False


def forget_cached_checks() -> None:
    """Drop the memoised status checks (after changing ACCEPT_KNOWN_UPSTREAM_BUGS)."""
    _status_rule_errors.cache_clear()
    _status_update_errors.cache_clear()


# Every rule of validateJobStatus enforced, whatever changed (the API server enforces a rule only
# when the fields it reads change, so that old objects stay writable), except the index rules:
# those read spec.completions, which an elastic edit lowers under a status written before it;
# status-writes-valid checks them on every status the controller writes.
INDEX_RULES = (
    "reject_invalid_completed_indexes",
    "reject_invalid_failed_indexes",
    "reject_failed_indexes_overlapping_completed",
)
STRICT_STATUS_RULES = bv.JobStatusValidationOptions(
    **{
        f.name: True
        for f in attrs.fields(bv.JobStatusValidationOptions)
        if f.name.startswith("reject_")
        and f.name not in ("reject_start_time_update_for_unsuspended_job", *INDEX_RULES)
    },
    allow_for_success_criteria_met_in_extended_scope=True,
)


# --- state invariants -------------------------------------------------------------------------------


@state_invariant("complete-and-failed-exclusive", "pkg/apis/batch/validation validateJobStatus (RejectCompleteJobWithFailedCondition)")
def complete_and_failed_exclusive(world: World) -> str | None:
    """A Job is never both Complete and Failed: terminal conditions are exclusive. The controller
    picks one finishedCondition per sync and never adds the other once one is set (syncJob returns
    early for finished Jobs, `IsJobFinished`)."""
    job = world.job()
    if job is not None and condition_true(job, COMPLETE) and condition_true(job, FAILED_CONDITION):
        return "the Job is both Complete and Failed"
    return None


@state_invariant("failed-reason-known", "job_controller.go newFailureCondition callers; batch/v1 JobReason* constants")
def failed_reason_known(world: World) -> str | None:
    """A Failed (or FailureTarget) condition carries one of the reasons the controller sets:
    BackoffLimitExceeded, DeadlineExceeded, MaxFailedIndexesExceeded, FailedIndexes, PodFailurePolicy
    (users and tools match on them)."""
    job = world.job()
    if job is None:
        return None
    for ctype in (FAILED_CONDITION, FAILURE_TARGET):
        cond = job.status.condition(ctype)
        if cond is not None and cond.status == "True" and cond.reason not in KNOWN_FAILURE_REASONS:
            return f"{ctype} has reason {cond.reason!r}, not one of {sorted(KNOWN_FAILURE_REASONS)}"
    return None


@state_invariant("status-rules", "pkg/apis/batch/validation validateJobStatus (added with JobManagedBy, KEP-4368)")
def status_rules(world: World) -> str | None:
    """The Job status satisfies every rule the API server's status validation enforces: Complete
    and Failed exclusive, completionTime iff Complete and not before startTime, Failed implies
    FailureTarget, Complete implies SuccessCriteriaMet, a finished Job has a startTime, no active
    or terminating pods and an empty uncountedTerminatedPods, ready <= active, uncounted UIDs
    unique (the index rules: status-writes-valid). Reuses jobmodel.api.validation. Known upstream
    bug accepted: see ACCEPT_KNOWN_UPSTREAM_BUGS."""
    job = world.job()
    if job is None:
        return None
    errors = _status_rule_errors(job)
    return "; ".join(errors) if errors else None


@state_invariant("indexed-succeeded-counts-each-index-once", "job_controller.go trackJobStatusAndRemoveFinalizers: succeeded = succeededIndexes.total()")
def indexed_succeeded_counts_each_index_once(world: World) -> str | None:
    """For an Indexed Job, `succeeded` is the number of completed indexes: an index with two
    succeeded pods (a replacement and the original) counts once."""
    job = world.job()
    if job is None or not ix.is_indexed_job(job):
        return None
    total = len(completed_indexes(job))
    if job.status.succeeded != total:
        return f"succeeded={job.status.succeeded} but completedIndexes {job.status.completed_indexes!r} has {total}"
    return None


# --- step invariants ---------------------------------------------------------------------------------


def _created(t: Transition) -> int:
    return sum(1 for a in t.sync.actions if isinstance(a, CreatePod) and a.accepted) if t.sync else 0


@step_invariant("no-over-creation", "job_controller.go manageJob (wantActive, firstPendingIndexes) and controller.ControllerExpectations")
def no_over_creation(t: Transition) -> str | None:
    """A sync that creates pods leaves at most `parallelism` active pods, at most the remaining
    completions (NonIndexed), and no two active pods, nor an active and a completed one, with the
    same index (Indexed).
    Assumption: every pod missing from the sync's cache was covered by unexpired creation
    expectations (`lag_covered`; that is what expectations are for; once they expire, after
    ExpectationsTimeout, upstream trusts the stale cache and over-creates, see
    tests/invariants/test_catalogue.py)."""
    if t.move.kind not in SYNC_MOVES or _created(t) == 0:
        return None
    if not lag_covered(t.before) and not t.without_assumptions:
        return None  # outside the assumption
    job = t.after.job()
    if job is None:
        return None
    active = active_pods(t.after)
    parallelism = job.spec.parallelism or 0
    if len(active) > parallelism:
        return f"{len(active)} active pods after creating {_created(t)}, parallelism is {parallelism}"
    if ix.is_indexed_job(job):
        seen: set[int] = set()
        done = completed_indexes(job)
        for pod in active:
            index = ix.pod_index(pod)
            if index in seen:
                return f"two active pods with index {index}"
            if index in done:
                return f"an active pod for completed index {index}"
            seen.add(index)
    elif job.spec.completions is not None:
        left = job.spec.completions - succeeded_so_far(t.after, job)
        if len(active) > max(left, 0):
            return f"{len(active)} active pods but only {left} completions remain"
    return None


@step_invariant("completed-indexes-only-grow", "job_controller.go calculateSucceededIndexes (prev ∪ new); validation RejectDecreasingSucceededCounter")
def completed_indexes_only_grow(t: Transition) -> str | None:
    """completedIndexes only grows (below the current completions: an elastic Job scaled down
    drops the indexes it no longer has), and so does failedIndexes."""
    before, after = t.before.job(), t.after.job()
    if before is None or after is None or not ix.is_indexed_job(after):
        return None
    limit = after.spec.completions or 0
    lost = {i for i in completed_indexes(before) if i < limit} - completed_indexes(after)
    if lost:
        return f"completed indexes {sorted(lost)} were dropped"
    lost = {i for i in failed_indexes(before) if i < limit} - failed_indexes(after)
    if lost:
        return f"failed indexes {sorted(lost)} were dropped"
    return None


@step_invariant("counters-never-decrease", "pkg/apis/batch/validation ValidateJobStatusUpdate (RejectDecreasing{Succeeded,Failed}Counter)")
def counters_never_decrease(t: Transition) -> str | None:
    """status.succeeded and status.failed never decrease (except succeeded of an elastic Indexed
    Job, completions == parallelism, which may be scaled down: its dropped indexes no longer
    count, as getStatusValidationOptions allows)."""
    before, after = t.before.job(), t.after.job()
    if before is None or after is None:
        return None
    if after.status.failed < before.status.failed:
        return f"failed went from {before.status.failed} to {after.status.failed}"
    elastic = ix.is_indexed_job(after) and after.spec.completions == after.spec.parallelism
    if after.status.succeeded < before.status.succeeded and not elastic:
        return f"succeeded went from {before.status.succeeded} to {after.status.succeeded}"
    return None


def succeeded_yet_recorded_failed(t: Transition) -> list[str]:
    """The pods the sync saw Succeeded that the status already listed in
    uncountedTerminatedPods.failed (deleted while running, recorded as failed, then exited 0):
    getNewFinishedPods counts them as new successes, while the status counts them as failures."""
    before = t.before.job()
    if before is None or before.status.uncounted_terminated_pods is None:
        return []
    listed = set(before.status.uncounted_terminated_pods.failed)
    return [p.uid for p in t.before.visible_pods() if p.phase == SUCCEEDED and p.uid in listed]


@step_invariant("pod-counted-exactly-once", "job_controller.go trackJobStatusAndRemoveFinalizers / flushUncountedAndRemoveFinalizers (KEP-2307)")
def pod_counted_exactly_once(t: Transition) -> str | None:
    """A sync never loses nor double-counts a finished pod: every finished pod is accounted for
    in exactly one place (finalizer still held, uncountedTerminatedPods, or the counter), so the
    total does not change in a sync. A pod is written to uncountedTerminatedPods before its
    finalizer is removed, and leaves it for the counter only after. Checked for NonIndexed Jobs
    (Indexed ones: indexed-succeeded-counts-each-index-once); failures only when the sync
    deleted no pod and the Job has no podFailurePolicy (ignored failures are not counted)."""
    if t.move.kind not in SYNC_MOVES:
        return None
    before, after = t.before.job(), t.after.job()
    if before is None or after is None or ix.is_indexed_job(after):
        return None
    if ACCEPT_KNOWN_UPSTREAM_BUGS and not t.without_assumptions and succeeded_yet_recorded_failed(t):
        return None  # a known upstream bug: see ACCEPT_KNOWN_UPSTREAM_BUGS
    was, now = succeeded_so_far(t.before, before), succeeded_so_far(t.after, after)
    if was != now:
        return f"succeeded pods accounted for went from {was} to {now}"
    deleted = t.sync is not None and any(isinstance(a, DeletePod) and a.accepted for a in t.sync.actions)
    if after.spec.pod_failure_policy is None and not deleted:
        gates = t.after.cluster.features
        was, now = failed_so_far(t.before, before, gates), failed_so_far(t.after, after, gates)
        if was != now:
            return f"failed pods accounted for went from {was} to {now}"
    return None


@step_invariant("finalizer-removed-after-recording", "job_controller.go flushUncountedAndRemoveFinalizers: status update before removeTrackingFinalizerFromPods")
def finalizer_removed_after_recording(t: Transition) -> str | None:
    """The controller removes the tracking finalizer of a finished pod of an unfinished Job only
    after an accepted status write lists it in uncountedTerminatedPods (or it is already listed);
    otherwise a crash in between loses the pod. Not recorded by design: succeeded pods of an
    Indexed Job (completedIndexes records them), pods whose index is out of range after an
    elastic scale-down, failures a podFailurePolicy ignores."""
    if t.sync is None or t.before.job() is None:
        return None
    before = t.before.job()
    assert before is not None
    if finished(before):
        return None
    uncounted = before.status.uncounted_terminated_pods
    recorded = set(uncounted.succeeded + uncounted.failed) if uncounted is not None else set()
    by_uid = {p.uid: p for p in t.before.pods()}
    for action in t.sync.actions:
        if isinstance(action, UpdateJobStatus) and action.accepted and action.status.uncounted_terminated_pods:
            u = action.status.uncounted_terminated_pods
            recorded |= set(u.succeeded + u.failed)
        if isinstance(action, PatchPod) and action.kind == "remove-finalizer" and action.accepted:
            pod = by_uid.get(action.uid)
            if pod is not None and pod.phase in (SUCCEEDED, FAILED) and action.uid not in recorded:
                if ix.is_indexed_job(before) and (
                    pod.phase == SUCCEEDED or not 0 <= ix.pod_index(pod) < (before.spec.completions or 0)
                ):
                    continue  # Indexed: recorded through completedIndexes; out-of-range indexes do not count
                if before.spec.pod_failure_policy is not None:
                    continue  # an ignored failure is not recorded
                return f"finalizer of {pod.phase} pod {pod.name} removed before it was recorded"
    return None


@step_invariant("terminal-conditions-absorbing", "pkg/apis/batch/validation ValidateJobStatusUpdate (RejectDisablingTerminalCondition, RejectMutatingCompletionTime)")
def terminal_conditions_absorbing(t: Transition) -> str | None:
    """Once Complete, Failed, FailureTarget or SuccessCriteriaMet is True it stays True, and the
    completionTime never changes (syncJob does nothing for finished Jobs)."""
    before, after = t.before.job(), t.after.job()
    if before is None or after is None:
        return None
    for ctype in (COMPLETE, FAILED_CONDITION, FAILURE_TARGET, SUCCESS_CRITERIA_MET):
        if condition_true(before, ctype) and not condition_true(after, ctype):
            return f"{ctype}=True was removed"
    if before.status.completion_time is not None and after.status.completion_time != before.status.completion_time:
        return "completionTime changed"
    return None


@step_invariant("complete-meets-success-criteria", "job_controller.go syncJob (complete := succeeded >= completions && active == 0), success policy")
def complete_meets_success_criteria(t: Transition) -> str | None:
    """A Job becomes Complete only when its success criteria are met: a success policy matched
    (SuccessCriteriaMet), or `completions` pods (indexes) succeeded, or, without completions, some
    pod succeeded."""
    before, after = t.before.job(), t.after.job()
    if after is None or not condition_true(after, COMPLETE) or (before is not None and condition_true(before, COMPLETE)):
        return None
    if condition_true(after, SUCCESS_CRITERIA_MET) and after.spec.success_policy is not None:
        return None
    succeeded = len(completed_indexes(after)) if ix.is_indexed_job(after) else after.status.succeeded
    if after.spec.completions is None:
        return None if succeeded > 0 else "Complete without any succeeded pod"
    if succeeded < after.spec.completions:
        return f"Complete with {succeeded} of {after.spec.completions} completions"
    return None


@step_invariant("status-writes-valid", "pkg/registry/batch/job/strategy.go jobStatusStrategy.ValidateUpdate")
def status_writes_valid(t: Transition) -> str | None:
    """Every status the controller writes is one the API server accepts as an update of the
    previous one (jobmodel.api.strategy.job_status_validate_update): counters and terminal
    conditions never go back, startTime of a running Job is not changed, and the status rules hold."""
    if t.move.kind not in SYNC_MOVES:
        return None
    before, after = t.before.job(), t.after.job()
    if before is None or after is None or before.status == after.status:
        return None
    errors = _status_update_errors(after, before, t.after.cluster.features)
    return "; ".join(errors) if errors else None


@step_invariant("suspended-job-has-no-active-pods", "job_controller.go manageJob (suspended: delete all active pods); syncJob")
def suspended_job_has_no_active_pods(t: Transition) -> str | None:
    """After a sync of a suspended Job, it has no active pods and status.active is 0.
    Assumption: a clean sync (no API failures) with satisfied expectations (else manageJob is
    not called) over a cache that shows every pod."""
    job = t.after.job()
    if not clean_sync(t) or job is None or not job.spec.suspend or job.metadata.deletion_timestamp is not None:
        return None
    if t.before.hidden or not _satisfied(t.before):
        return None
    active = active_pods(t.after)
    if active or job.status.active:
        return f"suspended, yet {len(active)} active pods (status.active={job.status.active})"
    return None


@step_invariant("backoff-limit-enforced", "job_controller.go syncJob (exceedsBackoffLimit := failed > backoffLimit)")
def backoff_limit_enforced(t: Transition) -> str | None:
    """After a clean sync, a Job whose failures exceed backoffLimit is failing (FailureTarget or
    Failed) unless it already met its success criteria (SuccessCriteriaMet, then Complete: pods
    still being deleted then count as failed without failing the Job). Assumption: satisfied
    expectations, a cache that shows every pod, no backoffLimitPerIndex, no podFailurePolicy."""
    job = t.after.job()
    if not clean_sync(t) or job is None or t.before.hidden or not _satisfied(t.before):
        return None
    if job.spec.backoff_limit_per_index is not None or job.spec.pod_failure_policy is not None:
        return None
    uncounted = job.status.uncounted_terminated_pods
    failed = job.status.failed + (len(uncounted.failed) if uncounted is not None else 0)
    if failed <= (job.spec.backoff_limit or 0):
        return None
    if any(condition_true(job, c) for c in (FAILURE_TARGET, FAILED_CONDITION, SUCCESS_CRITERIA_MET, COMPLETE)):
        return None
    return f"{failed} failures, backoffLimit {job.spec.backoff_limit}, yet the Job is not failing"


def _satisfied(world: World) -> bool:
    exp = world.cluster.controller_state(world.job_key).expectations
    return exp is None or exp.fulfilled() or exp.expired(world.cluster.now)


# --- sometimes --------------------------------------------------------------------------------------


@sometimes("a Job completes")
def job_completes(world: World) -> bool:
    """The Job reaches Complete=True."""
    job = world.job()
    return job is not None and condition_true(job, COMPLETE)


@sometimes("a Job fails")
def job_fails(world: World) -> bool:
    """The Job reaches Failed=True."""
    job = world.job()
    return job is not None and condition_true(job, FAILED_CONDITION)


@sometimes("a pod is recreated after back-off")
def pod_recreated_after_backoff(world: World) -> bool:
    """A pod was created after another pod of the Job had failed."""
    pods = world.pods()
    failed_at = [
        c.terminated.finished_at
        for p in pods
        if p.phase == FAILED
        for c in p.status.container_statuses
        if c.terminated is not None and c.terminated.finished_at is not None
    ]
    return bool(failed_at) and any(
        p.metadata.creation_timestamp is not None and p.metadata.creation_timestamp > min(failed_at) for p in pods
    )
