"""The pods-over-time picture (jobmodel/adapters/picture.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobmodel.adapters.picture import (
    IGNORED_FAILURE,
    Segment,
    check_picture_path,
    draw_pods_over_time,
)
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


def test_svg_text_is_searchable_and_index_labels_are_drawn(tmp_path: Path) -> None:
    out = tmp_path / "t.svg"
    segments = [Segment("j-0-abcde", 0, 30, "Running", False, index=0), Segment("j-0-abcde", 30, 31, "Succeeded", False, index=0)]
    draw_pods_over_time(segments, MARKS, "Job j: pods over time", out)
    svg = out.read_text()
    assert "index 0: j-0-abcde" in svg  # text, not glyph paths
    assert "SuccessCriteriaMet + Complete" in svg


def test_ignored_failures_and_deletions_are_in_the_legend(tmp_path: Path) -> None:
    out = tmp_path / "t.svg"
    segments = [
        Segment("p-0", 0, 20, "Running", False),
        Segment("p-0", 20, 40, IGNORED_FAILURE, False),
        Segment("p-1", 0, 10, "Running", False, deleted=True),
    ]
    draw_pods_over_time(segments, MARKS, "t", out)
    svg = out.read_text()
    assert IGNORED_FAILURE in svg and "deleted" in svg and "terminating" in svg


def test_picture_suffix_is_checked_on_its_own() -> None:
    with pytest.raises(InputError, match=r"not '\.gif'"):
        check_picture_path(Path("t.gif"))
    check_picture_path(Path("t.SVG"))
