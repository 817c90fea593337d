"""The controller and its environment for Indexed Jobs: Job-wide counts and one arbitrary index `k`.

A state holds the counts of `job_relation` for the whole Job (pods by kind; `status.succeeded`,
`status.failed`, the sizes of `completedIndexes` and `failedIndexes`) and, for one index `k` that
is left symbolic, the same pod counts restricted to `k`, whether `k` is in `completedIndexes` or
`failedIndexes`, and the failure-count annotations of `k`'s pods (backoffLimitPerIndex): the
lowest and highest among its running pods, the highest among its failed pods that still hold
the finalizer. A claim proved for `k` holds for every index, since nothing distinguishes `k`.

What the Job-wide counts cannot tell (how many other indexes a sync completes, fails, creates or
finds duplicated; which pods MaxPodCreateDeletePerSync and MaxUncountedPods leave for later; the
back-off clocks) is a choice, bounded by what `k` shows: the relation allows every outcome of the
model's sync and more, so a claim proved here holds for the model. The sync follows upstream
v1.32's `syncJob` for Indexed Jobs as `jobmodel.transitions.sync_job` does: `calculateSucceededIndexes`,
`calculateFailedIndexes` (backoffLimitPerIndex), the FailedIndexes condition, duplicates deleted
first (`appendDuplicatedIndexPodsForRemoval`), `firstPendingIndexes`, the per-index back-off and
failure counts (`getNewIndexFailureCounts`), the failed pod whose finalizer waits for its
replacement (`getPodsWithDelayedDeletionPerIndex`), and `succeeded = |completedIndexes|`.

Fixed: the default feature gates; `podReplacementPolicy: Failed` (an index with a pod being
deleted is then not pending, and with backoffLimitPerIndex that pod's failure count is no
failure's until it is Failed: `k_terminating_high`); a podFailurePolicy (as job_relation has it:
Count, Ignore and FailJob; FailJob pods counted Job-wide only, ignored failures too without
backoffLimitPerIndex) and, with backoffLimitPerIndex, its FailIndex rules (`k_fail_index`) and k's
ignored failures (`k_ignored`: their replacement keeps their failure count, and the failed pod an
index replaces is the one with the most failures and ignored failures together, which the failure
counts tell only while k's pods are one line of replacements: `k_chain`);
a successPolicy read only as whether `completedIndexes` meet one of its rules (`policy_met`;
which rules the indexes a sync counts meet is a choice, monotone in them); restartPolicy
OnFailure's container restarts as job_relation counts them, Job-wide; `completions >= 1`
(one index at least); of the user's edits only `parallelism`'s and `suspend`'s
(`job_relation.edit` and `edit_stale`; a suspended Job's manageJob deletes every active pod, k's
too).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

from jobmodel.checkers.proofs import job_relation as jr
from jobmodel.checkers.proofs.job_relation import (
    COMPLETE,
    FAILED,
    NEW_FAILURE_TARGET,
    NONE,
    SUCCESS,
    Controller,
    Step,
)
from jobmodel.checkers.proofs.symbolic import (
    BOOL,
    INT,
    Record,
    Schema,
    ite,
    maximum,
    minimum,
    total,
)

SPEC: Schema = (
    ("parallelism", INT),
    ("completions", INT),
    ("backoff_limit", INT),
    ("has_per_index", BOOL),  # backoffLimitPerIndex is set
    ("per_index_limit", INT),
    ("has_max_failed", BOOL),  # maxFailedIndexes is set (with backoffLimitPerIndex only)
    ("max_failed", INT),
    ("max_create_delete", INT),
    ("max_uncounted", INT),
    ("suspended", BOOL),
    ("has_deadline", BOOL),
    ("replace_failed_only", BOOL),  # job_relation's (podReplacementPolicy Failed)
    ("pod_failure_policy", BOOL),  # job_relation's, and with backoffLimitPerIndex FailIndex
    ("success_policy", BOOL),  # a successPolicy; its rules are read only through `policy_met`
    ("on_failure", BOOL),  # job_relation's (restartPolicy OnFailure): restarts counted Job-wide
)
# Pods by kind, as in job_relation (an Indexed Job never lists succeeded pods).
KINDS = (
    "hidden",
    "active",
    "terminating",
    "terminating_uf",
    "succeeded",
    "succeeded_uf",
    "failed",
    "failed_uf",
)
FAILED_KINDS = ("terminating", "terminating_uf", "failed", "failed_uf")  # isPodFailed
DELAYED_KINDS = (*FAILED_KINDS, "ignored")  # k's failed pods one of which may wait for its replacement
TERMINATING_KINDS = ("terminating", "terminating_uf")  # not isPodFailed with podReplacementPolicy Failed
LIVE_KINDS = ("hidden", "active")
# released, ignored (job_relation's) and fail_job: Job-wide only.
PODS: Schema = (*((kind, INT) for kind in KINDS), ("gone_uf", INT), *jr.RELEASED, ("ignored", INT), *jr.FAIL_JOB)
STATUS: Schema = (
    ("status_succeeded", INT),
    ("status_failed", INT),
    ("completed_count", INT),  # |completedIndexes|
    ("failed_index_count", INT),  # |failedIndexes|
    ("policy_met", BOOL),  # completedIndexes satisfy a rule of the successPolicy (matchSuccessPolicy)
    ("failure_target", BOOL),
    ("failed_condition", BOOL),
    ("success_criteria_met", BOOL),
    ("complete", BOOL),
)
INDEX: Schema = (
    *((f"k_{kind}", INT) for kind in KINDS),
    ("k_completed", BOOL),
    ("k_failed_index", BOOL),
    ("k_live_low", INT),  # failure counts of k's running pods (0 when there is none)
    ("k_live_high", INT),
    ("k_failed_high", INT),  # the highest failure count of k's failed pods (isPodFailed) with the finalizer (0: none)
    # With podReplacementPolicy Failed, k's pods being deleted are no failures until Failed: the
    # highest failure count among them (with the finalizer), kept apart (0 otherwise).
    ("k_terminating_high", INT),
    ("k_fail_index", BOOL),  # one of k's Failed pods holding the finalizer matched a FailIndex rule
    # With backoffLimitPerIndex, k's Failed pods holding the finalizer whose failure an Ignore rule
    # matched (also in the Job-wide `ignored`), and the highest failure count among them (0: none).
    ("k_ignored", INT),
    ("k_ignored_high", INT),
    # k's pods holding the finalizer are one line of replacements (abstraction._in_line says what
    # that is); always so without both a podFailurePolicy and backoffLimitPerIndex (then unread).
    ("k_chain", BOOL),
)
STATE: Schema = SPEC + PODS + jr.RESTARTS + STATUS + jr.CONTROLLER + INDEX


def symbols(prefix: str) -> Record:
    return Record.symbols(STATE, prefix)


def k_total(s: Record, kinds: tuple[str, ...]) -> Any:
    return total(getattr(s, f"k_{kind}") for kind in kinds)


def all_total(s: Record, kinds: tuple[str, ...]) -> Any:
    return total(getattr(s, kind) for kind in kinds)


def uncounted_listed(s: Record) -> Any:
    """The UIDs in the Job's uncountedTerminatedPods (failed ones only: an Indexed Job's succeeded
    pods are counted by index), those whose pod is gone included."""
    return s.succeeded_uf + s.failed_uf + s.terminating_uf + s.gone_uf


def domain(s: Record) -> Any:
    return z3.And(
        *[getattr(s, kind) >= getattr(s, f"k_{kind}") for kind in KINDS],
        *[getattr(s, f"k_{kind}") >= 0 for kind in KINDS],
        s.gone_uf >= 0,
        s.released >= 0,
        s.parallelism >= 0,
        s.completions >= 1,
        s.backoff_limit >= 0,
        s.per_index_limit >= 0,
        z3.Implies(z3.Not(s.has_per_index), s.per_index_limit == 0),
        z3.Implies(s.has_max_failed, z3.And(s.has_per_index, s.max_failed >= 0, s.max_failed <= s.completions)),
        z3.Implies(z3.Not(s.has_max_failed), s.max_failed == 0),
        s.ignored >= 0,
        s.fail_job >= 0,
        jr.policy_domain(s),
        jr.restarts_domain(s),
        s.k_ignored >= 0,
        s.k_ignored <= s.ignored,
        z3.Implies(z3.Not(s.has_per_index), s.k_ignored == 0),  # counted Job-wide only
        s.k_ignored_high >= 0,
        z3.Implies(s.k_ignored == 0, s.k_ignored_high == 0),
        z3.Implies(z3.Or(z3.Not(lines_read(s)), k_held(s) <= 1), s.k_chain),
        z3.Implies(s.k_fail_index, z3.And(s.pod_failure_policy, s.has_per_index, k_failures(s) > 0)),
        s.max_create_delete >= 1,
        s.max_uncounted >= 1,
        s.status_succeeded >= 0,
        s.status_failed >= 0,
        s.completed_count >= z3.If(s.k_completed, 1, 0),
        s.completed_count <= s.completions,
        s.failed_index_count >= z3.If(s.k_failed_index, 1, 0),
        s.failed_index_count <= s.completions,
        z3.Implies(z3.Not(s.has_per_index), z3.And(s.failed_index_count == 0, z3.Not(s.k_failed_index))),
        z3.Implies(s.policy_met, z3.And(s.success_policy, s.completed_count >= 1)),
        z3.Implies(z3.Not(s.has_expectations), z3.And(s.expect_add == 0, s.expect_delete == 0, z3.Not(s.expired))),
        # Failure counts: 0 without backoffLimitPerIndex, normalised to 0 when there is no such pod.
        s.k_live_low >= 0,
        s.k_live_low <= s.k_live_high,
        s.k_failed_high >= 0,
        z3.Implies(k_total(s, LIVE_KINDS) == 0, z3.And(s.k_live_low == 0, s.k_live_high == 0)),
        z3.Implies(k_failures(s) == 0, s.k_failed_high == 0),
        s.k_terminating_high >= 0,
        z3.Implies(z3.Or(z3.Not(counts_apart(s)), k_total(s, TERMINATING_KINDS) == 0), s.k_terminating_high == 0),
        z3.Implies(z3.Not(s.has_per_index), z3.And(s.k_live_high == 0, s.k_failed_high == 0)),
        jr.shown_spec_domain(s),
    )


def initial(s: Record) -> Any:
    return z3.And(
        *[getattr(s, kind) == 0 for kind in KINDS],
        s.gone_uf == 0,
        s.released == 0,
        s.ignored == 0,
        s.fail_job == 0,
        s.restarts == 0,
        s.status_succeeded == 0,
        s.status_failed == 0,
        s.completed_count == 0,
        s.failed_index_count == 0,
        z3.Not(jr.decided(s)),
        z3.Not(s.has_expectations),
        z3.Not(s.k_completed),
        z3.Not(s.k_failed_index),
        z3.Not(s.k_fail_index),
        z3.Not(s.policy_met),
        z3.Not(s.status_hidden),
        z3.Not(s.spec_lags),
    )


def k_live(s: Record) -> Any:
    return k_total(s, LIVE_KINDS)


def k_pending_after_counting(s: Record) -> Any:
    """k is one of firstPendingIndexes' candidates in a sync from `s` (not completed nor failed once
    the sync counted its pods, no active pod in the cache)."""
    completed = z3.Or(s.k_completed, s.k_succeeded + s.k_succeeded_uf > 0)
    return z3.And(
        z3.Not(completed), z3.Not(z3.Or(s.k_failed_index, k_exhausted(s))), s.k_active == 0, z3.Not(k_terminating_held(s))
    )


def k_terminating_held(s: Record) -> Any:
    """With podReplacementPolicy Failed, k has a pod being deleted (holding the finalizer) that has
    not ended: firstPendingIndexes leaves k out until it is Failed."""
    return z3.And(s.replace_failed_only, s.k_terminating + s.k_terminating_uf > 0)


def k_exhausted(s: Record) -> Any:
    """k has a failed pod, holding the finalizer, whose failure count reached backoffLimitPerIndex
    or that matched a FailIndex rule (isIndexFailed)."""
    return z3.And(s.has_per_index, k_failures(s) > 0, z3.Or(s.k_failed_high >= s.per_index_limit, s.k_fail_index))


def k_exhausted_once_failed(s: Record) -> Any:
    """With counts_apart, k has a pod being deleted whose failure count reached
    backoffLimitPerIndex: k_exhausted once it is Failed."""
    return z3.And(counts_apart(s), k_total(s, TERMINATING_KINDS) > 0, s.k_terminating_high >= s.per_index_limit)


def k_held(s: Record) -> Any:
    """k's pods holding the finalizer."""
    return k_total(s, KINDS) + s.k_ignored


