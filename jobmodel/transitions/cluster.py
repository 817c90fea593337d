"""A simulated cluster around the Job controller: the API server's rules, the informers, the clock.

Everything here is a pure function from a `Cluster` snapshot (and a move's arguments) to the
next snapshot. The rules are those of `../shared/conformance/FORMAT.md` (suite `job-scenario`),
which follow upstream's API server and controllers:

- pods the controller creates appear at once, `Pending`, named `<job name>-<n>` (or, with
  `pod_names="generated"`, as the API server names them from their generateName);
- pod deletion follows the API server's grace-period and finalizer rules (`delete_pod`);
- the controller's informers observe every change at once (`_observe_pod_change` models the
  Job controller's addPod/updatePod/deletePod handlers on its expectations);
- the controller's in-memory state (expectations, back-off records) is kept per Job key and
  lost by `restart_controller`;
- the clock moves only in `advance`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any, TypeGuard

import attrs

from jobmodel.actions import CreatePod, DeletePod, PatchPod, RecordEvent, UpdateJobStatus
from jobmodel.api import strategy as api_strategy
from jobmodel.api.field import FieldError, invalid_status_message
from jobmodel.api.names import generate_name, name_generated_before_create
from jobmodel.api.wire import (
    job_from_json,
    job_status_to_json,
    job_to_json,
    pod_status_from_json,
    pod_status_to_json,
)
from jobmodel.errors import InputError, quote
from jobmodel.features import DEFAULT_GATES, FeatureGates
from jobmodel.frozen import FrozenDict, evolve, evolver, identity_first_eq
from jobmodel.state import (
    FAILED,
    JOB_TRACKING_FINALIZER,
    SUCCEEDED,
    Faults,
    InformerVersions,
    Job,
    JobControllerState,
    JobControllerTunables,
    JobStatus,
    JobSyncInput,
    ObjectMeta,
    OwnerReference,
    Pod,
    selector_matches,
)
from jobmodel.timeutil import add_seconds, format_time
from jobmodel.transitions.pod_utils import has_job_tracking_finalizer
from jobmodel.transitions.sync_job import (
    JobSyncResult,
    is_job_finished,
    managed_by_external_controller,
    sync_job,
    wrote_at,
)
from jobmodel.util.gostrings import decimal_digits_value

DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30  # v1.DefaultTerminationGracePeriodSeconds
SETTLE_MAX_ROUNDS = 200


@attrs.frozen
class ClusterEvent:
    """An event the controller recorded on a Job."""

    job_key: str
    type: str
    reason: str
    message: str


@identity_first_eq
@attrs.frozen(cache_hash=True)
class Cluster:
    """The whole cluster as one value: Jobs and Pods as the API server holds them, the Job
    controller's in-memory state per Job key, the recorded events, gates and the clock."""

    now: datetime
    jobs: tuple[Job, ...] = ()
    pods: tuple[Pod, ...] = ()
    controller: FrozenDict = FrozenDict()  # job key -> JobControllerState
    features: FeatureGates = DEFAULT_GATES
    tunables: JobControllerTunables = JobControllerTunables()
    garbage_collector: bool = False
    pod_counter: int = 0
    events: tuple[ClusterEvent, ...] = ()
    # "counter": `<job>-<n>` (the job-scenario suite's rule); "generated": generateName plus a
    # five-letter suffix, as the API server names them (`<job>-<index>-<suffix>` when Indexed).
    pod_names: str = "counter"

    def job(self, namespace: str, name: str) -> Job | None:
        for job in self.jobs:
            meta = job.metadata
            if meta.name == name and meta.namespace == namespace:
                return job
        return None

    def pod(self, namespace: str, name: str) -> Pod | None:
        for pod in self.pods:
            meta = pod.metadata
            if meta.name == name and meta.namespace == namespace:
                return pod
        return None

    def controller_state(self, key: str) -> JobControllerState:
        state = self.controller.get(key)
        return state if isinstance(state, JobControllerState) else JobControllerState()


