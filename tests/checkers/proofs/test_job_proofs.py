"""The proofs of jobmodel/checkers/proofs/job_proofs.py: they go through, each assumption and
supporting invariant is needed, a broken encoding gets a counterexample, and each claim says what
the catalogue says on the same transitions of the executable model."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
import z3

from jobmodel.actions import DeletePod
from jobmodel.checkers.proofs import abstraction as ab
from jobmodel.checkers.proofs import job_proofs as jp
from jobmodel.checkers.proofs import job_relation as jr
from jobmodel.checkers.proofs import traces
from jobmodel.checkers.proofs.induction import Invariant, Proof, StepClaim, check
from jobmodel.invariants import catalogue
from jobmodel.invariants.catalogue import Transition  # a step of the Job's environment
from jobmodel.state import Job
from jobmodel.transitions import job_environment as env
from jobmodel.transitions.pod_utils import has_job_tracking_finalizer
from tests.checkers.proofs.test_job_relation import WALK_SEEDS, one_more_pod
from tests.checkers.proofs.walks import restarting_runs, run_of, seeded_walks

BY_NAME = {p.name: p for p in jp.PROOFS}
CATALOGUE_PROOFS = [p for p in jp.PROOFS if p.catalogue]


@pytest.mark.parametrize("proof", jp.PROOFS, ids=lambda p: p.name)
def test_the_proof_goes_through(proof: Proof) -> None:
    verdict = check(proof)
    assert verdict.status == "proved", verdict.failure and verdict.failure.describe()


@pytest.mark.parametrize(
    ("proof", "assumption"),
    [(p, a.name) for p in jp.PROOFS for a in p.assumptions],
    ids=lambda v: v if isinstance(v, str) else v.name,
)
def test_every_assumption_is_needed(proof: Proof, assumption: str) -> None:
    verdict = check(proof.without([assumption]))
    assert verdict.status == "failed"


@pytest.mark.parametrize(
    ("proof", "invariant"),
    [(p, i) for p in jp.PROOFS for i in p.support],
    ids=lambda v: v.name,
)
def test_every_supporting_invariant_is_needed(proof: Proof, invariant: Invariant) -> None:
    weaker = attrs.evolve(proof, support=tuple(i for i in proof.support if i is not invariant))
    assert check(weaker).status == "failed"


def assert_broken_sync_caught(proof: Proof, sync: Any) -> None:
    """The proof fails, at a sync, for its system with `sync` (a broken encoding) as the sync move."""
    broken = attrs.evolve(proof.system, moves={**proof.system.moves, "sync": sync})
    verdict = check(attrs.evolve(proof, system=broken))
    assert verdict.status == "failed"
    assert verdict.failure is not None and verdict.failure.move == "sync"


def test_a_broken_encoding_gets_a_counterexample() -> None:
    assert_broken_sync_caught(BY_NAME["no-over-creation"], one_more_pod)


def higher_caps(relation: Any) -> Any:
    """A broken encoding: a sync that reads MaxPodCreateDeletePerSync and MaxUncountedPods one higher
    than they are."""

    def sync(s: Any, prefix: str, controller: jr.Controller = jr.MODEL) -> jr.Step:
        caps = {"max_create_delete": s.max_create_delete, "max_uncounted": s.max_uncounted}
        step: jr.Step = relation.sync(s.replace(**{name: cap + 1 for name, cap in caps.items()}), prefix, "sync", controller)
        return attrs.evolve(step, after=step.after.replace(**caps))

    return sync


@pytest.mark.parametrize("proof", [p for p in jp.PROOFS if p.name.endswith("within-cap")], ids=lambda p: p.name)
def test_a_sync_reading_higher_caps_breaks_the_cap_claims(proof: Proof) -> None:
    assert_broken_sync_caught(proof, higher_caps(jr))


def read_as_zero(relation: Any, field: str) -> Any:
    """A broken encoding: a sync that reads the state's `field` as 0 (leaving it as it was)."""

    def sync(s: Any, prefix: str, controller: jr.Controller = jr.MODEL) -> jr.Step:
        step: jr.Step = relation.sync(s.replace(**{field: 0}), prefix, "sync", controller)
        return attrs.evolve(step, after=step.after.replace(**{field: getattr(s, field)}))

    return sync


def fail_job_pods_unread(relation: Any) -> Any:
    """A broken encoding: a sync that does not look for failures matching a FailJob rule."""
    return read_as_zero(relation, "fail_job")


def test_a_sync_that_does_not_read_fail_job_pods_breaks_fail_job_enforced() -> None:
    assert_broken_sync_caught(BY_NAME["pod-failure-policy-fail-job-enforced"], fail_job_pods_unread(jr))


