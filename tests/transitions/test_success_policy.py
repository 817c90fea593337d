"""successPolicy rules (jobmodel/transitions/success_policy.py)."""

from __future__ import annotations

from jobmodel.features import FeatureGates
from jobmodel.state import SuccessPolicy, SuccessPolicyRule
from jobmodel.transitions.indexes import parse_indexes_from_string
from jobmodel.transitions.success_policy import match_success_policy

GATES = FeatureGates.for_release(32)


def succeeded(text: str) -> tuple[tuple[int, int], ...]:
    return parse_indexes_from_string(text, 100)


def test_succeeded_indexes_rule_needs_all_listed_indexes() -> None:
    policy = SuccessPolicy((SuccessPolicyRule(succeeded_indexes="0-2"),))
    assert match_success_policy(policy, 10, succeeded("0,1"), GATES) is None
    assert match_success_policy(policy, 10, succeeded("0-2,5"), GATES) == "Matched rules at index 0"


def test_succeeded_count_within_indexes() -> None:
    policy = SuccessPolicy((SuccessPolicyRule(succeeded_indexes="0-4", succeeded_count=2),))
    assert match_success_policy(policy, 10, succeeded("4,7"), GATES) is None
    assert match_success_policy(policy, 10, succeeded("1,4,7"), GATES) == "Matched rules at index 0"


def test_succeeded_count_alone_counts_every_index() -> None:
    policy = SuccessPolicy((SuccessPolicyRule(succeeded_count=3), SuccessPolicyRule(succeeded_count=1)))
    assert match_success_policy(policy, 10, succeeded("8"), GATES) == "Matched rules at index 1"


def test_rule_with_indexes_out_of_range_is_skipped() -> None:
    policy = SuccessPolicy((SuccessPolicyRule(succeeded_indexes="20-30"), SuccessPolicyRule(succeeded_count=1)))
    assert match_success_policy(policy, 10, succeeded("0"), GATES) == "Matched rules at index 1"


def test_no_match_without_the_gate_or_without_successes() -> None:
    policy = SuccessPolicy((SuccessPolicyRule(succeeded_count=1),))
    assert match_success_policy(policy, 10, succeeded("0"), FeatureGates.for_release(32).with_overrides({"JobSuccessPolicy": False})) is None
    assert match_success_policy(policy, 10, (), GATES) is None