# The hottest evolve but the world's (every pod write makes a cluster): the class's own.
with_cluster = evolver(Cluster)


# --- small updates ------------------------------------------------------------------------------


def with_controller_state(cluster: Cluster, key: str, state: JobControllerState) -> Cluster:
    return with_cluster(cluster, controller=cluster.controller.set(key, state))


def replace_job(cluster: Cluster, job: Job) -> Cluster:
    jobs = tuple(job if j.namespace == job.namespace and j.name == job.name else j for j in cluster.jobs)
    return with_cluster(cluster, jobs=jobs)


def remove_job(cluster: Cluster, job: Job) -> Cluster:
    """The Job leaves the API server; the controller's informer tells it (`delete_job_observed`)."""
    return delete_job_observed(without_job(cluster, job), job)


def without_job(cluster: Cluster, job: Job) -> Cluster:
    """The API server's side of a Job's removal: the controller has not observed it yet."""
    return with_cluster(cluster, jobs=tuple(j for j in cluster.jobs if j.uid != job.uid))


def delete_job_observed(cluster: Cluster, job: Job) -> Cluster:
    """Controller.deleteJob, the Job informer's delete handler: besides queueing the key (and the
    orphan sweep), from 1.33 (v1.32.13) it drops the back-off record, from 1.34 the finished mark,
    from 1.36 the consistency record (the Job's uid), from 1.37 the expectations."""
    gates, key = cluster.features, job.key
    if key not in cluster.controller:
        return cluster
    state = cluster.controller_state(key)
    if gates.at_least(33):
        state = evolve(state, backoff=None)
    if gates.at_least(34) and state.finished_uid == job.uid:
        state = evolve(state, finished_uid=None)
    if gates.StaleControllerConsistencyJob and state.consistency is not None and state.consistency.owner_uid == job.uid:
        state = evolve(state, consistency=None)
    if gates.at_least(37):
        state = evolve(state, expectations=None)
    return with_controller_state(cluster, key, state)


def _replace_pod(cluster: Cluster, old: Pod, new: Pod | None) -> Cluster:
    """Write a pod change (None: the pod is gone) and let the controller observe it."""
    namespace, name = old.metadata.namespace, old.metadata.name
    pods = cluster.pods
    # Names are unique in a namespace: the one pod of that name is replaced, by slicing (a
    # generator over the pods cost three times as much; the pod is most often `old` itself).
    for i, p in enumerate(pods):
        if p is old or (p.metadata.name == name and p.metadata.namespace == namespace):
            pods = (*pods[:i], new, *pods[i + 1 :]) if new is not None else (*pods[:i], *pods[i + 1 :])
            break
    # One write of the pods and of the bookkeeping (which reads only the Jobs and itself).
    return with_cluster(cluster, pods=pods, controller=_observe_pod_change(cluster, old, new))


# --- what the controller's informers observe --------------------------------------------------


def resolve_controller_ref(cluster: Cluster, namespace: str, ref: OwnerReference | None) -> Job | None:
    """Controller.resolveControllerRef."""
    if ref is None or ref.kind != "Job":
        return None
    job = cluster.job(namespace, ref.name)
    if job is None or job.uid != ref.uid:
        return None
    return job


def observe_pod_change(cluster: Cluster, old: Pod | None, new: Pod | None) -> Cluster:
    """The informer delivers a pod change late (the cache showed `old`, None: not at all; `new`
    is the API's pod now, None: gone): the controller's handlers act on it."""
    return with_cluster(cluster, controller=_observe_pod_change(cluster, old, new))


