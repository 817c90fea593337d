"""The Job catalogue: every property a correct Job controller keeps, stated once.

Each entry is a named predicate returning None when it holds, else a message saying how it
fails (`jobmodel.invariants.laws`). `state` invariants read one `World` of
`jobmodel.transitions.job_environment`; `step` invariants read one `Transition` (the world
before, the move, the world after and, for a controller sync, its result). Where a property only
holds under an assumption, the predicate checks the assumption first and says so in its
docstring. The properties come in pairs, one for each direction:

- **justified**: what the controller writes (a terminal condition and its reason, a counter, an
  index, a pod in uncountedTerminatedPods) is justified by the pods and the spec it saw;
- **enforced**: after a settled sync (`job_facts.settled`: clean, every pod in the cache,
  expectations satisfied) what the pods and the spec demand is in the status and the cluster.

`SOMETIMES` lists reachability properties: states the checkers must reach, so that the
invariants are not vacuously true. Every checker (the Hypothesis machines, the explorer,
replay) runs `LAWS` over the Job system (`jobmodel.checkers.job`); docs/invariants.md is the
catalogue in prose, with the broken variant each law alone catches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

import attrs

from jobmodel.actions import PatchPod, UpdateJobStatus
from jobmodel.api import strategy as api_strategy
from jobmodel.api import validation as bv
from jobmodel.api.wire import job_to_json
from jobmodel.features import FeatureGates
from jobmodel.invariants import laws
from jobmodel.invariants.job_facts import (
    SYNC_MOVES,
    Transition,
    a_new_failure,
    a_new_success,
    a_sync_changed_the_job,
    a_sync_or_a_job_change,
    active_pods,
    census,
    clean_sync,
    completed_indexes,
    condition_true,
    counted_failures,
    created,
    creations_tried,
    deleted_uids,
    deletions_tried,
    expectations_satisfied,
    failed_indexes,
    failed_so_far,
    failing,
    failures_seen,
    finalizer_removed_uids,
    finalizers_removed,
    finished,
    finished_pod,
    index_failed_for_good,
    index_of_job,
    indexes_of,
    job_changed,
    matches_fail_job,
    may_reach_max_uncounted,
    new_failure,
    new_success,
    newly_true,
    pods_by_uid,
    pods_census,
    pods_created,
    policy_action,
    policy_counts,
    settled,
    settled_with_options,
    status_written,
    succeeded_so_far,
    succeeding,
    success_policy_met,
    successes_seen,
    sync_step,
    terminating_pods,
    true_conditions,
    valid_index,
    valid_pods,
    visible_pods,
    visible_pods_by_uid,
    waited_for_backoff,
    written_statuses,
)
from jobmodel.state import (
    COMPLETE,
    FAILED,
    FAILED_CONDITION,
    FAILURE_TARGET,
    JOB_COMPLETION_INDEX_ANNOTATION,
    JOB_TRACKING_FINALIZER,
    SUCCEEDED,
    SUCCESS_CRITERIA_MET,
    Job,
    JobStatus,
    UncountedTerminatedPods,
)
from jobmodel.timeutil import add_seconds
from jobmodel.transitions import backoff as bo
from jobmodel.transitions import indexes as ix
from jobmodel.transitions.indexes import COMPLETION_INDEX_ENV_NAME
from jobmodel.transitions.job_environment import (
    World,
    backoff_remaining,
    cache_behind_own_writes,
    consistency_guarded,
    lag_covered,
    status_write_lags,
)
from jobmodel.transitions.pod_failure_policy import FAIL_INDEX
from jobmodel.transitions.pod_utils import has_job_tracking_finalizer, is_pod_active
from jobmodel.transitions.sync_job import (
    REASON_BACKOFF_LIMIT_EXCEEDED,
    REASON_DEADLINE_EXCEEDED,
    REASON_FAILED_INDEXES,
    REASON_MAX_FAILED_INDEXES_EXCEEDED,
    REASON_POD_FAILURE_POLICY,
    REASON_SUCCESS_POLICY,
    JobSyncResult,
    is_pod_failed,
    managed_by_external_controller,
    only_replace_failed_pods,
    past_backoff_limit_on_failure,
    want_active_pods,
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

LAWS: laws.Laws[World, JobSyncResult] = laws.Laws(any_guard=a_sync_or_a_job_change)
STATE_INVARIANTS = LAWS.state
STEP_INVARIANTS = LAWS.step
SOMETIMES = LAWS.sometimes
state_invariant = LAWS.state_invariant
step_invariant = LAWS.step_invariant
sometimes = LAWS.sometimes_property
check_state = LAWS.check_state
check_step = LAWS.check_step

# Names other modules read from the catalogue (the proofs compare their counts with these).
__all__ = [
    "LAWS",
    "STATE_INVARIANTS",
    "STEP_INVARIANTS",
    "SYNC_MOVES",
    "Transition",
    "active_pods",
    "check_state",
    "check_step",
    "condition_true",
    "failed_so_far",
    "finished",
    "succeeded_so_far",
]


# --- the API server's status rules, each owned by one law ------------------------------------------

# Status rules upstream itself breaks in some releases (the model is faithful to each, so the
# checkers accept exactly these signatures in those releases; `with refusing_known_upstream_bugs():`
# shows them, as tests/invariants/test_catalogue.py does):
# - kubernetes/kubernetes#139428 (fixed by #139457, in 1.36): manageJob returns active=0 when it
#   defers pod creation for the back-off, while ready keeps the running pods: ready > active
#   (accepted only in the states that early return can write: `_deferred_for_backoff`).
# - kubernetes/kubernetes#134521 (fixed by #134769, in 1.32.13 by #135128; the model's 1.32 is
#   v1.32.3): a resumed Job gets a new startTime, which the status validation rejected for an
#   unsuspended Job.
# - a suspended Job can finish without ever getting a startTime (created suspended with
#   `completions: 0`; or its first status write failed, its pods succeeded, and it was then
#   suspended: syncJob sets startTime only for an unsuspended Job), which the status validation
#   rejects (v1.33+ allow only the zero-completions case, so the second one stays stuck up to
#   v1.37: the API server refuses every Complete write). The explorer keeps the writes the API
#   server refuses, so that the laws see them: the write is judged by the Job the sync read
#   (status-writes-valid, which owns the rule: accepted when it read the Job suspended), not the
#   state it leaves, which a user may resume afterwards.
# - a pod deleted while running is recorded in uncountedTerminatedPods.failed; if removing its
#   finalizer fails and the pod then exits 0, the next sync counts it as a new success
#   (getNewFinishedPods skips only uncounted *succeeded* pods) and completes the Job, while the
#   status counts it as failed: Complete with succeeded < completions (v1.32 to v1.37). The
#   catalogue accepts this one as an environment assumption (a pod the controller counted as
#   failed does not succeed afterwards: the proofs' counted-failures-stay-failed), so a trace
#   checked outside the assumptions (`Transition.without_assumptions`) reports it too.
ACCEPT_KNOWN_UPSTREAM_BUGS = True
READY_ABOVE_ACTIVE = "cannot set more ready pods than active"
START_TIME_ON_RESUME = "startTime cannot be removed for unsuspended job"
NO_START_TIME_WHEN_FINISHED = "startTime is required for finished job"

# The rules of the API server's status validation that a law of their own states (so that a
# broken status is reported once, by the law that names what is wrong).
OWNED_ELSEWHERE = (
    "cannot set Complete=True and Failed=true",  # complete-and-failed-exclusive
    "cannot set Complete=True and FailureTarget=true",
    "cannot set SuccessCriteriaMet=True and Failed=true",
    "cannot set SuccessCriteriaMet=True and FailureTarget=true",
    "cannot disable the",  # terminal-conditions-absorbing
    "completionTime cannot be mutated",
    "cannot decrease the",  # counters-never-decrease
    "must not overlap with completedIndexes",  # completed-and-failed-indexes-disjoint
)


def succeeded_yet_recorded_failed(t: Transition) -> list[str]:
    """The pods the sync saw Succeeded that the status already listed in
    uncountedTerminatedPods.failed (deleted while running, recorded as failed, then exited 0):
    getNewFinishedPods counts them as new successes, while the status counts them as failures."""
    before = t.before.job()
    if before is None or before.status.uncounted_terminated_pods is None:
        return []
    listed = set(before.status.uncounted_terminated_pods.failed)
    return [p.uid for p in visible_pods(t.before) if p.phase == SUCCEEDED and p.uid in listed]


def successes_counted_by_upstream(t: Transition) -> int:
    """The pods succeeded_yet_recorded_failed that the checks count as successes, as upstream's
    syncJob does (the known upstream bug accepted), unless the transition is checked outside the
    catalogue's assumptions."""
    if not ACCEPT_KNOWN_UPSTREAM_BUGS or t.without_assumptions:
        return 0
    return len(succeeded_yet_recorded_failed(t))


