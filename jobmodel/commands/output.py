"""`-o json` for every command: one option, one writer (schemas: docs/output.md)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from jobmodel.api.go_json import dumps_keeping_literals

# The version of the JSON documents the commands print; every document carries it as "schema".
SCHEMA = "jobmodel/v1"


def add_output_option(
    parser: argparse.ArgumentParser, choices: Sequence[str] = ("text", "json"), default: str | None = "text"
) -> None:
    """`-o/--output FORMAT`: `text` for people (the default), `json` for programs (docs/output.md)."""
    parser.add_argument(
        "-o",
        "--output",
        choices=list(choices),
        default=default,
        help=f"output format: {', '.join(choices)} (json: docs/output.md gives its schema)",
    )


def wants_json(args: argparse.Namespace) -> bool:
    return getattr(args, "output", None) == "json"


def print_json(kind: str, document: dict[str, Any], out: TextIO | None = None) -> None:
    """One JSON document on standard output: {"schema": ..., "kind": KIND, ...document}."""
    target = out if out is not None else sys.stdout
    # A number a manifest gave as a literal (fieldsV1 keeps `1e400`) is written as given.
    print(dumps_keeping_literals({"schema": SCHEMA, "kind": kind, **document}, indent=2), file=target)
