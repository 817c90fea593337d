"""Broken CronJob controllers: one realistic bug each, written into a copy of the model's own
`sync_cronjob` (tests.checkers.broken.mutants). `tests/checkers/configs.py` gives each the
configuration in which it goes wrong and the invariant that catches it."""

from __future__ import annotations

from tests.checkers.broken.mutants import SYNC_CRONJOB as SC
from tests.checkers.broken.mutants import Mutant, name_mutants


def _bug(doc: str, *edits: tuple[str, str]) -> Mutant:
    return Mutant(doc, *((SC, old, new) for old, new in edits), step_module=SC)


replace_never_deletes = _bug(
    "concurrencyPolicy Replace starts the new run without deleting the running one.",
    ("    if cj.spec.concurrency_policy == REPLACE_CONCURRENT:\n        for ref in cj.status.active:", "    if cj.spec.concurrency_policy == REPLACE_CONCURRENT:\n        for ref in ():"),
)
time_zone_ignored = _bug(
    "The CronJob's timeZone is ignored: the schedule is read in UTC.",
    ('    return f"TZ={cj.spec.time_zone} {cj.spec.schedule}"', "    return cj.spec.schedule"),
)
starting_deadline_ignored = _bug(
    "startingDeadlineSeconds is ignored: a run missed by longer still starts.",
    ("        sched, now, _creation(cj), cj.status.last_schedule_time, cj.spec.starting_deadline_seconds\n", "        sched, now, _creation(cj), cj.status.last_schedule_time, None\n"),
    ("    if cj.spec.starting_deadline_seconds is not None:\n        # scheduledTime", "    if False:\n        # scheduledTime"),
)
finished_jobs_stay_active = _bug(
    "A finished Job is not removed from status.active (so Forbid would wait for it for ever).",
    ("            if found:\n                step.set_status(attrs.evolve(step.local.status, active=delete_from_active_list(", "            if False:\n                step.set_status(attrs.evolve(step.local.status, active=delete_from_active_list("),
)
suspend_ignored = _bug(
    "spec.suspend is not read: a suspended CronJob keeps starting runs.",
    ("    if cj.spec.suspend:\n        return None, updated, None\n", ""),
)
forbid_lowercase = _bug(
    'concurrencyPolicy is compared with "forbid": Forbid runs Jobs side by side.',
    ("    if cj.spec.concurrency_policy == FORBID_CONCURRENT and cj.status.active:", '    if cj.spec.concurrency_policy == "forbid" and cj.status.active:'),
)
history_limit_off_by_one = _bug(
    "The history limits keep one finished Job more than they say.",
    ("    to_delete = len(jobs) - max_jobs\n", "    to_delete = len(jobs) - max_jobs - 1\n"),
)
last_schedule_from_finished_job = _bug(
    "When a run succeeds, lastScheduleTime is set from that Job's creation time (the fields confused).",
    (
        "                    step.set_status(attrs.evolve(step.local.status, last_successful_time=job.status.completion_time))",
        "                    step.set_status(attrs.evolve(step.local.status, last_successful_time=job.status.completion_time, last_schedule_time=job.metadata.creation_timestamp))",
    ),
)
due_run_only_on_time = _bug(
    "A run starts only when the sync comes exactly at its schedule time: a late sync skips it.",
    ("    scheduled = nxt.scheduled\n    if scheduled is None:", "    scheduled = nxt.scheduled if nxt.scheduled == now else None\n    if scheduled is None:"),
)

last_schedule_time_now = _bug(
    "lastScheduleTime is set to the time of the sync, not to the run's schedule time.",
    ("active=(*step.local.status.active, ref_to_job), last_schedule_time=scheduled))", "active=(*step.local.status.active, ref_to_job), last_schedule_time=step.inp.now))"),
)
last_successful_time_now = _bug(
    "lastSuccessfulTime is set to the time the controller sees the success, not the Job's completionTime.",
    (
        "last_successful_time=job.status.completion_time))\n                    last = job.status.completion_time",
        "last_successful_time=step.inp.now))\n                    last = job.status.completion_time",
    ),
)
history_removes_newest = _bug(
    "The history limits remove the newest finished Jobs instead of the oldest.",
    ("    for job in sorted(jobs, key=by_job_start_time_key)[:to_delete]:", "    for job in sorted(jobs, key=by_job_start_time_key, reverse=True)[:to_delete]:"),
)
cleanup_counts_running_jobs = _bug(
    "cleanupFinishedJobs counts unfinished Jobs with the successful ones, and deletes them past the limit.",
    ("        if finished and ctype == COMPLETE:\n            successful.append(job)", "        if not finished or ctype == COMPLETE:\n            successful.append(job)"),
)
refused_run_recorded = _bug(
    "A run whose Job create the API server refused is recorded as started (lastScheduleTime set), so it is never tried again.",
    (
        '        step.event(WARNING, "FailedCreate", f"Error creating job: {error}")\n        return None, updated, error',
        '        step.event(WARNING, "FailedCreate", f"Error creating job: {error}")\n        step.set_status(attrs.evolve(step.local.status, last_schedule_time=scheduled))\n        return None, True, error',
    ),
)
refused_delete_taken_as_done = _bug(
    "A refused Job delete is taken as done: the reference leaves status.active while the Job runs on.",
    (
        '        step.event(WARNING, "FailedDelete", f"Deleted job: {error}")\n        return False',
        '        step.event(WARNING, "FailedDelete", f"Deleted job: {error}")\n        step.set_status(attrs.evolve(step.local.status, active=delete_from_active_list(step.local, job.metadata.uid)))\n        return True',
    ),
)
unreadable_job_taken_as_missing = _bug(
    "A refused read of an active Job the cache does not list is taken as NotFound: the reference is dropped as missing.",
    ('        except _NotFound:\n            step.event(NORMAL, "MissingJob"', '        except (_NotFound, _ApiError):\n            step.event(NORMAL, "MissingJob"'),
)
replace_read_error_ignored = _bug(
    "concurrencyPolicy Replace skips a running Job it cannot read and starts the new run beside it.",
    (
        '                step.event(WARNING, "FailedGet", f"Get job: {get_err}")\n                return None, updated, str(get_err)',
        '                step.event(WARNING, "FailedGet", f"Get job: {get_err}")\n                continue',
    ),
)
unreadable_cron_job_ignored = _bug(
    "A refused read of the CronJob is ignored: the running Job its cached status lacks is reported as unexpected, and the sync goes on to its schedule.",
    ("            except _ApiError as err:\n                return updated, str(err)\n", "            except _ApiError:\n                fresh = step.local\n"),
)
status_write_error_swallowed = _bug(
    "A refused CronJob status write is only logged: the sync returns its requeue, so the retry waits for the next schedule time.",
    ("        if refused is not None:\n            return CronJobSyncResult(tuple(step.actions), written, refused, None)\n", ""),
)

name_mutants(globals())
