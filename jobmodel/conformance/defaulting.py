"""Suite `defaulting`: decode defaults, then the API server's preparation for create (or update)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jobmodel.api import strategy
from jobmodel.api.defaults import set_defaults_cron_job, set_defaults_job
from jobmodel.api.schema import decode_object, obj
from jobmodel.conformance.suites import COMMON_CASE_KEYS, case_gates, check_case_strings
from jobmodel.errors import InputError, quote
from jobmodel.util.jsondiff import subset_diff

CASE_KEYS = COMMON_CASE_KEYS | {"kind", "object", "oldObject"}
EXPECT_KEYS = frozenset({"object"})


def model_outcome(case: Mapping[str, Any]) -> dict[str, Any]:
    kind = case.get("kind")
    if kind not in ("Job", "CronJob"):
        raise InputError("kind", f"expected Job or CronJob, got {quote(kind)}")
    check_case_strings(case)
    gates = case_gates(case)
    if case.get("object") is None:
        raise InputError("object", "required")
    obj = decode_object(case["object"], str(kind), "object", gates.release)
    old = None if case.get("oldObject") is None else decode_object(case["oldObject"], str(kind), "oldObject", gates.release)
    # The stored old object was decoded with defaults too, as the API server reads it.
    if kind == "Job":
        defaulted = set_defaults_job(obj, gates)
        result = (
            strategy.job_prepare_for_create(defaulted, gates)
            if old is None
            else strategy.job_prepare_for_update(defaulted, set_defaults_job(old, gates), gates)
        )
    else:
        defaulted = set_defaults_cron_job(obj, gates)
        result = (
            strategy.cron_job_prepare_for_create(defaulted, gates)
            if old is None
            else strategy.cron_job_prepare_for_update(defaulted, set_defaults_cron_job(old, gates), gates)
        )
    return {"object": result}


def compare(case: Mapping[str, Any], outcome: Mapping[str, Any]) -> list[str]:
    expect = obj(case.get("expect"), "expect")
    if "object" not in expect:
        return []
    return subset_diff(expect["object"], outcome.get("object"), "object")
