"""jobmodel.schedule.times: mostRecentScheduleTime, nextScheduleTime, nextScheduleTimeDuration."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jobmodel.schedule.cron import parse_standard
from jobmodel.schedule.times import (
    MissedSchedules,
    ScheduleError,
    most_recent_schedule_time,
    next_schedule_time,
    next_schedule_time_duration,
    next_schedule_time_duration_nanos,
    round_second,
)
from jobmodel.timeutil import GO_ZERO_TIME

TOP = datetime(2016, 5, 19, 10, 0, 0, tzinfo=UTC)
HOURLY = parse_standard("0 * * * *")


def test_nothing_due_before_the_first_time() -> None:
    r = most_recent_schedule_time(HOURLY, TOP + timedelta(seconds=30), TOP)
    assert r.most_recent is None and r.missed is MissedSchedules.NONE and r.error is None


def test_exactly_one_due() -> None:
    r = most_recent_schedule_time(HOURLY, TOP + timedelta(hours=1, seconds=5), TOP)
    assert r.most_recent == TOP + timedelta(hours=1)
    assert r.missed is MissedSchedules.NONE


def test_five_missed_gives_the_last_one() -> None:
    r = most_recent_schedule_time(HOURLY, TOP + timedelta(hours=5, minutes=1), TOP + timedelta(seconds=10))
    assert r.most_recent == TOP + timedelta(hours=5)
    assert r.missed is MissedSchedules.FEW


def test_ten_years_of_downtime_is_many_missed_and_still_exact() -> None:
    now = datetime(2026, 5, 19, 10, 17, 3, tzinfo=UTC)
    r = most_recent_schedule_time(HOURLY, now, TOP)
    assert r.most_recent == datetime(2026, 5, 19, 10, 0, 0, tzinfo=UTC)
    assert r.missed is MissedSchedules.MANY


def test_an_impossible_schedule_is_an_error() -> None:
    # robfig's Next finds no 31 February and answers the zero time, twice: upstream's utils.go
    # mostRecentScheduleTime then reads a gap of 0 between two schedules.
    r = most_recent_schedule_time(parse_standard("59 23 31 2 *"), TOP + timedelta(hours=1), TOP)
    assert r.error == "time difference between two schedules is less than 1 second"
    assert r.most_recent is None


def test_uneven_schedule_estimate_can_miss_a_due_time() -> None:
    # utils_test.go "another complex schedule": 10:30, 11:30 and 12:30 on weekdays were due
    # since Thursday 10:30, but the interval estimate (1 h) jumps past them: no time is found.
    s = parse_standard("30 10,11,12 * * 1-5")
    r = most_recent_schedule_time(s, datetime(2016, 5, 20, 16, 30, tzinfo=UTC), datetime(2016, 5, 19, 10, 30, tzinfo=UTC))
    assert r.most_recent is None and r.missed is MissedSchedules.FEW


def test_deadline_moves_the_earliest_time_up() -> None:
    # Last run 10 days ago, deadline 2 h: only the last two hours count, one start is due.
    now = datetime(2016, 5, 29, 11, 0, tzinfo=UTC)
    r = next_schedule_time(HOURLY, now, TOP, None, 7200)
    assert r.scheduled == now and not r.too_many_missed


def test_huge_deadline_wraps_and_nothing_is_ever_due() -> None:
    # -time.Second * 1e10 overflows int64 to about +267 years: the "deadline" lies in the future.
    now = TOP + timedelta(hours=5, minutes=1)
    assert next_schedule_time(HOURLY, now, TOP, None, 10**10).scheduled is None
    assert next_schedule_time(HOURLY, now, TOP, None, 10**9).scheduled == TOP + timedelta(hours=5)


def test_requeue_after_weekend() -> None:
    s = parse_standard("30 10,11,12 * * 1-5")
    now = datetime(2016, 5, 20, 16, 30, tzinfo=UTC)
    delay = next_schedule_time_duration(s, now, datetime(2016, 5, 19, 10, 30, tzinfo=UTC))
    assert delay == (datetime(2016, 5, 23, 10, 30, tzinfo=UTC) - now).total_seconds() + 0.1


def test_every_requeue_keeps_the_phase_of_the_last_run() -> None:
    s = parse_standard("@every 1h")
    now = TOP
    delay = next_schedule_time_duration(s, now, TOP - timedelta(hours=1), TOP - timedelta(minutes=1))
    assert delay == 59 * 60 + 0.1


def test_round_second_rounds_half_away_from_zero() -> None:
    assert round_second(1_500_000_000) == 2_000_000_000
    assert round_second(-1_500_000_000) == -2_000_000_000
    assert round_second(1_499_999_999) == 1_000_000_000


@given(
    minutes=st.integers(1, 59),
    downtime=st.integers(0, 10 * 366 * 24 * 3600),
    offset=st.integers(0, 3600),
)
def test_evenly_spaced_most_recent_is_the_last_time_not_after_now(minutes: int, downtime: int, offset: int) -> None:
    # "*/m" in minutes, m dividing 60 or not: the fast path must land on the true last time.
    s = parse_standard(f"*/{minutes} * * * *")
    creation = TOP + timedelta(seconds=offset)
    now = creation + timedelta(seconds=downtime)
    r = most_recent_schedule_time(s, now, creation)
    if r.most_recent is None:
        assert s.next(creation) > now or r.missed is not MissedSchedules.NONE
        return
    assert r.most_recent <= now
    assert s.next(r.most_recent) > now


def test_leap_day_schedule_near_2100_never_terminates_upstream() -> None:
    # From 2096-03-01 the next 29 February is in 2104, beyond robfig's five-year search: Next
    # gives the zero time, and the walk from year 1 cycles back to it (upstream loops forever).
    s = parse_standard("0 0 29 2 *")
    with pytest.raises(ScheduleError, match="does not terminate"):
        most_recent_schedule_time(s, datetime(2097, 6, 1, tzinfo=UTC), datetime(2096, 3, 1, tzinfo=UTC))


def test_a_next_run_after_the_year_9999_is_a_schedule_error() -> None:
    # Upstream (Go's time) computes it; the model's datetimes end with 9999, so it says so.
    last_hour = datetime(9999, 12, 31, 23, 0, tzinfo=UTC)
    with pytest.raises(ScheduleError, match="year 9999"):
        next_schedule_time_duration(HOURLY, last_hour + timedelta(minutes=30), last_hour - timedelta(hours=1), None)


def test_counted_from_the_zero_time_the_walk_ends_on_the_last_weekday_run() -> None:
    # A CronJob without creationTimestamp: the estimate saturates near 292 years, leaving about
    # 1,700 years of weekday runs to walk; upstream ends on Friday 2024-03-08 02:30 (Sunday now).
    s = parse_standard("30 2 * * 1-5")
    r = most_recent_schedule_time(s, datetime(2024, 3, 10, 12, 0, tzinfo=UTC), GO_ZERO_TIME)
    assert r.most_recent == datetime(2024, 3, 8, 2, 30, tzinfo=UTC)
    assert r.missed is MissedSchedules.MANY


@given(
    spec=st.sampled_from(["* * * * *", "*/5 * * * *", "0 */6 * * *", "5 4 * * 1", "0 0 1 * *"]),
    years=st.integers(293, 320),
    offset=st.integers(0, 400 * 86400),
)
def test_a_long_walk_ends_on_the_last_time_not_after_now(spec: str, years: int, offset: int) -> None:
    # Beyond 292 years the estimate saturates and years of steps remain: for schedules whose
    # gaps are at most the estimated interval, the walk ends on the last time not after now.
    s = parse_standard(spec)
    creation = datetime(2001, 1, 1, tzinfo=UTC)
    now = creation + timedelta(days=365 * years, seconds=offset)
    r = most_recent_schedule_time(s, now, creation)
    assert r.most_recent is not None
    assert r.most_recent <= now < s.next(r.most_recent)
    assert s.next(r.most_recent - timedelta(seconds=1)) == r.most_recent


def test_every_missed_for_300_years_ends_within_one_delay_of_now() -> None:
    # Upstream's answer (tests/differential/vectors/schedule-divergences.json): 01:40:42.
    s = parse_standard("@every 7s")
    now = datetime(2323, 12, 29, 1, 40, 44, 1, tzinfo=UTC)
    r = most_recent_schedule_time(s, now, datetime(2024, 3, 10, 0, 8, 55, 1, tzinfo=UTC), None, 3600)
    assert r.most_recent == datetime(2323, 12, 29, 1, 40, 42, tzinfo=UTC)
    assert r.missed is MissedSchedules.MANY


def test_a_saturated_delay_is_the_largest_duration() -> None:
    s = parse_standard("0 * * * *")
    delay = next_schedule_time_duration_nanos(s, datetime(2024, 3, 10, tzinfo=UTC), datetime(2400, 1, 1, tzinfo=UTC))
    assert delay == (1 << 63) - 1
