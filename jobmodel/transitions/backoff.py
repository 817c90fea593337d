"""The pod-recreation back-off of the Job controller (upstream pkg/controller/job/backoff_utils.go)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from jobmodel.errors import InputError
from jobmodel.features import FeatureGates
from jobmodel.state import BackoffRecord, Pod
from jobmodel.timeutil import GO_ZERO_TIME, is_zero
from jobmodel.transitions.indexes import index_absolute_failure_count
from jobmodel.transitions.pod_utils import get_pod_condition
from jobmodel.util.goint import NANOS, duration_nanos, int32, int64, saturated_int64
from jobmodel.util.gosort import go_sort_by_key, shifts_for_release


def new_backoff_record(
    old: BackoffRecord | None,
    new_succeeded: Sequence[Pod],
    new_failed: Sequence[Pod],
    gates: FeatureGates,
) -> BackoffRecord:
    """backoffStore.newBackoffRecord: update the failures counted since the last success."""
    record = old or BackoffRecord()
    succeeded = sort_by_finished_time(new_succeeded, gates)
    failed = sort_by_finished_time(new_failed, gates)
    if not succeeded:
        if not failed:
            return record
        return BackoffRecord(
            failures_after_last_success=int32(record.failures_after_last_success + len(failed)),  # int32 fields
            last_failure_time=get_finished_time(failed[-1], gates),
        )
    last_success = get_finished_time(succeeded[-1], gates)
    count = 0
    last_failure: datetime | None = None
    for pod in reversed(failed):
        failed_time = get_finished_time(pod, gates)
        if not failed_time > last_success:
            break
        if last_failure is None:
            last_failure = failed_time
        count = int32(count + 1)
    return BackoffRecord(failures_after_last_success=count, last_failure_time=last_failure)


def sort_by_finished_time(pods: Sequence[Pod], gates: FeatureGates) -> list[Pod]:
    """sortByFinishedTime (sort.Slice by getFinishedTime)."""
    return go_sort_by_key(pods, lambda pod: get_finished_time(pod, gates), shifts_for_release(gates.release))[0]


def get_finished_time(pod: Pod, gates: FeatureGates) -> datetime:
    """getFinishedTime: containers' finish time, else Ready=False time, else deletion time, else creation."""
    for finish in (
        _finish_time_from_containers(pod, gates),
        _finish_time_from_ready_false(pod),
        _finish_time_from_deletion(pod),
    ):
        if finish is not None:
            return finish
    return pod.metadata.creation_timestamp or GO_ZERO_TIME


def _finish_time_from_containers(pod: Pod, gates: FeatureGates) -> datetime | None:
    """getFinishTimeFromContainers: the latest finish, or None if any container has not finished."""
    finish = _latest_finish_time(None, pod.status.container_statuses, None)
    if gates.SidecarContainers:
        sidecars = pod.restartable_init_container_names()
        finish = _latest_finish_time(finish, pod.status.init_container_statuses, sidecars)
    return finish


def _latest_finish_time(
    previous: datetime | None, statuses: Sequence[object], only: frozenset[str] | None
) -> datetime | None:
    """latestFinishTime."""
    finish = previous
    for status in statuses:
        name = getattr(status, "name", "")
        if only is not None and name not in only:
            continue
        terminated = getattr(status, "terminated", None)
        if terminated is None or is_zero(terminated.finished_at):
            return None
        if finish is None or finish < terminated.finished_at:
            finish = terminated.finished_at
    return finish


def _finish_time_from_ready_false(pod: Pod) -> datetime | None:
    """getFinishTimeFromPodReadyFalseCondition."""
    cond = get_pod_condition(pod, "Ready")
    if cond is not None and cond.status == "False" and not is_zero(cond.last_transition_time):
        return cond.last_transition_time
    return None


def _finish_time_from_deletion(pod: Pod) -> datetime | None:
    """getFinishTimeFromDeletionTimestamp: the deletion time less the grace period."""
    deleted = pod.metadata.deletion_timestamp
    if deleted is None:
        return None
    grace = pod.metadata.deletion_grace_period_seconds or 0
    # Add(-time.Duration(grace) * time.Second): int64 nanoseconds, which wrap (and so does their
    # negation) for a grace period past about 292 years.
    back = int64(-int64(grace * NANOS))
    try:
        return deleted + timedelta(microseconds=back // 1000)
    except OverflowError:
        return GO_ZERO_TIME


def backoff_duration(failures: int, base: float, cap: float) -> float:
    """The delay before the next pod after `failures` failures: base doubled per failure, capped."""
    duration = base
    for _ in range(1, failures):
        duration *= 2
        if duration >= cap:
            return cap
    return duration


def remaining_time_for_failures(
    now: datetime, base: float, cap: float, failures: int, last_failure: datetime | None
) -> float:
    """getRemainingTimeForFailuresCount: seconds left of the back-off, 0 when over."""
    if failures == 0:
        return 0.0
    duration = round(backoff_duration(failures, base, cap) * 1e9)
    if last_failure is None:
        # Upstream dereferences the nil pointer here and panics; its own bookkeeping never holds
        # failures without a time, so only a hand-written case reaches this.
        raise InputError("controller.backoff.lastFailureTime", "unset with failures after the last success (upstream's getRemainingTimeForFailuresCount panics on it)")
    delta = now - last_failure
    # In time.Duration nanoseconds as upstream: Since saturates, the difference wraps (a last
    # failure centuries ahead leaves a negative remaining time).
    elapsed = saturated_int64(duration_nanos(delta))
    if duration < elapsed:
        return 0.0
    return int64(duration - elapsed) / 1e9


def remaining_time(record: BackoffRecord, now: datetime, base: float, cap: float) -> float:
    """backoffRecord.getRemainingTime."""
    return remaining_time_for_failures(
        now, base, cap, record.failures_after_last_success, record.last_failure_time
    )


def remaining_time_per_index(
    now: datetime, base: float, cap: float, last_failed: Pod | None, gates: FeatureGates
) -> float:
    """getRemainingTimePerIndex: the back-off of one index after its last failed pod."""
    if last_failed is None:
        return 0.0
    failures = int32(index_absolute_failure_count(last_failed) + 1)
    return remaining_time_for_failures(now, base, cap, failures, get_finished_time(last_failed, gates))
