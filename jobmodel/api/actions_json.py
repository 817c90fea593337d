"""A controller's actions (jobmodel.actions) as JSON objects, for programs reading `-o json`
(docs/output.md): each has a `type` and the fields of that call."""

from __future__ import annotations

from typing import Any

from jobmodel.actions import (
    Action,
    CreateJob,
    CreatePod,
    DeleteJob,
    DeletePod,
    PatchPod,
    RecordEvent,
    Requeue,
    UpdateCronJobStatus,
    UpdateJobStatus,
)
from jobmodel.api.wire import cron_job_status_to_json, job_status_to_json
from jobmodel.state import JOB_COMPLETION_INDEX_ANNOTATION
from jobmodel.util.gostrings import decimal_digits_value


def action_to_json(action: Action) -> dict[str, Any]:
    if isinstance(action, CreatePod):
        return {
            "type": "createPod",
            "generateName": action.pod.metadata.generate_name,
            "index": _completion_index(action),
            "accepted": action.accepted,
        }
    if isinstance(action, DeletePod):
        return {"type": "deletePod", "name": action.name, "uid": action.uid, "accepted": action.accepted}
    if isinstance(action, PatchPod):
        return {"type": "patchPod", "name": action.name, "uid": action.uid, "patch": action.kind, "accepted": action.accepted}
    if isinstance(action, UpdateJobStatus):
        return {"type": "updateJobStatus", "status": job_status_to_json(action.status), "accepted": action.accepted}
    if isinstance(action, RecordEvent):
        return {"type": "event", "eventType": action.type, "reason": action.reason, "message": action.message}
    if isinstance(action, Requeue):
        return {"type": "requeue", "afterSeconds": action.after_seconds}
    if isinstance(action, CreateJob):
        return {"type": "createJob", "name": action.job.name, "accepted": action.accepted}
    if isinstance(action, DeleteJob):
        return {"type": "deleteJob", "name": action.name, "accepted": action.accepted}
    if isinstance(action, UpdateCronJobStatus):
        return {"type": "updateCronJobStatus", "status": cron_job_status_to_json(action.status), "accepted": action.accepted}
    raise TypeError(f"not an action: {action!r}")


def _completion_index(action: CreatePod) -> int | None:
    """The pod's completion-index annotation when it is a number (ASCII digits), else the action's index."""
    index = action.pod.metadata.annotations.get(JOB_COMPLETION_INDEX_ANNOTATION)
    try:
        return decimal_digits_value(index) if isinstance(index, str) else action.index
    except ValueError:
        return action.index
