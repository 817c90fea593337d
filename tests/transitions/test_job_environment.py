"""The environment's moves: guards (`enabled_moves`) and effects (`apply_move`), each a pure
function on the whole cluster; the informer lag and the expectations that cover it."""

from __future__ import annotations

from datetime import UTC, datetime

import attrs
import pytest

from jobmodel.actions import DeletePod
from jobmodel.errors import InputError
from jobmodel.features import DEFAULT_GATES, FeatureGates
from jobmodel.state import COMPLETE, FAILED, RUNNING, SUCCEEDED, JobCondition
from jobmodel.transitions import cluster as cl
from jobmodel.transitions import job_environment as env
from jobmodel.transitions.job_environment import Budget
from jobmodel.transitions.move import Move, respent
from jobmodel.transitions.pod_utils import is_pod_ready
from jobmodel.transitions.sync_job import is_job_finished

NOW = datetime(2025, 1, 1, tzinfo=UTC)


def manifest(parallelism: int = 2, completions: int = 2, restart_policy: str = "Never", **spec: object) -> dict[str, object]:
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "j", "namespace": "default"},
        "spec": {
            "parallelism": parallelism,
            "completions": completions,
            "backoffLimit": 1,
            "template": {"spec": {"restartPolicy": restart_policy, "containers": [{"name": "main", "image": "busybox"}]}},
            **spec,
        },
    }


def world(budget: Budget | None = None, **spec: object) -> env.World:
    return env.initial_world(manifest(**spec), budget or Budget(), now=NOW)  # type: ignore[arg-type]


def apply(w: env.World, *moves: Move) -> env.World:
    for move in moves:
        assert move in env.enabled_moves(w), f"{move} not enabled"
        w, _ = env.apply_move(w, move)
    return w


def kinds(w: env.World) -> set[str]:
    return {m.kind for m in env.enabled_moves(w)}


def test_a_new_job_can_only_be_synced_and_hostile_moves_need_a_budget() -> None:
    assert kinds(world()) == {"sync"}
    assert kinds(world(Budget(stale=1, faults=1, restarts=1, job_deletions=1, edits=("suspend=true",)))) == {
        "sync", "sync-stale", "sync-pod-error", "sync-status-error", "restart", "edit", "delete-job"
    }


def test_pods_start_become_ready_and_succeed() -> None:
    w = apply(world(), Move("sync"))
    assert [p.name for p in w.pods()] == ["j-0", "j-1"]
    assert {str(m) for m in env.enabled_moves(w)} >= {"start j-0", "start j-1"}
    w = apply(w, Move("start", "j-0"), Move("ready", "j-0"))
    pod = w.pods()[0]
    assert pod.phase == RUNNING and is_pod_ready(pod)
    assert "ready j-0" not in {str(m) for m in env.enabled_moves(w)}
    w = apply(w, Move("succeed", "j-0"))
    pod = w.pods()[0]
    assert pod.phase == SUCCEEDED and not is_pod_ready(pod)
    assert pod.status.container_statuses[0].terminated is not None
    assert not [m for m in env.enabled_moves(w) if m.pod == "j-0"]


def test_failures_evictions_and_deletions_spend_their_budget() -> None:
    w = apply(world(Budget(failures=1, evictions=1, deletions=1)), Move("sync"), Move("start", "j-0"), Move("start", "j-1"))
    w = apply(w, Move("fail", "j-0"))
    assert w.pods()[0].phase == FAILED and w.budget.failures == 0
    assert "fail" not in kinds(w)
    w = apply(w, Move("evict", "j-1"))
    evicted = w.pods()[1]
    assert any(c.type == "DisruptionTarget" for c in evicted.status.conditions)
    assert w.budget.evictions == 0 and w.budget.deletions == 1


def test_a_deleted_pod_waits_for_its_tracking_finalizer() -> None:
    w = apply(world(Budget(deletions=1)), Move("sync"), Move("delete-pod", "j-0"))
    pod = w.pods()[0]
    assert pod.metadata.deletion_timestamp is not None and w.budget.deletions == 0
    w = apply(w, Move("sync"))
    assert "j-0" not in [p.name for p in w.pods()]


def test_a_stale_sync_hides_its_pods_and_keeps_the_expectations_open() -> None:
    w = apply(world(Budget(stale=1)), Move("sync-stale"))
    assert w.hidden == {"j-0", "j-1"} and w.budget.stale == 0
    exp = w.cluster.controller_state(w.job_key).expectations
    assert exp is not None and exp.add == 2
    assert env.lag_covered(w)
    # The controller waits for its expectations: no second set of pods.
    w = apply(w, Move("sync"))
    assert len(w.pods()) == 2
    w = apply(w, Move("cache-catch-up"))
    exp = w.cluster.controller_state(w.job_key).expectations
    assert not w.hidden and exp is not None and exp.fulfilled()


def test_expectations_expire_after_five_minutes_and_a_restart_ends_the_lag() -> None:
    w = apply(world(Budget(stale=1, expiries=1, restarts=1)), Move("sync-stale"))
    assert "expire-expectations" in kinds(w)
    w = apply(w, Move("expire-expectations"))
    assert (w.cluster.now - NOW).total_seconds() > 300
    assert env.expectations_expired(w) and not env.lag_covered(w)
    w = apply(w, Move("restart"))
    assert not w.hidden and w.cluster.controller_state(w.job_key).expectations is None


