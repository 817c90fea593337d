"""Go's fixed-size integer arithmetic, where upstream's sums can pass the type's range."""

from __future__ import annotations


def int32(value: int) -> int:
    """`value` as a Go int32 holds it: a sum past MaxInt32 wraps around (MaxInt32 + 1 is MinInt32)."""
    return (value + 2**31) % 2**32 - 2**31
