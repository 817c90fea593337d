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
from functools import lru_cache
from operator import is_

from jobmodel.frozen import INTERNED_IDS, evolve, interned
from jobmodel.state import JOB_COMPLETION_INDEX_ANNOTATION, Pod, UncountedTerminatedPods
from jobmodel.transitions.job_environment import World
from jobmodel.transitions.pod_utils import is_pod_ready

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _content_key(
    pod: Pod, world: World, uncounted: UncountedTerminatedPods | None, removals: frozenset[str]
) -> tuple[object, ...]:
    """What distinguishes a pod apart from its name and UID (the fields the moves change; pods
    equal in all of them are interchangeable, so their relative order does not matter)."""
    return (
        pod.name in world.hidden,
        uncounted is not None and pod.uid in uncounted.succeeded,
        uncounted is not None and pod.uid in uncounted.failed,
        pod.uid in removals,
        *_pod_content(pod),
    )


@lru_cache(maxsize=1 << 14)
def _pod_content(pod: Pod) -> tuple[object, ...]:
    """The part of a pod's content key read from the pod alone (a pure function of the pod,
    so remembered: most pods of a world are shared with the world it came from)."""
    meta, status = pod.metadata, pod.status
    exit_codes = tuple(
        (c.name, c.terminated.exit_code if c.terminated else -1)
        for c in (*status.init_container_statuses, *status.container_statuses)
    )
    return (
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
    """The representative of the world's symmetry class (see the module docstring). Pods that
    already carry their canonical name keep their object (stable sorting leaves pods of equal
    content in place), and a world already canonical is returned as it is."""
    cluster = world.cluster
    job = world.job()
    uncounted = job.status.uncounted_terminated_pods if job is not None else None
    flagged = uncounted is not None and bool(uncounted.succeeded or uncounted.failed)
    state = cluster.controller_state(world.job_key)
    removals = state.expected_finalizer_removals
    ours = [p if id(p) in INTERNED_IDS else interned(p) for p in world.pods()]
    others = [p for p in cluster.pods if not _is_ours(p, world.job_uid)] if len(ours) < len(cluster.pods) else []
    if world.hidden or removals or flagged:
        ours.sort(key=lambda p: _content_key(p, world, uncounted, removals))
    else:
        # No pod is hidden, uncounted or awaiting a finalizer removal: the keys' leading flags
        # are all False, so the order is the pods' own content's.
        ours.sort(key=_pod_content)
    names: dict[str, str] = {}
    uids: dict[str, str] = {}
    slots = _canonical_names(world.job_key, world.job_uid, len(ours))
    for i, (pod, (name, uid)) in enumerate(zip(ours, slots, strict=True)):
        meta = pod.metadata
        if meta.name != name or meta.uid != uid:
            names[meta.name] = name
            uids[meta.uid] = uid
            ours[i] = _renamed(pod, name, uid)
    jobs = cluster.jobs
    if not all(map(INTERNED_IDS.__contains__, map(id, jobs))):
        jobs = tuple(interned(j) for j in jobs)
        job = interned(job) if job is not None else None  # the object now in `jobs`
    if job is not None and uncounted is not None and flagged:
        new_uncounted = UncountedTerminatedPods(
            tuple(sorted(uids.get(u, u) for u in uncounted.succeeded)),
            tuple(sorted(uids.get(u, u) for u in uncounted.failed)),
        )
        if new_uncounted != uncounted:
            new_job = interned(evolve(job, status=evolve(job.status, uncounted_terminated_pods=new_uncounted)))
            jobs = tuple(new_job if j.uid == new_job.uid else j for j in jobs)
            job = new_job
    controller = cluster.controller
    if uids and removals and world.job_key in controller:
        new_removals = frozenset(uids.get(u, u) for u in removals)
        if new_removals != removals:
            new_state = evolve(state, expected_finalizer_removals=new_removals)
            controller = controller.set(world.job_key, new_state)
    counter = len(ours) if not others else max(cluster.pod_counter, len(ours))
    pods = (*ours, *others) if others else tuple(ours)
    if (
        jobs is cluster.jobs
        and controller is cluster.controller
        and counter == cluster.pod_counter
        and not cluster.events
        and len(pods) == len(cluster.pods)
        and all(map(is_, pods, cluster.pods))
        and not names
    ):
        return world
    cluster = evolve(cluster, jobs=jobs, pods=pods, controller=controller, pod_counter=counter, events=())
    hidden = frozenset(names.get(n, n) for n in world.hidden) if names else world.hidden
    # Its pods are `ours` (the others belong to no pod of the Job), its Job is `job`.
    return evolve(world, cluster=cluster, hidden=hidden).knowing(job, pods[: len(ours)])


@lru_cache(maxsize=1 << 8)
def _canonical_names(job_key: str, job_uid: str, count: int) -> tuple[tuple[str, str], ...]:
    """The canonical names and UIDs of the Job's first `count` pods."""
    job_name = job_key.split("/", 1)[1]
    return tuple((f"{job_name}-{i}", f"{job_uid}-pod-{i}") for i in range(count))


@lru_cache(maxsize=1 << 14)
def _renamed(pod: Pod, name: str, uid: str) -> Pod:
    """The pod under another name and UID (the same renamings recur across states)."""
    return interned(evolve(pod, metadata=evolve(pod.metadata, name=name, uid=uid)))


def _is_ours(pod: Pod, uid: str) -> bool:
    ref = pod.metadata.controller_ref()
    return ref is not None and ref.uid == uid


def without_events(world: World) -> World:
    """The world without its event log (for exploring without symmetry reduction)."""
    return evolve(world, cluster=evolve(world.cluster, events=()))