def _removal_lagging(release: int, budget: Budget | None = None) -> env.World:
    """j-1 succeeded; a sync counted it and removed its tracking finalizer, which the cache shows
    late: the cache still shows j-1 with the finalizer, the controller awaits the removal."""
    budget = budget or Budget(stale_patches=1)
    w = env.initial_world(manifest(completions=3), budget, now=NOW, features=FeatureGates.for_release(release))
    return apply(w, Move("sync"), Move("start", "j-1"), Move("succeed", "j-1"), Move("sync-stale-patches"))


def test_a_sync_whose_finalizer_removals_lag_leaves_them_awaited() -> None:
    w = _removal_lagging(37)
    api = {p.name: p for p in w.pods()}
    shown = {p.name: p for p in w.visible_pods()}
    assert [p.name for p in w.lagging] == ["j-1"] and w.budget.stale_patches == 0
    assert not api["j-1"].metadata.finalizers and shown["j-1"].metadata.finalizers
    state = w.cluster.controller_state(w.job_key)
    assert state.expected_finalizer_removals == {api["j-1"].uid}
    job = w.job()
    assert job is not None and job.status.succeeded == 1
    # The delivery observes the removal (updatePod -> finalizerRemovalObserved).
    w = apply(w, Move("cache-catch-up"))
    assert not w.lagging and not w.cluster.controller_state(w.job_key).expected_finalizer_removals
    assert w.visible_pods() == w.own_pods()


def test_a_sync_awaiting_a_removal_does_not_count_the_pod_again() -> None:
    # Up to 1.35 the cache's j-1 (finalizer shown) is skipped as processed (getValidPodsWithFilter);
    # from 1.36 the sync waits for the pod informer altogether (the consistency store).
    for release, waits in ((32, False), (35, False), (36, True), (37, True)):
        w = _removal_lagging(release)
        pods = len(w.pods())
        after, result = env.apply_move(w, Move("sync"))
        assert result is not None
        job = after.job()
        assert job is not None and job.status.succeeded == 1, release
        assert len(after.pods()) == pods, release
        assert (result.error is not None and "read version" in result.error) == waits, release


def test_a_later_write_of_a_lagging_pod_is_delivered_after_the_removal() -> None:
    # The informer delivers a pod's writes in order: the garbage collector's removal of j-1 comes
    # with the lagging finalizer removal before it.
    w = _removal_lagging(35, Budget(stale_patches=1, gc=1))
    assert "pod-gc j-1" in {str(m) for m in env.enabled_moves(w)}
    w = apply(w, Move("pod-gc", "j-1"))
    assert not w.lagging and "j-1" not in {p.name for p in w.visible_pods()}
    assert not w.cluster.controller_state(w.job_key).expected_finalizer_removals


def _status_lagging(release: int, budget: Budget | None = None, completions: int = 3) -> env.World:
    """j-1 succeeded; a sync counted it in the status and removed its finalizer, and the Job
    informer delivers that status late: the cache shows the Job as it was."""
    budget = budget or Budget(stale_status=1)
    w = env.initial_world(manifest(completions=completions), budget, now=NOW, features=FeatureGates.for_release(release))
    return apply(w, Move("sync"), Move("start", "j-1"), Move("succeed", "j-1"), Move("sync-stale-status"))


def test_a_sync_whose_status_write_lags_leaves_the_cache_showing_the_job_as_it_was() -> None:
    w = _status_lagging(37)
    job, shown = w.job(), w.job_shown
    assert job is not None and shown is not None and w.budget.stale_status == 0
    assert job.status.succeeded == 1 and shown.status.succeeded == 0 and shown.uid == job.uid
    assert "sync-stale-status" not in kinds(w) and "cache-catch-up" in kinds(w)
    w = apply(w, Move("cache-catch-up"))
    assert w.job_shown is None


def test_a_sync_over_the_older_job_waits_from_1_36_and_else_replaces_the_success() -> None:
    # Up to 1.35 j-1 has no finalizer and the cached status does not count it: the sync creates a
    # pod in its place (one success of two counted: parallelism 2, one active) and its status
    # write conflicts; from 1.36 the consistency store holds the sync until the Job informer has
    # the controller's write.
    for release, waits in ((32, False), (35, False), (36, True), (37, True)):
        w = _status_lagging(release, completions=2)
        after, result = env.apply_move(w, Move("sync"))
        assert result is not None
        assert len(after.pods()) == len(w.pods()) + (0 if waits else 1), release
        assert after.job() == w.job(), release  # no status write of it was accepted
        if waits:
            assert result.error is not None and "read version" in result.error, release


def test_a_user_edit_or_deletion_is_delivered_after_the_lagging_status() -> None:
    w = _status_lagging(35, Budget(stale_status=1, job_deletions=1, edits=("parallelism=1",)))
    edited = apply(w, Move("edit", arg="parallelism=1"))
    job = edited.job()
    assert edited.job_shown is None and job is not None and job.spec.parallelism == 1 and job.status.succeeded == 1
    deleted = apply(w, Move("delete-job"))
    assert deleted.job_shown is None and deleted.job() is None


def test_a_restart_lists_the_job_afresh() -> None:
    w = apply(_status_lagging(35, Budget(stale_status=1, restarts=1)), Move("restart"))
    assert w.job_shown is None


