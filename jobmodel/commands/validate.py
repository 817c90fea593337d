"""`jobmodel validate MANIFEST...`: create each Job or CronJob as the API server would (defaults,
selector generation, validation) and print the stored object or the validation errors.

Each document of each manifest (YAML or JSON, `-` for stdin) is one object. A valid object prints
`job.batch/NAME valid` (and, once, a note on standard error naming the pod-template checks the
model does not make), or the stored object with `-o yaml`, after the API server's warnings on
standard error as kubectl prints them (`Warning: metadata.name: ...`, jobmodel/api/warnings.py);
an invalid one prints the errors as `kubectl` does (`The Job "pi" is invalid:
spec.completions: Invalid value: ...`) on stderr, naming the file. `-o json` prints one report
of every object (docs/output.md). Every file and object is tried; the exit code is 2 when a
manifest cannot be read or decoded, else 1 when an object is invalid, else 0. An object with
only `metadata.generateName` is named as the API server names it.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Mapping
from typing import Any, TextIO

import yaml

from jobmodel.adapters.manifests import load_documents, read_manifest, source_name
from jobmodel.api import strategy
from jobmodel.api.field import FieldError
from jobmodel.api.go_json import LiteralFloat, LiteralInt
from jobmodel.api.pod_validation import NOT_CHECKED
from jobmodel.api.quantity import DecodedQuantity
from jobmodel.commands.common import (
    FINDING,
    INPUT_ERROR,
    OK,
    Rejected,
    add_object_options,
    admit,
    gates_of,
    print_warnings,
)
from jobmodel.commands.output import add_output_option, print_json
from jobmodel.errors import InputError, printable
from jobmodel.features import FeatureGates


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "validate",
        help="default and validate Job and CronJob manifests as the API server does on create",
        description="Default, prepare and validate each Job or CronJob in the manifests (YAML or JSON, - for stdin).",
    )
    parser.add_argument("manifests", nargs="+", metavar="MANIFEST")
    add_output_option(parser, ("text", "yaml", "json"), "text")
    add_object_options(parser)
    parser.add_argument(
        "--uid", help="uid the server assigns (default: derived from namespace and name)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    gates = gates_of(args)
    return validate_manifests(
        args.manifests,
        args.output,
        args.namespace,
        args.uid,
        gates,
        sys.stdin,
        sys.stdout,
        sys.stderr,
        field_validation=args.field_validation,
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
    field_validation: str = "Strict",
) -> int:
    """Validate every object of every manifest (decoded under `field_validation`), going on after
    a bad file or object; the exit code: 2 when a manifest could not be read or decoded, else 1
    when an object is invalid."""
    invalid = unreadable = False
    report: list[dict[str, Any]] = []
    any_valid = False
    for name in manifests:
        shown = source_name(name)
        try:
            docs = load_documents(shown, read_manifest(name, stdin), gates.release)
            if not docs:  # as kubectl says "no objects passed to create"
                raise InputError(shown, "no object in it: nothing to validate")
        except InputError as error:
            report.append({"source": shown, "document": None, "error": str(error)})
            # Said on stderr with -o json too: an input error (exit 2) always has its line.
            print(printable(f"error: {error}"), file=err)
            unreadable = True
            continue
        for i, doc in enumerate(docs):
            where = shown if len(docs) == 1 else f"{shown} (document {i + 1})"
            try:
                admitted = admit(where, doc, namespace, gates, uid, field_validation)
            except InputError as error:
                report.append({"source": shown, "document": i, "error": str(error)})
                print(printable(f"error: {error}"), file=err)
                unreadable = True
                continue
            except Rejected as rejected:
                report.append(object_report(shown, i, rejected.kind, rejected.name, rejected.stored, rejected.errors))
                if output != "json":
                    print(printable(f"error: {rejected}"), file=err)
                invalid = True
                continue
            stored = admitted.stored
            obj_name = str(stored.get("metadata", {}).get("name", ""))
            report.append(object_report(shown, i, admitted.kind, obj_name, stored, [], list(admitted.warnings)))
            any_valid = True
            if output != "json":
                print_warnings(admitted, err)
            if output == "yaml":
                print("---", file=out)
                print(yaml.dump(stored, Dumper=_Dumper, sort_keys=False), end="", file=out)
            elif output != "json":
                print(f"{strategy.RESOURCES[admitted.kind]}/{obj_name} valid", file=out)
    if output == "json":
        print_json("ValidationReport", {"objects": report, "notChecked": list(NOT_CHECKED)}, out)
    elif any_valid and NOT_CHECKED:  # the note names what the model does not check, if anything
        print(f"note: valid as far as jobmodel checks; not checked in pod templates: {'; '.join(NOT_CHECKED)}", file=err)
    return INPUT_ERROR if unreadable else FINDING if invalid else OK


def object_report(
    source: str,
    document: int,
    kind: str,
    name: str,
    stored: Mapping[str, Any],
    errors: list[FieldError],
    warned: list[str] | None = None,
) -> dict[str, Any]:
    """One object's verdict: the stored object and the API server's warnings when valid, else
    its field errors."""
    return {
        "source": source,
        "document": document,
        "kind": kind,
        "name": name,
        "valid": not errors,
        "object": None if errors else stored,
        "errors": [{"field": e.field, "type": e.type, "message": str(e)} for e in errors],
        "warnings": list(warned or []),
    }


class _Dumper(yaml.SafeDumper):
    """The safe dumper, with the numbers a manifest gave as literals: an integer as itself, a
    float beyond float64 (a free-form field's `1e400`) as the text go-yaml would make of it."""


def _represent_literal_float(dumper: yaml.SafeDumper, value: LiteralFloat) -> yaml.Node:
    if math.isfinite(value):
        return dumper.represent_float(float(value))
    return dumper.represent_str(value.literal)


_Dumper.add_representer(LiteralInt, yaml.SafeDumper.represent_int)
_Dumper.add_representer(DecodedQuantity, yaml.SafeDumper.represent_str)
_Dumper.add_representer(LiteralFloat, _represent_literal_float)
