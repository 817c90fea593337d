"""The encoding is the model's, for Indexed Jobs: every move the executable environment makes is a
move of jobmodel/checkers/proofs/indexed_relation.py at every index of the Job, and a broken
encoding is caught."""

from __future__ import annotations

from collections import Counter

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from jobmodel.checkers.proofs import abstraction as ab
from jobmodel.checkers.proofs import indexed_relation as ir
from jobmodel.checkers.proofs import job_relation as jr
from jobmodel.checkers.proofs.symbolic import Record, check_at
from jobmodel.invariants import catalogue
from jobmodel.invariants.catalogue import Transition  # a step of the Job's environment
from jobmodel.transitions import indexes as ix
from jobmodel.transitions import job_environment as env
from jobmodel.transitions.move import Move
from jobmodel.transitions.pod_utils import has_job_tracking_finalizer
from tests.checkers.proofs.walks import (
    LATER_WALK_RELEASES,
    NEWEST,
    PER_INDEX_POLICY,
    POLICY_CASES,
    JobSetting,
    early_success_run,
    indexed_restarting_runs,
    indexed_settings,
    modelled_kinds,
    per_index_failure_run,
    relation_moves_at,
    release_gates,
    restart_syncs,
    run_of,
    seeded_walks,
    unchanged,
    waited_for_the_cache,
    walk,
)

WALK_SEEDS = range(30)
# More for the coverage of every move kind: the rarest (a back-off's timer-fires) needs them.
COVERAGE_SEEDS = range(50)


def assert_admitted_at_every_index(t: Transition) -> None:
    job = t.before.job()
    assert job is not None and job.spec.completions
    for index in range(job.spec.completions):
        ok, message = ab.admits(t.before, t.move, t.after, index=index, calls=ab.SyncCalls.of(t.sync))
        assert ok, f"{t.move} at index {index}: {message}"


def admitted_moves(world: env.World, moves: list[Move]) -> env.World:
    """The world after `moves`, each step admitted by the relation at every index."""
    for t in run_of(world, moves):
        assert_admitted_at_every_index(t)
        world = t.after
    return world


