"""jobmodel.strategies.cron: the generated cronjob-sync cases take the sync through its main
paths often enough for the differential test (tests/differential/test_cron.py, 2,000 cases in
CI) to compare them with upstream: the scheduled Job created, its create refused, a Job of the
scheduled name adopted after AlreadyExists, an active Job replaced, Replace's read of the
active Job it deletes refused, a due time missed by the starting deadline. Which path a case takes is read from the model's outcome at the newest release
(where an AlreadyExists reads the existing Job in the CronJob's namespace)."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping
from typing import Any

from jobmodel.conformance.cronjob_sync import model_outcome
from jobmodel.conformance.suites import case_at_release
from jobmodel.features import NEWEST_RELEASE
from jobmodel.strategies.cron import cronjob_sync_cases
from tests.strategies import drawn

SAMPLES = 2000
# The least share of cases that takes each path. This test draws the same 2,000 cases in every
# run (drawn(..., derandomize=True)): created 183, create refused 123, an active Job replaced 30,
# adopted 19, Replace's read refused 37, a due time missed 73, a refused delete 84, a refused
# status write 234, the CronJob's read refused 109 (2026-12-05, the generator of beaaeaa); the
# least counts over two random seeds: 144, 128, 35, 17, 36, 49, 50, 241 and 143.
PATH_SHARES = {
    "created": 0.05,
    "create refused": 0.04,
    "active Job replaced": 0.005,
    "adopted after AlreadyExists": 0.001,
    "Replace's read of an active Job refused": 0.003,
    "missed the starting window": 0.01,
    "a refused delete": 0.02,
    "a refused status write": 0.07,
    "the CronJob's read refused": 0.03,
}


def outcome_at_newest(case: Mapping[str, Any]) -> dict[str, Any]:
    return model_outcome(case_at_release(case, NEWEST_RELEASE))


def without_controller_key(case: Mapping[str, Any], key: str) -> dict[str, Any]:
    """The case without `controller.<key>` (a copy)."""
    other = copy.deepcopy(dict(case))
    del other["controller"][key]
    return other


def paths_of(case: Mapping[str, Any]) -> set[str]:
    """The paths of syncCronJob a case takes, read from what the sync does (and, for a refused
    create, from what it does when the create is not refused). A refused status write comes
    after syncCronJob, whose paths are read from the case without it."""
    if "statusUpdateError" in (case.get("controller") or {}):
        case = without_controller_key(case, "statusUpdateError")
        return paths_of(case) | ({"a refused status write"} if outcome_at_newest(case)["statusUpdated"] else set())
    outcome = outcome_at_newest(case)
    spec, status = case["cronJob"]["spec"], case["cronJob"].get("status") or {}
    error = (case.get("controller") or {}).get("jobCreateError")
    moved = outcome["status"].get("lastScheduleTime") != status.get("lastScheduleTime")
    paths = set()
    if outcome["jobsCreated"]:
        paths.add("created")
    if error is not None and outcome_at_newest(without_controller_key(case, "jobCreateError"))["jobsCreated"]:
        paths.add("create refused")
        if error == "AlreadyExists" and moved and not outcome["error"]:
            paths.add("adopted after AlreadyExists")
    was_active = {ref["name"] for ref in status.get("active") or []}
    if spec.get("concurrencyPolicy") == "Replace" and moved and was_active.intersection(outcome["jobsDeleted"]):
        paths.add("active Job replaced")
    if "FailedDelete" in outcome["warnings"]:
        paths.add("a refused delete")
    if "MissSchedule" in outcome["warnings"]:
        paths.add("missed the starting window")
    if spec.get("concurrencyPolicy") == "Replace" and "FailedGet" in outcome["warnings"] and was_active:
        paths.add("Replace's read of an active Job refused")
    controller = case.get("controller") or {}
    if "cronJobGetError" in controller and outcome_at_newest(without_controller_key(case, "cronJobGetError")) != outcome:
        paths.add("the CronJob's read refused")
    return paths


def test_the_syncs_main_paths_reach_their_share_of_cases() -> None:
    seen: Counter[str] = Counter()
    for case in drawn(cronjob_sync_cases(), SAMPLES, derandomize=True):
        seen.update(paths_of(case))
    short = {path: f"{seen[path]} of {SAMPLES}" for path, share in PATH_SHARES.items() if seen[path] < share * SAMPLES}
    assert not short, f"paths of the sync taken too rarely: {short}"
