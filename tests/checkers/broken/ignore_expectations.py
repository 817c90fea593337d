"""Broken: the controller ignores its expectations and trusts whatever its cache shows."""

from __future__ import annotations

import attrs

from jobmodel.state import JobSyncInput
from jobmodel.transitions.sync_job import JobSyncResult
from jobmodel.transitions.sync_job import sync_job as model_sync_job


def sync_job(inp: JobSyncInput) -> JobSyncResult:
    """sync_job with the expectations record dropped before every sync."""
    return model_sync_job(attrs.evolve(inp, controller=attrs.evolve(inp.controller, expectations=None)))
