"""What every command that takes a manifest shares: the options that say how the API server
sees the object (`-n/--namespace`, `--kube-version`, `--feature-gates`), and the front door that reads a manifest
and creates its object as `validate` does (`jobmodel.api.strategy.create_object`), so that each
command works on the object the API server would store.

A manifest the decoder refuses is an input error (exit 2); an object the API server rejects is
a finding (exit 1), printed as kubectl prints it, naming the file.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any, Final, TextIO

import attrs

from jobmodel.adapters.manifests import load_documents, read_manifest, source_name
from jobmodel.api import strategy
from jobmodel.api.field import FieldError, render_errors
from jobmodel.api.warnings import recorded_warnings, warnings_on_create
from jobmodel.commands.release import add_release_options
from jobmodel.errors import InputError, describe, printable, quote
from jobmodel.features import (
    FeatureGates,
    gates_for,
    gates_from_options,
    parse_gate_overrides,
)
from jobmodel.simulation.scenario import TUNABLE_KEYS
from jobmodel.state import JobControllerTunables, checked_tunable

# Exit codes, the same for every command (README, "Exit codes").
OK: Final = 0
FINDING: Final = 1  # an invalid object, a violation, a failed vector, an unmet expectation
INPUT_ERROR: Final = 2  # a usage or input error
INTERNAL_ERROR: Final = 3  # a defect of the tool
INTERRUPTED: Final = 130


# The namespace of kubectl's default context.
DEFAULT_NAMESPACE: Final = "default"


class Rejected(Exception):
    """The API server rejects the object (a finding: exit 1); the message is kubectl's, naming
    the file; `kind`, `name`, `stored` and `errors` are the object and its field errors."""

    def __init__(self, message: str, kind: str, stored: Mapping[str, Any], errors: list[FieldError]) -> None:
        super().__init__(message)
        self.kind = kind
        self.stored = stored
        self.errors = errors

    @property
    def name(self) -> str:
        return str((self.stored.get("metadata") or {}).get("name") or "")


def add_object_options(parser: argparse.ArgumentParser, *, namespace: bool = True) -> None:
    """The options that decide how the API server stores a manifest's object: its namespace,
    the release that stores it (`--kube-version`) and that release's `--feature-gates`."""
    if namespace:
        parser.add_argument(
            "-n",
            "--namespace",
            default=None,
            help=(
                "namespace of objects that give none (default: default); an object that names "
                "another namespace is refused, as kubectl refuses it"
            ),
        )
    add_release_options(parser)
    add_validate_option(parser)


def add_validate_option(parser: argparse.ArgumentParser) -> None:
    """kubectl's --validate: the fieldValidation directive the API server decodes objects under."""
    parser.add_argument(
        "--validate",
        dest="field_validation",
        type=field_validation_of,
        default="Strict",
        metavar="strict|warn|ignore",
        help=(
            "as kubectl's --validate: the fieldValidation the API server decodes with: unknown fields "
            "refused (strict, the default; or true), left out with a warning each (warn), or left out (ignore; or false)"
        ),
    )


# kubectl's --validate values, and the fieldValidation directive each sends.
VALIDATE_VALUES: Final = {"strict": "Strict", "true": "Strict", "warn": "Warn", "ignore": "Ignore", "false": "Ignore"}


def field_validation_of(value: str) -> str:
    """The fieldValidation directive of a --validate value (kubectl's spellings)."""
    directive = VALIDATE_VALUES.get(value.lower())
    if directive is None:
        raise argparse.ArgumentTypeError(f"expected strict, warn or ignore, got {quote(value)}")
    return directive


def gates_of(args: argparse.Namespace) -> FeatureGates:
    """The feature gates the options give: the defaults of `--kube-version` (if the command
    takes it, else the newest release), then `--feature-gates` (locked gates are refused)."""
    return gates_from_options(getattr(args, "kube_version", None), args.feature_gates)


def gate_overrides(args: argparse.Namespace) -> dict[str, bool]:
    """The gates the options turn away from the release's defaults (checked)."""
    return parse_gate_overrides(args.feature_gates, base=gates_for(getattr(args, "kube_version", None)))


@attrs.frozen
class Admitted:
    """An object the API server accepts: the document as written, the request as the handler
    decodes it (namespace filled in; without unknown fields under Warn and Ignore) and as stored,
    and the warnings its response carries."""

    file: str
    kind: str
    document: Mapping[str, Any]
    request: dict[str, Any]
    stored: dict[str, Any]
    warnings: tuple[str, ...] = ()


def rejection(where: str, kind: str, stored: Mapping[str, Any], errors: list[FieldError]) -> str:
    """kubectl's message for a rejected object, naming the file."""
    name = str((stored.get("metadata") or {}).get("name") or "")
    return f"{where}: {render_errors(kind, name, errors)}"


def admit(
    file: str,
    doc: Any,
    namespace: str | None,
    gates: FeatureGates,
    uid: str | None = None,
    field_validation: str = "Strict",
) -> Admitted:
    """One document through the API server's create, in `namespace` (None: kubectl's default
    context, `default`, for objects that give none), under a fieldValidation directive (kubectl's
    default, Strict, unless `--validate` says otherwise); InputError (naming the file) when it
    cannot be decoded or names another namespace than the one given, Rejected when validation
    refuses it."""
    try:
        _check_namespace(doc, namespace)
        kind = strategy.resource_kind(doc)
        request, handler_warned = strategy.create_request(kind, doc, namespace or DEFAULT_NAMESPACE, gates.release, field_validation)
        stored, errors = strategy.create_requested(kind, request, uid, gates)
    except InputError as err:
        raise InputError(file, str(err)) from None
    if errors:
        raise Rejected(rejection(file, kind, stored, errors), kind, stored, errors)
    warned = recorded_warnings(handler_warned + warnings_on_create(kind, stored, gates.release))
    return Admitted(file, kind, doc, request, stored, tuple(warned))


