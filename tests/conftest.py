"""Shared test set-up: Hypothesis profiles and the location of the shared conformance vectors."""

from __future__ import annotations

import contextlib
import os
import random
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

# "ci": fast (the default); "long": more examples (./dev test --long, or HYPOTHESIS_PROFILE=long).
# Neither is derandomized: each run draws new cases from the seed `./dev test` prints and passes
# as --hypothesis-seed, so a failure reproduces with the same seed (and its shrunk example goes
# into the test file as an @example).
settings.register_profile(
    "ci",
    max_examples=200,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("long", max_examples=5000, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

if TYPE_CHECKING:
    from jobmodel.adapters.controlplane import ControlPlane

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


@pytest.fixture
def run_seed(request: pytest.FixtureRequest) -> int:
    """A seed for commands that draw their own cases (`oracle check --seed`): the run's Hypothesis
    seed, so that `HYPOTHESIS_SEED=N ./dev test` replays them too; a fresh one without it."""
    seed = request.config.getoption("hypothesis_seed", None)
    return int(seed) if seed is not None else random.SystemRandom().randrange(2**32)


# --- the local control plane (tests marked `live`) -------------------------------------------------


# Tests that run upstream's code through a Go harness get the `upstream` marker (pyproject.toml):
# whole files, and elsewhere the tests that use a harness fixture.
UPSTREAM_FILES = ("tests/differential/", "tests/adapters/test_upstream.py")
UPSTREAM_FIXTURES = frozenset({"harness", "go_sorters"})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(str(item.fspath)).resolve().relative_to(REPO_ROOT).as_posix()
        fixtures = set(getattr(item, "fixturenames", ()))
        if path.startswith(UPSTREAM_FILES) or fixtures & UPSTREAM_FIXTURES:
            item.add_marker(pytest.mark.upstream)


def pytest_configure(config: pytest.Config) -> None:
    # SIGTERM ends the session as Ctrl-C does, the fixtures' finalizers run (control planes
    # stopped, their directories removed): how `./dev test` stops its live part when interrupted.
    signal.signal(signal.SIGTERM, signal.default_int_handler)


def pytest_report_header(config: pytest.Config) -> str:
    seed = config.getoption("hypothesis_seed", None)
    profile = os.environ.get("HYPOTHESIS_PROFILE", "ci")
    return f"hypothesis: profile {profile}, seed {seed if seed is not None else 'random (none given)'}"


def _skip_or_fail(message: str) -> None:
    """Without Go a user's machine skips the live tests; CI (CI=true) fails them."""
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def session_plane() -> Iterator[ControlPlane]:
    """One control plane for the whole test session, of the vectors' line (1.32: the shared
    vectors' cases run on it), stopped (by PID) when the session ends."""
    import shutil

    from jobmodel.adapters.controlplane import ControlPlane
    from jobmodel.features import VECTOR_DEFAULT_RELEASE

    if shutil.which("go") is None:
        _skip_or_fail("Go is not installed: the control plane cannot be built")
    plane = ControlPlane.start(release=VECTOR_DEFAULT_RELEASE)
    try:
        yield plane
    finally:
        plane.remove()


@pytest.fixture(scope="session")
def newest_plane(session_plane: ControlPlane) -> Iterator[ControlPlane]:
    """A control plane of the newest release the local control plane is built for (the default;
    the session's runs the vectors' line, 1.32), for the tests that run both; stopped when the
    session ends."""
    from jobmodel.adapters.controlplane import CONTROL_PLANE_RELEASES, ControlPlane

    plane = ControlPlane.start(release=CONTROL_PLANE_RELEASES[-1])
    try:
        yield plane
    finally:
        plane.remove()


@pytest.fixture
def plane(session_plane: ControlPlane) -> ControlPlane:
    """The session's control plane with every component running and the default configuration
    (a test before may have restarted parts of it with other gates, or stopped one)."""
    from jobmodel.adapters.controlplane import COMPONENTS, ControllerConfig

    for name in COMPONENTS:
        component = session_plane.components.get(name)
        if component is None or not component.alive():
            session_plane.start_component(name)
    session_plane.reconfigure(ControllerConfig())
    return session_plane


@pytest.fixture
def namespace(plane: ControlPlane, request: pytest.FixtureRequest) -> Iterator[str]:
    """A namespace of its own for one test (its default ServiceAccount ready), deleted after."""
    import re
    import secrets

    from jobmodel.adapters.live import LiveCluster

    base = re.sub(r"[^a-z0-9-]", "-", request.node.name.lower())[:40].strip("-")
    name = f"{base}-{secrets.token_hex(3)}"
    cluster = LiveCluster.connect(plane.kubeconfig)
    try:
        cluster.create_namespace(name)
        cluster.wait_service_account(name)
        yield name
    finally:
        # The API server may be down after a fault test; the session's end removes everything.
        with contextlib.suppress(Exception):
            cluster.delete_namespace(name)
        cluster.close()
