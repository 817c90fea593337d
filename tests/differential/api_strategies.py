"""Hypothesis strategies for the `validation` and `defaulting` suites: Job and CronJob manifests
around a valid base, with fields set to values that are valid, invalid and at the edges,
in the vector format."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

INTS = st.sampled_from([-1, 0, 1, 2, 3, 5, 10, 100_000, 2**31 - 1])
SMALL = st.one_of(st.none(), st.integers(-1, 6))
NAMES = st.sampled_from(["job", "a" * 63, "a" * 64, "Bad_Name", "x-", "job.example"])
LABEL_VALUES = st.sampled_from(["a", "", "x" * 64, "bad value", "ok-1"])
INDEX_STRINGS = st.sampled_from(["0", "0-2", "1,3", "3-1", "x", "0,0", "-1", "10", "0-1,2"])


@st.composite
def pod_failure_policy(draw: st.DrawFn) -> dict[str, Any]:
    rules = []
    for _ in range(draw(st.integers(0, 3))):
        rule: dict[str, Any] = {"action": draw(st.sampled_from(["FailJob", "Ignore", "Count", "FailIndex", "Bogus"]))}
        kind = draw(st.integers(0, 3))
        if kind in (0, 2):
            rule["onExitCodes"] = {
                "operator": draw(st.sampled_from(["In", "NotIn", "Bogus"])),
                "values": draw(st.lists(st.integers(-1, 3), max_size=3)),
            }
            if draw(st.booleans()):
                rule["onExitCodes"]["containerName"] = draw(st.sampled_from(["main", "nope", "init"]))
        if kind in (1, 2):
            rule["onPodConditions"] = [
                {"type": draw(st.sampled_from(["DisruptionTarget", "Ready", "bad type!"])), "status": draw(st.sampled_from(["True", "False", "Unknown", "Maybe"]))}
                for _ in range(draw(st.integers(0, 2)))
            ]
        rules.append(rule)
    return {"rules": rules}


@st.composite
def success_policy(draw: st.DrawFn) -> dict[str, Any]:
    rules = []
    for _ in range(draw(st.integers(0, 2))):
        rule: dict[str, Any] = {}
        if draw(st.booleans()):
            rule["succeededIndexes"] = draw(INDEX_STRINGS)
        if draw(st.booleans()):
            rule["succeededCount"] = draw(st.integers(-1, 6))
        rules.append(rule)
    return {"rules": rules}


def base_job() -> dict[str, Any]:
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "job", "namespace": "default"},
        "spec": {
            "template": {
                "spec": {
                    "restartPolicy": "Never",
                    "containers": [{"name": "main", "image": "busybox"}],
                }
            }
        },
    }


@st.composite
def job_manifests(draw: st.DrawFn) -> dict[str, Any]:
    job = base_job()
    spec = job["spec"]
    template_spec = spec["template"]["spec"]
    if draw(st.booleans()):
        job["metadata"]["name"] = draw(NAMES)
    for key in ("parallelism", "completions", "backoffLimit", "activeDeadlineSeconds", "ttlSecondsAfterFinished"):
        if draw(st.booleans()):
            value = draw(SMALL)
            if value is not None:
                spec[key] = value
    if draw(st.booleans()):
        spec["completionMode"] = draw(st.sampled_from(["Indexed", "NonIndexed", "Bogus"]))
    if draw(st.booleans()):
        spec["backoffLimitPerIndex"] = draw(st.integers(-1, 3))
    if draw(st.booleans()):
        spec["maxFailedIndexes"] = draw(st.integers(-1, 4))
    if draw(st.booleans()):
        spec["suspend"] = draw(st.booleans())
    if draw(st.booleans()):
        spec["podReplacementPolicy"] = draw(st.sampled_from(["Failed", "TerminatingOrFailed", "Bogus"]))
    if draw(st.booleans()):
        spec["podFailurePolicy"] = draw(pod_failure_policy())
    if draw(st.booleans()):
        spec["successPolicy"] = draw(success_policy())
    if draw(st.integers(0, 4)) == 0:
        spec["managedBy"] = draw(st.sampled_from(["kubernetes.io/job-controller", "example.com/x", "bad", "x" * 70]))
    template_spec["restartPolicy"] = draw(st.sampled_from(["Never", "OnFailure", "Always"]))
    if draw(st.integers(0, 3)) == 0:
        template_spec["initContainers"] = [{"name": "init", "image": "busybox"}]
    selector = draw(st.integers(0, 4))
    labels = {"app": draw(LABEL_VALUES)}
    if selector:
        spec["template"]["metadata"] = {"labels": labels}
    if selector == 2:
        spec["selector"] = {"matchLabels": dict(labels)}
        spec["manualSelector"] = draw(st.booleans())
    elif selector == 3:
        spec["selector"] = {"matchLabels": {"app": "other"}}
        spec["manualSelector"] = True
    return job


@st.composite
def cron_job_manifests(draw: st.DrawFn) -> dict[str, Any]:
    job = draw(job_manifests())
    cron: dict[str, Any] = {
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": {"name": draw(st.sampled_from(["cron", "c" * 52, "c" * 53, "Bad"])), "namespace": "default"},
        "spec": {
            "schedule": draw(
                st.sampled_from(
                    ["*/5 * * * *", "@hourly", "@every 1h", "0 0 31 2 *", "61 * * * *", "TZ=UTC * * * * *", "", "* * * *", "5-2 * * * 7"]
                )
            ),
            "jobTemplate": {"spec": job["spec"]},
        },
    }
    if draw(st.booleans()):
        cron["spec"]["timeZone"] = draw(st.sampled_from(["Europe/Berlin", "UTC", "Mars/Olympus", " Europe/Berlin", "Local"]))
    for key in ("startingDeadlineSeconds", "successfulJobsHistoryLimit", "failedJobsHistoryLimit"):
        if draw(st.booleans()):
            cron["spec"][key] = draw(st.integers(-1, 3))
    if draw(st.booleans()):
        cron["spec"]["concurrencyPolicy"] = draw(st.sampled_from(["Allow", "Forbid", "Replace", "Bogus"]))
    if draw(st.booleans()):
        cron["spec"]["suspend"] = draw(st.booleans())
    return cron


@st.composite
def job_updates(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """(old, new): a stored-looking Job and an edit of it."""
    old = draw(job_manifests())
    old["metadata"]["uid"] = "uid-1"
    old["metadata"]["resourceVersion"] = "1"
    new = copy.deepcopy(old)
    spec = new["spec"]
    for _ in range(draw(st.integers(1, 3))):
        field = draw(st.sampled_from(["parallelism", "completions", "suspend", "backoffLimit", "activeDeadlineSeconds", "template", "managedBy", "completionMode"]))
        if field == "suspend":
            spec["suspend"] = draw(st.booleans())
        elif field == "template":
            spec["template"]["spec"]["containers"][0]["image"] = "other"
        elif field == "managedBy":
            spec["managedBy"] = "example.com/x"
        elif field == "completionMode":
            spec["completionMode"] = "Indexed"
        else:
            spec[field] = draw(st.integers(0, 5))
    return old, new
