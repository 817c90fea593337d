"""One `sync` of the CronJob controller (upstream pkg/controller/cronjob/cronjob_controllerv2.go)
as a pure function: the cached CronJob, its namespace's Jobs, the clock and the API server's
answers in; the API calls, events, status update and requeue out.

Upstream edits a copy of the CronJob in place as it goes; here `_Step` carries that copy and the
actions taken so far, and is local to one call, so `sync_cronjob` stays a pure function.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import attrs

from jobmodel.actions import Action, CreateJob, DeleteJob, RecordEvent, Requeue, UpdateCronJobStatus
from jobmodel.features import DEFAULT_GATES, FeatureGates
from jobmodel.frozen import FrozenDict
from jobmodel.schedule.cron import (
    RECOVERED_PANIC,
    CronPanic,
    CronParseError,
    Schedule,
    parse_standard,
)
from jobmodel.schedule.gotime import LocationError, load_location
from jobmodel.schedule.times import (
    ScheduleError,
    next_schedule_time,
    next_schedule_time_duration,
    to_nanos,
)
from jobmodel.state import (
    COMPLETE,
    CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION,
    FAILED_CONDITION,
    FORBID_CONCURRENT,
    REPLACE_CONCURRENT,
    CronJob,
    CronJobStatus,
    CronJobSyncInput,
    Job,
    ObjectMeta,
    ObjectReference,
    OwnerReference,
)
from jobmodel.util.goint import NANOS, int64
from jobmodel.util.goquote import go_quote

NORMAL, WARNING = "Normal", "Warning"
ALREADY_EXISTS, NAMESPACE_TERMINATING = "AlreadyExists", "NamespaceTerminating"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
CRON_JOB_DOCS = "https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/"  # named by UnsupportedSchedule


@attrs.frozen
class CronJobSyncResult:
    """What one sync did: its actions in order, the CronJob status it wrote (`cron_job`, None
    when the CronJob is gone), the error it returned and the requeue delay it asked for."""

    actions: tuple[Action, ...]
    cron_job: CronJob | None
    error: str | None = None
    requeue_after: float | None = None


class _NotFound(Exception):
    pass


class _ApiError(Exception):
    pass


@attrs.define
class _Step:
    """The state of one sync in progress: upstream's `cronJobCopy`, the CronJob `syncCronJob` is
    editing (they part when syncCronJob adopts a fresh read from the API server), the actions."""

    inp: CronJobSyncInput
    local: CronJob
    written: CronJob | None = None
    actions: list[Action] = attrs.Factory(list)

    def event(self, etype: str, reason: str, message: str) -> None:
        self.actions.append(RecordEvent(etype, reason, message))

    def set_status(self, status: CronJobStatus) -> None:
        self.local = attrs.evolve(self.local, status=status)

    def rebind(self, fresh: CronJob) -> None:
        """`cronJob = cjCopy`: later edits go to the fresh object, which sync() never writes."""
        if self.written is None:
            self.written = self.local
        self.local = fresh

    def to_write(self) -> CronJob:
        return self.written if self.written is not None else self.local


# --- API reads -------------------------------------------------------------------------------


def _get_job(step: _Step, namespace: str, name: str) -> Job:
    """jobControl.GetJob: a read from the API server (the given `apiJobs`, else the cache)."""
    faults = step.inp.faults
    if faults.job_get_error is not None:
        raise _ApiError(faults.job_get_error)
    if not namespace:
        # A GET of a namespaced object without a namespace finds nothing on a real API server.
        raise _NotFound(f"jobs.batch {go_quote(name)} not found")
    jobs = faults.api_jobs if faults.api_jobs is not None else step.inp.jobs
    # deleteJob deletes with background propagation: a Job (no finalizer of its own) is gone
    # before the next call, so a Job this sync deleted is not found any more (in its namespace:
    # jobControl.DeleteJob(job.Namespace, job.Name)).
    deleted = deleted_jobs(step.actions)
    for job in jobs:
        meta = job.metadata
        if meta.name == name and meta.namespace == namespace and (namespace, name) not in deleted:
            return job
    raise _NotFound(f"jobs.batch {go_quote(name)} not found")


def _get_cron_job(step: _Step) -> CronJob:
    """cronJobControl.GetCronJob: the API server's copy (the given `apiCronJob`, else the cache)."""
    if step.inp.faults.cron_job_get_error is not None:
        raise _ApiError(step.inp.faults.cron_job_get_error)
    fresh = step.inp.faults.api_cron_job
    if fresh is not None:
        return fresh
    assert step.inp.cron_job is not None
    return step.inp.cron_job


