"""The `job-scenario` vectors through the simulated cluster (jobmodel/conformance/job_scenario.py): the shared
ones, and the project's own translation of the upstream subtests the shared file withholds
(vectors/job_scenario_extra.json)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from jobmodel.conformance.engines import ModelEngine
from jobmodel.conformance.runner import run_case
from tests.conftest import find_conformance_dir

EXTRA = Path(__file__).parent / "vectors" / "job_scenario_extra.json"


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
    assert len(set(extra_names)) == len(extra_names) == 16
    assert not set(extra_names) & {str(c["name"]) for c in CASES}


@pytest.mark.parametrize("case", EXTRA_CASES, ids=[str(c["name"]) for c in EXTRA_CASES])
def test_extra_job_scenario_vector(case: dict[str, object]) -> None:
    differences = run_case("job-scenario", case, ModelEngine())
    assert differences == (), "\n".join(differences)


def test_an_extra_scenario_fails_when_its_expectation_is_changed() -> None:
    """The runner compares the extra cases' expectations: the non-parallel Job's final counts, one off, fail."""
    (case,) = [c for c in EXTRA_CASES if c["name"] == "TestNonParallelJob"]
    steps = json.loads(json.dumps(case["steps"]))
    final = [s for s in steps if s["do"] == "expect" and "status" in s][-1]
    final["status"]["failed"] = 2
    assert run_case("job-scenario", {**case, "steps": steps}, ModelEngine()) != ()


def test_the_extra_file_is_what_its_generator_writes() -> None:
    """job_scenario_extra.json is written by vectors/job_scenario_extra.py (one helper per upstream test helper)."""
    spec = importlib.util.spec_from_file_location("job_scenario_extra", EXTRA.with_suffix(".py"))
    assert spec is not None and spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    assert generator.render() == EXTRA.read_text(), "run tests/conformance/vectors/job_scenario_extra.py"