def _observe_pod_change(cluster: Cluster, old: Pod | None, new: Pod | None) -> FrozenDict:
    """The Job controller's pod event handlers (addPod, updatePod, deletePod) acting on its
    expectations: creations and deletions observed, tracking-finalizer removals observed.
    Returns the controller's bookkeeping (`Cluster.controller`) after the change."""
    if new is None:
        assert old is not None
        return _deletion_observed(cluster, old, final=True)
    if new.metadata.deletion_timestamp is not None:
        return _deletion_observed(cluster, new, final=False)
    if old is not None and has_job_tracking_finalizer(new):
        return cluster.controller  # an update that removes no finalizer: nothing to observe
    new_ref = new.metadata.controller_ref()
    if old is None:
        job = resolve_controller_ref(cluster, new.metadata.namespace, new_ref)
        if job is None:
            return cluster.controller
        state = cluster.controller_state(job.key)
        if state.expectations is not None:
            exp = state.expectations
            state = evolve(state, expectations=evolve(exp, add=exp.add - 1))
        return cluster.controller.set(job.key, state)
    # updatePod, the finalizer gone: observed for the pod's former controller too, when the
    # update changed its controller reference.
    controller = cluster.controller
    old_ref = old.metadata.controller_ref()
    if old_ref is not None and old_ref != new_ref:
        controller = _finalizer_removal_observed(cluster, controller, old.metadata.namespace, old_ref, new.uid)
    return _finalizer_removal_observed(cluster, controller, new.metadata.namespace, new_ref, new.uid)


def _finalizer_removal_observed(
    cluster: Cluster, controller: FrozenDict, namespace: str, ref: OwnerReference | None, uid: str
) -> FrozenDict:
    """uidTrackingExpectations.finalizerRemovalObserved for the Job the reference resolves to:
    the removal is no longer awaited (returns the bookkeeping after it)."""
    job = resolve_controller_ref(cluster, namespace, ref)
    state = controller.get(job.key) if job is not None else None
    if job is None or not isinstance(state, JobControllerState) or uid not in state.expected_finalizer_removals:
        return controller
    return controller.set(job.key, evolve(state, expected_finalizer_removals=state.expected_finalizer_removals - {uid}))


def _deletion_observed(cluster: Cluster, pod: Pod, final: bool) -> FrozenDict:
    """Controller.deletePod: lower deletion expectations of the owning, unfinished Job (returns
    the controller's bookkeeping after it)."""
    job = resolve_controller_ref(cluster, pod.metadata.namespace, pod.metadata.controller_ref())
    if job is None or is_job_finished(job):
        return cluster.controller
    state = cluster.controller_state(job.key)
    if state.expectations is not None:
        exp = state.expectations
        state = evolve(state, expectations=evolve(exp, delete=exp.delete - 1))
    if final or not has_job_tracking_finalizer(pod):
        state = evolve(state, expected_finalizer_removals=state.expected_finalizer_removals - {pod.uid})
    return cluster.controller.set(job.key, state)


# --- the API server's pod rules ----------------------------------------------------------------


def pod_deletion_grace_period(pod: Pod) -> int:
    """The grace period of a DELETE without one: 0 for unscheduled or terminal pods, else the
    pod's terminationGracePeriodSeconds (defaulted to 30)."""
    if not pod.node_name or pod.phase in (SUCCEEDED, FAILED):
        return 0
    value = pod.spec.get("terminationGracePeriodSeconds")
    if isinstance(value, int) and not isinstance(value, bool):
        return max(value, 0)
    return DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS


def delete_pod(cluster: Cluster, pod: Pod) -> Cluster:
    """A DELETE of a pod through the API: gone at once when the grace period is 0 and no finalizer
    holds it; otherwise marked with deletionTimestamp (clock + grace) and kept."""
    if pod.metadata.deletion_timestamp is not None:
        return cluster
    grace = pod_deletion_grace_period(pod)
    if grace == 0 and not pod.metadata.finalizers:
        return _replace_pod(cluster, pod, None)
    meta = evolve(
        pod.metadata,
        deletion_timestamp=add_seconds(cluster.now, grace),
        deletion_grace_period_seconds=grace,
    )
    return _replace_pod(cluster, pod, evolve(pod, metadata=meta))


def remove_pod(cluster: Cluster, pod: Pod) -> Cluster:
    """The API server removes the pod object (the kubelet's or the pod garbage collector's
    final delete), observed by the controller."""
    return _replace_pod(cluster, pod, None)