def lines_read(s: Record) -> Any:
    """The relation reads `k_chain`: a Job whose failures may be ignored with backoffLimitPerIndex."""
    return z3.And(s.pod_failure_policy, s.has_per_index)


def k_replacement_count(s: Record, chosen: Any) -> tuple[Any, Any]:
    """getNewIndexFailureCounts for k's next pod, and its bounds: the failure count of the failed pod
    it replaces (getPodsWithDelayedDeletionPerIndex: the one with the most failures and ignored
    failures together), plus one if that failure counted. In a line of replacements (`k_chain`)
    that is the last: one more than the highest counted failure's count, or the highest ignored
    failure's count, whichever is higher; else some failed pod's (`chosen`), at most that."""
    counted = k_failures(s)
    last = maximum(z3.If(counted > 0, s.k_failed_high + 1, 0), z3.If(s.k_ignored > 0, s.k_ignored_high, 0))
    exact = z3.If(s.has_per_index, last, 0)
    return z3.If(s.k_chain, exact, chosen), z3.And(chosen >= 0, chosen <= exact)


def k_failures(s: Record) -> Any:
    """k's pods holding the finalizer that isPodFailed counts: with podReplacementPolicy Failed
    only the Failed ones, else those being deleted too."""
    return z3.If(s.replace_failed_only, s.k_failed + s.k_failed_uf, k_total(s, FAILED_KINDS))


