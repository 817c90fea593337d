"""Z3 proofs of manageJob's pod-count arithmetic (jobmodel/checkers/proofs/manage_job.py), and the
check that the encoding is the model's own arithmetic, on the same inputs as `sync_job`."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import attrs
import pytest
import z3
from hypothesis import example, given, settings
from hypothesis import strategies as st

from jobmodel.actions import CreatePod, DeletePod
from jobmodel.checkers.proofs import manage_job as zm
from jobmodel.checkers.proofs.symbolic import compile_term
from jobmodel.features import FeatureGates
from jobmodel.state import Job, JobControllerTunables, JobSyncInput
from jobmodel.timeutil import parse_time
from jobmodel.transitions.sync_job import sync_job
from tests.builders import make_job, make_pod

NOW = parse_time("2024-06-01T12:00:00Z", "now")
# The arithmetic is the same in the first and the newest release modelled: the cross-check runs at both.
RELEASES = pytest.mark.parametrize("gates", [FeatureGates.for_release(32), FeatureGates.for_release(37)], ids=["1.32", "1.37"])


def test_every_property_is_proved() -> None:
    results = zm.prove_all()
    assert [r.name for r in results if not r.proved] == []
    assert len(results) == len(zm.PROPERTIES) >= 5


def test_a_broken_encoding_gets_a_counterexample() -> None:
    # Creating up to the remaining completions, forgetting parallelism: the proof must fail.
    def broken(c: zm.Counts) -> Any:
        diff = z3.If(c.has_completions, c.completions - c.succeeded, c.parallelism) - c.active
        created = z3.If(diff > 0, diff, 0)
        return c.active + created <= zm._max(c.active, c.parallelism)

    result = zm.prove(zm.PROPERTIES[0], broken)
    assert not result.proved
    assert result.counterexample is not None
    cex = result.counterexample
    assert cex["has_completions"] and cex["completions"] - cex["succeeded"] > cex["parallelism"]


# The cross-check's range: every combination is compared (8 x 7 x 8 x 7 x 4 x 4 x 2 = 100,352
# syncs, about 12 s of CPU; the Z3 terms are compiled once, so the model's syncs dominate).
COMPLETIONS = (None, *range(7))
PARALLELISM = range(7)
SUCCEEDED = range(8)
ACTIVE = range(7)
TERMINATING = range(4)
MAX_PER_SYNC = range(1, 5)
ONLY_FAILED = (False, True)
RANGE_SIZE = 8 * 7 * 8 * 7 * 4 * 4 * 2


@st.composite
def counts(draw: st.DrawFn) -> dict[str, Any]:
    completions = draw(st.sampled_from(COMPLETIONS))
    return {
        "has_completions": completions is not None,
        "completions": completions or 0,
        "parallelism": draw(st.sampled_from(PARALLELISM)),
        "succeeded": draw(st.sampled_from(SUCCEEDED)),
        "active": draw(st.sampled_from(ACTIVE)),
        "terminating": draw(st.sampled_from(TERMINATING)),
        "max_per_sync": draw(st.sampled_from(MAX_PER_SYNC)),
        "only_failed": draw(st.booleans()),
    }


ACTIVE_PODS = tuple(make_pod(f"active-{i}") for i in range(max(ACTIVE)))
# Terminating pods without the tracking finalizer: not active, not newly failed.
TERMINATING_PODS = tuple(
    make_pod(f"going-{i}", deleted="2024-06-01T11:59:00Z", finalizer=False) for i in range(max(TERMINATING))
)


def model_job(completions: int | None, parallelism: int, succeeded: int, only_failed: bool) -> Job:
    return make_job(
        completions=completions,
        parallelism=parallelism,
        podReplacementPolicy="Failed" if only_failed else "TerminatingOrFailed",
        status={"succeeded": succeeded, "startTime": "2024-06-01T11:00:00Z"},
    )


def sync_counts(job: Job, active: int, terminating: int, max_per_sync: int, gates: FeatureGates) -> tuple[int, int]:
    """(creations, deletions) of one sync_job at `gates` of `job` with these many active and terminating pods."""
    result = sync_job(
        JobSyncInput(
            job=job,
            pods=ACTIVE_PODS[:active] + TERMINATING_PODS[:terminating],
            now=NOW,
            features=gates,
            tunables=JobControllerTunables(max_pod_create_delete_per_sync=max_per_sync),
        )
    )
    created = sum(1 for a in result.actions if isinstance(a, CreatePod))
    deleted = sum(1 for a in result.actions if isinstance(a, DeletePod))
    return created, deleted


def run_model(values: dict[str, Any], gates: FeatureGates) -> tuple[int, int]:
    """(creations, deletions) of one sync_job at `gates` on a Job and pods with these counts."""
    job = model_job(
        values["completions"] if values["has_completions"] else None,
        values["parallelism"],
        values["succeeded"],
        values["only_failed"],
    )
    return sync_counts(job, values["active"], values["terminating"], values["max_per_sync"], gates)


Encoding = Callable[[zm.Counts], Any]


def first_disagreement(
    creations: Encoding, deletions: Encoding, gates: FeatureGates
) -> tuple[dict[str, Any], tuple[int, int], tuple[int, int]] | None:
    """The first point of the range where the compiled encoding and `sync_job` at `gates` differ (the
    counts, the model's and the encoding's (creations, deletions)), or None; counts the points."""
    created_by, deleted_by = zm.compiled(creations), zm.compiled(deletions)
    compared = 0
    for completions, parallelism, succeeded, only_failed in itertools.product(COMPLETIONS, PARALLELISM, SUCCEEDED, ONLY_FAILED):
        job = model_job(completions, parallelism, succeeded, only_failed)
        for active, terminating, max_per_sync in itertools.product(ACTIVE, TERMINATING, MAX_PER_SYNC):
            # Terminating pods count for creation only when only failed pods are replaced.
            symbolic = (completions is not None, completions or 0, parallelism, succeeded, active,
                        terminating if only_failed else 0, max_per_sync)
            expected = (created_by(*symbolic), deleted_by(*symbolic))
            actual = sync_counts(job, active, terminating, max_per_sync, gates)
            compared += 1
            if actual != expected:
                names = [field.name for field in attrs.fields(zm.Counts)]
                return {**dict(zip(names, symbolic, strict=True)), "only_failed": only_failed}, actual, expected
    assert compared == RANGE_SIZE
    return None


@RELEASES
def test_the_encoding_is_the_models_arithmetic_at_every_point_of_the_range(gates: FeatureGates) -> None:
    assert first_disagreement(zm.creations, zm.deletions, gates) is None


@RELEASES
def test_a_broken_encoding_disagrees_with_the_model_somewhere_in_the_range(gates: FeatureGates) -> None:
    # Forgetting the terminating pods: creates replacements the model does not (yet) create.
    def ignores_terminating(c: zm.Counts) -> Any:
        return zm.creations(attrs.evolve(c, terminating=z3.IntVal(0)))

    found = first_disagreement(ignores_terminating, zm.deletions, gates)
    assert found is not None
    counts_at, model, encoding = found
    assert counts_at["terminating"] > 0 and encoding[0] > model[0]


COMPARED_TERMS = (zm.creations, zm.deletions, zm.want_active, *(p.claim for p in zm.PROPERTIES))
COMPILED_TERMS = [zm.compiled(encoding) for encoding in COMPARED_TERMS]


@settings(max_examples=max(20, settings().max_examples // 4))
@given(counts())
@example({"has_completions": True, "completions": 5, "parallelism": 2, "succeeded": 1, "active": 0, "terminating": 1, "max_per_sync": 4, "only_failed": True})
def test_the_compiled_terms_are_z3_s_own_evaluation(values: dict[str, Any]) -> None:
    """The compiled terms give what Z3 itself simplifies the substituted terms to."""
    symbolic = {k: v for k, v in values.items() if k != "only_failed"}
    for encoding, compiled in zip(COMPARED_TERMS, COMPILED_TERMS, strict=True):
        assert compiled(*symbolic.values()) == zm.evaluate(encoding, symbolic)


def test_a_term_outside_the_compiled_operators_is_refused() -> None:
    x = z3.Int("x")
    with pytest.raises(ValueError, match="cannot compile"):
        compile_term(x / 2, [x])
    with pytest.raises(ValueError, match="not among the inputs"):
        compile_term(x + z3.Int("y"), [x])
