"""The defaulting suite's reading of a case (jobmodel/conformance/defaulting.py).

The upstream harness decodes a case with encoding/json into apiCase
(harness/upstream/apiserver.go: `kind`, `operation` strings, `subresource` a *string, `features`,
`object`, `oldObject` raw JSON), then each object with the API server's strict decoder
(sigs.k8s.io/json UnmarshalStrict into batchv1.Job or batchv1.CronJob): an unknown field, a value of
another JSON kind or an integer its Go field cannot hold fails the case, with an error that starts
with `object: ` or `oldObject: `. A null or absent `object` is "object: required"."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from jobmodel.conformance import defaulting
from jobmodel.errors import InputError
from tests.builders import ABSENT, assert_refused, changed_case

VECTORS = Path(__file__).resolve().parents[2] / "jobmodel" / "conformance" / "vectors"
CASES: list[dict[str, Any]] = json.loads((VECTORS / "defaulting.json").read_text())["cases"]


def a_case(kind: str = "Job") -> dict[str, Any]:
    """The smallest bundled case of the kind."""
    of_kind = [c for c in CASES if c["kind"] == kind and c.get("oldObject") is None]
    return copy.deepcopy(min(of_kind, key=lambda c: len(json.dumps(c))))


def an_update(kind: str = "Job") -> dict[str, Any]:
    """A case updating the bundled object to itself."""
    case = a_case(kind)
    return {**case, "oldObject": copy.deepcopy(case["object"])}


def refused(case: dict[str, Any], field: str) -> None:
    assert_refused(defaulting.model_outcome, case, field)


CASE_KEYS: list[tuple[str, tuple[str, ...], object, str]] = [
    ("kind-number", ("kind",), 5, "kind"),
    ("kind-missing", ("kind",), ABSENT, "kind"),
    ("kind-Pod", ("kind",), "Pod", "kind"),
    ("kind-lower-case", ("kind",), "job", "kind"),
    ("features-string", ("features",), "JobManagedBy=false", "features"),
    ("features-value-number", ("features",), {"JobManagedBy": 0}, "features.JobManagedBy"),
    ("features-unknown-gate", ("features",), {"NoSuchGate": False}, "features.NoSuchGate"),
]


@pytest.mark.parametrize(("path", "value", "field"), [m[1:] for m in CASE_KEYS], ids=[m[0] for m in CASE_KEYS])
def test_a_malformed_case_key_is_refused_naming_it(path: tuple[str, ...], value: object, field: str) -> None:
    refused(changed_case(a_case(), path, value), field)


# Malformed objects: (id, kind, path in the case, value, the field inside the object).
IN_OBJECT: list[tuple[str, str, tuple[str, ...], object, str]] = [
    ("unknown-spec-field", "Job", ("object", "spec", "parallelisms"), 1, "spec.parallelisms"),
    ("upper-case-spec", "Job", ("object", "Spec"), {}, "Spec"),  # the strict decoder is case-sensitive
    ("suspend-string", "Job", ("object", "spec", "suspend"), "true", "spec.suspend"),
    ("name-number", "Job", ("object", "metadata", "name"), 5, "metadata.name"),
    ("completions-float", "Job", ("object", "spec", "completions"), 2.0, "spec.completions"),
    ("parallelism-2^31", "Job", ("object", "spec", "parallelism"), 1 << 31, "spec.parallelism"),
    ("parallelism--2^31-1", "Job", ("object", "spec", "parallelism"), -(1 << 31) - 1, "spec.parallelism"),
    ("activeDeadlineSeconds-2^63", "Job", ("object", "spec", "activeDeadlineSeconds"), 1 << 63, "spec.activeDeadlineSeconds"),
    ("schedule-number", "CronJob", ("object", "spec", "schedule"), 5, "spec.schedule"),
    ("startingDeadlineSeconds-2^63", "CronJob", ("object", "spec", "startingDeadlineSeconds"), 1 << 63, "spec.startingDeadlineSeconds"),
    ("successfulJobsHistoryLimit-2^31", "CronJob", ("object", "spec", "successfulJobsHistoryLimit"), 1 << 31, "spec.successfulJobsHistoryLimit"),
]
IN_OLD_OBJECT: list[tuple[str, str, tuple[str, ...], object, str]] = [
    ("old-unknown-spec-field", "Job", ("oldObject", "spec", "parallelisms"), 1, "spec.parallelisms"),
    ("old-parallelism-2^31", "Job", ("oldObject", "spec", "parallelism"), 1 << 31, "spec.parallelism"),
    ("old-startingDeadlineSeconds-2^63", "CronJob", ("oldObject", "spec", "startingDeadlineSeconds"), 1 << 63, "spec.startingDeadlineSeconds"),
]
OBJECTS = IN_OBJECT + IN_OLD_OBJECT


def _case(kind: str, path: tuple[str, ...], value: object) -> dict[str, Any]:
    return changed_case(an_update(kind) if path[0] == "oldObject" else a_case(kind), path, value)


@pytest.mark.parametrize(("kind", "path", "value", "inner"), [m[1:] for m in OBJECTS], ids=[m[0] for m in OBJECTS])
def test_a_malformed_object_is_refused(kind: str, path: tuple[str, ...], value: object, inner: str) -> None:
    """An InputError naming the field inside the object, never another exception."""
    with pytest.raises(InputError, match=rf"(^|\.){re.escape(inner)}: "):
        defaulting.model_outcome(_case(kind, path, value))


@pytest.mark.parametrize(("kind", "path", "value", "inner"), [m[1:] for m in OBJECTS], ids=[m[0] for m in OBJECTS])
def test_a_malformed_object_is_refused_naming_the_object(kind: str, path: tuple[str, ...], value: object, inner: str) -> None:
    refused(_case(kind, path, value), f"{path[0]}.{inner}")


NOT_AN_OBJECT: list[tuple[str, str, object]] = [
    ("object-missing", "object", ABSENT),
    ("object-null", "object", None),
    ("object-string", "object", "myjob"),
    ("object-list", "object", []),
    ("oldObject-string", "oldObject", "myjob"),
    ("oldObject-list", "oldObject", []),
]


@pytest.mark.parametrize(("key", "value"), [m[1:] for m in NOT_AN_OBJECT], ids=[m[0] for m in NOT_AN_OBJECT])
def test_an_object_that_is_not_an_object_is_refused(key: str, value: object) -> None:
    with pytest.raises(InputError):
        defaulting.model_outcome(changed_case(an_update() if key == "oldObject" else a_case(), (key,), value))


@pytest.mark.parametrize(("key", "value"), [m[1:] for m in NOT_AN_OBJECT], ids=[m[0] for m in NOT_AN_OBJECT])
def test_an_object_that_is_not_an_object_is_refused_naming_it(key: str, value: object) -> None:
    refused(changed_case(an_update() if key == "oldObject" else a_case(), (key,), value), key)


@pytest.mark.parametrize("key", ["operation", "subresource"])
def test_a_mistyped_operation_or_subresource_is_refused(key: str) -> None:
    refused(changed_case(a_case(), (key,), 5), key)


@pytest.mark.parametrize("kind", ["Job", "CronJob"])
def test_a_minimal_case_runs_to_the_documented_shape(kind: str) -> None:
    case = a_case(kind)
    outcome = defaulting.model_outcome(case)
    assert set(outcome) == {"object"}
    result = outcome["object"]
    assert isinstance(result, dict)
    assert (result.get("apiVersion"), result.get("kind")) == ("batch/v1", kind)
    assert isinstance(result.get("spec"), dict)
    # And it is upstream's answer, as the vector records it.
    assert defaulting.compare(case, outcome) == []


def test_a_job_is_defaulted() -> None:
    """FORMAT.md: decoding defaults; batch/v1 SetDefaults_Job gives an unset parallelism 1."""
    case = changed_case(a_case("Job"), ("object", "spec", "parallelism"), ABSENT)
    assert defaulting.model_outcome(case)["object"]["spec"]["parallelism"] == 1


@pytest.mark.parametrize("kind", ["Job", "CronJob"])
def test_an_update_runs(kind: str) -> None:
    outcome = defaulting.model_outcome(an_update(kind))
    assert outcome["object"]["kind"] == kind


def test_a_null_old_object_is_a_create() -> None:
    """The harness prepares an update only for an oldObject that is neither absent nor null."""
    case = a_case()
    assert defaulting.model_outcome({**case, "oldObject": None}) == defaulting.model_outcome(case)


def test_null_features_are_no_features() -> None:
    case = a_case()
    assert defaulting.model_outcome({**case, "features": None}) == defaulting.model_outcome({**case, "features": {}})
