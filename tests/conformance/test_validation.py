"""The validation suite's reading of a case (jobmodel/conformance/validation.py).

The upstream harness decodes a case with encoding/json into apiCase
(harness/upstream/apiserver.go: `kind`, `operation` strings, `subresource` a *string, `features`,
`object`, `oldObject` raw JSON), then `object` (and, for an update, `oldObject`) with the API
server's strict decoder (sigs.k8s.io/json UnmarshalStrict into batchv1.Job or batchv1.CronJob):
an unknown field, a value of another JSON kind or an integer its Go field cannot hold fails the
case, with an error naming the key (`object: ...`, `oldObject: ...`, `operation: ...`)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from jobmodel.conformance import validation
from tests.builders import ABSENT, assert_refused, changed_case

VECTORS = Path(__file__).resolve().parents[2] / "jobmodel" / "conformance" / "vectors"
CASES: list[dict[str, Any]] = json.loads((VECTORS / "validation.json").read_text())["cases"]

# FORMAT.md's field-error type names.
ERROR_TYPES = {
    "FieldValueRequired", "FieldValueInvalid", "FieldValueForbidden", "FieldValueNotSupported",
    "FieldValueDuplicate", "FieldValueTooLong", "FieldValueTooMany",
}  # fmt: skip


def smallest(kind: str, operation: str, valid: bool) -> dict[str, Any]:
    """The smallest bundled case of the kind and operation that upstream finds (in)valid."""
    matching = [
        c for c in CASES
        if c["kind"] == kind and c["operation"] == operation and c.get("subresource") is None and c["expect"]["valid"] is valid
    ]  # fmt: skip
    return copy.deepcopy(min(matching, key=lambda c: len(json.dumps(c))))


def refused(case: dict[str, Any], field: str) -> None:
    assert_refused(validation.model_outcome, case, field)


# (id, kind, operation, path, value, the field the error names)
MALFORMED: list[tuple[str, str, str, tuple[str, ...], object, str]] = [
    ("kind-number", "Job", "create", ("kind",), 5, "kind"),
    ("kind-missing", "Job", "create", ("kind",), ABSENT, "kind"),
    ("kind-Pod", "Job", "create", ("kind",), "Pod", "kind"),
    ("operation-number", "Job", "create", ("operation",), 1, "operation"),
    ("operation-missing", "Job", "create", ("operation",), ABSENT, "operation"),
    ("operation-delete", "Job", "create", ("operation",), "delete", "operation"),
    ("features-list", "Job", "create", ("features",), ["JobManagedBy"], "features"),
    ("features-value-string", "Job", "create", ("features",), {"JobManagedBy": "true"}, "features.JobManagedBy"),
    ("features-unknown-gate", "Job", "create", ("features",), {"NoSuchGate": True}, "features.NoSuchGate"),
    ("object-missing", "Job", "create", ("object",), ABSENT, "object"),
    ("object-null", "Job", "create", ("object",), None, "object"),
    ("object-string", "Job", "create", ("object",), "myjob", "object"),
    ("object-unknown-field", "Job", "create", ("object", "spec", "parallelisms"), 1, "object.spec.parallelisms"),
    ("object-upper-case-field", "Job", "create", ("object", "Spec"), {}, "object.Spec"),  # strict decoding is case-sensitive
    ("object-status-unknown-field", "Job", "create", ("object", "status", "succeded"), 1, "object.status.succeded"),
    ("manualSelector-string", "Job", "create", ("object", "spec", "manualSelector"), "true", "object.spec.manualSelector"),
    ("label-value-number", "Job", "create", ("object", "metadata", "labels"), {"a": 1}, "object.metadata.labels[a]"),  # field.Path.Key
    ("ttlSecondsAfterFinished-float", "Job", "create", ("object", "spec", "ttlSecondsAfterFinished"), 1.5, "object.spec.ttlSecondsAfterFinished"),
    ("completions-2^31", "Job", "create", ("object", "spec", "completions"), 1 << 31, "object.spec.completions"),
    ("completions--2^31-1", "Job", "create", ("object", "spec", "completions"), -(1 << 31) - 1, "object.spec.completions"),
    ("activeDeadlineSeconds-2^63", "Job", "create", ("object", "spec", "activeDeadlineSeconds"), 1 << 63, "object.spec.activeDeadlineSeconds"),
    ("cronjob-timeZone-number", "CronJob", "create", ("object", "spec", "timeZone"), 0, "object.spec.timeZone"),
    ("cronjob-startingDeadlineSeconds-2^63", "CronJob", "create", ("object", "spec", "startingDeadlineSeconds"), 1 << 63, "object.spec.startingDeadlineSeconds"),
    ("update-oldObject-missing", "Job", "update", ("oldObject",), ABSENT, "oldObject"),
    ("update-oldObject-null", "Job", "update", ("oldObject",), None, "oldObject"),
    ("update-oldObject-list", "Job", "update", ("oldObject",), [], "oldObject"),
    ("update-oldObject-unknown-field", "Job", "update", ("oldObject", "spec", "parallelisms"), 1, "oldObject.spec.parallelisms"),
    ("update-oldObject-parallelism-2^31", "Job", "update", ("oldObject", "spec", "parallelism"), 1 << 31, "oldObject.spec.parallelism"),
    ("update-subresource-number", "Job", "update", ("subresource",), 5, "subresource"),
    ("update-subresource-empty", "Job", "update", ("subresource",), "", "subresource"),
    ("update-subresource-spec", "Job", "update", ("subresource",), "spec", "subresource"),
    ("cronjob-update-oldObject-unknown-field", "CronJob", "update", ("oldObject", "spec", "schedules"), "@daily", "oldObject.spec.schedules"),
]


@pytest.mark.parametrize(
    ("kind", "operation", "path", "value", "field"), [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED]
)
def test_a_malformed_case_is_refused_naming_the_field(
    kind: str, operation: str, path: tuple[str, ...], value: object, field: str
) -> None:
    refused(changed_case(smallest(kind, operation, True), path, value), field)


def test_int32_and_int64_limits_themselves_are_taken() -> None:
    case = changed_case(smallest("Job", "create", True), ("object", "spec", "activeDeadlineSeconds"), (1 << 63) - 1)
    case = changed_case(case, ("object", "spec", "completions"), (1 << 31) - 1)
    outcome = validation.model_outcome(case)
    assert isinstance(outcome["valid"], bool)


@pytest.mark.parametrize("value", [5, []], ids=["number", "list"])
def test_a_mistyped_subresource_of_a_create_is_refused(value: object) -> None:
    refused(changed_case(smallest("Job", "create", True), ("subresource",), value), "subresource")


def _check_shape(outcome: dict[str, Any]) -> None:
    """FORMAT.md: `valid` (bool) and `errors`, {field, type} pairs with upstream's type names."""
    assert isinstance(outcome["valid"], bool)
    assert isinstance(outcome["errors"], list)
    assert outcome["valid"] == (not outcome["errors"])
    for error in outcome["errors"]:
        assert isinstance(error["field"], str) and error["field"]
        assert error["type"] in ERROR_TYPES


