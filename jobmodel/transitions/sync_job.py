"""One reconcile step of the Job controller (upstream pkg/controller/job/job_controller.go `syncJob`).

`sync_job(JobSyncInput) -> JobSyncResult` is a pure function. Upstream's step talks to the API
server as it goes (creating and deleting pods, patching finalizers, writing the Job status) and
reacts to each call's outcome; here every call becomes an action value whose outcome is decided
by the injected `Faults`, and the step goes on exactly as upstream does with that outcome.
The order of the code follows upstream's, function by function, so the two can be read side by side.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any

import attrs

from jobmodel.actions import (
    Action,
    CreatePod,
    DeletePod,
    PatchPod,
    RecordEvent,
    Requeue,
    UpdateJobStatus,
)
from jobmodel.api.meta_validation import (
    is_qualified_name,
    is_valid_label_value,
    name_is_dns_subdomain,
)
from jobmodel.errors import InputError
from jobmodel.features import FeatureGates
from jobmodel.frozen import FrozenDict, evolve, freeze
from jobmodel.state import (
    COMPLETE,
    FAILED,
    FAILED_CONDITION,
    FAILED_ONLY,
    FAILURE_TARGET,
    INDEXED,
    JOB_COMPLETION_INDEX_ANNOTATION,
    JOB_CONTROLLER_NAME,
    JOB_INDEX_FAILURE_COUNT_ANNOTATION,
    JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION,
    JOB_TRACKING_FINALIZER,
    NON_INDEXED,
    SUCCEEDED,
    SUCCESS_CRITERIA_MET,
    SUSPENDED,
    BackoffRecord,
    ConsistencyRecord,
    Expectations,
    InformerVersions,
    Job,
    JobCondition,
    JobControllerState,
    JobStatus,
    JobSyncInput,
    LabelSelector,
    ObjectMeta,
    OwnerReference,
    Pod,
    PodStatus,
    UncountedTerminatedPods,
    selector_matches,
)
from jobmodel.transitions import backoff as bo
from jobmodel.transitions import indexes as ix
from jobmodel.transitions.pod_failure_policy import FAIL_INDEX, match_pod_failure_policy
from jobmodel.transitions.pod_utils import (
    active_pods_less,
    count_ready_pods,
    count_terminating_pods,
    filter_active_pods,
    filter_terminating_pods,
    has_job_tracking_finalizer,
    is_pod_ready,
)
from jobmodel.transitions.success_policy import (
    delay_terminal_condition,
    has_success_criteria_met_condition,
    is_success_criteria_met_condition,
    match_success_policy,
)
from jobmodel.util.goint import NANOS, duration_nanos, int32, int64, saturated_int64
from jobmodel.util.gosort import XORSHIFT_GO1_23, XorshiftShifts, go_sort, shifts_for_release

# Job condition reasons (batch/v1 types.go)
REASON_BACKOFF_LIMIT_EXCEEDED = "BackoffLimitExceeded"
REASON_DEADLINE_EXCEEDED = "DeadlineExceeded"
REASON_MAX_FAILED_INDEXES_EXCEEDED = "MaxFailedIndexesExceeded"
REASON_FAILED_INDEXES = "FailedIndexes"
REASON_POD_FAILURE_POLICY = "PodFailurePolicy"
REASON_SUCCESS_POLICY = "SuccessPolicy"
REASON_COMPLETIONS_REACHED = "CompletionsReached"

SLOW_START_INITIAL_BATCH_SIZE = 1  # controller.SlowStartInitialBatchSize


@attrs.frozen
class JobSyncResult:
    """The outcome of one `syncJob`.

    `actions` are the API calls and events in the order upstream makes them; `error` is the error
    `syncJob` returns (the key is then re-queued with rate limiting); `status` is the last status
    the step sent (None when it sent none); `job` is the Job as the API server holds it after the
    step (its status is the last *accepted* one); `controller` is the controller's bookkeeping
    for this Job after the step.
    """

    actions: tuple[Action, ...]
    error: str | None
    status: JobStatus | None
    job: Job | None
    controller: JobControllerState

    @property
    def requeue_after_seconds(self) -> float | None:
        """The soonest `queue.AddAfter` of the step."""
        delays = [a.after_seconds for a in self.actions if isinstance(a, Requeue)]
        return min(delays) if delays else None


class _StepError(Exception):
    """An error that ends the step early, as `return err` does upstream."""


class _Step:
    """The mutable scratch state of one step: the calls made so far and the bookkeeping they change.

    It lives only inside `sync_job`; nothing outside sees it mutate.
    """

    def __init__(self, inp: JobSyncInput) -> None:
        self.inp = inp
        self.gates: FeatureGates = inp.features
        # The sort of the Go that builds the release (util/gosort.py): it orders equal pods.
        self.shifts: XorshiftShifts = shifts_for_release(inp.features.release)
        self.now: datetime = inp.now
        self.actions: list[Action] = []
        self.expectations: Expectations | None = inp.controller.expectations
        self.backoff: BackoffRecord | None = inp.controller.backoff
        # Kept frozen (replaced, not changed): most syncs change nothing and hand it back as is.
        self.expected_rm_finalizers: frozenset[str] = inp.controller.expected_finalizer_removals
        self.creates_attempted = 0
        self.accepted_job: Job | None = inp.job
        self.sent_status: JobStatus | None = None
        self.consistency: ConsistencyRecord | None = inp.controller.consistency
        self.finished_uid: str | None = inp.controller.finished_uid

    # --- the API, as FakePodControl and the status update handler see it ---------------------

    def _pod_call_accepted(self) -> bool:
        return self.inp.faults.pod_control_error is None

    def create_pod(self, pod: Pod, index: int | None) -> str | None:
        """podControl.CreatePodsWithGenerateName; returns the error, if any."""
        self.creates_attempted += 1
        limit = self.inp.faults.pod_create_limit
        if limit is not None and self.creates_attempted > limit:
            self.actions.append(CreatePod(pod, index, accepted=False))
            return f"not creating pod, limit {limit} already reached (create call {self.creates_attempted})"
        accepted = self._pod_call_accepted()
        self.actions.append(CreatePod(pod, index, accepted=accepted))
        if accepted:
            self.wrote("pods")
        return None if accepted else self.inp.faults.pod_control_error

    def delete_pod(self, pod: Pod) -> str | None:
        """podControl.DeletePod."""
        accepted = self._pod_call_accepted()
        self.actions.append(DeletePod(pod.name, pod.uid, accepted=accepted))
        return None if accepted else self.inp.faults.pod_control_error

    def patch_pod(self, pod: Pod, kind: str) -> str | None:
        """podControl.PatchPod."""
        accepted = self._pod_call_accepted()
        self.actions.append(PatchPod(pod.name, pod.uid, kind, accepted=accepted))
        if accepted and kind != "release":  # a released pod has no controller to record it for
            self.wrote("pods")
        return None if accepted else self.inp.faults.pod_control_error

    def update_status(self, job: Job) -> str | None:
        """updateStatusHandler: the Job's /status update."""
        error = self.inp.faults.status_update_error
        check = self.inp.faults.status_check
        if error is None and check is not None and self.accepted_job is not None:
            error = check(self.accepted_job, job.status)
        self.sent_status = job.status
        self.actions.append(UpdateJobStatus(job.status, accepted=error is None))
        if error is None:
            self.accepted_job = job
            self.wrote("jobs")
        return error

    def wrote(self, resource: str) -> None:
        """ConsistencyStore.WroteAt (RealPodControl.OnWrite, updateJobStatus): 1.36+ with the gate."""
        job = self.inp.job
        if self.gates.StaleControllerConsistencyJob and job is not None:
            self.consistency = wrote_at(self.consistency, job.uid, resource, self.inp.write_version)

    def event(self, etype: str, reason: str, message: str) -> None:
        self.actions.append(RecordEvent(etype, reason, message))

    def requeue_after(self, seconds: float) -> None:
        self.actions.append(Requeue(seconds))

    # --- controller.ControllerExpectations ----------------------------------------------------

    def satisfied_expectations(self) -> bool:
        """ControllerExpectations.SatisfiedExpectations: fulfilled, expired, or no record at all."""
        exp = self.expectations
        return exp is None or exp.fulfilled() or exp.expired(self.now)

    def expect_creations(self, count: int) -> None:
        """ExpectCreations: replaces the record."""
        self.expectations = Expectations(add=count, delete=0, timestamp=self.now)

    def expect_deletions(self, count: int) -> None:
        """ExpectDeletions: replaces the record."""
        self.expectations = Expectations(add=0, delete=count, timestamp=self.now)

    def creation_observed(self) -> None:
        """CreationObserved (LowerExpectations by one add)."""
        if self.expectations is not None:
            self.expectations = evolve(self.expectations, add=self.expectations.add - 1)

    def deletion_observed(self) -> None:
        """DeletionObserved (LowerExpectations by one delete)."""
        if self.expectations is not None:
            self.expectations = evolve(self.expectations, delete=self.expectations.delete - 1)

    def result(self, error: str | None) -> JobSyncResult:
        controller = JobControllerState(
            expectations=self.expectations,
            backoff=self.backoff,
            expected_finalizer_removals=self.expected_rm_finalizers,
            consistency=self.consistency,
            finished_uid=self.finished_uid,
        )
        return JobSyncResult(tuple(self.actions), error, self.sent_status, self.accepted_job, controller)


