"""The shared `validation` and `defaulting` vectors run through the model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jobmodel.conformance import defaulting, validation

# Vectors whose `detail` comes from apimachinery before v0.32 (see docs/validation.md, "Vectors
# believed wrong"): the model follows the v1.32 line, so these details cannot match.
OLD_TOO_LONG_MESSAGES = {
    "TestValidateJob: spec.managedBy: Too long: may not be longer than 63",
    "TestValidateJob: spec.successPolicy.rules[0].succeededIndexes: Too long: must have at most 65536 bytes",
}


def _cases(directory: Path, name: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads((directory / name).read_text())["cases"]
    return cases


def test_validation_vectors(conformance_dir: Path) -> None:
    failures = {}
    for case in _cases(conformance_dir, "validation.json"):
        diffs = validation.compare(case, validation.model_outcome(case))
        if diffs:
            failures[case["name"]] = diffs
    assert set(failures) <= OLD_TOO_LONG_MESSAGES, failures
    for name in set(failures):
        # Only the wording of the detail differs: field and type match.
        assert all("FieldValueTooLong" in d and "may not be more than" in d for d in failures[name])


def test_defaulting_vectors(conformance_dir: Path) -> None:
    for case in _cases(conformance_dir, "defaulting.json"):
        assert defaulting.compare(case, defaulting.model_outcome(case)) == [], case["name"]


def test_compare_reports_missing_and_unexpected_errors() -> None:
    case = {
        "expect": {"valid": False, "errors": [{"field": "spec.a", "type": "FieldValueInvalid"}]}
    }
    outcome = {
        "valid": False,
        "errors": [
            {"field": "spec.b", "type": "FieldValueRequired", "message": "spec.b: Required value"}
        ],
    }
    diffs = validation.compare(case, outcome)
    assert len(diffs) == 2
    assert (
        validation.compare(
            case,
            {
                "valid": False,
                "errors": [{"field": "spec.a", "type": "FieldValueInvalid", "message": "m"}],
            },
        )
        == []
    )


def test_compare_checks_detail_substring() -> None:
    case = {
        "expect": {
            "valid": False,
            "errorsInclude": [{"field": "x", "type": "FieldValueInvalid", "detail": "must be"}],
        }
    }
    ok = {
        "valid": False,
        "errors": [
            {
                "field": "x",
                "type": "FieldValueInvalid",
                "message": "x: Invalid value: 1: must be ok",
            }
        ],
    }
    bad = {
        "valid": False,
        "errors": [
            {"field": "x", "type": "FieldValueInvalid", "message": "x: Invalid value: 1: other"}
        ],
    }
    assert validation.compare(case, ok) == []
    assert validation.compare(case, bad) != []


@pytest.mark.parametrize(
    "bad",
    [
        {"kind": "Pod", "operation": "create", "object": {}},
        {"kind": "Job", "operation": "patch", "object": {}},
    ],
)
def test_malformed_cases_raise_input_errors(bad: dict[str, Any]) -> None:
    from jobmodel.errors import InputError

    with pytest.raises(InputError):
        validation.model_outcome(bad)
