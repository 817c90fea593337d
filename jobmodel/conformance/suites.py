"""The registry of conformance suites.

A suite module provides two functions:

- `model_outcome(case) -> dict`: run the case's inputs through the model and report what
  happened in the shape the case's `expect` uses (every key `expect` may name);
- `compare(case, outcome) -> list[str]`: the differences between `expect` and an outcome
  (empty when the case passes), whichever engine produced the outcome.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any, Protocol, cast

import attrs

from jobmodel.api.schema import check_known, obj
from jobmodel.errors import InputError, describe
from jobmodel.features import (
    VECTOR_DEFAULT_RELEASE,
    FeatureGates,
    defaults_at_emulation,
    emulation_version,
    gate_stage,
    parse_kube_version,
    release_defaults,
    vector_gates,
)

__all__ = ["VECTOR_DEFAULT_RELEASE", "case_at", "case_at_release", "case_features", "case_gates", "suite_module"]


# The keys every case may have (FORMAT.md's common keys; `kubeVersion`, the release it runs at).
COMMON_CASE_KEYS: frozenset[str] = frozenset({"name", "origin", "now", "features", "kubeVersion", "expect"})


class SuiteModule(Protocol):
    # The keys a case of the suite may have, and those its `expect` may (None: it has no `expect`).
    CASE_KEYS: frozenset[str]
    EXPECT_KEYS: frozenset[str] | None

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


def check_case(module: SuiteModule, case: Mapping[str, Any]) -> None:
    """What every engine's run of a case needs first: no unknown key in the case or its
    `expect` (a misspelt key would otherwise check nothing), a release and gates that exist."""
    check_known(case, module.CASE_KEYS, "case")
    if module.EXPECT_KEYS is not None:
        check_known(obj(case.get("expect"), "expect"), module.EXPECT_KEYS, "expect")
    case_gates(case)


def case_gates(case: Mapping[str, Any]) -> FeatureGates:
    """The gates a case runs with (jobmodel.features.vector_gates)."""
    return vector_gates(case.get("kubeVersion"), case.get("features"))


def gate_settable(release: str, name: str, value: bool, *, emulation: bool = False) -> bool:
    """Whether the release lets a gate be set to `value` (registered, not locked the other way;
    with `emulation`, also a locked gate at an earlier emulation version that still has it settable)."""
    return gates_settable(release, {name: value}, emulation=emulation)


def gates_settable(release: str, features: Mapping[str, bool], *, emulation: bool = False) -> bool:
    """Whether the release lets these gates be set together."""
    try:
        FeatureGates.for_release(parse_kube_version(release, "kubeVersion")).with_overrides(features, emulation_fallback=emulation)
    except InputError:
        return False
    return True


def case_at_release(case: Mapping[str, Any], release: str, *, emulation: bool = False) -> dict[str, Any]:
    """A generated case put at a release: `kubeVersion` set, and the gates it asks for that the
    release cannot set dropped (a removed gate's code is always on; a locked gate keeps its value).
    With `emulation`, a gate the release locked may be turned off as upstream's tests do it (at
    the newest earlier emulation version that has it settable), when the case's other gates allow that."""
    out = {**case, "kubeVersion": release}
    features = case.get("features")
    if isinstance(features, Mapping):
        out["features"] = {k: v for k, v in features.items() if gate_settable(release, k, bool(v))}
        if emulation:
            emulated = {k: bool(v) for k, v in features.items() if gate_settable(release, k, bool(v), emulation=True)}
            if gates_settable(release, emulated, emulation=True):
                out["features"] = emulated
        if not out["features"]:
            del out["features"]
    return out


def check_case_strings(case: Mapping[str, Any]) -> None:
    """The API suites' case fields the harness decodes as strings (apiCase: operation, and
    subresource, a *string) refuse another JSON type, as encoding/json does, whatever the
    operation."""
    for key in ("operation", "subresource"):
        if case.get(key) is not None and not isinstance(case[key], str):
            raise InputError(key, f"expected a string, got {describe(case[key])}")


def check_names_unique(keys: Sequence[tuple[str, str]], path: str, kind: str) -> None:
    """A cluster holds one object of a kind, namespace and name (an informer's store is keyed by
    them): a case listing two at `path` describes no cluster, and upstream's store would keep
    only the last."""
    first: dict[tuple[str, str], int] = {}
    for i, key in enumerate(keys):
        if key in first:
            raise InputError(f"{path}[{i}].metadata.name", f"{key[1]!r} repeats {path}[{first[key]}] (a namespace holds one {kind} of a name)")
        first[key] = i


def case_at(gates: FeatureGates, now: str, **inputs: Any) -> dict[str, Any]:
    """A case's inputs at `gates`' release and `now`: `kubeVersion`, `now`, `inputs`, and
    `features` when a gate differs from its release's default."""
    features = case_features(gates)
    return {"kubeVersion": f"1.{gates.release}", "now": now, **inputs, **({"features": features} if features else {})}


def case_features(gates: FeatureGates) -> dict[str, bool]:
    """A case's `features` for `gates`: the gates whose values differ from their release's
    defaults; when some of them are locked in the release (set at an earlier emulation version),
    those and the gates whose values differ from their defaults at that version."""
    values = {f.name: getattr(gates, f.name) for f in attrs.fields(FeatureGates) if f.name != "release"}
    defaults = release_defaults(gates.release)
    locked = {n: v for n, v in values.items() if v != defaults[n] and (st := gate_stage(n, gates.release)) is not None and st.locked}
    if locked:
        defaults = defaults_at_emulation(gates.release, emulation_version(gates.release, locked))
    return {n: v for n, v in values.items() if n in locked or v != defaults[n]}
