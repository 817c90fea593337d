"""The cronjob-sync suite's reading of a case (jobmodel/conformance/cronjob_sync.py).

The upstream harness decodes a case with encoding/json into cronJobSyncCase
(harness/upstream/cronjob.go): `now`, `cronJobKey` and the controller's messages are strings,
`cronJob` a *batchv1.CronJob, `jobs` a []*batchv1.Job, `controller.apiJobs` a *[]*batchv1.Job,
`features` a map[string]bool; a value of another JSON kind, or an integer its Go field cannot
hold, fails the whole case."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from jobmodel.conformance import cronjob_sync
from tests.builders import ABSENT, assert_refused, changed_case

VECTORS = Path(__file__).resolve().parents[2] / "jobmodel" / "conformance" / "vectors"
CASES: list[dict[str, Any]] = json.loads((VECTORS / "cronjob_sync.json").read_text())["cases"]

# The keys FORMAT.md documents for the suite's `expect`.
OUTCOME_KEYS = {
    "error", "creations", "jobsCreated", "deletions", "jobsDeleted", "status", "statusUpdated",
    "requeueAfterSeconds", "warnings", "events",
}  # fmt: skip


def named(name: str) -> dict[str, Any]:
    for case in CASES:
        if case["name"] == name:
            return copy.deepcopy(case)
    raise AssertionError(f"no cronjob-sync vector {name!r}")


def a_case() -> dict[str, Any]:
    """The smallest bundled case with a CronJob and no controller faults."""
    plain = [c for c in CASES if c.get("cronJob") and not c.get("controller")]
    return copy.deepcopy(min(plain, key=lambda c: len(json.dumps(c))))


def refused(case: dict[str, Any], field: str) -> None:
    assert_refused(cronjob_sync.model_outcome, case, field)


MALFORMED: list[tuple[str, tuple[str, ...], object, str]] = [
    # (id, path, value, the field the error names)
    ("now-number", ("now",), 1463652000, "now"),
    ("now-missing", ("now",), ABSENT, "now"),  # Go: "" is no RFC 3339 time
    ("now-not-a-time", ("now",), "yesterday", "now"),
    ("cronJob-string", ("cronJob",), "mycronjob", "cronJob"),
    ("cronJob-list", ("cronJob",), [], "cronJob"),
    ("jobs-object", ("jobs",), {}, "jobs"),
    ("jobs-string", ("jobs",), "", "jobs"),
    ("jobs-item-number", ("jobs",), [0], "jobs[0]"),
    ("features-list", ("features",), [], "features"),
    ("features-value-string", ("features",), {"JobManagedBy": "false"}, "features.JobManagedBy"),
    ("features-unknown-gate", ("features",), {"NoSuchGate": True}, "features.NoSuchGate"),
    ("controller-string", ("controller",), "x", "controller"),
    ("controller-list", ("controller",), [], "controller"),
    ("controller-unknown-key", ("controller",), {"podControlError": "boom"}, "controller.podControlError"),
    ("jobCreateError-number", ("controller",), {"jobCreateError": 409}, "controller.jobCreateError"),
    ("jobGetError-boolean", ("controller",), {"jobGetError": True}, "controller.jobGetError"),
    ("jobDeleteError-number", ("controller",), {"jobDeleteError": 5}, "controller.jobDeleteError"),
    ("statusUpdateError-number", ("controller",), {"statusUpdateError": 500}, "controller.statusUpdateError"),
    ("cronJobGetError-list", ("controller",), {"cronJobGetError": ["x"]}, "controller.cronJobGetError"),
    ("apiJobs-object", ("controller",), {"apiJobs": {}}, "controller.apiJobs"),
    ("apiJobs-string", ("controller",), {"apiJobs": "x"}, "controller.apiJobs"),
    ("apiCronJob-string", ("controller",), {"apiCronJob": "x"}, "controller.apiCronJob"),
    ("schedule-number", ("cronJob", "spec", "schedule"), 5, "cronJob.spec.schedule"),
    ("suspend-string", ("cronJob", "spec", "suspend"), "true", "cronJob.spec.suspend"),
    ("name-number", ("cronJob", "metadata", "name"), 5, "cronJob.metadata.name"),
    ("creationTimestamp-not-a-time", ("cronJob", "metadata", "creationTimestamp"), "later", "cronJob.metadata.creationTimestamp"),
    ("lastScheduleTime-number", ("cronJob", "status", "lastScheduleTime"), 0, "cronJob.status.lastScheduleTime"),
    ("active-string", ("cronJob", "status", "active"), "x", "cronJob.status.active"),
    # An integer field refuses a number with a fraction part or exponent (strconv.ParseInt).
    ("startingDeadlineSeconds-float", ("cronJob", "spec", "startingDeadlineSeconds"), 10.0, "cronJob.spec.startingDeadlineSeconds"),
    # Out of range: *int64 and *int32 fields.
    ("startingDeadlineSeconds-2^63", ("cronJob", "spec", "startingDeadlineSeconds"), 1 << 63, "cronJob.spec.startingDeadlineSeconds"),
    ("startingDeadlineSeconds--2^63-1", ("cronJob", "spec", "startingDeadlineSeconds"), -(1 << 63) - 1, "cronJob.spec.startingDeadlineSeconds"),
    ("successfulJobsHistoryLimit-2^31", ("cronJob", "spec", "successfulJobsHistoryLimit"), 1 << 31, "cronJob.spec.successfulJobsHistoryLimit"),
    ("parallelism-2^31", ("cronJob", "spec", "jobTemplate", "spec", "parallelism"), 1 << 31, "cronJob.spec.jobTemplate.spec.parallelism"),
    # Unknown fields of the objects: upstream's wire format has no such field. (The harness's plain
    # encoding/json would drop it; the model's decoder refuses it, as the API server's strict one does.)
    ("cronJob-unknown-field", ("cronJob", "spec", "schedules"), "* * * * *", "cronJob.spec.schedules"),
    ("cronJob-unknown-top-field", ("cronJob", "specs"), {}, "cronJob.specs"),
]


@pytest.mark.parametrize(("path", "value", "field"), [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED])
def test_a_malformed_case_is_refused_naming_the_field(path: tuple[str, ...], value: object, field: str) -> None:
    refused(changed_case(a_case(), path, value), field)


def test_a_malformed_job_is_refused_with_its_index() -> None:
    case = named("TestControllerV2SyncCronJob: this started but went missing, not past deadline, A")
    job = case["controller"]["apiJobs"][0]
    bad = changed_case(case, ("controller", "apiJobs"), [{**job, "spec": {**job["spec"], "completions": 1 << 31}}])
    refused(bad, "controller.apiJobs[0].spec.completions")
    refused(changed_case(case, ("jobs",), [job, {**job, "metadata": {**job["metadata"], "uid": 1234}}]), "jobs[1].metadata.uid")


def test_int64_and_int32_limits_themselves_are_taken() -> None:
    case = changed_case(a_case(), ("cronJob", "spec", "startingDeadlineSeconds"), (1 << 63) - 1)
    case = changed_case(case, ("cronJob", "spec", "successfulJobsHistoryLimit"), (1 << 31) - 1)
    assert cronjob_sync.model_outcome(case)["error"] is False


def test_a_minimal_case_runs_to_the_documented_shape() -> None:
    case = a_case()
    outcome = cronjob_sync.model_outcome(case)
    assert set(outcome) >= OUTCOME_KEYS
    for key in ("error", "statusUpdated"):
        assert isinstance(outcome[key], bool), key
    for key in ("creations", "deletions"):
        assert isinstance(outcome[key], int) and not isinstance(outcome[key], bool), key
    assert isinstance(outcome["jobsCreated"], list) and all(isinstance(j, dict) for j in outcome["jobsCreated"])
    for key in ("jobsDeleted", "warnings", "events"):
        assert isinstance(outcome[key], list) and all(isinstance(s, str) for s in outcome[key]), key
    assert isinstance(outcome["status"], dict)
    assert all(isinstance(name, str) for name in outcome["status"]["active"])
    requeue = outcome["requeueAfterSeconds"]
    assert requeue is None or (isinstance(requeue, int | float) and not isinstance(requeue, bool))
    # And it is upstream's answer, as the vector records it.
    assert cronjob_sync.compare(case, outcome) == []


def test_a_case_that_creates_a_job_reports_it_with_its_scheduled_time() -> None:
    case = named("TestControllerV2SyncCronJob: never ran, is time, A")
    outcome = cronjob_sync.model_outcome(case)
    assert outcome["creations"] == len(outcome["jobsCreated"]) == 1
    assert outcome["jobsCreated"][0]["scheduledTime"] == "2016-05-19T10:00:00Z"  # the hour `now` is at
    assert cronjob_sync.compare(case, outcome) == []


def test_a_case_with_controller_faults_runs() -> None:
    case = named("TestControllerV2SyncCronJob: still active, is time, get job failed, R")
    outcome = cronjob_sync.model_outcome(case)
    assert outcome["error"] is True
    assert cronjob_sync.compare(case, outcome) == []


@pytest.mark.parametrize("key", ["jobs", "controller", "features"])
def test_null_is_as_absent(key: str) -> None:
    """encoding/json leaves a nil slice, a zero struct or a nil map for null, as for an absent key."""
    case = named("TestControllerV2SyncCronJob: still active, is time, get job failed, R")
    case.setdefault("jobs", [])
    assert cronjob_sync.model_outcome(changed_case(case, (key,), None)) == cronjob_sync.model_outcome(changed_case(case, (key,), ABSENT))


def test_a_null_cronjob_is_a_cronjob_that_is_gone() -> None:
    outcome = cronjob_sync.model_outcome(changed_case(a_case(), ("cronJob",), None))
    assert outcome["error"] is False
    assert (outcome["creations"], outcome["deletions"], outcome["statusUpdated"]) == (0, 0, False)


def test_a_cronjob_key_that_is_not_a_string_is_refused() -> None:
    refused(changed_case(a_case(), ("cronJobKey",), 5), "cronJobKey")


def test_an_empty_job_create_error_is_no_error() -> None:
    case = named("TestControllerV2SyncCronJob: never ran, is time, A")
    with_empty = cronjob_sync.model_outcome(changed_case(case, ("controller",), {"jobCreateError": ""}))
    assert with_empty == cronjob_sync.model_outcome(case)


def test_an_empty_job_get_error_is_no_error() -> None:
    case = named("TestControllerV2SyncCronJob: still active, is time, get job failed, R")
    without = changed_case(case, ("controller",), ABSENT)
    assert cronjob_sync.model_outcome(changed_case(case, ("controller",), {"jobGetError": ""})) == cronjob_sync.model_outcome(without)


def test_null_api_jobs_are_the_cached_jobs() -> None:
    # At 1.37 the AlreadyExists path reads the existing Job from the API server (in the CronJob's
    # namespace), so what the API server holds decides the outcome.
    case = {**named("TestControllerV2JobAlreadyExistsButDifferentOwner: (single case)"), "kubeVersion": "1.37"}
    with_null = changed_case(case, ("controller", "apiJobs"), None)
    assert cronjob_sync.model_outcome(with_null) == cronjob_sync.model_outcome(case)
