"""The catalogue's invariants of NonIndexed Jobs, proved over `job_relation` for any number of steps.

Each proof states a catalogue invariant over the relation's counts (the same claim as the
predicate in `jobmodel/invariants/catalogue.py`, read through `abstraction.job_state`; the tests
check that both give the same answer on the same worlds) or, where the catalogue has no law of
that meaning, a claim of its own that the tests compare with the catalogue's accounting
(`job_facts.succeeded_so_far`, `failed_so_far`); and the assumptions it needs and the supporting
invariants that make it inductive.
"""

from __future__ import annotations

from typing import Any

import attrs
import z3

from jobmodel.checkers.proofs import job_relation as jr
from jobmodel.checkers.proofs.induction import Assumption, Invariant, Proof, StepClaim, System
from jobmodel.checkers.proofs.symbolic import Record, maximum, minimum

MODEL_IMPL = "jobmodel.transitions.sync_job:sync_job"
WITHOUT_EXPECTATIONS_IMPL = "jobmodel.checkers.proofs.variants:sync_job_without_expectations"

SYSTEM = System(
    name="nonindexed",
    schema=jr.STATE,
    domain=jr.domain,
    initial=jr.initial,
    moves=jr.MOVES,
    search_moves=jr.SEARCH_MOVES,
    controller=jr.MODEL,
    impl=MODEL_IMPL,
    controller_moves=frozenset({*jr.SYNC_MOVES, jr.ANY_SYNC}),
)

# --- assumptions --------------------------------------------------------------------------------

LAG_COVERED = Assumption(
    "lag-covered",
    "every pod missing from the controller's cache is covered by unexpired creation expectations "
    "(job_environment.lag_covered; dropped: the clock may pass ExpectationsTimeout while the cache lags)",
    state=jr.lag_covered,
    in_catalogue=True,
)
EXPECTATIONS = Assumption(
    "expectations",
    "the controller waits for its creation and deletion expectations (dropped: a controller that "
    "forgets them before every sync)",
    drop=lambda system: attrs.evolve(
        system, controller=attrs.evolve(system.controller, expectations=False), impl=WITHOUT_EXPECTATIONS_IMPL
    ),
)


def _no_success_after_counted_failure(before: Record, move: str, step: Any) -> Any:
    if move != "succeed":
        return z3.BoolVal(True)
    return step.choices.source != 2


COUNTED_FAILURES_STAY_FAILED = Assumption(
    "counted-failures-stay-failed",
    "a pod being deleted that the controller listed in uncountedTerminatedPods.failed does not "
    "succeed afterwards (it can only while its finalizer removal keeps failing; dropped: upstream "
    "counts its success for `complete` and its failure in status.failed, a known upstream bug the "
    "catalogue accepts only under this assumption)",
    step=_no_success_after_counted_failure,
    in_catalogue=True,  # the catalogue excuses it as a known upstream bug, checked without the excuse
)


def _parallelism_not_lowered(before: Record, move: str, step: Any) -> Any:
    if move not in ("edit", "edit-stale"):
        return z3.BoolVal(True)
    return step.after.parallelism >= before.parallelism


PARALLELISM_NEVER_LOWERED = Assumption(
    "parallelism-never-lowered",
    "the user's edits never lower parallelism (dropped: right after such an edit more pods run than "
    "it allows, until a sync deletes the surplus)",
    step=_parallelism_not_lowered,
)

# --- supporting invariants ------------------------------------------------------------------------

WITHIN_PARALLELISM = Invariant(
    "within-parallelism",
    "active pods, the cache's and those it has not seen, never exceed parallelism",
    lambda s: jr.api_active(s) <= s.parallelism,
)
NO_SUCCESS_LISTED_FAILED = Invariant(
    "no-succeeded-pod-listed-failed",
    "no Succeeded pod is listed in uncountedTerminatedPods.failed",
    lambda s: s.succeeded_uf == 0,
)
SHOWN_PARALLELISM_NOT_ABOVE = Invariant(
    "shown-parallelism-not-above",
    "the parallelism the controller's cache shows is never above the Job's (an edit it has not "
    "delivered raised it, when edits never lower it)",
    lambda s: s.shown_parallelism <= s.parallelism,
)

# --- claims (the catalogue's predicates) -------------------------------------------------------------