@attrs.define
class _JobCtx:
    """syncJobCtx: what one sync works out about the Job before it acts."""

    job: Job
    pods: list[Pod]
    active_pods: list[Pod]
    ready: int
    uncounted_succeeded: frozenset[str]
    uncounted_failed: frozenset[str]
    terminating: int | None
    succeeded: int = 0
    failed: int = 0
    finished_condition: JobCondition | None = None
    prev_succeeded_indexes: ix.Intervals = ()
    succeeded_indexes: ix.Intervals = ()
    failed_indexes: ix.Intervals | None = None
    new_backoff_record: BackoffRecord = BackoffRecord()
    pods_with_delayed_deletion_per_index: dict[int, Pod] = attrs.field(factory=dict)


# --- entry point ------------------------------------------------------------------------------


def sync_job(inp: JobSyncInput) -> JobSyncResult:
    """syncJob: one reconcile of the Job `inp.job` against the pods of its namespace."""
    step = _Step(inp)
    if step.gates.StaleControllerConsistencyJob:
        lag = ensure_ready(inp.controller.consistency, inp.informers)
        if lag is not None:
            return step.result(lag)
        step.consistency = None
    if inp.job is None:
        # The Job is gone: forget its expectations and back-off record (its finished mark is
        # deleteJob's to drop, `cluster.delete_job_observed`).
        step.expectations = None
        step.expected_rm_finalizers = frozenset()
        step.backoff = None
        return step.result(None)
    job = inp.job
    if managed_by_external_controller(job, step.gates) is not None:
        return step.result(None)
    if is_job_finished(job):
        step.backoff = None
        if step.finished_uid == job.uid:
            step.finished_uid = None
        return step.result(None)
    if step.gates.at_least(34) and step.finished_uid is not None and step.finished_uid == job.uid:
        # finishedJobExpectations: the finishing status write is not in the cache yet.
        return step.result(None)
    if job.spec.completion_mode not in (None, NON_INDEXED, INDEXED):
        step.event("Warning", "UnknownCompletionMode", "Skipped Job sync because completion mode is unknown")
        return step.result(None)
    try:
        error = _sync(step, job)
    except _StepError as err:
        error = str(err)
    return step.result(error)


def comparable_versions(a: int, b: int) -> bool:
    """Whether resourceversion.CompareResourceVersion compares two versions: both well formed,
    the decimal digits of a positive number (0 and negatives are not: it returns an error)."""
    return a > 0 and b > 0


def wrote_at(record: ConsistencyRecord | None, owner_uid: str, resource: str, version: int) -> ConsistencyRecord:
    """ConsistencyStore.WroteAt: the owner's record (a new one for another uid) holding `version`
    for `resource` ("pods" or "jobs") unless it holds a newer one (or one not comparable with it:
    then `version`)."""
    if record is None or record.owner_uid != owner_uid:
        return ConsistencyRecord(owner_uid, **{resource: version})
    held = getattr(record, resource)
    if held is not None and comparable_versions(held, version) and held >= version:
        return record  # most writes of a sync: the record already holds the version
    return evolve(record, **{resource: version})


def ensure_ready(record: ConsistencyRecord | None, informers: InformerVersions) -> str | None:
    """ConsistencyStore.EnsureReady: the error when an informer has not caught up with a write the
    controller recorded for the Job (None: ready, and the record is then cleared)."""
    if record is None:
        return None
    for resource, group_resource in (("pods", "pods"), ("jobs", "jobs.batch")):
        wrote, read = getattr(record, resource), getattr(informers, resource)
        # An informer that has seen nothing to compare (None) or versions not comparable: no wait.
        if wrote is not None and read is not None and comparable_versions(wrote, read) and wrote > read:
            return f"read version: {read} is not as new as written version: {wrote} for group resource {group_resource}"
    return None