def remove_pod_finalizer(cluster: Cluster, pod: Pod, finalizer: str) -> Cluster:
    """A patch removing one finalizer; a pod being deleted with grace 0 goes once none is left."""
    if finalizer not in pod.metadata.finalizers:
        return cluster
    finalizers = tuple(f for f in pod.metadata.finalizers if f != finalizer)
    new = evolve(pod, metadata=evolve(pod.metadata, finalizers=finalizers))
    if not finalizers and pod.metadata.deletion_timestamp is not None and pod.metadata.deletion_grace_period_seconds == 0:
        return _replace_pod(cluster, pod, None)
    return _replace_pod(cluster, pod, new)


def set_pod_status(cluster: Cluster, pod: Pod, patch: Mapping[str, Any]) -> Cluster:
    """A JSON merge patch (RFC 7386) to the pod's status, as a kubelet or a test writes it."""
    merged = json_merge_patch(pod_status_to_json(pod.status), patch)
    status = pod_status_from_json(merged, "status")
    return _replace_pod(cluster, pod, evolve(pod, status=status))


def update_pod(cluster: Cluster, pod: Pod, new: Pod) -> Cluster:
    """A write of the whole pod (a kubelet's status update, say), observed by the controller."""
    return _replace_pod(cluster, pod, new)


def json_merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386: objects merge key by key, null removes, anything else replaces."""
    if not isinstance(patch, Mapping):
        return patch
    result = dict(target) if isinstance(target, Mapping) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = json_merge_patch(result.get(key), value)
    return result


def create_pod_from_controller(cluster: Cluster, pod: Pod) -> Cluster:
    """The API server creates a pod the controller asked for: named `<job>-<n>` (or from its
    generateName), Pending, now."""
    owner = pod.metadata.controller_ref()
    base = owner.name if owner is not None else pod.metadata.generate_name.rstrip("-")
    n = cluster.pod_counter
    if cluster.pod_names == "generated" and pod.metadata.generate_name:
        name = generate_name(pod.metadata.generate_name, f"{owner.uid if owner else ''}/{n}")
    else:
        name = f"{base}-{n}"
    meta = evolve(
        pod.metadata,
        name=name,
        uid=f"{owner.uid if owner else 'pod'}-pod-{n}",
        creation_timestamp=cluster.now,
        resource_version="1",
    )
    created = Pod(meta, pod.spec, evolve(pod.status, phase="Pending"))
    # The pod, the counter and the controller's observing it in one write.
    controller = _observe_pod_change(cluster, None, created)
    return with_cluster(cluster, pods=(*cluster.pods, created), pod_counter=n + 1, controller=controller)


# --- the Job controller acting on the cluster ---------------------------------------------------


def job_sync_input(
    cluster: Cluster,
    job: Job | None,
    key: str,
    faults: Faults = Faults(),
    *,
    unseen: frozenset[str] = frozenset(),
    cached: tuple[Pod, ...] = (),
    informers: InformerVersions = InformerVersions(),
    write_version: int = 1,
) -> JobSyncInput:
    """What the controller sees for one sync: the Job, its namespace's pods (but those its cache
    has not seen yet, `unseen`, and those it still shows in an older version, `cached`), its
    bookkeeping, and what its informers have caught up with."""
    namespace = key.split("/", 1)[0]
    pods = tuple(p for p in cluster.pods if p.metadata.namespace == namespace and p.metadata.name not in unseen)
    return JobSyncInput(
        job=job,
        pods=cache_view(pods, cached) if cached else pods,
        now=cluster.now,
        job_key=key,
        controller=cluster.controller_state(key),
        features=cluster.features,
        faults=faults,
        tunables=cluster.tunables,
        informers=informers,
        write_version=write_version,
    )


def api_status_check(gates: FeatureGates) -> Callable[[Job, JobStatus], str | None]:
    """The API server's check of a Job status write (jobStatusStrategy: ValidateJobUpdateStatus)."""

    def check(stored: Job, status: JobStatus) -> str | None:
        old = job_to_json(stored)
        _, errors = api_strategy.update_job_status({**old, "status": job_status_to_json(status)}, old, gates)
        return invalid_status_message("Job.batch", stored.name, errors) if errors else None

    return check


