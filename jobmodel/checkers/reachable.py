"""The sync steps an exploration reaches, as job-sync or cronjob-sync cases: `jobmodel explore
--against ENGINE` puts each to another engine (upstream's own code, or a program speaking the
oracle protocol) and judges its answer against the model's (oracle_check.check_cases).

Generated cases (`oracle check`, the differential tests) draw objects for one sync at a time; the
states an exploration reaches are those the controller's own history makes: the pods or Jobs it
created, the statuses it wrote, its expectations and back-off records after failures, stale
caches, API errors and crashes, in every interleaving the budget allows.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import attrs

from jobmodel.conformance import cronjob_sync, job_sync
from jobmodel.errors import Unsupported
from jobmodel.state import CronJobSyncInput, JobSyncInput
from jobmodel.transitions.sync_cronjob import CronJobSyncResult
from jobmodel.transitions.sync_job import JobSyncResult

In = TypeVar("In")
Out = TypeVar("Out")


@attrs.define
class RecordingSync(Generic[In, Out]):
    """A controller's sync step that answers as `impl` and keeps each distinct input it is given
    as a case of `suite` (`case_of`), in the order met; inputs a case cannot carry (an API server
    check of status writes) are counted in `uncarried`."""

    impl: Callable[[In], Out]
    suite: str
    case_of: Callable[[In], dict[str, Any]]
    cases: dict[str, dict[str, Any]] = attrs.field(factory=dict)
    uncarried: int = 0

    def __call__(self, inp: In) -> Out:
        try:
            case = self.case_of(inp)
        except Unsupported:
            self.uncarried += 1
        else:
            self.cases.setdefault(json.dumps(case, sort_keys=True), case)
        return self.impl(inp)

    def reached(self) -> list[dict[str, Any]]:
        """The distinct cases, each named by the order it was met in."""
        return [{"name": f"reachable sync {i}", **case} for i, case in enumerate(self.cases.values(), 1)]


def recording_job_sync(impl: Callable[[JobSyncInput], JobSyncResult]) -> RecordingSync[JobSyncInput, JobSyncResult]:
    """The Job controller's step `impl`, keeping its inputs as job-sync cases."""
    return RecordingSync(impl, "job-sync", job_sync.case_from_sync_input)


def recording_cron_sync(impl: Callable[[CronJobSyncInput], CronJobSyncResult]) -> RecordingSync[CronJobSyncInput, CronJobSyncResult]:
    """The CronJob controller's step `impl`, keeping its inputs as cronjob-sync cases."""
    return RecordingSync(impl, "cronjob-sync", cronjob_sync.case_from_sync_input)
