"""The catalogue's invariants of Indexed Jobs, proved over `indexed_relation` for every index, any
number of pods and any number of steps.

A claim about the relation's index `k` is a claim about every index: `k` is any of them. Each
proof states a catalogue invariant (the same claim as its predicate in
`jobmodel/invariants/catalogue.py`, read through `abstraction.indexed_state`; the tests check that
both agree on the executable model's transitions) or, where the catalogue has none, says so.
"""

from __future__ import annotations

from typing import Any

import attrs
import z3

from jobmodel.checkers.proofs import indexed_relation as ir
from jobmodel.checkers.proofs import job_proofs as jp
from jobmodel.checkers.proofs import job_relation as jr
from jobmodel.checkers.proofs.induction import Assumption, Invariant, Proof, StepClaim, System
from jobmodel.checkers.proofs.symbolic import Record, maximum

SYSTEM = System(
    name="indexed",
    schema=ir.STATE,
    domain=ir.domain,
    initial=ir.initial,
    moves=ir.MOVES,
    search_moves=ir.SEARCH_MOVES,
    controller=jr.MODEL,
    impl=jp.MODEL_IMPL,
    controller_moves=frozenset({*jr.SYNC_MOVES, jr.ANY_SYNC}),
)

LAG_COVERED = attrs.evolve(jp.LAG_COVERED, state=jr.lag_covered)
EXPECTATIONS = attrs.evolve(
    jp.EXPECTATIONS,
    drop=lambda system: attrs.evolve(
        system, controller=attrs.evolve(system.controller, expectations=False), impl=jp.WITHOUT_EXPECTATIONS_IMPL
    ),
)


def _no_success_while_terminating(before: Record, move: str, step: Any) -> Any:
    if move != "succeed":
        return z3.BoolVal(True)
    return step.choices.source == 0


TERMINATING_PODS_DO_NOT_SUCCEED = Assumption(
    "terminating-pods-do-not-succeed",
    "a pod being deleted does not succeed (with TerminatingOrFailed the controller replaces it at "
    "once; dropped: when it succeeds after all, its replacement keeps running on a completed index)",
    step=_no_success_while_terminating,
)

# --- supporting invariants -------------------------------------------------------------------------

ONE_POD_PER_INDEX = Invariant(
    "one-running-pod-per-index",
    "an index has at most one running pod (in the cache or not)",
    lambda s: ir.k_live(s) <= 1,
)
NO_POD_FOR_A_DONE_INDEX = Invariant(
    "no-running-pod-for-a-succeeded-index",
    "an index that is completed, or has a succeeded pod, has no running pod",
    lambda s: z3.Implies(z3.Or(s.k_completed, s.k_succeeded + s.k_succeeded_uf > 0), ir.k_live(s) == 0),
)

LATER_PODS_COUNT_MORE = Invariant(
    "a-running-pod-counts-more-failures",
    "with backoffLimitPerIndex, an index's running pod carries a higher failure count than any of its "
    "failed pods still holding the finalizer (it replaced them), at least that of its ignored failures, and, "
    "with podReplacementPolicy Failed, a higher one than its pods being deleted (the index got no pod while they ran)",
    lambda s: z3.And(
        z3.Implies(z3.And(s.has_per_index, ir.k_live(s) > 0, ir.k_failures(s) > 0), s.k_live_low > s.k_failed_high),
        z3.Implies(z3.And(s.has_per_index, ir.k_live(s) > 0, s.k_ignored > 0), s.k_live_low >= s.k_ignored_high),
        z3.Implies(
            z3.And(ir.counts_apart(s), ir.k_live(s) > 0, ir.k_total(s, ir.TERMINATING_KINDS) > 0),
            s.k_live_low > s.k_terminating_high,
        ),
    ),
)
SUCCESS_NOT_EXHAUSTED = Invariant(
    "a-succeeded-index-did-not-use-up-its-limit",
    "an index that completed, or has a succeeded pod, has no failed pod at backoffLimitPerIndex (nor, "
    "with podReplacementPolicy Failed, a pod being deleted that would fail it)",
    lambda s: z3.Implies(
        z3.Or(s.k_completed, s.k_succeeded + s.k_succeeded_uf > 0),
        z3.And(z3.Not(ir.k_exhausted(s)), z3.Not(ir.k_exhausted_once_failed(s))),
    ),
)
FAILED_INDEX_IS_DONE = Invariant(
    "a-failed-index-is-done",
    "an index in failedIndexes has no running and no succeeded pod",
    lambda s: z3.Implies(s.k_failed_index, z3.And(ir.k_live(s) == 0, s.k_succeeded + s.k_succeeded_uf == 0)),
)
FAIL_INDEX_ENDS_THE_INDEX = Invariant(
    "a-fail-index-failure-ends-its-index",
    "an index with a failed pod that matched a FailIndex rule (holding the finalizer) has no running "
    "and no succeeded pod (it was the index's only running pod, and the index gets no other)",
    lambda s: z3.Implies(s.k_fail_index, z3.And(ir.k_live(s) == 0, s.k_succeeded + s.k_succeeded_uf == 0)),
)
DELETED_POD_IS_THE_LAST = Invariant(
    "a-pod-being-deleted-is-its-index-s-last",
    "with podReplacementPolicy Failed, an index with a pod being deleted (holding the finalizer) has "
    "no running and no succeeded pod and is not completed (the index gets no pod until it is Failed)",
    lambda s: z3.Implies(
        z3.And(s.replace_failed_only, ir.k_total(s, ir.TERMINATING_KINDS) > 0),
        z3.And(ir.k_live(s) == 0, s.k_succeeded + s.k_succeeded_uf == 0, z3.Not(s.k_completed)),
    ),
)
IN_LINE = Invariant(
    "an-index-s-pods-are-one-line",
    "an index's pods holding the finalizer are one line of replacements (indexed_relation.k_chain): "
    "each index gets a pod only when it has none running",
    lambda s: s.k_chain,
)
WITHIN_LIMIT = Invariant(
    "failure-counts-within-limit",
    "with backoffLimitPerIndex, no pod of an index carries a failure count above the limit",
    lambda s: failure_counts_within_limit(s),
)

