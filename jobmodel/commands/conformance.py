"""`jobmodel conformance FILE...`: run conformance vectors and end with `N passed, M failed`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from jobmodel.commands.common import FINDING, INPUT_ERROR, INTERNAL_ERROR, OK
from jobmodel.conformance.engines import Engine, ModelEngine
from jobmodel.conformance.runner import CaseResult, run_files
from jobmodel.errors import printable


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "conformance",
        help="run conformance vector files through the model",
        description="Run conformance vectors (format jobmodel-conformance/1) and print N passed, M failed.",
    )
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE")
    parser.add_argument(
        "--engine",
        choices=["model", "upstream", "live"],
        default="model",
        help=(
            "run the vectors through the model (default), through upstream's own code, or (job-scenario) "
            "through a real control plane"
        ),
    )
    parser.add_argument(
        "--kubeconfig",
        type=Path,
        default=None,
        help="--engine live: use this cluster as it is (default: start the local control plane for the run)",
    )
    parser.add_argument(
        "--trace-dir", type=Path, default=None, help="--engine live: where each case's recorded trace goes (default: a new temporary directory)"
    )
    parser.set_defaults(func=run)


def make_engine(name: str, args: argparse.Namespace | None = None) -> Engine:
    import importlib

    # Imported only when asked for: they build and run Go programs.
    if name == "upstream":
        engine: Engine = importlib.import_module("jobmodel.adapters.upstream").UpstreamEngine()
        return engine
    if name == "live":
        live = importlib.import_module("jobmodel.conformance.live")
        kubeconfig = getattr(args, "kubeconfig", None)
        engine = live.LiveEngine(kubeconfig=kubeconfig, trace_dir=getattr(args, "trace_dir", None))
        return engine
    return ModelEngine()


def run(args: argparse.Namespace) -> int:
    """Every file and case is run; the exit code is 3 when the tool failed on a case, else 2 when a
    file could not be read, else 1 when a vector failed."""
    engine = make_engine(args.engine, args)
    unsupported: list[CaseResult] = []
    bad_files: list[str] = []
    internal: list[CaseResult] = []
    try:
        passed, failed = run_files(args.files, sys.stdout, engine, unsupported, bad_files, internal)
    finally:
        close = getattr(engine, "close", None)
        if close is not None:
            close()
    if unsupported:
        print(f"{len(unsupported)} unsupported by the {args.engine} engine (not run; reasons above)")
    print(f"{passed} passed, {failed} failed")
    for message in bad_files:
        print(printable(f"error: {message}"), file=sys.stderr)
    for case in internal:
        detail = case.differences[0].removeprefix("internal error: ")
        print(printable(f"internal error: {case.file}: {case.name}: {detail}"), file=sys.stderr)
    if internal:
        return INTERNAL_ERROR
    if bad_files:
        return INPUT_ERROR
    return OK if failed == 0 else FINDING
