"""Benchmark: `cron simulate` is linear in its window, and Next jumps in UTC.

    .venv/bin/python benchmarks/bench_cron_simulate.py            # one day and one week
    .venv/bin/python benchmarks/bench_cron_simulate.py --year     # and a whole year

Next (robfig's SpecSchedule.Next) in UTC jumps to each next matching field value; the baseline,
measured in the same run, is the step-by-step walk the model takes in zones whose offset changes
(the same answers: tests/schedule/test_cron.py). The first table prints the time per call of
both and their ratio for schedules from dense to sparse.

A minutely CronJob, defaulted as the API server stores it (history limits 3 and 1), run through
the controller model over windows of growing length. The baseline, measured in the same run, is
the step-by-step path (`simulate(..., fast=False)`, every sync run) over one day: the second
table prints, for each window, the fast path's CPU seconds, syncs and Jobs, and its cost per
simulated minute as a ratio to the baseline's (below 1: cheaper per minute than running every
sync; the fast path copies the periods that provably repeat, docs/cron.md). `--year` adds a
whole year (525,600 minutes, about two million syncs), and checks that the fast path gives the
step-by-step result over the one-day window.
"""

from __future__ import annotations

import argparse
import time
from datetime import UTC, datetime, timedelta

from jobmodel.api.strategy import create_object
from jobmodel.api.wire import cron_job_from_json
from jobmodel.schedule.cron import SpecSchedule, _spec_next, _utc_next, parse_standard
from jobmodel.schedule.gotime import Zone
from jobmodel.simulation.cronjob import Simulation, simulate
from jobmodel.state import CronJob

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


def minutely() -> CronJob:
    """The minutely CronJob as the API server stores it, created at START."""
    _kind, stored, errors = create_object(MANIFEST, "default")
    assert not errors, errors
    stored["metadata"]["creationTimestamp"] = "2025-01-01T00:00:00Z"
    return cron_job_from_json(stored)


def run(window: timedelta, fast: bool) -> tuple[float, Simulation]:
    """(CPU seconds, result) of one run over `window`, Jobs taking 30 seconds."""
    cron_job = minutely()
    began = time.process_time()
    result = simulate(cron_job, START, START + window, 30.0, fast=fast)
    elapsed = time.process_time() - began
    assert result.cut_short is None
    return elapsed, result


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
    day = timedelta(days=1)
    plain_seconds, plain = run(day, fast=False)
    baseline = plain_seconds / (day.total_seconds() / 60)
    print(f"{'window':<8} {'path':<6} {'CPU s':>7} {'syncs':>9} {'Jobs':>8} {'µs/minute':>10}  ratio to plain 1 day")
    print(f"{'1 day':<8} {'plain':<6} {plain_seconds:7.2f} {plain.syncs:9d} {_created(plain):8d} {baseline * 1e6:10.1f}  1.00")
    for label, window in windows.items():
        elapsed, result = run(window, fast=True)
        if window == day:
            assert result == plain, "the fast path must give the step-by-step result"
        per_minute = elapsed / (window.total_seconds() / 60)
        print(
            f"{label:<8} {'fast':<6} {elapsed:7.2f} {result.syncs:9d} {_created(result):8d} "
            f"{per_minute * 1e6:10.1f}  {per_minute / baseline:.3f}"
        )


def _created(result: Simulation) -> int:
    return sum(1 for e in result.log if e.what == "create")

if __name__ == "__main__":
    main()
