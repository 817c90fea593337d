"""The invariant catalogue: each predicate fails on a state or step that breaks it, assumptions
are shown with the traces that break them, and the known upstream bugs are pinned."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import attrs
import pytest

from jobmodel.actions import DeletePod, PatchPod, UpdateJobStatus
from jobmodel.checkers.explorer import explore
from jobmodel.checkers.job import DEFAULT_IMPL, CheckConfig
from jobmodel.checkers.system import System
from jobmodel.checkers.trace import run_moves
from jobmodel.features import gates_for
from jobmodel.invariants import catalogue as cat
from jobmodel.invariants import cron, job_facts, laws, upstream_bugs
from jobmodel.invariants.catalogue import Transition
from jobmodel.invariants.cron import CRON_LAWS
from jobmodel.invariants.laws import Laws, Violation
from jobmodel.state import (
    COMPLETE,
    FAILED_CONDITION,
    JOB_TRACKING_FINALIZER,
    BackoffRecord,
    Job,
    JobCondition,
    JobControllerTunables,
    JobStatus,
    UncountedTerminatedPods,
)
from jobmodel.transitions import cluster as cl
from jobmodel.transitions import job_environment as env
from jobmodel.transitions.move import Move
from jobmodel.transitions.sync_job import JobSyncResult
from tests.checkers.configs import (
    ALL_MUTATION_CASES,
    FAIL_JOB_ON_42,
    IGNORE_DISRUPTION,
    config,
    job_manifest,
    mutation_config,
)

REPO = Path(__file__).resolve().parents[2]
# The traces below show v1.32's behaviour (the known upstream bugs, the stale-cache over-creation).
PAIR = config(job_manifest(2, 2, 1), failures=1, stale=1, expiries=1, kube_version="1.32")
# Traces that name pods read best without symmetry reduction (no renaming between steps).
NAMED = config(job_manifest(2, 2, 1), failures=1, symmetry=False, kube_version="1.32")
BACKOFF_TRACE = [Move("sync"), Move("start", "j-0"), Move("start", "j-1"), Move("ready", "j-0"), Move("fail", "j-1"), Move("sync")]


def world_after(cfg: CheckConfig, *moves: Move) -> env.World:
    records = run_moves(cfg.system(), list(moves))
    return records[-1].world if records else cfg.initial_world()


def with_status(world: env.World, **changes: Any) -> env.World:
    job = world.job()
    assert job is not None
    new = attrs.evolve(job, status=attrs.evolve(job.status, **changes))
    return attrs.evolve(world, cluster=cl.replace_job(world.cluster, new))


def cond(ctype: str, reason: str = "") -> JobCondition:
    return JobCondition(ctype, "True", reason=reason)


@pytest.fixture
def strict_upstream() -> Iterator[None]:
    """Check against the status rules without accepting the known upstream bugs."""
    with cat.refusing_known_upstream_bugs():
        yield


# --- the registry ---------------------------------------------------------------------------------


@pytest.mark.parametrize("laws", [cat.LAWS, CRON_LAWS], ids=["Job", "CronJob"])
def test_every_invariant_is_named_once_documented_and_in_the_catalogue_doc(laws: Laws[Any, Any]) -> None:
    entries = [*laws.state, *laws.step]
    names = [e.name for e in entries]
    assert len(names) == len(set(names))
    doc = (REPO / "docs" / "invariants.md").read_text()
    for entry in entries:
        assert entry.doc and entry.upstream, entry.name
        assert f"`{entry.name}`" in doc, entry.name
    assert laws.sometimes
    for prop in laws.sometimes:
        assert prop.doc and prop.name in doc, prop.name


# --- state invariants -----------------------------------------------------------------------------


def test_complete_and_failed_together_is_caught() -> None:
    world = with_status(PAIR.initial_world(), conditions=(cond(COMPLETE), cond(FAILED_CONDITION, "BackoffLimitExceeded")))
    assert cat.complete_and_failed_exclusive(world) is not None
    assert cat.status_rules(world) is not None


def test_an_unknown_failure_reason_is_caught() -> None:
    world = with_status(PAIR.initial_world(), conditions=(cond("FailureTarget", "Tired"),))
    assert "Tired" in (cat.failed_reason_known(world) or "")
    ok = with_status(PAIR.initial_world(), conditions=(cond("FailureTarget", "BackoffLimitExceeded"),))
    assert cat.failed_reason_known(ok) is None


def test_status_rules_catch_ready_above_active_and_uncounted_pods_of_a_finished_job() -> None:
    world = PAIR.initial_world()
    assert cat.status_rules(world) is None
    assert "ready" in (cat.status_rules(with_status(world, active=1, ready=2)) or "")
    finished = with_status(
        world,
        conditions=(cond("FailureTarget", "BackoffLimitExceeded"), cond(FAILED_CONDITION, "BackoffLimitExceeded")),
        start_time=world.cluster.now,
        uncounted_terminated_pods=UncountedTerminatedPods(failed=("x",)),
    )
    assert "uncountedTerminatedPods" in (cat.status_rules(finished) or "")


def test_an_index_counted_twice_is_caught() -> None:
    indexed = config(job_manifest(2, 2, 1, indexed=True)).initial_world()
    assert cat.indexed_succeeded_counts_each_index_once(with_status(indexed, succeeded=1, completed_indexes="0")) is None
    assert cat.indexed_succeeded_counts_each_index_once(with_status(indexed, succeeded=2, completed_indexes="0")) is not None


# --- step invariants ------------------------------------------------------------------------------


def step(before: env.World, after: env.World, kind: str = "sync", result: JobSyncResult | None = None) -> Transition:
    return Transition(before, Move(kind), after, result)


def test_counters_and_terminal_conditions_never_go_back() -> None:
    world = PAIR.initial_world()
    later = with_status(world, succeeded=2, conditions=(cond(COMPLETE),))
    assert cat.counters_never_decrease(step(later, world)) is not None
    assert cat.terminal_conditions_absorbing(step(later, world)) is not None
    assert cat.counters_never_decrease(step(world, later)) is None


def test_complete_needs_the_completions() -> None:
    world = PAIR.initial_world()
    early = with_status(world, succeeded=1, conditions=(cond(COMPLETE),))
    assert "1 of 2" in (cat.complete_meets_success_criteria(step(world, early)) or "")
    assert cat.complete_meets_success_criteria(step(world, with_status(early, succeeded=2))) is None


def test_completed_indexes_only_grow() -> None:
    indexed = config(job_manifest(2, 2, 1, indexed=True)).initial_world()
    done = with_status(indexed, succeeded=2, completed_indexes="0,1")
    assert cat.completed_indexes_only_grow(step(done, with_status(indexed, succeeded=1, completed_indexes="1"))) == "completed indexes [0] were dropped"


def test_removing_a_finalizer_before_recording_the_pod_is_caught() -> None:
    cfg = config(job_manifest(1, 1, 1))
    world = world_after(cfg, Move("sync"), Move("start", "j-0"), Move("succeed", "j-0"))
    pod = world.pods()[0]
    lost = attrs.evolve(world, cluster=cl.remove_pod_finalizer(world.cluster, pod, JOB_TRACKING_FINALIZER))
    patch = PatchPod(pod.name, pod.uid, "remove-finalizer", accepted=True)
    early = JobSyncResult((patch,), None, None, None, world.cluster.controller_state(world.job_key))
    assert cat.finalizer_removed_after_recording(step(world, lost, result=early)) is not None
    recorded = JobStatus(uncounted_terminated_pods=UncountedTerminatedPods(succeeded=(pod.uid,)))
    right = attrs.evolve(early, actions=(UpdateJobStatus(recorded, accepted=True), patch))
    assert cat.finalizer_removed_after_recording(step(world, lost, result=right)) is None


def test_a_counter_that_grows_without_a_pod_leaving_uncounted_is_caught() -> None:
    cfg = config(job_manifest(1, 1, 1))
    world = world_after(cfg, Move("sync"), Move("start", "j-0"), Move("succeed", "j-0"))
    pod = world.pods()[0]
    listed = with_status(world, uncounted_terminated_pods=UncountedTerminatedPods(succeeded=(pod.uid,)))
    state = world.cluster.controller_state(world.job_key)
    twice = JobStatus(succeeded=2, uncounted_terminated_pods=UncountedTerminatedPods())
    wrong = JobSyncResult((UpdateJobStatus(twice, accepted=True),), None, None, None, state)
    # The pod still holds its finalizer: it may not leave uncountedTerminatedPods yet.
    assert "finalizer" in (cat.pod_counted_exactly_once(step(listed, world, result=wrong)) or "")
    released = attrs.evolve(listed, cluster=cl.remove_pod_finalizer(listed.cluster, pod, JOB_TRACKING_FINALIZER))
    assert "from 0 to 2" in (cat.pod_counted_exactly_once(step(released, world, result=wrong)) or "")
    once = JobStatus(succeeded=1, uncounted_terminated_pods=UncountedTerminatedPods())
    right = attrs.evolve(wrong, actions=(UpdateJobStatus(once, accepted=True),))
    assert cat.pod_counted_exactly_once(step(released, world, result=right)) is None


# --- assumptions, shown with the traces that break them -------------------------------------------


def test_over_creation_happens_when_expectations_expire_while_the_cache_lags() -> None:
    """no-over-creation assumes the cache lag is covered by unexpired expectations: past
    ExpectationsTimeout the controller trusts its stale list and creates a second set of pods."""
    records = run_moves(PAIR.system(), [Move("sync-stale"), Move("expire-expectations"), Move("sync")])
    before, after = records[1].world, records[2].world
    assert not env.lag_covered(before)
    assert len(cat.active_pods(after)) == 4  # parallelism 2
    # Outside no-over-creation's assumption; the law of 1.36+ reports it.
    assert {v.invariant for v in records[2].violations} == {"no-over-creation-on-stale-cache"}
    # With the expectations still valid, the controller waits instead.
    waiting = run_moves(PAIR.system(), [Move("sync-stale"), Move("sync")])
    assert env.lag_covered(waiting[0].world)
    assert len(cat.active_pods(waiting[1].world)) == 2


@pytest.mark.parametrize("kube_version", ["1.36", "1.37"])
def test_the_consistency_store_waits_for_the_cache_where_expectations_expired(kube_version: str) -> None:
    """From 1.36 syncJob does not act on a pod cache behind the controller's own writes
    (consistencyStore.EnsureReady): the same trace creates nothing more, the sync is an error
    (requeued with back-off), and once the cache has caught up the Job goes on with 2 pods."""
    cfg = attrs.evolve(PAIR, kube_version=kube_version)
    records = run_moves(cfg.system(), [Move("sync-stale"), Move("expire-expectations"), Move("sync")])
    assert not records[2].violations and len(cat.active_pods(records[2].world)) == 2
    world, result = env.apply_move(records[1].world, Move("sync"))
    assert result is not None and result.error is not None and not result.actions
    behind, written = env.WRITTEN - 1, env.WRITTEN
    assert result.error == f"read version: {behind} is not as new as written version: {written} for group resource pods"
    world, result = env.apply_move(env.cache_catch_up(world), Move("sync"))
    assert result is not None and result.error is None
    assert len(cat.active_pods(world)) == 2


def test_explore_shows_the_stale_cache_over_creation_up_to_1_35_only() -> None:
    for kube_version, found in (("1.32", True), ("1.35", True), ("1.36", False), ("1.37", False)):
        result = explore(attrs.evolve(PAIR, kube_version=kube_version, budget=env.Budget(stale=1, expiries=1)).system(), 6)
        violation = result.counterexample.violation.invariant if result.counterexample else None
        assert (violation == "no-over-creation-on-stale-cache") is found, kube_version


# A sync whose status write the Job informer delivers late, then a sync over the Job as it was.
STALE_STATUS_TRACE = [Move("sync"), Move("start", "j-0"), Move("succeed", "j-0"), Move("sync-stale-status"), Move("sync")]


def test_explore_shows_the_stale_status_over_creation_up_to_1_35_only() -> None:
    """A success counted in a status the cache has not delivered, its pod's finalizer removed, is
    counted nowhere by the next sync, which replaces the pod; from 1.36 the consistency store
    holds that sync back until the Job informer has the write (updateJobStatus: WroteAt)."""
    pair = config(job_manifest(2, 2, 1), stale_status=1)
    for kube_version, found in (("1.32", True), ("1.35", True), ("1.36", False), ("1.37", False)):
        result = explore(attrs.evolve(pair, kube_version=kube_version).system(), 6)
        violation = result.counterexample.violation if result.counterexample else None
        assert (violation is not None and violation.invariant == "no-over-creation-on-stale-cache") is found, kube_version
        if found:
            assert violation is not None and "completions remain" in violation.message


@pytest.mark.parametrize(("kube_version", "created_again"), [("1.32", True), ("1.33", True), ("1.34", False), ("1.37", False)])
def test_a_finished_job_the_cache_shows_unfinished_gets_a_pod_up_to_1_33(kube_version: str, created_again: bool) -> None:
    """kubernetes#130103 (fixed by #130333 in 1.34, finishedJobExpectations): the sync after the
    one that completed the Job reads the Job as it was, its succeeded pod without the finalizer,
    and creates a pod for a Job that is Complete; its status write then conflicts."""
    cfg = config(job_manifest(1, 1, 0), stale_status=1, kube_version=kube_version)
    records = run_moves(cfg.system(), STALE_STATUS_TRACE)
    completed, last = records[-2].world, records[-1].world
    assert completed.job_shown is not None and not cat.finished(completed.job_shown)
    assert cat.finished(completed.job()) and completed.job() == last.job()  # the second write conflicted
    assert (len(last.pods()) == 2) is created_again
    violations = {v.invariant for v in records[-1].violations}
    assert violations == ({"no-over-creation-on-stale-cache", "no-pods-created-once-finishing"} if created_again else set())


def test_creations_after_an_edit_the_cache_has_not_delivered_are_judged_by_no_over_creation() -> None:
    """Up to 1.35 a Job cache behind the controller's status write is outside no-over-creation's
    assumption (no-over-creation-on-stale-cache judges those syncs); one behind a user's edit is
    not: the sync is judged by the spec it read."""
    for trace, trusted in ((STALE_STATUS_TRACE[:4], False), ([Move("sync"), Move("edit-stale", arg="parallelism=1")], True)):
        cfg = config(job_manifest(2, 2, 1), stale_status=1, stale_edits=1, edits=("parallelism=1",), symmetry=False, kube_version="1.35")
        world = world_after(cfg, *trace)
        assert world.job_shown is not None and cat.creations_trust_the_cache(world) is trusted


def test_a_sync_over_a_job_cache_behind_its_status_write_conflicts() -> None:
    """Every status write of a sync that read an older Job fails (UpdateStatus sends the cached
    resourceVersion), and the Job informer's delivery ends the lag."""
    cfg = config(job_manifest(2, 2, 1), stale_status=1, symmetry=False, kube_version="1.35")
    world = world_after(cfg, *STALE_STATUS_TRACE[:4], Move("start", "j-1"), Move("succeed", "j-1"))
    assert world.job_shown is not None
    after, result = env.apply_move(world, Move("sync"))
    writes = [a for a in result.actions if isinstance(a, UpdateJobStatus)] if result is not None else []
    assert writes and not any(w.accepted for w in writes)
    assert result is not None and result.error is not None and "the object has been modified" in result.error
    assert after.job() == world.job() and after.job_shown is world.job_shown
    caught_up = env.cache_catch_up(after)
    assert caught_up.job_shown is None


