"""Suite `job-scenario`: a Job's life in a cluster with no kubelet (FORMAT.md), through jobmodel.simulation.scenario."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jobmodel.simulation.scenario import CASE_KEYS, run_scenario

EXPECT_KEYS = None  # its `expect`s are steps', checked by the scenario
__all__ = ["CASE_KEYS", "EXPECT_KEYS", "compare", "model_outcome"]


def model_outcome(case: Mapping[str, Any]) -> dict[str, Any]:
    """Run every step; the outcome lists the differences of the steps (empty: the scenario passed)."""
    return {"differences": run_scenario(case)}


def compare(case: Mapping[str, Any], outcome: Mapping[str, Any]) -> list[str]:
    """A scenario's checks are its `expect` steps: the outcome already holds their differences."""
    return list(outcome.get("differences", []))
