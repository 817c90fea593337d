"""Facts the Job laws read (jobmodel/invariants/job_facts.py)."""

from __future__ import annotations

import attrs
import pytest

from jobmodel.checkers.job import CheckConfig
from jobmodel.frozen import freeze
from jobmodel.invariants.catalogue import Transition, no_over_creation
from jobmodel.invariants.job_facts import success_policy_met, sync_step
from jobmodel.state import SuccessPolicy, SuccessPolicyRule
from jobmodel.transitions.job_environment import Budget, apply_move
from jobmodel.transitions.move import Move
from tests.checkers.configs import job_manifest

MAX_COMPLETIONS = 2**31 - 1  # an Indexed Job's completions may be any int32


def policy(indexes: str | None, count: int | None = None) -> SuccessPolicy:
    return SuccessPolicy((SuccessPolicyRule(indexes, count),))


@pytest.mark.parametrize(
    ("rule", "completed", "met"),
    [
        (policy("0-2"), {0, 1, 2}, True),  # every named index completed
        (policy("0-2"), {0, 2, 5}, False),  # index 1 missing; 5 is not named
        (policy("0-2", 2), {0, 2, 5}, True),  # two of the named ones suffice
        (policy("0-2", 3), {1, 2, 3, 4}, False),
        (policy(None, 2), {7, 9}, True),  # a count of any index
        (policy("4,6-7"), {4, 6, 7}, True),
        (policy("9"), {0}, False),
    ],
)
def test_a_rule_is_met_by_its_indexes_or_its_count(rule: SuccessPolicy, completed: set[int], met: bool) -> None:
    """matchSuccessPolicy's rules: all of succeededIndexes, or succeededCount of them."""
    assert success_policy_met(rule, 10, frozenset(completed)) is met


def test_a_rule_over_every_int32_index_is_read_as_intervals() -> None:
    """A rule naming 2^31 - 1 indexes (valid for such completions) is decided without listing
    them: two completed are not all, and are its succeededCount of 2."""
    completed = frozenset({0, 5})
    assert success_policy_met(policy(f"0-{MAX_COMPLETIONS - 1}"), MAX_COMPLETIONS, completed) is False
    assert success_policy_met(policy(f"0-{MAX_COMPLETIONS - 1}", 2), MAX_COMPLETIONS, completed) is True


def test_a_sync_over_an_edit_it_has_not_seen_is_judged_by_the_spec_it_read() -> None:
    # parallelism 3 -> 1 seen late: the sync creates three pods, which only the edited spec
    # (the API server's) makes too many; the step's Job has the spec the sync read.
    budget = Budget(stale_edits=1, edits=("parallelism=1",))
    start = CheckConfig(freeze(job_manifest(3, 3, 1)), budget).initial_world()
    before, _ = apply_move(start, Move("edit-stale", arg="parallelism=1"))
    after, result = apply_move(before, Move("sync"))
    t = Transition(before, Move("sync"), after, result)
    s = sync_step(t)
    assert len(s.created) == 3 and s.after is not None and s.after.spec.parallelism == 3
    assert no_over_creation(t) is None
    api_job = after.job()
    assert api_job is not None and api_job.spec.parallelism == 1
    # The same step judged by the API server's spec is an over-creation.
    unseen = Transition(attrs.evolve(before, job_shown=None), Move("sync"), after, result)
    assert no_over_creation(unseen) == "3 active pods after creating 3, parallelism is 1"


def test_a_sync_over_a_deleted_job_the_cache_still_shows_is_judged_by_that_job() -> None:
    # The deletion seen late: the sync creates the two pods of the Job it reads, which the laws
    # judge by that Job (the API server has none).
    budget = Budget(job_deletions=1, stale_edits=1)
    start = CheckConfig(freeze(job_manifest(2, 2, 1)), budget).initial_world()
    before, _ = apply_move(start, Move("delete-job-stale"))
    after, result = apply_move(before, Move("sync"))
    assert before.job() is None and after.job() is None
    t = Transition(before, Move("sync"), after, result)
    s = sync_step(t)
    assert len(s.created) == 2 and s.before is before.job_shown and s.after is before.job_shown
    assert no_over_creation(t) is None
    # The same step over a shown Job of parallelism 1 is an over-creation: the laws see it.
    shown = before.job_shown
    assert shown is not None
    narrower = attrs.evolve(shown, spec=attrs.evolve(shown.spec, parallelism=1))
    assert no_over_creation(Transition(attrs.evolve(before, job_shown=narrower), Move("sync"), after, result)) == (
        "2 active pods after creating 2, parallelism is 1"
    )
