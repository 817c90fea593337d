"""The catalogue mechanism: guards skip only what they rule out, in the catalogue's order, and a
transition computes each shared fact once."""

from __future__ import annotations

from typing import Any

from jobmodel.invariants.laws import Laws, Transition, Violation, transition_fact
from jobmodel.transitions.move import Move


def transition(kind: str, before: int = 0, after: int = 0) -> Transition[int, None]:
    return Transition(before, Move(kind), after)


def catalogue(calls: list[str]) -> tuple[Laws[int, None], dict[str, int]]:
    """Three guarded laws and one unguarded, each failing on every step it is run on; the
    counter says how often each guard ran."""
    laws: Laws[int, None] = Laws()
    guard_calls = {"sync": 0, "changed": 0}

    def a_sync(t: Transition[int, None]) -> bool:
        guard_calls["sync"] += 1
        return t.move.kind == "sync"

    def changed(t: Transition[int, None]) -> bool:
        guard_calls["changed"] += 1
        return t.before != t.after

    def failing(name: str) -> Any:
        def check(t: Transition[int, None]) -> str:
            calls.append(name)
            return name

        return check

    laws.step_invariant("first-on-syncs", "", when=a_sync)(failing("first-on-syncs"))
    laws.step_invariant("always", "")(failing("always"))
    laws.step_invariant("on-changes", "", when=changed)(failing("on-changes"))
    laws.step_invariant("last-on-syncs", "", when=a_sync)(failing("last-on-syncs"))
    return laws, guard_calls


def test_a_guard_that_does_not_hold_skips_its_laws_and_the_rest_keep_their_order() -> None:
    calls: list[str] = []
    laws, _ = catalogue(calls)
    assert [v.invariant for v in laws.check_step(transition("start"))] == ["always"]
    assert [v.invariant for v in laws.check_step(transition("start", 0, 1))] == ["always", "on-changes"]
    everything = laws.check_step(transition("sync", 0, 1))
    assert everything == [Violation(n, n) for n in ("first-on-syncs", "always", "on-changes", "last-on-syncs")]
    assert calls == ["always", "always", "on-changes", "first-on-syncs", "always", "on-changes", "last-on-syncs"]


def test_each_guard_runs_once_per_transition_however_many_laws_name_it() -> None:
    laws, guard_calls = catalogue([])
    laws.check_step(transition("sync"))
    laws.check_step(transition("start"))
    assert guard_calls == {"sync": 2, "changed": 2}


def test_a_law_registered_after_a_check_is_checked_too() -> None:
    laws, _ = catalogue([])
    assert len(laws.check_step(transition("sync"))) == 3
    laws.step_invariant("late", "", when=lambda t: True)(lambda t: "late")
    assert [v.invariant for v in laws.check_step(transition("sync"))][-1] == "late"


def test_restricted_keeps_the_guards() -> None:
    calls: list[str] = []
    laws, _ = catalogue(calls)
    only = laws.restricted(lambda name: name == "last-on-syncs")
    assert only.check_step(transition("start")) == []
    assert [v.invariant for v in only.check_step(transition("sync"))] == ["last-on-syncs"]


def test_a_fact_is_computed_once_per_transition() -> None:
    computed: list[int] = []

    @transition_fact
    def double(t: Transition[int, None]) -> int:
        computed.append(t.before)
        return 2 * t.before

    t, other = transition("sync", 3), transition("sync", 3)
    assert [double(t), double(t), double(other)] == [6, 6, 6]
    assert computed == [3, 3]
    assert t == other and hash(t) == hash(other)  # the facts are not part of the transition's value
