"""`jobmodel replay TRACE`: replay a saved counterexample of a Job or a CronJob (from `jobmodel
explore --save`), checking every invariant again, and print it as a step table."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import attrs

from jobmodel.checkers.trace import format_table, load_trace, run_moves
from jobmodel.features import parse_kube_version


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay a saved counterexample trace, checking every invariant",
        description="Replay a trace saved by `jobmodel explore --save`, checking every invariant after each move.",
    )
    parser.add_argument("trace", type=Path, help="the trace (JSON)")
    parser.add_argument("--impl", default=None, help="check this sync step instead of the trace's, package.module:function")
    parser.add_argument(
        "--kube-version", default=None, metavar="X.Y", help="replay at this release instead of the trace's own (its kubeVersion)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    config, moves = load_trace(args.trace)
    if args.impl is not None:
        config = attrs.evolve(config, impl=args.impl)
    if args.kube_version is not None:
        config = attrs.evolve(config, kube_version=f"1.{parse_kube_version(args.kube_version)}")
    system = config.system()
    records = run_moves(system, moves)
    print(format_table(system, records))
    broken = [v for r in records for v in r.violations]
    if broken:
        print(f"violation reproduced: {broken[0]}")
        return 1
    print("no violation")
    return 0
