"""Broken Job controllers: one realistic bug each, written into a copy of the model's own
`sync_job` (tests.checkers.broken.mutants). `tests/checkers/configs.py` gives each the
configuration in which it goes wrong and the invariant that catches it; docs/invariants.md
lists them with the traces.
"""

from __future__ import annotations

from tests.checkers.broken.mutants import SYNC_JOB as SJ
from tests.checkers.broken.mutants import Mutant, name_mutants

PFP = "jobmodel.transitions.pod_failure_policy"
SP = "jobmodel.transitions.success_policy"

# --- terminal conditions and their reasons ----------------------------------------------------

failure_checked_after_success = Mutant(
    "A Job that met its success criteria is still checked for failures (the SuccessCriteriaMet "
    "condition is not read first), so a deadline that passes while its pods terminate fails it too.",
    (SJ, "    ctx.finished_condition = has_success_criteria_met_condition(job, gates)\n", "    ctx.finished_condition = None\n"),
)
backoff_reason_misspelt = Mutant(
    "The Failed condition's reason is spelt BackOffLimitExceeded.",
    (SJ, 'REASON_BACKOFF_LIMIT_EXCEEDED = "BackoffLimitExceeded"', 'REASON_BACKOFF_LIMIT_EXCEEDED = "BackOffLimitExceeded"'),
)
no_completion_time = Mutant(
    "Complete is added without a completionTime.",
    (
        SJ,
        "        status = evolve(job.status, conditions=conditions, completion_time=finished.last_transition_time)\n",
        "        status = evolve(job.status, conditions=conditions)\n",
    ),
)
failure_target_status_lowercase = Mutant(
    'An existing FailureTarget is looked for with status "true", so every sync adds another one.',
    (SJ, '        if failure_target is not None and failure_target.status == "True":', '        if failure_target is not None and failure_target.status == "true":'),
)
success_criteria_added_again = Mutant(
    "SuccessCriteriaMet is appended on every sync while the pods terminate, not once.",
    (
        SJ,
        "        if has_success_criteria_met_condition(job, gates) is None:\n",
        "        if True:\n",
    ),
)
failed_index_restarted = Mutant(
    "firstPendingIndexes forgets the failed indexes: a failed index gets a new pod, which may succeed.",
    (SJ, "    if ctx.failed_indexes is not None:\n        non_pending = ix.merge(non_pending, ctx.failed_indexes)\n", ""),
)
start_time_reset_every_sync = Mutant(
    "startTime is set on every sync of an unsuspended Job, not only the first.",
    (SJ, "    if job.status.start_time is None and not job_suspended(job):\n        job = _with_status(job, start_time=now)", "    if not job_suspended(job):\n        job = _with_status(job, start_time=now)"),
)
complete_job_synced_again = Mutant(
    "IsJobFinished looks for Failed only: a Complete Job is synced again and its completionTime rewritten.",
    (SJ, "    return any(c.type in (COMPLETE, FAILED_CONDITION) and c.status", "    return any(c.type in (FAILED_CONDITION,) and c.status"),
)
backoff_limit_off_by_one = Mutant(
    "The Job fails when its failures reach backoffLimit, not when they exceed it.",
    (SJ, "exceeds_backoff_limit = ctx.failed > backoff_limit", "exceeds_backoff_limit = ctx.failed >= backoff_limit"),
)
container_restarts_ignored = Mutant(
    "pastBackoffLimitOnFailure is not checked: a Job whose restartPolicy OnFailure pods restart their containers "
    "past backoffLimit runs on.",
    (SJ, "        if exceeds_backoff_limit or past_backoff_limit_on_failure(job, pods):", "        if exceeds_backoff_limit:"),
)
container_restarts_off_by_one = Mutant(
    "pastBackoffLimitOnFailure fails the Job once the restarts exceed backoffLimit, not once they reach it.",
    (SJ, "    return restarts >= limit\n", "    return restarts > limit\n"),
)
finished_pods_restarts_counted = Mutant(
    "pastBackoffLimitOnFailure counts the container restarts of finished pods too, not only of running and pending ones.",
    (SJ, '        if pod.phase in ("Running", "Pending"):\n            restarts +=', "        if True:\n            restarts +="),
)
deadline_while_suspended = Mutant(
    "pastActiveDeadline ignores suspension: a suspended Job fails with DeadlineExceeded.",
    (SJ, "    if ads is None or job.status.start_time is None or job_suspended(job):\n        return False", "    if ads is None or job.status.start_time is None:\n        return False"),
)
any_exit_code_matches = Mutant(
    "An onExitCodes rule matches every non-zero exit code, whatever its values.",
    (PFP, "        if code != 0 and _exit_code_matches(code, requirement):", "        if code != 0:"),
)
max_failed_indexes_off_by_one = Mutant(
    "The Job fails when its failed indexes reach maxFailedIndexes, not when they exceed it.",
    (SJ, "failed_total > job.spec.max_failed_indexes:", "failed_total >= job.spec.max_failed_indexes:"),
)
fails_at_first_failed_index = Mutant(
    "The Job fails with FailedIndexes as soon as one index fails, before the others end.",
    (SJ, "elif failed_total > 0 and failed_total + ix.total(ctx.succeeded_indexes) >= completions:", "elif failed_total > 0:"),
)
succeeded_counts_every_pod = Mutant(
    "The succeeded count adds every Succeeded pod the controller sees, counted already or not.",
    (
        SJ,
        "    ctx.succeeded = int32(job.status.succeeded + len(new_succeeded) + len(ctx.uncounted_succeeded))",
        "    ctx.succeeded = int32(job.status.succeeded + sum(p.phase == SUCCEEDED for p in pods) + len(ctx.uncounted_succeeded))",
    ),
)
work_queue_completes_early = Mutant(
    "A Job without completions (a work queue) completes as soon as one pod succeeds, with others still running.",
    (SJ, "            complete = ctx.succeeded > 0 and active == 0", "            complete = ctx.succeeded > 0"),
)
success_policy_count_off_by_one = Mutant(
    "A successPolicy rule's succeededCount is met one index early.",
    (SP, "        elif rule.succeeded_count is not None and total(succeeded) >= rule.succeeded_count:", "        elif rule.succeeded_count is not None and total(succeeded) + 1 >= rule.succeeded_count:"),
)
failed_reason_always_backoff = Mutant(
    "Failed always says BackoffLimitExceeded, whatever the FailureTarget it follows says.",
    (SJ, '    return new_condition(FAILED_CONDITION, "True", cond.reason, cond.message, now)', '    return new_condition(FAILED_CONDITION, "True", REASON_BACKOFF_LIMIT_EXCEEDED, cond.message, now)'),
)