def controller_sync(cluster: Cluster, key: str, faults: Faults = Faults()) -> tuple[Cluster, JobSyncResult]:
    """One syncJob of the Job with this key, its accepted API calls applied to the cluster; the
    API server checks every status write as it does on the status subresource."""
    namespace, name = key.split("/", 1)
    job = cluster.job(namespace, name)
    if faults.status_check is None:
        faults = evolve(faults, status_check=api_status_check(cluster.features))
    result = sync_job(job_sync_input(cluster, job, key, faults))
    cluster = with_controller_state(cluster, key, result.controller)
    return apply_job_sync_actions(cluster, key, result), result


def cache_view(pods: tuple[Pod, ...], cached: tuple[Pod, ...]) -> tuple[Pod, ...]:
    """The pods as an informer shows them that has not yet delivered the latest writes of the
    `cached` pods: those in their older version, in place (after the others when they are gone
    since)."""
    older = {p.metadata.name: p for p in cached}
    shown = tuple(older.pop(p.metadata.name, p) for p in pods)
    return (*shown, *older.values()) if older else shown


def write_observed_late(action: object, late_writes: str | None) -> TypeGuard[PatchPod | DeletePod]:
    """Whether the informer delivers this call of a sync late: its removals of the tracking
    finalizer ("patches") or its pod deletions ("deletions")."""
    if late_writes == "patches":
        return isinstance(action, PatchPod) and action.kind == "remove-finalizer"
    return late_writes == "deletions" and isinstance(action, DeletePod)


def apply_job_sync_actions(cluster: Cluster, key: str, result: JobSyncResult) -> Cluster:
    """Carry out the accepted API calls of a sync in the order the controller made them."""
    return apply_job_sync_actions_late(cluster, key, result, None)[0]


def apply_job_sync_actions_late(
    cluster: Cluster, key: str, result: JobSyncResult, late_writes: str | None, lagging: frozenset[str] = frozenset()
) -> tuple[Cluster, tuple[Pod, ...]]:
    """`apply_job_sync_actions`, but the informer does not deliver the `late_writes` yet
    (`write_observed_late`), nor any later write of the same pod, nor any write of a pod whose
    earlier writes it has not delivered (`lagging`, by name): it delivers a pod's writes in
    order. The controller's handlers do not observe them (`observe_pod_change` does, later).
    Also returns each pod so written as the cache still shows it: as it was right before its
    first late write (a `lagging` pod's older version is the caller's)."""
    namespace, name = key.split("/", 1)
    shown: dict[str, Pod] = {}
    held_back = late_writes is not None or bool(lagging)
    for action in result.actions:
        if isinstance(action, RecordEvent):
            event = ClusterEvent(key, action.type, action.reason, action.message)
            cluster = with_cluster(cluster, events=(*cluster.events, event))
            continue
        if not getattr(action, "accepted", False):
            continue
        before = cluster
        if isinstance(action, CreatePod):
            cluster = create_pod_from_controller(cluster, action.pod)
        elif isinstance(action, DeletePod):
            pod = cluster.pod(namespace, action.name)
            if pod is not None:
                cluster = delete_pod(cluster, pod)
        elif isinstance(action, PatchPod):
            cluster = _apply_pod_patch(cluster, namespace, name, action)
        elif isinstance(action, UpdateJobStatus):
            job = cluster.job(namespace, name)
            if job is not None:
                cluster = replace_job(cluster, evolve(job, status=action.status))
        if held_back and (
            write_observed_late(action, late_writes)
            or (isinstance(action, (PatchPod, DeletePod)) and (action.name in shown or action.name in lagging))
        ):
            # The write without the handlers' part (they only change the bookkeeping).
            cluster = with_cluster(cluster, controller=before.controller)
            old = before.pod(namespace, action.name)
            if old is not None and action.name not in lagging:
                shown.setdefault(old.metadata.name, old)
    return cluster, tuple(shown.values())