def _sync(step: _Step, job: Job) -> str | None:
    """The body of syncJob from the expectations check on; returns the step's error."""
    gates, now = step.gates, step.now
    if job.status.uncounted_terminated_pods is None:
        job = _with_status(job, uncounted_terminated_pods=UncountedTerminatedPods())
    satisfied = step.satisfied_expectations()
    pods = get_pods_for_job(step, job)
    active_pods = filter_active_pods(pods)
    uncounted = job.status.uncounted_terminated_pods
    assert uncounted is not None
    ctx = _JobCtx(
        job=job,
        pods=pods,
        active_pods=active_pods,
        ready=count_ready_pods(active_pods),
        uncounted_succeeded=frozenset(uncounted.succeeded),
        uncounted_failed=frozenset(uncounted.failed),
        terminating=count_terminating_pods(pods) if track_terminating_pods(job, gates) else None,
    )
    active = len(active_pods)
    new_succeeded, new_failed = get_new_finished_pods(ctx, step)
    ctx.succeeded = int32(job.status.succeeded + len(new_succeeded) + len(ctx.uncounted_succeeded))
    ctx.failed = int32(
        job.status.failed + non_ignored_failed_pods_count(ctx, new_failed, gates) + len(ctx.uncounted_failed)
    )
    if job.status.start_time is None and not job_suspended(job):
        job = _with_status(job, start_time=now)
        ctx.job = job
    ctx.new_backoff_record = bo.new_backoff_record(step.backoff, new_succeeded, new_failed, gates)

    backoff_limit = _required(job.spec.backoff_limit, "job.spec.backoffLimit")
    exceeds_backoff_limit = ctx.failed > backoff_limit
    ctx.finished_condition = has_success_criteria_met_condition(job, gates)
    if ctx.finished_condition is None:
        failure_target = job.status.condition(FAILURE_TARGET)
        if failure_target is not None and failure_target.status == "True":
            ctx.finished_condition = new_failed_condition_for_failure_target(failure_target, now)
        else:
            message = get_fail_job_message(job, pods, gates)
            if message is not None:
                ctx.finished_condition = new_condition(FAILURE_TARGET, "True", REASON_POD_FAILURE_POLICY, message, now)
    if ctx.finished_condition is None:
        if exceeds_backoff_limit or past_backoff_limit_on_failure(job, pods):
            ctx.finished_condition = new_failure_condition(
                REASON_BACKOFF_LIMIT_EXCEEDED, "Job has reached the specified backoff limit", step
            )
        elif past_active_deadline(job, now):
            ctx.finished_condition = new_failure_condition(
                REASON_DEADLINE_EXCEEDED, "Job was active longer than specified deadline", step
            )
        elif job.spec.active_deadline_seconds is not None and not job_suspended(job):
            assert job.status.start_time is not None
            sync_duration = int64(_allowed_duration_ns(job.spec.active_deadline_seconds) - _since_ns(now, job.status.start_time))
            step.requeue_after(sync_duration / 1e9)

    if ix.is_indexed_job(job):
        completions = _required(job.spec.completions, "job.spec.completions")
        ctx.prev_succeeded_indexes, ctx.succeeded_indexes = calculate_succeeded_indexes(job, pods)
        ctx.succeeded = ix.total(ctx.succeeded_indexes)
        if has_backoff_limit_per_index(job, gates):
            ctx.failed_indexes = calculate_failed_indexes(job, pods, gates)
            if ctx.finished_condition is None:
                failed_total = ix.total(ctx.failed_indexes)
                if job.spec.max_failed_indexes is not None and failed_total > job.spec.max_failed_indexes:
                    ctx.finished_condition = new_failure_condition(
                        REASON_MAX_FAILED_INDEXES_EXCEEDED,
                        "Job has exceeded the specified maximal number of failed indexes",
                        step,
                    )
                elif failed_total > 0 and failed_total + ix.total(ctx.succeeded_indexes) >= completions:
                    ctx.finished_condition = new_failure_condition(
                        REASON_FAILED_INDEXES, "Job has failed indexes", step
                    )
            ctx.pods_with_delayed_deletion_per_index = get_pods_with_delayed_deletion_per_index(ctx, step)
        if ctx.finished_condition is None:
            message = match_success_policy(job.spec.success_policy, completions, ctx.succeeded_indexes, gates)
            if message is not None:
                ctx.finished_condition = new_condition(
                    SUCCESS_CRITERIA_MET, "True", REASON_SUCCESS_POLICY, message, now
                )

    suspend_cond_changed = False
    manage_job_error: str | None = None
    if ctx.finished_condition is not None:
        deleted_ready, deleted, manage_job_error = delete_active_pods(step, ctx.active_pods)
        if deleted != active or not satisfied:
            # Pods may still have finalizers or not be in the cache yet.
            ctx.finished_condition = None
        active -= deleted
        if ctx.terminating is not None and track_terminating_pods(ctx.job, gates):
            ctx.terminating += deleted
        ctx.ready -= deleted_ready
    else:
        manage_job_called = False
        if satisfied and ctx.job.metadata.deletion_timestamp is None:
            active, manage_job_error = manage_job(step, ctx)
            manage_job_called = True
        job = ctx.job
        if job.spec.completions is None:
            complete = ctx.succeeded > 0 and active == 0
        else:
            complete = ctx.succeeded >= job.spec.completions and active == 0
        if complete:
            ctx.finished_condition = new_success_condition(step)
        elif manage_job_called:
            if job.spec.suspend:
                conditions, updated = ensure_job_condition_status(
                    job.status.conditions, SUSPENDED, "True", "JobSuspended", "Job suspended", now
                )
                if updated:
                    suspend_cond_changed = True
                    ctx.job = _with_status(job, conditions=conditions)
                    step.event("Normal", "Suspended", "Job suspended")
                    if gates.MutableSchedulingDirectivesForSuspendedJobs:
                        # 1.35+: a suspended Job's startTime goes; resuming sets a new one.
                        ctx.job = _with_status(ctx.job, start_time=None)
            else:
                conditions, updated = ensure_job_condition_status(
                    job.status.conditions, SUSPENDED, "False", "JobResumed", "Job resumed", now
                )
                if updated:
                    suspend_cond_changed = True
                    # A resumed Job's activeDeadlineSeconds counts from now.
                    ctx.job = _with_status(job, conditions=conditions, start_time=now)
                    step.event("Normal", "Resumed", "Job resumed")

    job = ctx.job
    terminating = ctx.terminating if gates.JobPodReplacementPolicy else None
    counts_changed = active != job.status.active or job.status.ready != ctx.ready or job.status.terminating != terminating
    needs_status_update = suspend_cond_changed or counts_changed
    if counts_changed:
        ctx.job = _with_status(job, active=active, ready=ctx.ready, terminating=terminating)
    try:
        track_job_status_and_remove_finalizers(step, ctx, needs_status_update)
    except _StepError as err:
        return f"tracking status: {err}"
    return manage_job_error


# --- helpers named after upstream's -----------------------------------------------------------


def _required(value: int | None, field: str) -> int:
    """Upstream dereferences these pointers; an unset one would crash the controller."""
    if value is None:
        raise InputError(field, "unset, but the controller needs it (default the Job first)")
    return value


def _with_status(job: Job, **changes: Any) -> Job:
    return evolve(job, status=evolve(job.status, **changes))


def is_job_finished(job: Job) -> bool:
    """util.IsJobFinished: a Complete or Failed condition is True."""
    return any(c.type in (COMPLETE, FAILED_CONDITION) and c.status == "True" for c in job.status.conditions)


def job_suspended(job: Job) -> bool:
    """jobSuspended."""
    return bool(job.spec.suspend)


def managed_by_external_controller(job: Job, gates: FeatureGates) -> str | None:
    """managedByExternalController: the managedBy value when another controller owns the Job."""
    if gates.JobManagedBy and job.spec.managed_by is not None and job.spec.managed_by != JOB_CONTROLLER_NAME:
        return job.spec.managed_by
    return None


def has_backoff_limit_per_index(job: Job, gates: FeatureGates) -> bool:
    """hasBackoffLimitPerIndex."""
    return gates.JobBackoffLimitPerIndex and job.spec.backoff_limit_per_index is not None


def track_terminating_pods(job: Job, gates: FeatureGates) -> bool:
    """trackTerminatingPods: counted for the status, to delay terminal conditions, or for a pod failure policy."""
    return gates.JobPodReplacementPolicy or gates.JobManagedBy or job.spec.pod_failure_policy is not None


def only_replace_failed_pods(job: Job, gates: FeatureGates) -> bool:
    """onlyReplaceFailedPods: new pods only once old ones reached a terminal phase. Up to 1.36 a
    pod-failure policy implies it too; 1.37 reads podReplacementPolicy alone."""
    if gates.JobPodReplacementPolicy and job.spec.pod_replacement_policy == FAILED_ONLY:
        return True
    return job.spec.pod_failure_policy is not None and not gates.at_least(37)


def active_while_backing_off(active: int, gates: FeatureGates) -> int:
    """What manageJob reports as active while the back-off defers creations: 0 up to 1.35
    (kubernetes/kubernetes#139428), the running pods from 1.36."""
    return active if gates.at_least(36) else 0


def is_pod_failed(pod: Pod, job: Job, gates: FeatureGates) -> bool:
    """isPodFailed: Failed phase, or (unless only failed pods are replaced) deleted before succeeding."""
    if pod.phase == FAILED:
        return True
    if only_replace_failed_pods(job, gates):
        return False
    return pod.metadata.deletion_timestamp is not None and pod.phase != SUCCEEDED


def new_condition(ctype: str, status: str, reason: str, message: str, now: datetime) -> JobCondition:
    """newCondition."""
    return JobCondition(ctype, status, reason, message, last_probe_time=now, last_transition_time=now)


