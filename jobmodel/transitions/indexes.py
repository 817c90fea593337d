"""Completion indexes of Indexed Jobs (upstream pkg/controller/job/indexed_job_utils.go).

An `Intervals` value is upstream's `orderedIntervals`: sorted, non-overlapping, non-adjacent
inclusive ranges, written in status in the compressed form `1,3-5,7`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from jobmodel.api.names import MAX_GENERATED_NAME_LENGTH
from jobmodel.state import (
    INDEXED,
    JOB_COMPLETION_INDEX_ANNOTATION,
    JOB_INDEX_FAILURE_COUNT_ANNOTATION,
    JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION,
    Job,
    Pod,
)
from jobmodel.transitions.pod_utils import active_pods_less
from jobmodel.util.goint import int32
from jobmodel.util.gosort import XORSHIFT_GO1_23, XorshiftShifts, go_sort, go_sort_by_key
from jobmodel.util.gostrings import go_atoi, go_len, go_prefix_as_written

UNKNOWN_COMPLETION_INDEX = -1
COMPLETION_INDEX_ENV_NAME = "JOB_COMPLETION_INDEX"
MAX_INT32 = 2**31 - 1

Interval = tuple[int, int]
Intervals = tuple[Interval, ...]


def is_indexed_job(job: Job) -> bool:
    """isIndexedJob."""
    return job.spec.completion_mode == INDEXED


def with_ordered_indexes(intervals: Intervals, new_indexes: Sequence[int]) -> Intervals:
    """orderedIntervals.withOrderedIndexes: merge sorted single indexes in."""
    return merge(intervals, tuple((ix, ix) for ix in new_indexes))


def merge(left: Intervals, right: Intervals) -> Intervals:
    """orderedIntervals.merge: the union of two interval lists, adjacent ranges joined."""
    result: list[list[int]] = []

    def append_or_merge(iv: Interval) -> None:
        if not result or iv[0] > result[-1][1] + 1:
            result.append([iv[0], iv[1]])
        elif result[-1][1] < iv[1]:
            result[-1][1] = iv[1]

    i = j = 0
    while i < len(left) and j < len(right):
        if left[i][0] < right[j][0]:
            append_or_merge(left[i])
            i += 1
        else:
            append_or_merge(right[j])
            j += 1
    for iv in left[i:]:
        append_or_merge(iv)
    for iv in right[j:]:
        append_or_merge(iv)
    return tuple((a, b) for a, b in result)


def total(intervals: Intervals | None) -> int:
    """orderedIntervals.total: how many indexes."""
    # A loop, not sum() over a generator: a sync asks a few times, of one or two intervals.
    count = 0
    for first, last in intervals or ():
        count += last - first + 1
    return count


def has(intervals: Intervals | None, ix: int) -> bool:
    """orderedIntervals.has: a binary search for the first interval ending at or after `ix`."""
    # A binary search as upstream's, not a scan: a status string out of order or with a reversed
    # range ("3,1", "5-3") parses into intervals that are not sorted, where the two differ.
    intervals = intervals or ()
    lo, hi = 0, len(intervals)
    while hi > lo:
        mid = lo + (hi - lo) // 2
        if intervals[mid][1] >= ix:
            hi = mid
        else:
            lo = mid + 1
    return hi < len(intervals) and intervals[hi][0] <= ix


def format_intervals(intervals: Intervals) -> str:
    """orderedIntervals.String: `1,3-5,7`; a pair of adjacent indexes is written `3,4`."""
    parts = []
    for first, last in intervals:
        if last <= first:
            # Only its first index: a reversed range ("5-3" parsed from status) is written "5".
            parts.append(str(first))
        elif last == first + 1:
            parts.append(f"{first},{last}")
        else:
            parts.append(f"{first}-{last}")
    return ",".join(parts)


def parse_indexes_from_string(text: str, completions: int) -> Intervals:
    """parseIndexesFromString: corrupt intervals are skipped; indexes past `completions` are dropped."""
    if text == "":
        return ()
    result: list[list[int]] = []
    for part in text.split(","):
        limits = part.split("-")
        first = go_atoi(limits[0])
        if first is None:
            continue
        if first >= completions:
            break
        if len(limits) > 1:
            last = go_atoi(limits[1])
            if last is None:
                continue
            last = min(last, completions - 1)
        else:
            last = first
        if result and result[-1][1] == first - 1:
            result[-1][1] = last
        else:
            result.append([first, last])
    return tuple((a, b) for a, b in result)


def get_completion_index(annotations: object) -> int:
    """getCompletionIndex: the index annotation, or -1 when absent, malformed or negative."""
    value = annotations.get(JOB_COMPLETION_INDEX_ANNOTATION)  # type: ignore[attr-defined]
    if not isinstance(value, str):
        return UNKNOWN_COMPLETION_INDEX
    return _index_from_text(value)


@lru_cache(maxsize=1 << 17)
def _index_from_text(value: str) -> int:
    """The index an annotation's text names (-1 when malformed or negative); a pure function of
    the text, read many times per sync (sorting compares indexes), so remembered."""
    ix = go_atoi(value)
    if ix is None or ix < 0:
        return UNKNOWN_COMPLETION_INDEX
    return ix


def pod_index(pod: Pod) -> int:
    """getCompletionIndex of a pod's annotations (inlined: a sync reads it several times a pod)."""
    value = pod.metadata.annotations.get(JOB_COMPLETION_INDEX_ANNOTATION)
    return _index_from_text(value) if isinstance(value, str) else UNKNOWN_COMPLETION_INDEX


