"""Suite `validation`: the API server's create, update and status-update checks of Jobs and CronJobs
(objects validated as given, without defaulting)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from jobmodel.api import strategy, warnings
from jobmodel.api.field import FieldError, ServerPanic
from jobmodel.api.schema import decode_object, member, obj
from jobmodel.conformance.suites import COMMON_CASE_KEYS, case_gates, check_case_strings
from jobmodel.errors import InputError, describe, quote
from jobmodel.simulation.scenario import FIELD_ERROR_PAIR

KINDS = ("Job", "CronJob")
CASE_KEYS = COMMON_CASE_KEYS | {"kind", "operation", "subresource", "object", "oldObject"}
EXPECT_KEYS = frozenset({"valid", "errors", "errorsInclude"})


def validate_case(case: Mapping[str, Any]) -> tuple[list[FieldError], list[str]]:
    """The errors of the case's write (create, update, or update of the status subresource), and
    the warnings the API server sends when there are none (jobmodel.api.warnings)."""
    kind, operation = case.get("kind"), case.get("operation")
    if kind not in KINDS:
        raise InputError("kind", f"expected one of {', '.join(KINDS)}, got {quote(kind)}")
    check_case_strings(case)
    gates = case_gates(case)
    release = gates.release
    new = decode_object(case.get("object"), str(kind), "object", release)
    if operation == "create":
        if kind == "Job":
            return _unless_invalid(strategy.job_validate(new, gates), lambda: warnings.job_warnings_on_create(new, release))
        return _unless_invalid(strategy.cron_job_validate(new, gates), lambda: warnings.cron_job_warnings_on_create(new, release))
    if operation != "update":
        raise InputError("operation", f"expected create or update, got {quote(operation)}")
    old = decode_object(case.get("oldObject"), str(kind), "oldObject", release)
    subresource = case.get("subresource")
    if subresource == "status":  # the status strategies warn of nothing
        if kind == "Job":
            return strategy.job_status_validate_update(new, old, gates), []
        return strategy.cron_job_status_validate_update(new, old, gates), []
    if subresource is not None:
        raise InputError("subresource", f"expected absent or status, got {quote(subresource)}")
    if kind == "Job":
        return _unless_invalid(strategy.job_validate_update(new, old, gates), lambda: warnings.job_warnings_on_update(new, old, release))
    return _unless_invalid(
        strategy.cron_job_validate_update(new, old, gates), lambda: warnings.cron_job_warnings_on_update(new, old, release)
    )


def _unless_invalid(errors: list[FieldError], warned: Callable[[], list[str]]) -> tuple[list[FieldError], list[str]]:
    return errors, ([] if errors else warned())


def model_outcome(case: Mapping[str, Any]) -> dict[str, Any]:
    try:
        errors, warned = validate_case(case)
    except ServerPanic as err:
        # Upstream's validation panics on this input: the API server fails the request (500).
        return {"valid": False, "errors": [], "serverError": str(err)}
    return {
        "valid": not errors,
        "errors": [
            {"field": e.field, "type": e.type, "detail": e.detail, "message": str(e)}
            for e in errors
        ],
        "warnings": warned,
    }


def _matches(want: Mapping[str, Any], got: Mapping[str, Any]) -> bool:
    if want.get("field") != got.get("field") or want.get("type") != got.get("type"):
        return False
    detail = want.get("detail")
    return (
        detail is None
        or detail in str(got.get("message", ""))
        or detail in str(got.get("detail", ""))
    )


def _clip(text: str, limit: int = 300) -> str:
    """Long bad values (a 64 KiB index string) are cut in the report."""
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def _show(e: Mapping[str, Any]) -> str:
    return f"{e.get('field')} {e.get('type')}" + (f" ({e['detail']!r})" if e.get("detail") else "")


def compare(case: Mapping[str, Any], outcome: Mapping[str, Any]) -> list[str]:
    expect = dict(obj(case.get("expect"), "expect"))
    for key in ("errors", "errorsInclude"):
        if key in expect:
            # Decoded: a null item is an empty object, as Go's decoder makes it.
            expect[key] = member(expect, key, ("list", FIELD_ERROR_PAIR), "expect") or []
    got_errors: list[Mapping[str, Any]] = list(outcome.get("errors") or [])
    diffs: list[str] = []
    if "valid" in expect and not isinstance(expect["valid"], bool):
        raise InputError("expect.valid", f"expected true or false, got {describe(expect['valid'])}")
    if "valid" in expect and expect["valid"] != bool(outcome.get("valid")):
        shown = "; ".join(_clip(str(e.get("message", _show(e)))) for e in got_errors) or "no errors"
        diffs.append(
            f"valid: expected {str(expect['valid']).lower()}, got {str(outcome.get('valid')).lower()} ({shown})"
        )
    for key in ("errors", "errorsInclude"):
        if key not in expect:
            continue
        wanted: list[Mapping[str, Any]] = list(expect[key])
        for want in wanted:
            if not any(_matches(want, got) for got in got_errors):
                near = [
                    _clip(str(g.get("message")))
                    for g in got_errors
                    if g.get("field") == want.get("field")
                ]
                diffs.append(f"{key}: missing {_show(want)}" + (f"; got {near}" if near else ""))
        if key == "errors":
            for got in got_errors:
                if not any(
                    w.get("field") == got.get("field") and w.get("type") == got.get("type")
                    for w in wanted
                ):
                    diffs.append(
                        f"errors: unexpected {_clip(str(got.get('message', _show(got))))} [{got.get('type')}]"
                    )
    return diffs
