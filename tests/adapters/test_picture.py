"""The timeline picture (jobmodel/adapters/picture.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from jobmodel.adapters.picture import condition_marks, draw_timeline, pod_segments
from jobmodel.errors import InputError
from jobmodel.simulation.job import parse_failure, simulate_default

PI = yaml.safe_load((Path(__file__).resolve().parents[2] / "specs" / "examples" / "pi.yaml").read_text())


def test_segments_follow_each_pods_phases() -> None:
    timeline = simulate_default(PI, [parse_failure("pod=0")], run_seconds=20)
    segments = pod_segments(timeline)
    first = [s for s in segments if s.pod == "pi-0"]
    # The kubelet starts the pod the moment it is created: its Pending segment has no length.
    assert [s.phase for s in first] == ["Running", "Failed"]
    running = first[0]
    assert running.end - running.start == pytest.approx(20)
    assert {s.pod for s in segments} == {"pi-0", "pi-1"}


def test_condition_marks_are_where_conditions_turn_true() -> None:
    timeline = simulate_default(PI, run_seconds=20)
    assert [c for _, c in condition_marks(timeline)] == ["SuccessCriteriaMet", "Complete"]
    assert all(t == pytest.approx(20) for t, _ in condition_marks(timeline))


@pytest.mark.parametrize("suffix", [".svg", ".png"])
def test_picture_is_written(tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"t{suffix}"
    draw_timeline(simulate_default(PI), out)
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG") if suffix == ".png" else b"<svg" in data[:2000]


def test_unknown_picture_format_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"svg or \.png"):
        draw_timeline(simulate_default(PI), tmp_path / "t.gif")
