"""The generator of tests/conformance/vectors/job_sync_extra.json (the syncJob-level upstream cases
the shared files withhold; tests/conformance/gen/) checked against the shared files' conventions.
test_extra_vectors runs the file through the model and upstream's own code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conformance.gen.job_sync_extra import (
    BACKOFF_EXCEEDED,
    OUT,
    SUSPENDED,
    Tc,
    cond,
    core_case,
    document,
)
from tests.conformance.gen.job_sync_policies_extra import indexed_pod, never_pods, phase_pods

DOC = json.loads(OUT.read_text())
CASES = [(case["name"], case) for case in DOC["cases"]]

# Shared cases (job_sync_core.json) of every kind of field, as upstream's table gives them: the
# generator must write each exactly as the shared generator did.
SHARED_SAMPLE: dict[str, tuple[Tc, int]] = {
    "job start": (Tc(parallelism=2, completions=5, backoff_limit=6, expected_creations=2, expected_active=2, expected_ready=0), 0),
    "WQ job: recreate pods when failed": (
        Tc(
            parallelism=1, completions=-1, backoff_limit=6, active_pods=1, failed_pods=1,
            pod_replacement_policy="Failed", job_pod_replacement_policy=True, terminating_pods=1,
            expected_terminating=1, expected_ready=0, expected_pod_patches=1, expected_failed=1,
            expected_active=1,
        ),
        0,
    ),
    "more terminating pods than parallelism; PodFailurePolicy used": (
        Tc(
            parallelism=1, completions=1, backoff_limit=6, active_pods=2, terminating_pods=4,
            pod_failure_policy={"rules": []}, expected_ready=0, expected_active=1,
            expected_deletions=1, expected_pod_patches=1,
        ),
        0,
    ),
    "too few active pods and active back-off": (
        Tc(
            parallelism=1, completions=1, backoff_limit=6, backoff_failures=1,
            initial_status={"startTime": True}, expected_ready=0,
        ),
        0,
    ),
    "count ready pods when too many active pods": (
        Tc(
            parallelism=2, completions=5, backoff_limit=6, active_pods=3, ready_pods=3,
            expected_deletions=1, expected_active=2, expected_pod_patches=1, expected_ready=2,
        ),
        0,
    ),
    "no new pod; possible finalizer update of failed pod": (
        Tc(
            parallelism=1, completions=1, backoff_limit=6, initial_status={"active": 1, "succeed": 0, "failed": 1},
            active_pods=1, expected_active=1, expected_failed=1, expected_ready=0,
        ),
        0,
    ),
    "only new failed pod with controller error": (
        Tc(
            parallelism=2, completions=5, backoff_limit=6, pod_controller_error="fake error",
            active_pods=1, failed_pods=1, expected_creations=1, expected_active=1,
            expected_pod_patches=1, expected_ready=0,
        ),
        0,
    ),
    "deleting job": (
        Tc(
            parallelism=2, completions=5, backoff_limit=6, deleting=True, pending_pods=1,
            active_pods=1, succeeded_pods=1, expected_active=2, expected_succeeded=1,
            expected_pod_patches=3, expected_ready=0,
        ),
        0,
    ),
    "limited pods": (
        Tc(parallelism=100, completions=200, backoff_limit=6, pod_limit=10, expected_creations=10, expected_active=10, expected_ready=0),
        100,
    ),
    "too many job failures": (
        Tc(
            parallelism=2, completions=5, deleting=True, failed_pods=1, expected_failed=1,
            expected_conditions=(cond("Failed", "True", *BACKOFF_EXCEEDED),), expected_pod_patches=1,
            expected_ready=0,
        ),
        0,
    ),
    "indexed job some pods without index": (
        Tc(
            parallelism=2, completions=5, backoff_limit=6, completion_mode="Indexed", active_pods=1,
            succeeded_pods=1, failed_pods=1,
            pods_with_indexes=(
                ("invalid", "Running"), ("invalid", "Succeeded"), ("invalid", "Failed"), ("invalid", "Pending"),
                ("0", "Succeeded"), ("1", "Running"), ("2", "Running"),
            ),
            expected_deletions=3, expected_active=2, expected_succeeded=1, expected_completed_idxs="0",
            expected_pod_patches=8, expected_ready=0,
        ),
        0,
    ),
    "indexed job some failed pods": (
        Tc(
            parallelism=3, completions=4, backoff_limit=6, completion_mode="Indexed",
            pods_with_indexes=(("0", "Failed"), ("1", "Pending"), ("2", "Failed")),
            expected_creations=2, expected_active=3, expected_failed=2, expected_created_indexes=(0, 2),
            expected_pod_patches=2, expected_ready=0,
        ),
        0,
    ),
    "suspending a job with unsatisfied expectations": (
        Tc(
            suspend=True, parallelism=2, active_pods=3, fake_expectation_at_creation=-1, completions=4,
            backoff_limit=6, expected_active=3, expected_ready=0,
        ),
        0,
    ),
    "suspending a job with satisfied expectations; PodReplacementPolicy enabled": (
        Tc(
            suspend=True, parallelism=2, active_pods=2, completions=4, backoff_limit=6,
            job_pod_replacement_policy=True, expected_deletions=2, expected_conditions=(SUSPENDED,),
            expected_pod_patches=2, expected_ready=0, expected_terminating=2,
        ),
        0,
    ),
    "resuming a suspended job": (
        Tc(
            was_suspended=True, parallelism=2, completions=4, backoff_limit=6, expected_creations=2,
            expected_active=2, expected_conditions=(cond("Suspended", "False", "JobResumed", "Job resumed"),),
            expected_ready=0,
        ),
        0,
    ),
    "indexed job with podIndexLabel feature disabled": (
        Tc(
            parallelism=2, completions=5, backoff_limit=6, completion_mode="Indexed", expected_creations=2,
            expected_active=2, expected_created_indexes=(0, 1), pod_index_label_disabled=True, expected_ready=0,
        ),
        0,
    ),
    "SuccessCriteriaMet=False condition added manually is ignored": (
        Tc(
            job_success_policy=True, parallelism=1, completions=1, active_pods=1, ready_pods=1,
            initial_status={
                "active": 1, "startTime": True,
                "conditions": [cond("SuccessCriteriaMet", "False", "ConditionAddedManually", "Testing")],
            },
            expected_active=1, expected_ready=1,
            expected_conditions=(cond("SuccessCriteriaMet", "False", "ConditionAddedManually", "Testing"),),
        ),
        0,
    ),
    "backoff limit exceeded; JobManagedBy enabled": (
        Tc(
            job_managed_by=True, parallelism=2, completions=3, backoff_limit=0, completion_mode="Indexed",
            pods_with_indexes=(("0", "Succeeded"), ("1", "Failed"), ("2", "Running")),
            expected_succeeded=1, expected_failed=2, expected_completed_idxs="0",
            expected_conditions=(cond("FailureTarget", "True", *BACKOFF_EXCEEDED),),
            expected_pod_patches=3, expected_ready=0, expected_deletions=1,
        ),
        0,
    ),
}


def test_the_file_is_what_the_generator_writes(conformance_dir: Path) -> None:
    assert document(conformance_dir) == DOC
    assert len(CASES) == 19 + 31


@pytest.mark.parametrize("name", sorted(SHARED_SAMPLE))
def test_the_generator_writes_a_shared_case_as_the_shared_generator_did(name: str, conformance_dir: Path) -> None:
    shared = {c["name"]: c for c in json.loads((conformance_dir / "job_sync_core.json").read_text())["cases"]}
    tc, want_creations = SHARED_SAMPLE[name]
    assert core_case(name, tc, want_creations) == shared[name]


def test_no_extra_case_is_in_the_shared_files(conformance_dir: Path) -> None:
    shared = {
        c["name"]
        for name in ("job_sync_core.json", "job_sync_policies.json")
        for c in json.loads((conformance_dir / name).read_text())["cases"]
    }
    assert shared.isdisjoint(name for name, _ in CASES)


def test_the_pod_builders_write_shared_pods_as_the_shared_generator_did(conformance_dir: Path) -> None:
    shared = {c["name"]: c for c in json.loads((conformance_dir / "job_sync_policies.json").read_text())["cases"]}
    on_failure = shared["TestJobBackoffForOnFailure: too many job failures with podPending - multiple pods"]
    assert phase_pods(on_failure, "Pending", [1, 1]) == on_failure["pods"]
    never = shared["TestJobBackoffOnRestartPolicyNever: too many failures with backoffLimit 1 - single pod"]
    assert never_pods(never, 2, 0, "Running") == never["pods"]
    blpi = shared["TestSyncJobWithJobBackoffLimitPerIndex: job failed due to failed indexes; JobManagedBy enabled"]
    assert [indexed_pod(blpi, 0, "a", 0, 1, "Failed"), indexed_pod(blpi, 1, "b", 1, 0, "Succeeded")] == blpi["pods"]
