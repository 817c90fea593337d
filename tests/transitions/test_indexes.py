"""Completion-index arithmetic of Indexed Jobs (jobmodel/transitions/indexes.py)."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from jobmodel.api.names import MAX_GENERATED_NAME_LENGTH
from jobmodel.state import (
    JOB_COMPLETION_INDEX_ANNOTATION,
    JOB_INDEX_FAILURE_COUNT_ANNOTATION,
    JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION,
)
from jobmodel.transitions import indexes as ix
from jobmodel.util.gosort import shifts_for_release
from tests.builders import make_pod

index_sets = st.sets(st.integers(min_value=0, max_value=60), max_size=30)


def intervals_of(indexes: set[int]) -> ix.Intervals:
    return ix.with_ordered_indexes((), sorted(indexes))


def members(intervals: ix.Intervals) -> set[int]:
    return {i for first, last in intervals for i in range(first, last + 1)}


@given(index_sets)
@example({3, 4})
@example(set())
def test_format_then_parse_gives_back_the_same_indexes(indexes: set[int]) -> None:
    text = ix.format_intervals(intervals_of(indexes))
    assert members(ix.parse_indexes_from_string(text, 1000)) == indexes


def test_compressed_format_uses_ranges_for_three_or_more() -> None:
    assert ix.format_intervals(intervals_of({0, 1, 2, 4, 6, 7, 9})) == "0-2,4,6,7,9"


@given(index_sets, index_sets)
def test_merge_is_the_union(a: set[int], b: set[int]) -> None:
    merged = ix.merge(intervals_of(a), intervals_of(b))
    assert members(merged) == a | b
    assert ix.total(merged) == len(a | b)
    # Adjacent ranges are joined: no two intervals touch.
    assert all(merged[i][1] + 1 < merged[i + 1][0] for i in range(len(merged) - 1))


@given(index_sets, st.integers(min_value=0, max_value=70))
def test_has_is_membership(indexes: set[int], probe: int) -> None:
    assert ix.has(intervals_of(indexes), probe) == (probe in indexes)


def test_has_searches_intervals_as_if_sorted_like_upstream() -> None:
    # "0-9,11-3,5" in status parses and merges into intervals whose ends are not sorted: upstream's
    # binary search (orderedIntervals.has) stops at the first end >= 7 and misses 7 in 0-9.
    assert ix.has(((0, 9), (11, 3), (5, 5)), 5)
    assert not ix.has(((0, 9), (11, 3), (5, 5)), 7)
    assert not ix.has(((3, 3), (1, 1)), 1)


def test_a_reversed_range_is_written_as_its_first_index() -> None:
    # orderedIntervals.String writes the end only when it is past the start: "5-3" becomes "5".
    assert ix.format_intervals(((1, 1), (5, 3))) == "1,5"
    assert ix.format_intervals(ix.parse_indexes_from_string("0-9,11-3,5", 12)) == "0-9,11,5"


def test_parse_drops_indexes_past_completions_and_skips_corrupt_parts() -> None:
    assert ix.parse_indexes_from_string("0-2,x,5,8-12", 10) == ((0, 2), (5, 5), (8, 9))
    assert ix.parse_indexes_from_string("1,12", 10) == ((1, 1),)


def test_completion_index_annotation_must_be_a_non_negative_integer() -> None:
    assert ix.get_completion_index({JOB_COMPLETION_INDEX_ANNOTATION: "3"}) == 3
    for bad in ("-1", "x", "", "1.5"):
        assert ix.get_completion_index({JOB_COMPLETION_INDEX_ANNOTATION: bad}) == -1
    assert ix.get_completion_index({}) == -1


def test_generated_name_is_cut_to_fit() -> None:
    assert ix.pod_generate_name_with_index("job", 3) == "job-3-"
    long = ix.pod_generate_name_with_index("j" * 70, 12)
    assert len(long) == MAX_GENERATED_NAME_LENGTH and long.endswith("-12-")


def test_duplicated_indexes_keep_the_most_advanced_pod() -> None:
    pods = [make_pod("a", "Pending", index=0), make_pod("b", index=0, ready=True), make_pod("c", index=1)]
    rm, left = ix.append_duplicated_index_pods_for_removal(pods, completions=2)
    assert [p.name for p in rm] == ["a"]
    assert sorted(p.name for p in left) == ["b", "c"]


def test_failure_count_annotations_are_read_as_int32() -> None:
    pod = make_pod("p", annotations={JOB_INDEX_FAILURE_COUNT_ANNOTATION: "2", JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION: "x"})
    assert ix.index_failure_count(pod) == 2
    assert ix.index_ignored_failure_count(pod) == 0
    assert ix.index_absolute_failure_count(pod) == 2


def test_absolute_failure_count_is_an_int32_sum() -> None:
    # getIndexAbsoluteFailureCount adds two int32s: MaxInt32 - 1 and MaxInt32 wrap to -3.
    top = str(2**31 - 1)
    pod = make_pod("p", annotations={JOB_INDEX_FAILURE_COUNT_ANNOTATION: str(2**31 - 2), JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION: top})
    assert ix.index_absolute_failure_count(pod) == -3


def test_pods_of_equal_index_are_ordered_by_the_sort_of_the_release_s_go() -> None:
    """v1.32.3 is built with Go 1.23, later releases with Go 1.24 or newer, whose pdqsort breaks
    patterns differently: equal indexes end up in another order (Go's own orders of these keys
    are checked against Go in tests/util/test_gosort.py)."""
    keys = [1, 1, 3, 0, 2, 4, 4, 1, 2, 0, 1, 0, 0, 0]
    pods = [make_pod(f"p{i}", index=k) for i, k in enumerate(keys)]
    order = {minor: [p.name for p in ix.by_completion_index(pods, shifts_for_release(minor))] for minor in (32, 33, 37)}
    assert order[37] == order[33] == [f"p{i}" for i in (9, 12, 13, 3, 11, 10, 1, 0, 7, 8, 4, 2, 5, 6)]
    assert order[32] != order[37]
    assert [p.name for p in ix.by_completion_index(pods)] == order[32]


def test_an_index_only_strconv_reads_is_an_index() -> None:
    """getCompletionIndex reads the annotation with strconv.Atoi: ASCII digits within int64; other
    scripts' digits, `²`, `1_0` and thousands of digits (past int()'s limit) are no index."""
    for text in ("\u0663", "\u00b2", "1_0", " 1", "1" * 5000, "9223372036854775808"):
        pod = make_pod("p", annotations={JOB_COMPLETION_INDEX_ANNOTATION: text})
        assert ix.pod_index(pod) == ix.UNKNOWN_COMPLETION_INDEX, text
    assert ix.pod_index(make_pod("p", annotations={JOB_COMPLETION_INDEX_ANNOTATION: "+7"})) == 7
    # parseIndexesFromString skips an interval strconv cannot read, and keeps the rest.
    assert ix.parse_indexes_from_string("0," + "1" * 5000 + ",2-3,\u0663", 5) == ((0, 0), (2, 3))


def test_a_long_name_is_cut_in_bytes_for_the_pods_generate_name() -> None:
    """podGenerateNameWithIndex cuts with Go's len and slicing (bytes): 30 `é` (60 bytes) keep 55
    bytes before `-0-`, 27 `é` and half of one, which Go's JSON writes as U+FFFD."""
    assert ix.pod_generate_name_with_index("\u00e9" * 30, 0) == "\u00e9" * 27 + "\ufffd" + "-0-"
    assert ix.pod_generate_name_with_index("\u00e9" * 27, 0) == "\u00e9" * 27 + "-0-"  # 57 bytes: kept
    assert ix.pod_generate_name_with_index("a" * 60, 12) == "a" * 54 + "-12-"
