"""The checkers are written once against `System` (jobmodel/checkers/system.py): a toy system
shows what each reads — the enabled moves, what a move does, the canonical form and the laws."""

from __future__ import annotations

import pytest
from hypothesis import Phase, settings
from hypothesis.stateful import run_state_machine_as_test

from jobmodel.checkers.explorer import explore
from jobmodel.checkers.machines import InvariantViolation, state_machine
from jobmodel.checkers.system import System
from jobmodel.checkers.trace import format_table, run_moves
from jobmodel.errors import InputError
from jobmodel.invariants.laws import Laws, Transition
from jobmodel.transitions.move import Move

# Two counters, each 0..3, moved one step at a time; the laws forbid the sum 5.
Pair = tuple[int, int]


def toy(limit: int = 5, sorted_pairs: bool = False) -> System[Pair, None]:
    laws: Laws[Pair, None] = Laws()

    @laws.state_invariant("sum-below-limit", "none")
    def sum_below_limit(world: Pair) -> str | None:
        return f"sum {sum(world)}" if sum(world) >= limit else None

    @laws.step_invariant("one-step-at-a-time", "none")
    def one_step(t: Transition[Pair, None]) -> str | None:
        return None if abs(sum(t.after) - sum(t.before)) == 1 else "jumped"

    @laws.sometimes_property("both at 2")
    def both_at_two(world: Pair) -> bool:
        return world == (2, 2)

    def moves(world: Pair) -> list[Move]:
        return [Move(kind, str(i)) for i in (0, 1) for kind in ("up", "down") if 0 <= world[i] + (1 if kind == "up" else -1) <= 3]

    def apply(world: Pair, move: Move) -> tuple[Pair, None]:
        i, delta = int(move.pod), 1 if move.kind == "up" else -1
        after = (world[0] + delta, world[1]) if i == 0 else (world[0], world[1] + delta)
        return after, None

    return System(
        kind="Toy",
        initial_world=lambda: (0, 0),
        enabled_moves=moves,
        apply_move=apply,
        laws=laws,
        columns=("counters",),
        describe=lambda world: (f"{world[0]},{world[1]}",),
        canonical=(lambda w: (min(w), max(w))) if sorted_pairs else (lambda w: w),
    )


def test_every_reachable_state_is_counted_once_and_symmetry_merges_states() -> None:
    result = explore(toy(limit=7), depth=20)
    assert (result.states, result.exhausted, result.counterexample) == (16, True, None)
    assert result.reached == {"both at 2"}
    assert explore(toy(limit=7, sorted_pairs=True), depth=20).states == 10


def test_the_explorer_finds_a_shortest_counterexample_that_replays() -> None:
    system = toy()
    result = explore(system, depth=20)
    assert result.counterexample is not None and result.counterexample.violation.invariant == "sum-below-limit"
    assert len(result.counterexample.moves) == 5
    records = run_moves(system, result.counterexample.moves)
    assert [bool(r.violations) for r in records] == [False] * 4 + [True]
    table = format_table(system, records).splitlines()
    assert table[0].split() == ["step", "move", "counters", "violations"]
    assert table[1].split() == ["0", "(start)", "0,0"] and "sum-below-limit: sum 5" in table[-1]


def test_a_move_that_is_not_enabled_is_refused_on_replay() -> None:
    with pytest.raises(InputError, match="not enabled"):
        run_moves(toy(), [Move("down", "0")])


def test_the_machine_runs_the_same_laws() -> None:
    with pytest.raises(InvariantViolation) as caught:
        # No shrinking: the explorer gives the shortest counterexample.
        quick = settings(settings(), max_examples=100, stateful_step_count=12, phases=[Phase.explicit, Phase.generate])
        run_state_machine_as_test(state_machine(toy()), settings=quick)
    assert caught.value.violation.invariant == "sum-below-limit"
    assert "counters" in str(caught.value)
