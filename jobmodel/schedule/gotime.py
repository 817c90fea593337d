"""The few pieces of Go's `time` package that robfig/cron's `Next` relies on, on whole Unix seconds.

Go keeps an instant and a location apart and computes the civil fields (year, ..., weekday) on
demand; `time.Date` turns civil fields back into an instant with its own rule for wall times
that do not exist or exist twice at a daylight-saving change. The model works on integer Unix
seconds and a `Zone` so that rule can be followed exactly (Python's `fold` follows another).

Zones are read from the `tzdata` package's files, never from the system, so that the model and
the Go harness (pointed at the same directory through `ZONEINFO`) use the same IANA data.
"""

from __future__ import annotations

import functools
import importlib.util
import io
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path
from typing import NamedTuple
from zoneinfo import ZoneInfo

import attrs

from jobmodel.errors import printable

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MIN_UNIX = -62135510400  # 0001-01-02T00:00:00Z: the earliest instant every zone can convert
_MAX_UNIX = 253402128000  # 9999-12-30T00:00:00Z
SECONDS_PER_DAY = 86400


class LocationError(ValueError):
    """time.LoadLocation failed; the message is Go's."""


def tzdata_zoneinfo_dir() -> Path:
    """The `zoneinfo` directory of the `tzdata` package: the one IANA database the model uses."""
    spec = importlib.util.find_spec("tzdata")
    if spec is None or spec.origin is None:
        raise LocationError("the tzdata package is not installed")
    return Path(spec.origin).resolve().parent / "zoneinfo"


def _contains_dot_dot(name: str) -> bool:
    """containsDotDot: ".." anywhere in the name, not only as a path element."""
    return ".." in name


# Go's platformZoneSources (time/zoneinfo_unix.go): searched after $ZONEINFO, which the model
# takes to be the `tzdata` package (the upstream harness runs with ZONEINFO pointing at it).
PLATFORM_ZONE_SOURCES = ("/usr/share/zoneinfo/", "/usr/share/lib/zoneinfo/", "/usr/lib/locale/TZ/", "/etc/zoneinfo/")
_ENOENT = 2


def _read_zone_file(path: str) -> bytes:
    """readFile: the raw path, never normalised (`America/New_York/` is ENOTDIR, not the zone)."""
    try:
        # A plain open, as Go's: pathlib would drop a trailing "/" or "/." and find the zone.
        with open(path, "rb") as handle:
            return handle.read()
    except ValueError:  # NUL or what the file system cannot encode: EINVAL
        raise OSError(22, "invalid argument") from None


@functools.lru_cache(maxsize=512)
def load_location(name: str) -> tzinfo:
    """time.LoadLocation: "" and "UTC" are UTC; "Local" is the controller's local zone, UTC in
    the model (kube-controller-manager images carry no /etc/localtime); else the file of that
    name in $ZONEINFO (the `tzdata` package), then in Go's platform directories."""
    if name in ("", "UTC", "Local"):
        return UTC
    if _contains_dot_dot(name) or name[0] in "/\\":
        raise LocationError("time: invalid location name")
    first: str | None = None
    for source in (f"{tzdata_zoneinfo_dir()}/", *PLATFORM_ZONE_SOURCES):
        try:
            data = _read_zone_file(source + name)
        except OSError as err:
            if first is None and err.errno != _ENOENT:
                first = (err.strerror or str(err)).lower()
            continue
        try:
            return ZoneInfo.from_file(io.BytesIO(data), key=name)
        except (OSError, ValueError):
            # Go drops the error of a $ZONEINFO file that is no zone (its `firstErr = err`
            # assigns the read's nil error: the parse error is shadowed), not a platform one's.
            if first is None and not source.startswith(str(tzdata_zoneinfo_dir())):
                first = "malformed time zone information"
    raise LocationError(first or f"unknown time zone {printable(name)}")


def days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date, any year (as Go's time allows)."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * ((month + 9) % 12) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def civil_from_days(days: int) -> tuple[int, int, int]:
    """The proleptic Gregorian (year, month, day) of a day count since 1970-01-01."""
    days += 719468
    era = days // 146097
    day_of_era = days - era * 146097
    year_of_era = (day_of_era - day_of_era // 1460 + day_of_era // 36524 - day_of_era // 146096) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    shifted_month = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * shifted_month + 2) // 5 + 1
    month = shifted_month + 3 if shifted_month < 10 else shifted_month - 9
    return year_of_era + era * 400 + (month <= 2), month, day


class Civil(NamedTuple):
    """The civil fields Go's Time methods return in a location."""

    year: int
    month: int
    day: int
    hour: int
    minute: int
    second: int
    weekday: int  # Sunday = 0, as time.Weekday


@attrs.frozen
class Zone:
    """A location: the UTC offset in force at each instant."""

    tz: tzinfo

    def offset(self, unix: int) -> int:
        """Seconds east of UTC at the instant `unix` (Go's times reach beyond Python's years
        1-9999; there the offset of the nearest representable instant holds)."""
        if self.tz is UTC:
            return 0
        clamped = min(max(unix, _MIN_UNIX), _MAX_UNIX)
        off = (_EPOCH + timedelta(seconds=clamped)).astimezone(self.tz).utcoffset()
        return int(off.total_seconds()) if off is not None else 0

    def civil(self, unix: int) -> Civil:
        """t.Year(), t.Month(), ..., t.Weekday() of the instant in this location."""
        local = unix + self.offset(unix)
        days, secs = divmod(local, SECONDS_PER_DAY)
        year, month, day = civil_from_days(days)
        hour, rest = divmod(secs, 3600)
        minute, second = divmod(rest, 60)
        # 1970-01-01 was a Thursday (4).
        return Civil(year, month, day, hour, minute, second, (days + 4) % 7)

    def date(self, year: int, month: int, day: int, hour: int, minute: int, second: int) -> int:
        """time.Date: fields out of range carry over; a wall time skipped or repeated by a zone
        change takes the offset in force at (wall time read as UTC) minus the offset there."""
        carry, month0 = divmod(month - 1, 12)
        days = days_from_civil(year + carry, month0 + 1, 1) + day - 1
        wall = days * SECONDS_PER_DAY + hour * 3600 + minute * 60 + second
        # Go looks the offset up at `wall` first, and again at `wall - offset` when that falls
        # outside the first zone period; either way the offset used is the one at wall - offset.
        return wall - self.offset(wall - self.offset(wall))

    def add_date(self, unix: int, months: int, days: int) -> int:
        """t.AddDate(0, months, days): civil arithmetic, normalised by time.Date."""
        c = self.civil(unix)
        return self.date(c.year, c.month + months, c.day + days, c.hour, c.minute, c.second)


def zone_of(t: datetime) -> Zone:
    """The location a Go time carries: the datetime's own zone (naive times count as UTC)."""
    return Zone(t.tzinfo if t.tzinfo is not None else UTC)


def unix_seconds(t: datetime) -> tuple[int, int]:
    """An instant as whole Unix seconds (floor) and the microseconds past them."""
    aware = t if t.tzinfo is not None else t.replace(tzinfo=UTC)
    delta = aware - _EPOCH
    return delta.days * SECONDS_PER_DAY + delta.seconds, delta.microseconds


def from_unix(unix: int, tz: tzinfo | None) -> datetime:
    """t.In(loc) for an instant given as Unix seconds; in UTC where the local date would fall
    outside Python's years 1-9999 (Go's times have no such limit)."""
    value = _EPOCH + timedelta(seconds=unix)
    if tz is None or tz is UTC:
        return value
    try:
        return value.astimezone(tz)
    except OverflowError:
        return value