def _apply_pod_patch(cluster: Cluster, namespace: str, job_name: str, action: PatchPod) -> Cluster:
    pod = cluster.pod(namespace, action.name)
    if pod is None:
        return cluster
    if action.kind == "remove-finalizer":
        return remove_pod_finalizer(cluster, pod, JOB_TRACKING_FINALIZER)
    job = cluster.job(namespace, job_name)
    if job is None:
        return cluster
    if action.kind == "adopt":
        owner = OwnerReference("batch/v1", "Job", job.name, job.uid, controller=True, block_owner_deletion=True)
        finalizers = pod.metadata.finalizers
        if JOB_TRACKING_FINALIZER not in finalizers:
            finalizers = (*finalizers, JOB_TRACKING_FINALIZER)
        meta = evolve(
            pod.metadata, owner_references=(*pod.metadata.owner_references, owner), finalizers=finalizers
        )
        return _replace_pod(cluster, pod, evolve(pod, metadata=meta))
    if action.kind == "release":
        refs = tuple(r for r in pod.metadata.owner_references if r.uid != job.uid)
        finalizers = tuple(f for f in pod.metadata.finalizers if f != JOB_TRACKING_FINALIZER)
        meta = evolve(pod.metadata, owner_references=refs, finalizers=finalizers)
        return _replace_pod(cluster, pod, evolve(pod, metadata=meta))
    return cluster


def orphan_pod_cleanup(cluster: Cluster, unseen: frozenset[str] = frozenset(), write_version: int = 1) -> Cluster:
    """handleSingleOrphanPod for every pod with the tracking finalizer that the controller's cache
    shows (all but `unseen`): remove the finalizer from pods without an owning Job, or whose Job
    is finished, unless another controller manages it. Each removal is a pod write of the
    controller, recorded (`pod_write_recorded`) as its sync's are."""
    for pod in list(cluster.pods):
        if not has_job_tracking_finalizer(pod) or pod.name in unseen:
            continue
        ref = pod.metadata.controller_ref()
        if ref is not None:
            if ref.kind != "Job" or ref.api_version != "batch/v1":
                continue
            job = resolve_controller_ref(cluster, pod.metadata.namespace, ref)
            if job is not None and managed_by_external_controller(job, cluster.features) is not None:
                continue
            if job is not None and not is_job_finished(job):
                continue
        current = cluster.pod(pod.metadata.namespace, pod.name)
        if current is not None:
            cluster = pod_write_recorded(remove_pod_finalizer(cluster, current, JOB_TRACKING_FINALIZER), current, write_version)
    return cluster


def pod_write_recorded(cluster: Cluster, pod: Pod, version: int) -> Cluster:
    """The Job controller's RealPodControl.OnWrite (1.36+, StaleControllerConsistencyJob): a pod
    write is recorded (ConsistencyStore.WroteAt) under the name in the pod's controller reference
    and with its uid, whichever Job of that name the controller holds state for; so a sync of
    that name waits for the pod informer to show it (EnsureReady)."""
    ref = pod.metadata.controller_ref()
    if not cluster.features.StaleControllerConsistencyJob or ref is None:
        return cluster
    key = f"{pod.metadata.namespace}/{ref.name}"
    state = cluster.controller_state(key)
    record = wrote_at(state.consistency, ref.uid, "pods", version)
    return cluster if record is state.consistency else with_controller_state(cluster, key, evolve(state, consistency=record))


def restart_controller(cluster: Cluster) -> Cluster:
    """The controller restarts: expectations and back-off records are lost."""
    return with_cluster(cluster, controller=FrozenDict())


def advance(cluster: Cluster, seconds: float) -> Cluster:
    """The clock moves forward; nothing else happens."""
    if seconds < 0:
        raise InputError("seconds", "the clock only moves forward")
    return with_cluster(cluster, now=add_seconds(cluster.now, seconds))


def _fingerprint(cluster: Cluster) -> tuple[object, ...]:
    return (cluster.jobs, cluster.pods)


