"""`jobmodel live run MANIFEST` and `jobmodel live check TRACE`: a real cluster beside the model."""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path
from typing import Any, TextIO

import attrs

from jobmodel.adapters.live import EXISTING_TRACE
from jobmodel.adapters.manifests import read_manifest
from jobmodel.adapters.picture import PICTURE_SUFFIXES
from jobmodel.commands.common import (
    FINDING,
    OK,
    Admitted,
    add_validate_option,
    check_output_path,
    load_object,
)
from jobmodel.commands.output import add_output_option, print_json, wants_json
from jobmodel.commands.release import (
    add_control_plane_release_option,
    control_plane_release,
    given_cluster_release,
)
from jobmodel.commands.simulate import load_script
from jobmodel.errors import InputError
from jobmodel.features import gates_for
from jobmodel.simulation.job import check_outcomes_for_manifest, parse_failure, parse_slow

# `--run-seconds`, `--timeout`, `--give-up`: at most a day.
MAX_SECONDS = 86_400.0


def register(subparsers: Any) -> None:
    from jobmodel.adapters.controlplane import CONTROL_PLANE_RELEASE

    parser = subparsers.add_parser(
        "live",
        help="run a Job on a real cluster beside the model; check a recorded trace",
        description="A real cluster (the local control plane by default) driven and recorded, compared with the model.",
    )
    sub = parser.add_subparsers(dest="live_command", required=True, metavar="ACTION")
    run = sub.add_parser(
        "run",
        help="run a Job manifest on a real cluster and print its timeline beside the model's prediction",
        description=(
            "Create the Job on a real cluster (--kubeconfig; else the control plane of `jobmodel cluster up`; else a "
            "local control plane started for this run), play the scheduler and the kubelet (--kubelet simulated, the "
            "default) or leave pods to the cluster's kubelets (--kubelet real), record everything to a trace, and "
            "print the real timeline beside the model's. Exits 1 when the real Job ends otherwise than the model predicts."
        ),
    )
    run.add_argument("manifest", help="a Job manifest (YAML or JSON; - for standard input)")
    run.add_argument("--fail", action="append", default=[], metavar="SPEC", help="pod failures, as for `jobmodel simulate`")
    run.add_argument("--slow", action="append", default=[], metavar="SPEC", help="slow pods, as for `jobmodel simulate`")
    run.add_argument("--script", type=Path, help="a YAML list of scenario steps (the job-scenario vocabulary) to run instead")
    run.add_argument("--kubeconfig", type=Path, default=None, help="the cluster to use (default: the local control plane)")
    run.add_argument("--kubelet", choices=["simulated", "real"], default="simulated", help="who runs the pods (default: simulated)")
    run.add_argument("--run-seconds", type=float, default=3.0, help="how long each pod runs, in real seconds (default 3)")
    run.add_argument("--namespace", default=None, help="the namespace to use (created if missing; default: a new one)")
    run.add_argument("--trace", type=Path, default=None, help="where to write the trace (default: ./<namespace>.trace.jsonl)")
    run.add_argument("--timeout", type=float, default=600.0, help="give up when the Job has not finished after this many seconds")
    run.add_argument("--picture", type=Path, help="draw both timelines into this file (.svg or .png)")
    run.add_argument(
        "--give-up",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="stop with an error when a watch cannot reconnect for this long (default 60)",
    )
    add_validate_option(run)
    add_control_plane_release_option(
        run,
        default=(
            "with --kubeconfig the release the cluster reports, else that of the running `jobmodel cluster up` "
            f"plane, else {CONTROL_PLANE_RELEASE}"
        ),
    )
    add_output_option(run)
    run.set_defaults(func=run_run)

    check = sub.add_parser(
        "check",
        help="check a recorded trace against the model and the invariant catalogue",
        description=(
            "Replay a trace written by `live run` or `conformance --engine live`: every Job status the controller "
            "wrote must be one the model reaches from a state observed before it, and every invariant of the "
            "catalogue must hold on every observed state. Exits 1 on a divergence or a violation."
        ),
    )
    check.add_argument("trace", type=Path, metavar="TRACE")
    add_control_plane_release_option(check)
    add_output_option(check)
    check.set_defaults(func=run_check)


