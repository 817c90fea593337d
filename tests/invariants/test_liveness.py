"""Bounded liveness: a well-behaved environment finishes every Job within the computed bound,
and a controller that never makes progress is caught."""

from __future__ import annotations

import pytest

from jobmodel.checkers.trace import run_moves
from jobmodel.invariants.catalogue import finished, refusing_known_upstream_bugs
from jobmodel.invariants.liveness import check_liveness, liveness_bound, run_well_behaved
from jobmodel.state import JobSyncInput
from jobmodel.transitions.move import Move
from jobmodel.transitions.sync_job import JobSyncResult, sync_job
from tests.checkers.configs import config, job_manifest


def idle_sync(inp: JobSyncInput) -> JobSyncResult:
    """A controller that never does anything."""
    return JobSyncResult((), None, None, inp.job, inp.controller)


@pytest.mark.parametrize(
    ("parallelism", "completions", "indexed", "bound"),
    [(1, 1, False, 4 * 6), (2, 3, False, 5 * 8), (3, 3, True, 4 * 10), (2, None, False, 4 * 8)],
)
def test_every_job_finishes_within_its_bound(parallelism: int, completions: int | None, indexed: bool, bound: int) -> None:
    world = config(job_manifest(parallelism, completions, 1, indexed=indexed)).initial_world()
    assert liveness_bound(world) == bound
    end, steps = run_well_behaved(world, sync_job, bound)
    job = end.job()
    assert job is not None and finished(job)
    assert steps <= bound
    assert check_liveness(world, sync_job) is None


def test_a_controller_that_never_acts_is_caught() -> None:
    world = config(job_manifest(1, 1, 1)).initial_world()
    violation = check_liveness(world, idle_sync)
    assert violation is not None and violation.invariant == "bounded-liveness"


def test_a_suspended_job_is_outside_the_assumption() -> None:
    world = config(job_manifest(1, 1, 1, suspend=True)).initial_world()
    assert check_liveness(world, idle_sync) is None


@pytest.mark.parametrize(("kube_version", "stuck"), [("1.36", True), ("1.37", False)])
def test_a_job_held_by_its_predecessors_expectations_is_a_known_upstream_bug(kube_version: str, stuck: bool) -> None:
    """Up to 1.36 a Job created again before a sync saw its predecessor gone waits for creations
    that will never be observed: the well-behaved run does not finish it. Bounded liveness
    accepts that by default (catalogue.ACCEPT_KNOWN_UPSTREAM_BUGS), and reports it when not."""
    cfg = config(job_manifest(1, 1, 1), stale=1, job_deletions=1, recreations=1, kube_version=kube_version)
    records = run_moves(cfg.system(), [Move("sync-stale"), Move("delete-job"), Move("recreate-job")])
    world = records[-1].world
    end, _steps = run_well_behaved(world, sync_job, liveness_bound(world))
    job = end.job()
    assert job is not None and finished(job) is not stuck
    assert check_liveness(world, sync_job) is None
    with refusing_known_upstream_bugs():
        violation = check_liveness(world, sync_job)
    assert (violation is not None) is stuck