@settings(max_examples=max(5, settings().max_examples // 12))
@given(indexed_settings(), st.lists(st.integers(0, 1 << 16), min_size=1, max_size=10), st.integers(0, 2))
def test_every_move_of_the_model_is_a_move_of_the_relation(setting: JobSetting, picks: list[int], index: int) -> None:
    choices = iter(picks)
    index = min(index, (setting.completions or 1) - 1)
    for t in walk(setting.world(), lambda n: next(choices) % n, len(picks)):
        ok, message = ab.admits(t.before, t.move, t.after, index=index, calls=ab.SyncCalls.of(t.sync))
        assert ok, f"{t.move} at index {index}: {message}"


@pytest.mark.parametrize("run", range(len(indexed_restarting_runs())))
def test_container_restarts_reaching_the_backoff_limit_fail_the_job_at_every_index(run: int) -> None:
    """restartPolicy OnFailure: every move is the relation's at every index, and a sync whose
    running pods restarted backoffLimit times (Job-wide) fails the Job in the model and, at every
    index, in the relation; before it, both may leave it without FailureTarget."""
    backoff_limit, transitions = indexed_restarting_runs()[run]
    for t in transitions:
        assert_admitted_at_every_index(t)
    for t, reached in restart_syncs(transitions, backoff_limit):
        for index in (0, 1):
            for name, step in ab.indexed_steps(t.before, index, t.move).items():
                not_failing = check_at(z3.And(step.guard, z3.Not(z3.Or(step.after.failure_target, step.after.failed_condition))))
                assert not_failing == (z3.unsat if reached else z3.sat), (name, index)


def test_the_walks_cover_every_move_of_the_relation_and_of_the_environment() -> None:
    """Every move kind, every move of the relation, and the ways an Indexed Job fails (with one run
    that removes a failed pod of a running Job: the walks rarely do)."""
    seen: Counter[str] = Counter()
    names: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    garbage = run_of(JobSetting(1, 1, 6, 500, 500, True).world(), [Move(*m.split()) for m in ("sync", "start j-0", "fail j-0", "sync", "pod-gc j-0")])
    # (The seeded walks' OnFailure Jobs seldom run a pod long enough to restart it: focused runs too.)
    restarting = [t for _, run in indexed_restarting_runs() for t in run]
    for t in [*seeded_walks(COVERAGE_SEEDS, 12, indexed=True), *garbage, *restarting]:
        seen[t.move.kind] += 1
        if t.sync is not None and t.sync.status is not None:
            reasons.update(c.reason for c in t.sync.status.conditions)
        job = t.before.job()
        if job is None or catalogue.finished(job):
            continue
        post = ab.indexed_record(t.after, 0)
        admitted = [
            name
            for name, step in ab.indexed_steps(t.before, 0, t.move).items()
            if check_at(z3.And(step.guard, step.after.equals(post))) == z3.sat
        ]
        assert admitted, f"{t.move} at index 0"
        names.update(admitted)
    assert set(seen) == modelled_kinds(), f"not exercised: {modelled_kinds() - set(seen)}"
    moves = relation_moves_at(ir.MOVES)
    assert set(names) == moves, f"relation moves not exercised: {moves - set(names)}"
    assert {"MaxFailedIndexesExceeded", "FailedIndexes", "DeadlineExceeded", "BackoffLimitExceeded"} <= set(reasons), reasons


def test_every_index_of_a_run_is_the_relation_s_index() -> None:
    for t in seeded_walks(range(8), 10, indexed=True):
        assert_admitted_at_every_index(t)


def count_pods_not_indexes(s: Record, prefix: str, controller: jr.Controller = jr.MODEL) -> jr.Step:
    """A broken encoding (tests/checkers/broken/count_duplicate_index.py): status.succeeded grows
    by the succeeded pods a sync sees, not by the indexes they complete."""
    step = ir.sync(s, prefix, "sync")
    counted = s.status_succeeded + s.succeeded + s.succeeded_uf
    broken = z3.If(jr.finished(s), step.after.status_succeeded, counted)
    return jr.Step(step.guard, step.after.replace(status_succeeded=broken), step.choices, step.created, step.deleted)


def test_a_broken_encoding_is_caught_by_the_cross_check() -> None:
    """A succeeded pod keeps its finalizer when its removal is refused; the next sync sees it again
    at an index already completed."""
    world = JobSetting(1, 1, 0, 500, 500, indexed=True).world()
    moves = [Move("sync"), Move("start", "j-0"), Move("succeed", "j-0"), Move("sync-pod-error")]
    for move in moves:
        world, _ = env.apply_move(world, move)
    after, _ = env.apply_move(world, Move("sync"))
    post = ab.indexed_record(after, 0)
    correct = ir.sync(ab.indexed_record(world, 0), "c", "sync")
    broken = count_pods_not_indexes(ab.indexed_record(world, 0), "c")
    assert check_at(z3.And(correct.guard, correct.after.equals(post))) == z3.sat
    assert check_at(z3.And(broken.guard, broken.after.equals(post))) == z3.unsat


@pytest.mark.parametrize("release", LATER_WALK_RELEASES)
def test_every_move_at_a_release_waits_included_is_a_move_of_its_relation(release: str) -> None:
    """As for NonIndexed Jobs: the relation of the release's controller has every move of the walks
    at that release at every index, the consistency store's waits (1.36+) included."""
    gates = release_gates(release)
    controller = jr.Controller.of(gates)
    waits = late = 0
    for t in seeded_walks(WALK_SEEDS, 12, indexed=True, gates=gates):
        job = t.before.job()
        assert job is not None and job.spec.completions
        waits += waited_for_the_cache(t)
        late += env.status_write_lags(t.after) and not env.status_write_lags(t.before)
        for index in range(job.spec.completions):
            ok, message = ab.admits(t.before, t.move, t.after, controller, index=index)
            assert ok, f"{t.move} at index {index}: {message}"
    assert (waits > 0) == controller.waits_for_own_writes, f"{waits} syncs waited for the cache"
    assert (late > 0) == controller.waits_for_own_writes, f"{late} status writes shown late"


def test_the_relation_of_1_32_does_not_wait_for_the_cache() -> None:
    """The relation of 1.32 refuses some of the waits the model makes at 1.37 at some index."""
    waits = refused = 0
    for t in seeded_walks(WALK_SEEDS, 12, indexed=True, gates=NEWEST):
        if not waited_for_the_cache(t):
            continue
        job = t.before.job()
        assert job is not None and job.spec.completions
        waits += 1
        for index in range(job.spec.completions):
            assert unchanged(ab.indexed_record(t.before, index), ab.indexed_record(t.after, index)), t.move
        refused += any(not ab.admits(t.before, t.move, t.after, jr.MODEL, index=i)[0] for i in range(job.spec.completions))
    assert waits > refused > 0



@pytest.mark.parametrize("replace_failed", [True, False])
def test_an_index_whose_pod_is_being_deleted_waits_until_it_failed_with_podreplacementpolicy_failed(replace_failed: bool) -> None:
    """podReplacementPolicy Failed, Indexed: while index 0's pod is being deleted the index is not
    pending (firstPendingIndexes) and the pod is no failure; once it is Failed the index gets a new
    pod. With TerminatingOrFailed it gets one at once. So in the model, and in every move of the
    relation from the same states (index 0 as k)."""
    world = JobSetting(2, 2, 1, 500, 500, True, None, 0.0, replace_failed=replace_failed).world()
    world = admitted_moves(world, [Move("sync"), Move("start", "j-0"), Move("start", "j-1"), Move("delete-pod", "j-0")])
    step = ir.sync(ab.indexed_record(world, 0), "c", "sync")
    assert check_at(z3.And(step.guard, step.choices.k_created)) == (z3.unsat if replace_failed else z3.sat)
    world = admitted_moves(world, [Move("sync"), Move("terminate", "j-0"), Move("sync")] if replace_failed else [Move("sync")])
    assert ab.indexed_state(world, 0)["k_hidden"] + ab.indexed_state(world, 0)["k_active"] == 1


@pytest.mark.parametrize(("failure", "action", "backoff_limit"), POLICY_CASES)
def test_a_failure_matching_the_pod_failure_policy_fails_the_job_or_is_ignored(failure: str, action: str, backoff_limit: int) -> None:
    """podFailurePolicy, Indexed: a failure matching FailJob (within backoffLimit), or one no rule
    matches (past backoffLimit 0), fails the Job at the next sync; an ignored one is not counted and its index gets a
    new pod. So in the model, and in every move of the relation, at every index."""
    world = JobSetting(2, 2, backoff_limit, 500, 500, True, None, 0.0, failure_policy="fail-job-or-ignore").world()
    world = admitted_moves(world, [Move("sync"), Move("start", "j-0"), Move("start", "j-1"), Move("fail", "j-0", failure)])
    state = ab.indexed_state(world, 0)
    assert (state["fail_job"], state["ignored"], state["k_failed"]) == (
        int(action == "fail-job"), int(action == "ignore"), int(action != "ignore")
    )
    step = ir.sync(ab.indexed_record(world, 0), "c", "sync")
    keeps_going = check_at(z3.And(step.guard, z3.Not(step.after.failure_target)))
    assert keeps_going == (z3.sat if action == "ignore" else z3.unsat)
    world = admitted_moves(world, [Move("sync")])
    state, job = ab.indexed_state(world, 0), world.job()
    assert job is not None
    assert state["failure_target"] == (action != "ignore")
    assert job.status.failed == (0 if action == "ignore" else 2)
    assert state["k_hidden"] + state["k_active"] == (1 if action == "ignore" else 0)


@pytest.mark.parametrize("policy", ["index-0", "all-but-one"])
def test_a_job_whose_completed_indexes_meet_its_success_policy_succeeds_early(policy: str) -> None:
    """successPolicy, Indexed (walks.early_success_run): once index 0 completes the next sync finds
    the policy met, deletes the other index's running pod and records SuccessCriteriaMet, releasing
    the pod from its finalizer; once that pod ended, Complete. So in the model, and in every move
    of the relation, at every index; and once the policy is met no sync of the relation creates a
    pod."""
    run = early_success_run(policy)
    for t in run:
        assert_admitted_at_every_index(t)
    state = ab.indexed_state(run[4].after, 1)
    assert (state["policy_met"], state["success_criteria_met"], state["complete"]) == (True, True, False)
    assert (state["released"], state["completed_count"], state["k_completed"]) == (1, 1, False)
    step = ir.sync(ab.indexed_record(run[4].after, 1), "c", "sync")
    assert check_at(z3.And(step.guard, z3.Or(step.created > 0, z3.Not(step.after.policy_met)))) == z3.unsat
    job = run[-1].after.job()
    assert job is not None and ab.indexed_state(run[-1].after, 1)["complete"]
    assert [c.reason for c in job.status.conditions if c.type == "Complete"] == ["SuccessPolicy"]


@pytest.mark.parametrize("limit", [0, 1])
@pytest.mark.parametrize("replace_failed", [True, False])
def test_a_pod_being_deleted_fails_its_index_only_once_failed_with_podreplacementpolicy_failed(replace_failed: bool, limit: int) -> None:
    """backoffLimitPerIndex `limit`: index 0's pod with failure count `limit` (the first, or with
    limit 1 the replacement of a failed one) is deleted. With podReplacementPolicy Failed that pod
    is no failure while it terminates: the next sync neither replaces it nor fails the index; once
    it is Failed, the index fails (FailedIndexes). With TerminatingOrFailed the next sync fails the
    index at once. So in the model, and in every move of the relation, at every index."""
    world = JobSetting(1, 1, 6, 500, 500, True, limit, 0.0, replace_failed=replace_failed).world()
    deleted = f"j-{limit}"
    moves = [Move("sync"), Move("start", "j-0")]
    if limit:
        moves += [Move("fail", "j-0"), Move("sync"), Move("start", deleted)]
    world = admitted_moves(world, [*moves, Move("delete-pod", deleted)])
    step = ir.sync(ab.indexed_record(world, 0), "c", "sync")
    fails_at_once = check_at(z3.And(step.guard, step.clean_sync, z3.Not(step.after.k_failed_index)))
    assert fails_at_once == (z3.sat if replace_failed else z3.unsat)
    if replace_failed:
        assert check_at(z3.And(step.guard, z3.Or(step.after.k_failed_index, step.choices.k_created))) == z3.unsat
        world = admitted_moves(world, [Move("sync"), Move("terminate", deleted)])
        job = world.job()
        assert job is not None and not job.status.failed_indexes and len(world.pods()) == limit + 1
        step = ir.sync(ab.indexed_record(world, 0), "c", "sync")
        assert check_at(z3.And(step.guard, step.clean_sync, z3.Not(step.after.k_failed_index))) == z3.unsat
    world = admitted_moves(world, [Move("sync")])
    job = world.job()
    assert job is not None and job.status.failed_indexes == "0"
    assert [c.reason for c in job.status.conditions if c.type == "FailureTarget"] == ["FailedIndexes"]


@pytest.mark.parametrize(("failure", "fails_index"), [("exit=42@main", True), ("exit=1@main", False)])
def test_a_failure_matching_a_fail_index_rule_fails_its_index_alone(failure: str, fails_index: bool) -> None:
    """podFailurePolicy with backoffLimitPerIndex 1: index 0's first failure, matching the FailIndex
    rule, fails the index at the next sync (FailedIndexes not yet: index 1 runs on), though its
    failure count is below the limit; one that only counts gets a replacement with failure count 1.
    So in the model, and in every move of the relation from the same states, at every index."""
    run = per_index_failure_run(failure)
    for t in run:
        assert_admitted_at_every_index(t)
    state = ab.indexed_state(run[-1].before, 0)
    assert (state["k_fail_index"], state["k_failed"], state["k_failed_high"]) == (fails_index, 1, 0)
    step = ir.sync(ab.indexed_record(run[-1].before, 0), "c", "sync")
    keeps_index = check_at(z3.And(step.guard, step.clean_sync, z3.Not(step.after.k_failed_index)))
    assert keeps_index == (z3.unsat if fails_index else z3.sat)
    assert check_at(z3.And(step.guard, step.choices.k_created)) == (z3.unsat if fails_index else z3.sat)
    world = run[-1].after
    job = world.job()
    assert job is not None and job.status.failed_indexes == ("0" if fails_index else "")
    assert not job.status.conditions
    state = ab.indexed_state(world, 0)
    assert (state["k_failed_index"], state["k_active"], state["k_live_high"]) == (fails_index, 1 - fails_index, 1 - fails_index)


def test_an_ignored_failure_with_backoff_limit_per_index_keeps_its_failure_count() -> None:
    """backoffLimitPerIndex 1: index 0's first pod fails and counts; its replacement (failure count
    1) fails matching the Ignore rule, so the index does not fail though that count is the limit.
    The ignored pod keeps its finalizer until its replacement runs, which carries failure count 1
    again (getNewIndexFailureCounts: one ignored failure); that one's counted failure fails the
    index. So in the model, and in every move of the relation, at every index; and every sync of
    the relation from the ignored failure gives k's new pod count 1 (the first failure's pod is
    gone: the count comes from the ignored one)."""
    world = JobSetting(1, 1, 6, 500, 500, True, 1, 0.0, failure_policy=PER_INDEX_POLICY).world()
    moves = ["sync", "start j-0", "fail j-0 exit=1@main", "sync", "sync", "start j-1", "fail j-1 exit=43@main"]
    world = admitted_moves(world, [Move(*m.split()) for m in moves])
    state = ab.indexed_state(world, 0)
    assert (state["k_ignored"], state["k_ignored_high"], state["k_failed"], state["k_chain"]) == (1, 1, 0, True)
    step = ir.sync(ab.indexed_record(world, 0), "c", "sync")
    assert check_at(z3.And(step.guard, step.clean_sync, step.after.k_failed_index)) == z3.unsat
    assert check_at(z3.And(step.guard, step.choices.k_created)) == z3.sat
    assert check_at(z3.And(step.guard, ir.k_live(step.after) > 0, step.after.k_live_high != 1)) == z3.unsat
    world = admitted_moves(world, [Move("sync")])
    pods = {p.name: p for p in world.pods()}
    assert (ix.index_failure_count(pods["j-2"]), ix.index_ignored_failure_count(pods["j-2"])) == (1, 1)
    assert has_job_tracking_finalizer(pods["j-1"])
    world = admitted_moves(world, [Move("sync"), Move("start", "j-2")])
    assert not has_job_tracking_finalizer({p.name: p for p in world.pods()}["j-1"])
    world = admitted_moves(world, [Move("fail", "j-2", "exit=1@main"), Move("sync")])
    job = world.job()
    assert job is not None and (job.status.failed_indexes, job.status.failed) == ("0", 2)


def test_an_index_running_two_pods_of_different_failure_counts_keeps_the_other_s_count() -> None:
    """backoffLimitPerIndex 3 and a stale cache: index 0's second pod (failure count 1) is hidden
    when the expectations expire, so the index gets another (count 1), which fails and is replaced
    (count 2). Once the cache shows both running, the count-2 pod fails: the index's running pod
    carries count 1, and the next replacement count 2 (one more than the failed pod it replaces,
    the only one holding the finalizer). So in the model, and in every move of the relation, at
    every index (the relation once kept the failed pod's count as a running one's)."""
    world = JobSetting(1, 1, 6, 500, 500, True, 3, 0.0).world()
    moves = ["sync", "start j-0", "fail j-0", "sync-stale", "expire-expectations", "sync", "start j-2", "fail j-2", "sync"]
    world = admitted_moves(world, [Move(*m.split()) for m in [*moves, "cache-catch-up", "start j-3"]])
    state = ab.indexed_state(world, 0)
    assert (state["k_active"], state["k_live_low"], state["k_live_high"]) == (2, 1, 2)
    world = admitted_moves(world, [Move("fail", "j-3")])
    state = ab.indexed_state(world, 0)
    assert (state["k_active"], state["k_live_low"], state["k_live_high"], state["k_failed_high"]) == (1, 1, 1, 2)
    world = admitted_moves(world, [Move("sync"), Move("start", "j-1"), Move("fail", "j-1"), Move("sync")])
    assert (ab.indexed_state(world, 0)["k_live_high"], ab.indexed_state(world, 0)["k_failed_high"]) == (2, 1)
