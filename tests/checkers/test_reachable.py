"""jobmodel.checkers.reachable: the sync steps an exploration reaches, kept as job-sync and
cronjob-sync cases.

A case must carry everything the step reads, or `explore --against` would compare something
other than what the exploration reached: every reached input, turned into a case and back, gives
the same step (the same calls, error and status)."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest

from jobmodel.checkers.cron import CronConfig, cron_manifest
from jobmodel.checkers.explorer import explore
from jobmodel.checkers.reachable import RecordingSync, recording_cron_sync, recording_job_sync
from jobmodel.conformance import cronjob_sync
from jobmodel.conformance.job_sync import case_from_sync_input, model_outcome, sync_input_from_case
from jobmodel.frozen import freeze
from jobmodel.state import CronJobSyncInput, JobControllerTunables, JobSyncInput
from jobmodel.transitions.cron_environment import CronBudget
from jobmodel.transitions.sync_cronjob import CronJobSyncResult, sync_cronjob
from jobmodel.transitions.sync_job import JobSyncResult, sync_job
from tests.checkers.configs import config, job_manifest

# Before the finished-Job mark (1.34), with it, with the consistency store (1.36+) and without it.
RELEASES = [("1.32", {}), ("1.34", {}), ("1.37", {}), ("1.37", {"StaleControllerConsistencyJob": False})]
RELEASE_IDS = ["1.32", "1.34", "1.37", "1.37-no-consistency-store"]
# Caps a few pods reach, and a back-off other than the default.
SMALL_TUNABLES = JobControllerTunables(pod_failure_backoff_seconds=3, max_uncounted_pods=1, max_pod_create_delete_per_sync=2)


def reached(manifest: dict[str, object], release: str, features: dict[str, bool], depth: int, **budget: Any) -> RecordingSync[JobSyncInput, JobSyncResult]:
    cfg = attrs.evolve(config(manifest, kube_version=release, **budget), features=freeze(features))
    recorder = recording_job_sync(sync_job)
    explore(cfg.system(recorder), depth)
    return recorder


@pytest.mark.parametrize(("release", "features"), RELEASES, ids=RELEASE_IDS)
@pytest.mark.parametrize(
    ("manifest", "budget"),
    [
        (job_manifest(2, 3, 1, indexed=True), {"failures": 1, "stale": 1, "faults": 1}),
        (job_manifest(2, 2, 1), {"failures": 1, "restarts": 1, "expiries": 1}),
        (job_manifest(2, 2, 2, podFailurePolicy={"rules": [{"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]}]}), {"evictions": 1, "deletions": 1}),
        # Finalizer removals the cache shows late: the removals the controller awaits are carried.
        (job_manifest(2, 3, 1), {"failures": 1, "stale_patches": 1}),
        # The controller's caps and back-off lowered: the tunables are carried.
        (job_manifest(3, 3, 2, indexed=True), {"failures": 2, "stale": 1, "tunables": SMALL_TUNABLES}),
    ],
    ids=["indexed-stale-faults", "restarts-expiries", "evictions-deletions", "stale-patches", "small-tunables"],
)
def test_a_reached_input_as_a_case_gives_the_same_step(release: str, features: dict[str, bool], manifest: dict[str, object], budget: dict[str, Any]) -> None:
    inputs: list[JobSyncInput] = []

    def keeping(inp: JobSyncInput) -> JobSyncResult:
        inputs.append(inp)
        return sync_job(inp)

    recorder = recording_job_sync(keeping)
    budget = dict(budget)
    tunables = budget.pop("tunables", JobControllerTunables())
    cfg = attrs.evolve(config(manifest, kube_version=release, **budget), features=freeze(features), tunables=tunables)
    explore(cfg.system(recorder), 6)
    assert len(inputs) > 30 and recorder.uncarried == 0
    for inp in inputs:
        back = sync_input_from_case(case_from_sync_input(inp))
        assert back.tunables == tunables
        again = sync_job(back)
        step = sync_job(inp)
        assert (again.actions, again.error, again.status) == (step.actions, step.error, step.status)
        assert (again.controller.finished_uid, again.controller.consistency) == (step.controller.finished_uid, step.controller.consistency)


def test_the_consistency_store_is_carried_where_reached() -> None:
    """At 1.37 an exploration reaches syncs holding a consistency record, some of which the store
    holds back; each is carried with the informers' versions, and the round trip keeps them. (The
    explorer's Job cache is current, so no sync it reaches holds the finished-Job mark: generated
    cases carry that, tests/differential/test_job_sync.py.)"""
    inputs: list[JobSyncInput] = []

    def keeping(inp: JobSyncInput) -> JobSyncResult:
        inputs.append(inp)
        return sync_job(inp)

    cfg = config(job_manifest(1, 1, 1), kube_version="1.37", stale=1, faults=1)
    explore(cfg.system(recording_job_sync(keeping)), 7)
    recorded = [i for i in inputs if i.controller.consistency is not None]
    waiting = [i for i in recorded if sync_job(i).error is not None]
    assert recorded and waiting
    for inp in recorded:
        back = sync_input_from_case(case_from_sync_input(inp))
        assert (back.controller.consistency, back.informers, back.write_version) == (inp.controller.consistency, inp.informers, inp.write_version)


def test_each_distinct_input_is_kept_once_in_the_order_met() -> None:
    recorder = reached(job_manifest(2, 2, 1), "1.32", {}, 5, failures=1)
    cases = recorder.reached()
    texts = [json.dumps({k: v for k, v in c.items() if k != "name"}, sort_keys=True) for c in cases]
    assert len(set(texts)) == len(texts) == len(recorder.cases) > 10
    assert [c["name"] for c in cases[:2]] == ["reachable sync 1", "reachable sync 2"]
    first = cases[0]  # the first sync of a new Job: nothing exists yet, two pods are created
    assert first["pods"] == [] and model_outcome(first)["creations"] == 2


def test_inputs_a_case_cannot_carry_are_counted_not_kept() -> None:
    first = sync_input_from_case(reached(job_manifest(1, 1, 0), "1.32", {}, 1).reached()[0])
    checked = attrs.evolve(first, faults=attrs.evolve(first.faults, status_check=lambda job, status: None))
    recorder = recording_job_sync(sync_job)
    recorder(checked)
    assert recorder.cases == {} and recorder.uncarried == 1


@pytest.mark.parametrize("release", ["1.32", "1.37"])
@pytest.mark.parametrize(
    ("policy", "budget", "spec"),
    [
        ("Forbid", CronBudget(ticks=4, crashes=1, stale=1), {}),
        ("Replace", CronBudget(ticks=3, outages=1, late=1, failures=1), {"startingDeadlineSeconds": 30}),
        ("Allow", CronBudget(ticks=3, dst=1, late=1), {"timeZone": "Europe/Berlin", "successfulJobsHistoryLimit": 1}),
        ("Replace", CronBudget(ticks=4, faults=1), {"successfulJobsHistoryLimit": 0}),
    ],
    ids=["forbid-crashes-stale", "replace-outages-late", "allow-dst", "replace-refused-calls"],
)
def test_a_reached_cronjob_input_as_a_case_gives_the_same_step(release: str, policy: str, budget: CronBudget, spec: dict[str, Any]) -> None:
    inputs: list[CronJobSyncInput] = []

    def keeping(inp: CronJobSyncInput) -> CronJobSyncResult:
        inputs.append(inp)
        return sync_cronjob(inp)

    recorder = recording_cron_sync(keeping)
    cfg = CronConfig(freeze(cron_manifest("*/2 * * * *", policy, **spec)), budget, kube_version=release)
    explore(cfg.system(recorder), 8)
    assert len(inputs) > 30 and recorder.uncarried == 0 and recorder.suite == "cronjob-sync"
    assert len(recorder.cases) <= len(inputs)
    for inp in inputs:
        again = sync_cronjob(cronjob_sync.sync_input(cronjob_sync.case_from_sync_input(inp)))
        assert again == sync_cronjob(inp)
