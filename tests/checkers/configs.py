"""Small configurations shared by the invariant, machine and explorer tests."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import attrs

from jobmodel.checkers.cron import CronConfig, cron_manifest
from jobmodel.checkers.job import DEFAULT_IMPL, CheckConfig
from jobmodel.checkers.system import System
from jobmodel.features import NEWEST_RELEASE
from jobmodel.frozen import freeze
from jobmodel.state import JobControllerTunables
from jobmodel.transitions.cron_environment import CronBudget
from jobmodel.transitions.job_environment import Budget


def job_manifest(
    parallelism: int, completions: int | None, backoff_limit: int, *, indexed: bool = False, restart_policy: str = "Never", **spec: Any
) -> dict[str, Any]:
    """A Job `j` in `default` with one container; `spec` adds fields."""
    body: dict[str, Any] = {
        "parallelism": parallelism,
        "backoffLimit": backoff_limit,
        "template": {"spec": {"restartPolicy": restart_policy, "containers": [{"name": "main", "image": "busybox"}]}},
        **spec,
    }
    if completions is not None:
        body["completions"] = completions
    if indexed:
        body["completionMode"] = "Indexed"
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j", "namespace": "default"}, "spec": body}


def config(
    manifest: dict[str, Any], *, impl: str = DEFAULT_IMPL, symmetry: bool = True, kube_version: str = NEWEST_RELEASE, **budget: Any
) -> CheckConfig:
    return CheckConfig(freeze(manifest), Budget(**budget), impl=impl, symmetry=symmetry, kube_version=kube_version)


BROKEN = "tests.checkers.broken"

# Each broken variant with a configuration in which it goes wrong, and the invariant that catches it.
# Ignoring expectations over-creates only up to 1.35: from 1.36 the consistency store waits too.
BROKEN_CASES: dict[str, tuple[dict[str, Any], dict[str, Any], str]] = {
    "ignore_expectations": (job_manifest(2, 2, 1), {"stale": 1, "kube_version": "1.35"}, "no-over-creation"),
    "skip_backoff_limit": (job_manifest(1, 1, 0), {"failures": 1}, "backoff-limit-enforced"),
    "count_duplicate_index": (job_manifest(1, 1, 0, indexed=True), {"faults": 3}, "indexed-succeeded-counts-each-index-once"),
}


def broken_config(name: str, symmetry: bool = True) -> tuple[CheckConfig, str]:
    manifest, budget, invariant = BROKEN_CASES[name]
    return config(manifest, impl=f"{BROKEN}.{name}:sync_job", symmetry=symmetry, **budget), invariant


# --- the mutation tests: each broken variant of tests/checkers/broken/job_bugs.py, a configuration
# in which it goes wrong, the invariant that catches it, and the depth the explorer needs ----------

JOB_BUGS = "tests.checkers.broken.job_bugs"
FAIL_JOB_ON_42 = {"action": "FailJob", "onExitCodes": {"containerName": "main", "operator": "In", "values": [42]}}
IGNORE_DISRUPTION = {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]}
FAIL_INDEX_ON_42 = {"action": "FailIndex", "onExitCodes": {"operator": "In", "values": [42]}}

ONE = job_manifest(1, 1, 0)
ONE_RETRY = job_manifest(1, 1, 1)
TWO_IN_TURN = job_manifest(1, 2, 1)
DEADLINE = job_manifest(1, 1, 1, activeDeadlineSeconds=30)
POLICY = job_manifest(1, 1, 1, podFailurePolicy={"rules": [FAIL_JOB_ON_42, IGNORE_DISRUPTION]})
SUCCESS_POLICY = job_manifest(2, 2, 0, indexed=True, successPolicy={"rules": [{"succeededCount": 1}]})
PER_INDEX = job_manifest(2, 2, 6, indexed=True, backoffLimitPerIndex=0)
PER_INDEX_RETRY = job_manifest(2, 2, 6, indexed=True, backoffLimitPerIndex=1)
PER_INDEX_IN_TURN = job_manifest(1, 2, 6, indexed=True, backoffLimitPerIndex=0)
MAX_FAILED = job_manifest(3, 3, 6, indexed=True, backoffLimitPerIndex=0, maxFailedIndexes=1)
FAIL_INDEX = job_manifest(2, 2, 6, indexed=True, backoffLimitPerIndex=1, podFailurePolicy={"rules": [FAIL_INDEX_ON_42]})
REPLACE_FAILED = job_manifest(1, 1, 1, podReplacementPolicy="Failed")
INDEXED_PAIR = job_manifest(2, 2, 1, indexed=True)
ON_FAILURE = job_manifest(1, 1, 1, restart_policy="OnFailure")

@attrs.frozen
class MutationCase:
    """A broken variant (`impl`, by import path), a configuration in which it goes wrong, the
    invariant that catches it, the depth the explorer needs, and whether no other invariant of
    the catalogue catches it within that depth."""

    impl: str
    manifest: dict[str, Any]
    budget: dict[str, Any]
    invariant: str
    depth: int
    exclusive: bool = True
    cron: bool = False


# Caught together with another law (each still caught by its own law alone, see
# tests/invariants/test_mutations.py): the failed index restarted at once also breaks the back-off;
# a reset counter is first seen as a pod counted wrongly; manageJob on a finishing Job first
# reports a wrong status.active; an index left out of completedIndexes has its finalizer removed
# unrecorded; a CronJob that ignores its timeZone also leaves the run due in its zone unstarted; a
# work queue completed early keeps its running pods, which the API server's rules forbid; a
# controller that skips the consistency store (1.36+) over-creates where no-over-creation holds
# from 1.36 too, and so does one that does not record its status writes there; a controller that
# forgets its finished mark (1.34+) creates pods for a finished Job, which is also over-creation;
# a refused delete of Replace taken as done lets the new run start beside the old.
SHARED = frozenset(
    {
        "consistency_store_skipped",
        "finished_mark_not_stored",
        "job_status_write_not_recorded",
        "failed_index_restarted",
        "failed_counter_reset",
        "manage_job_while_finishing",
        "last_index_not_recorded",
        "refused_delete_taken_as_done",
        "time_zone_ignored",
        "work_queue_completes_early",
    }
)


Row = tuple[str, dict[str, Any], dict[str, Any], str, int]  # name, manifest, budget, invariant, depth


def _cases(module: str, rows: list[Row], cron: bool = False) -> dict[str, MutationCase]:
    return {
        name: MutationCase(f"{module}:{name}", manifest, budget, invariant, depth, name not in SHARED, cron)
        for name, manifest, budget, invariant, depth in rows
    }


_JOB_ROWS: list[Row] = [
    ("consistency_store_skipped", job_manifest(1, 1, 1), {"stale": 1, "expiries": 1, "kube_version": "1.37"}, "no-over-creation-on-stale-cache", 4),
    ("job_status_write_not_recorded", job_manifest(2, 2, 1), {"stale_status": 1, "kube_version": "1.37"}, "no-over-creation-on-stale-cache", 6),
    ("finished_mark_not_stored", ONE, {"stale_status": 1, "kube_version": "1.35"}, "no-pods-created-once-finishing", 6),
    ("failure_checked_after_success", job_manifest(2, 2, 0, indexed=True, successPolicy={"rules": [{"succeededCount": 1}]}, activeDeadlineSeconds=30), {}, "complete-and-failed-exclusive", 8),
    ("backoff_reason_misspelt", ONE, {"failures": 1}, "failed-reason-known", 4),
    ("no_completion_time", ONE, {}, "status-rules", 4),
    ("failure_target_status_lowercase", job_manifest(2, 2, 1, podFailurePolicy={"rules": [FAIL_JOB_ON_42]}), {"failures": 1}, "one-condition-per-type", 8),
    ("success_criteria_added_again", SUCCESS_POLICY, {}, "one-condition-per-type", 8),
    ("failed_index_restarted", PER_INDEX_IN_TURN, {"failures": 1}, "completed-and-failed-indexes-disjoint", 8),
    ("start_time_reset_every_sync", ONE_RETRY, {"failures": 1}, "status-writes-valid", 8),
    ("complete_job_synced_again", job_manifest(1, 1, 0, activeDeadlineSeconds=100), {}, "terminal-conditions-absorbing", 8),
    ("failed_counter_reset", job_manifest(2, 2, 3), {"failures": 3}, "counters-never-decrease", 11),
    ("completed_indexes_forgotten", INDEXED_PAIR, {}, "completed-indexes-only-grow", 8),
    ("backoff_limit_off_by_one", ONE_RETRY, {"failures": 1}, "backoff-limit-exceeded-justified", 4),
    ("container_restarts_ignored", ON_FAILURE, {"failures": 1}, "backoff-limit-enforced", 4),
    ("container_restarts_off_by_one", ON_FAILURE, {"failures": 1}, "backoff-limit-enforced", 4),
    ("finished_pods_restarts_counted", job_manifest(2, 2, 2, restart_policy="OnFailure"), {"failures": 2}, "backoff-limit-exceeded-justified", 6),
    ("deadline_while_suspended", DEADLINE, {"edits": ("suspend=true",)}, "deadline-exceeded-justified", 5),
    ("any_exit_code_matches", job_manifest(1, 1, 1, podFailurePolicy={"rules": [FAIL_JOB_ON_42]}), {"failures": 1}, "pod-failure-policy-justified", 4),
    ("max_failed_indexes_off_by_one", MAX_FAILED, {"failures": 1}, "max-failed-indexes-justified", 6),
    ("fails_at_first_failed_index", PER_INDEX, {"failures": 1}, "failed-indexes-reason-justified", 6),
    ("succeeded_counts_every_pod", TWO_IN_TURN, {}, "complete-meets-success-criteria", 8),
    ("work_queue_completes_early", job_manifest(2, None, 1), {}, "complete-meets-success-criteria", 5),
    ("success_policy_count_off_by_one", job_manifest(2, 2, 0, indexed=True, successPolicy={"rules": [{"succeededCount": 2}]}), {}, "success-policy-justified", 6),
    ("failed_reason_always_backoff", POLICY, {"failures": 1}, "terminal-condition-keeps-its-reason", 8),
    ("ignored_failures_counted", POLICY, {"failures": 1}, "uncounted-entries-justified", 4),
    ("uncounted_moved_before_finalizer_removed", ONE, {"faults": 1}, "pod-counted-exactly-once", 6),
    ("finalizers_removed_before_status_write", INDEXED_PAIR, {}, "finalizer-removed-after-recording", 4),
    ("failed_pods_complete_indexes", INDEXED_PAIR, {"failures": 1}, "completed-indexes-justified", 4),
    ("index_limit_off_by_one_early", PER_INDEX_RETRY, {"failures": 1}, "failed-indexes-justified", 4),
    ("pods_created_untracked", ONE, {}, "created-pods-tracked", 1),
    ("index_env_forgotten", INDEXED_PAIR, {}, "created-pods-carry-their-index", 1),
    ("deletions_not_capped", job_manifest(3, 3, 1), {"edits": ("parallelism=1",), "tunables": {"max_pod_create_delete_per_sync": 1}}, "pod-deletions-within-cap", 5),
    ("uncounted_not_capped", job_manifest(2, 2, 0), {"tunables": {"max_uncounted_pods": 1}}, "uncounted-within-cap", 6),
    ("creations_not_capped", job_manifest(3, 3, 0), {"tunables": {"max_pod_create_delete_per_sync": 2}}, "pod-creations-within-cap", 1),
    ("terminating_pods_not_waited_for", REPLACE_FAILED, {"deletions": 1}, "no-replacement-while-terminating", 6),
    ("manage_job_while_finishing", DEADLINE, {"failures": 1}, "no-pods-created-once-finishing", 8),
    ("backoff_record_not_updated", ONE_RETRY, {"failures": 1}, "backoff-delay-respected", 4),
    ("active_counter_before_manage_job", ONE, {}, "active-counter-matches-pods", 2),
    ("ready_counts_running", ONE, {}, "ready-counter-matches-pods", 4),
    ("terminating_counted_among_active", ONE, {"deletions": 1}, "terminating-counter-matches-pods", 5),
    ("failed_pods_kept_until_finish", ONE_RETRY, {"failures": 1}, "finished-pods-released", 4),
    ("last_index_not_recorded", INDEXED_PAIR, {}, "succeeded-indexes-recorded", 6),
    ("no_scale_down", job_manifest(2, 3, 1), {"edits": ("parallelism=1",)}, "active-within-parallelism", 4),
    ("duplicate_indexes_kept", INDEXED_PAIR, {"edits": ("completions=1",)}, "no-two-active-pods-per-index", 6),
    ("suspend_only_stops_creating", ONE, {"edits": ("suspend=true",)}, "suspended-job-has-no-active-pods", 4),
    ("start_time_never_set", ONE, {}, "start-time-recorded", 2),
    ("start_time_while_suspended", job_manifest(1, 1, 0, suspend=True), {}, "no-start-time-while-suspended", 1),
    ("backoff_not_requeued", ONE_RETRY, {"failures": 1}, "backoff-requeued", 4),
    ("deadline_in_minutes", DEADLINE, {}, "deadline-enforced", 4),
    ("deadline_not_requeued", DEADLINE, {}, "deadline-requeued", 2),
    ("condition_status_ignored", POLICY, {"failures": 1}, "finalizer-removed-after-recording", 4),
    ("fail_job_rule_ignores_containers", POLICY, {"failures": 1}, "pod-failure-policy-fail-job-enforced", 4),
    ("index_limit_off_by_one_late", PER_INDEX, {"failures": 1}, "per-index-limit-enforced", 4),
    ("fail_index_rule_ignored", FAIL_INDEX, {"failures": 1}, "fail-index-enforced", 4),
    ("max_failed_indexes_off_by_one_late", MAX_FAILED, {"failures": 2}, "max-failed-indexes-enforced", 8),
    ("failed_indexes_never_fail_the_job", PER_INDEX, {"failures": 1}, "failed-indexes-fail-the-job", 8),
    ("completions_off_by_one", ONE, {}, "job-completes-when-criteria-met", 4),
    ("success_policy_reads_old_indexes", SUCCESS_POLICY, {}, "success-policy-enforced", 5),
    # At 1.36 the expectations of a deleted Job's hidden creations outlive it (kept to 1.37).
    ("expectations_never_expire", ONE, {"stale": 1, "job_deletions": 1, "recreations": 1, "expiries": 1, "kube_version": "1.36"}, "new-job-starts-clean", 5),
    # Up to 1.35: from 1.36 the consistency store makes the sync wait for the removals too.
    ("finalizer_removals_not_awaited", job_manifest(2, 2, 0), {"stale_patches": 1, "kube_version": "1.35"}, "complete-meets-success-criteria", 5),
]
MUTATION_CASES: dict[str, MutationCase] = {
    **_cases(JOB_BUGS, _JOB_ROWS),
    # The first broken variants, written as wrappers of the model's sync_job.
    "ignore_expectations": MutationCase(f"{BROKEN}.ignore_expectations:sync_job", job_manifest(2, 2, 1), {"stale": 1}, "no-over-creation", 4),
    "skip_backoff_limit": MutationCase(f"{BROKEN}.skip_backoff_limit:sync_job", ONE, {"failures": 1}, "backoff-limit-enforced", 4),
    "count_duplicate_index": MutationCase(f"{BROKEN}.count_duplicate_index:sync_job", job_manifest(1, 1, 0, indexed=True), {"faults": 3}, "indexed-succeeded-counts-each-index-once", 8),
}


# The CronJob's: each broken variant of tests/checkers/broken/cron_bugs.py.
CRON_BUGS = "tests.checkers.broken.cron_bugs"


def _cron(schedule: str, policy: str = "Allow", **spec: Any) -> dict[str, Any]:
    return cron_manifest(schedule, policy, **{"successfulJobsHistoryLimit": 3, "failedJobsHistoryLimit": 1, **spec})


_CRON_ROWS: list[Row] = [
    ("replace_never_deletes", _cron("*/2 * * * *", "Replace"), {"ticks": 4}, "cron-replace-leaves-one-running", 6),
    ("time_zone_ignored", _cron("*/7 * * * *", timeZone="Asia/Kolkata"), {"outages": 1}, "cron-runs-at-schedule-times", 2),
    ("starting_deadline_ignored", _cron("*/5 * * * *", startingDeadlineSeconds=30), {"ticks": 5, "late": 1}, "cron-starting-deadline-respected", 7),
    ("finished_jobs_stay_active", _cron("*/2 * * * *"), {"ticks": 2}, "cron-active-lists-running-jobs", 5),
    ("suspend_ignored", _cron("*/2 * * * *", suspend=True), {"ticks": 2}, "cron-suspended-starts-nothing", 3),
    ("forbid_lowercase", _cron("*/2 * * * *", "Forbid"), {"ticks": 4}, "cron-forbid-never-two-active", 6),
    ("history_limit_off_by_one", _cron("*/2 * * * *", successfulJobsHistoryLimit=0), {"ticks": 2}, "cron-history-limits", 5),
    ("last_schedule_from_finished_job", _cron("*/2 * * * *"), {"ticks": 4}, "cron-last-schedule-time-never-goes-back", 8),
    ("last_schedule_time_now", _cron("*/2 * * * *"), {"ticks": 2, "late": 1}, "cron-last-schedule-time-is-the-run", 4),
    ("last_successful_time_now", _cron("*/2 * * * *"), {"ticks": 3}, "cron-last-successful-time-justified", 6),
    ("history_removes_newest", _cron("*/2 * * * *", successfulJobsHistoryLimit=1), {"ticks": 4}, "cron-history-keeps-the-newest", 9),
    ("cleanup_counts_running_jobs", _cron("*/2 * * * *", successfulJobsHistoryLimit=0), {"ticks": 2}, "cron-running-jobs-not-deleted", 4),
    ("due_run_only_on_time", _cron("*/2 * * * *"), {"ticks": 2, "late": 1}, "cron-due-run-started", 4),
    ("refused_run_recorded", _cron("*/2 * * * *"), {"ticks": 2, "faults": 1}, "cron-refused-run-not-recorded", 4),
    ("refused_delete_taken_as_done", _cron("*/2 * * * *", "Replace"), {"ticks": 4, "faults": 1}, "cron-refused-delete-keeps-the-job-listed", 6),
    ("unreadable_job_taken_as_missing", _cron("*/2 * * * *", "Replace"), {"ticks": 4, "crashes": 1, "faults": 1}, "cron-unread-job-stays-listed", 7),
    ("unreadable_cron_job_ignored", _cron("*/2 * * * *", "Forbid"), {"ticks": 2, "crashes": 1, "faults": 1}, "cron-unread-cronjob-starts-nothing", 4),
    ("status_write_error_swallowed", _cron("*/2 * * * *"), {"ticks": 2, "faults": 1}, "cron-refused-status-write-retried", 3),
    ("replace_read_error_ignored", _cron("*/2 * * * *", "Replace"), {"ticks": 4, "faults": 1}, "cron-replace-leaves-one-running", 6),
]
CRON_MUTATION_CASES: dict[str, MutationCase] = {
    **_cases(CRON_BUGS, _CRON_ROWS, cron=True),
    # The first broken variant, a wrapper of the model's sync_cronjob.
    "cron_name_by_sync_time": MutationCase(f"{BROKEN}.cron_name_by_sync_time:sync_cronjob", _cron("*/2 * * * *", successfulJobsHistoryLimit=0), {"ticks": 4, "crashes": 1, "failures": 1}, "cron-one-job-per-scheduled-time", 10, cron=True),
}
ALL_MUTATION_CASES = {**MUTATION_CASES, **CRON_MUTATION_CASES}


def mutation_config(name: str, broken: bool = True) -> CheckConfig | CronConfig:
    """The configuration of a mutation case, checking its broken variant (or the model)."""
    case = ALL_MUTATION_CASES[name]
    budget = dict(case.budget)
    # The broken variants are written against 1.32's controllers (the release the catalogue was
    # first checked at); a case names another release in its budget (`kube_version`).
    release = budget.pop("kube_version", "1.32")
    tunables = JobControllerTunables(**budget.pop("tunables", {}))
    if case.cron:
        cron = CronConfig(freeze(case.manifest), CronBudget(**budget), kube_version=release)
        return attrs.evolve(cron, impl=case.impl) if broken else cron
    job = config(case.manifest, impl=case.impl if broken else DEFAULT_IMPL, kube_version=release, **budget)
    return attrs.evolve(job, tunables=tunables)


def plain_search(system: System[Any, Any], depth: int) -> int:
    """The distinct states (canonical forms) within `depth` moves, by the plainest breadth-first
    search over the system's own functions: none of the explorer's machinery (its expansions
    answered by another state's, kept objects, collector tuning), and no law checked. The
    explorer's pinned counts are checked against it, so that a pin is not only the explorer's
    own output."""
    start: Hashable = system.start()
    seen = {start}
    frontier = [start]
    for _ in range(depth):
        found = []
        for world in frontier:
            for move in system.enabled_moves(world):
                after = system.canonical(system.apply_move(world, move)[0])
                if after not in seen:
                    seen.add(after)
                    found.append(after)
        frontier = found
    return len(seen)
