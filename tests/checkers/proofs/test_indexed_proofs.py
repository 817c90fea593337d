"""The proofs of jobmodel/checkers/proofs/indexed_proofs.py: they go through, each assumption and
supporting invariant is needed, a broken encoding gets a counterexample, and each claim at every
index says what the catalogue's predicate says on the executable model's transitions."""

from __future__ import annotations

import re
from typing import Any

import attrs
import pytest
import z3

from jobmodel.actions import DeletePod
from jobmodel.checkers.proofs import abstraction as ab
from jobmodel.checkers.proofs import indexed_proofs as ip
from jobmodel.checkers.proofs import indexed_relation as ir
from jobmodel.checkers.proofs import job_relation as jr
from jobmodel.checkers.proofs.induction import Invariant, Proof, StepClaim, check
from jobmodel.checkers.proofs.symbolic import Record
from jobmodel.invariants import catalogue, job_facts
from tests.checkers.proofs.test_indexed_relation import count_pods_not_indexes
from tests.checkers.proofs.test_job_proofs import (
    assert_broken_sync_caught,
    fail_job_pods_unread,
    higher_caps,
    no_failures_yet,
    trace_transitions,
)
from tests.checkers.proofs.walks import (
    early_success_run,
    indexed_restarting_runs,
    per_index_failure_run,
    seeded_walks,
)

BY_NAME = {p.name: p for p in ip.PROOFS}


@pytest.mark.parametrize("proof", ip.PROOFS, ids=lambda p: p.name)
def test_the_proof_goes_through(proof: Proof) -> None:
    verdict = check(proof)
    assert verdict.status == "proved", verdict.failure and verdict.failure.describe()


@pytest.mark.parametrize(
    ("proof", "assumption"),
    [(p, a.name) for p in ip.PROOFS for a in p.assumptions],
    ids=lambda v: v if isinstance(v, str) else v.name,
)
def test_every_assumption_is_needed(proof: Proof, assumption: str) -> None:
    assert check(proof.without([assumption])).status == "failed"


@pytest.mark.parametrize(
    ("proof", "invariant"), [(p, i) for p in ip.PROOFS for i in p.support], ids=lambda v: v.name
)
def test_every_supporting_invariant_is_needed(proof: Proof, invariant: Invariant) -> None:
    weaker = attrs.evolve(proof, support=tuple(i for i in proof.support if i is not invariant))
    assert check(weaker).status == "failed"


def test_a_broken_encoding_gets_a_counterexample() -> None:
    """Counting succeeded pods instead of completed indexes breaks succeeded = |completedIndexes|."""
    assert_broken_sync_caught(BY_NAME["succeeded-counts-each-index-once"], count_pods_not_indexes)


@pytest.mark.parametrize("proof", [p for p in ip.PROOFS if p.name.endswith("within-cap")], ids=lambda p: p.name)
def test_a_sync_reading_higher_caps_breaks_the_cap_claims(proof: Proof) -> None:
    assert_broken_sync_caught(proof, higher_caps(ir))


def test_a_sync_that_does_not_read_fail_job_pods_breaks_fail_job_enforced() -> None:
    assert_broken_sync_caught(BY_NAME["pod-failure-policy-fail-job-enforced"], fail_job_pods_unread(ir))


def success_policy_unread(s: Record, prefix: str, controller: jr.Controller = jr.MODEL) -> jr.Step:
    """A broken encoding: a sync that records the completed indexes but decides as if the Job had
    no successPolicy."""
    read = ir.sync(s, prefix, "sync", controller)
    unread = ir.sync(s.replace(success_policy=False, policy_met=False), f"{prefix}u", "sync", controller)
    after = unread.after.replace(success_policy=s.success_policy, policy_met=read.after.policy_met)
    same_indexes = read.choices.fresh_completed == unread.choices.fresh_completed
    return attrs.evolve(unread, guard=z3.And(read.guard, unread.guard, same_indexes), after=after)


def test_a_sync_that_does_not_read_the_success_policy_breaks_success_policy_enforced() -> None:
    assert_broken_sync_caught(BY_NAME["success-policy-enforced"], success_policy_unread)


def fail_index_as_count(s: Record, prefix: str, controller: jr.Controller = jr.MODEL) -> jr.Step:
    """A broken encoding (job_bugs:fail_index_rule_ignored): a sync that treats a failure matching a
    FailIndex rule as one that only counts."""
    step = ir.sync(s.replace(k_fail_index=False), prefix, "sync", controller)
    return attrs.evolve(step, after=step.after.replace(k_fail_index=z3.And(s.k_fail_index, step.after.k_fail_index)))


