"""The ways a checkers' pod can fail, read from the Job's podFailurePolicy."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest

from jobmodel.api.wire import job_from_json
from jobmodel.errors import InputError
from jobmodel.state import Job
from jobmodel.transitions.pod_endings import (
    Failure,
    failure_modes,
    parse_failure,
    terminated_statuses,
)

NOW = datetime(2025, 1, 1, tzinfo=UTC)


def job(rules: list[dict[str, Any]] | None, containers: tuple[str, ...] = ("main",), inits: tuple[str, ...] = ()) -> Job:
    spec: dict[str, Any] = {
        "restartPolicy": "Never",
        "containers": [{"name": n, "image": "busybox"} for n in containers],
    }
    if inits:
        spec["initContainers"] = [{"name": n, "image": "busybox"} for n in inits]
    body: dict[str, Any] = {"parallelism": 1, "completions": 1, "backoffLimit": 1, "template": {"spec": spec}}
    if rules is not None:
        body["podFailurePolicy"] = {"rules": rules}
    manifest = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j", "namespace": "d", "uid": "u"}, "spec": body}
    return job_from_json(manifest)


def test_a_job_without_a_policy_fails_one_way() -> None:
    assert failure_modes(job(None)) == ("",)
    assert parse_failure(job(None), "") == Failure()


def test_each_code_in_its_container_the_same_code_elsewhere_each_condition_and_a_neutral_code() -> None:
    rules: list[dict[str, Any]] = [
        {"action": "FailJob", "onExitCodes": {"containerName": "main", "operator": "In", "values": [42, 43, 44]}},
        {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]},
    ]
    modes = failure_modes(job(rules, containers=("main", "side")))
    # Two codes of an In rule tell it apart; the same code in `side` must not match the rule.
    # The condition with the other status must not match the Ignore rule either.
    assert modes == (
        "exit=42@main", "exit=42@side", "exit=43@main", "exit=43@side",
        "cond=DisruptionTarget", "cond=DisruptionTarget:False", "exit=1@main",
    )


def test_not_in_names_a_code_it_matches_and_the_neutral_code_matches_no_rule() -> None:
    rules = [{"action": "Count", "onExitCodes": {"operator": "NotIn", "values": [1, 2]}}]
    modes = failure_modes(job(rules))
    assert modes[0] == "exit=3@main"
    # Every non-zero code but 1 and 2 matches the NotIn rule: 1 is the one that matches none.
    assert modes[-1] == "exit=1@main"


def test_a_failure_in_an_init_container_leaves_the_containers_unstarted() -> None:
    j = job([{"action": "FailJob", "onExitCodes": {"containerName": "setup", "operator": "In", "values": [7]}}], inits=("setup",))
    assert "exit=7@setup" in failure_modes(j)
    inits, containers = terminated_statuses(j, NOW, parse_failure(j, "exit=7@setup"))
    assert [s.name for s in inits] == ["setup"] and containers == ()
    assert inits[0].terminated is not None and inits[0].terminated.exit_code == 7


def test_a_condition_failure_exits_with_a_code_no_rule_matches() -> None:
    j = job([{"action": "FailJob", "onExitCodes": {"operator": "In", "values": [1]}}, {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]}])
    failure = parse_failure(j, "cond=DisruptionTarget")
    assert failure.conditions == (("DisruptionTarget", "True"),) and failure.exit_code == 2


# The fail move's argument, as failure_modes writes it: exit=CODE@CONTAINER or cond=TYPE[:STATUS].
GRAMMAR = "expected exit=CODE@CONTAINER or cond=TYPE[:STATUS]"


@pytest.mark.parametrize(
    ("arg", "reason"),
    [
        ("exit=x@main", "the exit code is an integer"),  # a code that is no integer
        ("exit=\u00b2@main", "the exit code is an integer"),  # a digit to str.isdigit, not to int()
        ("exit=2147483648@main", "the exit code is an integer"),  # past int32, what a status holds
        ("boom", GRAMMAR),  # neither exit= nor cond=
        ("cond=", GRAMMAR),  # a condition without its type
    ],
)
def test_a_malformed_failure_is_an_input_error(arg: str, reason: str) -> None:
    with pytest.raises(InputError, match=re.escape(reason)) as refused:
        parse_failure(job(None), arg)
    # The move's argument is refused, and the reason quotes it before saying what is wrong.
    assert refused.value.field == "move.arg"
    assert refused.value.reason == f"{arg!r}: {reason}"
    assert str(refused.value) == f"move.arg: {arg!r}: {reason}"


def test_a_failure_in_a_container_the_pod_does_not_have_is_an_input_error() -> None:
    failure = parse_failure(job(None), "exit=3@other")
    assert failure == Failure(3, "other")
    with pytest.raises(InputError, match="no container 'other'") as refused:
        terminated_statuses(job(None), NOW, failure)
    assert refused.value.field == "move.arg"
    assert refused.value.reason == "the pod has no container 'other'"
