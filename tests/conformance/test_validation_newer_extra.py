"""The generator of tests/conformance/vectors/validation_newer_extra.json
(tests/conformance/gen/validation_newer_extra.py): the file is what it writes, and every case is
pinned to a release after v1.32.3 and names the upstream test and release it comes from.
test_extra_vectors runs the file through the model and upstream's own code."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conformance.gen.validation_newer_extra import OUT, PINS, document

DOC = json.loads(OUT.read_text())


def test_the_file_is_what_the_generator_writes(conformance_dir: Path) -> None:
    assert document(conformance_dir) == DOC


def test_every_case_is_pinned_to_a_newer_release_and_cites_its_test_there() -> None:
    names = [c["name"] for c in DOC["cases"]]
    assert len(names) == len(set(names))
    for c in DOC["cases"]:
        assert c["kubeVersion"] in PINS, c["name"]
        test_and_case = c["name"].removesuffix(f" (v{c['kubeVersion']})")
        assert c["origin"].startswith("kubernetes pkg/"), c["name"]
        assert f" {PINS[c['kubeVersion']]} {test_and_case}" in c["origin"], c["name"]


def test_the_status_startTime_cases_expect_invalid_from_1_36() -> None:
    # v1.36.3 strategy_test.go: Invalid (was Required at v1.32.3)
    cases = {c["name"]: c for c in DOC["cases"]}
    case = cases["TestStatusStrategy_ValidateUpdate: verify startTime cannot be removed for unsuspended job"]
    assert case["kubeVersion"] == "1.36"
    assert case["expect"]["errors"] == [{"field": "status.startTime", "type": "FieldValueInvalid"}]
