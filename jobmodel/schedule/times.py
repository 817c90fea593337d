"""The CronJob controller's schedule-time helpers (upstream pkg/controller/cronjob/utils.go).

Times are handled as Go does: durations are int64 nanoseconds that wrap on multiplication and
saturate on `Time.Sub`, so the controller's estimate of missed starts is reproduced exactly,
overflow included.
"""

from __future__ import annotations

import enum
import functools
from datetime import UTC, datetime, timedelta

import attrs

from jobmodel.schedule.cron import (
    STAR_BIT,
    ConstantDelaySchedule,
    Schedule,
    SpecSchedule,
    _utc_next,
    day_matches,
)
from jobmodel.schedule.gotime import civil_from_days, days_from_civil
from jobmodel.timeutil import GO_ZERO_TIME
from jobmodel.util.goint import MAX_INT64, MIN_INT64, NANOS, duration_nanos, int64, saturated_int64

# nextScheduleDelta: the controller wakes 100 ms after a schedule time, against clock skew.
NEXT_SCHEDULE_DELTA_NANOS = 100_000_000
TOO_MANY_MISSED = 100
# mostRecentScheduleTime's final walk covers one or two estimated intervals, a handful of steps
# for any real CronJob. It is long only when the estimate saturates (an earliest time more than
# 292 years back, e.g. a CronJob without creationTimestamp): the model gives up there.
_MAX_WALK = 100_000
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class MissedSchedules(enum.Enum):
    """missedSchedulesType."""

    NONE = "none"
    FEW = "few"
    MANY = "many"


class ScheduleError(ValueError):
    """The error mostRecentScheduleTime returns for a schedule that parses but cannot run."""


# --- Go durations and times, in integer nanoseconds -------------------------------------------


def to_nanos(t: datetime) -> int:
    """An aware datetime as nanoseconds since the Unix epoch."""
    aware = t if t.tzinfo is not None else t.replace(tzinfo=UTC)
    return duration_nanos(aware - _EPOCH)


