"""Tests of the generators (jobmodel.strategies), and the one way they draw samples."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
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

    with without_local_constants() if derandomize else contextlib.nullcontext():
        collect()
    return out


@contextlib.contextmanager
def without_local_constants() -> Iterator[None]:
    """Hypothesis (from 6.131) now and then draws a literal of the project's loaded modules
    instead of a random value, so the draws of one seed depend on which modules the process has
    imported (a whole-suite worker draws other cases than this test alone). While drawing, that
    pool is empty; where Hypothesis has no such pool, nothing changes."""
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants
    except ImportError:  # pragma: no cover - another Hypothesis
        yield
        return
    local, cache = getattr(providers, "_get_local_constants", None), getattr(providers, "CONSTANTS_CACHE", None)
    if local is None or cache is None:  # pragma: no cover - another Hypothesis
        yield
        return
    cache.cache.clear()  # the allowed constants per draw, computed from the pool
    providers._get_local_constants = Constants
    try:
        yield
    finally:
        providers._get_local_constants = local
        cache.cache.clear()
