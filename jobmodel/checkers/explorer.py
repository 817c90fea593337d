"""An exhaustive explorer: breadth-first over every interleaving of a controller with its
environment (a `System`), up to a depth, for small configurations.

States are hashable frozen worlds, stored once, in the system's canonical form (for the Job,
renamed by symmetry, jobmodel.transitions.job_symmetry). Every step and state invariant of the
system's laws is checked on every transition (a transition equal to one already checked but in
the budget of hostile moves, which no law reads, has its verdict: `Successors`); breadth-first
order makes the first violation found a shortest counterexample. The `sometimes` properties
record which of them some explored state reached.
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Callable, Hashable, Iterator
from typing import Any, Generic, TypeVar

import attrs

from jobmodel.checkers.system import System
from jobmodel.invariants.laws import Violation
from jobmodel.transitions.move import Move

S = TypeVar("S", bound=Hashable)


@attrs.frozen
class Counterexample:
    """A shortest run from the initial world to a broken invariant."""

    moves: tuple[Move, ...]
    violation: Violation


@attrs.frozen
class ExploreResult:
    """What an exploration found: distinct states, transitions tried, the depth fully explored,
    the time it took, the first counterexample (if any), the `sometimes` properties reached, and
    the partitions the states were spread over (jobmodel.checkers.parallel; 1: one process)."""

    states: int
    transitions: int
    depth: int
    seconds: float
    counterexample: Counterexample | None
    reached: frozenset[str]
    exhausted: bool  # no new state at the last level: every reachable state was seen
    partitions: int = 1

    @property
    def states_per_second(self) -> float:
        return self.states / self.seconds if self.seconds > 0 else float("inf")


def _itself(state: S) -> S:
    return state


NO_VIOLATIONS: list[Violation] = []  # of a move answered by another state's (never changed)
# Levels back that an expansion is remembered: of the moves answered at depth 12 of `indexed`,
# 97% by a state of the level before (a lagging cache's detour is one move longer), 3% two back.
KEEP_LEVELS = 1


class Successors(Generic[S]):
    """A system's successors of each state and the step violations of each transition, for a
    breadth-first search that expands every state once. States equal but in their budget of
    hostile moves (`System.budget`) make the same moves to the same results but for the budget,
    and the laws, which never read it, find the same on them: a state whose equal less its
    budget was expanded, without a violation, in its own level or the KEEP_LEVELS before takes
    that expansion's results, respent, for the moves both have. Same states, same transitions,
    same violations; a fifth to two fifths of the transitions of the benchmarks' configurations
    are answered so, each by a state with more budget left (a lagging cache's detour, a failed
    call retried, is a move longer): only expansions of states with some budget left are kept."""

    def __init__(self, system: System[S, Any], kept: Callable[[S], S | None] = _itself) -> None:
        self.system = system
        # The object the search keeps for a state equal to a result (None: it keeps one that it
        # cannot hand out), remembered instead of the result: a copy remembered would keep a
        # second object alive for each (a fifth more memory at depth 16 of `indexed`).
        self.kept = kept
        self.level = 0
        self.answered = 0  # moves answered by another state's expansion
        # state less its budget -> (level, the state expanded, its moves, their results or None)
        self.made: dict[Hashable, tuple[int, S, list[Move], list[S | None]]] = {}

    def next_level(self) -> None:
        """A level is done: forget the expansions too old to be met again."""
        self.level += 1
        oldest = self.level - KEEP_LEVELS
        self.made = {key: entry for key, entry in self.made.items() if entry[0] >= oldest}

    def of(self, state: S) -> Iterator[tuple[Move, S, list[Violation]]]:
        """Each enabled move of `state`, in order, with its result (canonical) and the step
        invariants it breaks; lazily, so that a search stops making moves at its first violation."""
        system = self.system
        successor, check_step, split = system.successor, system.laws.check_step, system.budget
        if split is None:
            for move in system.enabled_moves(state):
                after, transition = successor(state, move)
                yield move, after, check_step(transition)
            return
        key = split.rest(state)
        found = self.made.get(key)
        before, answers = state, dict[Move, S]()
        if found is not None:
            _, before, made_moves, results = found
            answers = {move: after for move, after in zip(made_moves, results, strict=True) if after is not None}
        moves: list[Move] = []
        afters: list[S | None] = []
        remember = found is None and split.left(state)  # until a move breaks a law
        for move in system.enabled_moves(state):
            answer = answers.get(move)
            if answer is not None:
                self.answered += 1
                yield move, split.respent(answer, before, state), NO_VIOLATIONS
                continue
            after, transition = successor(state, move)
            violations = check_step(transition)
            if remember:
                moves.append(move)
                afters.append(self.kept(after))
                remember = not violations
            yield move, after, violations
        if remember:
            self.made[key] = (self.level, state, moves, afters)


GC_THRESHOLD = 50_000  # allocations between young collections while exploring (default 700)
FREEZE_EVERY = 1 << 10  # new states between two gc.freeze calls


@contextlib.contextmanager
def explored_states_kept() -> Iterator[Callable[[], None]]:
    """Garbage collection tuned for a search that keeps what it explores: young collections
    less often, and, through the function yielded (called every FREEZE_EVERY new states and
    after each level), the states kept so far moved out of the collector's sight (`gc.freeze`,
    which costs nothing: the collector's lists are spliced). Snapshots form no reference
    cycles, so this only saves the collector's repeated walks over them (a fifth of the time;
    freezing once a level left a level of 50,000 states to be walked again by every older
    collection: 7% of a depth-14 run)."""
    thresholds = gc.get_threshold()
    gc.set_threshold(max(thresholds[0], GC_THRESHOLD), *thresholds[1:])
    try:
        yield gc.freeze
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


def explore(
    system: System[S, Any],
    depth: int,
    *,
    liveness: bool = False,
    on_level: Callable[[int, int], None] | None = None,
    on_state: Callable[[S], None] | None = None,
) -> ExploreResult:
    """Breadth-first search to `depth` moves, stopping at the first violation; `on_level` hears
    (level, states so far) after each level, `on_state` every new state; with `liveness`,
    the system's liveness property is checked from every new state."""
    started = time.perf_counter()
    root = system.start()
    # Each state: the object kept for it (handed to Successors), its parent and the move from it.
    parents: dict[S, tuple[S, S | None, Move | None]] = {root: (root, None, None)}
    reached: set[str] = set()
    transitions = 0

    def done(level: int, found: Counterexample | None, exhausted: bool) -> ExploreResult:
        return ExploreResult(
            len(parents), transitions, level, time.perf_counter() - started, found, frozenset(reached), exhausted
        )

    def check_new(world: S) -> list[Violation]:
        late = system.liveness(world) if liveness and system.liveness is not None else None
        return [late] if late is not None else []

    root_violations = system.laws.check_state(root)
    if root_violations:
        return done(0, Counterexample((), root_violations[0]), False)
    _record_reached(system, root, reached)
    # Per transition, only what the search needs (the system's functions looked up once).
    expanding = Successors(system, lambda state: parents.get(state, (state,))[0])
    successors, next_level, check_state = expanding.of, expanding.next_level, system.laws.check_state
    with explored_states_kept() as keep:
        frontier = [root]
        for level in range(1, depth + 1):
            next_frontier: list[S] = []
            for state in frontier:
                for move, after, violations in successors(state):
                    transitions += 1
                    entry = (after, state, move)
                    if parents.setdefault(after, entry) is not entry:
                        # Known. The state invariants, pure functions of the state, held when it was new.
                        if violations:
                            return done(level, Counterexample((*_path(parents, state), move), violations[0]), False)
                        continue
                    violations = violations or check_state(after) or check_new(after)
                    if violations:
                        return done(level, Counterexample(_path(parents, after), violations[0]), False)
                    _record_reached(system, after, reached)
                    if on_state is not None:
                        on_state(after)
                    next_frontier.append(after)
                    if len(next_frontier) % FREEZE_EVERY == 0:
                        keep()
            keep()
            next_level()
            if on_level is not None:
                on_level(level, len(parents))
            frontier = next_frontier
            if not frontier:
                return done(level, None, True)
        return done(depth, None, False)


def _record_reached(system: System[S, Any], state: S, reached: set[str]) -> None:
    for prop in system.laws.sometimes:
        if prop.name not in reached and prop.holds(state):
            reached.add(prop.name)


def _path(parents: dict[S, tuple[S, S | None, Move | None]], state: S) -> tuple[Move, ...]:
    moves: list[Move] = []
    current: S | None = state
    while current is not None:
        _, parent, move = parents[current]
        if move is not None:
            moves.append(move)
        current = parent
    return tuple(reversed(moves))
