"""jobmodel.adapters.upstream: the upstream harness (real Kubernetes code) as a conformance engine.

The first tests check the harness's answers against what the Kubernetes code is documented to
do; the last runs every shared vector through it: upstream (the pinned release, see
docs/differential-testing.md) agrees with every one.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jobmodel.adapters import protocol
from jobmodel.adapters.manifests import parse_json
from jobmodel.adapters.oracle import CaseError
from jobmodel.adapters.upstream import (
    SUPPORTED_SUITES,
    HarnessError,
    UpstreamEngine,
    build_harness,
)
from jobmodel.conformance import defaulting
from jobmodel.conformance.job_sync import model_outcome
from jobmodel.conformance.suites import suite_module

NOW = "2024-06-01T12:00:00Z"
JOB_UID = "5f1d7c3e-2b4a-4c6d-8e9f-0a1b2c3d4e5f"
TRACKING_FINALIZER = "batch.kubernetes.io/job-tracking"
INDEX_ANNOTATION = "batch.kubernetes.io/job-completion-index"

@pytest.fixture(scope="module")
def engine() -> Iterator[UpstreamEngine]:
    """One harness process for the module; skipped without Go on a user's machine, a failure in CI."""
    if shutil.which("go") is None:
        message = "Go is not installed: the upstream harness cannot be built"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    # The shared vectors and these probes describe v1.32 (tests/adapters/test_upstream_releases.py: later ones).
    with UpstreamEngine(kube_version="1.32") as eng:
        yield eng


def make_job(**spec: Any) -> dict[str, Any]:
    """A Job as the controller's cache holds it (defaulted fields given explicitly)."""
    base: dict[str, Any] = {
        "selector": {"matchLabels": {"foo": "bar"}},
        "template": {
            "metadata": {"labels": {"foo": "bar"}},
            "spec": {"containers": [{"name": "c", "image": "foo/bar"}], "restartPolicy": "Never"},
        },
        "completions": 5,
        "parallelism": 2,
        "backoffLimit": 6,
        "suspend": False,
    }
    base.update(spec)
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "foobar", "namespace": "default", "uid": JOB_UID},
        "spec": base,
        "status": {},
    }


def job_sync(engine: UpstreamEngine, job: dict[str, Any] | None, **extra: Any) -> dict[str, Any]:
    case: dict[str, Any] = {"now": NOW, "job": job, "pods": []}
    case.update(extra)
    return engine.outcome("job-sync", case)


def test_build_harness_is_cached(engine: UpstreamEngine) -> None:
    first = build_harness()
    mtime = first.stat().st_mtime_ns
    second = build_harness()
    assert first == second
    assert second.is_file() and os.access(second, os.X_OK)
    assert second.stat().st_mtime_ns == mtime  # unchanged sources: no rebuild


def test_missing_go_is_an_error_not_a_skip(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)  # the module gobuild looks `go` up with
    with pytest.raises(HarnessError, match="`go` is not on PATH"):
        build_harness()


def test_harness_that_dies_is_an_error(tmp_path: Path) -> None:
    script = tmp_path / "dying-harness"
    script.write_text("#!/bin/sh\necho 'boom: no upstream here' >&2\nexit 3\n")
    script.chmod(0o755)
    with UpstreamEngine(binary=script) as eng, pytest.raises(HarnessError, match="boom"):
        eng.outcome("job-sync", {"now": NOW, "job": None, "pods": []})
    with (
        UpstreamEngine(binary=tmp_path / "missing") as eng,
        pytest.raises(HarnessError, match="cannot start"),
    ):
        eng.outcome("job-sync", {"now": NOW, "job": None, "pods": []})


