"""RFC 3339 times as Go's time.Parse(time.RFC3339, ...) reads them (metav1.Time.UnmarshalJSON)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from jobmodel.errors import InputError
from jobmodel.timeutil import parse_time, parse_time_nanos


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("2024-01-01T00:00:00Z", datetime(2024, 1, 1, tzinfo=UTC)),
        ("2024-01-01T01:00:00.5+01:00", datetime(2024, 1, 1, 0, 0, 0, 500000, tzinfo=UTC)),
        ("2024-01-01T0:00:00,25Z", datetime(2024, 1, 1, 0, 0, 0, 250000, tzinfo=UTC)),  # a one-digit hour, a comma
        ("2024-01-01T00:00:00+00:60", datetime(2023, 12, 31, 23, 0, tzinfo=UTC)),  # Go checks the offset minute > 60
    ],
)
def test_go_accepts(text: str, want: datetime) -> None:
    assert parse_time(text, "t") == want


@pytest.mark.parametrize(
    "text",
    ["2024-01-01 00:00:00Z", "2024-01-01t00:00:00Z", "2024-01-01T00:00:00z", "2024-01-01T00:00Z", "2024-01-01T00:00:00.Z",
     "2024-01-01T00:00:00+0100", "2024-01-01T00:00:00+01", "20240101T000000Z", "2024-W01-1T00:00:00Z", " 2024-01-01T00:00:00Z",
     "2024-01-01T00:00:00Z ", "2024-01-01T24:00:00Z", "2024-02-30T00:00:00Z", "2024-01-01T23:59:60Z", "2024-01-01T00:00:00"],
)
def test_go_refuses(text: str) -> None:
    """What Python's fromisoformat takes and Go's parser does not (a space for T, lowercase, basic and
    week formats, blanks around, no seconds, offsets without a colon), and Go's range checks."""
    with pytest.raises(InputError, match="not an RFC 3339 time"):
        parse_time(text, "t")


def test_go_times_outside_a_datetime_are_refused_with_their_reason() -> None:
    with pytest.raises(InputError, match="years 1 to 9999"):
        parse_time("0000-01-01T00:00:00Z", "t")
    with pytest.raises(InputError, match="offset of 24 hours"):
        parse_time("2024-01-01T00:00:00+24:00", "t")


def test_nanoseconds_keep_nine_digits() -> None:
    assert parse_time_nanos("1970-01-01T00:00:01.0000000019Z", "t") == 1_000_000_001
    assert parse_time_nanos("1970-01-01T01:00:00+01:00", "t") == 0
    assert parse_time_nanos("1969-12-31T23:59:59.5Z", "t") == -500_000_000
