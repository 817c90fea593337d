"""Another implementation's sync step, taken through the oracle protocol: `--impl 'cmd:PROGRAM
ARGS'` for `jobmodel explore` and the Hypothesis machines. Each sync is one job-sync request; the
model's environment carries out the answer and its catalogue judges the states that follow, so an
implementation that is not step-for-step identical to upstream is still checked against the
invariants."""

from __future__ import annotations

import atexit
from functools import cache

from jobmodel.adapters.oracle import CMD_PREFIX, CaseError, ProtocolEngine, parse_cmd
from jobmodel.conformance.job_sync import case_from_sync_input, sync_result_from_outcome
from jobmodel.errors import InputError, Unsupported
from jobmodel.state import JobSyncInput
from jobmodel.transitions.sync_job import JobSyncResult


def is_external(spec: str | None) -> bool:
    return spec is not None and spec.startswith(CMD_PREFIX)


class ExternalSync:
    """A SyncImpl (jobmodel.transitions.job_environment) answered by a program."""

    def __init__(self, engine: ProtocolEngine) -> None:
        self.engine = engine

    def __call__(self, inp: JobSyncInput) -> JobSyncResult:
        try:
            outcome = self.engine.outcome("job-sync", case_from_sync_input(inp))
        except (CaseError, Unsupported) as err:
            raise InputError("--impl", f"{self.engine.name} cannot take a sync step: {err}") from None
        return sync_result_from_outcome(inp, outcome)


@cache
def external_sync(spec: str) -> ExternalSync:
    """The step of the program `spec` names (one process for the whole run, stopped at exit)."""
    engine = ProtocolEngine(parse_cmd(spec))
    atexit.register(engine.close)
    return ExternalSync(engine)
