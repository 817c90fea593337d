"""Immutable snapshots of everything the controllers read: Jobs, Pods, the controller's bookkeeping, the clock.

Every class is a frozen, slotted `attrs` class, so snapshots are hashable values that
the checkers can store and compare. Fields the controllers read are typed; parts of an
object the controllers only copy (a pod's containers, say) are kept as frozen JSON.
Names follow the Kubernetes API (`batch/v1`, `core/v1`) in snake case.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime

import attrs

from jobmodel.errors import InputError, quote
from jobmodel.features import DEFAULT_GATES, FeatureGates
from jobmodel.frozen import EMPTY, FrozenDict, identity_first_eq

JOB_TRACKING_FINALIZER = "batch.kubernetes.io/job-tracking"
JOB_COMPLETION_INDEX_ANNOTATION = "batch.kubernetes.io/job-completion-index"
JOB_INDEX_FAILURE_COUNT_ANNOTATION = "batch.kubernetes.io/job-index-failure-count"
JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION = "batch.kubernetes.io/job-index-ignored-failure-count"
JOB_CONTROLLER_NAME = "kubernetes.io/job-controller"

# Pod phases
PENDING, RUNNING, SUCCEEDED, FAILED, UNKNOWN = "Pending", "Running", "Succeeded", "Failed", "Unknown"

# Job condition types
COMPLETE, FAILED_CONDITION = "Complete", "Failed"
SUSPENDED, FAILURE_TARGET, SUCCESS_CRITERIA_MET = "Suspended", "FailureTarget", "SuccessCriteriaMet"

# Job completion modes and pod replacement policies
NON_INDEXED, INDEXED = "NonIndexed", "Indexed"
TERMINATING_OR_FAILED, FAILED_ONLY = "TerminatingOrFailed", "Failed"


# --- metadata -------------------------------------------------------------------------------


@attrs.frozen
class OwnerReference:
    """metav1.OwnerReference."""

    api_version: str
    kind: str
    name: str
    uid: str
    controller: bool = False
    block_owner_deletion: bool = False


@identity_first_eq
@attrs.frozen(cache_hash=True)
class ObjectMeta:
    """The metav1.ObjectMeta fields the controllers read or write; `extra` keeps the rest."""

    name: str = ""
    namespace: str = ""
    uid: str = ""
    generate_name: str = ""
    labels: FrozenDict = EMPTY
    annotations: FrozenDict = EMPTY
    finalizers: tuple[str, ...] = ()
    owner_references: tuple[OwnerReference, ...] = ()
    creation_timestamp: datetime | None = None
    deletion_timestamp: datetime | None = None
    deletion_grace_period_seconds: int | None = None
    generation: int = 0
    resource_version: str = ""
    extra: FrozenDict = EMPTY

    def controller_ref(self) -> OwnerReference | None:
        """metav1.GetControllerOf: the owner reference with `controller: true`."""
        for ref in self.owner_references:
            if ref.controller:
                return ref
        return None


class _Named:
    """`name`, `namespace` and `uid` of an object with metadata (for Pod, Job and CronJob)."""

    __slots__ = ()
    metadata: ObjectMeta

    @property
    def name(self) -> str:
        return self.metadata.name

    @property
    def namespace(self) -> str:
        return self.metadata.namespace

    @property
    def uid(self) -> str:
        return self.metadata.uid


# --- label selectors ------------------------------------------------------------------------


@attrs.frozen
class LabelSelectorRequirement:
    """metav1.LabelSelectorRequirement."""

    key: str
    operator: str
    values: tuple[str, ...] = ()


@attrs.frozen
class LabelSelector:
    """metav1.LabelSelector."""

    match_labels: FrozenDict = EMPTY
    match_expressions: tuple[LabelSelectorRequirement, ...] = ()


def selector_matches(selector: LabelSelector | None, labels: Mapping[str, str]) -> bool:
    """metav1.LabelSelectorAsSelector(selector).Matches(labels); a nil selector matches nothing,
    an empty one everything."""
    if selector is None:
        return False
    for key, value in selector.match_labels.items():
        if labels.get(key) != value:
            return False
    for req in selector.match_expressions:
        present = req.key in labels
        value = labels.get(req.key)
        if req.operator == "In":
            if not present or value not in req.values:
                return False
        elif req.operator == "NotIn":
            if present and value in req.values:
                return False
        elif req.operator == "Exists":
            if not present:
                return False
        elif req.operator == "DoesNotExist":
            if present:
                return False
        else:
            return False
    return True


# --- pods -----------------------------------------------------------------------------------


@attrs.frozen
class Condition:
    """The fields a PodCondition and a JobCondition share (the model keeps no other)."""

    type: str
    status: str
    reason: str = ""
    message: str = ""
    last_probe_time: datetime | None = None
    last_transition_time: datetime | None = None


@attrs.frozen
class PodCondition(Condition):
    """v1.PodCondition."""


@attrs.frozen
class ContainerStateTerminated:
    """v1.ContainerStateTerminated."""

    exit_code: int = 0
    finished_at: datetime | None = None
    started_at: datetime | None = None
    reason: str = ""
    message: str = ""
    signal: int = 0


@attrs.frozen
class ContainerStatus:
    """v1.ContainerStatus: `terminated` is typed; the other states are kept as frozen JSON."""

    name: str = ""
    restart_count: int = 0
    terminated: ContainerStateTerminated | None = None
    other_state: FrozenDict = EMPTY
    extra: FrozenDict = EMPTY


@identity_first_eq
@attrs.frozen(cache_hash=True)
class PodStatus:
    """v1.PodStatus."""

    phase: str = ""
    conditions: tuple[PodCondition, ...] = ()
    container_statuses: tuple[ContainerStatus, ...] = ()
    init_container_statuses: tuple[ContainerStatus, ...] = ()
    start_time: datetime | None = None
    extra: FrozenDict = EMPTY


@identity_first_eq
@attrs.frozen(cache_hash=True)
class Pod(_Named):
    """v1.Pod: typed metadata and status; the spec is frozen JSON, read through the helpers below."""

    metadata: ObjectMeta
    spec: FrozenDict = EMPTY
    status: PodStatus = PodStatus()

    @property
    def phase(self) -> str:
        return self.status.phase

    @property
    def node_name(self) -> str:
        value = self.spec.get("nodeName", "")
        return value if isinstance(value, str) else ""

    def restartable_init_container_names(self) -> frozenset[str]:
        """Names of sidecar containers (init containers with `restartPolicy: Always`)."""
        names = set()
        for container in self.spec.get("initContainers", ()) or ():
            if isinstance(container, FrozenDict) and container.get("restartPolicy") == "Always":
                names.add(str(container.get("name", "")))
        return frozenset(names)


# --- jobs -----------------------------------------------------------------------------------


@attrs.frozen(cache_hash=True)
class PodTemplateSpec:
    """v1.PodTemplateSpec: the metadata the Job controller edits, and the pod spec as frozen JSON."""

    labels: FrozenDict = EMPTY
    annotations: FrozenDict = EMPTY
    finalizers: tuple[str, ...] = ()
    metadata_extra: FrozenDict = EMPTY
    spec: FrozenDict = EMPTY

    @property
    def restart_policy(self) -> str:
        value = self.spec.get("restartPolicy", "")
        return value if isinstance(value, str) else ""


@attrs.frozen
class OnExitCodesRequirement:
    """batch.PodFailurePolicyOnExitCodesRequirement."""

    operator: str
    values: tuple[int, ...]
    container_name: str | None = None


@attrs.frozen
class OnPodConditionsPattern:
    """batch.PodFailurePolicyOnPodConditionsPattern."""

    type: str
    status: str = "True"


@attrs.frozen
class PodFailurePolicyRule:
    """batch.PodFailurePolicyRule: exactly one of the two requirements is set by validation."""

    action: str
    on_exit_codes: OnExitCodesRequirement | None = None
    on_pod_conditions: tuple[OnPodConditionsPattern, ...] | None = None


@attrs.frozen
class PodFailurePolicy:
    """batch.PodFailurePolicy."""

    rules: tuple[PodFailurePolicyRule, ...] = ()


@attrs.frozen
class SuccessPolicyRule:
    """batch.SuccessPolicyRule."""

    succeeded_indexes: str | None = None
    succeeded_count: int | None = None


@attrs.frozen
class SuccessPolicy:
    """batch.SuccessPolicy."""

    rules: tuple[SuccessPolicyRule, ...] = ()


@identity_first_eq
@attrs.frozen(cache_hash=True)
class JobSpec:
    """batch.JobSpec; `None` is an unset (pointer) field, as the controller sees it."""

    template: PodTemplateSpec = PodTemplateSpec()
    parallelism: int | None = None
    completions: int | None = None
    active_deadline_seconds: int | None = None
    pod_failure_policy: PodFailurePolicy | None = None
    success_policy: SuccessPolicy | None = None
    backoff_limit: int | None = None
    backoff_limit_per_index: int | None = None
    max_failed_indexes: int | None = None
    selector: LabelSelector | None = None
    manual_selector: bool | None = None
    ttl_seconds_after_finished: int | None = None
    completion_mode: str | None = None
    suspend: bool | None = None
    pod_replacement_policy: str | None = None
    managed_by: str | None = None


@attrs.frozen
class JobCondition(Condition):
    """batch.JobCondition."""


@attrs.frozen
class UncountedTerminatedPods:
    """batch.UncountedTerminatedPods: pod UIDs whose finalizer removal is pending."""

    succeeded: tuple[str, ...] = ()
    failed: tuple[str, ...] = ()


@identity_first_eq
@attrs.frozen(cache_hash=True)
class JobStatus:
    """batch.JobStatus; `None` is an absent pointer field."""

    conditions: tuple[JobCondition, ...] = ()
    start_time: datetime | None = None
    completion_time: datetime | None = None
    active: int = 0
    succeeded: int = 0
    failed: int = 0
    terminating: int | None = None
    completed_indexes: str = ""
    failed_indexes: str | None = None
    uncounted_terminated_pods: UncountedTerminatedPods | None = None
    ready: int | None = None

    def condition(self, ctype: str) -> JobCondition | None:
        """findConditionByType: the first condition of the given type."""
        for cond in self.conditions:
            if cond.type == ctype:
                return cond
        return None


@identity_first_eq
@attrs.frozen(cache_hash=True)
class Job(_Named):
    """batch.Job."""

    metadata: ObjectMeta
    spec: JobSpec = JobSpec()
    status: JobStatus = JobStatus()

    @property
    def key(self) -> str:
        """The controller's queue key, `namespace/name`."""
        return f"{self.metadata.namespace}/{self.metadata.name}"