def counts_apart(s: Record) -> Any:
    """The failure counts of k's pods being deleted are kept apart (`k_terminating_high`): they
    are no failures yet (podReplacementPolicy Failed), and they carry counts (backoffLimitPerIndex)."""
    return z3.And(s.replace_failed_only, s.has_per_index)


def _normalise(s: Record) -> Record:
    """Failure counts read 0 where there is no pod to carry them (as the abstraction reads them)."""
    no_live = k_live(s) == 0
    return s.replace(
        k_live_low=z3.If(no_live, 0, s.k_live_low),
        k_live_high=z3.If(no_live, 0, s.k_live_high),
        k_failed_high=z3.If(k_failures(s) == 0, 0, s.k_failed_high),
        k_terminating_high=z3.If(z3.And(counts_apart(s), k_total(s, TERMINATING_KINDS) > 0), s.k_terminating_high, 0),
        k_fail_index=z3.And(s.k_fail_index, k_failures(s) > 0),
        k_ignored_high=z3.If(s.k_ignored > 0, s.k_ignored_high, 0),
        k_chain=z3.Or(s.k_chain, z3.Not(lines_read(s)), k_held(s) <= 1),
    )


SYNC_CHOICES: Schema = (
    *jr.SYNC_CHOICES,
    *jr.POLICY_SYNC_CHOICES,
    ("fresh_completed", INT),  # indexes not yet completed that have a succeeded pod
    ("fresh_failed", INT),  # indexes not yet failed that have an exhausted failed pod
    ("policy_met", BOOL),  # the completed indexes the sync computes satisfy a rule of the successPolicy
    ("duplicates", INT),  # active pods beyond the first of their index
    ("created_total", INT),  # pods created (firstPendingIndexes, per-index back-off, the cap)
    ("held", BOOL),  # some pending index waits for its per-index back-off
    ("k_created", BOOL),
    ("k_released", BOOL),  # a pod released while it runs (job_relation.RELEASED) is k's
    ("k_removed", INT),  # k's active pods manageJob deletes
    ("k_delayed", INT),  # which of k's failed pods keeps its finalizer for its replacement: 0 none, else DELAYED_KINDS[i - 1]
    ("delayed_elsewhere", INT),
    ("ignored_kept_elsewhere", INT),  # ignored failures of other indexes kept for their replacements
    ("k_got_ignored", INT),  # k's ignored failures that lose the finalizer
    ("k_ignored_high_after", INT),
    ("new_count", INT),  # the failure count of k's new pod, where k's pods are not in line (k_replacement_count)
    ("k_chain_after", BOOL),
    ("k_failed_high_after", INT),
    ("k_terminating_high_after", INT),
    ("k_fail_index_after", BOOL),  # a FailIndex pod of k keeps its finalizer
    # The failure counts of k's running pods that the sync's deletions leave (k_live_low, k_live_high).
    ("k_live_low_kept", INT),
    ("k_live_high_kept", INT),
    ("deleted_count", INT),  # the highest failure count among k's pods deleteActivePods deletes
    *((f"k_got_{kind}", INT) for kind in ("succeeded", "succeeded_uf", *FAILED_KINDS, "active")),
)


