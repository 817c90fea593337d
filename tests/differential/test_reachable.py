"""The model's `sync_job` and `sync_cronjob` against upstream's `syncJob` and CronJob `sync` on
every sync step an exploration reaches (`jobmodel explore --against upstream`,
jobmodel.checkers.reachable).

The generated cases of test_job_sync.py draw one sync at a time; these are the states the
controller's own history makes, with the hostile moves of each budget in every interleaving: the
pods it created and the statuses it wrote, its expectations after a failed or lagging call, its
back-off record after failures, a restart's empty bookkeeping, Jobs edited, suspended and deleted.
Upstream is the reference (asked again where its answer depends on its lister's order); a
divergence is written to tests/differential/found/ as a vector of upstream's answer.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import attrs
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from jobmodel.checkers.cron import CronConfig, cron_manifest
from jobmodel.checkers.explorer import explore
from jobmodel.checkers.job import CheckConfig
from jobmodel.checkers.oracle_check import check_cases
from jobmodel.checkers.reachable import recording_cron_sync, recording_job_sync
from jobmodel.checkers.system import System
from jobmodel.commands.common import load_object
from jobmodel.features import gates_for
from jobmodel.frozen import freeze
from jobmodel.state import JobControllerTunables
from jobmodel.transitions.cron_environment import CronBudget
from jobmodel.transitions.job_environment import Budget
from jobmodel.transitions.sync_cronjob import sync_cronjob
from jobmodel.transitions.sync_job import sync_job
from tests.differential.conftest import ReleaseUpstream

HERE = Path(__file__).resolve().parent
SPECS = HERE.parents[1] / "specs" / "examples"

# (manifest, depth, budget): each explored at each release, 200 to 1,500 syncs apiece (about
# 6,500 in all); the long profile explores a level deeper (about three times as many: the
# kubelet's late writes, each pod move's twin, take the last from 1,500 to 6,700).
EXPLORATIONS: list[tuple[str, int, dict[str, Any]]] = [
    ("indexed.yaml", 7, {"failures": 1, "stale": 1, "faults": 1}),
    ("indexed.yaml", 6, {"evictions": 1, "deletions": 1, "gc": 1}),
    ("pi.yaml", 8, {"failures": 1, "restarts": 1, "expiries": 1, "job_deletions": 1, "edits": ("parallelism=2", "suspend=true")}),
    ("pod-failure-policy.yaml", 8, {"failures": 2, "evictions": 1}),
    ("backoff-limit-per-index.yaml", 7, {"failures": 2}),
    ("success-policy.yaml", 7, {"failures": 1, "stale": 1}),
    # A Job created again under its name: syncs over its predecessor's bookkeeping and pods; its
    # deletion shown late too: syncs of a Job the API server no longer has.
    ("pi.yaml", 9, {"failures": 1, "stale": 1, "job_deletions": 1, "stale_edits": 1, "recreations": 1}),
    # Finalizer removals the cache shows late: syncs that await them (uidTrackingExpectations).
    ("indexed.yaml", 7, {"failures": 1, "stale_patches": 1}),
    # Deletions the cache shows late (a suspend deletes the running pods): syncs that await them.
    ("indexed.yaml", 7, {"failures": 1, "stale_deletions": 1, "edits": ("suspend=true",)}),
    # Container restarts in place (restartPolicy OnFailure), some shown late: syncs that count
    # them against backoffLimit (pastBackoffLimitOnFailure) and delete the running pods.
    ("on-failure.yaml", 8, {"failures": 2, "stale_pod_writes": 1}),
    # Kubelet writes and others' deletions the cache shows late: syncs over pods as they were.
    ("success-policy.yaml", 6, {"failures": 1, "deletions": 1, "stale_pod_writes": 1}),
    # Status writes the Job informer shows late: syncs over the Job as it was, whose status writes
    # conflict. Up to 1.35 such a sync over-creates, as upstream does (STALE_STATUS_LAWS).
    ("indexed.yaml", 7, {"failures": 1, "stale_status": 1}),
    # Edits the Job informer shows late: syncs over the older spec (a suspend, an elastic scale-down).
    ("indexed.yaml", 7, {"failures": 1, "stale_edits": 1, "edits": ("suspend=true", "completions=2")}),
    # The controller's caps and back-off lowered (`explore --tunable`): syncs that stop at
    # MaxUncountedPods and MaxPodCreateDeletePerSync, the harness lowering upstream's own.
    ("indexed.yaml", 7, {"failures": 2, "stale": 1, "tunables": {"max_uncounted_pods": 1, "max_pod_create_delete_per_sync": 1, "pod_failure_backoff_seconds": 2}}),
]
# The laws upstream breaks up to 1.35 over a Job cache behind its own status write
# (docs/invariants.md, no-over-creation-on-stale-cache): explorations with that lag compare the
# syncs past them.
STALE_STATUS_LAWS = frozenset({"no-over-creation-on-stale-cache", "no-pods-created-once-finishing"})
DEEPER = 1 if os.environ.get("HYPOTHESIS_PROFILE") == "long" else 0


def reached_cases(manifest: str, release: str, depth: int, budget: dict[str, Any]) -> list[dict[str, Any]]:
    request = load_object(str(SPECS / manifest), ("Job",), None, gates_for(release)).request
    budget = dict(budget)
    tunables = JobControllerTunables(**budget.pop("tunables", {}))
    config = CheckConfig(freeze(request), Budget(**budget), kube_version=release, tunables=tunables)
    recorder = recording_job_sync(sync_job)
    system = config.system(recorder)
    if budget.get("stale_status"):
        system = attrs.evolve(system, laws=system.laws.restricted(lambda name: name not in STALE_STATUS_LAWS))
    result = explore(system, depth)
    assert result.counterexample is None, result.counterexample
    return recorder.reached()


@pytest.mark.parametrize(("manifest", "depth", "budget"), EXPLORATIONS, ids=[f"{m.removesuffix('.yaml')}-{d}-{'-'.join(b)}" for m, d, b in EXPLORATIONS])
def test_every_reached_sync_agrees_with_upstream(upstream: ReleaseUpstream, manifest: str, depth: int, budget: dict[str, Any]) -> None:
    cases = reached_cases(manifest, upstream.release, depth + DEEPER, budget)
    assert len(cases) > 100
    out = HERE / "found" / f"reachable-{manifest.removesuffix('.yaml')}-{upstream.release}.json"
    result = check_cases(upstream.engine, "job-sync", cases, out, engine_is_reference=True, release=upstream.release)
    assert result.aborted is None, result.aborted
    assert result.unsupported == 0
    assert result.divergences == (), [(d.signature, d.verdict.differences) for d in result.divergences]


# (manifest, depth, budget) for the CronJob controller: the spec example and small CronJobs of each
# concurrency policy, with missed, late and crashed syncs, refused Job creates, outages and DST changes.
CRON_EXPLORATIONS: list[tuple[dict[str, Any], int, CronBudget]] = [
    (yaml.safe_load((SPECS.parent / "cronjobs" / "nightly-berlin.yaml").read_text()), 8, CronBudget(ticks=3, dst=2, late=1)),
    (cron_manifest("* * * * *", "Allow", successfulJobsHistoryLimit=1, failedJobsHistoryLimit=0), 8, CronBudget(ticks=4, crashes=1, failures=1)),
    (cron_manifest("*/2 * * * *", "Forbid", startingDeadlineSeconds=30), 8, CronBudget(ticks=4, outages=1, late=1, stale=1, faults=1)),
    (cron_manifest("* * * * *", "Replace", timeZone="America/New_York", successfulJobsHistoryLimit=0), 8, CronBudget(ticks=4, crashes=1, failures=1, faults=1)),
]


CRON_IDS = ["nightly-berlin", "allow", "forbid", "replace"]


@pytest.mark.parametrize(("manifest", "depth", "budget", "name"), [(*e, n) for e, n in zip(CRON_EXPLORATIONS, CRON_IDS, strict=True)], ids=CRON_IDS)
def test_every_reached_cronjob_sync_agrees_with_upstream(upstream: ReleaseUpstream, manifest: dict[str, Any], depth: int, budget: CronBudget, name: str) -> None:
    config = CronConfig(freeze(manifest), budget, kube_version=upstream.release)
    recorder = recording_cron_sync(sync_cronjob)
    assert explore(config.system(recorder), depth + DEEPER).counterexample is None
    cases = recorder.reached()
    assert len(cases) > 100
    out = HERE / "found" / f"reachable-cronjob-{name}-{upstream.release}.json"
    result = check_cases(upstream.engine, "cronjob-sync", cases, out, engine_is_reference=True, release=upstream.release)
    assert result.aborted is None and result.unsupported == 0, result.aborted
    assert result.divergences == (), [(d.signature, d.verdict.differences) for d in result.divergences]


# Long random runs reach what a bounded exploration does not: Jobs that finish after many
# failures, back-off grown over several failures, many pods created and replaced, a Job suspended,
# resumed and scaled down (the controller seeing the edits at once or late, two of them held back).
RUN_STEPS = 120
LONG_RUN_BUDGET = Budget(
    failures=4,
    stale=2,
    stale_patches=2,
    stale_deletions=1,
    stale_pod_writes=2,
    stale_status=1,
    faults=2,
    evictions=1,
    deletions=1,
    gc=2,
    restarts=1,
    expiries=1,
    stale_edits=2,
    edits=("suspend=true", "suspend=false", "parallelism=1"),
)


def random_run(system: System[Any, Any], rng: random.Random, steps: int) -> None:
    """Random enabled moves from the start, until `steps` or no move is left (a law a step breaks
    is the laws' concern, not this comparison's: at 1.32 a stale cache with expired expectations
    over-creates, as upstream does)."""
    world = system.start()
    for _ in range(steps):
        moves = system.enabled_moves(world)
        if not moves:
            return
        world, _transition = system.successor(world, rng.choice(moves))


@settings(max_examples=10 if DEEPER else 3, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_sync_of_long_random_runs_agrees_with_upstream(upstream: ReleaseUpstream, seed: int) -> None:
    rng = random.Random(seed)
    recorder = recording_job_sync(sync_job)
    for manifest in ("indexed.yaml", "pod-failure-policy.yaml", "backoff-limit-per-index.yaml", "success-policy.yaml", "pi.yaml"):
        request = load_object(str(SPECS / manifest), ("Job",), None, gates_for(upstream.release)).request
        system = CheckConfig(freeze(request), LONG_RUN_BUDGET, kube_version=upstream.release).system(recorder)
        for _ in range(4):
            random_run(system, rng, RUN_STEPS)
    cases = recorder.reached()
    out = HERE / "found" / f"reachable-random-runs-{upstream.release}.json"
    result = check_cases(upstream.engine, "job-sync", cases, out, engine_is_reference=True, release=upstream.release)
    assert result.aborted is None and result.unsupported == 0, result.aborted
    assert result.divergences == (), [(d.signature, d.verdict.differences) for d in result.divergences]
