"""JSON objects compared with what a vector or a script expects (FORMAT.md), as a list of readable differences."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

MISSING = object()
# A Job status's plain (non-pointer) fields upstream: absent means the zero value.
STATUS_ZERO_VALUES: dict[str, Any] = {"active": 0, "succeeded": 0, "failed": 0, "completedIndexes": ""}


def _show(value: Any) -> str:
    if value is MISSING:
        return "<absent>"
    return json.dumps(value, sort_keys=True)


def matches_absent(expected: Any) -> bool:
    """Whether an expectation holds of an absent value: `null`, or an object each of whose keys
    does (an absent object has no keys, FORMAT.md "Comparing a partial object")."""
    if expected is None:
        return True
    return isinstance(expected, Mapping) and all(matches_absent(v) for v in expected.values())


def subset_diff(expected: Any, actual: Any, path: str) -> list[str]:
    """Differences where `actual` does not contain `expected`: objects are compared as subsets
    (a key given as null must be absent), lists item by item (same length), scalars exactly.
    `actual` is MISSING (or null) where the object has no such value."""
    if actual is MISSING or (actual is None and expected is not None):
        return [] if matches_absent(expected) else [f"{path}: expected {_show(expected)}, got <absent>"]
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            return [f"{path}: expected an object {_show(expected)}, got {_show(actual)}"]
        out: list[str] = []
        for key, want in expected.items():
            sub = f"{path}.{key}" if path else str(key)
            got = actual.get(key, MISSING)
            if want is None:
                if got is not MISSING and got is not None:
                    out.append(f"{sub}: expected absent, got {_show(got)}")
                continue
            out.extend(subset_diff(want, got, sub))
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: expected {_show(expected)}, got {_show(actual)}"]
        return [d for i, (w, g) in enumerate(zip(expected, actual, strict=True)) for d in subset_diff(w, g, f"{path}[{i}]")]
    return exact_diff(expected, actual, path)


def status_diff(expected: Mapping[str, Any], actual: Mapping[str, Any], path: str) -> list[str]:
    """Status subset comparison with upstream's zero values for plain fields and absent empty lists."""
    out: list[str] = []
    for key, want in expected.items():
        sub = f"{path}.{key}"
        if want is None:
            if key in actual:
                out.append(f"{sub}: expected absent, got {actual[key]!r}")
            continue
        got = actual.get(key, STATUS_ZERO_VALUES.get(key, MISSING))
        if isinstance(want, Mapping) and isinstance(got, Mapping):
            # Empty lists are left out on the wire (omitempty).
            got = {**{k: [] for k, v in want.items() if v == []}, **got}
        out.extend(subset_diff(want, got, sub))
    return out


def exact_diff(expected: Any, actual: Any, path: str) -> list[str]:
    """Differences where `actual` is not exactly `expected` (numbers compared by value)."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        same = expected is actual or (isinstance(expected, bool) and isinstance(actual, bool) and expected == actual)
    elif isinstance(expected, int | float) and isinstance(actual, int | float):
        same = abs(expected - actual) < 1e-6
    else:
        same = expected == actual
    return [] if same else [f"{path}: expected {_show(expected)}, got {_show(actual)}"]


def list_subset_diff(expected: list[Any], actual: list[Any], path: str) -> list[str]:
    """A list of partial objects: same length, each item compared as a subset."""
    if len(expected) != len(actual):
        return [f"{path}: expected {len(expected)} items, got {len(actual)}: {_show(actual)}"]
    return [d for i, (w, g) in enumerate(zip(expected, actual, strict=True)) for d in subset_diff(w, g, f"{path}[{i}]")]


def condition_key(cond: Mapping[str, Any], with_message: bool) -> tuple[str, ...]:
    key = (str(cond.get("type", "")), str(cond.get("status", "")), str(cond.get("reason", "")))
    return (*key, str(cond.get("message", ""))) if with_message else key


def _matches(want: Mapping[str, Any], got: Mapping[str, Any]) -> bool:
    for field in ("type", "status", "reason", "message"):
        if field in want and want[field] != got.get(field, ""):
            return False
    return True


def conditions_diff(expected: list[Mapping[str, Any]], actual: list[Mapping[str, Any]], path: str, exact: bool) -> list[str]:
    """Conditions compared on type, status, reason (and message where given), order free.
    `exact`: the sets must be equal; otherwise every expected condition must be present."""
    remaining = list(actual)
    out: list[str] = []
    for want in expected:
        for i, got in enumerate(remaining):
            if _matches(want, got):
                del remaining[i]
                break
        else:
            out.append(f"{path}: missing {_show(dict(want))}")
    if exact and remaining:
        out.extend(f"{path}: unexpected {_show(_brief(c))}" for c in remaining)
    return out


def _brief(cond: Mapping[str, Any]) -> dict[str, Any]:
    return {k: cond[k] for k in ("type", "status", "reason", "message") if k in cond}


def names_diff(expected: Any, actual: Any, path: str) -> list[str]:
    """Names compared as a multiset: the same names, each as often, in any order."""
    if not isinstance(actual, list):
        return [f"{path}: expected {_show(expected)}, got {_show(MISSING if actual is None else actual)}"]
    if not isinstance(expected, list) or sorted(map(str, expected)) != sorted(map(str, actual)):
        return [f"{path}: expected {_show(expected)} (in any order), got {_show(actual)}"]
    return []
