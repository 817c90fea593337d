"""jobmodel.util.jsondiff: partial objects, and the rule for an absent object (FORMAT.md)."""

from __future__ import annotations

from typing import Any

import pytest

from jobmodel.util.jsondiff import MISSING, matches_absent, status_diff, subset_diff


@pytest.mark.parametrize(
    "expected",
    [{}, {"active": None}, {"active": None, "ready": None}, {"uncounted": {"failed": None}}],
)
def test_an_all_null_expectation_matches_an_absent_object(expected: dict[str, Any]) -> None:
    assert matches_absent(expected)
    assert subset_diff({"status": expected}, {"metadata": {}}, "object") == []
    assert subset_diff({"status": expected}, {"status": None}, "object") == []
    assert subset_diff(expected, MISSING, "status") == []


@pytest.mark.parametrize("expected", [{"active": 1}, {"active": None, "ready": 0}, {"a": {"b": []}}])
def test_any_other_expectation_does_not_match_an_absent_object(expected: dict[str, Any]) -> None:
    assert not matches_absent(expected)
    (diff,) = subset_diff({"status": expected}, {"metadata": {}}, "object")
    assert diff.startswith("object.status: expected {") and diff.endswith("got <absent>")


def test_a_present_object_is_still_compared_key_by_key() -> None:
    assert subset_diff({"status": {"active": None}}, {"status": {"active": 2}}, "o") == [
        "o.status.active: expected absent, got 2"
    ]
    assert subset_diff({"status": {"active": 2}}, {"status": {}}, "o") == [
        "o.status.active: expected 2, got <absent>"
    ]


def test_a_scalar_or_list_expected_against_an_absent_value_is_a_difference() -> None:
    assert subset_diff({"a": 1}, {}, "o") == ["o.a: expected 1, got <absent>"]
    assert subset_diff({"a": [1]}, {}, "o") == ["o.a: expected [1], got <absent>"]


def test_job_status_pointer_objects_follow_the_absent_rule() -> None:
    # uncountedTerminatedPods is a pointer upstream: an absent one matches all-null expectations.
    assert status_diff({"uncountedTerminatedPods": {"failed": None}}, {}, "status") == []
    assert status_diff({"uncountedTerminatedPods": {"failed": ["a"]}}, {}, "status") != []
    # Plain fields keep their zero values.
    assert status_diff({"active": 0, "succeeded": 0}, {}, "status") == []
    assert status_diff({"active": 1}, {}, "status") == ["status.active: expected 1, got 0"]
