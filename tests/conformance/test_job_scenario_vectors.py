"""The shared `job-scenario` vectors through the simulated cluster (jobmodel/conformance/job_scenario.py)."""

from __future__ import annotations

import json

import pytest

from jobmodel.conformance.engines import ModelEngine
from jobmodel.conformance.runner import run_case
from tests.conftest import find_conformance_dir


def _cases() -> list[dict[str, object]]:
    found = find_conformance_dir()
    if found is None:
        return []
    cases: list[dict[str, object]] = json.loads((found / "job_scenario.json").read_text())["cases"]
    return cases


CASES = _cases()


def test_scenario_file_is_present(conformance_dir: object) -> None:
    assert len(CASES) >= 40


@pytest.mark.parametrize("case", CASES, ids=[str(c["name"]) for c in CASES])
def test_job_scenario_vector(case: dict[str, object]) -> None:
    differences = run_case("job-scenario", case, ModelEngine())
    assert differences == (), "\n".join(differences)
