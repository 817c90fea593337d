"""Go's fixed-size integer arithmetic, where upstream's sums can pass the type's range, and
time.Duration's int64 nanoseconds."""

from __future__ import annotations

from datetime import timedelta

NANOS = 1_000_000_000  # time.Second
MIN_INT64, MAX_INT64 = -(1 << 63), (1 << 63) - 1


def int32(value: int) -> int:
    """`value` as a Go int32 holds it: a sum past MaxInt32 wraps around (MaxInt32 + 1 is MinInt32)."""
    return (value + 2**31) % 2**32 - 2**31


def int64(value: int) -> int:
    """`value` as a Go int64 (a time.Duration in nanoseconds) holds it: wrapped around past MaxInt64."""
    return (value - MIN_INT64) % (1 << 64) + MIN_INT64


def saturated_int64(value: int) -> int:
    """`value` clamped to int64's range, as Go's Time.Sub returns the largest or smallest Duration
    when the difference does not fit."""
    return max(MIN_INT64, min(MAX_INT64, value))


def duration_nanos(delta: timedelta) -> int:
    """A timedelta in nanoseconds, exactly (not yet held to int64's range)."""
    return (delta.days * 86400 + delta.seconds) * NANOS + delta.microseconds * 1000
