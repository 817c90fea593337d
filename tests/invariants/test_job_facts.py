"""Facts the Job laws read (jobmodel/invariants/job_facts.py)."""

from __future__ import annotations

import pytest

from jobmodel.invariants.job_facts import success_policy_met
from jobmodel.state import SuccessPolicy, SuccessPolicyRule

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