def per_index_limit_one_higher(s: Record, prefix: str, controller: jr.Controller = jr.MODEL) -> jr.Step:
    """A broken encoding: a sync that reads backoffLimitPerIndex one higher than it is."""
    step = ir.sync(s.replace(per_index_limit=s.per_index_limit + 1), prefix, "sync", controller)
    return attrs.evolve(step, after=step.after.replace(per_index_limit=s.per_index_limit))


@pytest.mark.parametrize(
    ("claim", "sync"), [("fail-index-enforced", fail_index_as_count), ("per-index-limit-enforced", per_index_limit_one_higher)]
)
def test_a_sync_that_misreads_backoff_limit_per_index_breaks_its_claim(claim: str, sync: Any) -> None:
    assert_broken_sync_caught(BY_NAME[claim], sync)


def _claims_at_every_index(proofs: list[Proof], t: Any) -> dict[str, bool]:
    """Whether each proof's claim holds at every index of the Job, on one transition."""
    job = t.before.job()
    assert job is not None and job.spec.completions
    holds = {p.name: True for p in proofs}
    for index in range(job.spec.completions):
        found, message = ab.admitting(t.before, t.move, t.after, index=index)
        assert found is not None, message
        name, step, model = found
        pre, post = ab.indexed_record(t.before, index), ab.indexed_record(t.after, index)
        for proof in proofs:
            claim = proof.claim.holds(post) if isinstance(proof.claim, Invariant) else proof.claim.holds(pre, name, step)
            holds[proof.name] &= z3.is_true(model.eval(claim, model_completion=True))
    return holds


def test_the_claims_say_what_the_catalogue_says(dropped_traces: dict[tuple[str, str], Any]) -> None:
    """At every index of the model's own transitions (random runs, and the counterexamples of the
    proofs without terminating-pods-do-not-succeed), the claims hold exactly when the catalogue's
    predicate finds nothing (checked outside its assumptions: the proofs state those separately)."""
    checks = {inv.name: inv.check for inv in [*catalogue.STEP_INVARIANTS, *catalogue.STATE_INVARIANTS]}
    compared = [
        BY_NAME[name]
        for name in (
            "succeeded-counts-each-index-once",
            "completed-indexes-only-grow",
            "no-over-creation",
            "completed-and-failed-indexes-disjoint",
            "backoff-limit-enforced",
            "pod-failure-policy-fail-job-enforced",
            "per-index-limit-enforced",
            "fail-index-enforced",
            "success-policy-enforced",
            "pod-creations-within-cap",
            "pod-deletions-within-cap",
            "uncounted-within-cap",
        )
    ]
    verdicts: dict[str, set[bool]] = {p.name: set() for p in compared}
    runs = [
        *seeded_walks(range(8), 10, indexed=True),
        *trace_transitions(dropped_traces[("indexed/no-over-creation", "terminating-pods-do-not-succeed")][1]),
        *trace_transitions(dropped_traces[("indexed/completed-and-failed-indexes-disjoint", "terminating-pods-do-not-succeed")][1]),
        *early_success_run("index-0"),
        *per_index_failure_run("exit=42@main"),
        *(t for _, run in indexed_restarting_runs() for t in run),  # (restartPolicy OnFailure)
    ]
    policy_met_after_settled_syncs = fail_index_before_settled_syncs = 0
    for t in runs:
        if t.before.job() is None or t.after.job() is None:
            continue
        t_all = attrs.evolve(t, without_assumptions=True)
        holds = _claims_at_every_index(compared, t)
        for proof in compared:
            predicate = checks[proof.catalogue]
            found = predicate(t_all.after) if isinstance(proof.claim, Invariant) else predicate(t_all)
            assert holds[proof.name] == (found is None), f"{proof.name} after {t.move}: claim {holds}, catalogue {found}"
            verdicts[proof.name].add(holds[proof.name])
        job = t.after.job()
        assert job is not None
        met = job_facts.success_policy_met(job.spec.success_policy, job.spec.completions or 0, job_facts.completed_indexes(job))
        policy_met_after_settled_syncs += job_facts.settled(t) and met
        fail_index_before_settled_syncs += job_facts.settled(t) and ab.indexed_state(t.before, 0)["k_fail_index"]
    # The success policy's and FailIndex's claims were judged where their premises hold, not only vacuously.
    assert policy_met_after_settled_syncs > 0 and fail_index_before_settled_syncs > 0
    assert verdicts["no-over-creation"] == {True, False}, verdicts
    assert verdicts["completed-and-failed-indexes-disjoint"] == {True, False}, verdicts
    assert all(True in v for v in verdicts.values())