# --- counting pods -------------------------------------------------------------------------------

ignored_failures_counted = Mutant(
    "A failure that a podFailurePolicy Ignore rule matches is recorded in uncountedTerminatedPods.failed.",
    (SJ, "                if policy is None or match_pod_failure_policy(policy, pod, gates).count_failed:", "                if True:"),
)
uncounted_moved_before_finalizer_removed = Mutant(
    "Every pod in uncountedTerminatedPods moves to the counters, whether its finalizer is gone or not.",
    (SJ, "    succeeded = tuple(u for u in uncounted.succeeded if u in uids_with_finalizer)", "    succeeded: tuple[str, ...] = ()"),
)
finalizers_removed_before_status_write = Mutant(
    "Tracking finalizers are removed before the status lists the pods in uncountedTerminatedPods.",
    (SJ, "    if needs_flush:\n        error = step.update_status(ctx.job)\n        if error is not None:\n            raise _StepError(f\"adding", "    if False:\n        error = step.update_status(ctx.job)\n        if error is not None:\n            raise _StepError(f\"adding"),
)
failed_counter_reset = Mutant(
    "status.failed is set to the failures counted in this sync, not added to.",
    (SJ, '        changes["failed"] = int32(status.failed + len(uncounted.failed) - len(failed))', '        changes["failed"] = int32(len(uncounted.failed) - len(failed))'),
)
completed_indexes_forgotten = Mutant(
    "calculateSucceededIndexes starts from the pods alone, forgetting completedIndexes of pods already released.",
    (SJ, "    return prev, ix.with_ordered_indexes(prev, new)", "    return prev, ix.with_ordered_indexes((), new)"),
)
failed_pods_complete_indexes = Mutant(
    "calculateSucceededIndexes takes the index of a failed pod as completed.",
    (SJ, "            if p.status.phase == SUCCEEDED\n            and JOB_TRACKING_FINALIZER", "            if p.status.phase in (SUCCEEDED, FAILED)\n            and JOB_TRACKING_FINALIZER"),
)
index_limit_off_by_one_early = Mutant(
    "An index fails one failure before it has used up backoffLimitPerIndex.",
    (SJ, "    return counted and ix.index_failure_count(pod) >= limit", "    return counted and ix.index_failure_count(pod) + 1 >= limit"),
)
index_limit_off_by_one_late = Mutant(
    "An index gets one retry more than backoffLimitPerIndex allows.",
    (SJ, "    return counted and ix.index_failure_count(pod) >= limit", "    return counted and ix.index_failure_count(pod) > limit"),
)
fail_index_rule_ignored = Mutant(
    "A FailIndex rule is treated like Count: the index is retried.",
    (SJ, "            if match.action == FAIL_INDEX:\n                return True\n", ""),
)
last_index_not_recorded = Mutant(
    "The last index is left out of completedIndexes (an off-by-one in the range check).",
    (SJ, "                if index != ix.UNKNOWN_COMPLETION_INDEX and index < completions and not ix.has(", "                if index != ix.UNKNOWN_COMPLETION_INDEX and index < completions - 1 and not ix.has("),
    (SJ, "            and index < completions\n        }\n    )\n    return prev, ix.with_ordered_indexes(prev, new)", "            and index < completions - 1\n        }\n    )\n    return prev, ix.with_ordered_indexes(prev, new)"),
)
failed_pods_kept_until_finish = Mutant(
    "A failed pod keeps its tracking finalizer (and is not recorded) until the Job finishes.",
    (SJ, "    if not consider_failed:\n        return False", "    if not consider_failed or pod.phase == FAILED:\n        return False"),
)

