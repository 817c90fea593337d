"""Tests of the generators (jobmodel.strategies), and the one way they draw samples."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st


def drawn(strategy: st.SearchStrategy[Any], count: int, *, derandomize: bool = False) -> list[Any]:
    """`count` values of `strategy`, drawn as a test draws them: from the run's seed, or, with
    `derandomize`, the same in every run (where a rare draw must not depend on the seed)."""
    out: list[Any] = []

    @settings(max_examples=count, phases=[Phase.generate], database=None, deadline=None, suppress_health_check=list(HealthCheck), derandomize=derandomize)
    @given(strategy)
    def collect(value: Any) -> None:
        out.append(value)

    collect()
    return out