def test_a_sync_that_does_not_read_container_restarts_breaks_backoff_limit_enforced() -> None:
    """(pastBackoffLimitOnFailure unread.)"""
    assert_broken_sync_caught(BY_NAME["backoff-limit-enforced"], read_as_zero(jr, "restarts"))


def trace_transitions(trace: traces.Trace) -> list[Transition]:
    return run_of(trace.config.initial_world(), trace.moves, trace.config.sync_impl())


def _accounting_kept(t: Transition) -> bool:
    """catalogue.succeeded_so_far unchanged by a sync, and failed_so_far when the sync deleted no
    pod (but for the pods being deleted that a failing Job with podReplacementPolicy Failed
    counts): every finished pod stays accounted for in exactly one place."""
    if t.move.kind not in catalogue.SYNC_MOVES:
        return True
    before, after = t.before.job(), t.after.job()
    assert before is not None and after is not None
    if catalogue.succeeded_so_far(t.before, before) != catalogue.succeeded_so_far(t.after, after):
        return False
    if t.sync is not None and any(isinstance(a, DeletePod) and a.accepted for a in t.sync.actions):
        return True
    gates = t.after.cluster.features
    failed_before, failed_after = catalogue.failed_so_far(t.before, before, gates), catalogue.failed_so_far(t.after, after, gates)
    return failed_before <= failed_after <= failed_before + no_failures_yet(t.before, before)


def no_failures_yet(world: env.World, job: Job) -> int:
    """With podReplacementPolicy Failed, the pods being deleted that have not ended (isPodFailed
    does not count them until a failing Job does)."""
    if job.spec.pod_replacement_policy != "Failed":
        return 0
    uncounted = job.status.uncounted_terminated_pods
    listed = set(uncounted.failed) if uncounted is not None else set()
    return sum(
        1
        for p in world.own_pods()
        if p.metadata.deletion_timestamp is not None and p.phase not in ("Succeeded", "Failed")
        and has_job_tracking_finalizer(p) and p.uid not in listed
    )


def test_the_claims_say_what_the_catalogue_says(dropped_traces: dict[tuple[str, str], Any]) -> None:
    """On the model's own transitions (random runs, and the counterexamples of the proofs without
    their assumptions), each claim (at the abstraction, with the choices that match the model's
    step) holds exactly when the catalogue's predicate finds nothing (both checked outside their
    assumptions: the proofs state those separately); pod-counted-exactly-once, which no law states
    (the catalogue's law of that name judges status writes), exactly when the catalogue's
    accounting of finished pods is kept."""
    predicates = {inv.name: inv.check for inv in catalogue.STEP_INVARIANTS}
    accounting = BY_NAME["pod-counted-exactly-once"]
    verdicts: dict[str, set[bool]] = {p.name: set() for p in [*CATALOGUE_PROOFS, accounting]}
    model_runs = [
        t
        for proof, trace in dropped_traces.values()
        if proof.system.impl == jp.MODEL_IMPL and proof.system is jp.SYSTEM
        for t in trace_transitions(trace)
    ]
    restarting = [t for _, run in restarting_runs() for t in run]  # (restartPolicy OnFailure)
    for t in [*seeded_walks(WALK_SEEDS, 14), *model_runs, *restarting]:
        found, message = ab.admitting(t.before, t.move, t.after)
        assert found is not None, message
        name, step, model = found
        pre = ab.job_record(t.before)
        t_all = attrs.evolve(t, without_assumptions=True)
        for proof in CATALOGUE_PROOFS:
            assert isinstance(proof.claim, StepClaim)
            holds = z3.is_true(model.eval(proof.claim.holds(pre, name, step), model_completion=True))
            caught = predicates[proof.catalogue](t_all)
            assert holds == (caught is None), f"{proof.name} after {t.move}: claim {holds}, catalogue {caught}"
            verdicts[proof.name].add(holds)
        assert isinstance(accounting.claim, StepClaim)
        holds = z3.is_true(model.eval(accounting.claim.holds(pre, name, step), model_completion=True))
        assert holds == _accounting_kept(t), f"{accounting.name} after {t.move}: claim {holds}"
        verdicts[accounting.name].add(holds)
    # Both answers occur where the model breaks the claim somewhere, so the comparison has teeth
    # (backoff-limit-enforced and the caps hold in every run of the model: their teeth are
    # test_a_sync_reading_higher_caps_breaks_the_cap_claims).
    assert verdicts == {
        "no-over-creation": {True, False},
        "active-within-parallelism": {True, False},
        "pod-counted-exactly-once": {True, False},
        "backoff-limit-enforced": {True},
        "pod-failure-policy-fail-job-enforced": {True},
        "pod-creations-within-cap": {True},
        "pod-deletions-within-cap": {True},
        "uncounted-within-cap": {True},
    }
