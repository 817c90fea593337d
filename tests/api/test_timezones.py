"""time.LoadLocation over the tzdata package."""

from __future__ import annotations

import pytest

from jobmodel.api.timezones import load_location_error


@pytest.mark.parametrize(
    "name", ["America/New_York", "Europe/Rome", "UTC", "Etc/GMT+5", "GMT-0", "Factory"]
)
def test_known_zones_load(name: str) -> None:
    assert load_location_error(name) is None


@pytest.mark.parametrize(
    "name", ["Europe/Atlantis", "America", "broken", "__init__.py", "tzdata.zi"]
)
def test_unknown_zones_fail(name: str) -> None:
    assert load_location_error(name) == f"unknown time zone {name}"


def test_parent_directory_is_refused() -> None:
    assert load_location_error("../etc/passwd") == "time: invalid location name"
