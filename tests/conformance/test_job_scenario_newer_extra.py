"""The generator of tests/conformance/vectors/job_scenario_newer_extra.json (integration tests added
after v1.32.3; tests/conformance/gen/job_scenario_newer_extra.py). test_extra_vectors runs the file
through the model; the local control plane runs v1.32 only, so `test_job_scenario_live` does not
run these cases (live_scenario.unsupported_reason: a case of another release)."""

from __future__ import annotations

import json
from pathlib import Path

from jobmodel.conformance.engines import ModelEngine
from jobmodel.conformance.runner import run_case
from jobmodel.features import RELEASE_PINS
from jobmodel.simulation.live_scenario import unsupported_reason
from tests.conformance.gen.job_scenario_extra import OUT as OLDER
from tests.conformance.gen.job_scenario_newer_extra import OUT, render

CASES = json.loads(OUT.read_text())["cases"]


def test_the_file_is_what_the_generator_writes(conformance_dir: Path) -> None:
    assert render(conformance_dir) == OUT.read_text(), "run .venv/bin/python -m tests.conformance.gen.job_scenario_newer_extra"
    assert len(CASES) == 13 + 22


def test_each_case_is_pinned_to_a_newer_release_and_names_it_in_its_origin() -> None:
    for case in CASES:
        minor = int(case["kubeVersion"].removeprefix("1."))
        assert minor > 32
        assert f" at {RELEASE_PINS[minor]} " in case["origin"]
        assert "the control plane runs 1.32" in str(unsupported_reason(case, release="1.32"))


def test_the_names_are_new(conformance_dir: Path) -> None:
    older = {c["name"] for p in (OLDER, conformance_dir / "job_scenario.json") for c in json.loads(p.read_text())["cases"]}
    names = [c["name"] for c in CASES]
    assert older.isdisjoint(names)
    assert len(set(names)) == len(names)


def test_a_resource_update_the_release_refuses_fails_the_case() -> None:
    # At v1.35 the update needs the Suspended condition: without the settle before it, it is refused.
    (case,) = [c for c in CASES if c["name"] == "TestUpdateJobPodResources: suspended job, feature gate enabled, update resources (1.35)"]
    steps = [s for i, s in enumerate(case["steps"]) if not (i == 0 and s["do"] == "settle")]
    assert len(steps) == len(case["steps"]) - 1
    assert run_case("job-scenario", {**case, "steps": steps}, ModelEngine()) != ()
    assert run_case("job-scenario", case, ModelEngine()) == ()


def test_the_v137_change_matters_there(conformance_dir: Path) -> None:
    # The v1.32.3 translation, only pinned to 1.37 (its gates as 1.37 has them), fails: v1.37
    # counts the pod the Job deletes as terminating, which the older test expects as null.
    name = "TestDelayTerminalPhaseCondition: job backoff limit exceeded; JobManagedBy enabled"
    (older,) = [c for c in json.loads((conformance_dir / "job_scenario.json").read_text())["cases"] if c["name"] == name]
    (newer,) = [c for c in CASES if c["name"] == f"{name} (1.37)"]
    assert run_case("job-scenario", {**older, "kubeVersion": "1.37", "features": newer["features"]}, ModelEngine()) != ()
    assert run_case("job-scenario", newer, ModelEngine()) == ()
