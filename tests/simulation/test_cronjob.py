"""jobmodel.simulation.cronjob: the controller model run through a time window."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from jobmodel.features import gates_for
from jobmodel.simulation.cronjob import MAX_SYNCS, Outage, simulate
from jobmodel.state import CronJob, CronJobSpec, ObjectMeta

START = datetime(2024, 1, 1, tzinfo=UTC)


def hourly(**spec: object) -> CronJob:
    meta = ObjectMeta(name="cj", namespace="ns", uid="u", creation_timestamp=START)
    return CronJob(metadata=meta, spec=CronJobSpec(schedule="0 * * * *", **spec))  # type: ignore[arg-type]


def creates(log: tuple[object, ...]) -> list[str]:
    return [e.name for e in log if getattr(e, "what", "") == "create"]  # type: ignore[attr-defined]


def test_one_job_per_hour_without_duplicates() -> None:
    sim = simulate(hourly(), START, START + timedelta(hours=3, minutes=30))
    assert creates(sim.log) == ["cj-28401180", "cj-28401240", "cj-28401300"]
    assert sim.cron_job.status.last_schedule_time == START + timedelta(hours=3)


def test_after_an_outage_only_the_most_recent_missed_time_runs() -> None:
    outage = Outage(START + timedelta(minutes=30), START + timedelta(hours=4, minutes=10))
    sim = simulate(hourly(), START, START + timedelta(hours=4, minutes=30), outages=(outage,))
    assert creates(sim.log) == ["cj-28401360"]  # 04:00 (Unix minute 28401360); 01:00 to 03:00 are lost


def test_a_long_outage_warns_too_many_missed() -> None:
    outage = Outage(START + timedelta(minutes=30), START + timedelta(days=10))
    sim = simulate(hourly(), START, START + timedelta(days=10, minutes=1), outages=(outage,))
    assert [e.name for e in sim.log if e.what == "event"] == ["TooManyMissedTimes"]
    assert len(creates(sim.log)) == 1


def test_deadline_drops_the_missed_time() -> None:
    outage = Outage(START + timedelta(minutes=30), START + timedelta(hours=4, minutes=10))
    sim = simulate(hourly(starting_deadline_seconds=300), START, START + timedelta(hours=4, minutes=30), outages=(outage,))
    assert creates(sim.log) == []


def test_a_window_needing_too_many_syncs_is_cut_short_and_says_where() -> None:
    whole = simulate(hourly(), START, START + timedelta(hours=5, minutes=30))
    assert whole.cut_short is None
    cut = simulate(hourly(), START, START + timedelta(hours=5, minutes=30), max_syncs=4)
    assert cut.syncs == 4
    assert cut.cut_short is not None and START < cut.cut_short < START + timedelta(hours=5, minutes=30)
    assert creates(cut.log) == creates(whole.log)[: len(creates(cut.log))]
    assert len(creates(cut.log)) < len(creates(whole.log))


# --- the fast path: the same result as every sync run step by step --------------------------------

SCHEDULES = (
    "* * * * *", "*/2 * * * *", "*/7 * * * *", "0 * * * *", "30 2 * * *", "*/15 1-3 * * *",
    "* 2 * * *", "0 0 * * 1", "*/5 9-17 * * 1-5", "*/2 * * * *", "@every 90s", "@every 2m", "0 0 1 * *", "TZ=UTC * * * * *",
)  # fmt: skip
ZONES = (None, "UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe")
# Windows that open a little before a daylight-saving change of one of the zones, and one far from any.
OPENINGS = (
    datetime(2025, 3, 30, 0, 0, tzinfo=UTC),
    datetime(2025, 10, 25, 23, 0, tzinfo=UTC),
    datetime(2025, 3, 9, 5, 30, tzinfo=UTC),
    datetime(2025, 4, 5, 14, 0, tzinfo=UTC),
    datetime(2025, 6, 1, 12, 0, tzinfo=UTC),
)


@st.composite
def cron_runs(draw: st.DrawFn) -> dict[str, Any]:
    """A CronJob, a window, Job durations and controller outages."""
    opening = draw(st.sampled_from(OPENINGS)) + timedelta(seconds=draw(st.integers(0, 3 * 3600)))
    window = timedelta(minutes=draw(st.integers(1, 12 * 60)))
    spec = CronJobSpec(
        schedule=draw(st.sampled_from(SCHEDULES)),
        time_zone=draw(st.sampled_from(ZONES)),
        concurrency_policy=draw(st.sampled_from(("Allow", "Forbid", "Replace"))),
        starting_deadline_seconds=draw(st.sampled_from((None, 0, 10, 90, 3600))),
        suspend=draw(st.integers(0, 9)) == 0,
        successful_jobs_history_limit=draw(st.sampled_from((0, 1, 3, None))),
        failed_jobs_history_limit=draw(st.sampled_from((0, 1, None))),
    )
    created = opening - timedelta(minutes=draw(st.integers(0, 120)))
    meta = ObjectMeta(name="cj", namespace="ns", uid="u", creation_timestamp=created)
    outages = []
    for _ in range(draw(st.integers(0, 2))):
        begin = opening + timedelta(minutes=draw(st.integers(0, int(window.total_seconds()) // 60)))
        outages.append(Outage(begin, begin + timedelta(seconds=draw(st.integers(1, 6 * 3600)))))
    return {
        "cron_job": CronJob(metadata=meta, spec=spec),
        "start": opening,
        "end": opening + window,
        "job_seconds": float(draw(st.sampled_from((0, 1, 30, 60, 90, 150, 3600)))),
        "fail": draw(st.booleans()),
        "outages": tuple(sorted(outages, key=lambda o: o.start)),
        "gates": gates_for(draw(st.sampled_from(("1.32", "1.36", "1.37")))),
        "max_syncs": draw(st.sampled_from((MAX_SYNCS, 7, 300))),
    }


def _run(schedule: str, zone: str | None, start: datetime, minutes: int, job_seconds: float = 60.0) -> dict[str, Any]:
    meta = ObjectMeta(name="cj", namespace="ns", uid="u", creation_timestamp=start)
    spec = CronJobSpec(schedule=schedule, time_zone=zone, successful_jobs_history_limit=0, failed_jobs_history_limit=0)
    return {"cron_job": CronJob(metadata=meta, spec=spec), "start": start, "end": start + timedelta(minutes=minutes), "job_seconds": job_seconds}


@settings(settings(), max_examples=max(settings().max_examples // 5, 1))
@given(cron_runs())
# A UTC schedule whose Jobs' scheduled-time annotation is written in a zone that changes its
# offset inside the window: the copies must stop there too.
@example(_run("TZ=UTC * * * * *", "Europe/Berlin", datetime(2025, 3, 30, 0, 0, tzinfo=UTC), 61))
# The syncs at a period's end run at the next period's start: a copy may not end at the window's end.
@example(_run("* * * * *", None, datetime(2025, 3, 30, 0, 0, tzinfo=UTC), 4))
def test_the_fast_path_gives_the_step_by_step_result(run: dict[str, Any]) -> None:
    assert simulate(**run) == simulate(**run, fast=False)


def test_a_year_of_a_minutely_schedule_copies_its_periods() -> None:
    minutely = CronJob(
        metadata=ObjectMeta(name="cj", namespace="ns", uid="u", creation_timestamp=START),
        spec=CronJobSpec(schedule="* * * * *", successful_jobs_history_limit=3, failed_jobs_history_limit=1),
    )
    day = simulate(minutely, START, START + timedelta(days=1), 30.0, fast=False)
    year = simulate(minutely, START, START + timedelta(days=366), 30.0)
    assert year.cut_short is None
    # One run a minute after the creation time (the first at 00:01), up to the window's end.
    assert sum(1 for e in year.log if e.what == "create") == 366 * 24 * 60 - 1
    assert year.syncs == pytest.approx(day.syncs * 366, rel=1e-3)
    assert [j.metadata.name for j in year.jobs] == [f"cj-{(int((START + timedelta(days=366)).timestamp()) // 60) - k}" for k in (3, 2, 1)]


def test_an_outage_in_a_long_window_is_simulated_not_copied() -> None:
    outage = Outage(START + timedelta(days=3, hours=5), START + timedelta(days=3, hours=9))
    run = {"cron_job": hourly(), "start": START, "end": START + timedelta(days=6), "outages": (outage,)}
    assert simulate(**run) == simulate(**run, fast=False)  # type: ignore[arg-type]
