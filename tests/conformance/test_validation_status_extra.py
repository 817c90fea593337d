"""The generator of tests/conformance/vectors/validation_status_extra.json (upstream's Job status-update
validation tests; tests/conformance/gen/). test_extra_vectors runs the file through the model and
upstream's own code."""

from __future__ import annotations

import json
from collections import Counter

from tests.conformance.gen.validation_status_extra import (
    OUT,
    STRATEGY_TEST,
    VALIDATION_TEST,
    render,
)

DOC = json.loads(OUT.read_text())


def test_the_file_is_what_the_generator_writes() -> None:
    assert render() == OUT.read_text(), "run .venv/bin/python -m tests.conformance.gen.validation_status_extra"


def test_every_case_of_both_upstream_tests_is_there_once() -> None:
    # TestStatusStrategy_ValidateUpdate has 56 table cases at v1.32.3, TestValidateJobUpdateStatus 4.
    tests = Counter(case["origin"].rsplit(": ", 1)[0] for case in DOC["cases"])
    assert tests == {STRATEGY_TEST: 56, VALIDATION_TEST: 4}
    assert len({case["name"] for case in DOC["cases"]}) == len(DOC["cases"])


def test_every_case_is_a_status_update_with_the_gates_its_test_sets() -> None:
    for case in DOC["cases"]:
        assert (case["operation"], case["subresource"], case["kubeVersion"]) == ("update", "status", "1.32")
        gates = set(case["features"])
        assert gates == ({"JobManagedBy", "JobSuccessPolicy", "JobPodReplacementPolicy"} if case["origin"].startswith(STRATEGY_TEST) else {"JobManagedBy"})
