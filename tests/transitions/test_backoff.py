"""The pod-recreation back-off (jobmodel/transitions/backoff.py)."""

from __future__ import annotations

from datetime import timedelta

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jobmodel.errors import InputError
from jobmodel.features import FeatureGates
from jobmodel.state import (
    JOB_INDEX_FAILURE_COUNT_ANNOTATION,
    JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION,
    BackoffRecord,
)
from jobmodel.timeutil import parse_time
from jobmodel.transitions import backoff as bo
from tests.builders import make_pod

GATES = FeatureGates.for_release(32)
T0 = parse_time("2024-06-01T12:00:00Z", "t")


def test_delay_doubles_from_ten_seconds() -> None:
    assert [bo.backoff_duration(n, 10, 600) for n in (1, 2, 3, 4)] == [10, 20, 40, 80]


@given(st.integers(min_value=1, max_value=100))
def test_delay_never_exceeds_the_cap(failures: int) -> None:
    assert 10 <= bo.backoff_duration(failures, 10, 600) <= 600


def test_no_failures_means_no_delay() -> None:
    assert bo.remaining_time(BackoffRecord(), T0, 10, 600) == 0


def test_remaining_time_counts_from_the_last_failure() -> None:
    record = BackoffRecord(2, T0 - timedelta(seconds=15))
    assert bo.remaining_time(record, T0, 10, 600) == 5
    assert bo.remaining_time(record, T0 + timedelta(seconds=5), 10, 600) == 0


def test_failures_without_a_last_failure_time_are_refused_with_one_line() -> None:
    # Upstream's getRemainingTimeForFailuresCount dereferences the nil time (a panic).
    with pytest.raises(InputError, match="lastFailureTime"):
        bo.remaining_time(BackoffRecord(2, None), T0, 10, 600)


def test_an_index_whose_failure_count_wraps_waits_only_the_base_delay() -> None:
    # getRemainingTimePerIndex adds one to an int32 count of MaxInt32: MinInt32, so no doubling.
    notes = {JOB_INDEX_FAILURE_COUNT_ANNOTATION: "0", JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION: str(2**31 - 1)}
    failed = make_pod("f", "Failed", exit_code=1, finished="2024-06-01T11:59:55Z", annotations=notes)
    assert bo.remaining_time_per_index(T0, 10, 600, failed, GATES) == 5


def test_new_failures_add_to_the_record() -> None:
    failed = [make_pod("f", "Failed", exit_code=1, finished="2024-06-01T11:59:30Z")]
    record = bo.new_backoff_record(BackoffRecord(1, T0), [], failed, GATES)
    assert record.failures_after_last_success == 2
    assert record.last_failure_time == parse_time("2024-06-01T11:59:30Z", "t")


def test_a_success_resets_the_record_to_the_failures_after_it() -> None:
    succeeded = [make_pod("s", "Succeeded", exit_code=0, finished="2024-06-01T11:59:00Z")]
    failed = [
        make_pod("before", "Failed", exit_code=1, finished="2024-06-01T11:58:00Z"),
        make_pod("after", "Failed", exit_code=1, finished="2024-06-01T11:59:30Z"),
    ]
    record = bo.new_backoff_record(BackoffRecord(5, T0), succeeded, failed, GATES)
    assert record == BackoffRecord(1, parse_time("2024-06-01T11:59:30Z", "t"))


def test_finish_time_falls_back_to_deletion_then_creation() -> None:
    deleted = make_pod("d", "Running", deleted="2024-06-01T11:50:00Z")
    assert bo.get_finished_time(deleted, GATES) == parse_time("2024-06-01T11:50:00Z", "t")
    fresh = make_pod("c", "Running", created="2024-06-01T10:00:00Z")
    assert bo.get_finished_time(fresh, GATES) == parse_time("2024-06-01T10:00:00Z", "t")


def test_a_grace_period_past_max_duration_wraps_the_estimated_finish_time() -> None:
    # getFinishTimeFromDeletionTimestamp subtracts time.Duration(grace) * time.Second, an int64 of
    # nanoseconds: 10^10 s wraps, so the pod "finished" about 267 years after its deletion.
    pod = make_pod("d", "Failed", deleted="2024-06-01T11:50:00Z")
    pod = attrs.evolve(pod, metadata=attrs.evolve(pod.metadata, deletion_grace_period_seconds=10**10))
    wrapped_ns = 2**64 - 10**19
    assert bo.get_finished_time(pod, GATES) == parse_time("2024-06-01T11:50:00Z", "t") + timedelta(microseconds=wrapped_ns // 1000)


def test_remaining_time_wraps_when_the_last_failure_is_centuries_ahead() -> None:
    # getRemainingTimeForFailuresCount: 10 s less an elapsed time of about -292 years overflows int64.
    ahead = T0 + timedelta(microseconds=(2**63 - 5 * 10**9) // 1000)
    assert bo.remaining_time(BackoffRecord(1, ahead), T0, 10, 600) < 0
    assert bo.remaining_time(BackoffRecord(1, T0 + timedelta(days=365)), T0, 10, 600) == 10 + 365 * 86400


def test_the_failure_count_is_an_int32_that_wraps() -> None:
    """newBackoffRecord adds the new failures to an int32 (backoff_utils.go): MaxInt32 and one more
    is MinInt32, whose delay is the base alone (no doubling), as for a wrapped index count."""
    failed = [make_pod("f", "Failed", exit_code=1, finished="2024-06-01T11:59:50Z")]
    record = bo.new_backoff_record(BackoffRecord(2**31 - 1, T0), [], failed, GATES)
    assert record.failures_after_last_success == -(2**31)
    assert bo.remaining_time(record, parse_time("2024-06-01T11:59:55Z", "t"), 10, 600) == 5