# A Job deleted and created again under its name before any sync saw it gone: its predecessor's
# pod-failure back-off (after a failure) or creation expectations (after a stale sync) are left.
RECREATED = config(job_manifest(1, 1, 2))
AFTER_A_FAILURE = {"failures": 1}
AFTER_A_STALE_SYNC = {"stale": 1}


def recreation_found(kube_version: str, budget: dict[str, Any], depth: int = 7) -> str | None:
    """What new-job-starts-clean finds exploring the recreation configuration at a release."""
    cfg = attrs.evolve(RECREATED, kube_version=kube_version, budget=env.Budget(job_deletions=1, recreations=1, **budget))
    system = cfg.system()
    result = explore(attrs.evolve(system, laws=system.laws.restricted(lambda n: n == "new-job-starts-clean")), depth)
    return result.counterexample.violation.message if result.counterexample else None


@pytest.mark.usefixtures("strict_upstream")
@pytest.mark.parametrize(
    ("kube_version", "budget", "held_by"),
    [
        ("1.32", AFTER_A_FAILURE, "back-off"),
        ("1.33", AFTER_A_FAILURE, None),
        ("1.33", AFTER_A_STALE_SYNC, "expectations"),
        ("1.36", AFTER_A_STALE_SYNC, "expectations"),
        ("1.37", AFTER_A_STALE_SYNC, None),
        ("1.37", {**AFTER_A_FAILURE, **AFTER_A_STALE_SYNC}, None),
    ],
)
def test_the_recreated_job_finds_what_upstream_left_of_its_predecessor(
    kube_version: str, budget: dict[str, Any], held_by: str | None
) -> None:
    """Up to 1.32 Controller.deleteJob kept the pod-failure back-off record (TestImmediateJobRecreation
    is 1.33's fix), up to 1.36 the creation expectations (TestJobRecreationClearsPodExpectations,
    1.37's): a Job created again before a sync saw the deletion waits for its predecessor."""
    message = recreation_found(kube_version, budget)
    if held_by is None:
        assert message is None
    else:
        assert message is not None and held_by in message, message


