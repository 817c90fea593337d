"""Z3 proofs of manageJob's pod-count arithmetic (jobmodel/checkers/proofs/manage_job.py), and the
check that the encoding is the model's own arithmetic, on the same inputs as `sync_job`."""

from __future__ import annotations

from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from jobmodel.actions import CreatePod, DeletePod
from jobmodel.checkers.proofs import manage_job as zm
from jobmodel.state import JobControllerTunables, JobSyncInput
from jobmodel.timeutil import parse_time
from jobmodel.transitions.sync_job import sync_job
from tests.builders import make_job, make_pod

NOW = parse_time("2024-06-01T12:00:00Z", "now")


def test_every_property_is_proved() -> None:
    results = zm.prove_all()
    assert [r.name for r in results if not r.proved] == []
    assert len(results) == len(zm.PROPERTIES) >= 5


def test_a_broken_encoding_gets_a_counterexample() -> None:
    # Creating up to the remaining completions, forgetting parallelism: the proof must fail.
    def broken(c: zm.Counts) -> Any:
        diff = zm.z3.If(c.has_completions, c.completions - c.succeeded, c.parallelism) - c.active
        created = zm.z3.If(diff > 0, diff, 0)
        return c.active + created <= zm._max(c.active, c.parallelism)

    result = zm.prove(zm.PROPERTIES[0], broken)
    assert not result.proved
    assert result.counterexample is not None
    cex = result.counterexample
    assert cex["has_completions"] and cex["completions"] - cex["succeeded"] > cex["parallelism"]


@st.composite
def counts(draw: st.DrawFn) -> dict[str, Any]:
    has_completions = draw(st.booleans())
    completions = draw(st.integers(0, 6))
    return {
        "has_completions": has_completions,
        "completions": completions if has_completions else 0,
        "parallelism": draw(st.integers(0, 6)),
        "succeeded": draw(st.integers(0, 7)),
        "active": draw(st.integers(0, 6)),
        "terminating": draw(st.integers(0, 3)),
        "max_per_sync": draw(st.integers(1, 4)),
        "only_failed": draw(st.booleans()),
    }


def run_model(values: dict[str, Any]) -> tuple[int, int]:
    """(creations, deletions) of one sync_job on a Job and pods with these counts."""
    job = make_job(
        completions=values["completions"] if values["has_completions"] else None,
        parallelism=values["parallelism"],
        podReplacementPolicy="Failed" if values["only_failed"] else "TerminatingOrFailed",
        status={"succeeded": values["succeeded"], "startTime": "2024-06-01T11:00:00Z"},
    )
    pods = [make_pod(f"active-{i}") for i in range(values["active"])]
    # Terminating pods without the tracking finalizer: not active, not newly failed.
    pods += [make_pod(f"going-{i}", deleted="2024-06-01T11:59:00Z", finalizer=False) for i in range(values["terminating"])]
    result = sync_job(
        JobSyncInput(
            job=job,
            pods=tuple(pods),
            now=NOW,
            tunables=JobControllerTunables(max_pod_create_delete_per_sync=values["max_per_sync"]),
        )
    )
    created = sum(1 for a in result.actions if isinstance(a, CreatePod))
    deleted = sum(1 for a in result.actions if isinstance(a, DeletePod))
    return created, deleted


@given(counts())
@example({"has_completions": True, "completions": 5, "parallelism": 2, "succeeded": 1, "active": 0, "terminating": 1, "max_per_sync": 4, "only_failed": True})
@example({"has_completions": False, "completions": 0, "parallelism": 3, "succeeded": 1, "active": 1, "terminating": 0, "max_per_sync": 2, "only_failed": False})
def test_encoding_is_the_models_arithmetic(values: dict[str, Any]) -> None:
    symbolic = {k: v for k, v in values.items() if k != "only_failed"}
    symbolic["terminating"] = values["terminating"] if values["only_failed"] else 0
    assert run_model(values) == (zm.evaluate(zm.creations, symbolic), zm.evaluate(zm.deletions, symbolic))
