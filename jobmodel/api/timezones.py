"""Go's `time.LoadLocation` as CronJob time-zone validation uses it: jobmodel.schedule.gotime's,
which reads the `tzdata` package first (as Go does with ZONEINFO pointing at it), then Go's
platform directories."""

from __future__ import annotations

from jobmodel.schedule.gotime import LocationError, load_location


def load_location_error(name: str) -> str | None:
    """The error `time.LoadLocation(name)` returns, or None when the zone loads."""
    try:
        load_location(name)
    except LocationError as err:
        return str(err)
    return None
