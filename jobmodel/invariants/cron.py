"""The CronJob catalogue: every property a correct CronJob controller keeps, stated once, over
the worlds of `jobmodel.transitions.cron_environment` (see `jobmodel.invariants.laws` for what
an entry is; docs/invariants.md is the catalogue in prose, with the broken variant each law
catches).

As for the Job, the laws come in both directions: what the controller creates is justified by
the schedule (a schedule time of the CronJob's zone, not older than startingDeadlineSeconds, not
while suspended, within the concurrency policy), and after a settled sync (a plain sync over a
current cache) what the schedule demands is done: a due run started, `status.active` naming only
running Jobs. The schedule is read here on its own (robfig's parser, in the zone the CronJob
names), not through the controller's helpers, so that a bug there is seen.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from functools import lru_cache

from jobmodel.actions import CreateJob, DeleteJob, UpdateCronJobStatus
from jobmodel.errors import InputError
from jobmodel.invariants import catalogue
from jobmodel.invariants.laws import Laws, Transition, Violation
from jobmodel.schedule.cron import CronParseError, Schedule, parse_standard
from jobmodel.schedule.gotime import LocationError
from jobmodel.state import (
    COMPLETE,
    CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION,
    FAILED_CONDITION,
    FORBID_CONCURRENT,
    REPLACE_CONCURRENT,
    CronJob,
    CronJobSyncInput,
    Job,
    ObjectReference,
)
from jobmodel.timeutil import parse_time
from jobmodel.transitions.cron_environment import FAULTY_SYNCS, CronWorld, apply_cron_move
from jobmodel.transitions.move import Move
from jobmodel.transitions.sync_cronjob import CronJobSyncResult, deleted_jobs, is_job_finished

CronTransition = Transition[CronWorld, CronJobSyncResult]
CRON_LAWS: Laws[CronWorld, CronJobSyncResult] = Laws()
SYNC_MOVES = frozenset({"sync", "sync-stale", "sync-crash", *FAULTY_SYNCS})
# The syncs the concurrency laws judge: every sync move but sync-stale.
CONCURRENCY_SYNCS = SYNC_MOVES - {"sync-stale"}
DUE_WINDOW = timedelta(days=2)  # how far back a due run is looked for (a long outage or a DST jump)
MAX_SCHEDULE_STEPS = 5000


def _running(world: CronWorld) -> list[str]:
    return [j.metadata.name for j in world.owned() if not is_job_finished(j)[0]]


# --- facts ------------------------------------------------------------------------------------------


def cron_schedule(cj: CronJob) -> Schedule | None:
    """The CronJob's schedule in its timeZone (as the controller's formatSchedule prefixes
    `TZ=`), None when it does not parse or the zone is unknown."""
    text = cj.spec.schedule
    if "TZ" not in text and cj.spec.time_zone is not None:
        text = f"TZ={cj.spec.time_zone} {text}"
    return _parsed(text)


@lru_cache(maxsize=256)
def _parsed(text: str) -> Schedule | None:
    try:
        return parse_standard(text)
    except (CronParseError, LocationError):
        return None


def is_schedule_time(schedule: Schedule, t: datetime) -> bool:
    """`t` is an activation of the schedule (the first one after the second before it)."""
    return schedule.next(t - timedelta(seconds=1)) == t


def scheduled_time(job: Job) -> datetime | None:
    """The schedule time a Job runs, from its scheduled-timestamp annotation."""
    value = job.metadata.annotations.get(CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION)
    if value is None:
        return None
    try:
        return parse_time(value, CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION)
    except InputError:
        return None


def created_jobs(t: CronTransition) -> list[Job]:
    """The Jobs a sync created (owned after it, not before)."""
    before = {j.metadata.name for j in t.before.jobs}
    return [j for j in t.after.owned() if j.metadata.name not in before]


def due_time(world: CronWorld) -> datetime | None:
    """The most recent schedule time that is due: after lastScheduleTime (or the CronJob's
    creation), not after now, and, with startingDeadlineSeconds, less than that long ago."""
    cj = world.cron_job
    schedule = cron_schedule(cj)
    created = cj.metadata.creation_timestamp
    if schedule is None or created is None:
        return None
    since = cj.status.last_schedule_time or created
    sds = cj.spec.starting_deadline_seconds
    if sds is not None:
        since = max(since, world.now - timedelta(seconds=sds))
    return _latest_activation(schedule, max(since, world.now - DUE_WINDOW), world.now)


@lru_cache(maxsize=8192)
def _latest_activation(schedule: Schedule, since: datetime, now: datetime) -> datetime | None:
    """The last activation of the schedule in (since, now]."""
    due = None
    at = schedule.next(since)
    for _ in range(MAX_SCHEDULE_STEPS):
        if at > now:
            return due
        due = at
        at = schedule.next(at)
    return None  # too many to walk: no claim


def a_sync(t: CronTransition) -> bool:
    """A controller sync: the guard of every law about what a sync did (laws.Invariant.when)."""
    return t.move.kind in SYNC_MOVES


def settled_sync(t: CronTransition) -> bool:
    """A plain sync over a current cache whose status write went through."""
    return t.move.kind == "sync" and t.before.cached is None


def every_running_job_listed(world: CronWorld) -> bool:
    """The assumption of the concurrency laws: status.active names every unfinished Job (how the
    controller knows what runs)."""
    listed = {ref.uid for ref in world.cron_job.status.active}
    return all(is_job_finished(j)[0] or j.metadata.uid in listed for j in world.owned())


@CRON_LAWS.state_invariant("cron-one-job-per-scheduled-time", "cronjob_controllerv2.go syncCronJob, getJobFromTemplate2 (getJobName)")
def one_job_per_scheduled_time(world: CronWorld) -> str | None:
    """The CronJob never has two Jobs for the same scheduled time: Job names are derived from the
    scheduled time (getJobName), so a second create of a run gets AlreadyExists."""
    seen: dict[str, str] = {}
    for job in world.owned():
        when = str(job.metadata.annotations.get(CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION, job.metadata.name))
        if when in seen:
            return f"Jobs {seen[when]} and {job.metadata.name} both run the schedule time {when}"
        seen[when] = job.metadata.name
    return None


@CRON_LAWS.step_invariant("cron-forbid-never-two-active", "cronjob_controllerv2.go syncCronJob (ForbidConcurrent)", when=a_sync)
def forbid_never_two_active(t: CronTransition) -> str | None:
    """With concurrencyPolicy Forbid a sync never leaves two unfinished Jobs. Assumption: every
    running Job is in the status.active the sync sees (the cache is current, and no crash came
    between a create and its status write): status.active is how the controller knows what runs.
    Upstream says as much in syncCronJob's Forbid branch ("it is theoretically possible to have
    concurrency with Forbid"); tests/checkers/test_cron.py shows the trace."""
    if t.move.kind not in CONCURRENCY_SYNCS or t.before.cached is not None:
        return None
    listed = {ref.uid for ref in t.before.cron_job.status.active}
    if any(not is_job_finished(j)[0] and j.metadata.uid not in listed for j in t.before.owned()):
        return None  # outside the assumption
    if t.after.cron_job.spec.concurrency_policy != FORBID_CONCURRENT:
        return None
    running = _running(t.after)
    return f"Forbid, yet {running} run together" if len(running) > 1 else None


