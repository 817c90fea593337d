"""The controller's tunables as a case or a trace gives them (checked_tunable)."""

from __future__ import annotations

import pytest

from jobmodel.errors import InputError
from jobmodel.state import MAX_TUNABLE, checked_tunable


@pytest.mark.parametrize(
    ("name", "value"),
    [("pod_failure_backoff_seconds", 0.1), ("pod_failure_backoff_seconds", 0), ("max_uncounted_pods", 10),
     ("max_pod_create_delete_per_sync", 1), ("max_pod_failure_backoff_seconds", MAX_TUNABLE)],
)  # fmt: skip
def test_a_tunable_in_range_is_taken_as_given(name: str, value: float) -> None:
    assert checked_tunable(name, value, "p") == value


@pytest.mark.parametrize(
    ("name", "value", "reason"),
    [("max_pod_create_delete_per_sync", 2.5, "expected a whole number from 1"),
     ("max_uncounted_pods", 0.5, "expected a whole number from 1"),
     ("max_uncounted_pods", 0, "expected a whole number from 1"),
     ("max_uncounted_pods", True, "expected a number from 0"),
     ("pod_failure_backoff_seconds", -1, "expected a number from 0"),
     ("pod_failure_backoff_seconds", "10", "expected a number from 0"),
     ("pod_failure_backoff_seconds", MAX_TUNABLE * 2, "expected a number from 0")],
)  # fmt: skip
def test_a_bad_tunable_names_its_field(name: str, value: object, reason: str) -> None:
    with pytest.raises(InputError) as err:
        checked_tunable(name, value, "controller.x")
    assert err.value.field == "controller.x" and err.value.reason.startswith(reason)