def sync(s: Record, prefix: str, move: str, controller: Controller = jr.MODEL) -> Step:
    """syncJob for an Indexed Job; `move` is one of job_relation.SYNC_MOVES."""
    ch = Record.symbols(SYNC_CHOICES + (jr.ANY_SYNC_CHOICES if move == jr.ANY_SYNC else ()), prefix)
    how = jr.SyncKind.of(move, ch, s.spec_lags)
    pod_calls_ok, stale = how.pod_calls_ok, how.stale
    if not controller.expectations:
        s = s.replace(has_expectations=False, expect_add=0, expect_delete=0, expired=False)
    spec = jr.spec_read(s)
    sat = jr.satisfied(s)
    c = s.completions

    # getNewFinishedPods, calculateSucceededIndexes, calculateFailedIndexes.
    uncounted_f = s.terminating_uf + s.succeeded_uf + s.failed_uf + s.gone_uf
    failed = s.status_failed + s.failed + jr.failed_terminating(s, s.terminating) + uncounted_f
    failing_now = jr.new_failure_target(s, failed, spec, ch)
    succeeded_pods = s.succeeded + s.succeeded_uf
    k_succeeded_pods = s.k_succeeded + s.k_succeeded_uf
    k_fresh = z3.And(z3.Not(s.k_completed), k_succeeded_pods > 0)
    fresh = ch.fresh_completed
    completed = s.completed_count + fresh
    k_completed = z3.Or(s.k_completed, k_succeeded_pods > 0)
    failed_pods = all_total(s, FAILED_KINDS)
    k_failed_pods = k_failures(s)
    k_newly_failed = z3.And(z3.Not(s.k_failed_index), k_exhausted(s))
    failed_indexes = s.failed_index_count + ch.fresh_failed
    k_failed_index = z3.Or(s.k_failed_index, k_exhausted(s))
    index_counts = z3.And(
        fresh >= z3.If(k_fresh, 1, 0),
        fresh <= z3.If(k_fresh, 1, 0) + succeeded_pods - k_succeeded_pods,
        completed <= c,
        ch.fresh_failed >= z3.If(k_newly_failed, 1, 0),
        ch.fresh_failed <= z3.If(k_newly_failed, 1, 0) + failed_pods - k_failed_pods,
        failed_indexes <= c,
        z3.Implies(z3.Not(s.has_per_index), ch.fresh_failed == 0),
    )
    # matchSuccessPolicy over the completed indexes: which rules hold is the Job's, so a choice,
    # but one that holds for the indexes the status lists holds for more, and one that does not
    # still does not for the same indexes.
    bound_policy = z3.And(
        z3.Implies(ch.policy_met, z3.And(s.success_policy, completed >= 1)),
        z3.Implies(s.policy_met, ch.policy_met),
        z3.Implies(fresh == 0, ch.policy_met == s.policy_met),
    )

    fc0 = z3.If(
        s.success_criteria_met,
        SUCCESS,
        z3.If(
            s.failure_target,
            FAILED,
            z3.If(
                z3.Or(
                    failing_now,
                    z3.And(s.has_max_failed, failed_indexes > s.max_failed),  # MaxFailedIndexesExceeded
                    z3.And(s.has_per_index, failed_indexes > 0, failed_indexes + completed >= c),  # FailedIndexes
                ),
                NEW_FAILURE_TARGET,
                z3.If(ch.policy_met, SUCCESS, NONE),  # SuccessCriteriaMet (SuccessPolicy)
            ),
        ),
    )
    finishing = fc0 != NONE
    deleted_active = ite(z3.And(finishing, pod_calls_ok), s.active, 0)
    k_deleted_active = ite(z3.And(finishing, pod_calls_ok), s.k_active, 0)
    keep_condition = z3.And(deleted_active == s.active, sat)

    # manageJob: duplicates go first, then as many as are above wantActive.
    manage = z3.And(z3.Not(finishing), sat)
    want = maximum(0, minimum(c - completed, spec.parallelism))
    duplicates = ch.duplicates
    bound_duplicates = z3.And(
        duplicates >= maximum(s.k_active - 1, 0),
        duplicates <= maximum(s.active - 1, 0),
        duplicates >= 0,
        z3.Implies(s.active == s.k_active, duplicates == maximum(s.k_active - 1, 0)),
    )
    to_delete = jr.manage_deletions(spec, minimum(maximum(duplicates, maximum(0, s.active - want)), s.max_create_delete))
    deleting = jr.manage_deletes(manage, spec, to_delete)
    removed = ite(pod_calls_ok, z3.If(deleting, to_delete, 0), 0)
    k_removed = ite(pod_calls_ok, z3.If(deleting, ch.k_removed, 0), 0)
    bound_removed = z3.Implies(
        z3.And(deleting, pod_calls_ok),
        z3.And(
            ch.k_removed >= 0,
            ch.k_removed <= s.k_active,
            ch.k_removed <= removed,
            z3.Implies(spec.suspended, ch.k_removed == s.k_active),
            removed - ch.k_removed <= s.active - s.k_active,
        ),
    )
    # With podReplacementPolicy Failed the pods being deleted are not replaced until Failed.
    terminating = z3.If(s.replace_failed_only, jr.terminating_count(s, False, 0, 0), 0)
    diff = want - terminating - s.active
    wants_more = z3.And(manage, z3.Not(spec.suspended), to_delete == 0, diff > 0)
    # firstPendingIndexes: k is pending when not completed, not failed and no active pod in the
    # cache; with podReplacementPolicy Failed, no pod being deleted either (one released while it
    # runs, which the relation counts Job-wide, may be k's: `k_released`).
    k_pending = z3.And(
        z3.Not(k_completed),
        z3.Not(k_failed_index),
        s.k_active == 0,
        z3.Not(k_terminating_held(s)),
        z3.Not(z3.And(s.replace_failed_only, ch.k_released)),
    )
    # `backoff`: the Job's back-off, or with backoffLimitPerIndex every pending index's, holds
    # creation back (manageJob waits). Otherwise some pending indexes get a pod (with
    # backoffLimitPerIndex maybe none: failed indexes are not pending).
    creating = z3.And(wants_more, z3.Not(ch.backoff))
    # At least as many indexes are pending as are neither completed, failed, nor active (each active
    # pod makes at most one index active).
    wanted = minimum(diff, s.max_create_delete)
    surely_pending = maximum(0, c - completed - failed_indexes - s.active - terminating)
    bound_created = z3.And(
        ch.created_total >= 0,
        z3.Implies(creating, ch.created_total <= wanted),
        z3.Implies(ch.k_created, z3.And(k_pending, ch.created_total >= 1)),
        z3.Implies(ch.k_released, s.released > 0),
        z3.Implies(z3.And(z3.Not(s.has_per_index), creating), ch.created_total >= 1),
        z3.Implies(
            z3.And(creating, z3.Or(z3.Not(s.has_per_index), z3.Not(ch.held))),
            ch.created_total >= minimum(wanted, surely_pending),
        ),
    )
    created = ite(pod_calls_ok, z3.If(creating, ch.created_total, 0), 0)
    k_created = ite(pod_calls_ok, z3.If(z3.And(creating, ch.k_created), 1, 0), 0)
    waits = z3.And(wants_more, ch.backoff)
    waiting_active = s.active if controller.backoff_keeps_active else 0  # 1.36+ (jr.Controller)
    active_after_manage = z3.If(deleting, s.active - removed, z3.If(waits, waiting_active, s.active + created))
    active_after = z3.If(manage, active_after_manage, s.active)
    complete_now = z3.And(z3.Not(finishing), completed >= c, active_after == 0)
    fc = z3.If(finishing, z3.If(keep_condition, fc0, NONE), z3.If(complete_now, SUCCESS, NONE))
    failing = z3.Or(fc == NEW_FAILURE_TARGET, fc == FAILED)
    succeeding = fc == SUCCESS

    controller_after, bound_delete = jr.expectations_after(s, deleting, creating, created, stale, ch)

    new_count, bound_new_count = k_replacement_count(s, ch.new_count)

    # getPodsWithDelayedDeletionPerIndex: k's last failed pod (an ignored failure too) keeps its
    # finalizer while k waits for a replacement.
    k_waits = z3.And(
        s.has_per_index, z3.Not(k_completed), z3.Not(k_failed_index), s.k_active == 0, k_failed_pods + s.k_ignored > 0
    )
    delayed = {kind: z3.If(ch.k_delayed == i, 1, 0) for i, kind in enumerate(DELAYED_KINDS, 1)}
    bound_delayed = z3.And(
        z3.If(k_waits, z3.And(ch.k_delayed >= 1, ch.k_delayed <= len(DELAYED_KINDS)), ch.k_delayed == 0),
        # Only a pod isPodFailed counts waits for its replacement.
        *[z3.Implies(s.replace_failed_only, ch.k_delayed != i) for i, kind in enumerate(DELAYED_KINDS, 1) if kind in TERMINATING_KINDS],
        *[delayed[kind] <= getattr(s, f"k_{kind}") for kind in DELAYED_KINDS],
        ch.delayed_elsewhere >= 0,
        ch.delayed_elsewhere <= failed_pods - k_failed_pods,
        z3.Implies(z3.Not(s.has_per_index), ch.delayed_elsewhere == 0),
        ch.ignored_kept_elsewhere >= 0,
        ch.ignored_kept_elsewhere <= s.ignored - s.k_ignored,
        z3.Implies(z3.Not(s.has_per_index), ch.ignored_kept_elsewhere == 0),
        bound_new_count,
    )

    # trackJobStatusAndRemoveFinalizers: the pods it gets to (all unless MaxUncountedPods stops it).
    # With podReplacementPolicy Failed, the pods being deleted only once the Job finishes.
    tracked = jr.pods_being_deleted_tracked(s, fc)
    def gated_by_tracking(prefix: str) -> dict[str, Any]:
        counts = {kind: getattr(s, f"{prefix}{kind}") for kind in FAILED_KINDS}
        return {kind: z3.If(tracked, n, 0) if kind.startswith("terminating") else n for kind, n in counts.items()}

    gated, k_gated = gated_by_tracking(""), gated_by_tracking("k_")
    eligible = {
        "succeeded": s.succeeded,
        "succeeded_uf": s.succeeded_uf,
        **gated,
        "active": z3.If(fc != NONE, s.active, 0),
    }
    # canRemoveFinalizer: any pod once the Job is finishing; else not a waiting index's last failure.
    keeps = fc == NONE
    k_eligible = {
        "succeeded": s.k_succeeded,
        "succeeded_uf": s.k_succeeded_uf,
        **{kind: k_gated[kind] - z3.If(keeps, delayed[kind], 0) for kind in FAILED_KINDS},
        "active": z3.If(fc != NONE, s.k_active, 0),
    }
    kept = z3.If(keeps, total(delayed[kind] for kind in FAILED_KINDS) + ch.delayed_elsewhere, 0)
    k_everything = {**k_eligible, **k_gated}
    reached = ch.reached_max_uncounted
    k_of = {kind: getattr(ch, f"k_got_{kind}") for kind in eligible}
    p_of = {kind: getattr(ch, f"got_{kind}") for kind in eligible}
    # The ignored failures it gets to lose the finalizer, listed nowhere (job_relation's `ignored`),
    # but for those kept for their replacement (backoffLimitPerIndex).
    got_ignored, k_got_ignored = ch.got_ignored, ch.k_got_ignored
    k_ignored_eligible = s.k_ignored - z3.If(keeps, delayed["ignored"], 0)
    others_eligible = s.ignored - s.k_ignored - z3.If(keeps, ch.ignored_kept_elsewhere, 0)
    bound_ignored = z3.And(
        k_got_ignored >= 0,
        k_got_ignored <= k_ignored_eligible,
        got_ignored >= k_got_ignored,
        got_ignored - k_got_ignored <= others_eligible,
        z3.Implies(z3.Not(reached), z3.And(k_got_ignored == k_ignored_eligible, got_ignored - k_got_ignored == others_eligible)),
    )
    processed = total(p_of.values()) + got_ignored
    failed_eligible = eligible["terminating"] + eligible["terminating_uf"] + eligible["failed"] + eligible["failed_uf"]
    cut_off = z3.And(
        *[z3.And(k_of[kind] >= 0, k_of[kind] <= k_eligible[kind]) for kind in eligible],
        # Elsewhere than k, at most the pods there are.
        *[z3.And(k_of[kind] <= p_of[kind], p_of[kind] - k_of[kind] <= eligible[kind] - k_everything[kind]) for kind in eligible],
        total(p_of[kind] for kind in FAILED_KINDS) <= failed_eligible - kept,
        z3.Implies(reached, processed >= 1),
        z3.Implies(
            z3.Not(reached),
            z3.And(
                *[k_of[kind] == k_eligible[kind] for kind in eligible],
                p_of["succeeded"] == eligible["succeeded"],
                p_of["succeeded_uf"] == eligible["succeeded_uf"],
                p_of["active"] == eligible["active"],
                total(p_of[kind] for kind in FAILED_KINDS) == failed_eligible - kept,
            ),
        ),
    )
    active_failed = z3.If(failing, p_of["active"], 0)
    # The pods being deleted that it lists as failed: isPodFailed's, or all when the Job is failing.
    listed_terminating = z3.If(failing, p_of["terminating"], jr.failed_terminating(s, p_of["terminating"]))
    k_listed_terminating = z3.If(failing, k_of["terminating"], jr.failed_terminating(s, k_of["terminating"]))
    newly_listed = p_of["failed"] + listed_terminating + active_failed
    # The loop stops once the new succeeded indexes and the listed UIDs reach MaxUncountedPods,
    # checked after each pod it gets to: so the UIDs listed stay below the cap when it does not
    # stop, and reach at most the cap, or one more than listed before, when it does.
    listed_before = s.succeeded_uf + s.failed_uf + s.terminating_uf
    listed_after = listed_before + newly_listed
    listing_capped = z3.And(
        z3.Implies(reached, listed_after <= maximum(s.max_uncounted, listed_before + 1)),
        z3.Implies(z3.And(z3.Not(reached), processed > 0), listed_after < s.max_uncounted),
    )
    k_newly_listed_failed = k_of["failed"]
    k_newly_listed_terminating = k_listed_terminating
    cleaned = s.gone_uf > 0
    new_condition = z3.Or(fc == NEW_FAILURE_TARGET, z3.And(succeeding, z3.Not(s.success_criteria_met)))
    first_write = z3.Or(newly_listed > 0, fresh > 0, ch.fresh_failed > 0, cleaned, new_condition, ch.other_status_change)
    final_condition = z3.If(failing, FAILED, z3.If(succeeding, COMPLETE, NONE))
    terminating_now = jr.terminating_count(s, finishing, deleted_active, removed)
    removal_refused = z3.And(jr.negate(pod_calls_ok), processed > 0)
    enact = z3.And(z3.Not(removal_refused), final_condition != NONE, z3.Not(reached), terminating_now == 0)
    removed_listed = p_of["succeeded_uf"] + p_of["failed_uf"] + p_of["terminating_uf"]
    last_write = z3.Or(removed_listed + newly_listed > 0, enact)
    bound_released = jr.released_bounds(ch, removed, p_of["terminating"] + p_of["terminating_uf"] + p_of["active"])

    live_before = s.k_hidden + s.k_active - k_removed - k_deleted_active
    # deleteActivePods makes k's active pods failed (being deleted): their counts join k's failed,
    # or, with podReplacementPolicy Failed, its pods being deleted.
    apart = counts_apart(s)
    deleted_high = z3.If(k_failed_pods > 0, maximum(s.k_failed_high, ch.deleted_count), ch.deleted_count)
    failed_high_mid = z3.If(z3.And(k_deleted_active > 0, z3.Not(apart)), deleted_high, s.k_failed_high)
    deleted_apart_high = z3.If(k_total(s, TERMINATING_KINDS) > 0, maximum(s.k_terminating_high, ch.deleted_count), ch.deleted_count)
    terminating_high_mid = z3.If(z3.And(k_deleted_active > 0, apart), deleted_apart_high, s.k_terminating_high)
    bound_deleted_count = z3.And(
        s.k_live_low <= ch.deleted_count,
        ch.deleted_count <= s.k_live_high,
        live_range_kept(s, ch.k_live_low_kept, ch.k_live_high_kept, k_removed + k_deleted_active > 0),
    )
    pods_after_manage = s.replace(
        hidden=s.hidden + ite(stale, created, 0),
        active=s.active - z3.If(finishing, deleted_active, removed) + ite(stale, 0, created),
        terminating=s.terminating + deleted_active,
        released=s.released + ch.released_removed,
        k_hidden=s.k_hidden + ite(stale, k_created, 0),
        k_active=s.k_active - z3.If(finishing, k_deleted_active, k_removed) + ite(stale, 0, k_created),
        k_terminating=s.k_terminating + k_deleted_active,
        k_failed_high=failed_high_mid,
        k_terminating_high=terminating_high_mid,
        k_live_low=z3.If(k_created > 0, z3.If(live_before > 0, minimum(ch.k_live_low_kept, new_count), new_count), ch.k_live_low_kept),
        k_live_high=z3.If(k_created > 0, z3.If(live_before > 0, maximum(ch.k_live_high_kept, new_count), new_count), ch.k_live_high_kept),
        # A line of replacements stays one unless k gets a pod beside a running one.
        k_chain=z3.If(z3.And(s.k_chain, z3.Not(z3.And(k_created > 0, live_before > 0))), True, ch.k_chain_after),
    )
    indexes_written = dict(
        status_succeeded=completed,
        completed_count=completed,
        failed_index_count=failed_indexes,
        policy_met=ch.policy_met,
        k_completed=k_completed,
        k_failed_index=z3.And(s.has_per_index, k_failed_index),
    )

    write_refused = pods_after_manage.replace(**controller_after)
    listed_kept = pods_after_manage.replace(
        failed=s.failed - p_of["failed"],
        failed_uf=s.failed_uf + p_of["failed"],
        terminating=s.terminating - listed_terminating,
        terminating_uf=s.terminating_uf + listed_terminating,
        k_failed=s.k_failed - k_newly_listed_failed,
        k_failed_uf=s.k_failed_uf + k_newly_listed_failed,
        k_terminating=s.k_terminating - k_newly_listed_terminating,
        k_terminating_uf=s.k_terminating_uf + k_newly_listed_terminating,
        gone_uf=0,
        status_failed=s.status_failed + s.gone_uf,
        **jr.interim_conditions(s, fc, succeeding),
        **indexes_written,
        **controller_after,
    )
    # Which failed pod of k keeps the highest count: its last (k_replacement_count).
    in_line = z3.Or(s.k_chain, s.k_ignored == 0)
    last_counted_kept = z3.And(k_waits, in_line, delayed["ignored"] == 0)
    last_ignored_kept = z3.And(k_waits, s.k_chain, delayed["ignored"] == 1)
    pods_done = pods_after_manage.replace(
        **jr.finalizers_removed(s, p_of, finishing, deleted_active),
        **jr.finalizers_removed(s, k_of, finishing, k_deleted_active, prefix="k_"),
        ignored=s.ignored - got_ignored,
        k_ignored=s.k_ignored - k_got_ignored,
        released=pods_after_manage.released + ch.released_tracked,
        # The failed pods that keep their finalizer: the highest count goes only with k's last one
        # (of a line, or of counted failures alone: the most failures, the most of both).
        k_failed_high=z3.If(last_counted_kept, failed_high_mid, ch.k_failed_high_after),
        k_ignored_high=z3.If(last_ignored_kept, s.k_ignored_high, ch.k_ignored_high_after),
        k_terminating_high=ch.k_terminating_high_after,
        k_fail_index=ch.k_fail_index_after,
    )
    bound_failed_high = z3.And(
        bound_deleted_count,
        # The pods being deleted lose their finalizers only once tracked.
        ch.k_terminating_high_after >= 0,
        ch.k_terminating_high_after <= terminating_high_mid,
        z3.Implies(z3.Not(tracked), ch.k_terminating_high_after == terminating_high_mid),
        z3.Implies(
            z3.Not(last_counted_kept), z3.And(ch.k_failed_high_after >= 0, ch.k_failed_high_after <= failed_high_mid)
        ),
        ch.k_ignored_high_after >= 0,
        ch.k_ignored_high_after <= s.k_ignored_high,
        z3.Implies(k_got_ignored == 0, ch.k_ignored_high_after == s.k_ignored_high),
        # k's FailIndex pod may be among its Failed pods that lose their finalizers.
        z3.Implies(ch.k_fail_index_after, s.k_fail_index),
        z3.Implies(k_of["failed"] + k_of["failed_uf"] == 0, ch.k_fail_index_after == s.k_fail_index),
    )
    done = pods_done.replace(
        gone_uf=0,
        status_failed=jr.failures_counted(s, {**p_of, "terminating": listed_terminating}, active_failed),
        **jr.final_conditions(s, fc, succeeding, enact, final_condition),
        **indexes_written,
        **controller_after,
    )
    last_write_refused = pods_done.replace(
        gone_uf=s.gone_uf + p_of["succeeded_uf"] + p_of["failed_uf"] + p_of["terminating_uf"],
        **controller_after,
    )

    acted, outcome = how.select(
        jr.status_write_outcomes(first_write, last_write, write_refused, last_write_refused, done),
        removal_refused,
        listed_kept,
    )
    acted = jr.shown_late(acted, how, z3.Or(first_write, last_write))
    nothing = z3.Or(jr.waits_for_the_cache(s, controller), jr.finished(s))
    after = jr.select(nothing, s, _normalise(acted))
    choices_bounded = z3.And(
        index_counts,
        bound_policy,
        bound_duplicates,
        bound_removed,
        bound_created,
        bound_delayed,
        cut_off,
        bound_ignored,
        listing_capped,
        bound_delete,
        bound_failed_high,
        bound_released,
        outcome,
    )
    guard = z3.And(how.bounds, jr.status_late_allowed(s, how, controller), z3.Or(nothing, choices_bounded))
    deleted = z3.If(finishing, deleted_active, removed)
    clean = z3.And(jr.negate(how.status_error), pod_calls_ok, z3.Not(jr.waits_for_the_cache(s, controller)))
    return Step(guard, after, ch, z3.If(nothing, 0, created), z3.If(nothing, 0, deleted), clean, z3.If(nothing, 0, listed_after))


