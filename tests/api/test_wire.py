"""Kubernetes JSON (Job, Pod, CronJob) to snapshots and back (jobmodel/api/wire.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from jobmodel.api.wire import (
    cron_job_from_json,
    cron_job_to_json,
    job_from_json,
    job_to_json,
    pod_from_json,
    pod_to_json,
    time_to_json,
)
from jobmodel.errors import InputError
from tests.builders import job_json, pod_json


def test_job_round_trips_through_the_snapshot() -> None:
    doc = job_json(
        completionMode="Indexed",
        podFailurePolicy={"rules": [{"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]}]},
        successPolicy={"rules": [{"succeededIndexes": "0-2", "succeededCount": 1}]},
        status={"active": 2, "ready": 0, "startTime": "2024-06-01T12:00:00Z", "uncountedTerminatedPods": {"failed": ["a"]}},
    )
    assert job_to_json(job_from_json(doc)) == doc


def test_pod_round_trips_through_the_snapshot() -> None:
    doc = pod_json("p", "Failed", exit_code=3, ready=True, deleted="2024-06-01T12:00:00Z")
    assert pod_to_json(pod_from_json(doc)) == doc


def test_snapshots_are_hashable_values() -> None:
    a = job_from_json(job_json())
    b = job_from_json(job_json())
    assert a == b and hash(a) == hash(b)
    assert len({pod_from_json(pod_json("p")), pod_from_json(pod_json("p"))}) == 1


@pytest.mark.parametrize(
    ("mutate", "field", "reason"),
    [
        (lambda d: d["spec"].update(completions="five"), "spec.completions", "expected an integer"),
        (lambda d: d["spec"].update(paralelism=2), "spec.paralelism", "unknown field"),
        (lambda d: d["spec"].update(suspend="yes"), "spec.suspend", "expected a boolean"),
        (lambda d: d["metadata"].update(labels={"a": 1}), "metadata.labels[a]", "expected a string"),
        (lambda d: d["status"].update(startTime="yesterday"), "status.startTime", "not an RFC 3339 time"),
        (lambda d: d.update(kind="Pod"), "kind", 'expected "Job"'),
        (
            lambda d: d["spec"].update(podFailurePolicy={"rules": [{"action": "FailJob", "onExitCodes": {"operator": "In", "values": ["1"]}}]}),
            "spec.podFailurePolicy.rules[0].onExitCodes.values[0]",
            "expected an integer",
        ),
    ],
)
def test_malformed_job_names_the_field(mutate: Any, field: str, reason: str) -> None:
    doc = job_json()
    mutate(doc)
    with pytest.raises(InputError) as err:
        job_from_json(doc)
    assert err.value.field == field
    assert reason in err.value.reason


def test_malformed_pod_names_the_field() -> None:
    doc = pod_json("p")
    doc["status"]["containerStatuses"] = [{"name": "c", "state": {"terminated": {"exitCode": "x"}}}]
    with pytest.raises(InputError) as err:
        pod_from_json(doc, "pods[0]")
    assert err.value.field == "pods[0].status.containerStatuses[0].state.terminated.exitCode"


def test_a_job_must_be_an_object() -> None:
    with pytest.raises(InputError, match="expected an object"):
        job_from_json(["not", "a", "job"])

CRON_JOB: dict[str, Any] = {
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


def test_cron_job_reads_every_field() -> None:
    cj = cron_job_from_json(CRON_JOB)
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


def test_cron_job_round_trip() -> None:
    cj = cron_job_from_json(CRON_JOB)
    assert cron_job_from_json(cron_job_to_json(cj)) == cj
    out = cron_job_to_json(cj)
    assert out["spec"]["jobTemplate"]["metadata"] == {"labels": {"a": "b"}, "annotations": {"x": "y"}}
    assert out["status"]["lastScheduleTime"] == "2016-05-19T10:00:00Z"


def test_an_absent_string_is_gos_zero_value() -> None:
    """encoding/json leaves an absent string field "": an active reference without a name, a
    condition without a type and an owner reference without an apiVersion are decoded, not refused."""
    cron_job = cron_job_from_json({**CRON_JOB, "status": {"active": [{"uid": "x"}]}})
    assert cron_job.status.active[0].name == ""
    job = job_from_json({"metadata": {"name": "j", "ownerReferences": [{"kind": "CronJob", "name": "c", "uid": "u"}]}, "status": {"conditions": [{"status": "True"}]}})
    assert job.status.conditions[0].type == "" and job.metadata.owner_references[0].api_version == ""


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"kind": "Job"}, "kind"),
        ({"spec": {"schedule": 5}}, "spec.schedule"),
        ({"spec": {"scheduel": "* * * * *"}}, "spec.scheduel"),
        ({"status": {"active": [{"uid": 5}]}}, "status.active[0].uid"),
        ({"spec": {"startingDeadlineSeconds": "10"}}, "spec.startingDeadlineSeconds"),
    ],
)
def test_malformed_cron_job_names_the_field(patch: dict[str, Any], field: str) -> None:
    with pytest.raises(InputError) as err:
        cron_job_from_json({**CRON_JOB, **patch})
    assert err.value.field == field


def test_a_pod_condition_pattern_without_status_is_read_as_go_decodes_it() -> None:
    """No defaulting on the wire: Go's zero status, which matchOnPodConditions compares as given
    (the API server's defaulting, not the decoder, makes it True)."""
    doc = job_json(podFailurePolicy={"rules": [{"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]}]})
    job = job_from_json(doc)
    assert job.spec.pod_failure_policy is not None
    rule = job.spec.pod_failure_policy.rules[0]
    assert rule.on_pod_conditions is not None and rule.on_pod_conditions[0].status == ""
    assert job_to_json(job)["spec"]["podFailurePolicy"]["rules"][0]["onPodConditions"] == [{"type": "DisruptionTarget", "status": ""}]


def test_the_zero_time_is_written_as_null() -> None:
    """metav1.Time.MarshalJSON writes the zero time (read as a set, non-nil time) as null, so the
    field is absent from the JSON; any other time is written."""
    doc = job_json()
    doc["status"] = {"startTime": "0001-01-01T00:00:00Z", "completionTime": "0001-01-01T00:00:01Z"}
    status = job_to_json(job_from_json(doc))["status"]
    assert "startTime" not in status
    assert status["completionTime"] == "0001-01-01T00:00:01Z"
    assert time_to_json(datetime(1, 1, 1, tzinfo=UTC)) is None
