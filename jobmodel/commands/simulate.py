"""`jobmodel simulate MANIFEST`: placeholder until the simulated cluster lands."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("simulate", help="run a Job manifest through the model")
    parser.add_argument("manifest")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    raise NotImplementedError
