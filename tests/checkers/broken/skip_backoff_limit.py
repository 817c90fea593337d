"""Broken: the controller never applies the Job's backoffLimit."""

from __future__ import annotations

import attrs

from jobmodel.state import JobSyncInput
from jobmodel.transitions.sync_job import JobSyncResult
from jobmodel.transitions.sync_job import sync_job as model_sync_job

NO_LIMIT = 2**31 - 1


def sync_job(inp: JobSyncInput) -> JobSyncResult:
    """sync_job on a copy of the Job whose backoffLimit is the largest int32."""
    if inp.job is None:
        return model_sync_job(inp)
    job = attrs.evolve(inp.job, spec=attrs.evolve(inp.job.spec, backoff_limit=NO_LIMIT))
    return model_sync_job(attrs.evolve(inp, job=job))
