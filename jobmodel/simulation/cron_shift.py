"""Time-shift equality for the CronJob simulation's fast path (docs/cron.md, "A year in seconds").

A sync is a function of the CronJob, its Jobs, the clock and the schedule. Shift every time in
that input by Δ (a whole number of minutes), rename every Job by the same Δ (getJobName is
Unix minutes) and, when the schedule's run times over the period shift by Δ too, the sync's
output is the old output shifted by Δ. So once the simulation meets a state that is an earlier
state shifted by Δ, each following period of length Δ repeats the last one, shifted: the fast
path copies it instead of running it, and runs step by step wherever it cannot prove that.

Everything here is a pure function; shifting a value this module does not know how to shift
answers None (and the simulation then takes the step-by-step path).
"""

from __future__ import annotations

import re
from collections import deque
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from typing import Any, cast

import attrs

from jobmodel.schedule.cron import STAR_BIT, Schedule, SpecSchedule
from jobmodel.schedule.gotime import Zone
from jobmodel.state import CronJob, Job, JobStatus, ObjectReference
from jobmodel.transitions.sync_cronjob import format_rfc3339

MINUTE = 60
DAY = 86400
WEEK = 7 * DAY
# How finely the time zone's offset is sampled when looking for its next change (no zone
# changes its offset twice within six hours).
OFFSET_STEP = 6 * 3600
# At most this many run times are enumerated to show that a schedule repeats.
ENUMERATION_BUDGET = 200_000

_ISO = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)"
_RFC1123 = r"[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d \+0000"
_RFC1123_FORMAT = "%a, %d %b %Y %H:%M:%S +0000"


def shift_time(t: datetime, delta: timedelta) -> datetime:
    """The instant `t` + `delta`, in `t`'s own zone (a fixed offset adds directly; a zone with
    daylight-saving changes adds in UTC, as Go's Time.Add does)."""
    if t.tzinfo is None or isinstance(t.tzinfo, timezone):
        return t + delta
    return (t.astimezone(UTC) + delta).astimezone(t.tzinfo)


def _shift_opt(t: datetime | None, delta: timedelta) -> datetime | None:
    return None if t is None else shift_time(t, delta)


# --- text: Job names and times inside strings ----------------------------------------------------


