"""Small configurations shared by the invariant, machine and explorer tests."""

from __future__ import annotations

from typing import Any

from jobmodel.checkers.job import DEFAULT_IMPL, CheckConfig
from jobmodel.frozen import freeze
from jobmodel.transitions.job_environment import Budget


def job_manifest(parallelism: int, completions: int | None, backoff_limit: int, *, indexed: bool = False, **spec: Any) -> dict[str, Any]:
    """A Job `j` in `default` with one container; `spec` adds fields."""
    body: dict[str, Any] = {
        "parallelism": parallelism,
        "backoffLimit": backoff_limit,
        "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "main", "image": "busybox"}]}},
        **spec,
    }
    if completions is not None:
        body["completions"] = completions
    if indexed:
        body["completionMode"] = "Indexed"
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j", "namespace": "default"}, "spec": body}


def config(manifest: dict[str, Any], *, impl: str = DEFAULT_IMPL, symmetry: bool = True, **budget: Any) -> CheckConfig:
    return CheckConfig(freeze(manifest), Budget(**budget), impl=impl, symmetry=symmetry)


BROKEN = "tests.checkers.broken"

# Each broken variant with a configuration in which it goes wrong, and the invariant that catches it.
BROKEN_CASES = {
    "ignore_expectations": (job_manifest(2, 2, 1), {"stale": 1}, "no-over-creation"),
    "skip_backoff_limit": (job_manifest(1, 1, 0), {"failures": 1}, "backoff-limit-enforced"),
    "count_duplicate_index": (job_manifest(1, 1, 0, indexed=True), {"faults": 3}, "indexed-succeeded-counts-each-index-once"),
}


def broken_config(name: str, symmetry: bool = True) -> tuple[CheckConfig, str]:
    manifest, budget, invariant = BROKEN_CASES[name]
    return config(manifest, impl=f"{BROKEN}.{name}:sync_job", symmetry=symmetry, **budget), invariant
