"""tests.strategies.drawn: a derandomized draw is the same whatever modules the process has
loaded (Hypothesis draws now and then a literal of the loaded modules' code)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest
from hypothesis import strategies as st

from tests.strategies import drawn


def test_a_derandomized_draw_does_not_depend_on_the_modules_loaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = drawn(st.integers(0, 1000), 300, derandomize=True)
    # A module of the project's own kind (outside site-packages) with literals in that range.
    (tmp_path / "jobmodel_literals_probe.py").write_text("LITERALS = [17, 123, 456, 789, 999, 314, 271]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("jobmodel_literals_probe")
    try:
        assert drawn(st.integers(0, 1000), 300, derandomize=True) == before
    finally:
        sys.modules.pop("jobmodel_literals_probe", None)
