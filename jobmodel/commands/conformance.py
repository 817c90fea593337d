"""`jobmodel conformance [FILE...]`: run conformance vectors (the bundled suite when no file is
given) and end with `N passed, M failed`; `-o json` and `--junit FILE` for programs."""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path
from typing import Any

from jobmodel.adapters.files import write_atomically
from jobmodel.commands.common import FINDING, INPUT_ERROR, INTERNAL_ERROR, OK, check_output_path
from jobmodel.commands.output import add_output_option, print_json, wants_json
from jobmodel.commands.progress import progress
from jobmodel.commands.release import control_plane_release, given_cluster_release
from jobmodel.conformance.bundled import VECTORS_DIR, bundled_vector_files
from jobmodel.conformance.engines import Engine, ModelEngine, PerReleaseEngine
from jobmodel.conformance.report import junit_xml, report_json
from jobmodel.conformance.runner import CaseResult, case_releases, count_cases, run_files
from jobmodel.errors import InputError, printable
from jobmodel.features import parse_kube_version


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "conformance",
        help="run conformance vector files through the model",
        description=(
            "Run conformance vectors (format jobmodel-conformance/1) and print N passed, M failed. Without FILE, "
            "the suite that ships with jobmodel (docs/conformance.md)."
        ),
    )
    parser.add_argument("files", nargs="*", type=Path, metavar="FILE", help="vector files (default: the bundled suite)")
    parser.add_argument(
        "--engine",
        type=engine_choice,
        default="model",
        metavar="model|upstream|live|'cmd:PROGRAM ARGS'",
        help=(
            "run the vectors through the model (default), through upstream's own code, (job-scenario) "
            "through a real control plane, or through any program speaking the oracle protocol "
            "(docs/oracle-protocol.md)"
        ),
    )
    parser.add_argument(
        "--kube-version",
        default=None,
        metavar="X.Y",
        help=(
            "run every case at this release (1.32 ... 1.37); by default each case runs at its own release: its "
            "kubeVersion, else its file's, else 1.32 (the shared vectors' line). --engine upstream runs each "
            "release's own upstream code, --engine live each case on control planes of its release"
        ),
    )
    parser.add_argument(
        "--timeout", type=float, default=60.0, metavar="SECONDS",
        help="cmd: and upstream engines: the longest wait for one answer (default 60)",
    )
    parser.add_argument(
        "--kubeconfig",
        type=Path,
        default=None,
        help=(
            "--engine live: use this cluster as it is, at the release it reports unless --kube-version says "
            "otherwise (default: start local control planes for the run)"
        ),
    )
    parser.add_argument(
        "--trace-dir", type=Path, default=None, help="--engine live: where each case's recorded trace goes (default: a new temporary directory)"
    )
    parser.add_argument("--junit", type=Path, default=None, metavar="FILE", help="also write a JUnit XML report here")
    add_output_option(parser)
    parser.set_defaults(func=run)


def engine_choice(value: str) -> str:
    """An --engine value: a named engine or `cmd:PROGRAM ARGS`."""
    if value in ENGINES or value.startswith("cmd:"):
        return value
    raise argparse.ArgumentTypeError(f"expected one of {', '.join(ENGINES)} or cmd:PROGRAM [ARGS...], got {value!r}")


ENGINES = ("model", "upstream", "live")


# `--timeout`: the longest wait for one answer, at most a day.
MAX_TIMEOUT = 86_400.0


def check_timeout(seconds: float, option: str = "--timeout") -> None:
    """A wait in seconds an engine can be given: finite, positive, at most MAX_TIMEOUT."""
    if not 0 < seconds <= MAX_TIMEOUT:  # also refuses NaN
        raise InputError(option, f"expected seconds above 0, at most {MAX_TIMEOUT:g}, got {seconds}")


