"""The proofs of jobmodel/checkers/proofs/job_proofs.py: they go through, each assumption and
supporting invariant is needed, a broken encoding gets a counterexample, and each claim says what
the catalogue's predicate says on the same transitions of the executable model."""

from __future__ import annotations

import attrs
import pytest
import z3

from jobmodel.checkers.proofs import abstraction as ab
from jobmodel.checkers.proofs import job_proofs as jp
from jobmodel.checkers.proofs import job_relation as jr
from jobmodel.checkers.proofs.induction import Invariant, Proof, StepClaim, check
from jobmodel.invariants import catalogue
from tests.checkers.proofs.test_job_relation import COVERAGE_SEEDS, one_more_pod
from tests.checkers.proofs.walks import seeded_walks

BY_NAME = {p.name: p for p in jp.PROOFS}


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


def test_a_broken_encoding_gets_a_counterexample() -> None:
    proof = BY_NAME["no-over-creation"]
    broken = attrs.evolve(proof.system, moves={**proof.system.moves, "sync": one_more_pod})
    verdict = check(attrs.evolve(proof, system=broken))
    assert verdict.status == "failed"
    assert verdict.failure is not None and verdict.failure.move == "sync"


def test_the_claims_say_what_the_catalogue_says() -> None:
    """On the model's own transitions, each claim (at the abstraction, with the choices that match
    the model's step) holds exactly when the catalogue's predicate finds nothing (both checked
    outside their assumptions: the proofs state those separately)."""
    predicates = {inv.name: inv.check for inv in catalogue.STEP_INVARIANTS}
    verdicts: dict[str, set[bool]] = {p.name: set() for p in jp.PROOFS}
    for t in seeded_walks(COVERAGE_SEEDS, 14):
        model, message = ab.admitting(t.before, t.move, t.after)
        assert model is not None, message
        pre = ab.job_record(t.before)
        step = ab.job_step(t.before, t.move)
        t_all = attrs.evolve(t, without_assumptions=True)
        for proof in jp.PROOFS:
            assert isinstance(proof.claim, StepClaim)
            holds = z3.is_true(model.eval(proof.claim.holds(pre, jr.MOVE_OF[t.move.kind], step), model_completion=True))
            found = predicates[proof.catalogue](t_all)
            assert holds == (found is None), f"{proof.name} after {t.move}: claim {holds}, catalogue {found}"
            verdicts[proof.name].add(holds)
    # Both answers occur, so the comparison has teeth (the walks break every claim somewhere).
    assert all(v == {True, False} for v in verdicts.values()), verdicts
