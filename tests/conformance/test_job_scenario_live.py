"""The `job-scenario` vectors (the shared ones and the project's extra ones) through the real control
plane (`conformance --engine live`).

Each case runs against the real kube-apiserver and Job controller and must pass, judged by the
model's own comparison; or it is one the model itself shows to need a clock that stands still
(unsupported, with that reason: jobmodel/simulation/live_scenario.py). Each case's recorded trace
must then pass `live check`: every status the real controller wrote is one the model reaches,
and the catalogue's invariants hold on every observed state.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jobmodel.adapters.controlplane import ControlPlane
from jobmodel.adapters.live import read_trace
from jobmodel.checkers.live_trace import check_trace
from jobmodel.conformance.engines import ModelEngine
from jobmodel.conformance.runner import run_case
from jobmodel.features import VECTOR_DEFAULT_RELEASE
from jobmodel.simulation.live_scenario import (
    LiveScenarioRunner,
    NotFaithful,
    model_variant_reason,
    unsupported_reason,
)
from tests.conformance.test_job_scenario_vectors import CASES, EXTRA_CASES


def _run_live(
    cases: list[dict[str, Any]], plane: ControlPlane, second: ControlPlane, traces: Path
) -> dict[str, tuple[Any, Path | None]]:
    """Every case run once on the two control planes, several at a time (run_many, as
    `conformance --engine live` does): case name -> (differences or exception, its trace)."""
    runner = LiveScenarioRunner(plane.kubeconfig, plane, traces)
    outcomes = runner.run_many(cases, more_planes=[second])
    by_case: dict[str, Path] = {}
    for trace in traces.iterdir():
        header, _ = read_trace(trace)
        by_case[str(header.get("case"))] = trace
    return {str(c["name"]): (o, by_case.get(str(c["name"]))) for c, o in zip(cases, outcomes, strict=True)}


@pytest.fixture(scope="module")
def second_plane(session_plane: ControlPlane) -> Iterator[ControlPlane]:
    """A second control plane for this module's cases (the session's one built the binaries)."""
    plane = ControlPlane.start(release=session_plane.release)
    try:
        yield plane
    finally:
        plane.remove()


@pytest.fixture(scope="module")
def live_outcomes(
    session_plane: ControlPlane, second_plane: ControlPlane, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, tuple[Any, Path | None]]:
    """The shared cases on the session's control plane and a second one."""
    return _run_live(CASES, session_plane, second_plane, tmp_path_factory.mktemp("traces"))


@pytest.fixture(scope="module")
def extra_live_outcomes(
    session_plane: ControlPlane, second_plane: ControlPlane, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, tuple[Any, Path | None]]:
    """The extra cases (tests/conformance/vectors/job_scenario_extra.json) on the two control planes."""
    return _run_live(EXTRA_CASES, session_plane, second_plane, tmp_path_factory.mktemp("extra-traces"))


def _assert_passes_for_real(
    case: dict[str, Any], outcome: Any, trace: Path | None, *, writes: bool = True
) -> None:
    """The case passed on the real control plane and its trace passes `live check`; `writes`: the
    real controller wrote the Job's status at least once (false where the case is that it must not)."""
    if isinstance(outcome, NotFaithful):
        # Only where the model itself shows the case depends on the clock standing still.
        assert run_case("job-scenario", case, ModelEngine()) == ()
        assert "clock that stands still" in str(outcome) and "the model's own outcome differs" in str(outcome)
        pytest.skip(f"unsupported on a real cluster: {outcome}")
    if isinstance(outcome, Exception):
        raise outcome
    assert outcome == [], "\n".join(outcome)
    assert trace is not None
    header, records = read_trace(trace)
    result = check_trace(header, records)
    assert (result.status_writes > 0) == writes, result.status_writes
    assert result.ok, "\n".join([d.describe() for d in result.divergences] + [str(v) for _, v in result.violations])


@pytest.mark.live
@pytest.mark.parametrize("case", CASES, ids=[str(c["name"]) for c in CASES])
def test_job_scenario_vector_on_the_real_control_plane(
    case: dict[str, Any], live_outcomes: dict[str, tuple[Any, Path | None]], conformance_dir: Path
) -> None:
    outcome, trace = live_outcomes[str(case["name"])]
    _assert_passes_for_real(case, outcome, trace)


@pytest.mark.live
@pytest.mark.parametrize("case", EXTRA_CASES, ids=[str(c["name"]) for c in EXTRA_CASES])
def test_extra_job_scenario_vector_on_the_real_control_plane(
    case: dict[str, Any], extra_live_outcomes: dict[str, tuple[Any, Path | None]]
) -> None:
    outcome, trace = extra_live_outcomes[str(case["name"])]
    # TestManagedBy's "does not reconcile" cases: the built-in controller leaves the Job alone.
    writes = "does not reconcile" not in str(case["name"])
    _assert_passes_for_real(case, outcome, trace, writes=writes)


def test_most_vectors_can_run_for_real(conformance_dir: Path) -> None:
    """Unsupported is the exception: the clock check leaves at most a few cases out."""
    reasons = [unsupported_reason(c, release=VECTOR_DEFAULT_RELEASE) for c in CASES]
    unsupported = [r for r in reasons if r is not None]
    assert len(CASES) >= 40
    assert len(unsupported) <= len(CASES) // 10, unsupported


def test_a_case_inside_a_back_off_window_needs_a_clock_that_stands_still() -> None:
    case: dict[str, Any] = {
        "name": "back-off window",
        "start": "2024-06-01T12:00:00Z",
        "jobUid": "00000000-0000-4000-8000-000000000009",
        "controller": {"podFailureBackOffSeconds": 10},
        "job": {
            "apiVersion": "batch/v1",
            "kind": "Job",
            "metadata": {"name": "j", "namespace": "ns"},
            "spec": {"template": {"spec": {"containers": [{"name": "c", "image": "x"}], "restartPolicy": "Never"}}},
        },
        "steps": [
            {"do": "settle"},
            {"do": "setPods", "status": {"phase": "Failed"}},
            {"do": "settle"},
            {"do": "advance", "seconds": 9},
            {"do": "settle"},
            {"do": "expect", "podCount": [{"where": {"phase": ["Pending", "Running"]}, "count": 0}]},
        ],
    }
    assert run_case("job-scenario", case, ModelEngine()) == ()
    reason = model_variant_reason(case)
    assert reason is not None and "clock that stands still" in reason
    relaxed = {**case, "steps": [*case["steps"][:3], {"do": "advance", "seconds": 1}, *case["steps"][4:]]}
    assert model_variant_reason(relaxed) is None  # a second into a ten-second back-off: time to spare


def test_a_gate_the_release_locks_is_unsupported() -> None:
    case = {"features": {"ElasticIndexedJob": False}, "steps": []}
    reason = unsupported_reason(case, release="1.32")
    assert reason is not None and "v1.32 refuses --feature-gates=ElasticIndexedJob=false: feature is locked to true" in reason
    # At 1.37 JobManagedBy is locked on too, and a case of 1.37 runs only on a plane of 1.37.
    newer = {"kubeVersion": "1.37", "features": {"JobManagedBy": False}, "steps": []}
    assert "the control plane runs 1.32" in str(unsupported_reason(newer, release="1.32"))
    assert "v1.37 refuses --feature-gates=JobManagedBy=false: feature is locked to true" in str(unsupported_reason(newer, release="1.37"))
