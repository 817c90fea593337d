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


ONE_POD_JOB = {
    "apiVersion": "batch/v1",
    "kind": "Job",
    "metadata": {"name": "work", "namespace": "default"},
    "spec": {"completions": 1, "parallelism": 1, "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "x"}]}}},
}


def failed_then_deleted(release: str) -> Any:
    """A Job whose one pod failed (the next one waits out a 60 s back-off), deleted in the background."""
    from jobmodel.simulation.scenario import initial_state, run_step

    case = {"kubeVersion": release, "job": ONE_POD_JOB, "jobUid": "uid-1", "start": "2024-06-01T12:00:00Z",
            "controller": {"podFailureBackOffSeconds": 60}}
    state = initial_state(case)
    for step in ({"do": "settle"}, {"do": "setPods", "status": {"phase": "Failed"}}, {"do": "settle"},
                 {"do": "deleteJob", "propagationPolicy": "Background"}):
        state = run_step(state, step, "s").state
    assert state.job() is None
    return state


@pytest.mark.parametrize(("release", "active"), [("1.32", 0), ("1.33", 1), ("1.37", 1)])
def test_a_job_created_again_starts_without_the_first_ones_back_off_from_1_33(release: str, active: int) -> None:
    # TestImmediateJobRecreation: the Job delete event drops the key's back-off record from
    # v1.33 (v1.32.13); at v1.32.3 the replacement's first sync still waits out the first Job's.
    from jobmodel.simulation.scenario import run_step

    step = {"do": "createJob", "job": ONE_POD_JOB, "jobUid": "uid-2"}
    outcome = run_step(failed_then_deleted(release), step, "s")
    assert outcome.differences == ()
    job = outcome.state.job()
    assert job is not None and job.uid == "uid-2" and job.status.failed == 0
    settled = run_step(outcome.state, {"do": "settle"}, "s").state
    assert settled.job().status.active == active  # type: ignore[union-attr]
    assert outcome.state.selector is not None and outcome.state.selector.match_labels["batch.kubernetes.io/controller-uid"] == "uid-2"


def test_creating_a_job_that_still_exists_is_refused_as_already_exists() -> None:
    from jobmodel.simulation.scenario import initial_state, run_step

    state = initial_state({"job": ONE_POD_JOB, "jobUid": "uid-1", "start": "2024-06-01T12:00:00Z"})
    outcome = run_step(state, {"do": "createJob", "job": ONE_POD_JOB, "jobUid": "uid-2"}, "steps[1] (createJob)")
    assert outcome.state is state
    assert outcome.differences == ('steps[1] (createJob): the create was rejected: a Job named "work" already exists',)


@pytest.mark.parametrize(
    ("step", "field"),
    [
        ({"job": {**ONE_POD_JOB, "metadata": {"name": "other"}}, "jobUid": "uid-2"}, "s.job.metadata.name"),
        ({"job": {**ONE_POD_JOB, "metadata": {"name": "work", "namespace": "ns"}}, "jobUid": "uid-2"}, "s.job.metadata.namespace"),
        ({"job": ONE_POD_JOB}, "s.jobUid"),
        ({"jobUid": "uid-2"}, "s.job"),
    ],
)
def test_a_create_step_must_name_the_followed_job_and_give_its_uid(step: dict[str, Any], field: str) -> None:
    from jobmodel.simulation.scenario import run_step

    with pytest.raises(InputError) as err:
        run_step(failed_then_deleted("1.37"), {"do": "createJob", **step}, "s")
    assert err.value.field == field
