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
            answer = answer_line(protocol.encode(request))
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
    gated = model_answer("defaulting", case, {"JobManagedBy": False})["outcome"]["object"]["spec"]
    ungated = model_answer("defaulting", {**case, "features": {"JobManagedBy": True}}, {"JobManagedBy": False})["outcome"]["object"]["spec"]
    assert "managedBy" not in gated and ungated["managedBy"] == "example.com/x"
    assert model_handshake({"JobManagedBy": False})["features"] == {"JobManagedBy": False}