def settle(
    cluster: Cluster,
    on_sync: Callable[[Cluster, str, JobSyncResult], None] | None = None,
) -> Cluster:
    """The controllers run until none would act at the current clock: every Job is synced, the
    orphan-pod work and (with a garbage collector) the collector's work are done, again and again
    until the cluster stops changing."""
    for _ in range(SETTLE_MAX_ROUNDS):
        before = _fingerprint(cluster)
        for key in _job_keys(cluster):
            cluster, result = controller_sync(cluster, key)
            if on_sync is not None:
                on_sync(cluster, key, result)
        cluster = orphan_pod_cleanup(cluster)
        if cluster.garbage_collector:
            cluster = garbage_collect(cluster)
        if _fingerprint(cluster) == before:
            return cluster
    raise InputError("settle", f"the controllers did not settle within {SETTLE_MAX_ROUNDS} rounds")


def _job_keys(cluster: Cluster) -> list[str]:
    """Keys of the Jobs in the cluster, plus keys the controller still holds state for."""
    keys = [j.key for j in cluster.jobs]
    keys.extend(k for k in cluster.controller if k not in keys)
    return keys


def pods_of_job(cluster: Cluster, job: Job) -> list[Pod]:
    """The pods of the Job's namespace whose labels match its selector, in creation order."""
    pods = [
        p
        for p in cluster.pods
        if p.metadata.namespace == job.namespace and selector_matches(job.spec.selector, p.metadata.labels)
    ]
    return sorted(pods, key=creation_order)


def creation_order(pod: Pod) -> tuple[int, str]:
    """The n of the pod's creation: from its uid (`<owner uid>-pod-<n>`, whatever its name), else
    from its name (`<job>-<n>`)."""
    for text, sep in ((pod.uid, "-pod-"), (pod.name, "-")):
        suffix = text.rsplit(sep, 1)[-1] if sep in text else ""
        if suffix.isascii() and suffix.isdigit():  # not `²`, which isdigit() takes and int() refuses
            return (decimal_digits_value(suffix), pod.name)
    return (1 << 62, pod.name)


def owned_meta(job: Job, name: str) -> ObjectMeta:
    """Metadata of a pod owned by the Job (for tests and users creating pods)."""
    owner = OwnerReference("batch/v1", "Job", job.name, job.uid, controller=True, block_owner_deletion=True)
    return ObjectMeta(name=name, namespace=job.namespace, owner_references=(owner,))


def all_pods(cluster: Cluster, names: Iterable[str]) -> list[Pod]:
    return [p for p in cluster.pods if p.name in set(names)]


# --- the API server's Job rules ---------------------------------------------------------------------

ORPHAN_FINALIZER = "orphan"
FOREGROUND_FINALIZER = "foregroundDeletion"
PROPAGATION_POLICIES = ("Orphan", "Background", "Foreground")


def create_job(cluster: Cluster, manifest: Mapping[str, Any], uid: str) -> tuple[Cluster, list[FieldError]]:
    """A Job create through the API: the handler's strict decoding and owner-reference dedup
    (`strategy.handler_request`), defaults, selector generation, validation (jobmodel.api); a
    rejected create changes nothing and returns its field errors."""
    request = api_strategy.handler_request("Job", name_generated_before_create(manifest, uid), cluster.features.release)[0]
    stored, errors = api_strategy.create_job(request, uid, cluster.features)
    if errors:
        return cluster, errors
    meta = stored.setdefault("metadata", {})
    meta.setdefault("namespace", "default")
    if cluster.job(meta["namespace"], str(meta.get("name", ""))) is not None:
        raise InputError("metadata.name", f"a Job named {quote(meta.get('name'))} already exists")
    meta["creationTimestamp"] = format_time(cluster.now)
    meta["resourceVersion"] = "1"
    job = job_from_json(stored, "job")
    return with_cluster(cluster, jobs=(*cluster.jobs, job)), []