def test_the_orphan_worker_reads_the_job_its_cache_shows() -> None:
    # The finishing status reaches the API; until the Job informer delivers it, no pod of the Job
    # is an orphan to the controller (its cache shows the Job running).
    w = env.initial_world(manifest(parallelism=1, completions=1), Budget(stale_status=1), now=NOW)
    w = apply(w, Move("sync"), Move("start", "j-0"))
    job = w.job()
    assert job is not None
    finished = attrs.evolve(job, status=attrs.evolve(job.status, conditions=(*job.status.conditions, _complete())))
    cluster = cl.replace_job(w.cluster, finished)
    lagging = env.with_world(w, cluster=cluster, job_shown=job)
    assert "orphan-cleanup" not in kinds(lagging)
    assert "orphan-cleanup" in kinds(env.with_world(lagging, job_shown=None))


def test_pod_handlers_resolve_the_job_its_cache_shows() -> None:
    # The status write that finished the Job lags: deletePod finds the Job unfinished in the
    # cache (resolveControllerRef reads the Job lister) and observes the removal of j-0 as a
    # deletion; with the cache current it finds the Job finished and observes nothing.
    for release in (35, 37):
        start = env.initial_world(
            manifest(parallelism=1, completions=1), Budget(stale_status=1, gc=1), now=NOW, features=FeatureGates.for_release(release)
        )
        ran = apply(start, Move("sync"), Move("start", "j-0"), Move("succeed", "j-0"))
        deletions = {}
        for sync in ("sync", "sync-stale-status"):
            finished = apply(ran, Move(sync))
            job = finished.job()
            assert job is not None and is_job_finished(job), (release, sync)
            assert (finished.job_shown is not None) == (sync == "sync-stale-status"), (release, sync)
            gone = apply(finished, Move("pod-gc", "j-0"))
            assert gone.job() == job and gone.job_shown == finished.job_shown, (release, sync)
            exp = gone.cluster.controller_state(gone.job_key).expectations
            assert exp is not None, (release, sync)
            deletions[sync] = exp.delete
        assert deletions["sync-stale-status"] == deletions["sync"] - 1, release


def _complete() -> JobCondition:
    return JobCondition(type=COMPLETE, status="True")


def _deletion_lagging(release: int) -> env.World:
    """Two running pods, parallelism cut to 1: a sync deletes one, a deletion the cache shows
    late (the pod as it was, running and not being deleted)."""
    budget = Budget(stale_deletions=1, edits=("parallelism=1",))
    w = env.initial_world(manifest(completions=3), budget, now=NOW, features=FeatureGates.for_release(release))
    w = apply(w, Move("sync"), Move("start", "j-0"), Move("start", "j-1"), Move("edit", arg="parallelism=1"))
    return apply(w, Move("sync-stale-deletions"))


def test_a_sync_whose_deletions_lag_awaits_them_with_the_pods_shown_as_before() -> None:
    for release, waits in ((32, False), (35, False), (36, True), (37, True)):
        w = _deletion_lagging(release)
        assert len(w.lagging) == 1 and w.budget.stale_deletions == 0, release
        (old,) = w.lagging
        api = {p.name: p for p in w.pods()}
        assert api[old.name].metadata.deletion_timestamp is not None and old.metadata.deletion_timestamp is None
        exp = w.cluster.controller_state(w.job_key).expectations
        assert exp is not None and exp.delete == 1, release
        # The next sync deletes nothing more: manageJob waits for the deletion (up to 1.35), or
        # the sync waits for the pod informer (the consistency store, 1.36+).
        _, result = env.apply_move(w, Move("sync"))
        assert result is not None and not any(isinstance(a, DeletePod) for a in result.actions), release
        assert (result.error is not None and "read version" in result.error) == waits, release
        # The delivery observes the deletion (updatePod -> deletePod -> DeletionObserved).
        w = apply(w, Move("cache-catch-up"))
        exp = w.cluster.controller_state(w.job_key).expectations
        assert not w.lagging and exp is not None and exp.fulfilled(), release


def test_a_later_write_of_the_same_sync_to_a_pod_whose_deletion_lags_lags_too() -> None:
    # Past its deadline the Job's pending pod is deleted (deleteActivePods), then counted as
    # failed and its finalizer removed: the informer delivers that removal only after the
    # deletion, so both lag, and the next sync does not count the pod again (up to 1.35; from
    # 1.36 it waits for the cache).
    budget = Budget(stale_deletions=1)
    w = env.initial_world(manifest(1, 1, activeDeadlineSeconds=30), budget, now=NOW, features=FeatureGates.for_release(35))
    w = apply(w, Move("sync"), Move("deadline-passes"), Move("sync-stale-deletions"))
    (old,) = w.lagging
    assert old.metadata.finalizers and old.metadata.deletion_timestamp is None
    assert old.name not in {p.name for p in w.pods()}  # gone: deleted, its finalizer removed
    assert w.cluster.controller_state(w.job_key).expected_finalizer_removals == {old.uid}
    job = w.job()
    assert job is not None and job.status.failed == 1
    w = apply(w, Move("sync"))
    job = w.job()
    assert job is not None and job.status.failed == 1


