"""A Job's pods over time as a picture: each pod a bar, coloured by phase (hatched while
terminating), and the Job's conditions marked where they turn True. Written with matplotlib
to SVG or PNG (by the file's suffix); the segments and marks come from a simulation's timeline
(`jobmodel.simulation.job.pod_segments`, `condition_marks`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import attrs

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


def draw_pods_over_time(segments: Sequence[Segment], marks: Sequence[tuple[float, str]], title: str, path: Path) -> None:
    """Draw the pods' segments and the condition marks (seconds, condition type) to `path` (.svg or .png)."""
    if path.suffix.lower() not in (".svg", ".png"):
        raise InputError("--picture", "the picture is written as .svg or .png")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    names = _pod_order(segments)
    fig, ax = plt.subplots(figsize=(10, 1.2 + 0.35 * max(len(names), 1)))
    rows = {name: i for i, name in enumerate(names)}
    for seg in segments:
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
    for offset, ctype in marks:
        by_time.setdefault(offset, []).append(ctype)
    for offset, ctypes in by_time.items():
        colour = CONDITION_COLOURS.get(ctypes[-1], "black")
        ax.axvline(offset, color=colour, linestyle="--", linewidth=1)
        ax.text(offset, -0.7, " + ".join(ctypes), fontsize=7, color=colour, ha="right")
    ax.set_yticks(range(len(names)), names, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("seconds since the Job was created")
    ax.set_title(title, fontsize=10)
    legend = [Patch(facecolor=c, label=p) for p, c in PHASE_COLOURS.items() if p != "Unknown"]
    legend.append(Patch(facecolor="white", edgecolor="black", hatch="///", label="terminating"))
    ax.legend(handles=legend, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _pod_order(segments: Sequence[Segment]) -> list[str]:
    first_seen: dict[str, float] = {}
    for seg in segments:
        first_seen.setdefault(seg.pod, seg.start)
    return sorted(first_seen, key=lambda n: (first_seen[n], n))
