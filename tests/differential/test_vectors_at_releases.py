"""Upstream's own test cases, unchanged, at every release: each job-sync, cronjob-sync, schedule,
validation and defaulting vector (the bundled ones and the project's translations, whatever
release they were written for) put at the release under test, the gates it cannot set dropped,
gives the model's whole outcome where it gives upstream's code of that release its outcome
(judged as the differential tests judge generated cases; validation messages whole). The
vectors' expectations are not read: what a later release changes in them is what is compared,
on the inputs upstream thought worth testing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest

from jobmodel.conformance import cronjob_sync, job_sync, schedule
from jobmodel.conformance.agreement import judge
from tests.conformance import Cases, vector_inputs
from tests.differential.conftest import ReleaseUpstream
from tests.differential.test_api import check_defaulting, check_validation
from tests.differential.test_vector_mutations import API_FILES

pytestmark = pytest.mark.upstream


JOB_SYNC = vector_inputs("job_sync_core.json", "job_sync_policies.json", "job_sync_extra.json", "job_sync_newer_extra.json", "job_sync_releases.json")
CRONJOB_SYNC = vector_inputs("cronjob_sync.json", "cronjob_sync_extra.json")
SCHEDULE = vector_inputs("schedule.json", "schedule_extra.json")
VALIDATION = vector_inputs(*API_FILES)
DEFAULTING = vector_inputs("defaulting.json", "defaulting_extra.json", "defaulting_newer_extra.json")


def test_every_suite_s_vectors_are_found() -> None:
    counts = {"job-sync": len(JOB_SYNC), "cronjob-sync": len(CRONJOB_SYNC), "schedule": len(SCHEDULE)}
    counts |= {"validation": len(VALIDATION), "defaulting": len(DEFAULTING)}
    assert min(counts.values()) >= 10, counts
    assert counts["job-sync"] >= 250 and counts["validation"] >= 700, counts


def disagreements(
    upstream: ReleaseUpstream, suite: str, cases: Cases, model_outcome: Callable[[dict[str, Any]], dict[str, Any]], *, emulation: bool = False
) -> list[str]:
    """The cases whose outcome at the release the model and upstream do not agree on, each named
    with its first differences (a gate locked since the release is turned off as upstream's sync
    tests turn it off, with `emulation`: the job-sync suite)."""
    found = []
    for case in cases:
        at = upstream.case(case, emulation=emulation)
        verdict = judge(suite, at, model_outcome(at), functools.partial(upstream.outcome, suite))
        if not verdict.agrees:
            found.append(f"{case['name']}: {list(verdict.differences)[:3]}")
    return found


def test_job_sync_vectors_agree_at_the_release(upstream: ReleaseUpstream) -> None:
    assert disagreements(upstream, "job-sync", JOB_SYNC, job_sync.model_outcome, emulation=True) == []


def test_cronjob_sync_and_schedule_vectors_agree_at_the_release(upstream: ReleaseUpstream) -> None:
    assert disagreements(upstream, "cronjob-sync", CRONJOB_SYNC, cronjob_sync.model_outcome) == []
    assert disagreements(upstream, "schedule", SCHEDULE, schedule.model_outcome) == []


def test_validation_and_defaulting_vectors_agree_at_the_release(upstream: ReleaseUpstream) -> None:
    for case in VALIDATION:
        check_validation(upstream, case)
    for case in DEFAULTING:
        check_defaulting(upstream, case)
