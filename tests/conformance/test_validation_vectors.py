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
    cases = _cases(conformance_dir, "validation.json")
    compared: list[dict[str, Any]] = []
    for case in cases:
        diffs = validation.compare(case, validation.model_outcome(case))
        compared.append(case)
        if diffs:
            failures[case["name"]] = diffs
    assert failures == {}
    # Not vacuous: every case was compared, and they cover what the suite is about (FORMAT.md:
    # Job and CronJob, create and update, valid and invalid writes, with exact error sets).
    assert len(compared) == len(cases) > 0
    assert {(c["kind"], c["operation"]) for c in compared} == {
        (kind, operation) for kind in ("Job", "CronJob") for operation in ("create", "update")
    }
    assert {c["expect"]["valid"] for c in compared} == {True, False}
    assert any(c["expect"].get("errors") for c in compared)


def test_defaulting_vectors(conformance_dir: Path) -> None:
    cases = _cases(conformance_dir, "defaulting.json")
    compared = []
    for case in cases:
        # compare() finds nothing to check in a case without expect.object: each case has one.
        assert case["expect"].get("object"), case["name"]
        assert defaulting.compare(case, defaulting.model_outcome(case)) == [], case["name"]
        compared.append(case["kind"])
    assert len(compared) == len(cases) > 0
    assert set(compared) == {"Job", "CronJob"}


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
    ("bad", "field", "accepted"),
    [
        ({"kind": "Pod", "operation": "create", "object": {}}, "kind", ("Job", "CronJob")),
        ({"kind": "Job", "operation": "patch", "object": {}}, "operation", ("create", "update")),
    ],
)
def test_malformed_cases_raise_input_errors(bad: dict[str, Any], field: str, accepted: tuple[str, str]) -> None:
    """FORMAT.md's suite `validation`: `kind` is Job or CronJob, `operation` create or update; the
    error names the field refused, the values it takes and the value given (quoted as JSON)."""
    from jobmodel.errors import InputError

    with pytest.raises(InputError) as refused:
        validation.model_outcome(bad)
    assert refused.value.field == field
    reason = refused.value.reason
    assert all(value in reason for value in accepted), reason
    assert reason.endswith(f"got {json.dumps(bad[field])}"), reason
    assert str(refused.value) == f"{field}: {reason}"