def test_the_recreation_bugs_are_accepted_by_default_where_upstream_has_them() -> None:
    assert recreation_found("1.32", AFTER_A_FAILURE) is None
    assert recreation_found("1.36", AFTER_A_STALE_SYNC) is None


# Found by the Hypothesis machine at 1.32 to 1.36: the Job created again while its predecessor's
# expectations stand is suspended, synced (its first status written, without a startTime),
# resumed and synced again: manageJob is skipped, nothing else changed, so the status is not
# written and the startTime set in memory is lost.
HELD_WHILE_RESUMED = [
    Move("sync-stale"),
    Move("delete-job"),
    Move("recreate-job"),
    Move("edit", arg="suspend=true"),
    Move("sync"),
    Move("edit", arg="suspend=false"),
    Move("sync"),
]


@pytest.mark.parametrize(("kube_version", "held"), [("1.32", True), ("1.36", True), ("1.37", False)])
def test_a_held_job_resumed_keeps_no_start_time_up_to_1_36(kube_version: str, held: bool) -> None:
    cfg = config(
        job_manifest(1, 1, 1), stale=1, job_deletions=1, recreations=1, edits=("suspend=true", "suspend=false"), kube_version=kube_version
    )
    accepted = run_moves(cfg.system(), HELD_WHILE_RESUMED)[-1]
    job = accepted.world.job()
    assert job is not None and (job.status.start_time is None) is held
    assert not accepted.violations
    with cat.refusing_known_upstream_bugs():
        strict = run_moves(cfg.system(), HELD_WHILE_RESUMED)[-1]
    # The hold is the bug; the startTime kept in memory is how syncJob works (no status write).
    assert {v.invariant for v in strict.violations} == ({"new-job-starts-clean"} if held else set())


