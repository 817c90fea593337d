"""Small builders for Jobs and Pods in tests, in Kubernetes wire format, converted by the adapters."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import pytest

from jobmodel.api.wire import job_from_json, pod_from_json
from jobmodel.errors import InputError
from jobmodel.state import JOB_COMPLETION_INDEX_ANNOTATION, JOB_TRACKING_FINALIZER, Job, Pod

JOB_UID = "job-uid-1"
NOW = "2024-06-01T12:00:00Z"


def job_json(**spec: Any) -> dict[str, Any]:
    """A defaulted Job `foobar` in namespace `default`, selecting `foo: bar`; `spec` overrides fields."""
    base: dict[str, Any] = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "foobar", "namespace": "default", "uid": JOB_UID},
        "spec": {
            "selector": {"matchLabels": {"foo": "bar"}},
            "template": {
                "metadata": {"labels": {"foo": "bar"}},
                "spec": {"containers": [{"name": "main", "image": "foo/bar"}], "restartPolicy": "Never"},
            },
            "parallelism": 2,
            "completions": 5,
            "backoffLimit": 6,
            "completionMode": "NonIndexed",
            "suspend": False,
            "podReplacementPolicy": "TerminatingOrFailed",
        },
        "status": {},
    }
    status = spec.pop("status", None)
    metadata = spec.pop("metadata", None)
    for key, value in spec.items():
        if value is None:
            base["spec"].pop(key, None)
        else:
            base["spec"][key] = value
    if status is not None:
        base["status"] = status
    if metadata is not None:
        base["metadata"].update(metadata)
    return base


def make_job(**spec: Any) -> Job:
    return job_from_json(job_json(**spec))


def pod_json(
    name: str,
    phase: str = "Running",
    *,
    index: int | None = None,
    finalizer: bool = True,
    owner_uid: str = JOB_UID,
    labels: dict[str, str] | None = None,
    ready: bool = False,
    node: str | None = "node-1",
    deleted: str | None = None,
    created: str = "2024-06-01T11:00:00Z",
    exit_code: int | None = None,
    finished: str | None = None,
    conditions: list[dict[str, Any]] | None = None,
    annotations: dict[str, str] | None = None,
    restarts: int = 0,
) -> dict[str, Any]:
    """A pod of the Job `foobar` (or of `owner_uid`; "" for an orphan)."""
    meta: dict[str, Any] = {
        "name": name,
        "namespace": "default",
        "uid": name,
        "labels": {"foo": "bar", **(labels or {})},
        "creationTimestamp": created,
    }
    if owner_uid:
        meta["ownerReferences"] = [
            {"apiVersion": "batch/v1", "kind": "Job", "name": "foobar", "uid": owner_uid, "controller": True}
        ]
    if finalizer:
        meta["finalizers"] = [JOB_TRACKING_FINALIZER]
    notes = dict(annotations or {})
    if index is not None:
        notes[JOB_COMPLETION_INDEX_ANNOTATION] = str(index)
    if notes:
        meta["annotations"] = notes
    if deleted is not None:
        meta["deletionTimestamp"] = deleted
    status: dict[str, Any] = {"phase": phase}
    conds = list(conditions or [])
    if ready:
        conds.append({"type": "Ready", "status": "True", "lastTransitionTime": "2024-06-01T11:30:00Z"})
    if conds:
        status["conditions"] = conds
    if exit_code is not None or finished is not None or restarts:
        state: dict[str, Any] = {}
        if exit_code is not None or finished is not None:
            state["terminated"] = {"exitCode": exit_code or 0, "finishedAt": finished or "2024-06-01T11:59:00Z"}
        status["containerStatuses"] = [{"name": "main", "restartCount": restarts, "state": state}]
    spec: dict[str, Any] = {"containers": [{"name": "main", "image": "foo/bar"}]}
    if node:
        spec["nodeName"] = node
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec, "status": status}


def make_pod(name: str, phase: str = "Running", **kwargs: Any) -> Pod:
    return pod_from_json(pod_json(name, phase, **kwargs))


def make_pods(prefix: str, count: int, phase: str = "Running", **kwargs: Any) -> list[Pod]:
    return [make_pod(f"{prefix}-{i}", phase, **copy.deepcopy(kwargs)) for i in range(count)]


ABSENT = object()  # changed_case: the key is removed


def changed_case(case: dict[str, Any], path: tuple[str, ...], value: object) -> dict[str, Any]:
    """A copy of a vector case with the value at `path` replaced (removed when ABSENT)."""
    out = copy.deepcopy(case)
    node = out
    for key in path[:-1]:
        node = node.setdefault(key, {})
    if value is ABSENT:
        node.pop(path[-1], None)
    else:
        node[path[-1]] = value
    return out


def assert_refused(model_outcome: Callable[[dict[str, Any]], object], case: dict[str, Any], field: str) -> None:
    """The case is refused with an InputError whose message starts with the field's path."""
    with pytest.raises(InputError, match=rf"^{re.escape(field)}: "):
        model_outcome(case)
