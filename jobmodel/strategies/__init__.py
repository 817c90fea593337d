"""Hypothesis strategies for conformance cases of every suite the oracle protocol carries, in the
vector format (`jobmodel-conformance/1`, FORMAT.md): the generated inputs of jobmodel's
differential tests and of `jobmodel oracle check`, public for implementers' own tests.

    from hypothesis import given
    from jobmodel.strategies import cases

    @given(cases("job-sync"))
    def test_my_controller(case):
        ...  # case["job"], case["pods"], case["now"], ...: a job-sync request's inputs

Each case has `name` and an empty `expect`; everything else is the suite's input. The modules:
`job_sync` (with `case_features`, the features a case reaches), `cron` (`schedule` and
`cronjob-sync`), `api` (`validation` and `defaulting`), and `scenario` (`job-scenario` cases
whose expectations are the model's predictions, for comparing whole runs with a real cluster).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from jobmodel.strategies.api import defaulting_cases, validation_cases
from jobmodel.strategies.cron import cronjob_sync_cases, schedule_cases
from jobmodel.strategies.job_sync import job_sync_cases

__all__ = ["SUITES", "cases", "cronjob_sync_cases", "defaulting_cases", "job_sync_cases", "schedule_cases", "validation_cases"]

SUITES = {
    "job-sync": job_sync_cases,
    "cronjob-sync": cronjob_sync_cases,
    "schedule": schedule_cases,
    "validation": validation_cases,
    "defaulting": defaulting_cases,
}


def cases(suite: str) -> st.SearchStrategy[dict[str, Any]]:
    """Generated cases of a suite (`job-sync`, `cronjob-sync`, `schedule`, `validation`,
    `defaulting`)."""
    try:
        return SUITES[suite]()
    except KeyError:
        raise ValueError(f"no strategy for suite {suite!r} (known: {', '.join(SUITES)})") from None
