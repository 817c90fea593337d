"""RFC 3339 times as Go's time.Parse(time.RFC3339, ...) reads them (metav1.Time.UnmarshalJSON)."""

from __future__ import annotations

from collections.abc import Callable
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


@pytest.mark.parametrize("parse", [parse_time, parse_time_nanos])
def test_a_refusal_names_the_field_it_was_read_under(parse: Callable[[object, str], object]) -> None:
    """The same bad text read under two fields (a memo keyed by text alone must not carry the
    first field's name into the second's error)."""
    for field in ("status.startTime", "status.completionTime"):
        with pytest.raises(InputError) as error:
            parse("2024-02-30T00:00:00Z", field)
        assert error.value.field == field
        with pytest.raises(InputError) as error:
            parse(20240101, field)
        assert error.value.field == field and "got the integer 20240101" in str(error.value)


def test_a_text_read_under_two_fields_is_the_same_time() -> None:
    text = "2024-06-01T12:00:00.123456789Z"
    assert parse_time(text, "a") == parse_time(text, "b") == datetime(2024, 6, 1, 12, 0, 0, 123456, tzinfo=UTC)
    unix_seconds = int((datetime(2024, 6, 1, 12, tzinfo=UTC) - datetime(1970, 1, 1, tzinfo=UTC)).total_seconds())
    assert parse_time_nanos(text, "a") == parse_time_nanos(text, "b") == unix_seconds * 10**9 + 123_456_789


@pytest.mark.parametrize(("value", "shown"), [(5, "the integer 5"), (None, "null"), ([], "a list")])
def test_a_time_that_is_no_string_is_named_as_json_names_it(value: object, shown: str) -> None:
    with pytest.raises(InputError) as err:
        parse_time(value, "now")
    assert str(err.value) == f"now: expected an RFC 3339 time string, got {shown}"
