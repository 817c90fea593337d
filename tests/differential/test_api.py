"""The model's validation and defaulting (jobmodel/api) against upstream's code (harness/upstream),
on generated Job and CronJob manifests, creates and updates."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings

from jobmodel.adapters.oracle import CaseError
from jobmodel.conformance.agreement import judge
from jobmodel.conformance.defaulting import model_outcome as defaulting_outcome
from jobmodel.conformance.validation import model_outcome as validation_outcome
from jobmodel.errors import InputError
from jobmodel.strategies.api import (
    cron_job_manifests,
    cron_job_updates,
    features,
    job_manifests,
    job_status_updates,
    job_updates,
)
from tests.differential.conftest import ReleaseUpstream

# Job creates and defaulting get the most: the CI run takes about 35 s on 2 idle cores
# (up to about 100 s when the machine is busy); the long profile about 5 minutes.
EXAMPLES = 10000 if os.environ.get("HYPOTHESIS_PROFILE") == "long" else 1500


def _check(suite: str, case: dict[str, Any], model: Callable[[dict[str, Any]], dict[str, Any]], upstream: ReleaseUpstream) -> None:
    """The model's outcome judged against upstream's; an object the model's decoder refuses (a bad
    quantity) must fail upstream's decoding too, with the same reason."""
    try:
        outcome = model(case)
    except InputError as err:
        check_decoding_refused(suite, case, err, upstream)
        return
    verdict = judge(suite, case, outcome, lambda c: upstream.outcome(suite, c))
    if not verdict.agrees:
        pytest.fail(f"{suite} differs: {list(verdict.differences)} for {json.dumps(case)}")


def check_decoding_refused(suite: str, case: dict[str, Any], err: InputError, upstream: ReleaseUpstream) -> None:
    try:
        upstream.outcome(suite, case)
    except CaseError as refused:
        if err.reason not in refused.reason:
            pytest.fail(f"{suite}: the decoders refuse for other reasons: model {err}, upstream {refused.reason} for {json.dumps(case)}")
        return
    pytest.fail(f"{suite}: the model refuses ({err}), upstream decodes it for {json.dumps(case)}")


def check_defaulting(upstream: ReleaseUpstream, case: dict[str, Any]) -> None:
    _check("defaulting", upstream.case(case), defaulting_outcome, upstream)


def check_validation(upstream: ReleaseUpstream, case: dict[str, Any]) -> None:
    _check("validation", upstream.case(case), validation_outcome, upstream)


@settings(max_examples=EXAMPLES)
@given(job_manifests())
def test_job_create_validation_agrees(upstream: ReleaseUpstream, job: dict[str, Any]) -> None:
    check_validation(upstream, {"name": "g", "kind": "Job", "operation": "create", "object": job, "expect": {}})


@settings(max_examples=EXAMPLES // 3)
@given(job_updates())
def test_job_update_validation_agrees(upstream: ReleaseUpstream, pair: tuple[dict[str, Any], dict[str, Any]]) -> None:
    old, new = pair
    case = {"name": "g", "kind": "Job", "operation": "update", "object": new, "oldObject": old, "expect": {}}
    check_validation(upstream, case)


@settings(max_examples=EXAMPLES // 3)
@given(job_status_updates(), features())
def test_job_status_update_validation_agrees(
    upstream: ReleaseUpstream, pair: tuple[dict[str, Any], dict[str, Any]], gates: dict[str, bool]
) -> None:
    old, new = pair
    case = {"name": "g", "kind": "Job", "operation": "update", "subresource": "status", "object": new, "oldObject": old, "features": gates, "expect": {}}
    check_validation(upstream, case)


@settings(max_examples=EXAMPLES // 6)
@given(cron_job_updates())
def test_cron_job_update_validation_agrees(
    upstream: ReleaseUpstream, pair: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    old, new = pair
    case = {"name": "g", "kind": "CronJob", "operation": "update", "object": new, "oldObject": old, "expect": {}}
    check_validation(upstream, case)


@settings(max_examples=EXAMPLES // 4)
@given(cron_job_manifests())
def test_cron_job_create_validation_agrees(upstream: ReleaseUpstream, cron: dict[str, Any]) -> None:
    check_validation(upstream, {"name": "g", "kind": "CronJob", "operation": "create", "object": cron, "expect": {}})


@settings(max_examples=EXAMPLES)
@given(job_manifests(), features())
def test_job_defaulting_agrees(upstream: ReleaseUpstream, job: dict[str, Any], gates: dict[str, bool]) -> None:
    case = {"name": "g", "kind": "Job", "object": job, "features": gates, "expect": {}}
    check_defaulting(upstream, case)


def stored_old(upstream: ReleaseUpstream, raw_case: dict[str, Any]) -> dict[str, Any] | None:
    """The old object of an update as upstream stores it (defaulted, with a resourceVersion), or
    None where decoding refuses it (the model and upstream then agree on the refusal)."""
    old_case = upstream.case(raw_case)
    try:
        defaulting_outcome(old_case)
    except InputError as err:
        check_decoding_refused("defaulting", old_case, err, upstream)
        return None
    old: dict[str, Any] = upstream.outcome("defaulting", old_case)["object"]
    old.update({"apiVersion": "batch/v1", "kind": raw_case["kind"]})
    old["metadata"]["resourceVersion"] = "1"
    return old


@settings(max_examples=EXAMPLES // 6)
@given(job_updates(), features())
def test_job_update_defaulting_agrees(
    upstream: ReleaseUpstream, pair: tuple[dict[str, Any], dict[str, Any]], gates: dict[str, bool]
) -> None:
    """PrepareForUpdate against a stored old Job: the old one as upstream stores it (defaulted),
    since the suite's adapter takes `oldObject` as given."""
    raw_old, new = pair
    old = stored_old(upstream, {"name": "g", "kind": "Job", "object": raw_old, "features": gates, "expect": {}})
    if old is not None:
        check_defaulting(upstream, {"name": "g", "kind": "Job", "object": new, "oldObject": old, "features": gates, "expect": {}})


@settings(max_examples=EXAMPLES // 6)
@given(cron_job_updates())
def test_cron_job_update_defaulting_agrees(upstream: ReleaseUpstream, pair: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """PrepareForUpdate of a CronJob against the old one as upstream stores it (defaulted, with a status)."""
    raw_old, new = pair
    old = stored_old(upstream, {"name": "g", "kind": "CronJob", "object": raw_old, "expect": {}})
    if old is not None:
        old["status"] = {"lastScheduleTime": "2024-01-01T00:00:00Z"}
        check_defaulting(upstream, {"name": "g", "kind": "CronJob", "object": new, "oldObject": old, "expect": {}})


@settings(max_examples=EXAMPLES // 4)
@given(cron_job_manifests())
def test_cron_job_defaulting_agrees(upstream: ReleaseUpstream, cron: dict[str, Any]) -> None:
    case = {"name": "g", "kind": "CronJob", "object": cron, "expect": {}}
    check_defaulting(upstream, case)