def _deferred_for_backoff(job: Job, backoff_failures: int | None) -> bool:
    """A status that manageJob's early return for the pod-failure back-off (global or per index)
    can write (kubernetes#139428): active=0 in a status written while the Job ran unsuspended,
    neither finished nor finishing, after a failure. The Job's back-off follows a failed pod that the same write
    counts, or one the controller's back-off record counts although the status does not (a
    failure a podFailurePolicy Ignore rule leaves uncounted still feeds newBackoffRecord:
    getNewFinishedPods filters by isPodFailed alone); a per-index back-off may follow one that is
    not counted yet (the last failed pod of an index keeps its finalizer until its replacement:
    getPodsWithDelayedDeletionPerIndex). Without a record (`backoff_failures` None: lost to a
    restart) the failure that status was written after is not known, and it is accepted."""
    status = job.status
    uncounted = status.uncounted_terminated_pods
    failures = status.failed + (len(uncounted.failed) if uncounted is not None else 0)
    finishing = any(condition_true(job, c) for c in (COMPLETE, FAILED_CONDITION, FAILURE_TARGET, SUCCESS_CRITERIA_MET))
    failed_before = failures > 0 or backoff_failures is None or backoff_failures > 0 or job.spec.backoff_limit_per_index is not None
    # The status was written while the Job ran: a sync of a suspended Job adds Suspended=True
    # (a user's later suspend leaves this status in place until the next sync).
    written_suspended = condition_true(job, "Suspended")
    return status.active == 0 and not written_suspended and not finishing and failed_before


def _backoff_failures(world: World, job: Job) -> int | None:
    """The failures the controller's back-off record for the Job holds; None without a record
    (every status write saves one: a status in place without one was written before a restart
    lost it)."""
    record = world.cluster.controller_state(job.key).backoff
    return record.failures_after_last_success if record is not None else None


def _known_upstream_bug(job: Job, backoff_failures: int | None, error: str, release: int) -> bool:
    if not ACCEPT_KNOWN_UPSTREAM_BUGS:
        return False
    if READY_ABOVE_ACTIVE in error and release < 36:
        return _deferred_for_backoff(job, backoff_failures)
    if START_TIME_ON_RESUME in error and release < 33:
        suspended = job.status.condition("Suspended")
        return suspended is not None and suspended.status == "False" and suspended.reason == "JobResumed"
    if NO_START_TIME_WHEN_FINISHED in error:
        return bool(job.spec.suspend)
    return False


def _reported(job: Job, backoff_failures: int | None, errors: Sequence[object], release: int) -> tuple[str, ...]:
    out = []
    for e in errors:
        text = str(e)
        if any(owned in text for owned in OWNED_ELSEWHERE) or _known_upstream_bug(job, backoff_failures, text, release):
            continue
        out.append(text)
    return tuple(out)


@lru_cache(maxsize=8192)
def _job_json(job: Job) -> Mapping[str, Any]:
    """The Job's wire form, converted once for the status checks (which read it, never change
    it): status-rules converts each new Job, status-writes-valid reads it again as the new and
    the old object of the writes."""
    return job_to_json(job)


@lru_cache(maxsize=8192)
def _status_rule_errors(job: Job, backoff_failures: int | None, release: int) -> tuple[str, ...]:
    rules = attrs.evolve(STRICT_STATUS_RULES, release=release)
    return _reported(job, backoff_failures, bv.validate_job_status(_job_json(job), "status", rules), release)


@lru_cache(maxsize=8192)
def _status_update_errors(new: Job, old: Job, gates: FeatureGates) -> tuple[str, ...]:
    """The API server's errors on this status update (all of them: the law reports them
    `_reported`, which reads the controller's back-off record only when there are some)."""
    new_json, old_json = _job_json(new), _job_json(old)
    options = attrs.evolve(api_strategy.get_status_validation_options(new_json, old_json, gates), **UPDATE_ONLY)
    return tuple(str(e) for e in bv.validate_job_update_status(new_json, old_json, options))


def forget_cached_checks() -> None:
    """Drop the memoised status checks (after changing ACCEPT_KNOWN_UPSTREAM_BUGS)."""
    _status_rule_errors.cache_clear()
    _status_update_errors.cache_clear()
    _job_json.cache_clear()


@contextmanager
def refusing_known_upstream_bugs() -> Iterator[None]:
    """Within: ACCEPT_KNOWN_UPSTREAM_BUGS off, the memoised status checks forgotten on the way in
    and out (so that no verdict of one setting outlives it)."""
    global ACCEPT_KNOWN_UPSTREAM_BUGS
    ACCEPT_KNOWN_UPSTREAM_BUGS = False
    forget_cached_checks()
    try:
        yield
    finally:
        ACCEPT_KNOWN_UPSTREAM_BUGS = True
        forget_cached_checks()


# Every rule of validateJobStatus enforced, whatever changed (the API server enforces a rule only
# when the fields it reads change, so that old objects stay writable), except the index rules:
# those read spec.completions, which an elastic edit lowers under a status written before it;
# status-writes-valid checks them on every status the controller writes.
INDEX_RULES = (
    "reject_invalid_completed_indexes",
    "reject_invalid_failed_indexes",
    "reject_failed_indexes_overlapping_completed",
    "reject_completed_indexes_for_non_indexed_job",
    "reject_failed_indexes_for_no_backoff_limit_per_index",
)
# ... and the rules the API server applies by the spec at the write, which a user may change
# afterwards (a finished Job without startTime is refused unless suspended with zero
# completions; the known bug above is a sync that read the Job suspended): status-writes-valid
# checks them on the write, by the Job the sync read.
WRITE_RULES = ("reject_finished_job_without_start_time",)
STRICT_STATUS_RULES = bv.JobStatusValidationOptions(
    **{
        f.name: True
        for f in attrs.fields(bv.JobStatusValidationOptions)
        if f.name.startswith("reject_")
        and f.name not in ("reject_start_time_update_for_unsuspended_job", *WRITE_RULES, *INDEX_RULES)
    },
    allow_for_success_criteria_met_in_extended_scope=True,
)
# status-writes-valid: the rules on a write that status-rules does not check on states (those on
# the change from the old status, and the index rules), as the API server applies them.
UPDATE_ONLY = {
    f.name: False
    for f in attrs.fields(bv.JobStatusValidationOptions)
    if f.name.startswith("reject_")
    and f.name not in ("reject_start_time_update_for_unsuspended_job", *WRITE_RULES, *INDEX_RULES)
}


# --- state invariants -------------------------------------------------------------------------------


@state_invariant("complete-and-failed-exclusive", "pkg/apis/batch/validation validateJobStatus (RejectCompleteJobWithFailedCondition, RejectCompleteJobWithFailureTargetCondition, SuccessCriteriaMet with Failed or FailureTarget)")
def complete_and_failed_exclusive(world: World) -> str | None:
    """A Job never both succeeds and fails: Complete or SuccessCriteriaMet is never True together
    with Failed or FailureTarget. syncJob decides one finished condition per sync, a success
    criterion met first wins (hasSuccessCriteriaMetCondition is read before FailureTarget), and
    finished Jobs are not synced (`IsJobFinished`)."""
    job = world.job()
    if job is not None and succeeding(job) and failing(job):
        true = [c.type for c in job.status.conditions if c.status == "True"]
        return f"the Job both succeeds and fails: {true}"
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
    """The Job status satisfies every rule of the API server's status validation that no other
    law states: completionTime iff Complete and not before startTime, Failed implies
    FailureTarget, Complete implies SuccessCriteriaMet, a finished Job has no active or
    terminating pods and an empty uncountedTerminatedPods, ready <= active, uncounted UIDs
    unique, SuccessCriteriaMet only where allowed. Reuses jobmodel.api.validation. Known upstream
    bugs accepted: see ACCEPT_KNOWN_UPSTREAM_BUGS."""
    job = world.job()
    if job is None:
        return None
    errors = _status_rule_errors(job, _backoff_failures(world, job), world.cluster.features.release)
    return "; ".join(errors) if errors else None


@state_invariant("one-condition-per-type", "job_controller.go ensureJobConditionStatus; batch/v1 JobStatus.conditions")
def one_condition_per_type(world: World) -> str | None:
    """The Job has at most one condition of each type: the controller updates a condition in
    place (ensureJobConditionStatus) and adds FailureTarget and SuccessCriteriaMet only once."""
    job = world.job()
    if job is None:
        return None
    types = [c.type for c in job.status.conditions]
    twice = sorted({t for t in types if types.count(t) > 1})
    return f"two {twice[0]} conditions" if twice else None


@state_invariant("completed-and-failed-indexes-disjoint", "pkg/apis/batch/validation validateJobStatus (RejectFailedIndexesOverlappingCompleted); indexed_job_utils.go")
def completed_and_failed_indexes_disjoint(world: World) -> str | None:
    """No index of an Indexed Job is both in completedIndexes and in failedIndexes: an index is
    completed by a succeeded pod or failed for good, not both."""
    job = world.job()
    if job is None or not ix.is_indexed_job(job):
        return None
    both = sorted(completed_indexes(job) & failed_indexes(job))
    return f"indexes {both} are both completed and failed" if both else None


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


# --- step invariants: the status the API server accepts ------------------------------------------


