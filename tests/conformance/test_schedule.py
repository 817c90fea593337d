"""The schedule suite's reading of a case (jobmodel/conformance/schedule.py)."""

from __future__ import annotations

import pytest

from jobmodel.conformance import schedule
from jobmodel.errors import InputError


def test_a_starting_deadline_beyond_int64_is_refused() -> None:
    """The harness's case field is *int64: encoding/json refuses 2^63."""
    case = {"schedule": "* * * * *", "earliestTime": "2024-01-01T00:00:00Z", "now": "2024-01-01T00:10:00Z"}
    with pytest.raises(InputError, match="startingDeadlineSeconds"):
        schedule.model_outcome({**case, "startingDeadlineSeconds": 1 << 63})
    assert schedule.model_outcome({**case, "startingDeadlineSeconds": (1 << 63) - 1}) is not None