# --- claims (the catalogue's predicates, at every index) -----------------------------------------


def succeeded_counts_each_index_once(s: Record) -> Any:
    """catalogue.indexed_succeeded_counts_each_index_once: status.succeeded is the size of
    completedIndexes."""
    return s.status_succeeded == s.completed_count


def indexes_only_grow(before: Record, move: str, step: Any) -> Any:
    """catalogue.completed_indexes_only_grow: an index in completedIndexes (failedIndexes) stays."""
    after = step.after
    return z3.And(
        z3.Implies(before.k_completed, after.k_completed),
        z3.Implies(before.k_failed_index, after.k_failed_index),
    )


def no_over_creation(before: Record, move: str, step: Any) -> Any:
    """catalogue.no_over_creation, Indexed (without its assumption, which the proof states): a sync
    that creates pods leaves at most parallelism active pods (the parallelism it read:
    job_facts.spec_read), no two active pods of one index and no active pod of a completed index."""
    after = step.after
    live = ir.k_live(after)
    return z3.Implies(
        step.created > 0,
        z3.And(jr.api_active(after) <= jr.spec_read(after).parallelism, live <= 1, z3.Implies(after.k_completed, live == 0)),
    )


def indexes_disjoint(s: Record) -> Any:
    """catalogue.completed_and_failed_indexes_disjoint: no index is both completed and failed (the
    API server's status validation rejects it)."""
    return z3.Not(z3.And(s.k_completed, s.k_failed_index))


def failure_counts_within_limit(s: Record) -> Any:
    """With backoffLimitPerIndex, the failure count a pod of an index carries never passes the
    limit: an index gets no new pod once backoffLimitPerIndex of its pods' failures counted, so at
    most backoffLimitPerIndex + 1 of them count (an ignored failure's replacement keeps the count)."""
    highest = (s.k_live_high, s.k_failed_high, s.k_terminating_high, s.k_ignored_high)
    return z3.Implies(s.has_per_index, z3.And(*[count <= s.per_index_limit for count in highest]))


def failed_pod_counted_exactly_once(before: Record, move: str, step: Any) -> Any:
    """The failure half of catalogue.pod_counted_exactly_once, for Indexed Jobs (the catalogue checks
    NonIndexed Jobs; the succeeded half is succeeded-counts-each-index-once): a sync that deletes no
    pod keeps every failed pod counted exactly once across finalizer, uncountedTerminatedPods.failed
    and status.failed (with podReplacementPolicy Failed, the pods being deleted that a failing Job
    counts join them)."""
    if not jr.is_sync(move):
        return z3.BoolVal(True)
    failed_before, failed_after = jr.failed_so_far(before), jr.failed_so_far(step.after)
    joining = jr.not_yet_failed(before)
    return z3.Implies(step.deleted == 0, z3.And(failed_after >= failed_before, failed_after <= failed_before + joining))


def backoff_limit_enforced(before: Record, move: str, step: Any) -> Any:
    """catalogue.backoff_limit_enforced for Indexed Jobs without backoffLimitPerIndex."""
    return z3.Implies(z3.Not(before.has_per_index), jp.backoff_limit_enforced(before, move, step))


