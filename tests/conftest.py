"""Shared test set-up: Hypothesis profiles and the location of the shared conformance vectors."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# "ci": fast and deterministic (the default); "long": more examples, for local runs
# (HYPOTHESIS_PROFILE=long pytest).
settings.register_profile(
    "ci",
    max_examples=200,
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("long", max_examples=5000, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

REPO_ROOT = Path(__file__).resolve().parent.parent


def find_conformance_dir() -> Path | None:
    """$JOBMODEL_CONFORMANCE_DIR, else ../shared/conformance beside the checkout."""
    env = os.environ.get("JOBMODEL_CONFORMANCE_DIR")
    candidate = Path(env) if env else REPO_ROOT.parent / "shared" / "conformance"
    return candidate if candidate.is_dir() else None


@pytest.fixture(scope="session")
def conformance_dir() -> Path:
    """The shared vectors: skipped with a reason on a user's machine without them, a failure in CI."""
    found = find_conformance_dir()
    if found is None:
        message = "shared conformance vectors not found (set JOBMODEL_CONFORMANCE_DIR or put them at ../shared/conformance)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return found