def local_run_release(args: argparse.Namespace) -> str:
    """The release a live run without --kubeconfig follows: --kube-version; else the running
    `jobmodel cluster up` plane's (which the run then uses); else the default."""
    if args.kube_version is None:
        from jobmodel.adapters.controlplane import default_directory, running_plane

        running = running_plane(default_directory())
        if running is not None:
            return running.release
    return control_plane_release(args)


def run_run(args: argparse.Namespace) -> int:
    # A release no plane is built for is refused before anything else; with --kubeconfig and
    # without --kube-version the release is the one the cluster reports, asked last (below).
    first = control_plane_release(args) if args.kubeconfig is not None else local_run_release(args)
    settled = args.kubeconfig is None or args.kube_version is not None
    from jobmodel.simulation.live_run import run_live

    check_output_path(args.picture, "--picture", PICTURE_SUFFIXES)
    check_output_path(args.trace, "--trace")
    if args.trace is not None and args.trace.exists():
        raise InputError("--trace", f"{args.trace} {EXISTING_TRACE}")
    if args.trace is None and args.namespace is not None:
        from jobmodel.simulation.live_run import default_trace_path

        default = default_trace_path(args.namespace)
        if default.exists():  # refused before a control plane starts
            raise InputError("--namespace", f"the run's trace {default} {EXISTING_TRACE}")
    for option, seconds in (("--run-seconds", args.run_seconds), ("--timeout", args.timeout), ("--give-up", args.give_up)):
        if not 0 <= seconds <= MAX_SECONDS:  # also refuses NaN
            raise InputError(option, f"expected seconds from 0 to {MAX_SECONDS:g}, got {seconds}")
    script = None
    if args.script is not None:
        steps = load_script(str(args.script))
        if not all(isinstance(s, dict) for s in steps):
            raise InputError(str(args.script), "a script is a list of steps (objects)")
        script = steps
    outcomes = [parse_failure(f) for f in args.fail] + [parse_slow(s) for s in args.slow]
    # Standard input read once (within the manifest size limit), maybe parsed twice.
    stdin = io.StringIO(read_manifest("-", sys.stdin)) if args.manifest == "-" else None
    # The model's side sees the object the API server stores (the real side is the server).
    # --namespace is where the run happens on the cluster, whatever the manifest names (unlike
    # kubectl's -n), so it does not take part here. Read and checked before a cluster is asked
    # or a control plane started.
    admitted: Admitted | None
    try:
        admitted = load_object(args.manifest, ("Job",), None, gates_for(first), stdin=stdin, field_validation=args.field_validation)
    except InputError:
        if settled:
            raise
        admitted = None  # read again at the cluster's release, which says what is wrong there
    if admitted is not None:
        check_outcomes_for_manifest(admitted.request, outcomes)
    release = first if args.kubeconfig is None else given_cluster_release(args.kubeconfig, args.kube_version)
    if admitted is None or release != first:
        if stdin is not None:
            stdin.seek(0)
        admitted = load_object(args.manifest, ("Job",), None, gates_for(release), stdin=stdin, field_validation=args.field_validation)
        check_outcomes_for_manifest(admitted.request, outcomes)
    manifest = admitted.request
    from jobmodel.simulation.live_scenario import AsWritten

    result = run_live(
        manifest,
        outcomes=outcomes,
        script=script,
        kubeconfig=args.kubeconfig,
        kubelet=args.kubelet,
        run_seconds=args.run_seconds,
        namespace=args.namespace,
        trace=args.trace,
        timeout=args.timeout,
        give_up_seconds=args.give_up,
        release=release,
        as_written=AsWritten(admitted.document, args.field_validation),
    )
    notes = list(result.notes)
    if list(result.warnings) != list(admitted.warnings):
        # Printed above as the model's; the server's differ (an admission webhook's, or a model error).
        notes.append(f"note: the API server's warnings on the create differ from the model's: {list(result.warnings)}")
    if wants_json(args):
        from jobmodel.commands.simulate import timeline_json

        print_json(
            "LiveRun",
            {
                "server": result.server,
                "namespace": result.namespace,
                "trace": str(result.trace),
                "model": timeline_json(result.model),
                "real": timeline_json(result.real),
                "warnings": list(result.warnings),
                "notes": notes,
                "differences": list(result.differences),
            },
        )
    else:
        print_side_by_side(attrs.evolve(result, notes=tuple(notes)), sys.stdout)
    if args.picture is not None:
        from jobmodel.adapters.picture import Panel, draw_panels
        from jobmodel.simulation.job import condition_marks, pod_segments

        panels = [
            Panel(tuple(pod_segments(t)), tuple(condition_marks(t)), f"{label}: Job {manifest['metadata']['name']}: pods over time")
            for label, t in (("model", result.model), ("real cluster", result.real))
        ]
        draw_panels(panels, args.picture)
        if not wants_json(args):
            print(f"picture written to {args.picture}")
    return FINDING if result.differences else OK