# --- the controller's own bookkeeping -------------------------------------------------------


EXPECTATIONS_TIMEOUT_SECONDS = 300.0  # controller.ExpectationsTimeout


@attrs.frozen
class Expectations:
    """controller.ControlleeExpectations: pod creations and deletions the controller still expects to see,
    and when they were set (they expire after five minutes)."""

    add: int = 0
    delete: int = 0
    timestamp: datetime | None = None

    def fulfilled(self) -> bool:
        """ControlleeExpectations.Fulfilled."""
        return self.add <= 0 and self.delete <= 0

    def expired(self, now: datetime) -> bool:
        """ControlleeExpectations.isExpired; a record without a time never expires."""
        if self.timestamp is None:
            return False
        return (now - self.timestamp).total_seconds() > EXPECTATIONS_TIMEOUT_SECONDS


@attrs.frozen
class BackoffRecord:
    """backoffRecord of backoff_utils.go: failures since the last success, for the pod-recreation delay."""

    failures_after_last_success: int = 0
    last_failure_time: datetime | None = None


@attrs.frozen(cache_hash=True)
class ConsistencyRecord:
    """consistencyutil.ConsistencyStore's record for one Job key (1.36+, StaleControllerConsistencyJob):
    the owner's uid and the newest resourceVersion the controller wrote per resource (pods, jobs)."""

    owner_uid: str
    pods: int | None = None
    jobs: int | None = None


