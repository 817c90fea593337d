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
from typing import Any

import jsonschema

from jobmodel.api.go_json import dumps_keeping_literals

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


@cache
def _validator(definition: str) -> jsonschema.protocols.Validator:
    root = schema()
    cls = jsonschema.validators.validator_for(root)
    return cls({**root, "$ref": f"#/$defs/{definition}"})


def problems(message: object, definition: str) -> list[str]:
    """What is wrong with a message as the schema's `$defs/<definition>` (e.g. `answer`,
    `outcome/job-sync`): one line per error, naming where (a JSON path) and why."""
    out = []
    for error in sorted(_validator(definition).iter_errors(message), key=lambda e: list(e.absolute_path)):
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
        out.append(f"{where.lstrip('.') or '(the message)'}: {error.message}")
    return out


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
