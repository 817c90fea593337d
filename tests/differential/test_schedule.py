"""The model's CronJob schedule arithmetic (jobmodel/schedule) against upstream's own
`mostRecentScheduleTime` / `nextScheduleTimeDuration` with robfig/cron v3.0.1 (harness/upstream),
on generated schedules, time zones and instants, daylight-saving changes included."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jobmodel.adapters.upstream import UpstreamEngine
from jobmodel.conformance.schedule import model_outcome
from jobmodel.timeutil import format_time

EXAMPLES = 20000 if os.environ.get("HYPOTHESIS_PROFILE") == "long" else 3000
ZONES = [None, "UTC", "America/New_York", "Europe/London", "Australia/Lord_Howe", "Asia/Kolkata", "America/Sao_Paulo"]
# Instants near daylight-saving changes of those zones, and ordinary ones.
ANCHORS = [
    datetime(2023, 3, 12, 6, 30, tzinfo=UTC),  # New York springs forward
    datetime(2023, 11, 5, 5, 30, tzinfo=UTC),  # New York falls back
    datetime(2023, 3, 26, 0, 30, tzinfo=UTC),  # London springs forward
    datetime(2023, 10, 29, 0, 30, tzinfo=UTC),  # London falls back
    datetime(2023, 4, 1, 14, 30, tzinfo=UTC),  # Lord Howe: back half an hour
    datetime(2023, 9, 30, 15, 30, tzinfo=UTC),  # Lord Howe: forward half an hour
    datetime(2016, 5, 19, 10, 0, tzinfo=UTC),
    datetime(2024, 2, 29, 23, 59, tzinfo=UTC),
    datetime(2025, 12, 31, 23, 0, tzinfo=UTC),
]


def field(lo: int, hi: int) -> st.SearchStrategy[str]:
    value = st.integers(lo, hi)
    return st.one_of(
        st.just("*"),
        value.map(str),
        st.builds(lambda a, b: f"{a}-{b}", value, value),
        st.builds(lambda n: f"*/{n}", st.integers(1, max(1, hi - lo))),
        st.builds(lambda a, b, n: f"{a}-{b}/{n}", value, value, st.integers(1, 5)),
        st.lists(value, min_size=2, max_size=3).map(lambda xs: ",".join(map(str, xs))),
    )


SCHEDULES = st.one_of(
    st.builds(
        lambda *parts: " ".join(parts),
        field(0, 59),
        field(0, 23),
        field(1, 31),
        field(1, 12),
        field(0, 7),
    ),
    st.sampled_from(["@hourly", "@daily", "@weekly", "@monthly", "@yearly", "@midnight", "@every 90m", "@every 1h", "@every 7m30s"]),
)


@st.composite
def schedule_cases(draw: st.DrawFn) -> dict[str, Any]:
    anchor = draw(st.sampled_from(ANCHORS))
    earliest = anchor + timedelta(minutes=draw(st.integers(-180, 180)))
    now = earliest + timedelta(seconds=draw(st.sampled_from([0, 30, 3600, 5400, 86400 * 3, 86400 * 40])) + draw(st.integers(0, 3600)))
    case: dict[str, Any] = {
        "name": "generated",
        "schedule": draw(SCHEDULES),
        "earliestTime": format_time(earliest),
        "now": format_time(now),
        "expect": {},
    }
    zone = draw(st.sampled_from(ZONES))
    if zone is not None:
        case["timeZone"] = zone
    if draw(st.integers(0, 3)) == 0:
        case["startingDeadlineSeconds"] = draw(st.sampled_from([10, 200, 3600]))
    return case


@pytest.fixture(scope="module")
def upstream() -> Iterator[UpstreamEngine]:
    engine = UpstreamEngine()
    yield engine
    engine.close()


@settings(max_examples=EXAMPLES)
@given(schedule_cases())
def test_schedule_agrees_with_upstream(upstream: UpstreamEngine, case: dict[str, Any]) -> None:
    expected = upstream.outcome("schedule", case)
    actual = model_outcome(case)
    keys = ("error", "mostRecent", "tooManyMissed", "next")
    if expected.get("error"):
        keys = ("error",)
    differing = {k: (actual.get(k), expected.get(k)) for k in keys if actual.get(k) != expected.get(k)}
    assert not differing, f"(model, upstream) {differing} for {case}"
