"""Symmetry reduction (jobmodel/transitions/job_symmetry.py): the canonical form names pods by
content, is reached again from any renaming, is kept as it is when a world already has it, and
interns pods and Jobs (equal means identical in canonical worlds)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from jobmodel.checkers.explorer import explore
from jobmodel.checkers.trace import run_moves
from jobmodel.frozen import interned
from jobmodel.transitions.job_environment import World
from jobmodel.transitions.job_symmetry import canonical_world
from jobmodel.transitions.move import Move
from tests.checkers.configs import config, job_manifest


def reachable(depth: int = 7, **budget: Any) -> list[World]:
    seen: list[World] = []
    explore(config(job_manifest(2, 3, 1, indexed=True), **budget).system(), depth=depth, on_state=seen.append)
    return seen


# At the default release, 1.37 (its consistency store adds a state with a stale cache: 310 at 1.32).
@pytest.mark.parametrize(("budget", "states"), [({"failures": 1, "stale": 1}, 311), ({"failures": 1}, 147)])
def test_the_worlds_these_tests_take_are_pinned(budget: dict[str, int], states: int) -> None:
    assert len(reachable(**budget)) == states


def renamed_backwards(world: World) -> World:
    """The same world with the Job's pods named in the reverse order (names and UIDs swapped)."""
    pods = world.pods()
    names = {p.name: q.name for p, q in zip(pods, reversed(pods), strict=True)}
    uids = {p.uid: q.uid for p, q in zip(pods, reversed(pods), strict=True)}
    cluster = world.cluster
    new_pods = tuple(
        attrs.evolve(p, metadata=attrs.evolve(p.metadata, name=names[p.name], uid=uids[p.uid])) if p.name in names else p
        for p in cluster.pods
    )
    job = world.job()
    assert job is not None
    u = job.status.uncounted_terminated_pods
    if u is not None:
        u = attrs.evolve(u, succeeded=tuple(uids.get(x, x) for x in u.succeeded), failed=tuple(uids.get(x, x) for x in u.failed))
        job = attrs.evolve(job, status=attrs.evolve(job.status, uncounted_terminated_pods=u))
    state = cluster.controller_state(world.job_key)
    state = attrs.evolve(state, expected_finalizer_removals=frozenset(uids.get(x, x) for x in state.expected_finalizer_removals))
    controller = cluster.controller.set(world.job_key, state) if world.job_key in cluster.controller else cluster.controller
    cluster = attrs.evolve(cluster, pods=new_pods, jobs=(job,), controller=controller)
    return attrs.evolve(world, cluster=cluster, hidden=frozenset(names.get(n, n) for n in world.hidden))


def test_a_canonical_world_is_kept_as_it_is() -> None:
    for world in reachable(failures=1, stale=1):
        assert canonical_world(world) is world


def test_any_renaming_of_the_pods_has_the_same_canonical_form() -> None:
    worlds = [w for w in reachable(failures=1, stale=1) if len(w.pods()) > 1]
    assert worlds
    for world in worlds:
        assert canonical_world(renamed_backwards(world)) == world


def test_equal_pods_and_jobs_are_interned_to_one_object() -> None:
    world = next(w for w in reachable(failures=1) if w.pods())
    pod, job = world.pods()[0], world.job()
    assert job is not None
    pod_copy = attrs.evolve(pod, metadata=attrs.evolve(pod.metadata))
    job_copy = attrs.evolve(job, status=attrs.evolve(job.status))
    assert pod_copy is not pod and interned(pod_copy) is pod
    assert job_copy is not job and interned(job_copy) is job


def told(world: World) -> tuple[object, object]:
    """What the world was told of its Job and pods, or read of them (as its private fields hold)."""
    return world._job_read, world._pods_read


def test_a_renamed_world_knows_the_job_and_pods_its_cluster_holds() -> None:
    worlds = [w for w in reachable(failures=1, stale=1) if len(w.pods()) > 1]
    for world in worlds:
        renamed = canonical_world(renamed_backwards(world))
        job_read, pods_read = told(renamed)
        assert job_read is not None and pods_read is not None  # told by canonical_world
        fresh = attrs.evolve(renamed)  # reads them again from its cluster
        assert told(fresh) == (None, None)
        assert fresh.job() is renamed.job() and fresh.pods() == renamed.pods()
        assert all(a is b for a, b in zip(fresh.pods(), renamed.pods(), strict=True))


def test_a_job_created_again_names_its_pods_apart_from_its_predecessors() -> None:
    """The deleted Job's pods keep their names; the new Job's canonical names avoid them, and
    the pods it creates next get free names too."""
    worlds = [w for w in reachable(depth=8, stale=1, job_deletions=1, recreations=1) if w.job_uid != "job-uid"]
    mixed = [w for w in worlds if w.pods() and len(w.pods()) < len(w.cluster.pods)]
    assert mixed
    for world in worlds:
        names = [p.name for p in world.cluster.pods]
        assert len(names) == len(set(names))
        assert all(int(name.rsplit("-", 1)[1]) < world.cluster.pod_counter for name in names)
    for world in mixed:
        if len(world.pods()) > 1:
            assert canonical_world(renamed_backwards(world)) == world


def test_a_world_lagging_behind_finalizer_removals_keeps_its_names() -> None:
    """The cache's older versions would have to be renamed too: such a world is its own
    representative (less its event log, which the checkers never read)."""
    lagging = [w for w in reachable(depth=6, stale_patches=1) if w.lagging]
    assert lagging
    for world in lagging:
        assert canonical_world(world) is world  # the explorer keeps canonical worlds


def test_a_gone_pods_uid_the_status_still_lists_is_no_live_pods_canonical_uid() -> None:
    """Found by the Hypothesis machine: both pods failed and are listed as uncounted failures,
    their finalizers removed and the status write refused; the one being deleted is gone, so the
    other takes the first canonical name. The gone pod's UID, still listed, is renamed apart
    (`<uid>-gone-<k>`), not left to collide with the live pod's new one (a pod counted twice)."""
    cfg = config(job_manifest(2, 2, 1, podReplacementPolicy="Failed"), failures=1, deletions=1, faults=2)
    moves = [
        Move("sync"), Move("start", "j-0"), Move("delete-pod", "j-0"), Move("fail", "j-1"), Move("terminate", "j-1"),
        Move("sync-pod-error"), Move("sync-status-error"),
    ]
    records = run_moves(cfg.system(), moves)
    world = records[-1].world
    job = world.job()
    assert job is not None and job.status.uncounted_terminated_pods is not None
    listed = job.status.uncounted_terminated_pods.failed
    assert len(set(listed)) == len(listed) == 2
    (pod,) = world.pods()
    assert pod.uid in listed and sum(u.endswith("-gone-0") for u in listed) == 1
    assert not [v for r in records for v in r.violations]
    # The same world with the gone UID under another name is the same state.
    other = attrs.evolve(job.status.uncounted_terminated_pods, failed=tuple(sorted(u if u == pod.uid else "someone-else" for u in listed)))
    renamed_job = attrs.evolve(job, status=attrs.evolve(job.status, uncounted_terminated_pods=other))
    moved = attrs.evolve(world, cluster=attrs.evolve(world.cluster, jobs=(renamed_job,)))
    assert canonical_world(moved) == world
