"""`jobmodel validate MANIFEST...`: create each Job or CronJob as the API server would (defaults,
selector generation, validation) and print the stored object or the validation errors.

Each document of each manifest (YAML or JSON, `-` for stdin) is one object. A valid object prints
`job.batch/NAME valid`, or the stored object with `-o yaml|json`; an invalid one prints the
errors as `kubectl` does (`The Job "pi" is invalid: spec.completions: Invalid value: ...`) on
stderr, naming the file. Every file and object is tried; the exit code is 2 when a manifest
cannot be read or decoded, else 1 when an object is invalid, else 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

import yaml

from jobmodel.adapters.manifests import load_documents, read_manifest, source_name
from jobmodel.api import strategy
from jobmodel.commands.common import FINDING, INPUT_ERROR, OK, Rejected, add_object_options, admit
from jobmodel.errors import InputError, printable
from jobmodel.features import DEFAULT_GATES, FeatureGates, parse_gate_overrides


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "validate",
        help="default and validate Job and CronJob manifests as the API server does on create",
        description="Default, prepare and validate each Job or CronJob in the manifests (YAML or JSON, - for stdin).",
    )
    parser.add_argument("manifests", nargs="+", metavar="MANIFEST")
    parser.add_argument(
        "-o",
        "--output",
        choices=["yaml", "json"],
        help="print each valid object as it would be stored",
    )
    add_object_options(parser)
    parser.add_argument(
        "--uid", help="uid the server assigns (default: derived from namespace and name)"
    )
    parser.set_defaults(func=run)


def parse_gates(text: str) -> FeatureGates:
    """`A=true,B=false` -> gates."""
    return DEFAULT_GATES.with_overrides(parse_gate_overrides(text), "--feature-gates")


def run(args: argparse.Namespace) -> int:
    gates = parse_gates(args.feature_gates)
    return validate_manifests(
        args.manifests,
        args.output,
        args.namespace,
        args.uid,
        gates,
        sys.stdin,
        sys.stdout,
        sys.stderr,
    )


def validate_manifests(
    manifests: list[str],
    output: str | None,
    namespace: str | None,
    uid: str | None,
    gates: FeatureGates,
    stdin: TextIO,
    out: TextIO,
    err: TextIO,
) -> int:
    """Validate every object of every manifest, going on after a bad file or object; the exit
    code: 2 when a manifest could not be read or decoded, else 1 when an object is invalid."""
    invalid = unreadable = False
    for name in manifests:
        shown = source_name(name)
        try:
            docs = load_documents(shown, read_manifest(name, stdin))
        except InputError as error:
            print(printable(f"error: {error}"), file=err)
            unreadable = True
            continue
        for i, doc in enumerate(docs):
            where = shown if len(docs) == 1 else f"{shown} (document {i + 1})"
            try:
                admitted = admit(where, doc, namespace, gates, uid)
            except InputError as error:
                print(printable(f"error: {error}"), file=err)
                unreadable = True
                continue
            except Rejected as rejected:
                print(printable(f"error: {rejected}"), file=err)
                invalid = True
                continue
            stored = admitted.stored
            if output == "json":
                print(json.dumps(stored, indent=2), file=out)
            elif output == "yaml":
                print("---", file=out)
                print(yaml.safe_dump(stored, sort_keys=False), end="", file=out)
            else:
                obj_name = str(stored.get("metadata", {}).get("name", ""))
                print(f"{strategy.RESOURCES[admitted.kind]}/{obj_name} valid", file=out)
    return INPUT_ERROR if unreadable else FINDING if invalid else OK