@CRON_LAWS.step_invariant("cron-replace-leaves-one-running", "cronjob_controllerv2.go syncCronJob (ReplaceConcurrent: deleteJob of every active Job before the create)", when=a_sync)
def replace_leaves_one_running(t: CronTransition) -> str | None:
    """With concurrencyPolicy Replace a sync leaves at most one unfinished Job: the Jobs of
    status.active are deleted before the new one is created. Assumption: as
    cron-forbid-never-two-active's."""
    if t.move.kind not in CONCURRENCY_SYNCS or t.before.cached is not None or not every_running_job_listed(t.before):
        return None
    if t.after.cron_job.spec.concurrency_policy != REPLACE_CONCURRENT:
        return None
    running = _running(t.after)
    return f"Replace, yet {running} run together" if len(running) > 1 else None


@CRON_LAWS.step_invariant("cron-runs-at-schedule-times", "cronjob_controllerv2.go syncCronJob (nextScheduleTime, formatSchedule: TZ=timeZone); utils.go mostRecentScheduleTime", when=a_sync)
def runs_at_schedule_times(t: CronTransition) -> str | None:
    """Every Job a sync creates runs a time of the schedule in the CronJob's timeZone (its
    scheduled-timestamp annotation), not after now and after the previous lastScheduleTime."""
    if t.move.kind not in SYNC_MOVES:
        return None
    cj = t.before.cron_job
    schedule = cron_schedule(cj)
    for job in created_jobs(t):
        when = scheduled_time(job)
        if schedule is None or when is None:
            continue
        if not is_schedule_time(schedule, when):
            return f"Job {job.metadata.name} runs {when.isoformat()}, not a time of {cj.spec.schedule!r} in {cj.spec.time_zone or 'UTC'}"
        if when > t.after.now:
            return f"Job {job.metadata.name} runs {when.isoformat()}, after now"
        last = cj.status.last_schedule_time
        if last is not None and when <= last and t.before.cached is None:
            return f"Job {job.metadata.name} runs {when.isoformat()}, not after lastScheduleTime {last.isoformat()}"
    return None


