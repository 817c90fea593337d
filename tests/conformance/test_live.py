"""jobmodel/conformance/live.py without a control plane: which release's planes a case runs on,
and what the live engine refuses before starting any (the runs themselves:
tests/commands/test_live_cluster.py, tests/conformance/test_job_scenario_live.py)."""

from __future__ import annotations

import pytest

from jobmodel.adapters.controlplane import CONTROL_PLANE_RELEASES
from jobmodel.conformance.engines import Unsupported
from jobmodel.conformance.live import PerReleaseLiveEngine, plane_release_of


@pytest.mark.parametrize("release", CONTROL_PLANE_RELEASES)
def test_a_case_runs_on_planes_of_its_own_release(release: str) -> None:
    assert plane_release_of({"kubeVersion": release}) == release


@pytest.mark.parametrize("version", [None, "", "1.31", "2.0", "one"])
def test_a_case_of_no_built_release_goes_to_the_vectors_line_which_reports_it(version: str | None) -> None:
    assert plane_release_of({} if version is None else {"kubeVersion": version}) == "1.32"


def test_the_single_step_suites_are_refused_without_starting_a_plane() -> None:
    engine = PerReleaseLiveEngine()
    cases = [{"name": "a", "kubeVersion": "1.32"}, {"name": "b", "kubeVersion": "1.37"}]
    engine.prepare("validation", cases)
    for case in cases:
        with pytest.raises(Unsupported, match="--engine upstream runs"):
            engine.outcome("validation", case)
    assert all(e.plane is None and not e.more_planes for e in engine._engines.values())
    assert sorted(engine._engines) == ["1.32", "1.37"]
    engine.close()