def update_job(
    cluster: Cluster, namespace: str, name: str, patch: Mapping[str, Any]
) -> tuple[Cluster, list[FieldError]]:
    """A JSON merge patch to the Job applied as an update (the handler's strict decoding and
    owner-reference dedup,
    defaults, PrepareForUpdate, ValidateUpdate); a rejected update changes nothing and returns
    its field errors."""
    job = cluster.job(namespace, name)
    if job is None:
        raise InputError("updateJob", f"no Job {namespace}/{name}")
    old = job_to_json(job)
    new = api_strategy.handler_request("Job", json_merge_patch(old, patch), cluster.features.release)[0]
    stored, errors = api_strategy.update_job(new, old, cluster.features)
    if errors:
        return cluster, errors
    return replace_job(cluster, job_from_json(stored, "job")), []


def delete_job(cluster: Cluster, namespace: str, name: str, propagation: str = "Orphan") -> Cluster:
    """A Job DELETE: `Background` removes it at once; `Orphan` and `Foreground` mark it deleted with
    their finalizer and leave the rest to the garbage collector."""
    if propagation not in PROPAGATION_POLICIES:
        raise InputError("propagationPolicy", f"must be one of {', '.join(PROPAGATION_POLICIES)}")
    job = cluster.job(namespace, name)
    if job is None:
        raise InputError("deleteJob", f"no Job {namespace}/{name}")
    if propagation == "Background":
        return remove_job(cluster, job)
    finalizer = ORPHAN_FINALIZER if propagation == "Orphan" else FOREGROUND_FINALIZER
    finalizers = job.metadata.finalizers
    if finalizer not in finalizers:
        finalizers = (*finalizers, finalizer)
    meta = evolve(job.metadata, deletion_timestamp=cluster.now, finalizers=finalizers)
    return replace_job(cluster, evolve(job, metadata=meta))


def garbage_collect(cluster: Cluster) -> Cluster:
    """The garbage collector: orphans the dependents of Jobs deleted with `Orphan`, deletes the
    dependents of removed Jobs and of Jobs deleted with `Foreground`, and removes Jobs whose
    deletion no longer waits for anything."""
    live_uids = {j.uid for j in cluster.jobs}
    for job in list(cluster.jobs):
        if job.metadata.deletion_timestamp is None:
            continue
        dependents = _dependents(cluster, job.uid)
        if ORPHAN_FINALIZER in job.metadata.finalizers:
            for pod in dependents:
                refs = tuple(r for r in pod.metadata.owner_references if r.uid != job.uid)
                cluster = _replace_pod(cluster, pod, evolve(pod, metadata=evolve(pod.metadata, owner_references=refs)))
            cluster = _drop_job_finalizer(cluster, job, ORPHAN_FINALIZER)
        elif FOREGROUND_FINALIZER in job.metadata.finalizers:
            for pod in dependents:
                current = cluster.pod(pod.metadata.namespace, pod.name)
                if current is not None:
                    cluster = delete_pod(cluster, current)
            if not _dependents(cluster, job.uid):
                cluster = _drop_job_finalizer(cluster, job, FOREGROUND_FINALIZER)
    # Dependents whose owner is gone are deleted (Background propagation).
    for pod in list(cluster.pods):
        owners = [r for r in pod.metadata.owner_references if r.kind == "Job"]
        if owners and all(r.uid not in live_uids and cluster.job(pod.metadata.namespace, r.name) is None for r in owners):
            current = cluster.pod(pod.metadata.namespace, pod.name)
            if current is not None:
                cluster = delete_pod(cluster, current)
    return cluster


def _dependents(cluster: Cluster, owner_uid: str) -> list[Pod]:
    return [p for p in cluster.pods if any(r.uid == owner_uid for r in p.metadata.owner_references)]


def _drop_job_finalizer(cluster: Cluster, job: Job, finalizer: str) -> Cluster:
    current = next((j for j in cluster.jobs if j.uid == job.uid), None)
    if current is None:
        return cluster
    finalizers = tuple(f for f in current.metadata.finalizers if f != finalizer)
    if not finalizers and current.metadata.deletion_timestamp is not None:
        return remove_job(cluster, current)
    return replace_job(cluster, evolve(current, metadata=evolve(current.metadata, finalizers=finalizers)))