@step_invariant("status-writes-valid", "pkg/registry/batch/job/strategy.go jobStatusStrategy.ValidateUpdate", when=a_sync_changed_the_job)
def status_writes_valid(t: Transition) -> str | None:
    """Every status the controller writes passes the API server's rules on a status update that
    no other law states: the startTime of an unsuspended Job is not changed, a Job finished by the
    write has a startTime, and the index rules (well-formed, within completions, only for Indexed
    Jobs and backoffLimitPerIndex), applied as jobStatusStrategy applies them
    (jobmodel.api.strategy). Known upstream bug accepted: a Job finished by a sync that read it
    suspended has no startTime (ACCEPT_KNOWN_UPSTREAM_BUGS)."""
    s = sync_step(t)
    if not s.sync:
        return None
    before, after = s.before, s.after
    if before is None or after is None or before.status == after.status:
        return None
    gates = t.after.cluster.features
    errors = _status_update_errors(after, before, gates)
    if errors:
        errors = _reported(after, _backoff_failures(t.after, after), errors, gates.release)
    return "; ".join(errors) if errors else None


@step_invariant("terminal-conditions-absorbing", "pkg/apis/batch/validation ValidateJobStatusUpdate (RejectDisablingTerminalCondition, RejectMutatingCompletionTime)", when=job_changed)
def terminal_conditions_absorbing(t: Transition) -> str | None:
    """Once Complete, Failed, FailureTarget or SuccessCriteriaMet is True it stays True, and the
    completionTime never changes (syncJob does nothing for finished Jobs)."""
    before, after = t.before.job(), t.after.job()  # not sync_step: most Job changes are not syncs
    if before is None or after is None:
        return None
    removed = true_conditions(before) - true_conditions(after)  # condition_true before, not after
    for ctype in (COMPLETE, FAILED_CONDITION, FAILURE_TARGET, SUCCESS_CRITERIA_MET):
        if ctype in removed:
            return f"{ctype}=True was removed"
    if before.status.completion_time is not None and after.status.completion_time != before.status.completion_time:
        return "completionTime changed"
    return None


@step_invariant("counters-never-decrease", "pkg/apis/batch/validation ValidateJobStatusUpdate (RejectDecreasing{Succeeded,Failed}Counter)", when=job_changed)
def counters_never_decrease(t: Transition) -> str | None:
    """status.succeeded and status.failed never decrease (except succeeded of an elastic Indexed
    Job, completions == parallelism, which may be scaled down: its dropped indexes no longer
    count, as getStatusValidationOptions allows)."""
    before, after = t.before.job(), t.after.job()  # not sync_step: most Job changes are not syncs
    if before is None or after is None:
        return None
    if after.status.failed < before.status.failed:
        return f"failed went from {before.status.failed} to {after.status.failed}"
    elastic = ix.is_indexed_job(after) and after.spec.completions == after.spec.parallelism
    if after.status.succeeded < before.status.succeeded and not elastic:
        return f"succeeded went from {before.status.succeeded} to {after.status.succeeded}"
    return None


@step_invariant("completed-indexes-only-grow", "job_controller.go calculateSucceededIndexes (prev ∪ new); validation RejectDecreasingSucceededCounter", when=job_changed)
def completed_indexes_only_grow(t: Transition) -> str | None:
    """completedIndexes only grows (below the current completions: an elastic Job scaled down
    drops the indexes it no longer has), and so does failedIndexes."""
    before, after = t.before.job(), t.after.job()  # not sync_step: most Job changes are not syncs
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


# --- step invariants: terminal conditions are justified --------------------------------------------


@step_invariant("backoff-limit-exceeded-justified", "job_controller.go syncJob (exceedsBackoffLimit := jobCtx.failed > *job.Spec.BackoffLimit; pastBackoffLimitOnFailure)", when=a_new_failure)
def backoff_limit_exceeded_justified(t: Transition) -> str | None:
    """A sync fails a Job with reason BackoffLimitExceeded only when the failures it counts (those
    its status records, failed plus uncountedTerminatedPods.failed, and the failed pods new to
    it, which the MaxUncountedPods cut-off may leave unrecorded: `failures_seen`) exceed
    backoffLimit, or, with restartPolicy OnFailure, its running pods' restarts reach it."""
    cond = new_failure(t)
    job, before = t.after.job(), sync_step(t).before
    if cond is None or job is None or before is None or cond.reason != REASON_BACKOFF_LIMIT_EXCEEDED:
        return None
    limit = job.spec.backoff_limit or 0
    seen = failures_seen(t.before, before, t.before.cluster.features)
    if seen > limit or past_backoff_limit_on_failure(job, list(visible_pods(t.before))):
        return None
    return f"{cond.type} BackoffLimitExceeded with {seen} failures counted, backoffLimit {limit}"


@step_invariant("deadline-exceeded-justified", "job_controller.go pastActiveDeadline", when=a_new_failure)
def deadline_exceeded_justified(t: Transition) -> str | None:
    """A sync fails a Job with reason DeadlineExceeded only once activeDeadlineSeconds have passed
    since its startTime, and never while it is suspended."""
    cond = new_failure(t)
    job = t.after.job()
    if cond is None or job is None or cond.reason != REASON_DEADLINE_EXCEEDED:
        return None
    ads, start, now = job.spec.active_deadline_seconds, job.status.start_time, t.after.cluster.now
    if ads is None or start is None:
        return f"{cond.type} DeadlineExceeded without activeDeadlineSeconds and startTime"
    if job.spec.suspend:
        return f"{cond.type} DeadlineExceeded while suspended"
    elapsed = (now - start).total_seconds()
    return None if elapsed >= ads else f"{cond.type} DeadlineExceeded after {elapsed:g}s of activeDeadlineSeconds {ads}"


@step_invariant("pod-failure-policy-justified", "job_controller.go getFailJobMessage; pod_failure_policy.go matchPodFailurePolicy", when=a_new_failure)
def pod_failure_policy_justified(t: Transition) -> str | None:
    """A sync fails a Job with reason PodFailurePolicy only when a failed pod it saw matches a
    FailJob rule of the podFailurePolicy (the first rule that matches a failure decides)."""
    cond = new_failure(t)
    job = t.before.job()
    if cond is None or job is None or cond.reason != REASON_POD_FAILURE_POLICY:
        return None
    gates = t.before.cluster.features
    if any(matches_fail_job(job, p, gates) for p in visible_pods(t.before)):
        return None
    return f"{cond.type} PodFailurePolicy, yet no failed pod matches a FailJob rule"


@step_invariant("max-failed-indexes-justified", "job_controller.go syncJob (failedIndexes.total() > *job.Spec.MaxFailedIndexes)", when=a_new_failure)
def max_failed_indexes_justified(t: Transition) -> str | None:
    """A sync fails a Job with reason MaxFailedIndexesExceeded only when more than
    maxFailedIndexes indexes are in failedIndexes."""
    cond = new_failure(t)
    job = t.after.job()
    if cond is None or job is None or cond.reason != REASON_MAX_FAILED_INDEXES_EXCEEDED:
        return None
    limit, failed = job.spec.max_failed_indexes, len(failed_indexes(job))
    if limit is not None and failed > limit:
        return None
    return f"{cond.type} MaxFailedIndexesExceeded with {failed} failed indexes, maxFailedIndexes {limit}"


@step_invariant("failed-indexes-reason-justified", "job_controller.go syncJob (failedIndexes.total() > 0 && failed + succeeded >= completions)", when=a_new_failure)
def failed_indexes_reason_justified(t: Transition) -> str | None:
    """A sync fails a Job with reason FailedIndexes only when some index failed and every index
    has completed or failed."""
    cond = new_failure(t)
    job = t.after.job()
    if cond is None or job is None or cond.reason != REASON_FAILED_INDEXES:
        return None
    failed, done = failed_indexes(job), completed_indexes(job)
    completions = job.spec.completions or 0
    if failed and len(failed | done) >= completions:
        return None
    return f"{cond.type} FailedIndexes with failed {sorted(failed)} and completed {sorted(done)} of {completions}"


@step_invariant("complete-meets-success-criteria", "job_controller.go syncJob (complete := succeeded >= completions && active == 0), newSuccessCondition", when=a_new_success)
def complete_meets_success_criteria(t: Transition) -> str | None:
    """A sync declares a Job succeeded (SuccessCriteriaMet, or Complete without it) for reaching
    its completions only when `completions` pods (indexes) succeeded or, without completions
    (a work queue), some pod succeeded and no pod it saw is still active unless it deleted it (success policies:
    success-policy-justified). The successes are those the sync counts, the ones the
    MaxUncountedPods cut-off left unrecorded among them (`successes_seen`). Known upstream bug
    accepted: see ACCEPT_KNOWN_UPSTREAM_BUGS (a success recorded as a failure)."""
    cond = new_success(t)
    job = t.after.job()
    if cond is None or job is None or cond.reason == REASON_SUCCESS_POLICY:
        return None
    succeeded = successes_seen(t.after, job) + successes_counted_by_upstream(t)
    if job.spec.completions is None:
        if succeeded == 0:
            return f"{cond.type} without any succeeded pod"
        gone = deleted_uids(t)
        running = [p.name for p in visible_pods(t.before) if is_pod_active(p) and p.uid not in gone]
        return f"{cond.type} while pod {running[0]} still runs (no completions: all must end)" if running else None
    if succeeded < job.spec.completions:
        return f"{cond.type} with {succeeded} of {job.spec.completions} completions"
    return None


