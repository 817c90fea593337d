"""The shared `validation` and `defaulting` vectors run through the model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jobmodel.conformance import defaulting, validation


def _cases(directory: Path, name: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads((directory / name).read_text())["cases"]
    return cases


def test_validation_vectors(conformance_dir: Path) -> None:
    failures = {}
    for case in _cases(conformance_dir, "validation.json"):
        diffs = validation.compare(case, validation.model_outcome(case))
        if diffs:
            failures[case["name"]] = diffs
    assert failures == {}


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
    ("bad", "field"),
    [
        ({"kind": "Pod", "operation": "create", "object": {}}, "kind"),
        ({"kind": "Job", "operation": "patch", "object": {}}, "operation"),
    ],
)
def test_malformed_cases_raise_input_errors(bad: dict[str, Any], field: str) -> None:
    from jobmodel.errors import InputError

    with pytest.raises(InputError) as refused:
        validation.model_outcome(bad)
    assert refused.value.field == field
