"""jobmodel.api.wire_cronjob: CronJob wire format to snapshots and back."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from jobmodel.api.wire_cronjob import cron_job_from_json, cron_job_to_json
from jobmodel.errors import InputError

MANIFEST: dict[str, Any] = {
    "apiVersion": "batch/v1",
    "kind": "CronJob",
    "metadata": {"name": "cj", "namespace": "ns", "uid": "u1", "creationTimestamp": "2016-05-19T09:59:00Z"},
    "spec": {
        "schedule": "*/5 * * * *",
        "timeZone": "Europe/London",
        "startingDeadlineSeconds": 30,
        "concurrencyPolicy": "Forbid",
        "suspend": False,
        "successfulJobsHistoryLimit": 3,
        "failedJobsHistoryLimit": 1,
        "jobTemplate": {
            "metadata": {"labels": {"a": "b"}, "annotations": {"x": "y"}},
            "spec": {"completions": 2, "template": {"spec": {"containers": [{"image": "busybox"}]}}},
        },
    },
    "status": {
        "active": [{"kind": "Job", "namespace": "ns", "name": "cj-1", "uid": "j1", "apiVersion": "batch/v1"}],
        "lastScheduleTime": "2016-05-19T10:00:00Z",
    },
}


def test_reads_every_field() -> None:
    cj = cron_job_from_json(MANIFEST)
    assert cj.spec.schedule == "*/5 * * * *"
    assert cj.spec.time_zone == "Europe/London"
    assert cj.spec.starting_deadline_seconds == 30
    assert cj.spec.concurrency_policy == "Forbid"
    assert cj.spec.successful_jobs_history_limit == 3 and cj.spec.failed_jobs_history_limit == 1
    assert cj.spec.job_template.labels == {"a": "b"}
    assert cj.spec.job_template.spec.completions == 2
    assert cj.status.active[0].uid == "j1"
    assert cj.status.last_schedule_time == datetime(2016, 5, 19, 10, tzinfo=UTC)
    assert cj.status.last_successful_time is None


def test_round_trip() -> None:
    cj = cron_job_from_json(MANIFEST)
    assert cron_job_from_json(cron_job_to_json(cj)) == cj
    out = cron_job_to_json(cj)
    assert out["spec"]["jobTemplate"]["metadata"] == {"labels": {"a": "b"}, "annotations": {"x": "y"}}
    assert out["status"]["lastScheduleTime"] == "2016-05-19T10:00:00Z"


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"kind": "Job"}, "kind"),
        ({"spec": {"schedule": 5}}, "spec.schedule"),
        ({"spec": {"scheduel": "* * * * *"}}, "spec.scheduel"),
        ({"status": {"active": [{"uid": "x"}]}}, "status.active[0].name"),
        ({"spec": {"startingDeadlineSeconds": "10"}}, "spec.startingDeadlineSeconds"),
    ],
)
def test_bad_input_names_the_field(patch: dict[str, Any], field: str) -> None:
    with pytest.raises(InputError) as err:
        cron_job_from_json({**MANIFEST, **patch})
    assert err.value.field == field
