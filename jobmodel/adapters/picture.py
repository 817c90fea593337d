"""A Job's pods over time as a picture: each pod a bar, coloured by phase (hatched while
terminating), and the Job's conditions marked where they turn True. Written with matplotlib
to SVG or PNG (by the file's suffix); the segments and marks come from a simulation's timeline
(`jobmodel.simulation.job.pod_segments`, `condition_marks`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from jobmodel.adapters.files import atomic_target
from jobmodel.errors import InputError

PHASE_COLOURS = {
    "Pending": "#f2c14e",
    "Running": "#4f9de0",
    "Succeeded": "#5cb85c",
    "Failed": "#d9534f",
    "Unknown": "#999999",
}
CONDITION_COLOURS = {
    "Complete": "#2e7d32",
    "SuccessCriteriaMet": "#66bb6a",
    "Failed": "#c62828",
    "FailureTarget": "#ef5350",
    "Suspended": "#7e57c2",
}


@attrs.frozen
class Segment:
    """A pod in one phase from `start` to `end` seconds after the Job's creation."""

    pod: str
    start: float
    end: float
    phase: str
    terminating: bool


@attrs.frozen
class Panel:
    """One picture of a Job's pods: their segments, the condition marks (seconds, condition
    type), and a title."""

    segments: tuple[Segment, ...]
    marks: tuple[tuple[float, str], ...]
    title: str


def draw_pods_over_time(segments: Sequence[Segment], marks: Sequence[tuple[float, str]], title: str, path: Path) -> None:
    """Draw the pods' segments and the condition marks (seconds, condition type) to `path` (.svg or .png)."""
    draw_panels([Panel(tuple(segments), tuple(marks), title)], path)


def draw_panels(panels: Sequence[Panel], path: Path) -> None:
    """Draw several panels one above the other on one time axis to `path` (.svg or .png): e.g.
    the model's prediction above, a real cluster's run below."""
    if path.suffix.lower() not in (".svg", ".png"):
        raise InputError("--picture", "the picture is written as .svg or .png")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    heights = [1.2 + 0.35 * max(len(_pod_order(p.segments)), 1) for p in panels]
    fig, axes = plt.subplots(
        len(panels), 1, figsize=(10, sum(heights)), sharex=True, squeeze=False, height_ratios=heights
    )
    for ax, panel in zip(axes[:, 0], panels, strict=True):
        _draw_panel(ax, panel)
    axes[-1, 0].set_xlabel("seconds since the Job was created")
    legend = [Patch(facecolor=c, label=p) for p, c in PHASE_COLOURS.items() if p != "Unknown"]
    legend.append(Patch(facecolor="white", edgecolor="black", hatch="///", label="terminating"))
    axes[0, 0].legend(handles=legend, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    try:
        with atomic_target(path, "--picture") as tmp:
            fig.savefig(tmp, format=path.suffix.lower()[1:])
    finally:
        plt.close(fig)


def _draw_panel(ax: Any, panel: Panel) -> None:
    names = _pod_order(panel.segments)
    rows = {name: i for i, name in enumerate(names)}
    for seg in panel.segments:
        ax.barh(
            rows[seg.pod],
            max(seg.end - seg.start, 0.2),
            left=seg.start,
            color=PHASE_COLOURS.get(seg.phase, "#999999"),
            hatch="///" if seg.terminating else None,
            edgecolor="black",
            linewidth=0.3,
        )
    by_time: dict[float, list[str]] = {}
    for offset, ctype in panel.marks:
        # Conditions a real controller writes a few milliseconds apart share one mark.
        near = next((t for t in by_time if abs(t - offset) < 0.25), offset)
        by_time.setdefault(near, []).append(ctype)
    for offset, ctypes in by_time.items():
        colour = CONDITION_COLOURS.get(ctypes[-1], "black")
        ax.axvline(offset, color=colour, linestyle="--", linewidth=1)
        ax.text(offset, -0.7, " + ".join(ctypes), fontsize=7, color=colour, ha="right")
    ax.set_yticks(range(len(names)), names, fontsize=7)
    ax.invert_yaxis()
    ax.set_title(panel.title, fontsize=10)


def _pod_order(segments: Sequence[Segment]) -> list[str]:
    first_seen: dict[str, float] = {}
    for seg in segments:
        first_seen.setdefault(seg.pod, seg.start)
    return sorted(first_seen, key=lambda n: (first_seen[n], n))
