"""RFC 3339 times as Kubernetes writes them, and Go's zero time."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from functools import lru_cache
from typing import TypeVar

from jobmodel.errors import InputError, describe, quote

# Go's time.Time{}: what an unset metav1.Time (a non-pointer field) holds.
GO_ZERO_TIME = datetime(1, 1, 1, tzinfo=UTC)


# time.Parse(time.RFC3339, ...) as metav1.Time.UnmarshalJSON calls it: when its strict fast path
# fails, the general parser takes a one- or two-digit hour, any number of fractional digits after
# `.` or `,`, and an offset of `Z` or `±hh:mm` (never `z`, a space for `T` or surrounding blanks).
_RFC3339 = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d?):(\d\d):(\d\d)(?:[.,](\d+))?(?:Z|([+-])(\d\d):(\d\d))", re.ASCII)


def parse_time(text: object, field: str) -> datetime:
    """Parse an RFC 3339 time (`2024-06-01T12:00:00Z`, fractions allowed) into an aware UTC
    datetime, accepting what Go's time.Parse(time.RFC3339, ...) accepts."""
    return _read(_parsed_rfc3339, text, field)[0]


def parse_time_nanos(text: object, field: str) -> int:
    """An RFC 3339 time as Go's time.Parse reads it, in nanoseconds since the Unix epoch: Go keeps
    nine fractional digits (a datetime six), so `00:00:00Z` and `00:00:00.000000001Z` differ."""
    return _read(_nanos, text, field)


T = TypeVar("T")


class _NotATime(ValueError):
    """Why a text is no RFC 3339 time (named with its field by `_read`)."""


def _read(parse: Callable[[str], T], text: object, field: str) -> T:
    """`parse(text)` for a string, its refusal an InputError naming `field`."""
    if not isinstance(text, str):
        raise InputError(field, f"expected an RFC 3339 time string, got {describe(text)}")
    try:
        return parse(text)
    except _NotATime as error:
        raise InputError(field, str(error)) from None


# The same few times are read again and again (the status checks convert each Job's status to
# its wire form and read its times back): pure functions of the text, remembered by text alone
# (a refusal is not remembered: it raises).
TIME_MEMO_SIZE = 1 << 12


@lru_cache(maxsize=TIME_MEMO_SIZE)
def _parsed_rfc3339(text: str) -> tuple[datetime, str]:
    """The time (microseconds, UTC) and its fraction's digits as written."""
    match = _RFC3339.fullmatch(text)
    if match is None:
        raise _NotATime(f"not an RFC 3339 time: {quote(text)}")
    year, month, day, hour, minute, second = (int(g) for g in match.groups()[:6])
    fraction, sign, zone_hours, zone_minutes = match.groups()[6:]
    # Go's range checks: the offset's hour may be 24 and its minute 60.
    offset = timedelta(hours=int(zone_hours or 0), minutes=int(zone_minutes or 0))
    if hour > 23 or minute > 59 or second > 59 or int(zone_hours or 0) > 24 or int(zone_minutes or 0) > 60:
        raise _NotATime(f"not an RFC 3339 time: {quote(text)}")
    try:
        value = datetime(year, month, day, hour, minute, second, int(((fraction or "") + "000000")[:6]),
                         tzinfo=timezone(-offset if sign == "-" else offset))
    except ValueError:
        if offset >= timedelta(hours=24):
            raise _NotATime(f"an offset of 24 hours (Go's time.Parse takes it, the model cannot): {quote(text)}") from None
        if year == 0:
            raise _NotATime(f"a time out of range (years 1 to 9999 in UTC): {quote(text)}") from None
        raise _NotATime(f"not an RFC 3339 time: {quote(text)}") from None  # Go's month or day out of range
    try:
        return value.astimezone(UTC), fraction or ""
    except OverflowError:
        raise _NotATime(f"a time out of range (years 1 to 9999 in UTC): {quote(text)}") from None


UNIX_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@lru_cache(maxsize=TIME_MEMO_SIZE)
def _nanos(text: str) -> int:
    value, fraction = _parsed_rfc3339(text)
    whole = value.replace(microsecond=0)
    nanos = int(fraction[:9].ljust(9, "0"))
    return (whole - UNIX_EPOCH) // timedelta(seconds=1) * 1_000_000_000 + nanos


# The clocks a run may start at or run to: wide enough for any schedule, far enough from the
# ends of the datetime range that the controllers' arithmetic (five years of cron search,
# deadlines, back-off) cannot overflow.
EARLIEST_CLOCK = datetime(1900, 1, 1, tzinfo=UTC)
LATEST_CLOCK = datetime(9000, 1, 1, tzinfo=UTC)


def parse_clock(text: object, field: str) -> datetime:
    """An RFC 3339 time a run's clock is set to: between EARLIEST_CLOCK and LATEST_CLOCK."""
    value = parse_time(text, field)
    if not EARLIEST_CLOCK <= value < LATEST_CLOCK:
        raise InputError(
            field,
            f"{quote(text)} is out of range (from {format_time(EARLIEST_CLOCK)} to before {format_time(LATEST_CLOCK)})",
        )
    return value


def format_time(value: datetime) -> str:
    """Format as metav1.Time does on the wire: whole seconds, UTC, `Z`."""
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ").rjust(20, "0")


def is_zero(value: datetime | None) -> bool:
    """Go's Time.IsZero for an optional time."""
    return value is None or value == GO_ZERO_TIME


def seconds(delta: timedelta) -> float:
    """A duration in seconds."""
    return delta.total_seconds()


def add_seconds(value: datetime, secs: float) -> datetime:
    """`value` plus `secs` seconds, clamped to the datetime range (Go times have a wider one)."""
    try:
        return value + timedelta(seconds=secs)
    except OverflowError:
        return datetime.max.replace(tzinfo=UTC) if secs > 0 else GO_ZERO_TIME