def no_over_creation(before: Record, move: str, step: Any) -> Any:
    """catalogue.no_over_creation (without its assumption, which the proof states): a sync that
    creates pods leaves at most parallelism active pods (the parallelism it read:
    job_facts.spec_read) and, with completions, at most the remaining completions."""
    after = step.after
    active = jr.api_active(after)
    left = after.completions - jr.succeeded_so_far(after)
    return z3.Implies(
        step.created > 0,
        z3.And(active <= jr.spec_read(after).parallelism, z3.Implies(after.has_completions, active <= maximum(left, 0))),
    )


def pod_counted_exactly_once(before: Record, move: str, step: Any) -> Any:
    """A sync keeps the succeeded pods accounted for (job_facts.succeeded_so_far: counter,
    uncountedTerminatedPods or finalizer), and the failed ones when it deleted no pod (with
    podReplacementPolicy Failed, the pods being deleted that a failing Job counts join them). Not a
    catalogue law: catalogue.pod_counted_exactly_once judges each status write (the counters grow
    by the pods leaving uncountedTerminatedPods), which the known upstream bug does not break;
    this claim, read on the replayed run, does."""
    if not jr.is_sync(move):
        return z3.BoolVal(True)
    after = step.after
    failed_before, failed_after = jr.failed_so_far(before), jr.failed_so_far(after)
    joining = jr.not_yet_failed(before)  # counted once a failing Job takes them
    return z3.And(
        jr.succeeded_so_far(after) == jr.succeeded_so_far(before),
        z3.Implies(step.deleted == 0, z3.And(failed_after >= failed_before, failed_after <= failed_before + joining)),
    )


def backoff_limit_enforced(before: Record, move: str, step: Any) -> Any:
    """catalogue.backoff_limit_enforced: after a clean sync with satisfied expectations over a cache
    that shows every pod, failures past backoffLimit, or with restartPolicy OnFailure container
    restarts of the pods it saw running that reach it, mean a failing Job (or one that met its
    success criteria)."""
    after = step.after
    return z3.Implies(
        z3.And(
            step.clean_sync,
            before.hidden == 0,
            jr.satisfied(before),
            z3.Or(jr.recorded_failures(after) > after.backoff_limit, jr.past_backoff_limit_on_failure(before)),
        ),
        jr.decided(after),
    )


def active_within_parallelism(before: Record, move: str, step: Any) -> Any:
    """catalogue.active_within_parallelism: a settled sync (clean, over a cache that shows every
    pod, with satisfied expectations, of an unfinished Job) that creates no pod and decides
    nothing leaves at most wantActive active pods (parallelism, bounded by the completions not yet
    met; without completions, once one pod succeeded, the pods that run), unless it deleted
    MaxPodCreateDeletePerSync pods. The successes are job_facts.successes_seen: recorded, or
    Succeeded and listed nowhere (a success listed as a failure is none: the catalogue checked
    outside its assumptions)."""
    after = step.after
    counted = after.status_succeeded + after.succeeded_us + after.gone_us + after.succeeded
    want = z3.If(
        after.has_completions,
        maximum(0, minimum(after.completions - counted, after.parallelism)),
        z3.If(counted > 0, jr.api_active(after), after.parallelism),
    )
    judged = z3.And(settled(before, step), step.created == 0, z3.Not(jr.decided(after)), step.deleted < before.max_create_delete)
    return z3.Implies(judged, jr.api_active(after) <= want)


def pod_creations_within_cap(before: Record, move: str, step: Any) -> Any:
    """catalogue.pod_creations_within_cap: a sync creates at most MaxPodCreateDeletePerSync pods."""
    return step.created <= before.max_create_delete


def pod_deletions_within_cap(before: Record, move: str, step: Any) -> Any:
    """catalogue.pod_deletions_within_cap: a clean sync deletes at most MaxPodCreateDeletePerSync
    pods, unless it deletes every active pod its cache shows (deleteActivePods of a finishing Job,
    a suspended Job's pods: not capped upstream)."""
    return z3.Implies(step.clean_sync, z3.Or(step.deleted <= before.max_create_delete, step.deleted >= before.active))


