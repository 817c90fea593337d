"""Benchmark: `cron simulate` is linear in its window, and Next jumps in UTC.

    .venv/bin/python benchmarks/bench_cron_simulate.py            # one day and one week
    .venv/bin/python benchmarks/bench_cron_simulate.py --year     # and a whole year

Next (robfig's SpecSchedule.Next) in UTC jumps to each next matching field value; the baseline,
measured in the same run, is the step-by-step walk the model takes in zones whose offset changes
(the same answers: tests/schedule/test_cron.py). The first table prints the time per call of
both and their ratio for schedules from dense to sparse.

A minutely CronJob, defaulted as the API server stores it (history limits 3 and 1), run through
the controller model over windows of growing length. The baseline, measured in the same run, is
the one-day window: a linear simulation costs about the same per simulated minute over every
window, so the printed ratios (cost per minute against the one-day run's) stay near 1. A CronJob
that kept every Job (no history limits) made each sync look at every Job ever created: the
ratio then grew with the window.
"""

from __future__ import annotations

import argparse
import time
from datetime import UTC, datetime, timedelta

from jobmodel.api.strategy import create_object
from jobmodel.api.wire import cron_job_from_json
from jobmodel.schedule.cron import SpecSchedule, _spec_next, _utc_next, parse_standard
from jobmodel.schedule.gotime import Zone
from jobmodel.simulation.cronjob import simulate

MANIFEST = {
    "apiVersion": "batch/v1",
    "kind": "CronJob",
    "metadata": {"name": "every-minute"},
    "spec": {
        "schedule": "* * * * *",
        "jobTemplate": {
            "spec": {
                "template": {
                    "spec": {"containers": [{"name": "c", "image": "busybox"}], "restartPolicy": "OnFailure"}
                }
            }
        },
    },
}
START = datetime(2025, 1, 1, tzinfo=UTC)


def seconds_per_minute(window: timedelta) -> tuple[float, float, int]:
    """(seconds per simulated minute, total seconds, Jobs created) of one run over `window`."""
    _kind, stored, errors = create_object(MANIFEST, "default")
    assert not errors, errors
    stored["metadata"]["creationTimestamp"] = "2025-01-01T00:00:00Z"
    cron_job = cron_job_from_json(stored)
    began = time.process_time()
    result = simulate(cron_job, START, START + window, 30.0)
    elapsed = time.process_time() - began
    assert result.cut_short is None
    created = sum(1 for e in result.log if e.what == "create")
    return elapsed / (window.total_seconds() / 60), elapsed, created


NEXT_SCHEDULES = ("* * * * *", "0 * * * *", "30 2 * * *", "0 0 1 * *", "0 0 29 2 *")


def seconds_per_next(schedule_text: str, jump: bool) -> float:
    """CPU seconds per Next from 2025-01-01 on, by the UTC jumps or by the step-by-step walk."""
    schedule = parse_standard(schedule_text)
    assert isinstance(schedule, SpecSchedule)
    start = int(START.timestamp())
    zone = Zone(UTC)
    calls = 0
    began = time.process_time()
    while time.process_time() - began < 0.2:
        _utc_next(schedule, start) if jump else _spec_next(schedule, zone, start)
        calls += 1
    return (time.process_time() - began) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--year", action="store_true", help="also simulate a whole year")
    args = parser.parse_args()
    windows = {"1 day": timedelta(days=1), "1 week": timedelta(days=7)}
    if args.year:
        windows["1 year"] = timedelta(days=365)
    print(f"{'Next of':<12} {'walk µs':>9} {'jump µs':>9}  walk/jump")
    for text in NEXT_SCHEDULES:
        walk, jump = seconds_per_next(text, False), seconds_per_next(text, True)
        print(f"{text:<12} {walk * 1e6:9.1f} {jump * 1e6:9.1f}  {walk / jump:.1f}")
    print()
    baseline = None
    print(f"{'window':<8} {'CPU s':>9} {'Jobs':>8} {'µs/minute':>10}  ratio to 1 day")
    for label, window in windows.items():
        per_minute, elapsed, created = seconds_per_minute(window)
        baseline = baseline or per_minute
        print(f"{label:<8} {elapsed:9.2f} {created:8d} {per_minute * 1e6:10.0f}  {per_minute / baseline:.2f}")


if __name__ == "__main__":
    main()
