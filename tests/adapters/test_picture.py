"""The pods-over-time picture (jobmodel/adapters/picture.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobmodel.adapters.picture import Segment, draw_pods_over_time
from jobmodel.errors import InputError

SEGMENTS = [Segment("p-0", 0, 20, "Running", False), Segment("p-0", 20, 21, "Failed", False), Segment("p-1", 21, 40, "Running", True)]
MARKS = [(40.0, "SuccessCriteriaMet"), (40.0, "Complete")]


@pytest.mark.parametrize("suffix", [".svg", ".png"])
def test_picture_is_written(tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"t{suffix}"
    draw_pods_over_time(SEGMENTS, MARKS, "Job p: pods over time", out)
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG") if suffix == ".png" else b"<svg" in data[:2000]


def test_unknown_picture_format_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"svg or \.png"):
        draw_pods_over_time(SEGMENTS, MARKS, "t", tmp_path / "t.gif")
