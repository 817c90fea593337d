"""A Job's pods over time as a picture: each pod a bar, coloured by phase (hatched while
terminating, a failure a podFailurePolicy ignored apart from a counted one, an end mark where
the pod was deleted), labelled with its completion index on Indexed Jobs, and the Job's
conditions marked where they turn True. Written with matplotlib to SVG (text kept as text, so
it can be searched) or PNG, by the file's suffix; the segments and marks come from a
simulation's timeline (`jobmodel.simulation.job.pod_segments`, `condition_marks`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from jobmodel.adapters.files import atomic_target
from jobmodel.errors import InputError

IGNORED_FAILURE = "Failed, not counted"  # a failure a podFailurePolicy rule ignores
PHASE_COLOURS = {
    "Pending": "#f2c14e",
    "Running": "#4f9de0",
    "Succeeded": "#5cb85c",
    "Failed": "#d9534f",
    IGNORED_FAILURE: "#f4b6b4",
    "Unknown": "#999999",
}
PICTURE_SUFFIXES = (".svg", ".png")
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
    index: int | None = None  # the completion index of an Indexed Job's pod
    deleted: bool = False  # the pod is gone at `end`


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


def check_picture_path(path: Path, option: str = "--picture") -> None:
    """Refuse a picture file whose suffix is not .svg or .png (before any long work)."""
    if path.suffix.lower() not in PICTURE_SUFFIXES:
        raise InputError(option, f"the picture is written as .svg or .png, not {path.suffix or 'a file without suffix'!r}")


def draw_panels(panels: Sequence[Panel], path: Path) -> None:
    """Draw several panels one above the other on one time axis to `path` (.svg or .png): e.g.
    the model's prediction above, a real cluster's run below."""
    check_picture_path(path)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    # SVG text as <text> elements, not paths: a reader can search and copy pod names.
    matplotlib.rcParams["svg.fonttype"] = "none"
    heights = [1.6 + 0.35 * max(len(_pod_order(p.segments)), 1) for p in panels]
    fig, axes = plt.subplots(
        len(panels), 1, figsize=(11, sum(heights)), sharex=True, squeeze=False, height_ratios=heights
    )
    for ax, panel in zip(axes[:, 0], panels, strict=True):
        _draw_panel(ax, panel)
    axes[-1, 0].set_xlabel("seconds since the Job was created")
    shown = {s.phase for p in panels for s in p.segments}
    legend: list[Any] = [
        Patch(facecolor=c, edgecolor="black", linewidth=0.3, label=p)
        for p, c in PHASE_COLOURS.items()
        if p != "Unknown" and (p in shown or p in ("Running", "Succeeded", "Failed"))
    ]
    legend.append(Patch(facecolor="white", edgecolor="black", hatch="///", label="terminating"))
    legend.append(Line2D([], [], color="black", marker="x", linestyle="none", label="deleted"))
    axes[0, 0].legend(handles=legend, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    try:
        with atomic_target(path, "--picture") as tmp:
            # bbox_inches="tight": the legend and long labels are never cut off.
            fig.savefig(tmp, format=path.suffix.lower()[1:], bbox_inches="tight")
    finally:
        plt.close(fig)


def _draw_panel(ax: Any, panel: Panel) -> None:
    names = _pod_order(panel.segments)
    rows = {name: i for i, name in enumerate(names)}
    span = max((s.end for s in panel.segments), default=1.0) or 1.0
    for seg in panel.segments:
        ax.barh(
            rows[seg.pod],
            max(seg.end - seg.start, span / 400),
            left=seg.start,
            color=PHASE_COLOURS.get(seg.phase, "#999999"),
            hatch="///" if seg.terminating else None,
            edgecolor="black",
            linewidth=0.3,
        )
        if seg.deleted:
            ax.plot([seg.end], [rows[seg.pod]], marker="x", color="black", markersize=6)
    by_time: dict[float, list[str]] = {}
    for offset, ctype in panel.marks:
        # Conditions a real controller writes a few milliseconds apart share one mark.
        near = next((t for t in by_time if abs(t - offset) < span / 200), offset)
        by_time.setdefault(near, []).append(ctype)
    for offset, ctypes in by_time.items():
        colour = CONDITION_COLOURS.get(ctypes[-1], "black")
        ax.axvline(offset, color=colour, linestyle="--", linewidth=1)
        # Above the bars, right-aligned to the line, and outside the clip box: never cut off.
        ax.annotate(
            " + ".join(ctypes),
            xy=(offset, 1.0),
            xycoords=("data", "axes fraction"),
            xytext=(-2, 2),
            textcoords="offset points",
            fontsize=7,
            color=colour,
            ha="right",
            va="bottom",
            annotation_clip=False,
        )
    ax.set_yticks(range(len(names)), [_row_label(name, panel.segments) for name in names], fontsize=7)
    ax.set_ylim(len(names) - 0.5, -0.5)
    ax.set_xlim(left=0)
    ax.set_title(panel.title, fontsize=10, pad=14)


def _row_label(name: str, segments: Sequence[Segment]) -> str:
    """The pod's name, after its completion index when it has one."""
    index = next((s.index for s in segments if s.pod == name and s.index is not None), None)
    return name if index is None else f"index {index}: {name}"


def _pod_order(segments: Sequence[Segment]) -> list[str]:
    """Pods by when they first appear, then in the order their segments are given."""
    first_seen: dict[str, tuple[float, int]] = {}
    for position, seg in enumerate(segments):
        first_seen.setdefault(seg.pod, (seg.start, position))
    return sorted(first_seen, key=lambda n: first_seen[n])
