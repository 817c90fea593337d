"""The job-scenario runner's pieces (jobmodel/simulation/scenario.py)."""

from __future__ import annotations

from jobmodel.api import field as fe
from jobmodel.simulation.scenario import errors_include

ERRORS = [fe.invalid("spec.parallelism", -1, "must be greater than or equal to 0")]


def test_an_expected_errors_detail_is_a_substring_of_the_whole_message() -> None:
    # FORMAT.md: `detail` is a substring of the error's message (as the validation suite reads
    # it, and as the live engine sees a real API server's causes), so it may span the value.
    for detail in ("must be greater", "Invalid value: -1: must", None):
        want = {"field": "spec.parallelism", "type": "FieldValueInvalid", "detail": detail}
        assert errors_include([want], ERRORS, "steps[0]") == []


def test_a_missing_error_is_a_difference_naming_the_step() -> None:
    wanted = [
        {"field": "spec.parallelism", "type": "FieldValueInvalid", "detail": "must be less"},
        {"field": "spec.completions", "type": "FieldValueInvalid"},
    ]
    out = errors_include(wanted, ERRORS, "steps[2]")
    assert len(out) == 2 and all(d.startswith("steps[2].errorsInclude: missing ") for d in out)