def test_a_kubelet_write_that_lags_leaves_the_cache_showing_the_pod_as_it_was() -> None:
    w = world(Budget(stale_pod_writes=1))
    w = apply(w, Move("sync"), Move("start", "j-0"))
    assert {"succeed-stale", "start-stale", "ready-stale"} <= kinds(w)
    w = apply(w, Move("succeed-stale", "j-0"))
    assert w.budget.stale_pod_writes == 0 and not {k for k in kinds(w) if k.endswith("-stale") and k != "sync-stale"}
    api, cache = {p.name: p for p in w.pods()}, {p.name: p for p in w.visible_pods()}
    assert api["j-0"].phase == SUCCEEDED and cache["j-0"].phase == RUNNING
    # The sync counts what its cache shows: one pod running, none succeeded.
    w = apply(w, Move("sync"))
    job = w.job()
    assert job is not None and job.status.succeeded == 0 and job.status.active == 2
    w = apply(w, Move("cache-catch-up"), Move("sync"))
    job = w.job()
    assert not w.lagging and job is not None and job.status.succeeded == 1


def test_a_deletion_by_someone_else_seen_late_is_replaced_only_once_seen() -> None:
    w = world(Budget(stale_pod_writes=1, deletions=1))
    w = apply(w, Move("sync"), Move("delete-pod-stale", "j-0"))
    api, cache = {p.name: p for p in w.pods()}, {p.name: p for p in w.visible_pods()}
    assert api["j-0"].metadata.deletion_timestamp is not None and cache["j-0"].metadata.deletion_timestamp is None
    assert w.budget.deletions == 0 and w.budget.stale_pod_writes == 0
    w = apply(w, Move("sync"))
    assert len(w.pods()) == 2  # j-0 still looks active
    job = w.job()
    assert job is not None and job.status.failed == 0
    # Once seen, the pod (unscheduled, being deleted) is counted failed and released; its
    # replacement waits for the back-off.
    w = apply(w, Move("cache-catch-up"), Move("sync"))
    job = w.job()
    assert not w.lagging and job is not None and job.status.failed == 1
    assert [p.name for p in w.pods()] == ["j-1"] and w.wake_at is not None


def test_the_controllers_write_of_a_pod_whose_kubelet_write_lags_is_observed_once_after_it() -> None:
    # The cache shows j-0 running while the kubelet has written it Succeeded; a scale-down deletes
    # it. The informer delivers the deletion after the success: DeletionObserved once, then.
    w = env.initial_world(manifest(2, 3), Budget(stale_pod_writes=1, edits=("parallelism=1",)), now=NOW)
    w = apply(w, Move("sync"), Move("start", "j-0"), Move("start", "j-1"), Move("ready", "j-0"), Move("succeed-stale", "j-1"))
    w = apply(w, Move("edit", arg="parallelism=1"))
    w, result = env.apply_move(w, Move("sync"))
    assert result is not None
    deleted = [a.name for a in result.actions if isinstance(a, DeletePod) and a.accepted]
    assert deleted == ["j-1"]  # of the two the cache shows running, the one not ready
    exp = w.cluster.controller_state(w.job_key).expectations
    assert exp is not None and exp.delete == 1  # not observed yet: the success comes first
    (shown,) = w.lagging
    assert shown.phase == RUNNING and shown.metadata.deletion_timestamp is None
    w = apply(w, Move("cache-catch-up"))
    exp = w.cluster.controller_state(w.job_key).expectations
    assert exp is not None and exp.delete == 0 and exp.fulfilled()


def test_a_restart_ends_the_lag_of_removals_and_a_sync_removing_none_spends_nothing() -> None:
    w = _removal_lagging(35, Budget(stale_patches=2, restarts=1))
    w = apply(w, Move("restart"))
    assert not w.lagging and w.visible_pods() == w.own_pods()
    w = apply(w, Move("sync-stale-patches"))  # nothing to remove: a plain sync
    assert not w.lagging and w.budget.stale_patches == 1
    assert w == apply(apply(_removal_lagging(35, Budget(stale_patches=2, restarts=1)), Move("restart")), Move("sync"))


def test_a_restart_loses_the_controllers_memory_and_nothing_else() -> None:
    # After a failure the controller holds a back-off record and asked to be woken.
    before = apply(world(Budget(failures=1, restarts=1)), Move("sync"), Move("start", "j-0"), Move("fail", "j-0"), Move("sync"))
    assert before.wake_at is not None and before.cluster.controller
    after = apply(before, Move("restart"))
    assert after.wake_at is None and not after.hidden and not after.cluster.controller
    assert after.budget == Budget() and "restart" not in kinds(after)
    assert (after.pods(), after.job(), after.cluster.now) == (before.pods(), before.job(), before.cluster.now)
    assert (after.job_key, after.job_uid) == (before.job_key, before.job_uid)


def test_the_timer_fires_at_the_back_off_the_controller_asked_for() -> None:
    w = apply(world(Budget(failures=1)), Move("sync"), Move("start", "j-0"), Move("fail", "j-0"), Move("sync"))
    assert w.wake_at is not None and "timer-fires" in kinds(w)
    w = apply(w, Move("timer-fires"))
    assert w.cluster.now == w.cluster.now.replace() and (w.cluster.now - NOW).total_seconds() == 10
    assert w.wake_at is None
    w = apply(w, Move("sync"))
    assert len([p for p in w.pods() if p.phase == "Pending"]) == 2


