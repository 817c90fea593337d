"""jobmodel.conformance.suites: cases put at a release keep only the gates it lets them set."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from jobmodel.conformance.runner import run_files
from jobmodel.conformance.suites import case_at_release, check_names_unique, gate_settable
from jobmodel.errors import InputError


def test_a_gate_locked_since_the_release_is_dropped_without_emulation() -> None:
    case = {"features": {"PodIndexLabel": False, "JobManagedBy": False}}
    assert case_at_release(case, "1.32")["features"] == {"JobManagedBy": False}


def test_with_emulation_a_gate_locked_since_the_release_is_kept() -> None:
    # PodIndexLabel went GA (locked) in 1.32: upstream's 1.32 tests turn it off at emulation 1.31.
    case = {"features": {"PodIndexLabel": False, "JobManagedBy": False}}
    assert case_at_release(case, "1.32", emulation=True)["features"] == {"PodIndexLabel": False, "JobManagedBy": False}
    assert gate_settable("1.32", "PodIndexLabel", False, emulation=True)
    assert not gate_settable("1.32", "PodIndexLabel", False)


def test_with_emulation_a_gate_locked_before_the_release_is_still_dropped() -> None:
    # JobPodFailurePolicy was GA already in 1.31; PodIndexLabel's code is always on from 1.35.
    case = {"features": {"JobPodFailurePolicy": False, "PodIndexLabel": False}}
    assert case_at_release(case, "1.32", emulation=True)["features"] == {"PodIndexLabel": False}
    assert "features" not in case_at_release(case, "1.35", emulation=True)


def test_with_emulation_gates_the_previous_release_lacks_fall_back_to_no_emulation() -> None:
    # JobManagedBy is locked since 1.35, MutableSchedulingDirectivesForSuspendedJobs new in 1.35:
    # at emulation 1.34 the latter would be PreAlpha, so the case keeps the release's own gates.
    case = {"features": {"JobManagedBy": False, "MutableSchedulingDirectivesForSuspendedJobs": False}}
    assert case_at_release(case, "1.35", emulation=True)["features"] == {"MutableSchedulingDirectivesForSuspendedJobs": False}
    assert case_at_release({"features": {"JobManagedBy": False}}, "1.35", emulation=True)["features"] == {"JobManagedBy": False}


def test_names_repeated_in_one_namespace_are_refused_naming_the_second() -> None:
    with pytest.raises(InputError) as raised:
        check_names_unique([("ns", "a"), ("ns", "b"), ("ns", "a")], "jobs", "Job")
    assert raised.value.field == "jobs[2].metadata.name"
    assert "repeats jobs[0]" in raised.value.reason


def test_one_name_in_two_namespaces_is_two_objects() -> None:
    check_names_unique([("ns", "a"), ("other-ns", "a")], "jobs", "Job")  # raises on a repeat
    # The key is (namespace, name): a third object repeats the second, not the first.
    with pytest.raises(InputError) as raised:
        check_names_unique([("ns", "a"), ("other-ns", "a"), ("other-ns", "a")], "jobs", "Job")
    assert raised.value.field == "jobs[2].metadata.name"
    assert "'a' repeats jobs[1]" in raised.value.reason


def test_a_cronjob_sync_case_with_two_jobs_of_one_name_is_refused(tmp_path: Path) -> None:
    def job(uid: str) -> dict[str, object]:
        return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "c-1", "namespace": "ns", "uid": uid}, "spec": {}, "status": {}}

    cron_job = {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "c", "namespace": "ns", "uid": "c-uid"}, "spec": {"schedule": "0 * * * *"}, "status": {}}
    case = {"name": "twice", "now": "2024-01-01T10:30:00Z", "cronJob": cron_job, "jobs": [job("u1"), job("u2")], "expect": {}}
    path = tmp_path / "twice.json"
    path.write_text(json.dumps({"format": "jobmodel-conformance/1", "suite": "cronjob-sync", "source": "test", "cases": [case]}))
    out = io.StringIO()
    assert run_files([path], out) == (0, 1)
    assert "jobs[1].metadata.name: 'c-1' repeats jobs[0]" in out.getvalue()


SCHEDULE_CASE: dict[str, Any] = {"name": "c", "now": "2024-01-01T00:10:00Z", "schedule": "*/5 * * * *", "earliestTime": "2024-01-01T00:00:00Z"}
JOB: dict[str, Any] = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j", "namespace": "default"}, "spec": {}}
OTHER_SUITES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "schedule": (SCHEDULE_CASE, {"mostRecent": "2024-01-01T00:10:00Z"}),
    "validation": ({"name": "c", "kind": "Job", "operation": "create", "object": JOB}, {"valid": False}),
    "defaulting": ({"name": "c", "kind": "Job", "object": JOB}, {"object": {"spec": {"completions": 1}}}),
    "cronjob-sync": ({"name": "c", "now": "2024-01-01T00:00:00Z", "cronJob": None, "jobs": []}, {"creations": 0}),
}


def _run(tmp_path: Path, suite: str, *cases: dict[str, object]) -> tuple[tuple[int, int], str]:
    out = io.StringIO()
    path = tmp_path / f"{suite}.json"
    path.write_text(json.dumps({"format": "jobmodel-conformance/1", "suite": suite, "cases": list(cases)}))
    return run_files([path], out), out.getvalue()


@pytest.mark.parametrize("suite", sorted(OTHER_SUITES))
def test_each_suites_case_passes_as_written_and_fails_on_a_misspelt_key(suite: str, tmp_path: Path) -> None:
    """A misspelt key checked nothing (the case passed); now it fails, naming the key."""
    case, expect = OTHER_SUITES[suite]
    assert _run(tmp_path, suite, {**case, "expect": expect}) == ((1, 0), "")
    (counts, out) = _run(tmp_path, suite, {**case, "expect": {**expect, "vaild": True}})
    assert counts == (0, 1) and "expect.vaild: unknown field" in out
    (counts, out) = _run(tmp_path, suite, {**case, "expect": expect, "objet": {}})
    assert counts == (0, 1) and "case.objet: unknown field" in out


@pytest.mark.parametrize("suite", sorted(OTHER_SUITES))
@pytest.mark.parametrize(("extra", "field"), [({"kubeVersion": "1.99"}, "kubeVersion"), ({"features": {"NoSuchGate": True}}, "NoSuchGate")])
def test_each_suite_refuses_a_release_or_gate_that_does_not_exist(
    suite: str, extra: dict[str, object], field: str, tmp_path: Path
) -> None:
    case, expect = OTHER_SUITES[suite]
    (counts, out) = _run(tmp_path, suite, {**case, "expect": expect, **extra})
    assert counts == (0, 1) and "cannot run the case" in out and field in out


def test_valid_must_be_a_boolean_not_a_string(tmp_path: Path) -> None:
    case, _ = OTHER_SUITES["validation"]
    (counts, out) = _run(tmp_path, "validation", {**case, "expect": {"valid": "false"}})
    assert counts == (0, 1) and "expect.valid: expected true or false" in out
