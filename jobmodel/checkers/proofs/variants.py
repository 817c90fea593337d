"""Controllers the proofs compare the model with: what an assumption about the controller buys.

`jobmodel prove --drop expectations` proves against a controller without expectations; its
counterexample traces name `sync_job_without_expectations` as their implementation, so that
`jobmodel replay` runs the same controller.
"""

from __future__ import annotations

import attrs

from jobmodel.state import JobSyncInput
from jobmodel.transitions.sync_job import JobSyncResult, sync_job


def sync_job_without_expectations(inp: JobSyncInput) -> JobSyncResult:
    """sync_job with the controller's expectations record dropped before every sync: it trusts
    whatever its cache shows."""
    return sync_job(attrs.evolve(inp, controller=attrs.evolve(inp.controller, expectations=None)))
