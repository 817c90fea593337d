"""Symmetry reduction over pod names: two worlds that differ only in which names and UIDs their
pods got are the same state for the checkers.

`canonical_world` renames the Job's pods by sorted content (`<job>-0`, `<job>-1`, ... and UIDs
to match), rewrites every reference to them (uncountedTerminatedPods, the controller's expected
finalizer removals, the hidden set), resets the name counter and drops the event log (the
checkers never read it). The controller reads pod names only to address API calls and UIDs only
to match these references, so renaming preserves behaviour (tie-breaks between pods of equal
content may pick the other pod, which is the same state up to renaming).
"""

from __future__ import annotations

from datetime import UTC, datetime

import attrs

from jobmodel.frozen import FrozenDict
from jobmodel.state import JOB_COMPLETION_INDEX_ANNOTATION, Pod, UncountedTerminatedPods
from jobmodel.transitions.job_environment import World
from jobmodel.transitions.pod_utils import is_pod_ready

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _content_key(
    pod: Pod, world: World, uncounted: UncountedTerminatedPods | None, removals: frozenset[str]
) -> tuple[object, ...]:
    """What distinguishes a pod apart from its name and UID (the fields the moves change; pods
    equal in all of them are interchangeable, so their relative order does not matter)."""
    meta, status = pod.metadata, pod.status
    exit_codes = tuple(
        (c.name, c.terminated.exit_code if c.terminated else -1)
        for c in (*status.init_container_statuses, *status.container_statuses)
    )
    return (
        pod.name in world.hidden,
        uncounted is not None and pod.uid in uncounted.succeeded,
        uncounted is not None and pod.uid in uncounted.failed,
        pod.uid in removals,
        status.phase,
        is_pod_ready(pod),
        exit_codes,
        tuple((c.type, c.status) for c in status.conditions),
        pod.node_name,
        str(meta.annotations.get(JOB_COMPLETION_INDEX_ANNOTATION, "")),
        meta.creation_timestamp or _EPOCH,
        status.start_time or _EPOCH,
        meta.deletion_timestamp or _EPOCH,
        meta.deletion_grace_period_seconds or 0,
        meta.finalizers,
    )


def canonical_world(world: World) -> World:
    """The representative of the world's symmetry class (see the module docstring)."""
    cluster = world.cluster
    job = world.job()
    uncounted = job.status.uncounted_terminated_pods if job is not None else None
    state = cluster.controller_state(world.job_key)
    removals = state.expected_finalizer_removals
    job_name = world.job_key.split("/", 1)[1]
    ours = [p for p in cluster.pods if _is_ours(p, world.job_uid)]
    others = [p for p in cluster.pods if not _is_ours(p, world.job_uid)]
    ours.sort(key=lambda p: _content_key(p, world, uncounted, removals))
    names: dict[str, str] = {}
    uids: dict[str, str] = {}
    renamed: list[Pod] = []
    for i, pod in enumerate(ours):
        names[pod.name] = f"{job_name}-{i}"
        uids[pod.uid] = f"{world.job_uid}-pod-{i}"
        meta = attrs.evolve(pod.metadata, name=names[pod.name], uid=uids[pod.uid])
        renamed.append(attrs.evolve(pod, metadata=meta))
    jobs = cluster.jobs
    if job is not None and uncounted is not None:
        new_uncounted = UncountedTerminatedPods(
            tuple(sorted(uids.get(u, u) for u in uncounted.succeeded)),
            tuple(sorted(uids.get(u, u) for u in uncounted.failed)),
        )
        new_job = attrs.evolve(job, status=attrs.evolve(job.status, uncounted_terminated_pods=new_uncounted))
        jobs = tuple(new_job if j.uid == job.uid else j for j in jobs)
    controller = cluster.controller
    if world.job_key in controller:
        new_state = attrs.evolve(state, expected_finalizer_removals=frozenset(uids.get(u, u) for u in removals))
        controller = FrozenDict({**dict(controller), world.job_key: new_state})
    counter = len(ours) if not others else max(cluster.pod_counter, len(ours))
    cluster = attrs.evolve(
        cluster, jobs=jobs, pods=(*renamed, *others), controller=controller, pod_counter=counter, events=()
    )
    hidden = frozenset(names.get(n, n) for n in world.hidden)
    return attrs.evolve(world, cluster=cluster, hidden=hidden)


def _is_ours(pod: Pod, uid: str) -> bool:
    ref = pod.metadata.controller_ref()
    return ref is not None and ref.uid == uid


def without_events(world: World) -> World:
    """The world without its event log (for exploring without symmetry reduction)."""
    return attrs.evolve(world, cluster=attrs.evolve(world.cluster, events=()))
