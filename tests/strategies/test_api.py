"""jobmodel.strategies.api: the generated manifests, updates and status updates reach what the
differential API tests must cover (robfig's schedule edges, elastic Indexed updates, generated
selectors of stored Jobs, Job finishes, sidecars, hostnames), and are input the model answers
(an outcome, or a one-line InputError for what the decoder refuses)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest

from jobmodel.conformance.validation import model_outcome
from jobmodel.errors import InputError
from jobmodel.strategies import api
from tests.strategies import drawn

SAMPLES = 200


@functools.cache
def drawn_from(name: str) -> list[Any]:
    """SAMPLES values of the strategy `api.<name>()`, drawn once per run."""
    return drawn(getattr(api, name)(), 2 * SAMPLES, derandomize=True)


def _pod(job: dict[str, Any]) -> dict[str, Any]:
    return (job["spec"].get("template") or {}).get("spec") or {}


def _true(status: dict[str, Any] | None, ctype: str) -> bool:
    return any(c["type"] == ctype and c["status"] == "True" for c in (status or {}).get("conditions") or [])


def _elastic(pair: tuple[dict[str, Any], dict[str, Any]]) -> bool:
    old, new = pair
    return old["spec"].get("completionMode") == "Indexed" and new["spec"].get("completions") not in (None, old["spec"].get("completions"))


IMMUTABLE = ("podFailurePolicy", "successPolicy", "backoffLimitPerIndex", "managedBy", "completionMode", "selector")
REACHED: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "a schedule with a month or weekday name": ("cron_job_manifests", lambda c: any(n in c["spec"]["schedule"].upper() for n in ("JAN", "MON", "SUN", "DEC"))),
    "a descriptor beyond @hourly and @every": ("cron_job_manifests", lambda c: c["spec"]["schedule"].startswith("@") and c["spec"]["schedule"] != "@hourly" and not c["spec"]["schedule"].startswith("@every")),
    "a job template left unset": ("cron_job_manifests", lambda c: "spec" not in c["spec"].get("jobTemplate", {})),
    "an elastic Indexed update": ("job_updates", _elastic),
    "a stored Job's generated selector": ("job_updates", lambda p: "controller-uid" in str(p[0]["spec"].get("selector"))),
    "an immutable field set or cleared": ("job_updates", lambda p: any((k in p[0]["spec"]) != (k in p[1]["spec"]) for k in IMMUTABLE)),
    "a Job finished by the update": ("job_status_updates", lambda p: _true(p[1].get("status"), "Complete") and not _true(p[0].get("status"), "Complete")),
    "completed and failed indexes together": ("job_status_updates", lambda p: bool((p[1].get("status") or {}).get("completedIndexes")) and bool((p[1].get("status") or {}).get("failedIndexes"))),
    "an init container with a restart policy": ("job_manifests", lambda j: any("restartPolicy" in c for c in _pod(j).get("initContainers") or [])),
    "a hostname or subdomain": ("job_manifests", lambda j: "hostname" in _pod(j) or "subdomain" in _pod(j)),
}  # fmt: skip


@pytest.mark.parametrize("what", sorted(REACHED))
def test_the_draws_reach(what: str) -> None:
    name, reached = REACHED[what]
    assert any(reached(value) for value in drawn_from(name)), what


# ErrorType.String() of every field-error type, from upstream's apimachinery
# pkg/util/validation/field/errors.go (v0.37.2): the type names are the ErrorType constants.
TYPE_TEXT = {
    "FieldValueNotFound": "Not found",
    "FieldValueRequired": "Required value",
    "FieldValueDuplicate": "Duplicate value",
    "FieldValueInvalid": "Invalid value",
    "FieldValueNotSupported": "Unsupported value",
    "FieldValueForbidden": "Forbidden",
    "FieldValueTooLong": "Too long",
    "FieldValueTooMany": "Too many",
    "FieldValueTooFew": "Too few",
    "InternalError": "Internal error",
    "FieldValueTypeInvalid": "Invalid value",
    "FieldValueTooShort": "Too short",
}
# The types whose ErrorBody never shows the bad value (the first case of its switch).
VALUELESS = {"FieldValueRequired", "FieldValueForbidden", "FieldValueTooLong", "FieldValueTooShort", "InternalError"}


def _check_error(error: dict[str, Any]) -> None:
    """One reported error is rendered as upstream's field.Error.Error():
    `<field>: <ErrorBody>`, ErrorBody being `<type text>[: <bad value>][: <detail>]`."""
    assert set(error) == {"field", "type", "detail", "message"}, error
    field, etype, detail, message = error["field"], error["type"], error["detail"], error["message"]
    assert isinstance(field, str) and field, error
    assert etype in TYPE_TEXT, error
    assert isinstance(detail, str) and isinstance(message, str), error
    head = f"{field}: {TYPE_TEXT[etype]}"
    assert message.startswith(head), error
    tail = f": {detail}" if detail else ""
    if etype in VALUELESS:
        assert message == head + tail, error
    else:
        # Either the value is omitted (`head` + tail), or `: <value>` comes between them.
        assert message == head + tail or (message.startswith(head + ": ") and message.endswith(tail)), error


def test_the_model_answers_every_generated_validation_case() -> None:
    """Each answer is an outcome as the validation suite reports it: valid exactly when there is no
    error (and no server error), and each error typed and worded as upstream's field.Error."""
    answered: list[dict[str, Any]] = []
    for case in drawn(api.validation_cases(), SAMPLES, derandomize=True):
        try:
            outcome = model_outcome(case)
        except InputError:
            continue  # the decoder refuses the object (a bad quantity), as upstream's does
        answered.append(outcome)
        assert isinstance(outcome["valid"], bool)
        errors = outcome["errors"]
        assert isinstance(errors, list)
        if "serverError" in outcome:
            # Upstream's validation panics: the API server answers 500, no field errors.
            assert outcome["valid"] is False and errors == [], outcome
            assert isinstance(outcome["serverError"], str) and outcome["serverError"], outcome
        else:
            assert set(outcome) == {"valid", "errors", "warnings"}, outcome
            assert outcome["valid"] is (errors == []), outcome
            # The API server warns only of a write it accepts.
            assert all(isinstance(w, str) and w for w in outcome["warnings"]), outcome
            assert outcome["valid"] or outcome["warnings"] == [], outcome
        for error in errors:
            _check_error(error)
    # Not vacuous: most draws are answered, and both verdicts occur.
    assert len(answered) >= SAMPLES // 2, len(answered)
    assert {o["valid"] for o in answered} == {True, False}
    assert any(o["errors"] for o in answered)


def test_unknown_fields_are_added_where_the_decoder_finds_them() -> None:
    """with_unknown_fields adds one to three fields the strict decoder names (in closed structs
    only: none lands in a map such as labels), across the object's levels; left out, none remains."""
    from hypothesis import strategies as st

    from jobmodel.api.schema import without_unknown_fields

    manifests = drawn(st.one_of(api.warned_jobs(), api.warned_cron_jobs()).flatmap(api.with_unknown_fields), SAMPLES, derandomize=True)
    depths: set[int] = set()
    for manifest in manifests:
        pruned, unknown = without_unknown_fields(manifest, manifest["kind"])
        assert 1 <= len(unknown) <= 3, unknown
        assert all(path.rsplit(".", 1)[-1] in api.UNKNOWN_FIELD_NAMES for path in unknown), unknown
        assert without_unknown_fields(pruned, manifest["kind"])[1] == []
        depths.update(path.count(".") for path in unknown)
    assert {0, 1, 3, 4} <= depths, depths  # the object, its spec, a Job's template spec, a container