def live_range_kept(s: Record, low: Any, high: Any, some_left: Any) -> Any:
    """The failure counts of k's running pods once `some_left` of them (else none) stopped running:
    those of the rest, within the range before (unknown where k had pods of several counts)."""
    unchanged = z3.And(low == s.k_live_low, high == s.k_live_high)
    return z3.If(some_left, z3.And(s.k_live_low <= low, low <= high, high <= s.k_live_high), unchanged)


NO_CHOICES: Schema = ()
POD_CHOICES: Schema = (
    ("source", INT),
    ("at_k", BOOL),
    ("count", INT),  # the failure count of the running pod that moves
    ("live_low_after", INT),  # the failure counts of k's other running pods (live_range_kept)
    ("live_high_after", INT),
    ("failed_high_after", INT),
    ("terminating_count", INT),  # the failure count of the pod being deleted that moves (counts_apart)
    ("terminating_high_after", INT),
)


def _pod_move(
    s: Record, prefix: str, sources: tuple[str, ...], targets: tuple[str | None, ...], updates: int = 1
) -> Step:
    """A pod of kind `sources[i]` becomes `targets[i]` (i the `source` choice; None: no count), at k
    or elsewhere (a released pod is counted Job-wide only); the informer sees `updates` events of a
    pod being deleted (job_relation.deletion_updates). A running pod that fails or is deleted
    brings its failure count to k's failed pods; a failed pod (being deleted) that succeeds may
    take k's highest count away."""
    ch = Record.symbols(POD_CHOICES, prefix)
    after = s
    options = []
    for i, (src, dst) in enumerate(zip(sources, targets, strict=True)):
        if src == "active" and dst is None:
            continue  # an active pod does not vanish
        chosen = ch.source == i
        at_k = z3.And(chosen, ch.at_k)
        changes = {src: getattr(after, src) - z3.If(chosen, 1, 0)}
        if dst is not None:
            changes[dst] = getattr(after, dst) + z3.If(chosen, 1, 0)
        if src in KINDS:
            changes[f"k_{src}"] = getattr(after, f"k_{src}") - z3.If(at_k, 1, 0)
            if dst is not None:
                changes[f"k_{dst}"] = getattr(after, f"k_{dst}") + z3.If(at_k, 1, 0)
            available = z3.If(ch.at_k, getattr(s, f"k_{src}") > 0, getattr(s, src) > getattr(s, f"k_{src}"))
        else:
            available = z3.And(z3.Not(ch.at_k), getattr(s, src) > 0)
        if src in LIVE_KINDS:
            changes["k_live_low"] = z3.If(at_k, ch.live_low_after, after.k_live_low)
            changes["k_live_high"] = z3.If(at_k, ch.live_high_after, after.k_live_high)
        after = after.replace(**changes)
        options.append(z3.And(chosen, available))
        # With counts_apart, a pod being deleted carries its count apart until it is Failed.
        apart = z3.And(at_k, counts_apart(s))
        not_apart = z3.And(at_k, z3.Not(counts_apart(s)))
        if src in LIVE_KINDS and dst in FAILED_KINDS:
            failed_high = z3.If(k_failures(s) > 0, maximum(s.k_failed_high, ch.count), ch.count)
            if dst in TERMINATING_KINDS:
                apart_high = z3.If(k_total(s, TERMINATING_KINDS) > 0, maximum(s.k_terminating_high, ch.count), ch.count)
                after = after.replace(
                    k_failed_high=z3.If(not_apart, failed_high, after.k_failed_high),
                    k_terminating_high=z3.If(apart, apart_high, after.k_terminating_high),
                )
            else:
                after = after.replace(k_failed_high=z3.If(at_k, failed_high, after.k_failed_high))
        if src in TERMINATING_KINDS and dst in FAILED_KINDS and dst not in TERMINATING_KINDS:
            failed_high = z3.If(k_failures(s) > 0, maximum(s.k_failed_high, ch.terminating_count), ch.terminating_count)
            after = after.replace(
                k_failed_high=z3.If(apart, failed_high, after.k_failed_high),
                k_terminating_high=z3.If(apart, ch.terminating_high_after, after.k_terminating_high),
            )
        if src in FAILED_KINDS and dst not in FAILED_KINDS:
            after = after.replace(
                k_failed_high=z3.If(not_apart, ch.failed_high_after, after.k_failed_high),
                k_terminating_high=z3.If(apart, ch.terminating_high_after, after.k_terminating_high),
            )
    assert sources[0] == jr.RUNNING_SOURCES[0], "the `source` choice indexes RUNNING_SOURCES"
    after = after.replace(expect_delete=jr.deletion_updates(s, ch.source, updates))
    guard = z3.And(
        z3.Or(*options),
        s.k_live_low <= ch.count,
        ch.count <= s.k_live_high,
        live_range_kept(s, ch.live_low_after, ch.live_high_after, ch.at_k),
        ch.failed_high_after >= 0,
        ch.failed_high_after <= s.k_failed_high,
        ch.terminating_count >= 0,
        ch.terminating_count <= s.k_terminating_high,
        ch.terminating_high_after >= 0,
        ch.terminating_high_after <= s.k_terminating_high,
    )
    return Step(guard, _normalise(after), ch)


