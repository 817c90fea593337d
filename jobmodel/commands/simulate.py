"""`jobmodel simulate MANIFEST`: run a Job through the model in the simulated cluster and print the timeline."""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any, TextIO

from jobmodel.adapters.manifests import load_documents, read_manifest, source_name
from jobmodel.api.wire import job_status_to_json
from jobmodel.commands.common import (
    FINDING,
    OK,
    add_object_options,
    check_output_path,
    gate_overrides,
    gates_of,
    load_object,
)
from jobmodel.errors import InputError
from jobmodel.simulation.job import (
    DEFAULT_UID,
    Timeline,
    condition_marks,
    parse_failure,
    parse_slow,
    pod_segments,
    simulate_default,
    simulate_script,
)
from jobmodel.timeutil import parse_clock


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="run a Job manifest through the model in a simulated cluster",
        description=(
            "Run a Job manifest (validated and defaulted as the API server does) through the Job "
            "controller model in a simulated cluster and print the step-by-step timeline. Without "
            "--script, every pod starts and then succeeds, except the failures given with --fail."
        ),
    )
    parser.add_argument("manifest", help="a Job manifest (YAML or JSON; - for standard input)")
    parser.add_argument(
        "--fail",
        action="append",
        default=[],
        metavar="SPEC",
        help=(
            "inject pod failures: index=N (pods of that index), pod=N (the N-th pod created, once), "
            "or all; optionally ,exit=CODE (default 1), ,condition=TYPE (e.g. DisruptionTarget), "
            ",times=K (at most K pods). Repeatable; the first matching spec wins"
        ),
    )
    parser.add_argument(
        "--slow",
        action="append",
        default=[],
        metavar="SPEC",
        help="pods that succeed after their own run time: index=N or pod=N or all, with ,seconds=S",
    )
    parser.add_argument("--script", type=Path, help="a YAML list of scenario steps to run instead of the default script")
    parser.add_argument("--run-seconds", type=float, default=30.0, help="how long each pod runs (default 30)")
    parser.add_argument("--start", default=None, help="the clock at creation, RFC 3339 (default 2025-01-01T00:00:00Z)")
    add_object_options(parser)
    parser.add_argument("-o", "--output", choices=["table", "json"], default="table")
    parser.add_argument("--picture", type=Path, help="also draw the timeline to this file (.svg or .png)")
    parser.set_defaults(func=run)


PICTURE_SUFFIXES = (".svg", ".png")


def load_script(name: str) -> list[Any]:
    """The steps of a script file: a YAML list, or an object whose `steps` is one."""
    steps = load_documents(source_name(name), read_manifest(name, sys.stdin))
    if len(steps) == 1 and isinstance(steps[0], dict) and "steps" in steps[0]:
        steps = steps[0]["steps"]
    if not isinstance(steps, list):
        raise InputError(f"{source_name(name)}: steps", "expected a list of steps")
    return steps


def run(args: argparse.Namespace) -> int:
    check_output_path(args.picture, "--picture", PICTURE_SUFFIXES)
    features = gate_overrides(args)
    now = parse_clock(args.start, "--start") if args.start else None
    admitted = load_object(args.manifest, ("Job",), args.namespace, gates_of(args), uid=DEFAULT_UID)
    manifest = admitted.request
    if args.script is not None:
        steps = load_script(str(args.script))
        try:
            timeline = simulate_script(manifest, steps, now=now, features=features)
        except InputError as err:
            raise InputError(str(args.script), str(err)) from None
    else:
        if not math.isfinite(args.run_seconds) or args.run_seconds < 0:
            raise InputError("--run-seconds", f"expected a finite number of seconds, not negative, got {args.run_seconds}")
        outcomes = [parse_failure(f) for f in args.fail] + [parse_slow(s) for s in args.slow]
        timeline = simulate_default(manifest, outcomes, run_seconds=args.run_seconds, now=now, features=features)
    if args.output == "json":
        print(json.dumps(timeline_json(timeline), indent=2))
    else:
        print_table(timeline, sys.stdout)
    if args.picture is not None:
        from jobmodel.adapters.picture import draw_pods_over_time

        job = timeline.final_job()
        title = f"Job {job.name if job else ''}: pods over time"
        draw_pods_over_time(pod_segments(timeline), condition_marks(timeline), title, args.picture)
        print(f"picture written to {args.picture}")
    return FINDING if timeline.differences else OK


def _offset(timeline: Timeline, index: int) -> str:
    seconds = (timeline.entries[index].time - timeline.start).total_seconds()
    return f"+{seconds:g}s"


def _summary(entry_state: Any) -> tuple[str, str]:
    job = entry_state.job()
    if job is None:
        return "(Job gone)", ""
    s = job.status
    counts = f"{s.active:>3} {s.ready if s.ready is not None else '-':>3} {s.succeeded:>3} {s.failed:>3} {s.terminating if s.terminating is not None else '-':>3}"
    conditions = ",".join(f"{c.type}" + (f"({c.reason})" if c.reason else "") for c in s.conditions if c.status == "True")
    return counts, conditions


def print_table(timeline: Timeline, out: TextIO) -> None:
    """The timeline as a table: time, actor, what happened, and the Job's status after it."""
    print(f"{'TIME':>8}  {'ACTOR':<10} {'ACT':>3} {'RDY':>3} {'SUC':>3} {'FAI':>3} {'TRM':>3}  WHAT / CONDITIONS", file=out)
    for i, entry in enumerate(timeline.entries):
        counts, conditions = _summary(entry.state)
        print(f"{_offset(timeline, i):>8}  {entry.actor:<10} {counts}  {entry.what}", file=out)
        if conditions and (i == 0 or _summary(timeline.entries[i - 1].state)[1] != conditions):
            print(f"{'':>8}  {'':<10} {'':>19}  conditions: {conditions}", file=out)
    job = timeline.final_job()
    if job is None:
        print("The Job is gone.", file=out)
    else:
        finished = [c for c in job.status.conditions if c.type in ("Complete", "Failed") and c.status == "True"]
        verdict = f"{finished[0].type} ({finished[0].reason})" if finished else "not finished"
        print(
            f"Job {job.name}: {verdict} at {_offset(timeline, len(timeline.entries) - 1)}; "
            f"succeeded {job.status.succeeded}, failed {job.status.failed}",
            file=out,
        )
    for diff in timeline.differences:
        print(f"EXPECTATION FAILED: {diff}", file=out)


def timeline_json(timeline: Timeline) -> dict[str, Any]:
    entries = []
    for i, entry in enumerate(timeline.entries):
        job = entry.state.job()
        entries.append(
            {
                "offsetSeconds": (entry.time - timeline.start).total_seconds(),
                "actor": entry.actor,
                "what": entry.what,
                "status": job_status_to_json(job.status) if job is not None else None,
                "pods": {p.name: p.phase for p in entry.state.cluster.pods},
                "step": i,
            }
        )
    return {"entries": entries, "differences": list(timeline.differences)}
