"""The generator of tests/conformance/vectors/defaulting_newer_extra.json
(tests/conformance/gen/defaulting_newer_extra.py): the file is what it writes, every case is a
v1.37.2 case citing its test there, and the renamed cases keep the v1.32.3 translation's objects.
test_extra_vectors runs the file through the model and upstream's own code."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conformance.gen.defaulting_newer_extra import (
    OUT,
    PIN,
    PREPARE_FOR_CREATE,
    RELEASE,
    _cases,
    document,
)

DOC = json.loads(OUT.read_text())


def test_the_file_is_what_the_generator_writes(conformance_dir: Path) -> None:
    assert document(conformance_dir) == DOC


def test_every_case_is_a_v1_37_case_citing_its_test() -> None:
    names = [c["name"] for c in DOC["cases"]]
    assert len(names) == len(set(names))
    for c in DOC["cases"]:
        assert c["kubeVersion"] == RELEASE
        assert c["origin"].endswith(f" {PIN} {c['name']}"), c["name"]


def test_a_renamed_case_keeps_the_v1_32_objects_and_drops_the_gates(conformance_dir: Path) -> None:
    test = "TestJobStrategy_PrepareForCreate"
    old = _cases(conformance_dir)[f"{test}: {PREPARE_FOR_CREATE['create job with a new field and successPolicy']}"]
    new = next(c for c in DOC["cases"] if c["name"] == f"{test}: create job with a new field and successPolicy")
    assert new["object"] == old["object"]
    assert "features" not in new


def test_set_default_job_expects_the_replacement_policy_at_1_37() -> None:
    # v1.37.2 defaults_test.go: PodReplacementPolicy in every expected Job (the gate is gone)
    matched = [c for c in DOC["cases"] if c["name"].startswith("TestSetDefaultJob: ")]
    # v1.37.2 defaults_test.go's TestSetDefaultJob has 13 cases; "All set -> no change" and "All
    # set, flipped -> no change" set podReplacementPolicy themselves and are unchanged since
    # v1.32.3 (diffed against v1.32.3's defaults_test.go), leaving 11 changed ones.
    assert len(matched) == 11, [c["name"] for c in matched]
    for c in matched:
        spec = c["object"]["spec"]
        assert "podReplacementPolicy" not in spec, c["name"]
        # v1.37.2 pkg/apis/batch/v1/defaults.go: an unset policy becomes Failed when the Job has a
        # podFailurePolicy, TerminatingOrFailed otherwise.
        want = "Failed" if spec.get("podFailurePolicy") is not None else "TerminatingOrFailed"
        assert c["expect"]["object"]["spec"]["podReplacementPolicy"] == want, c["name"]
