"""What a law is: the vocabulary the catalogues are written in and the checkers read.

A catalogue (`Laws`) holds named predicates over the worlds of one system: `state` invariants
read one world, `step` invariants one `Transition` (the world before, the move, the world after
and, for a controller sync, its result); each returns None when it holds, else what is wrong.
`sometimes` properties are states the checkers must reach, so that the invariants are not
vacuously true (Stateright's `always` and `sometimes`). Entries register with the catalogue's
decorators, each with its docstring and the upstream code it follows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

import attrs

from jobmodel.transitions.move import Move

W = TypeVar("W")
R = TypeVar("R")
F = TypeVar("F", bound=Callable[..., Any])


@attrs.frozen
class Transition(Generic[W, R]):
    """One step of a run: the world before, the move, the world after, the sync's result."""

    before: W
    move: Move
    after: W
    sync: R | None = None
    # Check the claims outside their environment assumptions too (a counterexample that breaks
    # an assumption, from `jobmodel prove --drop`, is replayed this way).
    without_assumptions: bool = False


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

    def state_invariant(self, name: str, upstream: str) -> Callable[[F], F]:
        def register(fn: F) -> F:
            self.state.append(Invariant(name, "state", fn, (fn.__doc__ or "").strip(), upstream))
            return fn

        return register

    def step_invariant(self, name: str, upstream: str) -> Callable[[F], F]:
        def register(fn: F) -> F:
            self.step.append(Invariant(name, "step", fn, (fn.__doc__ or "").strip(), upstream))
            return fn

        return register

    def sometimes_property(self, name: str) -> Callable[[F], F]:
        def register(fn: F) -> F:
            self.sometimes.append(Reachability(name, fn, (fn.__doc__ or "").strip()))
            return fn

        return register

    def check_state(self, world: W) -> list[Violation]:
        """Every state invariant on one world."""
        return _broken(self.state, world)

    def check_step(self, transition: Transition[W, R]) -> list[Violation]:
        """Every step invariant on one transition."""
        return _broken(self.step, transition)


def _broken(invariants: list[Invariant], subject: object) -> list[Violation]:
    out = []
    for inv in invariants:
        message = inv.check(subject)
        if message is not None:
            out.append(Violation(inv.name, message))
    return out