# --- creating and deleting pods ------------------------------------------------------------------

pods_created_untracked = Mutant(
    "Pods are created without the tracking finalizer (as before Job tracking with finalizers).",
    (SJ, "    if JOB_TRACKING_FINALIZER not in finalizers:\n        finalizers = (*finalizers, JOB_TRACKING_FINALIZER)\n", ""),
)
index_env_forgotten = Mutant(
    "The pods of an Indexed Job are created without JOB_COMPLETION_INDEX in their environment.",
    (SJ, "    if ix.is_indexed_job(job):\n        spec = add_completion_index_env_variables(spec, gates)\n", ""),
)
deletions_not_capped = Mutant(
    "manageJob deletes every extra pod of a scale-down in one sync: MaxPodCreateDeletePerSync is not applied.",
    (SJ, "    to_delete = to_delete[: tunables.max_pod_create_delete_per_sync]\n", ""),
)
uncounted_not_capped = Mutant(
    "trackJobStatusAndRemoveFinalizers records every finished pod in one sync: MaxUncountedPods is not applied.",
    (SJ, "            reached_max_uncounted = True\n            break\n", "            pass\n"),
)
creations_not_capped = Mutant(
    "manageJob creates every missing pod in one sync: MaxPodCreateDeletePerSync is not applied.",
    (SJ, "    diff = min(diff, tunables.max_pod_create_delete_per_sync)\n", ""),
)

