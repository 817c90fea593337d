"""Go's `time.LoadLocation` over the IANA database of the `tzdata` package (not the machine's files),
as CronJob time-zone validation uses it."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=512)
def load_location_error(name: str) -> str | None:
    """The error `time.LoadLocation(name)` returns, or None when the zone loads."""
    if name in ("", "UTC", "Local"):
        return None
    if ".." in name or name.startswith(("/", "\\")) or "\\" in name:
        return "time: invalid location name"
    try:
        entry = resources.files("tzdata.zoneinfo").joinpath(*name.split("/"))
        # Only TZif files are zones (the package also holds tables and Python files).
        found = entry.is_file() and entry.read_bytes()[:4] == b"TZif"
    except (OSError, ValueError):
        found = False
    return None if found else f"unknown time zone {name}"