# --- helpers of utils.go ---------------------------------------------------------------------


def is_job_finished(job: Job) -> tuple[bool, str]:
    """jobutil.FinishedCondition: a Complete or Failed condition with status True."""
    for cond in job.status.conditions:
        if cond.type in (COMPLETE, FAILED_CONDITION) and cond.status == "True":
            return True, cond.type
    return False, ""


def is_job_succeeded(job: Job) -> bool:
    """jobutil.IsJobSucceeded."""
    return any(c.type == COMPLETE and c.status == "True" for c in job.status.conditions)


def in_active_list(cj: CronJob, uid: str) -> bool:
    """inActiveList: by UID."""
    return any(ref.uid == uid for ref in cj.status.active)


def in_active_list_by_name(cj: CronJob, name: str, namespace: str) -> bool:
    """inActiveListByName."""
    return any(ref.name == name and ref.namespace == namespace for ref in cj.status.active)


def delete_from_active_list(cj: CronJob, uid: str) -> tuple[ObjectReference, ...]:
    """deleteFromActiveList: the active list without that UID."""
    return tuple(ref for ref in cj.status.active if ref.uid != uid)


def get_time_hash_in_minutes(scheduled: datetime) -> int:
    """getTimeHashInMinutes: Unix minutes, Go's truncating division (negative before 1970)."""
    secs = int((scheduled - _EPOCH).total_seconds() // 1)
    minutes = abs(secs) // 60
    return minutes if secs >= 0 else -minutes


def get_job_name(cj: CronJob, scheduled: datetime) -> str:
    """getJobName: `<cronjob>-<minutes since the epoch>`, the same for the same scheduled time."""
    return f"{cj.name}-{get_time_hash_in_minutes(scheduled)}"


def format_rfc3339(t: datetime) -> str:
    """Go's time.RFC3339 layout: `Z` for UTC, else ±hh:mm (seconds of the offset dropped)."""
    offset = t.utcoffset()
    off = int(offset.total_seconds()) if offset is not None else 0
    base = t.strftime("%Y-%m-%dT%H:%M:%S").rjust(19, "0")
    if off == 0:
        return base + "Z"
    minutes = abs(off) // 60
    return f"{base}{'-' if off < 0 else '+'}{minutes // 60:02d}:{minutes % 60:02d}"


def new_controller_ref(cj: CronJob) -> OwnerReference:
    """metav1.NewControllerRef for the CronJob."""
    return OwnerReference("batch/v1", "CronJob", cj.name, cj.metadata.uid, controller=True, block_owner_deletion=True)


def get_job_from_template2(cj: CronJob, scheduled: datetime, scheduled_annotation: bool) -> Job:
    """getJobFromTemplate2: the template's labels and annotations (plus, with the
    CronJobsScheduledAnnotation gate, the scheduled time in the CronJob's zone), the
    deterministic name, the controller reference and the template's Job spec. The namespace is
    the CronJob's, where jobControl.CreateJob creates it."""
    template = cj.spec.job_template
    annotations = dict(template.annotations)
    if scheduled_annotation:
        zone = load_location(cj.spec.time_zone or "")
        annotations[CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION] = format_rfc3339(scheduled.astimezone(zone))
    meta = ObjectMeta(
        name=get_job_name(cj, scheduled),
        namespace=cj.namespace,
        labels=FrozenDict(template.labels),
        annotations=FrozenDict(annotations),
        creation_timestamp=scheduled,
        owner_references=(new_controller_ref(cj),),
    )
    return Job(metadata=meta, spec=template.spec)


def deleted_jobs(actions: Sequence[object]) -> set[tuple[str, str]]:
    """(namespace, name) of the Jobs the API server accepted to delete among `actions` (a delete
    frees a name in its own namespace only)."""
    return {(a.namespace, a.name) for a in actions if isinstance(a, DeleteJob) and a.accepted}


def assigned_uid(job: Job, inp: CronJobSyncInput, actions: Sequence[Action]) -> str:
    """The UID the model's API server gives a Job created by the sync of `inp` after `actions`:
    `namespace/name`, or `namespace/name#2`, `#3`, ... when that UID is still in sight.
    Upstream's UIDs are random, so a re-created Job's differs from its predecessor's; a fresh
    UID can only be told apart by being unequal to every UID the controller can still meet (a
    Job not deleted so far, an active reference of the cached or the API server's CronJob), so
    the first one free is as good, and keeps equal states equal."""
    base = f"{job.metadata.namespace}/{job.metadata.name}"
    taken = _uids_in_sight(inp, deleted_jobs(actions))
    if base not in taken:
        return base
    n = 2
    while f"{base}#{n}" in taken:
        n += 1
    return f"{base}#{n}"


def _uids_in_sight(inp: CronJobSyncInput, deleted: set[tuple[str, str]]) -> set[str]:
    jobs = (*inp.jobs, *(inp.faults.api_jobs or ()))
    cron_jobs = [cj for cj in (inp.cron_job, inp.faults.api_cron_job) if cj is not None]
    live = {j.metadata.uid for j in jobs if (j.metadata.namespace, j.metadata.name) not in deleted}
    return live | {ref.uid for cj in cron_jobs for ref in cj.status.active}


def by_job_start_time_key(job: Job) -> tuple[bool, datetime, str]:
    """byJobStartTime: by start time, Jobs without one last, names breaking ties."""
    start = job.status.start_time
    return (start is None, start if start is not None else _EPOCH, job.metadata.name)


# --- the controller --------------------------------------------------------------------------


def get_jobs_to_be_reconciled(cj: CronJob, jobs: tuple[Job, ...], gates: FeatureGates = DEFAULT_GATES) -> tuple[Job, ...]:
    """getJobsToBeReconciled: Jobs of the namespace whose controller reference names the CronJob
    (by name only, whatever their labels); from 1.37 getCronJobJobsByIndexer instead."""
    if gates.at_least(37):
        return get_cron_job_jobs_by_indexer(cj, jobs)
    out = []
    for job in jobs:
        # jobLister.Jobs(cronJob.Namespace): the informer's namespace index, an exact match.
        if job.metadata.namespace != cj.namespace:
            continue
        ref = job.metadata.controller_ref()
        if ref is not None and ref.name == cj.name:
            out.append(job)
    return tuple(out)


def get_cron_job_jobs_by_indexer(cj: CronJob, jobs: tuple[Job, ...]) -> tuple[Job, ...]:
    """getCronJobJobsByIndexer (1.37): the Jobs whose controller reference carries the CronJob's
    uid, whatever their name (the jobControllerUID index spans every namespace)."""
    return tuple(j for j in jobs if (ref := j.metadata.controller_ref()) is not None and ref.uid == cj.metadata.uid)


def delete_job(step: _Step, job: Job) -> bool:
    """deleteJob: delete the Job, drop it from the active list, record SuccessfulDelete; a
    refused delete records FailedDelete and leaves the active list alone."""
    error = step.inp.faults.job_delete_error
    step.actions.append(DeleteJob(job.metadata.namespace, job.metadata.name, accepted=error is None))
    if error is not None:
        step.event(WARNING, "FailedDelete", f"Deleted job: {error}")
        return False
    step.set_status(attrs.evolve(step.local.status, active=delete_from_active_list(step.local, job.metadata.uid)))
    step.event(NORMAL, "SuccessfulDelete", f"Deleted job {job.metadata.name}")
    return True


def remove_oldest_jobs(step: _Step, jobs: list[Job], max_jobs: int) -> bool:
    """removeOldestJobs: delete all but the newest `max_jobs`, oldest first."""
    to_delete = len(jobs) - max_jobs
    if to_delete <= 0:
        return False
    updated = False
    for job in sorted(jobs, key=by_job_start_time_key)[:to_delete]:
        if delete_job(step, job):
            updated = True
    return updated


def cleanup_finished_jobs(step: _Step, jobs: tuple[Job, ...]) -> bool:
    """cleanupFinishedJobs: enforce the successful and failed history limits."""
    spec = step.local.spec
    if spec.failed_jobs_history_limit is None and spec.successful_jobs_history_limit is None:
        return False
    successful, failed = [], []
    for job in jobs:
        finished, ctype = is_job_finished(job)
        if finished and ctype == COMPLETE:
            successful.append(job)
        elif finished and ctype == FAILED_CONDITION:
            failed.append(job)
    updated = False
    if spec.successful_jobs_history_limit is not None and remove_oldest_jobs(
        step, successful, spec.successful_jobs_history_limit
    ):
        updated = True
    if spec.failed_jobs_history_limit is not None and remove_oldest_jobs(step, failed, spec.failed_jobs_history_limit):
        updated = True
    return updated


def formatted_schedule(cj: CronJob) -> str:
    """What formatSchedule hands cron.ParseStandard: `TZ=<zone> <schedule>` when a valid
    timeZone is set and the schedule carries no TZ of its own, else the schedule."""
    if "TZ" in cj.spec.schedule or cj.spec.time_zone is None:
        return cj.spec.schedule
    try:
        load_location(cj.spec.time_zone)
    except LocationError:
        return cj.spec.schedule
    return f"TZ={cj.spec.time_zone} {cj.spec.schedule}"


def format_schedule(step: _Step) -> str:
    """formatSchedule: `formatted_schedule`, warning UnsupportedSchedule when the schedule
    carries TZ itself."""
    cj = step.local
    if "TZ" in cj.spec.schedule:
        step.event(
            WARNING,
            "UnsupportedSchedule",
            f"CRON_TZ or TZ used in schedule {go_quote(cj.spec.schedule)} is not officially supported, see {CRON_JOB_DOCS} for more details",
        )
    return formatted_schedule(cj)


def _requeue(step: _Step, sched: Schedule) -> float:
    cj, now = step.local, step.inp.now
    return next_schedule_time_duration(sched, now, _creation(cj), cj.status.last_schedule_time)


def _creation(cj: CronJob) -> datetime:
    return cj.metadata.creation_timestamp or datetime(1, 1, 1, tzinfo=UTC)


def reconcile_jobs(step: _Step, jobs: tuple[Job, ...]) -> tuple[bool, str | None]:
    """The first part of syncCronJob: finished Jobs leave the active list (and set
    lastSuccessfulTime), unknown running Jobs are reported, vanished active Jobs are dropped."""
    updated = False
    children = {job.metadata.uid for job in jobs}
    for job in jobs:
        found = in_active_list(step.local, job.metadata.uid)
        finished, ctype = is_job_finished(job)
        if not found and not finished:
            try:
                fresh = _get_cron_job(step)
            except _ApiError as err:
                return updated, str(err)
            if in_active_list(fresh, job.metadata.uid):
                step.rebind(fresh)
                continue
            step.event(WARNING, "UnexpectedJob", f"Saw a job that the controller did not create or forgot: {job.metadata.name}")
        elif finished:
            if found:
                step.set_status(attrs.evolve(step.local.status, active=delete_from_active_list(step.local, job.metadata.uid)))
                step.event(NORMAL, "SawCompletedJob", f"Saw completed job: {job.metadata.name}, condition: {ctype}")
                updated = True
            if is_job_succeeded(job):
                last = step.local.status.last_successful_time
                # Set even from a nil completion time, and counted as a status change.
                if last is None:
                    step.set_status(attrs.evolve(step.local.status, last_successful_time=job.status.completion_time))
                    last = job.status.completion_time
                    updated = True
                completion = job.status.completion_time
                if completion is not None and last is not None and completion > last:
                    step.set_status(attrs.evolve(step.local.status, last_successful_time=completion))
                    updated = True
    for ref in step.local.status.active:
        if ref.uid in children:
            continue
        try:
            _get_job(step, ref.namespace, ref.name)
        except _NotFound:
            step.event(NORMAL, "MissingJob", f"Active job went missing: {ref.name}")
            step.set_status(attrs.evolve(step.local.status, active=delete_from_active_list(step.local, ref.uid)))
            updated = True
        except _ApiError as err:
            return updated, str(err)
    return updated, None


def sync_cron_job(step: _Step, jobs: tuple[Job, ...]) -> tuple[float | None, bool, str | None]:
    """syncCronJob: (requeue delay or None, whether the status must be written, error)."""
    inp = step.inp
    now = inp.now
    updated, err = reconcile_jobs(step, jobs)
    if err is not None:
        return None, updated, err
    cj = step.local
    if cj.metadata.deletion_timestamp is not None:
        return None, updated, None
    if cj.spec.time_zone is not None:
        try:
            load_location(cj.spec.time_zone)
        except LocationError as loc_err:
            step.event(WARNING, "UnknownTimeZone", f"invalid timeZone: {go_quote(cj.spec.time_zone)}: {loc_err}")
            return None, updated, None
    if cj.spec.suspend:
        return None, updated, None
    try:
        sched = parse_standard(format_schedule(step))
    except CronParseError as parse_err:
        message = parse_err.message
        if isinstance(parse_err, CronPanic) and step.inp.gates.at_least(35):
            message = RECOVERED_PANIC  # ParseCronScheduleWithPanicRecovery
        step.event(WARNING, "UnparseableSchedule", f"unparseable schedule: {go_quote(cj.spec.schedule)} : {message}")
        return None, updated, None

    nxt = next_schedule_time(
        sched, now, _creation(cj), cj.status.last_schedule_time, cj.spec.starting_deadline_seconds
    )
    if nxt.too_many_missed:
        step.event(
            WARNING,
            "TooManyMissedTimes",
            "too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew",
        )
    if nxt.error is not None:
        step.event(WARNING, "InvalidSchedule", f"invalid schedule: {cj.spec.schedule} : {nxt.error}")
        return None, updated, None
    scheduled = nxt.scheduled
    if scheduled is None:
        return _requeue(step, sched), updated, None

    if cj.spec.starting_deadline_seconds is not None:
        # scheduledTime.Add(time.Second * time.Duration(sds)).Before(now), the product wrapping.
        deadline = to_nanos(scheduled) + int64(NANOS * cj.spec.starting_deadline_seconds)
        if deadline < to_nanos(now):
            step.event(
                WARNING,
                "MissSchedule",
                f"Missed scheduled time to start a job: {scheduled.astimezone(UTC).strftime('%a, %d %b %Y %H:%M:%S +0000')}",
            )
            return _requeue(step, sched), updated, None
    if (
        in_active_list_by_name(cj, get_job_name(cj, scheduled), cj.namespace)
        or cj.status.last_schedule_time == scheduled
    ):
        return _requeue(step, sched), updated, None
    if cj.spec.concurrency_policy == FORBID_CONCURRENT and cj.status.active:
        step.event(
            NORMAL,
            "JobAlreadyActive",
            "Not starting job because prior execution is running and concurrency policy is Forbid",
        )
        return _requeue(step, sched), updated, None
    if cj.spec.concurrency_policy == REPLACE_CONCURRENT:
        for ref in cj.status.active:
            try:
                job = _get_job(step, ref.namespace, ref.name)
            except (_NotFound, _ApiError) as get_err:
                step.event(WARNING, "FailedGet", f"Get job: {get_err}")
                return None, updated, str(get_err)
            if not delete_job(step, job):
                return None, updated, f"could not replace job {job.metadata.namespace}/{job.metadata.name}"
            updated = True

    return create_job(step, sched, scheduled, updated)


def create_job(step: _Step, sched: Schedule, scheduled: datetime, updated: bool) -> tuple[float | None, bool, str | None]:
    """The end of syncCronJob: create the Job (or adopt our own Job of that name after an
    AlreadyExists), add it to the active list, set lastScheduleTime, requeue."""
    cj, faults = step.local, step.inp.faults
    request = get_job_from_template2(cj, scheduled, step.inp.gates.CronJobsScheduledAnnotation)
    error = faults.job_create_error
    step.actions.append(CreateJob(request, accepted=error is None))
    if error == NAMESPACE_TERMINATING:
        return None, updated, f"namespace {cj.namespace} is being terminated"
    if error == ALREADY_EXISTS:
        try:
            # Up to 1.36 upstream reads the existing Job in jobReq's namespace, which
            # getJobFromTemplate2 leaves empty, so the read fails (kubernetes/kubernetes#136918);
            # 1.37 reads it in the CronJob's namespace.
            namespace = cj.namespace if step.inp.gates.at_least(37) else ""
            existing = _get_job(step, namespace, request.metadata.name)
        except (_NotFound, _ApiError) as get_err:
            return None, updated, str(get_err)
        ref = existing.metadata.controller_ref()
        if ref is None or ref.uid != cj.metadata.uid:
            return None, updated, None
        if in_active_list(cj, existing.metadata.uid):
            return None, updated, None
        response = existing
    elif error is not None:
        step.event(WARNING, "FailedCreate", f"Error creating job: {error}")
        return None, updated, error
    else:
        response = attrs.evolve(
            request,
            metadata=attrs.evolve(request.metadata, uid=assigned_uid(request, step.inp, step.actions), creation_timestamp=step.inp.now),
        )
        step.event(NORMAL, "SuccessfulCreate", f"Created job {response.metadata.name}")
    ref_to_job = ObjectReference(
        name=response.metadata.name,
        namespace=response.metadata.namespace or cj.namespace,
        uid=response.metadata.uid,
        resource_version=response.metadata.resource_version,
    )
    step.set_status(attrs.evolve(step.local.status, active=(*step.local.status.active, ref_to_job), last_schedule_time=scheduled))
    return _requeue(step, sched), True, None


def sync_cronjob(inp: CronJobSyncInput) -> CronJobSyncResult:
    """ControllerV2.sync: clean up finished Jobs, syncCronJob, at most one status update (whose
    error is returned, with no requeue), then the requeue (which, when asked for, hides
    syncCronJob's error)."""
    if inp.cron_job is None:
        return CronJobSyncResult(actions=(), cron_job=None)
    step = _Step(inp=inp, local=inp.cron_job)
    jobs = get_jobs_to_be_reconciled(inp.cron_job, inp.jobs, inp.gates)
    cleaned = cleanup_finished_jobs(step, jobs)
    try:
        requeue, synced, error = sync_cron_job(step, jobs)
    except ScheduleError as err:
        # Upstream's worker never returns here; the model stops the step and says so.
        return CronJobSyncResult(tuple(step.actions), step.to_write(), str(err), None)
    written = step.to_write()
    if cleaned or synced:
        refused = inp.faults.status_update_error
        step.actions.append(UpdateCronJobStatus(written.status, accepted=refused is None))
        if refused is not None:
            return CronJobSyncResult(tuple(step.actions), written, refused, None)
    if requeue is not None:
        step.actions.append(Requeue(requeue))
        return CronJobSyncResult(tuple(step.actions), written, None, requeue)
    return CronJobSyncResult(tuple(step.actions), written, error, None)