def test_job_edits_go_through_the_api_once_each() -> None:
    w = apply(world(Budget(edits=("parallelism=1", "suspend=true"))), Move("edit", arg="parallelism=1"))
    job = w.job()
    assert job is not None and job.spec.parallelism == 1
    assert w.budget.edits == ("suspend=true",)
    w = apply(w, Move("edit", arg="suspend=true"), Move("sync"))
    job = w.job()
    assert job is not None and job.spec.suspend and not w.pods()


def test_an_edit_seen_late_leaves_the_cache_showing_the_older_spec_until_delivered() -> None:
    w = world(Budget(stale_edits=1, edits=("suspend=true",)))
    assert {m.arg for m in env.enabled_moves(w) if m.kind == "edit-stale"} == {"suspend=true"}
    w = apply(w, Move("edit-stale", arg="suspend=true"))
    job, shown = w.job(), w.job_shown
    assert job is not None and shown is not None and job.spec.suspend and not shown.spec.suspend
    assert w.budget == Budget()  # the edit and the lag both spent
    # The sync reads the Job unsuspended: it creates pods, and its status write conflicts.
    after, result = env.apply_move(w, Move("sync"))
    assert result is not None and len(after.pods()) == 2 and after.job() == job
    # Once the informer delivers the edit, the next sync deletes them.
    after = apply(after, Move("cache-catch-up"), Move("sync"))
    assert after.job_shown is None and all(p.metadata.deletion_timestamp is not None for p in after.pods())


@pytest.mark.parametrize("release", [35, 37])
def test_a_sync_does_not_wait_for_a_users_edit(release: int) -> None:
    # A kubelet write lags, so the consistency record of the controller's status write (ready=1)
    # stands; the edit comes after that write, which the Job informer has delivered: from 1.36
    # too the sync goes ahead on the older spec (the store waits for the controller's own writes).
    w = env.initial_world(
        manifest(parallelism=2, completions=2),
        Budget(stale_pod_writes=1, stale_edits=1, edits=("parallelism=1",)),
        now=NOW,
        features=FeatureGates.for_release(release),
    )
    w = apply(w, Move("sync"), Move("start-stale", "j-1"), Move("start", "j-0"), Move("ready", "j-0"), Move("sync"))
    record = w.cluster.controller_state(w.job_key).consistency
    assert (record is not None and record.jobs is not None) == (release >= 36)
    w = apply(w, Move("edit-stale", arg="parallelism=1"))
    assert w.lagging and w.job_shown is not None and not env.cache_behind_own_writes(w)
    after, result = env.apply_move(w, Move("sync"))
    assert result is not None and result.error is None  # not held for the cache ("read version")
    # Parallelism 2 as the cache shows it: both pods kept (the edited spec would delete one).
    assert [p.metadata.deletion_timestamp for p in after.pods()] == [None, None]


def test_user_writes_seen_late_lag_behind_what_already_lags() -> None:
    """The informer delivers in order: a second edit seen late keeps the cache where the first
    left it, and so does a deletion seen late; delivery shows all of them."""
    budget = Budget(stale_edits=3, job_deletions=1, edits=("parallelism=1", "suspend=true"))
    w = apply(world(budget), Move("sync"), Move("edit-stale", arg="parallelism=1"), Move("edit-stale", arg="suspend=true"))
    job, shown = w.job(), w.job_shown
    assert job is not None and (job.spec.parallelism, job.spec.suspend) == (1, True)
    assert shown is not None and (shown.spec.parallelism, shown.spec.suspend) == (2, False)
    w = apply(w, Move("delete-job-stale"))
    assert w.job() is None and w.job_shown == shown and w.budget == Budget()
    w = apply(w, Move("cache-catch-up"))
    assert w.job_shown is None and "orphan-cleanup" in kinds(w)


def test_a_deletion_is_not_seen_late_behind_the_controllers_lagging_status_write() -> None:
    # With the Job gone the laws could no longer tell that lag from the deletion's.
    w = _status_lagging(35, Budget(stale_status=1, job_deletions=1, stale_edits=1))
    assert env.status_write_lags(w) and "delete-job" in kinds(w) and "delete-job-stale" not in kinds(w)


@pytest.mark.parametrize("release", [35, 37])
def test_an_edit_seen_late_behind_the_controllers_status_write_keeps_it_lagging(release: int) -> None:
    # The status write lags, then a user's edit does: the cache still shows the Job before the
    # status write, and from 1.36 the sync waits for that write of its own.
    w = apply(_status_lagging(release, Budget(stale_status=1, stale_edits=1, edits=("parallelism=1",))), Move("edit-stale", arg="parallelism=1"))
    shown, job = w.job_shown, w.job()
    assert shown is not None and job is not None and shown.status.succeeded == 0 and job.spec.parallelism == 1
    assert env.status_write_lags(w) and env.cache_behind_own_writes(w) == (release >= 36)
    # An edit the cache shows at once delivers what lagged before it.
    w = apply(_status_lagging(release, Budget(stale_status=1, edits=("parallelism=1",))), Move("edit", arg="parallelism=1"))
    assert w.job_shown is None


def test_a_lagging_status_write_is_told_from_a_lagging_edit() -> None:
    assert env.status_write_lags(_status_lagging(35))
    w = apply(world(Budget(stale_edits=1, edits=("suspend=true",))), Move("sync"), Move("edit-stale", arg="suspend=true"))
    assert w.job_shown is not None and not env.status_write_lags(w)


