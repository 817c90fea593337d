"""Matching a failed pod against the Job's podFailurePolicy (upstream pkg/controller/job/pod_failure_policy.go)."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from jobmodel.features import FeatureGates
from jobmodel.state import (
    ContainerStatus,
    OnExitCodesRequirement,
    OnPodConditionsPattern,
    Pod,
    PodCondition,
    PodFailurePolicy,
)

IGNORE, FAIL_JOB, FAIL_INDEX, COUNT = "Ignore", "FailJob", "FailIndex", "Count"


@attrs.frozen
class PolicyMatch:
    """What matchPodFailurePolicy returns: the Job failure message (FailJob), whether the failure
    counts against the back-off limit, and the action of the matching rule (None: no rule matched)."""

    fail_job_message: str | None = None
    count_failed: bool = True
    action: str | None = None


NO_MATCH = PolicyMatch()


def match_pod_failure_policy(
    policy: PodFailurePolicy | None, pod: Pod, gates: FeatureGates
) -> PolicyMatch:
    """matchPodFailurePolicy: the first rule that matches decides; a FailIndex rule is skipped
    when JobBackoffLimitPerIndex is off."""
    if policy is None:
        return NO_MATCH
    for index, rule in enumerate(policy.rules):
        message: str | None = None
        if rule.on_exit_codes is not None:
            status = _match_on_exit_codes(pod, rule.on_exit_codes)
            if status is None:
                continue
            assert status.terminated is not None
            message = (
                f"Container {status.name} for pod {pod.metadata.namespace}/{pod.name} failed with exit code "
                f"{status.terminated.exit_code} matching {rule.action} rule at index {index}"
            )
        elif rule.on_pod_conditions is not None:
            cond = _match_on_pod_conditions(pod, rule.on_pod_conditions)
            if cond is None:
                continue
            message = (
                f"Pod {pod.metadata.namespace}/{pod.name} has condition {cond.type} matching "
                f"{rule.action} rule at index {index}"
            )
        else:
            continue
        if rule.action == IGNORE:
            return PolicyMatch(None, False, IGNORE)
        if rule.action == FAIL_INDEX:
            if gates.JobBackoffLimitPerIndex:
                return PolicyMatch(None, True, FAIL_INDEX)
        elif rule.action == COUNT:
            return PolicyMatch(None, True, COUNT)
        elif rule.action == FAIL_JOB:
            return PolicyMatch(message, True, FAIL_JOB)
    return NO_MATCH


def _match_on_exit_codes(pod: Pod, requirement: OnExitCodesRequirement) -> ContainerStatus | None:
    """matchOnExitCodes: regular containers first, then init containers."""
    found = _matching_container(pod.status.container_statuses, requirement)
    if found is not None:
        return found
    return _matching_container(pod.status.init_container_statuses, requirement)


def _matching_container(
    statuses: Sequence[ContainerStatus], requirement: OnExitCodesRequirement
) -> ContainerStatus | None:
    """getMatchingContainerFromList: a terminated container with a non-zero exit code that matches."""
    for status in statuses:
        if status.terminated is None:
            continue
        if requirement.container_name is not None and requirement.container_name != status.name:
            continue
        code = status.terminated.exit_code
        if code != 0 and _exit_code_matches(code, requirement):
            return status
    return None


def _exit_code_matches(code: int, requirement: OnExitCodesRequirement) -> bool:
    """isOnExitCodesOperatorMatching."""
    if requirement.operator == "In":
        return code in requirement.values
    if requirement.operator == "NotIn":
        return code not in requirement.values
    return False


def _match_on_pod_conditions(
    pod: Pod, patterns: Sequence[OnPodConditionsPattern]
) -> PodCondition | None:
    """matchOnPodConditions: the first pod condition (in the pod's order) that any pattern matches."""
    for cond in pod.status.conditions:
        for pattern in patterns:
            if cond.type == pattern.type and cond.status == pattern.status:
                return cond
    return None
