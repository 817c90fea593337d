"""Broken: an Indexed Job counts a succeeded pod again when its index is already completed
(as when the pod's finalizer removal failed and the pod is seen once more)."""

from __future__ import annotations

import attrs

from jobmodel.actions import Action, UpdateJobStatus
from jobmodel.state import SUCCEEDED, JobSyncInput
from jobmodel.transitions import indexes as ix
from jobmodel.transitions.pod_utils import has_job_tracking_finalizer
from jobmodel.transitions.sync_job import JobSyncResult
from jobmodel.transitions.sync_job import sync_job as model_sync_job


def sync_job(inp: JobSyncInput) -> JobSyncResult:
    """sync_job, then every status it writes gets one more success per succeeded pod (still
    holding its finalizer) whose index was already completed before the sync."""
    result = model_sync_job(inp)
    job = inp.job
    if job is None or not ix.is_indexed_job(job) or job.spec.completions is None:
        return result
    done = ix.parse_indexes_from_string(job.status.completed_indexes, job.spec.completions)
    again = sum(
        1
        for p in inp.pods
        if p.phase == SUCCEEDED and has_job_tracking_finalizer(p) and ix.has(done, ix.pod_index(p))
    )
    if again == 0:
        return result
    actions: list[Action] = []
    for action in result.actions:
        if isinstance(action, UpdateJobStatus):
            status = attrs.evolve(action.status, succeeded=action.status.succeeded + again)
            action = attrs.evolve(action, status=status)
        actions.append(action)
    return attrs.evolve(result, actions=tuple(actions))
