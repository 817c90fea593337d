"""Counterexample traces of the proofs without their assumptions, found once per test session."""

from __future__ import annotations

import time

import pytest

from jobmodel.checkers.proofs import job_proofs, traces
from jobmodel.checkers.proofs.induction import Proof

DROPPED = [(p, a.name) for p in job_proofs.PROOFS for a in p.assumptions]


@pytest.fixture(scope="session")
def dropped_traces() -> dict[tuple[str, str], tuple[Proof, traces.Trace]]:
    """(proof, dropped assumption) -> the proof without it, and its counterexample trace."""
    found = {}
    for proof, assumption in DROPPED:
        narrowed = proof.without([assumption])
        trace, reason = traces.find_trace(
            narrowed, traces.job_concretizer(), max_depth=10, deadline=time.perf_counter() + 60
        )
        assert trace is not None, f"{proof.name} without {assumption}: {reason}"
        found[(proof.name, assumption)] = (narrowed, trace)
    return found
