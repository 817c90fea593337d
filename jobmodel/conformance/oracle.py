"""The model's side of the oracle protocol (docs/oracle-protocol.md): the handshake it writes and
its answer to each request line, as `jobmodel oracle serve` gives them to another program."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jobmodel.adapters import protocol
from jobmodel.adapters.manifests import parse_json
from jobmodel.conformance.suites import suite_module
from jobmodel.errors import InputError, describe, quote
from jobmodel.features import NEWEST_MINOR, RELEASE_PINS


def model_handshake(features: Mapping[str, bool] | None = None, minor: int = NEWEST_MINOR) -> dict[str, Any]:
    """The first line the model writes: the protocol, the release it answers as (the upstream
    patch release the model of that minor follows), its suites and the gate values it runs with
    where they differ from that release's defaults."""
    message = protocol.handshake("jobmodel", RELEASE_PINS[minor])
    if features:
        message["features"] = dict(features)
    return message


def answer_line(line: str, features: Mapping[str, bool] | None = None, minor: int = NEWEST_MINOR) -> dict[str, Any]:
    """The model's answer to one request line; a malformed request gets an `error` answer naming
    what is wrong (the request is read within the bounds of any JSON input), never an exception."""
    try:
        message = parse_json("request", line)
    except InputError as err:
        return {"id": None, "error": str(err)}
    request_id = message.get("id") if isinstance(message, dict) else None
    if not isinstance(request_id, int | str) or isinstance(request_id, bool):
        request_id = None
    wrong = protocol.problems(message, "request")
    if wrong:
        return {"id": request_id, "error": "request: " + "; ".join(wrong)}
    return {"id": request_id, **model_answer(message["suite"], message["case"], features, minor)}


def model_answer(
    suite: str, case: Mapping[str, Any], features: Mapping[str, bool] | None = None, minor: int = NEWEST_MINOR
) -> dict[str, Any]:
    """`{"outcome": ...}` at release 1.`minor`, or `{"error": ...}` for a case the model cannot run
    (bad input), or `{"unsupported": ...}` for a feature the model does not implement."""
    module = suite_module(suite)
    if module is None or suite not in protocol.SUITES:
        return {"unsupported": f"suite {quote(suite)} is not answered through the oracle protocol"}
    case = {**case, "kubeVersion": f"1.{minor}"}
    if features:
        own = case.get("features")
        if own is not None and not isinstance(own, Mapping):
            return {"error": f"case.features: expected an object of gate names to true or false, got {describe(own)}"}
        case = {**case, "features": {**features, **(own or {})}}
    try:
        return {"outcome": module.model_outcome(case)}
    except InputError as err:
        return {"error": str(err)}
    except NotImplementedError as err:
        return {"unsupported": str(err) or "not implemented by the model"}
