"""Writes the TestControllerV2SyncCronJob rows of tests/conformance/vectors/cronjob_sync_extra.json:
the table cases of upstream's pkg/controller/cronjob/cronjob_controllerv2_test.go (v1.32.3) that the
shared cronjob_sync.json withholds, in that file's conventions. The file's other cases are kept.

Every row of upstream's table is here, field for field (`sync_case` writes a shared row exactly as
the shared file has it: tests/conformance/test_cronjob_sync_extra.py checks it). The expectations
are the table's own fields; where the test only counts events, their reasons and order come from
cronjob_controllerv2.go, as in the shared file.

    .venv/bin/python -m tests.conformance.gen.cronjob_sync_extra [SHARED_CONFORMANCE_DIR]
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import attrs

from tests.conformance.gen import shared_dir_argument, write_vectors

Json = dict[str, Any]
TEST = "TestControllerV2SyncCronJob"
ORIGIN = "kubernetes pkg/controller/cronjob/cronjob_controllerv2_test.go"
OUT = Path(__file__).parent.parent / "vectors" / "cronjob_sync_extra.json"
SCHEDULED_ANNOTATION = "batch.kubernetes.io/cronjob-scheduled-timestamp"

SHORT_DEAD = 10
MEDIUM_DEAD = 2 * 60 * 60
LONG_DEAD = 1000000
NO_DEAD = -12345
ERROR_SCHEDULE = "obvious error schedule"
ON_THE_HOUR = "0 * * * ?"
EVERY_HOUR = "@every 1h"
ERROR_TIME_ZONE = "bad timezone"
NEW_YORK = "America/New_York"

MS = timedelta(milliseconds=1)
SECOND = timedelta(seconds=1)
MINUTE = timedelta(minutes=1)
HOUR = timedelta(hours=1)
NEXT_SCHEDULE_DELTA = 100 * MS  # cronjob_controllerv2.go nextScheduleDelta


def _t(text: str) -> datetime:
    return datetime.fromisoformat(text)


ZERO_TIME = datetime(1, 1, 1, tzinfo=UTC)  # Go's time.Time{}
JUST_AFTER_THE_PRIOR_HOUR = _t("2016-05-19T09:01:00+00:00")
JUST_BEFORE_THE_PRIOR_HOUR = _t("2016-05-19T08:59:00+00:00")
JUST_AFTER_THE_HOUR = _t("2016-05-19T10:01:00+00:00")  # also justAfterTheHourInZone: the "Z" wins
JUST_BEFORE_THE_HOUR = _t("2016-05-19T09:59:00+00:00")
JUST_BEFORE_THE_NEXT_HOUR = _t("2016-05-19T10:59:00+00:00")
WEEK_AFTER_THE_HOUR = _t("2016-05-26T10:00:00+00:00")
TOP_OF_THE_HOUR = _t("2016-05-19T10:00:00+00:00")


@attrs.frozen
class Tc:
    """One row of TestControllerV2SyncCronJob's table, its fields named as upstream's."""

    concurrency_policy: str = ""
    suspend: bool = False
    schedule: str = ""
    time_zone: str | None = None
    deadline: int = 0
    successful_jobs_history_limit: int | None = None
    ran_previously: bool = False
    still_active: bool = False
    cronjob_creation_time: datetime = ZERO_TIME
    job_creation_time: datetime = ZERO_TIME
    last_schedule_time: datetime = ZERO_TIME
    now: datetime = ZERO_TIME
    job_create_error: str | None = None
    job_get_err: str | None = None
    expect_create: bool = False
    expect_delete: bool = False
    expect_completed: bool = False
    expect_active: int = 0  # upstream compares it only with status updates syncCronJob never makes
    expected_warnings: int = 0
    expect_err: bool = False
    expect_requeue_after: bool = False
    expected_requeue_duration: timedelta = timedelta(0)
    expect_update_status: bool = False
    job_still_not_found_in_lister: bool = False
    job_present_in_cj_active_status: bool = False


# Every row of the table, in upstream's order; times and durations as upstream writes them.
TABLE: dict[str, Tc] = {
    "never ran, not valid schedule, A": Tc(
        concurrency_policy="Allow", schedule=ERROR_SCHEDULE, deadline=NO_DEAD,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_BEFORE_THE_HOUR, expected_warnings=1,
        job_present_in_cj_active_status=True,
    ),
    "never ran, not valid schedule, F": Tc(
        concurrency_policy="Forbid", schedule=ERROR_SCHEDULE, deadline=NO_DEAD,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_BEFORE_THE_HOUR, expected_warnings=1,
        job_present_in_cj_active_status=True,
    ),
    "never ran, not valid schedule, R": Tc(
        concurrency_policy="Forbid", schedule=ERROR_SCHEDULE, deadline=NO_DEAD,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_BEFORE_THE_HOUR, expected_warnings=1,
        job_present_in_cj_active_status=True,
    ),
    "never ran, not valid time zone": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, time_zone=ERROR_TIME_ZONE,
        deadline=NO_DEAD, job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_BEFORE_THE_HOUR,
        expected_warnings=1, job_present_in_cj_active_status=True,
    ),
    "never ran, not time, A": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, deadline=NO_DEAD,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_BEFORE_THE_HOUR,
        expect_requeue_after=True, expected_requeue_duration=1 * MINUTE + NEXT_SCHEDULE_DELTA,
        job_present_in_cj_active_status=True,
    ),
    "never ran, not time, F": Tc(
        concurrency_policy="Forbid", schedule=ON_THE_HOUR, deadline=NO_DEAD,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_BEFORE_THE_HOUR,
        expect_requeue_after=True, expected_requeue_duration=1 * MINUTE + NEXT_SCHEDULE_DELTA,
        job_present_in_cj_active_status=True,
    ),
    "never ran, not time, R": Tc(
        concurrency_policy="Replace", schedule=ON_THE_HOUR, deadline=NO_DEAD,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_BEFORE_THE_HOUR,
        expect_requeue_after=True, expected_requeue_duration=1 * MINUTE + NEXT_SCHEDULE_DELTA,
        job_present_in_cj_active_status=True,
    ),
    "never ran, not time in zone": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, time_zone=NEW_YORK, deadline=NO_DEAD,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_BEFORE_THE_HOUR,
        expect_requeue_after=True, expected_requeue_duration=1 * MINUTE + NEXT_SCHEDULE_DELTA,
        job_present_in_cj_active_status=True,
    ),
    "never ran, is time, A": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, deadline=NO_DEAD,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR, expect_create=True,
        expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True,
    ),
    "never ran, is time, F": Tc(
        concurrency_policy="Forbid", schedule=ON_THE_HOUR, deadline=NO_DEAD,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR, expect_create=True,
        expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True,
    ),
    "never ran, is time, R": Tc(
        concurrency_policy="Replace", schedule=ON_THE_HOUR, deadline=NO_DEAD,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR, expect_create=True,
        expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True,
    ),
    "never ran, is time in zone, but time zone disabled": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, time_zone=NEW_YORK, deadline=NO_DEAD,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR, expect_create=True,
        expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True,
    ),
    "never ran, is time in zone": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, time_zone=NEW_YORK, deadline=NO_DEAD,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR, expect_create=True,
        expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True,
    ),
    "never ran, is time in zone, but TZ is also set in schedule": Tc(
        concurrency_policy="Allow", schedule="TZ=UTC " + ON_THE_HOUR, time_zone=NEW_YORK,
        deadline=NO_DEAD, job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR,
        expect_create=True, expected_warnings=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True,
    ),
    "never ran, is time, suspended": Tc(
        concurrency_policy="Allow", suspend=True, schedule=ON_THE_HOUR, deadline=NO_DEAD,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR,
        job_present_in_cj_active_status=True,
    ),
    "never ran, is time, past deadline": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, deadline=SHORT_DEAD,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR,
        now=JUST_AFTER_THE_HOUR + (MINUTE * (SHORT_DEAD + 1)), expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE - MINUTE * (SHORT_DEAD + 1) + NEXT_SCHEDULE_DELTA,
        job_present_in_cj_active_status=True,
    ),
    "never ran, is time, not past deadline": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, deadline=LONG_DEAD,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR, expect_create=True,
        expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True,
    ),
    "prev ran but done, not time, A": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, deadline=NO_DEAD, ran_previously=True,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_BEFORE_THE_HOUR,
        expect_requeue_after=True, expected_requeue_duration=1 * MINUTE + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "prev ran but done, not time, F": Tc(
        concurrency_policy="Forbid", schedule=ON_THE_HOUR, deadline=NO_DEAD, ran_previously=True,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_BEFORE_THE_HOUR,
        expect_requeue_after=True, expected_requeue_duration=1 * MINUTE + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "prev ran but done, not time, R": Tc(
        concurrency_policy="Replace", schedule=ON_THE_HOUR, deadline=NO_DEAD, ran_previously=True,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_BEFORE_THE_HOUR,
        expect_requeue_after=True, expected_requeue_duration=1 * MINUTE + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "prev ran but done, is time, A": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, deadline=NO_DEAD, ran_previously=True,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR, expect_create=True,
        expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "prev ran but done, is time, create job failed, A": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, deadline=NO_DEAD, ran_previously=True,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR,
        job_create_error="AlreadyExists", expect_err=False, expect_update_status=True,
        job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "prev ran but done, is time, job not present in CJ active status, create job failed, A": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, deadline=NO_DEAD, ran_previously=True,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR,
        job_create_error="AlreadyExists", expect_err=False, expect_update_status=True,
        job_present_in_cj_active_status=False,
    ),
    "prev ran but done, is time, F": Tc(
        concurrency_policy="Forbid", schedule=ON_THE_HOUR, deadline=NO_DEAD, ran_previously=True,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR, expect_create=True,
        expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "prev ran but done, is time, R": Tc(
        concurrency_policy="Replace", schedule=ON_THE_HOUR, deadline=NO_DEAD, ran_previously=True,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR, expect_create=True,
        expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "prev ran but done, is time, suspended": Tc(
        concurrency_policy="Allow", suspend=True, schedule=ON_THE_HOUR, deadline=NO_DEAD,
        ran_previously=True, job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR,
        expect_update_status=True, job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "prev ran but done, is time, past deadline": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, deadline=SHORT_DEAD, ran_previously=True,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR,
        expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "prev ran but done, is time, not past deadline": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, deadline=LONG_DEAD, ran_previously=True,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR, expect_create=True,
        expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "still active, not time, A": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, deadline=NO_DEAD, ran_previously=True,
        still_active=True, job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_BEFORE_THE_HOUR,
        expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * MINUTE + NEXT_SCHEDULE_DELTA,
        job_present_in_cj_active_status=True,
    ),
    "still active, not time, F": Tc(
        concurrency_policy="Forbid", schedule=ON_THE_HOUR, deadline=NO_DEAD, ran_previously=True,
        still_active=True, job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_BEFORE_THE_HOUR,
        expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * MINUTE + NEXT_SCHEDULE_DELTA,
        job_present_in_cj_active_status=True,
    ),
    "still active, not time, R": Tc(
        concurrency_policy="Replace", schedule=ON_THE_HOUR, deadline=NO_DEAD, ran_previously=True,
        still_active=True, job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_BEFORE_THE_HOUR,
        expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * MINUTE + NEXT_SCHEDULE_DELTA,
        job_present_in_cj_active_status=True,
    ),
    "still active, is time, A": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, deadline=NO_DEAD, ran_previously=True,
        still_active=True, job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR,
        expect_create=True, expect_active=2, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True,
    ),
    "still active, is time, F": Tc(
        concurrency_policy="Forbid", schedule=ON_THE_HOUR, deadline=NO_DEAD, ran_previously=True,
        still_active=True, job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR,
        expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE + NEXT_SCHEDULE_DELTA,
        job_present_in_cj_active_status=True,
    ),
    "still active, is time, R": Tc(
        concurrency_policy="Replace", schedule=ON_THE_HOUR, deadline=NO_DEAD, ran_previously=True,
        still_active=True, job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR,
        expect_create=True, expect_delete=True, expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True,
    ),
    "still active, is time, get job failed, R": Tc(
        concurrency_policy="Replace", schedule=ON_THE_HOUR, deadline=NO_DEAD, ran_previously=True,
        still_active=True, job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR,
        job_get_err="request is invalid", expect_active=1, expected_warnings=1,
        job_present_in_cj_active_status=True,
    ),
    "still active, is time, suspended": Tc(
        concurrency_policy="Allow", suspend=True, schedule=ON_THE_HOUR, deadline=NO_DEAD,
        ran_previously=True, still_active=True, job_creation_time=JUST_AFTER_THE_PRIOR_HOUR,
        now=JUST_AFTER_THE_HOUR, expect_active=1, job_present_in_cj_active_status=True,
    ),
    "still active, is time, past deadline": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, deadline=SHORT_DEAD, ran_previously=True,
        still_active=True, job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR,
        expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE + NEXT_SCHEDULE_DELTA,
        job_present_in_cj_active_status=True,
    ),
    "still active, is time, not past deadline": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, deadline=LONG_DEAD, ran_previously=True,
        still_active=True, job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR,
        expect_create=True, expect_active=2, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True,
    ),
    "prev ran but done, long overdue, not past deadline, A": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, deadline=LONG_DEAD, ran_previously=True,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=WEEK_AFTER_THE_HOUR, expect_create=True,
        expect_active=1, expected_warnings=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR + NEXT_SCHEDULE_DELTA, expect_update_status=True,
        job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "prev ran but done, long overdue, not past deadline, R": Tc(
        concurrency_policy="Replace", schedule=ON_THE_HOUR, deadline=LONG_DEAD, ran_previously=True,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=WEEK_AFTER_THE_HOUR, expect_create=True,
        expect_active=1, expected_warnings=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR + NEXT_SCHEDULE_DELTA, expect_update_status=True,
        job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "prev ran but done, long overdue, not past deadline, F": Tc(
        concurrency_policy="Forbid", schedule=ON_THE_HOUR, deadline=LONG_DEAD, ran_previously=True,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=WEEK_AFTER_THE_HOUR, expect_create=True,
        expect_active=1, expected_warnings=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR + NEXT_SCHEDULE_DELTA, expect_update_status=True,
        job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "prev ran but done, long overdue, no deadline, A": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, deadline=NO_DEAD, ran_previously=True,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=WEEK_AFTER_THE_HOUR, expect_create=True,
        expect_active=1, expected_warnings=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR + NEXT_SCHEDULE_DELTA, expect_update_status=True,
        job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "prev ran but done, long overdue, no deadline, R": Tc(
        concurrency_policy="Replace", schedule=ON_THE_HOUR, deadline=NO_DEAD, ran_previously=True,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=WEEK_AFTER_THE_HOUR, expect_create=True,
        expect_active=1, expected_warnings=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR + NEXT_SCHEDULE_DELTA, expect_update_status=True,
        job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "prev ran but done, long overdue, no deadline, F": Tc(
        concurrency_policy="Forbid", schedule=ON_THE_HOUR, deadline=NO_DEAD, ran_previously=True,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=WEEK_AFTER_THE_HOUR, expect_create=True,
        expect_active=1, expected_warnings=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR + NEXT_SCHEDULE_DELTA, expect_update_status=True,
        job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "prev ran but done, long overdue, past medium deadline, A": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, deadline=MEDIUM_DEAD, ran_previously=True,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=WEEK_AFTER_THE_HOUR, expect_create=True,
        expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR + NEXT_SCHEDULE_DELTA, expect_update_status=True,
        job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "prev ran but done, long overdue, past short deadline, A": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, deadline=SHORT_DEAD, ran_previously=True,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=WEEK_AFTER_THE_HOUR, expect_create=True,
        expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR + NEXT_SCHEDULE_DELTA, expect_update_status=True,
        job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "prev ran but done, long overdue, past medium deadline, R": Tc(
        concurrency_policy="Replace", schedule=ON_THE_HOUR, deadline=MEDIUM_DEAD,
        ran_previously=True, job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=WEEK_AFTER_THE_HOUR,
        expect_create=True, expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR + NEXT_SCHEDULE_DELTA, expect_update_status=True,
        job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "prev ran but done, long overdue, past short deadline, R": Tc(
        concurrency_policy="Replace", schedule=ON_THE_HOUR, deadline=SHORT_DEAD,
        ran_previously=True, job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=WEEK_AFTER_THE_HOUR,
        expect_create=True, expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR + NEXT_SCHEDULE_DELTA, expect_update_status=True,
        job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "prev ran but done, long overdue, past medium deadline, F": Tc(
        concurrency_policy="Forbid", schedule=ON_THE_HOUR, deadline=MEDIUM_DEAD,
        ran_previously=True, job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=WEEK_AFTER_THE_HOUR,
        expect_create=True, expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR + NEXT_SCHEDULE_DELTA, expect_update_status=True,
        job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "prev ran but done, long overdue, past short deadline, F": Tc(
        concurrency_policy="Forbid", schedule=ON_THE_HOUR, deadline=SHORT_DEAD, ran_previously=True,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=WEEK_AFTER_THE_HOUR, expect_create=True,
        expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR + NEXT_SCHEDULE_DELTA, expect_update_status=True,
        job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "this ran but done, time drifted back, F": Tc(
        concurrency_policy="Forbid", schedule=ON_THE_HOUR, deadline=NO_DEAD, ran_previously=True,
        job_creation_time=JUST_AFTER_THE_HOUR, now=JUST_BEFORE_THE_HOUR,
        job_create_error="AlreadyExists", expect_requeue_after=True,
        expected_requeue_duration=1 * MINUTE + NEXT_SCHEDULE_DELTA, expect_update_status=True,
    ),
    "this started but went missing, not past deadline, A": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, deadline=LONG_DEAD, ran_previously=True,
        still_active=True, job_creation_time=TOP_OF_THE_HOUR + (MS * 100),
        now=JUST_AFTER_THE_HOUR + (MS * 100), expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE - MS * 100 + NEXT_SCHEDULE_DELTA,
        job_still_not_found_in_lister=True, job_present_in_cj_active_status=True,
    ),
    "this started but went missing, not past deadline, f": Tc(
        concurrency_policy="Forbid", schedule=ON_THE_HOUR, deadline=LONG_DEAD, ran_previously=True,
        still_active=True, job_creation_time=TOP_OF_THE_HOUR + (MS * 100),
        now=JUST_AFTER_THE_HOUR + (MS * 100), expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE - MS * 100 + NEXT_SCHEDULE_DELTA,
        job_still_not_found_in_lister=True, job_present_in_cj_active_status=True,
    ),
    "this started but went missing, not past deadline, R": Tc(
        concurrency_policy="Replace", schedule=ON_THE_HOUR, deadline=LONG_DEAD, ran_previously=True,
        still_active=True, job_creation_time=TOP_OF_THE_HOUR + (MS * 100),
        now=JUST_AFTER_THE_HOUR + (MS * 100), expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE - MS * 100 + NEXT_SCHEDULE_DELTA,
        job_still_not_found_in_lister=True, job_present_in_cj_active_status=True,
    ),
    "this started but is not present in cronjob active list, not past deadline, A": Tc(
        concurrency_policy="Allow", schedule=ON_THE_HOUR, deadline=LONG_DEAD, ran_previously=True,
        still_active=True, job_creation_time=TOP_OF_THE_HOUR + (MS * 100),
        now=JUST_AFTER_THE_HOUR + (MS * 100), expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE - MS * 100 + NEXT_SCHEDULE_DELTA,
    ),
    "this started but is not present in cronjob active list, not past deadline, f": Tc(
        concurrency_policy="Forbid", schedule=ON_THE_HOUR, deadline=LONG_DEAD, ran_previously=True,
        still_active=True, job_creation_time=TOP_OF_THE_HOUR + (MS * 100),
        now=JUST_AFTER_THE_HOUR + (MS * 100), expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE - MS * 100 + NEXT_SCHEDULE_DELTA,
    ),
    "this started but is not present in cronjob active list, not past deadline, R": Tc(
        concurrency_policy="Replace", schedule=ON_THE_HOUR, deadline=LONG_DEAD, ran_previously=True,
        still_active=True, job_creation_time=TOP_OF_THE_HOUR + (MS * 100),
        now=JUST_AFTER_THE_HOUR + (MS * 100), expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE - MS * 100 + NEXT_SCHEDULE_DELTA,
    ),
    "with @every schedule, never ran, not time": Tc(
        concurrency_policy="Allow", schedule=EVERY_HOUR, deadline=NO_DEAD,
        cronjob_creation_time=JUST_BEFORE_THE_HOUR, job_creation_time=JUST_BEFORE_THE_HOUR,
        now=TOP_OF_THE_HOUR, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE + NEXT_SCHEDULE_DELTA,
        job_present_in_cj_active_status=True,
    ),
    "with @every schedule, never ran, is time": Tc(
        concurrency_policy="Allow", schedule=EVERY_HOUR, deadline=NO_DEAD,
        cronjob_creation_time=JUST_BEFORE_THE_PRIOR_HOUR,
        job_creation_time=JUST_BEFORE_THE_PRIOR_HOUR, now=JUST_BEFORE_THE_HOUR,
        expect_requeue_after=True, expected_requeue_duration=1 * HOUR + NEXT_SCHEDULE_DELTA,
        job_present_in_cj_active_status=True, expect_create=True, expect_active=1,
        expect_update_status=True,
    ),
    "with @every schedule, never ran, is time, past deadline": Tc(
        concurrency_policy="Allow", schedule=EVERY_HOUR, deadline=SHORT_DEAD,
        cronjob_creation_time=JUST_BEFORE_THE_PRIOR_HOUR,
        job_creation_time=JUST_BEFORE_THE_PRIOR_HOUR,
        now=JUST_BEFORE_THE_HOUR + (SECOND * (SHORT_DEAD + 1)), expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - SECOND * (SHORT_DEAD + 1) + NEXT_SCHEDULE_DELTA,
        job_present_in_cj_active_status=True,
    ),
    "with @every schedule, never ran, is time, not past deadline": Tc(
        concurrency_policy="Allow", schedule=EVERY_HOUR, deadline=LONG_DEAD,
        cronjob_creation_time=JUST_BEFORE_THE_PRIOR_HOUR,
        job_creation_time=JUST_BEFORE_THE_PRIOR_HOUR,
        now=JUST_BEFORE_THE_HOUR + (SECOND * (SHORT_DEAD - 1)), expect_create=True, expect_active=1,
        expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - SECOND * (SHORT_DEAD - 1) + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True,
    ),
    "with @every schedule, prev ran but done, not time": Tc(
        concurrency_policy="Allow", schedule=EVERY_HOUR, deadline=NO_DEAD, ran_previously=True,
        cronjob_creation_time=JUST_BEFORE_THE_PRIOR_HOUR,
        job_creation_time=JUST_BEFORE_THE_PRIOR_HOUR, last_schedule_time=JUST_BEFORE_THE_HOUR,
        now=TOP_OF_THE_HOUR, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "with @every schedule, prev ran but done, is time": Tc(
        concurrency_policy="Allow", schedule=EVERY_HOUR, deadline=NO_DEAD, ran_previously=True,
        cronjob_creation_time=JUST_BEFORE_THE_PRIOR_HOUR,
        job_creation_time=JUST_BEFORE_THE_PRIOR_HOUR, last_schedule_time=JUST_BEFORE_THE_HOUR,
        now=TOP_OF_THE_HOUR + (1 * HOUR), expect_create=True, expect_active=1,
        expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "with @every schedule, prev ran but done, is time, past deadline": Tc(
        concurrency_policy="Allow", schedule=EVERY_HOUR, deadline=SHORT_DEAD, ran_previously=True,
        cronjob_creation_time=JUST_BEFORE_THE_PRIOR_HOUR,
        job_creation_time=JUST_BEFORE_THE_PRIOR_HOUR, last_schedule_time=JUST_BEFORE_THE_HOUR,
        now=JUST_BEFORE_THE_NEXT_HOUR + (SECOND * (SHORT_DEAD + 1)), expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - SECOND * (SHORT_DEAD + 1) + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "with @every schedule, still active, not time": Tc(
        concurrency_policy="Allow", schedule=EVERY_HOUR, deadline=NO_DEAD, ran_previously=True,
        still_active=True, cronjob_creation_time=JUST_BEFORE_THE_PRIOR_HOUR,
        job_creation_time=JUST_BEFORE_THE_HOUR, last_schedule_time=JUST_BEFORE_THE_HOUR,
        now=TOP_OF_THE_HOUR, expect_active=1, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 1 * MINUTE + NEXT_SCHEDULE_DELTA,
        job_present_in_cj_active_status=True,
    ),
    "with @every schedule, still active, is time": Tc(
        concurrency_policy="Allow", schedule=EVERY_HOUR, deadline=NO_DEAD, ran_previously=True,
        still_active=True, cronjob_creation_time=JUST_BEFORE_THE_PRIOR_HOUR,
        job_creation_time=JUST_BEFORE_THE_PRIOR_HOUR, last_schedule_time=JUST_BEFORE_THE_PRIOR_HOUR,
        now=JUST_AFTER_THE_HOUR, expect_create=True, expect_active=2, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - 2 * MINUTE + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True,
    ),
    "with @every schedule, still active, is time, past deadline": Tc(
        concurrency_policy="Allow", schedule=EVERY_HOUR, deadline=SHORT_DEAD, ran_previously=True,
        still_active=True, cronjob_creation_time=JUST_BEFORE_THE_PRIOR_HOUR,
        job_creation_time=JUST_BEFORE_THE_HOUR, last_schedule_time=JUST_BEFORE_THE_HOUR,
        now=JUST_BEFORE_THE_NEXT_HOUR + (SECOND * (SHORT_DEAD + 1)), expect_active=1,
        expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - SECOND * (SHORT_DEAD + 1) + NEXT_SCHEDULE_DELTA,
        job_present_in_cj_active_status=True,
    ),
    "with @every schedule, still active, is time, not past deadline": Tc(
        concurrency_policy="Allow", schedule=EVERY_HOUR, deadline=LONG_DEAD, ran_previously=True,
        still_active=True, cronjob_creation_time=JUST_BEFORE_THE_PRIOR_HOUR,
        job_creation_time=JUST_BEFORE_THE_HOUR, last_schedule_time=JUST_BEFORE_THE_HOUR,
        now=JUST_BEFORE_THE_NEXT_HOUR + (SECOND * (SHORT_DEAD - 1)), expect_create=True,
        expect_active=2, expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - SECOND * (SHORT_DEAD - 1) + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True,
    ),
    "with @every schedule, prev ran but done, long overdue, no deadline": Tc(
        concurrency_policy="Allow", schedule=EVERY_HOUR, deadline=NO_DEAD, ran_previously=True,
        cronjob_creation_time=JUST_AFTER_THE_PRIOR_HOUR, last_schedule_time=JUST_AFTER_THE_HOUR,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=WEEK_AFTER_THE_HOUR, expect_create=True,
        expect_active=1, expected_warnings=1, expect_requeue_after=True,
        expected_requeue_duration=1 * MINUTE + NEXT_SCHEDULE_DELTA, expect_update_status=True,
        job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "with @every schedule, prev ran but done, long overdue, past deadline": Tc(
        concurrency_policy="Allow", schedule=EVERY_HOUR, deadline=SHORT_DEAD, ran_previously=True,
        cronjob_creation_time=JUST_AFTER_THE_PRIOR_HOUR, last_schedule_time=JUST_AFTER_THE_HOUR,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR,
        now=WEEK_AFTER_THE_HOUR + (1 * MINUTE) + (SECOND * (SHORT_DEAD + 1)), expect_active=1,
        expect_requeue_after=True,
        expected_requeue_duration=1 * HOUR - SECOND * (SHORT_DEAD + 1) + NEXT_SCHEDULE_DELTA,
        expect_update_status=True, job_present_in_cj_active_status=True, expect_completed=True,
    ),
    "do nothing if the namespace is terminating": Tc(
        job_create_error="NamespaceTerminating", concurrency_policy="Allow", schedule=ON_THE_HOUR,
        deadline=NO_DEAD, ran_previously=True, still_active=True,
        job_creation_time=JUST_AFTER_THE_PRIOR_HOUR, now=JUST_AFTER_THE_HOUR, expect_active=0,
        expect_requeue_after=False, expect_update_status=False, expect_err=True,
        job_present_in_cj_active_status=False,
    ),
    "set lastsuccessfultime if successfulJobHistoryLimit is zero": Tc(
        successful_jobs_history_limit=0, ran_previously=True, schedule=ON_THE_HOUR,
        expect_update_status=True, expect_completed=True, job_present_in_cj_active_status=True,
    ),
    "set lastsuccessfultime if successfulJobHistoryLimit is ten": Tc(
        successful_jobs_history_limit=10, ran_previously=True, schedule=ON_THE_HOUR,
        expect_update_status=True, expect_completed=True, job_present_in_cj_active_status=True,
    ),
    "set lastsuccessfultime if successfulJobHistoryLimit is nil": Tc(
        ran_previously=True, schedule=ON_THE_HOUR, expect_update_status=True, expect_completed=True,
        job_present_in_cj_active_status=True,
    ),
}


def _go_time(t: datetime) -> str:
    """A metav1.Time as JSON: RFC 3339 in UTC, whole seconds."""
    return t.astimezone(UTC).replace(microsecond=0, tzinfo=None).isoformat() + "Z"


def _now(t: datetime) -> str:
    """The step's clock: RFC 3339 in UTC with the fraction the test gives."""
    text = _go_time(t)
    if t.microsecond:
        text = text[:-1] + f".{t.microsecond:06d}".rstrip("0") + "Z"
    return text


