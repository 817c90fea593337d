"""An exhaustive explorer: breadth-first over every interleaving of the controller with its
environment, up to a depth, for small configurations.

States are hashable frozen snapshots (`World`), stored once; with symmetry reduction they are
first renamed to their canonical representative (jobmodel.transitions.job_symmetry). Every step and
state invariant of the catalogue is checked on every transition; breadth-first order makes the
first violation found a shortest counterexample. The `sometimes` properties record which of them
some explored state reached.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import TypeVar

import attrs

from jobmodel.checkers.trace import CheckConfig, check_move
from jobmodel.invariants.catalogue import SOMETIMES, Violation, check_state
from jobmodel.invariants.liveness import check_liveness
from jobmodel.transitions import job_environment as env

S = TypeVar("S", bound=Hashable)


@attrs.frozen
class Counterexample:
    """A shortest run from the initial world to a broken invariant."""

    moves: tuple[env.Move, ...]
    violation: Violation


@attrs.frozen
class ExploreResult:
    """What an exploration found: distinct states, transitions tried, the depth fully explored,
    the time it took, the first counterexample (if any), and the `sometimes` properties reached."""

    states: int
    transitions: int
    depth: int
    seconds: float
    counterexample: Counterexample | None
    reached: frozenset[str]
    exhausted: bool  # no new state at the last level: every reachable state was seen

    @property
    def states_per_second(self) -> float:
        return self.states / self.seconds if self.seconds > 0 else float("inf")


def explore(
    config: CheckConfig,
    depth: int,
    *,
    impl: env.SyncImpl | None = None,
    liveness: bool = False,
    on_level: Callable[[int, int], None] | None = None,
    on_state: Callable[[env.World], None] | None = None,
) -> ExploreResult:
    """Breadth-first search to `depth` moves, stopping at the first violation; `on_level` hears
    (level, states so far) after each level, `on_state` every new state; with `liveness`,
    bounded liveness is checked from every new state."""
    sync_impl = impl or config.sync_impl()

    def expand(world: env.World) -> Iterator[tuple[env.Move, env.World, list[Violation]]]:
        for move in env.enabled_moves(world):
            after, _t, violations = check_move(config, world, move, sync_impl)
            yield move, after, violations

    def check_new(world: env.World) -> list[Violation]:
        late = check_liveness(world, sync_impl) if liveness else None
        return [late] if late is not None else []

    sometimes = [(p.name, p.holds) for p in SOMETIMES]
    root = config.initial_world()
    return breadth_first(root, check_state(root), depth, expand, check_new, sometimes, on_level, on_state)


def breadth_first(
    root: S,
    root_violations: list[Violation],
    depth: int,
    expand: Callable[[S], Iterable[tuple[env.Move, S, list[Violation]]]],
    check_new: Callable[[S], list[Violation]],
    sometimes: Sequence[tuple[str, Callable[[S], bool]]],
    on_level: Callable[[int, int], None] | None = None,
    on_state: Callable[[S], None] | None = None,
) -> ExploreResult:
    """The search itself, for any hashable state: `expand` yields each enabled move with the
    state it leads to and the violations of that step; `check_new` checks a state seen first."""
    started = time.perf_counter()
    parents: dict[S, tuple[S | None, env.Move | None]] = {root: (None, None)}
    reached: set[str] = set()
    transitions = 0

    def done(level: int, found: Counterexample | None, exhausted: bool) -> ExploreResult:
        return ExploreResult(
            len(parents), transitions, level, time.perf_counter() - started, found, frozenset(reached), exhausted
        )

    if root_violations:
        return done(0, Counterexample((), root_violations[0]), False)
    _record_reached(root, sometimes, reached)
    frontier = [root]
    for level in range(1, depth + 1):
        next_frontier: list[S] = []
        for state in frontier:
            for move, after, violations in expand(state):
                transitions += 1
                if after in parents:
                    if violations:
                        return done(level, Counterexample((*_path(parents, state), move), violations[0]), False)
                    continue
                parents[after] = (state, move)
                violations = violations or check_new(after)
                if violations:
                    return done(level, Counterexample(_path(parents, after), violations[0]), False)
                _record_reached(after, sometimes, reached)
                if on_state is not None:
                    on_state(after)
                next_frontier.append(after)
        if on_level is not None:
            on_level(level, len(parents))
        frontier = next_frontier
        if not frontier:
            return done(level, None, True)
    return done(depth, None, False)


def _record_reached(state: S, sometimes: Sequence[tuple[str, Callable[[S], bool]]], reached: set[str]) -> None:
    for name, holds in sometimes:
        if name not in reached and holds(state):
            reached.add(name)


def _path(parents: dict[S, tuple[S | None, env.Move | None]], state: S) -> tuple[env.Move, ...]:
    moves: list[env.Move] = []
    current: S | None = state
    while current is not None:
        parent, move = parents[current]
        if move is not None:
            moves.append(move)
        current = parent
    return tuple(reversed(moves))