@pytest.mark.parametrize("kube_version", ["1.32", "1.35", "1.37"])
def test_a_job_resumed_while_its_expectations_wait_writes_no_start_time_until_manage_job_runs(kube_version: str) -> None:
    """Found by the Hypothesis machine at 1.35: the Job's suspend reaches the cache late, so a
    sync creates its pods; a restart, a suspended sync whose finalizer removals (and so the
    deletions after them) the cache shows late, and a resume: the next sync waits for the
    deletion it expects (manageJob skipped, no JobResumed), changes nothing and writes no status,
    so its startTime stays in memory. Once the deletions are delivered it is written."""
    cfg = config(
        job_manifest(2, 3, 2), deletions=1, restarts=1, stale_patches=1, stale_edits=1, edits=("suspend=true", "suspend=false"),
        symmetry=False, kube_version=kube_version,
    )
    moves = [Move("edit-stale", arg="suspend=true"), Move("sync"), Move("delete-pod", "j-1"), Move("restart"), Move("sync-stale-patches")]
    resumed = [*moves, Move("sync"), Move("edit", arg="suspend=false"), Move("sync")]
    records = run_moves(cfg.system(), resumed)
    waited = records[-1]
    job = waited.world.job()
    assert job is not None and not job.spec.suspend and job.status.start_time is None
    assert not [v for r in records for v in r.violations]
    written = run_moves(cfg.system(), [*resumed, Move("cache-catch-up"), Move("sync")])[-1].world.job()
    assert written is not None and written.status.start_time is not None


@pytest.mark.usefixtures("strict_upstream")
def test_upstream_bug_139428_active_zero_during_backoff() -> None:
    """kubernetes/kubernetes#139428: manageJob returns active=0 while it waits for the back-off."""
    records = run_moves(NAMED.system(), BACKOFF_TRACE)
    job = records[-1].world.job()
    assert job is not None and job.status.active == 0 and job.status.ready == 1
    assert {v.invariant for v in records[-1].violations} == {"status-rules", "active-counter-matches-pods"}


def test_the_known_upstream_bugs_are_accepted_by_default() -> None:
    records = run_moves(NAMED.system(), BACKOFF_TRACE)
    assert not records[-1].violations


@pytest.mark.parametrize(
    "change",
    ["no failure", "suspended", "failing"],
)
def test_ready_above_active_is_accepted_only_where_the_backoff_can_write_it(change: str) -> None:
    """#139428's signature (ready > active = 0) is accepted only for a running, unsuspended Job
    that is not finishing and has a failure to back off from: elsewhere status-rules reports it."""
    world = run_moves(NAMED.system(), BACKOFF_TRACE)[-1].world
    job = world.job()
    assert job is not None and cat.status_rules(world) is None
    if change == "no failure":
        status = attrs.evolve(job.status, failed=0, uncounted_terminated_pods=UncountedTerminatedPods())
        job = attrs.evolve(job, status=status)
        # A record that counts no failure (none at all: lost to a restart, it is accepted).
        state = attrs.evolve(world.cluster.controller_state(job.key), backoff=BackoffRecord(failures_after_last_success=0))
        world = attrs.evolve(world, cluster=cl.with_controller_state(world.cluster, job.key, state))
    elif change == "suspended":
        # Written by a sync of the suspended Job: it carries Suspended=True.
        suspended = JobCondition("Suspended", "True", reason="JobSuspended")
        status = attrs.evolve(job.status, conditions=(*job.status.conditions, suspended))
        job = attrs.evolve(job, spec=attrs.evolve(job.spec, suspend=True), status=status)
    else:
        target = JobCondition("FailureTarget", "True", reason="BackoffLimitExceeded")
        job = attrs.evolve(job, status=attrs.evolve(job.status, conditions=(*job.status.conditions, target)))
    broken = attrs.evolve(world, cluster=cl.replace_job(world.cluster, job))
    message = cat.status_rules(broken)
    assert message is not None and cat.READY_ABOVE_ACTIVE in message


def test_139428_stays_accepted_when_the_user_suspends_the_job_before_the_next_sync() -> None:
    """Found by the Hypothesis machine (seed 66): the status was written while the Job ran; the
    user's suspend changes the spec, not that status."""
    world = run_moves(NAMED.system(), BACKOFF_TRACE)[-1].world
    job = world.job()
    assert job is not None
    suspended = attrs.evolve(job, spec=attrs.evolve(job.spec, suspend=True))
    assert cat.status_rules(attrs.evolve(world, cluster=cl.replace_job(world.cluster, suspended))) is None


# Found by the Hypothesis machine (policy configuration, seed 33): an unscheduled pod deleted
# and marked Failed by the pod GC with DisruptionTarget is ignored by the podFailurePolicy, so
# status.failed stays 0, yet the failure feeds the back-off record (getNewFinishedPods filters by
# isPodFailed alone) and manageJob's back-off return writes active=0 beside a ready pod.
IGNORED_FAILURE_TRACE = [
    Move("sync"),
    Move("start", "j-1"),
    Move("delete-pod", "j-0"),
    Move("terminate", "j-0"),
    Move("ready", "j-1"),
    Move("sync"),
]
# kubernetes#139428 is a bug of the releases before 1.36.
IGNORING_POLICY = config(
    job_manifest(2, 3, 2, podFailurePolicy={"rules": [FAIL_JOB_ON_42, IGNORE_DISRUPTION]}), deletions=1, symmetry=False, kube_version="1.32"
)