def new_failure_condition(reason: str, message: str, step: _Step) -> JobCondition:
    """Controller.newFailureCondition: FailureTarget first when terminal conditions are delayed."""
    ctype = FAILURE_TARGET if delay_terminal_condition(step.gates) else FAILED_CONDITION
    return new_condition(ctype, "True", reason, message, step.now)


def new_success_condition(step: _Step) -> JobCondition:
    """Controller.newSuccessCondition: SuccessCriteriaMet first when terminal conditions are delayed."""
    ctype = SUCCESS_CRITERIA_MET if delay_terminal_condition(step.gates) else COMPLETE
    reason = message = ""
    if step.gates.JobSuccessPolicy:
        reason, message = REASON_COMPLETIONS_REACHED, "Reached expected number of succeeded pods"
    return new_condition(ctype, "True", reason, message, step.now)


def new_failed_condition_for_failure_target(cond: JobCondition, now: datetime) -> JobCondition:
    """newFailedConditionForFailureTarget."""
    return new_condition(FAILED_CONDITION, "True", cond.reason, cond.message, now)


def ensure_job_condition_status(
    conditions: tuple[JobCondition, ...], ctype: str, status: str, reason: str, message: str, now: datetime
) -> tuple[tuple[JobCondition, ...], bool]:
    """ensureJobConditionStatus: set a condition (a new False one is not added); report a change."""
    for i, cond in enumerate(conditions):
        if cond.type == ctype:
            if cond.status != status or cond.reason != reason or cond.message != message:
                replaced = new_condition(ctype, status, reason, message, now)
                return (*conditions[:i], replaced, *conditions[i + 1 :]), True
            return conditions, False
    if status != "False":
        return (*conditions, new_condition(ctype, status, reason, message, now)), True
    return conditions, False


def past_backoff_limit_on_failure(job: Job, pods: Sequence[Pod]) -> bool:
    """pastBackoffLimitOnFailure: with restartPolicy OnFailure, container restarts count as failures."""
    if job.spec.template.restart_policy != "OnFailure":
        return False
    restarts = 0
    for pod in pods:
        if pod.phase in ("Running", "Pending"):
            restarts += sum(c.restart_count for c in pod.status.init_container_statuses)
            restarts += sum(c.restart_count for c in pod.status.container_statuses)
    restarts = int32(restarts)  # an int32 sum upstream
    limit = _required(job.spec.backoff_limit, "job.spec.backoffLimit")
    if limit == 0:
        return restarts > 0
    return restarts >= limit


def past_active_deadline(job: Job, now: datetime) -> bool:
    """Controller.pastActiveDeadline."""
    ads = job.spec.active_deadline_seconds
    if ads is None or job.status.start_time is None or job_suspended(job):
        return False
    return _since_ns(now, job.status.start_time) >= _allowed_duration_ns(ads)


def _allowed_duration_ns(active_deadline_seconds: int) -> int:
    """time.Duration(activeDeadlineSeconds) * time.Second: int64 nanoseconds, which wrap past about
    292 years (an activeDeadlineSeconds of 10^10 is a negative duration, already past)."""
    return int64(active_deadline_seconds * NANOS)


def _since_ns(now: datetime, start: datetime) -> int:
    """clock.Since(start) in nanoseconds: Time.Sub saturates at the int64 range."""
    return saturated_int64(duration_nanos(now - start))


def get_fail_job_message(job: Job, pods: Sequence[Pod], gates: FeatureGates) -> str | None:
    """getFailJobMessage: the message of the first failed pod that a FailJob rule matches."""
    if job.spec.pod_failure_policy is None:
        return None
    for pod in pods:
        if is_pod_failed(pod, job, gates):
            match = match_pod_failure_policy(job.spec.pod_failure_policy, pod, gates)
            if match.fail_job_message is not None:
                return match.fail_job_message
    return None


def non_ignored_failed_pods_count(ctx: _JobCtx, failed: Sequence[Pod], gates: FeatureGates) -> int:
    """nonIgnoredFailedPodsCount: failed pods that count against the back-off limit."""
    policy = ctx.job.spec.pod_failure_policy
    if policy is None:
        return len(failed)
    return sum(1 for p in failed if match_pod_failure_policy(policy, p, gates).count_failed)


def get_valid_pods_with_filter(ctx: _JobCtx, step: _Step, uncounted: frozenset[str], keep: object) -> list[Pod]:
    """getValidPodsWithFilter: pods with the tracking finalizer, not already uncounted or being
    uncounted, with a valid index for Indexed Jobs, that pass `keep`."""
    result = []
    indexed = ix.is_indexed_job(ctx.job)
    completions = _required(ctx.job.spec.completions, "job.spec.completions") if indexed else 0
    removing = step.expected_rm_finalizers
    assert callable(keep)
    for pod in ctx.pods:
        meta = pod.metadata
        if JOB_TRACKING_FINALIZER not in meta.finalizers or meta.uid in uncounted or meta.uid in removing:
            continue
        # `keep` first: it is cheaper than reading the index and rules out most pods.
        if not keep(pod):
            continue
        if indexed:
            index = ix.pod_index(pod)
            if index == ix.UNKNOWN_COMPLETION_INDEX or index >= completions:
                continue
        result.append(pod)
    return result


def get_new_finished_pods(ctx: _JobCtx, step: _Step) -> tuple[list[Pod], list[Pod]]:
    """getNewFinishedPods: succeeded and failed pods not yet accounted in the status."""
    succeeded = get_valid_pods_with_filter(ctx, step, ctx.uncounted_succeeded, lambda p: p.status.phase == SUCCEEDED)
    failed = get_valid_pods_with_filter(
        ctx, step, ctx.uncounted_failed, lambda p: is_pod_failed(p, ctx.job, step.gates)
    )
    return succeeded, failed


def calculate_succeeded_indexes(job: Job, pods: Sequence[Pod]) -> tuple[ix.Intervals, ix.Intervals]:
    """calculateSucceededIndexes: the indexes in status, and those plus newly succeeded pods' indexes."""
    completions = _required(job.spec.completions, "job.spec.completions")
    prev = ix.parse_indexes_from_string(job.status.completed_indexes, completions)
    new = sorted(
        {
            index
            for p in pods
            if p.status.phase == SUCCEEDED
            and JOB_TRACKING_FINALIZER in p.metadata.finalizers
            and (index := ix.pod_index(p)) != ix.UNKNOWN_COMPLETION_INDEX
            and index < completions
        }
    )
    return prev, ix.with_ordered_indexes(prev, new)


def calculate_failed_indexes(job: Job, pods: Sequence[Pod], gates: FeatureGates) -> ix.Intervals:
    """calculateFailedIndexes: the indexes in status plus those whose pods failed for good."""
    completions = _required(job.spec.completions, "job.spec.completions")
    prev: ix.Intervals = ()
    if job.status.failed_indexes is not None:
        prev = ix.parse_indexes_from_string(job.status.failed_indexes, completions)
    new = sorted(
        {
            index
            for p in pods
            if (index := ix.pod_index(p)) != ix.UNKNOWN_COMPLETION_INDEX
            and index < completions
            and has_job_tracking_finalizer(p)
            and is_index_failed(job, p, gates)
        }
    )
    return ix.with_ordered_indexes(prev, new)


def is_index_failed(job: Job, pod: Pod, gates: FeatureGates) -> bool:
    """isIndexFailed: a FailIndex rule matched, or the index used up its backoffLimitPerIndex."""
    counted = False
    if is_pod_failed(pod, job, gates):
        if job.spec.pod_failure_policy is not None:
            match = match_pod_failure_policy(job.spec.pod_failure_policy, pod, gates)
            if match.action == FAIL_INDEX:
                return True
            counted = match.count_failed
        else:
            counted = True
    limit = _required(job.spec.backoff_limit_per_index, "job.spec.backoffLimitPerIndex")
    return counted and ix.index_failure_count(pod) >= limit


