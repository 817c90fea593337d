"""`jobmodel simulate MANIFEST`: run a Job through the model in the simulated cluster and print the timeline."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any, TextIO

from jobmodel.adapters.manifests import load_documents, read_manifest, source_name
from jobmodel.adapters.picture import PICTURE_SUFFIXES
from jobmodel.api.actions_json import action_to_json
from jobmodel.api.wire import job_status_to_json
from jobmodel.commands.common import (
    FINDING,
    OK,
    add_object_options,
    add_tunable_option,
    check_output_path,
    gates_of,
    load_object,
    tunables_of,
)
from jobmodel.commands.output import add_output_option, print_json
from jobmodel.errors import InputError
from jobmodel.features import FeatureGates
from jobmodel.invariants.upstream_bugs import known_upstream_bug
from jobmodel.simulation.job import (
    DEFAULT_RUN_SECONDS,
    DEFAULT_UID,
    MAX_POD_SECONDS,
    Timeline,
    condition_marks,
    failure_counted,
    parse_failure,
    parse_slow,
    pod_index,
    pod_segments,
    simulate_default,
    simulate_script,
)
from jobmodel.state import Job, Pod
from jobmodel.timeutil import format_time, parse_clock
from jobmodel.transitions.sync_job import JobSyncResult


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
            "or all; optionally ,exit=CODE (default 1) of ,container=NAME (default: the first container; an init "
            "container fails the pod before its containers start), ,condition=TYPE (e.g. DisruptionTarget), "
            ",times=K (at most K pods). With restartPolicy OnFailure an exit code restarts the container in "
            "its pod (each restart one of the K; a condition still fails the pod). Repeatable; the first matching spec wins"
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
    parser.add_argument("--run-seconds", type=float, default=None, help="how long each pod runs (default 30)")
    parser.add_argument("--start", default=None, help="the clock at creation, RFC 3339 (default 2025-01-01T00:00:00Z)")
    add_tunable_option(parser)
    add_object_options(parser)
    add_output_option(parser, ("table", "json"), "table")
    parser.add_argument("--picture", type=Path, help="also draw the timeline to this file (.svg or .png)")
    parser.set_defaults(func=run)



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
    gates = gates_of(args)
    now = parse_clock(args.start, "--start") if args.start else None
    admitted = load_object(
        args.manifest, ("Job",), args.namespace, gates, uid=DEFAULT_UID, field_validation=args.field_validation
    )
    manifest = admitted.request
    tunables = tunables_of(args.tunable)
    if args.script is not None:
        given = [name for name, value in (("--fail", args.fail), ("--slow", args.slow), ("--run-seconds", args.run_seconds)) if value not in (None, [])]
        if given:
            # A script says what each pod does: these options of the default script would be ignored.
            raise InputError(given[0], "belongs to the default script: with --script, the script's steps say what pods do")
        steps = load_script(str(args.script))
        try:
            timeline = simulate_script(manifest, steps, now=now, gates=gates, tunables=tunables)
        except InputError as err:
            raise InputError(str(args.script), str(err)) from None
    else:
        run_seconds = DEFAULT_RUN_SECONDS if args.run_seconds is None else args.run_seconds
        if not math.isfinite(run_seconds) or not 0 <= run_seconds <= MAX_POD_SECONDS:
            raise InputError("--run-seconds", f"expected 0 to {MAX_POD_SECONDS} seconds, got {run_seconds:g}")
        outcomes = [parse_failure(f) for f in args.fail] + [parse_slow(s) for s in args.slow]
        timeline = simulate_default(manifest, outcomes, run_seconds=run_seconds, now=now, gates=gates, tunables=tunables)
    if args.picture is not None:
        from jobmodel.adapters.picture import draw_pods_over_time

        job = timeline.final_job()
        title = f"Job {job.name if job else ''}: pods over time"
        draw_pods_over_time(pod_segments(timeline), condition_marks(timeline), title, args.picture)
    if args.output == "json":
        print_json("SimulationTimeline", timeline_json(timeline))
    else:
        print_table(timeline, sys.stdout)
        if args.picture is not None:
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
    for note in timeline.notes:
        print(f"note: {note}", file=out)
    for diff in timeline.differences:
        print(f"EXPECTATION FAILED: {diff}", file=out)


def timeline_json(timeline: Timeline) -> dict[str, Any]:
    """The timeline for programs (docs/output.md): every step with the controller's actions as
    objects, the Job's status and the pods after it."""
    entries = []
    for i, entry in enumerate(timeline.entries):
        job = entry.state.job()
        gates = entry.state.cluster.features
        entries.append(
            {
                "step": i,
                "offsetSeconds": (entry.time - timeline.start).total_seconds(),
                "time": format_time(entry.time),
                "actor": entry.actor,
                "what": entry.what,
                "syncs": [sync_json(sync) for sync in entry.syncs],
                "status": job_status_to_json(job.status) if job is not None else None,
                "pods": [pod_json(job, pod, gates) for pod in entry.state.cluster.pods],
            }
        )
    final = timeline.final_job()
    finished = [c for c in final.status.conditions if c.type in ("Complete", "Failed") and c.status == "True"] if final else []
    return {
        "job": final.name if final is not None else None,
        "start": format_time(timeline.start),
        "result": {"type": finished[0].type, "reason": finished[0].reason} if finished else None,
        "entries": entries,
        "notes": list(timeline.notes),
        "differences": list(timeline.differences),
    }


def sync_json(sync: JobSyncResult) -> dict[str, Any]:
    bug = known_upstream_bug(sync.error) if sync.error else None
    return {
        "actions": [action_to_json(a) for a in sync.actions],
        "error": sync.error,
        "knownUpstreamBug": {"issue": bug.issue, "fix": bug.fix, "what": bug.what} if bug else None,
        "requeueAfterSeconds": sync.requeue_after_seconds,
    }


def pod_json(job: Job | None, pod: Pod, gates: FeatureGates) -> dict[str, Any]:
    return {
        "name": pod.name,
        "index": pod_index(pod),
        "phase": pod.phase or "Pending",
        "terminating": pod.metadata.deletion_timestamp is not None,
        "failureCounted": failure_counted(job, pod, gates) if pod.phase == "Failed" else None,
    }