@CRON_LAWS.step_invariant("cron-starting-deadline-respected", "cronjob_controllerv2.go syncCronJob (MissSchedule: scheduledTime + startingDeadlineSeconds before now); utils.go mostRecentScheduleTime (earliestTime)", when=a_sync)
def starting_deadline_respected(t: CronTransition) -> str | None:
    """A Job created by a sync runs a schedule time less than startingDeadlineSeconds before now:
    a run missed by longer is skipped (MissSchedule)."""
    if t.move.kind not in SYNC_MOVES:
        return None
    sds = t.before.cron_job.spec.starting_deadline_seconds
    if sds is None:
        return None
    for job in created_jobs(t):
        when = scheduled_time(job)
        if when is not None and (t.after.now - when).total_seconds() >= sds:
            late = (t.after.now - when).total_seconds()
            return f"Job {job.metadata.name} started {late:g}s after its schedule time, startingDeadlineSeconds {sds}"
    return None


@CRON_LAWS.step_invariant("cron-suspended-starts-nothing", "cronjob_controllerv2.go syncCronJob (Spec.Suspend: return before scheduling)", when=a_sync)
def suspended_starts_nothing(t: CronTransition) -> str | None:
    """A sync of a suspended CronJob creates no Job."""
    if t.move.kind not in SYNC_MOVES:
        return None
    seen = t.before.cached or t.before.cron_job
    created = created_jobs(t)
    if seen.spec.suspend and created:
        return f"suspended, yet Job {created[0].metadata.name} was created"
    return None


@CRON_LAWS.step_invariant("cron-active-lists-running-jobs", "cronjob_controllerv2.go syncCronJob (finished Jobs and missing Jobs leave status.active: deleteFromActiveList)", when=a_sync)
def active_lists_running_jobs(t: CronTransition) -> str | None:
    """After a settled sync, status.active names only Jobs that exist and have not finished.
    Upstream behaviour accepted: from 1.37 a finished Job the sync met through AlreadyExists
    (adopted_after_already_exists); the next sync drops it (deleteFromActiveList). And a
    reference to a Job re-created under its name (kept_by_name, replaced_by_name)."""
    if not settled_sync(t):
        return None
    jobs = {j.metadata.uid: j for j in t.after.owned()}
    for ref in t.after.cron_job.status.active:
        job = jobs.get(ref.uid)
        if job is None:
            if accepting(t) and (kept_by_name(t.after, ref) or replaced_by_name(t, ref)):
                continue
            return f"status.active names {ref.name}, which is gone"
        if is_job_finished(job)[0] and not adopted_after_already_exists(t, job):
            return f"status.active names {ref.name}, which has finished"
    return None


def accepting(t: CronTransition) -> bool:
    """Whether the known upstream behaviours are accepted on this transition."""
    return catalogue.ACCEPT_KNOWN_UPSTREAM_BUGS and not t.without_assumptions


def kept_by_name(world: CronWorld, ref: ObjectReference) -> bool:
    """A reference of status.active to a Job that is gone while another Job of its name (a
    re-created run: a new UID) exists. Upstream keeps it for as long as that Job exists:
    syncCronJob (cronjob_controllerv2.go v1.32.3 lines 472-491, v1.37.2 lines 499-518) checks a
    reference whose UID it did not list with jobControl.GetJob by name, and only a NotFound
    deletes it; the Jobs it walks leave status.active by their own UIDs (inActiveList,
    deleteFromActiveList), so the re-created Job, finished or not, never removes it."""
    uids = {j.metadata.uid for j in world.jobs}
    return ref.uid not in uids and any(j.metadata.name == ref.name and j.metadata.namespace == ref.namespace for j in world.jobs)