def test_job_start_creates_parallelism_pods(engine: UpstreamEngine) -> None:
    out = job_sync(engine, make_job())
    expected_keys = {
        "error",
        "creations",
        "acceptedCreations",
        "createdPods",
        "createdIndexes",
        "deletions",
        "podPatches",
        "status",
        "conditions",
        "requeueAfterSeconds",
        "events",
    }
    assert expected_keys <= set(out)
    assert out["error"] is False
    assert out["creations"] == 2 and out["acceptedCreations"] == 2
    assert out["deletions"] == 0 and out["podPatches"] == 0
    assert out["createdIndexes"] == []
    for pod in out["createdPods"]:
        meta = pod["metadata"]
        assert meta["generateName"] == "foobar-"
        assert meta["labels"] == {"foo": "bar"}
        assert TRACKING_FINALIZER in meta["finalizers"]
        (owner,) = meta["ownerReferences"]
        assert owner["kind"] == "Job" and owner["uid"] == JOB_UID and owner["controller"] is True
        assert "hostname" not in pod["spec"]
    status = out["status"]
    assert status["active"] == 2
    assert status["startTime"] == NOW
    assert status["ready"] == 0
    assert out["conditions"] == []
    assert out["requeueAfterSeconds"] is None
    assert out["events"] == []


def test_indexed_job_pods_carry_their_index(engine: UpstreamEngine) -> None:
    out = job_sync(engine, make_job(completions=3, parallelism=2, completionMode="Indexed"))
    assert out["createdIndexes"] == [0, 1]
    for index, pod in enumerate(out["createdPods"]):
        assert pod["metadata"]["annotations"][INDEX_ANNOTATION] == str(index)
        assert pod["metadata"]["labels"][INDEX_ANNOTATION] == str(index)
        assert pod["metadata"]["generateName"] == f"foobar-{index}-"
        assert pod["spec"]["hostname"] == f"foobar-{index}"
        env = {e["name"]: e for e in pod["spec"]["containers"][0]["env"]}
        assert "JOB_COMPLETION_INDEX" in env


def test_pod_index_label_off_uses_the_previous_release(engine: UpstreamEngine) -> None:
    # PodIndexLabel is locked on in v1.32; upstream's test turns it off at emulation version 1.31.
    job = make_job(completions=1, parallelism=1, completionMode="Indexed")
    out = job_sync(engine, job, features={"PodIndexLabel": False})
    (pod,) = out["createdPods"]
    assert INDEX_ANNOTATION not in pod["metadata"]["labels"]
    assert pod["metadata"]["annotations"][INDEX_ANNOTATION] == "0"
    # The next request is back at the release's own gates.
    (pod,) = job_sync(engine, job)["createdPods"]
    assert pod["metadata"]["labels"][INDEX_ANNOTATION] == "0"


def test_pod_control_error_fails_the_step(engine: UpstreamEngine) -> None:
    out = job_sync(engine, make_job(), controller={"podControlError": "fake error"})
    assert out["error"] is True
    # Slow start: the first batch (one pod) fails, the rest is skipped.
    assert out["creations"] == 1
    assert out["acceptedCreations"] == 0 and out["createdPods"] == []


def test_pod_create_limit(engine: UpstreamEngine) -> None:
    job = make_job(completions=20, parallelism=10)
    out = job_sync(engine, job, controller={"podCreateLimit": 4})
    assert out["error"] is True
    assert out["acceptedCreations"] == 4
    # Batches of 1, 2, 4: the third batch is where the limit runs out.
    assert out["creations"] == 7


def test_active_deadline_requeues_at_the_deadline(engine: UpstreamEngine) -> None:
    job = make_job(activeDeadlineSeconds=60)
    job["status"] = {"startTime": "2024-06-01T11:59:30Z"}
    out = job_sync(engine, job)
    assert out["requeueAfterSeconds"] == 30


def test_past_active_deadline_fails_the_job(engine: UpstreamEngine) -> None:
    job = make_job(activeDeadlineSeconds=10)
    job["status"] = {"startTime": "2024-06-01T11:00:00Z"}
    out = job_sync(engine, job)
    types = {c["type"]: c for c in out["conditions"]}
    # With no pods left to terminate, FailureTarget and Failed land in one step.
    assert types["Failed"]["reason"] == "DeadlineExceeded"
    assert types["FailureTarget"]["reason"] == "DeadlineExceeded"
    assert out["events"] == ["DeadlineExceeded"]


def test_deleted_job_is_a_no_op(engine: UpstreamEngine) -> None:
    out = job_sync(engine, None)
    assert out["error"] is False and out["creations"] == 0 and out["deletions"] == 0


