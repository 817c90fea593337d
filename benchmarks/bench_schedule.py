"""Benchmark: the most recent schedule time after a long outage.

    .venv/bin/python benchmarks/bench_schedule.py

The controller's mostRecentScheduleTime (jobmodel.schedule.times) estimates the number of
missed starts from the interval between two schedule times and jumps there, so for an evenly
spaced schedule 10 years of downtime costs about as much as one hour. The baseline, measured in
the same run, is what a naive implementation does: iterate `croniter` from the last run to now.
Ratios are printed against the model's one-hour time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import partial

from croniter import croniter

from jobmodel.schedule.cron import parse_standard
from jobmodel.schedule.times import most_recent_schedule_time

SCHEDULE = "0 * * * *"
LAST_RUN = datetime(2016, 5, 19, 10, 0, tzinfo=UTC)
DOWNTIMES = {"1 hour": timedelta(hours=1, minutes=30), "10 years": timedelta(days=3653, minutes=30)}


def best_of(fn: Callable[[], object], min_seconds: float = 0.3, repeats: int = 2) -> float:
    """Seconds per call: the best of several timed batches."""
    calls, elapsed = 1, 0.0
    while True:
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds or calls >= 1 << 20:
            break
        calls *= 2
    best = elapsed / calls
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - start) / calls)
    return best


def model(now: datetime) -> datetime | None:
    return most_recent_schedule_time(parse_standard(SCHEDULE), now, LAST_RUN).most_recent


def croniter_walk(now: datetime) -> datetime | None:
    it = croniter(SCHEDULE, LAST_RUN)
    last = None
    while True:
        t = it.get_next(datetime)
        if t > now:
            return last
        last = t


def main() -> None:
    rows = []
    for label, downtime in DOWNTIMES.items():
        now = LAST_RUN + downtime
        assert model(now) == croniter_walk(now), label  # both find the same time
        rows.append((f"model,    {label}", best_of(partial(model, now))))
        rows.append((f"croniter, {label}", best_of(partial(croniter_walk, now), min_seconds=0.05, repeats=0)))
    base = rows[0][1]
    print(f"schedule {SCHEDULE!r}, last run {LAST_RUN.isoformat()}")
    print(f"{'':22} {'seconds/call':>14} {'ratio to model 1 hour':>22}")
    for label, secs in rows:
        print(f"{label:22} {secs:14.6f} {secs / base:22.1f}")


if __name__ == "__main__":
    main()