def get_pods_with_delayed_deletion_per_index(ctx: _JobCtx, step: _Step) -> dict[int, Pod]:
    """getPodsWithDelayedDeletionPerIndex: per index still to retry, the last failed pod, whose
    finalizer stays until its replacement carries the index's failure counts (among the pods
    getValidPodsWithFilter keeps: not those whose finalizer removal is already expected)."""
    active_indexes = set(ix.get_indexes(ctx.active_pods))
    completions = _required(ctx.job.spec.completions, "job.spec.completions")
    result: dict[int, Pod] = {}

    def record(pod: Pod) -> bool:
        if not is_pod_failed(pod, ctx.job, step.gates):
            return False
        index = ix.pod_index(pod)
        if index == ix.UNKNOWN_COMPLETION_INDEX or index >= completions:
            return False
        if ix.has(ctx.succeeded_indexes, index) or ix.has(ctx.failed_indexes, index) or index in active_indexes:
            return False
        last = result.get(index)
        if last is None or (
            ix.index_absolute_failure_count(last) <= ix.index_absolute_failure_count(pod)
            and not bo.get_finished_time(pod, step.gates) < bo.get_finished_time(last, step.gates)
        ):
            result[index] = pod
        return False  # upstream's filter only records: no pod is returned

    get_valid_pods_with_filter(ctx, step, frozenset(), record)
    return result


# --- getPodsForJob: claiming pods ---------------------------------------------------------------


def get_pods_for_job(step: _Step, job: Job) -> list[Pod]:
    """getPodsForJob: the namespace's pods this Job controls, adopting matching orphans (with the
    tracking finalizer) and releasing owned pods that no longer match (PodControllerRefManager.ClaimPods)."""
    if job.spec.selector is not None:
        problem = label_selector_as_selector_error(job.spec.selector, step.gates.release)
        if problem is not None:
            raise _StepError(f"couldn't convert Job selector: {problem}")
    by_owner_index = step.gates.at_least(34)
    if by_owner_index:
        # controller.FilterPodsByOwner
        for value, what in ((job.namespace, "namespace"), (job.name, "name"), (job.uid, "uid")):
            if not value:
                raise _StepError(f"no owner {what} provided")
    claimed: list[Pod] = []
    errors: list[str] = []
    deleting = job.metadata.deletion_timestamp is not None
    namespace, selector = job.namespace, job.spec.selector
    job_uid = job.uid
    listed = pods_by_owner(step.inp.pods, job) if by_owner_index else step.inp.pods
    # Pods made from one template share their labels object: match each object once.
    matched: dict[int, tuple[object, bool]] = {}
    for pod in listed:
        meta = pod.metadata
        if meta.namespace != namespace:
            continue
        ref = meta.controller_ref()
        labels = meta.labels
        seen = matched.get(id(labels))
        if seen is None or seen[0] is not labels:
            seen = matched[id(labels)] = (labels, selector_matches(selector, labels))
        matches = seen[1]
        if ref is not None:
            if ref.uid == job_uid and matches:
                claimed.append(pod)
            elif ref.uid == job_uid and not deleting:
                error = step.patch_pod(pod, "release")
                errors += [error] if error is not None else []
            continue
        if deleting or not matches or pod.metadata.deletion_timestamp is not None:
            continue
        error = step.patch_pod(pod, "adopt")
        if error is not None:
            errors.append(error)
        else:
            claimed.append(pod)
    if errors:
        raise _StepError(errors[0] if len(errors) == 1 else "[" + ", ".join(errors) + "]")
    # Adopted pods get the tracking finalizer through the adoption patch.
    result = []
    for pod in claimed:
        if JOB_TRACKING_FINALIZER in pod.metadata.finalizers:  # has_job_tracking_finalizer
            result.append(pod)
            continue
        adopted = all(r.uid != job_uid for r in pod.metadata.owner_references)
        if adopted:
            meta = evolve(pod.metadata, finalizers=(*pod.metadata.finalizers, JOB_TRACKING_FINALIZER))
            pod = evolve(pod, metadata=meta)
        result.append(pod)
    return result


@lru_cache(maxsize=1 << 8)  # a pure function of the selector, read on every sync
def label_selector_as_selector_error(selector: LabelSelector, release: int) -> str | None:
    """metav1.LabelSelectorAsSelector's error, None when the selector converts: an unknown
    operator, or what labels.NewRequirement refuses (a bad key or value, values where the
    operator takes none, none where it needs some)."""
    problems = [
        f"key: {m}" for key in selector.match_labels for m in is_qualified_name(key, release)
    ] + [f"values: {m}" for value in selector.match_labels.values() for m in is_valid_label_value(value, release)]
    for req in selector.match_expressions:
        if req.operator not in ("In", "NotIn", "Exists", "DoesNotExist"):
            return f"{req.operator!r} is not a valid label selector operator"
        problems += [f"key: {m}" for m in is_qualified_name(req.key, release)]
        if req.operator in ("In", "NotIn") and not req.values:
            problems.append("values: for 'in', 'notin' operators, values set can't be empty")
        if req.operator in ("Exists", "DoesNotExist") and req.values:
            problems.append("values: values set must be empty for exists and does not exist")
        problems += [f"values: {m}" for v in req.values for m in is_valid_label_value(v, release)]
    return "; ".join(problems) or None


def pods_by_owner(pods: Sequence[Pod], job: Job) -> list[Pod]:
    """controller.FilterPodsByOwner (1.34+): the pods the index lists under the key of exactly this
    Job, then those under its namespace's orphan key (each in the cache's order), so that pods
    that tie in a later sort (the deletion ranking) come owned pods first."""
    owned: list[Pod] = []
    orphans: list[Pod] = []
    for pod in pods:
        if pod.metadata.namespace != job.namespace:
            continue
        ref = pod.metadata.controller_ref()
        if ref is None:
            orphans.append(pod)
        elif ref.uid == job.uid and ref.kind == "Job" and ref.name == job.name:
            owned.append(pod)
    return owned + orphans


# --- deleting pods --------------------------------------------------------------------------------


def delete_active_pods(step: _Step, pods: Sequence[Pod]) -> tuple[int, int, str | None]:
    """deleteActivePods: DELETE every active pod of a finishing Job, keeping finalizers.
    Returns (deleted ready pods, deleted pods, error)."""
    deleted = len(pods)
    deleted_ready = 0
    first_error: str | None = None
    for pod in pods:
        error = step.delete_pod(pod)
        if error is not None:
            deleted -= 1
            first_error = first_error or error
        if is_pod_ready(pod):
            # Upstream counts a ready pod even when its deletion failed.
            deleted_ready += 1
    return deleted_ready, deleted, first_error


def delete_job_pods(step: _Step, pods: Sequence[Pod]) -> tuple[int, int, str | None]:
    """deleteJobPods: remove the tracking finalizer, then delete. Returns (ready deleted, deleted, error)."""
    deleted = len(pods)
    deleted_ready = 0
    first_error: str | None = None
    for pod in pods:
        if has_job_tracking_finalizer(pod):
            error = step.patch_pod(pod, "remove-finalizer")
            if error is not None:
                step.deletion_observed()
                deleted -= 1
                first_error = first_error or f"removing completion finalizer: {error}"
                continue
        error = step.delete_pod(pod)
        if error is not None:
            step.deletion_observed()
            deleted -= 1
            first_error = first_error or error
        if is_pod_ready(pod):
            deleted_ready += 1
    return deleted_ready, deleted, first_error