def per_index_limit_enforced(before: Record, move: str, step: Any) -> Any:
    """catalogue.per_index_limit_enforced: after a settled sync, an index with a failed pod (holding
    the finalizer) whose failure count reached backoffLimitPerIndex is in failedIndexes."""
    used_up = z3.And(before.has_per_index, ir.k_failures(before) > 0, before.k_failed_high >= before.per_index_limit)
    return z3.Implies(z3.And(jp.settled(before, step), used_up), step.after.k_failed_index)


def fail_index_enforced(before: Record, move: str, step: Any) -> Any:
    """catalogue.fail_index_enforced: after a settled sync, an index with a failed pod (holding the
    finalizer) that matched a FailIndex rule is in failedIndexes."""
    return z3.Implies(z3.And(jp.settled(before, step), before.k_fail_index), step.after.k_failed_index)


def success_policy_enforced(before: Record, move: str, step: Any) -> Any:
    """catalogue.success_policy_enforced: after a settled sync, a Job whose completed indexes
    satisfy a rule of its successPolicy has met its success criteria, unless it is failing."""
    after = step.after
    return z3.Implies(z3.And(jp.settled(before, step), after.success_policy, after.policy_met), jr.decided(after))


def uncounted_within_cap(before: Record, move: str, step: Any) -> Any:
    """catalogue.uncounted_within_cap for Indexed Jobs (their new succeeded indexes count towards
    the cap, but only failed pods are listed)."""
    return step.listed <= maximum(before.max_uncounted, ir.uncounted_listed(before) + 1)


PROOFS = (
    Proof(
        "succeeded-counts-each-index-once",
        SYSTEM,
        Invariant("succeeded-counts-each-index-once", succeeded_counts_each_index_once.__doc__ or "", succeeded_counts_each_index_once),
        catalogue="indexed-succeeded-counts-each-index-once",
    ),
    Proof(
        "completed-indexes-only-grow",
        SYSTEM,
        StepClaim("completed-indexes-only-grow", indexes_only_grow.__doc__ or "", indexes_only_grow),
        catalogue="completed-indexes-only-grow",
    ),
    Proof(
        "no-over-creation",
        SYSTEM,
        StepClaim("no-over-creation", no_over_creation.__doc__ or "", no_over_creation),
        support=(ONE_POD_PER_INDEX, NO_POD_FOR_A_DONE_INDEX),
        assumptions=(LAG_COVERED, EXPECTATIONS, TERMINATING_PODS_DO_NOT_SUCCEED),
        catalogue="no-over-creation",
    ),
    Proof(
        "completed-and-failed-indexes-disjoint",
        SYSTEM,
        Invariant("completed-and-failed-indexes-disjoint", indexes_disjoint.__doc__ or "", indexes_disjoint),
        support=(
            ONE_POD_PER_INDEX,
            NO_POD_FOR_A_DONE_INDEX,
            LATER_PODS_COUNT_MORE,
            SUCCESS_NOT_EXHAUSTED,
            FAILED_INDEX_IS_DONE,
            FAIL_INDEX_ENDS_THE_INDEX,
            DELETED_POD_IS_THE_LAST,
            IN_LINE,
            WITHIN_LIMIT,
        ),
        assumptions=(LAG_COVERED, EXPECTATIONS, TERMINATING_PODS_DO_NOT_SUCCEED),
        catalogue="completed-and-failed-indexes-disjoint",
    ),
    Proof(
        "failure-counts-within-limit",
        SYSTEM,
        Invariant("failure-counts-within-limit", failure_counts_within_limit.__doc__ or "", failure_counts_within_limit),
    ),
    Proof(
        "failed-pod-counted-exactly-once",
        SYSTEM,
        StepClaim("failed-pod-counted-exactly-once", failed_pod_counted_exactly_once.__doc__ or "", failed_pod_counted_exactly_once),
    ),
    Proof(
        "backoff-limit-enforced",
        SYSTEM,
        StepClaim("backoff-limit-enforced", backoff_limit_enforced.__doc__ or "", backoff_limit_enforced),
        catalogue="backoff-limit-enforced",
    ),
    Proof(
        "pod-failure-policy-fail-job-enforced",
        SYSTEM,
        StepClaim("pod-failure-policy-fail-job-enforced", jp.fail_job_enforced.__doc__ or "", jp.fail_job_enforced),
        catalogue="pod-failure-policy-fail-job-enforced",
    ),
    *jp.law_proofs(
        SYSTEM,
        (
            per_index_limit_enforced,
            fail_index_enforced,
            success_policy_enforced,
            jp.pod_creations_within_cap,
            jp.pod_deletions_within_cap,
            uncounted_within_cap,
        ),
    ),
)
