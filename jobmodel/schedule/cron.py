"""Cron schedules exactly as github.com/robfig/cron/v3 v3.0.1 parses and steps them, bug for bug.

This is the library the CronJob controller and API validation call (`cron.ParseStandard`, then
`Schedule.Next`). Where it differs from `croniter` (and from Vixie cron) it is followed here,
not corrected: see docs/cron.md for each difference with an example.
"""

from __future__ import annotations

import functools
from datetime import UTC, datetime, tzinfo
from typing import TypeAlias

import attrs

from jobmodel.errors import quote
from jobmodel.schedule.gotime import (
    SECONDS_PER_DAY,
    LocationError,
    Zone,
    civil_from_days,
    days_from_civil,
    from_unix,
    load_location,
    unix_seconds,
    zone_of,
)
from jobmodel.timeutil import GO_ZERO_TIME
from jobmodel.util.goquote import go_quote, go_time_quote
from jobmodel.util.gostrings import go_fields, go_parse_int, go_to_lower, go_trim_space

STAR_BIT = 1 << 63
_MAX_INT64 = (1 << 63) - 1
NANOS_PER_SECOND = 1_000_000_000


class CronParseError(ValueError):
    """robfig/cron rejected a spec; `message` is the library's own error text (or, where the
    library panics, a description of the panic)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class CronPanic(CronParseError):
    """A spec on which robfig/cron v3.0.1 panics instead of returning an error: whoever calls
    the library (the API server's validation, the controller) fails the whole request, up to
    1.34; from 1.35 both recover it (parsers.ParseCronScheduleWithPanicRecovery: RECOVERED_PANIC)."""


# What the panic says once recovered (Go's runtime error for spec[eq+1:i] with i = -1).
RECOVERED_PANIC = "invalid schedule format: runtime error: slice bounds out of range [:-1]"


@attrs.frozen
class Bounds:
    """cron.bounds: the range of a field and its names."""

    min: int
    max: int
    names: tuple[tuple[str, int], ...] = ()


SECONDS = Bounds(0, 59)
MINUTES = Bounds(0, 59)
HOURS = Bounds(0, 23)
DOM = Bounds(1, 31)
MONTHS = Bounds(
    1,
    12,
    tuple(
        (n, i + 1)
        for i, n in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"))
    ),
)
DOW = Bounds(0, 6, tuple((n, i) for i, n in enumerate(("sun", "mon", "tue", "wed", "thu", "fri", "sat"))))


# --- schedules ------------------------------------------------------------------------------


@attrs.frozen(cache_hash=True)  # schedules key the memo of jobmodel.schedule.times
class SpecSchedule:
    """cron.SpecSchedule: one bit per allowed value, bit 63 (STAR_BIT) set when the field was `*`
    or `?` with step 1. `location` None is Go's time.Local: the zone of the time given to next."""

    second: int
    minute: int
    hour: int
    dom: int
    month: int
    dow: int
    location: tzinfo | None = None

    def next(self, t: datetime) -> datetime:
        """SpecSchedule.Next: the first matching second after `t`; Go's zero time when none is
        found within five years."""
        zone = Zone(self.location) if self.location is not None else zone_of(t)
        unix, _micros = unix_seconds(t)
        if _never_matches(self):
            return GO_ZERO_TIME
        found = _utc_next(self, unix + 1) if zone.tz is UTC else _spec_next(self, zone, unix + 1)
        return GO_ZERO_TIME if found is None else from_unix(found, t.tzinfo)


@attrs.frozen
class ConstantDelaySchedule:
    """cron.ConstantDelaySchedule (`@every <duration>`): `delay` whole seconds."""

    delay: int

    def next(self, t: datetime) -> datetime:
        """ConstantDelaySchedule.Next: `t` plus the delay, rounded down to the second."""
        unix, _micros = unix_seconds(t)
        return from_unix(unix + self.delay, t.tzinfo)


Schedule: TypeAlias = SpecSchedule | ConstantDelaySchedule


def _never_matches(s: SpecSchedule) -> bool:
    """A field with no value at all can never match, so Next runs to its five-year limit and
    returns the zero time; answering at once gives the same result without the walk."""
    if any(bits & ~STAR_BIT == 0 for bits in (s.second, s.minute, s.hour, s.month)):
        return True
    dom, dow = s.dom & ~STAR_BIT, s.dow & ~STAR_BIT
    if (s.dom & STAR_BIT) or (s.dow & STAR_BIT):
        return dom == 0 or dow == 0
    return dom == 0 and dow == 0


def day_matches(s: SpecSchedule, day: int, weekday: int) -> bool:
    """dayMatches: day of month AND day of week when either field has the star bit, else OR."""
    dom_match = (1 << day) & s.dom != 0
    dow_match = (1 << weekday) & s.dow != 0
    if s.dom & STAR_BIT or s.dow & STAR_BIT:
        return dom_match and dow_match
    return dom_match or dow_match


def _field_value(zone: Zone, t: int, unit: int) -> int:
    c = zone.civil(t)
    return c.hour if unit == 3600 else c.minute if unit == 60 else c.second


def _truncate(zone: Zone, t: int, unit: int) -> int:
    """The first step of a time-of-day loop: the hour loop truncates on the wall clock
    (time.Date), the minute loop on absolute time (t.Truncate(time.Minute)), the second loop not."""
    if unit == 3600:
        c = zone.civil(t)
        return zone.date(c.year, c.month, c.day, c.hour, 0, 0)
    return t - t % 60 if unit == 60 else t


def _advance(zone: Zone, t: int, unit: int, bits: int, limit: int) -> int:
    """Several of Go's single `t.Add(unit)` steps at once: on to the next value in `bits` or to
    the roll-over to 0, whichever comes first. The intermediate steps would neither match nor
    roll over as long as the UTC offset stays the same, so across an offset change the model
    takes one step at a time, exactly as Go does (zones never change offset twice within a day)."""
    current = _field_value(zone, t, unit)
    steps = next((v - current for v in range(current + 1, limit) if (1 << v) & bits), limit - current)
    target = t + steps * unit
    return target if zone.offset(target) == zone.offset(t) else t + unit


def _spec_next(s: SpecSchedule, zone: Zone, t: int) -> int | None:
    """The body of SpecSchedule.Next from `t` (already moved to the next whole second); None for
    Go's zero time. Each loop mirrors one of Go's, `continue` is its `goto WRAP`."""
    added = False
    year_limit = zone.civil(t).year + 5
    while True:
        c = zone.civil(t)
        if c.year > year_limit:
            return None
        wrapped = False
        while (1 << c.month) & s.month == 0:
            if not added:
                added = True
                t = zone.date(c.year, c.month, 1, 0, 0, 0)
            t = zone.add_date(t, 1, 0)
            c = zone.civil(t)
            if c.month == 1:
                wrapped = True
                break
        if wrapped:
            continue
        while not day_matches(s, c.day, c.weekday):
            if not added:
                added = True
                t = zone.date(c.year, c.month, c.day, 0, 0, 0)
            t = zone.add_date(t, 0, 1)
            c = zone.civil(t)
            # Midnight may be skipped or repeated by a DST change: robfig snaps to the nearer
            # midnight by whole hours, which is how half-hour zones end up off the hour.
            if c.hour != 0:
                t += (24 - c.hour) * 3600 if c.hour > 12 else -c.hour * 3600
                c = zone.civil(t)
            if c.day == 1:
                wrapped = True
                break
        if wrapped:
            continue
        # Go's hour, minute and second loops, one row each: the truncation a loop makes on its
        # first step differs (to the wall-clock hour, to the absolute minute, none).
        for bits, unit, limit in ((s.hour, 3600, 24), (s.minute, 60, 60), (s.second, 1, 60)):
            value = _field_value(zone, t, unit)
            while (1 << value) & bits == 0:
                if not added:
                    added = True
                    t = _truncate(zone, t, unit)
                t = _advance(zone, t, unit, bits, limit)
                value = _field_value(zone, t, unit)
                if value == 0:
                    wrapped = True
                    break
            if wrapped:
                break
        if wrapped:
            continue
        return t


def _next_bit(bits: int, start: int, limit: int) -> int | None:
    """The smallest value from `start` to below `limit` whose bit is set in `bits`."""
    rest = (bits >> start) << start
    if rest == 0:
        return None
    value = (rest & -rest).bit_length() - 1
    return value if value < limit else None


def _first_time_of_day(s: SpecSchedule, seconds: int) -> int | None:
    """The first second of the day from `seconds` on whose hour, minute and second match."""
    hour, rest = divmod(seconds, 3600)
    minute, second = divmod(rest, 60)
    h = _next_bit(s.hour, hour, 24)
    while h is not None:
        m = _next_bit(s.minute, minute if h == hour else 0, 60)
        while m is not None:
            sec = _next_bit(s.second, second if (h, m) == (hour, minute) else 0, 60)
            if sec is not None:
                return h * 3600 + m * 60 + sec
            m = _next_bit(s.minute, m + 1, 60)
        h = _next_bit(s.hour, h + 1, 24)
    return None


def _utc_next(s: SpecSchedule, t: int) -> int | None:
    """`_spec_next` in UTC, where no offset ever changes: the first matching second from `t` on
    (robfig's walk finds the earliest match), jumping to each next matching field value instead
    of stepping; None when that second falls after the fifth year from `t`'s (robfig's limit,
    checked at each of its wraps, which every change of year passes through)."""
    days, seconds = divmod(t, SECONDS_PER_DAY)
    year_limit = civil_from_days(days)[0] + 5
    while True:
        year, month, day = civil_from_days(days)
        if year > year_limit:
            return None
        if not (1 << month) & s.month:
            # On to the first of the next month.
            days = days_from_civil(year + month // 12, month % 12 + 1, 1)
            seconds = 0
            continue
        if day_matches(s, day, (days + 4) % 7):  # 1970-01-01 was a Thursday (4)
            found = _first_time_of_day(s, seconds)
            if found is not None:
                return days * SECONDS_PER_DAY + found
        days += 1
        seconds = 0


# --- parsing --------------------------------------------------------------------------------

def must_parse_int(expr: str) -> int:
    """mustParseInt: strconv.Atoi (ASCII digits, optional sign, int64 range), then no negatives."""
    try:
        num = go_parse_int(expr)
    except ValueError as err:
        raise CronParseError(f"failed to parse int from {expr}: strconv.Atoi: parsing {go_quote(expr)}: {err}") from None
    if num < 0:
        raise CronParseError(f"negative number ({num}) not allowed: {expr}")
    return num


def parse_int_or_name(expr: str, names: tuple[tuple[str, int], ...]) -> int:
    """parseIntOrName: a (case-insensitive) name of the field, else an integer."""
    if names:
        lowered = go_to_lower(expr)
        for name, value in names:
            if name == lowered:
                return value
    return must_parse_int(expr)


def get_bits(low: int, high: int, step: int) -> int:
    """getBits: the bits low, low+step, ... up to high."""
    if step == 1:
        return ((1 << (high + 1)) - 1) & ~((1 << low) - 1)
    bits = 0
    for i in range(low, high + 1, step):
        bits |= 1 << i
    return bits


def get_range(expr: str, r: Bounds) -> int:
    """getRange: `*`, `?`, `n`, `a-b`, each optionally `/step`; a bare `n/step` runs to the max."""
    range_and_step = expr.split("/")
    low_and_high = range_and_step[0].split("-")
    single_digit = len(low_and_high) == 1
    extra = 0
    if low_and_high[0] in ("*", "?"):
        # Anything after a hyphen is ignored: `*-5` is `*`.
        start, end, extra = r.min, r.max, STAR_BIT
    else:
        start = parse_int_or_name(low_and_high[0], r.names)
        if len(low_and_high) == 1:
            end = start
        elif len(low_and_high) == 2:
            end = parse_int_or_name(low_and_high[1], r.names)
        else:
            raise CronParseError(f"too many hyphens: {expr}")
    if len(range_and_step) == 1:
        step = 1
    elif len(range_and_step) == 2:
        step = must_parse_int(range_and_step[1])
        if single_digit:
            end = r.max
        if step > 1:
            # `*/n` loses the star bit, so a day field written so switches dayMatches to OR.
            extra = 0
    else:
        raise CronParseError(f"too many slashes: {expr}")
    if start < r.min:
        raise CronParseError(f"beginning of range ({start}) below minimum ({r.min}): {expr}")
    if end > r.max:
        raise CronParseError(f"end of range ({end}) above maximum ({r.max}): {expr}")
    if start > end:
        raise CronParseError(f"beginning of range ({start}) beyond end of range ({end}): {expr}")
    if step == 0:
        raise CronParseError(f"step of range should be a positive number: {expr}")
    return get_bits(start, end, step) | extra


def get_field(field: str, r: Bounds) -> int:
    """getField: the union of the comma-separated ranges (empty pieces are skipped)."""
    bits = 0
    for expr in field.split(","):
        if expr:
            bits |= get_range(expr, r)
    return bits


def _all(r: Bounds) -> int:
    return get_bits(r.min, r.max, 1) | STAR_BIT


def parse_descriptor(descriptor: str, loc: tzinfo | None) -> Schedule:
    """parseDescriptor: @yearly/@annually, @monthly, @weekly, @daily/@midnight, @hourly, @every."""
    one = {"second": 1 << SECONDS.min, "minute": 1 << MINUTES.min, "hour": 1 << HOURS.min}
    table = {
        "@yearly": (1 << DOM.min, 1 << MONTHS.min, _all(DOW)),
        "@annually": (1 << DOM.min, 1 << MONTHS.min, _all(DOW)),
        "@monthly": (1 << DOM.min, _all(MONTHS), _all(DOW)),
        "@weekly": (_all(DOM), _all(MONTHS), 1 << DOW.min),
        "@daily": (_all(DOM), _all(MONTHS), _all(DOW)),
        "@midnight": (_all(DOM), _all(MONTHS), _all(DOW)),
    }
    if descriptor in table:
        dom, month, dow = table[descriptor]
        return SpecSchedule(location=loc, dom=dom, month=month, dow=dow, **one)
    if descriptor == "@hourly":
        return SpecSchedule(
            second=one["second"], minute=one["minute"], hour=_all(HOURS), dom=_all(DOM), month=_all(MONTHS), dow=_all(DOW), location=loc
        )
    every = "@every "
    if descriptor.startswith(every):
        try:
            nanos = parse_go_duration(descriptor[len(every) :])
        except ValueError as err:
            raise CronParseError(f"failed to parse duration {descriptor}: {err}") from None
        return every_schedule(nanos)
    raise CronParseError(f"unrecognized descriptor: {descriptor}")


def every_schedule(nanos: int) -> ConstantDelaySchedule:
    """cron.Every: at least one second, rounded down to whole seconds (the location is dropped)."""
    nanos = max(nanos, NANOS_PER_SECOND)
    return ConstantDelaySchedule(delay=nanos // NANOS_PER_SECOND)


@functools.lru_cache(maxsize=256)
def parse_standard(spec: str) -> Schedule:
    """cron.ParseStandard: five fields (minute hour dom month dow), a descriptor, optionally after
    `TZ=<zone> ` or `CRON_TZ=<zone> `."""
    if not spec:
        raise CronParseError("empty spec string")
    loc: tzinfo | None = None
    if spec.startswith(("TZ=", "CRON_TZ=")):
        space, eq = spec.find(" "), spec.find("=")
        if space < 0 or space < eq + 1:
            # Go slices spec[eq+1:i] with i = -1 (or before eq) and panics.
            raise CronPanic(f"runtime error: slice bounds out of range (robfig/cron panics on {quote(spec)})")
        name = spec[eq + 1 : space]
        try:
            loc = load_location(name)
        except LocationError as err:
            raise CronParseError(f"provided bad location {name}: {err}") from None
        spec = go_trim_space(spec[space:])
    if spec.startswith("@"):
        return parse_descriptor(spec, loc)
    fields = go_fields(spec)
    if len(fields) != 5:
        raise CronParseError(f"expected exactly 5 fields, found {len(fields)}: [{' '.join(fields)}]")
    minute, hour, dom, month, dow = (
        get_field(fields[0], MINUTES),
        get_field(fields[1], HOURS),
        get_field(fields[2], DOM),
        get_field(fields[3], MONTHS),
        get_field(fields[4], DOW),
    )
    return SpecSchedule(second=1 << SECONDS.min, minute=minute, hour=hour, dom=dom, month=month, dow=dow, location=loc)


# --- Go's time.ParseDuration ------------------------------------------------------------------

_UNITS = {
    b"ns": 1,
    b"us": 1_000,
    "µs".encode(): 1_000,  # U+00B5
    "μs".encode(): 1_000,  # U+03BC
    b"ms": 1_000_000,
    b"s": NANOS_PER_SECOND,
    b"m": 60 * NANOS_PER_SECOND,
    b"h": 3600 * NANOS_PER_SECOND,
}
_LIMIT = 1 << 63


def _leading_int(s: bytes) -> tuple[int, bytes]:
    i, x = 0, 0
    while i < len(s) and 0x30 <= s[i] <= 0x39:
        if x > _LIMIT // 10:
            raise OverflowError
        x = x * 10 + s[i] - 0x30
        if x > _LIMIT:
            raise OverflowError
        i += 1
    return x, s[i:]


def _leading_fraction(s: bytes) -> tuple[int, float, bytes]:
    i, x, scale, overflow = 0, 0, 1.0, False
    while i < len(s) and 0x30 <= s[i] <= 0x39:
        if not overflow:
            if x > _MAX_INT64 // 10:
                overflow = True
            else:
                y = x * 10 + s[i] - 0x30
                if y > _LIMIT:
                    overflow = True
                else:
                    x = y
                    scale *= 10
        i += 1
    return x, scale, s[i:]


def parse_go_duration(text: str) -> int:
    """time.ParseDuration, in nanoseconds: `1h30m`, `1.5s`, `-2m`, units ns us µs ms s m h."""
    quoted = go_time_quote(text)
    s = text.encode()
    neg = False
    if s[:1] in (b"-", b"+"):
        neg = s[:1] == b"-"
        s = s[1:]
    if s == b"0":
        return 0
    if not s:
        raise ValueError(f"time: invalid duration {quoted}")
    total = 0
    while s:
        if not (s[0] == 0x2E or 0x30 <= s[0] <= 0x39):
            raise ValueError(f"time: invalid duration {quoted}")
        before = len(s)
        try:
            v, s = _leading_int(s)
        except OverflowError:
            raise ValueError(f"time: invalid duration {quoted}") from None
        pre = before != len(s)
        post, f, scale = False, 0, 1.0
        if s[:1] == b".":
            s = s[1:]
            before = len(s)
            f, scale, s = _leading_fraction(s)
            post = before != len(s)
        if not pre and not post:
            raise ValueError(f"time: invalid duration {quoted}")
        i = 0
        while i < len(s) and not (s[i] == 0x2E or 0x30 <= s[i] <= 0x39):
            i += 1
        if i == 0:
            raise ValueError(f"time: missing unit in duration {quoted}")
        unit_text, s = s[:i], s[i:]
        unit = _UNITS.get(unit_text)
        if unit is None:
            raise ValueError(f"time: unknown unit {go_time_quote(unit_text.decode())} in duration {quoted}")
        if v > _LIMIT // unit:
            raise ValueError(f"time: invalid duration {quoted}")
        v *= unit
        if f > 0:
            v += int(float(f) * (float(unit) / scale))
            if v > _LIMIT:
                raise ValueError(f"time: invalid duration {quoted}")
        total += v
        if total > _LIMIT:
            raise ValueError(f"time: invalid duration {quoted}")
    if neg:
        return -total
    if total > _MAX_INT64:
        raise ValueError(f"time: invalid duration {quoted}")
    return total
