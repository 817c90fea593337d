"""Hypothesis stateful machines: random interleavings of controller syncs and environment moves,
every law checked after every step.

`state_machine(system)` builds a `RuleBasedStateMachine` class for one system (the Job's or the
CronJob's, `jobmodel.checkers.job`, `jobmodel.checkers.cron`). Its one rule draws an enabled move
(`system.enabled_moves`), so the machine and the explorer share the environment and the laws
exactly; a failure message is the step table of the run. At teardown the machine also checks the
system's liveness property (if it has one) from the last state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from jobmodel.checkers.system import System
from jobmodel.checkers.trace import StepRecord, format_table
from jobmodel.invariants.laws import Violation


class InvariantViolation(AssertionError):
    """An invariant failed in a machine run; the message is the run's step table."""

    def __init__(self, violation: Violation, table: str) -> None:
        super().__init__(f"{violation}\n{table}")
        self.violation = violation


def state_machine(
    system: System[Any, Any], on_step: Callable[[StepRecord], None] | None = None
) -> type[RuleBasedStateMachine]:
    """A state machine class checking `system`; `on_step` hears every checked step (for the benchmark)."""

    class Machine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.world = system.start()
            self.records: list[StepRecord] = []

        def _fail(self, violation: Violation) -> None:
            raise InvariantViolation(violation, format_table(system, self.records))

        @rule(data=st.data())
        def move(self, data: st.DataObject) -> None:
            chosen = data.draw(st.sampled_from(system.enabled_moves(self.world)), label="move")
            self.world, _t, violations = system.step(self.world, chosen)
            self.records.append(StepRecord(chosen, self.world, tuple(violations)))
            if on_step is not None:
                on_step(self.records[-1])
            if violations:
                self._fail(violations[0])

        @invariant()
        def state_invariants(self) -> None:
            violations = system.laws.check_state(self.world)
            if violations:
                self._fail(violations[0])

        def teardown(self) -> None:
            late = system.liveness(self.world) if system.liveness is not None else None
            if late is not None:
                self._fail(late)

    Machine.__name__ = Machine.__qualname__ = f"{system.kind}Machine"
    return Machine