def succeed(s: Record, prefix: str, controller: Controller = jr.MODEL) -> Step:
    return jr.restarts_taken(s, prefix, _pod_move(s, prefix, jr.RUNNING_SOURCES, ("succeeded", "succeeded", "succeeded_uf", None)))


# The actions of podFailurePolicy rules a failure may match: job_relation's, and FailIndex.
POLICY_ACTIONS = (*jr.POLICY_ACTIONS, "fail-index")


def policy_action_allowed(s: Record, action: Any) -> Any:
    """`action` is one of POLICY_ACTIONS; a Job without a podFailurePolicy counts every failure,
    and FailIndex is for backoffLimitPerIndex only (API validation)."""
    return z3.And(
        action >= 0,
        action < len(POLICY_ACTIONS),
        z3.Or(s.pod_failure_policy, action == POLICY_ACTIONS.index("count")),
        z3.Implies(action == POLICY_ACTIONS.index("fail-index"), s.has_per_index),
    )


def _end_failing(s: Record, prefix: str, targets: tuple[str | None, ...], updates: int) -> Step:
    """A pod fails (`_pod_move` to `targets`), matching the podFailurePolicy as the `action` choice
    says (POLICY_ACTIONS): an ignored failure not yet listed leaves k's counts for the Job-wide
    `ignored` (and with backoffLimitPerIndex, k's, for `k_ignored` with its failure count); a
    FailJob one joins `fail_job`; a FailIndex one of k's, holding the finalizer, is `k_fail_index`."""
    step = _pod_move(s, prefix, jr.RUNNING_SOURCES, targets, updates)
    action = Record.symbols(jr.ACTION_CHOICES, prefix).action
    choices = Record(POD_CHOICES + jr.ACTION_CHOICES, {**dict(step.choices), "action": action})
    to_failed = z3.Or(*[step.choices.source == i for i, target in enumerate(targets) if target == "failed"])
    to_failed_kinds = z3.Or(*[step.choices.source == i for i, target in enumerate(targets) if target in ("failed", "failed_uf")])
    ignored = z3.If(z3.And(to_failed, action == POLICY_ACTIONS.index("ignore")), 1, 0)
    ignored_at_k = z3.If(step.choices.at_k, ignored, 0)
    fails_k = z3.And(to_failed_kinds, step.choices.at_k, action == POLICY_ACTIONS.index("fail-index"))
    # An ignored failure of k carries its failure count to k_ignored_high, not to k_failed_high.
    ignored_k = z3.And(ignored_at_k == 1, s.has_per_index)
    count = z3.If(step.choices.source == jr.RUNNING_SOURCES.index("active"), step.choices.count, step.choices.terminating_count)
    after = step.after.replace(
        failed=step.after.failed - ignored,
        k_failed=step.after.k_failed - ignored_at_k,
        ignored=s.ignored + ignored,
        fail_job=s.fail_job + z3.If(action == POLICY_ACTIONS.index("fail-job"), 1, 0),
        k_fail_index=z3.Or(s.k_fail_index, fails_k),
        k_failed_high=z3.If(ignored_k, s.k_failed_high, step.after.k_failed_high),
        k_ignored=s.k_ignored + z3.If(ignored_k, 1, 0),
        k_ignored_high=z3.If(ignored_k, z3.If(s.k_ignored > 0, maximum(s.k_ignored_high, count), count), s.k_ignored_high),
    )
    return jr.restarts_taken(s, prefix, Step(z3.And(step.guard, policy_action_allowed(s, action)), _normalise(after), choices))