def test_139428_after_a_failure_the_policy_ignores_but_the_backoff_counts_is_accepted() -> None:
    world = run_moves(IGNORING_POLICY.system(), IGNORED_FAILURE_TRACE)[-1].world
    job = world.job()
    assert job is not None and (job.status.active, job.status.ready, job.status.failed) == (0, 1, 0)
    record = world.cluster.controller_state(job.key).backoff
    assert record is not None and record.failures_after_last_success == 1
    assert cat.status_rules(world) is None
    # A record that counts no failure does not justify it.
    no_failure = attrs.evolve(record, failures_after_last_success=0)
    unjustified = attrs.evolve(world.cluster.controller_state(job.key), backoff=no_failure)
    message = cat.status_rules(attrs.evolve(world, cluster=cl.with_controller_state(world.cluster, job.key, unjustified)))
    assert message is not None and cat.READY_ABOVE_ACTIVE in message
    # From 1.36 (kubernetes#139457) the sync that waits for the back-off counts the running pod,
    # and the same status at 1.36 is not accepted.
    fixed = run_moves(attrs.evolve(IGNORING_POLICY, kube_version="1.36").system(), IGNORED_FAILURE_TRACE)
    fixed_job = fixed[-1].world.job()
    assert fixed_job is not None and fixed_job.status.active == 1 and not any(r.violations for r in fixed)
    at_136 = attrs.evolve(world, cluster=attrs.evolve(world.cluster, features=gates_for("1.36")))
    assert cat.status_rules(at_136) is not None


@pytest.mark.parametrize("release", ["1.32", "1.35"])
def test_139428_stays_accepted_once_a_restart_loses_the_record_it_was_written_under(release: str) -> None:
    """Found by the explorer (pod-failure-policy.yaml, --failures 1 --restarts 1, 1.35): the
    restart loses the back-off record, the status written while it counted the ignored failure
    stays (the failed pod is gone too), and status-rules judged it again without the record."""
    cfg = attrs.evolve(IGNORING_POLICY, budget=attrs.evolve(IGNORING_POLICY.budget, restarts=1), kube_version=release)
    records = run_moves(cfg.system(), [*IGNORED_FAILURE_TRACE, Move("restart")])
    world = records[-1].world
    job = world.job()
    assert job is not None and (job.status.active, job.status.ready) == (0, 1)
    assert world.cluster.controller_state(job.key).backoff is None
    assert not any(r.violations for r in records)
    with cat.refusing_known_upstream_bugs():
        strict = run_moves(cfg.system(), [*IGNORED_FAILURE_TRACE, Move("restart")])
    assert "status-rules" in {v.invariant for v in strict[-1].violations}


def test_a_failure_whose_finalizer_removal_is_awaited_is_no_new_failure_to_back_off_from() -> None:
    """Found by the explorer (pod-failure-policy.yaml, --stale-patches 2 --failures 1 --faults 1
    --restarts 1, 1.32): after a restart, a sync removes the finalizer of a failure the policy
    ignores without saving a back-off record (nothing to flush); while the removal lags, the next
    sync sees the pod with the finalizer but skips it as processed (getNewFinishedPods), and
    replaces it at once, as it does when the removal is seen (upstream agrees on both syncs)."""
    cfg = attrs.evolve(IGNORING_POLICY, budget=env.Budget(failures=1, faults=1, restarts=1, stale_patches=1))
    head = [Move("sync"), Move("start", "j-0"), Move("fail", "j-0", "cond=DisruptionTarget"), Move("sync-pod-error"), Move("restart")]
    lagging = run_moves(cfg.system(), [*head, Move("sync-stale-patches"), Move("sync")])
    seen = run_moves(cfg.system(), [*head, Move("sync"), Move("sync")])
    for records in (lagging, seen):
        assert len(records[-1].world.pods()) == 3  # the replacement, created at once
        assert not any(r.violations for r in records)
    assert lagging[-2].world.lagging and not seen[-2].world.lagging


@pytest.mark.usefixtures("strict_upstream")
def test_139428_after_a_failure_the_policy_ignores_is_reported_outside_the_assumptions() -> None:
    records = run_moves(IGNORING_POLICY.system(), IGNORED_FAILURE_TRACE)
    assert "status-rules" in {v.invariant for v in records[-1].violations}


@pytest.mark.usefixtures("strict_upstream")
def test_upstream_bug_134521_start_time_reset_on_resume() -> None:
    """kubernetes/kubernetes#134521: resuming a started Job resets startTime, which v1.32's
    status validation rejects."""
    cfg = config(job_manifest(1, 1, 1), stale=1, expiries=1, edits=("suspend=true", "suspend=false"), kube_version="1.32")
    moves = [
        Move("sync-stale"),  # starts the Job, and leaves expectations pending ...
        Move("expire-expectations"),  # ... so that the clock can jump 5 minutes
        Move("cache-catch-up"),
        Move("edit", arg="suspend=true"),
        Move("sync"),
        Move("edit", arg="suspend=false"),
        Move("sync"),
    ]
    records = run_moves(cfg.system(), moves)
    assert [v.invariant for v in records[-1].violations] == ["status-writes-valid"]
    assert "startTime" in records[-1].violations[0].message
    # Fixed from v1.32.13 (the model's 1.33): the resume's new startTime is accepted.
    assert not run_moves(attrs.evolve(cfg, kube_version="1.33").system(), moves)[-1].violations


# --- sometimes ------------------------------------------------------------------------------------


def test_sometimes_properties_hold_on_the_states_that_show_them() -> None:
    world = world_after(
        config(job_manifest(1, 1, 1), failures=1),
        Move("sync"), Move("start", "j-0"), Move("fail", "j-0"), Move("sync"), Move("timer-fires"), Move("sync"),
    )
    assert cat.pod_recreated_after_backoff(world)
    assert not cat.job_completes(world)


def test_suspended_zero_completion_job_finishing_without_start_time_is_a_known_upstream_bug() -> None:
    """v1.32's status validation rejects a finished Job without startTime, which a Job created
    suspended with completions 0 is when the controller completes it."""
    from jobmodel.invariants.catalogue import _known_upstream_bug
    from tests.builders import make_job

    job = make_job(suspend=True, completions=0, parallelism=0)
    error = "status.startTime: Required value: startTime is required for finished job"
    # Every release: v1.32.13 and 1.33+ allow the zero-completions case itself (no error), the
    # suspended Job that finished without a startTime stays refused up to 1.37.
    assert _known_upstream_bug(job, 0, error, 32) and _known_upstream_bug(job, 0, error, 37)
    assert not _known_upstream_bug(make_job(), 0, error, 32)


