"""time.LoadLocation over the tzdata package, then Go's platform directories (here none, so
that the machine's zoneinfo does not decide; Go 1.26.8's messages)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from jobmodel.api.timezones import load_location_error
from jobmodel.schedule import gotime


@pytest.fixture(autouse=True)
def _no_platform_zoneinfo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(gotime, "PLATFORM_ZONE_SOURCES", ("/nonexistent/",))
    gotime.load_location.cache_clear()
    yield
    gotime.load_location.cache_clear()


@pytest.mark.parametrize(
    "name", ["America/New_York", "Europe/Rome", "UTC", "Etc/GMT+5", "GMT-0", "Factory"]
)
def test_known_zones_load(name: str) -> None:
    assert load_location_error(name) is None


@pytest.mark.parametrize(
    "name", ["Europe/Atlantis", "broken", "__init__.py", "tzdata.zi"]
)
def test_unknown_zones_fail(name: str) -> None:
    # A $ZONEINFO file that is no zone (tzdata.zi, __init__.py) is an unknown zone for Go.
    assert load_location_error(name) == f"unknown time zone {name}"


@pytest.mark.parametrize(("name", "error"), [("America", "is a directory"), ("America/New_York/", "not a directory")])
def test_paths_fail_as_go_reads_them(name: str, error: str) -> None:
    assert load_location_error(name) == error


@pytest.mark.parametrize("name", ["../etc/passwd", "Foo..Bar", "/etc/localtime", "\\UTC"])
def test_parent_directory_is_refused(name: str) -> None:
    assert load_location_error(name) == "time: invalid location name"