def run_check(args: argparse.Namespace) -> int:
    release = control_plane_release(args)
    from jobmodel.adapters.live import read_trace
    from jobmodel.checkers.live_trace import check_trace, invariant_count

    header, records = read_trace(args.trace)
    if args.kube_version is not None:
        recorded = header.get("kubeVersion")
        if recorded is not None and recorded != release:
            raise InputError("--kube-version", f"the trace is of a cluster of Kubernetes {recorded} (its header's kubeVersion)")
        header = {**header, "kubeVersion": release}  # a trace from before the release was recorded
    result = check_trace(header, records)
    fatal = [r for r in records if r.get("kind") == "error" and r.get("fatal")]
    if wants_json(args):
        print_json(
            "TraceCheck",
            {
                "events": result.events,
                "observations": result.observations,
                "statusWrites": result.status_writes,
                "invariants": invariant_count(),
                "outOfScope": result.out_of_scope,
                "divergences": [
                    {"traceLine": d.observation.seq, "resourceVersion": d.observation.rv, "description": d.describe()}
                    for d in result.divergences
                ],
                "violations": [
                    {"traceLine": o.seq, "resourceVersion": o.rv, "invariant": v.invariant, "message": v.message}
                    for o, v in result.violations
                ],
                "recordingError": fatal[0].get("message") if fatal else None,
                "ok": result.ok,
            },
        )
        return OK if result.ok else FINDING
    for divergence in result.divergences:
        print(f"DIVERGENCE: {divergence.describe()}")
    for observation, violation in result.violations:
        print(f"VIOLATION at trace line {observation.seq} (resourceVersion {observation.rv}): {violation}")
    for record in fatal:
        print(f"note: the recording ended with an error: {record.get('message')}")
    print(
        f"{result.events} events, {result.observations} observed states, {result.status_writes} controller status "
        f"writes checked against the model, {invariant_count()} invariants checked"
        + (f" ({result.out_of_scope} states with a gate off left out)" if result.out_of_scope else "")
    )
    print(f"{len(result.divergences)} divergences, {len(result.violations)} violations")
    return OK if result.ok else FINDING


def print_side_by_side(result: Any, out: TextIO) -> None:
    """The Job's status over time, the model's and the real one aligned row by row (rows marked
    `*` are on one side only), then whether the real Job ended as predicted."""
    from jobmodel.simulation.live_run import aligned_rows, final_summary

    width = 44

    def cell(row: Any) -> str:
        if row is None:
            return ""
        offset, (a, r, s, f, t), conditions = row
        return f"{'+' + format(offset, '.1f') + 's':>8} {a:>3} {r:>3} {s:>3} {f:>3} {t:>3}  {conditions}"

    print(f"{'MODEL (simulated cluster)':<{width}} | REAL ({result.server}, namespace {result.namespace})", file=out)
    head = f"{'TIME':>8} {'ACT':>3} {'RDY':>3} {'SUC':>3} {'FAI':>3} {'TRM':>3}  CONDITIONS"
    print(f"{head:<{width}} | {head}", file=out)
    for left, right, agree in aligned_rows(result.model, result.real):
        print(f"{cell(left):<{width}} |{' ' if agree else '*'}{cell(right)}", file=out)
    for note in result.notes:
        print(note, file=out)
    for diff in result.differences:
        print(f"DIFFERENCE: {diff}", file=out)
    if not result.differences:
        print(f"The real Job ends as the model predicts: {final_summary(result.real)}", file=out)
    print(f"trace: {result.trace}", file=out)
