"""The job-sync suite's reading of a case (jobmodel/conformance/job_sync.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jobmodel.conformance import job_sync
from jobmodel.errors import InputError

VECTORS = Path(__file__).resolve().parents[2] / "jobmodel" / "conformance" / "vectors"


def a_case() -> dict[str, Any]:
    for path in sorted(VECTORS.glob("job_sync*.json")):
        for case in json.loads(path.read_text())["cases"]:
            if case.get("pods"):
                return dict(case)
    raise AssertionError("no job-sync vector with pods")


@pytest.mark.parametrize("pods", [{}, 0, "", False])
def test_pods_that_are_not_a_list_are_refused(pods: object) -> None:
    """encoding/json refuses a non-list for []*v1.Pod; only null is an empty list."""
    with pytest.raises(InputError, match="pods"):
        job_sync.model_outcome({**a_case(), "pods": pods})


def test_null_pods_are_no_pods() -> None:
    case = a_case()
    assert job_sync.model_outcome({**case, "pods": None}) == job_sync.model_outcome({**case, "pods": []})