@step_invariant("success-policy-justified", "success_policy.go matchSuccessPolicy", when=a_new_success)
def success_policy_justified(t: Transition) -> str | None:
    """A sync declares a Job succeeded with reason SuccessPolicy only when a rule of its
    successPolicy holds for the completed indexes: all its succeededIndexes completed, or at
    least succeededCount of them."""
    cond = new_success(t)
    job = t.after.job()
    if cond is None or job is None or cond.reason != REASON_SUCCESS_POLICY:
        return None
    if success_policy_met(job.spec.success_policy, job.spec.completions or 0, completed_indexes(job)):
        return None
    return f"{cond.type} SuccessPolicy with completed indexes {sorted(completed_indexes(job))}"


@step_invariant("terminal-condition-keeps-its-reason", "job_controller.go newFailedConditionForFailureTarget; trackJobStatusAndRemoveFinalizers (Complete from SuccessCriteriaMet)", when=job_changed)
def terminal_condition_keeps_its_reason(t: Transition) -> str | None:
    """The final condition carries the reason of the interim one it follows: Failed that of
    FailureTarget, Complete that of SuccessCriteriaMet."""
    job = t.after.job()
    if job is None:
        return None
    for final, interim in ((FAILED_CONDITION, FAILURE_TARGET), (COMPLETE, SUCCESS_CRITERIA_MET)):
        cond, first = newly_true(t, final), job.status.condition(interim)
        if cond is not None and first is not None and first.status == "True" and cond.reason != first.reason:
            return f"{final} has reason {cond.reason!r}, {interim} {first.reason!r}"
    return None


# --- step invariants: counters and indexes are justified --------------------------------------------


@step_invariant("uncounted-entries-justified", "job_controller.go trackJobStatusAndRemoveFinalizers; pod_failure_policy.go (Ignore: not counted)", when=status_written)
def uncounted_entries_justified(t: Transition) -> str | None:
    """A pod enters uncountedTerminatedPods only when it finished and is not counted yet, as the
    sync's cache showed it: it still holds the tracking finalizer, and it is in `succeeded` only
    if it Succeeded, in `failed` only if it failed (isPodFailed), or did not succeed while the Job
    is failing, and no podFailurePolicy rule ignores its failure."""
    s = sync_step(t)
    if not s.sync:
        return None
    job = s.before
    if job is None:
        return None
    gates = t.before.cluster.features
    pods = visible_pods_by_uid(t.before)  # the pods as the sync saw them
    old = job.status.uncounted_terminated_pods or UncountedTerminatedPods()
    for status in written_statuses(t):
        new = status.uncounted_terminated_pods or UncountedTerminatedPods()
        if new == old:
            continue  # no pod entered
        job_failing = any(c.type in (FAILURE_TARGET, FAILED_CONDITION) and c.status == "True" for c in status.conditions)
        for uid in set(new.succeeded) - set(old.succeeded):
            pod = pods.get(uid)
            if pod is None or pod.phase != SUCCEEDED or not has_job_tracking_finalizer(pod) or uid in old.failed:
                return f"{_name(pod, uid)} entered uncountedTerminatedPods.succeeded without a success to count"
        for uid in set(new.failed) - set(old.failed):
            pod = pods.get(uid)
            if pod is None or not has_job_tracking_finalizer(pod) or uid in old.succeeded:
                return f"{_name(pod, uid)} entered uncountedTerminatedPods.failed, already counted"
            if not (is_pod_failed(pod, job, gates) or (job_failing and pod.phase != SUCCEEDED)):
                return f"{_name(pod, uid)} ({pod.phase}) entered uncountedTerminatedPods.failed without failing"
            if not policy_counts(job, pod, gates):
                return f"{_name(pod, uid)} entered uncountedTerminatedPods.failed, a failure the podFailurePolicy ignores"
    return None


@laws.transition_fact
def released(t: Transition) -> frozenset[str]:
    """The pods whose tracking finalizer the sync removed or the controller expects removed."""
    expected = t.before.cluster.controller_state(t.before.job_key).expected_finalizer_removals
    return finalizer_removed_uids(t) | frozenset(expected)


def _name(pod: object, uid: str) -> str:
    return f"pod {getattr(pod, 'name', uid)}"


@step_invariant("pod-counted-exactly-once", "job_controller.go flushUncountedAndRemoveFinalizers, cleanUncountedPodsWithoutFinalizers (KEP-2307)", when=status_written)
def pod_counted_exactly_once(t: Transition) -> str | None:
    """The counters grow only by the pods that leave uncountedTerminatedPods, and a pod leaves it
    only once its tracking finalizer is gone: no finished pod is counted twice or dropped from
    the record (succeeded of NonIndexed Jobs; failed of every Job)."""
    s = sync_step(t)
    if not s.sync:
        return None
    before = s.before
    writes = written_statuses(t)
    if before is None or not writes:
        return None
    old = before.status.uncounted_terminated_pods or UncountedTerminatedPods()
    pods = pods_by_uid(t.before)

    def gone(uid: str) -> bool:
        pod = pods.get(uid)
        return pod is None or not has_job_tracking_finalizer(pod) or uid in released(t)

    indexed = ix.is_indexed_job(before)
    previous: JobStatus = before.status
    listed = old
    for status in writes:
        new = status.uncounted_terminated_pods or UncountedTerminatedPods()
        if new == listed and status.failed == previous.failed and (indexed or status.succeeded == previous.succeeded):
            previous = status
            continue  # no pod left the record, no counter moved
        for kind, was, now, counter_was, counter_now in (
            ("failed", listed.failed, new.failed, previous.failed, status.failed),
            ("succeeded", listed.succeeded, new.succeeded, previous.succeeded, status.succeeded),
        ):
            if kind == "succeeded" and indexed:
                continue
            left = set(was) - set(now) if was else set()
            if left and not all(map(gone, left)):
                return f"a pod left uncountedTerminatedPods.{kind} while it still holds its finalizer"
            if counter_now - counter_was != len(left):
                return f"{kind} went from {counter_was} to {counter_now} while {len(left)} pods left uncountedTerminatedPods.{kind}"
        previous, listed = status, new
    return None


@step_invariant("finalizer-removed-after-recording", "job_controller.go flushUncountedAndRemoveFinalizers: status update before removeTrackingFinalizerFromPods", when=finalizers_removed)
def finalizer_removed_after_recording(t: Transition) -> str | None:
    """The controller removes the tracking finalizer of a finished pod (as its cache shows it) of
    an unfinished Job only after an accepted status write records it (in
    uncountedTerminatedPods; an Indexed Job's success in completedIndexes, before or in the same
    write); otherwise a crash in between loses the pod. Not recorded by design: pods whose index
    is out of range, failures a podFailurePolicy rule ignores."""
    before = sync_step(t).before
    if t.sync is None or before is None:
        return None
    if finished(before):
        return None
    gates = t.before.cluster.features
    uncounted = before.status.uncounted_terminated_pods
    recorded = set(uncounted.succeeded + uncounted.failed) if uncounted is not None else set()
    done = completed_indexes(before)
    pods = visible_pods_by_uid(t.before)  # finished as the sync saw them
    for action in t.sync.actions:
        if isinstance(action, UpdateJobStatus) and action.accepted:
            u = action.status.uncounted_terminated_pods
            if u is not None:
                recorded |= set(u.succeeded + u.failed)
            done |= indexes_of(action.status.completed_indexes)
        if isinstance(action, PatchPod) and action.kind == "remove-finalizer" and action.accepted:
            pod = pods.get(action.uid)
            if pod is None or not finished_pod(pod) or action.uid in recorded:
                continue
            if ix.is_indexed_job(before):
                index = valid_index(before, pod)
                if index is None or (pod.phase == SUCCEEDED and index in done):
                    continue
            if pod.phase == FAILED and not policy_counts(before, pod, gates):
                continue  # an ignored failure is not recorded
            return f"finalizer of {pod.phase} pod {pod.name} removed before it was recorded"
    return None


@step_invariant("completed-indexes-justified", "indexed_job_utils.go calculateSucceededIndexes", when=a_sync_changed_the_job)
def completed_indexes_justified(t: Transition) -> str | None:
    """An index enters completedIndexes only when a pod with that index succeeded: a sync adds
    the index of a Succeeded pod it saw (within completions), no other."""
    s = sync_step(t)
    if not s.sync:
        return None
    before, after = s.before, s.after
    if before is None or after is None or not s.indexed:
        return None
    added = s.completed - completed_indexes(before)
    if not added:
        return None
    succeeded = {valid_index(after, p) for p in visible_pods(t.before) if p.phase == SUCCEEDED}
    unjustified = sorted(added - succeeded)
    return f"indexes {unjustified} completed without a succeeded pod" if unjustified else None


@step_invariant("failed-indexes-justified", "indexed_job_utils.go calculateFailedIndexes, isIndexFailed", when=a_sync_changed_the_job)
def failed_indexes_justified(t: Transition) -> str | None:
    """An index enters failedIndexes only when a pod of that index failed for good: its failure
    matched a FailIndex rule, or it counts and the index had used up backoffLimitPerIndex."""
    s = sync_step(t)
    if not s.sync:
        return None
    before, after = s.before, s.after
    if before is None or after is None or not s.indexed:
        return None
    gates = t.before.cluster.features
    added = s.failed - failed_indexes(before)
    if not added:
        return None
    failed = {valid_index(before, p) for p in visible_pods(t.before) if index_failed_for_good(before, p, gates)}
    unjustified = sorted(added - failed)
    return f"indexes {unjustified} failed without a pod that used up its index" if unjustified else None