def test_an_edit_the_api_server_refuses_leaves_no_lag() -> None:
    # completions of a NonIndexed Job are immutable
    w = apply(world(Budget(stale_edits=1, edits=("completions=1",))), Move("edit-stale", arg="completions=1"))
    job = w.job()
    assert w.job_shown is None and w.budget == Budget(stale_edits=1) and job is not None and job.spec.completions == 2


def test_an_elastic_edit_changes_completions_and_parallelism_together() -> None:
    w = apply(world(Budget(edits=("completions=1",)), completionMode="Indexed"), Move("edit", arg="completions=1"))
    job = w.job()
    assert job is not None and (job.spec.completions, job.spec.parallelism) == (1, 1)


def test_deleting_the_job_orphans_its_pods_until_cleanup() -> None:
    w = apply(world(Budget(job_deletions=1)), Move("sync"), Move("delete-job"))
    assert w.job() is None and "orphan-cleanup" in kinds(w)
    w = apply(w, Move("orphan-cleanup"), Move("sync"))
    assert all(not p.metadata.finalizers for p in w.pods())


def test_a_deleted_job_is_created_again_under_its_name_with_a_new_uid() -> None:
    w = apply(world(Budget(job_deletions=1, recreations=1)), Move("sync"))
    assert "recreate-job" not in kinds(w)  # the Job is still there
    w = apply(w, Move("delete-job"))
    assert "recreate-job" in kinds(w)
    old_pods = {p.name for p in w.cluster.pods}
    w = apply(w, Move("recreate-job"))
    job = w.job()
    assert job is not None and job.key == "default/j" and job.uid == w.job_uid != "job-uid"
    assert job.spec.selector is not None and w.job_uid in str(job.spec.selector)
    assert not w.pods() and {p.name for p in w.cluster.pods} == old_pods  # the old pods are not its own
    assert w.budget.recreations == 0 and "recreate-job" not in kinds(w)
    w = apply(w, Move("sync"))
    assert len(w.pods()) == 2 and not {p.name for p in w.pods()} & old_pods


def test_a_deletion_seen_late_leaves_the_controller_acting_on_the_job_until_delivered() -> None:
    w = world(Budget(job_deletions=1, stale_edits=1))
    assert "delete-job-stale" in kinds(world(Budget(job_deletions=1, stale_edits=1)))
    assert "delete-job-stale" not in kinds(world(Budget(job_deletions=1))) | kinds(world(Budget(stale_edits=1)))
    w = apply(w, Move("delete-job-stale"))
    assert w.job() is None and w.job_shown is not None and w.budget == Budget()  # both spent
    # The sync reads the Job from its cache: it creates its pods, and its status write finds no Job.
    w, result = env.apply_move(w, Move("sync"))
    assert result is not None and result.error is not None and 'jobs.batch "j" not found' in result.error
    assert len(w.pods()) == 2 and w.job() is None
    # Their owner is in the cache: no orphans yet; once the deletion is delivered they are.
    assert "orphan-cleanup" not in kinds(w)
    w = apply(w, Move("cache-catch-up"))
    assert w.job_shown is None and "orphan-cleanup" in kinds(w)
    w = apply(w, Move("orphan-cleanup"))
    assert all(not p.metadata.finalizers for p in w.pods())


@pytest.mark.parametrize(("release", "left"), [(32, 2), (36, 2), (37, None)])
def test_a_deletion_seen_late_is_delivered_before_the_job_is_created_again(release: int, left: int | None) -> None:
    """Controller.deleteJob runs when the deletion is delivered, before the Job created again is
    (the informer delivers in order): from 1.37 it drops the expectations of the name, which up
    to 1.36 the successor inherits (TestJobRecreationClearsPodExpectations)."""
    budget = Budget(stale=1, job_deletions=1, stale_edits=1, recreations=1)
    w = env.initial_world(manifest(), budget, now=NOW, features=FeatureGates.for_release(release))
    w = apply(w, Move("sync-stale"), Move("delete-job-stale"))
    exp = w.cluster.controller_state(w.job_key).expectations
    assert exp is not None and exp.add == 2  # the deletion not yet seen: nothing dropped
    w = apply(w, Move("recreate-job"))
    assert w.job_shown is None and w.job() is not None
    exp = w.cluster.controller_state(w.job_key).expectations
    assert (exp.add if exp is not None else None) == left


def test_recreate_job_needs_a_budget() -> None:
    w = apply(world(Budget(job_deletions=1)), Move("delete-job"))
    assert "recreate-job" not in kinds(w)


@pytest.mark.parametrize(("release", "left"), [(36, 2), (37, None)])
def test_the_predecessors_creations_seen_late_count_for_no_one(release: int, left: int | None) -> None:
    """Controller.addPod resolves a pod's owner by name and uid: the deleted Job's pods, seen
    after a Job of the same name was created again, lower no one's expectations. Up to 1.36 the
    predecessor's expectations are still there (dropped when the deletion is seen from 1.37)."""
    w = env.initial_world(manifest(), Budget(stale=1, job_deletions=1, recreations=1), now=NOW, features=FeatureGates.for_release(release))
    w = apply(w, Move("sync-stale"), Move("delete-job"), Move("recreate-job"), Move("cache-catch-up"))
    exp = w.cluster.controller_state(w.job_key).expectations
    assert (exp.add if exp is not None else None) == left