def fail(s: Record, prefix: str, controller: Controller = jr.MODEL) -> Step:
    return _end_failing(s, prefix, ("failed", "failed", "failed_uf", None), updates=1)


def terminate(s: Record, prefix: str, controller: Controller = jr.MODEL) -> Step:
    """job_relation.terminate, at k or elsewhere."""
    return _end_failing(s, prefix, (None, "failed", "failed_uf", None), updates=2)


def delete_pod(s: Record, prefix: str, controller: Controller = jr.MODEL) -> Step:
    """An active pod is deleted by someone else (the informer sees a deletion)."""
    step = _pod_move(s, prefix, ("active",), ("terminating",))
    observed = z3.And(s.has_expectations, jr.job_cached_unfinished(s))
    after = step.after.replace(expect_delete=z3.If(observed, s.expect_delete - 1, s.expect_delete))
    return Step(step.guard, after, step.choices)


def _k_seen(step: Step, s: Record) -> Step:
    """job_relation's move that shows the cache every pod it missed, and k's pods with them."""
    return Step(step.guard, step.after.replace(k_hidden=0, k_active=s.k_active + s.k_hidden), step.choices)


def cache_catch_up(s: Record, prefix: str, controller: Controller = jr.MODEL) -> Step:
    return _k_seen(jr.cache_catch_up(s, prefix, controller), s)


