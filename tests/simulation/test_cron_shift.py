"""jobmodel.simulation.cron_shift: shifting the simulated state, and when a schedule repeats."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from jobmodel.schedule.cron import SpecSchedule, parse_standard
from jobmodel.simulation.cron_shift import (
    enumerated_until,
    periodic_until,
    shift_text,
    spec_period,
    text_of,
)

MINUTE = timedelta(minutes=1)


def spec(text: str) -> SpecSchedule:
    schedule = parse_standard(text)
    assert isinstance(schedule, SpecSchedule)
    return schedule


def test_the_period_of_a_schedule_comes_from_its_coarsest_restricted_field() -> None:
    assert spec_period(spec("* * * * *")) == 60  # the seconds field is 0: once a minute
    assert spec_period(spec("*/5 * * * *")) == 3600
    assert spec_period(spec("30 2 * * *")) == 86400
    assert spec_period(spec("0 9 * * 1-5")) == 7 * 86400
    assert spec_period(spec("0 0 1 * *")) is None  # months differ in length
    assert spec_period(spec("0 0 * 6 *")) is None


def test_names_and_times_in_a_text_shift_together() -> None:
    why = "Normal: Saw completed job: cj-28928161, condition: Complete"
    assert shift_text(why, 2 * MINUTE, "cj-") == "Normal: Saw completed job: cj-28928163, condition: Complete"
    assert shift_text("scheduled for 2025-01-01T00:01:00+00:00", MINUTE, "cj-") == "scheduled for 2025-01-01T00:02:00+00:00"
    assert shift_text("ns/cj-5", MINUTE, "cj-") == "ns/cj-6"
    # Another CronJob's Job is not renamed.
    assert shift_text("xcj-5 and other-cj-5", MINUTE, "cj-") == "xcj-5 and other-cj-5"


def test_a_text_is_only_shifted_when_it_renders_back_to_itself() -> None:
    assert text_of("2025-01-01T00:00:00.000+00:00", "cj-") is None  # isoformat drops the zero fraction
    assert text_of("plain", "cj-") is not None


def test_an_offset_change_of_the_zone_bounds_the_repetition() -> None:
    berlin = spec("TZ=Europe/Berlin * * * * *")
    start = datetime(2025, 3, 29, tzinfo=UTC)
    change = datetime(2025, 3, 30, 1, 0, tzinfo=UTC)  # 02:00 CET becomes 03:00 CEST
    until = periodic_until(berlin, MINUTE, start, start + timedelta(days=3), UTC)
    assert until == change - timedelta(seconds=1)
    utc = spec("* * * * *")
    assert periodic_until(utc, MINUTE, start, start + timedelta(days=3), UTC) == start + timedelta(days=3)
    # 00:00 is a run, 00:01:30 is not: no stretch at all repeats with a period of 90 seconds.
    assert periodic_until(utc, timedelta(seconds=90), start, start + timedelta(days=3), UTC) < start + timedelta(seconds=90)


def test_run_times_show_where_a_business_hours_schedule_stops_repeating() -> None:
    business = spec("*/5 9-17 * * 1-5")
    monday = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
    until = enumerated_until(business, timedelta(minutes=5), monday, monday + timedelta(days=1))
    # 17:55 is the last run of the day; 18:00 would be the next one five minutes on.
    assert until == datetime(2025, 1, 6, 17, 59, 59, tzinfo=UTC)
    assert enumerated_until(spec("0 0 1 * *"), MINUTE, monday, monday + timedelta(days=1)) == monday