def from_nanos(ns: int) -> datetime:
    """Nanoseconds since the epoch as an aware UTC datetime (microsecond precision), clamped to
    the datetime range."""
    try:
        return _EPOCH + timedelta(microseconds=ns // 1000)
    except OverflowError:
        return datetime.max.replace(tzinfo=UTC) if ns > 0 else GO_ZERO_TIME


def round_second(d: int) -> int:
    """Duration.Round(time.Second): halves away from zero, saturating."""
    r = abs(d) % NANOS
    if d < 0:
        if r + r < NANOS:
            return d + r
        d1 = d - NANOS + r
        return d1 if d1 >= MIN_INT64 else MIN_INT64
    if r + r < NANOS:
        return d - r
    d1 = d + NANOS - r
    return d1 if d1 <= MAX_INT64 else MAX_INT64


def duration_seconds_int(d: int) -> int:
    """int64(d.Seconds()): the float of the duration truncated toward zero."""
    sec = _go_div(d, NANOS)
    return int(float(sec) + float(d - sec * NANOS) / 1e9)


@functools.lru_cache(maxsize=4096)
def _next(schedule: Schedule, ns: int) -> int:
    # Memoised: a controller syncing a CronJob again and again asks for the same few times
    # (schedules are frozen, so the answer is a function of its arguments).
    try:
        return to_nanos(schedule.next(from_nanos(ns)))
    except OverflowError:
        # Go's time goes on past the year 9999; Python's datetime, and so the model, stops there.
        raise ScheduleError("the next run is after the year 9999, which the model does not represent") from None


_ZERO = to_nanos(GO_ZERO_TIME)


# --- utils.go ------------------------------------------------------------------------------


@attrs.frozen
class MostRecent:
    """What mostRecentScheduleTime returns: the earliest time considered, the most recent unmet
    schedule time (None: none due), the missed-starts estimate and the error, if any."""

    earliest: datetime
    most_recent: datetime | None
    missed: MissedSchedules
    error: str | None = None


def earliest_time(
    creation: datetime, last_schedule: datetime | None, now: datetime, starting_deadline_seconds: int | None
) -> int:
    """The start of mostRecentScheduleTime: last schedule time (else creation), moved up to
    now - startingDeadlineSeconds when that is later."""
    earliest = to_nanos(last_schedule if last_schedule is not None else creation)
    if starting_deadline_seconds is not None:
        # now.Add(-time.Second * time.Duration(sds)): the product wraps like any int64.
        deadline = to_nanos(now) + int64(-NANOS * starting_deadline_seconds)
        if deadline > earliest:
            earliest = deadline
    return earliest


def most_recent_schedule_time(
    schedule: Schedule,
    now: datetime,
    creation: datetime,
    last_schedule: datetime | None = None,
    starting_deadline_seconds: int | None = None,
) -> MostRecent:
    """mostRecentScheduleTime; pass `starting_deadline_seconds` only where upstream passes
    includeStartingDeadlineSeconds = true."""
    now_ns = to_nanos(now)
    earliest = earliest_time(creation, last_schedule, now, starting_deadline_seconds)
    earliest_dt = from_nanos(earliest)
    t1 = _next(schedule, earliest)
    t2 = _next(schedule, t1)
    if now_ns < t1:
        return MostRecent(earliest_dt, None, MissedSchedules.NONE)
    if now_ns < t2:
        return MostRecent(earliest_dt, from_nanos(t1), MissedSchedules.NONE)

    between = duration_seconds_int(round_second(saturated_int64(t2 - t1)))
    if between < 1:
        return MostRecent(
            earliest_dt, None, MissedSchedules.NONE, "time difference between two schedules is less than 1 second"
        )
    elapsed = duration_seconds_int(saturated_int64(now_ns - t1))
    missed_count = int64(_go_div(elapsed, between) + 1)

    # The fast path: jump to one interval before the estimated last start, then let the
    # schedule find the exact times; for evenly spaced schedules this is one or two steps.
    jump = int64(int64((missed_count - 2) * between) * NANOS)
    t = _next(schedule, t1 + jump)
    if isinstance(schedule, ConstantDelaySchedule) and t <= now_ns:
        # `@every`: each Next adds the delay to a whole second, so the walk's last time before
        # `now` is one multiple away (a saturated estimate leaves years of steps to walk).
        period = schedule.delay * NANOS
        t += (now_ns - t) // period * period
    most_recent = _ZERO
    steps, zeros = 0, 0
    while t <= now_ns:
        most_recent = t
        # Next gives the zero time when nothing matches within five years, and the walk goes
        # on from year 1; meeting the zero time twice means the walk is a cycle.
        zeros += t == _ZERO
        steps += 1
        if zeros > 1:
            raise ScheduleError("mostRecentScheduleTime does not terminate for this schedule (upstream loops forever)")
        if steps > _MAX_WALK:
            raise ScheduleError(f"the model stops mostRecentScheduleTime's walk after {_MAX_WALK} steps (upstream walks on)")
        if steps == _LONG_WALK and zeros == 0 and isinstance(schedule, SpecSchedule) and _walks_every_match_in_utc(schedule):
            # Years of steps left (a saturated estimate): the walk meets every match up to now,
            # so its last step is the last match not after now, found by bisection.
            t = _last_utc_match(schedule, t, now_ns)
            most_recent = t
        t = _next(schedule, t)

    missed = MissedSchedules.NONE
    if missed_count > TOO_MANY_MISSED:
        missed = MissedSchedules.MANY
    elif missed_count > 0:
        missed = MissedSchedules.FEW
    if most_recent == _ZERO:
        return MostRecent(earliest_dt, None, missed)
    return MostRecent(earliest_dt, from_nanos(most_recent), missed)


_LONG_WALK = 1000


@functools.lru_cache(maxsize=256)
def _walks_every_match_in_utc(schedule: Schedule) -> bool:
    """Whether Next, in UTC, steps from match to match with no zero time between: a schedule
    with a day other than February 29 matches every year, well within Next's five-year limit."""
    if not isinstance(schedule, SpecSchedule) or schedule.location not in (None, UTC):
        return False
    if any(bits & ~STAR_BIT == 0 for bits in (schedule.second, schedule.minute, schedule.hour)):
        return False
    days = range(days_from_civil(2023, 1, 1), days_from_civil(2024, 1, 1))  # not a leap year
    return any(
        (1 << (date := civil_from_days(d))[1]) & schedule.month and day_matches(schedule, date[2], (d + 4) % 7) for d in days
    )


def _last_utc_match(schedule: SpecSchedule, t: int, now_ns: int) -> int:
    """The last match from `t` (a match, in nanoseconds) to `now_ns`: bisect for the second `lo`
    with Next(lo) <= now < Next(lo + 1); Next(lo) is then lo + 1, the last match."""
    now_s = now_ns // NANOS
    lo, hi = t // NANOS, now_s
    if lo >= hi:
        return t
    while hi - lo > 1:
        mid = (lo + hi) // 2
        found = _utc_next(schedule, mid + 1)
        if found is not None and found <= now_s:
            lo = mid
        else:
            hi = mid
    found = _utc_next(schedule, lo + 1)
    return t if found is None or found > now_s else found * NANOS


def _go_div(a: int, b: int) -> int:
    """Go's integer division: truncates toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def next_schedule_time_duration(
    schedule: Schedule, now: datetime, creation: datetime, last_schedule: datetime | None = None
) -> float:
    """nextScheduleTimeDuration: seconds until 100 ms after the next schedule time (deadline not
    applied); after an error or missed starts it counts from now."""
    return next_schedule_time_duration_nanos(schedule, now, creation, last_schedule) / NANOS


def next_schedule_time_duration_nanos(
    schedule: Schedule, now: datetime, creation: datetime, last_schedule: datetime | None = None
) -> int:
    """nextScheduleTimeDuration as the time.Duration it returns: int64 nanoseconds, saturated."""
    result = most_recent_schedule_time(schedule, now, creation, last_schedule)
    now_ns = to_nanos(now)
    if result.error is not None:
        base = now_ns
    elif result.most_recent is None:
        base = to_nanos(result.earliest) if result.missed is MissedSchedules.NONE else now_ns
    else:
        base = to_nanos(result.most_recent)
    return saturated_int64(_next(schedule, base) + NEXT_SCHEDULE_DELTA_NANOS - now_ns)


@attrs.frozen
class NextSchedule:
    """nextScheduleTime's result: the time to start a Job for (None: nothing due), whether the
    TooManyMissedTimes warning is recorded, and the error."""

    scheduled: datetime | None
    too_many_missed: bool
    error: str | None


def next_schedule_time(
    schedule: Schedule,
    now: datetime,
    creation: datetime,
    last_schedule: datetime | None = None,
    starting_deadline_seconds: int | None = None,
) -> NextSchedule:
    """nextScheduleTime: the most recent unmet time with the deadline applied; warns
    TooManyMissedTimes when the estimate passes 100."""
    result = most_recent_schedule_time(schedule, now, creation, last_schedule, starting_deadline_seconds)
    if result.most_recent is None or result.most_recent > now:
        return NextSchedule(None, False, result.error)
    return NextSchedule(result.most_recent, result.missed is MissedSchedules.MANY, result.error)