def replaced_by_name(t: CronTransition, ref: ObjectReference) -> bool:
    """A reference kept by name (kept_by_name before the sync) whose re-created Job the sync
    deleted: concurrencyPolicy Replace deletes the Job GetJob finds by the reference's name and
    drops the found Job's UID (deleteJob, deleteFromActiveList: v1.32.3 lines 584-595, 743-751;
    v1.37.2 lines 611-622, 770-778), so the reference stays until the next sync's GetJob says
    NotFound (MissingJob)."""
    return (ref.namespace, ref.name) in deleted_jobs(t.sync.actions if t.sync else ()) and kept_by_name(t.before, ref)


def adopted_after_already_exists(t: CronTransition, job: Job) -> bool:
    """1.37's syncCronJob (cronjob_controllerv2.go v1.37.2, lines 637-660 and 690-691): when the
    create of the run gets AlreadyExists, it reads the existing Job in the CronJob's namespace
    and, if the CronJob controls it and status.active lacks it, appends it to status.active
    without asking whether it has finished (up to 1.36 the read, in the empty namespace, fails:
    kubernetes#136918). So the Job the sync's refused create named, listed by that sync, the run
    of the lastScheduleTime it wrote, and in status.active only from that sync on."""
    if not catalogue.ACCEPT_KNOWN_UPSTREAM_BUGS or t.without_assumptions or not t.after.gates.at_least(37):
        return False
    name = job.metadata.name
    refused = any(
        isinstance(a, CreateJob) and not a.accepted and a.job.metadata.name == name for a in (t.sync.actions if t.sync else ())
    )
    listed_before = any(ref.uid == job.metadata.uid for ref in t.before.cron_job.status.active)
    last = t.after.cron_job.status.last_schedule_time
    return refused and not listed_before and last is not None and scheduled_time(job) == last


@CRON_LAWS.step_invariant("cron-due-run-started", "cronjob_controllerv2.go syncCronJob (mostRecentScheduleTime, createJob); the requeue at nextScheduleTimeDuration", when=a_sync)
def due_run_started(t: CronTransition) -> str | None:
    """Bounded liveness: after a settled sync of an unsuspended CronJob, the most recent due
    schedule time (after lastScheduleTime, less than startingDeadlineSeconds ago) has its Job
    (now, or before the sync: a run may have finished and been cleaned up), unless Forbid holds
    it back (an unfinished Job exists). Assumption: status.active names every unfinished Job.
    Upstream behaviour accepted: Forbid held back by a reference that upstream keeps by name
    (kept_by_name) while the re-created Job of that name exists, finished or not."""
    if not settled_sync(t):
        return None
    cj = t.before.cron_job
    if cj.spec.suspend or not every_running_job_listed(t.before):
        return None
    due = due_time(t.before)
    if due is None:
        return None
    if cj.spec.concurrency_policy == FORBID_CONCURRENT and _running(t.before):
        return None
    if cj.spec.concurrency_policy == FORBID_CONCURRENT and accepting(t) and any(
        kept_by_name(t.after, ref) for ref in t.after.cron_job.status.active
    ):
        return None  # upstream's Forbid waits for a reference kept by name (kept_by_name): for good
    if any(scheduled_time(j) == due for j in (*t.before.owned(), *t.after.owned())):
        return None
    return f"the run of {due.isoformat()} is due, yet no Job runs it"


@CRON_LAWS.step_invariant("cron-last-schedule-time-is-the-run", "cronjob_controllerv2.go syncCronJob (cronJob.Status.LastScheduleTime = &metav1.Time{Time: *scheduledTime})", when=a_sync)
def last_schedule_time_is_the_run(t: CronTransition) -> str | None:
    """A sync that starts a run and writes its status sets lastScheduleTime to that run's
    schedule time (not to the time the sync ran)."""
    if t.move.kind not in ("sync", "sync-stale") or t.before.cached is not None:
        return None
    last = t.after.cron_job.status.last_schedule_time
    for job in created_jobs(t):
        when = scheduled_time(job)
        if when is not None and last != when:
            return f"Job {job.metadata.name} runs {when.isoformat()}, lastScheduleTime is {last.isoformat() if last else None}"
    return None


