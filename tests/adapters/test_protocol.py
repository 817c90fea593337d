"""jobmodel.adapters.protocol: the oracle protocol's messages and its JSON Schema."""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jobmodel.adapters import protocol
from jobmodel.adapters.manifests import parse_json
from tests.conformance import vector_inputs
from tests.json_paths import get_at, paths


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


# The vector files of each suite the protocol carries.
SUITE_FILES = {
    "job-sync": ("job_sync_core.json", "job_sync_policies.json"),
    "cronjob-sync": ("cronjob_sync.json",),
    "schedule": ("schedule.json",),
    "validation": ("validation.json",),
    "defaulting": ("defaulting.json",),
}
VECTOR_REQUESTS = [
    protocol.request(i, suite, case) for suite, names in SUITE_FILES.items() for i, case in enumerate(vector_inputs(*names), 1)
]


def test_every_vectors_request_is_valid_and_passed_by_the_compiled_validator() -> None:
    assert len(VECTOR_REQUESTS) > 600
    for message in VECTOR_REQUESTS:
        assert protocol.schema_problems(message, "request") == [], message["case"].get("name")
        assert protocol.compiled_says_valid(message, "request"), message["case"].get("name")


REPLACEMENTS = [None, True, 0, -1, 1.5, 2**70, "", "x", "2024-06-01T12:00:00Z\n", "2024-06-01T12:00:00", [], [1], {}, {"x": 1}]


@st.composite
def broken_requests(draw: st.DrawFn) -> dict[str, Any]:
    """A vector's request with one to three values replaced, removed or given an unknown key."""
    message: dict[str, Any] = copy.deepcopy(draw(st.sampled_from(VECTOR_REQUESTS)))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths(message)))
        parent = get_at(message, path[:-1])
        how = draw(st.sampled_from(["replace", "remove", "add"]))
        if how == "remove" and isinstance(parent, dict):
            del parent[path[-1]]
        elif how == "add" and isinstance(parent[path[-1]], dict):
            parent[path[-1]]["unknownField"] = 1
        else:
            parent[path[-1]] = copy.deepcopy(draw(st.sampled_from(REPLACEMENTS)))
    return message


@given(broken_requests())
def test_the_compiled_validator_passes_only_what_jsonschema_passes(message: dict[str, Any]) -> None:
    # Its yes is final (problems returns no error then): it must never pass what jsonschema
    # finds wrong. Its no only costs time: jsonschema then decides.
    if protocol.compiled_says_valid(message, "request"):
        assert protocol.schema_problems(message, "request") == []


# A job-sync answer as a program writes it: its numbers read by parse_json are LiteralInts.
ANSWER_LINE = (
    '{"id": 7, "outcome": {"error": false, "creations": 2, "acceptedCreations": 2, "deletions": 0, "podPatches": 0,'
    ' "status": {"active": 2}, "deletedPods": []}}'
)


def test_an_answer_read_keeping_its_literals_is_passed_by_the_compiled_validator_through_its_plain_reading() -> None:
    reply = parse_json("answer", ANSWER_LINE)
    plain = protocol.plain_reading(ANSWER_LINE)
    # The compiled validator cannot read a LiteralInt: without the plain reading, jsonschema decides.
    assert not protocol.compiled_says_valid(reply, "answer")
    assert protocol.compiled_says_valid(plain, "answer")
    assert protocol.problems(reply, "answer", plain=plain) == protocol.schema_problems(reply, "answer") == []


def test_a_wrong_answer_is_named_with_its_plain_reading_too() -> None:
    line = ANSWER_LINE.replace('"deletedPods": []', '"deletedPods": [1]')
    outcome = parse_json("answer", line)["outcome"]
    plain = protocol.plain_reading(line)
    assert isinstance(plain, dict)
    assert protocol.problems(outcome, "outcome/job-sync", plain=plain["outcome"]) == ["deletedPods[0]: expected a string, got the integer 1"]
    assert protocol.plain_reading("{") is None
    assert protocol.plain_reading("1" * 5000) is None
