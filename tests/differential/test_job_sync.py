"""The model's `sync_job` against upstream's `syncJob` (run through harness/upstream) on generated cases.

Every field the vectors compare is compared. Where upstream's own result is not defined (its
pod lister's order is a Go map's), the comparison looks at what is defined: the pod UIDs in
`uncountedTerminatedPods` as sets, the `FailJob` message only when one pod could give it, which
pods a quota refuses only by their number (upstream creates a batch from goroutines), and
otherwise the model must agree with upstream for some order of the pods.

A divergence is shrunk by Hypothesis and written to `tests/differential/found/` as a vector
file (the case with upstream's outcome as `expect`); move it to `tests/differential/vectors/`
once fixed, where `test_saved_vectors` keeps it fixed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

from jobmodel.conformance.job_sync import model_outcome
from jobmodel.conformance.runner import run_files
from tests.differential.conftest import ReleaseUpstream
from tests.differential.strategies import job_sync_cases

HERE = Path(__file__).resolve().parent
FOUND = HERE / "found"
EXAMPLES = 20000 if os.environ.get("HYPOTHESIS_PROFILE") == "long" else 3000


def _failed_pods(case: Mapping[str, Any]) -> int:
    return sum(
        1
        for p in case["pods"]
        if p["status"].get("phase") == "Failed" or p["metadata"].get("deletionTimestamp") is not None
    )


def canonical(outcome: Mapping[str, Any], case: Mapping[str, Any]) -> dict[str, Any]:
    """The parts of an outcome that upstream defines, in a form both engines write alike."""
    status = json.loads(json.dumps(outcome.get("status") or {}))
    uncounted = status.get("uncountedTerminatedPods")
    if isinstance(uncounted, dict):
        for key in ("succeeded", "failed"):
            if key in uncounted:
                uncounted[key] = sorted(uncounted[key])
                if not uncounted[key]:
                    del uncounted[key]
    for key, zero in (("active", 0), ("succeeded", 0), ("failed", 0), ("completedIndexes", "")):
        if status.get(key) == zero:
            del status[key]
    for cond in status.get("conditions", []):
        if cond.get("reason") == "PodFailurePolicy" and _failed_pods(case) > 1:
            cond["message"] = "<a FailJob rule's message>"
    created = []
    for pod in outcome.get("createdPods") or []:
        meta = pod.get("metadata", {})
        spec = pod.get("spec", {})
        created.append(
            {
                "generateName": meta.get("generateName"),
                "labels": meta.get("labels") or {},
                "annotations": meta.get("annotations") or {},
                "finalizers": meta.get("finalizers") or [],
                "ownerReferences": meta.get("ownerReferences") or [],
                "hostname": spec.get("hostname"),
                "env": [c.get("env") or [] for c in spec.get("containers") or []],
            }
        )
    created_indexes = outcome.get("createdIndexes")
    if (case.get("controller") or {}).get("podCreateLimit") is not None:
        # Upstream creates a batch's pods from goroutines: which of them the quota refuses is a race.
        created, created_indexes = [], None
    return {
        "error": outcome.get("error"),
        "creations": outcome.get("creations"),
        "acceptedCreations": outcome.get("acceptedCreations"),
        "createdPods": created,
        "createdIndexes": created_indexes,
        "deletions": outcome.get("deletions"),
        "podPatches": outcome.get("podPatches"),
        "status": status,
        "requeueAfterSeconds": _rounded(outcome.get("requeueAfterSeconds")),
        "events": outcome.get("events"),
    }


def _rounded(value: Any) -> Any:
    return None if value is None else round(float(value), 3)


def save_divergence(case: Mapping[str, Any], expected: Mapping[str, Any]) -> Path:
    """Write the case as a vector whose expectation is upstream's outcome."""
    FOUND.mkdir(exist_ok=True)
    vector = dict(case)
    vector["name"] = "differential: job-sync divergence"
    vector["expect"] = {k: v for k, v in expected.items() if k not in ("createdPods", "status")}
    vector["expect"]["status"] = expected["status"]
    path = FOUND / "job-sync-divergence.json"
    doc = {"format": "jobmodel-conformance/1", "suite": "job-sync", "source": "tests/differential", "cases": [vector]}
    path.write_text(json.dumps(doc, indent=1))
    return path


def pod_orders(case: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """The case with its pods in other orders (rotations, reversed rotations)."""
    pods = list(case["pods"])
    for order in (pods, pods[::-1]):
        for shift in range(len(order)):
            yield {**case, "pods": order[shift:] + order[:shift]}


def agrees_in_some_pod_order(case: Mapping[str, Any], expected: Mapping[str, Any]) -> bool:
    """Upstream lists pods from a cache in a Go map's order, so where its result depends on the
    order (which failed pod of an index waits for its replacement, say), the model must give
    upstream's result for some order of the pods."""
    return any(canonical(model_outcome(c), c) == expected for c in pod_orders(case))


@settings(max_examples=EXAMPLES)
@given(job_sync_cases())
def test_sync_job_agrees_with_upstream(upstream: ReleaseUpstream, case: dict[str, Any]) -> None:
    case = upstream.case(case)
    expected = canonical(upstream.outcome("job-sync", case), case)
    actual = canonical(model_outcome(case), case)
    if actual != expected and not agrees_in_some_pod_order(case, expected):
        path = save_divergence(case, expected)
        differing = {k: (actual[k], expected[k]) for k in expected if actual[k] != expected[k]}
        pytest.fail(f"model != upstream (model, upstream): {json.dumps(differing)}; case saved in {path}")


def test_saved_vectors() -> None:
    """Every divergence found so far stays fixed."""
    files = sorted((HERE / "vectors").glob("*.json"))
    if not files:
        pytest.skip("no saved divergences yet")
    import io

    out = io.StringIO()
    _passed, failed = run_files(files, out)
    assert failed == 0, out.getvalue()
