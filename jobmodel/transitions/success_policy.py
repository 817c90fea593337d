"""The Job's successPolicy (upstream pkg/controller/job/success_policy.go)."""

from __future__ import annotations

from jobmodel.features import FeatureGates
from jobmodel.state import SUCCESS_CRITERIA_MET, Job, JobCondition, SuccessPolicy
from jobmodel.transitions.indexes import Intervals, parse_indexes_from_string, total


def match_success_policy(
    policy: SuccessPolicy | None, completions: int, succeeded: Intervals, gates: FeatureGates
) -> str | None:
    """matchSuccessPolicy: the message `Matched rules at index N` of the first rule met, or None."""
    if not gates.JobSuccessPolicy or policy is None or not succeeded:
        return None
    for index, rule in enumerate(policy.rules):
        if rule.succeeded_indexes is not None:
            required = parse_indexes_from_string(rule.succeeded_indexes, completions)
            if not required:
                continue
            if _match_succeeded_indexes_rule(required, succeeded, rule.succeeded_count):
                return f"Matched rules at index {index}"
        elif rule.succeeded_count is not None and total(succeeded) >= rule.succeeded_count:
            return f"Matched rules at index {index}"
    return None


def _match_succeeded_indexes_rule(
    rule_indexes: Intervals, succeeded: Intervals, succeeded_count: int | None
) -> bool:
    """matchSucceededIndexesRule: all required indexes succeeded, or at least `succeededCount` of them."""
    contains = 0
    s = r = 0
    while r < len(rule_indexes) and s < len(succeeded):
        overlap = min(rule_indexes[r][1], succeeded[s][1]) - max(rule_indexes[r][0], succeeded[s][0]) + 1
        if overlap > 0:
            contains += overlap
        if succeeded[s][1] < rule_indexes[r][1]:
            s += 1
        elif succeeded[s][1] > rule_indexes[r][1]:
            r += 1
        else:
            s += 1
            r += 1
    return contains == total(rule_indexes) or (succeeded_count is not None and contains >= succeeded_count)


def delay_terminal_condition(gates: FeatureGates) -> bool:
    """delayTerminalCondition: Complete/Failed wait for the pods to terminate."""
    return gates.JobManagedBy or gates.JobPodReplacementPolicy


def has_success_criteria_met_condition(job: Job, gates: FeatureGates) -> JobCondition | None:
    """hasSuccessCriteriaMetCondition: the SuccessCriteriaMet=True condition, if the gates honour it."""
    if gates.JobSuccessPolicy or delay_terminal_condition(gates):
        cond = job.status.condition(SUCCESS_CRITERIA_MET)
        if cond is not None and cond.status == "True":
            return cond
    return None


def is_success_criteria_met_condition(cond: JobCondition | None, gates: FeatureGates) -> bool:
    """isSuccessCriteriaMetCondition."""
    return (
        (gates.JobSuccessPolicy or delay_terminal_condition(gates))
        and cond is not None
        and cond.type == SUCCESS_CRITERIA_MET
        and cond.status == "True"
    )