# --- step invariants: creating pods ----------------------------------------------------------------


def creations_trust_the_cache(world: World) -> bool:
    """no-over-creation's assumption up to 1.35: every pod missing from the sync's cache was
    covered by unexpired creation expectations (`lag_covered`), and the cache shows the Job with
    the controller's own status writes (no expectations cover those: a success counted in a
    status the cache has not delivered, whose pod's finalizer is gone, is counted nowhere). A
    user's edit the cache has not delivered is no breach: the sync is judged by the spec it read
    (`job_facts.spec_read`)."""
    return not status_write_lags(world) and lag_covered(world)


@step_invariant("no-over-creation", "job_controller.go manageJob (wantActive, firstPendingIndexes) and controller.ControllerExpectations", when=pods_created)
def no_over_creation(t: Transition) -> str | None:
    """A sync that creates pods leaves at most `parallelism` active pods, at most the remaining
    completions (NonIndexed), and no two active pods, nor an active and a completed one, with the
    same index (Indexed).
    Up to 1.35 it assumes that every pod missing from the sync's cache was covered by unexpired
    creation expectations (`lag_covered`; that is what expectations are for; once they expire,
    after ExpectationsTimeout, upstream trusts the stale cache and over-creates, see
    tests/invariants/test_catalogue.py), and that the cache shows the Job's latest status
    (`creations_trust_the_cache`). From 1.36 (StaleControllerConsistencyJob) it holds without
    that assumption: the controller does not sync on a cache behind its own writes."""
    s = sync_step(t)
    if not s.sync or not s.created:
        return None
    if not creations_trust_the_cache(t.before) and not consistency_guarded(t.before) and not t.without_assumptions:
        return None  # outside the assumption: no-over-creation-on-stale-cache
    return _over_created(t)


@step_invariant(
    "no-over-creation-on-stale-cache",
    "job_controller.go syncJob (consistencyStore.EnsureReady), controller/util/consistency/consistency.go",
    when=pods_created,
)
def no_over_creation_on_stale_cache(t: Transition) -> str | None:
    """no-over-creation where its assumption up to 1.35 fails: the sync's cache lags behind pods
    the controller created and their expectations have expired, or behind the controller's own
    status write. Upstream's guarantee from 1.36 (StaleControllerConsistencyJob: syncJob waits
    until the informers have seen the controller's own writes); 1.32 to 1.35 break it, and
    `explore --kube-version 1.32 --stale 1 --expiries 1` shows how (the controller trusts its
    stale list and creates a second set of pods), as does `--stale-status 1` (a success counted
    in a status the cache has not shown, its pod's finalizer removed, is counted nowhere)."""
    s = sync_step(t)
    if not s.sync or not s.created or creations_trust_the_cache(t.before):
        return None
    return _over_created(t)


def _over_created(t: Transition) -> str | None:
    """What no-over-creation checks after a sync that created pods."""
    s = sync_step(t)
    job = s.after
    if job is None:
        return None
    active = s.pods.active
    parallelism = job.spec.parallelism or 0
    if len(active) > parallelism:
        return f"{len(active)} active pods after creating {len(s.created)}, parallelism is {parallelism}"
    if s.indexed:
        seen: set[int] = set()
        done = s.completed
        for index in s.pods.active_indexes:
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


@step_invariant("pod-creations-within-cap", "job_controller.go manageJob (if diff > MaxPodCreateDeletePerSync { diff = MaxPodCreateDeletePerSync })", when=pods_created)
def pod_creations_within_cap(t: Transition) -> str | None:
    """A sync tries to create at most MaxPodCreateDeletePerSync pods (500 unless the
    controller's tunables say otherwise; `explore --tunable maxPodCreateDeletePerSync=N`): a
    Job of many pods gets them over several syncs, so that no sync floods the API server."""
    tried = creations_tried(t)
    cap = t.before.cluster.tunables.max_pod_create_delete_per_sync
    return f"{tried} pod creations in one sync, MaxPodCreateDeletePerSync is {cap}" if tried > cap else None


@step_invariant("pod-deletions-within-cap", "job_controller.go manageJob (if len(podsToDelete) > MaxPodCreateDeletePerSync), deleteActivePods", when=clean_sync)
def pod_deletions_within_cap(t: Transition) -> str | None:
    """A sync that scales down a running Job (too many active pods for its parallelism or the
    completions left, duplicate or out-of-range indexes) deletes at most MaxPodCreateDeletePerSync
    pods; the next sync deletes more. A sync that deletes every active pod it sees is not judged:
    that is deleteActivePods, which upstream does not cap, of a Job that is finishing (also where
    the sync then holds its condition back: expectations not yet satisfied, MaxUncountedPods
    reached) or suspended, or a scale-down to zero, which the law cannot tell from them. Only
    syncs whose API calls all went through."""
    tried = deletions_tried(t)
    cap = t.before.cluster.tunables.max_pod_create_delete_per_sync
    if tried <= cap or tried >= len(pods_census(t.before.visible_pods()).active):
        return None
    return f"{tried} pod deletions in one sync, MaxPodCreateDeletePerSync is {cap}"


@step_invariant("created-pods-tracked", "job_controller.go manageJob (appendJobCompletionFinalizerIfNotFound; CreatePodsWithGenerateName with the Job's controller reference)", when=pods_created)
def created_pods_tracked(t: Transition) -> str | None:
    """Every pod a sync creates is the Job's (a controller reference to it) and holds the
    tracking finalizer, so that it cannot vanish before the controller has counted it."""
    job = t.before.job()
    if job is None:
        return None
    for action in created(t):
        meta = action.pod.metadata
        ref = meta.controller_ref()
        if ref is None or ref.uid != job.uid:
            return "a pod created without the Job's controller reference"
        if JOB_TRACKING_FINALIZER not in meta.finalizers:
            return "a pod created without the tracking finalizer"
    return None


@step_invariant("created-pods-carry-their-index", "job_controller.go manageJob; indexed_job_utils.go addCompletionIndexAnnotation, addCompletionIndexEnvVariables, podGenerateNameWithIndex", when=pods_created)
def created_pods_carry_their_index(t: Transition) -> str | None:
    """Every pod a sync creates for an Indexed Job carries the index it was created for: the
    completion-index annotation, the hostname `<job>-<index>`, and JOB_COMPLETION_INDEX in the
    environment of every container and init container (the workload reads its index there)."""
    job = t.before.job()
    if job is None or not ix.is_indexed_job(job):
        return None
    for action in created(t):
        pod, index = action.pod, action.index
        if str(pod.metadata.annotations.get(JOB_COMPLETION_INDEX_ANNOTATION)) != str(index):
            return f"a pod for index {index} created with annotation {pod.metadata.annotations.get(JOB_COMPLETION_INDEX_ANNOTATION)!r}"
        if pod.spec.get("hostname") != f"{job.name}-{index}":
            return f"a pod for index {index} created with hostname {pod.spec.get('hostname')!r}"
        lacking = _containers_without_index_env(pod.spec)
        if lacking:
            return f"container {lacking[0]} of a pod for index {index} lacks {COMPLETION_INDEX_ENV_NAME}"
    return None


@lru_cache(maxsize=8192)  # the pods a sync creates share their spec (sync_job remembers it)
def _containers_without_index_env(spec: Mapping[str, Any]) -> tuple[Any, ...]:
    """The names of the init containers and containers of a pod spec without JOB_COMPLETION_INDEX
    in their environment, in order."""
    return tuple(
        container.get("name")
        for key in ("initContainers", "containers")
        for container in spec.get(key) or ()
        if COMPLETION_INDEX_ENV_NAME not in [v.get("name") for v in container.get("env") or ()]
    )


@step_invariant("no-replacement-while-terminating", "job_controller.go manageJob (onlyReplaceFailedPods: diff = wantActive - terminating - active), firstPendingIndexes", when=pods_created)
def no_replacement_while_terminating(t: Transition) -> str | None:
    """With podReplacementPolicy Failed (or a podFailurePolicy), a pod being deleted is replaced
    only once it has failed: a sync that creates pods leaves active plus terminating pods within
    parallelism, and creates no pod for an index whose pod is terminating.
    Assumption: as no-over-creation's."""
    s = sync_step(t)
    if not s.sync or not s.created or not creations_trust_the_cache(t.before):
        return None
    job = s.after
    if job is None or not only_replace_failed_pods(job, t.after.cluster.features):
        return None
    active, terminating = len(s.pods.active), len(s.pods.terminating)
    if terminating and active + terminating > (job.spec.parallelism or 0):
        return f"{active} active and {terminating} terminating pods after creating, parallelism is {job.spec.parallelism}"
    busy = {ix.pod_index(p) for p in terminating_pods(t.before)}
    again = sorted({a.index for a in s.created if a.index is not None} & busy)
    return f"a pod created for index {again[0]}, whose pod is still terminating" if again else None


