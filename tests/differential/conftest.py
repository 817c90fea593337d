"""The differential tests run per Kubernetes release: each release's model against that release's
own upstream code (harness/upstream built for it), a test once a release (`upstream`) or, for
generated cases, each case at every release in turn (`upstreams`). JOBMODEL_KUBE_VERSIONS chooses the releases:
`all` for every supported one, or a comma-separated list (`1.34,1.36`). By default every supported
release (what `./dev test` and so CI run: each run checks every release against its upstream
code), but for the live tests the oldest and the newest (each release's control plane is a long
build of its own)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest
from hypothesis import note

from jobmodel.adapters.upstream import UpstreamEngine, build_harness, harness_environment
from jobmodel.conformance.suites import case_at_release
from jobmodel.features import NEWEST_RELEASE, SUPPORTED_MINORS, parse_kube_version


def differential_releases(*, every: bool = True) -> list[str]:
    """The releases selected (module docstring), oldest first; without `every`, a default
    selection is only the oldest and the newest (the live tests)."""
    value = os.environ.get("JOBMODEL_KUBE_VERSIONS", "").strip()
    if value == "all" or (not value and every):
        return [f"1.{m}" for m in SUPPORTED_MINORS]
    if value:
        return [f"1.{parse_kube_version(v, 'JOBMODEL_KUBE_VERSIONS')}" for v in value.split(",") if v.strip()]
    return [f"1.{SUPPORTED_MINORS[0]}", NEWEST_RELEASE]


def harness_answers(release: str, mode: str, requests: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One JSON answer per request from a mode of the release's harness that reads JSON lines
    (`--resolve-features`, `--pod-events`), the harness built if need be."""
    skip_without_go()
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    proc = subprocess.run(
        [str(build_harness(release)), mode], input=lines, capture_output=True, text=True, env=harness_environment(), timeout=600, check=True
    )
    return [json.loads(line) for line in proc.stdout.splitlines()]


class ReleaseUpstream:
    """Upstream's code of one release, and its cases: `case()` marks a generated case with the
    release (dropping the gates the release cannot set), `outcome()` asks that release's harness."""

    def __init__(self, release: str) -> None:
        self.release = release
        self.engine = UpstreamEngine(kube_version=release)

    def case(self, case: Mapping[str, Any], *, emulation: bool = False) -> dict[str, Any]:
        return case_at_release(case, self.release, emulation=emulation)

    def outcome(self, suite: str, case: Mapping[str, Any]) -> dict[str, Any]:
        return self.engine.outcome(suite, case)

    def close(self) -> None:
        self.engine.close()


def skip_without_go() -> None:
    if shutil.which("go") is None and os.environ.get("CI") != "true":
        pytest.skip("Go is not installed: the upstream harness cannot be built")


@pytest.fixture(scope="session")
def release_engines() -> Iterator[dict[str, ReleaseUpstream]]:
    """The harness of each release, started once a test process and shared by its tests."""
    engines: dict[str, ReleaseUpstream] = {}
    yield engines
    for engine in engines.values():
        engine.close()


def engine_at(engines: dict[str, ReleaseUpstream], release: str) -> ReleaseUpstream:
    skip_without_go()
    if release not in engines:
        engines[release] = ReleaseUpstream(release)
    return engines[release]


@pytest.fixture(scope="module", params=differential_releases())
def upstream(request: pytest.FixtureRequest, release_engines: dict[str, ReleaseUpstream]) -> ReleaseUpstream:
    """One selected release's upstream: the test runs once a release."""
    return engine_at(release_engines, str(request.param))


class EveryRelease:
    """The upstream of every selected release, for a generated case checked at each in turn:
    drawing a case costs about as much as checking it at one release, so a case is drawn once,
    not once a release (the releases drew the same cases from the run's seed anyway). Iterating
    notes the release, so that a failure's report names the one it failed at."""

    def __init__(self, upstreams: Sequence[ReleaseUpstream]) -> None:
        self.upstreams = tuple(upstreams)

    def __iter__(self) -> Iterator[ReleaseUpstream]:
        for upstream in self.upstreams:
            note(f"at Kubernetes {upstream.release}")
            yield upstream


@pytest.fixture(scope="module")
def upstreams(release_engines: dict[str, ReleaseUpstream]) -> EveryRelease:
    return EveryRelease([engine_at(release_engines, r) for r in differential_releases()])