def test_bad_request_is_an_error_not_a_crash(engine: UpstreamEngine) -> None:
    with pytest.raises(CaseError, match="now"):
        engine.outcome("job-sync", {"now": "2024-06-01T12:00:00+99:00", "job": make_job(), "pods": []})
    with pytest.raises(CaseError, match="features"):
        job_sync(engine, make_job(), features={"NoSuchGate": True})
    # The process survives bad requests.
    assert job_sync(engine, make_job())["creations"] == 2


def test_the_harness_answers_raw_protocol_lines(engine: UpstreamEngine) -> None:
    """The harness's own side of the protocol: its handshake names the release go.mod pins, and
    lines the client would never send get well-formed answers."""
    hello = engine.handshake()
    assert protocol.problems(hello, "handshake") == []
    go_mod = (Path(__file__).resolve().parents[2] / "harness" / "upstream" / "go.mod").read_text()
    assert f"k8s.io/kubernetes {hello['kubernetesVersion']}\n" in go_mod
    assert set(hello["suites"]) == set(protocol.SUITES)
    lines = [
        "not json",
        json.dumps({"id": "a", "suite": "no-such-suite", "case": {}}),
        json.dumps({"id": 7, "suite": "job-sync", "case": {"now": "yesterday"}}),
    ]
    done = subprocess.run(
        [engine.command[0]], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True, timeout=60
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()[1:]]
    assert all(protocol.problems(a, "answer") == [] for a in answers)
    assert answers[0]["id"] is None and "not JSON" in answers[0]["error"]
    assert answers[1] == {"id": "a", "unsupported": 'suite "no-such-suite" is not answered by the upstream harness'}
    assert answers[2]["id"] == 7 and "now" in answers[2]["error"]


def test_deleted_and_patched_pods_are_named(engine: UpstreamEngine) -> None:
    """Too many active pods: upstream deletes the not-ready one first (controller.ActivePods),
    whatever the order of the cache; the tracking finalizer of the finished pod and of the deleted
    one is removed by a patch each (deleteJobPods, then removeTrackingFinalizerFromPods)."""

    def pod(name: str, phase: str, ready: bool) -> dict[str, Any]:
        status: dict[str, Any] = {"phase": phase}
        if ready:
            status["conditions"] = [{"type": "Ready", "status": "True", "lastTransitionTime": NOW}]
        return {
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {
                "name": name, "namespace": "default", "uid": f"{name}-uid", "labels": {"foo": "bar"},
                "creationTimestamp": "2024-06-01T11:00:00Z", "finalizers": [TRACKING_FINALIZER],
                "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": "foobar", "uid": JOB_UID, "controller": True}],
            },
            "spec": {"nodeName": "node"},
            "status": status,
        }

    pods = [pod("ready", "Running", True), pod("unready", "Running", False), pod("done", "Succeeded", False)]
    for order in (pods, pods[::-1]):
        out = job_sync(engine, make_job(parallelism=1, completions=5), pods=order)
        assert out["deletedPods"] == ["unready"]
        assert sorted(out["patchedPods"]) == ["done", "unready"]
        assert out["deletions"] == 1 and out["podPatches"] == 2
        model = model_outcome({"now": NOW, "job": make_job(parallelism=1, completions=5), "pods": order})
        assert (model["deletedPods"], sorted(model["patchedPods"])) == (["unready"], ["done", "unready"])


def test_validation_reports_field_errors(engine: UpstreamEngine) -> None:
    job = make_job(parallelism=-1)
    job["metadata"]["generation"] = 1
    out = engine.outcome("validation", {"kind": "Job", "operation": "create", "object": job})
    assert out["valid"] is False
    assert {"spec.parallelism"} <= {e["field"] for e in out["errors"]}
    assert all(e["type"].startswith("FieldValue") for e in out["errors"])