@pytest.mark.usefixtures("strict_upstream")
def test_a_job_suspended_after_a_failed_first_status_write_completes_without_start_time() -> None:
    """Found by the explorer on specs/examples/pi.yaml: the first sync's status write fails, so
    startTime is never stored; the pod succeeds; the user suspends the Job; syncJob sets startTime
    only for an unsuspended Job, completes it, and the API server rejects the write (a finished
    Job needs a startTime; upstream exempts only suspended Jobs with zero completions, up to
    v1.37), so the Job never completes."""
    cfg = config(job_manifest(1, 1, 1), faults=1, edits=("suspend=true",), symmetry=False)
    moves = [Move("sync-status-error"), Move("start", "j-0"), Move("succeed", "j-0"), Move("edit", arg="suspend=true"), Move("sync")]
    records = run_moves(cfg.system(), moves)
    job = records[-1].world.job()
    assert job is not None and job.status.start_time is None
    assert any(c.type == COMPLETE and c.status == "True" for c in job.status.conditions)
    assert [v.invariant for v in records[-1].violations] == ["status-writes-valid"]
    assert "startTime is required for finished job" in records[-1].violations[0].message
    cat.ACCEPT_KNOWN_UPSTREAM_BUGS = True
    cat.forget_cached_checks()
    assert not run_moves(cfg.system(), moves)[-1].violations


@pytest.mark.parametrize("kube_version", ["1.33", "1.37"])
def test_a_job_held_by_the_back_off_of_its_own_ignored_failures_starts_clean(kube_version: str) -> None:
    """Found by the Hypothesis machine at 1.34: the Job's pods, made while its suspend reached the
    cache late, are deleted by the suspend and by a user; the one that never started is Failed
    with DisruptionTarget, which the podFailurePolicy ignores: counted nowhere in the status, but
    in the back-off record. Resumed, the Job has no pod and nothing in its status, and its first
    sync waits out that back-off, as upstream's does."""
    manifest = job_manifest(2, 2, 2, podFailurePolicy={"rules": [FAIL_JOB_ON_42, IGNORE_DISRUPTION]})
    cfg = config(
        manifest, stale=1, stale_edits=1, deletions=1, stale_status=1, faults=2,
        edits=("suspend=true", "parallelism=1", "suspend=false"), kube_version=kube_version,
    )
    moves = [
        Move("edit-stale", arg="suspend=true"), Move("sync-stale"), Move("cache-catch-up"), Move("delete-pod", "j-0"),
        Move("sync-stale-status"), Move("terminate", "j-1"), Move("edit", arg="parallelism=1"), Move("sync-pod-error"),
        Move("sync-status-error"), Move("edit", arg="suspend=false"), Move("sync"),
    ]
    records = run_moves(cfg.system(), moves)
    world = records[-1].world
    job = world.job()
    assert job is not None and job.status.failed == 0 and not world.pods() and env.backoff_remaining(world) == 10
    assert not [v for r in records for v in r.violations]


def test_a_job_whose_gone_pods_the_cache_still_shows_is_not_judged_as_new() -> None:
    """Found by the Hypothesis machine at 1.32: a suspend deletes the Job's two pods, whose
    finalizer removals (and so the deletions) the cache shows late; resumed, the Job has no pod
    in the API server, but its sync still sees both, counts them active and, with parallelism 1,
    creates none: not a new Job held by anything."""
    manifest = job_manifest(2, 2, 2, podFailurePolicy={"rules": [FAIL_JOB_ON_42, IGNORE_DISRUPTION]})
    cfg = config(
        manifest, stale=1, stale_edits=1, stale_patches=1, stale_status=1, expiries=1,
        edits=("suspend=true", "parallelism=1", "suspend=false"), kube_version="1.32",
    )
    moves = [
        Move("edit-stale", arg="parallelism=1"), Move("sync-stale"), Move("edit", arg="suspend=true"), Move("cache-catch-up"),
        Move("sync-stale-patches"), Move("sync-stale-status"), Move("expire-expectations"), Move("edit", arg="suspend=false"), Move("sync"),
    ]
    records = run_moves(cfg.system(), moves)
    world = records[-1].world
    job = world.job()
    assert not world.pods() and len(world.lagging) == 2 and job is not None and job.status.active == 1
    assert not [v for r in records for v in r.violations]


def test_a_job_finished_without_start_time_is_judged_by_the_spec_its_sync_read() -> None:
    """Found by the Hypothesis machine: the Job above, resumed by a user once finished, keeps the
    status the sync wrote while reading it suspended (the explorer keeps the write the API server
    refuses): no violation. The same write by a sync that read the Job unsuspended is one."""
    cfg = config(job_manifest(1, 1, 1), faults=1, edits=("suspend=true", "suspend=false"), symmetry=False)
    moves = [Move("sync-status-error"), Move("start", "j-0"), Move("succeed", "j-0"), Move("edit", arg="suspend=true"), Move("sync")]
    records = run_moves(cfg.system(), [*moves, Move("edit", arg="suspend=false")])
    job = records[-1].world.job()
    assert job is not None and not job.spec.suspend and job.status.start_time is None and cat.finished(job)
    assert not [v for r in records for v in r.violations]
    before, after = records[-3].world, records[-2].world
    assert cat.status_writes_valid(Transition(before, Move("sync"), after)) is None
    resumed = attrs.evolve(before, cluster=cl.replace_job(before.cluster, resumed_job(before)))
    message = cat.status_writes_valid(Transition(resumed, Move("sync"), attrs.evolve(after, cluster=cl.replace_job(after.cluster, resumed_job(after)))))
    assert message is not None and "startTime is required for finished job" in message


def resumed_job(world: env.World) -> Job:
    job = world.job()
    assert job is not None
    return attrs.evolve(job, spec=attrs.evolve(job.spec, suspend=False))


