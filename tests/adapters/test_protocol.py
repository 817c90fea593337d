"""jobmodel.adapters.protocol: the oracle protocol's messages and its JSON Schema."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from jobmodel.adapters import protocol


def test_the_schema_is_a_valid_json_schema() -> None:
    root = protocol.schema()
    jsonschema.validators.validator_for(root).check_schema(root)
    assert root["$defs"]["handshake"]["properties"]["protocol"]["const"] == protocol.PROTOCOL
    assert root["$defs"]["suite"]["enum"] == list(protocol.SUITES)


def test_a_request_carries_the_inputs_without_the_expectation() -> None:
    case: dict[str, Any] = {"name": "c", "now": "2024-06-01T12:00:00Z", "job": None, "pods": [], "expect": {"error": False}}
    message = protocol.request(3, "job-sync", case)
    assert message == {"id": 3, "suite": "job-sync", "case": {"name": "c", "now": "2024-06-01T12:00:00Z", "job": None, "pods": []}}
    assert protocol.problems(message, "request") == []


@pytest.mark.parametrize(
    ("message", "definition", "problem"),
    [
        ({"id": 1, "suite": "job-sync", "case": {"pods": []}}, "request", "case.now: required"),
        ({"id": 1, "suite": "job-sync", "case": {"now": "2024-06-01T12:00:00Z", "expect": {}}}, "request", "case.expect: unknown field"),
        ({"id": 1, "suite": "job-scenario", "case": {}}, "request", "suite: expected one of \"job-sync\""),
        ({"id": 1, "outcome": {}, "error": "x"}, "answer", "(the message): an object matches more than one of the forms it may take"),
        ({"id": 1}, "answer", "(the message): an object matches none of the forms it may take"),
        ({"error": False, "creations": 0, "acceptedCreations": 0, "deletions": 0, "podPatches": 0, "status": {}, "deletedPods": [1]},
         "outcome/job-sync", "deletedPods[0]: expected a string, got the integer 1"),
        ({"valid": "no"}, "outcome/validation", "valid: expected a boolean, got the string \"no\""),
        ({"protocol": "jobmodel-oracle/1", "implementation": "x", "kubernetesVersion": "v1.32.3", "suites": ["job-sync", "job-sync"]},
         "handshake", "suites: an item repeats another"),
    ],
)
def test_problems_name_the_place_and_the_reason(message: object, definition: str, problem: str) -> None:
    found = protocol.problems(message, definition)
    assert any(problem in p for p in found), found


def test_a_handshake_is_valid() -> None:
    assert protocol.problems(protocol.handshake("impl", "v1.32.3"), "handshake") == []