terminating_pods_not_waited_for = Mutant(
    "podReplacementPolicy Failed is ignored: pods being deleted are replaced at once.",
    (SJ, "    terminating = (ctx.terminating or 0) if only_replace_failed_pods(job, gates) else 0", "    terminating = 0"),
)
manage_job_while_finishing = Mutant(
    "manageJob also runs for a Job that is finishing, after its active pods are deleted.",
    (SJ, "        ctx.ready -= deleted_ready\n    else:\n        manage_job_called = False", "        ctx.ready -= deleted_ready\n    if True:\n        manage_job_called = False"),
)
backoff_record_not_updated = Mutant(
    "The back-off record is not updated with the new failures: failed pods are replaced at once.",
    (SJ, "    ctx.new_backoff_record = bo.new_backoff_record(step.backoff, new_succeeded, new_failed, gates)", "    ctx.new_backoff_record = step.backoff or BackoffRecord()"),
)
active_counter_before_manage_job = Mutant(
    "status.active is the number of active pods before manageJob's creations and deletions.",
    (SJ, "    ctx.job = _with_status(job, active=active, ready=ctx.ready, terminating=terminating)", "    ctx.job = _with_status(job, active=len(ctx.active_pods), ready=ctx.ready, terminating=terminating)"),
)
ready_counts_running = Mutant(
    "status.ready counts every active pod, ready or not.",
    (SJ, "        ready=count_ready_pods(active_pods),", "        ready=len(active_pods),"),
)
terminating_counted_among_active = Mutant(
    "status.terminating counts terminating pods among the active pods (none).",
    (SJ, "        terminating=count_terminating_pods(pods) if track_terminating_pods(job, gates) else None,", "        terminating=count_terminating_pods(active_pods) if track_terminating_pods(job, gates) else None,"),
)
no_scale_down = Mutant(
    "Pods beyond a lowered parallelism are never deleted.",
    (SJ, "    rm_at_least = max(0, active - want_active)", "    rm_at_least = 0"),
)
duplicate_indexes_kept = Mutant(
    "Pods with a repeated or out-of-range index are not picked for removal first.",
    (SJ, "        rm, left = ix.append_duplicated_index_pods_for_removal(pods, completions, shifts)", "        rm, left = [], list(pods)"),
)
suspend_only_stops_creating = Mutant(
    "Suspending a Job stops creating pods but deletes none.",
    (SJ, "active_pods_for_removal(job, ctx.active_pods, active, step.shifts))\n        return active - removed, error", "active_pods_for_removal(job, ctx.active_pods, 0, step.shifts))\n        return active - removed, error"),
)
start_time_never_set = Mutant(
    "startTime is not set on the first sync (only when a suspended Job is resumed).",
    (SJ, "        job = _with_status(job, start_time=now)\n        ctx.job = job\n", "        pass\n"),
)
start_time_while_suspended = Mutant(
    "startTime is set on the first sync even when the Job is created suspended.",
    (SJ, "    if job.status.start_time is None and not job_suspended(job):\n        job = _with_status(job, start_time=now)", "    if job.status.start_time is None:\n        job = _with_status(job, start_time=now)"),
)
backoff_not_requeued = Mutant(
    "While the back-off holds pod creation back, the controller does not ask to be woken when it ends.",
    (
        SJ,
        "    if remaining > 0:\n        step.requeue_after(max(remaining, 1.0))\n        return active_while_backing_off(active, gates), None\n    diff = min(",
        "    if remaining > 0:\n        return active_while_backing_off(active, gates), None\n    diff = min(",
    ),
)
deadline_in_minutes = Mutant(
    "activeDeadlineSeconds is read as minutes when the deadline is checked.",
    (SJ, "    return _since_ns(now, job.status.start_time) >= _allowed_duration_ns(ads)", "    return _since_ns(now, job.status.start_time) >= _allowed_duration_ns(ads * 60)"),
)
deadline_not_requeued = Mutant(
    "The controller does not ask to be woken at the active deadline.",
    (SJ, "            step.requeue_after(sync_duration / 1e9)", "            pass"),
)
condition_status_ignored = Mutant(
    "onPodConditions patterns match a condition of their type whatever its status.",
    (PFP, "            if cond.type == pattern.type and cond.status == pattern.status:", "            if cond.type == pattern.type:"),
)
fail_job_rule_ignores_containers = Mutant(
    "onExitCodes rules look at init containers only: a FailJob exit code of a container never fails the Job.",
    (PFP, "    found = _matching_container(pod.status.container_statuses, requirement)", "    found = None"),
)
max_failed_indexes_off_by_one_late = Mutant(
    "The Job fails only when its failed indexes exceed maxFailedIndexes by two.",
    (SJ, "failed_total > job.spec.max_failed_indexes:", "failed_total > job.spec.max_failed_indexes + 1:"),
)
failed_indexes_never_fail_the_job = Mutant(
    "Only succeeded indexes are compared with completions: failed indexes never fail the Job.",
    (SJ, "elif failed_total > 0 and failed_total + ix.total(ctx.succeeded_indexes) >= completions:", "elif failed_total > 0 and ix.total(ctx.succeeded_indexes) >= completions:"),
)
completions_off_by_one = Mutant(
    "The Job completes only when more than `completions` pods succeeded.",
    (SJ, "            complete = ctx.succeeded >= job.spec.completions and active == 0", "            complete = ctx.succeeded > job.spec.completions and active == 0"),
)
success_policy_reads_old_indexes = Mutant(
    "The successPolicy is matched against completedIndexes before this sync's successes.",
    (SJ, "            message = match_success_policy(job.spec.success_policy, completions, ctx.succeeded_indexes, gates)", "            message = match_success_policy(job.spec.success_policy, completions, ctx.prev_succeeded_indexes, gates)"),
)
consistency_store_skipped = Mutant(
    "syncJob acts on a cache behind the controller's own writes: the consistency store's check (1.36+) is skipped.",
    (SJ, "    if step.gates.StaleControllerConsistencyJob:\n        lag = ensure_ready(", "    if False:\n        lag = ensure_ready("),
)
expectations_never_expire = Mutant(
    "The controller's expectations never expire: a Job whose expected pods never show waits for them for good.",
    (SJ, "        return exp is None or exp.fulfilled() or exp.expired(self.now)", "        return exp is None or exp.fulfilled()"),
)
job_status_write_not_recorded = Mutant(
    "updateJobStatus does not record its write in the consistency store (1.36+, WroteAt): a sync over a Job cache "
    "behind that write goes ahead.",
    (SJ, "            self.accepted_job = job\n            self.wrote(\"jobs\")\n", "            self.accepted_job = job\n"),
)
finished_mark_not_stored = Mutant(
    "The Job's finishing status write is not remembered (finishedJobExpectations, 1.34+): a sync over a cache that "
    "shows the Job unfinished manages its pods again.",
    (SJ, "                step.finished_uid = job.uid  # finishedJobExpectations.Store\n", "                pass\n"),
)
finalizer_removals_not_awaited = Mutant(
    "getValidPodsWithFilter forgets the finalizer removals the controller awaits: a finished pod whose removal the cache has not shown yet is counted again.",
    (SJ, "        if JOB_TRACKING_FINALIZER not in meta.finalizers or meta.uid in uncounted or meta.uid in removing:\n", "        if JOB_TRACKING_FINALIZER not in meta.finalizers or meta.uid in uncounted:\n"),
)

name_mutants(globals())
