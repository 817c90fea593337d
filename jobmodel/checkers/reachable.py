"""The sync steps an exploration reaches, as job-sync cases: `jobmodel explore --against ENGINE`
puts each to another engine (upstream's own code, or a program speaking the oracle protocol) and
judges its answer against the model's (jobmodel.checkers.oracle_check.check_cases).

Generated cases (`oracle check`, the differential tests) draw Jobs and pods one sync at a time;
the states an exploration reaches are those the controller's own history makes: pods it created
(named, indexed, finalized as it does), statuses it wrote, its expectations and back-off records
after failures, stale caches and API errors, in every interleaving the budget allows.
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from jobmodel.conformance.job_sync import case_from_sync_input
from jobmodel.errors import Unsupported
from jobmodel.state import JobSyncInput
from jobmodel.transitions import job_environment as env
from jobmodel.transitions.sync_job import JobSyncResult


@attrs.define
class RecordingSync:
    """A sync step (`job_environment.SyncImpl`) that answers as `impl` and keeps each distinct
    input it is given as a job-sync case, in the order met; inputs a case cannot carry (non-default
    tunables, an API server check of status writes) are counted in `uncarried`."""

    impl: env.SyncImpl
    cases: dict[str, dict[str, Any]] = attrs.field(factory=dict)
    uncarried: int = 0

    def __call__(self, inp: JobSyncInput) -> JobSyncResult:
        try:
            case = case_from_sync_input(inp)
        except Unsupported:
            self.uncarried += 1
        else:
            self.cases.setdefault(json.dumps(case, sort_keys=True), case)
        return self.impl(inp)

    def reached(self) -> list[dict[str, Any]]:
        """The distinct cases, each named by the order it was met in."""
        return [{"name": f"reachable sync {i}", **case} for i, case in enumerate(self.cases.values(), 1)]
