"""Small configurations shared by the invariant, machine and explorer tests."""

from __future__ import annotations

from typing import Any

from jobmodel.checkers.job import DEFAULT_IMPL, CheckConfig
from jobmodel.features import NEWEST_RELEASE
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


def config(
    manifest: dict[str, Any], *, impl: str = DEFAULT_IMPL, symmetry: bool = True, kube_version: str = NEWEST_RELEASE, **budget: Any
) -> CheckConfig:
    return CheckConfig(freeze(manifest), Budget(**budget), impl=impl, symmetry=symmetry, kube_version=kube_version)


BROKEN = "tests.checkers.broken"

# Each broken variant with a configuration in which it goes wrong, and the invariant that catches it.
# Ignoring expectations over-creates only up to 1.35: from 1.36 the consistency store waits too.
BROKEN_CASES = {
    "ignore_expectations": (job_manifest(2, 2, 1), {"stale": 1, "kube_version": "1.35"}, "no-over-creation"),
    "skip_backoff_limit": (job_manifest(1, 1, 0), {"failures": 1}, "backoff-limit-enforced"),
    "count_duplicate_index": (job_manifest(1, 1, 0, indexed=True), {"faults": 3}, "indexed-succeeded-counts-each-index-once"),
}


def broken_config(name: str, symmetry: bool = True) -> tuple[CheckConfig, str]:
    manifest, budget, invariant = BROKEN_CASES[name]
    return config(manifest, impl=f"{BROKEN}.{name}:sync_job", symmetry=symmetry, **budget), invariant