@CRON_LAWS.step_invariant("cron-refused-run-not-recorded", "cronjob_controllerv2.go syncCronJob (a CreateJob error other than AlreadyExists: FailedCreate, returned before status.lastScheduleTime is set)", when=a_sync)
def refused_run_not_recorded(t: CronTransition) -> str | None:
    """A run whose Job create the API server refused with a server error (`sync-create-error`)
    is not recorded as started: the sync does not move status.lastScheduleTime to that run's
    schedule time (or past it), so a later sync tries the run again. (A sync over a lagging cache
    may try a run the API server's CronJob has recorded already: there the time stays.)"""
    if t.move.kind != "sync-create-error" or t.sync is None:
        return None
    last = t.after.cron_job.status.last_schedule_time
    if last == t.before.cron_job.status.last_schedule_time:
        return None
    for action in t.sync.actions:
        if isinstance(action, CreateJob) and not action.accepted:
            when = scheduled_time(action.job)
            if when is not None and last is not None and last >= when:
                return f"the create of the run of {when.isoformat()} was refused, yet lastScheduleTime is {last.isoformat()}"
    return None


@CRON_LAWS.step_invariant("cron-refused-delete-keeps-the-job-listed", "cronjob_controllerv2.go deleteJob (a DeleteJob error: FailedDelete, returned before deleteFromActiveList)", when=a_sync)
def refused_delete_keeps_the_job_listed(t: CronTransition) -> str | None:
    """A running Job whose delete the API server refused (`sync-delete-error`) keeps its place in
    status.active: the controller drops a reference only once its Job is deleted or finished,
    so that what runs stays listed (and Forbid keeps waiting for it)."""
    if t.move.kind != "sync-delete-error" or t.sync is None:
        return None
    listed = {ref.uid for ref in t.after.cron_job.status.active}
    was_listed = {ref.uid for ref in t.before.cron_job.status.active}
    refused = {(a.namespace, a.name) for a in t.sync.actions if isinstance(a, DeleteJob) and not a.accepted}
    for job in t.after.owned():
        meta = job.metadata
        if (meta.namespace, meta.name) in refused and meta.uid in was_listed and meta.uid not in listed and not is_job_finished(job)[0]:
            return f"the delete of {meta.name} was refused, yet status.active no longer lists it"
    return None


@CRON_LAWS.step_invariant("cron-unread-job-stays-listed", "cronjob_controllerv2.go syncCronJob (an active Job not listed: GetJob, and only a NotFound drops it as MissingJob; ReplaceConcurrent: a GetJob error is FailedGet, returned before deleteJob)", when=a_sync)
def unread_job_stays_listed(t: CronTransition) -> str | None:
    """A reference of status.active whose Job the sync does not list, and whose read the API
    server refused (`sync-get-error`), stays: only a NotFound tells a Job that is gone from one
    the controller cannot see, so a refused read drops nothing."""
    if t.move.kind != "sync-get-error" or t.sync is None:
        return None
    listed_jobs = {j.metadata.uid for j in t.before.jobs}
    kept = {ref.uid for ref in t.after.cron_job.status.active}
    for ref in t.before.cron_job.status.active:
        if ref.uid not in listed_jobs and ref.uid not in kept:
            return f"the read of {ref.name} was refused, yet status.active no longer lists it"
    return None


@CRON_LAWS.step_invariant("cron-unread-cronjob-starts-nothing", "cronjob_controllerv2.go syncCronJob (a running Job that status.active lacks: GetCronJob, and its error is returned before any Job is created)", when=a_sync)
def unread_cron_job_starts_nothing(t: CronTransition) -> str | None:
    """A sync that meets a running Job of its own that the cached status.active lacks, and whose
    read of the CronJob the API server refused (`sync-cronjob-get-error`), returns the error (the
    work queue retries it) and starts no run: it cannot tell a Job it forgot from one that a newer
    status, not yet in its cache, lists, so it acts on neither."""
    if t.move.kind != "sync-cronjob-get-error" or t.sync is None:
        return None
    created = [a.job.metadata.name for a in t.sync.actions if isinstance(a, CreateJob)]
    if created:
        return f"the read of the CronJob was refused, yet the sync went on to create {', '.join(created)}"
    if t.sync.error is None:
        return "the read of the CronJob was refused, yet the sync returned no error"
    return None