@attrs.frozen
class Text:
    """A string split into literal parts, Job-name minutes (`int`) and times (`(datetime, style)`),
    so that it can be rendered shifted by any Δ without parsing it again."""

    parts: tuple[str | int | tuple[datetime, str], ...]
    # The literal parts as a format string with a `{}` for each shifting part.
    template: str = attrs.field(init=False)
    shifting: tuple[int | tuple[datetime, str], ...] = attrs.field(init=False)

    literal: str = attrs.field(init=False)

    @literal.default
    def _literal(self) -> str:
        return "".join(p for p in self.parts if isinstance(p, str))

    @template.default
    def _template(self) -> str:
        return "".join(p.replace("{", "{{").replace("}", "}}") if isinstance(p, str) else "{}" for p in self.parts)

    @shifting.default
    def _shifting(self) -> tuple[int | tuple[datetime, str], ...]:
        return tuple(p for p in self.parts if not isinstance(p, str))

    def render(self, delta: timedelta) -> str:
        return self.render_minutes(delta, int(delta.total_seconds()) // MINUTE)

    def render_minutes(self, delta: timedelta, minutes: int) -> str:
        """`render(delta)` with `delta`'s whole minutes already counted (the fast path's loop)."""
        if not self.shifting:
            return self.literal
        return self.template.format(*(str(p + minutes) if isinstance(p, int) else _format(p[0] + delta, p[1]) for p in self.shifting))


def _format(t: datetime, style: str) -> str:
    if style == "Z":
        return format_rfc3339(t)
    if style == "rfc1123":
        return t.strftime(_RFC1123_FORMAT)
    return t.isoformat()


def text_of(s: str, prefix: str) -> Text | None:
    """`s` as a Text: `prefix` followed by digits is a Job name (getJobName's Unix minutes),
    RFC 3339 and RFC 1123 times are times. None when rendering it unshifted does not give `s`
    back (then it is not known how to shift it)."""
    # Times first: a CronJob named like a year ("2025") must not turn a date into a Job name.
    pattern = re.compile(rf"(?P<iso>{_ISO})|(?P<rfc>{_RFC1123})|(?<![a-z0-9.-]){re.escape(prefix)}(?P<m>\d+)(?!\d)")
    parts: list[str | int | tuple[datetime, str]] = []
    pos = 0
    try:
        for match in pattern.finditer(s):
            parts.append(s[pos : match.start()])
            if match.group("m") is not None:
                parts.append(prefix)
                parts.append(int(match.group("m")))
            elif match.group("iso") is not None:
                iso = match.group("iso")
                parts.append((datetime.fromisoformat(iso), "Z" if iso.endswith("Z") else "iso"))
            else:
                parsed = datetime.strptime(match.group("rfc"), _RFC1123_FORMAT).replace(tzinfo=UTC)
                parts.append((parsed, "rfc1123"))
            pos = match.end()
    except ValueError:
        return None
    parts.append(s[pos:])
    text = Text(tuple(p for p in parts if p != ""))
    return text if text.render(timedelta(0)) == s else None


def shift_text(s: str, delta: timedelta, prefix: str) -> str | None:
    """`s` with its Job names and times shifted by `delta`."""
    text = text_of(s, prefix)
    try:
        return None if text is None else text.render(delta)
    except (OverflowError, ValueError):
        return None


# --- the simulated state -----------------------------------------------------------------------


def job_name_prefix(cj: CronJob) -> str:
    """What getJobName puts before the minutes."""
    return f"{cj.name}-"


def _shift_times_in(value: object, delta: timedelta) -> object:
    """Every datetime inside an attrs value (conditions, status), shifted."""
    if isinstance(value, datetime):
        return shift_time(value, delta)
    if isinstance(value, tuple):
        return tuple(_shift_times_in(v, delta) for v in value)
    if attrs.has(type(value)):
        changes = {}
        for field in attrs.fields(cast(Any, type(value))):
            old = getattr(value, field.name)
            new = _shift_times_in(old, delta)
            if new is not old:
                changes[field.alias or field.name] = new
        return attrs.evolve(value, **changes) if changes else value  # type: ignore[misc]
    return value


def shift_job(job: Job, delta: timedelta, prefix: str) -> Job | None:
    """The Job created Δ later: its name, uid and scheduled-time annotation shifted, its times too."""
    meta = job.metadata
    name, uid = shift_text(meta.name, delta, prefix), shift_text(meta.uid, delta, prefix)
    if name is None or uid is None or name == meta.name:
        return None
    annotations = {}
    for key, value in meta.annotations.items():
        shifted = shift_text(value, delta, prefix)
        if shifted is None:
            return None
        annotations[key] = shifted
    if meta.deletion_timestamp is not None or meta.generate_name:
        return None
    new_meta = attrs.evolve(
        meta,
        name=name,
        uid=uid,
        annotations=type(meta.annotations)(annotations),
        creation_timestamp=_shift_opt(meta.creation_timestamp, delta),
    )
    status = cast(JobStatus, _shift_times_in(job.status, delta))
    return attrs.evolve(job, metadata=new_meta, status=status)


def _shift_ref(ref: ObjectReference, delta: timedelta, prefix: str) -> ObjectReference | None:
    name, uid = shift_text(ref.name, delta, prefix), shift_text(ref.uid, delta, prefix)
    if name is None or uid is None:
        return None
    return attrs.evolve(ref, name=name, uid=uid)


def shift_cron_job(cj: CronJob, delta: timedelta) -> CronJob | None:
    """The CronJob with its status shifted (its spec and metadata stay). None without a
    lastScheduleTime: then the controller counts from the creation time, which does not move."""
    status = cj.status
    if status.last_schedule_time is None:
        return None
    prefix = job_name_prefix(cj)
    active = [_shift_ref(ref, delta, prefix) for ref in status.active]
    if any(ref is None for ref in active):
        return None
    new_status = attrs.evolve(
        status,
        active=tuple(a for a in active if a is not None),
        last_schedule_time=shift_time(status.last_schedule_time, delta),
        last_successful_time=_shift_opt(status.last_successful_time, delta),
    )
    return attrs.evolve(cj, status=new_status)


@attrs.frozen
class State:
    """What the simulation carries from one sync to the next: the CronJob, the cluster's Jobs
    in their order (the order of the informer's list) and the clock."""

    cron_job: CronJob
    jobs: tuple[Job, ...]
    now: datetime


def shift_state(state: State, delta: timedelta) -> State | None:
    """The state Δ later, or None when some part of it is not known to shift."""
    if delta.total_seconds() % MINUTE:
        return None
    cj = shift_cron_job(state.cron_job, delta)
    if cj is None:
        return None
    prefix = job_name_prefix(state.cron_job)
    jobs = [shift_job(j, delta, prefix) for j in state.jobs]
    if any(j is None for j in jobs):
        return None
    try:
        return State(cj, tuple(j for j in jobs if j is not None), shift_time(state.now, delta))
    except OverflowError:
        return None


def lookback(state: State) -> datetime:
    """The earliest time a sync from this state asks the schedule about (mostRecentScheduleTime
    starts at lastScheduleTime or later)."""
    last = state.cron_job.status.last_schedule_time
    return min(last, state.now) if last is not None else state.now


# --- the schedule ----------------------------------------------------------------------------


def _full(bits: int, low: int, high: int) -> bool:
    want = sum(1 << v for v in range(low, high + 1))
    return bits & ~STAR_BIT & want == want


def spec_period(s: SpecSchedule) -> int | None:
    """The shortest period (seconds of local wall time) after which a spec's matches repeat,
    when it is one of second, minute, hour, day or week; None when the days of month or the
    months matter (their lengths differ)."""
    if not _full(s.month, 1, 12):
        return None
    if _full(s.dom, 1, 31) and _full(s.dow, 0, 6):
        days = DAY
    elif s.dom & STAR_BIT and _full(s.dom, 1, 31):
        days = WEEK  # dayMatches: dom AND dow, and every dom matches: by weekday only
    else:
        return None
    if days == WEEK or not _full(s.hour, 0, 23):
        return days
    if not _full(s.minute, 0, 59):
        return 3600
    return MINUTE if not _full(s.second, 0, 59) else 1


def _offset_constant_until(zone: Zone, start: int, limit: int) -> int:
    """The last second ≤ `limit` up to which `zone`'s offset stays what it is at `start`."""
    here = zone.offset(start)
    t = start
    while t < limit:
        step = min(OFFSET_STEP, limit - t)
        if zone.offset(t + step) != here:
            lo, hi = t, t + step
            while hi - lo > 1:
                mid = (lo + hi) // 2
                lo, hi = (mid, hi) if zone.offset(mid) == here else (lo, mid)
            return lo
        t += step
    return limit


def periodic_until(
    schedule: Schedule, delta: timedelta, start: datetime, limit: datetime, clock_zone: tzinfo | None, other_zones: tuple[tzinfo, ...] = ()
) -> datetime:
    """A time U ≤ `limit` such that every x in [start, U − delta] is a run time exactly when
    x + delta is, and the offsets of `other_zones` (where times are written down, e.g. the
    scheduled-time annotation) stay the same over [start, U]; `start` when that cannot be shown."""
    seconds = int(delta.total_seconds())
    if seconds <= 0 or delta.microseconds:
        return start
    zones = list(other_zones)
    until = limit
    # A ConstantDelaySchedule (`@every`) is left as it is: its Next is t plus the delay, which
    # commutes with any whole-second shift.
    if isinstance(schedule, SpecSchedule):
        period = spec_period(schedule)
        if period is not None and seconds % period == 0:
            zones.append(schedule.location if schedule.location is not None else (clock_zone or UTC))
        else:
            until = enumerated_until(schedule, delta, start, limit)
    end = int(until.timestamp())
    for tz in zones:
        if tz is not UTC and not isinstance(tz, timezone):
            end = min(end, _offset_constant_until(Zone(tz), int(start.timestamp()), end))
    return datetime.fromtimestamp(end, UTC) if end < int(until.timestamp()) else until


def enumerated_until(schedule: Schedule, delta: timedelta, start: datetime, limit: datetime, budget: int = ENUMERATION_BUDGET) -> datetime:
    """`periodic_until` by the run times themselves (for schedules whose period is not a
    multiple of `delta`, e.g. every five minutes in business hours): the runs in the first
    period from `start` must recur, each `delta` later, run for run; U is the last second
    before the first run that is missing or extra. `start` when no run falls in the first
    period: then a sync could look further ahead than one period."""
    second = timedelta(seconds=1)
    first: list[datetime] = []
    t = schedule.next(start - second)
    while start <= t < start + delta and len(first) < budget:
        first.append(t)
        t = schedule.next(t)
    if not first or len(first) >= budget:
        return start
    window = deque(first)  # the last len(first) runs, oldest first
    for _ in range(budget):
        expected = window[0] + delta
        if t != expected:
            bad = min(t, expected)  # Go's zero time when robfig gives up: before `start`
            return bad - second if bad > start else start
        if t > limit:
            return limit
        window.popleft()
        window.append(t)
        t = schedule.next(t)
    return max(start, window[-1])
