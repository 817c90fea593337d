"""`jobmodel simulate`'s default script and scripts (jobmodel/simulation/job.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from jobmodel.errors import InputError
from jobmodel.simulation.job import (
    PodOutcome,
    condition_marks,
    parse_failure,
    parse_slow,
    pod_segments,
    simulate_default,
    simulate_script,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "specs" / "examples"


def manifest(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = yaml.safe_load((EXAMPLES / name).read_text())
    return doc


def finished_condition(timeline: Any) -> tuple[str, str]:
    job = timeline.final_job()
    assert job is not None
    (cond,) = [c for c in job.status.conditions if c.type in ("Complete", "Failed") and c.status == "True"]
    return cond.type, cond.reason


def test_pi_completes() -> None:
    timeline = simulate_default(manifest("pi.yaml"))
    assert finished_condition(timeline) == ("Complete", "CompletionsReached")
    job = timeline.final_job()
    assert job is not None and (job.status.succeeded, job.status.failed) == (1, 0)


def test_pi_failing_beyond_the_backoff_limit_fails() -> None:
    timeline = simulate_default(manifest("pi.yaml"), [parse_failure("all")])
    assert finished_condition(timeline) == ("Failed", "BackoffLimitExceeded")
    job = timeline.final_job()
    # backoffLimit 4: the fifth failure exceeds it.
    assert job is not None and job.status.failed == 5


def test_pod_recreation_waits_for_the_backoff() -> None:
    timeline = simulate_default(manifest("pi.yaml"), [parse_failure("pod=0")], run_seconds=5)
    assert finished_condition(timeline) == ("Complete", "CompletionsReached")
    # The replacement pod is created only after the 10 s back-off.
    creations = [e for e in timeline.entries if e.actor == "controller" and "create 1 pod" in e.what]
    assert len(creations) == 2
    assert (creations[1].time - creations[0].time).total_seconds() >= 5 + 10


def test_indexed_job_completes_every_index() -> None:
    timeline = simulate_default(manifest("indexed.yaml"), [parse_failure("index=3,times=1")])
    assert finished_condition(timeline) == ("Complete", "CompletionsReached")
    job = timeline.final_job()
    assert job is not None and job.status.completed_indexes == "0-4"
    assert job.status.failed == 1


def test_parse_failure_forms() -> None:
    assert parse_failure("index=2,exit=42") == PodOutcome(index=2, exit_code=42)
    assert parse_failure("pod=1") == PodOutcome(pod=1, times=1)
    assert parse_failure("all,condition=DisruptionTarget,times=3") == PodOutcome(condition="DisruptionTarget", times=3)
    assert parse_slow("index=1,seconds=90") == PodOutcome(index=1, succeed=True, seconds=90)
    for bad in ("index=x", "color=red", "index=1,pod=2", "nonsense"):
        with pytest.raises(InputError):
            parse_failure(bad)
    with pytest.raises(InputError, match="seconds"):
        parse_slow("index=1")


def test_deadline_wakes_the_controller_between_pod_finishes() -> None:
    timeline = simulate_default(manifest("active-deadline.yaml"))
    assert finished_condition(timeline) == ("Failed", "DeadlineExceeded")
    job = timeline.final_job()
    assert job is not None
    # The second pod is deleted at the 45 s deadline, 15 s into its 30 s run.
    assert (job.status.succeeded, job.status.failed) == (1, 1)
    assert (timeline.entries[-1].time - timeline.start).total_seconds() == 45


def test_success_policy_terminates_the_remaining_workers() -> None:
    slow_workers = [parse_slow(f"index={i},seconds=100") for i in (1, 2, 3)]
    timeline = simulate_default(manifest("success-policy.yaml"), slow_workers, run_seconds=30)
    assert finished_condition(timeline) == ("Complete", "SuccessPolicy")
    job = timeline.final_job()
    assert job is not None and (job.status.succeeded, job.status.failed) == (1, 0)
    assert (timeline.entries[-1].time - timeline.start).total_seconds() == 30
    assert [p.name for p in timeline.final.cluster.pods] == ["leader-0"]  # the workers were deleted


def test_script_runs_steps_and_reports_failed_expectations() -> None:
    steps = [
        {"do": "settle"},
        {"do": "expect", "status": {"active": 1}},
        {"do": "setPods", "status": {"phase": "Succeeded"}},
        {"do": "settle"},
        {"do": "expect", "conditionsInclude": [{"type": "Complete", "status": "True"}]},
        {"do": "expect", "status": {"succeeded": 2}},
    ]
    timeline = simulate_script(manifest("pi.yaml"), steps)
    assert len(timeline.differences) == 1
    assert "succeeded: expected 2, got 1" in timeline.differences[0]


def test_invalid_manifest_is_rejected_with_field_errors() -> None:
    bad = manifest("pi.yaml")
    bad["spec"]["completions"] = -1
    with pytest.raises(InputError, match=r"spec\.completions"):
        simulate_default(bad)


def test_segments_follow_each_pods_phases() -> None:
    timeline = simulate_default(manifest("pi.yaml"), [parse_failure("pod=0")], run_seconds=20)
    segments = pod_segments(timeline)
    first = [s for s in segments if s.pod == "pi-0"]
    # The kubelet starts the pod the moment it is created: its Pending segment has no length.
    assert [s.phase for s in first] == ["Running", "Failed"]
    running = first[0]
    assert running.end - running.start == pytest.approx(20)
    assert {s.pod for s in segments} == {"pi-0", "pi-1"}


def test_condition_marks_are_where_conditions_turn_true() -> None:
    timeline = simulate_default(manifest("pi.yaml"), run_seconds=20)
    assert [c for _, c in condition_marks(timeline)] == ["SuccessCriteriaMet", "Complete"]
    assert all(t == pytest.approx(20) for t, _ in condition_marks(timeline))