@attrs.frozen(cache_hash=True)
class InformerVersions:
    """The resourceVersion each informer's store has caught up with (LastStoreSyncResourceVersion);
    None when unknown (AtomicFIFO off, or nothing to compare): then nothing waits on it."""

    pods: int | None = None
    jobs: int | None = None


@identity_first_eq
@attrs.frozen(cache_hash=True)
class JobControllerState:
    """The Job controller's in-memory state for one Job (lost when the controller restarts).

    `expectations` is None when the controller holds no expectations for the Job (as after a
    restart); that counts as satisfied. `backoff` is None when there is no back-off record.
    `consistency` is the consistency store's record (1.36+); `finished_uid` the uid of the Job
    whose finishing status write the cache has not shown yet (finishedJobExpectations, 1.34+).
    """

    expectations: Expectations | None = None
    backoff: BackoffRecord | None = None
    expected_finalizer_removals: frozenset[str] = frozenset()
    consistency: ConsistencyRecord | None = None
    finished_uid: str | None = None


@attrs.frozen(cache_hash=True)
class JobControllerTunables:
    """The package variables upstream's tests override (job_controller.go)."""

    pod_failure_backoff_seconds: float = 10.0  # DefaultJobPodFailureBackOff
    max_pod_failure_backoff_seconds: float = 600.0  # MaxJobPodFailureBackOff
    max_uncounted_pods: int = 500  # MaxUncountedPods
    max_pod_create_delete_per_sync: int = 500  # MaxPodCreateDeletePerSync


# The largest value a tunable (seconds or a count) may be given: the controllers' time
# arithmetic stays within datetime's range.
MAX_TUNABLE = 1e9


