"""`jobmodel conformance FILE...`: run conformance vectors and end with `N passed, M failed`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from jobmodel.conformance.engines import Engine, ModelEngine
from jobmodel.conformance.runner import CaseResult, run_files


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "conformance",
        help="run conformance vector files through the model",
        description="Run conformance vectors (format jobmodel-conformance/1) and print N passed, M failed.",
    )
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE")
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
        "--timeout", type=float, default=60.0, metavar="SECONDS",
        help="cmd: and upstream engines: the longest wait for one answer (default 60)",
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


def engine_choice(value: str) -> str:
    """An --engine value: a named engine or `cmd:PROGRAM ARGS`."""
    if value in ENGINES or value.startswith("cmd:"):
        return value
    raise argparse.ArgumentTypeError(f"expected one of {', '.join(ENGINES)} or cmd:PROGRAM [ARGS...], got {value!r}")


ENGINES = ("model", "upstream", "live")


def make_engine(name: str, args: argparse.Namespace | None = None) -> Engine:
    import importlib

    timeout = getattr(args, "timeout", None) or 60.0
    # Imported only when asked for: they build and run other programs.
    if name.startswith("cmd:"):
        oracle = importlib.import_module("jobmodel.adapters.oracle")
        engine: Engine = oracle.ProtocolEngine(oracle.parse_cmd(name), timeout=timeout)
        return engine
    if name == "upstream":
        engine = importlib.import_module("jobmodel.adapters.upstream").UpstreamEngine(timeout=timeout)
        return engine
    if name == "live":
        live = importlib.import_module("jobmodel.conformance.live")
        kubeconfig = getattr(args, "kubeconfig", None)
        engine = live.LiveEngine(kubeconfig=kubeconfig, trace_dir=getattr(args, "trace_dir", None))
        return engine
    return ModelEngine()


def run(args: argparse.Namespace) -> int:
    engine = make_engine(args.engine, args)
    unsupported: list[CaseResult] = []
    try:
        passed, failed = run_files(args.files, sys.stdout, engine, unsupported)
    finally:
        close = getattr(engine, "close", None)
        if close is not None:
            close()
    if unsupported:
        print(f"{len(unsupported)} unsupported by the {engine.name} engine (not run; reasons above)")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1
