"""Benchmark: the explorer's states per second and the Hypothesis machine's steps per second.

    .venv/bin/python benchmarks/bench_explorer.py

Fixed configuration: a NonIndexed Job (parallelism 2, completions 2, backoffLimit 1) with one pod
failure and one lagging-cache sync allowed, explored to exhaustion. The baseline, measured in
the same run, is the same explorer without symmetry reduction (every naming of the pods is a
separate state). Ratios are printed against it: the time to explore every reachable behaviour
is what matters, so the first ratio compares wall time; the second the raw states per second.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from jobmodel.checkers.explorer import ExploreResult, explore
from jobmodel.checkers.job import CheckConfig
from jobmodel.checkers.machines import state_machine
from jobmodel.checkers.trace import StepRecord
from jobmodel.frozen import freeze
from jobmodel.invariants import catalogue
from jobmodel.transitions.job_environment import Budget

MANIFEST = {
    "apiVersion": "batch/v1",
    "kind": "Job",
    "metadata": {"name": "bench", "namespace": "default"},
    "spec": {
        "parallelism": 2,
        "completions": 2,
        "backoffLimit": 1,
        "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "main", "image": "busybox"}]}},
    },
}
BUDGET = Budget(failures=1, stale=1)
DEPTH = 60
MACHINE_RUNS, MACHINE_STEPS = 30, 25


def run_explorer(symmetry: bool) -> ExploreResult:
    catalogue.forget_cached_checks()  # each run starts cold
    return explore(CheckConfig(freeze(MANIFEST), BUDGET, symmetry=symmetry).system(), DEPTH)


def run_machine() -> tuple[int, float]:
    """Steps run and seconds taken by the Hypothesis machine on the same configuration."""
    steps: list[StepRecord] = []
    machine = state_machine(CheckConfig(freeze(MANIFEST), BUDGET).system(), on_step=steps.append)
    started = time.perf_counter()
    run_state_machine_as_test(
        machine,
        settings=settings(
            max_examples=MACHINE_RUNS,
            stateful_step_count=MACHINE_STEPS,
            derandomize=True,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        ),
    )
    return len(steps), time.perf_counter() - started


def main() -> int:
    print(f"configuration: parallelism 2, completions 2, backoffLimit 1; budget {BUDGET}")
    baseline = run_explorer(symmetry=False)
    reduced = run_explorer(symmetry=True)
    for name, result in (("baseline (no symmetry)", baseline), ("explorer (symmetry)", reduced)):
        scope = "exhausted" if result.exhausted else f"depth {result.depth}"
        print(
            f"{name:<24} {result.states:>6} states {result.transitions:>6} transitions "
            f"{result.seconds:7.2f}s {result.states_per_second:8.0f} states/s ({scope})"
        )
    print(f"wall-time ratio baseline/explorer: {baseline.seconds / reduced.seconds:.2f}x")
    print(f"states ratio baseline/explorer:    {baseline.states / reduced.states:.2f}x")
    print(f"rate ratio explorer/baseline:      {reduced.states_per_second / baseline.states_per_second:.2f}x")
    steps, seconds = run_machine()
    print(f"hypothesis machine: {steps} steps in {seconds:.2f}s: {steps / seconds:.0f} steps/s")
    print(f"steps/s relative to explorer transitions/s: {steps / seconds / (reduced.transitions / reduced.seconds):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