@CRON_LAWS.step_invariant("cron-refused-status-write-retried", "cronjob_controllerv2.go ControllerV2.sync (an UpdateStatus error is returned, before the requeueAfter: the work queue retries the key with back-off)", when=a_sync)
def refused_status_write_retried(t: CronTransition) -> str | None:
    """A sync whose status write the API server refused (a server error, `sync-status-error`, or
    a conflict: a write from a stale CronJob) returns the error and no requeue delay of its own,
    so that the work queue retries it with back-off rather than at the next schedule time with
    the run it started unrecorded."""
    if t.sync is None or t.move.kind == "sync-crash" or not status_written(t):
        return None
    seen = t.before.cached or t.before.cron_job
    if t.move.kind != "sync-status-error" and seen == t.before.cron_job:
        return None
    if t.sync.error is None:
        return "the status write was refused, yet the sync returned no error"
    if t.sync.requeue_after is not None:
        return f"the status write was refused, yet the sync asked to be requeued after {t.sync.requeue_after:g}s"
    return None


def status_written(t: CronTransition) -> bool:
    """Whether the sync sent the API server a status write (accepted or not)."""
    return t.sync is not None and any(isinstance(a, UpdateCronJobStatus) for a in t.sync.actions)


@CRON_LAWS.step_invariant("cron-last-successful-time-justified", "cronjob_controllerv2.go syncCronJob (LastSuccessfulTime from a succeeded Job's CompletionTime)", when=a_sync)
def last_successful_time_justified(t: CronTransition) -> str | None:
    """A sync sets status.lastSuccessfulTime only to the completionTime of a Job of the CronJob
    that succeeded."""
    if t.move.kind not in SYNC_MOVES:
        return None
    old, new = t.before.cron_job.status.last_successful_time, t.after.cron_job.status.last_successful_time
    if new is None or new == old:
        return None
    completions = {j.status.completion_time for j in t.before.owned() if is_job_finished(j) == (True, COMPLETE)}
    return None if new in completions else f"lastSuccessfulTime {new.isoformat()} is no succeeded Job's completionTime"


def _started(job: Job) -> datetime | None:
    return job.status.start_time or job.metadata.creation_timestamp


@CRON_LAWS.step_invariant("cron-history-keeps-the-newest", "cronjob_controllerv2.go cleanupFinishedJobs, removeOldestJobs (sort.Sort(byJobStartTime))", when=a_sync)
def history_keeps_the_newest(t: CronTransition) -> str | None:
    """When a sync removes finished Jobs beyond a history limit, it removes the oldest (by start
    time): no removed Job started after a kept Job of the same outcome."""
    if t.move.kind not in SYNC_MOVES:
        return None
    after = {j.metadata.name for j in t.after.owned()}
    for ctype in (COMPLETE, FAILED_CONDITION):
        ended = [j for j in t.before.owned() if is_job_finished(j) == (True, ctype)]
        removed = [j for j in ended if j.metadata.name not in after]
        kept = [j for j in ended if j.metadata.name in after]
        for gone in removed:
            for stays in kept:
                a, b = _started(gone), _started(stays)
                if a is not None and b is not None and a > b:
                    return f"{ctype} Job {gone.metadata.name} removed, the older {stays.metadata.name} kept"
    return None


