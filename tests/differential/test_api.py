"""The model's validation and defaulting (jobmodel/api) against upstream's code (harness/upstream),
on generated Job and CronJob manifests, creates and updates."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings

from jobmodel.adapters.upstream import UpstreamEngine
from jobmodel.conformance.defaulting import model_outcome as defaulting_outcome
from jobmodel.conformance.validation import model_outcome as validation_outcome
from tests.differential.api_strategies import cron_job_manifests, job_manifests, job_updates

EXAMPLES = 10000 if os.environ.get("HYPOTHESIS_PROFILE") == "long" else 1500


@pytest.fixture(scope="module")
def upstream() -> Iterator[UpstreamEngine]:
    engine = UpstreamEngine()
    yield engine
    engine.close()


def error_set(outcome: dict[str, Any]) -> tuple[bool, list[tuple[str, str, str]]]:
    errors = sorted({(e["field"], e["type"], e.get("detail", "")) for e in outcome.get("errors") or []})
    return bool(outcome.get("valid")), errors


def pruned(value: Any) -> Any:
    """JSON without empty objects, lists and nulls (Go writes some, the model leaves them out)."""
    if isinstance(value, dict):
        out = {k: pruned(v) for k, v in value.items()}
        return {k: v for k, v in out.items() if v not in ({}, [], None)}
    if isinstance(value, list):
        return [pruned(v) for v in value]
    return value


def check_validation(upstream: UpstreamEngine, case: dict[str, Any]) -> None:
    expected = error_set(upstream.outcome("validation", case))
    actual = error_set(validation_outcome(case))
    if actual != expected:
        pytest.fail(f"validation: model {actual} != upstream {expected} for {json.dumps(case)}")


@settings(max_examples=EXAMPLES)
@given(job_manifests())
def test_job_create_validation_agrees(upstream: UpstreamEngine, job: dict[str, Any]) -> None:
    check_validation(upstream, {"name": "g", "kind": "Job", "operation": "create", "object": job, "expect": {}})


@settings(max_examples=EXAMPLES // 2)
@given(job_updates())
def test_job_update_validation_agrees(upstream: UpstreamEngine, pair: tuple[dict[str, Any], dict[str, Any]]) -> None:
    old, new = pair
    case = {"name": "g", "kind": "Job", "operation": "update", "object": new, "oldObject": old, "expect": {}}
    check_validation(upstream, case)


@settings(max_examples=EXAMPLES // 2)
@given(cron_job_manifests())
def test_cron_job_create_validation_agrees(upstream: UpstreamEngine, cron: dict[str, Any]) -> None:
    check_validation(upstream, {"name": "g", "kind": "CronJob", "operation": "create", "object": cron, "expect": {}})


@settings(max_examples=EXAMPLES)
@given(job_manifests())
def test_job_defaulting_agrees(upstream: UpstreamEngine, job: dict[str, Any]) -> None:
    case = {"name": "g", "kind": "Job", "object": job, "expect": {}}
    expected = pruned(upstream.outcome("defaulting", case).get("object"))
    actual = pruned(defaulting_outcome(case).get("object"))
    if actual != expected:
        pytest.fail(f"defaulting: model {json.dumps(actual)} != upstream {json.dumps(expected)}")


@settings(max_examples=EXAMPLES // 2)
@given(cron_job_manifests())
def test_cron_job_defaulting_agrees(upstream: UpstreamEngine, cron: dict[str, Any]) -> None:
    case = {"name": "g", "kind": "CronJob", "object": cron, "expect": {}}
    expected = pruned(upstream.outcome("defaulting", case).get("object"))
    actual = pruned(defaulting_outcome(case).get("object"))
    if actual != expected:
        pytest.fail(f"defaulting: model {json.dumps(actual)} != upstream {json.dumps(expected)}")
