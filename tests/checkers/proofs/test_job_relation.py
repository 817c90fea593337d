"""The encoding is the model's: every move the executable environment makes (the model's
`sync_job` included) is a move of jobmodel/checkers/proofs/job_relation.py, evaluated at the
abstraction of the same worlds; where the model is deterministic, so is the relation; and a
broken encoding is caught."""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs
import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from jobmodel.actions import Requeue
from jobmodel.checkers.proofs import abstraction as ab
from jobmodel.checkers.proofs import job_relation as jr
from jobmodel.checkers.proofs.symbolic import Record, check_at
from jobmodel.invariants import catalogue
from jobmodel.invariants.catalogue import Transition  # a step of the Job's environment
from jobmodel.state import Job
from jobmodel.transitions import job_environment as env
from jobmodel.transitions.move import Move
from jobmodel.transitions.sync_job import past_active_deadline
from tests.checkers.proofs.walks import (
    LATER_WALK_RELEASES,
    NEWEST,
    POLICY_CASES,
    WALK_RELEASES,
    JobSetting,
    job_settings,
    modelled_kinds,
    relation_moves_at,
    release_gates,
    restart_syncs,
    restarting_runs,
    seeded_walks,
    unchanged,
    waited_for_the_cache,
    walk,
)

WALK_SEEDS = range(40)
# More for the coverage of every move kind: the rarest (a back-off's timer-fires) needs them.
COVERAGE_SEEDS = range(50)
# The releases whose consistency store makes a sync wait for the controller's own writes (1.36+).
WAITING_RELEASES = [r for r in WALK_RELEASES if jr.Controller.of(release_gates(r)).waits_for_own_writes]


def assert_admitted(t: Transition) -> None:
    """The relation has the step, with the pods its sync created and deleted and the statuses it wrote."""
    ok, message = ab.admits(t.before, t.move, t.after, calls=ab.SyncCalls.of(t.sync))
    assert ok, f"{t.move}: {message}"


