"""Paths into JSON values (tuples of keys and indexes), for tests that change a value somewhere
inside a case or a message."""

from __future__ import annotations

from typing import Any

Path_ = tuple[str | int, ...]


def paths(value: Any, at: Path_ = ()) -> list[Path_]:
    """Every path into a JSON value (the root left out), parents before children."""
    out: list[Path_] = []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in items:
        out.append((*at, key))
        out.extend(paths(child, (*at, key)))
    return out


def get_at(value: Any, path: Path_) -> Any:
    for key in path:
        value = value[key]
    return value
