"""jobmodel.simulation.cronjob: the controller model run through a time window."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from jobmodel.simulation.cronjob import Outage, simulate
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