@settings(max_examples=max(10, settings().max_examples // 5))
@given(job_settings(), st.lists(st.integers(0, 1 << 16), min_size=1, max_size=12))
def test_every_move_of_the_model_is_a_move_of_the_relation(setting: JobSetting, picks: list[int]) -> None:
    choices = iter(picks)
    for t in walk(setting.world(), lambda n: next(choices) % n, len(picks)):
        assert_admitted(t)


def test_the_walks_cover_every_move_of_the_relation_and_of_the_environment() -> None:
    """Every move kind, every move of the relation, and the outcomes of the spec the relations
    read: suspended Jobs, resumed ones, Jobs past their active deadline, and a podFailurePolicy's
    ignored failures and FailJob ones, which fail the Job."""
    seen: Counter[str] = Counter()
    names: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    counts: set[str] = set()
    # The seeded walks' OnFailure Jobs seldom run a pod long enough to restart it: focused runs too.
    for t in [*seeded_walks(COVERAGE_SEEDS, 14), *(t for _, run in restarting_runs() for t in run)]:
        assert_admitted(t)
        seen[t.move.kind] += 1
        counts.update(name for name in jr.POD_FIELDS if ab.job_state(t.after)[name])
        if t.sync is not None and t.sync.status is not None:
            reasons.update(c.reason for c in t.sync.status.conditions)
        job = t.before.job()
        if job is None or catalogue.finished(job):
            continue
        post = ab.job_record(t.after)
        for name, step in ab.job_steps(t.before, t.move).items():
            if check_at(z3.And(step.guard, step.after.equals(post))) == z3.sat:
                names[name] += 1
    assert set(seen) == modelled_kinds(), f"not exercised: {modelled_kinds() - set(seen)}"
    moves = relation_moves_at(jr.MOVES)
    assert set(names) == moves, f"relation moves not exercised: {moves - set(names)}"
    assert {"JobSuspended", "JobResumed", "DeadlineExceeded", "PodFailurePolicy"} <= set(reasons), reasons
    assert {"ignored", "fail_job"} <= counts, counts


@pytest.mark.parametrize("run", range(len(restarting_runs())))
def test_container_restarts_reaching_the_backoff_limit_fail_the_job_in_the_relation_as_in_the_model(run: int) -> None:
    """restartPolicy OnFailure: every move of the run is the relation's, and a sync whose running
    pods restarted backoffLimit times fails the Job (pastBackoffLimitOnFailure): in the model, and
    in the relation, where no sync move from that state leaves it without FailureTarget; before
    it, both may (the restarts of a pod that ended not counted)."""
    backoff_limit, transitions = restarting_runs()[run]
    for t in transitions:
        assert_admitted(t)
    for t, reached in restart_syncs(transitions, backoff_limit):
        for name, step in ab.job_steps(t.before, t.move).items():
            not_failing = check_at(z3.And(step.guard, z3.Not(z3.Or(step.after.failure_target, step.after.failed_condition))))
            assert not_failing == (z3.unsat if reached else z3.sat), name


@pytest.mark.parametrize("release", LATER_WALK_RELEASES)
def test_every_move_at_a_release_waits_included_is_a_move_of_its_relation(release: str) -> None:
    """The relation of the release's controller has every move of the walks at that release, the
    consistency store's waits (1.36+) included: a sync that returns at once because its own pod
    creations or status write are not in the cache yet (and from 1.36 the syncs whose status write
    the cache shows late). Before 1.36 no sync waits. (1.32's walks: the coverage test.)"""
    gates = release_gates(release)
    controller = jr.Controller.of(gates)
    waits = status_waits = late = 0
    for t in seeded_walks(WALK_SEEDS, 14, gates=gates):
        ok, message = ab.admits(t.before, t.move, t.after, controller)
        assert ok, f"{t.move}: {message}"
        waits += waited_for_the_cache(t)
        status_waits += waited_for_the_cache(t) and env.status_write_lags(t.before)
        late += env.status_write_lags(t.after) and not env.status_write_lags(t.before)
    assert (waits > 0) == controller.waits_for_own_writes, f"{waits} syncs waited for the cache"
    assert (status_waits > 0 and late > 0) == controller.waits_for_own_writes, (status_waits, late)


@pytest.mark.parametrize("release", WAITING_RELEASES)
def test_a_sync_waits_exactly_while_a_write_is_hidden(release: str) -> None:
    """The model's syncs wait exactly when the abstraction has hidden pods or a hidden status write, and then every sync
    move of the release's relation leaves the state as it was: the wait is encoded exactly, not
    only allowed."""
    gates = release_gates(release)
    controller = jr.Controller.of(gates)
    checked = 0
    for t in seeded_walks(WALK_SEEDS, 14, gates=gates):
        if t.move.kind not in jr.SYNC_KINDS or t.sync is None:
            continue
        pre = ab.job_record(t.before)
        state = ab.job_state(t.before)
        hidden = int(state["hidden"]) > 0 or bool(state["status_hidden"])
        assert waited_for_the_cache(t) == hidden, t.move
        if not hidden:
            continue
        for name in jr.MOVE_OF[t.move.kind]:
            step = jr.MOVES[name](pre, "c", controller)
            assert check_at(z3.And(step.guard, z3.Not(step.after.equals(pre)))) == z3.unsat, (t.move, name)
        checked += 1
    assert checked > 0


def test_the_relation_of_1_32_does_not_wait_for_the_cache() -> None:
    """The consistency store is 1.36+: the relation of 1.32 refuses some of the waits the model
    makes at 1.37 (a sync of 1.32 over a stale cache acts)."""
    waits = refused = 0
    for t in seeded_walks(WALK_SEEDS, 14, gates=NEWEST):
        if not waited_for_the_cache(t):
            continue
        waits += 1
        assert unchanged(ab.job_record(t.before), ab.job_record(t.after)), t.move
        refused += not ab.admits(t.before, t.move, t.after, jr.MODEL)[0]
    assert waits > refused > 0


def steps_differ(relation: Any, move: str) -> Any:
    """A state of the relation's domain where its sync `move` differs between the controller that
    reports 0 active pods while the back-off defers creations (up to 1.35) and the one that reports
    the running pods (1.36+)."""
    s = relation.symbols("s")
    old, new = relation.sync(s, "c", move), relation.sync(s, "c", move, jr.Controller(backoff_keeps_active=True))
    return z3.And(relation.domain(s), z3.Or(old.guard != new.guard, z3.And(old.guard, z3.Not(old.after.equals(new.after)))))


def test_the_active_count_while_backing_off_is_not_observed() -> None:
    """1.36 keeps `active` during the pod-recreation back-off: no sync of either relation changes
    (the count is only read by the completion check, which cannot hold while pods are still wanted),
    so the proofs hold for both."""
    from jobmodel.checkers.proofs import indexed_relation as ir

    for relation in (jr, ir):
        s = relation.symbols("s")
        step = relation.sync(s, "c", "sync")
        waiting = z3.And(relation.domain(s), step.guard, step.choices.backoff, s.active > 0, s.active < s.parallelism)
        assert check_at(waiting) == z3.sat, f"{relation.__name__}: no sync waits for the back-off with pods running"
        for move in jr.SYNC_MOVES:
            assert check_at(steps_differ(relation, move), timeout_ms=60_000) == z3.unsat, (relation.__name__, move)


def _same_except_unobserved(after: Record, post: Record) -> Any:
    """Equal counts; the deletion expectations only by sign (their exact value is a choice)."""
    terms = [getattr(after, n) == getattr(post, n) for n, _ in jr.STATE if n != "expect_delete"]
    return z3.And(*terms, (after.expect_delete <= 0) == (post.expect_delete <= 0))


@pytest.mark.parametrize("release", WALK_RELEASES)
def test_a_sync_is_a_function_of_the_state_where_the_model_is_one(release: str) -> None:
    """With the back-off as the model had it, no MaxUncountedPods cut-off and as many released pods
    running on as the model has (which of the pods it releases are already on a node, which the
    relation does not count), every choice of the relation gives the model's result: the relation
    computes the sync, it does not just allow it. From 1.36 too, the consistency store's waits included."""
    gates = release_gates(release)
    checked = 0
    controller = jr.Controller.of(gates)
    for t in seeded_walks(WALK_SEEDS, 14, gates=gates):
        if t.move.kind not in jr.SYNC_KINDS or t.sync is None:
            continue
        if t.move.kind in ("sync-status-error", "sync-stale-status"):
            continue  # which untracked status field changed decides whether the first write fails, or whether a write lags
        pre = ab.job_record(t.before)
        if len(t.before.pods()) >= int(ab.job_state(t.before)["max_uncounted"]):
            continue
        if ab.job_state(t.before)["spec_lags"]:
            continue  # its status writes conflict: as for sync-status-error
        step = jr.sync(pre, "c", t.move.kind, controller)
        post = ab.job_record(t.after)
        solver = z3.Solver()
        solver.add(step.guard, step.choices.backoff == backed_off(t), z3.Not(step.choices.reached_max_uncounted))
        solver.add(step.choices.past_deadline == past_deadline_in_sync(t.before))
        solver.add(step.after.released == post.released)
        solver.add(z3.Not(_same_except_unobserved(step.after, post)))
        assert solver.check() == z3.unsat, f"{t.move}: the relation also allows {solver.model()}"
        checked += 1
    assert checked > 100


def job_in_sync(world: env.World) -> Job:
    """The Job a sync from `world` reads (the cache's), its startTime set when unset and not suspended."""
    job = world.job_shown or world.job()
    assert job is not None
    if job.status.start_time is None and not job.spec.suspend:
        job = attrs.evolve(job, status=attrs.evolve(job.status, start_time=world.cluster.now))
    return job


def past_deadline_in_sync(world: env.World) -> bool:
    """Whether a sync from `world` finds the Job past its active deadline (the relation's choice)."""
    return past_active_deadline(job_in_sync(world), world.cluster.now)


def backed_off(t: Transition) -> bool:
    """The sync waited for the pod-recreation back-off: it asked to be requeued other than at the
    active deadline (which a running Job with one always asks for)."""
    assert t.sync is not None
    job, now = job_in_sync(t.before), t.before.cluster.now
    ads, start = job.spec.active_deadline_seconds, job.status.start_time
    at_deadline = ads - (now - start).total_seconds() if ads is not None and start is not None else None
    return any(isinstance(a, Requeue) and a.after_seconds != at_deadline for a in t.sync.actions)


def test_worlds_outside_the_abstraction_are_refused() -> None:
    setting = JobSetting(1, 1, 0, 500, 500)
    world = setting.world()
    job = world.job()
    assert job is not None
    import attrs

    indexed = attrs.evolve(job, spec=attrs.evolve(job.spec, completion_mode="Indexed"))
    cluster = attrs.evolve(world.cluster, jobs=(indexed,))
    with pytest.raises(ab.OutsideAbstraction, match="Indexed"):
        ab.job_state(attrs.evolve(world, cluster=cluster))
    with pytest.raises(ab.OutsideAbstraction, match="an edit of completions"):
        ab.relation_moves(Move("edit", arg="completions=2"))
    with pytest.raises(ab.OutsideAbstraction, match="an edit of completions"):
        ab.relation_moves(Move("edit-stale", arg="completions=2"))
    older = attrs.evolve(job, status=attrs.evolve(job.status, active=1))  # before a status write (1.32: not waited for)
    with pytest.raises(ab.OutsideAbstraction, match="status write not yet observed"):
        ab.job_state(attrs.evolve(world, job_shown=older))
    with pytest.raises(ab.OutsideAbstraction, match="status write not yet observed"):
        ab.indexed_state(attrs.evolve(world, cluster=cluster, job_shown=attrs.evolve(indexed, status=older.status)), 0)
    with pytest.raises(ab.OutsideAbstraction, match="spec field the relations do not model"):
        ab.job_state(attrs.evolve(world, job_shown=attrs.evolve(job, spec=attrs.evolve(job.spec, backoff_limit=3))))
    assert ab.job_state(attrs.evolve(world, job_shown=job))["spec_lags"]  # an edit back to the spec shown


def one_more_pod(s: Record, prefix: str, controller: jr.Controller = jr.MODEL) -> jr.Step:
    """A broken encoding: a sync that creates one pod more than manageJob does."""
    step = jr.sync(s, prefix, "sync")
    extra = z3.If(step.created > 0, 1, 0)
    return jr.Step(step.guard, step.after.replace(active=step.after.active + extra), step.choices, step.created + extra)


def test_a_broken_encoding_is_caught_by_the_cross_check() -> None:
    mismatches = 0
    for t in seeded_walks(WALK_SEEDS, 14):
        if t.move.kind != "sync" or t.sync is None:
            continue
        step = one_more_pod(ab.job_record(t.before), "c")
        solver = z3.Solver()
        solver.add(step.guard, step.after.equals(ab.job_record(t.after)))
        if solver.check() == z3.unsat:
            mismatches += 1
    assert mismatches > 0


def test_a_sync_s_step_counts_its_calls() -> None:
    """The claims that read a step's pods created and deleted and the UIDs its status writes list
    (the caps' proofs) read what the model's sync did: its step lands on the world after it with
    those counts (assert_admitted), and with one pod more created or deleted, or a written list
    longer than the step allows, it does not."""
    refused: Counter[str] = Counter()
    for t in seeded_walks(range(20), 14):
        calls = ab.SyncCalls.of(t.sync)
        if calls is None:
            continue
        wrong = {
            "created": attrs.evolve(calls, created=calls.created + 1),
            "deleted": attrs.evolve(calls, deleted=calls.deleted + 1),
            "listed": attrs.evolve(calls, listed=calls.listed + t.before.cluster.tunables.max_uncounted_pods + 1),
        }
        for field, other in wrong.items():
            if getattr(calls, field) > 0:
                assert not ab.admits(t.before, t.move, t.after, calls=other)[0], (t.move, field, calls)
                refused[field] += 1
    assert min(refused[field] for field in ("created", "deleted", "listed")) > 0, refused


def test_a_pod_released_while_it_runs_delays_the_failed_condition_until_it_terminates() -> None:
    """Graceful deletion: a running pod deleted by someone else is counted as failed and released
    (its finalizer removed) while it runs on; the Job stays at FailureTarget, in the model and in
    every move of the relation, until the kubelet ends the pod (enactJobFinished waits for
    terminating pods)."""
    world = JobSetting(1, 1, 0, 500, 500).world()
    moves = [Move("sync"), Move("start", "j-0"), Move("delete-pod", "j-0"), Move("sync"), Move("sync")]
    for move in moves:
        before = world
        world, result = env.apply_move(world, move)
        assert_admitted(Transition(before, move, world, result))
    job = world.job()
    assert job is not None and catalogue.condition_true(job, "FailureTarget")
    assert not catalogue.finished(job)
    assert ab.job_state(world)["released"] == 1
    step = jr.sync(ab.job_record(world), "c", "sync")
    assert check_at(z3.And(step.guard, step.after.failed_condition)) == z3.unsat

    for move in (Move("terminate", "j-0"), Move("sync")):
        before = world
        world, result = env.apply_move(world, move)
        assert_admitted(Transition(before, move, world, result))
    job = world.job()
    assert job is not None and catalogue.condition_true(job, "Failed")
    assert ab.job_state(world)["released"] == 0


def test_a_suspended_jobs_sync_deletes_every_active_pod_past_the_cap_and_resuming_creates_again() -> None:
    """manageJob of a suspended Job deletes every active pod, not MaxPodCreateDeletePerSync of
    them: in the model, and in every move of the relation from the same state; resumed, the Job
    gets its pods again, the cap's worth a sync."""
    world = JobSetting(3, None, 0, 1, 500, suspend_edits=("suspend=true", "suspend=false")).world()
    moves = [Move("sync"), Move("sync"), Move("sync"), Move("edit", arg="suspend=true")]
    for move in moves:
        before = world
        world, result = env.apply_move(world, move)
        assert_admitted(Transition(before, move, world, result))
    state = ab.job_state(world)
    assert state["active"] == 3 and state["suspended"] and state["max_create_delete"] == 1
    step = jr.sync(ab.job_record(world), "c", "sync")
    assert check_at(z3.And(step.guard, step.after.active != 0)) == z3.unsat

    before = world
    world, result = env.apply_move(world, Move("sync"))
    assert_admitted(Transition(before, Move("sync"), world, result))
    assert ab.job_state(world)["active"] == 0
    assert sum(1 for p in world.pods() if p.metadata.deletion_timestamp is None and p.phase == "Pending") == 0

    for move in (Move("edit", arg="suspend=false"), Move("sync")):
        before = world
        world, result = env.apply_move(world, move)
        assert_admitted(Transition(before, move, world, result))
    assert ab.job_state(world)["active"] == 1


def test_a_sync_over_an_edit_the_cache_has_not_shown_reads_the_older_spec_and_its_status_writes_conflict() -> None:
    """edit-stale: the cache shows the Job before the user raised parallelism, so the sync creates
    no pod (it reads the older spec) and is no clean sync (a status write would conflict), in the
    model and in every move of the relation from the same state; once the cache catches up, the sync creates
    the pods the new parallelism wants."""
    world = JobSetting(1, None, 0, 500, 500, stale_edits=1).world()
    for move in (Move("sync"), Move("start", "j-0"), Move("edit-stale", arg="parallelism=4")):
        before = world
        world, result = env.apply_move(world, move)
        assert_admitted(Transition(before, move, world, result))
    state = ab.job_state(world)
    assert state["spec_lags"] and state["shown_parallelism"] == 1 and state["parallelism"] == 4
    step = jr.sync(ab.job_record(world), "c", "sync")
    assert check_at(z3.And(step.guard, step.created > 0)) == z3.unsat
    assert check_at(z3.And(step.guard, step.clean_sync)) == z3.unsat

    before = world
    world, result = env.apply_move(world, Move("sync"))
    assert_admitted(Transition(before, Move("sync"), world, result))
    assert ab.job_state(world)["active"] + ab.job_state(world)["hidden"] == 1

    for move in (Move("cache-catch-up"), Move("sync")):
        before = world
        world, result = env.apply_move(world, move)
        assert_admitted(Transition(before, move, world, result))
    state = ab.job_state(world)
    assert not state["spec_lags"] and state["active"] + state["hidden"] == 4


@pytest.mark.parametrize("replace_failed", [True, False])
def test_a_pod_being_deleted_is_replaced_only_once_failed_with_podreplacementpolicy_failed(replace_failed: bool) -> None:
    """podReplacementPolicy Failed: a running pod someone deletes is no failure while it
    terminates, and the sync creates no replacement for it (onlyReplaceFailedPods); with
    TerminatingOrFailed it counts as failed and is replaced at once. So in the model, and in every
    move of the relation from the same state."""
    world = JobSetting(2, None, 1, 500, 500, backoff_seconds=0.0, replace_failed=replace_failed).world()
    for move in (Move("sync"), Move("start", "j-0"), Move("start", "j-1"), Move("delete-pod", "j-0")):
        before = world
        world, result = env.apply_move(world, move)
        assert_admitted(Transition(before, move, world, result))
    step = jr.sync(ab.job_record(world), "c", "sync")
    creates = check_at(z3.And(step.guard, step.created > 0))
    counts_it = check_at(z3.And(step.guard, jr.failed_so_far(step.after) == 1))
    assert (creates, counts_it) == ((z3.unsat, z3.unsat) if replace_failed else (z3.sat, z3.sat))
    before = world
    world, result = env.apply_move(world, Move("sync"))
    assert_admitted(Transition(before, Move("sync"), world, result))
    state = ab.job_state(world)
    assert state["active"] + state["hidden"] == (1 if replace_failed else 2)


@pytest.mark.parametrize(("failure", "action", "backoff_limit"), POLICY_CASES)
def test_a_failure_matching_the_pod_failure_policy_fails_the_job_or_is_ignored(failure: str, action: str, backoff_limit: int) -> None:
    """podFailurePolicy: a failure matching FailJob makes the next sync set FailureTarget (within
    backoffLimit) and delete the other pod (counted as failed too); one matching Ignore is not
    counted and is replaced; one no rule matches counts, past backoffLimit 0. So in the model, and in
    every move of the relation from the same states."""
    world = JobSetting(2, None, backoff_limit, 500, 500, backoff_seconds=0.0, failure_policy="fail-job-or-ignore").world()
    for move in (Move("sync"), Move("start", "j-0"), Move("start", "j-1"), Move("fail", "j-0", failure), Move("sync")):
        before = world
        world, result = env.apply_move(world, move)
        assert_admitted(Transition(before, move, world, result))
        if move.kind == "fail":
            state = ab.job_state(world)
            assert (state["fail_job"], state["ignored"], state["failed"]) == (
                int(action == "fail-job"), int(action == "ignore"), int(action != "ignore")
            )
            step = jr.sync(ab.job_record(world), "c", "sync")
            keeps_going = check_at(z3.And(step.guard, z3.Not(step.after.failure_target)))
            assert keeps_going == (z3.sat if action == "ignore" else z3.unsat)
    state, job = ab.job_state(world), world.job()
    assert job is not None
    assert state["failure_target"] == (action != "ignore")
    assert job.status.failed == (0 if action == "ignore" else 2)
    assert state["active"] + state["hidden"] == (2 if action == "ignore" else 0)
