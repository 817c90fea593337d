"""Objects shared by the tests of jobmodel.api: minimal valid Jobs and CronJobs in wire format."""

from __future__ import annotations

import copy
from typing import Any

UID = "1a2b3c"


def pod_template(restart_policy: str = "Never") -> dict[str, Any]:
    """A pod template as the API server holds it after defaulting."""
    return {
        "metadata": {
            "labels": {
                "batch.kubernetes.io/controller-uid": UID,
                "controller-uid": UID,
                "batch.kubernetes.io/job-name": "myjob",
                "job-name": "myjob",
            }
        },
        "spec": {
            "containers": [
                {
                    "name": "abc",
                    "image": "image",
                    "imagePullPolicy": "IfNotPresent",
                    "terminationMessagePolicy": "File",
                }
            ],
            "dnsPolicy": "ClusterFirst",
            "restartPolicy": restart_policy,
            "terminationGracePeriodSeconds": 30,
        },
    }


def job(**spec: Any) -> dict[str, Any]:
    """A valid Job with a generated selector; `spec` keys override."""
    base: dict[str, Any] = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "myjob", "namespace": "default", "uid": UID, "resourceVersion": "1"},
        "spec": {
            "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": UID}},
            "template": pod_template(),
        },
    }
    base["spec"].update(copy.deepcopy(spec))
    return base


def cron_job(**spec: Any) -> dict[str, Any]:
    """A valid CronJob; `spec` keys override."""
    template = pod_template("OnFailure")
    del template["metadata"]
    base: dict[str, Any] = {
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": {
            "name": "mycronjob",
            "namespace": "default",
            "uid": UID,
            "resourceVersion": "1",
        },
        "spec": {
            "schedule": "0 * * * *",
            "concurrencyPolicy": "Allow",
            "jobTemplate": {"spec": {"template": template}},
        },
    }
    base["spec"].update(copy.deepcopy(spec))
    return base


def pairs(errors: list[Any]) -> set[tuple[str, str]]:
    return {(e.field, e.type) for e in errors}
