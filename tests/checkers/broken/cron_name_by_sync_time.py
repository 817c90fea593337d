"""Broken: the CronJob controller names each Job after the time it syncs instead of the
scheduled time, so a run re-created after a crash (before its status write) gets a new name and
the API server's AlreadyExists no longer stops it: two Jobs for one scheduled time."""

from __future__ import annotations

import attrs

from jobmodel.actions import Action, CreateJob, UpdateCronJobStatus
from jobmodel.state import CronJobStatus, CronJobSyncInput
from jobmodel.transitions.sync_cronjob import (
    CronJobSyncResult,
    get_time_hash_in_minutes,
)
from jobmodel.transitions.sync_cronjob import sync_cronjob as model_sync_cronjob


def sync_cronjob(inp: CronJobSyncInput) -> CronJobSyncResult:
    """sync_cronjob, then the created Job (and its status.active entry) renamed after `now`."""
    result = model_sync_cronjob(inp)
    if inp.cron_job is None:
        return result
    renames: dict[str, str] = {}
    actions: list[Action] = []
    for action in result.actions:
        if isinstance(action, CreateJob):
            old = action.job.metadata.name
            renames[old] = f"{inp.cron_job.name}-{get_time_hash_in_minutes(inp.now)}-at"
            job = attrs.evolve(action.job, metadata=attrs.evolve(action.job.metadata, name=renames[old]))
            action = attrs.evolve(action, job=job)
        elif isinstance(action, UpdateCronJobStatus):
            action = attrs.evolve(action, status=_renamed(action.status, renames, inp.cron_job.namespace))
        actions.append(action)
    cron_job = result.cron_job
    if cron_job is not None:
        cron_job = attrs.evolve(cron_job, status=_renamed(cron_job.status, renames, inp.cron_job.namespace))
    return attrs.evolve(result, actions=tuple(actions), cron_job=cron_job)


def _renamed(status: CronJobStatus, renames: dict[str, str], namespace: str) -> CronJobStatus:
    active = tuple(
        attrs.evolve(ref, name=renames[ref.name], uid=f"{namespace}/{renames[ref.name]}") if ref.name in renames else ref
        for ref in status.active
    )
    return attrs.evolve(status, active=active)