def _rfc3339_in(t: datetime, zone: str | None) -> str:
    """time.Format(time.RFC3339) of t in the CronJob's time zone (UTC when it has none)."""
    local = t.astimezone(ZoneInfo(zone) if zone else UTC).replace(microsecond=0)
    return _go_time(local) if local.utcoffset() == timedelta(0) else local.isoformat()


def _minutes(t: datetime) -> int:
    """getTimeHashInMinutes: Unix seconds / 60, truncated toward zero as Go divides."""
    seconds = (t - datetime(1970, 1, 1, tzinfo=UTC)) // SECOND
    return seconds // 60 if seconds >= 0 else -(-seconds // 60)


def _owner() -> Json:
    return {
        "apiVersion": "batch/v1", "kind": "CronJob", "name": "mycronjob", "uid": "1a2b3c",
        "controller": True, "blockOwnerDeletion": True,
    }


def _job_spec() -> Json:
    return {
        "parallelism": 1,
        "completions": 1,
        "template": {
            "metadata": {"labels": {"foo": "bar"}},
            "spec": {"containers": [{"image": "foo/bar"}]},
        },
    }


def _job(tc: Tc) -> Json:
    """getJobFromTemplate2(&cj, tc.jobCreationTime) with UID 1234, finished unless still active."""
    name = f"mycronjob-{_minutes(tc.job_creation_time)}"
    metadata: Json = {"name": name, "namespace": "snazzycats", "uid": "1234"}
    if tc.job_creation_time != ZERO_TIME:
        metadata["creationTimestamp"] = _go_time(tc.job_creation_time)
    metadata["labels"] = {"a": "b"}
    scheduled = _rfc3339_in(tc.job_creation_time, tc.time_zone)
    metadata["annotations"] = {"x": "y", SCHEDULED_ANNOTATION: scheduled}
    metadata["ownerReferences"] = [_owner()]
    status: Json = {}
    if not tc.still_active:
        status = {
            "conditions": [{"type": "Complete", "status": "True"}],
            "completionTime": _go_time(tc.job_creation_time + 10 * SECOND),
        }
    return {
        "apiVersion": "batch/v1", "kind": "Job", "metadata": metadata, "spec": _job_spec(),
        "status": status,
    }


