"""Go's int32 and int64 wrap-around and Duration nanoseconds (jobmodel/util/goint.py)."""

from __future__ import annotations

from jobmodel.util.goint import int32, int64, saturated_int64


def test_int32_keeps_values_in_range_and_wraps_past_it() -> None:
    assert int32(7) == 7
    assert int32(-(2**31)) == -(2**31)
    assert int32(2**31 - 1) == 2**31 - 1
    assert int32(2**31) == -(2**31)
    assert int32(2 * (2**31 - 1)) == -2


def test_int64_wraps_and_saturated_int64_clamps() -> None:
    assert int64(10**10 * 10**9) == 10**19 - 2**64
    assert int64(2**63 - 1) == 2**63 - 1
    assert int64(1 << 63) == -(1 << 63)
    assert int64(-(10**19)) == 2**64 - 10**19
    assert saturated_int64(10**19) == 2**63 - 1
    assert saturated_int64(-(10**19)) == -(2**63)
