"""The model against the real control plane (kube-apiserver and kube-controller-manager of the
local control plane, of each release JOBMODEL_KUBE_VERSIONS selects, as for the other
differential tests but by default only the releases CI builds planes of: 1.32 and 1.37 unless it
says otherwise) on generated `job-scenario` cases, the model at the plane's release: a Job's life over several settles,
each followed by what the model predicts (jobmodel.strategies.scenario); and on upstream's
integration tests as the job-scenario vectors state them, each changed a little, their
expectations again the model's predictions. Where the single-sync
differential tests compare one `syncJob` with upstream's code, these compare whole runs: the API
server's defaulting, validation and status rules, the controller's queue, informers and
back-off, the orphan-pod work, through the wire.

Each example is a batch of cases run at once on the plane (`LiveScenarioRunner.run_many`, six at
a time, each in its own namespace); JOBMODEL_LIVE_SCENARIOS sets the batch's size (default 6:
about a minute), and the Hypothesis profile the number of batches. A difference fails the test
and writes the case to tests/differential/found/job-scenario-live-divergence.json, a vector
file `jobmodel conformance --engine live` replays (no shrinking: each try is a run on the real
cluster). Every case's trace must also pass `live check`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from jobmodel.adapters.controlplane import CONTROL_PLANE_RELEASES, ControlPlane
from jobmodel.adapters.live import read_trace
from jobmodel.checkers.live_trace import check_trace
from jobmodel.features import VECTOR_DEFAULT_RELEASE
from jobmodel.simulation.live_scenario import LiveScenarioRunner
from jobmodel.simulation.scenario import run_scenario
from jobmodel.strategies.scenario import mutated_scenario_cases, scenario_cases
from tests.conformance import Cases, scenario_vectors
from tests.differential.conftest import differential_releases

pytestmark = pytest.mark.live

HERE = Path(__file__).resolve().parent
LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"
CASES_PER_BATCH = int(os.environ.get("JOBMODEL_LIVE_SCENARIOS", "6"))


def save(cases: list[dict[str, Any]]) -> Path:
    found = HERE / "found"
    found.mkdir(exist_ok=True)
    path = found / "job-scenario-live-divergence.json"
    doc = {"format": "jobmodel-conformance/1", "suite": "job-scenario", "source": "tests/differential/test_live_scenarios.py", "cases": cases}
    path.write_text(json.dumps(doc, indent=1))
    return path


@pytest.fixture(scope="module")
def middle_planes() -> Iterator[dict[str, ControlPlane]]:
    """The module's planes of the selected releases between the oldest and the newest (the
    session's two), each started when first asked for; stopped when the module ends."""
    planes: dict[str, ControlPlane] = {}
    try:
        yield planes
    finally:
        for plane in planes.values():
            plane.remove()


@pytest.fixture(params=[r for r in differential_releases(every=False) if r in CONTROL_PLANE_RELEASES])
def release_plane(request: pytest.FixtureRequest, middle_planes: dict[str, ControlPlane]) -> ControlPlane:
    """A control plane of each release selected (JOBMODEL_KUBE_VERSIONS)."""
    release = str(request.param)
    if release in (VECTOR_DEFAULT_RELEASE, CONTROL_PLANE_RELEASES[-1]):
        plane: ControlPlane = request.getfixturevalue("plane" if release == VECTOR_DEFAULT_RELEASE else "newest_plane")
    else:
        request.getfixturevalue("session_plane")  # without Go: skipped (failed in CI) as the others
        if release not in middle_planes:
            middle_planes[release] = ControlPlane.start(release=release)
        plane = middle_planes[release]
    assert plane.release == release
    return plane


LIVE_SETTINGS = settings(
    max_examples=4 if LONG else 1,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],  # no shrinking: each try is a run on the real cluster
    # A batch is drawn whole and its draw fails when any of its cases is rejected (a step that no
    # longer applies, a Job the API server refuses): with the long profile's four batches, half
    # the seeds tried met 50 rejections first. Rejected draws cost milliseconds beside a run.
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)


def run_and_judge(plane: ControlPlane, cases: list[dict[str, Any]], traces: Path) -> None:
    """The cases (the model's own predictions hold of the model) run at once on the plane: each
    expectation must hold there, and every case's trace must pass `live check`."""
    for case in cases:
        assert run_scenario(case) == [], case
    outcomes = LiveScenarioRunner(plane.kubeconfig, plane, traces).run_many(cases)
    failing = [(case, outcome) for case, outcome in zip(cases, outcomes, strict=True) if outcome]
    if failing:
        path = save([case for case, _ in failing])
        details = "; ".join(f"{case['name']}: {outcome if isinstance(outcome, Exception) else outcome[:3]}" for case, outcome in failing)
        pytest.fail(f"{len(failing)} of {len(cases)} cases differ on the real control plane: {details}; cases saved in {path}")
    for trace in traces.iterdir():
        header, records = read_trace(trace)
        result = check_trace(header, records)
        assert result.ok, (header.get("case"), [d.describe() for d in result.divergences][:2], result.violations[:3])


@LIVE_SETTINGS
@given(data=st.data())
def test_generated_scenarios_run_on_the_real_control_plane_as_the_model_predicts(
    release_plane: ControlPlane, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    plane = release_plane
    batch = st.lists(scenario_cases(release=plane.release), min_size=CASES_PER_BATCH, max_size=CASES_PER_BATCH)
    cases = [dict(case, name=f"generated {i}") for i, case in enumerate(data.draw(batch))]
    run_and_judge(plane, cases, tmp_path_factory.mktemp("live-scenarios"))


@LIVE_SETTINGS
@given(data=st.data())
def test_mutated_scenario_vectors_run_on_the_real_control_plane_as_the_model_predicts(
    release_plane: ControlPlane, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    """Upstream's integration tests as the job-scenario vectors state them, each changed a little
    (`mutated_scenario_cases`), with the model's predictions as their expectations: the vectors
    of the plane's release and, at a later one, those of the vectors' line (1.32) put at it."""
    plane = release_plane
    vectors = scenario_vectors(plane.release)
    if plane.release != VECTOR_DEFAULT_RELEASE:
        vectors = Cases([*vectors, *scenario_vectors(VECTOR_DEFAULT_RELEASE)])
    strategy = mutated_scenario_cases(vectors, plane.release)
    batch = st.lists(strategy, min_size=CASES_PER_BATCH, max_size=CASES_PER_BATCH)
    cases = [dict(case, name=f"{i} {case['name']}") for i, case in enumerate(data.draw(batch))]
    run_and_judge(plane, cases, tmp_path_factory.mktemp("live-mutated-scenarios"))
