"""Symmetry reduction over pod names: two worlds that differ only in which names and UIDs their
pods got are the same state for the checkers.

`canonical_world` renames the Job's pods by sorted content (`<job>-0`, `<job>-1`, ... and UIDs
to match), rewrites every reference to them (uncountedTerminatedPods, the controller's expected
finalizer removals, the hidden set; the UIDs these still name of pods that are gone become
`<job uid>-gone-<k>`, apart from every live pod's), resets the name counter and drops the event
log (the checkers never read it). The controller reads pod names only to address API calls and UIDs only
to match these references, so renaming preserves behaviour (tie-breaks between pods of equal
content may pick the other pod, which is the same state up to renaming).
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from functools import lru_cache
from operator import is_

import attrs

from jobmodel.frozen import INTERNED_IDS, evolve, interned
from jobmodel.state import (
    JOB_COMPLETION_INDEX_ANNOTATION,
    Job,
    JobControllerState,
    Pod,
    UncountedTerminatedPods,
)
from jobmodel.transitions import cluster as cl
from jobmodel.transitions.job_environment import World, with_world
from jobmodel.transitions.pod_utils import is_pod_ready

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _content_key(
    pod: Pod, hidden: frozenset[str], uncounted: UncountedTerminatedPods | None, removals: frozenset[str]
) -> tuple[object, ...]:
    """What distinguishes a pod apart from its name and UID (the fields the moves change; pods
    equal in all of them are interchangeable, so their relative order does not matter)."""
    return (
        pod.name in hidden,
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
    if world.lagging or world.job_shown is not None:
        # Renaming would have to rename the cache's older versions too (of pods that may be gone
        # from the API, and the pods an older Job status lists): a world lagging behind finalizer
        # removals or a status write keeps its names. Fewer worlds
        # are merged while a removal lags; the same states are reached.
        return with_world(world, cluster=cl.with_cluster(cluster, events=())) if cluster.events else world
    key = world.job_key
    job = world.job()
    uncounted = job.status.uncounted_terminated_pods if job is not None else None
    if uncounted is not None and not (uncounted.succeeded or uncounted.failed):
        uncounted = None  # empty lists rename nothing (and the memo's key hashes less)
    state = cluster.controller.get(key)
    removals = state.expected_finalizer_removals if isinstance(state, JobControllerState) else _NO_REMOVALS
    plan = _renaming(cluster.pods, key, world.job_uid, world.hidden, removals, uncounted)
    ours, pods = plan.ours, plan.pods
    jobs = cluster.jobs
    if not all(map(INTERNED_IDS.__contains__, map(id, jobs))):
        old_jobs, jobs = jobs, _interned_jobs(jobs)
        if job is not None:  # the object now in `jobs`
            job = next(new for old, new in zip(old_jobs, jobs, strict=True) if old is job)
    if job is not None and plan.uncounted is not None:
        new_job = interned(evolve(job, status=evolve(job.status, uncounted_terminated_pods=plan.uncounted)))
        jobs = tuple(new_job if j.uid == new_job.uid else j for j in jobs)
        job = new_job
    controller = cluster.controller
    if plan.removals is not None and isinstance(state, JobControllerState):
        controller = controller.set(key, evolve(state, expected_finalizer_removals=plan.removals))
    # With other pods about the counter stays: it is above every name in use (a cluster never
    # holds more pods than its counter), so that the names of pods created next are free.
    counter = len(ours) if len(pods) == len(ours) else max(cluster.pod_counter, len(ours))
    if (
        plan.hidden is None
        and jobs is cluster.jobs
        and controller is cluster.controller
        and counter == cluster.pod_counter
        and not cluster.events
        and all(map(is_, pods, cluster.pods))
    ):
        # Its pods are `ours` (the others follow them), its Job is `job`: told, so that the laws
        # need not find them again.
        return world.knowing(job, ours)
    cluster = cl.with_cluster(cluster, jobs=jobs, pods=pods, controller=controller, pod_counter=counter, events=())
    hidden = world.hidden if plan.hidden is None else plan.hidden
    return with_world(world, cluster=cluster, hidden=hidden).knowing(job, ours)


_NO_REMOVALS: frozenset[str] = frozenset()


@lru_cache(maxsize=1 << 12)
def _interned_jobs(jobs: tuple[Job, ...]) -> tuple[Job, ...]:
    """The Jobs, interned (a sync remembered by job_environment.synced_cluster hands out the same
    new Job again and again: interning it anew each time cost 3 us a sync)."""
    return tuple(interned(j) for j in jobs)


@attrs.frozen
class _Renaming:
    """What canonical renaming makes of a world's pods: the Job's pods sorted and renamed
    (`ours`), then the others (`pods`), and the references to the Job's pods renamed to match
    (None where the renaming leaves them as they are)."""

    ours: tuple[Pod, ...]
    pods: tuple[Pod, ...]
    hidden: frozenset[str] | None
    uncounted: UncountedTerminatedPods | None
    removals: frozenset[str] | None


@lru_cache(maxsize=1 << 16)
def _renaming(
    pods: tuple[Pod, ...],
    job_key: str,
    job_uid: str,
    hidden: frozenset[str],
    removals: frozenset[str],
    uncounted: UncountedTerminatedPods | None,
) -> _Renaming:
    """The renaming of a world's pods (a pure function of the pods and the references to them,
    met again in many worlds: remembered)."""
    ours = [p if id(p) in INTERNED_IDS else interned(p) for p in pods if _is_ours(p, job_uid)]
    others = tuple(p for p in pods if not _is_ours(p, job_uid)) if len(ours) < len(pods) else ()
    flagged = uncounted is not None and bool(uncounted.succeeded or uncounted.failed)
    if hidden or removals or flagged:
        ours.sort(key=lambda p: _content_key(p, hidden, uncounted, removals))
    else:
        # No pod is hidden, uncounted or awaiting a finalizer removal: the keys' leading flags
        # are all False, so the order is the pods' own content's.
        ours.sort(key=_pod_content)
    names: dict[str, str] = {}
    uids: dict[str, str] = {}
    live = frozenset(p.uid for p in ours)
    # Other Jobs' pods (a deleted Job's, left beside the one created again under its name) keep
    # their names, which the Job's canonical names avoid.
    taken = frozenset(p.metadata.name for p in others)
    for i, (pod, (name, uid)) in enumerate(zip(ours, _canonical_names(job_key, job_uid, len(ours), taken), strict=True)):
        meta = pod.metadata
        if meta.name != name or meta.uid != uid:
            names[meta.name] = name
            uids[meta.uid] = uid
            ours[i] = _renamed(pod, name, uid)
    if flagged or removals:
        uids.update(_gone_renaming(job_uid, live, uncounted, removals))
    new_uncounted = new_removals = new_hidden = None
    if uids and uncounted is not None and flagged:
        new_uncounted = UncountedTerminatedPods(
            tuple(sorted(uids.get(u, u) for u in uncounted.succeeded)),
            tuple(sorted(uids.get(u, u) for u in uncounted.failed)),
        )
        if new_uncounted == uncounted:
            new_uncounted = None
    if uids and removals:
        new_removals = frozenset(uids.get(u, u) for u in removals)
        if new_removals == removals:
            new_removals = None
    if names and hidden:
        new_hidden = frozenset(names.get(n, n) for n in hidden)
    renamed = tuple(ours)
    return _Renaming(renamed, (*renamed, *others) if others else renamed, new_hidden, new_uncounted, new_removals)


def _gone_renaming(
    job_uid: str, live: frozenset[str], uncounted: UncountedTerminatedPods | None, removals: frozenset[str]
) -> dict[str, str]:
    """Canonical UIDs for the UIDs the status or the controller still names whose pods are gone
    (a pod whose finalizer removal went through and that was then removed, before the status
    write that counts it): `<job uid>-gone-<k>`, ordered by the lists that name them, so that no
    live pod's canonical UID is one of them (two references to one UID would count one pod
    twice) and worlds that differ only in those UIDs are one state."""
    listed_s = uncounted.succeeded if uncounted is not None else ()
    listed_f = uncounted.failed if uncounted is not None else ()
    gone = {u for u in (*listed_s, *listed_f, *removals) if u not in live}
    if not gone:
        return {}
    order = sorted(gone, key=lambda u: (u in listed_s, u in listed_f, u in removals, u))
    return {u: f"{job_uid}-gone-{k}" for k, u in enumerate(order) if u != f"{job_uid}-gone-{k}"}


@lru_cache(maxsize=1 << 8)
def _canonical_names(job_key: str, job_uid: str, count: int, taken: frozenset[str]) -> tuple[tuple[str, str], ...]:
    """The canonical names and UIDs of the Job's first `count` pods: `<job>-<n>` for the
    smallest n whose name no other pod has (below the name counter: see canonical_world)."""
    job_name = job_key.split("/", 1)[1]
    free = (name for name in (f"{job_name}-{n}" for n in itertools.count()) if name not in taken)
    return tuple((name, f"{job_uid}-pod-{i}") for i, name in enumerate(itertools.islice(free, count)))


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
