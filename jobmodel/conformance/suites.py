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

import attrs

from jobmodel.errors import InputError
from jobmodel.features import VECTOR_DEFAULT_RELEASE, FeatureGates, parse_kube_version, vector_gates

__all__ = ["VECTOR_DEFAULT_RELEASE", "case_at", "case_at_release", "case_features", "case_gates", "suite_module"]


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


def gate_settable(release: str, name: str, value: bool) -> bool:
    """Whether the release lets a gate be set to `value` (registered, not locked the other way)."""
    try:
        FeatureGates.for_release(parse_kube_version(release, "kubeVersion")).with_overrides({name: value}, emulation_fallback=False)
    except InputError:
        return False
    return True


def case_at_release(case: Mapping[str, Any], release: str) -> dict[str, Any]:
    """A generated case put at a release: `kubeVersion` set, and the gates it asks for that the
    release cannot set dropped (a removed gate's code is always on; a locked gate keeps its value)."""
    out = {**case, "kubeVersion": release}
    features = case.get("features")
    if isinstance(features, Mapping):
        out["features"] = {k: v for k, v in features.items() if gate_settable(release, k, bool(v))}
        if not out["features"]:
            del out["features"]
    return out


def case_at(gates: FeatureGates, now: str, **inputs: Any) -> dict[str, Any]:
    """A case's inputs at `gates`' release and `now`: `kubeVersion`, `now`, `inputs`, and
    `features` when a gate differs from its release's default."""
    features = case_features(gates)
    return {"kubeVersion": f"1.{gates.release}", "now": now, **inputs, **({"features": features} if features else {})}


def case_features(gates: FeatureGates) -> dict[str, bool]:
    """A case's `features` for `gates`: the gates whose values differ from their release's defaults."""
    defaults = FeatureGates.for_release(gates.release)
    return {
        name: value
        for name, value in ((f.name, getattr(gates, f.name)) for f in attrs.fields(FeatureGates) if f.name != "release")
        if value != getattr(defaults, name)
    }
