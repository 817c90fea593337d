"""The model's `sync_cronjob` against upstream's CronJob controller v2 `sync` (harness/upstream),
on generated CronJobs (schedules, zones, policies, deadlines, history limits, status) and the
Jobs they own (active, finished, orphaned, not owned), with injected API errors."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jobmodel.adapters.upstream import UpstreamEngine
from jobmodel.conformance.cronjob_sync import model_outcome
from jobmodel.timeutil import format_time

EXAMPLES = 10000 if os.environ.get("HYPOTHESIS_PROFILE") == "long" else 1500
NOW = datetime(2024, 3, 10, 6, 55, tzinfo=UTC)  # an hour before New York springs forward
CRON_UID = "cron-uid-1"
SCHEDULES = ["*/5 * * * *", "0 * * * *", "30 6 * * *", "@every 1h", "0 0 31 2 *", "*/1 * * * *", "15,45 * * * *", "bad schedule", "0 2 * * 0"]


def ago(minutes: int) -> str:
    return format_time(NOW - timedelta(minutes=minutes))


@st.composite
def owned_jobs(draw: st.DrawFn) -> list[dict[str, Any]]:
    jobs = []
    for i in range(draw(st.integers(0, 5))):
        scheduled = NOW - timedelta(minutes=draw(st.sampled_from([5, 10, 60, 120, 600, 3000])) + i)
        name = f"cron-{int(scheduled.timestamp() // 60)}"
        meta: dict[str, Any] = {
            "name": name,
            "namespace": "default",
            "uid": f"job-uid-{i}",
            "creationTimestamp": format_time(scheduled),
            "annotations": {"batch.kubernetes.io/cronjob-scheduled-timestamp": format_time(scheduled)},
        }
        owner = draw(st.sampled_from(["cron", "cron", "cron", "none", "other"]))
        if owner != "none":
            meta["ownerReferences"] = [
                {
                    "apiVersion": "batch/v1",
                    "kind": "CronJob",
                    "name": "cron",
                    "uid": CRON_UID if owner == "cron" else "other-uid",
                    "controller": True,
                    "blockOwnerDeletion": True,
                }
            ]
        status: dict[str, Any] = {}
        state = draw(st.sampled_from(["active", "complete", "failed", "new"]))
        if state != "new":
            status["startTime"] = format_time(scheduled + timedelta(seconds=5))
        if state == "active":
            status["active"] = 1
        elif state in ("complete", "failed"):
            end = scheduled + timedelta(minutes=draw(st.integers(1, 4)))
            ctype = "Complete" if state == "complete" else "Failed"
            status["conditions"] = [{"type": ctype, "status": "True", "lastTransitionTime": format_time(end)}]
            if state == "complete":
                status["completionTime"] = format_time(end)
                status["succeeded"] = 1
            else:
                status["failed"] = 1
        jobs.append(
            {
                "apiVersion": "batch/v1",
                "kind": "Job",
                "metadata": meta,
                "spec": {"template": {"spec": {"containers": [{"name": "c", "image": "busybox"}], "restartPolicy": "Never"}}},
                "status": status,
            }
        )
    return jobs


@st.composite
def cronjob_sync_cases(draw: st.DrawFn) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "schedule": draw(st.sampled_from(SCHEDULES)),
        "concurrencyPolicy": draw(st.sampled_from(["Allow", "Forbid", "Replace"])),
        "suspend": draw(st.integers(0, 5)) == 0,
        "jobTemplate": {"spec": {"template": {"spec": {"containers": [{"name": "c", "image": "busybox"}], "restartPolicy": "Never"}}}},
    }
    if draw(st.booleans()):
        spec["timeZone"] = draw(st.sampled_from(["UTC", "America/New_York", "Asia/Kolkata"]))
    if draw(st.integers(0, 3)) == 0:
        spec["startingDeadlineSeconds"] = draw(st.sampled_from([10, 200, 4000]))
    for key in ("successfulJobsHistoryLimit", "failedJobsHistoryLimit"):
        if draw(st.booleans()):
            spec[key] = draw(st.integers(0, 3))
    jobs = draw(owned_jobs())
    status: dict[str, Any] = {}
    if draw(st.booleans()):
        status["lastScheduleTime"] = ago(draw(st.sampled_from([1, 5, 30, 61, 400, 3000])))
    if jobs and draw(st.booleans()):
        chosen = draw(st.sets(st.sampled_from([j["metadata"]["name"] for j in jobs]), max_size=2))
        status["active"] = [
            {"apiVersion": "batch/v1", "kind": "Job", "namespace": "default", "name": name, "uid": next(j["metadata"]["uid"] for j in jobs if j["metadata"]["name"] == name)}
            for name in sorted(chosen)
        ]
    if draw(st.integers(0, 5)) == 0:
        status.setdefault("active", []).append({"apiVersion": "batch/v1", "kind": "Job", "namespace": "default", "name": "cron-gone", "uid": "gone-uid"})
    cron = {
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": {"name": "cron", "namespace": "default", "uid": CRON_UID, "creationTimestamp": ago(draw(st.sampled_from([3, 90, 5000])))},
        "spec": spec,
        "status": status,
    }
    case: dict[str, Any] = {"name": "generated", "now": format_time(NOW), "cronJob": cron, "jobs": jobs, "expect": {}}
    fault = draw(st.integers(0, 9))
    if fault == 0:
        case["controller"] = {"jobCreateError": draw(st.sampled_from(["AlreadyExists", "fake create error"]))}
    elif fault == 1:
        case["controller"] = {"jobGetError": "fake get error"}
    return case


@pytest.fixture(scope="module")
def upstream() -> Iterator[UpstreamEngine]:
    engine = UpstreamEngine()
    yield engine
    engine.close()


def canonical(outcome: dict[str, Any]) -> dict[str, Any]:
    created = [
        {"name": j.get("metadata", {}).get("name"), "scheduledTime": j.get("scheduledTime"), "annotations": j.get("metadata", {}).get("annotations")}
        for j in outcome.get("jobsCreated") or []
    ]
    status = dict(outcome.get("status") or {})
    status["active"] = sorted(status.get("active") or [])
    return {
        "error": outcome.get("error"),
        "creations": outcome.get("creations"),
        "jobsCreated": created,
        "deletions": outcome.get("deletions"),
        "jobsDeleted": sorted(outcome.get("jobsDeleted") or []),
        "status": status,
        "statusUpdated": outcome.get("statusUpdated"),
        "requeueAfterSeconds": None if outcome.get("requeueAfterSeconds") is None else round(outcome["requeueAfterSeconds"], 3),
        "warnings": outcome.get("warnings"),
        "events": outcome.get("events"),
    }


def job_orders(case: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The case with its Jobs in other orders (rotations, reversed rotations)."""
    jobs = list(case["jobs"])
    for order in (jobs, jobs[::-1]):
        for shift in range(len(order)):
            yield {**case, "jobs": order[shift:] + order[:shift]}


@settings(max_examples=EXAMPLES)
@given(cronjob_sync_cases())
def test_sync_cronjob_agrees_with_upstream(upstream: UpstreamEngine, case: dict[str, Any]) -> None:
    expected = canonical(upstream.outcome("cronjob-sync", case))
    actual = canonical(model_outcome(case))
    if actual == expected:
        return
    # Upstream lists Jobs from a cache in a Go map's order: the order of its per-Job events
    # is not defined, so the model must agree for some order of the Jobs.
    if any(canonical(model_outcome(c)) == expected for c in job_orders(case)):
        return
    differing = {k: (actual[k], expected[k]) for k in expected if actual[k] != expected[k]}
    pytest.fail(f"(model, upstream) {json.dumps(differing)} for {json.dumps(case)}")