def active_pods_for_removal(job: Job, pods: Sequence[Pod], rm_at_least: int, shifts: XorshiftShifts = XORSHIFT_GO1_23) -> list[Pod]:
    """activePodsForRemoval: repeated or out-of-range indexes first, then the pods the ranking
    (unscheduled < scheduled, pending < running, not ready < ready, ...) puts first."""
    rm: list[Pod] = []
    if ix.is_indexed_job(job):
        completions = _required(job.spec.completions, "job.spec.completions")
        rm, left = ix.append_duplicated_index_pods_for_removal(pods, completions, shifts)
    else:
        left = list(pods)
    if len(rm) < rm_at_least:
        left = go_sort(left, active_pods_less, shifts)
        rm.extend(left[: rm_at_least - len(rm)])
    return rm


# --- manageJob ------------------------------------------------------------------------------------


def _delete_active_pods(step: _Step, ctx: _JobCtx, to_delete: list[Pod]) -> tuple[int, str | None]:
    """manageJob's deletions: expectations first, then the calls; the ready and terminating
    counts follow. Returns how many pods were removed and the error."""
    step.expect_deletions(len(to_delete))
    removed_ready, removed, error = delete_job_pods(step, to_delete)
    if ctx.terminating is not None and track_terminating_pods(ctx.job, step.gates):
        ctx.terminating += removed
    ctx.ready -= removed_ready
    return removed, error


def manage_job(step: _Step, ctx: _JobCtx) -> tuple[int, str | None]:
    """manageJob: create or delete pods towards the wanted number of active pods; returns (active, error)."""
    job = ctx.job
    gates = step.gates
    tunables = step.inp.tunables
    active = len(ctx.active_pods)
    parallelism = _required(job.spec.parallelism, "job.spec.parallelism")

    if job_suspended(job):
        removed, error = _delete_active_pods(step, ctx, active_pods_for_removal(job, ctx.active_pods, active, step.shifts))
        return active - removed, error

    want_active = want_active_pods(job.spec.completions, parallelism, ctx.succeeded, active)
    rm_at_least = max(0, active - want_active)
    to_delete = active_pods_for_removal(job, ctx.active_pods, rm_at_least, step.shifts)
    to_delete = to_delete[: tunables.max_pod_create_delete_per_sync]
    if to_delete:
        removed, error = _delete_active_pods(step, ctx, to_delete)
        # Deletion takes precedence: no creations in the same sync.
        return active - removed, error

    terminating = (ctx.terminating or 0) if only_replace_failed_pods(job, gates) else 0
    diff = want_active - terminating - active
    if diff <= 0:
        return active, None

    remaining = 0.0
    if not has_backoff_limit_per_index(job, gates):
        remaining = bo.remaining_time(
            ctx.new_backoff_record,
            step.now,
            tunables.pod_failure_backoff_seconds,
            tunables.max_pod_failure_backoff_seconds,
        )
    if remaining > 0:
        step.requeue_after(max(remaining, 1.0))
        return active_while_backing_off(active, gates), None
    diff = min(diff, tunables.max_pod_create_delete_per_sync)

    indexes_to_add: list[int] = []
    if ix.is_indexed_job(job):
        completions = _required(job.spec.completions, "job.spec.completions")
        indexes_to_add = first_pending_indexes(ctx, diff, completions, gates)
        if has_backoff_limit_per_index(job, gates):
            indexes_to_add, remaining = get_pod_creation_info_for_independent_indexes(step, ctx, indexes_to_add)
            if remaining > 0:
                step.requeue_after(max(remaining, 1.0))
                return active_while_backing_off(active, gates), None
        diff = len(indexes_to_add)

    step.expect_creations(diff)
    active += diff
    template = pod_template_for_creation(job, gates)
    errors = 0
    first_error: str | None = None
    pending = list(indexes_to_add)
    batch_size = min(diff, SLOW_START_INITIAL_BATCH_SIZE)
    while diff > 0:
        errors_before = errors
        for _ in range(batch_size):
            index: int | None = pending.pop(0) if pending else None
            pod = new_pod_for_index(job, template, index, ctx, gates)
            error = step.create_pod(pod, index)
            if error is not None:
                step.creation_observed()
                active -= 1
                errors += 1
                first_error = first_error or error
        skipped = diff - batch_size
        if errors > errors_before and skipped > 0:
            # Slow start: after a failed batch the rest is left for a later sync.
            active -= skipped
            for _ in range(skipped):
                step.creation_observed()
            break
        diff -= batch_size
        batch_size = min(2 * batch_size, diff)
    return active, first_error


def want_active_pods(completions: int | None, parallelism: int, succeeded: int, active: int) -> int:
    """manageJob's wantActive: parallelism, bounded by the completions still needed; without
    completions, once a pod succeeded, the pods still running are left to finish."""
    if completions is None:
        return active if succeeded > 0 else parallelism
    # An int32 difference upstream: a negative count of succeeded pods can wrap it below zero.
    return max(0, min(int32(completions - succeeded), parallelism))


def get_pod_creation_info_for_independent_indexes(
    step: _Step, ctx: _JobCtx, indexes: Sequence[int]
) -> tuple[list[int], float]:
    """getPodCreationInfoForIndependentIndexes: indexes whose per-index back-off is over, else the
    shortest remaining back-off."""
    now_ready: list[int] = []
    min_remaining: float | None = None
    tunables = step.inp.tunables
    for index in indexes:
        remaining = bo.remaining_time_per_index(
            step.now,
            tunables.pod_failure_backoff_seconds,
            tunables.max_pod_failure_backoff_seconds,
            ctx.pods_with_delayed_deletion_per_index.get(index),
            step.gates,
        )
        if remaining == 0:
            now_ready.append(index)
        elif min_remaining is None or remaining < min_remaining:
            min_remaining = remaining
    if now_ready:
        return now_ready, 0.0
    return now_ready, min_remaining or 0.0


def first_pending_indexes(ctx: _JobCtx, count: int, completions: int, gates: FeatureGates) -> list[int]:
    """firstPendingIndexes: the lowest indexes that are not succeeded, active, failed (or, when only
    failed pods are replaced, terminating)."""
    if count == 0:
        return []
    non_pending = ix.with_ordered_indexes(ctx.succeeded_indexes, ix.get_indexes(ctx.active_pods))
    if only_replace_failed_pods(ctx.job, gates):
        non_pending = ix.with_ordered_indexes(non_pending, ix.get_indexes(filter_terminating_pods(ctx.pods)))
    if ctx.failed_indexes is not None:
        non_pending = ix.merge(non_pending, ctx.failed_indexes)
    result: list[int] = []
    candidate = 0
    for first, last in non_pending:
        while candidate < completions and len(result) < count and candidate < first:
            result.append(candidate)
            candidate += 1
        if candidate < last + 1:
            candidate = last + 1
    while candidate < completions and len(result) < count:
        result.append(candidate)
        candidate += 1
    return result


# --- the pods the controller creates ---------------------------------------------------------------


def pod_template_for_creation(job: Job, gates: FeatureGates) -> FrozenDict:
    """The pod spec of manageJob's template: completion-index env vars for Indexed Jobs."""
    spec = job.spec.template.spec
    if ix.is_indexed_job(job):
        spec = add_completion_index_env_variables(spec, gates)
    return spec


# The pod specs the controller builds are pure functions of the template (and the index),
# remembered so that the pods of every sync share them: equal pods then compare by identity
# below their metadata instead of container by container.
@lru_cache(maxsize=1 << 10)
def add_completion_index_env_variables(spec: FrozenDict, gates: FeatureGates) -> FrozenDict:
    """addCompletionIndexEnvVariables: JOB_COMPLETION_INDEX in every init container and container,
    from the index label (PodIndexLabel) or annotation."""
    source = "labels" if gates.PodIndexLabel else "annotations"
    env_var = freeze(
        {
            "name": ix.COMPLETION_INDEX_ENV_NAME,
            "valueFrom": {"fieldRef": {"fieldPath": f"metadata.{source}['{JOB_COMPLETION_INDEX_ANNOTATION}']"}},
        }
    )
    for key in ("initContainers", "containers"):
        containers = spec.get(key)
        if containers:
            spec = spec.set(key, tuple(_add_completion_index_env(c, env_var) for c in containers))
    return spec