def get_indexes(pods: Iterable[Pod]) -> list[int]:
    """getIndexes: the sorted set of known indexes."""
    return sorted({ix for ix in (pod_index(p) for p in pods) if ix != UNKNOWN_COMPLETION_INDEX})


def by_completion_index(pods: Sequence[Pod], shifts: XorshiftShifts = XORSHIFT_GO1_23) -> list[Pod]:
    """sort.Sort(byCompletionIndex(pods)), with the sort of the Go named by `shifts`."""
    return _by_completion_index_with_keys(pods, shifts)[0]


def _by_completion_index_with_keys(pods: Sequence[Pod], shifts: XorshiftShifts) -> tuple[list[Pod], list[int]]:
    """sort.Sort(byCompletionIndex(pods)), and the sorted pods' indexes (each read once: a sync
    of many pods spends its time there)."""
    return go_sort_by_key(pods, pod_index, shifts)


def _parse_int32(text: str) -> int:
    """parseInt32: 0 for anything that is not an int32 in [0, MaxInt32]."""
    value = go_atoi(text)
    if value is None or value < 0 or value > MAX_INT32:
        return 0
    return value


def index_failure_count(pod: Pod) -> int:
    """getIndexFailureCount: the `job-index-failure-count` annotation."""
    value = pod.metadata.annotations.get(JOB_INDEX_FAILURE_COUNT_ANNOTATION)
    return _parse_int32(value) if isinstance(value, str) else 0


def index_ignored_failure_count(pod: Pod) -> int:
    """parseIndexFailureIgnoreCountAnnotation."""
    value = pod.metadata.annotations.get(JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION)
    return _parse_int32(value) if isinstance(value, str) else 0


def index_absolute_failure_count(pod: Pod) -> int:
    """getIndexAbsoluteFailureCount: counted plus ignored failures of the index (an int32 sum)."""
    return int32(index_failure_count(pod) + index_ignored_failure_count(pod))


def pod_generate_name_with_index(job_name: str, index: int) -> str:
    """podGenerateNameWithIndex: `<job>-<index>-`, the job name cut to fit (in bytes, as Go's len
    and slicing count: a rune cut in two is written to JSON as U+FFFD)."""
    append = f"-{index}-"
    prefix = job_name + append
    if go_len(prefix) > MAX_GENERATED_NAME_LENGTH:
        prefix = go_prefix_as_written(job_name, MAX_GENERATED_NAME_LENGTH - len(append)) + append
    return prefix


def append_duplicated_index_pods_for_removal(
    pods: Sequence[Pod], completions: int, shifts: XorshiftShifts = XORSHIFT_GO1_23
) -> tuple[list[Pod], list[Pod]]:
    """appendDuplicatedIndexPodsForRemoval: pods without an index or past `completions`, and all but
    one pod of each repeated index, go to `rm`; returns (rm, left)."""
    ordered, keys = _by_completion_index_with_keys(pods, shifts)
    rm: list[Pod] = []
    left: list[Pod] = []
    last_index = UNKNOWN_COMPLETION_INDEX
    first_repeat = 0
    looped = 0
    for i, ix in enumerate(keys):
        if ix >= completions:
            rm.extend(ordered[i:])
            break
        if ix != last_index:
            _split_same_index(rm, left, ordered[first_repeat:i], last_index, shifts)
            first_repeat = i
            last_index = ix
        looped += 1
    _split_same_index(rm, left, ordered[first_repeat:looped], last_index, shifts)
    return rm, left


def _split_same_index(rm: list[Pod], left: list[Pod], pods: Sequence[Pod], ix: int, shifts: XorshiftShifts) -> None:
    """appendPodsWithSameIndexForRemovalAndRemaining: keep the pod that would be deleted last."""
    if ix == UNKNOWN_COMPLETION_INDEX:
        rm.extend(pods)
        return
    if len(pods) == 1:
        left.append(pods[0])
        return
    ordered = go_sort(pods, active_pods_less, shifts)
    rm.extend(ordered[:-1])
    left.extend(ordered[-1:])
