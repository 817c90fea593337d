"""jobmodel.conformance.oracle: the model's side of the oracle protocol. Every answer the model
gives to the shared vectors is a valid protocol message, and bad requests get error answers."""

from __future__ import annotations

import json
from pathlib import Path

from jobmodel.adapters import protocol
from jobmodel.conformance.oracle import answer_line, model_answer, model_handshake


def test_every_answer_to_the_shared_vectors_is_a_valid_message(conformance_dir: Path) -> None:
    checked = 0
    for path in sorted(conformance_dir.glob("*.json")):
        doc = json.loads(path.read_text())
        if doc["suite"] not in protocol.SUITES:
            continue
        for i, case in enumerate(doc["cases"]):
            request = protocol.request(i, doc["suite"], case)
            assert protocol.problems(request, "request") == [], (path.name, case["name"])
            answer = answer_line(protocol.encode(request), minor=32)  # the shared vectors are 1.32 cases
            assert protocol.problems(answer, "answer") == [], (path.name, case["name"])
            assert answer["id"] == i and "outcome" in answer, (path.name, case["name"], answer)
            assert protocol.problems(answer["outcome"], f"outcome/{doc['suite']}") == [], (path.name, case["name"])
            checked += 1
    assert checked > 500


def test_bad_requests_get_error_answers_naming_the_problem() -> None:
    assert answer_line("{oops")["error"].startswith("request: not JSON")
    bad = answer_line(json.dumps({"id": 4, "suite": "job-sync", "case": {"now": "2024-06-01T12:00:00Z", "job": {"spec": 3}}}))
    assert bad["id"] == 4 and "job.spec" in bad["error"]
    assert protocol.problems(bad, "answer") == []


def test_serve_level_gates_sit_under_the_case_gates() -> None:
    job = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"}, "spec": {"managedBy": "example.com/x", "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "i"}]}}}}
    case = {"kind": "Job", "object": job}
    # JobManagedBy can be turned off (GA and locked from 1.35: at emulation version 1.34 then).
    gated = model_answer("defaulting", case, {"JobManagedBy": False}, minor=34)["outcome"]["object"]["spec"]
    ungated = model_answer("defaulting", {**case, "features": {"JobManagedBy": True}}, {"JobManagedBy": False}, minor=34)["outcome"]["object"]["spec"]
    assert "managedBy" not in gated and ungated["managedBy"] == "example.com/x"
    assert model_handshake({"JobManagedBy": False}, minor=34)["features"] == {"JobManagedBy": False}
    assert model_handshake(minor=34)["kubernetesVersion"] == "v1.34.4"
    assert "managedBy" not in model_answer("defaulting", case, {"JobManagedBy": False}, minor=37)["outcome"]["object"]["spec"]
    # ElasticIndexedJob is GA from 1.31, the oldest emulation version: it cannot be turned off.
    assert "ElasticIndexedJob" in model_answer("defaulting", case, {"ElasticIndexedJob": False}, minor=33)["error"]


def test_the_served_release_is_the_release_of_every_case() -> None:
    """A 1.36+ behaviour: suspending a started Job clears its startTime (1.32 keeps it)."""
    job = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j", "namespace": "default", "uid": "u"},
           "spec": {"suspend": True, "parallelism": 1, "completions": 1, "backoffLimit": 6, "completionMode": "NonIndexed", "selector": {"matchLabels": {"a": "b"}},
                    "template": {"metadata": {"labels": {"a": "b"}}, "spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "i"}]}}},
           "status": {"startTime": "2024-06-01T11:00:00Z"}}
    case = {"now": "2024-06-01T12:00:00Z", "job": job, "pods": []}
    old = model_answer("job-sync", case, minor=32)["outcome"]["status"]
    new = model_answer("job-sync", case, minor=37)["outcome"]["status"]
    assert old.get("startTime") == "2024-06-01T11:00:00Z" and "startTime" not in new
