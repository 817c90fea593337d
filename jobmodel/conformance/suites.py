"""The registry of conformance suites.

A suite module provides two functions:

- `model_outcome(case) -> dict`: run the case's inputs through the model and report what
  happened in the shape the case's `expect` uses (every key `expect` may name);
- `compare(case, outcome) -> list[str]`: the differences between `expect` and an outcome
  (empty when the case passes), whichever engine produced the outcome.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any, Protocol, cast

from jobmodel.features import VECTOR_DEFAULT_RELEASE, FeatureGates, vector_gates

__all__ = ["VECTOR_DEFAULT_RELEASE", "case_gates", "suite_module"]


class SuiteModule(Protocol):
    def model_outcome(self, case: Mapping[str, Any]) -> dict[str, Any]: ...

    def compare(self, case: Mapping[str, Any], outcome: Mapping[str, Any]) -> list[str]: ...


# suite name -> module implementing it; a suite missing here is reported as not implemented.
SUITES: dict[str, str] = {
    "job-sync": "jobmodel.conformance.job_sync",
    "job-scenario": "jobmodel.conformance.job_scenario",
    "validation": "jobmodel.conformance.validation",
    "defaulting": "jobmodel.conformance.defaulting",
    "schedule": "jobmodel.conformance.schedule",
    "cronjob-sync": "jobmodel.conformance.cronjob_sync",
}


def suite_module(suite: str) -> SuiteModule | None:
    """The module of a suite, or None when the model does not implement the suite yet."""
    name = SUITES.get(suite)
    if name is None:
        return None
    module: ModuleType = importlib.import_module(name)
    return cast(SuiteModule, module)



def case_gates(case: Mapping[str, Any]) -> FeatureGates:
    """The gates a case runs with (jobmodel.features.vector_gates)."""
    return vector_gates(case.get("kubeVersion"), case.get("features"))
