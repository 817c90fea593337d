"""`jobmodel validate MANIFEST...`: create each Job or CronJob as the API server would (defaults,
selector generation, validation) and print the stored object or the validation errors.

Each document of each manifest (YAML or JSON, `-` for stdin) is one object. A valid object prints
`job.batch/NAME valid` (and, once, a note on standard error naming the pod-template checks the
model does not make), or the stored object with `-o yaml`; an invalid one prints the errors as
`kubectl` does (`The Job "pi" is invalid: spec.completions: Invalid value: ...`) on stderr.
`-o json` prints one report of every object (docs/output.md). The exit code is 1 when any object
is invalid or unreadable, else 0. An object with only `metadata.generateName` is named as the API
server names it.
"""

from __future__ import annotations

import argparse
import sys
import uuid
from collections.abc import Mapping
from typing import Any, TextIO

import yaml

from jobmodel.adapters.manifests import load_documents, read_manifest
from jobmodel.api import strategy
from jobmodel.api.field import FieldError, render_errors
from jobmodel.api.names import name_generated_before_create
from jobmodel.api.pod_validation import NOT_CHECKED
from jobmodel.commands.output import add_output_option, print_json
from jobmodel.errors import InputError
from jobmodel.features import DEFAULT_GATES, FeatureGates, parse_gate_overrides

RESOURCE = {"Job": "job.batch", "CronJob": "cronjob.batch"}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "validate",
        help="default and validate Job and CronJob manifests as the API server does on create",
        description="Default, prepare and validate each Job or CronJob in the manifests (YAML or JSON, - for stdin).",
    )
    parser.add_argument("manifests", nargs="+", metavar="MANIFEST")
    add_output_option(parser, ("text", "yaml", "json"), "text")
    parser.add_argument(
        "-n",
        "--namespace",
        default="default",
        help="namespace of objects that give none (default: default)",
    )
    parser.add_argument(
        "--uid", help="uid the server assigns (default: derived from namespace and name)"
    )
    parser.add_argument(
        "--feature-gates",
        default="",
        metavar="A=true,B=false",
        help="feature gates that differ from the defaults (all on)",
    )
    parser.set_defaults(func=run)


def parse_gates(text: str) -> FeatureGates:
    """`A=true,B=false` -> gates."""
    return DEFAULT_GATES.with_overrides(parse_gate_overrides(text))


def default_uid(namespace: str, name: str) -> str:
    """A stable uid per object, so that repeated runs print the same selector."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"jobmodel:{namespace}/{name}"))


def create(
    obj: Any, namespace: str, uid: str | None, gates: FeatureGates
) -> tuple[str, dict[str, Any], list[FieldError]]:
    """Run one object through the API server's create; returns (kind, stored object, errors)."""
    if not isinstance(obj, Mapping):
        raise InputError("", "a manifest document must be an object")
    kind = obj.get("kind")
    if kind not in RESOURCE:
        raise InputError("kind", f"expected Job or CronJob, got {kind!r}")
    meta = obj.get("metadata")
    if meta is not None and not isinstance(meta, Mapping):
        raise InputError("metadata", "expected an object")
    obj = dict(obj)
    # kubectl fills in the namespace of its context when the manifest gives none.
    obj["metadata"] = {"namespace": namespace, **(meta or {})}
    obj = name_generated_before_create(obj, f"{obj['metadata']['namespace']}/{obj['metadata'].get('generateName')}")
    the_uid = uid or default_uid(
        str(obj["metadata"]["namespace"]), str(obj["metadata"].get("name", ""))
    )
    if kind == "Job":
        stored, errors = strategy.create_job(obj, the_uid, gates)
    else:
        stored, errors = strategy.create_cron_job(obj, the_uid, gates)
    return str(kind), stored, errors


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
    namespace: str,
    uid: str | None,
    gates: FeatureGates,
    stdin: TextIO,
    out: TextIO,
    err: TextIO,
) -> int:
    """Validate every object of every manifest; the exit code."""
    code = 0
    report: list[dict[str, Any]] = []
    any_valid = False
    for name in manifests:
        try:
            docs = load_documents(name, read_manifest(name, stdin))
        except InputError as error:
            report.append({"source": name, "document": None, "error": str(error)})
            if output != "json":
                print(f"error: {error}", file=err)
            code = 1
            continue
        for i, doc in enumerate(docs):
            where = name if len(docs) == 1 else f"{name} (document {i + 1})"
            try:
                kind, stored, errors = create(doc, namespace, uid, gates)
            except InputError as error:
                report.append({"source": name, "document": i, "error": str(error)})
                if output != "json":
                    print(f"error: {where}: {error}", file=err)
                code = 1
                continue
            obj_name = str(stored.get("metadata", {}).get("name", ""))
            report.append(object_report(name, i, kind, obj_name, stored, errors))
            if errors:
                code = 1
                if output != "json":
                    print(render_errors(kind, obj_name, errors), file=err)
                continue
            any_valid = True
            if output == "yaml":
                print("---", file=out)
                print(yaml.safe_dump(stored, sort_keys=False), end="", file=out)
            elif output != "json":
                print(f"{RESOURCE[kind]}/{obj_name} valid", file=out)
    if output == "json":
        print_json("ValidationReport", {"objects": report, "notChecked": list(NOT_CHECKED)}, out)
    elif any_valid:
        print(f"note: valid as far as jobmodel checks; not checked in pod templates: {'; '.join(NOT_CHECKED)}", file=err)
    return code


def object_report(
    source: str, document: int, kind: str, name: str, stored: dict[str, Any], errors: list[FieldError]
) -> dict[str, Any]:
    """One object's verdict: the stored object when valid, else its field errors."""
    return {
        "source": source,
        "document": document,
        "kind": kind,
        "name": name,
        "valid": not errors,
        "object": None if errors else stored,
        "errors": [{"field": e.field, "type": e.type, "message": str(e)} for e in errors],
    }
