"""The job-scenario runner's pieces (jobmodel/simulation/scenario.py)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from jobmodel.api import field as fe
from jobmodel.errors import InputError
from jobmodel.simulation.scenario import errors_include, tunables_from

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


JOB = {
    "apiVersion": "batch/v1",
    "kind": "Job",
    "metadata": {"name": "work", "namespace": "default"},
    "spec": {
        "completions": 3,
        "parallelism": 2,
        "completionMode": "Indexed",
        "backoffLimit": 1,
        "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "x"}]}},
    },
}


def test_a_predicted_expectation_holds_of_its_state_and_states_it_whole() -> None:
    """What `predicted_expect` states of a state holds there, and it is specific: one pod's end,
    or a Job with one field changed, breaks it in what changed."""
    from jobmodel.simulation.scenario import check_expect, initial_state, predicted_expect, run_step

    case = {"job": JOB, "jobUid": "uid-1", "start": "2024-06-01T12:00:00Z"}
    state = run_step(initial_state(case), {"do": "settle"}, "s").state
    expect = predicted_expect(state)
    assert check_expect(state, expect, "e") == []
    assert expect["status"] == {"active": 2, "succeeded": 0, "failed": 0, "ready": 0, "terminating": 0, "completedIndexes": "", "failedIndexes": None}
    assert expect["activeIndexes"] == [0, 1] and expect["conditions"] == []
    assert {"where": {"phase": "Pending"}, "count": 2} in expect["podCount"]
    failed = run_step(state, {"do": "setPods", "where": {"index": 1}, "count": 1, "status": {"phase": "Failed"}}, "s").state
    failed = run_step(failed, {"do": "settle"}, "s").state
    differences = check_expect(failed, expect, "e")
    assert "e.status.failed: expected 0, got 1" in differences
    assert "e.podCount[3]: {'phase': 'Failed'}: expected 0 pods, got 1" in differences
    ended = predicted_expect(failed)  # one failure, within backoffLimit 1: no condition yet
    assert ended["status"]["failed"] == 1 and ended["conditions"] == []
    assert ended["activeIndexes"] == [0]  # index 1's replacement waits out the back-off (10 s)
    assert check_expect(failed, ended, "e") == []


def test_active_indexes_are_read_with_strconv_atoi() -> None:
    """The integration tests read a pod's index with strconv.Atoi: a template annotation `²`
    (copied onto a NonIndexed Job's pods) is no index and `+1` is 1, not a crash or a string."""
    from jobmodel.simulation.scenario import active_indexes, initial_state, run_step

    for text, indexes in (("\u00b2", []), ("\u0661", []), ("+1", [1])):
        job: dict[str, Any] = copy.deepcopy(JOB)
        job["spec"].update(completionMode="NonIndexed", completions=1, parallelism=1)
        job["spec"]["template"]["metadata"] = {"annotations": {"batch.kubernetes.io/job-completion-index": text}}
        state = run_step(initial_state({"job": job, "jobUid": "uid-1", "start": "2024-06-01T12:00:00Z"}), {"do": "settle"}, "s").state
        assert active_indexes(state) == indexes, text


def test_tunables_are_read_by_their_case_names() -> None:
    tunables = tunables_from({"maxUncountedPods": 10, "podFailureBackOffSeconds": 0.1}, "controller")
    assert (tunables.max_uncounted_pods, tunables.pod_failure_backoff_seconds) == (10, 0.1)


@pytest.mark.parametrize(
    ("controller", "field"),
    [({"maxPodCreateDeletePerSync": 2.5}, "controller.maxPodCreateDeletePerSync"),
     ({"maxUncountedPods": 0.5}, "controller.maxUncountedPods"),
     ({"podFailureBackOffSeconds": -1}, "controller.podFailureBackOffSeconds"),
     ({"maxUncounted": 1}, "controller.maxUncounted")],
)  # fmt: skip
def test_a_bad_tunable_is_an_input_error_naming_the_field(controller: dict[str, Any], field: str) -> None:
    with pytest.raises(InputError) as err:
        tunables_from(controller, "controller")
    assert err.value.field == field