def _ref(job: Json) -> Json:
    return {
        "kind": "Job", "namespace": "snazzycats", "name": job["metadata"]["name"], "uid": "1234",
        "apiVersion": "batch/v1",
    }


def _cron_job(tc: Tc, created: datetime, status: Json) -> Json:
    spec: Json = {"schedule": tc.schedule}
    if tc.time_zone is not None:
        spec["timeZone"] = tc.time_zone
    if tc.deadline != NO_DEAD:
        spec["startingDeadlineSeconds"] = tc.deadline
    if tc.concurrency_policy:
        spec["concurrencyPolicy"] = tc.concurrency_policy
    spec["suspend"] = tc.suspend
    template_metadata = {"labels": {"a": "b"}, "annotations": {"x": "y"}}
    spec["jobTemplate"] = {"metadata": template_metadata, "spec": _job_spec()}
    if tc.successful_jobs_history_limit is not None:
        spec["successfulJobsHistoryLimit"] = tc.successful_jobs_history_limit
    return {
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": {
            "name": "mycronjob", "namespace": "snazzycats", "uid": "1a2b3c",
            "creationTimestamp": _go_time(created),
        },
        "spec": spec,
        "status": status,
    }


def _created_at(tc: Tc) -> datetime:
    default = JUST_BEFORE_THE_PRIOR_HOUR if tc.ran_previously else JUST_BEFORE_THE_HOUR
    return default if tc.cronjob_creation_time == ZERO_TIME else tc.cronjob_creation_time


