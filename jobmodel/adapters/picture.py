"""A simulation timeline as a picture: each pod a bar over time, coloured by phase (hatched while
terminating), and the Job's conditions marked where they turn True. Written with matplotlib
to SVG or PNG (by the file's suffix)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import attrs

from jobmodel.errors import InputError
from jobmodel.simulation.job import Timeline

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


def pod_segments(timeline: Timeline) -> list[Segment]:
    """Cut each pod's life into segments of constant phase and terminating state."""
    offsets = [(e.time - timeline.start).total_seconds() for e in timeline.entries]
    end_of_time = max(offsets[-1], 1.0) * 1.05 if offsets else 1.0
    open_segments: dict[str, Segment] = {}
    done: list[Segment] = []
    for offset, entry in zip(offsets, timeline.entries, strict=True):
        seen = set()
        for pod in entry.state.cluster.pods:
            seen.add(pod.name)
            phase = pod.phase or "Pending"
            terminating = pod.metadata.deletion_timestamp is not None
            current = open_segments.get(pod.name)
            if current is not None and (current.phase, current.terminating) == (phase, terminating):
                continue
            if current is not None:
                done.append(attrs.evolve(current, end=offset))
            open_segments[pod.name] = Segment(pod.name, offset, offset, phase, terminating)
        for name in [n for n in open_segments if n not in seen]:
            done.append(attrs.evolve(open_segments.pop(name), end=offset))
    done.extend(attrs.evolve(s, end=end_of_time) for s in open_segments.values())
    return [s for s in done if s.end > s.start or s.end == end_of_time]


def condition_marks(timeline: Timeline) -> list[tuple[float, str]]:
    """(seconds, condition type) where a Job condition first turns True."""
    marks: list[tuple[float, str]] = []
    seen: set[str] = set()
    for entry in timeline.entries:
        job = entry.state.job()
        if job is None:
            continue
        for cond in job.status.conditions:
            if cond.status == "True" and cond.type not in seen:
                seen.add(cond.type)
                marks.append(((entry.time - timeline.start).total_seconds(), cond.type))
    return marks


def draw_timeline(timeline: Timeline, path: Path) -> None:
    """Draw the timeline to `path` (.svg or .png)."""
    if path.suffix.lower() not in (".svg", ".png"):
        raise InputError("--picture", "the picture is written as .svg or .png")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    segments = pod_segments(timeline)
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
    for offset, ctype in condition_marks(timeline):
        by_time.setdefault(offset, []).append(ctype)
    for offset, ctypes in by_time.items():
        colour = CONDITION_COLOURS.get(ctypes[-1], "black")
        ax.axvline(offset, color=colour, linestyle="--", linewidth=1)
        ax.text(offset, -0.7, " + ".join(ctypes), fontsize=7, color=colour, ha="right")
    ax.set_yticks(range(len(names)), names, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("seconds since the Job was created")
    job = timeline.final_job()
    ax.set_title(f"Job {job.name if job else ''}: pods over time", fontsize=10)
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
