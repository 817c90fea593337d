"""Moves and the budgets of hostile moves they spend."""

from __future__ import annotations

import attrs

from jobmodel.transitions.cron_environment import CronBudget
from jobmodel.transitions.job_environment import Budget
from jobmodel.transitions.move import any_left, less_budget, spent_like


def test_what_a_move_spent_is_spent_from_another_budget() -> None:
    before, after = Budget(failures=2, stale=1), Budget(failures=1, stale=1)
    assert spent_like(Budget(failures=1, stale=0, faults=2), before, after) == Budget(failures=0, faults=2)
    assert spent_like(CronBudget(ticks=5, late=1), CronBudget(ticks=1), CronBudget(ticks=0)) == CronBudget(ticks=4, late=1)


def test_a_spent_edit_leaves_the_other_budget_and_only_that_edit() -> None:
    before = Budget(edits=("suspend=true", "parallelism=1"))
    after = Budget(edits=("parallelism=1",))
    other = Budget(stale=1, edits=("completions=3", "suspend=true"))
    assert spent_like(other, before, after) == Budget(stale=1, edits=("completions=3",))


def test_nothing_spent_leaves_the_other_budget_as_it_is() -> None:
    other = Budget(failures=1, edits=("suspend=true",))
    assert spent_like(other, Budget(stale=3), Budget(stale=3)) == other


def test_a_budget_is_left_while_a_count_or_an_edit_is() -> None:
    assert not any_left(Budget()) and not any_left(CronBudget())
    assert any_left(Budget(edits=("suspend=true",))) and any_left(Budget(gc=1)) and any_left(CronBudget(dst=1))


@attrs.frozen
class _World:
    first: int
    budget: Budget
    last: str
    memo: int = attrs.field(default=0, eq=False)


def test_a_world_less_its_budget_is_the_rest_of_its_value_in_order() -> None:
    rest = less_budget(_World)
    assert rest(_World(1, Budget(stale=1), "x", memo=7)) == (1, "x")
    assert rest(_World(1, Budget(), "x")) == rest(_World(1, Budget(failures=2), "x", memo=3))