@pytest.mark.parametrize("kind", ["Job", "CronJob"])
@pytest.mark.parametrize("operation", ["create", "update"])
@pytest.mark.parametrize("valid", [True, False], ids=["valid", "invalid"])
def test_a_minimal_case_runs_to_the_documented_shape(kind: str, operation: str, valid: bool) -> None:
    case = smallest(kind, operation, valid)
    outcome = validation.model_outcome(case)
    _check_shape(outcome)
    # And it is upstream's answer, as the vector records it.
    assert outcome["valid"] is valid
    assert validation.compare(case, outcome) == []


def test_an_invalid_case_names_its_errors() -> None:
    """A bundled case whose `errors` upstream lists exactly."""
    listed = [c for c in CASES if c["expect"].get("errors") and c.get("features") is None]
    case = copy.deepcopy(min(listed, key=lambda c: len(json.dumps(c))))
    outcome = validation.model_outcome(case)
    _check_shape(outcome)
    assert {(e["field"], e["type"]) for e in outcome["errors"]} == {(e["field"], e["type"]) for e in case["expect"]["errors"]}


@pytest.mark.parametrize("kind", ["Job", "CronJob"])
def test_a_status_update_runs(kind: str) -> None:
    """An unchanged object through the status subresource."""
    case = smallest(kind, "create", True)
    outcome = validation.model_outcome(
        {**case, "operation": "update", "subresource": "status", "oldObject": copy.deepcopy(case["object"])}
    )
    _check_shape(outcome)


def test_a_null_subresource_is_the_main_resource() -> None:
    """A *string left nil by null: the update of the main resource."""
    case = smallest("Job", "update", False)
    assert validation.model_outcome({**case, "subresource": None}) == validation.model_outcome(case)


def test_a_create_never_reads_the_old_object() -> None:
    """The harness decodes oldObject (raw JSON) only for an update."""
    case = smallest("Job", "create", True)
    assert validation.model_outcome({**case, "oldObject": "not an object"}) == validation.model_outcome(case)


def test_null_features_are_no_features() -> None:
    case = smallest("Job", "create", True)
    assert validation.model_outcome({**case, "features": None}) == validation.model_outcome({**case, "features": {}})