def print_warnings(admitted: Admitted, err: TextIO) -> None:
    """The API server's warnings on the create, as kubectl prints them."""
    for warning in admitted.warnings:
        print(printable(f"Warning: {warning}"), file=err)


def _check_namespace(doc: Any, namespace: str | None) -> None:
    """kubectl's check when a namespace is given: the object's own, if any, must be the same."""
    meta = doc.get("metadata") if isinstance(doc, Mapping) else None
    own = meta.get("namespace") if isinstance(meta, Mapping) else None
    if namespace is not None and isinstance(own, str) and own and own != namespace:
        raise InputError(
            "metadata.namespace",
            f"the namespace from the provided object {quote(own)} does not match the namespace "
            f"{quote(namespace)}. You must pass '--namespace={own}' to perform this operation.",
        )


def load_object(
    file: str,
    kinds: Collection[str],
    namespace: str | None,
    gates: FeatureGates,
    *,
    uid: str | None = None,
    stdin: TextIO | None = None,
    field_validation: str = "Strict",
) -> Admitted:
    """The one object of `kinds` in a manifest (`-`: standard input), created; the API server's
    warnings on standard error, as kubectl prints them on an apply."""
    text = read_manifest(file, stdin or sys.stdin)
    file = source_name(file)
    docs = load_documents(file, text, gates.release)
    found = [d for d in docs if isinstance(d, Mapping) and d.get("kind") in kinds]
    if len(found) != 1:
        raise InputError(file, f"expected exactly one {' or '.join(kinds)} in the manifest, found {len(found)}{'' if found else _held(docs, kinds)}")
    admitted = admit(file, found[0], namespace, gates, uid, field_validation)
    print_warnings(admitted, sys.stderr)
    return admitted


def _held(docs: list[Any], kinds: Collection[str]) -> str:
    """What a manifest without the object wanted holds instead (its first five documents), and
    the command for a CronJob where only a Job will do."""
    if not docs:
        return ""
    cron = "CronJob" not in kinds and any(isinstance(d, Mapping) and d.get("kind") == "CronJob" for d in docs)
    hint = "; `jobmodel cron simulate` runs a CronJob" if cron else ""
    return f" (it holds: {', '.join(_kind_of(d) for d in docs[:5])}{hint})"


def _kind_of(doc: Any) -> str:
    if not isinstance(doc, Mapping):
        return describe(doc)
    kind = doc.get("kind")
    if isinstance(kind, str):
        return f"a {quote(kind)}"
    return "an object without a kind" if kind is None else f"an object of kind {describe(kind)}"


def check_output_path(path: Path | None, option: str, suffixes: Collection[str] = ()) -> None:
    """An output file can be written where asked (its directory exists and is writable, the
    name is not a directory, the suffix is one of `suffixes` when given), checked before the work."""
    if path is None:
        return
    if suffixes and path.suffix.lower() not in suffixes:
        raise InputError(option, f"the file is written as {' or '.join(suffixes)}, got {quote(str(path))}")
    directory = path.parent
    if not directory.is_dir():
        raise InputError(option, f"no such directory: {quote(str(directory))}")
    if path.is_dir():
        raise InputError(option, f"{quote(str(path))} is a directory")
    if not os.access(directory, os.W_OK):
        raise InputError(option, f"cannot write in {quote(str(directory))}")


def add_tunable_option(parser: argparse.ArgumentParser) -> None:
    """`--tunable NAME=VALUE`: a Job controller tunable other than upstream's default."""
    parser.add_argument(
        "--tunable", action="append", default=[], metavar="NAME=VALUE",
        help=(
            "a Job controller tunable other than upstream's default, as upstream's tests lower it "
            f"(repeatable; {', '.join(TUNABLE_KEYS)}): e.g. maxUncountedPods=2 reaches the "
            "controller's caps with a few pods"
        ),
    )


def tunables_of(given: list[str], check: Callable[[str, object, str], float | int] = checked_tunable) -> JobControllerTunables:
    """The Job controller's tunables the `--tunable NAME=VALUE` flags set (the names of a
    job-scenario case's `controller` keys), each other one at upstream's default; `check` takes
    each value (the field's name, the value, the flag for errors)."""
    changes: dict[str, Any] = {}
    for item in given:
        name, sep, text = item.partition("=")
        if not sep or name not in TUNABLE_KEYS:
            raise InputError("--tunable", f"expected NAME=VALUE with NAME one of {', '.join(TUNABLE_KEYS)}, got {quote(item)}")
        attr = TUNABLE_KEYS[name]
        if attr in changes:
            raise InputError("--tunable", f"{name} is given twice")
        changes[attr] = check(attr, _number(text), f"--tunable {name}")
    return attrs.evolve(JobControllerTunables(), **changes)


def _number(text: str) -> object:
    """A flag's value as a number when it reads as one (an int when whole), else as given."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        return text
    return value if math.isfinite(value) else text
