"""Hypothesis stateful machines: random interleavings of controller syncs and environment moves,
every invariant checked after every step.

`job_machine(config)` builds a `RuleBasedStateMachine` class for one configuration (the Job
manifest, the environment's budget, the implementation under check by import path). Its one rule
draws an enabled move (`environment.enabled_moves`), so the machine and the explorer share the
environment and the catalogue exactly; a failure message is the step table of the run.
At teardown the machine also checks bounded liveness from the last state.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from jobmodel.checkers.trace import CheckConfig, StepRecord, check_move, format_table
from jobmodel.invariants.catalogue import Violation, check_state
from jobmodel.invariants.liveness import check_liveness
from jobmodel.transitions import job_environment as env


class InvariantViolation(AssertionError):
    """An invariant failed in a machine run; the message is the run's step table."""

    def __init__(self, violation: Violation, table: str) -> None:
        super().__init__(f"{violation}\n{table}")
        self.violation = violation


def job_machine(
    config: CheckConfig, impl: env.SyncImpl | None = None, on_step: Callable[[StepRecord], None] | None = None
) -> type[RuleBasedStateMachine]:
    """A state machine class checking `impl` (by default the config's `impl`) on `config`;
    `on_step` hears every checked step (for the benchmark)."""
    sync_impl = impl or config.sync_impl()

    class JobMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.world = config.initial_world()
            self.records: list[StepRecord] = []

        def _fail(self, violation: Violation) -> None:
            raise InvariantViolation(violation, format_table(config, self.records))

        @rule(data=st.data())
        def move(self, data: st.DataObject) -> None:
            moves = env.enabled_moves(self.world)
            chosen = data.draw(st.sampled_from(moves), label="move")
            self.world, _t, violations = check_move(config, self.world, chosen, sync_impl)
            self.records.append(StepRecord(chosen, self.world, tuple(violations)))
            if on_step is not None:
                on_step(self.records[-1])
            if violations:
                self._fail(violations[0])

        @invariant()
        def state_invariants(self) -> None:
            violations = check_state(self.world)
            if violations:
                self._fail(violations[0])

        def teardown(self) -> None:
            late = check_liveness(self.world, sync_impl)
            if late is not None:
                self._fail(late)

    JobMachine.__name__ = JobMachine.__qualname__ = "JobMachine"
    return JobMachine