@step_invariant("no-pods-created-once-finishing", "job_controller.go syncJob (finishedCondition != nil: deleteActivePods, no manageJob)", when=pods_created)
def no_pods_created_once_finishing(t: Transition) -> str | None:
    """A sync creates no pod for a Job that, after it, is failing or has met its success criteria
    (FailureTarget, Failed, SuccessCriteriaMet, Complete)."""
    s = sync_step(t)
    if not s.sync or not s.created:
        return None
    job = s.after
    if job is None or not s.decided:
        return None
    true = [c.type for c in job.status.conditions if c.status == "True"]
    return f"{len(s.created)} pods created for a Job that is {true}"


@step_invariant("backoff-delay-respected", "job_controller.go manageJob (remainingTime of the back-off record); backoff_utils.go newBackoffRecord, getRemainingTimePerIndex", when=pods_created)
def backoff_delay_respected(t: Transition) -> str | None:
    """A pod is not replaced within the first back-off delay (DefaultJobPodFailureBackOff, 10 s
    unless the controller's tunables say otherwise) of a failure the sync counts
    for the first time (a failed pod still holding its tracking finalizer, whose removal the
    controller does not await already, with no success after it; of an Indexed Job, only a pod of
    one of its indexes: getValidPodsWithFilter): NonIndexed Jobs wait before
    creating any pod; with backoffLimitPerIndex, the index of the failure waits. Known upstream
    bug accepted (`successes_counted_by_upstream`): a pod recorded as failed that then exited 0
    is a success after the failure, which resets the back-off."""
    s = sync_step(t)
    if not s.sync or not s.created:
        return None
    job = s.before
    if job is None:
        return None
    gates = t.before.cluster.features
    uncounted = job.status.uncounted_terminated_pods or UncountedTerminatedPods()
    fresh = [p for p in valid_pods(t.before, job) if p.uid not in uncounted.failed]
    if not any(is_pod_failed(p, job, gates) for p in fresh):
        return None  # no failure to wait for
    now = t.before.cluster.now
    first_delay = t.before.cluster.tunables.pod_failure_backoff_seconds
    # (A pod recorded as failed that then exited 0 is a new success to upstream, the known bug
    # `successes_counted_by_upstream` accepts: it resets the back-off too.)
    recounted = set(succeeded_yet_recorded_failed(t)) if successes_counted_by_upstream(t) else set()
    successes = [p for p in fresh if p.phase == SUCCEEDED and p.uid not in uncounted.succeeded]
    successes += [p for p in visible_pods(t.before) if p.uid in recounted]
    last_success = max((bo.get_finished_time(p, gates) for p in successes), default=None)
    per_index = job.spec.backoff_limit_per_index is not None and gates.JobBackoffLimitPerIndex
    created_indexes = {a.index for a in s.created}
    for pod in fresh:
        if not is_pod_failed(pod, job, gates):
            continue
        at = bo.get_finished_time(pod, gates)
        if add_seconds(at, first_delay) <= now or (not per_index and last_success is not None and last_success >= at):
            continue
        if per_index and ix.pod_index(pod) not in created_indexes:
            continue
        return f"a pod created {(now - at).total_seconds():g}s after pod {pod.name} failed"
    return None



# --- step invariants: the settled properties (what the facts demand after a settled sync) ------------


@step_invariant("active-counter-matches-pods", "job_controller.go syncJob (active := len(activePods), manageJob's result)", when=settled)
def active_counter_matches_pods(t: Transition) -> str | None:
    """After a settled sync, status.active is the number of the Job's active pods (neither
    terminal nor being deleted). Known upstream bug accepted: kubernetes#139428 (manageJob
    reports active=0 while it waits for the back-off)."""
    s = sync_step(t)
    if not s.settled:
        return None
    job = s.after
    assert job is not None
    active = len(s.pods.active)
    if job.status.active == active:
        return None
    if ACCEPT_KNOWN_UPSTREAM_BUGS and job.status.active == 0 and waited_for_backoff(t):
        return None
    return f"status.active={job.status.active}, {active} active pods"


@step_invariant("ready-counter-matches-pods", "job_controller.go countReadyPods (of the active pods)", when=settled)
def ready_counter_matches_pods(t: Transition) -> str | None:
    """After a settled sync, status.ready is the number of active pods with Ready=True."""
    s = sync_step(t)
    if not s.settled:
        return None
    job = s.after
    assert job is not None
    ready = s.pods.ready
    if (job.status.ready or 0) == ready:
        return None
    return f"status.ready={job.status.ready}, {ready} ready active pods"


@step_invariant("terminating-counter-matches-pods", "job_controller.go syncJob (controller.CountTerminatingPods + removed pods), JobPodReplacementPolicy", when=settled)
def terminating_counter_matches_pods(t: Transition) -> str | None:
    """After a settled sync, status.terminating (when the controller reports it) counts the
    Job's pods being deleted that are not terminal yet (at least those; at most those and the
    pods that left the API server during the sync, which upstream still counts)."""
    s = sync_step(t)
    if not s.settled or not t.after.cluster.features.JobPodReplacementPolicy:
        return None
    job = s.after
    assert job is not None
    terminating = len(s.pods.terminating)
    vanished = max(len(t.before.own_pods()) + len(s.created) - len(t.after.own_pods()), 0)
    reported = job.status.terminating or 0
    if terminating <= reported <= terminating + vanished:
        return None
    return f"status.terminating={reported}, {terminating} pods terminating ({vanished} gone in the sync)"


@step_invariant("uncounted-within-cap", "job_controller.go trackJobStatusAndRemoveFinalizers (reachedMaxUncountedPods)", when=status_written)
def uncounted_within_cap(t: Transition) -> str | None:
    """No status a sync writes lists more than MaxUncountedPods pods in uncountedTerminatedPods
    (500 unless the controller's tunables say otherwise), or one more than the Job's status
    listed already when that was at the cap: the sync stops recording there (an Indexed Job's new
    succeeded indexes count towards the cap too, though completedIndexes gets every succeeded
    pod's index) and leaves the other pods, finalizers and all, to the next sync, so that the
    status stays small (about 20 KB of UIDs)."""
    before = t.before.job()
    if before is None:
        return None
    listed = _uncounted_total(before.status.uncounted_terminated_pods)
    cap = t.before.cluster.tunables.max_uncounted_pods
    for status in written_statuses(t):
        recorded = _uncounted_total(status.uncounted_terminated_pods)
        if recorded > max(cap, listed + 1):
            return f"a status write lists {recorded} uncounted pods, MaxUncountedPods is {cap} and the status listed {listed}"
    return None


def _uncounted_total(uncounted: UncountedTerminatedPods | None) -> int:
    return 0 if uncounted is None else len(uncounted.succeeded) + len(uncounted.failed)


@step_invariant("finished-pods-released", "job_controller.go trackJobStatusAndRemoveFinalizers (canRemoveFinalizer), getPodsWithDelayedDeletionPerIndex", when=settled)
def finished_pods_released(t: Transition) -> str | None:
    """After a settled sync, no finished pod still holds the tracking finalizer (its failure or
    success was recorded and the finalizer removed), except, with backoffLimitPerIndex, the last
    failed pod of an index still to be retried (it keeps the index's failure count until its
    replacement exists), and those a sync that may have reached MaxUncountedPods leaves for the
    next (`may_reach_max_uncounted`)."""
    s = sync_step(t)
    if not s.settled or may_reach_max_uncounted(t):
        return None
    job = s.after
    assert job is not None
    held = s.pods.finished_tracked
    if not held:
        return None
    per_index = job.spec.backoff_limit_per_index is not None and t.after.cluster.features.JobBackoffLimitPerIndex
    open_indexes = set(range(job.spec.completions or 0)) - s.completed - s.failed
    for pod in held:
        if per_index and pod.phase == FAILED and not finished(job) and ix.pod_index(pod) in open_indexes:
            continue
        return f"{pod.phase} pod {pod.name} still holds the tracking finalizer"
    return None


@step_invariant("succeeded-indexes-recorded", "job_controller.go trackJobStatusAndRemoveFinalizers (newSucceededIndexes), calculateSucceededIndexes", when=settled)
def succeeded_indexes_recorded(t: Transition) -> str | None:
    """After a settled sync of an Indexed Job, the index of every Succeeded pod the sync saw
    holding its tracking finalizer (within completions) is in completedIndexes, unless the sync
    may have reached MaxUncountedPods (`may_reach_max_uncounted`)."""
    s = sync_step(t)
    if not s.settled or may_reach_max_uncounted(t):
        return None
    before, after = s.before, s.after
    assert before is not None and after is not None
    if not s.indexed:
        return None
    seen = census(t.before).succeeded_tracked_indexes
    if not seen:
        return None
    missing = sorted(i for i in seen - s.completed if index_of_job(after, i))
    return f"succeeded indexes {missing} are not in completedIndexes" if missing else None