def uncounted_within_cap(before: Record, move: str, step: Any) -> Any:
    """catalogue.uncounted_within_cap: no status a sync writes lists more than MaxUncountedPods
    UIDs in uncountedTerminatedPods, or one more than the Job's status listed when that was at the
    cap."""
    return step.listed <= maximum(before.max_uncounted, jr.uncounted_listed(before) + 1)


def fail_job_enforced(before: Record, move: str, step: Any) -> Any:
    """catalogue.pod_failure_policy_fail_job_enforced: after a settled sync, a Job with a failed
    pod whose failure matches a FailJob rule is failing, unless it already met its success
    criteria."""
    return z3.Implies(z3.And(settled(before, step), before.fail_job > 0), jr.decided(step.after))


def settled(before: Record, step: Any) -> Any:
    """job_facts.settled: a clean sync over a cache that shows every pod, with satisfied
    expectations, of an unfinished Job."""
    return z3.And(step.clean_sync, before.hidden == 0, jr.satisfied(before), z3.Not(jr.finished(before)))


CAP_CLAIMS = (pod_creations_within_cap, pod_deletions_within_cap, uncounted_within_cap)


def law_proofs(system: System, claims: tuple[Any, ...]) -> tuple[Proof, ...]:
    """Step claims that need no assumption, one proof each, stating the catalogue law of the
    claim's name (the function's, with dashes)."""
    proofs = []
    for claim in claims:
        name = claim.__name__.replace("_", "-")
        proofs.append(Proof(name, system, StepClaim(name, claim.__doc__ or "", claim), catalogue=name))
    return tuple(proofs)


def failures_within_limit(s: Record) -> Any:
    """Pods that failed (counted or still to count) and active pods together never exceed
    backoffLimit + parallelism: once failures pass backoffLimit no pod is created, so at most the
    pods still running fail after that. With podReplacementPolicy Failed the pods being deleted
    are with them: no failures yet, but not replaced either."""
    return jr.failed_so_far(s) + jr.not_yet_failed(s) + jr.api_active(s) <= s.backoff_limit + s.parallelism


PROOFS = (
    Proof(
        "active-never-above-parallelism",
        SYSTEM,
        WITHIN_PARALLELISM,
        support=(SHOWN_PARALLELISM_NOT_ABOVE,),
        assumptions=(LAG_COVERED, EXPECTATIONS, PARALLELISM_NEVER_LOWERED),
    ),
    Proof(
        "no-over-creation",
        SYSTEM,
        StepClaim("no-over-creation", no_over_creation.__doc__ or "", no_over_creation),
        assumptions=(LAG_COVERED, EXPECTATIONS),
        catalogue="no-over-creation",
    ),
    Proof(
        "active-within-parallelism",
        SYSTEM,
        StepClaim("active-within-parallelism", active_within_parallelism.__doc__ or "", active_within_parallelism),
        support=(NO_SUCCESS_LISTED_FAILED,),
        assumptions=(COUNTED_FAILURES_STAY_FAILED,),
        catalogue="active-within-parallelism",
    ),
    Proof(
        "pod-counted-exactly-once",
        SYSTEM,
        StepClaim("pod-counted-exactly-once", pod_counted_exactly_once.__doc__ or "", pod_counted_exactly_once),
        support=(NO_SUCCESS_LISTED_FAILED,),
        assumptions=(COUNTED_FAILURES_STAY_FAILED,),
    ),
    Proof(
        "backoff-limit-enforced",
        SYSTEM,
        StepClaim("backoff-limit-enforced", backoff_limit_enforced.__doc__ or "", backoff_limit_enforced),
        catalogue="backoff-limit-enforced",
    ),
    Proof(
        "failures-within-backoff-limit",
        SYSTEM,
        Invariant("failures-within-backoff-limit", failures_within_limit.__doc__ or "", failures_within_limit),
        support=(SHOWN_PARALLELISM_NOT_ABOVE,),
        assumptions=(LAG_COVERED, EXPECTATIONS, PARALLELISM_NEVER_LOWERED),
    ),
    Proof(
        "pod-failure-policy-fail-job-enforced",
        SYSTEM,
        StepClaim("pod-failure-policy-fail-job-enforced", fail_job_enforced.__doc__ or "", fail_job_enforced),
        catalogue="pod-failure-policy-fail-job-enforced",
    ),
    *law_proofs(SYSTEM, CAP_CLAIMS),
)