def _last_schedule_time(tc: Tc) -> datetime:
    return JUST_AFTER_THE_PRIOR_HOUR if tc.last_schedule_time == ZERO_TIME else tc.last_schedule_time


def _scheduled_time(tc: Tc) -> datetime:
    """The start time a creating row's sync schedules (mostRecentScheduleTime of the schedule)."""
    if tc.schedule != EVERY_HOUR:  # on the hour, in UTC or New York alike
        return tc.now.replace(minute=0, second=0, microsecond=0)
    earliest = _created_at(tc)
    if tc.ran_previously:
        earliest = _last_schedule_time(tc)
    if tc.deadline != NO_DEAD:
        earliest = max(earliest, tc.now - tc.deadline * SECOND)
    return earliest + (tc.now - earliest) // HOUR * HOUR


def _warning(tc: Tc) -> str:
    """The reason of the one Warning the row counts (cronjob_controllerv2.go, utils.go)."""
    if tc.schedule == ERROR_SCHEDULE:
        return "UnparseableSchedule"
    if tc.time_zone == ERROR_TIME_ZONE:
        return "UnknownTimeZone"
    if "TZ" in tc.schedule:
        return "UnsupportedSchedule"
    if tc.job_get_err is not None:
        return "FailedGet"
    return "TooManyMissedTimes"