def _failed_accounting_kept(t: Any) -> bool:
    """catalogue.failed_so_far, unchanged by a sync that deletes no pod (the catalogue's
    pod-counted-exactly-once applied to an Indexed Job's failures), but for the pods being deleted
    that a failing Job with podReplacementPolicy Failed counts."""
    if t.move.kind not in catalogue.SYNC_MOVES:
        return True
    if t.sync is not None and any(isinstance(a, DeletePod) and a.accepted for a in t.sync.actions):
        return True
    before, after = t.before.job(), t.after.job()
    gates = t.after.cluster.features
    failed_before, failed_after = catalogue.failed_so_far(t.before, before, gates), catalogue.failed_so_far(t.after, after, gates)
    return failed_before <= failed_after <= failed_before + no_failures_yet(t.before, before)


def test_failed_accounting_says_what_the_model_counts() -> None:
    """The failure half of pod-counted-exactly-once (which the catalogue checks on NonIndexed Jobs
    only) holds at every index of the model's Indexed transitions exactly when catalogue.failed_so_far
    is kept; the model's runs include syncs that count failed pods (so the claim is not vacuous)."""
    proof = BY_NAME["failed-pod-counted-exactly-once"]
    counted = 0
    for t in seeded_walks(range(8), 14, indexed=True):
        if t.before.job() is None or t.after.job() is None:
            continue
        holds = _claims_at_every_index([proof], t)[proof.name]
        assert holds == _failed_accounting_kept(t), f"after {t.move}"
        job = t.after.job()
        counted += t.move.kind in catalogue.SYNC_MOVES and job is not None and job.status.failed > 0
    assert counted > 0


def test_a_lost_failure_breaks_failed_accounting() -> None:
    """A sync that forgets a failed pod (status.failed one short) is caught by the claim."""
    proof = BY_NAME["failed-pod-counted-exactly-once"]

    def lose_a_failure(s: Record, prefix: str, controller: jr.Controller = jr.MODEL) -> jr.Step:
        step = ir.sync(s, prefix, "sync", controller)
        after = step.after.replace(status_failed=step.after.status_failed - 1)
        return attrs.evolve(step, after=after)

    broken = attrs.evolve(proof.system, moves={**proof.system.moves, "sync": lose_a_failure})
    assert check(attrs.evolve(proof, system=broken)).status == "failed"


def _cited_laws(proof: Proof) -> list[str]:
    """The kinds ("state" or "step") of the catalogue laws whose predicates the claim's doc cites
    (`catalogue.<function>`), found by the registered function itself, not by its name."""
    kind_of = {id(inv.check): inv.kind for inv in [*catalogue.STEP_INVARIANTS, *catalogue.STATE_INVARIANTS]}
    kinds = []
    for function in re.findall(r"catalogue\.(\w+)", proof.claim.doc):
        registered = getattr(catalogue, function, None)
        assert registered is not None, f"{proof.name} cites catalogue.{function}, which does not exist"
        assert id(registered) in kind_of, f"{proof.name} cites catalogue.{function}, which is no law"
        kinds.append(kind_of[id(registered)])
    return kinds


def test_step_claims_are_step_claims() -> None:
    """A proof's claim is of the kind of the catalogue law it states: a StepClaim states a step
    invariant, an Invariant a state invariant (by its `catalogue` name, and by every catalogue
    predicate its doc cites); both kinds are proved."""
    step_laws = {inv.name for inv in catalogue.STEP_INVARIANTS}
    state_laws = {inv.name for inv in catalogue.STATE_INVARIANTS}
    assert not step_laws & state_laws
    for proof in ip.PROOFS:
        kind = "step" if isinstance(proof.claim, StepClaim) else "state"
        assert isinstance(proof.claim, StepClaim | Invariant), proof.name
        if proof.catalogue:
            assert proof.catalogue in (step_laws if kind == "step" else state_laws), (proof.name, kind, proof.catalogue)
        assert all(k == kind for k in _cited_laws(proof)), (proof.name, kind, _cited_laws(proof))
    stated = [p for p in ip.PROOFS if p.catalogue]
    assert any(isinstance(p.claim, StepClaim) for p in stated)
    assert any(isinstance(p.claim, Invariant) for p in stated)
    # The citations are checked too: a proof with no `catalogue` name (the failure half of
    # pod-counted-exactly-once) cites the law it states part of.
    assert any(not p.catalogue and _cited_laws(p) for p in ip.PROOFS)
