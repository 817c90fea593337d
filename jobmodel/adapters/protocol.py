"""The oracle protocol `jobmodel-oracle/1` (docs/oracle-protocol.md): its messages, and their
check against the protocol's JSON Schema (`oracle-protocol.schema.json`, beside this module).

An implementation reads requests and writes answers as JSON lines; it writes a handshake first.
This module knows the messages only: the model's answers are `jobmodel.conformance.oracle`'s,
a program is spoken to through `jobmodel.adapters.oracle`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any, Final

import jsonschema

try:
    import jsonschema_rs
except ImportError:  # pragma: no cover - a platform without its wheels: jsonschema alone
    jsonschema_rs = None  # type: ignore[assignment]

from jobmodel.api.go_json import dumps_keeping_literals
from jobmodel.errors import describe

PROTOCOL = "jobmodel-oracle/1"
# The suites the protocol carries (job-scenario is a whole life, judged by the model's own runner).
SUITES = ("job-sync", "cronjob-sync", "schedule", "validation", "defaulting")
# A case's keys that are not inputs: the request carries the rest.
NOT_INPUTS = frozenset({"expect"})


@cache
def schema() -> dict[str, Any]:
    """The protocol's JSON Schema."""
    text = resources.files("jobmodel.adapters").joinpath("oracle-protocol.schema.json").read_text()
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def _schema_of(definition: str) -> dict[str, Any]:
    """The schema with `$defs/<definition>` as the thing it validates."""
    return {**schema(), "$ref": f"#/$defs/{definition}"}


@cache
def _validator(definition: str) -> jsonschema.protocols.Validator:
    return jsonschema.validators.validator_for(schema())(_schema_of(definition))


@cache
def _compiled_validator(definition: str) -> Any:
    """The schema's `$defs/<definition>` compiled by jsonschema-rs, or None where it is missing."""
    if jsonschema_rs is None:  # pragma: no cover - a platform without its wheels
        return None
    # Formats unchecked, as jsonschema leaves them by default (only annotations in draft 2020-12).
    return jsonschema_rs.validator_for(_schema_of(definition), validate_formats=False)


def compiled_says_valid(message: object, definition: str) -> bool:
    """The compiled validator's yes: a valid message (every message of a healthy run) is passed
    in microseconds, where jsonschema takes about a millisecond for a job-sync answer. Anything
    else, a no, an object it cannot read, no compiled validator, goes to jsonschema, which alone
    decides what is wrong and says it (tests/adapters/test_protocol.py holds the two to agree)."""
    validator = _compiled_validator(definition)
    if validator is None:  # pragma: no cover
        return False
    try:
        return bool(validator.is_valid(message))
    except (ValueError, TypeError, OverflowError):  # not JSON to it: a dict key that is no string, ...
        return False


def problems(message: object, definition: str, *, plain: object = None) -> list[str]:
    """What is wrong with a message as the schema's `$defs/<definition>` (e.g. `answer`,
    `outcome/job-sync`): one line per error, naming where (a JSON path) and why. `plain` is the
    same message as json.loads reads its line (`plain_reading`), for the compiled validator,
    which refuses the int and float subclasses a literal-keeping read holds (LiteralInt)."""
    if compiled_says_valid(message if plain is None else plain, definition):
        return []
    return schema_problems(message, definition)


def plain_reading(line: str) -> object:
    """A message's line as json.loads reads it (plain ints and floats), or None where it cannot."""
    try:
        return json.loads(line)
    except ValueError:  # not JSON, or an integer longer than int() reads
        return None


def schema_problems(message: object, definition: str) -> list[str]:
    """`problems` by jsonschema alone."""
    out: list[str] = []
    for error in sorted(_validator(definition).iter_errors(message), key=lambda e: [str(p) for p in e.absolute_path]):
        path = list(error.absolute_path)
        if error.validator == "required":
            # Each missing key named as a path (`case.now: required`); jsonschema gives an error
            # per missing key, each with the whole list.
            missing = [k for k in error.validator_value if isinstance(error.instance, Mapping) and k not in error.instance]
            for key in missing:
                line = f"{_where([*path, key])}: required"
                if line not in out:
                    out.append(line)
            continue
        if error.validator == "additionalProperties" and isinstance(error.instance, Mapping):
            known = error.schema.get("properties", {}) if isinstance(error.schema, Mapping) else {}
            path = [*path, *[k for k in error.instance if k not in known][:1]]
        out.append(f"{_where(path)}: {_reason(error.validator, error.validator_value, error.instance, error.message)}")
    return out


def _where(path: list[Any]) -> str:
    """A JSON path (`case.pods[0].metadata`), or `(the message)` for the whole."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".") or "(the message)"


_JSON_TYPES: Final = {"string": "a string", "integer": "an integer", "number": "a number", "boolean": "a boolean",
                      "object": "an object", "array": "a list", "null": "null"}  # fmt: skip


def _reason(validator: object, expected: Any, instance: Any, message: str) -> str:
    """A schema error in JSON's words (jsonschema's messages speak Python: `None is not of type`)."""
    if validator == "type":
        wanted = [expected] if isinstance(expected, str) else list(expected)
        return f"expected {' or '.join(_JSON_TYPES.get(t, t) for t in wanted)}, got {describe(instance)}"
    if validator == "enum":
        return f"expected one of {', '.join(json.dumps(v) for v in expected)}, got {describe(instance)}"
    if validator == "const":
        return f"expected {json.dumps(expected)}, got {describe(instance)}"
    if validator == "pattern":
        return f"{describe(instance)} does not match {expected}"
    if validator == "additionalProperties":
        return "unknown field"
    if validator in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems"):
        return f"{describe(instance)} breaks {validator} {expected}"
    if validator == "oneOf":
        return f"{describe(instance)} matches {'none' if 'not valid under any' in message else 'more than one'} of the forms it may take"
    if validator == "uniqueItems":
        return "an item repeats another"
    return f"{describe(instance)} is not valid here ({validator})"


def request(request_id: int | str, suite: str, case: Mapping[str, Any]) -> dict[str, Any]:
    """The request for a conformance case: its inputs (the case less `expect`) and its suite."""
    return {"id": request_id, "suite": suite, "case": {k: v for k, v in case.items() if k not in NOT_INPUTS}}


def handshake(implementation: str, kubernetes_version: str, suites: tuple[str, ...] = SUITES) -> dict[str, Any]:
    return {
        "protocol": PROTOCOL,
        "implementation": implementation,
        "kubernetesVersion": kubernetes_version,
        "suites": list(suites),
    }


def encode(message: Mapping[str, Any]) -> str:
    """One protocol line (no newline): compact JSON, non-ASCII as is, numbers as read (a
    vector's `1E3` reaches the other implementation as `1E3`)."""
    return dumps_keeping_literals(message, separators=(",", ":"), ensure_ascii=False)