def _add_completion_index_env(container: FrozenDict, env_var: FrozenDict) -> FrozenDict:
    """addCompletionIndexEnvVariable: unless the container already sets the variable."""
    env = tuple(container.get("env") or ())
    if any(isinstance(v, FrozenDict) and v.get("name") == ix.COMPLETION_INDEX_ENV_NAME for v in env):
        return container
    return container.set("env", (*env, env_var))


@lru_cache(maxsize=1 << 8)
def get_pods_prefix(controller_name: str) -> str:
    """getPodsPrefix (controller_utils.go): `<name>-` when that is a valid pod-name prefix, else
    the name itself."""
    prefix = f"{controller_name}-"
    return controller_name if name_is_dns_subdomain(prefix, True) else prefix


def new_pod_for_index(job: Job, spec: FrozenDict, index: int | None, ctx: _JobCtx, gates: FeatureGates) -> Pod:
    """The pod RealPodControl creates from the template (controller.GetPodFromTemplate), with the
    completion index's annotation, label, hostname and name prefix for Indexed Jobs."""
    template = job.spec.template
    labels = template.labels
    annotations = template.annotations
    finalizers = template.finalizers
    if JOB_TRACKING_FINALIZER not in finalizers:
        finalizers = (*finalizers, JOB_TRACKING_FINALIZER)
    generate_name = get_pods_prefix(job.name)
    if index is not None:
        annotations = annotations.set(JOB_COMPLETION_INDEX_ANNOTATION, str(index))
        if gates.PodIndexLabel:
            labels = labels.set(JOB_COMPLETION_INDEX_ANNOTATION, str(index))
        spec = _with_hostname(spec, f"{job.name}-{index}")
        generate_name = ix.pod_generate_name_with_index(job.name, index)
        if has_backoff_limit_per_index(job, gates):
            failures, ignored = get_new_index_failure_counts(job, ctx.pods_with_delayed_deletion_per_index.get(index), gates)
            annotations = annotations.set(JOB_INDEX_FAILURE_COUNT_ANNOTATION, str(failures))
            if ignored > 0:
                annotations = annotations.set(JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION, str(ignored))
    owner = OwnerReference(
        api_version="batch/v1", kind="Job", name=job.name, uid=job.uid, controller=True, block_owner_deletion=True
    )
    meta = ObjectMeta(
        generate_name=generate_name,
        namespace=job.namespace,
        labels=labels,
        annotations=annotations,
        finalizers=finalizers,
        owner_references=(owner,),
    )
    return Pod(metadata=meta, spec=spec, status=PodStatus())


@lru_cache(maxsize=1 << 12)
def _with_hostname(spec: FrozenDict, hostname: str) -> FrozenDict:
    return spec.set("hostname", hostname)


def get_new_index_failure_counts(job: Job, replaced: Pod | None, gates: FeatureGates) -> tuple[int, int]:
    """getNewIndexFailureCounts: the failure counts the replacement pod of an index carries."""
    if replaced is None:
        return 0, 0
    failures = ix.index_failure_count(replaced)
    ignored = ix.index_ignored_failure_count(replaced)
    if job.spec.pod_failure_policy is not None:
        if match_pod_failure_policy(job.spec.pod_failure_policy, replaced, gates).count_failed:
            failures += 1
        else:
            ignored += 1
    else:
        failures += 1
    return int32(failures), int32(ignored)  # int32 counts upstream: MaxInt32 + 1 wraps


# --- trackJobStatusAndRemoveFinalizers -----------------------------------------------------------


def can_remove_finalizer(ctx: _JobCtx, pod: Pod, consider_failed: bool, gates: FeatureGates) -> bool:
    """canRemoveFinalizer: when the Job is going away or finished, the pod succeeded, or it failed
    (unless it is the failed pod whose index still awaits its replacement)."""
    if ctx.job.metadata.deletion_timestamp is not None or ctx.finished_condition is not None or pod.phase == SUCCEEDED:
        return True
    if not consider_failed:
        return False
    if has_backoff_limit_per_index(ctx.job, gates):
        index = ix.pod_index(pod)
        if index != ix.UNKNOWN_COMPLETION_INDEX:
            delayed = ctx.pods_with_delayed_deletion_per_index.get(index)
            if delayed is not None and delayed.uid == pod.uid:
                return False
    return True


def clean_uncounted_pods_without_finalizers(status: JobStatus, uids_with_finalizer: set[str]) -> tuple[JobStatus, bool]:
    """cleanUncountedPodsWithoutFinalizers: pods whose finalizer is gone move from the uncounted
    lists to the counters."""
    uncounted = status.uncounted_terminated_pods or UncountedTerminatedPods()
    if not uncounted.succeeded and not uncounted.failed:
        return status, False  # nothing uncounted (most syncs)
    succeeded = tuple(u for u in uncounted.succeeded if u in uids_with_finalizer)
    failed = tuple(u for u in uncounted.failed if u in uids_with_finalizer)
    changes: dict[str, Any] = {}
    if len(succeeded) != len(uncounted.succeeded):
        changes["succeeded"] = int32(status.succeeded + len(uncounted.succeeded) - len(succeeded))
    if len(failed) != len(uncounted.failed):
        changes["failed"] = int32(status.failed + len(uncounted.failed) - len(failed))
    if not changes:
        return status, False
    kept = UncountedTerminatedPods(succeeded, failed)
    return evolve(status, uncounted_terminated_pods=kept, **changes), True


