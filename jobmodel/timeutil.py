"""RFC 3339 times as Kubernetes writes them, and Go's zero time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from jobmodel.errors import InputError

# Go's time.Time{}: what an unset metav1.Time (a non-pointer field) holds.
GO_ZERO_TIME = datetime(1, 1, 1, tzinfo=UTC)


def parse_time(text: object, field: str) -> datetime:
    """Parse an RFC 3339 time (`2024-06-01T12:00:00Z`, fractions allowed) into an aware UTC datetime."""
    if not isinstance(text, str):
        raise InputError(field, f"expected an RFC 3339 time string, got {type(text).__name__}")
    raw = text.strip()
    if raw.endswith(("Z", "z")):
        raw = raw[:-1] + "+00:00"
    try:
        value = datetime.fromisoformat(raw)
    except ValueError:
        raise InputError(field, f"not an RFC 3339 time: {text!r}") from None
    if value.tzinfo is None:
        raise InputError(field, f"time without an offset: {text!r}")
    return value.astimezone(UTC)


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