def test_defaulting_generates_the_selector(engine: UpstreamEngine) -> None:
    job = make_job()
    del job["spec"]["selector"]
    job["spec"]["template"]["metadata"]["labels"] = {}
    out = engine.outcome("defaulting", {"kind": "Job", "object": job})["object"]
    assert out["spec"]["selector"]["matchLabels"] == {"batch.kubernetes.io/controller-uid": JOB_UID}
    assert out["spec"]["template"]["metadata"]["labels"]["batch.kubernetes.io/job-name"] == "foobar"
    assert out["spec"]["manualSelector"] is False
    assert out["metadata"]["generation"] == 1


def test_schedule(engine: UpstreamEngine) -> None:
    case = {
        "schedule": "0 * * * *",
        "earliestTime": "2016-05-19T10:00:00Z",
        "now": "2016-05-19T12:30:00Z",
    }
    out = engine.outcome("schedule", case)
    assert out["error"] is False
    assert out["mostRecent"] == "2016-05-19T12:00:00Z"
    assert out["tooManyMissed"] is False
    assert out["next"] == "2016-05-19T13:00:00Z"
    assert engine.outcome("schedule", {**case, "schedule": "61 * * * *"})["error"] is True


@pytest.mark.parametrize("schedule", ["TZ=UTC", "CRON_TZ=UTC", "TZ="])
def test_a_panic_in_create_validation_fails_the_schedule_request(
    engine: UpstreamEngine, schedule: str
) -> None:
    # robfig/cron v3.0.1 panics on a TZ= prefix with no space; the API server recovers it (500).
    case = {"schedule": schedule, "earliestTime": NOW, "now": NOW}
    out = engine.outcome("schedule", case)
    assert out["error"] is True
    assert "panic in upstream code" in out["reason"] and "slice bounds out of range" in out["reason"]


def test_a_panic_in_validation_refuses_the_write_with_a_server_error(engine: UpstreamEngine) -> None:
    # validateSuccessPolicyRule reads *spec.Completions unguarded (docs/validation.md).
    job = make_job(completionMode="Indexed", successPolicy={"rules": [{"succeededCount": 1}]})
    del job["spec"]["completions"]
    job["metadata"]["generation"] = 1
    out = engine.outcome("validation", {"kind": "Job", "operation": "create", "object": job})
    assert out["valid"] is False and out["errors"] == []
    assert "nil pointer" in out["serverError"] and "500" in out["serverError"]


def _vector_files(conformance_dir: Path) -> list[Path]:
    return sorted(conformance_dir.glob("*.json"))


def test_every_shared_vector_through_upstream(
    engine: UpstreamEngine, conformance_dir: Path
) -> None:
    disagreements: dict[str, list[str]] = {}
    ran = 0
    for path in _vector_files(conformance_dir):
        doc = json.loads(path.read_text())
        suite = doc["suite"]
        if suite not in SUPPORTED_SUITES:
            continue
        module = suite_module(suite)
        assert module is not None, f"no comparison for suite {suite}"
        for case in doc["cases"]:
            ran += 1
            try:
                diffs = module.compare(case, engine.outcome(suite, copy.deepcopy(case)))
            except (NotImplementedError, CaseError) as err:
                diffs = [str(err)]
            if diffs:
                disagreements[f"{path.name}: {case['name']}"] = diffs
    assert ran > 0
    assert not disagreements, f"disagreements with upstream: {json.dumps(disagreements, indent=1)}"


def test_a_vectors_number_reaches_upstream_as_written(engine: UpstreamEngine) -> None:
    """A quantity given as a bare number is read by Quantity.UnmarshalJSON from its literal: the
    case passed on keeps `1E3` (not `1000.0`, which would be `1k`), and the model agrees."""
    case = parse_json(
        "vector",
        '{"kind": "Job", "object": {"apiVersion": "batch/v1", "kind": "Job", "metadata": {}, "spec": {"template":'
        ' {"spec": {"containers": [{"name": "c", "image": "i", "resources": {"limits": {"cpu": 1E3,'
        ' "memory": 0.1000000000000000000001}}}]}}}}}',
    )
    def limits(outcome: dict[str, Any]) -> Any:
        return outcome["object"]["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"]

    upstream = limits(engine.outcome("defaulting", case))
    assert upstream["cpu"] == "1E3"
    assert limits(defaulting.model_outcome(case)) == upstream
