"""Matching failed pods against podFailurePolicy rules (jobmodel/transitions/pod_failure_policy.py)."""

from __future__ import annotations

from typing import Any

from jobmodel.api.wire import pod_failure_policy_from_json
from jobmodel.features import FeatureGates
from jobmodel.state import PodFailurePolicy
from jobmodel.transitions.pod_failure_policy import match_pod_failure_policy
from tests.builders import make_pod

GATES = FeatureGates.for_release(32)
DISRUPTED = [{"type": "DisruptionTarget", "status": "True"}]


def policy(*rules: dict[str, Any]) -> PodFailurePolicy:
    return pod_failure_policy_from_json({"rules": list(rules)}, "podFailurePolicy")


def exit_rule(action: str, op: str, values: list[int], container: str | None = None) -> dict[str, Any]:
    rule: dict[str, Any] = {"action": action, "onExitCodes": {"operator": op, "values": values}}
    if container is not None:
        rule["onExitCodes"]["containerName"] = container
    return rule


def test_no_policy_counts_the_failure() -> None:
    match = match_pod_failure_policy(None, make_pod("p", "Failed", exit_code=3), GATES)
    assert (match.count_failed, match.action, match.fail_job_message) == (True, None, None)


def test_rules_that_match_nothing_count_the_failure() -> None:
    p = policy(exit_rule("Ignore", "In", [1, 2]), {"action": "FailJob", "onPodConditions": DISRUPTED})
    match = match_pod_failure_policy(p, make_pod("p", "Failed", exit_code=3), GATES)
    assert (match.count_failed, match.action) == (True, None)


def test_first_matching_rule_wins() -> None:
    p = policy(exit_rule("Ignore", "In", [42]), exit_rule("FailJob", "In", [42]))
    match = match_pod_failure_policy(p, make_pod("p", "Failed", exit_code=42), GATES)
    assert (match.action, match.count_failed) == ("Ignore", False)


def test_fail_job_carries_a_message_naming_container_code_and_rule() -> None:
    p = policy(exit_rule("Count", "In", [1]), exit_rule("FailJob", "NotIn", [0, 1]))
    match = match_pod_failure_policy(p, make_pod("p", "Failed", exit_code=5), GATES)
    assert match.action == "FailJob"
    assert match.fail_job_message == (
        "Container main for pod default/p failed with exit code 5 matching FailJob rule at index 1"
    )


def test_exit_code_zero_never_matches() -> None:
    p = policy(exit_rule("FailJob", "NotIn", [1]))
    assert match_pod_failure_policy(p, make_pod("p", "Failed", exit_code=0), GATES).action is None


def test_container_name_filter() -> None:
    p = policy(exit_rule("FailJob", "In", [2], container="other"))
    assert match_pod_failure_policy(p, make_pod("p", "Failed", exit_code=2), GATES).action is None


def test_pod_both_disrupted_and_failing_follows_rule_order() -> None:
    pod = make_pod("p", "Failed", exit_code=7, conditions=DISRUPTED)
    ignore_disruption_first = policy({"action": "Ignore", "onPodConditions": DISRUPTED}, exit_rule("FailJob", "In", [7]))
    fail_first = policy(exit_rule("FailJob", "In", [7]), {"action": "Ignore", "onPodConditions": DISRUPTED})
    assert match_pod_failure_policy(ignore_disruption_first, pod, GATES).action == "Ignore"
    assert match_pod_failure_policy(fail_first, pod, GATES).action == "FailJob"


def test_condition_rule_message() -> None:
    p = policy({"action": "FailJob", "onPodConditions": DISRUPTED})
    match = match_pod_failure_policy(p, make_pod("p", "Failed", conditions=DISRUPTED), GATES)
    assert match.fail_job_message == "Pod default/p has condition DisruptionTarget matching FailJob rule at index 0"


def test_fail_index_rule_is_skipped_without_backoff_limit_per_index() -> None:
    p = policy(exit_rule("FailIndex", "In", [3]), exit_rule("Ignore", "In", [3]))
    pod = make_pod("p", "Failed", exit_code=3)
    assert match_pod_failure_policy(p, pod, GATES).action == "FailIndex"
    off = FeatureGates.for_release(32).with_overrides({"JobBackoffLimitPerIndex": False})
    assert match_pod_failure_policy(p, pod, off).action == "Ignore"
