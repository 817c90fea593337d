"""`jobmodel conformance FILE...`: run conformance vectors and end with `N passed, M failed`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from jobmodel.conformance.engines import Engine, ModelEngine
from jobmodel.conformance.runner import run_files


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "conformance",
        help="run conformance vector files through the model",
        description="Run conformance vectors (format jobmodel-conformance/1) and print N passed, M failed.",
    )
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE")
    parser.add_argument(
        "--engine",
        choices=["model", "upstream"],
        default="model",
        help="run the vectors through the model (default) or through upstream's own code",
    )
    parser.set_defaults(func=run)


def make_engine(name: str) -> Engine:
    if name == "upstream":
        import importlib

        # Imported only when asked for: it builds and runs the Go harness.
        engine: Engine = importlib.import_module("jobmodel.adapters.upstream").UpstreamEngine()
        return engine
    return ModelEngine()


def run(args: argparse.Namespace) -> int:
    engine = make_engine(args.engine)
    passed, failed = run_files(args.files, sys.stdout, engine)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1
