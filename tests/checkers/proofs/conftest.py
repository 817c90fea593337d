"""Counterexample traces of the proofs without their assumptions, found once per test session."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from jobmodel.checkers.proofs import indexed_proofs, job_proofs, traces
from jobmodel.checkers.proofs.induction import Proof

Concretizer = Callable[[], traces.Concretizer]


def _proof(proofs: tuple[Proof, ...], name: str) -> Proof:
    return next(p for p in proofs if p.name == name)


# Every assumption of the NonIndexed proofs; for Indexed Jobs (slower to search) the two findings.
DROPPED: list[tuple[Proof, str, Concretizer]] = [
    *((p, a.name, traces.job_concretizer) for p in job_proofs.PROOFS for a in p.assumptions),
    (_proof(indexed_proofs.PROOFS, "no-over-creation"), "terminating-pods-do-not-succeed", traces.indexed_concretizer),
    (
        _proof(indexed_proofs.PROOFS, "completed-and-failed-indexes-disjoint"),
        "terminating-pods-do-not-succeed",
        traces.indexed_concretizer,
    ),
]


@pytest.fixture(scope="session")
def dropped_traces() -> dict[tuple[str, str], tuple[Proof, traces.Trace]]:
    """(proof's qualified name, dropped assumption) -> the proof without it, and its counterexample."""
    found = {}
    for proof, assumption, concretizer in DROPPED:
        narrowed = proof.without([assumption])
        # A bound on the search, not a speed target: a run whose cores were shared with Go builds
        # once ran out of 120 s and found no trace.
        trace, reason = traces.find_trace(narrowed, concretizer(), max_depth=10, deadline=time.perf_counter() + 600)
        assert trace is not None, f"{proof.qualified_name} without {assumption}: {reason}"
        found[(proof.qualified_name, assumption)] = (narrowed, trace)
    return found
