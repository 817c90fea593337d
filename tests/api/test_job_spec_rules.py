"""Each rule of upstream's validateJobSpec (pkg/apis/batch/validation/validation.go), one case
per rule: a valid Job changed in one place, and the exact set of (field, type) errors upstream's
code gives for it, so that a one-line change of any rule fails its own case."""

from __future__ import annotations

from typing import Any

import pytest

from jobmodel.api import validation as bv
from jobmodel.api.validation import JobValidationOptions
from tests.api.helpers import job, pairs, pod_template

OPTS = JobValidationOptions()
S = "spec"
INDEXED = {"completionMode": "Indexed", "completions": 4, "parallelism": 2}
FAIL_JOB = {"rules": [{"action": "FailJob", "onExitCodes": {"operator": "In", "values": [1]}}]}

RULES: list[tuple[str, dict[str, Any], set[tuple[str, str]]]] = [
    ("parallelism is non-negative", {"parallelism": -1}, {(f"{S}.parallelism", "FieldValueInvalid")}),
    ("completions is non-negative", {"completions": -1}, {(f"{S}.completions", "FieldValueInvalid")}),
    ("activeDeadlineSeconds is non-negative", {"activeDeadlineSeconds": -1}, {(f"{S}.activeDeadlineSeconds", "FieldValueInvalid")}),
    ("backoffLimit is non-negative", {"backoffLimit": -1}, {(f"{S}.backoffLimit", "FieldValueInvalid")}),
    ("ttlSecondsAfterFinished is non-negative", {"ttlSecondsAfterFinished": -1}, {(f"{S}.ttlSecondsAfterFinished", "FieldValueInvalid")}),
    ("backoffLimitPerIndex is non-negative", {**INDEXED, "backoffLimitPerIndex": -1}, {(f"{S}.backoffLimitPerIndex", "FieldValueInvalid")}),
    ("maxFailedIndexes is non-negative", {**INDEXED, "backoffLimitPerIndex": 1, "maxFailedIndexes": -1}, {(f"{S}.maxFailedIndexes", "FieldValueInvalid")}),
    ("maxFailedIndexes needs backoffLimitPerIndex", {**INDEXED, "maxFailedIndexes": 1}, {(f"{S}.backoffLimitPerIndex", "FieldValueRequired")}),
    ("managedBy is a domain-prefixed path", {"managedBy": "no-domain"}, {(f"{S}.managedBy", "FieldValueInvalid")}),
    ("managedBy is at most 63 characters", {"managedBy": "example.com/" + "a" * 52}, {(f"{S}.managedBy", "FieldValueTooLong")}),
    ("completionMode is NonIndexed or Indexed", {"completionMode": "Sometimes"}, {(f"{S}.completionMode", "FieldValueNotSupported")}),
    ("Indexed needs completions", {"completionMode": "Indexed", "parallelism": 1}, {(f"{S}.completions", "FieldValueRequired")}),
    ("Indexed parallelism is at most 100000", {**INDEXED, "parallelism": 100_001}, {(f"{S}.parallelism", "FieldValueInvalid")}),
    ("maxFailedIndexes is at most completions", {**INDEXED, "backoffLimitPerIndex": 1, "maxFailedIndexes": 5}, {(f"{S}.maxFailedIndexes", "FieldValueInvalid")}),
    (
        "maxFailedIndexes is at most 100000",
        {**INDEXED, "completions": 200_000, "backoffLimitPerIndex": 1, "maxFailedIndexes": 100_001, "parallelism": 1},
        # Also above the high-completions cap of 10000: upstream reports both.
        {(f"{S}.maxFailedIndexes", "FieldValueInvalid")},
    ),
    (
        "high completions with a per-index limit need maxFailedIndexes",
        {**INDEXED, "completions": 100_001, "backoffLimitPerIndex": 1},
        {(f"{S}.maxFailedIndexes", "FieldValueRequired")},
    ),
    (
        "high completions with a per-index limit cap parallelism at 10000",
        {**INDEXED, "completions": 100_001, "backoffLimitPerIndex": 1, "maxFailedIndexes": 1, "parallelism": 10_001},
        {(f"{S}.parallelism", "FieldValueInvalid")},
    ),
    (
        "high completions with a per-index limit cap maxFailedIndexes at 10000",
        {**INDEXED, "completions": 100_001, "backoffLimitPerIndex": 1, "maxFailedIndexes": 10_001},
        {(f"{S}.maxFailedIndexes", "FieldValueInvalid")},
    ),
    ("NonIndexed refuses backoffLimitPerIndex", {"backoffLimitPerIndex": 1}, {(f"{S}.backoffLimitPerIndex", "FieldValueInvalid")}),
    (
        "NonIndexed refuses maxFailedIndexes",
        {"completionMode": "NonIndexed", "backoffLimitPerIndex": 1, "maxFailedIndexes": 1},
        {(f"{S}.backoffLimitPerIndex", "FieldValueInvalid"), (f"{S}.maxFailedIndexes", "FieldValueInvalid")},
    ),
    ("successPolicy needs Indexed", {"successPolicy": {"rules": [{"succeededCount": 1}]}}, {(f"{S}.successPolicy", "FieldValueInvalid")}),
    (
        "podReplacementPolicy is Failed with a podFailurePolicy",
        {"podFailurePolicy": FAIL_JOB, "podReplacementPolicy": "TerminatingOrFailed"},
        {(f"{S}.podReplacementPolicy", "FieldValueNotSupported")},
    ),
    ("podReplacementPolicy is one of its values", {"podReplacementPolicy": "Sometimes"}, {(f"{S}.podReplacementPolicy", "FieldValueNotSupported")}),
    ("restartPolicy Always is refused", {"template": pod_template("Always")}, {(f"{S}.template.spec.restartPolicy", "FieldValueRequired")}),
    ("podFailurePolicy needs restartPolicy Never", {"template": pod_template("OnFailure"), "podFailurePolicy": FAIL_JOB}, {(f"{S}.template.spec.restartPolicy", "FieldValueInvalid")}),
]


@pytest.mark.parametrize(("spec", "errors"), [(spec, errors) for _, spec, errors in RULES], ids=[name for name, _, _ in RULES])
def test_each_job_spec_rule(spec: dict[str, Any], errors: set[tuple[str, str]]) -> None:
    assert pairs(bv.validate_job(job(**spec), OPTS)) == errors


@pytest.mark.parametrize(
    "spec",
    [
        INDEXED,
        {**INDEXED, "backoffLimitPerIndex": 1, "maxFailedIndexes": 4},
        {**INDEXED, "completions": 100_001, "backoffLimitPerIndex": 1, "maxFailedIndexes": 10_000, "parallelism": 10_000},
        {"managedBy": "example.com/" + "a" * 51},
        {"podFailurePolicy": FAIL_JOB, "podReplacementPolicy": "Failed"},
        {"completionMode": "Indexed", "completions": 2, "successPolicy": {"rules": [{"succeededCount": 1}]}},
    ],
)
def test_the_edges_of_each_limit_are_valid(spec: dict[str, Any]) -> None:
    assert bv.validate_job(job(**spec), OPTS) == []