def restart(s: Record, prefix: str, controller: Controller = jr.MODEL) -> Step:
    return _k_seen(jr.restart(s, prefix, controller), s)


def _sync_move(name: str) -> Callable[[Record, str, Controller], Step]:
    def move(s: Record, prefix: str, controller: Controller = jr.MODEL) -> Step:
        return sync(s, prefix, name, controller)

    move.__doc__ = f"`{name}`: syncJob of an Indexed Job."
    return move


MOVES: dict[str, Callable[[Record, str, Controller], Step]] = {
    **{name: _sync_move(name) for name in jr.SYNC_MOVES},
    "cache-catch-up": cache_catch_up,
    "restart": restart,
    "time": jr.time_passes,
    "stutter": jr.stutter,
    "succeed": succeed,
    "fail": fail,
    "restart-container": jr.restart_container,  # of k's pod or another's: the sum is Job-wide
    "terminate": terminate,
    "delete-pod": delete_pod,
    "pod-gc": jr.pod_gc_of_job,
    "edit": jr.edit,
    "edit-stale": jr.edit_stale,
}

SEARCH_MOVES: dict[str, Callable[[Record, str, Controller], Step]] = {
    jr.ANY_SYNC: _sync_move(jr.ANY_SYNC),
    **{name: MOVES[name] for name in jr.NON_SYNC_MOVES if name != "stutter"},
}