def track_job_status_and_remove_finalizers(step: _Step, ctx: _JobCtx, needs_flush: bool) -> None:
    """trackJobStatusAndRemoveFinalizers: record finished pods in uncountedTerminatedPods, remove their
    finalizers, move them to the counters, and add the terminal condition once nothing is pending."""
    gates = step.gates
    job = ctx.job
    indexed = ix.is_indexed_job(job)
    if indexed:
        ctx.pods = ix.by_completion_index(ctx.pods, step.shifts)
    removing = step.expected_rm_finalizers
    uids_with_finalizer = {
        meta.uid
        for meta in (p.metadata for p in ctx.pods)
        if JOB_TRACKING_FINALIZER in meta.finalizers and meta.uid not in removing
    }
    status, cleaned = clean_uncounted_pods_without_finalizers(job.status, uids_with_finalizer)
    needs_flush = needs_flush or cleaned
    uncounted = status.uncounted_terminated_pods or UncountedTerminatedPods()
    unc_succeeded, unc_failed = list(uncounted.succeeded), list(uncounted.failed)
    new_succeeded_indexes: list[int] = []
    pods_to_remove_finalizer: list[Pod] = []
    reached_max_uncounted = False
    completions = job.spec.completions
    # While the Job is neither going away nor finished, a pod that is active (not terminal, not
    # being deleted) is not failed and keeps its finalizer (is_pod_failed, can_remove_finalizer):
    # most pods of a large Job, passed over without the two calls.
    keeps_active = job.metadata.deletion_timestamp is None and ctx.finished_condition is None
    for pod in ctx.pods:
        meta = pod.metadata
        if JOB_TRACKING_FINALIZER not in meta.finalizers or meta.uid in removing:
            continue
        if keeps_active and meta.deletion_timestamp is None and pod.status.phase not in (SUCCEEDED, FAILED):
            continue
        consider_failed = is_pod_failed(pod, job, gates)
        if not can_remove_finalizer(ctx, pod, consider_failed, gates):
            continue
        pods_to_remove_finalizer.append(pod)
        if pod.phase == SUCCEEDED and pod.uid not in ctx.uncounted_failed:
            if indexed:
                index = ix.pod_index(pod)
                assert completions is not None
                if index != ix.UNKNOWN_COMPLETION_INDEX and index < completions and not ix.has(ctx.prev_succeeded_indexes, index):
                    new_succeeded_indexes.append(index)
                    needs_flush = True
            elif pod.uid not in ctx.uncounted_succeeded:
                needs_flush = True
                unc_succeeded.append(pod.uid)
        elif consider_failed or (
            ctx.finished_condition is not None and not is_success_criteria_met_condition(ctx.finished_condition, gates)
        ):
            # Once the Job is finished, every pod that did not succeed counts as failed.
            index = ix.pod_index(pod)
            valid_index = not indexed or (
                index != ix.UNKNOWN_COMPLETION_INDEX and completions is not None and index < completions
            )
            if pod.uid not in ctx.uncounted_failed and valid_index:
                policy = job.spec.pod_failure_policy
                if policy is None or match_pod_failure_policy(policy, pod, gates).count_failed:
                    needs_flush = True
                    unc_failed.append(pod.uid)
        if len(new_succeeded_indexes) + len(unc_succeeded) + len(unc_failed) >= step.inp.tunables.max_uncounted_pods:
            # Keep the status small and the sync short; the next sync goes on.
            reached_max_uncounted = True
            break
    # The status fields that change, set with one evolve at the end (a JobStatus has many fields).
    changes: dict[str, Any] = {}
    if status.uncounted_terminated_pods is not uncounted or (
        len(unc_succeeded) != len(uncounted.succeeded) or len(unc_failed) != len(uncounted.failed)
    ):
        changes["uncounted_terminated_pods"] = UncountedTerminatedPods(tuple(unc_succeeded), tuple(unc_failed))
    if indexed:
        if new_succeeded_indexes:
            ctx.succeeded_indexes = ix.with_ordered_indexes(ctx.succeeded_indexes, new_succeeded_indexes)
        succeeded_str = ix.format_intervals(ctx.succeeded_indexes)
        if succeeded_str != status.completed_indexes:
            needs_flush = True
            changes["completed_indexes"] = succeeded_str
        failed_str = None if ctx.failed_indexes is None else ix.format_intervals(ctx.failed_indexes)
        if status.failed_indexes != failed_str:
            needs_flush = True
            changes["failed_indexes"] = failed_str
        succeeded_total = ix.total(ctx.succeeded_indexes)
        if succeeded_total != status.succeeded:
            changes["succeeded"] = succeeded_total
    finished = ctx.finished_condition
    if finished is not None and finished.type == FAILURE_TARGET:
        # The interim FailureTarget goes out before finalizers are removed; Failed follows later.
        changes["conditions"] = (*status.conditions, finished)
        needs_flush = True
        ctx.finished_condition = new_failed_condition_for_failure_target(finished, step.now)
    elif is_success_criteria_met_condition(finished, gates):
        assert finished is not None
        # `job` has the conditions of `status`: nothing above changed them.
        if has_success_criteria_met_condition(job, gates) is None:
            changes["conditions"] = (*status.conditions, finished)
            needs_flush = True
        ctx.finished_condition = new_condition(COMPLETE, "True", finished.reason, finished.message, step.now)
    if changes:
        status = evolve(status, **changes)
    if status is not job.status:
        ctx.job = evolve(job, status=status)
    needs_flush = flush_uncounted_and_remove_finalizers(step, ctx, pods_to_remove_finalizer, uids_with_finalizer, needs_flush)
    job_finished = not reached_max_uncounted and enact_job_finished(step, ctx)
    if job_finished:
        needs_flush = True
    if needs_flush:
        error = step.update_status(ctx.job)
        if error is not None:
            raise _StepError(f"removing uncounted pods from status: {error}")
        if job_finished:
            assert ctx.finished_condition is not None
            record_job_finished(step, ctx.job, ctx.finished_condition)
            if gates.at_least(34):
                step.finished_uid = job.uid  # finishedJobExpectations.Store


def flush_uncounted_and_remove_finalizers(
    step: _Step, ctx: _JobCtx, pods_to_remove_finalizer: Sequence[Pod], uids_with_finalizer: set[str], needs_flush: bool
) -> bool:
    """flushUncountedAndRemoveFinalizers: write the status (with the new uncounted pods) first, then
    remove finalizers, then move the pods whose finalizer is gone to the counters. Returns whether
    status changes remain unwritten."""
    if needs_flush:
        error = step.update_status(ctx.job)
        if error is not None:
            raise _StepError(f"adding uncounted pods to status: {error}")
        step.backoff = ctx.new_backoff_record
        needs_flush = False
    rm_error: str | None = None
    if pods_to_remove_finalizer:
        removed, rm_error = remove_tracking_finalizer_from_pods(step, pods_to_remove_finalizer)
        for pod, ok in zip(pods_to_remove_finalizer, removed, strict=True):
            if ok:
                uids_with_finalizer.discard(pod.uid)
    status, cleaned = clean_uncounted_pods_without_finalizers(ctx.job.status, uids_with_finalizer)
    if cleaned:
        ctx.job = evolve(ctx.job, status=status)
        needs_flush = True
    if rm_error is not None and needs_flush:
        error = step.update_status(ctx.job)
        if error is not None:
            raise _StepError(f"removing uncounted pods from status: {error}")
    if rm_error is not None:
        raise _StepError(rm_error)
    return needs_flush


def remove_tracking_finalizer_from_pods(step: _Step, pods: Sequence[Pod]) -> tuple[list[bool], str | None]:
    """removeTrackingFinalizerFromPods: patch each pod, expecting to observe the finalizer gone."""
    step.expected_rm_finalizers = step.expected_rm_finalizers.union(p.uid for p in pods)
    succeeded = []
    first_error: str | None = None
    for pod in pods:
        if not has_job_tracking_finalizer(pod):
            succeeded.append(False)
            continue
        error = step.patch_pod(pod, "remove-finalizer")
        if error is not None:
            step.expected_rm_finalizers = step.expected_rm_finalizers - {pod.uid}
            first_error = first_error or error
            succeeded.append(False)
            continue
        succeeded.append(True)
    return succeeded, first_error


def enact_job_finished(step: _Step, ctx: _JobCtx) -> bool:
    """enactJobFinished: add Complete or Failed once no pod is uncounted (nor, when terminal
    conditions are delayed, terminating)."""
    finished = ctx.finished_condition
    if finished is None:
        return False
    job = ctx.job
    uncounted = job.status.uncounted_terminated_pods
    if uncounted is not None and len(uncounted.succeeded) + len(uncounted.failed) > 0:
        return False
    if delay_terminal_condition(step.gates) and (ctx.terminating or 0) > 0:
        return False
    conditions, _ = ensure_job_condition_status(
        job.status.conditions, finished.type, finished.status, finished.reason, finished.message, step.now
    )
    if finished.type == COMPLETE:
        status = evolve(job.status, conditions=conditions, completion_time=finished.last_transition_time)
    else:
        status = evolve(job.status, conditions=conditions)
    ctx.job = evolve(job, status=status)
    return True


def record_job_finished(step: _Step, job: Job, finished: JobCondition) -> None:
    """recordJobFinished: the events of a finished Job."""
    if finished.type == COMPLETE:
        if job.spec.completions is not None and job.status.succeeded > job.spec.completions:
            step.event("Warning", "TooManySucceededPods", "Too many succeeded pods running after completion count reached")
        step.event("Normal", "Completed", "Job completed")
    else:
        step.event("Warning", finished.reason, finished.message)