def checked_tunable(name: str, value: object, path: str) -> float | int:
    """A tunable as given (`name` a JobControllerTunables field): seconds a number from 0 to
    MAX_TUNABLE, a count (a Go int upstream) a whole number from 1; an InputError names `path`."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= MAX_TUNABLE:
        raise InputError(path, f"expected a number from 0 to {MAX_TUNABLE:g}, got {quote(value)}")
    if isinstance(getattr(JobControllerTunables(), name), int) and (not isinstance(value, int) or value < 1):
        raise InputError(path, f"expected a whole number from 1 (a count), got {quote(value)}")
    return value


@attrs.frozen
class Faults:
    """API failures injected into one controller step. `status_check`, when given, is the API
    server's check of a status write: (the Job as stored, the status sent) -> the rejection's
    message, or None when the write is accepted."""

    pod_control_error: str | None = None
    status_update_error: str | None = None
    pod_create_limit: int | None = None
    status_check: Callable[[Job, JobStatus], str | None] | None = None


@attrs.frozen(cache_hash=True)
class JobSyncInput:
    """Everything one `syncJob` reads: the cached Job (None when gone), the namespace's pods, bookkeeping, clock."""

    job: Job | None
    pods: tuple[Pod, ...]
    now: datetime
    job_key: str = ""
    controller: JobControllerState = JobControllerState()
    features: FeatureGates = DEFAULT_GATES
    faults: Faults = Faults()
    tunables: JobControllerTunables = JobControllerTunables()
    # What the informers have caught up with, and the resourceVersion the step's writes get
    # (read by the consistency store of 1.36+).
    informers: InformerVersions = InformerVersions()
    write_version: int = 1

    @property
    def key(self) -> str:
        if self.job_key:
            return self.job_key
        return self.job.key if self.job is not None else ""


# --- cronjobs -------------------------------------------------------------------------------
# (CronJob controller snapshots; maintained with jobmodel/transitions/sync_cronjob.py)

ALLOW_CONCURRENT, FORBID_CONCURRENT, REPLACE_CONCURRENT = "Allow", "Forbid", "Replace"
CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION = "batch.kubernetes.io/cronjob-scheduled-timestamp"


@attrs.frozen
class ObjectReference:
    """v1.ObjectReference: an entry of a CronJob's `status.active`."""

    name: str
    namespace: str = ""
    uid: str = ""
    api_version: str = "batch/v1"
    kind: str = "Job"
    resource_version: str = ""


@attrs.frozen
class JobTemplateSpec:
    """batch.JobTemplateSpec: the metadata copied onto each Job, and the Job spec."""

    labels: FrozenDict = EMPTY
    annotations: FrozenDict = EMPTY
    metadata_extra: FrozenDict = EMPTY
    spec: JobSpec = JobSpec()


@attrs.frozen
class CronJobSpec:
    """batch.CronJobSpec; `None` is an unset (pointer) field. `concurrency_policy` "" (unset in
    the cache) behaves as Allow."""

    schedule: str = ""
    time_zone: str | None = None
    starting_deadline_seconds: int | None = None
    concurrency_policy: str = ""
    suspend: bool | None = None
    job_template: JobTemplateSpec = JobTemplateSpec()
    successful_jobs_history_limit: int | None = None
    failed_jobs_history_limit: int | None = None


@attrs.frozen
class CronJobStatus:
    """batch.CronJobStatus."""

    active: tuple[ObjectReference, ...] = ()
    last_schedule_time: datetime | None = None
    last_successful_time: datetime | None = None


@attrs.frozen
class CronJob(_Named):
    """batch.CronJob."""

    metadata: ObjectMeta
    spec: CronJobSpec = CronJobSpec()
    status: CronJobStatus = CronJobStatus()


@attrs.frozen
class CronJobFaults:
    """What the API server answers differently from the cache in one CronJob sync, and its
    injected failures. `api_cron_job`/`api_jobs` None: the API server agrees with the cache."""

    api_cron_job: CronJob | None = None
    api_jobs: tuple[Job, ...] | None = None
    job_create_error: str | None = None
    job_get_error: str | None = None
    job_delete_error: str | None = None  # every Job delete fails with it
    status_update_error: str | None = None  # the CronJob status write fails with it
    cron_job_get_error: str | None = None  # every read of the CronJob from the API server fails with it


@attrs.frozen
class CronJobSyncInput:
    """Everything one CronJob controller `sync` reads: the cached CronJob (None when gone), the
    Jobs of its namespace in the cache, the clock, the gates and the API server's answers."""

    cron_job: CronJob | None
    jobs: tuple[Job, ...]
    now: datetime
    gates: FeatureGates = DEFAULT_GATES
    faults: CronJobFaults = CronJobFaults()
