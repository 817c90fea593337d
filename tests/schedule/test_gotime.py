"""jobmodel.schedule.gotime: Go's time.Date and LoadLocation (expected values printed by Go 1.26)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from jobmodel.schedule import gotime
from jobmodel.schedule.gotime import (
    LocationError,
    Zone,
    from_unix,
    load_location,
    tzdata_zoneinfo_dir,
    unix_seconds,
)


def test_date_in_a_gap_takes_the_offset_after_the_change() -> None:
    ny = Zone(load_location("America/New_York"))
    # Go: time.Date(2024, 3, 10, 2, 30, 0, 0, ny).UTC() == 2024-03-10 06:30:00 UTC
    assert from_unix(ny.date(2024, 3, 10, 2, 30, 0), None) == datetime(2024, 3, 10, 6, 30, tzinfo=UTC)


def test_repeated_wall_time_is_the_first_occurrence() -> None:
    ny = Zone(load_location("America/New_York"))
    # Go: time.Date(2024, 11, 3, 1, 30, 0, 0, ny).UTC() == 2024-11-03 05:30:00 UTC
    assert from_unix(ny.date(2024, 11, 3, 1, 30, 0), None) == datetime(2024, 11, 3, 5, 30, tzinfo=UTC)


def test_date_normalises_overflowing_fields() -> None:
    utc = Zone(UTC)
    assert utc.date(2016, 13, 32, 0, 0, 0) == unix_seconds(datetime(2017, 2, 1, tzinfo=UTC))[0]
    assert utc.date(2016, 3, 0, 0, 0, 0) == unix_seconds(datetime(2016, 2, 29, tzinfo=UTC))[0]


def test_civil_fields_and_weekday() -> None:
    c = Zone(load_location("Asia/Kolkata")).civil(unix_seconds(datetime(2016, 5, 19, 20, 0, tzinfo=UTC))[0])
    assert (c.year, c.month, c.day, c.hour, c.minute, c.weekday) == (2016, 5, 20, 1, 30, 5)


@pytest.mark.parametrize("name", ["", "UTC", "Local"])
def test_utc_names(name: str) -> None:
    assert load_location(name) is UTC


@pytest.mark.parametrize(("name", "message"), [("../etc/passwd", "invalid location name"), ("/etc/localtime", "invalid location name"), ("Mars/Olympus", "unknown time zone"), ("America", "is a directory"),  ("America/New_York/", "not a directory"), ("America/New_York/.", "not a directory"), ("Europe/Berlin\x00", "invalid argument")])
def test_bad_names(name: str, message: str) -> None:
    with pytest.raises(LocationError, match=message):
        load_location(name)


def test_a_name_the_package_lacks_is_looked_up_where_go_looks_next(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """time.LoadLocation tries $ZONEINFO (the `tzdata` package), then the platform directories
    (Go answers `posixrules` from /usr/share/zoneinfo: a valid zone)."""
    (tmp_path / "Odd").mkdir()
    (tmp_path / "Odd" / "Zone").write_bytes((tzdata_zoneinfo_dir() / "Asia" / "Kolkata").read_bytes())
    monkeypatch.setattr(gotime, "PLATFORM_ZONE_SOURCES", ("/nonexistent/", f"{tmp_path}/"))
    load_location.cache_clear()
    try:
        zone = Zone(load_location("Odd/Zone"))
        with pytest.raises(LocationError, match="unknown time zone"):
            load_location("Odd/Other")
    finally:
        load_location.cache_clear()
    assert zone.offset(0) == 19800


def test_a_file_that_is_no_zone_is_malformed_only_outside_zoneinfo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Go drops the parse error of a $ZONEINFO file (a shadowed `err`), not a platform file's:
    the package's zone1970.tab is an unknown zone, the same file in /usr/share/zoneinfo/ a
    malformed one (Go 1.26.8 prints both)."""
    (tmp_path / "zone1970.tab").write_text("# not a zone\n")
    monkeypatch.setattr(gotime, "PLATFORM_ZONE_SOURCES", ("/nonexistent/",))
    load_location.cache_clear()
    try:
        with pytest.raises(LocationError, match=r"unknown time zone zone1970\.tab"):
            load_location("zone1970.tab")
        with pytest.raises(LocationError, match=r"unknown time zone __init__\.py"):
            load_location("__init__.py")
        monkeypatch.setattr(gotime, "PLATFORM_ZONE_SOURCES", (f"{tmp_path}/",))
        load_location.cache_clear()
        with pytest.raises(LocationError, match="malformed time zone information"):
            load_location("zone1970.tab")
    finally:
        load_location.cache_clear()


def test_times_before_year_one_as_go_computes_them() -> None:
    ny = Zone(load_location("America/New_York"))
    zero = unix_seconds(datetime(1, 1, 1, tzinfo=UTC))[0]
    # Go: time.Time{}.In(ny) == 0000-12-31 19:03:58 -0456 LMT, a Sunday
    assert ny.civil(zero) == (0, 12, 31, 19, 3, 58, 0)
    # Go: time.Date(0, 2, 29, 12, 0, 0, 0, ny).UTC() == 0000-02-29 16:56:02 UTC
    assert ny.date(0, 2, 29, 12, 0, 0) == zero - 307 * 86400 + 16 * 3600 + 56 * 60 + 2