def _cleanup_deletes(tc: Tc) -> bool:
    """The whole sync's cleanupFinishedJobs deletes the row's finished Job (limit below one)."""
    limit = tc.successful_jobs_history_limit
    return limit is not None and limit < 1 and tc.ran_previously and not tc.still_active


def _events(name: str, tc: Tc) -> list[str]:
    """Event reasons in the order syncCronJob records them (the test counts them)."""
    events = []
    if _cleanup_deletes(tc):
        events.append("SuccessfulDelete")  # removeOldestJobs; the Job leaves the active list first
    elif tc.expect_completed:
        events.append("SawCompletedJob")
    events += [_warning(tc)] * tc.expected_warnings
    if tc.expect_delete:
        events.append("SuccessfulDelete")
    if name == "still active, is time, F":  # the test's own exception: JobAlreadyActive
        events.append("JobAlreadyActive")
    if tc.expect_create:
        events.append("SuccessfulCreate")
    return events


def _expect(name: str, tc: Tc) -> Json:
    expect: Json = {}
    if tc.expect_err:
        expect["error"] = True
    expect["creations"] = 1 if tc.expect_create else 0
    if tc.expect_create:
        scheduled = _scheduled_time(tc)
        metadata = {"name": f"mycronjob-{_minutes(scheduled)}", "ownerReferences": [_owner()]}
        expect["jobsCreated"] = [{"metadata": metadata, "scheduledTime": _go_time(scheduled)}]
    if not _cleanup_deletes(tc):  # the test counts syncCronJob's deletions only
        expect["deletions"] = 1 if tc.expect_delete else 0
    if tc.ran_previously and not tc.still_active:
        expect["status"] = {"lastSuccessfulTime": _go_time(tc.job_creation_time + 10 * SECOND)}
    expect["statusUpdated"] = tc.expect_update_status
    if tc.expect_requeue_after:
        expect["requeueAfterSeconds"] = round(tc.expected_requeue_duration.total_seconds(), 6)
    expect["warnings"] = [_warning(tc)] * tc.expected_warnings
    expect["events"] = _events(name, tc)
    return expect