@pytest.mark.parametrize("kube_version", ["1.32", "1.37"])
def test_a_success_recorded_as_a_failure_resets_the_back_off(kube_version: str) -> None:
    """Found by the Hypothesis machine: a pod deleted while running is recorded as failed (its
    finalizer removal refused), then exits 0 while the other pod fails; upstream counts the exit
    as a new success after that failure, so the replacements come at once. Accepted as the known
    bug; outside the assumptions the back-off law reports it."""
    cfg = config(job_manifest(2, 3, 2), deletions=1, failures=1, faults=1, symmetry=False, kube_version=kube_version)
    moves = [
        Move("sync"), Move("start", "j-1"), Move("delete-pod", "j-1"), Move("sync-pod-error"), Move("start", "j-0"),
        Move("succeed", "j-1"), Move("fail", "j-0"), Move("sync"),
    ]
    records = run_moves(cfg.system(), moves)
    assert len(records[-1].world.pods()) == 4 and not [v for r in records for v in r.violations]
    with cat.refusing_known_upstream_bugs():
        strict = run_moves(cfg.system(), moves)[-1]
    assert "backoff-delay-respected" in {v.invariant for v in strict.violations}


@pytest.mark.usefixtures("strict_upstream")
def test_a_deleted_pod_recorded_as_failed_that_then_succeeds_completes_the_job() -> None:
    """Found by the explorer on specs/examples/pi.yaml once pods terminate gracefully: the pod is
    deleted while running and recorded as failed, its finalizer removal fails, and it exits 0;
    getNewFinishedPods counts it as a new success, so the Job completes with succeeded=0."""
    cfg = config(job_manifest(1, 1, 1), deletions=1, faults=1, symmetry=False)
    moves = [Move("sync"), Move("start", "j-0"), Move("delete-pod", "j-0"), Move("sync-pod-error"), Move("succeed", "j-0"), Move("sync")]
    records = run_moves(cfg.system(), moves)
    job = records[-1].world.job()
    assert job is not None and job.status.succeeded == 0 and job.status.failed == 1
    assert any(c.type == COMPLETE and c.status == "True" for c in job.status.conditions)
    assert [v.invariant for v in records[-1].violations] == ["complete-meets-success-criteria"]
    cat.ACCEPT_KNOWN_UPSTREAM_BUGS = True
    assert not run_moves(cfg.system(), moves)[-1].violations


def test_outside_the_assumptions_a_success_recorded_as_a_failure_is_not_excused() -> None:
    """The known upstream bug is accepted as a run outside an environment assumption (a pod counted
    as failed does not succeed afterwards): a trace checked outside the assumptions reports it,
    while the status rules' known bugs stay accepted."""
    cfg = config(job_manifest(1, 1, 1), deletions=1, faults=1, symmetry=False)
    moves = [Move("sync"), Move("start", "j-0"), Move("delete-pod", "j-0"), Move("sync-pod-error"), Move("succeed", "j-0"), Move("sync")]
    assert not run_moves(cfg.system(), moves)[-1].violations
    strict = run_moves(attrs.evolve(cfg, without_assumptions=True).system(), moves)
    assert [v.invariant for v in strict[-1].violations] == ["complete-meets-success-criteria"]
    assert not run_moves(attrs.evolve(NAMED, without_assumptions=True).system(), BACKOFF_TRACE)[-1].violations


def test_failed_pods_are_accounted_for_wherever_they_are() -> None:
    cfg = config(job_manifest(1, 1, 2), failures=1)
    world = world_after(cfg, Move("sync"), Move("start", "j-0"), Move("fail", "j-0"))
    job = world.job()
    assert job is not None
    gates = world.cluster.features
    assert job.status.failed == 0 and cat.failed_so_far(world, job, gates) == 1  # still holding its finalizer
    counted = world_after(cfg, Move("sync"), Move("start", "j-0"), Move("fail", "j-0"), Move("sync"))
    job = counted.job()
    assert job is not None and job.status.failed == 1 and cat.failed_so_far(counted, job, gates) == 1


@attrs.define
class BothWays:
    """Laws that check every step with the guards and without them, record where the two differ,
    and report nothing (so that the exploration goes on past a broken law)."""

    laws: Laws[Any, Any]
    steps: int = 0
    skipped: int = 0
    violations: int = 0
    differences: list[str] = attrs.Factory(list)
    # Steps where the catalogue's any_guard failed but some guard held.
    missed_by_any_guard: list[str] = attrs.Factory(list)

    @property
    def sometimes(self) -> list[Any]:
        return []

    def check_state(self, world: Any) -> list[Any]:
        return []

    def check_step(self, t: Any) -> list[Any]:
        guarded = self.laws.check_step(t)
        unguarded = [laws_violation(inv, t) for inv in self.laws.step]
        unguarded = [v for v in unguarded if v is not None]
        self.steps += 1
        self.skipped += sum(1 for inv in self.laws.step if inv.when is not None and not inv.when(t))
        self.violations += len(unguarded)
        any_guard = self.laws.any_guard
        if any_guard is not None and not any_guard(t):
            held = [guard.__name__ for guard in self.laws.guards() if guard(t)]
            if held:
                self.missed_by_any_guard.append(f"{t.move}: {held} hold")
        if guarded != unguarded:
            self.differences.append(f"{t.move}: {guarded} with guards, {unguarded} without")
        return []


def laws_violation(inv: Any, t: Any) -> Any:
    message = inv.check(t)
    return None if message is None else Violation(inv.name, message)


@pytest.mark.parametrize("name", sorted(ALL_MUTATION_CASES))
def test_the_guards_skip_only_laws_that_cannot_fail(name: str) -> None:
    """On every step of the broken variants' explorations (and the model's on the same
    configuration), Job and CronJob, the laws a guard skips find nothing: the guarded catalogue
    reports what the unguarded one does, in the same order; and where the catalogue's any_guard
    fails, so does every guard."""
    case = ALL_MUTATION_CASES[name]
    for broken in (True, False):
        system: System[Any, Any] = mutation_config(name, broken=broken).system()  # Job or CronJob
        caught_by_a_step_law = case.invariant in {inv.name for inv in system.laws.step}
        both = BothWays(system.laws)
        # BothWays stands in for the catalogue: it has the members the explorer reads.
        explore(attrs.evolve(system, laws=cast(Laws[Any, Any], both)), depth=case.depth)
        assert both.differences == []
        assert both.missed_by_any_guard == []
        assert both.skipped > 0 or case.depth == 1  # a first sync: every guard holds
        if broken and caught_by_a_step_law:
            assert both.violations > 0, f"{name}: the exploration found nothing to compare"