@CRON_LAWS.step_invariant("cron-running-jobs-not-deleted", "cronjob_controllerv2.go cleanupFinishedJobs (finished Jobs only); syncCronJob (ReplaceConcurrent)", when=a_sync)
def running_jobs_not_deleted(t: CronTransition) -> str | None:
    """A sync deletes an unfinished Job only under concurrencyPolicy Replace, to start a new run
    in its place (the history limits remove finished Jobs only); Replace deletes before it
    creates, so where the API server refuses that create (`sync-create-error`) the sync has
    deleted the running Job and started nothing (v1.32.3 lines 583-604, v1.37.2 lines 610-631).
    Upstream behaviour accepted: Replace deletes the Job a reference kept by name (kept_by_name)
    finds, also when the create then meets AlreadyExists (the run's Job was created before, by a
    crashed sync)."""
    if t.move.kind not in SYNC_MOVES:
        return None
    after = {j.metadata.name for j in t.after.owned()}
    gone = [j.metadata.name for j in t.before.owned() if not is_job_finished(j)[0] and j.metadata.name not in after]
    if not gone:
        return None
    seen = t.before.cached or t.before.cron_job
    if seen.spec.concurrency_policy == REPLACE_CONCURRENT and created_jobs(t):
        return None
    if seen.spec.concurrency_policy == REPLACE_CONCURRENT and t.move.kind == "sync-create-error" and create_attempted(t):
        return None
    if seen.spec.concurrency_policy == REPLACE_CONCURRENT and accepting(t) and all(found_by_a_kept_reference(t.before, n) for n in gone):
        return None
    return f"running Job {gone[0]} deleted"


def create_attempted(t: CronTransition) -> bool:
    """Whether the sync asked the API server to create a Job (accepted or not)."""
    return t.sync is not None and any(isinstance(a, CreateJob) for a in t.sync.actions)


def found_by_a_kept_reference(world: CronWorld, name: str) -> bool:
    """The Job of that name is what a reference kept by name (kept_by_name) of the cached or the
    API server's status.active finds: Replace's GetJob by the reference's name (v1.32.3 lines
    584-595, v1.37.2 lines 611-622) deletes it, whether status.active lists it or not."""
    cron_jobs = [cj for cj in (world.cached, world.cron_job) if cj is not None]
    return any(ref.name == name and kept_by_name(world, ref) for cj in cron_jobs for ref in cj.status.active)


@CRON_LAWS.step_invariant("cron-history-limits", "cronjob_controllerv2.go cleanupFinishedJobs", when=a_sync)
def history_limits_hold(t: CronTransition) -> str | None:
    """After a sync, at most successfulJobsHistoryLimit complete and failedJobsHistoryLimit failed
    Jobs remain (cleanupFinishedJobs runs first in every sync), unless the API server refused
    the sync's deletes (`sync-delete-error`: the next sync deletes them)."""
    if t.move.kind not in SYNC_MOVES or t.move.kind == "sync-delete-error":
        return None
    spec = t.after.cron_job.spec
    for ctype, limit in ((COMPLETE, spec.successful_jobs_history_limit), (FAILED_CONDITION, spec.failed_jobs_history_limit)):
        count = sum(1 for j in t.after.owned() if is_job_finished(j) == (True, ctype))
        if limit is not None and count > limit:
            return f"{count} {ctype} Jobs kept, the limit is {limit}"
    return None


@CRON_LAWS.step_invariant("cron-last-schedule-time-never-goes-back", "cronjob_controllerv2.go syncCronJob (status.lastScheduleTime = scheduledTime)")
def last_schedule_time_never_goes_back(t: CronTransition) -> str | None:
    """status.lastScheduleTime only moves forward (the controller only sets it to the time it
    just scheduled, which is after the last one)."""
    old, new = t.before.cron_job.status.last_schedule_time, t.after.cron_job.status.last_schedule_time
    if old is not None and (new is None or new < old):
        return f"lastScheduleTime went back from {old} to {new}"
    return None


@CRON_LAWS.sometimes_property("a CronJob run is created")
def run_created(world: CronWorld) -> bool:
    """The CronJob has a Job."""
    return bool(world.owned())


@CRON_LAWS.sometimes_property("a finished run is cleaned up")
def finished_run_cleaned_up(world: CronWorld) -> bool:
    """A run succeeded, and no finished Job is left (history limit 0)."""
    return world.cron_job.status.last_successful_time is not None and not any(
        is_job_finished(j)[0] for j in world.owned()
    )


CronSyncImpl = Callable[[CronJobSyncInput], CronJobSyncResult]


def check_cron_liveness(impl: CronSyncImpl, world: CronWorld) -> Violation | None:
    """Bounded liveness from a state: once the cache catches up, one sync starts the due run
    (cron-due-run-started on that sync)."""
    current = world if world.cached is None else apply_cron_move(world, Move("cache-catch-up"), impl)[0]
    after, result = apply_cron_move(current, Move("sync"), impl)
    message = due_run_started(Transition(current, Move("sync"), after, result))
    return None if message is None else Violation("cron-bounded-liveness", message)
