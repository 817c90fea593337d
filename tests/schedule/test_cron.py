"""jobmodel.schedule.cron: robfig/cron v3.0.1's parser and Next, on hand-checked examples.

(The differential test against the Go library itself is test_robfig_differential.py.)"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jobmodel.schedule.cron import (
    STAR_BIT,
    ConstantDelaySchedule,
    CronParseError,
    SpecSchedule,
    _spec_next,
    _utc_next,
    day_matches,
    parse_go_duration,
    parse_standard,
)
from jobmodel.schedule.gotime import Zone
from jobmodel.timeutil import GO_ZERO_TIME

THURSDAY = datetime(2016, 5, 19, 10, 0, 30, tzinfo=UTC)


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def run(spec: str, start: datetime, n: int) -> list[str]:
    schedule = parse_standard(spec)
    out, t = [], start
    for _ in range(n):
        t = schedule.next(t)
        out.append(t.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))
    return out


# --- parsing --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "empty spec string"),
        ("0 0 * * 7", "end of range (7) above maximum (6): 7"),
        ("5-2 * * * *", "beginning of range (5) beyond end of range (2): 5-2"),
        ("0 0 L * *", "failed to parse int from L"),
        ("0 0 15W * *", "failed to parse int from 15W"),
        ("0 0 * * 5#3", "failed to parse int from 5#3"),
        ("0 0 0 * *", "beginning of range (0) below minimum (1): 0"),
        ("*/0 * * * *", "step of range should be a positive number: */0"),
        ("-5 * * * *", "failed to parse int from "),
        ("1-2-3 * * * *", "too many hyphens: 1-2-3"),
        ("1/2/3 * * * *", "too many slashes: 1/2/3"),
        ("0 0 * * * *", "expected exactly 5 fields, found 6"),
        ("@reboot", "unrecognized descriptor: @reboot"),
        ("@every 1d", 'unknown unit "d"'),
        ("TZ=Nowhere/City 0 * * * *", "provided bad location Nowhere/City: unknown time zone Nowhere/City"),
        # strconv.Atoi, as robfig/cron v3.0.1 with Go 1.26 says: out of range as soon as the digits
        # overflow, whatever follows; Go's %q prints U+1E030 (Unicode 15.0) as it is.
        ("99999999999999999999x * * * *",
         'failed to parse int from 99999999999999999999x: strconv.Atoi: parsing "99999999999999999999x": value out of range'),
        ("1" * 5000 + " * * * *", 'strconv.Atoi: parsing "' + "1" * 5000 + '": value out of range'),
        ("\U0001e030 * * * *", 'failed to parse int from \U0001e030: strconv.Atoi: parsing "\U0001e030": invalid syntax'),
        ("1_0 * * * *", 'failed to parse int from 1_0: strconv.Atoi: parsing "1_0": invalid syntax'),
        ("\u0663 * * * *", 'strconv.Atoi: parsing "\u0663": invalid syntax'),
    ],
)  # fmt: skip
def test_rejected_specs(spec: str, message: str) -> None:
    with pytest.raises(CronParseError) as err:
        parse_standard(spec)
    assert message in err.value.message


def test_tz_prefix_without_a_space_is_a_panic_in_go() -> None:
    with pytest.raises(CronParseError, match="panics"):
        parse_standard("TZ=America/New_York")


def test_star_sets_the_star_bit_and_star_step_one_keeps_it() -> None:
    every = parse_standard("* * * * *")
    assert isinstance(every, SpecSchedule)
    assert every.dom == ((1 << 32) - 2) | STAR_BIT
    step_one = parse_standard("* * */1 * *")
    assert isinstance(step_one, SpecSchedule) and step_one.dom & STAR_BIT
    step_two = parse_standard("* * */2 * *")
    assert isinstance(step_two, SpecSchedule) and not step_two.dom & STAR_BIT


def test_star_with_a_hyphen_ignores_the_rest() -> None:
    assert parse_standard("*-5 * * * *") == parse_standard("* * * * *")


def test_single_value_with_step_runs_to_the_maximum() -> None:
    s = parse_standard("50/5 * * * *")
    assert isinstance(s, SpecSchedule)
    assert s.minute == (1 << 50) | (1 << 55)


def test_names_are_case_insensitive_and_go_lowercases_dotted_capital_i() -> None:
    assert parse_standard("0 0 * JAN-Mar mon") == parse_standard("0 0 * 1-3 1")
    # strings.ToLower maps U+0130 to a plain i, so "FRİ" is Friday in Go.
    assert parse_standard("0 0 * * FR\u0130") == parse_standard("0 0 * * 5")


def test_numbers_take_a_plus_sign_and_leading_zeros() -> None:
    assert parse_standard("+05 007 * * *") == parse_standard("5 7 * * *")


def test_every_rounds_down_to_seconds_and_at_least_one_second() -> None:
    assert parse_standard("@every 90m") == ConstantDelaySchedule(5400)
    assert parse_standard("@every 1.9s") == ConstantDelaySchedule(1)
    assert parse_standard("@every 500ms") == ConstantDelaySchedule(1)
    assert parse_standard("@every -1h") == ConstantDelaySchedule(1)


@pytest.mark.parametrize(
    ("text", "nanos"),
    [("0", 0), ("-0", 0), ("1h30m", 5_400_000_000_000), ("1.5h", 5_400_000_000_000), (".5s", 500_000_000),
     ("2\u00b5s", 2000), ("2\u03bcs", 2000), ("1h1h", 7_200_000_000_000), ("-1.5m", -90_000_000_000)],
)
def test_go_durations(text: str, nanos: int) -> None:
    assert parse_go_duration(text) == nanos


@pytest.mark.parametrize("text", ["", "1", "h", "1e3s", "1.h.", ".s", "9223372037s", "1 h"])
def test_bad_go_durations(text: str) -> None:
    with pytest.raises(ValueError, match="time: "):
        parse_go_duration(text)


def test_go_duration_errors_quote_as_the_time_package() -> None:
    """ParseDuration's errors quote the unit and the text with time's quote: non-ASCII bytes as \\xNN."""
    with pytest.raises(ValueError) as raised:
        parse_go_duration('1\u03bc"')
    assert str(raised.value) == 'time: unknown unit "\\xce\\xbc\\"" in duration "1\\xce\\xbc\\""'


# --- Next -----------------------------------------------------------------------------------


def test_hourly_and_minute_steps() -> None:
    assert run("0 * * * *", THURSDAY, 2) == ["2016-05-19T11:00:00Z", "2016-05-19T12:00:00Z"]
    assert run("*/5 * * * *", THURSDAY, 1) == ["2016-05-19T10:05:00Z"]
    assert run("30 6-16/4 * * 1-5", THURSDAY, 3) == [
        "2016-05-19T10:30:00Z",
        "2016-05-19T14:30:00Z",
        "2016-05-20T06:30:00Z",
    ]


def test_star_step_in_a_day_field_turns_and_into_or() -> None:
    # dom */2 (odd days) OR Monday: Saturday the 21st is odd, so it fires before Monday.
    assert run("0 0 */2 * 1", THURSDAY, 1) == ["2016-05-21T00:00:00Z"]
    # */1 keeps the star bit: every day AND Monday.
    assert run("0 0 */1 * 1", THURSDAY, 1) == ["2016-05-23T00:00:00Z"]
    # Friday the 13th means the 13th OR any Friday.
    assert run("0 0 13 * 5", THURSDAY, 1) == ["2016-05-20T00:00:00Z"]


def test_impossible_date_gives_the_zero_time() -> None:
    assert parse_standard("59 23 31 2 *").next(THURSDAY) == GO_ZERO_TIME
    assert parse_standard("1,,2 , * * *").next(THURSDAY) == GO_ZERO_TIME


def test_leap_day_is_found_years_ahead() -> None:
    assert run("0 0 29 2 *", THURSDAY, 1) == ["2020-02-29T00:00:00Z"]


def test_every_keeps_the_phase_of_its_argument() -> None:
    assert run("@every 1h", THURSDAY, 2) == ["2016-05-19T11:00:30Z", "2016-05-19T12:00:30Z"]


def test_new_york_spring_forward_skips_the_missing_hour() -> None:
    # 2024-03-10 02:30 does not exist in New York: robfig skips that day's run.
    start = utc("2024-03-09T12:00:00Z")
    assert run("TZ=America/New_York 30 2 * * *", start, 2) == ["2024-03-11T06:30:00Z", "2024-03-12T06:30:00Z"]


def test_new_york_fall_back_runs_twice() -> None:
    # 2024-11-03 01:30 happens twice (EDT, then EST): robfig runs at both.
    start = utc("2024-11-02T12:00:00Z")
    assert run("TZ=America/New_York 30 1 * * *", start, 3) == [
        "2024-11-03T05:30:00Z",
        "2024-11-03T06:30:00Z",
        "2024-11-04T06:30:00Z",
    ]


def test_lord_howe_half_hour_change_skips_a_day() -> None:
    # Lord Howe leaves DST (+11 -> +10:30) at 02:00 on 2024-04-07. Stepping by whole hours from
    # 01:00 robfig lands on 00:30 of April 8, then walks minutes to 01:00 and hours to midnight
    # of April 9: the run at midnight of April 8 (2024-04-07T13:30Z) never happens.
    start = utc("2024-04-05T00:00:00Z")
    assert run("TZ=Australia/Lord_Howe 0 0 * * *", start, 4) == [
        "2024-04-05T13:00:00Z",
        "2024-04-06T13:00:00Z",
        "2024-04-08T13:30:00Z",
        "2024-04-09T13:30:00Z",
    ]


@given(st.datetimes(min_value=datetime(1971, 1, 1), max_value=datetime(2090, 1, 1), timezones=st.just(UTC)))
def test_next_is_strictly_later_and_on_a_whole_minute(t: datetime) -> None:
    result = parse_standard("*/7 3-5 * * *").next(t)
    assert result > t
    assert result.second == 0 and result.microsecond == 0
    assert result.minute % 7 == 0 and 3 <= result.hour <= 5


# --- dayMatches: day of month AND day of week when either has the star bit, else OR ------------

MONDAY_THE_13TH = (13, 1)
MONDAY_THE_14TH = (14, 1)
TUESDAY_THE_13TH = (13, 2)
TUESDAY_THE_14TH = (14, 2)


@pytest.mark.parametrize(
    ("dom", "dow", "matching"),
    [
        # Both restricted: either one.
        ("13", "1", {MONDAY_THE_13TH, MONDAY_THE_14TH, TUESDAY_THE_13TH}),
        # One of them *: only the other.
        ("*", "1", {MONDAY_THE_13TH, MONDAY_THE_14TH}),
        ("13", "*", {MONDAY_THE_13TH, TUESDAY_THE_13TH}),
        ("?", "1", {MONDAY_THE_13TH, MONDAY_THE_14TH}),
        # */1 keeps the star bit (every day AND Monday); */2 drops it (odd days OR Monday).
        ("*/1", "1", {MONDAY_THE_13TH, MONDAY_THE_14TH}),
        ("*/2", "1", {MONDAY_THE_13TH, MONDAY_THE_14TH, TUESDAY_THE_13TH}),
        ("13", "*/2", {MONDAY_THE_13TH, TUESDAY_THE_13TH, TUESDAY_THE_14TH}),
        ("*", "*", {MONDAY_THE_13TH, MONDAY_THE_14TH, TUESDAY_THE_13TH, TUESDAY_THE_14TH}),
    ],
)
def test_day_of_month_and_day_of_week(dom: str, dow: str, matching: set[tuple[int, int]]) -> None:
    schedule = parse_standard(f"0 0 {dom} * {dow}")
    assert isinstance(schedule, SpecSchedule)
    days = {MONDAY_THE_13TH, MONDAY_THE_14TH, TUESDAY_THE_13TH, TUESDAY_THE_14TH}
    assert {d for d in days if day_matches(schedule, *d)} == matching


CRON_FIELD_VALUES = {
    "minute": ["*", "0", "59", "*/7", "5-10", "0,30", "13"],
    "hour": ["*", "0", "23", "*/5", "9-17", "3,15"],
    "dom": ["*", "?", "1", "29", "30", "31", "*/10", "15-20"],
    "month": ["*", "1", "2", "12", "*/4", "feb", "jun-aug"],
    "dow": ["*", "?", "0", "6", "mon-fri", "sun,sat", "*/3"],
}


@settings(max_examples=2000, deadline=None)
@given(
    fields=st.tuples(*(st.sampled_from(values) for values in CRON_FIELD_VALUES.values())),
    start=st.integers(min_value=-2_000_000_000, max_value=8_000_000_000),
)
def test_utc_jumps_find_what_the_step_by_step_walk_finds(fields: tuple[str, ...], start: int) -> None:
    """In UTC, Next jumps to each next matching field value; the answer is the one robfig's
    step-by-step walk (`_spec_next`, the model of every zone) gives, the five-year limit included."""
    schedule = parse_standard(" ".join(fields))
    assert isinstance(schedule, SpecSchedule)
    assert _utc_next(schedule, start) == _spec_next(schedule, Zone(UTC), start)


def test_utc_jumps_keep_robfigs_five_year_limit() -> None:
    leap_day = parse_standard("0 0 29 2 *")
    assert isinstance(leap_day, SpecSchedule)
    start = int(datetime(2097, 3, 1, tzinfo=UTC).timestamp())  # 2100 is no leap year: 2104 is 7 years on
    assert _utc_next(leap_day, start) is None is _spec_next(leap_day, Zone(UTC), start)
