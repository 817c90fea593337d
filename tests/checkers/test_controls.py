"""Controls for the broken-variant tests: the configuration each broken variant is caught in is
one the model itself passes, with the explorer to the same depth and with the Hypothesis machine
under the same settings, so a caught variant is caught for what it breaks and not for what the
configuration does to any implementation."""

from __future__ import annotations

import pytest
from hypothesis.stateful import run_state_machine_as_test

from jobmodel.checkers.explorer import explore
from jobmodel.checkers.job import DEFAULT_IMPL
from jobmodel.checkers.machines import state_machine
from tests.checkers.configs import BROKEN_CASES, config
from tests.checkers.test_machines import BROKEN_SETTINGS


@pytest.mark.parametrize("name", sorted(BROKEN_CASES))
def test_the_model_passes_each_broken_variants_configuration(name: str) -> None:
    manifest, budget, _invariant = BROKEN_CASES[name]
    cfg = config(manifest, impl=DEFAULT_IMPL, **budget)
    result = explore(cfg.system(), depth=8)
    assert result.counterexample is None, result.counterexample
    run_state_machine_as_test(state_machine(cfg.system()), settings=BROKEN_SETTINGS)