def _deleted_while_a_creation_is_hidden(features: FeatureGates) -> env.World:
    """j-0 succeeded and was counted by a sync over a lagging cache that created j-2 unseen; then
    the Job was deleted: j-1 is an orphan the cache shows, j-2 one it does not."""
    w = env.initial_world(manifest(completions=3), Budget(stale=1, job_deletions=1), now=NOW, features=features)
    w = apply(w, Move("sync"), Move("start", "j-0"), Move("succeed", "j-0"), Move("sync-stale"), Move("delete-job"))
    assert w.hidden == {"j-2"} and w.job() is None
    return w


def test_orphan_pod_work_waits_for_the_cache_to_show_a_pod() -> None:
    w = apply(_deleted_while_a_creation_is_hidden(DEFAULT_GATES), Move("orphan-cleanup"))
    finalized = {p.name for p in w.pods() if p.metadata.finalizers}
    assert finalized == {"j-2"} and "orphan-cleanup" not in kinds(w)
    w = apply(w, Move("cache-catch-up"))
    assert "orphan-cleanup" in kinds(w)
    w = apply(w, Move("orphan-cleanup"))
    assert all(not p.metadata.finalizers for p in w.pods())


def test_a_sync_after_orphan_pod_work_waits_for_the_pod_cache_from_1_36() -> None:
    # The orphan worker's finalizer removal is recorded under the gone Job's name (1.36+), and the
    # pod informer, behind the hidden creation, is behind that write too: the sync of the name
    # fails EnsureReady (keeping the record) until the cache has caught up.
    for release, waits in ((35, False), (36, True), (37, True)):
        w = apply(_deleted_while_a_creation_is_hidden(FeatureGates.for_release(release)), Move("orphan-cleanup"))
        after, result = env.apply_move(w, Move("sync"))
        assert result is not None
        assert (result.error is not None and "read version" in result.error) == waits, release
        assert (after.cluster.controller_state(after.job_key).consistency is not None) == waits, release
        after, result = env.apply_move(apply(after, Move("cache-catch-up")), Move("sync"))
        assert result is not None and result.error is None, release
        assert after.cluster.controller_state(after.job_key).consistency is None, release
    # With nothing hidden the write is in the cache at once: no record is kept.
    w = apply(world(Budget(job_deletions=1)), Move("sync"), Move("delete-job"), Move("orphan-cleanup"))
    assert w.cluster.controller_state(w.job_key).consistency is None


def test_failing_api_calls_change_nothing_they_were_refused() -> None:
    w = apply(world(Budget(faults=2)), Move("sync-pod-error"))
    assert not w.pods() and w.budget.faults == 1
    w = apply(w, Move("sync-status-error"))
    job = w.job()
    assert job is not None and job.status.active == 0 and len(w.pods()) == 2


def test_bad_moves_and_edits_are_input_errors() -> None:
    with pytest.raises(InputError, match="unknown move"):
        env.apply_move(world(), Move("dance"))
    with pytest.raises(InputError, match="edits"):
        env.validate_edit("replicas=3")
    with pytest.raises(InputError, match="suspend"):
        env.validate_edit("suspend=maybe")
    with pytest.raises(InputError, match=r"move\.pod"):
        env.apply_move(world(), Move("start", "nope"))


POLICY = {
    "rules": [
        {"action": "FailJob", "onExitCodes": {"containerName": "main", "operator": "In", "values": [42]}},
        {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]},
    ]
}


def test_a_pod_fails_in_each_way_the_pod_failure_policy_tells_apart() -> None:
    w = apply(world(Budget(failures=3), podFailurePolicy=POLICY), Move("sync"), Move("start", "j-0"))
    fails = sorted(m.arg for m in env.enabled_moves(w) if m.kind == "fail" and m.pod == "j-0")
    assert fails == ["cond=DisruptionTarget", "cond=DisruptionTarget:False", "exit=1@main", "exit=42@main"]
    w = apply(w, Move("fail", "j-0", "exit=42@main"))
    main = w.pods()[0].status.container_statuses[0]
    assert main.name == "main" and main.terminated is not None and main.terminated.exit_code == 42
    w = apply(w, Move("start", "j-1"), Move("fail", "j-1", "cond=DisruptionTarget"))
    disrupted = w.pods()[1]
    assert any(c.type == "DisruptionTarget" and c.status == "True" for c in disrupted.status.conditions)
    code = disrupted.status.container_statuses[0].terminated
    assert code is not None and code.exit_code not in (0, 42)


def test_without_a_policy_a_pod_fails_one_way() -> None:
    w = apply(world(Budget(failures=1)), Move("sync"), Move("start", "j-0"))
    assert [m.arg for m in env.enabled_moves(w) if m.kind == "fail" and m.pod == "j-0"] == [""]


def test_a_started_pod_deleted_by_someone_terminates_later_with_sigterm() -> None:
    w = apply(world(Budget(deletions=1)), Move("sync"), Move("start", "j-0"), Move("delete-pod", "j-0"))
    pod = w.pods()[0]
    assert pod.metadata.deletion_timestamp is not None and pod.phase == RUNNING  # graceful: still running
    assert "terminate j-0" in {str(m) for m in env.enabled_moves(w)}
    w = apply(w, Move("terminate", "j-0"))
    pod = w.pods()[0]
    terminated = pod.status.container_statuses[0].terminated
    assert pod.phase == FAILED and terminated is not None and terminated.exit_code == 143
    # The tracking finalizer keeps it until the controller has counted it.
    w = apply(w, Move("sync"))
    assert "j-0" not in [p.name for p in w.pods()]


