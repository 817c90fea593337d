"""Conformance suite `schedule`: cron schedule arithmetic of the CronJob controller (utils.go)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jobmodel.api.schema import obj
from jobmodel.api.validation import validate_time_zone
from jobmodel.conformance.suites import COMMON_CASE_KEYS, case_gates
from jobmodel.errors import InputError, describe
from jobmodel.schedule.cron import (
    RECOVERED_PANIC,
    CronPanic,
    CronParseError,
    Schedule,
    parse_standard,
)
from jobmodel.schedule.gotime import LocationError, load_location
from jobmodel.schedule.times import (
    NEXT_SCHEDULE_DELTA_NANOS,
    MissedSchedules,
    ScheduleError,
    from_nanos,
    most_recent_schedule_time,
    next_schedule_time_duration_nanos,
    to_nanos,
)
from jobmodel.timeutil import format_time, parse_time
from jobmodel.util.goint import NANOS, int64
from jobmodel.util.jsondiff import exact_diff

CASE_KEYS = COMMON_CASE_KEYS | {"schedule", "timeZone", "earliestTime", "startingDeadlineSeconds"}
EXPECT_KEYS = frozenset({"error", "mostRecent", "tooManyMissed", "next"})


def format_schedule(schedule: str, time_zone: str | None) -> str:
    """formatSchedule (without its event): the spec the controller hands to cron.ParseStandard."""
    if "TZ" in schedule or time_zone is None:
        return schedule
    try:
        load_location(time_zone)
    except LocationError:
        return schedule
    return f"TZ={time_zone} {schedule}"


def schedule_for(schedule: str, time_zone: str | None) -> Schedule:
    """The schedule as API validation and the controller accept it, or CronParseError: TZ in
    the schedule is refused for new objects (validateScheduleFormat), an unknown zone by
    validateTimeZone and the controller alike."""
    parse_standard(schedule)  # first, as validateScheduleFormat: robfig may panic here (CronPanic)
    if "TZ" in schedule:
        raise CronParseError("cannot use TZ or CRON_TZ in schedule, use timeZone field instead")
    errors = validate_time_zone(time_zone, "spec.timeZone")
    if errors:
        raise CronParseError(errors[0].detail)
    return parse_standard(format_schedule(schedule, time_zone))


def _opt_str(case: Mapping[str, Any], key: str) -> str | None:
    value = case.get(key)
    if value is not None and not isinstance(value, str):
        raise InputError(key, f"expected a string, got {describe(value)}")
    return value


def _opt_int(case: Mapping[str, Any], key: str) -> int | None:
    """An optional *int64 of the harness's case."""
    value = case.get(key)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise InputError(key, f"expected an integer, got {describe(value)}")
    if value is not None and not -(1 << 63) <= value < 1 << 63:
        raise InputError(key, f"{value} is out of the int64 range")
    return value


def model_outcome(case: Mapping[str, Any]) -> dict[str, Any]:
    spec = case.get("schedule")
    if not isinstance(spec, str):
        raise InputError("schedule", "expected a string")
    time_zone = _opt_str(case, "timeZone")
    earliest = parse_time(case.get("earliestTime"), "earliestTime")
    now = parse_time(case.get("now"), "now")
    deadline = _opt_int(case, "startingDeadlineSeconds")
    try:
        schedule = schedule_for(spec, time_zone)
    except CronPanic as err:
        if case_gates(case).at_least(35):
            # validateScheduleFormat recovers it (ParseCronScheduleWithPanicRecovery): Invalid.
            return {"error": True, "reason": f"API validation: {RECOVERED_PANIC}"}
        # The API server recovers the panic and fails the create (500): nothing is computed.
        return {"error": True, "reason": f"API server: panic in upstream code: {err}"}
    except CronParseError as err:
        return {"error": True, "reason": f"API validation: {err}"}
    if deadline is not None and deadline < 0:
        # validateCronJobSpec: ValidateNonnegativeField on the CronJob carrying the deadline.
        return {"error": True, "reason": "API validation: spec.startingDeadlineSeconds: must be greater than or equal to 0"}
    try:
        result = most_recent_schedule_time(schedule, now, earliest, None, deadline)
        delay = next_schedule_time_duration_nanos(schedule, now, earliest)
    except ScheduleError as err:
        return {"error": True, "reason": f"controller: {err}"}
    if result.error is not None:
        return {"error": True, "reason": f"controller: {result.error}"}
    # now.Add(*delay - nextScheduleDelta), in Duration's int64 nanoseconds: a saturated delay
    # leaves a fraction of a second, which the harness writes (RFC3339Nano).
    wake = to_nanos(now) + int64(delay - NEXT_SCHEDULE_DELTA_NANOS)
    return {
        "error": False,
        "mostRecent": format_time(result.most_recent) if result.most_recent is not None else None,
        "tooManyMissed": result.missed is MissedSchedules.MANY,
        "next": format_rfc3339_nano(wake),
    }


def format_rfc3339_nano(unix_nanos: int) -> str:
    """t.UTC().Format(time.RFC3339Nano): whole seconds, then the fraction without trailing zeros."""
    secs, frac = divmod(unix_nanos, NANOS)
    whole = format_time(from_nanos(secs * NANOS))
    return whole if frac == 0 else f"{whole[:-1]}.{frac:09d}".rstrip("0") + "Z"


def compare(case: Mapping[str, Any], outcome: Mapping[str, Any]) -> list[str]:
    expect = obj(case.get("expect"), "expect")
    out: list[str] = []
    for key in ("error", "mostRecent", "tooManyMissed", "next"):
        if key not in expect:
            continue
        if key != "error" and outcome.get("error"):
            # A rejected schedule computed nothing: only an expected null matches (FORMAT.md).
            if expect[key] is not None:
                out.append(f"{key}: expected {expect[key]!r}, but the engine rejected the schedule")
            continue
        out.extend(exact_diff(expect[key], outcome.get(key), key))
    return out
