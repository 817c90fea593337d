"""The `job-scenario` vectors through the simulated cluster (jobmodel/conformance/job_scenario.py): the shared
ones, and the project's own translation of the upstream subtests the shared file withholds
(vectors/job_scenario_extra.json, run through the model by test_extra_vectors)."""

from __future__ import annotations

import json

import pytest

from jobmodel.conformance.engines import ModelEngine
from jobmodel.conformance.runner import run_case
from tests.conformance.gen.job_scenario_extra import OUT as EXTRA
from tests.conformance.gen.job_scenario_extra import render
from tests.conftest import find_conformance_dir


def _cases() -> list[dict[str, object]]:
    found = find_conformance_dir()
    if found is None:
        return []
    cases: list[dict[str, object]] = json.loads((found / "job_scenario.json").read_text())["cases"]
    return cases


CASES = _cases()
EXTRA_CASES: list[dict[str, object]] = json.loads(EXTRA.read_text())["cases"]


def test_scenario_file_is_present(conformance_dir: object) -> None:
    assert len(CASES) >= 40


@pytest.mark.parametrize("case", CASES, ids=[str(c["name"]) for c in CASES])
def test_job_scenario_vector(case: dict[str, object]) -> None:
    differences = run_case("job-scenario", case, ModelEngine())
    assert differences == (), "\n".join(differences)


def test_extra_scenarios_are_not_among_the_shared_ones() -> None:
    """Each extra case translates an upstream subtest of its own, none that the shared file holds."""
    extra_names = [str(c["name"]) for c in EXTRA_CASES]
    assert len(set(extra_names)) == len(extra_names) == 18
    assert not set(extra_names) & {str(c["name"]) for c in CASES}


def test_an_extra_scenario_fails_when_its_expectation_is_changed() -> None:
    """The runner compares the extra cases' expectations: the non-parallel Job's final counts, one off, fail."""
    (case,) = [c for c in EXTRA_CASES if c["name"] == "TestNonParallelJob"]
    steps = json.loads(json.dumps(case["steps"]))
    final = [s for s in steps if s["do"] == "expect" and "status" in s][-1]
    final["status"]["failed"] = 2
    assert run_case("job-scenario", {**case, "steps": steps}, ModelEngine()) != ()


def test_the_extra_file_is_what_its_generator_writes() -> None:
    """job_scenario_extra.json is written by gen/job_scenario_extra.py (one helper per upstream test
    helper); test_extra_vectors runs it through the model."""
    assert render() == EXTRA.read_text(), "run .venv/bin/python -m tests.conformance.gen.job_scenario_extra"
