"""Mutation tests of the Job and CronJob catalogues: every invariant has a realistic broken
controller (tests/checkers/broken/) that the explorer catches with that invariant alone, and, for
most, with no other; the model passes the same configuration (the control)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from jobmodel.checkers.explorer import explore
from jobmodel.checkers.system import System
from jobmodel.checkers.trace import run_moves
from jobmodel.invariants.catalogue import LAWS
from jobmodel.invariants.cron import CRON_LAWS
from jobmodel.invariants.laws import Laws
from tests.checkers.broken.mutants import Mutant
from tests.checkers.configs import ALL_MUTATION_CASES as MUTATION_CASES
from tests.checkers.configs import mutation_config

CASES = sorted(MUTATION_CASES)


@pytest.mark.parametrize(("laws", "cron"), [(LAWS, False), (CRON_LAWS, True)], ids=["Job", "CronJob"])
def test_every_invariant_has_a_broken_variant(laws: Laws[Any, Any], cron: bool) -> None:
    caught = {case.invariant for case in MUTATION_CASES.values() if case.cron == cron}
    assert set(laws.names()) - caught == set()
    assert caught <= set(laws.names())


def restricted(system: System[Any, Any], keep: Any) -> System[Any, Any]:
    return attrs.evolve(system, laws=system.laws.restricted(keep))


@pytest.mark.parametrize("name", CASES)
def test_the_broken_variant_is_caught_by_its_invariant_and_the_model_is_not(name: str) -> None:
    case = MUTATION_CASES[name]
    system = mutation_config(name).system()
    alone = explore(restricted(system, lambda n: n == case.invariant), depth=case.depth)
    assert alone.counterexample is not None, f"{case.invariant} misses {name}"
    # The trace replays on the full catalogue to a violation of that invariant at its last step.
    records = run_moves(system, alone.counterexample.moves)
    assert case.invariant in {v.invariant for v in records[-1].violations}
    # The control: the model on the same configuration breaks no invariant.
    model: System[Any, Any] = mutation_config(name, broken=False).system()  # a Job or a CronJob system
    control = explore(model, depth=case.depth)
    assert control.counterexample is None, control.counterexample


@pytest.mark.parametrize("name", [n for n in CASES if MUTATION_CASES[n].exclusive])
def test_no_other_invariant_catches_the_broken_variant(name: str) -> None:
    case = MUTATION_CASES[name]
    system = mutation_config(name).system()
    others = explore(restricted(system, lambda n: n != case.invariant), depth=case.depth)
    assert others.counterexample is None, f"{name} is also caught: {others.counterexample.violation}"


@pytest.mark.parametrize("name", [n for n in CASES if not MUTATION_CASES[n].exclusive])
def test_a_shared_catch_is_really_shared(name: str) -> None:
    """The variants listed as caught together with another law are: keep the list honest."""
    case = MUTATION_CASES[name]
    system = mutation_config(name).system()
    others = explore(restricted(system, lambda n: n != case.invariant), depth=case.depth)
    assert others.counterexample is not None


def test_a_mutant_whose_line_is_gone_says_so() -> None:
    gone = Mutant("nothing", ("jobmodel.transitions.sync_job", "no such line in the model", "x"))
    with pytest.raises(ValueError, match="occurs 0 times"):
        gone.build("gone")