def sync_case(name: str, tc: Tc) -> Json:
    """The row as one cronjob-sync case, set up as the test's body sets it up."""
    case: Json = {"name": f"{TEST}: {name}", "origin": f"{ORIGIN} {TEST}: {name}"}
    case["now"] = _now(tc.now)
    status: Json = {}
    jobs: list[Json] = []
    controller: Json = {}
    if tc.ran_previously:
        job = _job(tc)
        if tc.job_present_in_cj_active_status:
            status["active"] = [_ref(job)]
        status["lastScheduleTime"] = _go_time(_last_schedule_time(tc))
        if tc.job_still_not_found_in_lister:
            if tc.job_present_in_cj_active_status:
                controller["apiJobs"] = [job]  # GetJob of the active Job the lister misses
        else:
            jobs.append(job)
            if tc.still_active and not tc.job_present_in_cj_active_status:
                # GetCronJob of an unfinished Job missing from the active list: realCJ, the copy
                # taken before the test set the creation and schedule times
                controller["apiCronJob"] = _cron_job(tc, JUST_BEFORE_THE_HOUR, {"active": [_ref(job)]})
    case["cronJob"] = _cron_job(tc, _created_at(tc), status)
    case["jobs"] = jobs
    if tc.job_create_error is not None:
        controller["jobCreateError"] = tc.job_create_error
    if tc.job_get_err is not None:
        controller["jobGetError"] = tc.job_get_err
    if controller:
        case["controller"] = controller
    case["expect"] = _expect(name, tc)
    return case


def shared_rows(shared_file: Path) -> set[str]:
    """The table rows the shared file holds, by name."""
    cases = json.loads(shared_file.read_text())["cases"]
    return {c["name"].removeprefix(f"{TEST}: ") for c in cases if c["name"].startswith(f"{TEST}: ")}


def document(shared_dir: Path) -> Json:
    """The extra file with its table rows rewritten: the rows the shared file withholds."""
    doc: Json = json.loads(OUT.read_text())
    held = shared_rows(shared_dir / "cronjob_sync.json")
    others = [c for c in doc["cases"] if not c["name"].startswith(f"{TEST}: ")]
    doc["cases"] = others + [sync_case(name, tc) for name, tc in TABLE.items() if name not in held]
    return doc


def main() -> None:
    write_vectors(OUT, document(shared_dir_argument()))


if __name__ == "__main__":
    main()
