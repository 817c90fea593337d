"""jobmodel.strategies.scenario: generated job-scenario cases hold of the model (its predictions
are its own), their expectations can fail, and they reach the moves and outcomes a comparison
with another cluster needs."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from jobmodel.simulation.scenario import run_scenario
from jobmodel.strategies.scenario import scenario_cases
from tests.strategies import drawn

SAMPLES = 150
REACH_SAMPLES = 300  # 200 derandomized draws reach no FailJob end


def generated_cases(count: int) -> list[dict[str, Any]]:
    return drawn(scenario_cases(), count)


def test_generated_cases_pass_the_model_and_their_expectations_can_fail() -> None:
    cases = generated_cases(SAMPLES)
    for case in cases:
        assert run_scenario(case) == [], case
        # Each expectation is a claim: one expected count off by one is a difference.
        changed = copy.deepcopy(case)
        expect = next(s for s in reversed(changed["steps"]) if s["do"] == "expect")
        expect["podCount"][0]["count"] += 1
        assert run_scenario(changed), changed


def test_generated_cases_reach_every_move_and_the_jobs_ends() -> None:
    # Derandomized: whether a rarer end is reached must not depend on the run's seed.
    cases = drawn(scenario_cases(), REACH_SAMPLES, derandomize=True)
    moves = Counter(s["do"] for c in cases for s in c["steps"])
    assert {"setPods", "deletePods", "advance", "updateJob", "deleteJob"} <= set(moves)
    ends = Counter(
        cond["reason"]
        for c in cases
        for s in c["steps"]
        if s["do"] == "expect"
        for cond in s.get("conditions", [])
        if cond["type"] in ("Complete", "Failed")
    )
    # Jobs that complete, that meet a success policy, that exhaust their back-off and that a pod
    # failure policy fails; indexes that exhaust theirs.
    assert {"CompletionsReached", "SuccessPolicy", "BackoffLimitExceeded", "PodFailurePolicy"} <= set(ends), ends
    assert any(s["status"]["failedIndexes"] for c in cases for s in c["steps"] if s["do"] == "expect" and "status" in s)
    statuses = Counter(s["status"]["phase"] for c in cases for s in c["steps"] if s["do"] == "setPods" and "phase" in s["status"])
    assert {"Running", "Succeeded", "Failed"} <= set(statuses)