@step_invariant("active-within-parallelism", "job_controller.go manageJob (rmAtLeast := active - wantActive; activePodsForRemoval)", when=settled)
def active_within_parallelism(t: Transition) -> str | None:
    """After a settled sync that created no pod, the Job has at most min(parallelism, remaining
    completions) active pods: pods beyond a lowered parallelism, or beyond the completions
    still needed, are deleted (syncs that create pods: no-over-creation), at most
    MaxPodCreateDeletePerSync of them a sync (the next sync deletes the rest). A NonIndexed Job's
    successes are those manageJob counts (`successes_seen`). Known upstream bug accepted: see
    ACCEPT_KNOWN_UPSTREAM_BUGS (a success recorded as a failure: counted as a success, it leaves a
    Job without completions its running pods)."""
    s = sync_step(t)
    if not s.settled or s.created:
        return None
    job = s.after
    assert job is not None
    if s.decided:
        return None
    active = len(s.pods.active)
    succeeded = s.succeeded if s.indexed else successes_seen(t.after, job) + successes_counted_by_upstream(t)
    want = want_active_pods(job.spec.completions, job.spec.parallelism or 0, succeeded, active)
    if active <= want or len(deleted_uids(t)) >= t.before.cluster.tunables.max_pod_create_delete_per_sync:
        return None
    return f"{active} active pods, parallelism {job.spec.parallelism}, {succeeded} of {job.spec.completions} completions"


@step_invariant("no-two-active-pods-per-index", "job_controller.go activePodsForRemoval, indexed_job_utils.go appendDuplicatedIndexPodsForRemoval", when=settled)
def no_two_active_pods_per_index(t: Transition) -> str | None:
    """After a settled sync that created no pod, no two active pods of an Indexed Job share an
    index, and every active pod's index is below completions: duplicates and out-of-range pods
    are deleted (syncs that create pods: no-over-creation)."""
    s = sync_step(t)
    if not s.settled or s.created:
        return None
    job = s.after
    assert job is not None
    if not s.indexed:
        return None
    pods = s.pods
    seen: set[int] = set()
    for pod, index in zip(pods.active, pods.active_indexes, strict=True):
        if not index_of_job(job, index):
            return f"active pod {pod.name} has index {index}, completions {job.spec.completions}"
        if index in seen:
            return f"two active pods with index {index}"
        seen.add(index)
    return None


@step_invariant("suspended-job-has-no-active-pods", "job_controller.go manageJob (suspended: delete all active pods); syncJob", when=settled_with_options)
def suspended_job_has_no_active_pods(t: Transition) -> str | None:
    """After a settled sync of a suspended Job, it has no active pods and status.active is 0."""
    s = sync_step(t)
    job = s.after
    if not s.settled or job is None or not job.spec.suspend:
        return None
    active = s.pods.active
    if active or job.status.active:
        return f"suspended, yet {len(active)} active pods (status.active={job.status.active})"
    return None


@step_invariant("no-start-time-while-suspended", "job_controller.go syncJob (StartTime set only when !jobSuspended)", when=a_sync_changed_the_job)
def no_start_time_while_suspended(t: Transition) -> str | None:
    """A sync of a suspended Job does not give it a startTime it did not have (activeDeadlineSeconds
    counts from the first unsuspended sync)."""
    s = sync_step(t)
    if not s.sync:
        return None
    before, after = s.before, s.after
    if before is None or after is None or not before.spec.suspend:
        return None
    if before.status.start_time is None and after.status.start_time is not None:
        return "a startTime given to a suspended Job"
    return None


@step_invariant("backoff-requeued", "job_controller.go manageJob (jm.queue.AddAfter(key, remainingTime) while the back-off lasts); MaxJobPodFailureBackOff", when=settled)
def backoff_requeued(t: Transition) -> str | None:
    """After a settled sync that leaves a NonIndexed Job short of pods without creating any (the
    back-off holds the creations back), the controller has asked to be woken within the longest
    back-off, so that the pods are created without any other event. Not judged while pods
    terminate under podReplacementPolicy Failed (their ends wake the controller). The successes
    are those manageJob counts (`successes_seen`). Known upstream bug accepted: see
    ACCEPT_KNOWN_UPSTREAM_BUGS (a success recorded as a failure)."""
    s = sync_step(t)
    if not s.settled or s.created:
        return None
    job = s.after
    assert job is not None
    if s.indexed or job.spec.suspend or s.decided:
        return None
    gates = t.after.cluster.features
    if only_replace_failed_pods(job, gates) and s.pods.terminating:
        return None
    active = len(s.pods.active)
    succeeded = successes_seen(t.after, job) + successes_counted_by_upstream(t)
    if active >= want_active_pods(job.spec.completions, job.spec.parallelism or 0, succeeded, active):
        return None
    limit = add_seconds(t.after.cluster.now, t.after.cluster.tunables.max_pod_failure_backoff_seconds)
    wake = t.after.wake_at
    if wake is not None and wake <= limit:
        return None
    return f"{active} active pods of {job.spec.parallelism} and none created, the controller wakes at {wake.isoformat() if wake else 'never'}"


@step_invariant("start-time-recorded", "job_controller.go syncJob (StartTime set on the first sync of an unsuspended Job)", when=clean_sync)
def start_time_recorded(t: Transition) -> str | None:
    """After a clean sync of an unsuspended, unfinished Job that writes its status, status.startTime
    is set and not after the clock; unless the sync waited for its cache to show the controller's
    own pod writes (1.36+: a Job created again under a deleted one's name, whose last creations
    the cache has not shown, may meet that wait after a first sync whose status write failed). A
    sync that writes no status keeps the startTime it sets in memory: needsStatusUpdate does not
    count it, so a Job resumed while its expectations are unmet (manageJob waits, and with it the
    JobResumed condition) gets its startTime with the next write (a Job held by its predecessor's
    expectations up to 1.36, `held_by_its_predecessor`, writes none again)."""
    if not clean_sync(t) or cache_behind_own_writes(t.before) or not written_statuses(t):
        return None
    s = sync_step(t)
    before, job = s.before, s.after
    if before is None or job is None or finished(before) or job.spec.suspend:
        return None
    start = job.status.start_time
    if start is None:
        return "running, yet no startTime"
    if start > t.after.cluster.now:
        return "startTime is in the future"
    return None


def _untouched(job: Job) -> bool:
    """A Job nothing has happened to yet: no startTime, no pod counted or awaiting its count, no
    index recorded (what a Job created a moment ago, or again under a deleted one's name, has)."""
    s = job.status
    uncounted = s.uncounted_terminated_pods
    return (
        s.start_time is None
        and s.succeeded == 0
        and s.failed == 0
        and (uncounted is None or not (uncounted.succeeded or uncounted.failed))
        and not s.completed_indexes
        and not s.failed_indexes
    )


def held_by_its_predecessor(world: World) -> bool:
    """The world's Job has had no pod yet (none of its own, none counted) and is held by a deleted
    Job's bookkeeping as upstream held it before the fix (ACCEPT_KNOWN_UPSTREAM_BUGS): the
    pod-failure back-off up to 1.32 (Controller.deleteJob drops the record from 1.33:
    TestImmediateJobRecreation), the creation expectations up to 1.36 (dropped from 1.37:
    TestJobRecreationClearsPodExpectations), in either case when the Job was created again before
    a sync saw it gone. Accepted by `new-job-starts-clean`, `start-time-recorded` and bounded
    liveness (up to 1.36 nothing makes such a Job's expectations fulfilled: only their expiry,
    5 minutes on, lets it go)."""
    job = world.job()
    if not ACCEPT_KNOWN_UPSTREAM_BUGS or job is None or world.own_pods() or job.status.succeeded or job.status.failed:
        return False
    gates = world.cluster.features
    if not gates.at_least(33) and backoff_remaining(world) > 0:
        return True
    return not gates.at_least(37) and not expectations_satisfied(world)


@step_invariant("new-job-starts-clean", "job_controller.go Controller.deleteJob (removeBackoffRecord, DeleteExpectations: a Job created again under the name starts clean); syncJob, manageJob", when=clean_sync)
def new_job_starts_clean(t: Transition) -> str | None:
    """A clean sync of an unsuspended Job that has no pod (in the API server or the controller's
    cache) and nothing recorded yet (no startTime, no pod counted) creates the pods it wants:
    nothing of its own can hold it but the pod-failure back-off of failures a podFailurePolicy
    `Ignore` rule left uncounted (they feed the back-off record all the same; from 1.33, where
    the deletion drops a predecessor's record, a record is the Job's own), and nothing of a
    deleted Job of the same name may (its expectations and back-off record are dropped when the
    controller sees the deletion). Not judged while the
    cache is behind the controller's own pod writes (1.36+: the sync waits for it, whoever's pods
    they were, and goes on once it has caught up). Known upstream bugs accepted: see
    `held_by_its_predecessor`."""
    if not clean_sync(t) or cache_behind_own_writes(t.before):
        return None
    s = sync_step(t)
    job = s.before
    if job is None or s.created or job.spec.suspend or job.metadata.deletion_timestamp is not None:
        return None
    # (No pod in the API server nor in the cache: one gone whose deletion the cache shows late
    # is still a pod to the sync, and the finalizer removal it awaits holds manageJob.)
    if not _untouched(job) or t.before.own_pods() or t.before.lagging or finished(job):
        return None
    gates = t.before.cluster.features
    if managed_by_external_controller(job, gates) is not None:
        return None
    want = want_active_pods(job.spec.completions, job.spec.parallelism or 0, 0, 0)
    if want == 0 or held_by_its_predecessor(t.before):
        return None
    if gates.at_least(33) and backoff_remaining(t.before) > 0 and expectations_satisfied(t.before):
        return None  # its own ignored failures' back-off
    return f"a new Job wanting {want} pod{'s' if want != 1 else ''} got none ({_what_holds(t.before)})"


