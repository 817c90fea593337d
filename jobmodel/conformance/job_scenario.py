"""Suite `job-scenario`: a Job's life in a cluster with no kubelet (FORMAT.md), through jobmodel.simulation.scenario."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jobmodel.api.schema import check_known
from jobmodel.errors import InputError
from jobmodel.simulation.scenario import StepFailed, run_step, start, tunables_from
from jobmodel.timeutil import parse_time

CASE_KEYS = frozenset({"name", "origin", "features", "start", "job", "jobUid", "controller", "garbageCollector", "steps"})


def model_outcome(case: Mapping[str, Any]) -> dict[str, Any]:
    """Run every step; the outcome lists the differences of the steps (empty: the scenario passed)."""
    check_known(case, CASE_KEYS, "case")
    steps = case.get("steps")
    if not isinstance(steps, list):
        raise InputError("steps", "required (a list)")
    job_uid = case.get("jobUid")
    if not isinstance(job_uid, str):
        raise InputError("jobUid", "required (a string)")
    state = start(
        case.get("job") or {},
        job_uid,
        parse_time(case.get("start"), "start"),
        features=case.get("features") or {},
        tunables=tunables_from(case.get("controller"), "controller"),
        garbage_collector=bool(case.get("garbageCollector")),
    )
    differences: list[str] = []
    for i, step in enumerate(steps):
        path = f"steps[{i}] ({step.get('do') if isinstance(step, Mapping) else '?'})"
        try:
            outcome = run_step(state, step, path)
        except StepFailed as err:
            differences.append(str(err))
            break
        state = outcome.state
        differences.extend(outcome.differences)
    return {"differences": differences}


def compare(case: Mapping[str, Any], outcome: Mapping[str, Any]) -> list[str]:
    """A scenario's checks are its `expect` steps: the outcome already holds their differences."""
    return list(outcome.get("differences", []))