def make_engine(name: str, args: argparse.Namespace | None = None) -> Engine:
    import importlib

    timeout = getattr(args, "timeout", None) or 60.0
    # Imported only when asked for: they build and run other programs.
    if name.startswith("cmd:"):
        oracle = importlib.import_module("jobmodel.adapters.oracle")
        engine: Engine = oracle.ProtocolEngine(oracle.parse_cmd(name), timeout=timeout)
        return engine
    if name == "upstream":
        upstream = importlib.import_module("jobmodel.adapters.upstream")

        def release_engine(release: str) -> Engine:
            with progress(f"building upstream's code of Kubernetes {release} as a library (cached after the first build)") as task:
                binary = upstream.build_harness(release, on_line=task.log)
            harness: Engine = upstream.UpstreamEngine(binary, timeout=timeout)
            return harness

        engine = PerReleaseEngine("upstream", release_engine)
        return engine
    if name == "live":
        live = importlib.import_module("jobmodel.conformance.live")
        kubeconfig = getattr(args, "kubeconfig", None)
        trace_dir = getattr(args, "trace_dir", None)
        if kubeconfig is None and getattr(args, "kube_version", None) is None:
            # Each case on local control planes of its own release.
            engine = live.PerReleaseLiveEngine(trace_dir)
            return engine
        # --kube-version runs every case at that release, on a control plane of it; a cluster
        # given is compared with the release it reports unless --kube-version says otherwise.
        release = control_plane_release(args) if kubeconfig is None else given_cluster_release(kubeconfig, getattr(args, "kube_version", None))
        engine = live.LiveEngine(kubeconfig=kubeconfig, trace_dir=trace_dir, release=release)
        return engine
    return ModelEngine()


def vector_files(files: list[Path]) -> list[Path]:
    """The files given, or the bundled suite."""
    if files:
        return files
    bundled = bundled_vector_files()
    if not bundled:
        raise InputError("FILE", f"no files given and no bundled vectors in {VECTORS_DIR}")
    return bundled


def run(args: argparse.Namespace) -> int:
    """Every file and case is run; the exit code is 3 when the tool failed on a case, else 2 when a
    file could not be read, else 1 when a vector failed."""
    files = vector_files(args.files)
    check_timeout(args.timeout)
    check_output_path(args.junit, "--junit")
    # Checked before the run: a bad option must not overwrite an earlier --junit report.
    release = None if args.kube_version is None else f"1.{parse_kube_version(args.kube_version)}"
    for option, value in (("--kubeconfig", args.kubeconfig), ("--trace-dir", args.trace_dir)):
        if value is not None and args.engine != "live":
            raise InputError(option, f"belongs to --engine live (the {args.engine} engine would ignore it)")
    engine = make_engine(args.engine, args)
    unsupported: list[CaseResult] = []
    results: list[CaseResult] = []
    as_json = wants_json(args)
    out = io.StringIO() if as_json else sys.stdout
    try:
        if isinstance(engine, PerReleaseEngine):
            # Built before the run's own progress display (one display at a time).
            for needed in case_releases(files, release):
                engine.engine(needed)
        with progress(f"conformance ({args.engine} engine)", count_cases(files)) as task:

            def record(result: CaseResult) -> None:
                results.append(result)
                task.advance()
                task.update(note=Path(result.file).name)

            passed, failed = run_files(files, out, engine, unsupported, release, on_result=record)
    finally:
        close = getattr(engine, "close", None)
        if close is not None:
            close()
        # Written even when the run stops half-way (an engine that disconnects, ^C): the
        # verdicts so far are kept.
        if args.junit is not None:
            write_atomically(args.junit, junit_xml(args.engine, results), "--junit")
    bad_files = [r for r in results if r.unreadable]
    internal = [r for r in results if r.internal]
    code = INTERNAL_ERROR if internal else INPUT_ERROR if bad_files else OK if failed == 0 else FINDING
    if as_json:
        print_json("ConformanceReport", report_json(args.engine, results))
    else:
        if unsupported:
            print(f"{len(unsupported)} unsupported by the {engine.name} engine (not run; reasons above)")
        print(f"{passed} passed, {failed} failed")
    # Also with -o json: an input error is said on standard error (docs/output.md).
    for case in bad_files:
        print(printable(f"error: {case.differences[0]}"), file=sys.stderr)
    for case in internal:
        detail = case.differences[0].removeprefix("internal error: ")
        print(printable(f"internal error: {case.file}: {case.name}: {detail}"), file=sys.stderr)
    return code