def _what_holds(world: World) -> str:
    """What the controller's bookkeeping under the Job's key holds against creating pods."""
    held = []
    exp = world.cluster.controller_state(world.job_key).expectations
    if exp is not None and not exp.fulfilled():
        expired = " (expired)" if exp.expired(world.cluster.now) else ""
        held.append(f"expectations of {exp.add} creations and {exp.delete} deletions not observed{expired}")
    if (backoff := backoff_remaining(world)) > 0:
        held.append(f"a pod-failure back-off of {backoff:g}s")
    return "held by " + " and ".join(held) if held else "nothing held it"


@step_invariant("deadline-enforced", "job_controller.go syncJob (pastActiveDeadline: DeadlineExceeded)", when=settled_with_options)
def deadline_enforced(t: Transition) -> str | None:
    """After a settled sync, a Job whose activeDeadlineSeconds have passed since its startTime
    (and that is not suspended) is failing, unless it already met its success criteria."""
    s = sync_step(t)
    if not s.settled:
        return None
    job = s.after
    assert job is not None
    ads, start = job.spec.active_deadline_seconds, job.status.start_time
    if ads is None or start is None or job.spec.suspend or s.decided:
        return None
    elapsed = (t.after.cluster.now - start).total_seconds()
    return f"{elapsed:g}s since startTime, activeDeadlineSeconds {ads}, yet not failing" if elapsed >= ads else None


@step_invariant("deadline-requeued", "job_controller.go syncJob (queue.AddAfter for activeDeadlineSeconds)", when=clean_sync)
def deadline_requeued(t: Transition) -> str | None:
    """After a clean sync of a running Job with activeDeadlineSeconds, the controller has asked
    to see the Job again by its deadline, so that the deadline is enforced without any other
    event. (A sync that waits for the cache to show the controller's own writes, 1.36+, fails
    and is requeued by the rate limiter instead.)"""
    if not clean_sync(t) or cache_behind_own_writes(t.before):
        return None
    s = sync_step(t)
    before, job = s.before, s.after
    if before is None or job is None or job.spec.active_deadline_seconds is None:
        return None
    if finished(before) or s.decided:
        return None
    ads, start = job.spec.active_deadline_seconds, job.status.start_time
    if start is None or job.spec.suspend:
        return None
    deadline = add_seconds(start, ads)
    if deadline <= t.after.cluster.now:
        return None  # deadline-enforced
    wake = t.after.wake_at
    if wake is not None and wake <= deadline:
        return None
    return f"the deadline is at {deadline.isoformat()}, the controller wakes at {wake.isoformat() if wake else 'never'}"


@step_invariant("backoff-limit-enforced", "job_controller.go syncJob (exceedsBackoffLimit := failed > backoffLimit; pastBackoffLimitOnFailure)", when=settled)
def backoff_limit_enforced(t: Transition) -> str | None:
    """After a settled sync, a Job whose recorded failures (failed plus
    uncountedTerminatedPods.failed; ignored failures are not recorded) exceed backoffLimit, or,
    with restartPolicy OnFailure, whose running and pending pods the sync saw restarted their
    containers backoffLimit times (once, for backoffLimit 0), is failing, unless it already met
    its success criteria."""
    s = sync_step(t)
    if not s.settled:
        return None
    job = s.after
    assert job is not None
    if s.decided:
        return None
    failed, limit = counted_failures(job), job.spec.backoff_limit or 0
    if failed > limit:
        return f"{failed} failures, backoffLimit {limit}, yet the Job is not failing"
    if past_backoff_limit_on_failure(job, list(visible_pods(t.before))):
        return f"its pods' containers restarted past backoffLimit {limit} (restartPolicy OnFailure), yet the Job is not failing"
    return None


@step_invariant("pod-failure-policy-fail-job-enforced", "job_controller.go syncJob (getFailJobMessage: FailureTarget PodFailurePolicy)", when=settled_with_options)
def pod_failure_policy_fail_job_enforced(t: Transition) -> str | None:
    """After a settled sync, a Job with a failed pod whose failure matches a FailJob rule is
    failing, unless it already met its success criteria."""
    s = sync_step(t)
    if not s.settled:
        return None
    job = s.after
    assert job is not None
    if job.spec.pod_failure_policy is None or s.decided:
        return None
    gates = t.after.cluster.features
    matched = [p.name for p in t.before.own_pods() if matches_fail_job(job, p, gates)]
    return f"pod {matched[0]} failed matching a FailJob rule, yet the Job is not failing" if matched else None


@step_invariant("per-index-limit-enforced", "indexed_job_utils.go calculateFailedIndexes, isIndexFailed (backoffLimitPerIndex)", when=settled_with_options)
def per_index_limit_enforced(t: Transition) -> str | None:
    """After a settled sync, the index of every pod the sync saw fail for the last time its
    backoffLimitPerIndex allows (a counted failure of a pod whose failure-count annotation
    reached the limit) is in failedIndexes."""
    return _failed_indexes_missing(t, lambda action: action != FAIL_INDEX, "used up backoffLimitPerIndex")


@step_invariant("fail-index-enforced", "indexed_job_utils.go isIndexFailed (FailIndex rule)", when=settled_with_options)
def fail_index_enforced(t: Transition) -> str | None:
    """After a settled sync, the index of every pod the sync saw fail matching a FailIndex rule
    is in failedIndexes (that index alone fails; failed-indexes-justified)."""
    return _failed_indexes_missing(t, lambda action: action == FAIL_INDEX, "matched a FailIndex rule")


def _failed_indexes_missing(t: Transition, which: Callable[[str | None], bool], how: str) -> str | None:
    s = sync_step(t)
    if not s.settled:
        return None
    before, after = s.before, s.after
    assert before is not None and after is not None
    gates = t.after.cluster.features
    if not s.indexed or before.spec.backoff_limit_per_index is None or not gates.JobBackoffLimitPerIndex:
        return None
    for pod in t.before.own_pods():
        index = valid_index(after, pod)
        if index is None or not has_job_tracking_finalizer(pod) or not index_failed_for_good(before, pod, gates):
            continue
        if which(policy_action(before, pod, gates)) and index not in s.failed:
            return f"pod {pod.name} {how}, yet index {index} is not in failedIndexes"
    return None


@step_invariant("max-failed-indexes-enforced", "job_controller.go syncJob (MaxFailedIndexesExceeded)", when=settled_with_options)
def max_failed_indexes_enforced(t: Transition) -> str | None:
    """After a settled sync, a Job with more failed indexes than maxFailedIndexes is failing,
    unless it already met its success criteria."""
    s = sync_step(t)
    if not s.settled:
        return None
    job = s.after
    assert job is not None
    limit = job.spec.max_failed_indexes
    if limit is None or len(s.failed) <= limit or s.decided:
        return None
    return f"{len(s.failed)} failed indexes, maxFailedIndexes {limit}, yet not failing"


@step_invariant("failed-indexes-fail-the-job", "job_controller.go syncJob (FailedIndexes: failed + succeeded >= completions)", when=settled)
def failed_indexes_fail_the_job(t: Transition) -> str | None:
    """After a settled sync, an Indexed Job whose every index completed or failed, some failed,
    is failing, unless it already met its success criteria."""
    s = sync_step(t)
    if not s.settled:
        return None
    job = s.after
    assert job is not None
    failed = s.failed
    if not s.indexed or not failed or s.decided:
        return None
    if len(failed | s.completed) >= (job.spec.completions or 0):
        return f"every index ended, {sorted(failed)} failed, yet the Job is not failing"
    return None


@step_invariant("job-completes-when-criteria-met", "job_controller.go syncJob (complete := succeeded >= completions && active == 0)", when=settled)
def job_completes_when_criteria_met(t: Transition) -> str | None:
    """After a settled sync, a Job whose `completions` pods (indexes) succeeded, or, without
    completions, one of whose pods succeeded and none is active, has met its success criteria,
    unless it is failing."""
    s = sync_step(t)
    if not s.settled:
        return None
    job = s.after
    assert job is not None
    if s.decided:
        return None
    succeeded = s.succeeded
    if job.spec.completions is None:
        if succeeded > 0 and not s.pods.active:
            return f"{succeeded} pods succeeded and none is active, yet the Job has not succeeded"
        return None
    if succeeded >= job.spec.completions:
        return f"{succeeded} of {job.spec.completions} completions, yet the Job has not succeeded"
    return None


@step_invariant("success-policy-enforced", "job_controller.go syncJob (matchSuccessPolicy: SuccessCriteriaMet SuccessPolicy)", when=settled_with_options)
def success_policy_enforced(t: Transition) -> str | None:
    """After a settled sync, an Indexed Job whose completed indexes satisfy a rule of its
    successPolicy has met its success criteria, unless it is failing."""
    s = sync_step(t)
    if not s.settled:
        return None
    job = s.after
    assert job is not None
    if job.spec.success_policy is None or not t.after.cluster.features.JobSuccessPolicy:
        return None
    if s.decided:
        return None
    if success_policy_met(job.spec.success_policy, job.spec.completions or 0, s.completed):
        return f"completed indexes {sorted(s.completed)} satisfy the successPolicy, yet the Job has not succeeded"
    return None


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

