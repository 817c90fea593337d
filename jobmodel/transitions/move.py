"""A move of an environment (the Job's or the CronJob's): what the checkers choose, apply, print
and save in traces; and the budget of hostile moves each environment spends."""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Protocol, TypeVar

import attrs

from jobmodel.frozen import evolve


@attrs.frozen
class Move:
    """One move: `kind`, the object it acts on (a pod; for the CronJob, a Job), and an argument (an edit)."""

    kind: str
    pod: str = ""
    arg: str = ""

    def __str__(self) -> str:
        parts = [self.kind, self.pod, self.arg]
        return " ".join(p for p in parts if p)

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "pod": self.pod, "arg": self.arg}


B = TypeVar("B", bound=attrs.AttrsInstance)


def spent_like(budget: B, before: B, after: B) -> B:
    """`budget` less what one move spent of `before` to leave `after` (an environment's budget:
    counts, and tuples of hostile moves each made once), so that the move's result from a world
    that differs in its budget alone is found without making the move again."""
    changes: dict[str, Any] = {}
    for field in attrs.fields(type(budget)):
        name = field.name
        was, left = getattr(before, name), getattr(after, name)
        if was == left:
            continue
        mine = getattr(budget, name)
        changes[name] = tuple(x for x in mine if x in left or x not in was) if isinstance(mine, tuple) else mine - (was - left)
    return evolve(budget, **changes)


@lru_cache(maxsize=1 << 10)  # a search meets a few budgets, each in many states
def any_left(budget: attrs.AttrsInstance) -> bool:
    """Whether any of a budget is left (a count above 0, a tuple not empty)."""
    return any(getattr(budget, field.name) for field in attrs.fields(type(budget)))


class Budgeted(Protocol):
    """A world of an environment: an attrs class with a `budget` of hostile moves."""

    @property
    def budget(self) -> Any: ...


W = TypeVar("W", bound=Budgeted)


def less_budget(world_class: type[attrs.AttrsInstance]) -> Callable[[Any], tuple[Any, ...]]:
    """For worlds of `world_class`: the world less its budget, every other field of its value in
    order (the budget only enables hostile moves, each of which spends it, so worlds equal in the
    rest make the same moves to the same results, budgets aside; checkers.explorer.Successors).
    One C-level getter: it runs once per state expanded."""
    names = [f.name for f in attrs.fields(world_class) if f.eq and f.name != "budget"]
    return operator.attrgetter(*names)


def budget_left(world: Budgeted) -> bool:
    """Whether any of the world's budget is left."""
    return any_left(world.budget)


def respent(after: W, before: W, other: W) -> W:
    """`after`, a move's result from `before`, as the same move's result from `other`, a world
    equal to `before` but in its budget."""
    budget = other.budget if after.budget is before.budget else spent_like(other.budget, before.budget, after.budget)
    return evolve(after, budget=budget)