def test_pod_gc_removes_only_finished_pods_without_finalizers() -> None:
    w = apply(world(Budget(failures=1, gc=1)), Move("sync"), Move("start", "j-0"), Move("fail", "j-0"))
    assert "pod-gc" not in kinds(w)  # the tracking finalizer holds it
    w = apply(w, Move("sync"))
    assert "pod-gc j-0" in {str(m) for m in env.enabled_moves(w)}
    w = apply(w, Move("pod-gc", "j-0"))
    assert "j-0" not in [p.name for p in w.pods()] and w.budget.gc == 0
    assert "pod-gc" not in kinds(w)


def test_the_active_deadline_passes_whether_or_not_the_controller_asked() -> None:
    w = world(activeDeadlineSeconds=30)
    assert "deadline-passes" not in kinds(w)  # not started yet
    w = apply(w, Move("sync"))
    w = apply(w, Move("deadline-passes"))
    job = w.job()
    assert job is not None and job.status.start_time is not None
    assert (w.cluster.now - job.status.start_time).total_seconds() == 30
    assert "deadline-passes" not in kinds(w)


def test_a_world_less_its_budget_is_every_other_field_of_it() -> None:
    w = apply(world(Budget(stale=1)), Move("sync-stale"))
    others = tuple(getattr(w, f.name) for f in attrs.fields(env.World) if f.eq and f.name != "budget")
    assert env.without_budget(w) == others
    assert env.without_budget(attrs.evolve(w, budget=Budget(failures=3))) == others


def test_a_move_respent_from_a_world_with_another_budget_is_that_move_made_there() -> None:
    rich, poor = world(Budget(failures=2, stale=1, edits=("suspend=true",))), world(Budget(failures=1))
    rich, poor = apply(rich, Move("sync"), Move("start", "j-0")), apply(poor, Move("sync"), Move("start", "j-0"))
    assert env.without_budget(rich) == env.without_budget(poor)
    fail = Move("fail", "j-0")
    assert fail in env.enabled_moves(rich) and fail in env.enabled_moves(poor)
    after_rich, after_poor = apply(rich, fail), apply(poor, fail)
    assert respent(after_rich, rich, poor) == after_poor
    assert respent(after_poor, poor, rich) == after_rich
    assert respent(after_poor, poor, rich).budget == Budget(failures=1, stale=1, edits=("suspend=true",))


# --- restartPolicy OnFailure: the kubelet restarts a failed container in place --------------------


def on_failure_world(budget: Budget, parallelism: int = 2, completions: int = 2) -> env.World:
    return env.initial_world(manifest(parallelism, completions, "OnFailure"), budget, now=NOW)


def test_an_on_failure_pod_restarts_its_container_where_a_never_pod_fails() -> None:
    running = apply(on_failure_world(Budget(failures=2)), Move("sync"), Move("start", "j-0"))
    moves = {str(m) for m in env.enabled_moves(running) if m.pod == "j-0"}
    assert "restart-container j-0" in moves and not any(m.startswith("fail") for m in moves)
    never = apply(world(Budget(failures=2)), Move("sync"), Move("start", "j-0"))
    moves = {str(m) for m in env.enabled_moves(never) if m.pod == "j-0"}
    assert "restart-container j-0" not in moves and any(m.startswith("fail") for m in moves)
    assert "restart-container j-0" not in {str(m) for m in env.enabled_moves(apply(on_failure_world(Budget()), Move("sync"), Move("start", "j-0")))}


def test_a_restarted_container_counts_its_restarts_and_the_pod_keeps_running() -> None:
    w = apply(on_failure_world(Budget(failures=2)), Move("sync"), Move("start", "j-0"), Move("restart-container", "j-0"))
    w = apply(w, Move("restart-container", "j-0"))
    pod = w.pods()[0]
    assert pod.phase == RUNNING and w.budget.failures == 0
    [main] = pod.status.container_statuses
    assert main.name == "main" and main.restart_count == 2 and main.terminated is None
    assert main.extra["lastState"]["terminated"]["exitCode"] == 1
    # The count outlives the container: a pod that then succeeds still reports it.
    ended = apply(w, Move("succeed", "j-0")).pods()[0]
    assert ended.phase == SUCCEEDED and ended.status.container_statuses[0].restart_count == 2


def test_a_pod_being_deleted_has_no_container_restarts() -> None:
    w = apply(on_failure_world(Budget(failures=1, deletions=1)), Move("sync"), Move("start", "j-0"), Move("delete-pod", "j-0"))
    assert "restart-container" not in {m.kind for m in env.enabled_moves(w) if m.pod == "j-0"}


def test_restarts_reaching_the_backoff_limit_fail_the_job_and_delete_its_running_pods() -> None:
    w = apply(on_failure_world(Budget(failures=1), parallelism=1, completions=1), Move("sync"), Move("start", "j-0"))
    w = apply(w, Move("restart-container", "j-0"), Move("sync"))
    job = w.job()
    assert job is not None
    reasons = {c.type: c.reason for c in job.status.conditions}
    assert reasons.get("FailureTarget") == "BackoffLimitExceeded"  # backoffLimit 1: one restart reaches it
    assert all(p.metadata.deletion_timestamp is not None for p in w.pods() if p.phase == RUNNING)