def test_no_law_reads_the_budget_of_hostile_moves() -> None:
    """The explorer gives a transition equal to one already checked but in the budget the verdict
    of that one (checkers.explorer.Successors): sound while the laws, the facts they read and the
    known upstream bugs they excuse never read a world's budget (the liveness check, which
    resets it, is no law)."""
    for module in (cat, cron, job_facts, laws, upstream_bugs):
        source = Path(str(module.__file__)).read_text()
        reads = [node.lineno for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Attribute) and node.attr == "budget"]
        assert reads == [], f"{module.__name__} reads a budget at lines {reads}"


@pytest.mark.parametrize("mutant", [False, True])
def test_a_scale_down_is_spread_over_syncs_by_the_cap_on_deletions(mutant: bool) -> None:
    """With MaxPodCreateDeletePerSync 1, a Job whose parallelism drops from 3 to 0 loses one pod a
    sync (upstream's manageJob): no active-within-parallelism violation; a controller that never
    deletes the surplus still breaks it."""
    impl = "tests.checkers.broken.job_bugs:no_scale_down" if mutant else DEFAULT_IMPL
    cfg = attrs.evolve(
        config(job_manifest(3, 3, 1), impl=impl, edits=("parallelism=0",)),
        tunables=JobControllerTunables(max_pod_create_delete_per_sync=1),
    )
    result = explore(cfg.system(), 7)
    violation = result.counterexample.violation.invariant if result.counterexample else None
    assert violation == ("active-within-parallelism" if mutant else None)


def test_a_finishing_jobs_deletions_are_not_capped_even_where_its_condition_waits() -> None:
    """deleteActivePods deletes every active pod of a Job past its backoffLimit, whatever
    MaxPodCreateDeletePerSync says; with a creation the cache has not shown (expectations not
    satisfied) the sync then holds the failure condition back (syncJob: finishedCondition = nil),
    so the Job is undecided after it. pod-deletions-within-cap took that sync for a scale-down."""
    cfg = attrs.evolve(
        config(job_manifest(4, 4, 0), failures=1, stale=1, kube_version="1.32"),
        tunables=JobControllerTunables(max_pod_create_delete_per_sync=1),
    )
    moves = [Move("sync"), Move("sync"), Move("sync"), Move("sync-stale"), Move("start", "j-0"), Move("fail", "j-2"), Move("sync")]
    records = run_moves(cfg.system(), moves)
    assert records[-1].violations == ()
    world, result = env.apply_move(records[-2].world, moves[-1])
    assert result is not None and sum(isinstance(a, DeletePod) and a.accepted for a in result.actions) == 2
    job = world.job()
    assert job is not None and not job_facts.decided(job)


@pytest.mark.parametrize(
    ("manifest", "cap", "budget"),
    [
        (job_manifest(3, 3, 2), 1, {"failures": 1}),
        (job_manifest(3, None, 2), 1, {"failures": 1, "edits": ("parallelism=0",)}),
        (job_manifest(3, 3, 2, indexed=True), 2, {"failures": 1}),
    ],
    ids=["nonindexed", "without-completions", "indexed"],
)
def test_the_max_uncounted_cut_off_leaves_no_law_broken(manifest: dict[str, Any], cap: int, budget: dict[str, Any]) -> None:
    """With MaxUncountedPods and MaxPodCreateDeletePerSync small, a sync records only some of
    the finished pods (upstream's reachedMaxUncountedPods) and manageJob still counts the others'
    successes: no law reports that (finished-pods-released, complete-meets-success-criteria,
    backoff-requeued, active-within-parallelism did, each before it knew the cut-off)."""
    tunables = JobControllerTunables(max_uncounted_pods=cap, max_pod_create_delete_per_sync=cap)
    result = explore(attrs.evolve(config(manifest, **budget), tunables=tunables).system(), 9)
    assert result.counterexample is None, result.counterexample.violation


def test_a_sync_past_the_max_uncounted_cut_off_is_told_apart() -> None:
    """may_reach_max_uncounted: two finished pods to record reach a cap of 2, not one of 3."""
    moves = [Move("sync"), Move("start", "j-0"), Move("start", "j-1"), Move("succeed", "j-0"), Move("fail", "j-1"), Move("sync")]
    for cap, reached in ((2, True), (3, False)):
        cfg = attrs.evolve(config(job_manifest(2, 2, 2), failures=1, symmetry=False), tunables=JobControllerTunables(max_uncounted_pods=cap))
        records = run_moves(cfg.system(), moves)
        t = Transition(records[-2].world, moves[-1], records[-1].world, None)
        assert job_facts.may_reach_max_uncounted(t) is reached, cap


def test_a_failed_pod_whose_index_an_edit_dropped_starts_no_back_off() -> None:
    """getValidPodsWithFilter leaves a pod whose index is no longer below completions out of the
    new failures, so a controller whose back-off record a restart lost creates the missing index's
    pod at once (found by the Hypothesis machine at 1.36: backoff-delay-respected reported it)."""
    cfg = config(job_manifest(3, 3, 2, indexed=True), failures=2, restarts=1, edits=("completions=2",), symmetry=False)
    moves = [Move("sync"), Move("start", "j-1"), Move("fail", "j-1"), Move("sync"), Move("restart")]
    moves += [Move("start", "j-2"), Move("fail", "j-2"), Move("edit", arg="completions=2"), Move("sync")]
    records = run_moves(cfg.system(), moves)
    assert records[-1].world.cluster.pod("default", "j-3") is not None  # the missing index 1's pod
    assert [v for r in records for v in r.violations] == []


def test_a_backoff_limit_exceeded_by_failures_the_cut_off_left_unrecorded_is_justified() -> None:
    """Three failures against backoffLimit 2 fail the Job (syncJob counts every failed pod it
    sees) while MaxUncountedPods 2 lets the sync record two of them: backoff-limit-exceeded-justified
    counts what the sync counted (found by the Hypothesis machine with small caps)."""
    cfg = attrs.evolve(config(job_manifest(3, 3, 2), failures=3, symmetry=False), tunables=JobControllerTunables(max_uncounted_pods=2))
    moves = [Move("sync"), *(Move(kind, f"j-{i}") for i in range(3) for kind in ("start", "fail")), Move("sync")]
    records = run_moves(cfg.system(), moves)
    job = records[-1].world.job()
    assert job is not None and job.status.failed == 2 and any(c.type == "FailureTarget" for c in job.status.conditions)
    assert [v for r in records for v in r.violations] == []
