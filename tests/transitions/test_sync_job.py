"""Behaviours of one `syncJob` (jobmodel/transitions/sync_job.py), each by name."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import attrs
import pytest

from jobmodel.actions import CreatePod, DeletePod, PatchPod, RecordEvent, UpdateJobStatus
from jobmodel.errors import InputError
from jobmodel.features import FeatureGates
from jobmodel.state import (
    JOB_COMPLETION_INDEX_ANNOTATION,
    JOB_TRACKING_FINALIZER,
    BackoffRecord,
    Expectations,
    Faults,
    Job,
    JobControllerState,
    JobControllerTunables,
    JobSyncInput,
    Pod,
)
from jobmodel.timeutil import parse_time
from jobmodel.transitions.sync_job import (
    JobSyncResult,
    get_pods_prefix,
    pods_by_owner,
    sync_job,
    want_active_pods,
)
from tests.builders import JOB_UID, NOW, make_job, make_pod, make_pods

T0 = parse_time(NOW, "now")
OLD_GATES = FeatureGates.for_release(32).with_overrides({"JobManagedBy": False, "JobPodReplacementPolicy": False, "JobSuccessPolicy": False})


def run(
    job: Job | None,
    pods: list[Pod] | None = None,
    *,
    now: Any = T0,
    controller: JobControllerState = JobControllerState(),
    features: FeatureGates = FeatureGates.for_release(32),
    faults: Faults = Faults(),
    tunables: JobControllerTunables = JobControllerTunables(),
) -> JobSyncResult:
    return sync_job(
        JobSyncInput(
            job=job,
            pods=tuple(pods or ()),
            now=now,
            job_key="default/foobar",
            controller=controller,
            features=features,
            faults=faults,
            tunables=tunables,
        )
    )


def created(result: JobSyncResult) -> list[CreatePod]:
    return [a for a in result.actions if isinstance(a, CreatePod)]


def deleted(result: JobSyncResult) -> list[str]:
    return [a.name for a in result.actions if isinstance(a, DeletePod)]


def patched(result: JobSyncResult) -> list[str]:
    return [a.name for a in result.actions if isinstance(a, PatchPod)]


def events(result: JobSyncResult) -> list[str]:
    return [a.reason for a in result.actions if isinstance(a, RecordEvent)]


def condition_types(result: JobSyncResult) -> dict[str, str]:
    assert result.status is not None
    return {c.type: c.reason for c in result.status.conditions if c.status == "True"}


# --- the expectations gate ------------------------------------------------------------------------


def test_unsatisfied_expectations_block_pod_creation() -> None:
    pending = JobControllerState(expectations=Expectations(add=1, timestamp=T0))
    result = run(make_job(), controller=pending)
    assert created(result) == []


def test_expired_expectations_count_as_satisfied() -> None:
    stale = JobControllerState(expectations=Expectations(add=1, timestamp=T0 - timedelta(minutes=6)))
    result = run(make_job(), controller=stale)
    assert len(created(result)) == 2


def test_creations_set_expectations_that_failed_creations_lower() -> None:
    result = run(make_job(parallelism=3), faults=Faults(pod_create_limit=2))
    assert result.controller.expectations is not None
    # Batches of 1 and 2: the third call fails, so 2 of the 3 expected creations remain expected.
    assert [a.accepted for a in created(result)] == [True, True, False]
    assert result.controller.expectations.add == 2


# --- pod classification -------------------------------------------------------------------------


def test_active_ready_and_finished_pods_are_counted() -> None:
    pods = [
        make_pod("running-ready", ready=True),
        make_pod("running"),
        make_pod("done", "Succeeded", exit_code=0),
    ]
    result = run(make_job(parallelism=2, completions=5), pods)
    assert result.status is not None
    assert (result.status.active, result.status.ready, result.status.succeeded) == (2, 1, 1)


def test_pods_of_another_job_are_ignored() -> None:
    pods = make_pods("other", 2, owner_uid="another-job")
    result = run(make_job(), pods)
    assert len(created(result)) == 2
    assert result.status is not None and result.status.active == 2


def test_orphan_matching_the_selector_is_adopted() -> None:
    orphan = make_pod("orphan", owner_uid="", finalizer=False)
    result = run(make_job(parallelism=1), [orphan])
    assert [a.kind for a in result.actions if isinstance(a, PatchPod)] == ["adopt"]
    assert created(result) == []


@pytest.mark.parametrize(
    "selector",
    [
        {"matchExpressions": [{"key": "foo", "operator": "NotIn"}]},  # In/NotIn need values
        {"matchExpressions": [{"key": "foo", "operator": "Exists", "values": ["bar"]}]},
        {"matchExpressions": [{"key": "a b", "operator": "Exists"}]},  # not a qualified name
        {"matchLabels": {"foo": "-bar"}},  # not a label value
    ],
)
def test_a_selector_that_does_not_convert_fails_the_sync(selector: dict[str, Any]) -> None:
    # getPodsForJob: LabelSelectorAsSelector (labels.NewRequirement) refuses it before any pod is listed.
    result = run(make_job(parallelism=1, selector=selector), [make_pod("running")])
    assert result.error is not None and result.error.startswith("couldn't convert Job selector")
    assert created(result) == [] and result.status is None


def test_owned_pod_that_no_longer_matches_is_released() -> None:
    stray = make_pod("stray", labels={"foo": "other"})
    result = run(make_job(parallelism=1), [stray])
    assert [a.kind for a in result.actions if isinstance(a, PatchPod)] == ["release"]
    assert len(created(result)) == 1


def test_terminating_pods_are_not_active_but_counted_as_terminating() -> None:
    pods = [make_pod("going", deleted=NOW), make_pod("running")]
    result = run(make_job(parallelism=2, podReplacementPolicy="Failed"), pods)
    assert result.status is not None
    assert result.status.active == 1
    assert result.status.terminating == 1
    # With podReplacementPolicy Failed, the terminating pod is not replaced yet.
    assert created(result) == []


def test_terminating_pods_are_replaced_with_terminating_or_failed() -> None:
    pods = [make_pod("going", deleted=NOW, finalizer=False), make_pod("running")]
    result = run(make_job(parallelism=2), pods)
    assert len(created(result)) == 1


# --- manageJob: creation and deletion ------------------------------------------------------------


def test_slow_start_stops_after_a_failed_batch() -> None:
    result = run(make_job(parallelism=10, completions=10), faults=Faults(pod_create_limit=3))
    creates = created(result)
    # Batches of 1, 2 and 4: the third batch fails, and the remaining 3 are not attempted.
    assert len(creates) == 7
    assert sum(a.accepted for a in creates) == 3
    assert result.error is not None
    assert result.status is not None and result.status.active == 3


def test_creation_is_capped_at_max_pod_create_delete_per_sync() -> None:
    tunables = JobControllerTunables(max_pod_create_delete_per_sync=3)
    result = run(make_job(parallelism=10, completions=10), tunables=tunables)
    assert len(created(result)) == 3


def test_too_many_active_pods_delete_the_least_advanced_first() -> None:
    pods = [
        make_pod("ready", ready=True),
        make_pod("running"),
        make_pod("unscheduled", "Pending", node=None),
        make_pod("pending", "Pending"),
    ]
    result = run(make_job(parallelism=2, completions=5), pods)
    assert deleted(result) == ["unscheduled", "pending"]
    # Each deletion first removes the tracking finalizer.
    assert patched(result) == ["unscheduled", "pending"]


def test_no_completions_stops_creating_after_a_success() -> None:
    pods = [make_pod("done", "Succeeded", exit_code=0), make_pod("running")]
    result = run(make_job(parallelism=3, completions=None), pods)
    assert created(result) == []


def test_work_queue_job_completes_when_one_pod_succeeded_and_none_active() -> None:
    pods = [make_pod("done", "Succeeded", exit_code=0)]
    result = run(make_job(parallelism=2, completions=None), pods, features=OLD_GATES)
    assert "Complete" in condition_types(result)


# --- suspend and resume ----------------------------------------------------------------------------


def test_suspend_deletes_active_pods_and_sets_the_condition() -> None:
    result = run(make_job(suspend=True), make_pods("p", 2))
    assert sorted(deleted(result)) == ["p-0", "p-1"]
    assert condition_types(result).get("Suspended") == "JobSuspended"
    assert events(result) == ["Suspended"]
    assert result.status is not None and result.status.active == 0


def test_suspended_job_gets_no_start_time() -> None:
    result = run(make_job(suspend=True))
    assert result.status is not None and result.status.start_time is None


def test_resume_resets_start_time_and_flips_the_condition() -> None:
    suspended = {
        "startTime": "2024-06-01T10:00:00Z",
        "conditions": [{"type": "Suspended", "status": "True", "reason": "JobSuspended", "message": "Job suspended"}],
    }
    result = run(make_job(status=suspended))
    assert result.status is not None
    assert result.status.start_time == T0
    cond = result.status.condition("Suspended")
    assert cond is not None and (cond.status, cond.reason) == ("False", "JobResumed")
    assert events(result) == ["Resumed"]


# --- Indexed Jobs ----------------------------------------------------------------------------------


def test_indexed_job_creates_the_lowest_pending_indexes() -> None:
    pods = [make_pod("p1", index=1), make_pod("p0", "Succeeded", index=0, exit_code=0)]
    result = run(make_job(completionMode="Indexed", parallelism=3, completions=5), pods)
    assert [a.index for a in created(result)] == [2, 3]


def test_indexed_pod_carries_index_annotation_label_hostname_and_env() -> None:
    result = run(make_job(completionMode="Indexed", parallelism=1, completions=3))
    (create,) = created(result)
    pod = create.pod
    assert pod.metadata.annotations[JOB_COMPLETION_INDEX_ANNOTATION] == "0"
    assert pod.metadata.labels[JOB_COMPLETION_INDEX_ANNOTATION] == "0"
    assert pod.metadata.generate_name == "foobar-0-"
    assert pod.spec["hostname"] == "foobar-0"
    env = pod.spec["containers"][0]["env"]
    assert env[-1]["name"] == "JOB_COMPLETION_INDEX"
    assert "labels" in env[-1]["valueFrom"]["fieldRef"]["fieldPath"]
    assert JOB_TRACKING_FINALIZER in pod.metadata.finalizers
    assert pod.metadata.owner_references[0].uid == JOB_UID


def test_without_pod_index_label_the_env_reads_the_annotation() -> None:
    result = run(
        make_job(completionMode="Indexed", parallelism=1, completions=3), features=FeatureGates.for_release(32).with_overrides({"PodIndexLabel": False})
    )
    (create,) = created(result)
    assert JOB_COMPLETION_INDEX_ANNOTATION not in create.pod.metadata.labels
    assert "annotations" in create.pod.spec["containers"][0]["env"][-1]["valueFrom"]["fieldRef"]["fieldPath"]


def test_long_job_name_is_cut_in_the_generated_name() -> None:
    job = make_job(completionMode="Indexed", parallelism=1, completions=1, metadata={"name": "a" * 60})
    (create,) = created(run(job))
    assert len(create.pod.metadata.generate_name) == 58
    assert create.pod.metadata.generate_name.endswith("-0-")


def test_duplicate_and_out_of_range_indexes_are_deleted() -> None:
    pods = [
        make_pod("a", index=1, ready=True),
        make_pod("b", index=1),
        make_pod("c", index=7),
        make_pod("d"),  # no index at all
    ]
    result = run(make_job(completionMode="Indexed", parallelism=5, completions=5), pods)
    assert sorted(deleted(result)) == ["b", "c", "d"]
    assert created(result) == []


def test_completed_indexes_are_written_compressed() -> None:
    pods = [make_pod(f"s{i}", "Succeeded", index=i, exit_code=0) for i in (0, 1, 2, 4, 6, 7)]
    result = run(make_job(completionMode="Indexed", parallelism=2, completions=10), pods)
    assert result.status is not None
    assert result.status.completed_indexes == "0-2,4,6,7"
    assert result.status.succeeded == 6


# --- finalizer-based tracking ---------------------------------------------------------------------


def test_finished_pod_is_counted_once_its_finalizer_is_removed() -> None:
    result = run(make_job(), [make_pod("done", "Succeeded", exit_code=0)])
    updates = [a.status for a in result.actions if isinstance(a, UpdateJobStatus)]
    # First the pod goes into uncountedTerminatedPods, then (finalizer removed) into the counter.
    assert updates[0].uncounted_terminated_pods is not None
    assert updates[0].uncounted_terminated_pods.succeeded == ("done",)
    assert updates[-1].succeeded == 1
    assert updates[-1].uncounted_terminated_pods is not None
    assert updates[-1].uncounted_terminated_pods.succeeded == ()
    assert patched(result) == ["done"]
    assert "done" in result.controller.expected_finalizer_removals


def test_failed_finalizer_removal_keeps_the_pod_uncounted() -> None:
    result = run(make_job(), [make_pod("done", "Succeeded", exit_code=0)], faults=Faults(pod_control_error="boom"))
    assert result.error is not None and "boom" in result.error
    assert result.status is not None
    assert result.status.succeeded == 0
    assert result.status.uncounted_terminated_pods is not None
    assert result.status.uncounted_terminated_pods.succeeded == ("done",)
    assert "done" not in result.controller.expected_finalizer_removals


def test_pod_without_finalizer_is_not_counted_again() -> None:
    job = make_job(status={"succeeded": 1})
    result = run(job, [make_pod("done", "Succeeded", exit_code=0, finalizer=False)])
    assert result.status is not None and result.status.succeeded == 1


def test_uncounted_pods_are_capped_per_sync() -> None:
    pods = [make_pod(f"done-{i}", "Succeeded", exit_code=0) for i in range(5)]
    tunables = JobControllerTunables(max_uncounted_pods=2)
    result = run(make_job(completions=10), pods, tunables=tunables)
    assert len(patched(result)) == 2


def test_failing_status_update_is_an_error_and_removes_no_finalizer() -> None:
    result = run(make_job(), [make_pod("done", "Succeeded", exit_code=0)], faults=Faults(status_update_error="conflict"))
    assert result.error is not None and result.error.startswith("tracking status:")
    assert patched(result) == []
    assert result.job is not None and result.job.status.succeeded == 0


# --- back-off ---------------------------------------------------------------------------------------


def test_backoff_limit_exceeded_fails_the_job_after_failure_target() -> None:
    pods = [make_pod(f"f{i}", "Failed", exit_code=1) for i in range(3)]
    result = run(make_job(backoffLimit=2), pods)
    assert result.status is not None
    types = condition_types(result)
    assert types["FailureTarget"] == "BackoffLimitExceeded"
    assert types["Failed"] == "BackoffLimitExceeded"
    assert events(result) == ["BackoffLimitExceeded"]


def test_backoff_limit_exceeded_without_delayed_conditions_fails_at_once() -> None:
    pods = [make_pod(f"f{i}", "Failed", exit_code=1) for i in range(3)]
    result = run(make_job(backoffLimit=2), pods, features=OLD_GATES)
    types = condition_types(result)
    assert "FailureTarget" not in types
    assert types["Failed"] == "BackoffLimitExceeded"


def test_failed_job_waits_for_terminating_pods_before_failed() -> None:
    pods = [make_pod(f"f{i}", "Failed", exit_code=1) for i in range(3)] + [make_pod("running")]
    result = run(make_job(backoffLimit=2), pods)
    types = condition_types(result)
    assert "FailureTarget" in types and "Failed" not in types
    assert deleted(result) == ["running"]
    assert result.status is not None and result.status.terminating == 1


def test_pod_recreation_backoff_requeues_instead_of_creating() -> None:
    record = BackoffRecord(failures_after_last_success=3, last_failure_time=T0 - timedelta(seconds=5))
    result = run(make_job(), controller=JobControllerState(backoff=record))
    assert created(result) == []
    # 10 s doubled twice is 40 s; 5 s have passed.
    assert result.requeue_after_seconds == pytest.approx(35.0)


def test_pod_recreation_backoff_is_capped() -> None:
    record = BackoffRecord(failures_after_last_success=30, last_failure_time=T0)
    result = run(make_job(), controller=JobControllerState(backoff=record))
    assert result.requeue_after_seconds == pytest.approx(600.0)


def test_on_failure_restarts_count_against_the_backoff_limit() -> None:
    job_json_template = {
        "metadata": {"labels": {"foo": "bar"}},
        "spec": {"containers": [{"name": "main", "image": "x"}], "restartPolicy": "OnFailure"},
    }
    pods = [make_pod("p", restarts=2)]
    result = run(make_job(backoffLimit=2, template=job_json_template), pods)
    assert condition_types(result).get("FailureTarget") == "BackoffLimitExceeded"


def test_on_failure_restarts_are_summed_as_int32() -> None:
    # pastBackoffLimitOnFailure sums restart counts in an int32: two at MaxInt32 wrap to -2, short of the limit.
    job_json_template = {
        "metadata": {"labels": {"foo": "bar"}},
        "spec": {"containers": [{"name": "main", "image": "x"}], "restartPolicy": "OnFailure"},
    }
    pods = [make_pod("a", restarts=2**31 - 1), make_pod("b", restarts=2**31 - 1)]
    result = run(make_job(parallelism=2, backoffLimit=6, template=job_json_template), pods)
    assert "FailureTarget" not in condition_types(result)


def test_failed_counter_wraps_around_as_int32() -> None:
    # jobCtx.failed and status.failed are int32 upstream: MaxInt32 failures and one more is MinInt32,
    # which is not past any backoffLimit, so the Job replaces the pod.
    job = make_job(parallelism=1, backoffLimit=2**31 - 1, status={"failed": 2**31 - 1})
    result = run(job, [make_pod("f", "Failed", exit_code=1)])
    assert "FailureTarget" not in condition_types(result)
    assert len(created(result)) == 1
    assert result.status is not None and result.status.failed == -(2**31)


def test_wanted_active_pods_are_an_int32_difference() -> None:
    # manageJob's wantActive = completions - succeeded in int32: MaxInt32 - (-1) wraps below zero.
    assert want_active_pods(2**31 - 1, 3, -1, 0) == 0
    assert want_active_pods(2**31 - 1, 3, 0, 0) == 3


# --- deadlines ----------------------------------------------------------------------------------------


def test_active_deadline_exceeded_fails_the_job() -> None:
    job = make_job(activeDeadlineSeconds=10, status={"startTime": "2024-06-01T11:59:00Z"})
    result = run(job, make_pods("p", 2))
    assert condition_types(result).get("FailureTarget") == "DeadlineExceeded"
    assert sorted(deleted(result)) == ["p-0", "p-1"]


def test_an_active_deadline_past_max_duration_wraps_and_is_already_past() -> None:
    # pastActiveDeadline compares time.Duration(activeDeadlineSeconds) * time.Second, an int64 of
    # nanoseconds: 10^10 s wraps to a negative duration, so a running Job fails at once, while the
    # largest deadline that fits (9223372036 s) is far ahead.
    job = make_job(activeDeadlineSeconds=10**10, status={"startTime": "2024-06-01T11:59:00Z"})
    assert condition_types(run(job, make_pods("p", 2))).get("FailureTarget") == "DeadlineExceeded"
    job = make_job(activeDeadlineSeconds=9223372036, status={"startTime": "2024-06-01T11:59:00Z"})
    result = run(job, make_pods("p", 2))
    assert "FailureTarget" not in condition_types(result)
    assert result.requeue_after_seconds == pytest.approx(9223372036 - 60)


def test_active_deadline_not_yet_reached_requeues_at_the_deadline() -> None:
    job = make_job(activeDeadlineSeconds=100, status={"startTime": "2024-06-01T11:59:00Z"})
    result = run(job, make_pods("p", 2))
    assert result.requeue_after_seconds == pytest.approx(40.0)


def test_backoff_limit_takes_precedence_over_the_deadline() -> None:
    job = make_job(activeDeadlineSeconds=10, backoffLimit=0, status={"startTime": "2024-06-01T11:00:00Z"})
    result = run(job, [make_pod("f", "Failed", exit_code=1)])
    assert condition_types(result).get("FailureTarget") == "BackoffLimitExceeded"


# --- completion -----------------------------------------------------------------------------------


def test_success_goes_through_success_criteria_met_to_complete() -> None:
    pods = [make_pod(f"s{i}", "Succeeded", exit_code=0) for i in range(2)]
    result = run(make_job(parallelism=2, completions=2), pods)
    types = condition_types(result)
    assert types["SuccessCriteriaMet"] == "CompletionsReached"
    assert types["Complete"] == "CompletionsReached"
    assert result.status is not None and result.status.completion_time == T0
    assert events(result) == ["Completed"]


def test_complete_without_the_gates_has_no_interim_condition_nor_reason() -> None:
    pods = [make_pod(f"s{i}", "Succeeded", exit_code=0) for i in range(2)]
    result = run(make_job(parallelism=2, completions=2), pods, features=OLD_GATES)
    types = condition_types(result)
    assert types == {"Complete": ""}


def test_finished_job_is_left_alone_and_its_backoff_record_dropped() -> None:
    done = {"conditions": [{"type": "Complete", "status": "True"}]}
    controller = JobControllerState(backoff=BackoffRecord(1, T0))
    result = run(make_job(status=done), make_pods("p", 1), controller=controller)
    assert result.actions == ()
    assert result.controller.backoff is None


# --- managedBy, deletion, unknown modes ------------------------------------------------------------


def test_job_managed_by_another_controller_is_skipped() -> None:
    result = run(make_job(managedBy="example.com/other"))
    assert result.actions == ()


def test_managed_by_is_ignored_without_the_gate() -> None:
    result = run(make_job(managedBy="example.com/other"), features=FeatureGates.for_release(32).with_overrides({"JobManagedBy": False}))
    assert len(created(result)) == 2


def test_job_being_deleted_creates_nothing_and_releases_every_pod() -> None:
    job = make_job(metadata={"deletionTimestamp": NOW})
    result = run(job, [make_pod("done", "Succeeded", exit_code=0), make_pod("running")])
    assert created(result) == []
    assert sorted(patched(result)) == ["done", "running"]
    # Only the finished pod is counted; the running one is released uncounted.
    assert result.status is not None and (result.status.succeeded, result.status.failed) == (1, 0)


def test_deleted_job_drops_the_controllers_bookkeeping() -> None:
    controller = JobControllerState(expectations=Expectations(add=2), backoff=BackoffRecord(1, T0))
    result = run(None, controller=controller)
    assert result.controller == JobControllerState()
    assert result.actions == ()


def test_unknown_completion_mode_only_records_a_warning() -> None:
    result = run(make_job(completionMode="Sometimes"))
    assert events(result) == ["UnknownCompletionMode"]
    assert created(result) == []


def test_unset_backoff_limit_is_an_input_error() -> None:
    with pytest.raises(InputError, match="backoffLimit"):
        run(make_job(backoffLimit=None))


def test_result_job_carries_the_last_accepted_status() -> None:
    result = run(make_job())
    assert result.job is not None and result.status is not None
    assert result.job.status == result.status
    assert attrs.evolve(result.job, status=make_job().status).spec == make_job().spec


# --- policies (podFailurePolicy, backoffLimitPerIndex, successPolicy) --------------------------------

PFP = {
    "rules": [
        {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [42]}},
        {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]},
        {"action": "Count", "onExitCodes": {"operator": "In", "values": [1]}},
    ]
}
DISRUPTED = [{"type": "DisruptionTarget", "status": "True"}]


def test_fail_job_rule_fails_the_job_through_failure_target() -> None:
    pods = [make_pod("bad", "Failed", exit_code=42), make_pod("running")]
    result = run(make_job(podFailurePolicy=PFP), pods)
    cond = result.status.condition("FailureTarget") if result.status else None
    assert cond is not None and cond.reason == "PodFailurePolicy"
    assert cond.message == "Container main for pod default/bad failed with exit code 42 matching FailJob rule at index 0"
    assert deleted(result) == ["running"]
    # The running pod is terminating now: Failed waits for it.
    assert "Failed" not in condition_types(result)


def test_ignored_failure_is_not_counted_and_is_replaced() -> None:
    pods = [make_pod("evicted", "Failed", exit_code=137, conditions=DISRUPTED), make_pod("running")]
    result = run(make_job(podFailurePolicy=PFP, backoffLimit=0), pods)
    assert result.status is not None and result.status.failed == 0
    assert "FailureTarget" not in condition_types(result)
    assert len(created(result)) == 1


def test_count_rule_counts_against_the_backoff_limit() -> None:
    result = run(make_job(podFailurePolicy=PFP, backoffLimit=0), [make_pod("f", "Failed", exit_code=1)])
    assert condition_types(result).get("FailureTarget") == "BackoffLimitExceeded"


def test_with_a_policy_terminating_pods_are_not_failed_until_terminal() -> None:
    pods = [make_pod("going", "Running", deleted=NOW), make_pod("running")]
    result = run(make_job(podFailurePolicy=PFP, backoffLimit=0), pods)
    assert result.status is not None
    assert (result.status.failed, result.status.terminating) == (0, 1)
    assert created(result) == []  # not replaced while terminating
    without = run(make_job(backoffLimit=0), pods)
    assert condition_types(without).get("FailureTarget") == "BackoffLimitExceeded"


PER_INDEX = {"completionMode": "Indexed", "completions": 3, "parallelism": 3, "backoffLimitPerIndex": 1}


def test_failed_index_is_retried_with_its_failure_count_annotation() -> None:
    pods = [
        make_pod("i0", index=0),
        make_pod("i1", "Failed", index=1, exit_code=1, finished="2024-06-01T11:00:00Z"),
        make_pod("i2", index=2),
    ]
    result = run(make_job(**PER_INDEX), pods)
    (create,) = created(result)
    assert create.index == 1
    assert create.pod.metadata.annotations["batch.kubernetes.io/job-index-failure-count"] == "1"
    # The failed pod keeps its finalizer until the replacement is seen.
    assert "i1" not in patched(result)


@pytest.mark.parametrize(("removing", "count"), [(frozenset(), "2"), (frozenset({"b"}), "1")])
def test_a_failed_pod_whose_finalizer_removal_is_expected_is_not_the_one_replaced(removing: frozenset[str], count: str) -> None:
    # getPodsWithDelayedDeletionPerIndex reads the pods through getValidPodsWithFilter, which
    # skips those in expectedRmFinalizers: with b's removal in flight, a is the index's last
    # failed pod, its finalizer is held, and the replacement counts from a's failure count.
    pods = [
        make_pod("i0", index=0),
        make_pod("a", "Failed", index=1, exit_code=1, finished="2024-06-01T10:00:00Z"),
        make_pod(
            "b", "Failed", index=1, exit_code=1, finished="2024-06-01T10:30:00Z",
            annotations={"batch.kubernetes.io/job-index-failure-count": "1"},
        ),
        make_pod("i2", index=2),
    ]
    controller = JobControllerState(expected_finalizer_removals=removing)
    result = run(make_job(**{**PER_INDEX, "backoffLimitPerIndex": 3}), pods, controller=controller)
    (create,) = created(result)
    assert create.index == 1
    assert create.pod.metadata.annotations["batch.kubernetes.io/job-index-failure-count"] == count
    assert ("a" in patched(result)) == (not removing)


def test_an_ignored_failure_count_at_max_int32_wraps_and_is_not_written() -> None:
    # getNewIndexFailureCounts adds one to an int32 MaxInt32: MinInt32, which is not > 0, so the
    # replacement carries no ignored-failure count.
    ignore = {"rules": [{"action": "Ignore", "onExitCodes": {"operator": "In", "values": [1]}}]}
    notes = {"batch.kubernetes.io/job-index-ignored-failure-count": str(2**31 - 1)}
    pods = [
        make_pod("i0", index=0),
        make_pod("i1", "Failed", index=1, exit_code=1, finished="2024-06-01T11:00:00Z", annotations=notes),
        make_pod("i2", index=2),
    ]
    result = run(make_job(**PER_INDEX, podFailurePolicy=ignore, podReplacementPolicy="Failed"), pods)
    (create,) = created(result)
    assert create.index == 1
    assert "batch.kubernetes.io/job-index-ignored-failure-count" not in create.pod.metadata.annotations


def test_index_that_used_up_its_backoff_limit_is_failed() -> None:
    pods = [
        make_pod("i0", "Succeeded", index=0, exit_code=0),
        make_pod("i1", "Failed", index=1, exit_code=1, annotations={"batch.kubernetes.io/job-index-failure-count": "1"}),
        make_pod("i2", "Succeeded", index=2, exit_code=0),
    ]
    result = run(make_job(**PER_INDEX), pods)
    assert result.status is not None
    assert result.status.failed_indexes == "1"
    assert condition_types(result).get("Failed") == "FailedIndexes"


def test_more_failed_indexes_than_allowed_fail_the_job() -> None:
    failed = {"batch.kubernetes.io/job-index-failure-count": "1"}
    pods = [
        make_pod("i0", "Failed", index=0, exit_code=1, annotations=failed),
        make_pod("i1", "Failed", index=1, exit_code=1, annotations=failed),
        make_pod("i2", index=2),
    ]
    result = run(make_job(**PER_INDEX, maxFailedIndexes=1), pods)
    assert condition_types(result).get("FailureTarget") == "MaxFailedIndexesExceeded"
    assert deleted(result) == ["i2"]


def test_fail_index_rule_fails_the_index_at_once() -> None:
    policy = {"rules": [{"action": "FailIndex", "onExitCodes": {"operator": "In", "values": [3]}}]}
    pods = [make_pod("i0", index=0), make_pod("i1", "Failed", index=1, exit_code=3), make_pod("i2", index=2)]
    result = run(make_job(**PER_INDEX, podFailurePolicy=policy), pods)
    assert result.status is not None and result.status.failed_indexes == "1"
    assert created(result) == []


def test_per_index_backoff_delays_the_retry() -> None:
    pods = [make_pod("i0", index=0), make_pod("i1", "Failed", index=1, exit_code=1, finished="2024-06-01T11:59:55Z")]
    result = run(make_job(**{**PER_INDEX, "parallelism": 2}), pods)
    assert created(result) == []
    assert result.requeue_after_seconds == pytest.approx(5.0)


def test_success_policy_met_terminates_the_rest() -> None:
    policy = {"rules": [{"succeededIndexes": "0"}]}
    pods = [make_pod("leader", "Succeeded", index=0, exit_code=0), make_pod("w1", index=1), make_pod("w2", index=2)]
    result = run(make_job(completionMode="Indexed", completions=3, parallelism=3, successPolicy=policy), pods)
    cond = result.status.condition("SuccessCriteriaMet") if result.status else None
    assert cond is not None and (cond.reason, cond.message) == ("SuccessPolicy", "Matched rules at index 0")
    assert sorted(deleted(result)) == ["w1", "w2"]
    assert result.status is not None and result.status.failed == 0  # the workers are not failures


def test_pods_by_owner_lists_the_jobs_own_pods_before_orphans() -> None:
    """controller.FilterPodsByOwner (1.34+): the index key of exactly this Job, then the orphan key;
    a pod another controller owns is not listed."""
    job = make_job()
    orphan = make_pod("a-orphan", owner_uid="")
    own = make_pod("b-own")
    foreign = make_pod("c-foreign", owner_uid="other-uid")
    assert [p.name for p in pods_by_owner([orphan, foreign, own], job)] == ["b-own", "a-orphan"]


def test_from_1_34_a_tie_in_the_deletion_ranking_deletes_an_owned_pod_before_an_adopted_one() -> None:
    """Two running, unassigned pods tie in ActivePodsWithRanks; upstream's order is the list
    FilterPodsByOwner gives (owned first) from 1.34, the cache's before (tests/differential/vectors/
    job-sync-divergences.json holds upstream's answers)."""
    pods = [make_pod("orphan", owner_uid="", node=None, ready=True), make_pod("own", node=None, ready=True)]
    job = make_job(parallelism=1)
    for release, deleted in ((33, "orphan"), (34, "own")):
        result = run(job, pods, features=FeatureGates.for_release(release))
        assert [a.name for a in result.actions if isinstance(a, DeletePod)] == [deleted], release


def test_the_pods_prefix_keeps_the_dash_only_when_it_makes_a_valid_prefix() -> None:
    """getPodsPrefix: `<name>-` when ValidatePodName(prefix, true) accepts it, else the bare name
    (a name no API server would store, but a job-sync input may hold)."""
    assert get_pods_prefix("pi") == "pi-"
    assert get_pods_prefix("Job_1") == "Job_1"
    assert get_pods_prefix("a" * 253) == "a" * 253 + "-"  # masked to 253 bytes: a valid prefix
    assert get_pods_prefix("a" * 254) == "a" * 254  # masked to 254 bytes: too long
