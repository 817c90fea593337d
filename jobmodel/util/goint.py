"""Go's fixed-size integer arithmetic, where upstream's sums can pass the type's range."""

from __future__ import annotations


def int32(value: int) -> int:
    """`value` as a Go int32 holds it: a sum past MaxInt32 wraps around (MaxInt32 + 1 is MinInt32)."""
    return (value + 2**31) % 2**32 - 2**31


def int64(value: int) -> int:
    """`value` as a Go int64 (a time.Duration in nanoseconds) holds it: wrapped around past MaxInt64."""
    return (value + 2**63) % 2**64 - 2**63


def saturated_int64(value: int) -> int:
    """`value` clamped to int64's range, as Go's Time.Sub returns the largest or smallest Duration
    when the difference does not fit."""
    return max(-(2**63), min(2**63 - 1, value))
