"""What a law is: the vocabulary the catalogues are written in and the checkers read.

A catalogue (`Laws`) holds named predicates over the worlds of one system: `state` invariants
read one world, `step` invariants one `Transition` (the world before, the move, the world after
and, for a controller sync, its result); each returns None when it holds, else what is wrong.
A step invariant may name its guard (`when`): a cheap predicate on the transition that holds
whenever the invariant can fail (its own check returns None otherwise, and says so in its first
lines), so that `check_step` skips what cannot fail: most moves are not controller syncs, and most
laws are about what a sync did. Guards are evaluated once per transition, shared by the laws that
name them, and the invariants still run in the catalogue's order. A catalogue may also name the
guard that every other guard implies (`Laws.any_guard`, e.g. "a sync, or the Job changed"): on a
transition where it fails (most are pod moves) no other guard is evaluated.
`sometimes` properties are states the checkers must reach, so that the invariants are not
vacuously true (Stateright's `always` and `sometimes`). Entries register with the catalogue's
decorators, each with its docstring and the upstream code it follows.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import attrs

from jobmodel.transitions.move import Move

W = TypeVar("W")
R = TypeVar("R")
F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")
Guards = tuple[Callable[[Any], bool], ...]


_UNKNOWN: Any = object()  # a fact not computed yet


@attrs.frozen
class Transition(Generic[W, R]):
    """One step of a run: the world before, the move, the world after, the sync's result."""

    before: W
    move: Move
    after: W
    sync: R | None = None
    # Check the claims outside their environment assumptions too, and without excusing the known
    # upstream bugs that are runs outside one (a counterexample that breaks an assumption, from
    # `jobmodel prove --drop`, is replayed this way).
    without_assumptions: bool = False
    # Facts several laws read of the same transition (`transition_fact`), computed once.
    _facts: dict[Callable[..., Any], Any] = attrs.field(factory=dict, init=False, eq=False, hash=False, repr=False)


def transition_fact(compute: Callable[[Transition[Any, Any]], T]) -> Callable[[Transition[Any, Any]], T]:
    """`compute`, a pure function of a transition that several laws read, computed once per
    transition and kept on it (read directly: a fact is read some ten times a sync)."""

    def read(t: Transition[Any, Any]) -> T:
        facts = t._facts
        value = facts.get(compute, _UNKNOWN)
        if value is _UNKNOWN:
            value = facts[compute] = compute(t)
        return value  # type: ignore[no-any-return]

    functools.update_wrapper(read, compute)
    return read


@attrs.frozen
class Violation:
    invariant: str
    message: str

    def __str__(self) -> str:
        return f"{self.invariant}: {self.message}"


@attrs.frozen
class Invariant:
    """A named predicate: `check` returns None when it holds, else what is wrong."""

    name: str
    kind: str  # "state" or "step"
    check: Callable[..., str | None]
    doc: str
    upstream: str
    # For a step invariant: a predicate on the transition that holds whenever the invariant can
    # fail (None: it can fail on any step).
    when: Callable[[Any], bool] | None = None


@attrs.frozen
class Reachability:
    """A `sometimes` property: some reachable state satisfies `holds`."""

    name: str
    holds: Callable[[Any], bool]
    doc: str


@attrs.define
class Laws(Generic[W, R]):
    """One system's catalogue: its state and step invariants and its `sometimes` properties."""

    state: list[Invariant] = attrs.Factory(list)
    step: list[Invariant] = attrs.Factory(list)
    sometimes: list[Reachability] = attrs.Factory(list)
    # A guard that holds whenever any step invariant's guard does (None: no such guard).
    any_guard: Callable[[Any], bool] | None = None
    # The distinct guards, and the step invariants to run for each outcome of them, by the number
    # of step invariants registered (a catalogue grows while its module is imported).
    _plans: dict[int, tuple[Guards, dict[tuple[bool, ...], tuple[Invariant, ...]]]] = attrs.field(
        factory=dict, init=False, eq=False, repr=False
    )

    def state_invariant(self, name: str, upstream: str) -> Callable[[F], F]:
        def register(fn: F) -> F:
            self.state.append(Invariant(name, "state", fn, (fn.__doc__ or "").strip(), upstream))
            return fn

        return register

    def step_invariant(
        self, name: str, upstream: str, when: Callable[[Transition[W, R]], bool] | None = None
    ) -> Callable[[F], F]:
        def register(fn: F) -> F:
            self.step.append(Invariant(name, "step", fn, (fn.__doc__ or "").strip(), upstream, when))
            return fn

        return register

    def sometimes_property(self, name: str) -> Callable[[F], F]:
        def register(fn: F) -> F:
            self.sometimes.append(Reachability(name, fn, (fn.__doc__ or "").strip()))
            return fn

        return register

    def names(self) -> list[str]:
        """The names of the state and step invariants, in the order they are checked."""
        return [inv.name for inv in (*self.state, *self.step)]

    def restricted(self, keep: Callable[[str], bool]) -> Laws[W, R]:
        """The same catalogue with only the invariants whose names `keep` accepts (the mutation
        tests use it to show that one invariant alone catches a broken variant, or that no other
        does)."""
        return Laws(
            [inv for inv in self.state if keep(inv.name)],
            [inv for inv in self.step if keep(inv.name)],
            list(self.sometimes),
            self.any_guard,
        )

    def check_state(self, world: W) -> list[Violation]:
        """Every state invariant on one world."""
        return _broken(self.state, world)

    def check_step(self, transition: Transition[W, R]) -> list[Violation]:
        """Every step invariant on one transition (but those whose guard says they cannot fail)."""
        guards, plans = self._guarded()
        if self.any_guard is not None and not self.any_guard(transition):
            outcomes = (False,) * len(guards)
        else:
            outcomes = tuple([guard(transition) for guard in guards])
        plan = plans.get(outcomes)
        if plan is None:
            holds = dict(zip(guards, outcomes, strict=True))
            plan = plans[outcomes] = tuple(inv for inv in self.step if inv.when is None or holds[inv.when])
        return _broken(plan, transition)

    def guards(self) -> Guards:
        """The distinct guards of the step invariants, in the order they are first named."""
        return tuple(dict.fromkeys(inv.when for inv in self.step if inv.when is not None))

    def _guarded(self) -> tuple[Guards, dict[tuple[bool, ...], tuple[Invariant, ...]]]:
        entry = self._plans.get(len(self.step))
        if entry is None:
            entry = self._plans[len(self.step)] = (self.guards(), {})
        return entry


def _broken(invariants: Sequence[Invariant], subject: object) -> list[Violation]:
    out = []
    for inv in invariants:
        message = inv.check(subject)
        if message is not None:
            out.append(Violation(inv.name, message))
    return out
